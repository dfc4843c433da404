"""Facts about an FP8 checkpoint from its config.json and its safetensors headers (origin "checkpoint").

No torch, and no weights are read: a safetensors file starts with an 8-byte little-endian header
length and a JSON header giving each tensor's dtype, shape and byte range. Only the small scale
tensors' bytes are sampled, to tell whether float32/bfloat16 scales are exact powers of two (what a
UE8M0 kernel needs).

``checkpoint_facts(path)`` takes a model directory, its config.json, or a Hugging Face cache
directory (``models--org--name`` or ``.../snapshots/<rev>``) and returns a ``CheckpointInfo``:
facts, the problems found when the config and the tensors disagree, and details for display.
A header that is truncated or lies (length past the end of the file, bad JSON, byte ranges out of
the data section) raises ``CheckpointError`` with one sentence naming the file.
"""
from __future__ import annotations

import json
import math
import struct
import sys
from array import array
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..model import Fact
from ..errors import TriageError

ORIGIN = "checkpoint"
MAX_HEADER = 100_000_000  # the safetensors format's own limit
SAMPLE_TENSORS = 8  # scale tensors sampled for the power-of-two check
SAMPLE_BYTES = 256 * 1024  # bytes read from each sampled scale tensor

# safetensors dtype -> (torch-style name, bits per element)
DTYPES: dict[str, tuple[str, int]] = {
    "BOOL": ("bool", 8),
    "U8": ("uint8", 8),
    "I8": ("int8", 8),
    "F8_E4M3": ("float8_e4m3fn", 8),
    "F8_E5M2": ("float8_e5m2", 8),
    "F8_E8M0": ("float8_e8m0fnu", 8),
    "F4": ("float4_e2m1fn_x2", 4),
    "F6_E2M3": ("float6_e2m3", 6),
    "F6_E3M2": ("float6_e3m2", 6),
    "I16": ("int16", 16),
    "U16": ("uint16", 16),
    "F16": ("float16", 16),
    "BF16": ("bfloat16", 16),
    "I32": ("int32", 32),
    "U32": ("uint32", 32),
    "F32": ("float32", 32),
    "I64": ("int64", 64),
    "U64": ("uint64", 64),
    "F64": ("float64", 64),
}
SCALE_SUFFIXES = (".weight_scale_inv", ".weight_scale")
MOE_KEYS = ("num_experts", "num_local_experts", "n_routed_experts", "moe_num_experts", "num_experts_per_tok", "moe_intermediate_size")


class CheckpointError(TriageError, ValueError):
    """The checkpoint cannot be read (missing config.json, truncated or lying safetensors header)."""


@dataclass(frozen=True)
class TensorInfo:
    name: str
    dtype: str  # safetensors dtype string, e.g. "F32", "F8_E8M0"
    shape: tuple[int, ...]
    file: Path
    begin: int  # absolute byte offset of the data in the file
    end: int

    @property
    def numel(self) -> int:
        return math.prod(self.shape)


@dataclass
class CheckpointInfo:
    path: Path
    facts: list[Fact]
    problems: list[str] = field(default_factory=list)  # config and tensors disagree; each one sentence
    details: dict[str, Any] = field(default_factory=dict)

    def summary(self) -> dict[str, str]:
        """Display lines beyond the facts: scale tensors, implied block sizes, problems."""
        out: dict[str, str] = {}
        for k in ("scale_tensors", "scale_dtypes", "implied_block_sizes", "scales_power_of_two", "modules_to_not_convert", "safetensors_files"):
            if k in self.details and self.details[k] not in (None, "", [], {}):
                v = self.details[k]
                out[k] = ", ".join(f"{a}: {b}" for a, b in v.items()) if isinstance(v, dict) else (", ".join(map(str, v)) if isinstance(v, list) else str(v))
        for i, p in enumerate(self.problems, 1):
            out[f"problem {i}"] = p
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "facts": [f.to_dict() for f in self.facts],
            "problems": self.problems,
            "details": self.details,
        }


