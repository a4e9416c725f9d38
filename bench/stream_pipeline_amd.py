"""mfma-stream-pipeline on AMD, statically: stock Triton (num_stages=2, its default) vs triton-mfma,
compiled to hsaco here for gfx90a, gfx942 and gfx950, side by side from the real amdgcn.

    python bench/stream_pipeline_amd.py [--json bench/results/stream_pipeline_amd.json]

Per kernel: LDS bytes per workgroup (and the LDS buffers of the main loop: count x bytes, with a check
that ours has exactly one per pipelined operand), VGPR / AGPR / total, spills, occupancy (waves per
SIMD and workgroups per CU, from triton_mfma.models.occupancy), MFMA count, and the main loop's instruction
order (triton_mfma.models.loop_order): its global loads per iteration, how many are issued before the
iteration's first MFMA (per copy of the body where LLVM unrolled it), and a run-length summary (G global
load, B barrier, R/W LDS read/write, M MFMA).

Kernels: the corpus's dot kernels "plain" (every int a run-time i32, no alignment known: how
`triton-mfma demo` and the tests compile them) and "aligned" (specialised as Triton's JIT would for
aligned contiguous tensors: bench/stream_pipeline_gpu.py's specialisation).
"""
from __future__ import annotations

import argparse
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stream_pipeline_gpu import _specialise  # noqa: E402

KERNELS = ["gemm", "splitk_gemm", "attn_fwd_d64", "attn_fwd_d64_causal", "attn_fwd_d128", "attn_fwd_d128_causal"]
ARCHS = ["gfx90a", "gfx942", "gfx950"]


