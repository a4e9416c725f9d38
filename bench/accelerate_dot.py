"""Stock Triton's accelerate_matmul vs mfma-accelerate-dot, side by side, on gfx90a / gfx942 / gfx950.

    PYTHONPATH=python python bench/accelerate_dot.py [--arch gfx942 ...] [--out bench/results/accelerate_dot.txt]

For every configuration (GEMM tiles 16..256 and element types, split-K decode GEMMs with M = 1..64, flash
attention forward) both compiles go to hsaco in one run, and the amdgcn is read: the v_mfma instructions,
VGPR / AGPR, spills, occupancy (waves per SIMD, registers and LDS, from triton_mfma.report), and in the
main loop (the innermost loop with the most MFMA/FMA instructions) the MFMA count, the dot's issue cycles
(MFMA passes x 4 from the instruction table, lib/Analysis/MfmaTable.cpp, through the library's C API; for a
dot lowered to FMA, 4 per FMA-family VALU instruction), ds_read / ds_write and s_barrier counts
(python/triton_mfma/models/dot_figures.py). No GPU is needed.

"Not worse" for a configuration means: occupancy >= stock, spills <= stock, main-loop dot cycles <= stock and
main-loop ds_read + ds_write <= stock. The pass is compiled twice: unverified (verify_dot=False: the cost
model's choice as it is; the table's figures and verdict) and as users get it (verify_dot=True, the default:
the hook compiles both layouts and keeps ours only when not worse by that same test; column "verified":
kept / reverted, checked to have the figures of the unverified or the stock compile). The last lines count both.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import time
import warnings

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
os.environ["TRITON_MFMA_STRICT"] = "1"  # a failing pass must not silently become a stock compile

import triton  # noqa: E402
import triton_mfma  # noqa: E402
from triton_mfma.models import cost_model, dot_figures  # noqa: E402
from triton_mfma.compiler.compile import always_compile, compile_kernel, compile_pair  # noqa: E402
from triton_mfma.models.dot_figures import Figures  # noqa: E402
from triton_mfma.examples import ARCHS  # noqa: E402
from triton_mfma.examples import kernels as K  # noqa: E402

def figures(kernel, arch: str) -> Figures:
    return dot_figures.of_kernel(kernel)


def not_worse(stock: Figures, ours: Figures) -> list[str]:
    """The figure on which ours is worse (empty: not worse): the one judge, as the hook's verification."""
    j = cost_model.judge(stock, ours)
    return [j.key] if j.worse else []


def configs():
    """(name, kernel, signature, constexprs, compile options)."""
    for bm, bn, bk in [(16, 16, 64), (16, 64, 64), (16, 256, 64), (32, 32, 64), (32, 128, 32), (64, 16, 64),
                       (64, 64, 32), (64, 128, 64), (128, 32, 32), (128, 128, 32), (128, 128, 64), (128, 256, 32),
                       (256, 64, 32), (256, 128, 32), (256, 256, 32)]:
        yield f"gemm f16 {bm}x{bn}x{bk}", K.matmul, K._gemm_sig(), dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk), {}
    for dt, out in (("*bf16", "*fp16"), ("*i8", "*i32"), ("*fp32", "*fp32"), ("fp8", "*fp16")):
        yield (f"gemm {dt.strip('*')} 128x128x64", K.matmul, K._gemm_sig(dt, out),
               dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64), {})
    fn, sig, _ = K.CORPUS["splitk_gemm"]
    for m in (1, 4, 16, 64):
        yield f"splitk M={m} 64x64 K-split 4", fn, sig, dict(BLOCK_M=m, BLOCK_N=64, BLOCK_K=64, SPLIT_K=4), {}
    for bm, bn, d, causal, warps in [(128, 64, 64, False, 4), (128, 64, 64, True, 4), (128, 64, 128, False, 4),
                                     (128, 64, 128, True, 4), (128, 16, 64, False, 4), (128, 32, 128, False, 4),
                                     (64, 64, 64, False, 8), (128, 128, 64, False, 8), (32, 64, 128, False, 4),
                                     (16, 64, 128, False, 4)]:
        name = f"attn {bm}x{bn} d{d}{' causal' if causal else ''}{f' w{warps}' if warps != 4 else ''}"
        yield name, K.attn_fwd, K._attn_sig(), dict(BLOCK_M=bm, BLOCK_N=bn, HEAD_DIM=d, CAUSAL=causal), \
            dict(num_warps=warps)


