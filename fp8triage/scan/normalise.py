"""Per-line normalisation: from raw bytes to a ``Line`` with worker and logger prefixes removed.

The steps are ordered, named data (``PREFIXES``); each removes one kind of prefix and may
name the worker or the logger level. Nothing here keeps state between lines except the
per-source ``LineFormat`` chosen by ``detect_format``.
"""
from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass

import regex

from ..common import rxcache
from ..model import Line
from ..common.redact import redact

ANSI = rxcache.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
# other C0 control characters (except tab) would let log text drive the terminal; show them as �
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
# the same characters as bytes: UTF-8 encodes them as themselves and nothing else as them, so a
# raw line without these bytes decodes to a text without these characters
_CONTROL_BYTES = bytes([*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F])

# kubectl logs --prefix:  [pod/vllm-0/vllm] ...
# a Markdown block quote ("> ", nested "> > "): a log quoted in a reply of an issue thread
QUOTE_MARKS = rxcache.compile(r"^(?:>[ \t]?)+")
KUBECTL_PREFIX = rxcache.compile(r"^\[(?P<pod>pod/[^\]/\s]+)/(?P<container>[^\]\s]+)\] ?")
# docker compose:  vllm-svc0  | ...
COMPOSE_PREFIX = rxcache.compile(r"^(?P<svc>[A-Za-z0-9][\w.-]*)\s+\| ?")
# stern (kubectl logs of many pods):  vllm-ds-r1-0 vllm ...  (the pod, then the container; no delimiter: read only
# where most of a source's first lines start so, with a few such pairs)
STERN_PREFIX = rxcache.compile(r"^(?P<pod>[a-z0-9][a-z0-9.]*(?:-[a-z0-9.]+)+) (?P<container>[a-z0-9][a-z0-9-]{0,62}) ")
# Slurm's task label (srun --label, "srun -l"):  0: ...   12: ...  (a task of a multi-node job; the frames'
# indentation after it is kept)
TASK_LABEL = rxcache.compile(r"^(?P<task>\d{1,4}): ")
# RFC 3339 timestamp at the start (kubectl --timestamps, journald short-iso, many loggers)
TIMESTAMP = rxcache.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)? ")
# syslog / journalctl (short and short-iso):  Dec  3 06:00:00 node-7 vllm[4242]:   2025-08-01T09:00:00+0000 node-7 python3[9]:
SYSLOG = rxcache.compile(
    r"^(?:[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?)"
    r" [\w.-]+ [\w.@/-]+(?:\[\d+\])?: ")

# hosting platforms' per-line prefixes: Modal ("[modal] ta-01JCB7H2 | "), pipe-separated timestamp, replica and
# level ("2026-12-03 12:00:41.110 | replica-2 | ERROR | "), syslog-like lines with no program
# ("Nov 07 09:15:52 host-1  ERROR ", one space after the level: the frames' indentation is kept), and
# `gcloud logging read` YAML ("textPayload: '...'"), CI runners' timestamps
PLATFORM_PREFIX = rxcache.compile(
    r"^(?:\[modal\] [\w-]+ \| "
    r"|\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?Z? \| [\w.:-]+ \| (?P<level>INFO|WARN|WARNING|ERROR|DEBUG|CRITICAL|FATAL)\s*\| "
    r"|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d [\w.-]+\s+(?P<level>INFO|WARN|WARNING|ERROR|DEBUG|CRITICAL|FATAL) "
    r"|(?P<yaml>\s*(?:- )?textPayload: )['\"]?"
    # CI runners: Buildkite's "[2026-09-09T08:01:55Z] ", GitHub Actions' "2026-09-09T08:01:55.1234567Z " (one space:
    # the frames' indentation is kept)
    r"|\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[.,]\d+)?Z\] |\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z )"
)

