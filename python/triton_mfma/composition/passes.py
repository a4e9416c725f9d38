"""The project's passes as Python sees them: flag, insertion point, targets, options — one registry line each.

One pass = one name in four places: the Passes.td def (flag `mfma-<kebab>`, its options), lib/Transforms/<Name>.cpp,
its lit file test/lit/<kebab>.mlir, and one `register(...)` here. A pass option is declared in Passes.td (its type,
default and description reach Python through the passes.json the build generates from it); here it gets only what
Python owns: its Python name, the values Python lets through (range, allowed values, symbolic values resolved per
kernel) and where it comes from (the kernel's Triton options). Options handled in Python alone (flag None: verify_*,
the activation's policies) are declared here in full. Values reach the pass pipeline text only after their check.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from .points import POINT_DOCS as POINTS, REPLACING_POINTS  # noqa: F401 - the one table of points (points.py)
from ..ir import native
from ..models.lds_budget import resolve_lds_limit

BACKENDS = ("hip", "cuda")


# Passes.td's C++ option types (passes.json "type") as Python checks them
CPP_KINDS = {"bool": bool, "unsigned": int, "int": int, "int64_t": int, "uint64_t": int, "std::string": str}


@dataclass(frozen=True)
class Option:
    """A user-facing option: Python name, the pass option it sets (None: handled in Python), its check. For a pass
    option `kind` and `doc` are Passes.td's (filled in by `register`); `doc` given here: what the Python value means
    where it differs from the pass's (a symbolic value)."""
    name: str
    flag: str | None
    kind: type | None = None  # int, bool or str
    doc: str = ""
    choices: tuple = ()  # allowed values (str or int); empty: any value of `kind` within [low, high]
    low: int | None = None
    high: int | None = None
    symbolic: tuple = ()  # strings accepted besides `kind`, resolved per kernel before the pass runs
    default: object = None  # None: not passed, the pass's own default (Passes.td) applies

    def allowed(self) -> str:
        if self.choices:
            text = " | ".join(repr(c) for c in self.choices)
        elif self.kind is bool:
            text = "True | False"
        elif self.kind is int:
            lo = "" if self.low is None else str(self.low)
            hi = "" if self.high is None else str(self.high)
            text = f"int in [{lo}, {hi}]" if hi else f"int >= {lo}" if lo else "int"
        else:
            text = getattr(self.kind, "__name__", "?")
        return text + "".join(f" | {s!r}" for s in self.symbolic)

    def check(self, value):
        """`value` if allowed, else ValueError naming the option, the value and what is allowed."""
        if self.kind is None:
            raise ValueError(f"triton-mfma option {self.name}: pass option {self.flag!r} is not in the native "
                             f"library's passes.json (build the package)")
        ok = value in self.symbolic if isinstance(value, str) and self.symbolic else False
        if not ok:
            if self.kind is int:
                ok = isinstance(value, int) and not isinstance(value, bool)
                ok = ok and (self.low is None or value >= self.low) and (self.high is None or value <= self.high)
            elif self.kind is bool:
                ok = isinstance(value, bool)
            else:
                ok = isinstance(value, self.kind)
            ok = ok and (not self.choices or value in self.choices)
        if not ok:
            raise ValueError(f"triton-mfma option {self.name}={value!r} is not allowed; allowed: {self.allowed()}")
        return value

    def pipeline_value(self, value) -> str:
        """The text of a checked value in the pass pipeline (bool, int or one of `choices`: never free text)."""
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int) or value in self.choices:
            return str(value)
        raise ValueError(f"triton-mfma option {self.name}={value!r} cannot be passed to the pass unresolved")


