"""Every command's output, in one registry keyed by (document kind, format).

``render_as(kind, doc, fmt, options) -> str`` is the whole text a command writes for a document
(its trailing newline included); ``formats(kind)`` lists a kind's formats in the order its
``--format`` option offers them, so each command's choices come from here. ``render(result, fmt,
options)`` is the scan result's entry (``kind="scan"``), as `scan`, `report` and the library use it.
Each renderer is imported only when used. A scan result's text is checked for secrets once more
before it is returned (``redact.redact_report``).

The kinds and their documents:

=================  ==========================  ===========================================
kind               document                    command
=================  ==========================  ===========================================
scan               ``ScanResult``              ``scan``
report             ``ScanResult``              ``report``
follow             one ``Notice``              ``scan --follow`` (each notice)
follow-summary     ``FollowSummary``           ``scan --follow`` (the closing record)
check              ``CheckResult``             ``check``
env                the probe's result          ``env``
facts              a list of ``FactSpec``      ``facts``
remedy             ``RemedyDoc``               ``remedy``
repro              a list of result dicts      ``repro``
history            the query's dict            ``history``
history-import     ``ImportReport``            ``history import``
signatures-list    a list of summary rows      ``signatures list``
signatures-show    the show dict               ``signatures show``
signatures-search  a list of search rows       ``signatures search``
=================  ==========================  ===========================================
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

from ..errors import TriageError


@dataclass(frozen=True)
class Options:
    verbose: bool = False  # also ruled-out findings, every fact, remedies that do not fit
    color: bool = False  # ANSI colours (text)
    width: int = 100  # wrap width (text)
    exit_code: int | None = None  # the run's exit code (JSON)
    exit_note: str = ""  # the closing line (text)
    device: str = "auto"  # where the repros ran (repro JSON)
    wall_s: float | None = None  # how long the repros took (repro)
    run_id: str | None = None  # the run a follow notice belongs to (follow jsonl)
    source: str = ""  # the followed input's name (follow jsonl)


class FormatError(TriageError, ValueError):
    """A document kind and format that the registry does not hold. One sentence."""

    usage = True


Renderer = Callable[[Any, Options], str]
REGISTRY: dict[tuple[str, str], Renderer] = {}
REDACTED_KINDS = frozenset({"scan", "report"})  # checked for secrets once more (``redact_report``)


def _entry(kind: str, *fmts: str) -> Callable[[Renderer], Renderer]:
    def add(fn: Renderer) -> Renderer:
        for fmt in fmts:
            REGISTRY[(kind, fmt)] = fn
        return fn

    return add


def _dumps(doc: Any, **kw: Any) -> str:
    return json.dumps(doc, indent=2, **kw) + "\n"


# -- a scan result: scan, report ----------------------------------------------------------------

@_entry("scan", "text")
def _text(result, o: Options) -> str:
    from .text import render_text

    return render_text(result, color=o.color, verbose=o.verbose, exit_note=o.exit_note, width=o.width)


@_entry("scan", "json")
def _json(result, o: Options) -> str:
    from .jsonout import render_json

    return render_json(result, exit_code=o.exit_code)


@_entry("scan", "jsonl")
def _jsonl(result, o: Options) -> str:
    from .jsonl import render_jsonl

    return render_jsonl(result, exit_code=o.exit_code)


@_entry("scan", "markdown")
def _markdown(result, o: Options) -> str:
    from .markdown import render_markdown

    return render_markdown(result, verbose=o.verbose)


@_entry("scan", "html")
def _html(result, o: Options) -> str:
    from .html import render_html

    return render_html(result, verbose=o.verbose)


REGISTRY[("report", "html")] = _html
REGISTRY[("report", "markdown")] = _markdown


# -- scan --follow: each notice, then the summary -------------------------------------------------

def _follow_line(kind: str, fmt: str) -> None:
    """Register the renderer of one ``scan --follow`` line: render/follow.py's ``<kind>_<fmt>``, one line
    (a notice's JSON line also carries the run id and the source)."""
    def render(item, o: Options) -> str:
        from . import follow

        fn = getattr(follow, f"{kind}_{fmt}")
        line = fn(item, run_id=o.run_id, source=o.source) if (kind, fmt) == ("notice", "jsonl") else fn(item)
        return line + "\n"

    REGISTRY[("follow" if kind == "notice" else "follow-summary", fmt)] = render


for _kind in ("notice", "summary"):
    for _fmt in ("text", "json", "jsonl"):
        _follow_line(_kind, _fmt)


# -- check, env, facts --------------------------------------------------------------------------

@_entry("check", "text")
def _check_text(result, o: Options) -> str:
    from .facts_text import render_check_text

    return render_check_text(result, o.verbose)


@_entry("check", "json")
def _check_json(result, o: Options) -> str:
    from .facts_text import render_check_json

    return render_check_json(result, o.exit_code)


@_entry("env", "text")
def _env_text(probe, o: Options) -> str:
    from .facts_text import render_env_text

    return render_env_text(probe)


@_entry("env", "json")
def _env_json(probe, o: Options) -> str:
    from .facts_text import render_env_json

    return render_env_json(probe)


@_entry("facts", "text")
def _facts_text(specs, o: Options) -> str:
    from .facts_text import render_fact_specs_text

    return render_fact_specs_text(specs)


@_entry("facts", "json")
def _facts_json(specs, o: Options) -> str:
    from .facts_text import render_fact_specs_json

    return render_fact_specs_json(specs)


# -- remedy, repro ------------------------------------------------------------------------------

@_entry("remedy", "sh")
def _remedy_sh(doc, o: Options) -> str:
    from .remedy import render_sh

    return render_sh(doc.signature, doc.remedies)


@_entry("remedy", "json")
def _remedy_json(doc, o: Options) -> str:
    from .remedy import remedy_dict

    return _dumps(remedy_dict(doc.signature, doc.remedies, doc.facts), ensure_ascii=True)


@_entry("remedy", "text")
def _remedy_text(doc, o: Options) -> str:
    from .remedy import render_text

    return render_text(doc.signature, doc.remedies)


@_entry("repro", "text")
def _repro_text(results, o: Options) -> str:
    from .repro import render_text

    return render_text(results, wall_s=o.wall_s, verbose=o.verbose)


@_entry("repro", "json")
def _repro_json(results, o: Options) -> str:
    from .repro import render_json

    return render_json(results, device=o.device, wall_s=o.wall_s) + "\n"


# -- history, history import --------------------------------------------------------------------

@_entry("history", "text")
def _history_text(data, o: Options) -> str:
    from .history import render_text

    return render_text(data)


@_entry("history", "json")
def _history_json(data, o: Options) -> str:
    return _dumps(data, ensure_ascii=True)


@_entry("history-import", "text")
def _import_text(report, o: Options) -> str:
    from .history import render_import_text

    return render_import_text(report)


@_entry("history-import", "json")
def _import_json(report, o: Options) -> str:
    from .history import import_dict

    return _dumps(import_dict(report), ensure_ascii=True)


# -- signatures list, show, search ---------------------------------------------------------------

@_entry("signatures-list", "text")
def _list_text(rows, o: Options) -> str:
    from .signature import render_list

    return render_list(rows)


@_entry("signatures-show", "text")
def _show_text(info, o: Options) -> str:
    from .signature import render_show

    return render_show(info) + "\n"


@_entry("signatures-search", "text")
def _search_text(rows, o: Options) -> str:
    from .signature import render_search

    return render_search(rows)


@_entry("signatures-list", "json")
@_entry("signatures-show", "json")
@_entry("signatures-search", "json")
def _signatures_json(doc, o: Options) -> str:
    return _dumps(doc)


def kinds() -> tuple[str, ...]:
    """Every document kind, in the order of registration."""
    return tuple(dict.fromkeys(kind for kind, _fmt in REGISTRY))


def formats(kind: str) -> tuple[str, ...]:
    """The formats of ``kind``, in the order a command's ``--format`` offers them."""
    fmts = tuple(fmt for k, fmt in REGISTRY if k == kind)
    if not fmts:
        raise FormatError(f"unknown document kind {kind!r}; one of {', '.join(kinds())}")
    return fmts


def render_as(kind: str, doc: Any, fmt: str, options: Options = Options()) -> str:
    """``doc`` (a document of ``kind``) in format ``fmt``: the whole text a command writes."""
    renderer = REGISTRY.get((kind, fmt))
    if renderer is None:
        raise FormatError(f"unknown output format {fmt!r} for {kind}; one of {', '.join(formats(kind))}")
    text = renderer(doc, options)
    if kind in REDACTED_KINDS:
        from ..common.redact import redact_report

        text = redact_report(text, fmt)
    return text


def render(result, fmt: str, options: Options = Options()) -> str:
    """``result`` (a ``ScanResult``) in format ``fmt`` (one of FORMATS), secrets masked."""
    return render_as("scan", result, fmt, options)


FORMATS = formats("scan")