# (name, pattern). The worker group is kept; the rest of the match is removed. Ordered.
WORKER_PREFIXES: list[tuple[str, regex.Pattern]] = [
    # (VllmWorker rank=3 pid=123)  (VllmWorker TP4 pid=123)  (EngineCore_DP0 pid=9)
    # (RayWorkerWrapper pid=1, ip=10.0.0.2)  (Worker_TP2 pid=7)  (ServeReplica:app:VLLMDeployment pid=201, ip=10.0.1.9)
    (
        "vllm-process",
        rxcache.compile(
            r"^\((?P<name>[A-Za-z_][\w-]*(?::[\w-]+)*)(?P<rank>\s+rank=\d+|(?:\s+(?:DP|TP|EP|PP)\d+)+)?\s+pid=(?P<pid>\d+)(?:,\s*ip=(?P<ip>[\w.:-]+))?\)\s?"
        ),
    ),
    # torchrun:  [rank3]:   (without the brackets where a launcher or a collector re-prefixed it: rank3: )
    # (and a runtime's own "[rank3] " before each line, without the colon)
    ("torchrun", rxcache.compile(r"^(?:\[(?P<name>rank\d+)\]:?|(?P<name>rank\d+):)\s?")),
    # mpirun:  [1,0]<stderr>:
    ("mpirun", rxcache.compile(r"^\[(?P<name>\d+,\d+)\]<std(?:err|out)>:\s?")),
    # SGLang:  [2025-08-01 11:19:46 TP0]  [11:19:46 DP1 TP3 EP3]  [2025-08-01 11:19:46]
    (
        "sglang",
        rxcache.compile(
            r"^\[(?:\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d(?:[.,]\d+)?(?P<name>(?: (?:DP|TP|EP|PP|CP)\d+)+)?\]\s?"
        ),
    ),
]

# Logger headers. The level is kept.
LOGGER_HEADERS: list[tuple[str, regex.Pattern]] = [
    # vLLM:  ERROR 04-27 23:40:50 [multiproc_executor.py:962]   (older: "worker_base.py:157]" without "["; a
    # paste with the times taken out: "ERROR [core.py:586]")
    (
        "vllm",
        rxcache.compile(
            r"^(?P<level>DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)\s+(?:\d\d-\d\d\s+\d\d:\d\d:\d\d(?:\.\d+)?\s+\[?|\[)"
            r"[\w./<>-]+:\d+\]\s?"
        ),
    ),
    # Python logging default-ish:  2024-01-01 12:00:00,123 - name - ERROR - msg
    (
        "python-dash",
        rxcache.compile(
            r"^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?\s+-\s+[\w.]+\s+-\s+(?P<level>DEBUG|INFO|WARNING|ERROR|CRITICAL)\s+-\s"
        ),
    ),
    # LEVEL:logger:msg
    ("python-basic", rxcache.compile(r"^(?P<level>DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.]+:")),
    # glog (Triton server, TensorRT-LLM's C++ side, PyTorch's C++ warnings):  E1203 09:00:00.123456  4242 core.cc:12]
    ("glog", rxcache.compile(r"^(?P<level>[IWEF])\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+\s+[\w./-]+:\d+\]\s?")),
    # loguru:  2025-08-01 09:00:00.123 | ERROR    | module:function:12 - msg
    (
        "loguru",
        rxcache.compile(
            r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:[.,]\d+)?\s+\|\s+(?P<level>TRACE|DEBUG|INFO|SUCCESS|WARNING|ERROR|CRITICAL)"
            r"\s+\|\s+\S+\s+-\s"
        ),
    ),
    # TensorRT-LLM:  [TensorRT-LLM][ERROR] msg
    ("tensorrt-llm", rxcache.compile(r"^\[TensorRT-LLM\]\[(?P<level>ERROR|WARNING|INFO|DEBUG|VERBOSE|TRACE)\]\s?")),
    # Rust tracing / structured:  2026-02-09T14:22:25.762110Z  WARN module: msg
    (
        "tracing",
        rxcache.compile(r"^\d{4}-\d\d-\d\dT[\d:.]+Z?\s+(?P<level>TRACE|DEBUG|INFO|WARN|ERROR)\s+"),
    ),
]

