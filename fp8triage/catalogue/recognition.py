"""The recognition data: FP8 components and their names, failure kinds, number formats, and the
signatures' rules over them (``[[rules]]`` in a signature file).

``signatures/recognition/`` holds the hand-written definitions (components.toml, kinds.toml,
formats.toml) and the vocabularies mined from the components' own sources (vocab/*.jsonl, written by
tools/mine_components.py). Loaded once, when a scan first has an event to recognise.
"""
from __future__ import annotations

import json
import sys
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import regex

from ..common import rxcache
from ..common.phraseset import Phrases, PhraseSet
from .. import paths
from . import scoretables

# a name that is one identifier is looked up in a set of tokens; anything else becomes a phrase
_IDENT = rxcache.compile(r"[A-Za-z_]\w*(?:\.(?:hpp|cuh|cu|cpp|cc|h|py))?")
FP8_FORMATS = frozenset({"fp8", "mxfp8"})
TOKEN = rxcache.compile(r"[A-Za-z_]\w*(?:\.(?:hpp|cuh|cu|cpp|cc|h|py)\b)?")


@dataclass(frozen=True)
class Rule:
    """One rule of a signature: component x kind (x words) x formats."""

    sig_id: str
    components: frozenset[str]
    kinds: frozenset[str]
    words: tuple[str, ...]
    formats: frozenset[str]
    require_format: bool
    events: frozenset[str]

    @property
    def specificity(self) -> int:
        """How much a hit of this rule says: a component and words narrow it down."""
        # words the author chose for a component's failure say the most: they beat a bare component x
        # kind; words alone (no component) say a little less than a component where it failed
        words = (4 if self.components else 3) if self.words else 0
        return 2 * bool(self.components) + words + (not self.components and self.require_format)


def rules_of(sig_id: str, data: list[dict]) -> tuple[Rule, ...]:
    out = []
    for r in data:
        comps = frozenset(r.get("components", []))
        out.append(Rule(
            sig_id, comps, frozenset(r["kinds"]), tuple(w.lower() for w in r.get("words", [])),
            frozenset(r.get("formats", ["fp8"])), bool(r.get("require_format", not comps)),
            frozenset(r.get("events", ["failure"])),
        ))
    return tuple(out)


@dataclass
class Vocabulary:
    """Components, kinds and formats, compiled for matching."""

    names: dict[str, set[str]] = field(default_factory=dict)  # token -> component ids
    phrases: list[tuple[str, Phrases]] = field(default_factory=list)  # (component, its phrases and names)
    asserts: dict[str, set[str]] = field(default_factory=dict)  # an assert's first source line -> component ids
    kinds: list[tuple[str, frozenset[str], Phrases | None]] = field(default_factory=list)  # (id, exc types, phrases)
    formats: list[tuple[str, Phrases]] = field(default_factory=list)
    supersedes: dict[str, frozenset[str]] = field(default_factory=dict)  # format -> the formats it hides
    generic: frozenset[str] = frozenset()  # components a framework's FP8 code in general is (not one kernel library)
    # every alternation above, ruled out together by one Hyperscan pass per text (common/phraseset.py)
    phraseset: PhraseSet = field(default_factory=PhraseSet, repr=False, compare=False)

    def components_of(self, tokens) -> set[str]:
        """The components that ``tokens`` name: whole identifiers, or a known name with two or more
        parts at the end of a longer one (``test_bmm_fp8``, ``flashinfer_bmm_fp8``)."""
        out: set[str] = set()
        names = self.names
        for tok in tokens:
            cs = names.get(tok)
            if cs:
                out |= cs
                continue
            if "." in tok:  # a file: its stem may be a name (test_bmm_fp8.py)
                tok = tok.rsplit(".", 1)[0]
                if tok in names:
                    out |= names[tok]
                    continue
            i = tok.find("_", 1)
            while i > 0:
                rest = tok[i + 1:]
                if "_" in rest and rest in names:
                    out |= names[rest]
                    break
                i = tok.find("_", i + 1)
        return out

    def states_symptom(self, text: str) -> bool:
        """Whether ``text`` describes a numeric symptom (NaN, garbage output, a collapsed score, a table row far
        below the others, a score checked far below its threshold: ``scoretables``)."""
        return (any(kid == "symptom" and pat is not None and pat.search(text) for kid, _, pat in self.kinds)
                or scoretables.collapsed(text) or scoretables.below_threshold(text)
                or scoretables.below_reference(text) or scoretables.gpus_apart(text))

    def components_in(self, text: str) -> set[str]:
        """The components ``text`` names: by their identifiers (``components_of``) or their phrases."""
        comps = self.components_of(set(TOKEN.findall(text)))
        comps |= {cid for cid, pat in self.phrases if cid not in comps and pat.search(text)}
        return comps

    def formats_of(self, text: str, hidden: bool = False) -> frozenset[str]:
        """The number formats ``text`` names; a format another one hides is left out (NVFP4 hides FP4) unless
        ``hidden``."""
        found = {fid for fid, pat in self.formats if pat.search(text)}
        if not hidden:
            for fid in list(found):
                found -= self.supersedes.get(fid, frozenset())
        return frozenset(found)

    def names_fp8(self, text: str) -> bool:
        """Whether ``text`` names an FP8 component or an FP8 format (a cue line worth an event)."""
        if self.components_of(set(TOKEN.findall(text))):
            return True
        if any(pat.search(text) for _, pat in self.phrases):
            return True
        return any(fid in FP8_FORMATS and pat.search(text) for fid, pat in self.formats)

    def component_ids(self) -> set[str]:
        return {c for cs in self.names.values() for c in cs} | {c for c, _ in self.phrases}

    def kind_ids(self) -> set[str]:
        return {k for k, _, _ in self.kinds}


