"""Evidence patterns matched against an event: messages (regular expressions, with a time limit),
traceback frames, source locations and token sets; and whether a matched message is the failure the log
shows (``not_shown``). A message cut short is read by cuts.py.
"""
from __future__ import annotations

import functools
from typing import Any

import regex

from ..catalogue.loader import Pattern, Signature
from ..common import rxcache
from ..common.frames import FRAME, NUMBERED_SOURCE
from .claims import Claims, Match
from ..model import Event, EventKind


REGEX_TIMEOUT = 1.0  # seconds for one pattern on one event; a runaway pattern is reported, not fatal

# source locations an event names: C++/CUDA/Python files (with or without a line number) and JIT paths.
# Found from the extension backwards, so the cost stays linear on any line (a regex that scans a path
# from every start position is quadratic on a megabyte of word characters).
_LOC_EXT = rxcache.compile(r"\.(?:cuh|cu|hpp|hh|h|cpp|cc|cxx|py|pyx|so)(?::\d+)?\b")
_LOC_JIT = rxcache.compile(r"\bjit/[\w./-]{1,300}")
_PATH_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+~-/")
MAX_PATH = 400


def locations(text: str) -> list[str]:
    """The source locations named in ``text``, in order."""
    out = []
    for m in _LOC_EXT.finditer(text):
        i = start = m.start()
        while i > 0 and start - i < MAX_PATH and text[i - 1] in _PATH_CHARS:
            i -= 1
        if i < start and text[start - 1] != "/":
            out.append(text[i:m.end()])
    out += [m.group(0) for m in _LOC_JIT.finditer(text)]
    return out


def _offset_line(ev: Event, offset: int) -> tuple[int, int]:
    """(line index, offset within that line) of an offset into ``ev.text``."""
    pos = 0
    for i, ln in enumerate(ev.lines):
        end = pos + len(ln.text)
        if offset <= end:
            return i, offset - pos
        pos = end + 1
    return len(ev.lines) - 1, 0


def _regex_match(m: Any, ev: Event) -> Match:
    i, s0 = _offset_line(ev, m.start())
    j, e0 = _offset_line(ev, max(m.start(), m.end()))
    span = (s0, e0 if j == i else len(ev.lines[i].text))
    facts = tuple((name, value, _offset_line(ev, m.start(name))[0]) for name, value in m.groupdict().items()
                  if name.startswith("fact_") and value)
    return Match(i, (span[0], max(span[0], span[1])), None, facts)


def _find_line(ev: Event, needle: str) -> int:
    for i, ln in enumerate(ev.lines):
        if needle and needle in ln.text:
            return i
    return len(ev.lines) - 1


def exc_ok(p: Pattern, ev: Event) -> bool:
    if not p.exc_types or not ev.exc_type:
        return True
    return ev.exc_type.rsplit(".", 1)[-1] in p.exc_types or ev.exc_type in p.exc_types


# failures with a cause of their own: frames, a location or tokens never claim them for an FP8 signature
# (an OOM raised inside an FP8 GEMM's frames is still an OOM)
OTHER_FAILURE = rxcache.compile(
    r"OutOfMemoryError|out of memory|CUDA_ERROR_OUT_OF_MEMORY|CUBLAS_STATUS_ALLOC_FAILED|NCCL error|ncclInternalError|"
    r"ncclSystemError|ncclUnhandledCudaError|KeyboardInterrupt|Address already in use|Connection refused|"
    # (not a connection that timed out: a download the failing path needed, "httpx.ConnectError: ... Connection timed out"
    # while fetching a hub kernel, is that path's failure to load)
    r"No space left on device|Too many open files|DistStoreError|TimeoutError|(?<!connection )timed out|"
    # a Triton config that asks for more shared memory than the GPU has (tuned on another GPU)
    r"OutOfResources|out of resource: shared memory|"
    # the KV cache that does not fit, a chat template the tokenizer lacks, a request longer than the model's context
    r"No available memory for the cache blocks|chat template|maximum context length|"
    r"\bmax_(?:completion_)?tokens\b[^\n]{0,40}\bis too large|status code 4\d\d\b", regex.IGNORECASE)


# a write-up's question about such a cause, or a guess at it ("Chat template broken for Qwen3-8B-FP8? output
# is garbage", "I assumed the FP8 repo ships a different chat template"): the reporter's doubt, no such failure
_DOUBT = rxcache.compile(r"\bi (?:assumed|thought|suspected|wondered|first suspected|checked|ruled out)\b|\bnot (?:an?|the)\b|"
                         r"\b(?:looks? like|seems? (?:like|to be)|i (?:think|guess|suspect|believe)|maybe|probably|perhaps|"
                         r"(?:might|may|could) be)\b", regex.I)
