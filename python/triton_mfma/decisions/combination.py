"""The chosen combination against Triton's own: where two or more interior choices changed the kernel, the result
must not rank worse than the kernel built with none of them.

Each interior decision compares ours with a variant that differs in its own point only: the stream pipeliner with
Triton's pipeliner under our dot layouts, accelerate-dot with Triton's layouts under the pipeliner just chosen, a
stage less with the stages chosen. Where two of them kept ours, no comparison saw Triton's layouts and pipeliner
together, and their effects on registers need not add up (a generated kernel on gfx950: each choice equal or
better in its own comparison, the two together 2 waves/SIMD where Triton's kernel runs 4).

A single interior choice kept is compared too where a later decision took another back: it was decided with that
one in place (generated seed 711 on gfx950: the stream pipeliner chosen under our dot layouts, which accelerate-dot
then reverted; Triton's layouts with ours' pipeliner had more main-loop LDS ops than stock).

Models (no compile):
  - nothing to compare: no interior choice kept, or one where none was taken back (the last decision's comparison
    was already against that kernel), or a decision already kept ours against the kernel with none of the choices
    (accelerate-dot, where the stream pipeliner was declined before it);
  - launch: only one of the two can launch (the LDS model);
  - occupancy: ours, compiled, runs more waves without scratch spills than Triton's kernel's LDS lets run with any
    registers (cost_model.wins_on_occupancy);
  - dot cycles: ours' TTGIR needs fewer main-loop dot cycles (dot_work) and ours has no spill at as many waves as
    Triton's kernel's LDS lets run (cost_model.ties_at_best_before_dot_cycles).
Compared with (trial): ours with every interior point and the num_stages change left out (our passes at the end of
make_ttgir as chosen). Judge: the one judge (cost_model.judge); ours is replaced only where Triton's kernel ranks
strictly better.
"""
from __future__ import annotations

from .. import cost_model, dot_figures
from ..points import INTERIOR_POINTS, STAGES
from . import Decision, Verdict, ranks_uncompiled

NAME = "combination"


def interior_choices(choice: frozenset) -> set:
    return {c for c in choice if c in INTERIOR_POINTS or c.startswith(STAGES)}


class Combination(Decision):
    name = NAME
    key = "triton_mfma_combination"
    option = "verify_combination"
    judge = staticmethod(cost_model.judge)  # (Triton's, ours) -> cost_model.Judgement of ours

    def present(self, ctx, interior):
        return ctx.has_dot and self.verifies(ctx)

    def compared(self, ctx, ours):
        chosen = interior_choices(ours.choice)
        if not chosen or (len(chosen) < 2 and not interior_choices(frozenset(ctx.reverted))):
            return None
        if (ours.choice, ours.choice - chosen, ctx.w) in ctx.kept_against:  # a decision compared these two already
            return None
        return ctx.variant(ours.choice - chosen)

    def identical(self, ctx, ours, theirs):
        return Verdict("kept", "the same TTGIR as with none of the interior choices", "identical", ours)

    def model_applies(self, ctx, ours, theirs):
        return not ctx.trial_all

    def model(self, ctx, ours, theirs):
        ranked = ranks_uncompiled(ctx, ours, theirs)
        if ranked is None:
            return None
        ours_better, why = ranked
        chosen = ", ".join(sorted(interior_choices(ours.choice)))
        if ours_better:
            return Verdict("kept", f"the choices together ({chosen}): {why}; Triton's kernel cannot rank better (not "
                                   f"compiled)", "model", ours)
        why = f"combination reverted; Triton's layouts and pipeliner instead: the choices together ({chosen}): {why}"
        return Verdict("reverted", why, "model", theirs, remark=why)

    def trial(self, ctx, ours, theirs, f_theirs, f_ours):
        if isinstance(f_theirs, Exception):
            return None
        if isinstance(f_ours, Exception):
            raise f_ours
        j = self.judge(f_theirs, f_ours)
        chosen = ", ".join(sorted(interior_choices(ours.choice)))
        figures = dot_figures.summary(f_theirs, f_ours)
        if j.worse:
            why = (f"combination reverted; Triton's layouts and pipeliner instead: the choices together ({chosen}) "
                   f"are worse on {j.figure} ({figures})")
            return Verdict("reverted", why, "trial", theirs, remark=why)
        return Verdict("kept", f"the choices together ({chosen}) are not worse than none of them ({figures})",
                       "trial", ours)
