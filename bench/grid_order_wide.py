"""mfma-grid-order on an H200 around its decision boundary (issue 38): stock Triton 3.9, the hand-ordered kernel and
the default passes, interleaved, L2 flushed before every launch, outputs compared bit for bit.

    python bench/grid_order_wide.py build OUT          # here (CPU): cuda:90 cubins of stock, hand and the default
                                                       # passes (`new`: the triton_mfma imported), and the pass's
                                                       # run-time decision for every launch
    PYTHONPATH=<other checkout>/python python bench/grid_order_wide.py variant OUT old
                                                       # optional: the default passes of another checkout, timed
                                                       # beside the others (`old`)
    python bench/grid_order_wide.py probe OUT tiny,nct,jump,launch,call,force,short,short_force
                                                       # optional experiment: `new`'s decode kernels with their
                                                       # PTX edited (PROBES: what each isolates), timed by `run`
    python bench/grid_order_wide.py sass OUT            # here: what a declining program runs before its first
                                                       # global load, per guarded kernel and variant, vs stock's
    python bench/grid_order_wide.py run OUT RESULTS [tuning|all|ID,ID,...] [RUNS]
                                                       # on the GPU (torch + cupy; the folder carries this script)

Launches (LAUNCHES, 45): split-K decode GEMMs (grid (N tiles, SPLIT_K, M tiles): the M tiles sharing a weight tile
on the slowest axis; SPLIT_K 1-8, W = K x N x 2 bytes from 1 MB to 470 MB, ragged N, K and M), GEMMs on a 1-D grid
in row-major tile order and on a 2-D grid with the N tiles on axis 0 (tiles 64-256 in both dimensions, ragged shapes,
one-wave and many-wave launches). Every third launch (index % 3 == 2) is held aside: it was not looked at while the
model and the guard were chosen, and is reported separately. Each launch is compiled as Triton's launcher specialises
it (integer arguments equal to 1 are constants, multiples of 16 get tt.divisibility 16; pointers are aligned).
"""
from __future__ import annotations

import json
import math
import os
import re
import statistics
import sys
import time

L2_BYTES = 50 * 2**20  # H100/H200 (data sheet); "W >= 4 x L2" below is counted against it
DECODE = {  # name -> tiles, SPLIT_K, warps, stages
    "d32x64x64s8": dict(BLOCK_M=32, BLOCK_N=64, BLOCK_K=64, SPLIT_K=8),
    "d32x64x32s7": dict(BLOCK_M=32, BLOCK_N=64, BLOCK_K=32, SPLIT_K=7),
    "d64x128x64s4": dict(BLOCK_M=64, BLOCK_N=128, BLOCK_K=64, SPLIT_K=4),
    "d64x64x64s1": dict(BLOCK_M=64, BLOCK_N=64, BLOCK_K=64, SPLIT_K=1),
}
GEMM = {  # name -> BLOCK_M, BLOCK_N, BLOCK_K, warps, stages
    "128x128x64w4s3": (128, 128, 64, 4, 3),
    "128x256x32w8s3": (128, 256, 32, 8, 3),
    "64x128x64w4s4": (64, 128, 64, 4, 4),
    "256x128x64w8s3": (256, 128, 64, 8, 3),
    "128x256x64w8s3": (128, 256, 64, 8, 3),
}