_CLAUSE_END = rxcache.compile(r"[.;!?](?=\s|$)|\n")


def other_failure(ev: Event) -> bool:
    """Whether an event states a failure with a cause of its own (``OTHER_FAILURE``) in its headline or
    its last causes; on a sentence of a write-up, a question about such a cause or a guess at it does not."""
    prose = ev.kind is EventKind.LINE and bool(ev.lines) and ev.lines[0].level is None
    for text in (ev.headline, *ev.chain[-2:]):
        for m in OTHER_FAILURE.finditer(text):
            if not (prose and _doubted(text, m.start(), m.end())):
                return True
    return False


def _doubted(text: str, a: int, b: int) -> bool:
    start = max((e.end() for e in _CLAUSE_END.finditer(text, 0, a)), default=0)
    end = _CLAUSE_END.search(text, b)
    return (end is not None and end.group() == "?") or _DOUBT.search(text, start, a) is not None


@functools.lru_cache(maxsize=512)
def _token_rx(token: str) -> regex.Pattern:
    return rxcache.compile(r"(?<![a-z0-9_])" + regex.escape(token.lower()))


def _has_token(low: str, token: str) -> bool:
    """Whether lower-cased text holds ``token`` as a word of its own: a token that starts like an
    identifier does not match inside a longer one (``_scaled_mm(`` is not in ``cutlass_scaled_mm(``)."""
    t = token.lower()
    if t not in low:
        return False
    return not (t[:1].isalnum() or t[:1] == "_") or bool(_token_rx(t).search(low))


def match_pattern(p: Pattern, ev: Event, claims: Claims, sig: Signature) -> Match | None:
    """Match one evidence pattern of any kind against an event."""
    if (p.kinds and ev.kind.value not in p.kinds) or not exc_ok(p, ev):
        return None
    if p.strength == "weak" and other_failure(ev):
        return None
    if p.kind == "tokens":
        low = ev.text.lower()
        if not all(_has_token(low, t) for t in p.tokens_all):
            return None
        if p.tokens_any and not any(_has_token(low, t) for t in p.tokens_any):
            return None
        words = [t.lower() for t in p.tokens_all]
        best = max(range(len(ev.lines)), key=lambda i: (sum(w in ev.lines[i].text.lower() for w in words), -i))
        return Match(best, None)
    if p.kind == "frame":
        for path, func in ev.frames:
            m = _search(p, f"{path}:{func}" if func else path, claims, sig)
            if m is not None:
                return Match(_find_line(ev, path), None)
        return None
    if p.kind == "location":
        seen = set()
        for loc in [*locations(ev.text), *(path for path, _ in ev.frames)]:
            if loc in seen:
                continue
            seen.add(loc)
            m = _search(p, loc, claims, sig)
            if m is not None:
                return Match(_find_line(ev, loc), None)
        return None
    m = _search(p, ev.text, claims, sig)
    if m is not None:
        return _regex_match(m, ev)
    if ev.wrapped:
        # a message wrapped by a terminal or a logger: cut mid-word at a fixed width (""), or at a space (" ")
        for sep in ("", " "):
            joined = ev.unwrapped(sep)
            text = "\n".join(t for _, t in joined)
            m = _search(p, text, claims, sig)
            if m is None:
                continue
            pos, k = 0, 0
            for k, (_, t) in enumerate(joined):
                if m.start() <= pos + len(t):
                    break
                pos += len(t) + 1
            first, t = joined[k]
            s0 = m.start() - pos
            return Match(first, (s0, min(len(t), m.end() - pos)), t,
                         tuple((n, v, first) for n, v in m.groupdict().items() if n.startswith("fact_") and v))
    return None