FP8 = {"gfx90a": "*fp8e4b8", "gfx942": "*fp8e4b8", "gfx950": "*fp8e4nv"}


def run(archs, out):
    lines = []

    def emit(s=""):
        print(s, flush=True)
        lines.append(s)

    emit(f"# mfma-accelerate-dot (triton-mfma {triton_mfma.__version__}) vs stock Triton {triton.__version__}'s "
         f"accelerate_matmul -- `PYTHONPATH=python python bench/accelerate_dot.py`")
    emit("# per config: stock | ours. instr = v_mfma_* in the kernel; vgpr/agpr; sp = VGPR + SGPR spills; occ = waves/SIMD")
    emit("# (registers and LDS); loop = main loop: MFMA count / dot issue cycles (MFMA passes x 4, or 4 per v_fma of an")
    emit("# FMA dot), ds_read+ds_write,")
    emit("# s_barrier; LDS bytes per workgroup. verdict (unverified pass): ok = the one judge (cost_model) ranks it no")
    emit("# worse; verified = what the default verify_dot=True keeps (kept: ours, reverted: stock's)")
    total = ok = kept = verified_ok = 0
    t0 = time.time()
    for arch in archs:
        emit()
        emit(f"## {arch}")
        hdr = (f"{'config':30s} {'instr (stock -> ours)':62s} {'vgpr/agpr':>15s} {'sp':>7s} {'occ':>5s} "
               f"{'loop mfma/cyc':>19s} {'loop ds r+w':>12s} {'bar':>5s} {'LDS':>12s}  {'verified':9s} verdict")
        emit(hdr)
        for name, fn, sig, cx, opts in configs():
            if name.startswith("gemm fp8"):
                sig = K._gemm_sig(FP8[arch], "*fp16")
                name = f"gemm {FP8[arch].strip('*')} 128x128x64"
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                stock_k, ours_k, _, _ = compile_pair(fn, sig, cx, arch, ["mfma-accelerate-dot"], options=opts,
                                                     verify_dot=False)
            s, o = figures(stock_k, arch), figures(ours_k, arch)
            failed = not_worse(s, o)
            total += 1
            ok += not failed
            with warnings.catch_warnings(), always_compile(), triton_mfma.enabled(
                    passes=["mfma-accelerate-dot"], verify_dot=True):
                warnings.simplefilter("ignore")
                verified_k = compile_kernel(fn, sig, cx, arch, opts or None)
            verdict = verified_k.metadata.triton_mfma_accelerate_dot["decision"]
            same_as = ours_k if verdict == "kept" else stock_k
            # the same figures as the compile it chose (amdgcn bytes can differ: Triton 3.9's compile of a
            # JITFunction is not independent of that object's earlier compiles, phi order in the llir)
            if figures(verified_k, arch) != figures(same_as, arch):
                verdict += " (figures differ!)"
            kept += verdict == "kept"
            verified_ok += not not_worse(s, figures(verified_k, arch))
            instr = s.instrs if s.instrs == o.instrs else f"{s.instrs} -> {o.instrs}"
            emit(f"{name:30s} {instr:62s} {f'{s.vgpr}/{s.agpr}|{o.vgpr}/{o.agpr}':>15s} "
                 f"{f'{s.spills}|{o.spills}':>7s} {f'{s.occupancy}|{o.occupancy}':>5s} "
                 f"{f'{s.loop_mfma}/{s.loop_cycles}|{o.loop_mfma}/{o.loop_cycles}':>19s} "
                 f"{f'{s.loop_ds}|{o.loop_ds}':>12s} {f'{s.loop_barriers}|{o.loop_barriers}':>5s} "
                 f"{f'{s.lds}|{o.lds}':>12s}  {verdict:9s} "
                 f"{'ok' if not failed else 'WORSE: ' + ', '.join(failed)}")
    emit()
    emit(f"unverified (verify_dot=False): not worse than stock on {ok}/{total} configs")
    emit(f"as users get it (verify_dot=True): ours kept on {kept}/{total}, reverted to Triton's layouts on "
         f"{total - kept}; not worse than stock on {verified_ok}/{total} ({time.time() - t0:.0f} s)")
    if out:
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "w") as f:
            f.write("\n".join(lines) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", action="append", choices=ARCHS)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "results", "accelerate_dot.txt"))
    args = ap.parse_args(argv)
    run(args.arch or list(ARCHS), args.out)


if __name__ == "__main__":
    sys.exit(main())