# --- locating the checkpoint ----------------------------------------------------------------


def resolve_model_dir(path: str | Path) -> Path:
    """The directory holding config.json: a model dir, a HF cache repo dir or snapshot, or config.json."""
    p = Path(path).expanduser()
    if not p.exists():
        raise CheckpointError(f"{p} does not exist; give a model directory or a Hugging Face cache snapshot")
    if p.is_file():
        if p.name == "config.json":
            return p.parent
        raise CheckpointError(f"{p} is a file; give the model directory that holds config.json")
    if (p / "config.json").is_file():
        return p
    snaps = p / "snapshots"
    if snaps.is_dir():
        ref = p / "refs" / "main"
        if ref.is_file():
            rev = ref.read_text(encoding="utf-8", errors="replace").strip()
            if (snaps / rev / "config.json").is_file():
                return snaps / rev
        cands = sorted(d for d in snaps.iterdir() if (d / "config.json").is_file())
        if len(cands) == 1:
            return cands[0]
        if cands:
            raise CheckpointError(
                f"{p} has {len(cands)} snapshots and no refs/main; give one of them, e.g. {cands[0]}"
            )
    raise CheckpointError(f"{p} has no config.json; give a model directory or a Hugging Face cache snapshot")


# --- safetensors ----------------------------------------------------------------------------


def read_safetensors_header(path: str | Path) -> tuple[dict[str, TensorInfo], dict[str, str]]:
    """(tensors by name, __metadata__) from one safetensors file; reads only the header."""
    f = Path(path)
    try:
        size = f.stat().st_size
        with f.open("rb") as fh:
            head = fh.read(8)
            if len(head) < 8:
                raise CheckpointError(
                    f"{f} is not a safetensors file: it is {size} bytes long, shorter than the 8-byte header length"
                )
            (n,) = struct.unpack("<Q", head)
            if n > size - 8:
                raise CheckpointError(
                    f"{f} has a truncated or corrupt safetensors header: it declares a {n}-byte header "
                    f"but only {size - 8} bytes follow"
                )
            if n > MAX_HEADER:
                raise CheckpointError(f"{f} declares a {n}-byte safetensors header, more than the format allows")
            raw = fh.read(n)
    except OSError as e:
        raise CheckpointError(f"{f} cannot be read: {e.strerror or e}") from None
    try:
        header = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise CheckpointError(f"{f} has a corrupt safetensors header: it is not valid JSON ({_short(e)})") from None
    if not isinstance(header, dict):
        raise CheckpointError(f"{f} has a corrupt safetensors header: it is not a JSON object")
    data_start = 8 + n
    data_len = size - data_start
    meta = header.pop("__metadata__", None) or {}
    tensors: dict[str, TensorInfo] = {}
    for name, ent in header.items():
        if not isinstance(ent, dict):
            raise CheckpointError(f"{f} has a corrupt safetensors header: the entry for {name!r} is not an object")
        dtype, shape, offs = ent.get("dtype"), ent.get("shape"), ent.get("data_offsets")
        if not isinstance(dtype, str) or not isinstance(shape, list) or not all(isinstance(d, int) and d >= 0 for d in shape):
            raise CheckpointError(f"{f} has a corrupt safetensors header: tensor {name!r} has no valid dtype and shape")
        if not (isinstance(offs, list) and len(offs) == 2 and all(isinstance(o, int) for o in offs)):
            raise CheckpointError(f"{f} has a corrupt safetensors header: tensor {name!r} has no valid data_offsets")
        b, e = offs
        if not (0 <= b <= e <= data_len):
            raise CheckpointError(
                f"{f} is truncated or its header lies: tensor {name!r} has data_offsets [{b}, {e}] "
                f"beyond the {data_len}-byte data section"
            )
        bits = DTYPES.get(dtype, (None, None))[1]
        if bits is not None:
            need = (math.prod(shape) * bits + 7) // 8
            if e - b != need:
                raise CheckpointError(
                    f"{f} has a corrupt safetensors header: tensor {name!r} of dtype {dtype} and shape "
                    f"{list(shape)} needs {need} bytes but data_offsets give {e - b}"
                )
        tensors[name] = TensorInfo(name, dtype, tuple(shape), f, data_start + b, data_start + e)
    return tensors, {str(k): str(v) for k, v in meta.items()} if isinstance(meta, dict) else {}


