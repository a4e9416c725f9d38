"""mfma-grid-order's compiled check on hip: the remap must not cost registers.

The remap's index arithmetic is scalar: where the compiled kernel spills (SGPRs or VGPRs) or is limited by its SGPRs,
the kernel is compiled without the remap too and the remap is dropped where the one judge ranks it worse on the spill
and occupancy classes (its gain is in L2, which no static figure shows). Elsewhere its SGPRs cost nothing, and it
costs VGPRs only through SGPRs spilled to VGPR lanes, a spill class (the model: no variant compiled).
Compared with: the build with mfma-grid-order left out. Judge (trial): `lost`; kept or dropped, the trial is recorded
with both compiles' register figures.
The remap is in place while the interior decisions compare (both sides remapped), and its registers may cost one side
more than the other: `remap_may_have_decided` tells the combination check (combination.py) to compare against the
kernel with neither the interior choices nor the remap. Where that check chose it, the remap is `dropped` (settled).
(On cuda the check reads ptxas's spills: stages.GenericCompile._check_grid_order.)
"""
from __future__ import annotations

from ..models import cost_model, dot_figures, occupancy
from ..composition.passes import setting
from . import Decision, Speculation, Verdict, first_line

NAME = "mfma-grid-order"
SKIP = f"skip:{NAME}"


def lost(f_without, f_ours) -> list[str]:
    """What the remap costs, by the one judge on the spill and occupancy classes only (cost_model.SPILL_KEYS:
    scratch spills, occupancy, main-loop AGPR copies and SGPR lane spills): the remap's own scalar arithmetic
    costs registers by design and its gain, L2 reuse, is in no static figure. Empty: nothing lost."""
    j = cost_model.judge(f_without, f_ours, cost_model.SPILL_KEYS)
    return [j.figure] if j.worse else []


def registers_can_be_its_cost(ctx, printed, figures) -> bool:
    """Whether the remap's registers may have cost what the judge counts (`lost`): ours, compiled with the remap,
    shows a spill class the judge ranks (scratch above the noise floor, AGPR copies or SGPR lane spills in the main
    loop: without the remap there may be fewer; where ours has none, the variant cannot have fewer), or an occupancy
    its SGPRs limit (the remap's own registers are SGPRs). Not an occupancy its VGPRs limit: the remap's arithmetic
    is on uniform values, which LLVM keeps in SGPRs and moves to VGPRs only as lane spills, a spill class. In the
    recorded trials of held-out seeds 3934-4117 that compiled both, every kernel without a spill had the same VGPRs
    with and without the remap (10 of 10, 8 of them within one granule above an occupancy step), and no remap of
    any recorded run was dropped on occupancy (all on a spill class). Elsewhere nothing is compiled.
    `printed`: ours' resources.Printed; `figures()`: its dot_figures.Figures, read only where `printed` names
    instructions of a spill class."""
    if not printed.spill_free:
        f_ours = figures()
        if isinstance(f_ours, Exception):
            raise f_ours
        if any(cost_model.ranked_spills(f_ours)):
            return True
    occ = occupancy.occupancy(ctx.arch, ctx.num_warps, printed.vgpr_total, printed.sgpr, printed.lds, ctx.w)
    return occ.limiter == "sgpr"


def remap_applied(build) -> bool:
    """Whether mfma-grid-order remapped in `build` (its pass outcome)."""
    outcome = next((o for o in build.outcomes if o.pass_name == NAME), None)
    return outcome is not None and outcome.status == "applied"


def remap_may_have_decided(ctx, ours) -> str | None:
    """Why an interior decision may owe its choice to the remap, else None: it chose one build over another by a
    trial (both compiled at the waves compared now, both remapped), the winner ranked better on a spill or
    occupancy class, and the loser's compile shows registers the remap may have cost (`registers_can_be_its_cost`).
    The remap's registers need not cost both sides alike (generated seed 1352 on gfx950: with the remap Triton's
    pipeliner has 286 main-loop AGPR copies, ours 280, so ours was kept; without it Triton's has 148; held-out seed
    2399 on gfx950: with the remap 3 stages spill 10 main-loop scratch ops, 2 stages 8, so a stage less was taken;
    without it 3 stages spill none). Reads only compiles already made."""
    if not ctx.runs(NAME) or SKIP in ours.choice or not remap_applied(ours):
        return None
    for mine, other, w in sorted(ctx.kept_against, key=repr):
        if w != ctx.w or SKIP in other:
            continue
        kept, theirs = ctx.variant(mine), ctx.variant(other)
        if ctx.compiled(kept, w) is None or ctx.compiled(theirs, w) is None or not remap_applied(theirs):
            continue
        f_kept, f_theirs = ctx.figures(kept), ctx.figures(theirs)
        if isinstance(f_kept, Exception) or isinstance(f_theirs, Exception):
            continue
        j = cost_model.judge(f_theirs, f_kept)
        if not j.better or j.key not in cost_model.SPILL_KEYS[1:]:
            continue
        printed = ctx.printed(theirs)
        if not isinstance(printed, Exception) and registers_can_be_its_cost(ctx, printed, lambda: f_theirs):
            return (f"a choice was made on {j.figure} against a variant whose registers the remap may have cost "
                    f"({', '.join(sorted(other)) or 'none of our interior passes'})")
    return None


