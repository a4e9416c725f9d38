"""A generator of random, valid Triton kernels: seed -> the same kernel source, signature and compile options.

Each kernel is real Triton source (Triton's frontend reads the function's source), written to a .py file and
imported, then compiled by `triton.compile(ASTSource(...), target=GPUTarget(...), options=...)` as compile.py
does. What a seed draws (random.Random(seed), nothing else):

  family      gemm (a dot in a K loop, 85%) or nodot (a masked row reduction / scan kernel)
  dtype       fp32 (input_precision ieee / tf32 / Triton's default), fp16, bf16, the four fp8 types
              (fp8e4nv, fp8e5 OCP; fp8e4b8, fp8e5b16 FNUZ: which an arch takes is Triton's to say), int8,
              and tl.dot_scaled (mxfp4 e2m1 x e2m1, mxfp8 e4m3 / e5m2, bf16 x e2m1)
  tile        BLOCK_M, BLOCK_N in 16..256 (any pair, 256x16 included), BLOCK_K 16..128
  K loop      static (K a tl.constexpr) or dynamic (a runtime argument), K masked or not
  shape       A and/or B loaded transposed (tl.trans), M/N edge masks, program-id order: 2-D grid, row-major
              1-D or grouped (GROUP_M swizzle)
  epilogue    bias, a second (chained) dot, relu under scf.if on a runtime flag, a max/sum row reduction to a
              second output, a cumsum scan, the store as tl.atomic_add / tl.atomic_max, tl.assume on strides
  options     num_warps 1/2/4/8, num_stages 1-4, waves_per_eu 0-8

Kernels Triton itself rejects (the stock compile raises) are the runner's to drop; `spec(seed)` does not know
which those are.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import random
import sys
from dataclasses import asdict, dataclass, field

FP8 = ("fp8e4nv", "fp8e5", "fp8e4b8", "fp8e5b16")
DTYPES = ("fp32", "fp16", "bf16", "int8", "dot_scaled") + FP8
# dot_scaled operand formats: (lhs, rhs)
SCALED_FORMATS = (("e2m1", "e2m1"), ("e4m3", "e4m3"), ("e5m2", "e5m2"), ("bf16", "e2m1"), ("e4m3", "e2m1"))


@dataclass
class Spec:
    """Everything a seed decides; `source()` turns it into the kernel's text."""
    seed: int
    family: str = "gemm"
    dtype: str = "fp16"
    precision: str = ""  # fp32: "ieee" / "tf32" / "" (Triton's default)
    formats: tuple = ()  # dot_scaled: (lhs, rhs)
    bm: int = 64
    bn: int = 64
    bk: int = 32
    k: int = 256  # static K (also the launch K for a dynamic one)
    dynamic_k: bool = False
    mask_k: bool = False
    mask_mn: bool = False
    trans_a: bool = False
    trans_b: bool = False
    grid: str = "2d"  # 2d / rowmajor / grouped
    bias: bool = False
    chain: bool = False
    bn2: int = 32
    if_relu: bool = False
    reduce: str = ""  # "" / max / sum
    scan: bool = False
    atomic: str = ""  # "" / add / max
    assume: bool = False
    options: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"gen_{self.seed}"

    def describe(self) -> str:
        """One short line: what the kernel is."""
        if self.family == "nodot":
            parts = [f"nodot {self.dtype} rows {self.bm}x{self.bn}", "scan" if self.scan else self.reduce or "max"]
        else:
            dt = self.dtype + (f"/{self.precision}" if self.precision else "")
            if self.dtype == "dot_scaled":
                dt = "dot_scaled " + "x".join(self.formats)
            parts = [f"{dt} {self.bm}x{self.bn}x{self.bk}", f"K={'dyn' if self.dynamic_k else self.k}"]
            parts += [n for n, on in (("maskK", self.mask_k), ("maskMN", self.mask_mn), ("transA", self.trans_a),
                                      ("transB", self.trans_b), ("bias", self.bias), ("chain", self.chain),
                                      ("if", self.if_relu), ("scan", self.scan), ("assume", self.assume)) if on]
            if self.reduce:
                parts.append(f"{self.reduce}-red")
            if self.atomic:
                parts.append(f"atomic_{self.atomic}")
            if self.grid != "2d":
                parts.append(self.grid)
        o = self.options
        parts.append(f"w{o['num_warps']} s{o['num_stages']} wpe{o['waves_per_eu']}")
        return " ".join(parts)