def _buffers(ttgir: str):
    """LDS allocations made outside a loop for the main loop (mutable, no source): (shape, bytes)."""
    out = []
    for line in ttgir.splitlines():
        if "ttg.local_alloc :" in line and "mutable" in line:
            desc = line.split("!ttg.memdesc<", 1)[1].split(",")[0]
            *dims, elt = desc.split("x")
            n = 1
            for d in dims:
                n *= int(d)
            bits = int("".join(c for c in elt if c.isdigit()))
            out.append(("x".join(dims) + "x" + elt, n * bits // 8))
    return out


def compile_one(kernel, spec, arch, ours):
    import triton
    from triton.compiler import ASTSource

    import triton_mfma
    from triton_mfma import MFMARemark
    from triton_mfma.compiler.compile import target
    from triton_mfma.examples import CORPUS
    from triton_mfma.composition.remarks import body

    fn, sig0, cx0 = CORPUS[kernel]
    sig, cx, attrs = _specialise(sig0, cx0, spec, kernel)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        src = ASTSource(fn=fn, signature=sig, constexprs=cx, attrs=attrs)
        if ours:  # "pass": the pass as it is (verify_pipeline=False); "users": decided per kernel, the default
            with triton_mfma.enabled(passes=["mfma-stream-pipeline"], strict=True, remarks="all",
                                     verify_pipeline=ours == "users"):
                k = triton.compile(src, target=target(arch))
        else:
            k = triton.compile(src, target=target(arch))
    remarks = [body(str(w.message)) for w in caught if issubclass(w.category, MFMARemark)]
    return k, remarks


def row(kernel, spec, arch, mode, k, remarks):
    from triton_mfma.models import dot_figures
    from triton_mfma.models.loop_order import main_loop_order
    from triton_mfma.models.report import report

    rep = report(k)
    r, o = rep.res, rep.occupancy
    order = main_loop_order(k.asm["amdgcn"])
    bufs = _buffers(k.asm["ttgir"])
    pipelined = next((x for x in remarks if x.startswith("stream-pipelined")), None)
    n_operands = int(pipelined.split()[1]) if pipelined else 0
    return dict(
        kernel=kernel, spec=spec, arch=arch, mode=mode, lds=r.lds, buffers=bufs,
        one_buffer_per_operand=(len(bufs) == n_operands and n_operands > 0) if mode == "pass" else None,
        decision=(getattr(k.metadata, "triton_mfma_stream_pipeline", None) or {}).get("decision"),
        figures=vars(dot_figures.of_kernel(k)),
        vgpr=r.vgpr, agpr=r.agpr, vgpr_total=r.vgpr_total, vgpr_spill=r.vgpr_spill, sgpr_spill=r.sgpr_spill,
        waves_per_simd=o.waves_per_simd, workgroups_per_cu=o.workgroups_per_cu, limiter=o.limiter,
        mfma=r.mfma_count, loop_global_loads=order.loads_per_iteration if order else None,
        loop_loads_before_first_mfma=order.loads_before_first_mma if order else None,
        loop=order.summary() if order else None, remarks=remarks)


def fmt(x):
    """One row: LDS, buffers, registers, spills, occupancy, MFMA, main-loop load placement and order."""
    loads = "-" if x["loop_global_loads"] is None else f"{x['loop_loads_before_first_mfma']}/{x['loop_global_loads']}"
    bufs = "+".join(str(b) for _, b in x["buffers"]) or "-"
    return (f"{x['mode']:6s} {x['lds']:6d} {bufs:>12s} {x['vgpr']:4d} {x['agpr']:4d} {x['vgpr_total']:4d} "
            f"{x['vgpr_spill']:3d} {x['waves_per_simd']:2d}w {x['workgroups_per_cu']:2d}wg {x['mfma']:4d} "
            f"{loads:>7s}  {(x['loop'] or '-')[:70]}")


def main():
    from triton_mfma.compiler.compile import always_compile
    from triton_mfma.models.cost_model import judge
    from triton_mfma.models.dot_figures import Figures

    p = argparse.ArgumentParser()
    p.add_argument("--json")
    p.add_argument("--kernels", nargs="*", default=KERNELS)
    p.add_argument("--archs", nargs="*", default=ARCHS)
    p.add_argument("--specs", nargs="*", default=["plain", "aligned"])
    a = p.parse_args()
    rows = []
    print("LDS: bytes/workgroup; bufs: the main loop's LDS buffers (bytes each); VGPR AGPR total spills; "
          "occupancy (waves/SIMD, workgroups/CU); MFMA count; loads: main-loop global loads of one iteration "
          "issued before its first MFMA / all of them; loop: G global load, B barrier, R/W LDS read/write, M MFMA")
    with always_compile():
        for arch in a.archs:
            for spec in a.specs:
                for kernel in a.kernels:
                    print(f"\n{kernel} [{spec}] {arch}")
                    print(f"{'mode':6s} {'LDS':>6s} {'bufs':>12s} {'VGPR':>4s} {'AGPR':>4s} {'tot':>4s} "
                          f"{'spl':>3s} occupancy {'MFMA':>4s} {'loads':>7s}  loop")
                    for mode in ("stock", "pass", "users"):
                        k, remarks = compile_one(kernel, spec, arch, mode if mode != "stock" else None)
                        x = row(kernel, spec, arch, mode, k, remarks)
                        if mode == "users":
                            stock = next(r for r in rows if r["mode"] == "stock" and r["kernel"] == kernel
                                         and r["spec"] == spec and r["arch"] == arch)
                            j = judge(Figures(**stock["figures"]), Figures(**x["figures"]))
                            x["worse_than_stock"] = [j.figure] if j.worse else []
                            x["gains"] = [j.figure] if j.better else []
                        rows.append(x)
                        print(fmt(x))
                        for rem in remarks if mode == "pass" else [x["decision"] or "-"]:
                            print("       " + rem[:150])
    ours = [x for x in rows if x["mode"] == "pass"]
    users = [x for x in rows if x["mode"] == "users"]
    print(f"\nthe pass as it is: one LDS buffer per pipelined operand in "
          f"{sum(bool(x['one_buffer_per_operand']) for x in ours)}/{len(ours)} kernels; every main-loop global "
          f"load before the first MFMA in "
          f"{sum(x['loop_global_loads'] == x['loop_loads_before_first_mfma'] for x in ours)}/{len(ours)}")
    applied = [f"{x['kernel']}/{x['spec']}/{x['arch']}" for x in users if x["decision"] == "applied"]
    print(f"as users get it (decided per kernel): not worse than stock on "
          f"{sum(not x['worse_than_stock'] for x in users)}/{len(users)}; applied on {len(applied)} "
          f"({', '.join(applied) or 'none'})")
    if a.json:
        from record import write_json

        write_json(a.json, rows, indent=1)


if __name__ == "__main__":
    main()