class GridOrderCheck(Decision):
    name = NAME
    key = "triton_mfma_grid_order"
    option = "verify_grid_order"
    speculation = Speculation(compared_beside_trial=True, followups_beside_trial=True)
    judge = staticmethod(lost)  # (without the remap, ours) -> what the remap costs

    def present(self, ctx, interior):
        return ctx.runs(NAME)

    def settled(self, ctx, ours):
        if SKIP in ours.choice:  # only the combination check chooses a variant without the remap before this one
            why = ("remap dropped: the combination check chose the kernel without the interior choices and without "
                   "the remap (triton_mfma_combination)")
            return Verdict("dropped", why, "combination", ours, remark=why)
        return None

    def compared(self, ctx, ours):
        """The variant without the remap, where ours' compile shows registers the remap may have cost; None
        where the check compiles nothing (the remap did not apply, the registers cannot be its cost, or the
        TTGIR without it is the same)."""
        if not self.verifies(ctx):
            return None
        outcome = next((o for o in ours.outcomes if o.pass_name == NAME), None)
        if outcome is not None and outcome.status != "applied":
            return None
        printed = ctx.printed(ours)
        if isinstance(printed, Exception):
            raise printed
        if not registers_can_be_its_cost(ctx, printed, lambda: ctx.figures(ours)):
            return None
        without = ctx.variant(ours.choice | {SKIP})
        return None if without.same_code(ours) else without

    def unlaunchable(self, ctx, ours, without, why):
        return None  # the pass's own outcome (applied) stands

    def trial(self, ctx, ours, without, f_without, f_ours):
        if isinstance(f_without, Exception):  # the pass's own outcome (applied) stands, unchecked
            why = f"remap kept, not checked: the compile without it failed ({first_line(f_without)})"
            return Verdict("kept", why, "trial", ours, remark=why)
        cost = self.judge(f_without, f_ours)
        figures = {"without": dot_figures.registers(f_without), "ours": dot_figures.registers(f_ours)}
        if not cost:  # the pass's remark (why it remapped) stands; the compile paid for is recorded in the metadata
            why = ("remap kept: compiled without it too, it costs nothing on the spill and occupancy classes "
                   f"({dot_figures.summary(f_without, f_ours)})")
            return Verdict("kept", why, "trial", ours, figures)
        why = f"remap dropped: it costs {'; '.join(cost)}"
        return Verdict("dropped", why, "trial", without, figures, remark=why)

    def followups(self, ctx, ours):
        without = self.compared(ctx, ours) if self.present(ctx, set()) else None
        return [(without, ctx.w)] if without is not None else []


class GridOrderCudaCheck(Decision):
    """mfma-grid-order's remap on cuda, checked on the compiled kernel (cubin). ptxas allocates registers after the
    TTGIR: where the remapped kernel spills (the stack bytes ptxas adds to what the PTX declares; a
    `tl.device_print`'s argument buffer is stack the PTX declares, not a spill), the kernel without the remap is
    compiled and handed on instead. At the register limit ptxas's code for the same order moved an H200 split-K GEMM
    by -5..+4% (bench/results/grid_order_splitk.txt: the guarded remap 0.95x where stock already spilled), more than
    the L2 model's gain and nothing it can predict. With grid_order="on" (the remap asked for by name) it is dropped
    only where it costs spills, as on AMD, where the engine drops a remap that costs spills (`GridOrderCheck`)."""
    name = NAME
    key = "triton_mfma_grid_order"
    stage = "cubin"
    option = "verify_grid_order"

    def wanted(self, options, waves, triton_options):
        return bool(setting(options, self.option))

    def present(self, ctx, interior):
        return self.wanted(ctx.options, None, ctx.triton_options)

    def decide(self, ctx, base, trials) -> Verdict | None:
        """`base`: resources.CubinResources of the remapped kernel's cubin; `trials.without_remap()` -> (the
        kernel without the remap, its CubinResources), compiled. None where the remap stands."""
        if not base.spills:
            return None
        without, spilled = trials.without_remap()
        if ctx.options.get("grid_order") == "on":  # asked for by name: dropped only where it costs spills
            if spilled.spills >= base.spills:
                return None
            why = f"remap dropped: it costs register spills ({spilled.spills} -> {base.spills} B/thread)"
        else:
            why = (f"remap dropped: the kernel spills registers with it ({base.spills} B/thread, {base.regs} "
                   f"registers; without it {spilled.spills} B, {spilled.regs}): at the register limit ptxas's code "
                   f"decides more than the order")
        return Verdict("dropped", why, "compiled", without, remark=why)
