"""mfma-grid-order on an H200: stock Triton vs the default passes, same kernels, same call, L2 flushed before every rep.

    python bench/grid_order.py build out/grid_h200   # here (CPU): cuda:90 cubins, stock and with the default passes
                                                     # (enabled(backends=("hip", "cuda"))), the pass's run-time
                                                     # decision per shape (triton_mfma.grid_order_decision on the
                                                     # compiled kernel), model predictions
    PYTHONPATH=<an older checkout>/python python bench/grid_order.py variant out/grid_h200 decode_oldguard
                                                     # optional: the decode kernel compiled by another build of the
                                                     # project (the guard before this one), timed beside the others
    python bench/grid_order.py run out/grid_h200 DIR # on the GPU (torch + cupy): checks + timings -> DIR; needs only
                                                     # the folder (this script is copied into it)
    python bench/grid_order.py sass out/grid_h200    # here: main-loop figures of each GEMM cubin (cuobjdump)
    python bench/grid_order.py guard-cost out/grid_h200  # optional: decode_tiny and decode_call, the decode kernel's
                                                     # guard taken apart by editing its PTX (timed by `run`)

Kernels (python/triton_mfma/examples/kernels.py):
  * splitk_decode_slow: split-K decode GEMM, grid (N tiles, SPLIT_K, M tiles), M = 64 = 2 M tiles on the slowest
    axis (the slow order). Stock vs compiled with the default passes (mfma-grid-order in auto mode among them);
    splitk_decode_fast (M tiles on axis 0, no pass) is the hand-ordered reference. Results must be bitwise equal
    (partials, no atomics). Where the pass declines at run time (W fits L2, or one wave) the ratio is the guard's
    own cost; stock is timed twice (stock / stock: the noise floor of the same measurement).
  * matmul_1d: fp16 GEMM on a 1-D grid in plain row-major tile order; stock vs with the default passes, against
    matmul_1d_grouped (the tutorial's GROUP_M = 8 swizzle written by hand, no pass), in seven tile
    configurations (GEMM_CONFIGS). Control: matmul_1d_grouped_grid, the hand swizzle in the code shape the pass
    emits (tile rows from the grid size): same order as hand and pass, so hand vs control is what ptxas makes of
    the surrounding code, not the order. The main-loop SASS of every cubin is recorded at build time.
Launch: the non-constexpr arguments then two null scratch pointers (shared/examples/cuda_aot). The kernels are
specialised as Triton's launcher would (pointers and the listed integers divisible by 16, unit strides constexpr).
"""
from __future__ import annotations

import json
import math
import os
import statistics
import sys
import time

DECODE_SHAPES = [  # (N, K) of W [K, N] fp16; M = 64
    (768, 8192),  # 192 programs: one wave even at the guard's lower bound P = 264 (the cheapest decline)
    (2048, 2048), (1024, 4096), (4096, 1536), (1536, 4096), (3072, 3072), (5120, 2048),  # W <= 21 MB: fits in L2
    (4096, 4096), (8192, 4096),  # between
    (8192, 8192), (28672, 8192), (128256, 4096),  # large
]
M_DECODE = 64
GEMM_SHAPES = [8192, 16384]
# Tile configurations of the 1-D-grid GEMM (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages): Triton's default
# launch (4 warps, 3 stages) at 128x128x64, the two 8-warp Hopper configurations of Triton's matmul tutorial,
# and four more from the tutorial's autotuning list.
GEMM_CONFIGS = [(128, 128, 64, 4, 3), (128, 256, 64, 8, 3), (256, 128, 64, 8, 3), (128, 128, 64, 8, 3),
                (128, 128, 32, 4, 4), (64, 128, 64, 4, 4), (128, 64, 64, 4, 4)]
GEMM_VARIANTS = {  # suffix -> (kernel, with the pass)
    "plain_stock": ("matmul_1d", False),
    "plain_pass": ("matmul_1d", True),
    "grouped_hand": ("matmul_1d_grouped", False),
    "grouped_grid": ("matmul_1d_grouped_grid", False),  # control: hand order, the pass's code shape, no pass
}

DECODE_ONES = ["stride_ak", "stride_wn"]
DECODE_DIV16 = ["a_ptr", "w_ptr", "p_ptr", "M", "N", "K", "stride_am", "stride_wk", "stride_pk", "stride_pm"]
GEMM_ONES = ["stride_ak", "stride_bn", "stride_cn"]
GEMM_DIV16 = ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"]