def spec(seed: int) -> Spec:
    """The kernel of `seed` (deterministic: the same seed gives the same Spec on every machine)."""
    r = random.Random(seed)
    s = Spec(seed=seed)
    s.options = {"num_warps": r.choice((1, 2, 4, 8)), "num_stages": r.randint(1, 4), "waves_per_eu": r.randint(0, 8)}
    if r.random() < 0.15:
        s.family = "nodot"
        s.dtype = r.choice(("fp32", "fp16", "bf16"))
        s.bm, s.bn = r.choice((1, 2, 4, 8, 16)), r.choice((32, 64, 128, 256, 512, 1024))
        s.mask_mn = r.random() < 0.7
        s.scan = r.random() < 0.3
        s.reduce = r.choice(("max", "sum"))
        s.if_relu = r.random() < 0.3
        s.atomic = r.choice(("", "", "add", "max")) if not s.scan else ""
        s.assume = r.random() < 0.4
        s.dynamic_k = r.random() < 0.5
        return s
    s.dtype = r.choice(DTYPES + ("fp16", "bf16", "fp32"))
    if s.dtype == "fp32":
        s.precision = r.choice(("ieee", "tf32", ""))
    sizes = (16, 32, 64, 128, 256)
    s.bm, s.bn = r.choice(sizes), r.choice(sizes)
    if s.dtype == "dot_scaled":
        s.formats = r.choice(SCALED_FORMATS)
        s.bk = r.choice((64, 128, 256))
    else:
        s.bk = r.choice((16, 32, 64, 128))
    s.k = s.bk * r.choice((1, 2, 4, 8, 16))
    s.dynamic_k = r.random() < 0.5
    s.mask_k = r.random() < 0.3
    s.mask_mn = r.random() < 0.5
    s.trans_a = r.random() < 0.25 and s.dtype != "dot_scaled"
    s.trans_b = r.random() < 0.35 and s.dtype != "dot_scaled"
    s.grid = r.choice(("2d", "rowmajor", "grouped"))
    s.bias = r.random() < 0.3
    s.chain = r.random() < 0.2 and s.dtype not in ("dot_scaled",)
    s.bn2 = r.choice((16, 32, 64))
    s.if_relu = r.random() < 0.25
    s.reduce = r.choice(("", "", "", "max", "sum"))
    s.scan = r.random() < 0.1
    s.atomic = r.choice(("",) * 6 + ("add", "max"))
    if s.atomic == "max" and s.dtype not in ("int8",):
        s.atomic = "add"  # float atomic max is not every arch's
    s.assume = r.random() < 0.3
    return s


# -- source ---------------------------------------------------------------------------------------------------

_TL = {"fp32": "tl.float32", "fp16": "tl.float16", "bf16": "tl.bfloat16", "int8": "tl.int8",
       "fp8e4nv": "tl.float8e4nv", "fp8e5": "tl.float8e5", "fp8e4b8": "tl.float8e4b8", "fp8e5b16": "tl.float8e5b16"}


def _ptr(dtype: str) -> str:
    return "*i8" if dtype == "int8" else f"*{dtype}"


def _scaled_ptr(fmt: str) -> str:
    return {"e2m1": "*u8", "e4m3": "*fp8e4nv", "e5m2": "*fp8e5", "bf16": "*bf16"}[fmt]


