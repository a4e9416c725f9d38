"""The corpus harness: a configuration = a library's @triton.jit function + the arguments its launch passes.

A configuration names every argument the way the library's launch does, with a value:
  - `P("bf16")`: a tensor of that element type (a torch allocation: 16-byte aligned; on AMD also within
    2 GB, so Triton 3.9 marks it `tt.pointer_range=32` and may use buffer ops, as it does at launch);
  - an int: i32 (i64 past int32), divisible by 16 when it is, `1` specialised to a constant: exactly what
    Triton's JIT binder does for an int argument (unless the kernel lists it in do_not_specialize);
  - a float: fp32; a bool: i1; `C(x)`: a tl.constexpr (or None).
Arguments left out take the kernel's defaults. `build()` turns that into the signature, constexprs and
attrs Triton's JIT would hand `triton.compile`, so a compile here is the one the library's launch makes.
"""
from __future__ import annotations

import dataclasses
import os
import statistics
import sys
import warnings
from dataclasses import dataclass, field

import triton
from triton import knobs
from triton.compiler import ASTSource

import triton_mfma
from triton_mfma.models import dot_figures
from triton_mfma.models import occupancy as occ_model
from triton_mfma.models import resources
from triton_mfma.compiler.compile import target

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # bench/: cputime
from cputime import Measured, population  # noqa: E402


@dataclass(frozen=True)
class P:
    """A tensor argument (pointer) of element type `dtype` (Triton's names: fp16, bf16, fp32, i8, ...)."""
    dtype: str


@dataclass(frozen=True)
class C:
    """A tl.constexpr argument."""
    value: object


@dataclass
class Config:
    lib: str
    name: str  # unique within the library
    fn: object  # the JITFunction (autotune / heuristics wrappers unwrapped)
    args: dict
    options: object = field(default_factory=dict)  # dict, or arch -> dict (a launch that asks is_hip()); num_warps, num_stages, waves_per_eu, matrix_instr_nonkdim ...
    mirrors: str = ""  # library file: launching function -> kernel, and the library's config it uses
    archs: tuple = ("gfx90a", "gfx942", "gfx950", "cuda:90")
    quick: bool = False  # part of --quick and of the CI subset

    @property
    def id(self) -> str:
        return f"{self.lib}/{self.name}"


def unwrap(fn):
    """The JITFunction under triton.autotune / triton.heuristics / library wrappers (`.fn` chain)."""
    seen = 0
    while not isinstance(fn, triton.runtime.JITFunction):
        fn = getattr(fn, "fn", None) or getattr(fn, "kernel", None)
        seen += 1
        if fn is None or seen > 10:
            raise TypeError("no JITFunction under this object")
    return fn


def _int_type(v: int) -> str:
    return "i32" if -(2**31) <= v < 2**31 else "i64"


def _plain(v):
    return v.value if isinstance(v, C) else v


def resolve(cfg: Config, arch: str) -> tuple[dict, dict]:
    """(arguments, compile options) of the launch: the configuration's, then the values the kernel's
    @triton.heuristics wrappers compute from them (outermost first, as at launch); a heuristic value that is
    not a kernel argument (num_warps, ...) is a compile option."""
    fn = unwrap(cfg.fn)
    args = dict(cfg.args)
    opts = dict(cfg.options(arch) if callable(cfg.options) else cfg.options)
    chain, o = [], cfg.fn
    while not isinstance(o, triton.runtime.JITFunction):
        chain.append(o)
        o = getattr(o, "fn", None) or getattr(o, "kernel", None)
    for w in chain:
        values = getattr(w, "values", None)
        if isinstance(w, triton.runtime.Heuristics) or (values and isinstance(values, dict)):
            named = {p.name: _plain(args[p.name]) if p.name in args else (p.default if p.has_default else None)
                     for p in fn.params}
            named.update({k: v for k, v in opts.items()})
            for k, h in values.items():
                v = h(named)
                named[k] = v
                if k in fn.arg_names:
                    args[k] = C(v)
                else:
                    opts[k] = v
    return args, opts


