"""The MFMA layouts ranked by registers, where the main loop spills to scratch every iteration.

mfma-accelerate-dot ranks its candidates (instruction shape, warps, kpack, kWidth) by the cycles its cost model
gives them, registers per lane breaking ties (MfmaCostModel.h). Where the kernel handed on so far spills to scratch
in its main loop, registers are what the judge ranks first (cost_model: loop scratch before occupancy and before
dot cycles), so the same model is asked the other way round: pass option `registers-first` ranks the candidates by
their registers per lane (the accumulator tiles and the operand tiles of the whole K a wave holds, known from the
shape and the warps) before their cycles, and keeps a dot on MFMA wherever an instruction fits (an FMA dot loads
its operand tiles whole).

Model (no compile):
  - the kernel's main loop does not spill to scratch above the noise floor: nothing to win where the judge ranks
    first, so nothing is built;
  - the author chose the MFMA shape or kpack (`matrix_instr_nonkdim`, `kpack` other than Triton's defaults, or
    triton-mfma's options of those names): theirs, the variant is not built (the pass would keep them anyway);
  - registers-first chooses the layouts the default ranking chose: the same TTGIR ("identical"), no compile;
  - the compile budget (decisions.budget_spent) leaves no room for the variant's compile.
Compared with (trial): the kernel handed on so far, with our accelerate-dot run with `registers-first`
(choice element "accelerate_matmul:registers", composition/points.VARIANT_OPTIONS). Judge: the one judge
(cost_model.judge); a tie keeps the kernel as it was.
"""
from __future__ import annotations

from ..composition.passes import REGISTRY as PASSES
from ..composition.points import VARIANT_OPTIONS
from ..models import cost_model, dot_figures
from . import Decision, Verdict, budget_spent, loop_scratch_trial

NAME = "mfma-dot-registers"
REGISTERS = "accelerate_matmul:registers"
assert REGISTERS in VARIANT_OPTIONS
_NO_LOOP_SCRATCH = "no scratch spill in the main loop"


def authors_shape(ctx) -> str | None:
    """The MFMA shape options the kernel's author set (triton-mfma's, else Triton's other than its default: how
    accelerate-dot reads them, passes.ProjectPass.option_value), as the remark names them; None where neither is."""
    dot = PASSES["mfma-accelerate-dot"]
    chosen = {name: dot.option_value(dot.option(name), ctx.options, ctx.triton_options)
              for name in ("matrix_instr_nonkdim", "kpack")}
    return ", ".join(f"{k}={v}" for k, v in chosen.items() if v is not None) or None


class DotRegisters(Decision):
    name = NAME
    key = "triton_mfma_dot_registers"
    option = "dot_registers"
    judge = staticmethod(cost_model.judge)  # (the kernel so far, it with registers-first layouts) -> Judgement

    def owns(self, choice: str) -> bool:
        return choice == REGISTERS

    def present(self, ctx, interior):
        return ctx.has_dot and "accelerate_matmul" in interior and self.verifies(ctx) and \
            not ctx.setting("dot_registers_first")

    def settled(self, ctx, ours):
        if "accelerate_matmul" in ours.declined:
            return Verdict("kept", "mfma-accelerate-dot declined the kernel", "model", ours)
        authors = authors_shape(ctx)
        if authors is not None:
            return Verdict("kept", f"the author chose the MFMA shape ({authors})", "model", ours)
        printed = ctx.printed(ours)
        if isinstance(printed, Exception):
            raise printed
        if not printed.scratch:
            return Verdict("kept", _NO_LOOP_SCRATCH, "model", ours)
        f = ctx.figures(ours)
        if isinstance(f, Exception):
            raise f
        if not cost_model.rank(f)[1]:
            return Verdict("kept", _NO_LOOP_SCRATCH, "model", ours)
        return None

    def compared(self, ctx, ours):
        return ctx.variant(ours.choice | {"accelerate_matmul", REGISTERS})

    def identical(self, ctx, ours, fewer):
        return Verdict("kept", "ranked by registers first, the cost model chooses the same layouts", "identical",
                       ours)

    def model_applies(self, ctx, ours, fewer):
        return True

    def model(self, ctx, ours, fewer):
        # the layouts differ (not identical): a compile, within the budget
        spent = budget_spent(ctx)
        if spent is None:
            return None
        why = (f"layouts kept: the main loop spills to scratch and the cost model ranks other layouts first by "
               f"registers, but {spent} (not compiled)")
        return Verdict("kept", why, "model", ours, remark=why)

    def trial(self, ctx, ours, fewer, f_fewer, f_ours):
        if isinstance(f_fewer, Exception):
            return Verdict("kept", "the layouts ranked by registers do not compile", "trial", ours)
        details = {"figures": {"default": dot_figures.registers(f_ours), "registers": dot_figures.registers(f_fewer)}}
        return loop_scratch_trial(self.judge, ours, fewer, f_ours, f_fewer, "applied",
                                  "MFMA layouts ranked by registers", "layouts kept", "those ranked by registers are",
                                  details)