def signature_spec(s: Spec) -> tuple[list[str], dict]:
    """(argument names with their AOT signature entries, constexprs)."""
    if s.family == "nodot":
        args = [("X", f"*{s.dtype}:16"), ("Y", "*fp32:16"), ("R", "*fp32:16"), ("M", "i32"), ("N", "i32"),
                ("stride", "i32:16"), ("FLAG", "i32")]
        cx = {"BLOCK_M": s.bm, "BLOCK_N": s.bn}
        return args, cx
    if s.dtype == "dot_scaled":
        a_t, b_t = _scaled_ptr(s.formats[0]), _scaled_ptr(s.formats[1])
    else:
        a_t = b_t = _ptr(s.dtype)
    acc_int = s.dtype == "int8"
    c_t = "*i32" if acc_int else ("*fp32" if s.atomic or s.dtype == "fp32" else "*fp16")
    args = [("A", a_t + ":16"), ("B", b_t + ":16"), ("C", c_t + ":16")]
    if s.dtype == "dot_scaled":
        args += [("AS", "*u8:16"), ("BS", "*u8:16")]
    if s.bias:
        args.append(("BIAS", ("*i32" if acc_int else "*fp32") + ":16"))
    if s.chain:
        args.append(("W", b_t + ":16"))
    if s.reduce:
        args.append(("R", ("*i32" if acc_int else "*fp32") + ":16"))
    args += [("M", "i32"), ("N", "i32")]
    if s.dynamic_k:
        args.append(("K", "i32"))
    args += [("stride_am", "i32:16"), ("stride_bn", "i32:16"), ("stride_cm", "i32:16"), ("FLAG", "i32")]
    cx = {"BLOCK_M": s.bm, "BLOCK_N": s.bn, "BLOCK_K": s.bk, "GROUP_M": 4}
    if not s.dynamic_k:
        cx["K"] = s.k
    if s.chain:
        cx["BLOCK_N2"] = s.bn2
    return args, cx


def _nodot_source(s: Spec) -> str:
    args, cx = signature_spec(s)
    params = ", ".join([a for a, _ in args] + [f"{k}: tl.constexpr" for k in cx])
    mask = "(rows[:, None] < M) & (cols[None, :] < N - n0)" if s.mask_mn else "None"
    other = ", other=float('-inf')" if s.mask_mn and s.reduce == "max" else (", other=0.0" if s.mask_mn else "")
    red = "tl.max" if s.reduce == "max" else "tl.sum"
    init = "float('-inf')" if s.reduce == "max" else "0.0"
    comb = "tl.maximum(acc, part)" if s.reduce == "max" else "acc + part"
    lines = [f"def {s.name}({params}):",
             "    pid = tl.program_id(0)"]
    if s.assume:
        lines += ["    tl.assume(stride > 0)", "    tl.assume(M > 0)"]
    lines += ["    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)",
              "    cols = tl.arange(0, BLOCK_N)",
              f"    acc = tl.full((BLOCK_M,), {init}, tl.float32)",
              f"    for n0 in range(0, {'N' if s.dynamic_k else '4 * BLOCK_N'}, BLOCK_N):",
              "        ptrs = X + rows[:, None] * stride + (n0 + cols)[None, :]",
              f"        x = tl.load(ptrs, mask={mask}{other}).to(tl.float32)"]
    if s.if_relu:
        lines += ["        if FLAG > 0:", "            x = tl.maximum(x, 0.0)"]
    if s.scan:
        lines += ["        y = tl.cumsum(x, axis=1)",
                  f"        tl.store(Y + rows[:, None] * stride + (n0 + cols)[None, :], y, mask={mask})"]
    lines += [f"        part = {red}(x, axis=1)", f"        acc = {comb}"]
    rmask = "rows < M" if s.mask_mn else "None"
    if s.atomic == "add":
        lines.append(f"    tl.atomic_add(R + pid % 4 + tl.zeros_like(rows), acc, mask={rmask})")
    elif s.atomic == "max":
        lines.append(f"    tl.atomic_max(R + rows, acc, mask={rmask})")
    else:
        lines.append(f"    tl.store(R + rows, acc, mask={rmask})")
    return "\n".join(lines)