# The commonest shape (a vLLM process's line: worker prefix, then vLLM's logger header) in one
# match. The worker part is atomic, so this matches exactly where the first worker prefix and
# then the first logger header would, one after the other. (Python's ``re``: its match groups
# cost a fraction of ``regex``'s, and these patterns read the same in both.)
_VLLM_LINE = re.compile(
    r"(?>" + dict(WORKER_PREFIXES)["vllm-process"].pattern.removeprefix("^") + r")"
    + dict(LOGGER_HEADERS)["vllm"].pattern.removeprefix("^")
)

_LEVELS = {"WARN": "WARNING", "I": "INFO", "W": "WARNING", "E": "ERROR", "F": "CRITICAL", "VERBOSE": "DEBUG",
           "SUCCESS": "INFO"}


@dataclass
class LineFormat:
    """How the lines of one source are wrapped."""

    jsonl: bool = False  # Docker / k8s JSON-lines: {"log": "...", "stream": ..., "time": ...}
    compose: bool = False  # docker compose "svc | " prefixes
    stern: bool = False  # stern's "pod container " prefixes
    indent: int = 0  # every line indented by this much (a paste indented as a Markdown code block)
    column: int = -1  # a tab-separated export with a header: the message column (CloudWatch, Datadog)

    @property
    def bare(self) -> bool:
        """Does a line start with what its writer wrote (no compose prefix, no export's columns)?"""
        return not self.compose and not self.stern and self.column < 0

    @property
    def name(self) -> str:
        parts = []
        if self.jsonl:
            parts.append("jsonl")
        if self.compose:
            parts.append("compose")
        if self.stern:
            parts.append("stern")
        if self.indent:
            parts.append(f"indent{self.indent}")
        if self.column >= 0:
            parts.append(f"column{self.column}")
        return "+".join(parts) or "text"


def decode(raw: bytes) -> str:
    """Bytes to text that is safe to print: invalid UTF-8 and control characters become �."""
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    text = raw.decode("utf-8", errors="replace")
    if b"\x1b" in raw:
        text = ANSI.sub("", text)
    elif len(raw.translate(None, _CONTROL_BYTES)) == len(raw):
        return text  # no control character (the common case, told without a regex)
    if CONTROL.search(text):
        text = CONTROL.sub("\ufffd", text)
    return text


def detect_format(head: bytes) -> LineFormat:
    """Choose the wrapping from the first lines of a source."""
    lines = [ln for ln in head.split(b"\n")[:50] if ln.strip()]
    fmt = LineFormat()
    if not lines:
        return fmt
    js = sum(1 for ln in lines if _json_message(decode(ln)) is not None)
    if js >= max(1, int(len(lines) * 0.8)):
        fmt.jsonl = True
        return fmt
    texts = [decode(ln) for ln in lines]
    fmt.column = _message_column(texts)
    if fmt.column >= 0:
        return fmt
    svc = [COMPOSE_PREFIX.match(t) for t in texts]
    names = {m.group("svc") for m in svc if m}
    if len([m for m in svc if m]) >= max(2, int(len(lines) * 0.8)) and len(names) <= 16:
        fmt.compose = True
    elif _stern(texts):
        fmt.stern = True
    elif len(texts) >= 2:
        fmt.indent = _common_indent(texts)
    return fmt


# the names log exports give the column of the message: CloudWatch Logs Insights "@message", Datadog and
# Grafana/Loki "message"/"Line", Splunk "_raw", Azure Monitor "Message"/"Log"
_MESSAGE_COLUMNS = frozenset({"@message", "message", "msg", "log", "line", "_raw", "content", "body", "textpayload"})


