"""A small Triton block-scaled FP8 GEMM that consumes float32 block scales directly, written for the
repro kernels (the path ``TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR=1`` selects in transformers uses a hub
kernel that needs the ``kernels`` package; this one needs only Triton).

    C[m, n] = sum_kb  (A[m, kb] @ B[n, kb]^T) * sa[m, kb] * sb[g, n // 128, kb]

A: (M, K) float8_e4m3fn, row-major, with 1x128 float32 scales ``sa`` (M, K/128).
B: (G, N, K) float8_e4m3fn (G weight groups: 1 for a dense linear, E for experts), with 128x128 float32
   scales ``sb`` (G, N/128, K/128).
Grouped mode: every BLOCK_M rows of A belong to one group, given by ``tile_group`` (int32, one entry
per M tile); rows are padded per group to a multiple of BLOCK_M by the caller.
Each K step multiplies one 128-wide slice in FP8 on the tensor cores, accumulating in float32, and
applies both block scales to that partial product before adding it: no scale is ever rounded.
Shapes must be multiples of the tile sizes (the repro kernels choose them so; no masking needed).

Import this module only where Triton is importable.
"""
from __future__ import annotations

import torch
import triton
import triton.language as tl

BLOCK_M = 64
BLOCK_N = 128  # equals the weight scale block, so one weight scale per (N tile, K step)
BLOCK_K = 128  # equals the scale block along K


@triton.jit
def _block_fp8_gemm_kernel(
    a_ptr, b_ptr, c_ptr, sa_ptr, sb_ptr, tile_group_ptr,
    K: tl.constexpr,
    stride_am, stride_ak,
    stride_bg, stride_bn, stride_bk,
    stride_cm, stride_cn,
    stride_sam, stride_sak,
    stride_sbg, stride_sbn, stride_sbk,
    GROUPED: tl.constexpr,
    BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    if GROUPED:
        g = tl.load(tile_group_ptr + pid_m)
    else:
        g = 0
    rows = pid_m * BM + tl.arange(0, BM)
    cols = pid_n * BN + tl.arange(0, BN)
    ks = tl.arange(0, BK)
    a_tile = a_ptr + rows[:, None] * stride_am + ks[None, :] * stride_ak
    b_tile = b_ptr + g * stride_bg + cols[None, :] * stride_bn + ks[:, None] * stride_bk  # (BK, BN) view of B^T
    sa_col = sa_ptr + rows * stride_sam
    sb_base = sb_ptr + g * stride_sbg + pid_n * stride_sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for kb in range(0, K // BK):
        a = tl.load(a_tile)
        b = tl.load(b_tile)
        part = tl.dot(a, b)  # FP8 x FP8 -> float32 on the tensor cores
        sa = tl.load(sa_col + kb * stride_sak)  # (BM,) float32 activation scales of this K block
        sb = tl.load(sb_base + kb * stride_sbk)  # scalar float32 weight scale of this (N, K) block
        acc += part * (sa[:, None] * sb)
        a_tile += BK * stride_ak
        b_tile += BK * stride_bk
    c = c_ptr + rows[:, None] * stride_cm + cols[None, :] * stride_cn
    tl.store(c, acc)


def block_fp8_gemm(qa, sa, qb, sb, tile_group=None, out=None):
    """Run the kernel. ``qb``/``sb`` may be 2-D (dense) or 3-D (grouped, with ``tile_group``)."""
    if qb.dim() == 2:
        qb, sb = qb.unsqueeze(0), sb.unsqueeze(0)
    m, k = qa.shape
    _, n, k2 = qb.shape
    assert k == k2 and m % BLOCK_M == 0 and n % BLOCK_N == 0 and k % BLOCK_K == 0, (qa.shape, qb.shape)
    assert sa.shape == (m, k // BLOCK_K) and sb.shape[1:] == (n // BLOCK_N, k // BLOCK_K), (sa.shape, sb.shape)
    grouped = tile_group is not None
    if grouped:
        assert tile_group.numel() == m // BLOCK_M
    if out is None:
        out = torch.empty(m, n, device=qa.device, dtype=torch.float32)
    grid = (m // BLOCK_M, n // BLOCK_N)
    _block_fp8_gemm_kernel[grid](
        qa, qb, out, sa, sb, tile_group if grouped else sa,
        k,
        qa.stride(0), qa.stride(1),
        qb.stride(0), qb.stride(1), qb.stride(2),
        out.stride(0), out.stride(1),
        sa.stride(0), sa.stride(1),
        sb.stride(0), sb.stride(1), sb.stride(2),
        GROUPED=grouped, BM=BLOCK_M, BN=BLOCK_N, BK=BLOCK_K,
        num_warps=4, num_stages=3,
    )
    return out


@triton.jit
def _fp8_dot_kernel(a_ptr, b_ptr, c_ptr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """C (BM, BN) = A (BM, BK) @ B (BK, BN), all row-major, FP8 operands, float32 result."""
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    k = tl.arange(0, BK)
    a = tl.load(a_ptr + r[:, None] * BK + k[None, :])
    b = tl.load(b_ptr + k[:, None] * BN + c[None, :])
    tl.store(c_ptr + r[:, None] * BN + c[None, :], tl.dot(a, b))


def fp8_dot(a, b):
    """Tiny single-tile FP8 dot (a: (BM, BK), b: (BK, BN) contiguous float8_e4m3fn)."""
    bm, bk = a.shape
    bn = b.shape[1]
    out = torch.empty(bm, bn, device=a.device, dtype=torch.float32)
    _fp8_dot_kernel[(1,)](a, b, out, BM=bm, BN=bn, BK=bk)
    return out
