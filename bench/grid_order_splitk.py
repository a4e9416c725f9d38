"""Where mfma-grid-order's remap loses on an H200: a 4096^3 split-K GEMM (128x128x32 tiles, SPLIT_K = 1), the
corpus kernel (atomic epilogue) and the same kernel with tl.store, each "plain" (no divisibility known: 2-byte
loads) and "aligned" (pointers, sizes and row strides divisible by 16), stock vs the default passes
(`enabled(backends=("hip", "cuda"))`: grid order remaps these launches, 8 M tiles fastest).

    PYTHONPATH=python python bench/grid_order_splitk.py build out/gosk   # here: cubins + meta.json
    python3 bench/grid_order_splitk.py run out/gosk                      # on the H200 (torch + cupy)

Timing: 25 rounds, every variant in turn, 256 MiB written before each launch (L2 flushed); the ratio is the
median of per-round ratios. Recorded: bench/results/grid_order_splitk.txt."""
import json, os, sys, statistics, warnings
import triton

# The store kernel also with other remaps (where the remap loses, is it the order or the code?): the remap always
# taken (no run-time guard) and other group sizes.
EXTRA_MODES = {"on": dict(grid_order="on"), "g4": dict(grid_group_size=4), "g16": dict(grid_group_size=16),
               "g32": dict(grid_group_size=32)}


def build(out):
    import triton_mfma
    from triton.compiler import ASTSource
    from triton_mfma.compiler.compile import target
    from triton_mfma.examples.kernels import splitk_gemm, splitk_store, _splitk_sig
    os.makedirs(out, exist_ok=True)
    warnings.simplefilter("ignore")
    sig = _splitk_sig()
    cx = dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=32, SPLIT_K=1)
    names = list(sig)
    meta = {}
    for kname, fn in (("atomic", splitk_gemm), ("store", splitk_store)):
        for spec in ("plain", "aligned"):
            attrs = {} if spec == "plain" else {(names.index(n),): [["tt.divisibility", 16]] for n in
                     ("a_ptr", "w_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_wk", "stride_cm")}
            modes = ("stock", "defaults") + (tuple(EXTRA_MODES) if kname == "store" else ())
            for mode in modes:
                src = ASTSource(fn=fn, signature=sig, constexprs=cx, attrs=attrs)
                if mode == "stock":
                    with triton_mfma.disabled():
                        k = triton.compile(src, target=target("cuda:90"))
                else:
                    with triton_mfma.enabled(backends=("hip", "cuda"), **EXTRA_MODES.get(mode, {})):
                        k = triton.compile(src, target=target("cuda:90"))
                key = f"{kname}.{spec}.{mode}"
                open(os.path.join(out, key + ".cubin"), "wb").write(k.asm["cubin"])
                meta[key] = dict(name=k.metadata.name, shared=k.metadata.shared, num_warps=k.metadata.num_warps,
                                 decision=str(getattr(k.metadata, "triton_mfma", ""))[:300])
                print(key, k.metadata.shared, meta[key]["decision"][:200])
    json.dump(meta, open(os.path.join(out, "meta.json"), "w"), indent=1)

def run(out):
    import cupy as cp, torch
    meta = json.load(open(os.path.join(out, "meta.json")))
    M = N = K = 4096
    torch.manual_seed(0)
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    w = torch.randn(K, N, device="cuda", dtype=torch.float16)
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    launches, bufs = {}, {}
    for key, md in meta.items():
        fn = cp.RawModule(path=os.path.join(out, key + ".cubin")).get_function(md["name"])
        if md["shared"] > 48 * 1024:
            fn.max_dynamic_shared_size_bytes = md["shared"]
        c = bufs[key] = torch.zeros(M, N, device="cuda", dtype=torch.float32)
        i32 = cp.int32
        args = (cp.uint64(a.data_ptr()), cp.uint64(w.data_ptr()), cp.uint64(c.data_ptr()), i32(M), i32(N), i32(K),
                i32(K), i32(1), i32(N), i32(1), i32(N), i32(1), cp.uint64(0), cp.uint64(0))
        launches[key] = (lambda fn=fn, args=args, sh=md["shared"], nw=md["num_warps"]:
                         fn((N // 128, 1, M // 128), (32 * nw, 1, 1), args, shared_mem=sh))
    times = {k: [] for k in meta}
    for _ in range(25):
        for key in meta:
            flush.zero_()
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record(); launches[key](); e.record(); torch.cuda.synchronize()
            times[key].append(s.elapsed_time(e))
    for kname in ("atomic", "store"):
        for spec in ("plain", "aligned"):
            st = times[f"{kname}.{spec}.stock"]
            for mode in [m for m in ("defaults", *EXTRA_MODES) if f"{kname}.{spec}.{m}" in meta]:
                de = times[f"{kname}.{spec}.{mode}"]
                r = statistics.median(x / y for x, y in zip(st, de))
                same = torch.equal(bufs[f"{kname}.{spec}.stock"], bufs[f"{kname}.{spec}.{mode}"])
                print(f"{kname:7s} {spec:8s} stock {statistics.median(st):.3f} ms  {mode:8s} "
                      f"{statistics.median(de):.3f} ms  stock/{mode} {r:.3f}  bitwise={same}")

if __name__ == "__main__":
    {"build": build, "run": run}[sys.argv[1]](sys.argv[2])
