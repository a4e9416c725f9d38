"""waves_per_eu "auto": the waves_per_eu the chosen TTGIR compiles best at (autowaves.py: the rule and the model).

Compared with: the same TTGIR at waves_per_eu=0 (the base, the decisions' compile where there was one) and at each
candidate w; the candidates share the base's make_llir (engine.py: only the LLVM function attribute differs).
Model: autowaves.plan, the candidates the occupancy model says can gain (all the caps allow with trial_all).
Judge: autowaves.better, a candidate over the base. Decided in the llir stage, after every TTGIR decision.
"""
from __future__ import annotations

import functools

from ..models import autowaves
from . import Decision, Verdict, at_waves_bounded, budget_spent

NAME = "waves_per_eu auto"


class WavesPerEu(Decision):
    name = NAME
    key = "triton_mfma_waves_per_eu"
    stage = "llir"
    judge = staticmethod(autowaves.better)  # (base, candidate) -> whether the candidate gains, losing nothing

    def wanted(self, options, waves, triton_options):
        return waves.auto

    def present(self, ctx, interior):
        return self.wanted(ctx.options, ctx.waves, ctx.triton_options)

    def waves_to_try(self, ctx, base) -> list[int]:
        """The w the decision compiles for a base (w=0) compile: the model's, or every one the caps allow."""
        promising, _, possible = autowaves.plan(ctx.arch, ctx.num_warps,
                                                autowaves.candidate(ctx.arch, ctx.num_warps, base))
        return possible if ctx.trial_all else promising

    def followups(self, ctx, ours):
        base = ctx.compiled(ours, 0)
        if base is None or ctx.long_compile() is not None:
            return []
        return [(ours, w) for w in self.waves_to_try(ctx, base)]

    def decide(self, ctx, base, trials) -> Verdict:
        """`base`: the chosen TTGIR compiled at 0; the candidates are its TTGIR at other waves (`trials.at_waves`)."""
        # the candidates are compared with the base, which the TTGIR decisions compared with Triton's: no reserve
        spent = budget_spent(ctx, len(self.waves_to_try(ctx, base)), reserve=0, same_llir=True)
        if spent is not None:
            return _within_budget(ctx, base, spent)
        choice = autowaves.choose(ctx.arch, ctx.num_warps, base, functools.partial(at_waves_bounded, ctx, trials),
                                  trial_all=ctx.trial_all, better=self.judge)
        return Verdict("chosen", choice.reason(), "trial" if choice.tried[1:] else "model", choice.chosen.compiled,
                       remark=choice.reason(), fields=choice.as_metadata())


def _within_budget(ctx, base, spent: str) -> Verdict:
    """The base (w=0, the kernel's own) kept without a candidate: the compile budget is spent (`spent`: why)."""
    c = autowaves.candidate(ctx.arch, ctx.num_warps, base)
    reason = (f"waves_per_eu=auto kept 0 (the kernel's own; {c.occupancy.waves_per_simd} waves/SIMD, {c.spills} "
              f"spills): {spent}, and each candidate would cost about as much again (not compiled)")
    fields = {"chosen": base.waves_per_eu, "reason": reason, "evidence": "model",
              "tried": {str(base.waves_per_eu): [c.occupancy.waves_per_simd, c.spills, c.res.vgpr_total]}}
    return Verdict("chosen", reason, "model", base, remark=reason, fields=fields)