# a string literal alone on its line: the message of a `raise` or a check written over several lines, or with the
# call's last arguments after it (`"bmm_fp8 failed: ", cublasGetStatusString(status));`)
_STRING_ALONE = r"[rfbu]?[\"'][^\n]*[\"']\s*(?:[),;]*|,[^\n]*\)\s*;?)\s*$"
STRING_ALONE = rxcache.compile(r"^\s*(?:\d+\s*[|:]?\s*)?(?:[-+>]\s*)?" + _STRING_ALONE)
# a line of source code that holds a message: a raise, a check macro, a logger call (a quoted excerpt)
QUOTED_SOURCE = rxcache.compile(
    r"^\s*(?:\d+\s*[|:]?\s*)?(?:[-+>]\s*)?(?:raise\s+\w[\w.]*\(|throw\s|(?:TORCH|TLLM|FLASHINFER|TVM_FFI)_\w*CHECK\w*\(|"
    r"DG_(?:HOST|DEVICE)_ASSERT\(|STD_TORCH_CHECK\(|logger\.\w+\(|warnings\.warn\(|"
    # a test's expectation (`with pytest.raises(RuntimeError, match="Unknown SF transformation"):`)
    r"(?:with\s+)?pytest\.(?:raises|warns)\(|self\.assertRaises\w*\(|"
    # a search typed at a prompt (`$ grep -rn "Unknown SF transformation" csrc/`), and its output over the
    # sources ("csrc/apis/layout.hpp:60:    DG_HOST_UNREACHABLE(...)")
    r"[$%>]\s+(?:grep|egrep|rg|ag|ack|git\s+grep|findstr|sed|awk)\b|"
    r"[\w./-]+\.(?:py|pyi|h|hpp|hh|cuh|cu|cc|cpp|cxx|c|rs|md|rst|txt|toml|ya?ml):\d+:(?:\d+:)?\s|"
    # a check or unreachable macro of any C++ library (DG_HOST_UNREACHABLE, TORCH_INTERNAL_ASSERT, AT_ERROR)
    r"(?:[A-Z][A-Z0-9]*_)+(?:CHECK|ASSERT|UNREACHABLE|ERROR)\w*\(|"
    + _STRING_ALONE + ")"
)


def quoted_source(ev: Event, m: Match) -> bool:
    """Whether a match lies on a quoted line of source code rather than on a printed message."""
    line = _text(ev, m)
    if ev.kind is EventKind.TRACEBACK:
        # IPython prints numbered source lines under each frame ("    338  \"DeepGEMM's FP4 ... requires ...\""): the
        # code around the `raise`, not the message it raised
        return bool(NUMBERED_SOURCE.match(line)) and any(FRAME.match(ln.text) for ln in ev.lines[:m.line])
    if ev.kind is not EventKind.LINE and ev.kind is not EventKind.ERROR:
        return False
    if not QUOTED_SOURCE.match(line):
        return False
    # a logger that prints each record's message as one quoted string (Triton Inference Server: `E0923 ...
    # model_lifecycle.cc:654] "failed to load 'm' version 1: ..."`): the record, not a literal of source
    return _line(ev, m).level is None or not STRING_ALONE.match(line)


# a sentence that says the failure it names is behind the reporter ("the Unknown SF transformation error is
# gone with VLLM_USE_DEEP_GEMM=0, but now ..."; "setting X got rid of the 'no kernel image' crash")
GONE_AFTER = rxcache.compile(
    r"^[^.;!?\n]{0,40}?(?:\b(?:(?:is|are|was|were|has|have|got)\s+(?:now\s+|been\s+)?(?:gone|fixed|resolved|solved)"
    r"|went away|disappear(?:s|ed)|(?:is|are) no longer (?:there|shown|printed|raised|thrown)|no longer (?:appears|happens|shows up|occurs))\b"
    # a fix noted after it on its line: "`ValueError: ...` -> --tp 4 instead, loads fine."
    r"|(?:->|=>|\u2192)[^\n]{0,60}?\b(?:fine|works|worked|fixed|solved)\b"
    # ... or the other way the run goes, so nothing failed: "DeepGEMM not installed, FP8 linear goes through the Triton kernel"
    r"|\b(?:goes|go|went|runs?|ran|falls?\s+back|fell\s+back|is\s+routed|are\s+routed|is\s+dispatched)\s+(?:through|to|via|on)\s+(?:the\s+)?(?:triton|cutlass|cublas(?:lt)?|torch(?:'s)?|a\s+fallback|the\s+fallback|fallback)\b)",
    regex.I)