VARIANTS = {  # label -> (kernel, with the pass)
    "decode_stock": ("splitk_decode_slow", False),
    "decode_pass": ("splitk_decode_slow", True),
    "decode_fast_ref": ("splitk_decode_fast", False),
}


def gemm_label(cfg, suffix):
    bm, bn, bk, nw, ns = cfg
    return f"gemm_{bm}x{bn}x{bk}w{nw}s{ns}_{suffix}"


def variants():
    """label -> (kernel, with the pass, tile constexprs or None, compile options)."""
    out = {lb: (name, wp, None, {}) for lb, (name, wp) in VARIANTS.items()}
    for cfg in GEMM_CONFIGS:
        bm, bn, bk, nw, ns = cfg
        for suffix, (name, wp) in GEMM_VARIANTS.items():
            out[gemm_label(cfg, suffix)] = (name, wp, dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk),
                                            dict(num_warps=nw, num_stages=ns))
    return out


# ------------------------------------------------------------------------------------------------- build (CPU)

def _specialise(name, tiles=None):
    from triton_mfma.examples.kernels import GRID_ORDER_KERNELS

    fn, sig, cx = GRID_ORDER_KERNELS[name]
    ones, div16 = (GEMM_ONES, GEMM_DIV16) if name.startswith("matmul") else (DECODE_ONES, DECODE_DIV16)
    sig, cx = dict(sig), dict(cx, **(tiles or {}))
    for n in ones:
        sig[n], cx[n] = "constexpr", 1
    names = list(sig)
    attrs = {(names.index(n),): [["tt.divisibility", 16]] for n in div16}
    params = [n for n in names if sig[n] != "constexpr"]
    return fn, sig, cx, attrs, params


