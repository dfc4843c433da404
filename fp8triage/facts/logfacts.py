"""Facts read from the log itself, so conditions can be judged without the live machine.

GPU names (mapped to a compute capability), explicit capability mentions, versions printed
by vLLM / torch / transformers / DeepGEMM / SGLang, environment variable settings, the model
name, the quantization method, and which serving stack wrote the log. Every fact records the
line it came from. The extractors (``extractors.py``) are ordered, named data; each has literal
anchors so that the prefilter finds its lines.
"""
from __future__ import annotations

from typing import Iterable

import regex

from ..common import rxcache
from .extractors import EXTRACTORS, FP8_CHECKPOINT, Extractor
from . import gpunames, pastegpus
from .pastegpus import GPU_LABEL
from .clauses import advice as _advice
from .gpunames import gpu_facts
from ..model import Fact, Line

PROSE_GPU = "prose-gpu"  # (a GPU a sentence names, "failing:B200": the GPU where no line states the machine's)
_KEPT = (FP8_CHECKPOINT, PROSE_GPU, GPU_LABEL)
# a write-up's sentences stand around the lines it pastes; deep in a server log a GPU named in a message is no
# reporter's sentence
PROSE_LINES = 300


# Which serving stack wrote the log: paths and banners.
STACK_MARKERS: list[tuple[str, regex.Pattern]] = [
    ("vllm", rxcache.compile(r"\bvllm[/.]|vLLM|\(VllmWorker|\(EngineCore")),
    ("sglang", rxcache.compile(r"\bsglang[/.]|SGLang|sgl_kernel|sgl-workspace")),
    # (not FlashInfer's vendored copy of TensorRT-LLM's kernels: ".../flashinfer/data/csrc/nv_internal/tensorrt_llm/")
    ("tensorrt-llm", rxcache.compile(r"(?<!nv_internal/)tensorrt_llm|TensorRT-LLM|trtllm-build")),
    ("lmdeploy", rxcache.compile(r"\blmdeploy\b")),
    ("transformers", rxcache.compile(r"\btransformers/(?:modeling|integrations|quantizers|models)|from_pretrained")),
]


# What the prefilter searches for to find the lines log facts can come from (class FACT).
# Facts are not events: these lines are read for facts and nothing else, so a trigger must be
# narrow (a version banner, not every line that says "torch"). Stack markers: the worker marker
# "(VllmWorker" / "(EngineCore" counts only where it is not the line's prefix (``normalise``
# strips that before the markers look). Stack markers (class STACK: once vLLM, the stack that ranks first, has
# been named, these lines are not decoded any more).
# vLLM's process names ("(EngineCore_DP0 pid=9)", "(Worker_TP2 pid=7)"), a line's worker once ``normalise`` strips them
_VLLM_PROCESS_NAMES = r"(?:VllmWorker|EngineCore|Worker_[TPDE]P|APIServer|RayWorkerWrapper)"
STACK_PATTERNS = (
    r"\bvllm[/.]|vLLM|\bsglang[/.]|SGLang|sgl_kernel|sgl-workspace|tensorrt_llm|TensorRT-LLM|trtllm-build|\blmdeploy\b"
    r"|transformers/(?:modeling|integrations|quantizers|models)|from_pretrained",
    r"[^ \t\"\n]\((?:VllmWorker|EngineCore)",  # the marker after the line's start, i.e. not the worker prefix
    r"^\((?:VllmWorker|EngineCore)[^ )\n]*\)",  # "(EngineCore_DP0)": a prefix that normalise keeps
    r"^\(" + _VLLM_PROCESS_NAMES,  # one it strips (``_VLLM_PROCESS``)
)
_VLLM_PROCESS = rxcache.compile(_VLLM_PROCESS_NAMES)


def triggers() -> list[tuple[str, bool]]:
    """(regular expression, ignore case) pairs that find every line a log fact can come from
    (Hyperscan and Python ``re`` read them alike: literals, classes, alternation,
    ``[^\\n]*``, ``\\b``, ``^``)."""
    out = [(ex.trigger, ex.ignore_case) for ex in EXTRACTORS if ex.trigger]
    out += [(p, False) for p in gpunames.PREFILTER_PATTERNS]
    out.append((gpunames.PROSE_TRIGGER, False))
    return out


