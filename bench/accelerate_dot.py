"""Stock Triton's accelerate_matmul vs mfma-accelerate-dot, side by side, on gfx90a / gfx942 / gfx950.

    PYTHONPATH=python python bench/accelerate_dot.py [--arch gfx942 ...] [--out bench/results/accelerate_dot.txt]

For every configuration (GEMM tiles 16..256 and element types, split-K decode GEMMs with M = 1..64, flash
attention forward) both compiles go to hsaco in one run, and the amdgcn is read: the v_mfma instructions,
VGPR / AGPR, spills, occupancy (waves per SIMD, registers and LDS, from triton_mfma.report), and in the
main loop (the innermost loop with the most MFMA/FMA instructions) the MFMA count, the dot's issue cycles
(MFMA passes x 4 from the instruction table, lib/Analysis/MfmaTable.cpp, read by this script; for a dot
lowered to FMA, 4 per FMA-family VALU instruction), ds_read / ds_write and s_barrier counts. No GPU is
needed.

"Not worse" for a configuration means: occupancy >= stock, spills <= stock, main-loop dot cycles <= stock and
main-loop ds_read + ds_write <= stock. The last line counts the configurations where that holds.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import time
import warnings
from dataclasses import dataclass

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
os.environ["TRITON_MFMA_STRICT"] = "1"  # a failing pass must not silently become a stock compile

import triton  # noqa: E402
import triton_mfma  # noqa: E402
from triton_mfma import loop_order, report  # noqa: E402
from triton_mfma.compile import compile_pair  # noqa: E402
from triton_mfma.examples import ARCHS  # noqa: E402
from triton_mfma.examples import kernels as K  # noqa: E402

TABLE = os.path.join(os.path.dirname(__file__), "..", "lib", "Analysis", "MfmaTable.cpp")


def mfma_cycles_from_table(path: str = TABLE) -> dict:
    """(arch, mnemonic) -> cycles of one hardware instruction, from the C++ table's initializers."""
    text = open(path).read()
    cycles = {}
    for arch, mnem, passes in re.findall(r'\{A::(GFX\w+), "(v_mfma_\w+)",[^}]*?,\s*(\d+)\}', text):
        cycles[arch.lower(), mnem] = int(passes) * 4
    for macro, arch in (("FP8_942", "gfx942"), ("FP8_950", "gfx950")):
        for m, n, k, pa, pb, passes in re.findall(
                macro + r'\((\d+), (\d+), (\d+), "(\w+)", "(\w+)", E::\w+, E::\w+, (\d+)\)', text):
            cycles[arch, f"v_mfma_f32_{m}x{n}x{k}_{pa}_{pb}"] = int(passes) * 4
    for m, n, k, passes in re.findall(r"F8F6F4_950\((\d+), (\d+), (\d+), E::\w+, E::\w+, (\d+)\)", text):
        cycles["gfx950", f"v_mfma_f32_{m}x{n}x{k}_f8f6f4"] = int(passes) * 4
    return cycles


CYCLES = mfma_cycles_from_table()


# VALU instructions that do a dot's multiply-adds when Triton lowers it to FMA (a wave64 VALU instruction
# issues in 4 clocks on CDNA): counted so that an FMA dot's loop is not "free" next to an MFMA one.
FMA_PREFIXES = ("v_fma_f32", "v_fmac_f32", "v_pk_fma_f32", "v_fma_mix", "v_dot2", "v_fma_f16", "v_pk_fma_f16",
                "v_mad_", "v_fmac_f16")


@dataclass
class Figures:
    instrs: str
    vgpr: int
    agpr: int
    spills: int
    occupancy: int
    lds: int
    loop_mfma: int
    loop_fma: int
    loop_cycles: int  # one main-loop iteration: MFMA issue cycles, or 4 per FMA-family VALU op for an FMA dot
    loop_ds_read: int
    loop_ds_write: int
    loop_barriers: int

    @property
    def loop_ds(self) -> int:
        return self.loop_ds_read + self.loop_ds_write


def main_loop(asm: str) -> list[str]:
    """Mnemonics of the main loop: the innermost loop with the most MFMA + FMA instructions (blocks and
    loop membership as triton_mfma.loop_order reads them from LLVM's loop annotations)."""
    blocks = loop_order._blocks(asm)
    best: list[str] = []
    for header in {b[0] for b in blocks if b[2]}:
        body = [m for b in blocks if b[1] == header for m in b[3]]
        work = lambda ms: sum(m.startswith("v_mfma") or m.startswith(FMA_PREFIXES) for m in ms)  # noqa: E731
        if work(body) > work(best):
            best = body
    return best