def _alternation(voc: Vocabulary, items: list[str], flags: int = regex.IGNORECASE | regex.MULTILINE) -> Phrases | None:
    if not items:
        return None
    return voc.phraseset.add(items, flags)


# a mined name counts only where it says FP8 or names the component itself: `run_gemm`, `BLOCK_K`
# or `softmax` are defined in these files too, but every GEMM library has one
_DISTINCT = rxcache.compile(
    r"fp8|f8f8|f8_|e4m3|e5m2|ue8m0|e8m0|float8|deep_?gemm|^dg_|_dg_|cutlass|fmha|scaled_?mm|cublaslt|_tma|tma_|"
    r"(?:^|_)sfa?b?(?:_|$)|fp4|mxfp|trtllm|flashinfer|sage|qattn|blockscale|blockwise_|per_token_group",
    regex.IGNORECASE,
)


# names that every FP8 stack defines for its own linear layer (transformers, vLLM's apply_fp8_linear, RL
# frameworks' backends/fp8_linear.py): mined from one library, they would name it in every other's traceback
_SHARED_NAMES = frozenset({"fp8_linear", "Fp8Linear", "fp8_linear_forward"})


def distinctive(name: str) -> bool:
    """Whether a mined name is distinctive enough to name its component in a log."""
    return len(name) >= 8 and name not in _SHARED_NAMES and bool(_DISTINCT.search(name))


def kind_cues(folder: Path | None = None) -> dict[str, list[str]]:
    """Each failure kind's cue words for the scan's prefilter, by kind id (kinds.toml only: cheap to read)."""
    folder = folder or paths.data_dir("signatures") / "recognition"
    kinds = tomllib.loads((folder / "kinds.toml").read_text(encoding="utf-8"))["kind"]
    out = {}
    for k in kinds:
        cues = set(k.get("cues", []))
        # a cue outside ASCII as a JSON log line escapes it ("乱码" -> "\\u4e71\\u7801": Docker, Kubernetes)
        cues |= {json.dumps(c)[1:-1] for c in cues if not c.isascii()}
        out[k["id"]] = sorted(cues)
    return out


def normalise_assert(line: str) -> str:
    """An assert's source line as a traceback prints it, whitespace collapsed."""
    return " ".join(line.split())


