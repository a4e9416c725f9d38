"""waves_per_eu="auto": compile the candidates, read their resources, keep the best.

Best = the most waves per SIMD that actually run (registers, the waves_per_eu cap and LDS, from the
occupancy model) without spills (or, when even the default spills, with the fewest spills); ties go
to fewer registers, then to the smaller waves_per_eu (0, Triton's default, first). The model prunes what cannot win before anything is compiled:
  - w <= the default compile's occupancy: asking for what it already has changes nothing;
  - w above what LDS lets run (workgroups per CU × warps / SIMDs): the extra waves could not run;
  - w above what its SGPRs allow: the backend cannot reach it by squeezing VGPRs;
and, once a candidate spills, every larger w (a tighter register budget) is skipped.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from . import occupancy as occ_model
from .resources import Resources, from_amdgcn


@dataclass
class Candidate:
    waves_per_eu: int
    res: Resources
    occupancy: occ_model.Occupancy
    llir: str = field(repr=False)
    amdgcn: str = field(repr=False)
    metadata: dict = field(repr=False)

    @property
    def spills(self) -> int:
        return self.res.vgpr_spill + self.res.sgpr_spill

    def summary(self) -> str:
        return (f"w={self.waves_per_eu}: {self.occupancy.waves_per_simd} waves/SIMD, "
                f"{self.res.vgpr_total} VGPR, {self.spills} spills")


@dataclass
class Choice:
    chosen: Candidate
    tried: list
    skipped: dict  # waves_per_eu -> why it was not compiled

    def reason(self) -> str:
        tried = "; ".join(c.summary() for c in self.tried)
        skipped = "; ".join(f"w={w}: {why}" for w, why in sorted(self.skipped.items()))
        return (f"waves_per_eu=auto chose {self.chosen.waves_per_eu} "
                f"({self.chosen.occupancy.waves_per_simd} waves/SIMD, {self.chosen.spills} spills). "
                f"Compiled: {tried}." + (f" Skipped: {skipped}." if skipped else ""))

    def as_metadata(self) -> dict:
        return {"chosen": self.chosen.waves_per_eu, "reason": self.reason(),
                "tried": {c.waves_per_eu: [c.occupancy.waves_per_simd, c.spills, c.res.vgpr_total]
                          for c in self.tried}}


def with_waves_per_eu(options, w: int):
    """A copy of Triton's frozen HIPOptions with another waves_per_eu (no __post_init__ re-run)."""
    opts = copy.copy(options)
    object.__setattr__(opts, "waves_per_eu", w)
    return opts


def _key(c: Candidate):
    # fewest spills (none, where any candidate has none), then most effective waves, fewer registers, smaller w
    return (-c.spills, c.occupancy.waves_per_simd, -c.res.vgpr_total, -c.waves_per_eu)


def choose(arch: str, num_warps: int, compile_with) -> Choice:
    """`compile_with(w) -> (llir, amdgcn, metadata)` compiles one candidate from the same TTGIR."""

    def build(w: int) -> Candidate:
        llir, amdgcn, md = compile_with(w)
        res = from_amdgcn(amdgcn, md["shared"])
        occ = occ_model.occupancy(arch, num_warps, res.vgpr_total, res.sgpr, res.lds, w)
        return Candidate(w, res, occ, llir, amdgcn, md)

    base = build(0)
    tried, skipped = [base], {}
    t = occ_model.target(arch)
    lds_cap = occ_model.occupancy(arch, num_warps, 0, 0, base.res.lds).waves_per_simd
    sgpr_cap = occ_model.waves_with_sgprs(t, base.res.sgpr)
    spilled_at = None
    for w in range(1, t.max_waves_per_simd + 1):
        if w <= base.occupancy.register_waves:
            skipped[w] = f"the default already reaches {base.occupancy.register_waves} waves/SIMD"
        elif w > lds_cap:
            skipped[w] = f"LDS ({base.res.lds} B/workgroup) lets only {lds_cap} waves/SIMD run"
        elif w > sgpr_cap:
            skipped[w] = f"{base.res.sgpr} SGPRs allow at most {sgpr_cap} waves/SIMD"
        elif spilled_at is not None:
            skipped[w] = f"w={spilled_at} already spills"
        else:
            try:
                c = build(w)
            except Exception as e:  # noqa: BLE001 - a candidate the backend rejects is just not chosen
                skipped[w] = f"compile failed: {str(e).splitlines()[0] if str(e) else type(e).__name__}"
                continue
            tried.append(c)
            if c.spills > base.spills:
                spilled_at = w
    return Choice(max(tried, key=_key), tried, skipped)