def _short(e: Exception) -> str:
    s = str(e)
    return s if len(s) < 80 else s[:77] + "..."


def _read_tensors(model_dir: Path, problems: list[str], details: dict[str, Any]) -> dict[str, TensorInfo]:
    index = model_dir / "model.safetensors.index.json"
    tensors: dict[str, TensorInfo] = {}
    if index.is_file():
        try:
            idx = json.loads(index.read_text(encoding="utf-8"))
            wmap = idx["weight_map"]
            if not isinstance(wmap, dict):
                raise TypeError
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError):
            raise CheckpointError(f"{index} is not a valid safetensors index (a JSON object with a weight_map)") from None
        shards = sorted(set(map(str, wmap.values())))
        missing = [s for s in shards if not (model_dir / s).is_file()]
        if missing:
            problems.append(
                f"model.safetensors.index.json names {len(missing)} shard(s) that are not in the directory "
                f"(first: {missing[0]}); the checkpoint is incomplete"
            )
        for s in shards:
            if s in missing:
                continue
            ts, _ = read_safetensors_header(model_dir / s)
            tensors.update(ts)
        absent = [t for t, s in wmap.items() if s not in missing and t not in tensors]
        if absent:
            problems.append(
                f"model.safetensors.index.json lists {len(absent)} tensor(s) that their shard does not contain "
                f"(first: {absent[0]})"
            )
        details["safetensors_files"] = len(shards) - len(missing)
    else:
        files = sorted(model_dir.glob("*.safetensors"))
        for s in files:
            ts, _ = read_safetensors_header(s)
            tensors.update(ts)
        details["safetensors_files"] = len(files)
    return tensors


# --- scale analysis -------------------------------------------------------------------------

_BLOCK_CANDIDATES = (128, 64, 256, 32, 512, 16, 1024, 8, 2048, 4, 2, 1, 4096, 8192)


