"""Occupancy model for CDNA targets: waves per SIMD from registers, and workgroups per CU from LDS.

Every figure comes from the C++ target description (lib/Analysis/TargetInfo.cpp, read through the C API:
`native.target_info()`), the same one the passes use.

Register side (what the AMDGPU backend prints as `; Occupancy: N`; tested equal on every corpus
kernel, three archs, waves_per_eu 0..4):
  - VGPR+AGPR share one file per lane per SIMD (`vgpr_file`); `.vgpr_count` is the unified count (AGPRs
    start at alignTo(VGPRs, 4)); waves = vgpr_file // alignTo(vgpr_total, vgpr_granule).
  - SGPRs: waves = sgpr_file // (alignTo(sgpr_count, sgpr_granule) + sgpr_trap_reserve)  (LLVM
    AMDGPUBaseInfo getOccupancyWithNumSGPRs' closed form; the old step table <=80:10, <=88:9, <=100:8
    predicts 8 where the backend says 7).
  - at most `max_waves_per_simd` waves per SIMD; `waves_per_eu=N` (amdgpu-waves-per-eu="N,N") caps it at N.
LDS side (not in `; Occupancy:`: Triton's LDS is dynamic, the backend sees 0 bytes):
  - `lds_per_cu` per CU, allocated per workgroup in `lds_granule`-byte granules; at most
    `max_workgroups_per_cu` workgroups per CU; `simds_per_cu` SIMDs per CU, so a workgroup of W waves puts
    W/simds_per_cu on each.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..ir import native


@dataclass(frozen=True)
class Target:
    arch: str
    lds_per_cu: int
    max_waves_per_simd: int
    vgpr_file: int
    vgpr_granule: int
    sgpr_file: int
    sgpr_granule: int
    sgpr_trap_reserve: int
    lds_granule: int
    simds_per_cu: int
    max_workgroups_per_cu: int
    wave_size: int
    lds_transpose_reads: bool = False  # ds_read_b64_tr_b16 and kin (lds_chunks)


_TARGETS: dict[str, Target] | None = None


def _targets() -> dict[str, Target]:
    """The hip targets of the C++ target description, keyed by arch ("gfx942")."""
    global _TARGETS
    if _TARGETS is None:
        _TARGETS = {t["arch"]: Target(t["arch"], lds_per_cu=t["lds_per_cu"], max_waves_per_simd=t["max_waves_per_simd"],
                                      vgpr_file=t["vgpr_file"], vgpr_granule=t["vgpr_granule"],
                                      sgpr_file=t["sgpr_file"], sgpr_granule=t["sgpr_granule"],
                                      sgpr_trap_reserve=t["sgpr_trap_reserve"], lds_granule=t["lds_granule"],
                                      simds_per_cu=t["simds_per_cu"], max_workgroups_per_cu=t["workgroup_slots_per_cu"],
                                      wave_size=t["wave_size"], lds_transpose_reads=t["lds_transpose_reads"])
                    for t in native.target_info() if t["vendor"] == "hip"}
    return _TARGETS


def __getattr__(name: str):
    if name == "TARGETS":  # read from the library on first use, not at import
        return dict(_targets())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def target(arch: str) -> Target:
    try:
        return _targets()[arch]
    except KeyError:
        raise ValueError(f"no occupancy model for {arch!r}; known: {sorted(_targets())}") from None


def _align(x: int, granule: int) -> int:
    return -(-x // granule) * granule


def waves_with_vgprs(t: Target, vgpr_total: int) -> int:
    if vgpr_total < t.vgpr_granule:
        return t.max_waves_per_simd
    return min(t.max_waves_per_simd, max(1, t.vgpr_file // _align(vgpr_total, t.vgpr_granule)))


def waves_with_sgprs(t: Target, sgprs: int) -> int:
    from ..ir.triton_version import TRITON_VERSION  # at first use: its import refuses an unusable Triton

    if TRITON_VERSION == (3, 8):  # the AMDGPU backend bundled with Triton 3.8 still uses LLVM's old step table
        return min(t.max_waves_per_simd, 10 if sgprs <= 80 else 9 if sgprs <= 88 else 8 if sgprs <= 100 else 7)
    return min(t.max_waves_per_simd, max(1, t.sgpr_file // (_align(sgprs, t.sgpr_granule) + t.sgpr_trap_reserve)))


def register_occupancy(arch: str, vgpr_total: int, sgprs: int, waves_per_eu: int = 0) -> int:
    """Waves per SIMD as the AMDGPU backend reports it (`; Occupancy:`)."""
    t = target(arch)
    occ = min(waves_with_vgprs(t, vgpr_total), waves_with_sgprs(t, sgprs))
    return min(occ, waves_per_eu) if waves_per_eu else occ


def vgpr_budget(arch: str, waves: int) -> int:
    """Registers per lane (VGPR+AGPR) that let `waves` waves share a SIMD (vgpr_file // waves, granule-aligned)."""
    t = target(arch)
    return (t.vgpr_file // max(1, waves)) // t.vgpr_granule * t.vgpr_granule


def lds_bytes_allocated(arch: str, lds: int) -> int:
    return _align(lds, target(arch).lds_granule) if lds else 0


def workgroups_by_lds(arch: str, lds: int) -> int:
    t = target(arch)
    alloc = lds_bytes_allocated(arch, lds)
    return t.max_workgroups_per_cu if alloc == 0 else min(t.max_workgroups_per_cu, t.lds_per_cu // alloc)


def lds_budget_for_workgroups(arch: str, workgroups: int) -> int:
    """The most LDS bytes a workgroup may use so that `workgroups` of them fit on one CU."""
    t = target(arch)
    return (t.lds_per_cu // max(1, workgroups)) // t.lds_granule * t.lds_granule


@dataclass(frozen=True)
class Occupancy:
    arch: str
    num_warps: int
    register_waves: int  # waves per SIMD allowed by VGPR/AGPR/SGPR (+ waves_per_eu cap): the backend's figure
    workgroups_per_cu: int  # what actually fits, all limits considered
    waves_per_simd: int  # effective: workgroups_per_cu * num_warps / SIMDs, capped by register_waves
    limiter: str  # "vgpr", "sgpr", "waves_per_eu", "lds", "workgroup-slots"

    def __str__(self) -> str:
        return (f"{self.waves_per_simd} waves/SIMD, {self.workgroups_per_cu} workgroups/CU "
                f"(limited by {self.limiter})")


def occupancy(arch: str, num_warps: int, vgpr_total: int, sgprs: int, lds: int, waves_per_eu: int = 0) -> Occupancy:
    t = target(arch)
    by_v, by_s = waves_with_vgprs(t, vgpr_total), waves_with_sgprs(t, sgprs)
    reg = min(by_v, by_s)
    limiter = "vgpr" if by_v <= by_s else "sgpr"
    if waves_per_eu and waves_per_eu < reg:
        reg, limiter = waves_per_eu, "waves_per_eu"
    wg_by_regs = max(1, reg * t.simds_per_cu // max(1, num_warps))
    wg_by_lds = workgroups_by_lds(arch, lds)
    wg = min(wg_by_regs, wg_by_lds, t.max_workgroups_per_cu)
    if wg < wg_by_regs:
        limiter = "lds" if wg == wg_by_lds else "workgroup-slots"
    waves = min(reg, max(1, wg * num_warps // t.simds_per_cu))
    return Occupancy(arch, num_warps, reg, wg, waves, limiter)
