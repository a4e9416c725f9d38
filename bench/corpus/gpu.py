"""A sample of the corpus on an H200: compiled here for cuda:90 (stock and the cuda-capable default passes),
launched there with cupy against PyTorch references, stock vs ours timed interleaved.

    PYTHONPATH=python python bench/corpus/gpu.py build DIR   # here (triton 3.9 + the libraries): cubins + DIR/meta.json
    python3 gpu.py run DIR                                    # on the GPU machine (torch + cupy; no triton needed)

Launch convention (Triton 3.9): the non-constexpr arguments in order (pointers u64, i32, i64, fp32), then the
global and profile scratch pointers (0 when their sizes are 0); block = 32 x num_warps; dynamic shared memory =
metadata.shared. Every output is poisoned (NaN, or -1 for integers) before the checked launch. Timing: per
iteration, stock and ours each launched once (order alternating), the L2 flushed (a 512 MiB write) before each
timed launch, CUDA events around the launch alone; the ratio is the median of per-iteration ours/stock.
"""
from __future__ import annotations

import json
import os
import sys

# sample id -> (grid from the configuration's int arguments, outputs checked). The reference and the inputs
# are in _setup (run side); the configuration (and so the signature) comes from the corpus.
SAMPLES = [
    "liger/rms_norm_fwd/4096/bf16/cast0",
    "liger/layer_norm_fwd/4096/bf16",
    "liger/swiglu_fwd/14336/bf16",
    "liger/geglu_fwd/16384/bf16",
    "liger/softmax_fwd/4096/fp32",
    "liger/rope_fwd/llama3-8b/bf16",
    "flag_gems/mm/4096x4096x4096/fp16/M64N128K128w8s4",
    "flag_gems/addmm/4096x4096x4096/fp16/M64N128K32w4s4",
    "flag_gems/bmm/16x1024x1024x128/fp16/M128N128K32GROUP_M2w4s3",
    "flag_gems/sdpa_fwd/H16-16S2048D64/bf16/M128N32PRE_LOAD_V0w8s4",
    "flag_gems/softmax_inner/N4096/fp16",
    "flag_gems/rms_norm/N4096/bf16",
    "flag_gems/layer_norm_persistent/N4096/fp16/w4s2",
    "fla/cumsum_scalar/qwen3-next/w1s3",
]
ROWS = 4096  # rows of the row-wise kernels (their grid; never in a signature)


