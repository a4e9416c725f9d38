"""The project's passes as Python sees them: flag, insertion point, options.

One pass = one name in five places: Passes.td def, flag `mfma-<kebab>`, lib/Transforms/<Name>.cpp,
this registry's key, and test/lit/<kebab>.mlir.
"""
from __future__ import annotations

from dataclasses import dataclass, field

# Named insertion points of the extended pipelines (pipeline.py). A pass at a "replace" point runs
# instead of the Triton step of the same name.
POINTS = {
    "pre_accelerate": "make_ttgir, after optimize_thread_locality, before accelerate_matmul",
    "accelerate_matmul": "make_ttgir, replaces Triton's add_accelerate_matmul",
    "post_accelerate": "make_ttgir, after the remove_layout_conversions that follows accelerate_matmul",
    "pipeline": "make_ttgir, replaces Triton's schedule_loops + pipeline",
    "ttgir_end": "make_ttgir, after the final symbol_dce",
    "llir_begin": "make_llir, before Triton's LDS allocation (ttgir in, ttgir out)",
}
REPLACING_POINTS = {"accelerate_matmul", "pipeline"}


@dataclass(frozen=True)
class ProjectPass:
    name: str  # the flag; also the C++ pass argument
    point: str
    summary: str
    targets: tuple = ("hip",)
    # python option name -> (pass option name, default); None default = not passed to the pass
    options: dict = field(default_factory=dict)
    # Optional (user_options, PointContext) -> user_options with symbolic values made concrete, e.g.
    # lds_limit="occupancy" -> bytes. Called just before the pass runs, per kernel.
    resolve: object = None
    # python option name -> (attribute of the kernel's Triton options, Triton's default for it). When the
    # user did not set the option for triton-mfma and the kernel's Triton options hold a value other than
    # Triton's default (the kernel author set it, e.g. `matrix_instr_nonkdim=16` in a launch or config),
    # that value is passed to the pass. Triton's default itself means "not set": the pass decides.
    triton_options: dict = field(default_factory=dict)

    def option_value(self, py_name: str, user_options: dict, triton_options=None):
        """The value passed to the pass for `py_name` (None: not passed)."""
        _, default = self.options[py_name]
        if py_name in user_options:
            return user_options[py_name]
        source = self.triton_options.get(py_name)
        if source is not None and triton_options is not None:
            attr, triton_default = source
            value = getattr(triton_options, attr, triton_default)
            if value is not None and value != triton_default:
                return value
        return default

    def pipeline_element(self, user_options: dict, triton_options=None) -> str:
        opts = []
        for py_name, (mlir_name, default) in self.options.items():
            value = self.option_value(py_name, user_options, triton_options)
            if value is None:
                continue
            if isinstance(value, bool):
                value = "true" if value else "false"
            opts.append(f"{mlir_name}={value}")
        return f"{self.name}{{{' '.join(opts)}}}" if opts else self.name


REGISTRY: dict[str, ProjectPass] = {}


def register(p: ProjectPass) -> ProjectPass:
    assert p.point in POINTS, p.point
    REGISTRY[p.name] = p
    return p


register(ProjectPass(
    name="mfma-print-layouts",
    point="ttgir_end",
    summary="analysis: parse every #ttg layout into the C++ layout model, remark on each, check it prints back exactly",
    targets=("hip", "cuda"),
))

register(ProjectPass(
    name="mfma-accelerate-dot",
    point="accelerate_matmul",
    summary="MFMA layouts for tt.dot from an instruction table and a cost model (instruction, warps, kWidth, "
            "transposition), chain dots kept in registers; replaces Triton's accelerate_matmul",
    options={
        "matrix_instr_nonkdim": ("matrix-instr-nonkdim", None),
        "kpack": ("kpack", None),
        "chain_dots": ("chain-dots", None),
    },
    triton_options={
        "matrix_instr_nonkdim": ("matrix_instr_nonkdim", 0),
        "kpack": ("kpack", 1),
    },
))