def _launches():
    out = []

    def dec(cfg, M, N, K):
        out.append(dict(kind="decode", cfg=cfg, M=M, N=N, K=K))

    def gemm(kind, cfg, M, N, K):
        out.append(dict(kind=kind, cfg=cfg, M=M, N=N, K=K))

    for n, k in [(1024, 512), (2048, 1024), (1024, 4096), (768, 8192), (4096, 1536), (3072, 3072), (6144, 2048),
                 (4096, 4096), (6144, 4096), (8192, 4096), (8192, 8192), (28672, 8192), (14336, 8192)]:
        dec("d32x64x64s8", 64, n, k)
    dec("d32x64x64s8", 50, 5000, 3000)  # ragged M, N, K
    for n, k in [(6144, 224), (6144, 768), (12288, 2240), (8192, 14336)]:
        dec("d32x64x32s7", 64, n, k)
    for n, k in [(2048, 2048), (8192, 2048), (8192, 4096), (16384, 8192)]:
        dec("d64x128x64s4", 128, n, k)
    dec("d64x128x64s4", 100, 3000, 5000)
    for n, k in [(2048, 512), (4096, 4096), (8192, 8192), (4096, 14336)]:
        dec("d64x64x64s1", 256, n, k)
    for cfg in ("128x128x64w4s3", "128x256x32w8s3"):
        for m, n, k in [(4096, 4096, 4096), (8192, 8192, 8192), (4001, 4030, 3999), (1000, 1030, 1000)]:
            gemm("gemm2d", cfg, m, n, k)
    for m, n, k in [(4096, 4096, 4096), (8192, 8192, 4096), (3000, 5000, 2000)]:
        gemm("gemm2d", "64x128x64w4s4", m, n, k)
    gemm("gemm2d", "256x128x64w8s3", 4096, 4096, 4096)
    for m, n, k in [(4096, 4096, 4096), (8192, 8192, 8192)]:
        gemm("gemm1d", "128x128x64w4s3", m, n, k)
    for m, n, k in [(4096, 4096, 4096), (8192, 8192, 8192), (16384, 16384, 16384)]:
        gemm("gemm1d", "64x128x64w4s4", m, n, k)
    gemm("gemm1d", "128x256x64w8s3", 8192, 8192, 8192)
    for i, L in enumerate(out):
        L["id"] = i
        L["held"] = i % 3 == 2
    return out


LAUNCHES = _launches()


def geometry(L):
    """Kernel names, integer arguments, grids (stock / hand), heavy bytes W of a launch."""
    M, N, K = L["M"], L["N"], L["K"]
    if L["kind"] == "decode":
        c = DECODE[L["cfg"]]
        bm, bn, sk = c["BLOCK_M"], c["BLOCK_N"], c["SPLIT_K"]
        ints = dict(M=M, N=N, K=K, stride_am=K, stride_ak=1, stride_wk=N, stride_wn=1, stride_pk=M * N, stride_pm=N)
        return dict(plain="splitk_decode_slow", hand="splitk_decode_fast", ints=ints,
                    grid=(math.ceil(N / bn), sk, math.ceil(M / bm)), hand_grid=(math.ceil(M / bm), math.ceil(N / bn), sk),
                    W=K * N * 2, tiles=dict(c), options={})
    bm, bn, bk, nw, ns = GEMM[L["cfg"]]
    ints = dict(M=M, N=N, K=K, stride_am=K, stride_ak=1, stride_bk=N, stride_bn=1, stride_cm=N, stride_cn=1)
    n_m, n_n = math.ceil(M / bm), math.ceil(N / bn)
    if L["kind"] == "gemm1d":
        names, grid = ("matmul_1d", "matmul_1d_grouped"), (n_m * n_n, 1, 1)
    else:
        names, grid = ("matmul_2d", "matmul_2d_grouped"), (n_n, n_m, 1)
    return dict(plain=names[0], hand=names[1], ints=ints, grid=grid, hand_grid=grid, W=K * N * 2,
                tiles=dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk), options=dict(num_warps=nw, num_stages=ns))


# ------------------------------------------------------------------------------------------------- build (CPU)

def _kernels():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from grid_order_kernels import matmul_2d, matmul_2d_grouped
    from triton_mfma.examples.kernels import GRID_ORDER_KERNELS

    ks = {name: fn for name, (fn, _, _) in GRID_ORDER_KERNELS.items()}
    ks.update(matmul_2d=matmul_2d, matmul_2d_grouped=matmul_2d_grouped)
    return ks


def _constexprs(fn, tiles):
    return dict(tiles, GROUP_M=8) if "GROUP_M" in fn.arg_names else dict(tiles)


