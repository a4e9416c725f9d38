"""mfma-split-epilogue-cvt: stock Triton vs the pass, side by side.

    python bench/split_epilogue_cvt.py amd [OUT_DIR]     # here (CPU): gfx90a, gfx942, gfx950 table
    python bench/split_epilogue_cvt.py build OUT         # here: cuda:90 cubins, stock and split
    python bench/split_epilogue_cvt.py run OUT RESULTS   # on an H200 (torch + cupy): checks + timings

`amd` compiles every config for each arch with stock Triton and with the pass at each budget (through
the hook, as users run it) and reads the real amdgcn: LDS bytes (metadata.shared), VGPRs, spills,
register occupancy (waves/SIMD), workgroups per CU allowed by LDS, the resulting occupancy and its
limiter (python/triton_mfma/models/occupancy.py), and the pass's own verdict (its final remark).

Configs: flash-attention fwd D=128 (BLOCK_M, BLOCK_N) = (256, 32), (128, 64), causal and not; split-K
GEMMs 256x128 and 128x128 (SPLIT_K=4), whose atomic epilogue converts the accumulator from the MFMA
layout to a blocked one through LDS. Budgets: the target's LDS (default), 64, 48 and 32 KiB, and
"occupancy".

`build`/`run`: splitting is layout plumbing shared with NVIDIA, so a split kernel compiled for cuda:90
runs on an H200 against a PyTorch reference and against the stock kernel (split-K GEMM with SPLIT_K=1:
one atomic add per element onto zeros, so stock and split must agree bitwise).
"""
from __future__ import annotations

import json
import os
import statistics
import sys
import warnings

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

AMD_BUDGETS = [None, 64 * 1024, 48 * 1024, 32 * 1024, "occupancy"]


def _configs():
    from triton_mfma.examples.kernels import _attn, _splitk_sig, splitk_gemm

    cfg = {}
    for bm, bn in ((256, 32), (128, 64)):
        for causal in (False, True):
            cfg[f"attn_d128_bm{bm}_bn{bn}{'_causal' if causal else ''}"] = _attn(128, causal, bm, bn)
    for bm, bn in ((256, 128), (128, 128)):
        cfg[f"splitk_{bm}x{bn}"] = (splitk_gemm, _splitk_sig(), dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=32, SPLIT_K=4))
    return cfg


def _compile(fn, sig, cx, arch, lds_limit=None, with_pass=False):
    import triton_mfma
    from triton_mfma import MFMARemark
    from triton_mfma.compiler.compile import always_compile, compile_kernel
    from triton_mfma.composition.remarks import body

    with warnings.catch_warnings(record=True) as caught, always_compile():
        warnings.simplefilter("always")
        if with_pass and lds_limit == "defaults":  # every default pass, as `enabled(backends=...)` runs them
            with triton_mfma.enabled(backends=("hip", "cuda"), remarks="all"):
                k = compile_kernel(fn, sig, cx, arch)
        elif with_pass:
            with triton_mfma.enabled(passes=["mfma-split-epilogue-cvt"], lds_limit=lds_limit, remarks="all"):
                k = compile_kernel(fn, sig, cx, arch)
        else:
            k = compile_kernel(fn, sig, cx, arch)
    remarks = [body(str(w.message)) for w in caught if issubclass(w.category, MFMARemark)]
    return k, remarks


def _figures(k, arch):
    from triton_mfma.models import occupancy
    from triton_mfma.models.resources import of_kernel

    r = of_kernel(k)
    occ = occupancy.occupancy(arch, k.metadata.num_warps, r.vgpr_total, r.sgpr, k.metadata.shared)
    return dict(lds=k.metadata.shared, vgpr=r.vgpr_total, spills=r.vgpr_spill, reg_waves=occ.register_waves,
                wg_by_lds=occupancy.workgroups_by_lds(arch, k.metadata.shared), wg=occ.workgroups_per_cu,
                waves=occ.waves_per_simd, limiter=occ.limiter)


