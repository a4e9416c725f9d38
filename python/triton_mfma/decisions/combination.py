"""The chosen combination against Triton's own: where two or more interior choices changed the kernel, the result
must not rank worse than the kernel built with none of them.

Each interior decision compares ours with a variant that differs in its own point only: the stream pipeliner with
Triton's pipeliner under our dot layouts, accelerate-dot with Triton's layouts under the pipeliner just chosen, a
stage less with the stages chosen. Where two of them kept ours, no comparison saw Triton's layouts and pipeliner
together, and their effects on registers need not add up (a generated kernel on gfx950: each choice equal or
better in its own comparison, the two together 2 waves/SIMD where Triton's kernel runs 4).

Grid order's remap is in place while the interior decisions compare; where one of them may owe its choice to the
remap's registers on the other side (grid_order.remap_may_have_decided), the kernel compared with has neither the
interior choices nor the remap, judged on the keys the benches' verdict against stock reads (cost_model.MAIN_KEYS:
the remap's own scalar registers cost by design); ours replaced, the remap is dropped with them.

A single interior choice kept is compared too where a later decision took another back: it was decided with that
one in place (generated seed 711 on gfx950: the stream pipeliner chosen under our dot layouts, which accelerate-dot
then reverted; Triton's layouts with ours' pipeliner had more main-loop LDS ops than stock).

Models (no compile):
  - nothing to compare: no interior choice kept (a point whose pass declined is none: Triton's step ran there),
    or one where none was taken back (the last decision's comparison was already against that kernel), or a
    decision already kept ours against the kernel with none of the choices (accelerate-dot, where the stream
    pipeliner was declined before it);
  - launch: only one of the two can launch (the LDS model);
  - occupancy: ours, compiled, runs more waves without scratch spills than Triton's kernel's LDS lets run with any
    registers (cost_model.wins_on_occupancy);
  - dot cycles: ours' TTGIR needs fewer main-loop dot cycles (dot_work) and ours has no spill at as many waves as
    Triton's kernel's LDS lets run (cost_model.ties_at_best_before_dot_cycles).
Compared with (trial): ours with every interior point and the num_stages change left out (our passes at the end of
make_ttgir as chosen), a point ours' pass declined too: it may have declined because of another choice. Judge: the
one judge (cost_model.judge); ours is replaced only where Triton's kernel ranks strictly better, and never by a
kernel over an explicit lds_limit that ours meets (the policy's one rule for every verdict,
decisions.within_constraints; issue 55's split-K GEMM on gfx950: Triton's kernel 68,016 B ranked better on LDS ops).
"""
from __future__ import annotations

from ..models import cost_model, dot_figures
from ..composition.points import INTERIOR_POINTS, STAGES, variant_point
from . import Decision, Verdict, budget_spent, ranked_without_theirs, within_constraints
from .grid_order import SKIP, remap_may_have_decided

NAME = "combination"
AT_WAVES = "combination at the waves handed on"


def interior_choices(choice: frozenset) -> set:
    return {c for c in choice if c in INTERIOR_POINTS or c.startswith(STAGES) or variant_point(c) in INTERIOR_POINTS}


def choices_made(build) -> set:
    """The interior choices that changed `build`: a point whose pass declined ran Triton's step there (with
    whatever options)."""
    declined = build.declined
    return {c for c in interior_choices(build.choice) if c not in declined and variant_point(c) not in declined}


class Combination(Decision):
    name = NAME
    key = "triton_mfma_combination"
    option = "verify_combination"
    judge = staticmethod(cost_model.judge)  # (Triton's, ours) -> cost_model.Judgement of ours

    def present(self, ctx, interior):
        return ctx.has_dot and self.verifies(ctx)

    def compared(self, ctx, ours):
        chosen = choices_made(ours)
        if not chosen:
            return None
        remap = remap_may_have_decided(ctx, ours)
        if len(chosen) < 2 and not interior_choices(frozenset(ctx.reverted)) and remap is None:
            return None
        # every interior point left out, declined ones too: a point declined in ours because of another choice
        # (our pipeliner with one stage, where a stage less was taken) may act in the kernel without that choice
        # (held-out seed 4498 on gfx942: the reference was Triton's layouts under our pipeliner at 2 stages)
        reference = ours.choice - interior_choices(ours.choice) | ({SKIP} if remap is not None else set())
        if (ours.choice, reference, ctx.w) in ctx.kept_against:  # a decision compared these two already
            return None
        return ctx.variant(reference)

    def identical(self, ctx, ours, theirs):
        return Verdict("kept", "the same TTGIR as with none of the interior choices", "identical", ours)

    def model_applies(self, ctx, ours, theirs):
        return not ctx.trial_all

    def model(self, ctx, ours, theirs):
        ranked = ranked_without_theirs(ctx, ours, theirs)
        if ranked is None:
            return None
        ours_better, why = ranked
        chosen = ", ".join(sorted(choices_made(ours)))
        if ours_better:
            return Verdict("kept", f"the choices together ({chosen}): {why}; {_reference(theirs)} cannot rank better "
                                   f"(not compiled)", "model", ours)
        why = f"combination reverted; {_reference(theirs)} instead: the choices together ({chosen}): {why}"
        return Verdict("reverted", why, "model", theirs, remark=why)

    def trial(self, ctx, ours, theirs, f_theirs, f_ours):
        if isinstance(f_theirs, Exception):
            return None
        if isinstance(f_ours, Exception):
            raise f_ours
        j = self.judge(f_theirs, f_ours, *((cost_model.MAIN_KEYS,) if SKIP in theirs.choice else ()))
        chosen = ", ".join(sorted(choices_made(ours)))
        figures = dot_figures.summary(f_theirs, f_ours)
        if j.worse:
            why = (f"combination reverted; {_reference(theirs)} instead: the choices together ({chosen}) "
                   f"are worse on {j.figure} ({figures})")
            return Verdict("reverted", why, "trial", theirs, remark=why)
        return Verdict("kept", f"the choices together ({chosen}) are not worse than {_reference(theirs)} ({figures})",
                       "trial", ours)


