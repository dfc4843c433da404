"""Where a mention sits in its sentence: advice to the reader ("set X=0", "use an H100"), the
reporter's own machine ("on our B200 box") or the healthy side of a comparison ("on H100 it works").
A value said as advice or as the reference is no fact of the machine that failed."""
from __future__ import annotations

from ..common import rxcache

# the reporter speaking of what they did ("I set X=0", "we are using"): a setting of the run, not advice
FIRST_PERSON = r"(?:i|we|i've|we've|i'm|we're|i am|we are|i have|we have|i also|we also|i just|we just)"

# advice or a condition in the same clause before a match: the value is a suggestion, not a fact
_ADVICE = rxcache.compile(
    # (not what the reporter did: "I set VLLM_USE_DEEP_GEMM_E8M0=0", "we are using")
    r"(?i)(?<!\b" + FIRST_PERSON + r"\s)"
    r"\b(?:use|using|set|setting|try|consider|please|should|recommend(?:ed)?|instead|if|unless|when|"
    r"re-?export|re-?quantize|switch(?:ing)? to|quantized with|upgrade|downgrade|e\.g|such as|for example|"
    # a question that suggests it ("does it get better with X=1 ?", "have you tried X=0")
    r"does it (?:get better|help|work|go away|improve|change)|have you tried|did you try|what about|(?:can|could) you try)\b")
# (an example the text gives, "(e.g. 4090/H100)", is no fact of this machine either)
# (a parenthesis opens a clause of its own: "Using DeepGEMM for FP8 linear (device capability 10.0)" states the device)
_CLAUSE_END = rxcache.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\be\.g\.)(?<!\bi\.e\.)[.;!?:,]\s|\(\s*|—|\s-\s")  # ("e.g., RTX 4090")


def clause_before(text: str, start: int) -> str:
    """The clause before ``start``: back to the last '. ', '; ', ': ', ', ' or '(' (160 characters at most)."""
    head = text[max(0, start - 160):start]
    cut = None
    for cut in _CLAUSE_END.finditer(head):
        pass
    return head[cut.end():] if cut else head


_OWN = rxcache.compile(r"(?i)\b(?:our|my)\b")


# a remedy's label right before a value: what follows is the fix, not the failing run's setting ("Mitigation:
# VLLM_USE_DEEP_GEMM=0 in the deployment env", "Workaround: `export X=0`")
_REMEDY_LABEL = rxcache.compile(r"(?i)\b(?:mitigation|workaround|work-around|fix|solution|remedy|resolution)\s*:\s*(?:`?export\s+)?`?$")


def advice(text: str, start: int) -> bool:
    """Whether the clause before ``start`` gives advice (not where it speaks of the reporter's own machine:
    "set X=0 on our B200 box")."""
    if _REMEDY_LABEL.search(text, max(0, start - 40), start):
        return True
    clause = clause_before(text, start)
    if not _ADVICE.search(clause):
        return False
    rest = text[start:start + 120]
    end = _CLAUSE_END.search(rest)
    return not _OWN.search(clause + (rest[:end.start()] if end else rest))


# a GPU a write-up compares against ("Same command on H100 gives 0.912", "on H200 it is fine"): the
# healthy reference, not the machine that failed
_REFERENCE = rxcache.compile(r"(?i)\b(?:same (?:command|config|setup|image|script|run)|fine(?![\w-])|correct(?:ly)?|normal(?:ly)?|"
                             r"works?|worked|healthy|as expected|vs\.?|versus|compared)\b")


# the machine a move starts from ("porting our wrapper from H800 to B200", "moved from the H100 nodes onto B200"):
# the old one, where it worked
_FROM = rxcache.compile(r"(?i)\bfrom\s+(?:(?:the|our|my|an?|\d{1,3}\s*[x×])\s*)?$")
_TO = rxcache.compile(r"(?i)(?:\s+[\w-]+){0,2}?\s+(?:to|onto)\s")


def moved_from(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is the machine a move starts from: "from H800 to B200"."""
    return bool(_FROM.search(text, max(0, start - 30), start) and _TO.match(text, end))


def reference(text: str, start: int, end: int) -> bool:
    """Whether the clause around text[start:end] (to the nearest '. ', '; ', ', ', '(' either side)
    names it as the healthy reference of a comparison, or as the machine a move starts from."""
    if moved_from(text, start, end):
        return True
    tail = text[end:end + 160]
    stop = _CLAUSE_END.search(tail)
    return bool(_REFERENCE.search(clause_before(text, start) + " " + (tail[:stop.start()] if stop else tail)))