def build(cfg: Config, arch: str, args: dict | None = None):
    """(signature, constexprs, attrs) as Triton's JIT binder makes them for this launch."""
    fn = unwrap(cfg.fn)
    hip = arch.startswith("gfx")
    if args is None:
        args = resolve(cfg, arch)[0]
    unknown = set(args) - set(fn.arg_names)
    if unknown:
        raise KeyError(f"{cfg.id}: {fn.__name__} has no argument(s) {sorted(unknown)}")
    sig, constexprs, attrs = {}, {}, {}
    for i, p in enumerate(fn.params):
        name = p.name
        if name in args:
            v = args[name]
        elif p.has_default:
            v = p.default
        else:
            raise KeyError(f"{cfg.id}: argument {name} of {fn.__name__} not given")
        if p.is_constexpr and not isinstance(v, C):
            v = C(v)
        if isinstance(v, C) or v is None:
            sig[name] = "constexpr"
            constexprs[name] = v.value if isinstance(v, C) else None
        elif isinstance(v, P):
            sig[name] = "*" + v.dtype
            a = [["tt.divisibility", 16]]
            if hip and knobs.amd.use_buffer_ops:
                a.append(["tt.pointer_range", 32])
            attrs[(i,)] = a
        elif isinstance(v, bool):
            sig[name] = p.annotation_type or "i1"
        elif isinstance(v, int) and p.annotation_type:  # `x: tl.int64`: that type, no constant 1
            sig[name] = p.annotation_type
            if (v % 16 == 0 and p.annotation_type[:2] not in ("fp", "bf") and not p.do_not_specialize
                    and not p.do_not_specialize_on_alignment):
                attrs[(i,)] = [["tt.divisibility", 16]]
        elif isinstance(v, int):
            if v == 1 and not p.do_not_specialize:
                sig[name] = "constexpr"
                constexprs[name] = 1
            else:
                sig[name] = _int_type(v)
                if v % 16 == 0 and not p.do_not_specialize and not p.do_not_specialize_on_alignment:
                    attrs[(i,)] = [["tt.divisibility", 16]]
        elif isinstance(v, float):
            sig[name] = p.annotation_type or "fp32"
        elif isinstance(v, str):  # an explicit Triton type, e.g. "i64" or "fp32"
            sig[name] = v
        else:
            raise TypeError(f"{cfg.id}: argument {name}: {v!r}")
    return sig, constexprs, attrs


def compile_cfg(cfg: Config, arch: str):
    args, opts = resolve(cfg, arch)
    sig, constexprs, attrs = build(cfg, arch, args)
    src = ASTSource(fn=unwrap(cfg.fn), signature=sig, constexprs=constexprs, attrs=attrs)
    return triton.compile(src, target=target(arch), options=opts)


# ---------------------------------------------------------------------------------------------- figures

@dataclass
class Figs:
    regs: int  # AMD: .vgpr_count (VGPR + AGPR, unified); cuda: registers per thread
    sgpr: int
    vgpr_spill: int
    sgpr_spill: int
    lds: int
    waves: int  # AMD: waves per SIMD, registers and LDS (occupancy.py); cuda: warps per SM (modelled)
    workgroups: int  # per CU / SM
    mfma: int = 0
    decision: str = ""  # metadata.triton_mfma_accelerate_dot's decision, if any

    @property
    def spills(self) -> int:
        return self.vgpr_spill + self.sgpr_spill

    def key(self):
        return (self.regs, self.sgpr, self.vgpr_spill, self.sgpr_spill, self.lds, self.waves, self.workgroups,
                self.mfma)


def _cuda_usage(cubin: bytes) -> dict:
    """REG / STACK / LOCAL of the kernel, from Triton's bundled cuobjdump --dump-resource-usage."""
    import os
    import re
    import subprocess
    import tempfile

    from triton.backends.nvidia import compiler as nv

    tool = os.path.join(os.path.dirname(nv.__file__), "bin", "cuobjdump")
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        out = subprocess.run([tool, "--dump-resource-usage", f.name], capture_output=True, text=True,
                             check=True).stdout
    get = lambda k: int(re.search(rf"\b{k}:(\d+)", out).group(1)) if re.search(rf"\b{k}:(\d+)", out) else 0
    return {"reg": get("REG"), "stack": get("STACK"), "local": get("LOCAL")}