def _implied_block(n: int, s: int) -> int | None:
    if s <= 0 or n <= 0:
        return None
    for b in _BLOCK_CANDIDATES:
        if -(-n // b) == s:
            return b
    return None


def _granularity(weight: TensorInfo, scale: TensorInfo) -> tuple[str, tuple[int, int] | None]:
    """('tensor'|'channel'|'block'|'mismatch', (block_n, block_k) for block)."""
    if scale.numel == 1:
        return "tensor", None
    ws, ss = weight.shape, scale.shape
    if len(ws) < 2:
        return "mismatch", None
    n, k = ws[-2], ws[-1]
    if weight.dtype in ("U8", "I8"):
        k *= 2  # two FP4 values packed per byte
    if ss in (ws[:-1], ws[:-1] + (1,)):
        return "channel", None
    if len(ss) >= 2 and ss[:-2] == ws[:-2]:
        bn, bk = _implied_block(n, ss[-2]), _implied_block(k, ss[-1])
        if bn and bk:
            return "block", (bn, bk)
    return "mismatch", None


def _pow2_sample(scales: list[TensorInfo]) -> tuple[int, int, str | None]:
    """(values sampled, values not a power of two, first offending tensor) for F32/BF16 scales."""
    sampled = bad = 0
    first_bad: str | None = None
    for t in [t for t in scales if t.dtype in ("F32", "BF16")][:SAMPLE_TENSORS]:
        width = 4 if t.dtype == "F32" else 2
        length = min(t.end - t.begin, SAMPLE_BYTES) // width * width
        try:
            with t.file.open("rb") as fh:
                fh.seek(t.begin)
                buf = fh.read(length)
        except OSError as e:
            raise CheckpointError(f"{t.file} cannot be read: {e.strerror or e}") from None
        if len(buf) != length:
            raise CheckpointError(f"{t.file} is truncated: tensor {t.name!r} ends past the end of the file")
        vals = array("I" if width == 4 else "H")
        if vals.itemsize != width:  # pragma: no cover - platforms where 'I' is not 4 bytes
            vals = array("L" if width == 4 else "H")
        vals.frombytes(buf)
        if sys.byteorder != "little":  # pragma: no cover
            vals.byteswap()
        mant = 0x7FFFFF if width == 4 else 0x7F
        n_bad = sum(1 for v in vals if v & mant)
        sampled += len(vals)
        if n_bad and first_bad is None:
            first_bad = t.name
        bad += n_bad
    return sampled, bad, first_bad


# --- config ---------------------------------------------------------------------------------


def _load_config(model_dir: Path) -> dict[str, Any]:
    cfg_path = model_dir / "config.json"
    try:
        cfg = json.loads(cfg_path.read_text(encoding="utf-8"))
    except OSError as e:
        raise CheckpointError(f"{cfg_path} cannot be read: {e.strerror or e}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise CheckpointError(f"{cfg_path} is not valid JSON ({_short(e)})") from None
    if not isinstance(cfg, dict):
        raise CheckpointError(f"{cfg_path} is not a JSON object")
    return cfg


def _model_name(path_given: Path, model_dir: Path, cfg: dict[str, Any]) -> str:
    for p in (model_dir, *model_dir.parents):
        if p.name.startswith("models--"):
            return p.name[len("models--"):].replace("--", "/")
    nop = cfg.get("_name_or_path")
    if isinstance(nop, str) and nop and not nop.startswith(("/", ".")):
        return nop
    return model_dir.name or str(path_given)


def _block_text(v: Any) -> str | None:
    if isinstance(v, (list, tuple)) and len(v) == 2 and all(isinstance(x, int) for x in v):
        return f"{v[0]},{v[1]}"
    return None


# --- the reader -----------------------------------------------------------------------------


def checkpoint_facts(path: str | Path) -> CheckpointInfo:
    """Facts and inconsistencies of the checkpoint at ``path``. Raises CheckpointError."""
    model_dir = resolve_model_dir(path)
    cfg = _load_config(model_dir)
    facts: list[Fact] = []
    problems: list[str] = []
    details: dict[str, Any] = {}

    def add(name: str, value: Any, where: str) -> None:
        if value is None or value == "":
            return
        facts.append(Fact(name, str(value), f"checkpoint {where}", ORIGIN))

    add("model", _model_name(Path(path), model_dir, cfg), "directory / config.json")
    sub = cfg.get("text_config") if isinstance(cfg.get("text_config"), dict) else {}
    model_type = cfg.get("model_type") or sub.get("model_type")
    add("model_type", model_type, "config.json model_type")
    moe_key = next((k for k in MOE_KEYS if _positive(cfg.get(k)) or _positive(sub.get(k))), None)
    if moe_key is None and isinstance(model_type, str) and "moe" in model_type.lower():
        moe_key = "model_type"
    add("moe", "true" if moe_key else "false", f"config.json {moe_key}" if moe_key else "config.json (no experts keys)")

    qc = cfg.get("quantization_config") or cfg.get("compression_config") or sub.get("quantization_config")
    method = str(qc.get("quant_method", "")).lower() if isinstance(qc, dict) else ""
    cfg_block = cfg_gran = scale_fmt = None
    if isinstance(qc, dict):
        details["quantization_config"] = qc
        add("quantization", method or "unknown", "config.json quantization_config.quant_method")
        if method == "fp8":
            cfg_block, cfg_gran, scale_fmt = _fp8_config_facts(qc, add, problems, details)
        elif method == "compressed-tensors":
            cfg_block, cfg_gran = _compressed_tensors_facts(qc, add, details)
    tensors = _read_tensors(model_dir, problems, details)
    _tensor_facts(tensors, facts, problems, details, method, cfg_block, cfg_gran, scale_fmt, has_qc=isinstance(qc, dict))
    # secrets in the path (a token in a folder name) or in config values never leave this module
    from ..common.redact import redact, redact_fact, redact_obj

    return CheckpointInfo(Path(redact(str(model_dir))), [redact_fact(f) for f in facts], [redact(p) for p in problems],
                          redact_obj(details))


def _fp8_config_facts(qc: dict[str, Any], add: Callable[[str, Any, str], None], problems: list[str],
                      details: dict[str, Any]) -> tuple[str | None, str | None, str | None]:
    """What a ``quant_method = "fp8"`` config says: (weight block size, granularity, scale format)."""
    cfg_block = _block_text(qc.get("weight_block_size"))
    if qc.get("weight_block_size") is not None and cfg_block is None:
        problems.append(
            f"config.json quantization_config.weight_block_size is {qc.get('weight_block_size')!r}, "
            "not two integers"
        )
    cfg_gran = "block" if cfg_block else None
    add("weight_block_size", cfg_block, "config.json quantization_config.weight_block_size")
    add("fp8_granularity", cfg_gran, "config.json quantization_config.weight_block_size is set")
    scale_fmt = None
    if qc.get("scale_fmt") is not None:
        scale_fmt = str(qc["scale_fmt"]).lower()
        add("scale_fmt", scale_fmt, "config.json quantization_config.scale_fmt")
    add("activation_scheme", qc.get("activation_scheme"), "config.json quantization_config.activation_scheme")
    mods = qc.get("modules_to_not_convert") or qc.get("ignored_layers")
    if mods:
        details["modules_to_not_convert"] = list(mods)
    return cfg_block, cfg_gran, scale_fmt


def _compressed_tensors_facts(qc: dict[str, Any], add: Callable[[str, Any, str], None],
                              details: dict[str, Any]) -> tuple[str | None, str | None]:
    """What a compressed-tensors config says across its config groups: (weight block size, granularity)."""
    details["format"] = qc.get("format")
    groups = qc.get("config_groups") or {}
    strategies = Counter()
    blocks = set()
    dyn = set()
    for g in groups.values() if isinstance(groups, dict) else []:
        w = (g or {}).get("weights") or {}
        if w.get("strategy"):
            strategies[str(w["strategy"]).lower()] += 1
        bt = _block_text(w.get("block_structure"))
        if bt:
            blocks.add(bt)
        ia = (g or {}).get("input_activations") or {}
        if "dynamic" in ia:
            dyn.add("dynamic" if ia["dynamic"] else "static")
    cfg_block = cfg_gran = None
    if strategies:
        cfg_gran = strategies.most_common(1)[0][0]
        details["strategies"] = dict(strategies)
        add("fp8_granularity", cfg_gran, "config.json config_groups.*.weights.strategy")
    if len(blocks) == 1:
        cfg_block = next(iter(blocks))
        add("weight_block_size", cfg_block, "config.json config_groups.*.weights.block_structure")
    if len(dyn) == 1:
        add("activation_scheme", next(iter(dyn)), "config.json config_groups.*.input_activations.dynamic")
    if qc.get("ignore"):
        details["modules_to_not_convert"] = list(qc["ignore"])
    return cfg_block, cfg_gran


def _positive(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v > 0


def _tensor_facts(
    tensors: dict[str, TensorInfo],
    facts: list[Fact],
    problems: list[str],
    details: dict[str, Any],
    method: str,
    cfg_block: str | None,
    cfg_gran: str | None,
    scale_fmt: str | None,
    has_qc: bool,
) -> None:
    """The facts the safetensors headers show (scale and weight dtypes, granularity, block size, scale
    format), and where they contradict config.json."""
    def add(name: str, value: str, where: str) -> None:
        facts.append(Fact(name, value, f"checkpoint {where}", ORIGIN))

    if not tensors:
        details["tensors"] = "no safetensors tensors read: facts come from config.json alone"
        return
    pairs = _scale_pairs(tensors)
    if not pairs:
        problems.extend(_no_scales_problem(tensors, method, has_qc))
        return
    main_sdt = _dtype_facts(pairs, add, details)
    _shape_facts(pairs, add, problems, details, cfg_block, cfg_gran)
    _scale_fmt_facts([s for _, s in pairs], main_sdt, add, problems, details, method, scale_fmt)


def _scale_pairs(tensors: dict[str, TensorInfo]) -> list[tuple[TensorInfo, TensorInfo]]:
    """(weight, its scale tensor) for every scale tensor whose weight is in the checkpoint."""
    pairs: list[tuple[TensorInfo, TensorInfo]] = []
    for name, t in tensors.items():
        for suf in SCALE_SUFFIXES:
            if name.endswith(suf):
                w = tensors.get(name[: -len(suf)] + ".weight")
                if w is not None:
                    pairs.append((w, t))
                break
    return pairs


def _no_scales_problem(tensors: dict[str, TensorInfo], method: str, has_qc: bool) -> list[str]:
    """What is wrong with a checkpoint that has no scale tensors: FP8 weights without a quantization
    config, or a quantization config without scales."""
    fp8_weights = [t for t in tensors.values() if t.dtype.startswith("F8_E4M3") or t.dtype == "F8_E5M2"]
    if fp8_weights and not has_qc:
        return [f"{len(fp8_weights)} tensor(s) are stored as {fp8_weights[0].dtype} (e.g. {fp8_weights[0].name}) "
                "but config.json has no quantization_config"]
    if method in ("fp8", "compressed-tensors"):
        return [f"config.json declares quant_method {method!r} but no tensor has a matching "
                "weight_scale_inv / weight_scale tensor"]
    return []


def _dtype_facts(pairs: list[tuple[TensorInfo, TensorInfo]], add: Callable[[str, str, str], None],
                 details: dict[str, Any]) -> str:
    """scale_dtype and weight_dtype (the most common of each); returns the scales' main dtype."""
    scales = [s for _, s in pairs]
    details["scale_tensors"] = len(scales)
    sdt = Counter(s.dtype for s in scales)
    details["scale_dtypes"] = dict(sdt)
    main_sdt = sdt.most_common(1)[0][0]
    mixed = f"; also {', '.join(f'{d} x{c}' for d, c in sdt.items() if d != main_sdt)}" if len(sdt) > 1 else ""
    add("scale_dtype", DTYPES.get(main_sdt, (main_sdt.lower(), 0))[0], f"safetensors header: {sdt[main_sdt]} scale tensor(s) are {main_sdt}{mixed}")
    wdt = Counter(w.dtype for w, _ in pairs)
    main_wdt = wdt.most_common(1)[0][0]
    add("weight_dtype", DTYPES.get(main_wdt, (main_wdt.lower(), 0))[0], f"safetensors header: {wdt[main_wdt]} quantized weight(s) are {main_wdt}")
    if any(".experts." in w.name or w.name.endswith("experts.weight") for w, _ in pairs):
        details["expert_scales"] = True
    return main_sdt


def _shape_facts(pairs: list[tuple[TensorInfo, TensorInfo]], add: Callable[[str, str, str], None],
                 problems: list[str], details: dict[str, Any], cfg_block: str | None, cfg_gran: str | None) -> None:
    """fp8_granularity and weight_block_size from the scale shapes against the weight shapes, and
    where they contradict config.json or each other."""
    grans = Counter()
    blocks: Counter = Counter()
    mismatch: list[str] = []
    for w, s in pairs:
        g, blk = _granularity(w, s)
        grans[g] += 1
        if blk:
            blocks[blk] += 1
        if g == "mismatch":
            mismatch.append(f"{s.name} {list(s.shape)} for weight {list(w.shape)}")
    details["granularity"] = dict(grans)
    details["implied_block_sizes"] = {f"{a},{b}": c for (a, b), c in blocks.items()}
    if mismatch:
        problems.append(
            f"{len(mismatch)} scale tensor(s) have shapes that fit no block size of their weight "
            f"(first: {mismatch[0]})"
        )
    real = Counter({g: c for g, c in grans.items() if g != "mismatch"})
    if real:
        gran = real.most_common(1)[0][0]
        add("fp8_granularity", gran, "safetensors header: scale shapes vs weight shapes")
        if cfg_gran and cfg_gran != gran and not (cfg_gran == "group" and gran == "block"):
            problems.append(
                f"config.json describes {cfg_gran}-wise scales but the scale tensors are {gran}-wise "
                "(from their shapes in the safetensors header)"
            )
    if blocks:
        main_blk = blocks.most_common(1)[0][0]
        implied = f"{main_blk[0]},{main_blk[1]}"
        if cfg_block is None:
            add("weight_block_size", implied, "safetensors header: implied by scale vs weight shapes")
        elif cfg_block != implied:
            problems.append(
                f"config.json says weight_block_size [{cfg_block}] but the scale tensors imply "
                f"[{implied}] (e.g. {_example(pairs, main_blk)})"
            )
        if len(blocks) > 1:
            others = ", ".join(f"[{a},{b}]" for (a, b) in blocks if (a, b) != main_blk)
            problems.append(f"the scale tensors imply more than one block size: [{implied}] and {others}")
    elif cfg_block and real:
        problems.append(
            f"config.json says weight_block_size [{cfg_block}] but the scale tensors are "
            f"{real.most_common(1)[0][0]}-wise, not block-wise"
        )


def _scale_fmt_facts(scales: list[TensorInfo], main_sdt: str, add: Callable[[str, str, str], None],
                     problems: list[str], details: dict[str, Any], method: str, scale_fmt: str | None) -> None:
    """The scale format: config.json's scale_fmt against the stored dtype and the sampled values."""
    sampled, bad, first_bad = _pow2_sample(scales)
    if sampled:
        details["scales_power_of_two"] = (
            f"all {sampled} sampled values" if not bad else f"no: {bad} of {sampled} sampled values are not powers of two"
        )
    if main_sdt == "F8_E8M0":
        if scale_fmt is None:
            add("scale_fmt", "ue8m0", "safetensors header: scales stored as F8_E8M0 (config.json has no scale_fmt)")
        elif scale_fmt != "ue8m0":
            problems.append(
                f"config.json says scale_fmt={scale_fmt!r} but the scale tensors are stored as F8_E8M0 (UE8M0)"
            )
    elif main_sdt in ("F32", "BF16"):
        if scale_fmt is None and method == "fp8":
            add("scale_fmt", "float", f"config.json has no scale_fmt (transformers' default 'float'); scales are {main_sdt}")
        elif scale_fmt == "ue8m0":
            if bad:
                problems.append(
                    f"config.json says scale_fmt='ue8m0' but the scales are {main_sdt} and {bad} of {sampled} "
                    f"sampled values are not powers of two (first in {first_bad}): not UE8M0"
                )
            elif not sampled:
                problems.append(f"config.json says scale_fmt='ue8m0' but the scales are stored as {main_sdt}")


def _example(pairs, blk) -> str:
    for w, s in pairs:
        g, b = _granularity(w, s)
        if b == blk:
            return f"{s.name} {list(s.shape)} for weight {list(w.shape)}"
    return ""