# ... or a later sentence of the same paragraph: "... with torch 2.6.0+cu124. Fixed that part with the cu128 wheel"
GONE_LATER = rxcache.compile(r"^[^\n]{0,240}?[.;!]\s+(?:(?:i|we)\s+)?(?:fixed|solved|resolved|got past) (?:that|this|it)\b", regex.I)
GONE_BEFORE = rxcache.compile(
    r"\b(?:got rid of|gets rid of|took care of|takes care of|fix(?:e[sd]|ing)?|solve[sd]?|resolve[sd]?|avoid(?:s|ed|ing)?|silence[sd]?|work(?:s|ed)? around"
    r"|no longer (?:get|see|hit)s?|(?:closes|fixes|resolves)\s+#\d+:?|before this (?:pr|change|fix|patch|commit)\b[^`'\"\n]{0,40}?:?"
    r"|previously\b[^`'\"\n]{0,40}?:?|used to (?:fail|crash|raise|error|get|hit)\b[^`'\"\n]{0,40}?:?"
    # "the FP8-block version first failed at TP=8 with \"...\""
    r"|\b(?:first|initially|originally) (?:failed|crashed|errored|died|broke)\b[^`'\"\n]{0,40}?(?:with|:)"
    # "We used to run the FP8 version of this model and hit \"...\""
    r"|used to (?:run|use|serve|deploy|have)\b[^`'\"\n.;]{0,80}?\b(?:hit|got|saw|get|see)\b[^`'\"\n]{0,20}?:?"
    # "last week this crashed with `...`"
    r"|(?:last (?:week|time|night|month|year)|yesterday)\b[^`'\"\n]{0,60}?(?:with|:)"
    # "Load was crashing with the `(values[j] & 0x807fffffu) == 0` device assert ..., so I pinned ..."
    r"|\b(?:was|were) (?:crashing|failing|dying|erroring out|erroring|hitting|throwing|raising)\b[^`'\"\n]{0,40}?(?:with|on|:)"
    # the first of several attempts, its message on the same line: '1st run: "CUDA error: no kernel image ..." (old arch list)'
    r"|\b(?:1st|first) (?:run|try|attempt|build)\s*:"
    # a closed issue's summary: "Original error was `RuntimeError: ...`"
    r"|(?:the\s+)?original (?:error|issue|failure|crash|problem|traceback) (?:was|were)\b[^`'\"\n]{0,20}?:?"
    # "Yesterday's build failure ("Assertion failed: ...") was because ..."
    r"|(?:yesterday|last (?:week|time|night))'s (?:\w+ )?(?:failure|error|crash|issue|problem)"
    # "Originally it crashed in the FP8 linear with `...`", "Was getting "CUDA error: ..." with torch 2.6"
    # ... "VLLM_USE_DEEP_GEMM=0 did the trick for the Unknown SF transformation crash"
    r"|(?:originally|initially|at first)\b[^`'\"\n]{0,60}?(?:with|:)|\b(?:was|were) getting"
    r"|\b(?:did|does|do) the trick (?:for|on|with|against)\b[^`'\"\n]{0,40}?)"
    # (right before the message, or before the quote that holds it: "Fix `RuntimeError: Assertion error (...): ")
    r"\s+\(?(?:the\s+|that\s+|this\s+)?(?:[`'\"]?|[`'\"][^`'\"\n]{0,120})$", regex.I)


# A sentence of a write-up that puts the failure printed right under it in the past or elsewhere: a PR's "Before
# this PR, users saw:", a closed issue's "The original error was:", "Possibly related to #9512 but that one is a
# crash on sm_120:", "from my older config which I removed:", "... fixed the" (the error under it, then "is gone").
# PAST_CUES are its literals for the scan's prefilter (scan/linefeed.py marks the event printed under it).
PAST_CUES = ("before this pr", "before this change", "before this fix", "before this patch", "before the fix",
             "previously", "used to", "original error", "original traceback", "original problem", "original issue", "original crash",
             "original failure",
             "related to #", "similar to #", "dup of #", "duplicate of #",
             "same as #", "old issue", "older config", "earlier attempt", "earlier run", "i removed", "for reference",
             "their log", "fixes #", "closes #", "before (", "before:", "before**", "was:", "were:", "had:",
             "first tried", "initially", "originally", "gave up", "fixed the", "resolved the",
             "solved the", "got rid of", "old error", "old traceback", "old crash", "fixes the", "fixes a",
             "description says", "other thread", "other issue", "linked issue", "that thread", "that issue",
             "yesterday", "last time", "last week", "last night", "last month", "last year", "first failed", "first crashed", "first errored",
             "first died", "first broke", "at first it", "first:", "for the record", "part is solved", "part is fixed", "1st try",
             "first try", "first attempt", "first run", "round 1", "step 1:", "step 1 (", "step one", "1st error", "first error", "1st crash", "first crash", "at first", "attempt 1", "try 1", "back on", "back with",
             "people get", "people got", "people see", "people saw", "people hit", "people report", "others get", "others got",
             "others see", "others saw", "others hit", "others report", "users get", "users got", "users see", "users saw",
             "users hit", "users report", "folks get", "folks got", "folks see", "folks hit")
