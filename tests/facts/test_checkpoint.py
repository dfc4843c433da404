"""Checkpoint facts from config.json and safetensors headers, without torch; lying headers are errors."""
from __future__ import annotations

import importlib.util
import json
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from fp8triage.facts.checkpoint import CheckpointError, checkpoint_facts, read_safetensors_header

_spec = importlib.util.spec_from_file_location("ckpt_builder", Path(__file__).parents[1] / "fixtures" / "checkpoints" / "builder.py")
B = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(B)


def facts(info):
    out = {}
    for f in info.facts:
        assert f.origin == "checkpoint"
        out.setdefault(f.name, f.value)
    return out


def test_block_fp8_with_float32_scales(tmp_path):
    info = checkpoint_facts(B.build(tmp_path / "m"))
    f = facts(info)
    assert f["quantization"] == "fp8"
    assert f["weight_block_size"] == "128,128"
    assert f["scale_dtype"] == "float32"
    assert f["weight_dtype"] == "float8_e4m3fn"
    assert f["fp8_granularity"] == "block"
    assert f["scale_fmt"] == "float"
    assert f["activation_scheme"] == "dynamic"
    assert f["moe"] == "false" and f["model_type"] == "qwen3"
    assert info.problems == []
    assert info.details["implied_block_sizes"] == {"128,128": 8}
    assert info.details["scales_power_of_two"].startswith("no:")
    src = next(x.source for x in info.facts if x.name == "scale_fmt")
    assert "no scale_fmt" in src and "default" in src


def test_ue8m0_scales_moe_sharded(tmp_path):
    info = checkpoint_facts(B.build(tmp_path / "m", scales="ue8m0", moe=True, sharded=True))
    f = facts(info)
    assert f["scale_dtype"] == "float8_e8m0fnu"
    assert f["scale_fmt"] == "ue8m0"
    assert f["moe"] == "true" and f["model_type"] == "qwen3_moe"
    assert info.details["safetensors_files"] == 2
    assert info.details["expert_scales"] is True
    assert info.problems == []


def test_ue8m0_tensors_without_scale_fmt_in_config(tmp_path):
    d = B.build(tmp_path / "m", scales="ue8m0", scale_fmt="")
    cfg = json.loads((d / "config.json").read_text())
    cfg["quantization_config"].pop("scale_fmt", None)
    (d / "config.json").write_text(json.dumps(cfg))
    info = checkpoint_facts(d)
    assert facts(info)["scale_fmt"] == "ue8m0"
    assert info.problems == []


def test_config_ue8m0_but_float32_scales_not_powers_of_two(tmp_path):
    info = checkpoint_facts(B.build(tmp_path / "m", scales="f32", scale_fmt="ue8m0"))
    assert facts(info)["scale_fmt"] == "ue8m0"
    assert len(info.problems) == 1
    assert "scale_fmt='ue8m0'" in info.problems[0] and "not powers of two" in info.problems[0]


def test_config_ue8m0_with_power_of_two_float32_scales_is_consistent(tmp_path):
    # DeepSeek-V3.1 style: scale_fmt ue8m0, scales stored as float32 powers of two
    info = checkpoint_facts(B.build(tmp_path / "m", scales="f32-pow2", scale_fmt="ue8m0"))
    assert info.problems == []
    assert info.details["scales_power_of_two"].startswith("all ")


def test_config_float_but_e8m0_tensors(tmp_path):
    info = checkpoint_facts(B.build(tmp_path / "m", scales="ue8m0", scale_fmt="float"))
    assert any("scale_fmt='float'" in p and "F8_E8M0" in p for p in info.problems)


def test_block_size_mismatch(tmp_path):
    info = checkpoint_facts(B.build(tmp_path / "m", block=(64, 64), config_block=(128, 128)))
    assert facts(info)["weight_block_size"] == "128,128"
    assert any("weight_block_size [128,128]" in p and "[64,64]" in p for p in info.problems)


def test_block_size_from_tensors_when_config_has_none(tmp_path):
    d = B.build(tmp_path / "m", block=(128, 128))
    cfg = json.loads((d / "config.json").read_text())
    del cfg["quantization_config"]["weight_block_size"]
    (d / "config.json").write_text(json.dumps(cfg))
    info = checkpoint_facts(d)
    wbs = next(f for f in info.facts if f.name == "weight_block_size")
    assert wbs.value == "128,128" and "implied" in wbs.source


