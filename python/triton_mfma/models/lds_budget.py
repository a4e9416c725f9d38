"""The LDS budget of `mfma-split-epilogue-cvt` from Python: `lds_limit=<bytes>` or `"occupancy"`.

`lds_limit="occupancy"` asks for the budget that lets as many workgroups share a CU as the kernel's
registers allow, so LDS never becomes the occupancy limiter. The register occupancy is not known
before the kernel is compiled, so it is *measured*: at the start of make_llir the module (the TTGIR
with our earlier passes applied, but without this split) is compiled once more to amdgcn with
Triton's own make_llir/make_amdgcn, and `.vgpr_count`/`.sgpr_count` give the waves per SIMD
(occupancy.py, validated against the backend). That costs one extra llir+amdgcn compile per kernel.
The split can change register use slightly (an extra convert's registers), so the measured occupancy
is the one of the unsplit kernel; the bench reports the occupancy actually reached.

  waves/SIMD W (registers, waves_per_eu cap) -> workgroups/CU = min(16, W * 4 SIMDs // num_warps)
  -> budget = occupancy.lds_budget_for_workgroups(arch, workgroups)   (512-byte granules)
"""
from __future__ import annotations

import functools
import re
import warnings
from dataclasses import dataclass
from typing import Callable

from ..ir.native import MFMARemark, PipelineError, run_pipeline_with_diagnostics
from . import occupancy
from .resources import from_amdgcn


@dataclass
class PointContext:
    """What a pass's option resolver may use at its insertion point."""
    backend: str  # "hip" / "cuda"
    arch: str  # "gfx942", ... (hip); the capability as text for cuda
    num_warps: int
    waves_per_eu: int = 0
    kernel: str = ""
    # Compiles the module as it stands (without the passes at this point) to amdgcn; hip only.
    stock_amdgcn: Callable[[], str] | None = None
    # Records a decision for the kernel's remarks and metadata: (name, one line)
    decide: Callable[[str, str], None] | None = None


def budget_for_register_occupancy(arch: str, num_warps: int, vgpr_total: int, sgpr: int,
                                  waves_per_eu: int = 0) -> tuple[int, int, int]:
    """(budget bytes, waves/SIMD, workgroups/CU) so LDS allows the workgroups the registers allow."""
    t = occupancy.target(arch)
    waves = occupancy.register_occupancy(arch, vgpr_total, sgpr, waves_per_eu)
    workgroups = min(t.max_workgroups_per_cu, max(1, waves * t.simds_per_cu // max(1, num_warps)))
    return occupancy.lds_budget_for_workgroups(arch, workgroups), waves, workgroups


def resolve_lds_limit(user_options: dict, ctx: PointContext | None) -> dict:
    """`lds_limit` as bytes: "occupancy" resolved from the module compiled as it stands (values were checked when
    the activation was made)."""
    if user_options.get("lds_limit") != "occupancy":
        return user_options
    if ctx is None or ctx.backend != "hip" or ctx.stock_amdgcn is None:
        raise ValueError("lds_limit='occupancy' needs a hip target (register occupancy from amdgcn)")
    res = from_amdgcn(ctx.stock_amdgcn(), 0)
    budget, waves, workgroups = budget_for_register_occupancy(ctx.arch, ctx.num_warps, res.vgpr_total,
                                                              res.sgpr, ctx.waves_per_eu)
    line = (f"'occupancy': registers allow {waves} waves/SIMD ({res.vgpr_total} VGPRs) -> {workgroups} "
            f"workgroups/CU -> LDS budget {budget} B")
    if ctx.decide is not None:
        ctx.decide("lds_limit", line)
    else:
        warnings.warn(f"[{ctx.kernel}] lds_limit={line}", MFMARemark, stacklevel=2)
    return {**user_options, "lds_limit": budget}


@functools.lru_cache(maxsize=64)
def lds_total(generic_ttgir: str) -> int | None:
    """The LDS bytes per workgroup Triton's allocation will give this TTGIR (the C++ LDS model, equal to Triton
    3.9's allocation on the corpus: test_lds_model.py); None where the model does not cover the kernel. Cached:
    several decisions ask it of the same variants."""
    try:
        _, diagnostics = run_pipeline_with_diagnostics(generic_ttgir, "builtin.module(mfma-lds-usage)")
    except PipelineError:
        return None
    totals = [int(m[1]) for d in diagnostics if (m := re.match(r"LDS total (\d+) B", d.message))]
    return max(totals) if totals else None