def figures(kernel, arch: str) -> Figures:
    rep = report(kernel)
    res = rep.res
    loop = main_loop(kernel.asm["amdgcn"])
    mfma = [m for m in loop if m.startswith("v_mfma")]
    fma = [m for m in loop if m.startswith(FMA_PREFIXES)]
    unknown = {m for m in mfma if (arch, m) not in CYCLES}
    assert not unknown, f"instructions missing from the table: {unknown}"
    return Figures(
        instrs="+".join(sorted(res.mfma)) or "FMA",
        vgpr=res.vgpr, agpr=res.agpr, spills=res.vgpr_spill, occupancy=rep.occupancy.waves_per_simd, lds=res.lds,
        loop_mfma=len(mfma), loop_fma=len(fma),
        # FMA-family VALU instructions are the dot's work only when the loop has no MFMA (an FMA dot);
        # next to MFMAs they are the kernel's other arithmetic (e.g. softmax), the same for both compiles.
        loop_cycles=sum(CYCLES[arch, m] for m in mfma) if mfma else 4 * len(fma),
        loop_ds_read=sum(m.startswith(("ds_read", "ds_load")) for m in loop),
        loop_ds_write=sum(m.startswith(("ds_write", "ds_store")) for m in loop),
        loop_barriers=loop.count("s_barrier"))


def not_worse(stock: Figures, ours: Figures) -> list[str]:
    """The criteria ours fails (empty: not worse)."""
    failed = []
    if ours.occupancy < stock.occupancy:
        failed.append("occupancy")
    if ours.spills > stock.spills:
        failed.append("spills")
    if ours.loop_cycles > stock.loop_cycles:
        failed.append("dot cycles")
    if ours.loop_ds > stock.loop_ds:
        failed.append("LDS ops")
    return failed


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
    emit("# per config: stock | ours. instr = v_mfma_* in the kernel; vgpr/agpr; sp = VGPR spills; occ = waves/SIMD")
    emit("# (registers and LDS); loop = main loop: MFMA count / dot issue cycles (MFMA passes x 4, or 4 per v_fma of an")
    emit("# FMA dot), ds_read+ds_write,")
    emit("# s_barrier; LDS bytes per workgroup. verdict: ok = not worse on occupancy, spills, dot cycles, LDS ops")
    total = ok = 0
    t0 = time.time()
    for arch in archs:
        emit()
        emit(f"## {arch}")
        hdr = (f"{'config':30s} {'instr (stock -> ours)':62s} {'vgpr/agpr':>15s} {'sp':>7s} {'occ':>5s} "
               f"{'loop mfma/cyc':>19s} {'loop ds r+w':>12s} {'bar':>5s} {'LDS':>12s}  verdict")
        emit(hdr)
        for name, fn, sig, cx, opts in configs():
            if name.startswith("gemm fp8"):
                sig = K._gemm_sig(FP8[arch], "*fp16")
                name = f"gemm {FP8[arch].strip('*')} 128x128x64"
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                stock_k, ours_k, _, _ = compile_pair(fn, sig, cx, arch, ["mfma-accelerate-dot"], options=opts)
            s, o = figures(stock_k, arch), figures(ours_k, arch)
            failed = not_worse(s, o)
            total += 1
            ok += not failed
            instr = s.instrs if s.instrs == o.instrs else f"{s.instrs} -> {o.instrs}"
            emit(f"{name:30s} {instr:62s} {f'{s.vgpr}/{s.agpr}|{o.vgpr}/{o.agpr}':>15s} "
                 f"{f'{s.spills}|{o.spills}':>7s} {f'{s.occupancy}|{o.occupancy}':>5s} "
                 f"{f'{s.loop_mfma}/{s.loop_cycles}|{o.loop_mfma}/{o.loop_cycles}':>19s} "
                 f"{f'{s.loop_ds}|{o.loop_ds}':>12s} {f'{s.loop_barriers}|{o.loop_barriers}':>5s} "
                 f"{f'{s.lds}|{o.lds}':>12s}  "
                 f"{'ok' if not failed else 'WORSE: ' + ', '.join(failed)}")
    emit()
    emit(f"not worse than stock on {ok}/{total} configs ({time.time() - t0:.0f} s)")
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