def _verdict(remarks):
    final = [r for r in remarks if r.startswith("LDS total") or "still leaves" in r or "does not cover" in r]
    if not final:
        return "?"
    r = final[-1]
    if "->" in r:
        return "split: " + r.split(", within")[0].replace("LDS total ", "")
    if "no convert_layout to split" in r:
        return "fits"
    if "no convert_layout's scratch" in r:
        return "unchanged: local_alloc over budget"
    return "unchanged: no chain fits"


def amd(out_dir):
    from triton_mfma.examples import ARCHS

    rows = []
    for arch in ARCHS:
        for name, (fn, sig, cx) in _configs().items():
            stock, _ = _compile(fn, sig, cx, arch)
            s = _figures(stock, arch)
            for budget in AMD_BUDGETS:
                k, remarks = _compile(fn, sig, cx, arch, budget, with_pass=True)
                o = _figures(k, arch)
                occ_note = [r for r in remarks if "lds_limit='occupancy'" in r]
                resolved = occ_note[0].split("LDS budget ")[-1].split(" B")[0] if occ_note else None
                row = dict(arch=arch, kernel=name, budget=budget if budget is not None else "target",
                           resolved_budget=int(resolved) if resolved else None, stock=s, ours=o,
                           verdict=_verdict(remarks), remarks=remarks)
                rows.append(row)
                print(_row_md(row), flush=True)
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
        from record import write_json

        write_json(os.path.join(out_dir, "split_epilogue_cvt_amd.json"), rows, indent=1)
        with open(os.path.join(out_dir, "split_epilogue_cvt_amd.md"), "w") as f:
            f.write(_table(rows))
    print(_table(rows))


def _kib(b):
    return f"{b / 1024:g}K"


def _row_md(r):
    s, o = r["stock"], r["ours"]
    budget = r["budget"] if isinstance(r["budget"], str) else _kib(r["budget"])
    if r["resolved_budget"]:
        budget += f"={_kib(r['resolved_budget'])}"
    pair = lambda key: f"{s[key]} / {o[key]}"  # noqa: E731
    return (f"| {r['arch']} | {r['kernel']} | {budget} | {_kib(s['lds'])} / {_kib(o['lds'])} | {pair('vgpr')} | "
            f"{pair('spills')} | {pair('reg_waves')} | {pair('wg_by_lds')} | {s['wg']} ({s['limiter']}) / "
            f"{o['wg']} ({o['limiter']}) | {r['verdict']} |")


def _table(rows):
    head = ("| arch | kernel | budget | LDS stock / ours | VGPR | spills | waves/SIMD (regs) | WG/CU by LDS | "
            "WG/CU (limiter) | pass |\n|" + " --- |" * 10 + "\n")
    return head + "\n".join(_row_md(r) for r in rows) + "\n"


# ---- H200 ---------------------------------------------------------------------------------------

CUDA_VARIANTS = [  # (label, kernel tile, lds_limit; None for stock, "defaults" for the default passes)
    ("stock_128x128", (128, 128), None), ("split32k_128x128", (128, 128), 32768),
    ("split16k_128x128", (128, 128), 16384), ("defaults_128x128", (128, 128), "defaults"),
    ("stock_256x128", (256, 128), None), ("split32k_256x128", (256, 128), 32768),
    ("defaults_256x128", (256, 128), "defaults"),
]


def build(out):
    from triton_mfma.examples.kernels import _splitk_sig, splitk_gemm

    os.makedirs(out, exist_ok=True)
    meta = {}
    for label, (bm, bn), limit in CUDA_VARIANTS:
        cx = dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=32, SPLIT_K=1)
        k, remarks = _compile(splitk_gemm, _splitk_sig(), cx, "cuda:90", limit, with_pass=limit is not None)
        open(os.path.join(out, f"{label}.cubin"), "wb").write(k.asm["cubin"])
        if limit is None:
            stock_cubin = k.asm["cubin"]
        meta[label] = dict(name=k.metadata.name, num_warps=k.metadata.num_warps, shared=k.metadata.shared,
                           bm=bm, bn=bn, lds_limit=limit, remarks=remarks,
                           identical_to_stock=k.asm["cubin"] == stock_cubin)
        print(label, "shared", k.metadata.shared, _verdict(remarks) if limit else "", flush=True)
    json.dump(meta, open(os.path.join(out, "split_epilogue_cvt_cuda.json"), "w"), indent=1)