# values of --model that name a backend, not a model (lm_eval --model vllm)
_NOT_MODELS = {"vllm", "hf", "sglang", "openai", "auto", "local-completions", "local-chat-completions", "dummy"}


MEMO_SIZE = 4096  # distinct fact-bearing texts remembered per source


class LogFacts:
    """Collects facts from lines; the first value seen for a name wins, later ones are kept
    as alternatives so a conflict can be shown."""

    def __init__(self) -> None:
        # (name, value, line, note): the source text is made when the facts are read, so a
        # parallel scan can renumber the lines first
        self.raw: list[tuple[str, str, Line, str]] = []
        self._seen: set[tuple[str, str]] = set()
        self._labels = 0  # GPU_LABEL records kept
        self.stack_votes: dict[str, tuple[int, Line]] = {}
        # text -> what it yields ((name, value, note) in order, the stacks it names, and the keys
        # of ``_seen`` its facts would add): servers repeat the lines that carry facts (a config
        # path with the GPU name at every start-up), so each text is read once
        self._memo: dict[str, tuple[tuple[tuple[str, str, str], ...], tuple[str, ...], tuple]] = {}

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_memo": {}}  # a parallel worker's result travels without it

    @property
    def facts(self) -> list[Fact]:
        return [Fact(name, value, f"log {ln.source}:{ln.lineno}" + (f" ({note})" if note else ""), "log")
                for name, value, ln, note in self.raw if name not in _KEPT]

    def merge(self, other: "LogFacts") -> None:
        """Add the facts of a scan of later lines (the first value of a fact still wins)."""
        for rec in other.raw:
            if rec[0] == GPU_LABEL:
                self.raw.append(rec)
                continue
            key = (rec[0], rec[1].lower())
            if key not in self._seen:
                self._seen.add(key)
                self.raw.append(rec)
        for stack, (n, first) in other.stack_votes.items():
            m, mine_first = self.stack_votes.get(stack, (0, first))
            self.stack_votes[stack] = (m + n, mine_first)

    def _add(self, name: str, value: str, line: Line, note: str = "") -> None:
        if name == GPU_LABEL:  # every one counts (where each part of a comparison starts), the first few
            if line.lineno <= PROSE_LINES and self._labels < pastegpus.LABELS_MAX:
                self._labels += 1
                self.raw.append((name, value, line, note))
            return
        value = value.strip().strip("'\"`")
        if not value or (name, value.lower()) in self._seen:
            return
        if name == "model" and value.lower() in _NOT_MODELS:
            return
        self._seen.add((name, value.lower()))
        self.raw.append((name, value, line, note))


    def feed(self, line: Line) -> None:
        self.feed_text(line.text, line)

    def feed_text(self, text: str, line: Line, redactor=None) -> None:
        """The facts of ``text`` (found at ``line``: its source and number). ``redactor``: the
        text is not redacted yet; it is applied before a text not seen before is read."""
        if len(text) > 4000:
            text = text[:4000]
        found = self._memo.get(text)
        if found is None:
            if len(self._memo) >= MEMO_SIZE:
                self._memo.clear()
            clean = redactor(text) if redactor is not None else text
            facts = tuple(self._extract(clean))
            found = self._memo[text] = (facts, tuple(stack for stack, rx in STACK_MARKERS if rx.search(clean)),
                                        tuple(k for k in map(_seen_key, facts) if k is not None))
        facts, stacks, _keys = found
        for name, value, note in facts:
            self._add(name, value, line, note)
        for stack in stacks:
            self._vote(stack, line)
        self._worker(line)

    def _worker(self, line: Line) -> None:
        if line.worker and "vllm" not in self.stack_votes and _VLLM_PROCESS.match(line.worker):
            self._vote("vllm", line)

    def repeat(self, text: str) -> bool:
        """Feed ``text`` if it was read before and all it yields is recorded already (a line that a
        restart loop repeats with new timestamps and pids): then it only counts for the stacks it
        names, and a lookup is all it costs. False: nothing was done (``feed_text`` reads it)."""
        found = self._memo.get(text[:4000] if len(text) > 4000 else text)
        if found is None:
            return False
        facts, stacks, keys = found
        seen, votes = self._seen, self.stack_votes
        if any(k not in seen for k in keys) or any(st not in votes for st in stacks) or any(f[0] == GPU_LABEL for f in facts):
            return False
        for stack in stacks:
            n, first = votes[stack]
            votes[stack] = (n + 1, first)
        return True

    def _extract(self, text: str):
        """(name, value, note) of every fact in ``text``, in order."""
        for ex in EXTRACTORS:
            if not _has_anchor(text, ex):
                continue
            for m in ex.pattern.finditer(text):
                if not ex.any_clause and _advice(text, m.start()):
                    continue  # "Use a checkpoint quantized with scale_fmt='ue8m0'" is no fact of this machine
                for name, value in ex.make(m):
                    if value:
                        yield name, value, ""
        yield from gpu_facts(text)
        for name, role in gpunames.prose_gpus(text):
            yield PROSE_GPU, f"{role}:{name}", ""
        part = pastegpus.label(text)
        if part is not None:
            yield GPU_LABEL, part, ""

    @property
    def stack_settled(self) -> bool:
        """No later line can change the stack: the first-ranked stack has been named."""
        return STACK_MARKERS[0][0] in self.stack_votes

    def feed_stack(self, line: Line) -> None:
        """Only the stack markers (a line with no other fact trigger)."""
        self._stack(line.text[:4000], line)

    def _stack(self, text: str, line: Line) -> None:
        for stack, rx in STACK_MARKERS:
            if rx.search(text):
                self._vote(stack, line)
        self._worker(line)

    def _vote(self, stack: str, line: Line) -> None:
        n, first = self.stack_votes.get(stack, (0, line))
        self.stack_votes[stack] = (n + 1, first)

    def finish(self) -> list[Fact]:
        """All facts, plus the stack and what the model name implies."""
        out = list(self.facts)
        if self.stack_votes:
            # the serving framework wins over the libraries it loads (vLLM imports transformers)
            order = [s for s, _ in STACK_MARKERS]
            best = min(self.stack_votes, key=order.index)
            n, first = self.stack_votes[best]
            out.append(Fact("stack", best, f"log {first.source}:{first.lineno} (names {best})", "log"))
        names = {f.name for f in out}
        model = next((f for f in out if f.name == "model"), None)
        if model is not None:
            m = model.value
            if "quantization" not in names and regex.search(r"(?i)fp8", m):
                out.append(Fact("quantization", "fp8", f"{model.source} (model name says FP8)", "log"))
            if "moe" not in names and regex.search(r"(?i)\bA\d+(?:\.\d+)?B\b|moe|mixtral|deepseek-(?:v[234]|r1)|-A\d+B", m):
                out.append(Fact("moe", "true", f"{model.source} (model name names a mixture of experts)", "log"))
        said = [(v, ln) for n, v, ln, _ in self.raw if n == PROSE_GPU and ln.lineno <= PROSE_LINES]
        out += pastegpus.prose_gpu(said, out)
        parts = pastegpus.sections([(v, ln) for n, v, ln, _ in self.raw if n == GPU_LABEL], PROSE_LINES)
        if parts is not None:
            out.append(parts)
        named = next(((v, ln) for n, v, ln, _ in self.raw if n == FP8_CHECKPOINT), None)
        if named is not None and not any(f.name == "quantization" for f in out):
            out.append(Fact("quantization", "fp8", f"log {named[1].source}:{named[1].lineno} (names an FP8 checkpoint: {named[0]})", "log"))
        elif named is not None and "/" in named[0] and not any(f.name == "model" for f in out):
            # a method that names no format ("compressed-tensors") and a hub name that does: the model's name
            out.append(Fact("model", named[0], f"log {named[1].source}:{named[1].lineno} (names an FP8 checkpoint)", "log"))
        return out


def _seen_key(fact: tuple[str, str, str]) -> tuple[str, str] | None:
    """The key ``LogFacts._add`` records for a fact it keeps (None: one it never keeps)."""
    name, value, _note = fact
    value = value.strip().strip("'\"`")
    if not value or name == GPU_LABEL or (name == "model" and value.lower() in _NOT_MODELS):
        return None
    return name, value.lower()


def _has_anchor(text: str, ex: Extractor) -> bool:
    if ex.ignore_case:
        low = text.lower()
        return any(a.lower() in low for a in ex.anchors)
    return any(a in text for a in ex.anchors)


def _facts_from_lines(lines: Iterable[Line]) -> list[Fact]:
    lf = LogFacts()
    for ln in lines:
        lf.feed(ln)
    return lf.finish()