def build(outdir: str) -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    import warnings

    import harness
    import run as corpus_run
    import triton_mfma
    from triton import knobs

    os.makedirs(outdir, exist_ok=True)
    cfgs, errors = corpus_run.load()
    assert not errors, errors
    by_id = {c.id: c for c in cfgs}
    knobs.compilation.always_compile = True
    meta = []
    for sid in SAMPLES:
        cfg = by_id[sid]
        args, _ = harness.resolve(cfg, "cuda:90")
        sig, constexprs, _ = harness.build(cfg, "cuda:90", args)
        fn = harness.unwrap(cfg.fn)
        params = []
        for name in fn.arg_names:
            t = sig[name]
            if t == "constexpr":
                continue
            v = args[name]
            params.append({"name": name, "type": t, "value": None if t.startswith("*") else v})
        ints = {k: (v.value if isinstance(v, harness.C) else v) for k, v in args.items()
                if isinstance(v.value if isinstance(v, harness.C) else v, (int, float, bool, str))}
        entry = {"id": sid, "mirrors": cfg.mirrors, "params": params, "args": ints, "variants": {}}
        for variant in ("stock", "ours"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", triton_mfma.MFMARemark)
                if variant == "ours":
                    with triton_mfma.enabled(strict=True):
                        k = harness.compile_cfg(cfg, "cuda:90")
                else:
                    triton_mfma.disable()
                    k = harness.compile_cfg(cfg, "cuda:90")
            fname = sid.replace("/", "__") + f".{variant}.cubin"
            with open(os.path.join(outdir, fname), "wb") as f:
                f.write(k.asm["cubin"])
            md = k.metadata
            entry["variants"][variant] = {
                "cubin": fname, "name": md.name, "num_warps": md.num_warps, "shared": md.shared,
                "global_scratch_size": getattr(md, "global_scratch_size", 0) or 0,
                "profile_scratch_size": getattr(md, "profile_scratch_size", 0) or 0,
                "figures": harness.dataclasses.asdict(harness.figures(k, "cuda:90"))}
        same = open(os.path.join(outdir, entry["variants"]["stock"]["cubin"]), "rb").read() == \
            open(os.path.join(outdir, entry["variants"]["ours"]["cubin"]), "rb").read()
        entry["identical_cubin"] = same
        meta.append(entry)
        print(f"built {sid}: shared {entry['variants']['stock']['shared']}/{entry['variants']['ours']['shared']}, "
              f"identical cubin: {same}", flush=True)
    with open(os.path.join(outdir, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    import shutil
    shutil.copy(os.path.abspath(__file__), os.path.join(outdir, "gpu.py"))


# ------------------------------------------------------------------------------------------------- GPU side

def _setup(sid, a, torch):
    """(tensors by parameter name, grid, {output name: reference}, tolerance) for one sample."""
    F = torch.nn.functional
    dev = "cuda"
    g = torch.Generator(device=dev).manual_seed(0)
    rn = lambda *s, dt=torch.float32: torch.randn(*s, device=dev, dtype=torch.float32, generator=g).to(dt)  # noqa: E731
    empty = lambda *s, dt: torch.empty(*s, device=dev, dtype=dt)  # noqa: E731
    bf, f16, f32 = torch.bfloat16, torch.float16, torch.float32
    if sid.startswith("liger/rms_norm_fwd"):
        n = a["n_cols"]
        X, W = rn(ROWS, n, dt=bf), rn(n, dt=bf)
        rstd = torch.rsqrt(X.float().pow(2).mean(-1, keepdim=True) + a["eps"])
        ref = (X.float() * rstd).to(bf) * (a["offset"] + W)
        return ({"Y_ptr": empty(ROWS, n, dt=bf), "X_ptr": X, "W_ptr": W, "RSTD_ptr": empty(ROWS, dt=f32)},
                (ROWS,), {"Y_ptr": ref, "RSTD_ptr": rstd.squeeze(-1)}, 2e-2)
    if sid.startswith("liger/layer_norm_fwd"):
        n = a["n_cols"]
        X, W, B = rn(ROWS, n, dt=bf), rn(n, dt=bf), rn(n, dt=bf)
        ref = F.layer_norm(X.float(), (n,), W.float(), B.float(), a["eps"])
        return ({"Y_ptr": empty(ROWS, n, dt=bf), "X_ptr": X, "W_ptr": W, "B_ptr": B, "Mean_ptr": empty(ROWS, dt=f32),
                 "RSTD_ptr": empty(ROWS, dt=f32)}, (ROWS,), {"Y_ptr": ref, "Mean_ptr": X.float().mean(-1)}, 3e-2)
    if sid.startswith("liger/swiglu_fwd"):
        n = a["n_cols"]
        A, B = rn(ROWS, n, dt=bf), rn(ROWS, n, dt=bf)
        return ({"a_ptr": A, "b_ptr": B, "c_ptr": empty(ROWS, n, dt=bf)}, (ROWS,),
                {"c_ptr": F.silu(A.float()).to(bf) * B}, 2e-2)
    if sid.startswith("liger/geglu_fwd"):
        n = a["n_cols"]
        A, B = rn(ROWS, n, dt=bf), rn(ROWS, n, dt=bf)
        return ({"a": A, "b": B, "c": empty(ROWS, n, dt=bf)}, (ROWS,),
                {"c": F.gelu(A.float(), approximate="tanh").to(bf) * B}, 2e-2)
    if sid.startswith("liger/softmax_fwd"):
        n = a["n_cols"]
        X = rn(ROWS, n)
        return {"Y_ptr": empty(ROWS, n, dt=f32), "X_ptr": X}, (ROWS,), {"Y_ptr": torch.softmax(X, -1)}, 1e-5
    if sid.startswith("liger/rope_fwd"):
        bs, sl, nq, nk, hd = a["bs"], a["sl"], a["n_qh"], a["n_kh"], a["hd"]
        q, k = rn(bs, sl, nq, hd, dt=bf), rn(bs, sl, nk, hd, dt=bf)
        pos = torch.arange(sl, device=dev, dtype=f32)
        inv = 1.0 / (10000 ** (torch.arange(0, hd, 2, device=dev, dtype=f32) / hd))
        fr = torch.outer(pos, inv)
        emb = torch.cat([fr, fr], -1)
        cos, sin = emb.cos().to(bf)[None], emb.sin().to(bf)[None]

        def rot(x):
            x1, x2 = x[..., : hd // 2], x[..., hd // 2:]
            xf = x.float()
            r = torch.cat([-x2.float(), x1.float()], -1)
            return (xf * cos.float()[:, :, None] + r * sin.float()[:, :, None])
        return ({"q_ptr": q, "k_ptr": k, "cos": cos.contiguous(), "sin": sin.contiguous()}, (bs * sl,),
                {"q_ptr": rot(q), "k_ptr": rot(k)}, 3e-2)
    if sid.startswith("flag_gems/mm/"):
        M, N, K = a["M"], a["N"], a["K"]
        A, B = rn(M, K, dt=f16), rn(K, N, dt=f16)
        grid = (-(-M // a["BLOCK_M"]) * -(-N // a["BLOCK_N"]),)
        return {"A": A, "B": B, "C": empty(M, N, dt=f16)}, grid, {"C": A.float() @ B.float()}, 1e-2
    if sid.startswith("flag_gems/addmm/"):
        M, N, K = a["M"], a["N"], a["K"]
        A, B, bias = rn(M, K, dt=f16), rn(K, N, dt=f16), rn(N, dt=f16)
        grid = (-(-M // a["BLOCK_SIZE_M"]), -(-N // a["BLOCK_SIZE_N"]))
        return ({"a_ptr": A, "b_ptr": B, "i_ptr": bias, "c_ptr": empty(M, N, dt=f16)}, grid,
                {"c_ptr": a["alpha"] * (A.float() @ B.float()) + a["beta"] * bias.float()}, 1e-2)
    if sid.startswith("flag_gems/bmm/"):
        M, N, K = a["M"], a["N"], a["K"]
        Bt = 16  # the configuration's batch (bmm/16x1024x1024x128); not an argument of the kernel
        A, B = rn(Bt, M, K, dt=f16), rn(Bt, K, N, dt=f16)
        grid = (-(-M // a["TILE_M"]), -(-N // a["TILE_N"]), Bt)
        return {"A": A, "B": B, "O": empty(Bt, M, N, dt=f16)}, grid, {"O": A.float() @ B.float()}, 1e-2
    if sid.startswith("flag_gems/sdpa_fwd/"):
        Z, H, S, D = a["Z"], a["q_head_num"], a["Q_CTX"], a["HEAD_DIM"]
        q, k, v = rn(Z, H, S, D, dt=bf), rn(Z, H, S, D, dt=bf), rn(Z, H, S, D, dt=bf)
        ref = F.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=a["STAGE"] == 3)
        grid = (-(-S // a["BLOCK_M"]), Z * H, 1)
        return ({"Q": q, "K": k, "V": v, "M": empty(Z, H, S, dt=f32), "Out": empty(Z, H, S, D, dt=bf)}, grid,
                {"Out": ref}, 2e-2)
    if sid.startswith("flag_gems/softmax_inner/"):
        M, N = a["M"], a["N"]
        X = rn(M, N, dt=f16)
        return {"output_ptr": empty(M, N, dt=f16), "input_ptr": X}, (M, 1, 1), {"output_ptr": torch.softmax(X.float(), -1)}, 1e-3
    if sid.startswith("flag_gems/rms_norm/"):
        N = a["N"]
        X, W = rn(ROWS, N, dt=bf), rn(N, dt=bf)
        inv = torch.rsqrt(X.float().pow(2).mean(-1) + a["eps"])
        return ({"out_ptr": empty(ROWS, N, dt=bf), "INV_RMS": empty(ROWS, dt=f32), "in_ptr": X, "w_ptr": W}, (ROWS,),
                {"out_ptr": X.float() * inv[:, None] * W.float(), "INV_RMS": inv}, 3e-2)
    if sid.startswith("flag_gems/layer_norm_persistent/"):
        M, N = a["M"], a["N"]
        X, W, B = rn(M, N, dt=f16), rn(N, dt=f16), rn(N, dt=f16)
        return ({"in_ptr": X, "out_ptr": empty(M, N, dt=f16), "weight_ptr": W, "bias_ptr": B,
                 "out_mean_ptr": empty(M, dt=f32), "out_rstd_ptr": empty(M, dt=f32)}, (M, 1, 1),
                {"out_ptr": F.layer_norm(X.float(), (N,), W.float(), B.float(), a["eps"])}, 1e-2)
    if sid.startswith("fla/cumsum_scalar/"):
        B, T, H, BT = a["B"], a["T"], a["H"], a["BT"]
        s = rn(B, T, H)
        ref = s.view(B, T // BT, BT, H).cumsum(2).view(B, T, H)
        return {"s": s, "o": empty(B, T, H, dt=f32)}, (T // BT * B * H,), {"o": ref}, 1e-4
    raise KeyError(sid)


def run(d: str) -> None:
    import cupy as cp
    import torch

    meta = json.load(open(os.path.join(d, "meta.json")))
    flush = torch.empty(512 * 1024 * 1024 // 4, device="cuda", dtype=torch.float32)
    results = []
    print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}, cupy {cp.__version__}")
    for e in meta:
        sid, a = e["id"], e["args"]
        fns = {}
        for variant, v in e["variants"].items():
            mod = cp.RawModule(path=os.path.join(d, v["cubin"]))
            fn = mod.get_function(v["name"])
            if v["shared"] > 48 * 1024:
                fn.max_dynamic_shared_size_bytes = v["shared"]
            fns[variant] = (mod, fn, v)
        tensors, grid, refs, tol = _setup(sid, a, torch)
        grid = tuple(grid) + (1,) * (3 - len(grid))
        inputs0 = {k: t.clone() for k, t in tensors.items()}

        def launch(variant, ts):
            _, fn, v = fns[variant]
            scratch = []
            for key in ("global_scratch_size", "profile_scratch_size"):
                size = v[key]
                scratch.append(cp.uint64(torch.empty(size * grid[0] * grid[1] * grid[2], device="cuda",
                                                     dtype=torch.uint8).data_ptr()) if size else cp.uint64(0))
            params = []
            for p in e["params"]:
                t = p["type"]
                if t.startswith("*"):
                    params.append(cp.uint64(ts[p["name"]].data_ptr()))
                elif t == "i32":
                    params.append(cp.int32(p["value"]))
                elif t == "i64":
                    params.append(cp.int64(p["value"]))
                elif t == "fp32":
                    params.append(cp.float32(p["value"]))
                else:
                    raise TypeError(f"{sid}: parameter {p['name']} of type {t}")
            fn(grid, (32 * v["num_warps"], 1, 1), tuple(params) + tuple(scratch), shared_mem=v["shared"])

        row = {"id": sid, "mirrors": e["mirrors"], "identical_cubin": e["identical_cubin"], "grid": grid}
        for variant in ("stock", "ours"):
            ts = {k: t.clone() for k, t in inputs0.items()}
            for name in refs:  # poison the outputs (in-place kernels: only where they are pure outputs)
                if name in ("q_ptr", "k_ptr"):
                    continue
                ts[name].fill_(float("nan") if ts[name].is_floating_point() else -1)
            launch(variant, ts)
            torch.cuda.synchronize()
            errs = {}
            for name, ref in refs.items():
                got = ts[name].float().reshape(ref.shape)
                ref = ref.float()
                err = ((got - ref).abs().max() / ref.abs().max().clamp_min(1e-6)).item()
                errs[name] = {"rel_max_err": err, "nan": bool(torch.isnan(got).any().item())}
            ok = all(x["rel_max_err"] <= tol and not x["nan"] for x in errs.values())
            row[variant] = {"errors": errs, "ok": ok, "ts": ts}
        bitwise = all(torch.equal(row["stock"]["ts"][n], row["ours"]["ts"][n]) for n in refs)
        for variant in ("stock", "ours"):
            row[variant].pop("ts")
        row["bitwise_equal_outputs"] = bitwise
        # timing, interleaved
        ts = {k: t.clone() for k, t in inputs0.items()}
        for variant in ("stock", "ours"):
            for _ in range(3):
                launch(variant, ts)
        times = {"stock": [], "ours": []}
        ev = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
        for it in range(30):
            order = ("stock", "ours") if it % 2 == 0 else ("ours", "stock")
            for variant in order:
                flush.fill_(it)
                ev[0].record()
                launch(variant, ts)
                ev[1].record()
                torch.cuda.synchronize()
                times[variant].append(ev[0].elapsed_time(ev[1]) * 1000.0)
        ratios = sorted(o / s for s, o in zip(times["stock"], times["ours"]))
        med = lambda xs: sorted(xs)[len(xs) // 2]  # noqa: E731
        row.update(us_stock=med(times["stock"]), us_ours=med(times["ours"]), ratio=ratios[len(ratios) // 2])
        results.append(row)
        print(f"{sid:62} numerics stock {'ok' if row['stock']['ok'] else 'BAD'} ours {'ok' if row['ours']['ok'] else 'BAD'}"
              f" (max rel err {max(x['rel_max_err'] for x in row['ours']['errors'].values()):.1e}), bitwise equal "
              f"{bitwise}, identical cubin {e['identical_cubin']}; {row['us_stock']:.1f} us vs {row['us_ours']:.1f} us,"
              f" ratio ours/stock {row['ratio']:.3f}", flush=True)
    out = os.environ.get("OUT", d)
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # bench/: its record helper
    from record import write_json

    write_json(os.path.join(out, "corpus_gpu.json"),
               {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "results": results},
               indent=1, default=str)


if __name__ == "__main__":
    {"build": build, "run": run}[sys.argv[1]](sys.argv[2])
