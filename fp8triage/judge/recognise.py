"""Recognition by component x failure kind: what an event is about when no known sentence says it.

An event is read for three things (``read``):

* the **components** it names: identifiers from the components' vocabularies (traceback frames,
  kernel and file names, env vars, the source line of a failed ``assert``), and their phrases;
* the **failure kinds** its failure text has (the exception and its message, never the frames):
  not installed, API mismatch, unsupported arch, compile failure, contract, status, assertion, symptom;
* the **number formats** it names (FP8, FP4, INT8 ...).

A signature's ``[[rules]]`` say which combinations are its failure; ``hits`` gives the rules that
fire on an event. A rule hit is weak evidence: a finding on it alone is ``possible``, and ``likely``
only when the facts support it (verdict.py).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import regex

from ..common import rxcache
from ..common.frames import FRAME, NUMBERED_SOURCE
from ..catalogue.loader import Catalogue, Signature
from ..catalogue import scoretables
from ..catalogue.recognition import TOKEN, Rule, Vocabulary, normalise_assert, vocabulary
from ..model import Event, EventKind

NATIVE_FRAME = rxcache.compile(r"^\s*(?:#\d+\s+0x[0-9a-f]+|frame #\d+:|\d+\s+0x[0-9a-f]+\s)", regex.IGNORECASE)
SYMPTOM = frozenset({"symptom"})
# how much a failure kind says about the cause: a missing module or an arch gate names it; a bare
# assertion or a status code only says that something inside the component failed
KIND_RANK = {"not-installed": 6, "api-mismatch": 6, "compile": 5, "unsupported-arch": 5, "contract": 4,
             "symptom": 4, "status": 2, "assertion": 1, "cut-traceback": 1}
STATED = frozenset({"unsupported-arch", "not-installed", "api-mismatch", "compile"})
FAILED = frozenset({"status", "assertion"})
# scales rounded to powers of two without requantizing the weights, said in words: the silent corruption's mechanism
# (the same sentence that kinds.toml reads as a symptom)
UNREQUANTIZED = rxcache.compile(r"(?:ue8m0|e8m0|power[- ]of[- ]two|powers of two)[^\n]{0,80}\b(?:not|never|without|no) "
                                r"(?:being )?re-?quantiz"
                                # "... round those up to the next power of two, but the FP8 weights were quantized against the
                                # original scales"
                                r"|(?:ue8m0|e8m0|power[- ]of[- ]two|powers of two)[^\n]{0,120}\b(?:weights?|values|payload)\b[^\n]{0,12}"
                                r"\b(?:were|was|are|is|got|get) (?:quantized|quantised|computed) (?:against|with|for|from) the "
                                r"(?:original|old|unrounded|float32|fp32) scales?\b")
# what an assert line checks, for a bare AssertionError (the traceback prints the assert, not a message)
ASSERT_CHECKS = (
    ("unsupported-arch", rxcache.compile(r"\b(?:arch\w*|capability|is_sm\w*|sm_?\d+|is_(?:hopper|blackwell|ada)|"
                                       r"has_device_capability|get_device_capability|is_device_capability\w*)\b"
                                       r"|_sm_?\d{2,3}[a-z]?\b|(?:\b|_)(?:sm|cc|cuda_arch)_?(?:version|major|minor)\b|\bget_device_(?:sm|arch)\w*|\w_arch_?(?:major|minor)\b"
                                       # no kernel configuration fits this GPU (its shared memory, its SM count)
                                       r"|\bbest_\w*config\w*\s+is\s+not\s+None|\bsmem_?(?:size|capacity)\b"
                                       # a kernel family's support check: assert cutlass_fp8_supported()
                                       r"|\b\w+_supported\s*\("
                                       # a capability's major number checked alone: "assert major >= 9, f'{major}.{minor}'"
                                       r"|\b(?:cc_?|device_|gpu_)?major\s*(?:>=|==|>)\s*(?:[89]|1[0-2])\b", regex.I)),
    ("contract", rxcache.compile(r"\.(?:shape|size|stride|dim|ndim|dtype|is_contiguous)\b|%|\bdivisible\b|\bcontiguous\b|"
                                 # a block shape against the one a kernel takes: "assert self.block_shape == self.DEEPGEMM_BLOCK_SHAPE",
                                 # "assert weight_block_size == [128, 128]"
                                 r"(?:\b|_)block_(?:shape|size)\b\s*[!=]=|"
                                 # an alignment in blocks: "assert ceil_div(hidden_size, block * 4) == ..."
                                 r"\b_?(?:is_)?valid\w*\(|\b(?:ceil_div|cdiv|align|round_up)\s*\(", regex.I)),
    # a numeric tolerance a test checks ("assert diff < 0.001", "assert max_err <= 1e-2", "assert calc_diff(out, ref) <
    # 1e-3"): the result was off
    ("symptom", rxcache.compile(r"\bassert\s+\(?\s*\w*(?:diff|err|error|dist|mismatch)\w*(?:\([^()\n]{0,80}\))?\s*\)?\s*<=?\s*[\d.]",
                                regex.I)),
    # the number of arguments a call passed against what the callee takes: "assert len(args) == len(self.args)"
    ("api-mismatch", rxcache.compile(r"\blen\(\s*(?:\*?args|kwargs|params|arguments)\s*\)\s*==\s*len\(", regex.I)),
    # an availability check: is_deep_gemm_available(), has_deep_gemm(), has_flashinfer()
    ("not-installed", rxcache.compile(r"\b(?:is_\w+_available|\w+_available)\b|\bhas_\w+\s*\(\s*\)"
                                      # a kernel or op that was never loaded: "assert self.deepgemm_input_quant_op is not None"
                                      r"|\b\w*(?:_op|_ops|_kernel|_kernels|_fn|_func|_impl|_module|_lib|deep_?gemm\w*)\s+is\s+not\s+None\b", regex.I)),
)
# a switch among an assert's conditions: the library turned off ("C.dtype == torch.bfloat16 and
# deep_gemm_wrapper.ENABLE_JIT_DEEPGEMM"); it is what failed, before a dtype or a shape beside it
SWITCH = rxcache.compile(r"\b[A-Z0-9_]*(?:ENABLE|USE)_[A-Z0-9_]*(?:DEEP_?GEMM|JIT|FLASHINFER|CUTLASS)[A-Z0-9_]*\b")


def assert_checks(asserts: list[str]) -> set[str]:
    """What the source lines of failed asserts check (``ASSERT_CHECKS``, ``SWITCH``)."""
    checks = {kind for kind, rx in ASSERT_CHECKS for s in asserts if rx.search(s)}
    if any(SWITCH.search(s) for s in asserts):
        checks = (checks - {"contract"}) | {"not-installed"}
    return checks


# a C++ check that prints its condition: DeepGEMM's DG_HOST_ASSERT ("Assertion error (csrc/apis/gemm.hpp:96):
# <condition>"), torch's TORCH_CHECK without a message ("Expected is_sm90 || is_sm100 to be true, but got false.")
CPP_CONDITION = rxcache.compile(r"Assertion error \([^)\n]*\.(?:hpp|cuh|cpp|cu|h):\d+\):\s*([^\n]*(?:==|!=|<=|>=|<|>)[^\n]*)"
                                r"|\bExpected ([^\n]{1,200}?) to be true, but got false\b")
# a failure that names no component (a segfault, an abort, "CUDA error: unspecified launch failure", a
# LocalEntryNotFoundError, "Failed to compile the JIT kernel") may be read with what the log said was running (``context``), for these kinds
CONTEXT_KINDS = frozenset({"status", "not-installed", "unsupported-arch", "compile"})
CRASH = rxcache.compile(r"\bsegfault|segmentation fault|\bSIGSEGV\b|\bSIGILL\b|illegal instruction|core dumped"
                        r"|fatal python error", regex.I)
# ... unless it names the library it failed in ("Segmentation fault in libnccl.so.2 ncclCommInitRank"; torch's
# own libraries, which raise and print every CUDA error, name no culprit)
CULPRIT = rxcache.compile(r"\blib(?!c10\b|c10_cuda\b|torch\w*\.so)[\w+-]*\.so\b|\bnccl", regex.I)
READ_HEAD, READ_TAIL = 40, 160  # lines of a long event that are read: its head and its newest lines
MAX_CHARS = 20_000


@dataclass(frozen=True)
class Reading:
    components: frozenset[str]
    kinds: frozenset[str]
    formats: frozenset[str]
    low: str  # the failure text (message, chained causes; not frames), lower-cased: rules' words are looked up here
    failure_line: int  # index of the line that carries the failure kind (the evidence line)
    inner: frozenset[str] = frozenset()  # components the failure line or the innermost frame names
    context: frozenset[str] = frozenset()  # components earlier events of the same log named
    where: str = ""  # where it failed, lower-cased: the failed assert's line and the innermost frames (rules' words too)
    bare: bool = False  # a failure of a CONTEXT_KINDS kind that names no component and no library it failed in
    linked: bool = False  # ``context`` holds the components of this failure's own frames (printed after it)
    said: frozenset[str] = frozenset()  # components the failure's own words name (its message, a failed assert's line)
    here: str = ""  # a failed assert's message, or a bare one's innermost frame and assert line, lower-cased


# a file's path inside a message ("Assertion error (/workspace/deepgemm-src/csrc/apis/gemm.hpp:341)"): where it
# failed, not what the failure says
_PATHS = rxcache.compile(r"[\w.~-]*/[\w./~+-]+|\b[\w-]+\.(?:pyx?|hpp|cuh|cu|cpp|cc|h|so)\b")


# an FP8 KV cache named beside a failure: "--kv-cache-dtype fp8_e4m3", "kv cache dtype fp8", "fp8 kv cache"
_KV_CACHE = rxcache.compile(r"kv[_ -]?cache[_ -]?dtype\W{0,3}\w+|\b(?:fp8|float8)(?:_e4m3\w*|_e5m2)? kv[_ -]?cache\b", regex.I)


def _lines(ev: Event) -> list[tuple[int, str]]:
    n = len(ev.lines)
    idx = range(n) if n <= READ_HEAD + READ_TAIL else [*range(READ_HEAD), *range(n - READ_TAIL, n)]
    return [(i, ev.lines[i].text[:MAX_CHARS]) for i in idx]


def _failure_text(ev: Event, lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The lines that state the failure: not frames, not the source lines printed under them."""
    out, after_frame, skipped = [], False, False
    wrapped = set(ev.wrapped)
    for i, t in lines:
        if i in wrapped and skipped:
            continue  # the tail a terminal cut off a frame or a source line
        skipped = True
        if FRAME.match(t) or NATIVE_FRAME.match(t):
            after_frame = True
            continue
        if after_frame and NUMBERED_SOURCE.match(t):
            continue  # IPython prints several numbered source lines under a frame ("    421 if ...", "--> 422 out = ...")
        if after_frame and t[:1] in (" ", "\t") and not t.lstrip().startswith(("^", "~")):
            after_frame = False
            continue  # the source line under a frame (its assert is read separately)
        after_frame = skipped = False
        out.append((i, t))
    return out