def test_compressed_tensors_block_and_channel(tmp_path):
    d = tmp_path / "ct"
    d.mkdir()
    cfg = {"model_type": "llama", "quantization_config": {
        "quant_method": "compressed-tensors", "format": "float-quantized",
        "config_groups": {"group_0": {"targets": ["Linear"],
                                      "weights": {"num_bits": 8, "type": "float", "strategy": "block", "block_structure": [128, 128]},
                                      "input_activations": {"num_bits": 8, "type": "float", "strategy": "group", "dynamic": True}}},
        "ignore": ["lm_head"]}}
    (d / "config.json").write_text(json.dumps(cfg))
    B.write_safetensors(d / "model.safetensors", {
        "model.layers.0.mlp.down_proj.weight": ("F8_E4M3", [256, 384], None),
        "model.layers.0.mlp.down_proj.weight_scale": ("F32", [2, 3], None),
    })
    info = checkpoint_facts(d)
    f = facts(info)
    assert f["quantization"] == "compressed-tensors"
    assert f["fp8_granularity"] == "block" and f["weight_block_size"] == "128,128"
    assert f["activation_scheme"] == "dynamic"
    assert info.problems == []
    # same config, channel-wise tensors: the config and the tensors disagree
    B.write_safetensors(d / "model.safetensors", {
        "model.layers.0.mlp.down_proj.weight": ("F8_E4M3", [256, 384], None),
        "model.layers.0.mlp.down_proj.weight_scale": ("F32", [256, 1], None),
    })
    info = checkpoint_facts(d)
    assert any("block-wise" in p and "channel-wise" in p for p in info.problems)


def test_hugging_face_cache_layout(tmp_path):
    repo = tmp_path / "hub" / "models--Qwen--Qwen3-4B-FP8"
    snap = B.build(repo / "snapshots" / "abc123")
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("abc123")
    for given in (repo, snap, snap / "config.json"):
        info = checkpoint_facts(given)
        assert info.path == snap
        assert facts(info)["model"] == "Qwen/Qwen3-4B-FP8"


def test_index_problems(tmp_path):
    d = B.build(tmp_path / "m", sharded=True)
    idx = json.loads((d / "model.safetensors.index.json").read_text())
    idx["weight_map"]["model.layers.9.mlp.up_proj.weight"] = "model-00001-of-00002.safetensors"
    idx["weight_map"]["lm_head.weight"] = "model-00003-of-00003.safetensors"
    (d / "model.safetensors.index.json").write_text(json.dumps(idx))
    info = checkpoint_facts(d)
    assert any("not in the directory" in p and "model-00003-of-00003" in p for p in info.problems)
    assert any("does not contain" in p and "model.layers.9.mlp.up_proj.weight" in p for p in info.problems)


def test_fp8_weights_without_quantization_config(tmp_path):
    d = B.build(tmp_path / "m")
    cfg = json.loads((d / "config.json").read_text())
    del cfg["quantization_config"]
    (d / "config.json").write_text(json.dumps(cfg))
    B.write_safetensors(d / "model.safetensors", {"model.layers.0.mlp.down_proj.weight": ("F8_E4M3", [16, 16], None)})
    info = checkpoint_facts(d)
    assert any("no quantization_config" in p for p in info.problems)


# --- the safetensors header reader ---------------------------------------------------------


def one_sentence(msg: str, name: str) -> None:
    assert name in msg
    assert "\n" not in msg and "Traceback" not in msg


def test_header_reader_reads_only_the_header(tmp_path):
    p = tmp_path / "a.safetensors"
    B.write_safetensors(p, {"w": ("F8_E4M3", [4, 8], None), "s": ("F32", [1, 1], B.f32([0.5]))}, {"format": "pt"})
    tensors, meta = read_safetensors_header(p)
    assert meta == {"format": "pt"}
    assert tensors["w"].dtype == "F8_E4M3" and tensors["w"].shape == (4, 8)
    assert tensors["s"].end - tensors["s"].begin == 4


def test_truncated_header_length(tmp_path):
    p = tmp_path / "model.safetensors"
    p.write_bytes(struct.pack("<Q", 10_000) + b'{"a": 1}')
    with pytest.raises(CheckpointError) as e:
        read_safetensors_header(p)
    one_sentence(str(e.value), "model.safetensors")
    assert "declares a 10000-byte header" in str(e.value)