# a sentence after a failure that says a workaround got past it and a new problem came ("so we pinned
# sgl-deep-gemm==0.1.3. Server starts now, no errors, but:"), or that the reporter did what the message said ("OK, so
# I did what it says and quantized with ue8m0 scales:"): that failure is what the reporter hit before (linefeed.py)
WORKED_AROUND_CUES = ("starts now", "boots now", "loads now", "runs now", "comes up now", "starts fine now", "now starts",
                      "now boots", "now loads", "no longer crash", "no longer die", "no longer fail", "did what it says",
                      "did what it said", "did what it suggest", "did as it says", "did as it said", "fine now",
                      "followed the", "followed its", "loading finishes", "loading completes", "load finishes",
                      "startup completes", "loading succeeds", "assert is gone", "crash is gone", "error is gone",
                      "failure is gone", "assertion is gone", "go away", "what's left", "what is left", "what remains",
                      "remaining page", "remaining issue", "remaining problem", "remaining error", "remaining failure",
                      "remaining crash", "thing left", "fixed by", "fixed with", "fixed via", "solved by", "solved with",
                      "resolved by", "resolved with", "after that the", "after that, the", "got past", "got us past",
                      "got me past", "new problem", "new issue", "new error", "new failure", "no more", "now it loads",
                      "now it starts", "now it boots", "now it comes up", "gets past", "get past", "fixed that", "fixed this",
                      "fixed it.", "fixed it,", "fixed it!", "after installing", "after upgrading", "after downgrading",
                      "after setting", "after switching", "after adding", "after pinning", "after removing", "error now", "switched to",
                      "moved to", "loads fine", "starts fine", "runs fine", "works fine", "instead,", " fine.",
                      "crash now", "failure now")  # (and "part is solved": PAST_CUES)
WORKED_AROUND = rxcache.compile(
    r"(?i)(?:\b(?:starts?|boots?|loads?|runs?|works?|comes? up)(?: fine| again| ok)? now\b|\bnow (?:it |the \w+ )?(?:starts|boots"
    r"|loads|comes up)\b|\bno longer (?:crash|die|fail)\w*|\b(?:loading|startup|load|warm-?up) (?:now )?(?:finishes|completes"
    r"|succeeds|goes through)\b)[^\n]*(?:\bbut\b|:\s*$)"
    r"|\bdid (?:what|as) it (?:says|said|suggest(?:s|ed)?)\b|\bfollowed (?:the |its |that )?(?:first |second |\w+'s )?(?:suggestion|advice|hint)\b"
    r"|\b(?:that|this) part is (?:solved|fixed|resolved)\b|\b(?:that|the|this)(?: [\w-]+){0,3}? (?:assert(?:ion)?|crash|error|failure) is (?:now )?gone\b"
    r"|\bmade the (?:\w+ )?(?:error|crash|assert(?:ion)?|failure) go away\b"
    # what remains after it ("What's left is this", "The remaining page is the router restart loop:"), a fix said under it
    # ("^ fixed by --ep-size 8 instead of pure TP"), the run that got further ("after that the server starts, then ...")
    r"|\bwhat(?:'s| is)? (?:left|remaining|remains)\b|\bthe (?:only )?remaining (?:page|issue|problem|error|failure|crash)\b"
    r"|\b(?:only|one) thing left\b|^\W{0,3}(?:fixed|solved|resolved)(?: it| that| this)? (?:by|with|via)\b(?![^\n]*\?)"
    r"|\bafter that,? the (?:server|engine|model|pod|job|run) (?:starts|loads|boots|comes up|runs)\b"
    # "that got past weight loading 👍 but now the MoE fails", "New problem though", "no more layout.hpp"
    r"|\bgot (?:us |me )?past\b[^\n]*\bbut\b|\bnew (?:problem|issue|error|failure)(?: though| now|:)"
    # "That gets past loading", "CUDA_VISIBLE_DEVICES=1 fixed that. Now:"
    r"|\b(?:that|this|it) gets (?:us |me |it )?past\b|\bfixed (?:that|this|it)(?: (?:as (?:suggested|advised|described)(?: there)?"
    r"|for (?:me|us)|too))?[.,!]"
    # a fix noted under the error: "-> moved to an H100. fine.", "-> --tp 4 instead, loads fine."
    r"|^\W{0,3}(?:->|=>|\u2192)[^\n]*\b(?:fine|works|worked|loads|starts|runs|fixed|solved)\b"
    # "switched to `--kv-cache-dtype fp8_e5m2` and it starts and runs"
    r"|\bswitched to\b[^\n]{0,60}?\band (?:it |the \w+ )?(?:starts|loads|boots|runs|works|comes up)\b"
    # "after installing kernels it loads fine", "Different error now"
    r"|\bafter (?:installing|upgrading|downgrading|setting|switching|adding|pinning|removing)\b[^\n]{0,60}?\b(?:it |the \w+ )?"
    r"(?:loads|starts|boots|runs|works|comes up)\b|\b(?:different|another|new) (?:error|crash|failure) now\b"
    r"|\bno more (?:[\w.-]+ ){0,2}?(?:errors?|crash(?:es)?|asserts?|assertions?|[\w-]+\.(?:hpp|cuh|cu|cpp))\b")