def _signature(fn, ints, constexprs):
    """(signature, constexprs, attrs, runtime params) as Triton's launcher specialises these arguments."""
    sig, cx, attrs, params = {}, dict(constexprs), {}, []
    for i, name in enumerate(fn.arg_names):
        if name in constexprs:
            sig[name] = "constexpr"
        elif name.endswith("_ptr"):
            sig[name] = "*fp32" if name == "p_ptr" else "*fp16"
            attrs[(i,)] = [["tt.divisibility", 16]]
            params.append(name)
        elif ints[name] == 1:
            sig[name], cx[name] = "constexpr", 1
        else:
            sig[name] = "i32"
            if ints[name] % 16 == 0:
                attrs[(i,)] = [["tt.divisibility", 16]]
            params.append(name)
    return sig, cx, attrs, params


def _compile(fn, ints, tiles, options, with_pass):
    import warnings

    import triton
    from triton.compiler import ASTSource

    import triton_mfma
    from triton_mfma.compiler.compile import always_compile, target

    sig, cx, attrs, params = _signature(fn, ints, _constexprs(fn, tiles))
    with always_compile(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        src = ASTSource(fn, sig, cx, attrs)
        ctx = triton_mfma.enabled(backends=("hip", "cuda"), strict=True) if with_pass else triton_mfma.disabled()
        with ctx:
            k = triton.compile(src, target=target("cuda:90"), options=options)
    return k, params, sig


def _spec_key(fn, ints):
    """One letter per integer argument: c constant 1, d a multiple of 16, i any."""
    return "".join("c" if ints[n] == 1 else "d" if ints[n] % 16 == 0 else "i" for n in fn.arg_names if n in ints)


def _build_variant(out, meta, variant, with_pass, hand=False):
    """Compiles `variant` of every launch's kernel (once per specialisation) into `out`; returns label per launch."""
    import triton_mfma

    ks = _kernels()
    cache = {}
    for L in LAUNCHES:
        g = geometry(L)
        name = g["hand" if hand else "plain"]
        fn = ks[name]
        key = (name, L["cfg"], _spec_key(fn, g["ints"]))
        if key not in cache:
            label = f"{name}.{L['cfg']}.{key[2]}.{variant}"
            t0 = time.perf_counter()
            k, params, _ = _compile(fn, g["ints"], g["tiles"], g["options"], with_pass)
            with open(os.path.join(out, label + ".cubin"), "wb") as f:
                f.write(k.asm["cubin"])
            meta["kernels"][label] = dict(name=k.metadata.name, num_warps=k.metadata.num_warps,
                                          shared=k.metadata.shared, params=params,
                                          compile_s=round(time.perf_counter() - t0, 2),
                                          grid_order=str(getattr(k.metadata, "triton_mfma_grid_order", "")))
            cache[key] = (label, k)
            print(f"built {label}: shared={k.metadata.shared}", flush=True)
        label, k = cache[key]
        L.setdefault("labels", {})[variant] = label
        if with_pass:
            d = triton_mfma.grid_order_decision(k, g["grid"], **g["ints"])
            L.setdefault("decisions", {})[variant] = dict(remaps=d.remaps, guard=d.guard, reason=d.reason,
                                                        text=str(d), source=os.path.dirname(triton_mfma.__file__))


def build(out):
    import shutil

    os.makedirs(out, exist_ok=True)
    for f in ("grid_order_wide.py", "grid_order_kernels.py"):
        shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)), f), os.path.join(out, f))
    meta = {"kernels": {}, "launches": LAUNCHES}
    _build_variant(out, meta, "stock", False)
    _build_variant(out, meta, "hand", False, hand=True)
    _build_variant(out, meta, "new", True)
    for L in LAUNCHES:
        s, n = (open(os.path.join(out, L["labels"][v] + ".cubin"), "rb").read() for v in ("stock", "new"))
        L["new_is_stock"] = s == n
        print(f"{L['id']:2d} {L['kind']} {L['cfg']} {L['M']}x{L['N']}x{L['K']}: {L['decisions']['new']['text']}",
              flush=True)
    with open(os.path.join(out, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1, default=list)


def variant(out, name):
    path = os.path.join(out, "meta.json")
    meta = json.load(open(path))
    global LAUNCHES
    LAUNCHES = meta["launches"]
    _build_variant(out, meta, name, True)
    with open(path, "w") as f:
        json.dump(meta, f, indent=1, default=list)


PROBES = {  # label -> what the edit of `new`'s decode PTX isolates (timing only where it says so)
    "tiny": "the guard kept, its remap one instruction (ctaid.x ^ 1; wrong ids where it remaps: timing only)",
    "nct": "the launch test (grid size) alone, its remap one predicated instruction, no byte test, no branch "
           "(wrong ids where it remaps: timing only)",
    "jump": "no grid-size read: a branch on a kernel argument (!= 12345: never remaps) over the remap's code",
    "launch": "the branch on the launch test alone, the remap's code behind it (no byte test: remaps byte-declined "
              "launches)",
    "call": "the guard kept, the remap in a called .func (the declining path jumps over one CALL)",
    "force": "no guard: the remap taken on every launch (a branch on a kernel argument == 12345, never true)",
    "short": "the guard kept, the remap's group index z >> 3 instead of L / (8 x nx x ny) (equal here: the grouped "
             "M-tile axis is the slowest; one division fewer)",
    "short_force": "short's remap taken on every launch",
}


def _ptx_parts(ptx):
    """The guard's pieces in `new`'s decode PTX, its remap block after the kernel's ret: (the match of the launch
    test's `or.pred` and branch (groups: condition, condition, the remap block's label), the match of the remap
    block (groups: the byte test, the remap, the join label), the register holding ctaid.x)."""
    m = re.search(r"\tor\.pred \t(%p\d+), %p\d+, %p\d+;\n(?:\t\.loc.*\n)*\t@!(%p\d+) bra \t(\$L__BB0_\d+);\n", ptx)
    assert m and m.group(1) == m.group(2), "no launch branch"
    blk = re.search(re.escape(m.group(3)) + r":\n(.*?)// %bb\.\d+:\n(.*?)\tbra\.uni \t(\$L__BB0_\d+);\n", ptx, re.S)
    ctaid_x = re.search(r"mov\.u32 \t(%r\d+), %ctaid\.x;", ptx).group(1)
    return m, blk, ctaid_x


def _probe_ptx(ptx, label):
    m, blk, cx = _ptx_parts(ptx)
    cond, remap_lbl = m.group(1), m.group(3)
    if label == "tiny":
        return ptx[:blk.start(2)] + f"\txor.b32 \t{cx}, {cx}, 1;\n" + ptx[blk.end(2):]
    if label == "nct":
        ptx = ptx[:m.start()] + m.group(0).split("\t@!")[0] + f"\t@!{cond} xor.b32 \t{cx}, {cx}, 1;\n" + ptx[m.end():]
        blk = re.search(re.escape(remap_lbl) + r":\n.*?\tbra\.uni \t\$L__BB0_\d+;\n", ptx, re.S)
        return ptx[:blk.start()] + ptx[blk.end():]
    if label == "jump":
        k = re.search(r"ld\.param\.b32 \t(%r\d+), \[\w+_param_\d+\];", ptx).group(1)
        line = m.group(0).replace(m.group(0).split("\n")[0], f"\tsetp.ne.s32 \t{cond}, {k}, 12345;")
        ptx = ptx[:m.start()] + line + ptx[m.end():]
        blk = re.search(re.escape(remap_lbl) + r":\n(.*?)// %bb\.\d+:\n", ptx, re.S)
        return ptx[:blk.start(1)] + ptx[blk.end(1):]
    if label == "launch":
        return ptx[:blk.start(1)] + ptx[blk.end(1):]
    if label in ("force", "short_force"):
        k = re.search(r"ld\.param\.b32 \t(%r\d+), \[\w+_param_\d+\];", ptx).group(1)
        line = m.group(0).replace(m.group(0).split("\n")[0], f"\tsetp.eq.s32 \t{cond}, {k}, 12345;")
        ptx = ptx[:m.start()] + line + ptx[m.end():]
        blk = re.search(re.escape(remap_lbl) + r":\n(.*?)// %bb\.\d+:\n", ptx, re.S)
        ptx = ptx[:blk.start(1)] + ptx[blk.end(1):]
        return _ptx_short(ptx) if label == "short_force" else ptx
    if label == "short":
        return _ptx_short(ptx)
    if label == "call":
        return _ptx_called(ptx, blk)
    raise ValueError(label)


def _ptx_short(ptx):
    """The remap's group index L / (8 x nx x ny) replaced by ctaid.z >> 3 (the same value where the grouped axis, z,
    is the slowest and G = 8)."""
    cz = re.search(r"mov\.u32 \t(%r\d+), %ctaid\.z;", ptx).group(1)
    m = re.search(r"\tshl\.b32 \t(%r\d+), %r\d+, 3;\n\tdiv\.u32 \t(%r\d+), %r\d+, (%r\d+);\n", ptx)
    assert m and m.group(1) == m.group(3), "no group division where expected"
    return ptx[:m.start()] + m.group(0).split("\n")[0] + f"\n\tshr.u32 \t{m.group(2)}, {cz}, 3;\n" + ptx[m.end():]


def _ptx_called(ptx, blk):
    """The remap body (the match's group 2) moved into a called .func."""
    return ptx_outline(ptx, blk.start(2), blk.end(2))


def ptx_outline(ptx, start, end):
    """ptx[start:end] moved into a called .func `tmfma_remap` (registers in: what it reads before writing; out:
    what it writes that the rest of the kernel reads). Also bench/grid_order.py's guard-cost experiment."""
    body = re.sub(r"^\s*\.loc.*\n", "", ptx[start:end], flags=re.M)
    lines = [ln.split("//")[0].strip() for ln in body.splitlines() if ln.strip() and not ln.strip().startswith("//")]
    defined, used = [], []
    for ln in lines:
        regs = re.findall(r"%r\d+", ln)
        used += [r for r in regs[1:] if r not in defined and r not in used]
        defined += [regs[0]] if regs and regs[0] not in defined else []
    outs = [r for r in defined if re.search(re.escape(r) + r"\b", ptx[:start] + ptx[end:])]
    ins = used
    call = ("\t{\n" + "".join(f"\t.param .b32 param{i};\n\tst.param.b32 \t[param{i}], {r};\n" for i, r in enumerate(ins))
            + f"\t.param .align 4 .b8 retval0[{4 * len(outs)}];\n\tcall.uni (retval0), tmfma_remap, ("
            + ", ".join(f"param{i}" for i in range(len(ins))) + ");\n"
            + "".join(f"\tld.param.b32 \t{r}, [retval0+{4 * i}];\n" for i, r in enumerate(outs)) + "\t}\n")
    out = ptx[:start] + call + ptx[end:]
    func = (f".func (.param .align 4 .b8 func_retval0[{4 * len(outs)}]) tmfma_remap("
            + ", ".join(f".param .b32 p{i}" for i in range(len(ins))) + ")\n{\n\t.reg .b32 \t%r<1024>;\n"
            "\t.reg .pred \t%p<64>;\n"
            + "".join(f"\tld.param.b32 \t{r}, [p{i}];\n" for i, r in enumerate(ins)) + "\n".join(lines) + "\n"
            + "".join(f"\tst.param.b32 \t[func_retval0+{4 * i}], {r};\n" for i, r in enumerate(outs)) + "\tret;\n}\n")
    k = out.index("\t// .globl")
    return out[:k] + func + "\n" + out[k:]


def probe(out, labels):
    """Experiment: `new`'s decode kernels (those with a run-time guard) with their PTX edited (PROBES) and
    assembled by Triton's ptxas, as labels timed beside the others by `run`."""
    import subprocess
    import tempfile

    from triton.backends.nvidia.compiler import get_ptxas

    path = os.path.join(out, "meta.json")
    meta = json.load(open(path))
    ks = _kernels()
    done = {}
    for L in meta["launches"]:
        if L["kind"] != "decode" or L["new_is_stock"]:
            continue
        label = L["labels"]["new"]
        if label not in done:
            g = geometry(L)
            k, _, _ = _compile(ks[g["plain"]], g["ints"], g["tiles"], g["options"], True)
            done[label] = {}
            for pl in labels:
                new_label = label[:-len(".new")] + "." + pl
                with tempfile.TemporaryDirectory() as tmp:
                    src = os.path.join(tmp, "k.ptx")
                    open(src, "w").write(_probe_ptx(k.asm["ptx"], pl))
                    subprocess.run([get_ptxas(90).path, "-lineinfo", "--regAllocOptLevel=2", "--gpu-name=sm_90a",
                                    src, "-o", os.path.join(out, new_label + ".cubin")], check=True)
                meta["kernels"][new_label] = dict(meta["kernels"][label], what=PROBES[pl])
                done[label][pl] = new_label
                print(f"built {new_label}", flush=True)
        for pl in labels:
            L["labels"][pl] = done[label][pl]
    meta.setdefault("probes", {}).update({pl: PROBES[pl] for pl in labels})
    with open(path, "w") as f:
        json.dump(meta, f, indent=1, default=list)


def _sass(path):
    """(instructions, label -> index) of a cubin's SASS (Triton's nvdisasm)."""
    import subprocess

    import triton

    tool = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "nvdisasm")
    text = subprocess.run([tool, "-c", path], capture_output=True, text=True, check=True).stdout
    ins, labels = [], {}
    for ln in text.splitlines():
        if m := re.match(r"^(\.L_x_\d+):", ln.strip()):
            labels[m.group(1)] = len(ins)
        elif m := re.match(r"^\s+/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;", ln):
            ins.append(m.group(1))
    return ins, labels