@dataclass(frozen=True)
class ProjectPass:
    name: str  # the flag; also the C++ pass argument
    point: str
    summary: str
    targets: tuple = ("hip",)
    options: tuple = ()  # Option, ...
    # (user_options, PointContext) -> user_options with symbolic values made concrete, per kernel
    resolve: object = None
    # option name -> (attribute of the kernel's Triton options, Triton's default): when the user did not set the
    # option and the kernel's Triton options hold another value, the kernel author's value is passed to the pass
    triton_options: dict = field(default_factory=dict)
    # extra pass options taken from the kernel's Triton options: pass option -> attribute name
    from_kernel: dict = field(default_factory=dict)
    transforms: bool = True  # False: an analysis (remarks only, IR unchanged)
    # backends on which the pass runs only when it is named in the pass list (not as part of the default set)
    by_name_only: tuple = ()
    # passes that, when enabled at the same point, run before this one whatever the order they are listed in
    after: tuple = ()

    def option(self, name: str) -> Option:
        return next(o for o in self.options if o.name == name)

    def option_value(self, opt: Option, user_options: dict, triton_options=None):
        if opt.name in user_options:
            return user_options[opt.name]
        source = self.triton_options.get(opt.name)
        if source is not None and triton_options is not None:
            attr, triton_default = source
            value = getattr(triton_options, attr, triton_default)
            if value is not None and value != triton_default:
                return opt.check(value)
        return opt.default

    def pipeline_element(self, user_options: dict, triton_options=None) -> str:
        parts = []
        for opt in self.options:
            if opt.flag is None:
                continue
            value = self.option_value(opt, user_options, triton_options)
            if value is not None:
                parts.append(f"{opt.flag}={opt.pipeline_value(value)}")
        for flag, attr in self.from_kernel.items():
            value = getattr(triton_options, attr, None) if triton_options is not None else None
            if isinstance(value, int) and not isinstance(value, bool):
                parts.append(f"{flag}={int(value)}")
        return f"{self.name}{{{' '.join(parts)}}}" if parts else self.name


REGISTRY: dict[str, ProjectPass] = {}


def _declared_options(pass_name: str) -> dict:
    """Passes.td's options of `pass_name` by flag (passes.json); {} where the native library is not built (every
    use of a pass option then fails with check()'s message)."""
    try:
        return {o["argument"]: o for o in native.pass_registry().get(pass_name, {}).get("options", [])}
    except ImportError:
        return {}


def _from_passes_td(pass_name: str, opt: Option, declared: dict) -> Option:
    td = declared.get(opt.flag)
    if td is None:
        if declared:
            raise ValueError(f"{pass_name}: option {opt.flag!r} is not declared in Passes.td")
        return opt
    first = td["description"].split("\n\n")[0].replace("\n", " ")
    return dataclasses.replace(opt, kind=opt.kind or CPP_KINDS[td["type"]], doc=opt.doc or first)


def register(p: ProjectPass) -> ProjectPass:
    if p.point not in POINTS:
        raise ValueError(f"{p.name}: unknown insertion point {p.point!r}")
    declared = _declared_options(p.name)
    p = dataclasses.replace(p, options=tuple(_from_passes_td(p.name, o, declared) if o.flag else o
                                             for o in p.options))
    REGISTRY[p.name] = p
    return p


register(ProjectPass(
    name="mfma-print-layouts",
    point="ttgir_end",
    summary="analysis: parse every #ttg layout into the C++ layout model, remark on each, check it prints back exactly",
    targets=("hip", "cuda"),
    transforms=False,
))

register(ProjectPass(
    name="mfma-accelerate-dot",
    point="accelerate_matmul",
    summary="MFMA layouts for tt.dot from an instruction table and a cost model (instruction, warps, kWidth, "
            "transposition), chain dots kept in registers; replaces Triton's accelerate_matmul",
    options=(
        Option("matrix_instr_nonkdim", "matrix-instr-nonkdim", choices=(0, 4, 16, 32)),
        Option("kpack", "kpack", choices=(0, 1, 2)),
        Option("chain_dots", "chain-dots"),
        Option("dot_registers_first", "registers-first"),
        Option("verify_dot", None, bool, "keep our layouts unless the one judge ranks the kernel compiled with "
                                         "Triton's better", default=True),
    ),
    triton_options={"matrix_instr_nonkdim": ("matrix_instr_nonkdim", 0), "kpack": ("kpack", 1)},
))

register(ProjectPass(
    name="mfma-grid-order",
    point="ttgir_end",
    summary="remap program ids so programs sharing operand tiles run together (L2 reuse; XCD-aware), "
            "decided by the L2 model (at run time where sizes are only known then)",
    targets=("hip", "cuda"),
    options=(
        Option("grid_order", "mode", choices=("auto", "on", "off")),
        Option("grid_group_size", "group-size", low=0, high=1024),
        Option("grid_l2_bytes", "l2-bytes", low=0, high=1 << 40),
        Option("grid_l2_effective_percent", "l2-effective-percent", low=0, high=100),
        Option("grid_num_cus", "num-cus", low=0, high=4096),
        Option("grid_num_xcds", "num-xcds", low=0, high=64),
        Option("grid_programs_per_cu", "programs-per-cu", low=0, high=64),
        Option("grid_default_trip_count", "default-trip-count", low=1, high=1 << 20),
        Option("verify_grid_order", None, bool, "keep a remap only where the compiled kernel does not lose by it "
                                                "(hip: spills or occupancy; cuda: ptxas spills) (False: the remap "
                                                "unchecked, no compile for the check)", default=True),
    ),
))