def _gemm_source(s: Spec) -> str:
    args, cx = signature_spec(s)
    params = ", ".join([a for a, _ in args] + [f"{k}: tl.constexpr" for k in cx])
    scaled = s.dtype == "dot_scaled"
    acc_int = s.dtype == "int8"
    L = [f"def {s.name}({params}):"]
    if s.assume:
        L += ["    tl.assume(stride_am > 0)", "    tl.assume(stride_bn > 0)", "    tl.assume(stride_cm > 0)"]
    if s.grid == "2d":
        L += ["    pid_m = tl.program_id(0)", "    pid_n = tl.program_id(1)"]
    else:
        L += ["    pid = tl.program_id(0)", "    num_m = tl.cdiv(M, BLOCK_M)", "    num_n = tl.cdiv(N, BLOCK_N)"]
        if s.grid == "rowmajor":
            L += ["    pid_m = pid // num_n", "    pid_n = pid % num_n"]
        else:
            L += ["    group = GROUP_M * num_n", "    first = (pid // group) * GROUP_M",
                  "    size = min(num_m - first, GROUP_M)", "    pid_m = first + (pid % group) % size",
                  "    pid_n = (pid % group) // size"]
    L += ["    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)",
          "    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)"]
    # K elements per byte for a packed e2m1 operand
    pa = 2 if scaled and s.formats[0] == "e2m1" else 1
    pb = 2 if scaled and s.formats[1] == "e2m1" else 1
    L += [f"    offs_ka = tl.arange(0, BLOCK_K // {pa})", f"    offs_kb = tl.arange(0, BLOCK_K // {pb})"]
    # A is M x K row-major (stride_am, 1), or K x M (transposed: element (m, k) at k * stride_am + m)
    if s.trans_a:
        L.append("    a_ptrs = A + offs_ka[None, :] * stride_am + offs_m[:, None]")
        a_step = f"BLOCK_K // {pa} * stride_am"
    else:
        L.append("    a_ptrs = A + offs_m[:, None] * stride_am + offs_ka[None, :]")
        a_step = f"BLOCK_K // {pa}"
    if s.trans_b:  # B given N x K: element (k, n) at n * stride_bn + k
        L.append("    b_ptrs = B + offs_n[None, :] * stride_bn + offs_kb[:, None]")
        b_step = f"BLOCK_K // {pb}"
    else:
        L.append("    b_ptrs = B + offs_kb[:, None] * stride_bn + offs_n[None, :]")
        b_step = f"BLOCK_K // {pb} * stride_bn"
    if scaled:
        L += ["    offs_s = tl.arange(0, BLOCK_K // 32)",
              "    as_ptrs = AS + offs_m[:, None] * (K // 32) + offs_s[None, :]",
              "    bs_ptrs = BS + offs_n[:, None] * (K // 32) + offs_s[None, :]"]
    acc_ty = "tl.int32" if acc_int else "tl.float32"
    L.append(f"    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype={acc_ty})")
    L.append("    for k in range(0, tl.cdiv(K, BLOCK_K)):")
    za = "0" if acc_int or (scaled and s.formats[0] == "e2m1") else "0.0"
    zb = "0" if acc_int or (scaled and s.formats[1] == "e2m1") else "0.0"
    am, bm = [], []
    if s.mask_k:
        am.append(f"(offs_ka[None, :] < (K - k * BLOCK_K) // {pa})")
        bm.append(f"(offs_kb[:, None] < (K - k * BLOCK_K) // {pb})")
    if s.mask_mn:
        am.append("(offs_m[:, None] < M)")
        bm.append("(offs_n[None, :] < N)")
    amask = f", mask={' & '.join(am)}, other={za}" if am else ""
    bmask = f", mask={' & '.join(bm)}, other={zb}" if bm else ""
    L += [f"        a = tl.load(a_ptrs{amask})", f"        b = tl.load(b_ptrs{bmask})"]
    if scaled:
        L += ["        a_s = tl.load(as_ptrs)", "        b_s = tl.load(bs_ptrs)",
              "        as_ptrs += BLOCK_K // 32", "        bs_ptrs += BLOCK_K // 32",
              f"        acc = tl.dot_scaled(a, a_s, \"{s.formats[0]}\", b, b_s, \"{s.formats[1]}\", acc)"]
    else:
        prec = f", input_precision=\"{s.precision}\"" if s.precision else ""
        L.append(f"        acc = tl.dot(a, b, acc{prec})")
    L += [f"        a_ptrs += {a_step}", f"        b_ptrs += {b_step}"]
    if s.bias:
        bmask_n = ", mask=offs_n < N, other=0" if s.mask_mn else ""
        L.append(f"    acc += tl.load(BIAS + offs_n{bmask_n})[None, :]")
    out = "acc"
    if s.chain:
        elem = _TL.get(s.dtype, "tl.float16")
        L += ["    offs_n2 = tl.arange(0, BLOCK_N2)",
              "    w = tl.load(W + tl.arange(0, BLOCK_N)[:, None] * BLOCK_N2 + offs_n2[None, :])",
              f"    acc2 = tl.dot(acc.to({elem}), w)"]
        out = "acc2"
        n_offs, n_lim = "offs_n2", "BLOCK_N2"
    else:
        n_offs, n_lim = "offs_n", "N"
    if s.if_relu:
        L += ["    if FLAG > 0:", f"        {out} = tl.maximum({out}, 0)"]
    if s.scan:
        L.append(f"    {out} = tl.cumsum({out}, axis=1)")
    cmask = f"(offs_m[:, None] < M) & ({n_offs}[None, :] < {n_lim})" if s.mask_mn else "None"
    if s.reduce:
        fn = "tl.max" if s.reduce == "max" else "tl.sum"
        L.append(f"    tl.store(R + offs_m, {fn}({out}, axis=1){', mask=offs_m < M' if s.mask_mn else ''})")
    L.append(f"    c_ptrs = C + offs_m[:, None] * stride_cm + {n_offs}[None, :]")
    if s.atomic:
        L.append(f"    tl.atomic_{s.atomic}(c_ptrs, {out}, mask={cmask})")
    else:
        L.append(f"    tl.store(c_ptrs, {out}.to(C.dtype.element_ty), mask={cmask})")
    return "\n".join(L)