def _stern(texts: list[str]) -> bool:
    """Do most of ``texts`` start with stern's pod and container, a few pairs that repeat?"""
    pairs = [m.group("pod", "container") for m in map(STERN_PREFIX.match, texts) if m]
    return len(pairs) >= max(3, int(len(texts) * 0.8)) and len(set(pairs)) <= min(16, len(pairs) // 2)


def _message_column(texts: list[str]) -> int:
    """The message column of a tab-separated export whose first line names its columns (-1: not one):
    most of the lines after the header have its number of columns."""
    names = [c.strip().strip('"').lower() for c in texts[0].split("\t")]
    if len(names) < 2:
        return -1
    col = next((i for i, c in enumerate(names) if c in _MESSAGE_COLUMNS), -1)
    rest = texts[1:]
    if col < 0 or not rest or sum(1 for t in rest if t.count("\t") >= col) < max(1, int(len(rest) * 0.8)):
        return -1
    return col


def _column(text: str, col: int) -> str:
    """Column ``col`` of a tab-separated export's line (a line with fewer columns: all of it)."""
    cells = text.split("\t")
    return cells[col] if len(cells) > col else text


MIN_INDENT = 2  # one space in front of every line is a paste's margin, not a block's indent (one tab is one)


def _common_indent(texts: list[str]) -> int:
    """The spaces and tabs every one of ``texts`` starts with (0 if fewer than ``MIN_INDENT``):
    a paste indented as a whole (a Markdown code block written by indenting, a log quoted in an
    e-mail) keeps its tracebacks' own indentation once this is taken off."""
    n = min(len(t) - len(t.lstrip(" \t")) for t in texts)
    return n if n >= MIN_INDENT or (n and all(t[0] == "\t" for t in texts)) else 0


def _dedent(text: str, n: int) -> str:
    """``text`` without up to ``n`` leading spaces and tabs (a line indented less loses what it has)."""
    k = len(text) - len(text.lstrip(" \t"))
    return text[min(k, n):]


def _json_message(text: str) -> str | None:
    s = text.lstrip()
    if not s.startswith("{"):
        return None
    try:
        obj = json.loads(s)
    except (ValueError, RecursionError):  # RecursionError: deeply nested JSON
        return None
    if not isinstance(obj, dict):
        return None
    # Docker and Kubernetes write "log"; Loki's export "line"; Google Cloud Logging "textPayload"
    for key in ("log", "message", "msg", "MESSAGE", "line", "textPayload"):
        v = obj.get(key)
        if isinstance(v, str):
            return _with_exception(v, obj)
    return None


# where structured loggers put the traceback of a record: python-json-logger "exc_info", structlog
# "exception", zap and logrus "error"/"stacktrace", Datadog "error": {"stack", "message", "kind"}, Elastic's ECS
# "error.stack_trace", OpenTelemetry "exception.stacktrace"
_EXC_KEYS = ("exc_info", "exc_text", "exc", "exception", "stack_trace", "stacktrace", "stack", "traceback", "error", "err",
             "error.message", "error.stack_trace", "error.stack", "exception.type", "exception.message",
             "exception.stacktrace")


def _with_exception(msg: str, obj: dict) -> str:
    """The record's message followed by its exception's text (a traceback kept in a field of its
    own), each part once."""
    parts = [msg]
    # (Datadog's log explorer export keeps the record's fields under "attributes", Google Cloud Logging's under
    # "jsonPayload")
    held = [(h, key) for h in (obj, obj.get("attributes"), obj.get("jsonPayload")) if isinstance(h, dict) for key in _EXC_KEYS]
    for holder, key in held:
        v = holder.get(key)
        if isinstance(v, dict):
            v = "\n".join(x for k in ("kind", "type", "message", "msg", "stack", "stack_trace", "stacktrace")
                          if isinstance(x := v.get(k), str) and x)
        elif isinstance(v, list):  # a traceback kept as its lines (Python's traceback.format_exc().splitlines())
            v = "\n".join(x.rstrip("\n") for x in v if isinstance(x, str))
        if isinstance(v, str) and v.strip() and not any(v.strip() in p for p in parts):
            parts.append(v.rstrip("\n"))
    return "\n".join(parts) if len(parts) > 1 else msg


def normalise(raw: bytes, source: str, lineno: int, fmt: LineFormat) -> Line:
    done = _stripped(raw, fmt) if raw[:1] == b"(" and fmt.bare else None
    if done is not None:
        return Line(source, lineno, unescape(done[3]), done[1], done[2])
    text, worker, level = _strip(raw, fmt)
    return Line(source, lineno, redact(text), worker, level)


# A vLLM process's line as bytes, its worker prefix and logger header in their usual spelling: what
# varies between two such lines of one worker and one message (the pid, the time, the file and line
# of the logging call) is in the header that ``strip`` removes, so (worker part, level, the rest)
# says what ``strip`` gives. A line written again with a new pid and time costs this match and a
# lookup (a restart loop or a crash loop writes the same start-up and the same traceback again and
# again). A Ray worker's name keeps its pid, and other spellings take the long way.
_VLLM_RAW = re.compile(
    rb"\(([A-Za-z_][\w-]*(?: rank=\d+|(?: (?:DP|TP|EP|PP)\d+)+)?) pid=\d+\) ?"
    rb"(DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL) +\d\d-\d\d +\d\d:\d\d:\d\d(?:\.\d+)? +\[?[\w./<>-]+:\d+\] ?"
)
# (worker part, level, the rest) -> (text, worker, level, redacted text)
_STRIPPED: dict[tuple[bytes, bytes, bytes], tuple[str, str | None, str | None, str]] = {}
_STRIPPED_SIZE = 4096
_STRIPPED_TEXT = 400  # longer texts take the long way (the memo stays within a few MB)


class Repeats:
    """Whether a memo pays: after ``window`` lookups with fewer than a quarter found, the next
    ``rest`` lookups are not tried (a storm of distinct lines costs no match and no insert), then
    it tries again. Which lines take the memo changes nothing but the time."""

    __slots__ = ("found", "tried", "off", "window", "rest")

    def __init__(self, window: int = 1024, rest: int = 8192):
        self.found = self.tried = self.off = 0
        self.window, self.rest = window, rest

    def skip(self) -> bool:
        """Is the memo not to be tried this time? (Callers on a hot path read ``off`` inline.)"""
        if self.off:
            self.off -= 1
            return True
        return False

    def reset(self) -> None:
        """Start over (a new scan: what paid in the last one says nothing of this one)."""
        self.found = self.tried = self.off = 0

    def count(self, found: bool) -> None:
        self.tried += 1
        self.found += found
        if self.tried >= self.window:
            if self.found * 4 < self.tried:
                self.off = self.rest
            self.found = self.tried = 0


_STRIPPED_PAYS = Repeats()


def reset_repeats() -> None:
    """A new scan starts with every memo on trial again (``Repeats``)."""
    _STRIPPED_PAYS.reset()


def _stripped(raw: bytes, fmt: LineFormat) -> tuple[str, str | None, str | None, str] | None:
    """(text, worker, level, redacted text) of a line that starts with "(", outside docker
    compose's prefixes, by its memo; None: another shape, or a stretch of lines that do not
    repeat (``_strip`` reads it)."""
    pays = _STRIPPED_PAYS
    if pays.off:
        pays.off -= 1
        return None
    m = _VLLM_RAW.match(raw)
    if m is None or len(raw) - m.end() > _STRIPPED_TEXT or raw[1:4] == b"Ray":
        return None
    key = (m.group(1), m.group(2), raw[m.end():])
    done = _STRIPPED.get(key)
    _STRIPPED_PAYS.count(done is not None)
    if done is None:
        if len(_STRIPPED) >= _STRIPPED_SIZE:
            _STRIPPED.clear()
        text, worker, level = _strip(raw, fmt)
        done = _STRIPPED[key] = (text, worker, level, redact(text))
    return done


def strip(raw: bytes, fmt: LineFormat) -> tuple[str, str | None, str | None]:
    """(text, worker, level) of a raw line: decoded, prefixes and logger header removed, not
    redacted (``normalise`` redacts; a caller that keeps the text must too)."""
    done = _stripped(raw, fmt) if raw[:1] == b"(" and fmt.bare else None
    if done is not None:
        return done[0], done[1], done[2]
    return _strip(raw, fmt)


# a paste copied from a rendered page keeps its HTML escapes: File &quot;x.py&quot;, &#39;mn % 4 == 0&#39;
_ENTITY = re.compile(r"&(?:quot|apos|amp|lt|gt|#\d{1,7}|#[xX][0-9a-fA-F]{1,6});")


def unescape(text: str) -> str:
    """``text`` with its HTML character references decoded (the common case, no "&", costs one test)."""
    return html.unescape(text) if "&" in text and _ENTITY.search(text) else text


def _strip(raw: bytes, fmt: LineFormat) -> tuple[str, str | None, str | None]:
    text = unescape(decode(raw))
    if fmt.column >= 0:
        text = _column(text, fmt.column)
    elif fmt.indent:
        text = _dedent(text, fmt.indent)
    if text[:1] == "(" and not fmt.compose and not fmt.stern:
        m = _VLLM_LINE.match(text)
        if m:
            level = m.group("level")
            return text[m.end():], _worker_name(m), _LEVELS.get(level, level)
    if fmt.jsonl:
        msg = _json_message(text)
        if msg is not None:
            text = decode(msg.rstrip("\n").encode("utf-8", errors="replace"))
    if text[:1] == ">":
        text = text[QUOTE_MARKS.match(text).end():]
    host, text = _host_prefix(text, fmt)
    m = SYSLOG.match(text) or TIMESTAMP.match(text)
    if m:
        text = text[m.end():]
    platform_level = None
    m = PLATFORM_PREFIX.match(text)
    if m:
        platform_level = m.group("level")
        text = text[m.end():]
        if m.group("yaml") is not None and text[-1:] in ("'", '"'):
            text = text[:-1]
    worker, text = _worker_prefix(text)
    if worker is not None and text[:1] == "(":
        # a process's prefix inside its parent's ("(EngineCore_DP0 pid=5120) (Worker_TP1 pid=5188) ERROR ..."):
        # the line is the inner process's, named with both
        inner, rest = _worker_prefix(text)
        if inner:
            worker, text = f"{worker} {inner}", rest
    level = None
    for _name, rx in LOGGER_HEADERS:
        m = rx.match(text)
        if m:
            level = m.group("level")
            level = _LEVELS.get(level, level)
            text = text[m.end():]
            break
    if level is None and platform_level is not None:
        level = _LEVELS.get(platform_level, platform_level)
    if host and worker:
        worker = f"{host} {worker}"
    elif host:
        worker = host
    return text, worker, level


def _host_prefix(text: str, fmt: LineFormat) -> tuple[str | None, str]:
    """(host, the rest) of a line that may start with a collector's or a launcher's prefix: kubectl's pod, docker
    compose's service, stern's pod, Slurm's task label."""
    host = None
    m = KUBECTL_PREFIX.match(text)
    if m:
        host = m.group("pod")
        text = text[m.end():]
    if fmt.compose:
        m = COMPOSE_PREFIX.match(text)
        if m:
            host = m.group("svc")
            text = text[m.end():]
    elif fmt.stern:
        m = STERN_PREFIX.match(text)
        if m:
            host = m.group("pod")
            text = text[m.end():]
    if text[:1].isdigit():
        m = TASK_LABEL.match(text)
        if m:
            host = f"{host} task {m.group('task')}" if host else f"task {m.group('task')}"
            text = text[m.end():]
    return host, text


def _worker_prefix(text: str) -> tuple[str | None, str]:
    """(worker, the rest) of a line that may start with a worker's prefix."""
    for _name, rx in WORKER_PREFIXES:
        m = rx.match(text)
        if m:
            return _worker_name(m), text[m.end():]
    return None, text


def _worker_name(m: regex.Match) -> str | None:
    if "pid" in m.re.groupindex:  # a vLLM process prefix
        name, rank, pid, ip = m.group("name", "rank", "pid", "ip")
    else:
        name, rank, pid, ip = m.group("name"), None, None, None
    name = (name or "").strip()
    if not name:
        return None
    if rank:
        return f"{name} {rank.strip()}"
    if pid and (name.startswith("Ray") or ":" in name):  # Ray's actors (a Serve replica: "ServeReplica:app:deployment")
        return f"{name} pid={pid}" + (f" ip={ip}" if ip else "")
    return name