LDS_LIMIT_DOC = ("LDS budget in bytes per workgroup; 'occupancy': the budget that keeps the workgroups per CU the "
                 "registers allow; default: the target's LDS. A kernel budget: met by splitting converts "
                 "(mfma-split-epilogue-cvt) and by one LDS buffer per operand (mfma-stream-pipeline)")

register(ProjectPass(
    name="mfma-stream-pipeline",
    point="pipeline",
    summary="LDS + VGPR stream pipelining: one LDS buffer per dot operand, the next iteration's tiles in registers "
            "(replaces Triton's schedule_loops + pipeline)",
    targets=("hip", "cuda"),
    options=(Option("lds_limit", None, int, LDS_LIMIT_DOC, low=0, high=1 << 20, symbolic=("occupancy",)),
             Option("verify_pipeline", None, bool, "keep the pass's loops only where the compiled kernel gains on "
                                                   "Triton's pipeliner (False: the pass as it is)", default=True)),
    from_kernel={"num-stages": "num_stages"},  # the kernel's num_stages: 1 disables pipelining
    # Hopper's own pipeliner (multi-stage async copies, asynchronous wgmma) is faster: 0.50-0.94x stock on an H200
    by_name_only=("cuda",),
))

register(ProjectPass(
    name="mfma-dot-work",
    point="ttgir_end",
    summary="analysis: MFMA instructions each wave issues for every tt.dot, with its innermost loop (remarks; "
            "the dot-cycles model of accelerate-dot and the combination check)",
    targets=("hip",),
    transforms=False,
))

register(ProjectPass(
    name="mfma-lds-usage",
    point="ttgir_end",
    summary="analysis: LDS bytes of every convert_layout scratch and local_alloc, and the kernel total, "
            "as Triton 3.9's allocation computes them (remarks)",
    targets=("hip",),
    transforms=False,
))


def _resolve_split_options(user_options, ctx):
    return resolve_lds_limit(user_options, ctx)


register(ProjectPass(
    name="mfma-split-epilogue-cvt",
    point="ttgir_end",
    summary="split convert_layouts whose LDS scratch exceeds a budget into chains through intermediate "
            "layouts (each step within budget; least LDS traffic, then fewest steps); before Triton's "
            "LDS allocation",
    targets=("hip", "cuda"),
    options=(
        # the doc is Python's: 'occupancy' is resolved here, per kernel
        Option("lds_limit", "lds-limit", doc=LDS_LIMIT_DOC, low=0, high=1 << 20, symbolic=("occupancy",)),
    ),
    resolve=_resolve_split_options,
))

register(ProjectPass(
    name="mfma-hip-num-programs",
    point="ttgir_end",
    summary="read the grid size (tt.get_num_programs) from the implicit kernel arguments: the same amdgcn, and "
            "make_llir links no device library (ockl.bc) for it, about 20 ms less per compile",
    targets=("hip",),
    # it respells what the other passes at ttgir_end read (grid order's analysis clones grid-size reads)
    after=("mfma-grid-order", "mfma-split-epilogue-cvt"),
))

