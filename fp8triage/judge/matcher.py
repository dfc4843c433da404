"""Signatures × event groups → claims: the first of the two matching steps.

Two steps, because facts captured by evidence patterns (``(?P<fact_capability>...)``) join
the fact pool before conditions are judged:

1. ``claim`` (here): each event group is claimed by at most one signature (highest priority among
   those whose primary pattern matches; anchors are checked first, so most signatures never
   run their regex on most events); rules over component x failure kind when no message says it.
2. ``verdict.judge``: conditions and remedies are evaluated against the facts in force and each
   claim becomes a ``Finding`` with a status.

Matching is read-only: nothing here changes the catalogue or the events.
"""
from __future__ import annotations

from dataclasses import replace

from ..catalogue.loader import Catalogue, Pattern, Signature
from . import recognise
from .claims import PATTERN_SPECIFICITY, Claims, Group, Hit, Match
from .cuts import match_cut, match_elided
from .patterns import match_pattern, not_shown, other_failure, quoted_in_sentence
from ..facts.vocabulary import canonical_name, normalise_value
from ..model import EventKind, Fact



def _candidates(cat: Catalogue, text: str) -> list[Signature]:
    low = text.lower() if any(s.anchors_ignore_case for s in cat.signatures) else None
    return [sig for sig in cat.signatures if sig.has_anchor(text, low)]


def claim(cat: Catalogue, groups: list[Group], claims: Claims | None = None) -> Claims:
    """Match each group against the catalogue. Can be called again with new groups (follow mode)."""
    claims = claims or Claims()
    for g in groups:
        text = g.event.text
        if g.event.wrapped:  # an anchor may be cut in two by the wrap
            text = "\n".join([text, *(t for sep in ("", " ") for _, t in g.event.unwrapped(sep))])
        cands = _candidates(cat, text)
        matched = _pattern_hits(cat, cands, g, claims)
        reading = None
        if not any(h.strong for h in matched):
            reading = recognise.read(g.event, context=frozenset(claims.context))
            matched = _with_rules(cat, g, matched, reading)
        elif any(h.sig.yields_to for h in matched) and _symptom_beside(g, matched):
            # a message claimed the event, and another of its lines shows a symptom (a warning and a
            # collapsed score written up as one record): the silent failures it yields to still read it
            reading = recognise.read(g.event, context=frozenset(claims.context))
            matched = matched + [h for h in rule_hits(cat, g, reading) if h.sig.silent]
        # what the groups so far name is the context of a later symptom line (a write-up that names
        # DeepGEMM, then shows a zero eval score): earlier groups only, so follow mode reads the same
        claims.context |= (reading or recognise.read(g.event)).components
        silent = [h for h in matched if h.sig.silent and h.pattern.kind == "rule"]
        matched = [h for h in matched if not (h.sig.silent and h.pattern.kind == "rule")]
        if matched:
            _record(cat, g, matched, claims)
        # a symptom in an event a message claimed still supports a silent failure the claimer yields to
        _support(cands, g, silent, claims, {y for h in matched if h.strong for y in h.sig.yields_to})
    return claims


def _symptom_beside(g: Group, matched: list[Hit]) -> bool:
    """Whether a line of the event other than the ones the messages matched states a symptom (a risk
    warning's own "might cause accuracy degradation" is no symptom seen)."""
    taken = {h.match.line for h in matched if h.strong}
    for i in sorted(taken):  # and the tails a terminal wrapped them into
        while i + 1 in g.event.wrapped:
            i += 1
            taken.add(i)
    rest = "\n".join(ln.text for i, ln in enumerate(g.event.lines) if i not in taken)
    return bool(rest) and recognise.vocabulary().states_symptom(rest)


def _other_format(cat: Catalogue, sig: Signature, g: Group) -> bool:
    """Does the event name only number formats the signature's failure is not about (a FlashInfer JIT's
    "No supported CUDA architectures found" raised building its FP4 MoE module)? Its message is then
    named, not claimed. A signature without rules is about what the families it refines are about."""
    formats = recognise.signature_formats(sig, cat)
    if not formats:
        return False
    # (MXFP8 beside FP8 names FP8 too; a build's "-DENABLE_FP8" names nothing)
    named = recognise.vocabulary().formats_of(recognise.without_defines(g.event.text), hidden=True)
    return bool(named) and not named & formats


def _pattern_hits(cat: Catalogue, cands: list[Signature], g: Group, claims: Claims) -> list[Hit]:
    """Each candidate's first primary pattern that matches the group (strong ones first); a cut
    message when nothing matched a lone error."""
    matched: list[Hit] = []
    for sig in cands:
        # strong evidence first: a signature's message pattern beats its frames, locations, tokens
        for p in sorted(sig.primary, key=lambda p: p.strength != "strong"):
            m = match_pattern(p, g.event, claims, sig)
            if m is None:
                continue
            if p.strength == "strong" and (not_shown(g.event, m) or quoted_in_sentence(g.event, m)
                                           or _other_format(cat, sig, g)):
                # the message inside a quoted source excerpt (a write-up that shows the library's
                # `raise`): what the library can say, not what the reporter hit; or in a sentence that
                # says it is gone (a workaround fixed it): what the reporter hit before; or quoted in a
                # sentence, or the reporter's guess at the cause: named, not shown
                p = replace(p, kind="message", strength="weak")
            hit = Hit(sig, p, m, g)
            hit.specificity = PATTERN_SPECIFICITY.get(hit.pattern.kind, 4)
            matched.append(hit)
            break
    if not matched and g.event.kind is EventKind.LINE and recognise.states_failure(g.event):
        matched = _quoted_in_prose(cands, g, claims)
    elif matched and all(h.sig.severity == "info" for h in matched):
        # a notice that gives the failure it stepped around as its reason ("DeepGEMM declined this call, falling back
        # to Triton. Reason: DeepGEMM has no float32 scale-factor path ..."): that failure's message, weak
        matched += _quoted_in_prose([s for s in cands if s.severity != "info"], g, claims)
    if not matched and g.count == 1 and g.event.is_error:
        matched = match_cut(cat, g)
    if not matched:
        matched = match_elided(cat, g)
    for h in matched:
        h.other_format = _other_format(cat, h.sig, g)
    return matched


