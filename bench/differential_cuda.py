"""Generated kernels (triton_mfma.testing.kernelgen) on the H200 (cuda:90): stock Triton vs the passes that run on cuda,
results compared on the GPU.

    PYTHONPATH=python python bench/differential_cuda.py build --seeds 0..249 OUTDIR   # here: Triton 3.9, no GPU
    python bench/differential_cuda.py run OUTDIR [--out bench/results/differential_cuda]  # on the H200: torch+cupy

`build` compiles each seed for GPUTarget("cuda", 90, 32) with stock Triton, with the defaults as
`triton_mfma.enabled(backends=("hip", "cuda"))` runs them, and with each cuda-capable pass by name
(passes.py: targets include cuda), and writes the cubins (one per distinct binary) and a manifest: the launch
(arguments, grid, block, shared memory) and the tensors each argument needs. Seeds stock Triton rejects for
cuda are dropped. `run` (no Triton needed) makes the inputs with a fixed torch seed, fills every output with NaN
(integers: a sentinel) and launches each binary: every variant must give stock's result bitwise, or within fp
tolerance where the summation order may change (atomics), with NaN exactly where stock leaves NaN; stock
itself is checked against a PyTorch reference for the plain GEMMs (no chain, scan, atomic, dot_scaled).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))

VARIANTS = ("defaults", "mfma-grid-order", "mfma-stream-pipeline", "mfma-split-epilogue-cvt", "mfma-print-layouts")


def launch_plan(s) -> dict:
    """Sizes, argument values and tensors for one launch of kernel `s` (a kernelgen.Spec): what `run` needs."""
    from triton_mfma.testing import kernelgen

    args, cx = kernelgen.signature_spec(s)
    if s.family == "nodot":
        loop_cols = 3 * s.bn if s.dynamic_k else 4 * s.bn  # the columns the kernel's loop visits
        n = loop_cols - 16 if s.mask_mn and s.bn > 16 else loop_cols
        m = 3 * s.bm - 1 if s.mask_mn and s.bm > 1 else 3 * s.bm
        vals = {"M": m, "N": n, "stride": loop_cols, "FLAG": 1}
        tensors = {"X": dict(shape=[m, loop_cols], dtype=s.dtype, role="in"),
                   "Y": dict(shape=[m, loop_cols], dtype="fp32", role="out"),
                   "R": dict(shape=[max(m, 4)], dtype="fp32", role="acc" if s.atomic else "out")}
        if s.atomic == "max":
            tensors["R"]["init"] = "-inf"
        return dict(values=vals, tensors=tensors, grid=[-(-m // s.bm), 1, 1], args=[a for a, _ in args],
                    reference=None)
    bm, bn = s.bm, s.bn
    m = 2 * bm - 16 if s.mask_mn and bm > 16 else 2 * bm
    # one program along N where programs along N would write the same outputs (chain: C is M x BLOCK_N2; the
    # row reduction R), so that the result is defined
    one_n = s.chain or bool(s.reduce)
    n = bn if one_n else (2 * bn - 16 if s.mask_mn and bn > 16 else 2 * bn)
    k = s.k - s.bk // 2 if s.dynamic_k and s.mask_k and s.bk >= 32 else s.k
    scaled = s.dtype == "dot_scaled"
    pa = 2 if scaled and s.formats[0] == "e2m1" else 1
    pb = 2 if scaled and s.formats[1] == "e2m1" else 1
    a_dt = b_dt = s.dtype
    if scaled:
        a_dt, b_dt = ({"e2m1": "u8", "e4m3": "fp8e4nv", "e5m2": "fp8e5", "bf16": "bf16"}[f] for f in s.formats)
    stride_am = m if s.trans_a else k // pa
    stride_bn = k // pb if s.trans_b else n
    out_cols = s.bn2 if s.chain else n
    acc_int = s.dtype == "int8"
    c_dt = "i32" if acc_int else ("fp32" if s.atomic or s.dtype == "fp32" else "fp16")
    tensors = {"A": dict(shape=[k // pa, m] if s.trans_a else [m, k // pa], dtype=a_dt, role="in"),
               "B": dict(shape=[n, k // pb] if s.trans_b else [k // pb, n], dtype=b_dt, role="in"),
               "C": dict(shape=[m, out_cols], dtype=c_dt, role="acc" if s.atomic else "out")}
    if s.atomic == "max":
        tensors["C"]["init"] = "min"
    if scaled:
        tensors["AS"] = dict(shape=[m, k // 32], dtype="u8", role="scale")
        tensors["BS"] = dict(shape=[n, k // 32], dtype="u8", role="scale")
    if s.bias:
        tensors["BIAS"] = dict(shape=[n], dtype="i32" if acc_int else "fp32", role="in")
    if s.chain:
        tensors["W"] = dict(shape=[bn, s.bn2], dtype=b_dt, role="in")
    if s.reduce:
        tensors["R"] = dict(shape=[m], dtype="i32" if acc_int else "fp32", role="out")
    vals = {"M": m, "N": n, "K": k, "stride_am": stride_am, "stride_bn": stride_bn, "stride_cm": out_cols, "FLAG": 1}
    num_m, num_n = -(-m // bm), -(-n // bn)
    grid = [num_m, num_n, 1] if s.grid == "2d" else [num_m * num_n, 1, 1]
    plain = not (scaled or s.chain or s.scan or s.atomic or s.dtype.startswith("fp8"))
    ref = dict(trans_a=s.trans_a, trans_b=s.trans_b, bias=s.bias, relu=s.if_relu, acc_int=acc_int) if plain else None
    return dict(values=vals, tensors=tensors, grid=grid, args=[a for a, _ in args], reference=ref)


def build(seeds, outdir: str) -> None:
    import warnings

    warnings.simplefilter("ignore")
    import triton
    from triton.compiler import ASTSource

    import triton_mfma
    from triton_mfma.testing import kernelgen
    from triton_mfma.compiler.compile import always_compile, target

    os.makedirs(outdir, exist_ok=True)
    manifest = {"triton": triton.__version__, "variants": VARIANTS, "kernels": []}
    kdir = os.path.join(outdir, "src")
    for seed in seeds:
        s = kernelgen.spec(seed)
        entry = dict(seed=seed, what=s.describe(), binaries={}, errors={}, compile_s={})
        try:
            fn, sig, cx, attrs, opts = kernelgen.compile_args(s, kdir, "cuda:90")
        except Exception as e:
            print(seed, "dropped (signature)", e, flush=True)
            continue
        cubins = {}
        for variant in ("stock",) + VARIANTS:
            if variant == "stock":
                ctx = triton_mfma.disabled()
            elif variant == "defaults":
                ctx = triton_mfma.enabled(backends=("hip", "cuda"))
            else:
                ctx = triton_mfma.enabled(passes=[variant], backends=("hip", "cuda"))
            t0 = time.process_time()
            try:
                with always_compile(), ctx:
                    k = triton.compile(ASTSource(fn=fn, signature=sig, constexprs=cx, attrs=attrs),
                                       target=target("cuda:90"), options=opts)
            except Exception as e:
                msg = str(e).strip().splitlines()
                entry["errors"][variant] = f"{type(e).__name__}: {msg[-1] if msg else ''}"[:400]
                if variant == "stock":
                    break
                continue
            entry["compile_s"][variant] = round(time.process_time() - t0, 2)
            blob = k.asm["cubin"]
            key = cubins.get(blob)
            if key is None:
                key = f"s{seed}_{variant.replace('-', '_')}"
                cubins[blob] = key
                with open(os.path.join(outdir, key + ".cubin"), "wb") as f:
                    f.write(blob)
            md = k.metadata
            entry["binaries"][variant] = dict(file=key, name=md.name, num_warps=md.num_warps, shared=md.shared,
                                              global_scratch=getattr(md, "global_scratch_size", 0),
                                              profile_scratch=getattr(md, "profile_scratch_size", 0))
        if "stock" in entry["errors"]:
            print(seed, "dropped (stock rejects it):", entry["errors"]["stock"][:160], flush=True)
            continue
        entry["plan"] = launch_plan(s)
        manifest["kernels"].append(entry)
        print(seed, s.describe(), {v: b["file"] for v, b in entry["binaries"].items()}, entry["errors"] or "",
              flush=True)
        with open(os.path.join(outdir, "manifest.json"), "w") as f:
            json.dump(manifest, f)


# -- on the GPU machine ------------------------------------------------------------------------------------------

TORCH_DT = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16", "int8": "int8", "i32": "int32", "u8": "uint8",
            "fp8e4nv": "float8_e4m3fn", "fp8e5": "float8_e5m2"}


def make_tensor(torch, spec: dict, gen):
    dt = getattr(torch, TORCH_DT[spec["dtype"]])
    shape = spec["shape"]
    if spec["role"] == "scale":
        return torch.randint(122, 132, shape, dtype=torch.uint8, device="cuda", generator=gen)
    if spec["role"] in ("out", "acc"):
        if spec["role"] == "acc":
            if spec.get("init") == "-inf":
                return torch.full(shape, float("-inf"), dtype=dt, device="cuda")
            if spec.get("init") == "min":
                return torch.full(shape, -(2 ** 30), dtype=dt, device="cuda")
            return torch.zeros(shape, dtype=dt, device="cuda")
        if dt.is_floating_point:
            return torch.full(shape, float("nan"), dtype=dt, device="cuda")
        return torch.full(shape, -123456789, dtype=dt, device="cuda")
    if spec["dtype"] in ("int8", "u8"):
        lo, hi = (-8, 8) if spec["dtype"] == "int8" else (0, 256)
        return torch.randint(lo, hi, shape, dtype=dt, device="cuda", generator=gen)
    if spec["dtype"] == "i32":
        return torch.randint(-8, 8, shape, dtype=dt, device="cuda", generator=gen)
    x = torch.randn(shape, device="cuda", generator=gen) * 0.5
    return x.to(dt)


def run(outdir: str, out: str) -> None:
    import cupy as cp
    import torch

    manifest = json.load(open(os.path.join(outdir, "manifest.json")))
    lines = [f"# generated kernels on {torch.cuda.get_device_name()} (cuda:90), cubins from Triton "
             f"{manifest['triton']}: stock vs {', '.join(manifest['variants'])} -- `python bench/differential_cuda.py "
             f"build --seeds ... OUTDIR` here, `python bench/differential_cuda.py run OUTDIR` there"]
    rows, modules = [], {}
    for e in manifest["kernels"]:
        plan = e["plan"]
        results, row = {}, dict(seed=e["seed"], what=e["what"], errors=e["errors"], verdicts={})
        for variant, b in e["binaries"].items():
            gen = torch.Generator(device="cuda")
            gen.manual_seed(1234 + e["seed"])
            tensors = {name: make_tensor(torch, spec, gen) for name, spec in plan["tensors"].items()}
            try:
                mod = modules.get(b["file"]) or cp.RawModule(path=os.path.join(outdir, b["file"] + ".cubin"))
                modules[b["file"]] = mod
                fn = mod.get_function(b["name"])
                if b["shared"] > 48 * 1024:
                    fn.max_dynamic_shared_size_bytes = b["shared"]
                keep = []  # the scratch buffers live until the launch is done
                argv = [cp.uint64(tensors[name].data_ptr()) if name in tensors else cp.int32(plan["values"][name])
                        for name in plan["args"]]
                for size in (b["global_scratch"], b["profile_scratch"]):
                    if size:
                        keep.append(torch.zeros(size * plan["grid"][0] * plan["grid"][1] * plan["grid"][2],
                                                dtype=torch.uint8, device="cuda"))
                    argv.append(cp.uint64(keep[-1].data_ptr() if size else 0))
                fn(tuple(plan["grid"]), (32 * b["num_warps"], 1, 1), tuple(argv), shared_mem=b["shared"])
                torch.cuda.synchronize()
                results[variant] = {n: t.clone() for n, t in tensors.items()
                                    if plan["tensors"][n]["role"] in ("out", "acc")}
                if variant == "stock":
                    inputs = tensors
            except Exception as ex:  # a launch error is a finding of that variant
                row["verdicts"][variant] = f"launch error: {type(ex).__name__}: {str(ex)[:200]}"
                torch.cuda.synchronize()
        if "stock" not in results:
            row["verdicts"]["stock"] = row["verdicts"].get("stock", "no stock result")
            rows.append(row)
            continue
        ref = plan["reference"]
        if ref is not None:
            A, B = inputs["A"], inputs["B"]
            a = (A.t() if ref["trans_a"] else A).to(torch.float64)
            bmat = (B.t() if ref["trans_b"] else B).to(torch.float64)
            want = a @ bmat
            if ref["bias"]:
                want = want + inputs["BIAS"].to(torch.float64)[None, :]
            if ref["relu"]:
                want = want.clamp_min(0)
            got = results["stock"]["C"].to(torch.float64)
            err = ((got - want).norm() / max(want.norm().item(), 1e-9)).item()
            row["reference_rel_err"] = err
            row["verdicts"]["stock"] = "matches reference" if err < 2e-2 and not torch.isnan(got).any() \
                else f"differs from reference: rel err {err:.3g}, NaN {bool(torch.isnan(got).any())}"
        for variant in e["binaries"]:
            if variant == "stock" or variant not in results:
                continue
            v = []
            for name, want in results["stock"].items():
                got = results[variant][name]
                same_nan = torch.equal(torch.isnan(got), torch.isnan(want)) if want.is_floating_point() else True
                if not same_nan:
                    v.append(f"{name}: NaN elsewhere than stock's")
                    continue
                if torch.equal(torch.nan_to_num(got), torch.nan_to_num(want)):
                    continue
                role = plan["tensors"][name]["role"]
                tol = 1e-3 if want.dtype in (torch.float16, torch.bfloat16) else 1e-5
                g, w = torch.nan_to_num(got).double(), torch.nan_to_num(want).double()
                rel = ((g - w).norm() / max(w.norm().item(), 1e-9)).item()
                if role == "acc" and rel < tol:
                    v.append(f"{name}: within tolerance ({rel:.2g}, atomic order)")
                else:
                    v.append(f"{name}: DIFFERS rel {rel:.3g}")
            ident = e["binaries"][variant]["file"].endswith("_stock")
            row["verdicts"][variant] = "; ".join(v) if v else ("identical cubin" if ident else "bitwise equal")
        rows.append(row)
        lines.append(f"{e['seed']:>5} {e['what'][:80]:80} "
                     + " | ".join(f"{k}: {x}" for k, x in row["verdicts"].items()))
    bad = [r for r in rows if any("DIFFERS" in x or "NaN" in x or "error" in x or "differs" in x or "no stock" in x
                                  for x in r["verdicts"].values())]
    launched = sum(len(e["binaries"]) for e in manifest["kernels"])
    lines += ["", f"kernels {len(rows)}, launches {launched}, distinct cubins {len(modules)}; kernels with a "
                  f"difference or error: {len(bad)}; compile errors of ours: "
                  f"{sum(bool(set(r['errors']) - {'stock'}) for r in rows)}"]
    lines += [f"  seed {r['seed']} {r['what']}: {r['verdicts']} {r['errors']}" for r in bad]
    lines += [f"  compile error: seed {r['seed']} {r['what']}: {r['errors']}" for r in rows if r["errors"]]
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out + ".txt", "w") as f:
        f.write("\n".join(lines) + "\n")
    from record import write_json

    write_json(out + ".json", rows, indent=0, default=str)
    print("\n".join(lines[-(len(bad) + 3):]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("build", "run"))
    ap.add_argument("outdir")
    ap.add_argument("--seeds", default="0..9")
    ap.add_argument("--out", default="bench/results/differential_cuda")
    args = ap.parse_args()
    if args.mode == "build":
        from differential import parse_seeds

        build(parse_seeds(args.seeds), args.outdir)
    else:
        run(args.outdir, args.out)


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    main()