# Options of the activation itself (not of a pass). Policies (strict, dump, remarks) do not change the code.
HOOK_OPTIONS = (
    Option("waves_per_eu", None, int, "force waves_per_eu for every kernel, or 'auto' (kernels that set none of "
                                      "their own)", low=0, high=8, symbolic=("auto",)),
    Option("backends", None, tuple, "backends the passes act on (default: hip; an explicit pass list: each "
                                    "pass's own targets)"),
    Option("relax_waves_per_eu", None, bool, "an explicit waves_per_eu whose waves cannot run (LDS, SGPRs or the "
                                             "workgroup slots admit fewer) is relaxed to the waves that run, where "
                                             "the one judge ranks that better at no lower occupancy", default=True),
    Option("reduce_num_stages", None, bool, "where the main loop spills to scratch, a build with one pipeline stage "
                                            "fewer is compiled and kept where the one judge ranks it better",
           default=True),
    Option("dot_registers", None, bool, "where the main loop spills to scratch, a build with the MFMA layouts the cost "
                                        "model ranks by registers first is compiled and kept where the one judge "
                                        "ranks it better", default=True),
    Option("verify_combination", None, bool, "where two or more interior choices changed a kernel, compile it with "
                                             "none of them too and keep that where the one judge ranks it better",
           default=True),
    Option("max_compiles", None, int, "the make_amdgcn compiles one kernel may take, the one handed to Triton "
                                      "included: a decision compiles a trial only where, with one compile of "
                                      "Triton's own kernel kept in reserve, they stay within it; past that, ours "
                                      "is compared once with Triton's kernel (unset: as the models ask)", low=2,
           high=64),
    Option("sched_strategy", None, bool, "where the main loop of the kernel handed on spills to scratch, compile its "
                                         "LLVM IR with LLVM's other scheduling strategies (amdgpu-sched-strategy) "
                                         "and keep one the one judge ranks better; never where the kernel sets "
                                         "llvm_fn_attrs or schedule_hint", default=True),
    Option("cpu_bound", None, bool, "a trial starts only where the kernel's compiles, each further one predicted at "
                                    "the longest so far, with one of Triton's kernel in reserve, stay within "
                                    "max(3x, + 10 s) of its first compile's CPU time, and within 3.5x of it where "
                                    "that compile spills (issue 53's p90 row for spilling kernels); past that, "
                                    "ours is compared once with Triton's kernel", default=True),
    Option("remember", None, bool, "a decision's trial verdict is taken again, without compiling its variant, for "
                                   "a later compile in this process of the same kernel that differs only in its "
                                   "arguments' divisibility (another specialization of it)", default=True),
    Option("trial_all", None, bool, "decide every verified choice by trial compiles, never by the models alone "
                                    "(slower; for measuring the models)"),
    Option("strict", None, bool, "a failing pass raises instead of falling back to stock Triton"),
    Option("dump", None, str, "directory: write every module before and after each of our pass groups"),
    Option("remarks", None, str, "remark verbosity", choices=("none", "summary", "all")),
)
POLICY_OPTIONS = {"strict", "dump", "remarks"}

# What `enable()` / TRITON_CODEGEN_AMD=1 turn on when no pass list is given: every transforming pass, each deciding
# per kernel where it helps (a remark and the kernel's metadata say what it decided and why), and waves_per_eu
# "auto" for kernels that set no waves_per_eu of their own (DEFAULT_OPTIONS).
# - mfma-accelerate-dot: where our dot layouts differ from Triton's, both are compiled and ours is kept unless the
#   one judge (cost_model.judge) ranks Triton's better.
# - mfma-stream-pipeline: kept only where the one judge ranks it better than Triton's loop pipeliner (the LDS model
#   first, a trial compile where LDS could be gained); hip only.
# - mfma-split-epilogue-cvt at the target's LDS: changes only kernels that need more LDS than the target has.
# - mfma-grid-order: remaps program ids where the L2 model says the stock order misses L2 (at run time where the
#   sizes are only known then), XCD-aware on gfx942/gfx950.
# - mfma-hip-num-programs: wherever a kernel reads the grid size (same amdgcn, a shorter compile).
DEFAULT_PASSES: tuple = ("mfma-accelerate-dot", "mfma-stream-pipeline", "mfma-split-epilogue-cvt", "mfma-grid-order",
                         "mfma-hip-num-programs")
DEFAULT_OPTIONS: dict = {"waves_per_eu": "auto"}


def option_names() -> set[str]:
    return {o.name for p in REGISTRY.values() for o in p.options}


def setting(options: dict, name: str):
    """Option `name` as `options` (the user's) set it, else its declared default (the one place for it)."""
    return options[name] if name in options else find_option(name)[0].default


def find_option(name: str) -> tuple[Option, list[str]]:
    """The declaration of option `name` and the passes that use it ([] for activation options)."""
    for o in HOOK_OPTIONS:
        if o.name == name:
            return o, []
    users = [p.name for p in REGISTRY.values() if any(o.name == name for o in p.options)]
    if not users:
        known = sorted(option_names() | {o.name for o in HOOK_OPTIONS})
        raise ValueError(f"unknown triton-mfma option {name!r}; known: {known}")
    return REGISTRY[users[0]].option(name), users