def first_load_path(path, declines=True):
    """The path of a program up to its first global load: (instructions executed before it, [(index of the guard's
    branch, instructions it jumps over)]), the guard's branch being the first forward conditional branch before that
    load (none in stock's code), taken where the guard declines (`declines`), else not; unconditional branches taken."""
    ins, labels = _sass(path)
    i, n, jumps, guard_seen = 0, 0, [], False
    while i < len(ins) and "LDG" not in ins[i] and n < 10000:
        n += 1
        m = re.search(r"^(@!?U?P\w+\s+)?BRA `\((\.L_x_\d+)\)", ins[i])
        if m and not m.group(1):
            i = labels[m.group(2)]
            continue
        if m and not guard_seen and labels[m.group(2)] > i:
            guard_seen = True
            jumps.append((i, labels[m.group(2)] - i - 1))
            if declines:
                i = labels[m.group(2)]
                continue
        i += 1
    return (n if n < 10000 else None), jumps


def sass_report(out):
    """Here (CPU): per kernel with a run-time guard, what a declining program runs before its first global load,
    against stock's, in every variant built (SASS read with Triton's nvdisasm)."""
    meta = json.load(open(os.path.join(out, "meta.json")))
    rows = {}
    for L in meta["launches"]:
        if L["new_is_stock"]:
            continue
        for v, label in L["labels"].items():
            if v != "hand" and label not in rows:
                path = os.path.join(out, label + ".cubin")
                # stock, tiny and nct have no guard branch: their first forward branch is the kernel's own
                n, jumps = first_load_path(path, declines=v not in ("stock", "tiny", "nct"))
                rows[label] = (L["labels"]["stock"], v, n, first_load_path(path, declines=False)[0], jumps)
    print("| kernel | variant | instructions before the first global load: declining (stock's) | remapping | "
          "guard's branch at, jumps over |")
    print("| --- | --- | --- | --- | --- |")
    for label, (stock, v, n, n_remap, jumps) in rows.items():
        if v != "stock":
            fig = lambda x: "-" if x is None else x  # noqa: E731 (no global load outside a loop on that path)
            print(f"| {stock[:-len('.stock')]} | {v} | {fig(n)} ({fig(rows[stock][2])}) | {fig(n_remap)} | "
                  + (f"{jumps[0][0]}, {jumps[0][1]}" if jumps else "no branch") + " |")