register(ProjectPass(
    name="mfma-grid-order",
    point="ttgir_end",
    summary="remap program ids so programs sharing operand tiles run together (L2 reuse; XCD-aware), "
            "decided by an L2 model (python/triton_mfma/l2model.py mirrors it)",
    targets=("hip", "cuda"),
    options={
        "grid_order": ("mode", None),  # "auto" (default) | "on" | "off"
        "grid_group_size": ("group-size", None),
        "grid_l2_bytes": ("l2-bytes", None),
        "grid_l2_effective_percent": ("l2-effective-percent", None),
        "grid_num_cus": ("num-cus", None),
        "grid_num_xcds": ("num-xcds", None),
        "grid_default_trip_count": ("default-trip-count", None),
    },
))

@dataclass(frozen=True)
class _StreamPipelinePass(ProjectPass):
    """Also hands the kernel's num_stages (a Triton compile option) to the pass: 1 disables pipelining."""

    def pipeline_element(self, user_options: dict, triton_options=None) -> str:
        stages = getattr(triton_options, "num_stages", None)
        return f"{self.name}{{num-stages={int(stages)}}}" if stages is not None else self.name


register(_StreamPipelinePass(
    name="mfma-stream-pipeline",
    point="pipeline",
    summary="LDS + VGPR stream pipelining: one LDS buffer per dot operand, the next iteration's tiles in registers "
            "(replaces Triton's schedule_loops + pipeline)",
    targets=("hip", "cuda"),
))


# issue 3: LDS model (analysis) and the epilogue convert splitter.
register(ProjectPass(
    name="mfma-lds-usage",
    point="llir_begin",
    summary="analysis: LDS bytes of every convert_layout scratch and local_alloc, and the kernel total, "
            "as Triton 3.9's allocation computes them (remarks)",
    targets=("hip",),
))


def _resolve_split_options(user_options, ctx):
    from .lds_budget import resolve_lds_limit

    return resolve_lds_limit(user_options, ctx)


register(ProjectPass(
    name="mfma-split-epilogue-cvt",
    point="llir_begin",
    summary="split convert_layouts whose LDS scratch exceeds a budget into chains through intermediate "
            "layouts (each step within budget; least LDS traffic, then fewest steps); before Triton's "
            "LDS allocation",
    targets=("hip", "cuda"),
    # lds_limit: bytes, or "occupancy" (the budget that keeps the workgroups per CU the kernel's
    # registers allow; python/triton_mfma/lds_budget.py); None: the target's LDS.
    options={"lds_limit": ("lds-limit", None)},
    resolve=_resolve_split_options,
))


def option_names() -> set[str]:
    return {name for p in REGISTRY.values() for name in p.options}

# What `enable()` / TRITON_CODEGEN_AMD=1 turn on when no pass list is given. A pass joins this list
# once it is at least as good as stock Triton on its bench (see bench/).
# - mfma-split-epilogue-cvt at its default budget (the target's LDS) changes only kernels that need more
#   LDS than the target has, which stock Triton compiles but cannot launch; everything else is left
#   byte-identical.
# - mfma-accelerate-dot runs verified (hook option verify_dot, default True): each kernel with a dot is
#   compiled with Triton's dot layouts and with ours, and ours is kept only where its amdgcn is not worse
#   (occupancy, spills, main-loop dot cycles and LDS ops: dot_figures.py): not worse than stock on
#   99/99 bench configurations, ours kept on most. Costs a second make_ttgir + make_llir + make_amdgcn
#   per kernel with a dot (the chosen one's trial results are reused).
# The others are opt-in: each is worse than stock on part of its bench, or (grid order's XCD remap)
# not yet measured on AMD hardware.
DEFAULT_PASSES: tuple = ("mfma-accelerate-dot", "mfma-split-epilogue-cvt")