def source(s: Spec) -> str:
    """The kernel's module text (a @triton.jit function named `s.name`)."""
    body = _nodot_source(s) if s.family == "nodot" else _gemm_source(s)
    return ("# generated by triton_mfma.testing.kernelgen from seed %d: %s\n"
            "import triton\nimport triton.language as tl\n\n\n"
            "@triton.jit\n%s\n" % (s.seed, s.describe(), body))


def aot_spec(s: Spec) -> str:
    """The AOT signature text (compile.aot_signature) of the non-constexpr arguments."""
    return ",".join(e for _, e in signature_spec(s)[0])


def load(s: Spec, directory: str):
    """Write the kernel's source to `directory` (named by its content) and import it: the JITFunction."""
    text = source(s)
    os.makedirs(directory, exist_ok=True)
    digest = hashlib.sha1(text.encode()).hexdigest()[:10]
    path = os.path.join(directory, f"{s.name}_{digest}.py")
    if not os.path.exists(path):
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    mod_name = f"tmfma_gen_{s.seed}_{digest}"
    module = sys.modules.get(mod_name)
    if module is None:
        spec_ = importlib.util.spec_from_file_location(mod_name, path)
        module = importlib.util.module_from_spec(spec_)
        sys.modules[mod_name] = module
        spec_.loader.exec_module(module)
    return getattr(module, s.name)


def compile_args(s: Spec, directory: str, arch: str):
    """(fn, signature, constexprs, attrs, options) for `compile.compile_kernel`-style compiles of `s` on `arch`."""
    from ..compiler.compile import aot_signature

    fn = load(s, directory)
    _, cx = signature_spec(s)
    signature, constexprs, attrs = aot_signature(fn, aot_spec(s), cx, arch=arch)
    options = dict(s.options)
    if not arch.startswith("gfx"):
        options.pop("waves_per_eu", None)
    return fn, signature, constexprs, attrs, options


def as_dict(s: Spec) -> dict:
    return asdict(s)


def from_dict(d: dict) -> Spec:
    """The Spec `as_dict` gave (a reproducer written by hand is a dict like it: unnamed fields default)."""
    d = dict(d)
    d["formats"] = tuple(d.get("formats", ()))
    return Spec(**d)
