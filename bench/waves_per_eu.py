"""waves_per_eu on the three archs: occupancy and spills for 0..4, and what "auto" picks.

Flash-attention forward (D 64/128, BLOCK_M 128/256, BLOCK_N 32/64, causal and not) and split-K decode
GEMMs (BLOCK_M 16/64, BLOCK_N 32..128). Everything is compiled here for gfx90a, gfx942, gfx950 and read
from the amdgcn; occupancy is the effective waves/SIMD of the model (registers + LDS). One run prints
the whole table and the summary lines the issue asks for.

    python bench/waves_per_eu.py > bench/results/waves_per_eu.txt
"""
import itertools
import os
import sys
import warnings

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

import triton_mfma  # noqa: E402
from triton_mfma import MFMARemark, report  # noqa: E402
from triton_mfma.compiler.compile import always_compile, compile_kernel  # noqa: E402
from triton_mfma.examples.kernels import _attn, _splitk_sig, splitk_gemm  # noqa: E402


def configs():
    for d, bm, bn, causal in itertools.product((64, 128), (128, 256), (32, 64), (False, True)):
        yield f"attn D{d} BM{bm} BN{bn}{' causal' if causal else ''}", _attn(d, causal, bm, bn)
    for bm, bn in ((16, 32), (16, 64), (16, 128), (64, 64)):
        yield f"splitk BM{bm} BN{bn} BK64 SK4", (splitk_gemm, _splitk_sig(),
                                                  dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=64, SPLIT_K=4))


def cell(r):
    spills = r.res.vgpr_spill + r.res.sgpr_spill
    return f"{r.occupancy.waves_per_simd}{'/s' + str(spills) if spills else ''}"


def main():
    warnings.simplefilter("ignore", MFMARemark)
    archs = sys.argv[1:] or ["gfx90a", "gfx942", "gfx950"]
    print("cell = effective waves/SIMD (model: registers + LDS), '/sN' = N spilled registers (VGPR+SGPR)")
    print(f"{'config':34} {'arch':7} {'w=0':>6} {'w=1':>6} {'w=2':>6} {'w=3':>6} {'w=4':>6}  {'auto':>10}  compiled")
    total = ok_spill = ok_occ = better = 0
    with always_compile():
        for arch in archs:
            for label, (fn, sig, cx) in configs():
                fixed = [report(compile_kernel(fn, sig, cx, arch, {"waves_per_eu": w})) for w in range(5)]
                with triton_mfma.enabled(waves_per_eu="auto"):
                    k = compile_kernel(fn, sig, cx, arch)
                auto = report(k)
                d = k.metadata.triton_mfma_waves_per_eu
                total += 1
                sp = lambda r: r.res.vgpr_spill + r.res.sgpr_spill  # noqa: E731
                ok_spill += sp(auto) == 0 or sp(auto) <= sp(fixed[0])
                ok_occ += auto.occupancy.waves_per_simd >= fixed[0].occupancy.waves_per_simd
                better += auto.occupancy.waves_per_simd > fixed[0].occupancy.waves_per_simd
                print(f"{label:34} {arch:7} " + " ".join(f"{cell(r):>6}" for r in fixed)
                      + f"  {'w=' + str(d['chosen']) + ':' + cell(auto):>10}  {sorted(d['tried'])}", flush=True)
    print(f"auto never spills more than the default: {ok_spill}/{total}")
    print(f"auto occupancy >= default occupancy:     {ok_occ}/{total}")
    print(f"auto occupancy >  default occupancy:     {better}/{total}")


if __name__ == "__main__":
    main()
