"""num_stages, one fewer, where the main loop spills to scratch every iteration.

Each pipeline stage keeps one more iteration's operand tiles live (in LDS and, on the way there, in registers):
where the compiled kernel spills to scratch inside its main loop, a stage less can take those registers back.
Pipelining never changes what a kernel computes, only how far ahead it loads.

Model (no compile): ours' compile shows no scratch spill in the main loop above the noise floor (cost_model: the
first spill class the judge ranks): a stage less has nothing to win that the judge puts before pipelining depth,
which no static figure measures, and nothing is compiled. The same where the kernel has no dot or one stage.
Compared with (trial): ours built with num_stages - 1 (the same choices of our passes; the builds share every step
before Triton's pipeliner, the one place num_stages is read).
Judge: the one judge (cost_model.judge); a tie keeps the kernel's num_stages.
"""
from __future__ import annotations

from ..models import cost_model, dot_figures
from ..composition.points import STAGES
from . import Decision, Verdict, budget_spent, loop_scratch_trial

NAME = "num_stages"
_NO_LOOP_SCRATCH = "no scratch spill in the main loop"


class NumStages(Decision):
    name = NAME
    key = "triton_mfma_num_stages"
    option = "reduce_num_stages"
    judge = staticmethod(cost_model.judge)  # (ours, ours with a stage less) -> cost_model.Judgement

    def owns(self, choice: str) -> bool:
        return choice.startswith(STAGES)

    def present(self, ctx, interior):
        return ctx.has_dot and getattr(ctx.triton_options, "num_stages", 0) >= 2 and self.verifies(ctx)

    def settled(self, ctx, ours):
        printed = ctx.printed(ours)
        if isinstance(printed, Exception):
            raise printed
        if not printed.scratch:  # no scratch at all: the instructions need not be read
            return Verdict("kept", _NO_LOOP_SCRATCH, "model", ours)
        f = ctx.figures(ours)
        if isinstance(f, Exception):
            raise f
        loop_scratch = cost_model.rank(f)[1]
        if not loop_scratch:
            return Verdict("kept", _NO_LOOP_SCRATCH, "model", ours)  # metadata only
        spent = budget_spent(ctx)
        if spent is not None:
            why = (f"num_stages {ctx.triton_options.num_stages} kept: the main loop spills to scratch, but {spent}, "
                   f"and one with a stage less would cost about as much again (not compiled)")
            return Verdict("kept", why, "model", ours, remark=why)
        return None

    def compared(self, ctx, ours):
        n = ctx.triton_options.num_stages
        return ctx.variant(frozenset(c for c in ours.choice if not c.startswith(STAGES)) | {f"{STAGES}{n - 1}"})

    def identical(self, ctx, ours, fewer):
        n = ctx.triton_options.num_stages
        return Verdict("kept", f"num_stages={n - 1} gives the same TTGIR", "identical", ours)

    def trial(self, ctx, ours, fewer, f_fewer, f_ours):
        n = ctx.triton_options.num_stages
        if isinstance(f_fewer, Exception):
            return Verdict("kept", f"num_stages={n - 1} does not compile", "trial", ours)
        details = {"asked": n, "tried": n - 1, "figures": {"asked": dot_figures.registers(f_ours),
                                                            "fewer": dot_figures.registers(f_fewer)}}
        return loop_scratch_trial(self.judge, ours, fewer, f_ours, f_fewer, "reduced", f"num_stages {n} -> {n - 1}",
                                  f"num_stages {n} kept", f"num_stages={n - 1} is", details)
