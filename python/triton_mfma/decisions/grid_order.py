"""mfma-grid-order's compiled check on hip: the remap must not cost registers.

The remap's index arithmetic is scalar: where the compiled kernel spills SGPRs or is limited by its SGPRs, the
kernel is compiled without the remap too and the remap is dropped if it cost spills or occupancy (its gain is in
L2, which no static figure shows). Elsewhere a few more SGPRs cost nothing (the model: no variant compiled).
Compared with: the build with mfma-grid-order left out. Judge (trial): `lost`.
(On cuda the check reads ptxas's spills: stages.GenericCompile._check_grid_order.)
"""
from __future__ import annotations

from .. import occupancy
from . import Decision, Speculation, Verdict

NAME = "mfma-grid-order"
SKIP = f"skip:{NAME}"


def lost(f_without, f_ours) -> list[str]:
    """What the remap costs: more VGPR or SGPR spills, or fewer waves per SIMD than without it."""
    out = [f"{k} {a} -> {b}" for k, a, b in (("VGPR spills", f_without.vgpr_spills, f_ours.vgpr_spills),
                                             ("SGPR spills", f_without.sgpr_spills, f_ours.sgpr_spills))
           if b > a]
    if f_ours.occupancy < f_without.occupancy:
        out.append(f"occupancy {f_without.occupancy} -> {f_ours.occupancy} waves/SIMD")
    return out


class GridOrderCheck(Decision):
    name = NAME
    key = "triton_mfma_grid_order"
    option = "verify_grid_order"
    speculation = Speculation(compared_beside_trial=True, followups_beside_trial=True)
    judge = staticmethod(lost)  # (without the remap, ours) -> what the remap costs

    def present(self, ctx, interior):
        return ctx.runs(NAME)

    def compared(self, ctx, ours):
        """The variant without the remap, where ours' compile shows SGPRs that spill or limit occupancy; None
        where the check compiles nothing (the remap did not apply, the registers cannot be its cost, or the
        TTGIR without it is the same)."""
        if not self.verifies(ctx):
            return None
        outcome = next((o for o in ours.outcomes if o.pass_name == NAME), None)
        if outcome is not None and outcome.status != "applied":
            return None
        f_ours = ctx.figures(ours)
        if isinstance(f_ours, Exception):
            raise f_ours
        limiter = occupancy.occupancy(ctx.arch, ctx.num_warps, f_ours.vgpr_total, f_ours.sgpr, f_ours.lds,
                                      ctx.w).limiter
        if not f_ours.sgpr_spills and limiter != "sgpr":
            return None
        without = ctx.variant(ours.choice | {SKIP})
        return None if without.same_code(ours) else without

    def trial(self, ctx, ours, without, f_without, f_ours):
        if isinstance(f_without, Exception):
            return None
        cost = self.judge(f_without, f_ours)
        if not cost:
            return None  # the pass's own outcome (applied) stands
        why = f"remap dropped: it costs {'; '.join(cost)}"
        return Verdict("dropped", why, "trial", without, remark=why)

    def followups(self, ctx, ours):
        without = self.compared(ctx, ours) if self.present(ctx, set()) else None
        return [(without, ctx.w)] if without is not None else []