PAST_CUES += WORKED_AROUND_CUES
AROUND_AFTER = 20  # lines after a failure where such a sentence is read (and linefeed.py)
# (a sentence that goes on to what happens now introduces the current failure: "Previously it worked, now I get:"; the
# sentence ends where the quoted error starts: with a colon, or with the verb that it completes, "They had",
# "... fixed the")
PAST_SENTENCE = rxcache.compile(
    r"\b(?:before (?:this|the) (?:pr|change|fix|patch|commit)|(?<!\bas )before\**\s*(?:\([^)\n]{0,80}\))?\s*:|previously"
    r"|used to (?:fail|crash|raise|error|get|see|hit|print)|(?:the )?original (?:error|traceback|failure|crash|problem|issue)"
    r"|(?:related|similar) to #\d+|same as #\d+|(?:a |the )?dup(?:licate)? of #\d+|(?:the|an?) old issue|older config|(?:an? |my )?earlier (?:attempt|run)"
    r"|which i removed|for reference|their log|(?:fixes|closes) #\d+|(?:error|traceback|it|that|this|log|output)"
    r" (?:was|were)\s*:|\bi had\s*:|\bfirst tried\b|\b(?:initially|originally) (?:got|had|saw|tried|hit)\b|gave up\b"
    r"|\b(?:first|initially|originally|at first)(?: it)? (?:failed|crashed|errored|died|broke) (?:with|on)\b"
    # "transformers refused it first:" (the first of two failures, printed under it)
    r"|\b(?:refused|rejected|failed|crashed|died|errored|broke)\b[^\n]{0,30}?\bfirst\s*:\s*$"
    r"|\bfor the record\b|\bpart is (?:solved|fixed|resolved)\b"
    # what other people hit, as a linked report quotes it ("I read #47436 first, where people get")
    r"|\bwhere (?:other )?(?:people|others|users|folks) (?:get|got|see|saw|hit|report(?:ed)?)\b"
    # an older release's behaviour ("Back on 0.4.0 this same A100 box refused the FP8 checkpoint outright:")
    r"|\bback (?:on|with|in) (?:v?\d[\w.]*|the old\b|our old\b)[^\n]{0,80}?(?::\s*$|\b(?:refused|crashed|failed|died|errored)\b)"
    # the first of several attempts, introduced as such ("1st try, the FP8 checkpoint:", "Round 1 crashed in ...:")
    r"|\b(?:(?:1st|first) (?:try|attempt|run|error|crash|failure)|(?:round|attempt|try|step) (?:1|one))\b[^\n]{0,80}:\s*$"
    r"|\bat first,? (?:i |we |it )?(?:got|had|saw|hit|failed|crashed)\b"
    r"|(?:fixed|resolved|solved|got rid of)(?: the| that| this)?\s*$|(?:the )?old (?:error|traceback|crash|failure)"
    r"|\bfixes (?:the |a )?(?:crash|error|failure|bug|assert)|(?:its|the|their) description says"
    r"|(?:the |that |a )?(?:other|linked) (?:thread|issue|report)|\bthat (?:thread|issue)\b"
    r"|\b(?:yesterday|last (?:time|week|night|month|year))(?:'s)?\b[^.;\n]{0,80}?\b(?:(?:i|we) (?:got|had|saw|hit)"
    r"|(?:crash|error|traceback|failure|log) (?:was|were)|(?:it|this|that) (?:died|crashed|failed|errored|broke))\b)"
    r"(?![^\n]*\b(?:now|currently|still|today|this time|instead|mine|ours|my (?:own|log|error|traceback|output)"
    r"|(?:doesn'?t|does not|didn'?t|did not) help|(?:a bit |a little |much )?later)\b)"
    r"(?:[^\n]*?"
    r"(?:[:\uff1a]|\b(?:had|got|saw|hit|was|were|showed|reported|printed|expected|usual|same|the|that|this|with|error)))?"
    r"\s*(?:`{3}\w*)?\s*$",
    regex.I)