def _sm90_occupancy(regs: int, warps: int, smem: int) -> tuple[int, int]:
    """(warps per SM, blocks per SM) on sm_90 from registers and shared memory (the CUDA occupancy rules:
    registers in 256-register warp granules of a 64K file, 228 KiB shared per SM with 1 KiB reserved per block,
    at most 64 warps and 32 blocks)."""
    per_warp = -(-max(regs, 1) * 32 // 256) * 256
    by_regs = (65536 // per_warp) // warps if per_warp else 32
    by_smem = (228 * 1024) // (smem + 1024) if smem else 32
    blocks = max(0, min(32, 64 // warps, by_regs, by_smem))
    return blocks * warps, blocks


def figures(k, arch: str) -> Figs:
    md = k.metadata
    dec = (getattr(md, "triton_mfma_accelerate_dot", None) or {}).get("decision", "")
    if arch.startswith("gfx"):
        r = resources.of_kernel(k)
        o = occ_model.occupancy(arch, md.num_warps, r.vgpr_total, r.sgpr, r.lds, getattr(md, "waves_per_eu", 0) or 0)
        return Figs(r.vgpr_total, r.sgpr, r.vgpr_spill, r.sgpr_spill, r.lds, o.waves_per_simd, o.workgroups_per_cu,
                    r.mfma_count, dec)
    u = _cuda_usage(k.asm["cubin"])
    waves, blocks = _sm90_occupancy(u["reg"], md.num_warps, md.shared)
    return Figs(u["reg"], 0, u["local"], 0, md.shared, waves, blocks, 0, dec)


def judged(stock, ours) -> tuple[list[str], list[str]]:
    """(worse, better) of ours against stock (dot_figures.Figures of both): the one judge every decision and the
    differential runner use (dot_figures.compare: main-loop scratch, scratch, occupancy, main-loop AGPR copies and
    SGPR lane spills, dot cycles, LDS ops). AMD only: cuda's pairs take `verdict` on the resource figures."""
    outcome, reasons = dot_figures.compare(stock, ours)
    return (reasons, []) if outcome == "worse" else ([], reasons if outcome == "better" else [])


def verdict(s: Figs, o: Figs) -> tuple[list[str], list[str]]:
    """(worse, better) on cuda's resource figures: the criteria where ours is worse / strictly better than stock.

    Worse: fewer waves (occupancy, registers and LDS), more LDS, more VGPR+SGPR spills. A change that removes
    VGPR spills at lower occupancy counts as a gain, not a loss."""
    worse, better = [], []
    fewer_vgpr_spills = o.vgpr_spill < s.vgpr_spill
    if o.waves < s.waves and not fewer_vgpr_spills:
        worse.append(f"occupancy {s.waves}->{o.waves}")
    elif o.waves > s.waves:
        better.append(f"occupancy {s.waves}->{o.waves}")
    if o.workgroups < s.workgroups and not fewer_vgpr_spills and o.waves <= s.waves:
        worse.append(f"workgroups {s.workgroups}->{o.workgroups}")
    elif o.workgroups > s.workgroups and o.waves >= s.waves:
        better.append(f"workgroups {s.workgroups}->{o.workgroups}")
    if o.lds > s.lds:
        worse.append(f"LDS {s.lds}->{o.lds}")
    elif o.lds < s.lds:
        better.append(f"LDS {s.lds}->{o.lds}")
    if o.spills > s.spills:
        worse.append(f"spills {s.spills}->{o.spills}")
    elif o.spills < s.spills:
        better.append(f"spills {s.spills}->{o.spills}")
    return worse, better


# ---------------------------------------------------------------------------------------------- one run

@dataclass
class Result:
    id: str
    lib: str
    arch: str
    mirrors: str
    stock: dict | None = None
    ours: dict | None = None
    t_stock: float = 0.0  # wall seconds of the compile
    t_ours: float = 0.0
    cpu_stock: float = 0.0  # CPU seconds of every thread (bench/cputime.py): what issue 53's budget counts
    cpu_ours: float = 0.0
    has_dot: bool = False
    error: str = ""  # stock itself failed: not the project's
    failure: str = ""  # strict compile with our passes raised while stock compiled
    fallbacks: list = field(default_factory=list)  # MFMAWarning texts (non-strict compile)
    worse: list = field(default_factory=list)
    better: list = field(default_factory=list)
    # AMD: the one judge's figures of both compiles (dot_figures.Figures as a dict), ours' decision records
    # (metadata triton_mfma_*) and the waves_per_eu the configuration asks for: what bench/register_pressure.py reads
    judge_figures: dict = field(default_factory=dict)
    reasons: dict = field(default_factory=dict)
    waves_per_eu: int = 0

    @property
    def ratio(self) -> float:
        return self.t_ours / self.t_stock if self.t_stock else float("nan")

    @property
    def cpu_ratio(self) -> float:
        return self.cpu_ours / self.cpu_stock if self.cpu_stock else float("nan")

    @property
    def population(self) -> str:
        """Issue 53's population (bench/cputime.py): hand-written, by stock's ranked spills."""
        return population(self.has_dot, self.judge_figures.get("stock"), generated=False)


def _short(e: BaseException) -> str:
    text = f"{type(e).__name__}: {e}"
    return text if len(text) < 1500 else text[:1500] + " ..."


def _timed(fn):
    """(fn(), wall seconds, CPU seconds of every thread, trial compiles that outlive the call included)."""
    with Measured() as m:
        k = fn()
    return k, m.wall, m.cpu


def run_one(cfg: Config, arch: str, passes=None, strict: bool = True, warmed: set | None = None,
            reps: int = 1) -> Result:
    """stock, then ours (strict; non-strict too where strict raised), each compiled fresh, both timed; `reps` > 1:
    both compiled that many times in all, stock and ours in turn, the least time of each kept (`_retimed`)."""
    res = Result(cfg.id, cfg.lib, arch, cfg.mirrors)
    saved = knobs.compilation.always_compile
    knobs.compilation.always_compile = True
    triton_mfma.disable()
    try:
        fn = unwrap(cfg.fn)
        if warmed is not None and fn not in warmed:  # what Triton caches per function in the process (AST, ...)
            warmed.add(fn)
            try:
                compile_cfg(cfg, arch)
            except Exception:  # noqa: BLE001 - reported by the timed compile below
                pass
        try:
            stock, res.t_stock, res.cpu_stock = _timed(lambda: compile_cfg(cfg, arch))
        except Exception as e:  # noqa: BLE001
            res.error = _short(e)
            return res
        s = figures(stock, arch)
        res.stock = dataclasses.asdict(s)
        # Ours as users get it (timed), in strict mode: a failing pass raises instead of falling back. Warnings
        # (MFMAWarning) are recorded; only when strict raised is the compile repeated non-strict, to count the
        # fallback and read the figures users would get (the two modes differ only in what a failure does).
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", triton_mfma.MFMAWarning)
            warnings.simplefilter("ignore", triton_mfma.MFMARemark)
            ours = None
            if strict:
                with triton_mfma.enabled(passes=passes, strict=True):
                    try:
                        ours, res.t_ours, res.cpu_ours = _timed(lambda: compile_cfg(cfg, arch))
                    except Exception as e:  # noqa: BLE001
                        res.failure = _short(e)
            if ours is None:
                with triton_mfma.enabled(passes=passes):
                    try:
                        ours, t, cpu = _timed(lambda: compile_cfg(cfg, arch))
                        res.t_ours, res.cpu_ours = res.t_ours or t, res.cpu_ours or cpu
                    except Exception as e:  # noqa: BLE001 - non-strict should never raise
                        res.failure = (res.failure + " | " if res.failure else "") + "non-strict: " + _short(e)
                        return res
        res.fallbacks = [str(w.message)[:1500] for w in caught if issubclass(w.category, triton_mfma.MFMAWarning)]
        if reps > 1 and not res.failure:
            _retimed(res, cfg, arch, passes, reps - 1)
        o = figures(ours, arch)
        res.ours = dataclasses.asdict(o)
        if not arch.startswith("gfx"):
            res.worse, res.better = verdict(s, o)
            return res
        f_stock, f_ours = dot_figures.of_kernel(stock), dot_figures.of_kernel(ours)
        res.worse, res.better = judged(f_stock, f_ours)
        res.judge_figures = {"stock": vars(f_stock), "ours": vars(f_ours)}
        res.has_dot = "tt.dot" in stock.asm["ttir"]
        md = ours.metadata._asdict() if hasattr(ours.metadata, "_asdict") else vars(ours.metadata)
        res.reasons = {k: v for k, v in md.items() if k.startswith("triton_mfma")}
        res.waves_per_eu = int(getattr(stock.metadata, "waves_per_eu", 0) or 0)
        return res
    finally:
        knobs.compilation.always_compile = saved
        triton_mfma.disable()


def _retimed(res: Result, cfg: Config, arch: str, passes, more: int) -> None:
    """`more` compiles of stock and of ours (strict) in turn, each side's least CPU and wall time kept: one timed
    compile per kernel moves stock's CPU by +-10% between runs of the same tree (bench/results' two runs at the
    eighteenth session's end), more than the budget's medians can be told by."""
    for _ in range(more):
        _, t, cpu = _timed(lambda: compile_cfg(cfg, arch))
        res.t_stock, res.cpu_stock = min(res.t_stock, t), min(res.cpu_stock, cpu)
        with warnings.catch_warnings(), triton_mfma.enabled(passes=passes, strict=True):
            warnings.simplefilter("ignore")
            _, t, cpu = _timed(lambda: compile_cfg(cfg, arch))
        res.t_ours, res.cpu_ours = min(res.t_ours, t), min(res.cpu_ours, cpu)


def summarize(results: list[Result]) -> dict:
    ok = [r for r in results if not r.error]
    ratios = [r.ratio for r in ok if r.t_stock and r.t_ours]
    return {
        "configs": len(results),
        "stock_errors": sum(1 for r in results if r.error),
        "failures": sum(1 for r in ok if r.failure),
        "fallbacks": sum(1 for r in ok if r.fallbacks),
        "worse": sum(1 for r in ok if r.worse),
        "better": sum(1 for r in ok if r.better and not r.worse),
        "changed": sum(1 for r in ok if r.stock and r.ours and r.stock != r.ours),
        "ratio_median": statistics.median(ratios) if ratios else float("nan"),
        "ratio_max": max(ratios) if ratios else float("nan"),
        "cpu_ratio_median": statistics.median(cpu) if (cpu := [r.cpu_ratio for r in ok if r.cpu_stock and r.cpu_ours])
        else float("nan"),
    }


def library_configs(obj) -> list:
    """The triton.Config list an autotuned kernel carries (the library's own list, read at run time), without
    repeated entries."""
    configs = getattr(obj, "configs", None)
    if configs is None:
        raise TypeError(f"{obj!r} is not autotuned")
    out, seen = [], set()
    for c in configs:  # libraries' lists repeat entries (flag_gems' AMD attention list does): once each
        key = (tuple(sorted((k, str(int(v) if isinstance(v, (bool, int)) else v)) for k, v in c.kwargs.items())),
               c.num_warps, c.num_stages)  # PRE_LOAD_V False and 0 are one config
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def from_triton_config(tc, fn=None) -> tuple[dict, dict]:
    """(constexpr args, compile options) of one triton.Config (a kwarg that is no argument of `fn`, e.g.
    waves_per_eu or matrix_instr_nonkdim, is a compile option, as at launch)."""
    names = set(unwrap(fn).arg_names) if fn is not None else None
    args = {k: C(v) for k, v in tc.kwargs.items() if names is None or k in names}
    opts = {"num_warps": tc.num_warps, "num_stages": tc.num_stages}
    opts.update({k: v for k, v in tc.kwargs.items() if names is not None and k not in names})
    if getattr(tc, "maxnreg", None):
        opts["maxnreg"] = tc.maxnreg
    return args, opts


def spread(items: list, n: int) -> list:
    """n items spread evenly over a list (first and last included), in order."""
    if n >= len(items):
        return list(items)
    if n == 1:
        return [items[0]]
    return [items[round(i * (len(items) - 1) / (n - 1))] for i in range(n)]
