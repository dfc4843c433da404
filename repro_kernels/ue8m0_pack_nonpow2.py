"""ue8m0-pack-nonpow2: packing float32 scales into UE8M0 bytes by taking the exponent corrupts every
scale that is not an exact power of two.

UE8M0 stores only the 8 exponent bits of a float32 (value 2^(e-127)). DeepGEMM's SM100 path packs four
float32 scale factors per int32. Two ways this goes wrong with non-power-of-two scales, both computed
here on the chosen device with integer tensor ops:
  * exponent only (``bits >> 23``): the mantissa is dropped, the scale is floored to a power of two
    (the value shrinks by a factor in (0.5, 1]; DeepGEMM <= 2.5 silently);
  * the shift-and-or packing ``(v0 >> 23) | (v1 >> 15) | (v2 >> 7) | (v3 << 1)``: mantissa bits of
    v1..v3 land in the neighbouring bytes, so even the power-of-two lanes come back wrong.
DeepGEMM 2.6.1 instead asserts on the device that ``(bits & 0x807fffff) == 0`` (zero sign and mantissa);
this kernel evaluates that exact predicate on the same scales, and shows that rounding the scales up to
powers of two first (``ceil`` to UE8M0) makes all three agree.
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _common as C  # noqa: E402
from _common import torch  # noqa: E402

ID = "ue8m0-pack-nonpow2"
GROUP = ("torch-only", 4)  # a short kernel: on the worker of the other torch-only kernels
GROUPS = 1024  # int32 words, 4 scales each


def exponent_only(s):
    return (s.view(torch.int32) >> 23) & 0xFF


def pack_shift_or(s4):
    """Pack (G, 4) float32 scales into int32 words with the shift-and-or recipe (no masking)."""
    v = s4.contiguous().view(torch.int32)
    return (v[:, 0] >> 23) | (v[:, 1] >> 15) | (v[:, 2] >> 7) | (v[:, 3] << 1)


def unpack(words):
    """int32 words → (G, 4) float32 values 2^(byte-127), byte i = bits 8i..8i+7."""
    out = []
    for i in range(4):
        byte = (words >> (8 * i)) & 0xFF
        out.append(torch.exp2(byte.float() - 127.0))
    return torch.stack(out, dim=1)


def from_exponent(e):
    return torch.exp2(e.float() - 127.0)


def body(ctx: C.Ctx) -> dict:
    # Realistic scales: amax/448 of the 1x128 blocks of normal activations (4 scales per int32 word).
    x = ctx.randn(GROUPS // 2, 8 * C.BLOCK, seed=11)
    _, s = C.quant_act(x)
    s = s.flatten().contiguous()
    pow2 = C.ceil_pow2(s)
    with ctx.gpu_timer():
        bits = s.view(torch.int32)
        assert_ok = (bits & 0x807FFFFF) == 0  # the DeepGEMM 2.6.1 device assert, per scale
        frac_fail = 1.0 - assert_ok.float().mean().item()
        # exponent only: floor to a power of two
        floored = from_exponent(exponent_only(s))
        floor_ratio = floored / s
        # shift-and-or packing
        packed = pack_shift_or(s.view(-1, 4))
        unpacked = unpack(packed).flatten()
        word_ok = (unpacked == floored).view(-1, 4).all(dim=1)
        pack_ratio = unpacked / s
        # after rounding up to powers of two: all exact
        p_bits = pow2.view(torch.int32)
        pow2_assert_ok = bool(((p_bits & 0x807FFFFF) == 0).all().item())
        pow2_unpacked = unpack(pack_shift_or(pow2.view(-1, 4))).flatten()
        pow2_roundtrip_exact = bool((pow2_unpacked == pow2).all().item())
        # control: the check passes exactly for powers of two, including the corner exponents
        ctrl = torch.tensor([2.0 ** e for e in (-20, -8, -1, 0, 1, 7)], device=s.device)
        ctrl_ok = bool((((ctrl.view(torch.int32)) & 0x807FFFFF) == 0).all().item())
        ctrl_bad = torch.tensor([0.75, 1.5, 3.0, 2.0 ** -8 * 1.001], device=s.device)
        ctrl_bad_rejected = bool((((ctrl_bad.view(torch.int32)) & 0x807FFFFF) != 0).all().item())

    rel = (floored - s).abs() / s
    metrics = {
        "scales": int(s.numel()),
        "non_pow2_fraction": frac_fail,
        "deepgemm_2_6_1_check": "(bits & 0x807fffff) == 0",
        "check_fails_fraction": frac_fail,
        "exponent_only": {
            "mean_value_ratio": floor_ratio.mean().item(),
            "min_value_ratio": floor_ratio.min().item(),
            "max_rel_err": rel.max().item(),
            "mean_rel_err": rel.mean().item(),
        },
        "shift_or_pack": {
            "words": int(packed.numel()),
            "words_corrupted_fraction": 1.0 - word_ok.float().mean().item(),
            "max_value_ratio": pack_ratio.max().item(),
            "min_value_ratio": pack_ratio.min().item(),
        },
        "after_ceil_to_pow2": {"check_passes": pow2_assert_ok, "pack_roundtrip_exact": pow2_roundtrip_exact},
        "controls": {"pow2_pass": ctrl_ok, "non_pow2_rejected": ctrl_bad_rejected},
    }
    shown = (
        frac_fail > 0.9
        and metrics["exponent_only"]["max_rel_err"] > 0.1
        and metrics["shift_or_pack"]["words_corrupted_fraction"] > 0.5
        and pow2_assert_ok and pow2_roundtrip_exact and ctrl_ok and ctrl_bad_rejected
    )
    if shown:
        reason = (
            f"{frac_fail:.1%} of realistic float32 block scales fail DeepGEMM 2.6.1's (bits & 0x807fffff) == 0 "
            f"check; keeping only the exponent shrinks them by up to {metrics['exponent_only']['max_rel_err']:.0%}, "
            f"and shift-and-or packing corrupts {metrics['shift_or_pack']['words_corrupted_fraction']:.0%} of the "
            f"packed words; scales rounded up to powers of two pack exactly"
        )
        verdict = "reproduced"
    else:
        reason = "packing did not corrupt the scales as expected"
        verdict = "not-reproduced"
    where = f"on this {ctx.sm()} GPU" if ctx.is_cuda else "on the CPU"
    return {
        "verdict": verdict,
        "reason": reason,
        "metrics": metrics,
        "real_path": ctx.is_cuda,
        "machine_independent": True,
        "scope_note": f"bit arithmetic on float32 scales, the same on every device (computed {where})",
    }


if __name__ == "__main__":
    C.main(ID, body, __file__)