# a compiler's diagnostic: the file it was compiling comes first ("kernel.cu:8:10: fatal error: cutlass/cutlass.h: No
# such file or directory", nvcc's "gemm.cuh(112): error: ..."), then the source line and a caret
COMPILER_DIAG = rxcache.compile(r"^\s*\S+\.(?:cu|cuh|cpp|cc|cxx|c|h|hpp)(?::\d+(?::\d+)?:|\(\d+\):)\s+(?:fatal\s+)?error\b")


def _innermost(ev: Event, lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The failure line(s) and the innermost frame with its source line; for a compiler's diagnostic, its first
    line (the file that failed to compile, not the header it could not find)."""
    failure = _failure_text(ev, lines)
    out = failure[-3:]
    diag = next(((i, t) for i, t in failure if COMPILER_DIAG.match(t)), None)
    if diag is not None and diag not in out:
        out = [diag] + out
    for k in range(len(lines) - 1, -1, -1):
        if FRAME.match(lines[k][1]) or NATIVE_FRAME.match(lines[k][1]):
            out += lines[k:k + 2]
            break
    return out


def _assert_lines(ev: Event, lines: list[tuple[int, str]]) -> list[str]:
    """The source lines of failed asserts as the traceback prints them (whole when a terminal cut one; pytest marks
    the failing line of the test's source with ">")."""
    logical = lines + [(i, t) for i, t in ev.unwrapped("") if i + 1 < len(ev.lines) and i + 1 in ev.wrapped] if ev.wrapped else lines
    return [s for s in (t.strip().removeprefix(">").lstrip() for _, t in logical) if s.startswith("assert ") or s.startswith("assert(")]


# (a name before "=" is part of a value dump: "AssertionError: sm_version=121")
_VALUES = rxcache.compile(r"torch\.Size\(\[[^\]]*\]\)|\b(?:torch\.)?(?:float|bfloat|int|uint)\d+\w*|\b\w*\d\w*\b"
                          r"|\b[A-Za-z_]\w*\s*=")
_WORD = rxcache.compile(r"[A-Za-z]{3,}")


# frames of the interpreter's prompt and of torch's call machinery (every operator call passes through them)
# a library's copy of another's code: a failure there is the library's (FlashInfer's `flashinfer/deep_gemm.py` and
# `nv_internal/tensorrt_llm/deep_gemm/` are its own DeepGEMM: labelled by the FlashInfer op that failed)
_IN_FLASHINFER = rxcache.compile(r"[/\\]flashinfer[/\\]")
# (and its copy of TensorRT-LLM's CUTLASS MoE GEMMs: "Error Internal (/workspace/flashinfer/csrc/nv_internal/tensorrt_llm/
# kernels/cutlass_kernels/moe_gemm/...)" is FlashInfer's fused MoE failing)
_VENDORED = ((_IN_FLASHINFER, "deepgemm", "flashinfer-fp8"), (_IN_FLASHINFER, "cutlass-fp8", "flashinfer-fp8"))
# the source file a C++ failure names in its message: "Error Internal (/workspace/.../moe_gemm_tma_ws_launcher.inl:1028)"
_SOURCE_AT = rxcache.compile(r"\(([^()\s]+\.(?:h|hpp|cuh|cu|cpp|cc|inl)):\d+\)")


def _vendored(innermost: list[tuple[int, str]], inner: set[str], comps: set[str], message: str = ""
              ) -> tuple[set[str], set[str]]:
    """The components read with the innermost frame's library where that frame (or the source file a C++ failure's
    message names) lies in its copy of another's code."""
    frame = next((t for _, t in reversed(innermost) if FRAME.match(t) or NATIVE_FRAME.match(t)), "")
    source = "\n".join(_SOURCE_AT.findall(message))
    for path, copied, owner in _VENDORED:
        if (copied in inner and path.search(frame)) or (copied in comps and source and path.search(source)):
            inner = (inner - {copied}) | {owner} if copied in inner else inner
            comps = (comps - {copied}) | {owner}
    return inner, comps


def _checked_here(ev: Event, asserts: list[str], innermost: list[tuple[int, str]]) -> str:
    """Where a failed assert says what it checked: the words of its own message ("K must be divisible by block_size";
    not the values it printed: "Unknown cases: sf.dtype=torch.float32, ..." checks no float32), or where it has none,
    the innermost frame and the assert's source line; "" for a failure that is no assert."""
    if not asserts:
        return ""
    if ev.message.strip():
        return _VALUES.sub(" ", ev.message)
    return "\n".join(t for _, t in innermost if FRAME.match(t) or NATIVE_FRAME.match(t) or t.lstrip().startswith("assert"))


_CALL_MACHINERY = rxcache.compile(r'<(?:stdin|string|console)>|torch/(?:_ops|_library/\w+|nn/modules/module|utils/_contextlib)\.py')


def _states_words(message: str) -> bool:
    """Whether an assertion's message says something in words (not only values, shapes and dtypes)."""
    rest = _VALUES.sub(" ", message)
    return _WORD.search(rest) is not None


# a TORCH_CHECK that prints only its condition
_TORCH_CHECK = rxcache.compile(r"\bexpected (.{1,200}?) to be true, but got false", regex.I)
# pytest's message for a tolerance that failed, with the values it compared: "assert tensor(0.4431, device='cuda:0') < 0.001"
_TOLERANCE = rxcache.compile(r"assert\s+(?:tensor\(\s*)?-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?(?:,[^)\n]*)?\)?\s*<=?\s*"
                             r"(?:0?\.\d+|\d+(?:\.\d+)?e-\d+)(?!\S)", regex.I)  # (a tolerance: under 1, not a count)
# ... as pytest prints it without an AssertionError line ("E       assert 0.3891 < 0.001")
_PYTEST_TOLERANCE = rxcache.compile(r"(?m)^E\s+" + _TOLERANCE.pattern, regex.I)


def states_symptom(text: str) -> bool:
    """Does ``text`` state a numeric symptom: in words or a table (``Vocabulary.states_symptom``), or as a
    tolerance that failed, with the values compared ("assert tensor(0.2761, ...) < 0.001")?"""
    return vocabulary().states_symptom(text) or _TOLERANCE.search(text) is not None


def _checked(ev: Event, kinds: set[str], ftext: str, assertion: bool, checks: set[str]) -> None:
    """Add to ``kinds`` (in place) what a failed check says by its condition: a TORCH_CHECK's condition, an
    assertion's assert line (``checks``) or pytest's compared values."""
    if _PYTEST_TOLERANCE.search(ftext):
        kinds.add("symptom")  # pytest's short form, no AssertionError line: "E       assert 0.3891 < 0.001"
        kinds.discard("assertion")
        return
    check = _TORCH_CHECK.search(ftext) if "contract" in kinds else None
    if check is not None:
        # torch's "Expected <condition> to be true, but got false": the condition says the kind, not the template
        said = {kind for kind, rx in ASSERT_CHECKS if rx.search(check.group(1))}
        if "unsupported-arch" in said and "contract" not in said:
            kinds.discard("contract")
    if not assertion:
        if "symptom" in checks and "assertion" in kinds:
            # an assert the paste shows that checks a tolerance (pytest's listing of the failed test, "> assert
            # calc_diff(out, ref) < 1e-3"): the numbers were off, no device or host assert fired
            kinds.add("symptom")
            kinds.discard("assertion")
        return
    kinds.add("assertion")
    if not _states_words(ev.message):
        # a bare AssertionError, or one whose message only prints values ("1536, 128,
        # torch.Size([24, 56])"): what its assert line checks is the failure's kind
        kinds |= checks
        if "symptom" in checks:
            kinds.discard("assertion")  # a tolerance that failed is the numeric symptom itself
    elif _TOLERANCE.match(ev.message.strip()):
        kinds.add("symptom")  # pytest prints the values it compared: "assert tensor(0.4431, ...) < 0.001"
        kinds.discard("assertion")


def _kinds(ev: Event, voc: Vocabulary, failure: list[tuple[int, str]], ftext: str, asserted: bool,
           checks: set[str]) -> tuple[set[str], dict[str, int]]:
    """The failure kinds the failure text states, and the index of the line that states each first."""
    kinds: set[str] = set()
    first: dict[str, int] = {}
    exc = (ev.exc_type or "").rsplit(".", 1)[-1]
    for kid, excs, pat in voc.kinds:
        if exc and exc in excs:
            kinds.add(kid)
        if pat is not None:
            for i, t in failure:
                if pat.search(t):
                    kinds.add(kid)
                    first.setdefault(kid, i)
                    break
            else:
                # a phrase that a terminal or the library wrapped over two lines, or a chained cause
                if pat.search(ftext):
                    kinds.add(kid)
    if exc == "ImportError" and not kinds & {"api-mismatch", "unsupported-arch"}:
        kinds.add("not-installed")
    if exc.endswith("ImportError") and kinds >= {"unsupported-arch", "not-installed"}:
        # an ImportError whose message says it is the GPU ("kernels are only built for SM90 ...; this GPU is
        # SM120") and nothing about a missing module (its "ImportError" word aside): not a missing module
        missing = next((pat for kid, _, pat in voc.kinds if kid == "not-installed"), None)
        if missing is None or not missing.search(ev.message):
            kinds.discard("not-installed")
    if "'nonetype' object has no attribute" in ftext.lower():
        kinds.discard("api-mismatch")  # the module was set to None when its import failed
    _checked(ev, kinds, ftext, exc == "AssertionError" or (asserted and ev.is_error and not ev.message.strip()), checks)
    if ev.lines and (scoretables.is_header(ev.lines[0].text)
                     or not ev.is_error and scoretables.headed([ln.text for ln in ev.lines[:2]])):
        # a table of eval results: a cell's "FAIL" or "unsupported" is a row's outcome, not a failure of its own
        kinds &= SYMPTOM
        low = scoretables.collapsed_at("\n".join(t for _, t in failure)) if kinds <= {"symptom"} and len(ev.lines) > 2 else None
        if low is not None:
            # one row's score collapsed against another's: that row is the evidence (not a row a cue word is on: the
            # healthy GPU's row of a table with a GPU column)
            kinds.add("symptom")
            first["symptom"] = failure[low][0]
    if (scoretables.below_threshold(ftext, ev.text) or scoretables.below_reference(ftext) or scoretables.gpus_apart(ftext)
            or (exc == "AssertionError" and voc.states_symptom(ev.message))):
        # a check of the numbers that failed: an eval's score far below its threshold ("0.198 not greater than 0.94"),
        # a similarity too low; the symptom itself, and the shape it measured is no contract
        kinds.add("symptom")
        kinds -= {"assertion", "contract"}
        first.setdefault("symptom", 0)
    sentence = not ev.exc_type and bool(ev.lines) and ev.lines[0].level is None and " " in ev.lines[0].text.strip()
    if "symptom" in kinds and (not ev.is_error or sentence) and kinds & {"contract", "status"}:
        # a line that states wrong numbers ("shape (m=4096, ...) deepgemm vs bf16 ref: cos=0.92") names shapes it
        # measured, not a shape it was refused; a sentence that says a run crashed and printed garbage ("sampling
        # crashes on GB200, greedy prints only exclamation marks") tells the NaN's consequence, not a failure of its own
        kinds -= {"contract", "status"}
    cond = CPP_CONDITION.search(ev.message)
    if cond:  # a C++ check that prints its condition: what the condition checks
        kinds |= {kind for kind, rx in ASSERT_CHECKS if kind == "unsupported-arch" and rx.search(cond.group(1) or cond.group(2))}
    if ev.kind is EventKind.TRACEBACK and not ev.exc_type and not ev.message.strip() and ev.frames:
        kinds.add("cut-traceback")  # a paste that ends inside the frames: the failure line is missing
    return kinds, first


# a format the message suggests instead of the one that failed: "Int8 not supported on SM120. Use FP8 quantization
# instead"
_INSTEAD = rxcache.compile(r"\b(?:use|try|switch to|consider)\b[^.;\n]{0,60}?\binstead\b", regex.I)
# a compiler's preprocessor defines ("-DENABLE_FP8 -DENABLE_FP4"): what a build turns on, not the format that failed
_DEFINES = rxcache.compile(r"(?<!\S)-D\w+(?:=\S*)?")


def without_defines(text: str) -> str:
    """``text`` without a build's preprocessor defines ("-DENABLE_FP8"): they name no format that failed."""
    return _DEFINES.sub(" ", text)


def format_words(text: str) -> str:
    """``text`` without what names a number format that is not the failing path's: an FP8 KV cache (the cache's
    format), advice ("use FP8 instead"), a build's preprocessor defines."""
    return _DEFINES.sub(" ", _INSTEAD.sub(" ", _KV_CACHE.sub(" ", text)))


def read(ev: Event, voc: Vocabulary | None = None, context: frozenset[str] = frozenset(), linked: bool = False,
         elsewhere: bool = False) -> Reading:
    """What ``ev`` names and states. ``context``: components named before it (symptom rules take them);
    ``elsewhere``: they are named anywhere in the log (a failure that names nothing may take them too);
    ``linked``: they are those of this failure's own frames, printed as an event of their own after it."""
    voc = voc or vocabulary()
    key = (id(ev), id(voc))
    got = _READ.get(key)
    if got is None or got[0] is not ev:
        if len(_READ) >= _READ_SIZE:
            _READ.clear()
        got = _READ[key] = (ev, _read(ev, voc))
    r, base = got[1]
    return replace(r, context=context, bare=elsewhere and base, linked=linked) if context or linked or elsewhere else r


# what ``read`` found in an event, whatever its context: the matcher, the rules and the context reading ask about one
# event two or three times (the key holds the event itself: an id outlives nothing in the cache)
_READ: dict[tuple[int, int], tuple[Event, tuple[Reading, bool]]] = {}
_READ_SIZE = 1024


def _read(ev: Event, voc: Vocabulary) -> tuple[Reading, bool]:
    """``read``'s reading with no context, and whether a failure that names nothing may take its component from
    what the log names elsewhere."""
    lines = _lines(ev)
    text = "\n".join(t for _, t in lines)
    # a line a terminal cut at a fixed column, read whole too (an identifier cut in two: "cublasLtMatm" "ulAlgo...")
    cut = [(i, t) for i, t in ev.unwrapped("") if i + 1 in ev.wrapped] if ev.wrapped else []
    if cut:
        text += "\n" + "\n".join(t for _, t in cut)
    comps = voc.components_in(text)
    asserts = _assert_lines(ev, lines)
    for s in asserts:  # the source line of a failed assert: its component, and what it checks
        comps |= voc.asserts.get(normalise_assert(s), set())
    asserted = bool(asserts)
    checks = assert_checks(asserts)
    # where it failed: the innermost frames (path and function, not the code under them), the assert
    logical = ev.unwrapped("") if ev.wrapped else lines  # (a frame line a terminal cut, read whole)
    where = [t for _, t in logical if FRAME.match(t) or NATIVE_FRAME.match(t)][-2:] + asserts
    # the components the failure itself names: its message, or the innermost frame and its source line
    innermost = _innermost(ev, lines)
    inner = voc.components_of(set(TOKEN.findall("\n".join(t for _, t in innermost))))
    inner, comps = _vendored(innermost, inner, comps, ev.message)
    here = _checked_here(ev, asserts, innermost)
    failure = _failure_text(ev, lines)
    ftext = "\n".join(t for _, t in failure)
    for c in ev.chain[-4:]:
        ftext += "\n" + c
    if ev.wrapped:
        ftext += "\n" + ev.message  # the message as one line: wrapped at a word, or a terminal cut its words in two
        stated = {i for i, _ in failure}
        ftext += "".join("\n" + t for i, t in cut if i in stated)
    kinds, first = _kinds(ev, voc, failure, ftext, asserted, checks)
    said_text = _PATHS.sub(" ", "\n".join([ftext, *asserts]))
    said = voc.components_in(said_text)
    # (an FP8 KV cache is the cache's format, not the kernel's; "Use FP8 quantization instead" is advice)
    formats = voc.formats_of(format_words(text))
    line = min((first[k] for k in kinds if k in first), default=len(ev.lines) - 1)
    # (Python frames that name no FP8 component say where it failed: elsewhere)
    # (a REPL's own frame and torch's operator dispatch say nothing of where: `>>> torch.ops.fbgemm.f8f8bf16_rowwise(...)`)
    py_frames = (any(path.endswith(".py") and not _CALL_MACHINERY.search(path) for path, _ in ev.frames)
                 or any(t.lstrip().startswith('File "') and not _CALL_MACHINERY.search(t) for _, t in lines))
    bare = not comps and not py_frames and bool(kinds & CONTEXT_KINDS) and not CULPRIT.search(text)
    return Reading(frozenset(comps), frozenset(kinds), formats, ftext.lower(), line, frozenset(inner & comps), frozenset(),
                   "\n".join(where).lower(), False, False, frozenset(said & comps), here.lower()), bare


def with_paste(r: Reading, formats: frozenset[str], words: str) -> Reading:
    """A symptom line read with what its paste names on other lines: the FP8 checkpoint's format and the GPU
    (a rule over "NaN from an FP8 model on a B200" takes them from the write-up's first sentence)."""
    if not formats:
        return r
    return replace(r, formats=r.formats | formats, low=f"{r.low}\n{words}")


def fires(rule: Rule, r: Reading, failure: bool) -> bool:
    if ("failure" if failure else "line") not in rule.events:
        return False
    if rule.components and not (rule.components & r.components):
        # a symptom line, or a failure that names nothing, takes its component from what the log named
        if not (in_context(rule, r) and rule.components & r.context):
            return False
    if not (rule.kinds & r.kinds):
        return False
    if rule.words and not any(w in r.low or w in r.where for w in rule.words):
        return False
    if rule.kinds == SYMPTOM and r.kinds & (STATED | FAILED):
        return False  # a failure that states its cause (an arch gate, a missing module) is not a symptom report
    if "contract" in rule.kinds and not rule.kinds & SYMPTOM and UNREQUANTIZED.search(r.low):
        return False  # scales said to be rounded without requantizing: the silent corruption, not a refused contract
    if r.formats:
        if rule.kinds == SYMPTOM and r.formats - rule.formats:
            return False  # NaN or garbage from a model that also runs another format (NVFP4): not read as FP8's
        return bool(r.formats & rule.formats)  # an event about other formats only is not this failure
    return not rule.require_format


def in_context(rule: Rule, r: Reading) -> bool:
    """May this rule take its component from the log's other lines (``Reading.context``)? A symptom
    rule may (NaN names no library); so may a rule over the kind of a failure that names no component
    (a segfault right after the log said an FP8 kernel was being compiled, a LocalEntryNotFoundError in
    a write-up that names the hub kernel), and any rule where the context is the failure's own frames,
    printed after its message (``Reading.linked``)."""
    return rule.kinds == SYMPTOM or r.linked or (r.bare and bool(rule.kinds & r.kinds & CONTEXT_KINDS))


def states_failure(ev: Event) -> bool:
    """Whether an event is a failure for the rules: an error, or a line that no logger marked as
    informational (a pasted sentence, a table row, a line a terminal printed on its own)."""
    if ev.is_error:
        return True
    if ev.kind not in (EventKind.LINE, EventKind.WARNING) or not ev.lines:
        return False
    first = ev.lines[0]
    if ev.kind is EventKind.LINE and first.level in (None, "ERROR", "CRITICAL", "FATAL"):
        return True
    # a warning that an FP8 component failed ("Module vllm.third_party.deep_gemm was found but failed
    # to import"): the server goes on, without the component
    return ev.kind is EventKind.WARNING and vocabulary().names_fp8(first.text)


SCORES_LEVEL = "INFO"  # the level eval tools log their scores at


def logged_score(ev: Event) -> bool:
    """A line an eval tool logged at INFO that states a symptom ("evalscope - INFO - aime24 | AveragePass@1 |
    0.0333"): no failure, but the score it reports collapsed."""
    return (ev.kind is EventKind.LINE and bool(ev.lines) and ev.lines[0].level == SCORES_LEVEL
            and vocabulary().states_symptom(ev.text))


def hits(cat: Catalogue, ev: Event, r: Reading) -> list[tuple[Signature, Rule]]:
    """(signature, its most specific rule that fires) for each signature with one."""
    if not r.kinds:
        return []
    failure = states_failure(ev)
    out = []
    for sig in cat.signatures:
        fired = [rule for rule in sig.rules if fires(rule, r, failure)]
        if fired:
            out.append((sig, max(fired, key=lambda x: score(x, r))))
    return out


def signature_formats(sig: Signature, cat: Catalogue | None = None) -> frozenset[str]:
    """The number formats ``sig``'s failure is about: its rules' (none: it says nothing of formats); with
    ``cat``, a signature without rules is about what the families it refines are about."""
    formats = frozenset().union(*(rule.formats for rule in sig.rules))
    if not formats and cat is not None:
        fams = [f for f in (cat.get(fid) for fid, _ in sig.refines) if f is not None]
        formats = frozenset().union(*(rule.formats for f in fams for rule in f.rules))
    return formats


def format_fits(sig: Signature, r: Reading) -> bool:
    """Whether an event's number formats leave ``sig`` possible: a signature whose rules are about
    FP8 does not explain an event that names only FP4 or INT8."""
    formats = signature_formats(sig)
    return not r.formats or not formats or bool(r.formats & formats)


def score(rule: Rule, r: Reading) -> int:
    """How specific a rule hit is: the most telling kind it matched, plus what its rule narrows."""
    kind = max((KIND_RANK.get(k, 1) for k in rule.kinds & r.kinds), default=0)
    # the component where the failure happened says more than one the traceback passed through; for a bare
    # assertion, so do the rule's words (``pack_ue8m0`` where it failed, not the ``transform_sf...`` that called it)
    here = bool(rule.words) and any(w in r.here for w in rule.words)
    generic = vocabulary().generic
    # a rule over a framework's FP8 code in general, where the event names a kernel library too
    vague = bool(rule.components) and rule.components <= generic and bool(r.components - generic)
    # (where the failure's own words name one of the inner components, "Failed to compile DeepGEMM kernel" raised
    # through TensorRT-LLM's CUTLASS MoE op, that one)
    inner = (r.inner & r.said) or r.inner
    return kind + rule.specificity + 2 * bool(rule.components & inner) + here - vague


def named(rule: Rule, r: Reading) -> bool:
    """Does the failure name the rule's component in its own words ("DeepGEMM only supports Hopper", not a
    file it passed through)? Between two rule hits that say as much, that one is the failure's."""
    return bool(rule.components & r.said)


def describe(rule: Rule, r: Reading) -> str:
    """What a rule hit rests on, for the evidence line: 'deepgemm x api-mismatch'."""
    comps = (sorted(rule.components & r.components)
             or [f"{c} ({'in the frames printed after it' if r.linked else 'named elsewhere in the log'})"
                 for c in sorted(rule.components & r.context)]
             or sorted(rule.formats & r.formats) or ["any component"])
    kinds = sorted(rule.kinds & r.kinds)
    return f"{'/'.join(comps)} x {'/'.join(kinds)}"
