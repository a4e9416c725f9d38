"""Where each transforming pass acts: the cases `triton-mfma demo` compiles with one pass at a time.

Each case is a bundled kernel at a configuration taken from the pass's bench (bench/), where the pass changes
what the compiler produces. The demo prints the figures the pass is about, stock and with the pass, read from
the real amdgcn, and the pass's own remark; on an architecture where a case has nothing to do, the remark says
so and the figures stay equal.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import kernels as K


@dataclass(frozen=True)
class Case:
    pass_name: str
    label: str
    kernel: object  # @triton.jit function
    signature: dict
    constexprs: dict
    look_at: str  # what the figures should show
    options: dict = field(default_factory=dict)  # Triton compile options (num_warps, ...)
    pass_options: dict = field(default_factory=dict)  # triton_mfma.enabled(**pass_options)


def _fp8_gemm_sig(arch: str) -> dict:
    return K._gemm_sig({"gfx950": "*fp8e4nv"}.get(arch, "*fp8e4b8"), "*fp16")


def cases(arch: str) -> list[Case]:
    splitk_fn, splitk_sig, _ = K.CORPUS["splitk_gemm"]
    grid_fn, grid_sig, grid_cx = K.GRID_ORDER_KERNELS["matmul_1d_grouped_grid"]
    return [
        Case("mfma-accelerate-dot", "split-K GEMM, M=1 (decode), 64x64 tiles", splitk_fn, splitk_sig,
             dict(BLOCK_M=1, BLOCK_N=64, BLOCK_K=64, SPLIT_K=4),
             "stock falls back to an FMA dot for a 1-row tile; the pass costs every MFMA (rows padded) and picks one "
             "when it is cheaper: fewer LDS ops"),
        Case("mfma-accelerate-dot", "fp8 GEMM 128x128x64", K.matmul, _fp8_gemm_sig(arch),
             dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64),
             "gfx90a has no fp8 MFMA: stock's FMA dot spills, the pass upcasts exactly to an f16 MFMA; gfx942 and "
             "gfx950 have one: the same instruction either way"),
        Case("mfma-accelerate-dot", "flash attention 128x128, D=64, 8 warps", K.attn_fwd, K._attn_sig(),
             dict(BLOCK_M=128, BLOCK_N=128, HEAD_DIM=64, CAUSAL=False),
             "chain dots: P = softmax(QK^T) stays in registers on its way to the second dot (warps along M, "
             "transposed head); fewer LDS ops and bytes",
             options=dict(num_warps=8)),
        Case("mfma-split-epilogue-cvt", "split-K GEMM, 256x128 tiles", splitk_fn, splitk_sig,
             dict(BLOCK_M=256, BLOCK_N=128, BLOCK_K=32, SPLIT_K=4),
             "the epilogue's layout conversion split into steps so the kernel fits the target's LDS (stock "
             "compiles it but cannot launch it: wg/CU 0); gfx950's 160 KiB holds it as is"),
        Case("mfma-stream-pipeline", "GEMM 128x128x64", K.matmul, K._gemm_sig(),
             dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64),
             "the next iteration's global loads issued before this iteration's MFMAs, through one LDS buffer per "
             "operand and a register prefetch; the last iteration is peeled (MFMA count x2)"),
        Case("mfma-grid-order", "split-K decode GEMM, slow grid order", K.splitk_decode_slow,
             K._decode_sig(), dict(K.DECODE_TILES),
             "program ids remapped so programs sharing a weight tile run together (at run time, from the grid "
             "and the L2 model; XCD chunks on gfx942/gfx950): scalar code, the figures barely move"),
        Case("mfma-hip-num-programs", "GEMM on a 1-D grid, tile rows from tl.num_programs", grid_fn, grid_sig,
             grid_cx,
             "the grid size read from the implicit kernel argument instead of through the device library: the "
             "same code; make_llir links no ockl.bc, about 20 ms less (one compile's time here is noisier than that)"),
    ]