def _quoted_in_prose(cands: list[Signature], g: Group, claims: Claims) -> list[Hit]:
    """A sentence that quotes a failure's message ("loading it on a B200 raises `no float32
    scale-factor path on Blackwell`"): the message patterns that are kept to error events read it
    too, as weak evidence (a sentence alone gives at most `possible`)."""
    for sig in cands:
        for p in sig.primary:
            if p.kind != "message" or not p.kinds:
                continue
            m = match_pattern(replace(p, kinds=frozenset(), exc_types=frozenset()), g.event, claims, sig)
            if m is not None:
                hit = Hit(sig, replace(p, strength="weak"), m, g)
                hit.specificity = PATTERN_SPECIFICITY.get("message", 4)
                return [hit]
    return []


def _with_rules(cat: Catalogue, g: Group, matched: list[Hit], reading: "recognise.Reading") -> list[Hit]:
    """Weak pattern hits checked against the event's number formats, and the rules that say more."""
    # frames or a location of an FP8 component in an event about another format only (FP4, INT8)
    matched = [h for h in matched if recognise.format_fits(h.sig, reading)]
    # a rule that says more than a signature's own weak pattern (frames or a location) replaces it
    ruled = rule_hits(cat, g, reading)
    # a specific case's message (even quoted in a sentence) says more than its broader failure's component x kind
    refined = {fam for h in matched if h.pattern.kind == "message" for fam, comp in h.sig.refines
               if (comp is None or comp in reading.components)
               and h.pattern.name in h.sig.refine_patterns.get(fam, (h.pattern.name,))}
    ruled = [h for h in ruled if h.sig.id not in refined]
    better = {h.sig.id for h in ruled if all(h.specificity > m.specificity for m in matched if m.sig is h.sig)}
    return [m for m in matched if m.sig.id not in better] + [h for h in ruled if h.sig.id in better]


def _record(cat: Catalogue, g: Group, matched: list[Hit], claims: Claims) -> None:
    """The best hit claims the group; the others are kept for the facts to choose among (weak) or listed."""
    # the failure's own message beats a signature that only recognised the frames or location,
    # and a signature's own weak pattern beats a rule over component and failure kind
    rank = lambda h: (h.strong, h.specificity, h.named, h.sig.priority, -cat.signatures.index(h.sig))  # noqa: E731
    best = max(matched, key=rank)
    claims.primary.setdefault(best.sig.id, []).append(best)
    failures = [h for h in matched if h is not best and h.sig.severity != "info"]
    if best.sig.severity == "info" and failures:
        # a notice that states a failure in its own words ("DeepGEMM declined this call, falling back to Triton.
        # Reason: ... current device is SM121"): that failure is found too, on the same line
        second = max(failures, key=rank)
        claims.primary.setdefault(second.sig.id, []).append(second)
    claims.claimed.add(g.fingerprint)
    if not best.strong and len(matched) > 1:
        # frames, a location or tokens shared by several causes: the facts choose (``verdict.judge``)
        claims.weak[g.fingerprint] = matched
    others = [h.sig.id for h in matched if h is not best]
    if others:
        claims.also[g.fingerprint] = others
    for name, value, idx in best.match.facts:
        ln = g.event.lines[idx]
        fname = canonical_name(name[5:]) or name[5:]
        claims.facts.append(
            Fact(fname, normalise_value(fname, value), f"log {ln.source}:{ln.lineno} (matched by {best.sig.id})", "log")
        )


def _support(cands: list[Signature], g: Group, silent: list[Hit], claims: Claims,
             yielded_to: set[str] = frozenset()) -> None:
    """Supporting patterns, and a silent failure's rule hits (symptom lines like its own symptom patterns)."""
    supported = set()
    for sig in cands:
        for p in sig.supporting:
            m = match_pattern(p, g.event, claims, sig)
            if m is not None:
                claims.supporting.setdefault(sig.id, []).append(Hit(sig, p, m, g))
                supported.add(sig.id)
                break
    for h in silent:
        if h.sig.id not in supported and (g.fingerprint not in claims.claimed or h.sig.id in yielded_to):
            claims.supporting.setdefault(h.sig.id, []).append(h)


def rule_hits(cat: Catalogue, g: Group, reading: "recognise.Reading") -> list[Hit]:
    """Weak hits from the signatures' rules over component x failure kind (recognise.py)."""
    ev = g.event
    if not ev.lines or other_failure(ev):
        return []
    out = []
    for sig, rule in recognise.hits(cat, ev, reading):
        p = Pattern(recognise.describe(rule, reading), "", None, "primary", frozenset(), kind="rule", strength="weak")
        out.append(Hit(sig, p, Match(reading.failure_line, None), g, recognise.score(rule, reading),
                       recognise.named(rule, reading)))
    return out