def load_vocabulary(folder: Path) -> Vocabulary:
    voc = Vocabulary()
    comps = tomllib.loads((folder / "components.toml").read_text(encoding="utf-8"))["component"]
    for c in comps:
        cid = c["id"]
        extra = []
        for n in c.get("names", []):
            if _IDENT.fullmatch(n):
                voc.names.setdefault(n, set()).add(cid)
            else:
                extra.append(regex.escape(n))
        pats = list(c.get("phrases", [])) + extra
        if pats:
            voc.phrases.append((cid, _alternation(voc, pats)))
        if c.get("generic"):
            voc.generic |= {cid}
    known = {c["id"] for c in comps}
    vocab_dir = folder / "vocab"
    if vocab_dir.is_dir():
        for f in sorted(vocab_dir.glob("*.jsonl")):
            cid = f.stem
            if cid not in known:
                continue
            for line in f.read_text(encoding="utf-8").splitlines():
                if not line.strip():
                    continue
                entry = json.loads(line)
                if "assert" in entry:
                    voc.asserts.setdefault(normalise_assert(entry["assert"]), set()).add(cid)
                elif _IDENT.fullmatch(entry.get("name", "")) and distinctive(entry["name"]):
                    voc.names.setdefault(entry["name"], set()).add(cid)
    for k in tomllib.loads((folder / "kinds.toml").read_text(encoding="utf-8"))["kind"]:
        voc.kinds.append((k["id"], frozenset(k.get("exc_types", [])), _alternation(voc, k.get("phrases", []))))
    for fm in tomllib.loads((folder / "formats.toml").read_text(encoding="utf-8"))["format"]:
        voc.formats.append((fm["id"], _alternation(voc, fm["phrases"])))
        if fm.get("supersedes"):
            voc.supersedes[fm["id"]] = frozenset(fm["supersedes"])
    return voc


@lru_cache(maxsize=4)
def _cached(folder: str) -> Vocabulary:
    return _load_cached(Path(folder))


def _load_cached(folder: Path) -> Vocabulary:
    """``load_vocabulary(folder)``, from the cache directory when these exact files were loaded
    before (start-up: ~3,500 JSON lines and three TOML files parsed once, not on every scan). The
    cache file is named by the digest of every file read, this module's code and the versions of
    Python, ``regex`` and fp8triage; it holds plain data (JSON), the patterns as their sources."""
    import hashlib

    files = [folder / "components.toml", folder / "kinds.toml", folder / "formats.toml"]
    if (folder / "vocab").is_dir():
        files += sorted((folder / "vocab").glob("*.jsonl"))
    from ..version import __version__

    h = hashlib.sha256(f"{_CACHE_LAYOUT} {__version__} {regex.__version__} {sys.version}\n".encode())
    try:
        h.update(Path(__file__).read_bytes())
        for f in files:
            h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    except OSError:
        return load_vocabulary(folder)  # a file is missing: let the loader say which
    try:
        cache = paths.cache_dir() / "recognition" / f"voc-{h.hexdigest()[:32]}.json"
    except (OSError, RuntimeError):  # no home directory
        return load_vocabulary(folder)
    try:
        return _from_data(json.loads(cache.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError, AttributeError, regex.error):  # absent or damaged: load again
        pass
    voc = load_vocabulary(folder)
    _store(cache, json.dumps(_to_data(voc)))
    return voc


_CACHE_LAYOUT = 2  # 2: an alternation is kept as its phrases


def _pattern(p: Phrases | None):
    return None if p is None else [p.phrases, p.flags & (regex.IGNORECASE | regex.MULTILINE)]


def _compiled(voc: Vocabulary, d) -> Phrases | None:
    return None if d is None else _alternation(voc, d[0], d[1])


def _to_data(voc: Vocabulary) -> dict:
    return {"names": {k: sorted(v) for k, v in voc.names.items()},
            "phrases": [[c, _pattern(p)] for c, p in voc.phrases],
            "asserts": {k: sorted(v) for k, v in voc.asserts.items()},
            "kinds": [[k, sorted(exc), _pattern(p)] for k, exc, p in voc.kinds],
            "formats": [[f, _pattern(p)] for f, p in voc.formats],
            "supersedes": {k: sorted(v) for k, v in voc.supersedes.items()}, "generic": sorted(voc.generic)}


def _from_data(d: dict) -> Vocabulary:
    voc = Vocabulary(names={k: set(v) for k, v in d["names"].items()},
                     asserts={k: set(v) for k, v in d["asserts"].items()},
                     supersedes={k: frozenset(v) for k, v in d["supersedes"].items()},
                     generic=frozenset(d.get("generic", ())))
    voc.phrases = [(c, _compiled(voc, p)) for c, p in d["phrases"]]
    voc.kinds = [(k, frozenset(exc), _compiled(voc, p)) for k, exc, p in d["kinds"]]
    voc.formats = [(f, _compiled(voc, p)) for f, p in d["formats"]]
    return voc


def _store(path: Path, text: str) -> None:
    """Write the cache file atomically; a cache that cannot be written is no error."""
    import os
    import tempfile

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".voc-")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError:
        pass


def vocabulary(folder: Path | None = None) -> Vocabulary:
    """The bundled recognition data (read once per process)."""
    return _cached(str(folder or paths.data_dir("signatures") / "recognition"))
