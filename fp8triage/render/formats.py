"""The output formats of a scan result, in one registry: ``render(result, fmt, options) -> str``.

`scan`, `report` and the library use it; each format's renderer is imported only when used. The
rendered text is checked for secrets once more before it is returned (``redact.redact_report``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..model import ScanResult


@dataclass(frozen=True)
class Options:
    verbose: bool = False  # also ruled-out findings, every fact, remedies that do not fit
    color: bool = False  # ANSI colours (text)
    width: int = 100  # wrap width (text)
    exit_code: int | None = None  # the run's exit code (JSON)
    exit_note: str = ""  # the closing line (text)


def _text(result: ScanResult, o: Options) -> str:
    from .text import render_text

    return render_text(result, color=o.color, verbose=o.verbose, exit_note=o.exit_note, width=o.width)


def _json(result: ScanResult, o: Options) -> str:
    from .jsonout import render_json

    return render_json(result, exit_code=o.exit_code)


def _jsonl(result: ScanResult, o: Options) -> str:
    from .jsonl import render_jsonl

    return render_jsonl(result, exit_code=o.exit_code)


def _markdown(result: ScanResult, o: Options) -> str:
    from .markdown import render_markdown

    return render_markdown(result, verbose=o.verbose)


def _html(result: ScanResult, o: Options) -> str:
    from .html import render_html

    return render_html(result, verbose=o.verbose)


FORMATS: dict[str, Callable[[ScanResult, Options], str]] = {
    "text": _text,
    "json": _json,
    "jsonl": _jsonl,
    "markdown": _markdown,
    "html": _html,
}


def render(result: ScanResult, fmt: str, options: Options = Options()) -> str:
    """``result`` in format ``fmt`` (a key of FORMATS), secrets masked."""
    from ..common.redact import redact_report

    try:
        renderer = FORMATS[fmt]
    except KeyError:
        raise ValueError(f"unknown output format {fmt!r}; one of {', '.join(FORMATS)}") from None
    return redact_report(renderer(result, options), fmt)