def _reference(theirs) -> str:
    if SKIP in theirs.choice:
        return "Triton's layouts and pipeliner without grid order's remap (the remap may have decided a comparison)"
    return "Triton's layouts and pipeliner"


class CombinationAtWaves(Decision):
    """The chosen kernel against Triton's at the waves handed on, where the relaxation of an explicit waves_per_eu
    hands on other waves than the TTGIR decisions compared at (the waves the chosen TTGIR's LDS admits): an interior
    choice or a stage less kept at the compared waves need not hold at others, LLVM's allocation not being monotonic
    in the register budget (held-out seeds 2399 on gfx950 and 2437 on gfx942: a stage less won at the 4 waves the
    LDS admits, the kernel kept the 3 and 5 it asked, and there the main loop spilled where stock's did not, 0 -> 8
    and 1 -> 2 ops; held-out seed 2527: the choices compared at 2 waves, one wave handed on, where Triton's layouts
    and pipeliner spill 1,092 main-loop scratch ops and the choices 1,232).
    Compared with (trial): Triton's kernel (no interior choice, no remap) compiled
    at the waves handed on. Judge: the one judge on the keys the verdict against stock reads (cost_model.MAIN_KEYS);
    Triton's kernel is handed on only where it ranks strictly better. Nothing is compared where the waves are the
    compared ones, waves_per_eu "auto" chose them (its own verdict compares them with the kernel's 0), no interior
    choice was kept, or the compile budget is spent."""
    name = AT_WAVES
    key = "triton_mfma_combination_waves"
    stage = "llir"  # after the llir-stage decision on waves_per_eu: the waves it hands on
    option = "verify_combination"
    judge = staticmethod(lambda tritons, ours: cost_model.judge(tritons, ours, cost_model.MAIN_KEYS))

    def present(self, ctx, interior):
        return ctx.has_dot and self.verifies(ctx)

    def compares(self, ctx, choice: frozenset, w: int, compared_w: int) -> bool:
        """Whether the kernel of `choice` handed on at waves `w` is compared with Triton's there."""
        return (w != compared_w and not ctx.auto and not ctx.trial_all and bool(interior_choices(choice))
                and budget_spent(ctx, reserve=0) is None)  # this compile is the reserve

    def decide(self, ctx, final, trials) -> Verdict | None:
        """`final`: the chosen kernel compiled at the waves handed on; Triton's kernel compiled there
        (`trials.build_at`). None where nothing is compared."""
        w, chosen, compared_w = final.waves_per_eu, trials.chosen, trials.compared_w
        if chosen is None or not self.compares(ctx, chosen.choice, w, compared_w):
            return None
        reference = trials.tritons_build()
        if reference.same_code(chosen):
            return None
        tritons = trials.build_at(reference, w)
        if isinstance(tritons, Exception):
            return None
        f_final, f_tritons = trials.figures(final, chosen.text), trials.figures(tritons, reference.text)
        j, shown = self.judge(f_tritons, f_final), dot_figures.summary(f_tritons, f_final)
        if j.worse:
            why = (f"Triton's layouts and pipeliner at waves_per_eu={w} (the choices were compared at {compared_w}): "
                   f"the choices together are worse there on {j.figure} ({shown})")
            v = Verdict("reverted", why, "trial", tritons, remark=f"reverted to {why}")
        else:
            why = (f"the choices together (compared at waves_per_eu={compared_w}) are not worse than Triton's layouts "
                   f"and pipeliner at the {w} handed on ({shown})")
            v = Verdict("kept", why, "trial", final, remark=f"kept: {why}")
        v = within_constraints(ctx, v, final, tritons)
        if v.chosen is not final:
            v.takes_back = chosen.choice - reference.choice
        return v