# a Markdown bullet or heading ("- [Kernel] Fix `...` on GB10 (#28744)", "### `RuntimeError: ...`")
MARKDOWN_ITEM = rxcache.compile(r"^\s*(?:[-*+]\s+|#{1,6}\s+)")
# a heading that names an error (a troubleshooting page), a test or sweep that skipped on it, an expected failure
_NOT_NOW = rxcache.compile(r"^\s*#{1,6}\s|\bSKIP(?:PED)?\b|\bXFAIL\b|\bxfail(?:ed)?\b|\(expected\)|\bexpected to (?:fail|raise)\b")


def _line(ev: Event, m: Match):
    """The event's line that holds a match."""
    return ev.lines[min(m.line, len(ev.lines) - 1)]


def _text(ev: Event, m: Match) -> str:
    """The text a match was found in: the logical line a wrapped message was joined into, else its line."""
    return m.text if m.text is not None else _line(ev, m).text


def match_line(ev: Event, m: Match) -> str:
    """The one line of text that holds a match: of a record whose message holds several (a JSON log's traceback
    field), the line the match starts in."""
    text = _text(ev, m)
    if m.span is None or "\n" not in text:
        return text
    return text[text.rfind("\n", 0, m.span[0]) + 1:].split("\n", 1)[0]


def _in_code_span(text: str, span: tuple[int, int] | None) -> bool:
    """Whether ``span`` lies inside a Markdown code span (an odd number of backticks before it, one after it)
    with words of a sentence outside it."""
    if span is None:
        return False
    before, after = text[:span[0]], text[span[1]:]
    if before.count("`") % 2 != 1 or "`" not in after:
        return False
    outside = before[:before.rfind("`")] + after[after.find("`") + 1:]
    return len(_WORD.findall(outside)) >= 3


def not_now(ev: Event, m: Match) -> bool:
    """Whether a message is named on a line that says it is not failing now: a document's heading, a
    skipped or expected-to-fail test, a sweep's expected skip ("SKIP (expected): ...")."""
    line = _text(ev, m)
    head = line if m.span is None else line[:m.span[0]]
    return _line(ev, m).level is None and _NOT_NOW.search(head) is not None


def _prose(ev: Event, m: Match, span: bool = True) -> bool:
    """Whether a match lies on a sentence of a write-up: a line no logger wrote (no level) in an event that
    is no raised exception (an exception line is what was raised, whatever its words). ``span``: the match
    must have one (a message's, not a rule's reading of the line)."""
    if span and m.span is None:
        return False
    line = _line(ev, m)
    if line.level is None and (MARKDOWN_ITEM.match(line.text) or _in_code_span(_text(ev, m), m.span)):
        # a release note's bullet, a document's heading, a message in a Markdown code span (a PR's title "Fix ...
        # (closes #45102: `Assertion error (...)`)"): written, whatever it quotes
        return True
    if ev.kind in (EventKind.CPP_ASSERT, EventKind.DEVICE_ASSERT) and line.level is None and _quoted_assert(_text(ev, m), m):
        # an assertion's text quoted inside a sentence ('The DeepGEMM crash on my RTX PRO 6000 ("Assertion error
        # (...layout.hpp:59): Unknown SF transformation") is gone with ...'): the line is a sentence that names it
        return True
    if not (ev.kind is EventKind.LINE or (ev.kind is EventKind.ERROR and not ev.exc_type)):
        return False
    return line.level is None


# three words or more, then a quote (after an opening bracket or not) and an exception's type or not right before the
# quoted text ("the `RuntimeError: Assertion error (...)` I had")
_QUOTED_AFTER_WORDS = rxcache.compile(r"(?:[A-Za-z][\w'-]*[,:]?\s+){3,}[^\n\"'`]{0,40}[(\[]?[\"'`\u201c\u2018](?:[A-Za-z_][\w.]*(?:Error|Exception):\s*)?\Z")
_ASSERT_TEXT = rxcache.compile(r"(?i)\bassert(?:ion)?\b")


def _quoted_assert(text: str, m: Match) -> bool:
    """Is the assertion on this line (the match's, or the line's first for a rule's reading) quoted after a few words?"""
    if m.span is not None:
        start = m.span[0]
    else:
        a = _ASSERT_TEXT.search(text)
        if a is None:
            return False
        start = a.start()
    return _QUOTED_AFTER_WORDS.search(text[max(0, start - 400):start]) is not None


def in_prose(ev: Event, m: Match) -> bool:
    """Whether a match (a message's or a rule's) lies on a sentence of a write-up."""
    return _prose(ev, m, span=False)


_QUOTES = "\"'`\u201c\u2018"
_CLOSING = {"\u201c": "\u201d", "\u2018": "\u2019"}
_WORD = rxcache.compile(r"[A-Za-z]{2,}")


