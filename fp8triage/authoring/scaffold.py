"""Unknown errors become signatures: a signature file scaffolded from a history error group.

``fp8triage signatures new ID --from-fingerprint FP`` takes the group that history stored for
``FP`` (its masked headline and its sample lines, redacted), turns the headline's line into a
starting regex (literal text escaped; the volatile tokens that the fingerprint masks, such as
numbers, hex, paths and ranks, become patterns that match any value of them), picks its
longest literal run as the prefilter anchor, writes the signature through
``fp8triage.authoring.sigtools.scaffold`` and the sample lines as a ``match`` sample.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import regex

from ..common.masks import MASKS, mask
from ..errors import TriageError

# what each fingerprint mask stands for, as a regex that matches any value it masked
_ANY = {
    "uuid": r"[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}",
    "hex": r"(?:0x)?[0-9a-fA-F]+",
    "ip": r"\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?",
    "long-hex": r"[0-9a-f]+",
    "dirs": r"(?:[^\s/\\\"'(),:`]*[/\\])*",
    "elided-dirs": r"(?:[\w.-]+/)*",
    "worker-ids": r"\s?\d+",
    "number": r"\d+(?:\.\d+)*",
    "redacted": r"\S+",
}
_PH0 = 0xE000  # private-use code points stand for the masked spans while the text is escaped
_NAMES = list(_ANY)
_MIN_ANCHOR = 5


class ScaffoldError(TriageError):
    """The group cannot be turned into a signature. One sentence."""


@dataclass
class Draft:
    pattern: str  # regex for the signature's evidence
    anchor: str  # literal text the evidence cannot appear without
    line: str  # the sample line the pattern was made from


def _ph(name: str) -> str:
    return chr(_PH0 + _NAMES.index(name))


def pattern_from_line(text: str) -> Draft:
    """A regex that matches ``text`` and the same message with other numbers, paths, ranks, ..."""
    work = text.strip().replace("<redacted>", _ph("redacted"))
    for name, rx, repl in MASKS:
        if name == "space":
            continue
        if name == "worker-ids":
            work = rx.sub(lambda m: m.group(1) + _ph(name), work)
        elif callable(repl):  # the mask decides per match (long-hex: only words with a letter and a digit)
            work = rx.sub(lambda m, n=name, r=repl: _ph(n) if r(m) != m.group() else m.group(), work)
        else:
            work = rx.sub(lambda m, n=name: _ph(n), work)
    parts: list[str] = []
    literals: list[str] = []
    lit = []
    for ch in work:
        code = ord(ch) - _PH0
        if 0 <= code < len(_NAMES):
            if lit:
                literals.append("".join(lit))
                parts.append(_escape("".join(lit)))
                lit = []
            if not parts or parts[-1] != _ANY[_NAMES[code]]:
                parts.append(_ANY[_NAMES[code]])
        else:
            lit.append(ch)
    if lit:
        literals.append("".join(lit))
        parts.append(_escape("".join(lit)))
    anchor = max((s.strip() for s in literals), key=len, default="")
    return Draft("".join(parts), anchor, text.strip())


def _escape(s: str) -> str:
    return r"\s+".join(regex.escape(chunk) for chunk in regex.split(r"\s+", s))


def _pick_line(headline: str, sample: list[dict]) -> str | None:
    """The sample line that the (masked) headline was made from."""
    best, best_len = None, 0
    for s in reversed(sample):
        t = (s.get("text") or "").strip()
        if not t:
            continue
        m = mask(t)
        if headline.startswith(m) and len(m) > best_len:
            best, best_len = t, len(m)
        elif not best and headline[:40] and headline[:40] in m:
            best = t
    return best


def draft_for_group(group: dict) -> Draft:
    headline = group.get("headline") or ""
    sample = group.get("sample") or []
    line = _pick_line(headline, sample)
    if line is None:
        if not headline:
            raise ScaffoldError(f"group {group.get('fingerprint')} has neither a headline nor sample lines to start from")
        # the headline is masked already: its tokens become patterns
        line = regex.sub(r"<N>", "0", regex.sub(r"<HEX>|<UUID>|<IP>", "0x0", headline))
    d = pattern_from_line(line)
    if len(d.anchor) < _MIN_ANCHOR:
        raise ScaffoldError(
            f"group {group.get('fingerprint')}'s message ({headline[:80]!r}) has no literal text of {_MIN_ANCHOR}+ "
            "characters to anchor a signature on; write it by hand with `fp8triage signatures new ID --anchor TEXT`"
        )
    rx = regex.compile(d.pattern)
    sample_text = "\n".join(s.get("text", "") for s in sample)
    if sample and not rx.search(sample_text):
        # never hand out a pattern that misses its own sample: fall back to the literal anchor
        d = Draft(regex.escape(d.anchor, literal_spaces=True), d.anchor, d.line)
    return d


def scaffold_from_fingerprint(sig_id: str, fingerprint: str, sig_dir: Path | None = None,
                              db: str | None = None) -> list[Path]:
    """Write signatures/ID.toml from history group ``fingerprint`` and its sample as a match sample.

    Raises ScaffoldError, fp8triage.store.history.HistoryError or fp8triage.authoring.sigtools.SigToolsError.
    """
    from . import sigtools
    from ..store.history import find_group

    group = find_group(fingerprint, db)
    d = draft_for_group(group)
    if "'''" in d.pattern:
        raise ScaffoldError("the generated pattern contains ''' and cannot be written as a TOML literal string")
    header = (f"# Scaffolded from history error group {group['fingerprint']} ({group.get('kind')}, "
              f"seen {group.get('count')} time(s) in {group.get('runs')} run(s)).\n"
              f"# Masked message: {(group.get('headline') or '')[:200]}\n")
    made = sigtools.scaffold(sig_id, sig_dir, d.anchor, pattern=d.pattern, header=header)
    sample = group.get("sample") or []
    if sample:
        sdir = made[0].parent / "samples" / sig_id / "match"
        sdir.mkdir(parents=True, exist_ok=True)
        sfile = sdir / f"history-{group['fingerprint']}.log"
        sfile.write_text("\n".join(s.get("text", "") for s in sample) + "\n", encoding="utf-8")
        made.append(sfile)
    return made