# ------------------------------------------------------------------------------------------------- run (GPU)

def run(out, results, which="all", runs=2):
    import cupy as cp
    import torch

    meta = json.load(open(os.path.join(out, "meta.json")))
    os.makedirs(results, exist_ok=True)
    dev = torch.cuda.get_device_name()
    fns = {}
    for label, v in meta["kernels"].items():
        mod = cp.RawModule(path=os.path.join(out, label + ".cubin"))
        fn = mod.get_function(v["name"])
        if v["shared"] > 48 * 1024:
            fn.max_dynamic_shared_size_bytes = v["shared"]
        fns[label] = (mod, fn, v)
    flush = torch.empty(256 * 2**20 // 4, dtype=torch.int32, device="cuda")
    ids = None if which in ("all", "tuning") else {int(x) for x in which.split(",")}
    launches = [L for L in meta["launches"] if (which != "tuning" or not L["held"]) if ids is None or L["id"] in ids]
    variants = [v for v in ("new", "old", *meta.get("probes", {}), "hand") if any(v in L["labels"] for L in launches)]
    lines, rows = [], []

    def say(s=""):
        print(s, flush=True)
        lines.append(s)
        with open(os.path.join(results, "grid_order_wide.md"), "w") as f:
            f.write("\n".join(lines) + "\n")

    def launch(label, grid, bufs, ints):
        _, fn, v = fns[label]
        args = [cp.uint64(bufs[p].data_ptr()) if p.endswith("_ptr") else cp.int32(ints[p]) for p in v["params"]]
        fn(tuple(grid), (32 * v["num_warps"], 1, 1), tuple(args + [cp.uint64(0), cp.uint64(0)]),
           shared_mem=v["shared"])

    say(f"# mfma-grid-order around its decision boundary on {dev}: {len(launches)} launches ({which}), {runs} runs")
    say()
    say("ratio = median over reps of stock time / variant time, launches adjacent in time, L2 flushed (256 MiB "
        "written) before each; *noise* = stock / stock (the same cubin under two names). *new* decides: R = remaps "
        "at run time, r = declines at run time (guard), c = declined at compile time (cubin = stock's). held = "
        "held aside while tuning.")
    for run_i in range(1, runs + 1):
        say()
        say(f"## Run {run_i}")
        say()
        cols = [v for v in variants if v != "new"]
        say("| # | held | kind | tiles | M x N x K | W MB | grid | new decides | stock us | new | "
            + " | ".join(cols) + " | noise | bitwise |")
        say("|" + " --- |" * (12 + len(cols)))
        torch.manual_seed(0)
        for L in launches:
            g = geometry(L)
            M, N, K = L["M"], L["N"], L["K"]
            a = torch.randn(M, K, device="cuda", dtype=torch.float16)
            b = torch.randn(K, N, device="cuda", dtype=torch.float16) / math.sqrt(K)
            decode = L["kind"] == "decode"
            sk = g["tiles"].get("SPLIT_K", 1)
            labels = {"stock": L["labels"]["stock"], **{v: L["labels"][v] for v in variants if v in L["labels"]}}
            outs = {}
            for v, lb in labels.items():
                o = (torch.full((sk, M, N), float("nan"), device="cuda") if decode else
                     torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16))
                bufs = {"a_ptr": a, "w_ptr": b, "b_ptr": b, "p_ptr": o, "c_ptr": o}
                launch(lb, g["hand_grid"] if v == "hand" else g["grid"], bufs, g["ints"])
                outs[v] = o
            torch.cuda.synchronize()
            timing_only = {v for v, what in meta.get("probes", {}).items() if "timing only" in what}
            equal = all(torch.equal(outs["stock"], o) for v, o in outs.items() if v not in timing_only) and \
                not torch.isnan(outs["stock"]).any().item()
            bufs = {"a_ptr": a, "w_ptr": b, "b_ptr": b, "p_ptr": outs["stock"], "c_ptr": outs["stock"]}
            for v in list(outs):
                if v != "stock":
                    del outs[v]
            names = list(labels) + ["stock#2"]

            def go(name):
                v = name.split("#")[0]
                launch(labels[v], g["hand_grid"] if v == "hand" else g["grid"], bufs, g["ints"])

            for nm in names:  # warm-up
                go(nm)
            torch.cuda.synchronize()
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            go("stock")
            e.record()
            e.synchronize()
            reps = max(15, min(800, int(0.4e3 / max(s.elapsed_time(e), 1e-3))))
            times = {nm: [] for nm in names}
            for r in range(reps):
                for nm in (names if r % 2 == 0 else names[::-1]):
                    flush.zero_()
                    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    s.record()
                    go(nm)
                    e.record()
                    e.synchronize()
                    times[nm].append(s.elapsed_time(e))
            ratio = {nm: statistics.median(x / y for x, y in zip(times["stock"], times[nm])) for nm in names}
            dn = L["decisions"]["new"]
            how = "c" if L["new_is_stock"] else ("R" if dn["remaps"] else "r")
            cell = lambda v: f"{ratio[v]:.3f}" if v in ratio else ""  # noqa: E731
            say(f"| {L['id']} | {'held' if L['held'] else ''} | {L['kind']} | {L['cfg']} | {M}x{N}x{K} | "
                f"{g['W'] / 1e6:.1f} | {g['grid']} | {how} | {statistics.median(times['stock']) * 1e3:.1f} | "
                f"**{cell('new')}** | " + "".join(f"{cell(v)} | " for v in cols) + f"{cell('stock#2')} | {equal} |")
            rows.append(dict(run=run_i, id=L["id"], held=L["held"], kind=L["kind"], cfg=L["cfg"], M=M, N=N, K=K,
                             W=g["W"], grid=g["grid"], new_decides=how, old_remaps=L["decisions"].get("old", {}).get(
                                 "remaps"), ratio=ratio, stock_ms=statistics.median(times["stock"]), reps=reps,
                             bitwise_equal=equal))
            del a, b, bufs, outs
            torch.cuda.empty_cache()
        summarize(rows, run_i, say)
    from record import write_json

    write_json(os.path.join(results, "grid_order_wide.json"), {"device": dev, "rows": rows}, indent=1, default=list)