def quoted_in_sentence(ev: Event, m: Match) -> bool:
    """Whether a message is quoted inside a sentence of a write-up ('so I expected the "Unknown SF
    transformation" error, but what we get is:'): the reporter names it, the log line after it is what
    failed."""
    if not _prose(ev, m):
        return False
    line = _text(ev, m)
    a, b = m.span
    before, after = line[:a].rstrip(), line[b:]
    if not before or before[-1] not in _QUOTES:
        return False
    close = after.find(_CLOSING.get(before[-1], before[-1]))
    if close < 0 or close > 80:
        return False
    # words of the sentence around the quote: a sentence, not a message that quotes a value
    return len(_WORD.findall(before[:-1])) + len(_WORD.findall(after[close + 1:])) >= 6


# a reporter's guess at the cause ("Looks like DeepGEMM has no recipe for sm_121", "I think it is ...")
_GUESS = (r"\b(?:looks? like|seems? (?:like|to be)|i (?:think|guess|suspect|believe)|maybe|probably|perhaps|"
          r"(?:might|may|could) be|my guess is)\b")
GUESS_WORD = rxcache.compile(_GUESS, regex.I)
GUESS_BEFORE = rxcache.compile(_GUESS + r"[^.;!?\n]{0,60}$", regex.I)  # in the clause right before a match


def guessed(ev: Event, m: Match) -> bool:
    """Whether a sentence of a write-up names the failure as the reporter's guess at the cause, not as
    what was printed: no exact evidence of it. A rule's hit (no span) reads the whole line."""
    if not _prose(ev, m, span=False):
        return False
    text = _text(ev, m)
    if m.span is None:
        return GUESS_WORD.search(text) is not None
    return GUESS_BEFORE.search(text[max(0, m.span[0] - 80):m.span[0]]) is not None


# what may come before a message that opens its line: the exception's type ("    AttributeError: ")
_LINE_OPENING = rxcache.compile(r"\s*[`'\">]?\s*(?:[\w.]*(?:Error|Exception|Warning)\w*:\s*)?[`'\"]?\Z")


def said_gone(ev: Event, m: Match) -> bool:
    """Whether a sentence of a write-up says that the failure whose message it names is gone (the error
    a workaround fixed, before the one the reporter hits now): no exact evidence of a failure."""
    if not _prose(ev, m, span=False):
        return False
    if any(WORKED_AROUND.search(ln.text) for ln in ev.lines[m.line + 1:m.line + 1 + AROUND_AFTER] if ln.level is None):
        return True  # a later sentence of the same paragraph says a workaround got past it
    if m.span is None:
        return False
    line = _text(ev, m)
    a, b = m.span
    if WORKED_AROUND.search(line, b):
        return True  # ... or a later sentence of its own line ("The `...` I posted last week was my build. Rebuilt, it runs now:")
    after = line[b:b + 120]
    if after[:1] == "." and after[1:2] in ("`", "'", '"'):
        after = after[1:]  # the quoted message's own full stop ("... block_n = 128.` -> --tp 4 instead, loads fine.")
    after = after.lstrip("`'\" ")
    before = line[max(0, a - 180):a]
    k = min(m.line, len(ev.lines) - 1)
    if k > 0 and ev.lines[k - 1].level is None and _LINE_OPENING.match(line[:a]):
        # the message opens its line: the sentence before it may end on the line above ("Before this PR, users
        # on DeepGEMM 2.x saw:" and the error indented under it)
        before = ev.lines[k - 1].text[-180:] + "\n"
        if PAST_SENTENCE.search(ev.lines[k - 1].text):
            return True
    return bool(GONE_AFTER.match(after) or GONE_BEFORE.search(before) or GONE_LATER.match(line[b:b + 300]))


def not_shown(ev: Event, m: Match) -> bool:
    """Whether a matched message is not the failure the log shows: on a quoted line of source, in a sentence
    that says it is gone or not failing now, the reporter's guess, or in an event the log puts in the past."""
    return ev.past or quoted_source(ev, m) or said_gone(ev, m) or not_now(ev, m) or guessed(ev, m)


def _search(p: Pattern, text: str, claims: Claims, sig: Signature):
    if (sig.id, p.name) in claims.timed_out:
        return None
    try:
        return p.compiled.search(text, timeout=REGEX_TIMEOUT)
    except TimeoutError:
        # one runaway search per pattern per scan: on every event it would cost the timeout again
        claims.timed_out.add((sig.id, p.name))
        claims.warnings.append(
            f"signature {sig.id}: pattern {p.name!r} took longer than {REGEX_TIMEOUT}s on one event and was "
            "skipped for the rest of this scan (check it with `fp8triage signatures validate`)"
        )
        return None


