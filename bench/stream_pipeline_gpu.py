"""mfma-stream-pipeline on an NVIDIA H200: semantics against an fp32 PyTorch reference, and timing of
stock Triton vs triton-mfma, side by side in one run.

    python bench/stream_pipeline_gpu.py build out/issue5/gpu   # here (Triton 3.9, no GPU): cubins + manifest
    python bench/stream_pipeline_gpu.py run out/issue5/gpu     # on the H200 (torch + cupy, no Triton needed)

`build` compiles every kernel for cuda:90 four ways: stock Triton (its default num_stages=3), stock
with num_stages=2, the project's default passes as `enabled(backends=("hip", "cuda"))` runs them (the stream
pipeliner declines on cuda unless named; whether the cubin is byte-identical to stock is recorded), and with
`mfma-stream-pipeline` named (which replaces Triton's pipeliner), each as the
corpus compiles it ("plain": every int a run-time i32, no alignment known) and, for the timed kernels,
specialised the way Triton's JIT would for aligned contiguous tensors ("aligned": pointers and
multiples of 16 marked divisible by 16, unit strides constexpr 1).

`run` launches the cubins with cupy (parameters: the non-constexpr arguments, then the two u64
scratch pointers), on fp16 inputs, against torch in fp32: relative Frobenius error <= 1e-2, the output
poisoned with NaN beforehand and fully written (no NaN left in it, and the NaN guard around it
untouched, i.e. no write out of bounds). The split-K kernel accumulates with atomics, so its output
starts at 0 (a tile it skipped would then show up as an error) inside a NaN guard. Then it times the
GEMM and split-K decode kernels, stock and ours alternating in the same process, and prints ratios.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

GEMM_TILE = dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=32)
SPLITK = dict(BLOCK_M=16, BLOCK_N=64, BLOCK_K=64, SPLIT_K=4)
# defaults = what `enabled(backends=("hip", "cuda"))` runs on cuda (every default pass; each decides per kernel)
MODES = {"stock": dict(), "stock_ns2": dict(num_stages=2), "defaults": dict(), "ours": dict()}

# ---------------------------------------------------------------------------------------------- build


def _kernels():
    from triton_mfma.examples import CORPUS
    from triton_mfma.examples.pipeline_kernels import PIPELINE_CORPUS

    k = dict(CORPUS)
    k.update(PIPELINE_CORPUS)
    return k


# kernel -> which int arguments are unit strides (constexpr 1 when aligned) and which are multiples of 16
ALIGNED = {
    "gemm": (("stride_ak", "stride_bn", "stride_cn"), ("M", "N", "K", "stride_am", "stride_bk", "stride_cm")),
    "splitk_gemm": (("stride_ak", "stride_wn", "stride_cn"), ("M", "N", "K", "stride_am", "stride_wk", "stride_cm")),
    "attn_fwd_d64": ((), ("N_CTX", "stride_qh", "stride_qm", "stride_kh", "stride_kn", "stride_vh", "stride_vn",
                          "stride_oh", "stride_om")),
}
ALIGNED["attn_fwd_d64_causal"] = ALIGNED["attn_fwd_d128"] = ALIGNED["attn_fwd_d128_causal"] = ALIGNED["attn_fwd_d64"]

BUILDS = [  # (kernel, specialisation)
    ("gemm", "plain"), ("gemm", "aligned"), ("splitk_gemm", "plain"), ("splitk_gemm", "aligned"),
    ("attn_fwd_d64", "plain"), ("attn_fwd_d64_causal", "plain"), ("attn_fwd_d128", "plain"),
    ("attn_fwd_d128_causal", "plain"), ("attn_fwd_d64", "aligned"), ("attn_fwd_d128_causal", "aligned"),
    ("gemm_in_if", "plain"), ("gemm_iv_offsets", "plain"), ("gemm_store_in_loop", "plain"),
    ("gemm", "tile64x128x64w8"),
]
# specialisations that change the tile / warps instead of alignment: spec -> (constexprs, options)
RETILE = {"tile64x128x64w8": (dict(BLOCK_M=64, BLOCK_N=128, BLOCK_K=64), dict(num_warps=8))}


def _specialise(sig, constexprs, spec, kernel):
    sig, constexprs, attrs = dict(sig), dict(constexprs), {}
    if spec in RETILE:
        constexprs.update(RETILE[spec][0])
    if spec == "aligned":
        unit, div16 = ALIGNED[kernel]
        for name in unit:
            sig[name] = "constexpr"
            constexprs[name] = 1
        names = list(sig)
        for i, name in enumerate(names):
            if sig[name].startswith("*") or name in div16:
                attrs[(i,)] = [["tt.divisibility", 16]]
    return sig, constexprs, attrs


def build(outdir):
    import warnings

    import triton
    from triton.compiler import ASTSource

    import triton_mfma
    from triton_mfma import MFMARemark
    from triton_mfma.compiler.compile import always_compile, target
    from triton_mfma.models.loop_order import main_loop_order
    from triton_mfma.composition.remarks import body

    os.makedirs(outdir, exist_ok=True)
    kernels = _kernels()
    manifest = {"triton": triton.__version__, "entries": []}
    with always_compile():
        for kernel, spec in BUILDS:
            fn, sig0, cx0 = kernels[kernel]
            sig, cx, attrs = _specialise(sig0, cx0, spec, kernel)
            for mode, options in MODES.items():
                options = dict(options, **(RETILE[spec][1] if spec in RETILE else {}))
                activation = (dict(passes=["mfma-stream-pipeline"]) if mode == "ours" else
                              dict(backends=("hip", "cuda")) if mode == "defaults" else None)
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    if activation:
                        with triton_mfma.enabled(strict=True, **activation):
                            k = triton.compile(ASTSource(fn=fn, signature=sig, constexprs=cx, attrs=attrs),
                                               target=target("cuda:90"), options=dict(options))
                    else:
                        triton_mfma.disable()
                        k = triton.compile(ASTSource(fn=fn, signature=sig, constexprs=cx, attrs=attrs),
                                           target=target("cuda:90"), options=dict(options))
                remarks = [body(str(w.message)) for w in caught if issubclass(w.category, MFMARemark)]
                md = k.metadata
                assert md.global_scratch_size == 0 and getattr(md, "profile_scratch_size", 0) == 0, kernel
                key = f"{kernel}.{spec}.{mode}"
                with open(os.path.join(outdir, key + ".cubin"), "wb") as f:
                    f.write(k.asm["cubin"])
                if mode == "stock":
                    stock_cubin = k.asm["cubin"]
                order = main_loop_order(k.asm["ptx"])
                manifest["entries"].append(dict(identical_to_stock=k.asm["cubin"] == stock_cubin,
                    key=key, kernel=kernel, spec=spec, mode=mode, name=md.name, num_warps=md.num_warps,
                    shared=md.shared, params=[[n, t] for n, t in sig.items() if t != "constexpr"],
                    constexprs={n: v for n, v in cx.items()}, remarks=remarks,
                    main_loop=order.summary() if order else None))
                same = " (cubin identical to stock)" if mode != "stock" and k.asm["cubin"] == stock_cubin else ""
                print(f"{key:40s} shared={md.shared:6d} loop: {order.summary() if order else '-'}{same}")
                for r in remarks:
                    print("    " + r[:160])
    with open(os.path.join(outdir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


# ------------------------------------------------------------------------------------------------ run


class Runner:
    def __init__(self, outdir):
        import cupy as cp
        import torch

        self.cp, self.torch = cp, torch
        self.outdir = outdir
        with open(os.path.join(outdir, "manifest.json")) as f:
            self.manifest = json.load(f)
        self.entries = {e["key"]: e for e in self.manifest["entries"]}
        self.functions = {}
        self.results = []
        self.failures = 0

    def fn(self, key):
        if key not in self.functions:
            e = self.entries[key]
            mod = self.cp.RawModule(path=os.path.join(self.outdir, key + ".cubin"))
            f = mod.get_function(e["name"])
            if e["shared"] > 48 * 1024:
                f.max_dynamic_shared_size_bytes = e["shared"]
            self.functions[key] = (mod, f)
        return self.functions[key][1]

    def launch(self, key, grid, args: dict):
        cp = self.cp
        e = self.entries[key]
        vals = []
        for name, ty in e["params"]:
            v = args[name]
            if ty.startswith("*"):
                vals.append(cp.uint64(v.data_ptr()))
            elif ty == "fp32":
                vals.append(cp.float32(v))
            else:
                vals.append(cp.int32(v))
        vals += [cp.uint64(0), cp.uint64(0)]
        self.fn(key)(tuple(max(1, g) for g in grid), (32 * e["num_warps"], 1, 1), tuple(vals), shared_mem=e["shared"])

    # -- helpers
    def guarded(self, rows, cols, dtype, fill):
        """A (rows, cols) view inside a NaN guard of 2 rows above and below and 8 columns left and right,
        filled with `fill`. Row stride cols + 16 and a 16-byte aligned start keep the "aligned" kernels'
        divisibility assumptions true when cols is a multiple of 16."""
        t = self.torch
        buf = t.full((rows + 4, cols + 16), float("nan"), device="cuda", dtype=dtype)
        view = buf[2:2 + rows, 8:8 + cols]
        view.fill_(fill)
        return buf, view

    def check(self, label, key, out_buf, out, ref, tol=1e-2):
        t = self.torch
        t.cuda.synchronize()
        o = out.float()
        finite = bool(t.isfinite(o).all())
        guard = out_buf.clone()
        guard[2:2 + out.shape[0], 8:8 + out.shape[1]] = float("nan")
        guard_ok = bool(t.isnan(guard.float()).all())
        ref_norm = ref.norm().item()
        err = (o - ref).norm().item() / ref_norm if ref_norm > 0 else (o - ref).abs().max().item()
        ok = finite and guard_ok and err <= tol
        self.failures += not ok
        mode = key.rsplit(".", 1)[1]
        if mode == "stock":
            self.stock_out = out.clone()
        bitwise = bool(t.equal(out, self.stock_out)) if mode != "stock" else True
        self.results.append(dict(case=label, key=key, rel_err=err, fully_written=finite, guard_intact=guard_ok,
                                 ok=ok, bitwise_equal_to_stock=bitwise))
        print(f"{'ok  ' if ok else 'FAIL'} {label:58s} {key.split('.', 1)[1]:18s} rel_err={err:.2e} "
              f"written={finite} guard={guard_ok} bitwise={bitwise}")

    # -- kernels
    def gemm(self, kernel, spec, M, N, K, b_trans=False, extra=None, label=None):
        t = self.torch
        a = t.randn(M, K, device="cuda", dtype=t.float16)
        b = t.randn(N, K, device="cuda", dtype=t.float16).t() if b_trans else t.randn(K, N, device="cuda",
                                                                                        dtype=t.float16)
        ref = a.float() @ b.float()
        if extra and extra.get("flag") == 0:
            ref = t.zeros_like(ref)
        for mode in MODES:
            key = f"{kernel}.{spec}.{mode}"
            buf, c = self.guarded(M, N, t.float16, float("nan"))
            args = dict(a_ptr=a, b_ptr=b, c_ptr=c, M=M, N=N, K=K, stride_am=a.stride(0), stride_ak=a.stride(1),
                        stride_bk=b.stride(0), stride_bn=b.stride(1), stride_cm=c.stride(0), stride_cn=c.stride(1))
            args.update(extra or {})
            cx = self.entries[key]["constexprs"]
            self.launch(key, (math.ceil(M / cx["BLOCK_M"]), math.ceil(N / cx["BLOCK_N"]), 1), args)
            self.check(label or f"{kernel} M={M} N={N} K={K}{' B^T' if b_trans else ''}", key, buf, c, ref)

    def splitk(self, spec, M, N, K):
        t = self.torch
        a = t.randn(M, K, device="cuda", dtype=t.float16)
        w = t.randn(K, N, device="cuda", dtype=t.float16)
        ref = a.float() @ w.float()
        for mode in MODES:
            key = f"splitk_gemm.{spec}.{mode}"
            buf, c = self.guarded(M, N, t.float32, 0.0)
            args = dict(a_ptr=a, w_ptr=w, c_ptr=c, M=M, N=N, K=K, stride_am=a.stride(0), stride_ak=a.stride(1),
                        stride_wk=w.stride(0), stride_wn=w.stride(1), stride_cm=c.stride(0), stride_cn=c.stride(1))
            self.launch(key, (math.ceil(N / SPLITK["BLOCK_N"]), SPLITK["SPLIT_K"], math.ceil(M / SPLITK["BLOCK_M"])),
                        args)
            self.check(f"splitk_gemm M={M} N={N} K={K}", key, buf, c, ref)

    def attention(self, kernel, spec, H, n_ctx, d, causal):
        t = self.torch
        q, k, v = (t.randn(H, n_ctx, d, device="cuda", dtype=t.float16) for _ in range(3))
        scale = 1.0 / math.sqrt(d)
        s = (q.float() @ k.float().transpose(1, 2)) * scale
        if causal:
            s = s.masked_fill(t.ones(n_ctx, n_ctx, device="cuda", dtype=t.bool).triu(1), float("-inf"))
        ref = (t.softmax(s, dim=-1) @ v.float()).reshape(H * n_ctx, d)
        for mode in MODES:
            key = f"{kernel}.{spec}.{mode}"
            buf, o2 = self.guarded(H * n_ctx, d, t.float16, float("nan"))  # rows = (head, position)
            args = dict(q_ptr=q, k_ptr=k, v_ptr=v, o_ptr=o2, sm_scale=scale, N_CTX=n_ctx,
                        stride_qh=q.stride(0), stride_qm=q.stride(1), stride_kh=k.stride(0), stride_kn=k.stride(1),
                        stride_vh=v.stride(0), stride_vn=v.stride(1), stride_oh=n_ctx * o2.stride(0),
                        stride_om=o2.stride(0))
            self.launch(key, (math.ceil(n_ctx / 128), H, 1), args)
            self.check(f"{kernel} H={H} N_CTX={n_ctx}", key, buf, o2, ref)

    # -- timing
    def time_modes(self, label, kernel, spec, make_args, grid, flops=None, bytes_moved=None, rounds=7, reps=20):
        t = self.torch
        keys = [f"{kernel}.{spec}.{m}" for m in MODES]
        args = make_args()
        for key in keys:  # warm up (module load, clocks)
            for _ in range(3):
                self.launch(key, grid, args)
        t.cuda.synchronize()
        per = {k: [] for k in keys}
        for _ in range(rounds):
            for key in keys:  # alternate, so drift hits all modes alike
                start, end = t.cuda.Event(enable_timing=True), t.cuda.Event(enable_timing=True)
                start.record()
                for _ in range(reps):
                    self.launch(key, grid, args)
                end.record()
                end.synchronize()
                per[key].append(start.elapsed_time(end) / reps)
        med = {k: sorted(v)[len(v) // 2] for k, v in per.items()}
        base = med[keys[0]]
        row = dict(case=label, spec=spec)
        for key in keys:
            mode = key.rsplit(".", 1)[1]
            ms = med[key]
            row[mode + "_ms"] = ms
            extra = ""
            if flops:
                row[mode + "_tflops"] = flops / ms / 1e9
                extra = f"{flops / ms / 1e9:7.1f} TFLOP/s"
            if bytes_moved:
                row[mode + "_gbs"] = bytes_moved / ms / 1e6
                extra = f"{bytes_moved / ms / 1e6:7.0f} GB/s"
            print(f"  {label:44s} {spec:8s} {mode:10s} {ms * 1e3:9.1f} us {extra}  stock/this = {base / ms:5.2f}")
        row["ratio_stock_over_ours"] = base / med[keys[-1]]
        row["ratio_stock_over_defaults"] = base / med[f"{kernel}.{spec}.defaults"]
        row["ratio_stock_ns2_over_ours"] = med[keys[1]] / med[keys[-1]]
        self.results.append(row)


def part_gemm(r):
    for M, N, K in [(128, 128, 32), (100, 70, 17), (1, 1, 1), (64, 256, 0), (257, 129, 300), (300, 200, 64),
                    (512, 512, 512), (1000, 1000, 1000), (129, 257, 33)]:
        r.gemm("gemm", "plain", M, N, K)
    r.gemm("gemm", "plain", 384, 320, 200, b_trans=True)
    for M, N, K in [(512, 1024, 2048), (256, 256, 1040), (4096, 4096, 4096)]:
        r.gemm("gemm", "aligned", M, N, K)
    for flag in (1, 0):
        r.gemm("gemm_in_if", "plain", 300, 200, 100, extra=dict(flag=flag),
               label=f"gemm_in_if flag={flag} M=300 N=200 K=100")
    for M, N, K in [(300, 200, 100), (128, 128, 31), (64, 64, 0)]:
        r.gemm("gemm_iv_offsets", "plain", M, N, K)
    r.gemm("gemm_store_in_loop", "plain", 300, 200, 100)
    for M, N, K in [(300, 200, 100), (64, 128, 64), (65, 129, 65), (1024, 512, 1000)]:
        r.gemm("gemm", "tile64x128x64w8", M, N, K)


def part_splitk(r):
    for M, N, K in [(1, 4096, 4096), (5, 4000, 4100), (16, 8192, 1024), (33, 512, 96), (8, 256, 64)]:
        r.splitk("plain", M, N, K)
    for M, N, K in [(16, 8192, 8192), (32, 4096, 4096)]:
        r.splitk("aligned", M, N, K)


def part_attention(r):
    for kernel in ("attn_fwd_d64", "attn_fwd_d64_causal", "attn_fwd_d128", "attn_fwd_d128_causal"):
        d = 64 if "d64" in kernel else 128
        causal = "causal" in kernel
        for n_ctx in (64, 192, 1024):
            r.attention(kernel, "plain", 4, n_ctx, d, causal)
    for kernel in ("attn_fwd_d64", "attn_fwd_d128_causal"):
        r.attention(kernel, "aligned", 8, 2048, 64 if "d64" in kernel else 128, "causal" in kernel)


def part_timing(r):
    t = r.torch
    print("== timing (median of 7 rounds x 20 launches; stock = Triton 3.9 default num_stages=3)")

    def gemm_args(M, N, K):
        def make():
            a = t.randn(M, K, device="cuda", dtype=t.float16)
            b = t.randn(K, N, device="cuda", dtype=t.float16)
            c = t.empty(M, N, device="cuda", dtype=t.float16)
            return dict(a_ptr=a, b_ptr=b, c_ptr=c, M=M, N=N, K=K, stride_am=K, stride_ak=1, stride_bk=N,
                        stride_bn=1, stride_cm=N, stride_cn=1)
        return make

    def splitk_args(M, N, K):
        def make():
            a = t.randn(M, K, device="cuda", dtype=t.float16)
            w = t.randn(K, N, device="cuda", dtype=t.float16)
            c = t.zeros(M, N, device="cuda", dtype=t.float32)
            return dict(a_ptr=a, w_ptr=w, c_ptr=c, M=M, N=N, K=K, stride_am=K, stride_ak=1, stride_wk=N,
                        stride_wn=1, stride_cm=N, stride_cn=1)
        return make

    def attn_args(H, n_ctx, d):
        def make():
            q, k, v = (t.randn(H, n_ctx, d, device="cuda", dtype=t.float16) for _ in range(3))
            o = t.empty(H, n_ctx, d, device="cuda", dtype=t.float16)
            return dict(q_ptr=q, k_ptr=k, v_ptr=v, o_ptr=o, sm_scale=d ** -0.5, N_CTX=n_ctx,
                        stride_qh=n_ctx * d, stride_qm=d, stride_kh=n_ctx * d, stride_kn=d, stride_vh=n_ctx * d,
                        stride_vn=d, stride_oh=n_ctx * d, stride_om=d)
        return make

    for repeat in range(3):  # the whole set three times: how stable the ratios are
        print(f"-- repeat {repeat + 1}/3")
        for spec in ("aligned", "plain"):
            M = N = K = 4096
            r.time_modes(f"gemm {M}x{N}x{K} fp16", "gemm", spec, gemm_args(M, N, K), (M // 128, N // 128, 1),
                         flops=2 * M * N * K)
            M, N, K = 16, 8192, 8192
            r.time_modes(f"split-K decode M={M} N={N} K={K}", "splitk_gemm", spec, splitk_args(M, N, K),
                         (N // 64, 4, 1), bytes_moved=2 * (K * N + M * K) + 4 * M * N)
        for kernel, d in (("attn_fwd_d64", 64), ("attn_fwd_d128_causal", 128)):
            H, n_ctx = 16, 4096
            causal = "causal" in kernel
            flops = 4 * H * n_ctx * n_ctx * d * (0.5 if causal else 1)
            r.time_modes(f"{kernel} H={H} N_CTX={n_ctx}", kernel, "aligned", attn_args(H, n_ctx, d),
                         (n_ctx // 128, H, 1), flops=flops)
        for row in r.results[-6:]:
            row["repeat"] = repeat


PARTS = {"gemm": part_gemm, "splitk": part_splitk, "attention": part_attention, "timing": part_timing}


def run_part(outdir, part, json_out):
    import torch

    torch.manual_seed(0)
    r = Runner(outdir)
    print(f"== {part} | {torch.cuda.get_device_name()} | torch {torch.__version__} | cubins from triton "
          f"{r.manifest['triton']}", flush=True)
    t0 = time.time()
    try:
        PARTS[part](r)
    finally:  # a CUDA fault poisons the context: keep what was measured before it
        with open(json_out, "w") as f:
            json.dump(dict(part=part, device=torch.cuda.get_device_name(), results=r.results,
                           failures=r.failures), f, indent=1)
        print(f"== {part}: {r.failures} failure(s), {time.time() - t0:.1f} s", flush=True)
    return r.failures


def run(outdir, json_out=None):
    """Each part in its own process, so that a kernel that faults cannot hide the others' results."""
    import subprocess
    import tempfile

    all_results, failures = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for part in PARTS:
            out = os.path.join(tmp, part + ".json")
            rc = subprocess.run([sys.executable, __file__, "part", outdir, "--part", part, "--json", out]).returncode
            if os.path.exists(out):
                with open(out) as f:
                    data = json.load(f)
                all_results += data["results"]
                failures += data["failures"]
            if rc != 0:
                failures += 1
                all_results.append(dict(case=f"part {part}", ok=False, error=f"exit status {rc}"))
                print(f"== part {part} exited with status {rc}")
    print(f"\nTOTAL: {failures} failure(s); {sum(1 for x in all_results if x.get('ok'))} checks passed")
    if json_out:
        with open(os.path.join(outdir, "manifest.json")) as f:
            manifest = json.load(f)
        from record import write_json

        write_json(json_out, dict(manifest=manifest, results=all_results, failures=failures), indent=1)
    return failures


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["build", "run", "part"])
    p.add_argument("outdir")
    p.add_argument("--json")
    p.add_argument("--part", choices=list(PARTS))
    a = p.parse_args()
    if a.mode == "build":
        build(a.outdir)
    elif a.mode == "part":
        sys.exit(1 if run_part(a.outdir, a.part, a.json) else 0)
    else:
        sys.exit(1 if run(a.outdir, a.json) else 0)