def summarize(rows, run_i, say):
    say()
    for held in (False, True):
        rs = [r for r in rows if r["run"] == run_i and r["held"] == held]
        if not rs:
            continue
        say(f"Run {run_i}, {'held-aside' if held else 'tuning'} launches ({len(rs)}):")
        for how, what in (("R", "remapped at run time"), ("r", "declined at run time"),
                          ("c", "declined at compile time")):
            sel = [r for r in rs if r["new_decides"] == how]
            if sel:
                lo = min(sel, key=lambda r: r["ratio"]["new"])
                say(f"- {what}: {len(sel)}, new / stock min {lo['ratio']['new']:.3f} (#{lo['id']}), median "
                    f"{statistics.median(r['ratio']['new'] for r in sel):.3f}")
        declined = [r for r in rs if r["new_decides"] == "r"]
        others = sorted({v for r in declined for v in r["ratio"]} - {"stock", "stock#2", "new"})
        if declined and others:
            say("- declined at run time, every variant: " + "; ".join(
                f"{v} min {min(r['ratio'][v] for r in declined if v in r['ratio']):.3f} median "
                f"{statistics.median(r['ratio'][v] for r in declined if v in r['ratio']):.3f}"
                for v in ["new"] + others))
        big = [r for r in rs if r["W"] >= 4 * L2_BYTES]
        if big:
            say(f"- W >= 4 x L2: {len(big)}, new / stock " + ", ".join(f"#{r['id']} {r['ratio']['new']:.3f}"
                                                                      f" (hand {r['ratio'].get('hand', 0):.3f})"
                                                                      for r in big))
        say(f"- bitwise equal: {sum(r['bitwise_equal'] for r in rs)}/{len(rs)}; noise (stock / stock) "
            f"{min(r['ratio']['stock#2'] for r in rs):.3f}-{max(r['ratio']['stock#2'] for r in rs):.3f}")
        say()


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "build":
        build(sys.argv[2])
    elif cmd == "variant":
        variant(sys.argv[2], sys.argv[3])
    elif cmd == "sass":
        sass_report(sys.argv[2])
    elif cmd == "probe":
        probe(sys.argv[2], sys.argv[3].split(","))
    elif cmd == "run":
        run(sys.argv[2], sys.argv[3], *(sys.argv[4:5] or ["all"]), *[int(x) for x in sys.argv[5:6]])
    else:
        sys.exit(__doc__)