def _compile(label, name, with_pass, tiles, options, dump, pass_options=None):
    import warnings

    import triton
    from triton.compiler import ASTSource

    import triton_mfma
    from triton_mfma.compiler.compile import always_compile, target

    fn, sig, cx, attrs, params = _specialise(name, tiles)
    t0 = time.perf_counter()
    with always_compile(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        src = ASTSource(fn, sig, cx, attrs)
        if with_pass:  # the default passes, on cuda too
            with triton_mfma.enabled(backends=("hip", "cuda"), strict=True, dump=os.path.join(dump, label),
                                     **(pass_options or {})):
                k = triton.compile(src, target=target("cuda:90"), options=options)
        else:
            with triton_mfma.disabled():
                k = triton.compile(src, target=target("cuda:90"), options=options)
    remarks = [str(w.message) for w in caught if any(k in str(w.message) for k in ("grid order", "grid-order"))]
    return k, params, cx, remarks, round(time.perf_counter() - t0, 2)


def _save(out, meta, label, name, with_pass, k, params, cx, remarks, seconds):
    with open(os.path.join(out, f"{label}.cubin"), "wb") as f:
        f.write(k.asm["cubin"])
    meta["variants"][label] = {"kernel": name, "pass": with_pass, "name": k.metadata.name,
                               "num_warps": k.metadata.num_warps, "shared": k.metadata.shared,
                               "params": params, "constexprs": {n: v for n, v in cx.items()},
                               "remarks": remarks, "compile_s": seconds}


def build(out):
    import shutil

    import triton_mfma
    from triton_mfma.models import l2model
    from triton_mfma.composition.remarks import body

    os.makedirs(out, exist_ok=True)
    shutil.copy(__file__, os.path.join(out, "grid_order.py"))  # the folder runs on its own
    meta = {"variants": {}, "decode_shapes": DECODE_SHAPES, "gemm_shapes": GEMM_SHAPES, "M_decode": M_DECODE}
    dump = os.path.join(out, "dump")
    kernels = {}
    for label, (name, with_pass, tiles, options) in variants().items():
        k, params, cx, remarks, seconds = _compile(label, name, with_pass, tiles, options, dump)
        kernels[label] = k
        _save(out, meta, label, name, with_pass, k, params, cx, remarks, seconds)
        if label.startswith("gemm"):
            meta["variants"][label]["sass"] = main_loop_stats(os.path.join(out, f"{label}.cubin"))
        print(f"built {label}: {k.metadata.name} shared={k.metadata.shared} warps={k.metadata.num_warps} "
              f"{meta['variants'][label].get('sass', '')}")
        for r in remarks:
            print("   ", r.split("remark: ", 1)[-1][:400])

    # The pass's own decision for each shape: the compiled guard, executed (triton_mfma.grid_order_decision).
    tiles = meta["variants"]["decode_stock"]["constexprs"]
    targets = {k: l2model.TARGETS[k] for k in ("cuda:90", "hip:gfx90a", "hip:gfx942")}
    meta["decode"] = []
    for n, kk in DECODE_SHAPES:
        c = l2model.DecodeConfig(M_DECODE, n, kk, tiles["BLOCK_M"], tiles["BLOCK_N"], tiles["BLOCK_K"],
                                 tiles["SPLIT_K"])
        args = dict(M=M_DECODE, N=n, K=kk, stride_am=kk, stride_wk=n, stride_pk=M_DECODE * n, stride_pm=n)
        d = triton_mfma.grid_order_decision(kernels["decode_pass"], c.grid, **args)
        row = {"N": n, "K": kk, "W_MB": c.w_bytes / 1e6, "grid": c.grid, "pass_remaps": d.remaps,
               "decision": str(d), "model_remaps": l2model.decode_guard(targets["cuda:90"], c),
               "predicted": {t: predict_ratio_decode(targets[t], c) for t in targets}}
        meta["decode"].append(row)
        print(f"decode N={n} K={kk} W={row['W_MB']:.1f} MB grid={c.grid}: {d}\n   (python model: "
              f"{row['model_remaps']}); predicted speedups {row['predicted']}")
    meta["gemm"] = []
    for cfg in GEMM_CONFIGS:
        bm, bn, bk, nw, ns = cfg
        pass_label = gemm_label(cfg, "plain_pass")
        for s in GEMM_SHAPES:
            c = l2model.GemmConfig(s, s, s, bm, bn, bk, nw, ns)
            args = dict(M=s, N=s, K=s, stride_am=s, stride_bk=s, stride_cm=s)
            n_prog = math.ceil(s / bm) * math.ceil(s / bn)
            d = triton_mfma.grid_order_decision(kernels[pass_label], (n_prog,), **args)
            row = {"config": cfg, "size": s, "pass_remaps": d.remaps, "decision": str(d),
                   "pass_remark": body((meta["variants"][pass_label]["remarks"] or [""])[0]),
                   "predicted_plain_over_grouped": {t: l2model.predict_gemm(targets[t], c, False) /
                                                    l2model.predict_gemm(targets[t], c, True) for t in targets}}
            meta["gemm"].append(row)
            print(f"gemm {gemm_label(cfg, '')[5:-1]} {s}^3: {d}; predicted grouped speedup over plain "
                  f"{row['predicted_plain_over_grouped']}")
    with open(os.path.join(out, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1, default=list)


def variant(out, label, what="the decode kernel compiled by another build", *pass_options):
    """Adds `label` (decode_<name>: splitk_decode_slow as the triton_mfma on PYTHONPATH compiles it with its
    default passes, e.g. decode_oldguard from the previous build, or with pass options `key=value`, e.g.
    grid_guard_body=shared) to a built folder; timed beside the others."""
    meta_path = os.path.join(out, "meta.json")
    meta = json.load(open(meta_path))
    from triton_mfma.compiler.compile import parse_value

    opts = {k: parse_value(v) for k, v in (o.split("=", 1) for o in pass_options)}
    k, params, cx, remarks, seconds = _compile(label, "splitk_decode_slow", True, None, {}, os.path.join(out, "dump"),
                                               opts)
    _save(out, meta, label, "splitk_decode_slow", True, k, params, cx, remarks, seconds)
    import triton_mfma
    meta["variants"][label]["source"] = os.path.dirname(triton_mfma.__file__)
    meta["variants"][label]["what"] = what
    meta["variants"][label]["experiment"] = "wrong results" in what
    with open(meta_path, "w") as f:
        json.dump(meta, f, indent=1, default=list)
    print(f"built {label} with {meta['variants'][label]['source']}: {remarks[:1]}")


# ------------------------------------------------------------------------- the guard's cost, taken apart (CPU)

def _ptx_remap_block(ptx):
    """(end, body) of the remap block: the code the guard's branch skips (`@%p bra LABEL;` right after the guard,
    then the block up to LABEL, which starts at `end`)."""
    import re

    m = re.search(r"\t@%p\d+ bra \t(\$L__BB\d+_\d+);\n// %bb\.\d+:\n", ptx)
    if m is None or "nctaid" not in ptx[:m.start()]:
        raise SystemExit("guard-cost: the decode kernel's PTX has no guard branch where expected")
    end = ptx.index(f"{m.group(1)}:\n", m.end())
    return end, ptx[m.end():end]


def _ptx_outlined(ptx):
    """The remap moved into a called .func: the skipped path then jumps over one CALL, not the remap's code."""
    from grid_order_wide import ptx_outline

    end, body = _ptx_remap_block(ptx)
    return ptx_outline(ptx, end - len(body), end)


def _ptx_tiny(ptx):
    """The guard kept, its remap replaced by one instruction (wrong ids where it remaps: timing only): what the
    guard costs where ptxas need not jump over the remap's code."""
    import re

    end, body = _ptx_remap_block(ptx)
    # the N-tile id x -> x ^ 1: a neighbour tile (masked where it is past N), never an address out of bounds
    pid = re.search(r"mov\.u32 \t(%r\d+), %ctaid\.x;", ptx).group(1)
    return ptx[:end - len(body)] + f"\txor.b32 \t{pid}, {pid}, 1;\n" + ptx[end:]


def guard_cost(out):
    """Adds decode_tiny and decode_call to a built folder: the pass's decode kernel, its PTX edited and assembled
    with Triton's ptxas (the guard with a one-instruction remap; the remap in a called function), to take apart
    what its guard costs where it declines (bench/results/grid_order.md: "the guard's cost on a declining launch,
    taken apart")."""
    import subprocess
    import tempfile

    from triton.backends.nvidia.compiler import get_ptxas

    meta_path = os.path.join(out, "meta.json")
    meta = json.load(open(meta_path))
    ptx = _compile("decode_pass", "splitk_decode_slow", True, None, {}, os.path.join(out, "dump"))[0].asm["ptx"]
    edits = {"decode_tiny": (_ptx_tiny, True, "the pass's guard with a one-instruction remap body (PTX edited: "
                                               "wrong results where it remaps, timing only)"),
             "decode_call": (_ptx_outlined, False, "the pass with its remap in a called function (PTX edited: the "
                                                   "skipped path jumps over one CALL)")}
    with tempfile.TemporaryDirectory() as tmp:
        for label, (edit, experiment, what) in edits.items():
            src = os.path.join(tmp, f"{label}.ptx")
            with open(src, "w") as f:
                f.write(edit(ptx))
            subprocess.run([get_ptxas(90).path, "-lineinfo", "--regAllocOptLevel=2", "--gpu-name=sm_90a", src, "-o",
                            os.path.join(out, f"{label}.cubin")], check=True)
            meta["variants"][label] = dict(meta["variants"]["decode_pass"], what=what, experiment=experiment,
                                           source="bench/grid_order.py guard-cost")
            print(f"built {label}: {what}")
    with open(meta_path, "w") as f:
        json.dump(meta, f, indent=1, default=list)


def predict_ratio_decode(target, c):
    from triton_mfma.models import l2model

    return l2model.predict_decode(target, c, False) / l2model.predict_decode(target, c, True)


def main_loop_stats(path):
    """Instructions, register moves and HGMMAs in the main (HGMMA) loop of a cubin, and registers per thread."""
    import collections
    import re
    import subprocess

    import triton

    tool = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "cuobjdump")
    text = subprocess.run([tool, "-sass", path], capture_output=True, text=True, check=True).stdout
    lines = [(int(m.group(1), 16), m.group(2).strip()) for m in re.finditer(r"/\*([0-9a-f]{4,})\*/\s+(.*?);", text)]
    first_mma = next(a for a, i in lines if "HGMMA" in i)
    branches = [(int(m.group(1), 16), a) for a, i in lines if (m := re.search(r"BRA (0x[0-9a-f]+)", i))]
    lo, hi = max((t, a) for t, a in branches if t < first_mma < a)  # the back edge around the first HGMMA
    body = [i for a, i in lines if lo <= a <= hi]
    ops = collections.Counter(re.sub(r"^@!?U?P\w+\s+", "", i).split()[0] for i in body)
    res = subprocess.run([tool, "-res-usage", path], capture_output=True, text=True, check=True).stdout
    return {"instructions": len(body), "moves": ops["IMAD.MOV.U32"],
            "hgmma": sum(n for op, n in ops.items() if op.startswith("HGMMA")),
            "registers": int(re.search(r"REG:(\d+)", res).group(1))}


def sass(out):
    """Main-loop figures of each GEMM cubin: the code ptxas made of each variant, next to its speed."""
    meta = json.load(open(os.path.join(out, "meta.json")))
    for label, v in meta["variants"].items():
        if "sass" in v:
            print(f"{label}: {v['sass']}")


# ------------------------------------------------------------------------------------------------- run (GPU)

def run(out, results):
    import cupy as cp
    import torch

    meta = json.load(open(os.path.join(out, "meta.json")))
    os.makedirs(results, exist_ok=True)
    dev = torch.cuda.get_device_name()
    lines = []

    def say(s=""):  # (written as it goes: a run cut short keeps what it measured)
        print(s, flush=True)
        lines.append(s)
        with open(os.path.join(results, "grid_order.md"), "w") as f:
            f.write("\n".join(lines) + "\n")

    fns = {}
    for label, v in meta["variants"].items():
        mod = cp.RawModule(path=os.path.join(out, f"{label}.cubin"))
        fn = mod.get_function(v["name"])
        if v["shared"] > 48 * 1024:
            fn.max_dynamic_shared_size_bytes = v["shared"]
        fns[label] = (mod, fn, v)

    def launch(label, grid, tensors, ints):
        _, fn, v = fns[label.split("#")[0]]
        args = []
        for p in v["params"]:
            args.append(cp.uint64(tensors[p].data_ptr()) if p in tensors else cp.int32(ints[p]))
        args += [cp.uint64(0), cp.uint64(0)]
        fn(tuple(grid), (32 * v["num_warps"], 1, 1), tuple(args), shared_mem=v["shared"])

    flush = torch.empty(256 * 2**20 // 4, dtype=torch.int32, device="cuda")

    def timed(labels, grid_of, tensors, ints, reps, samples=None):
        """Median ms per label; labels interleaved, L2 flushed (256 MiB written) before every launch. With
        `samples` (a dict) the per-rep times are stored there too, for ratios of launches adjacent in time."""
        times = {lb: [] for lb in labels}
        for lb in labels:  # warm-up
            launch(lb, grid_of(lb), tensors, ints)
        for r in range(reps):
            order = labels if r % 2 == 0 else labels[::-1]
            for lb in order:
                flush.zero_()
                s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                s.record()
                launch(lb, grid_of(lb), tensors, ints)
                e.record()
                e.synchronize()
                times[lb].append(s.elapsed_time(e))
        if samples is not None:
            samples.update(times)
        return {lb: statistics.median(t) for lb, t in times.items()}

    say(f"# mfma-grid-order on {dev}: stock Triton 3.9 vs the default passes, same call, L2 flushed before every "
        "rep")
    say()
    for lb, v in meta["variants"].items():
        if v["remarks"]:
            say(f"- {lb}: " + v["remarks"][0].split("remark: ", 1)[-1])
    say()
    torch.manual_seed(0)
    M = meta["M_decode"]
    tiles = meta["variants"]["decode_stock"]["constexprs"]
    bm, bn, sk = tiles["BLOCK_M"], tiles["BLOCK_N"], tiles["SPLIT_K"]
    say(f"## Split-K decode GEMM, slow order, M = {M} ({math.ceil(M / bm)} M tiles), tiles {bm}x{bn}x"
        f"{tiles['BLOCK_K']}, SPLIT_K = {sk}")
    say()
    extra = [lb for lb in meta["variants"] if lb.startswith("decode_")
             and lb not in ("decode_stock", "decode_pass", "decode_fast_ref")]
    say("*speedup* = median over reps of the per-rep ratio stock / pass (launches adjacent in time); ms are medians. "
        "*stock / stock*: the same stock cubin timed twice under two names (the noise floor)."
        + "".join(f" *{lb[7:]}*: stock / {meta['variants'][lb].get('what', 'the decode kernel')} "
                  f"({meta['variants'][lb].get('source', '?')})." for lb in extra))
    say()
    say("| N x K | W MB | W / L2 | pass remaps (run time) | stock ms | pass ms | speedup | stock / stock |"
        + "".join(f" {lb[7:]} |" for lb in extra) + " predicted H200 | fast-order ref ms | bitwise equal | "
        "rel err vs torch | predicted MI210 | predicted MI300X |")
    say("|" + " --- |" * (14 + len(extra)))
    rows = []
    for row in meta["decode"]:
        n, k = row["N"], row["K"]
        a = torch.randn(M, k, device="cuda", dtype=torch.float16)
        w = torch.randn(k, n, device="cuda", dtype=torch.float16) / math.sqrt(k)
        outs = {lb: torch.full((sk, M, n), float("nan"), device="cuda")
                for lb in ["decode_stock", "decode_pass", "decode_fast_ref"] + extra}
        ints = dict(M=M, N=n, K=k, stride_am=a.stride(0), stride_wk=w.stride(0), stride_pk=M * n, stride_pm=n)
        slow = (math.ceil(n / bn), sk, math.ceil(M / bm))
        fast = (math.ceil(M / bm), math.ceil(n / bn), sk)
        grid_of = lambda lb: fast if lb == "decode_fast_ref" else slow  # noqa: E731
        for lb, p in outs.items():
            launch(lb, grid_of(lb), {"a_ptr": a, "w_ptr": w, "p_ptr": p}, ints)
        torch.cuda.synchronize()
        # (decode_fast_ref runs another grid; an experimental variant may compute wrong results where it remaps)
        checked = [lb for lb in outs if lb != "decode_fast_ref" and not meta["variants"][lb].get("experiment")]
        equal = all(torch.equal(outs["decode_stock"], outs[lb]) for lb in checked) and \
            not torch.isnan(outs["decode_pass"]).any().item()
        ref = a.float() @ w.float()
        err = ((outs["decode_pass"].sum(0) - ref).norm() / ref.norm()).item()
        reps = 400 if row["W_MB"] < 30 else 100 if row["W_MB"] < 200 else 30
        per_rep = {}
        labels = ["decode_stock", "decode_pass", "decode_fast_ref", "decode_stock#2"] + extra
        t = timed(labels, grid_of, {"a_ptr": a, "w_ptr": w, "p_ptr": outs["decode_pass"]}, ints, reps, per_rep)

        def ratio(lb):
            return statistics.median(s / p for s, p in zip(per_rep["decode_stock"], per_rep[lb]))

        sp, noise = ratio("decode_pass"), ratio("decode_stock#2")
        sp_extra = {lb: ratio(lb) for lb in extra}
        pr = row["predicted"]
        say(f"| {n} x {k} | {row['W_MB']:.1f} | {row['W_MB'] / 52.4288:.2f} | {row['pass_remaps']} | "
            f"{t['decode_stock']:.4f} | {t['decode_pass']:.4f} | **{sp:.3f}x** | {noise:.3f} |"
            + "".join(f" {sp_extra[lb]:.3f}x |" for lb in extra) + f" {pr['cuda:90']:.2f}x | "
            f"{t['decode_fast_ref']:.4f} | {equal} | {err:.1e} | {pr['hip:gfx90a']:.2f}x | {pr['hip:gfx942']:.2f}x |")
        rows.append(dict(row, ms=t, speedup=sp, noise=noise, speedup_extra=sp_extra, reps=reps,
                         bitwise_equal=equal, rel_err=err))
        del a, w, outs, ref
        torch.cuda.empty_cache()
    say()
    say("## fp16 GEMM on a 1-D grid: plain row-major order (stock / with the pass) vs the hand-written GROUP_M = 8 "
        "swizzle (stock)")
    say()
    say("*control* = the hand swizzle with the tile rows taken from the grid (`matmul_1d_grouped_grid`): the same "
        "order as hand and pass, in the code shape the pass emits, no pass. *main loop* = SASS instructions / "
        "register moves in the HGMMA loop (stock, pass, hand, control). Ratios (x / hand, throughput) are medians "
        "over reps of per-rep ratios (launches adjacent in time); TFLOP/s are medians.")
    say()
    say("| tiles, warps, stages | M=N=K | pass remaps (run time) | plain stock TFLOP/s | plain + pass TFLOP/s | "
        "hand GROUP_M TFLOP/s | pass / hand | plain / hand | control / hand | hand / hand (noise) | pass / stock | "
        "predicted plain / grouped H200 | main loop | bitwise stock = pass = hand = control | rel err | "
        "predicted MI210 | predicted MI300X |")
    say("|" + " --- |" * 17)
    grows = []
    suffixes = list(GEMM_VARIANTS)
    for s in GEMM_SHAPES:
        a = torch.randn(s, s, device="cuda", dtype=torch.float16)
        b = torch.randn(s, s, device="cuda", dtype=torch.float16) / math.sqrt(s)
        ref = torch.matmul(a, b).float()
        ints = dict(M=s, N=s, K=s, stride_am=s, stride_bk=s, stride_cm=s)
        for row in (r for r in meta["gemm"] if r["size"] == s):
            cfg = tuple(row["config"])
            lab = {x: gemm_label(cfg, x) for x in suffixes}
            n_prog = math.ceil(s / cfg[0]) * math.ceil(s / cfg[1])
            outs = {x: torch.full((s, s), float("nan"), device="cuda", dtype=torch.float16) for x in suffixes}
            for x in suffixes:
                launch(lab[x], (n_prog, 1, 1), {"a_ptr": a, "b_ptr": b, "c_ptr": outs[x]}, ints)
            torch.cuda.synchronize()
            equal = all(torch.equal(outs[suffixes[0]], outs[x]) for x in suffixes) and \
                not torch.isnan(outs["plain_pass"]).any().item()
            err = ((outs["plain_pass"].float() - ref).norm() / ref.norm()).item()
            c_out = outs["plain_pass"]
            del outs
            # the hand-swizzled cubin timed twice under two names: the spread between the two is the noise floor
            names = [lab[x] for x in suffixes] + [lab["grouped_hand"] + "#2"]
            per_rep = {}
            t = timed(names, lambda lb: (n_prog, 1, 1), {"a_ptr": a, "b_ptr": b, "c_ptr": c_out}, ints,
                      80 if s <= 8192 else 40, per_rep)
            tf = {x: 2 * s**3 / (t[lab[x]] * 1e-3) / 1e12 for x in suffixes}
            hand_t = per_rep[lab["grouped_hand"]]

            def vs_hand(name):  # median over reps of the hand kernel's time over this one's, same rep
                return statistics.median(h / x for h, x in zip(hand_t, per_rep[name]))

            ratio = {x: vs_hand(lab[x]) for x in suffixes}
            ratio["hand2"] = vs_hand(lab["grouped_hand"] + "#2")
            ratio["pass_vs_stock"] = statistics.median(s_ / p_ for s_, p_ in zip(per_rep[lab["plain_stock"]],
                                                                                  per_rep[lab["plain_pass"]]))
            hand = tf["grouped_hand"]
            loops = ", ".join(f"{meta['variants'][lab[x]]['sass']['instructions']}/"
                              f"{meta['variants'][lab[x]]['sass']['moves']}" for x in suffixes)
            pr = row["predicted_plain_over_grouped"]
            say(f"| {cfg[0]}x{cfg[1]}x{cfg[2]}, {cfg[3]}w, {cfg[4]}s | {s} | {row['pass_remaps']} | "
                f"{tf['plain_stock']:.0f} | {tf['plain_pass']:.0f} | {hand:.0f} | **{ratio['plain_pass']:.3f}** | "
                f"{ratio['plain_stock']:.3f} | {ratio['grouped_grid']:.3f} | {ratio['hand2']:.3f} | "
                f"{ratio['pass_vs_stock']:.3f} | {1 / pr['cuda:90']:.2f} | {loops} | {equal} | {err:.1e} | "
                f"{1 / pr['hip:gfx90a']:.2f} | {1 / pr['hip:gfx942']:.2f} |")
            grows.append(dict(row, ms={x: t[lab[x]] for x in suffixes}, tflops=tf, vs_hand=ratio, bitwise_equal=equal,
                              rel_err=err))
            del c_out
        del a, b, ref
        torch.cuda.empty_cache()
    from record import write_json

    write_json(os.path.join(results, "grid_order.json"), {"device": dev, "decode": rows, "gemm": grows}, indent=1,
               default=list)
    with open(os.path.join(results, "grid_order.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    if sys.argv[1] == "build":
        build(sys.argv[2])
    elif sys.argv[1] == "variant":
        variant(sys.argv[2], sys.argv[3], *sys.argv[4:])
    elif sys.argv[1] == "run":
        run(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "guard-cost":
        guard_cost(sys.argv[2])
    elif sys.argv[1] == "sass":
        sass(sys.argv[2])
    else:
        sys.exit(__doc__)