def run(out, results):
    import cupy as cp
    import torch

    meta = json.load(open(os.path.join(out, "split_epilogue_cvt_cuda.json")))
    M = N = K = 4096
    torch.manual_seed(0)
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    w = torch.randn(K, N, device="cuda", dtype=torch.float16)
    ref = a.float() @ w.float()
    report = dict(device=torch.cuda.get_device_name(), M=M, N=N, K=K, variants={})
    outs, launches, bufs = {}, {}, {}
    for label, md in meta.items():
        fn = cp.RawModule(path=os.path.join(out, f"{label}.cubin")).get_function(md["name"])
        if md["shared"] > 48 * 1024:
            fn.max_dynamic_shared_size_bytes = md["shared"]
        c = bufs[label] = torch.zeros(M, N, device="cuda", dtype=torch.float32)  # alive while timed launches write
        i32 = cp.int32
        args = (cp.uint64(a.data_ptr()), cp.uint64(w.data_ptr()), cp.uint64(c.data_ptr()), i32(M), i32(N), i32(K),
                i32(a.stride(0)), i32(a.stride(1)), i32(w.stride(0)), i32(w.stride(1)), i32(c.stride(0)),
                i32(c.stride(1)), cp.uint64(0), cp.uint64(0))
        grid = (N // md["bn"], 1, M // md["bm"])
        block = (32 * md["num_warps"], 1, 1)
        launches[label] = (lambda fn=fn, grid=grid, block=block, args=args, shared=md["shared"]:
                           fn(grid, block, args, shared_mem=shared))
        launches[label]()
        torch.cuda.synchronize()
        outs[label] = c.clone()
        rel = ((c - ref).norm() / ref.norm()).item()
        report["variants"][label] = dict(shared=md["shared"], lds_limit=md["lds_limit"], rel_err=rel,
                                         nan=bool(torch.isnan(outs[label]).any().item()))
    # timing: every variant in turn within each round (drift hits all alike), L2 flushed before each launch
    flush = torch.empty(256 * 1024 * 1024, dtype=torch.uint8, device="cuda")
    times = {label: [] for label in meta}
    for _ in range(30):
        for label in meta:
            flush.zero_()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            launches[label]()
            end.record()
            torch.cuda.synchronize()
            times[label].append(start.elapsed_time(end))
    for label in meta:
        report["variants"][label]["median_ms"] = statistics.median(times[label])
    for label in meta:
        stock = "stock_" + label.split("_", 1)[1]
        report["variants"][label]["bitwise_equal_to_stock"] = bool(torch.equal(outs[label], outs[stock]))
        # median over rounds of the per-round ratio (launches adjacent in time)
        report["variants"][label]["stock_over_this"] = statistics.median(
            s / t for s, t in zip(times[stock], times[label]))
        report["variants"][label]["ok"] = (report["variants"][label]["rel_err"] < 1e-3
                                           and not report["variants"][label]["nan"]
                                           and report["variants"][label]["bitwise_equal_to_stock"])
    os.makedirs(results, exist_ok=True)
    from record import write_json

    write_json(os.path.join(results, "split_epilogue_cvt_gpu.json"), report, indent=1)
    for label, v in report["variants"].items():
        print(f"{label:18s} shared {v['shared']:6d}  rel_err {v['rel_err']:.2e}  bitwise==stock "
              f"{v['bitwise_equal_to_stock']}  {v['median_ms']:.3f} ms  stock/this {v['stock_over_this']:.3f}  "
              f"cubin identical to stock {meta[label]['identical_to_stock']}  ok {v['ok']}")


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "amd"
    if mode == "amd":
        amd(sys.argv[2] if len(sys.argv) > 2 else None)
    elif mode == "build":
        build(sys.argv[2])
    elif mode == "run":
        run(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