def test_file_shorter_than_length_field(tmp_path):
    p = tmp_path / "tiny.safetensors"
    p.write_bytes(b"\x01\x02")
    with pytest.raises(CheckpointError) as e:
        read_safetensors_header(p)
    one_sentence(str(e.value), "tiny.safetensors")


def test_header_not_json(tmp_path):
    p = tmp_path / "bad.safetensors"
    raw = b"{not json at all"
    p.write_bytes(struct.pack("<Q", len(raw)) + raw)
    with pytest.raises(CheckpointError) as e:
        read_safetensors_header(p)
    one_sentence(str(e.value), "bad.safetensors")
    assert "not valid JSON" in str(e.value)


def test_offsets_beyond_data(tmp_path):
    p = tmp_path / "lie.safetensors"
    header = json.dumps({"w": {"dtype": "F32", "shape": [1000], "data_offsets": [0, 4000]}}).encode()
    p.write_bytes(struct.pack("<Q", len(header)) + header + bytes(16))
    with pytest.raises(CheckpointError) as e:
        read_safetensors_header(p)
    one_sentence(str(e.value), "lie.safetensors")
    assert "[0, 4000]" in str(e.value)


def test_shape_and_offsets_disagree(tmp_path):
    p = tmp_path / "size.safetensors"
    header = json.dumps({"w": {"dtype": "F32", "shape": [8], "data_offsets": [0, 16]}}).encode()
    p.write_bytes(struct.pack("<Q", len(header)) + header + bytes(16))
    with pytest.raises(CheckpointError) as e:
        read_safetensors_header(p)
    assert "needs 32 bytes but data_offsets give 16" in str(e.value)


def test_truncated_download_of_a_real_checkpoint(tmp_path):
    d = B.build(tmp_path / "m")
    f = d / "model.safetensors"
    f.write_bytes(f.read_bytes()[:-1000])
    with pytest.raises(CheckpointError) as e:
        checkpoint_facts(d)
    one_sentence(str(e.value), "model.safetensors")


def test_missing_or_bad_config(tmp_path):
    with pytest.raises(CheckpointError, match="does not exist"):
        checkpoint_facts(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(CheckpointError, match="has no config.json"):
        checkpoint_facts(tmp_path / "empty")
    d = B.build(tmp_path / "m")
    (d / "config.json").write_text("{oops")
    with pytest.raises(CheckpointError, match="config.json is not valid JSON"):
        checkpoint_facts(d)


def test_no_torch_imported(tmp_path):
    d = B.build(tmp_path / "m")
    code = f"import sys; from fp8triage.facts.checkpoint import checkpoint_facts; checkpoint_facts({str(d)!r}); print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).parents[2])
    assert out.stdout.strip() == "False"


def test_weights_are_not_read(tmp_path, monkeypatch):
    """Only headers and scale tensors are read: a huge sparse weight costs nothing."""
    d = tmp_path / "big"
    d.mkdir()
    (d / "config.json").write_text(json.dumps({"model_type": "x", "quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]}}))
    n = k = 65536  # a 4 GiB FP8 weight, written as a sparse file
    header = {"w.weight": {"dtype": "F8_E4M3", "shape": [n, k], "data_offsets": [0, n * k]},
              "w.weight_scale_inv": {"dtype": "F32", "shape": [512, 512], "data_offsets": [n * k, n * k + 512 * 512 * 4]}}
    raw = json.dumps(header).encode()
    f = d / "model.safetensors"
    with f.open("wb") as fh:
        fh.write(struct.pack("<Q", len(raw)) + raw)
        fh.truncate(8 + len(raw) + n * k + 512 * 512 * 4)
    read_sizes = []
    real_open = Path.open

    def spy_open(self, *a, **kw):
        fh = real_open(self, *a, **kw)
        if self == f:
            orig = fh.read

            def read(size=-1):
                read_sizes.append(size)
                return orig(size)

            fh.read = read
        return fh

    monkeypatch.setattr(Path, "open", spy_open)
    info = checkpoint_facts(d)
    assert facts(info)["weight_block_size"] == "128,128"
    assert read_sizes and all(0 <= s <= 1 << 20 for s in read_sizes), read_sizes
