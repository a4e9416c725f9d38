"""mfma-stream-pipeline, decided per kernel: ours replaces Triton's loop pipeliner only where the one judge
(cost_model.judge) ranks it better (fewer main-loop or scratch spills, more waves per SIMD, fewer AGPR copies or
SGPR lane spills in the main loop, fewer dot cycles or LDS ops per iteration, in that order); a tie keeps Triton's.

Compared with: the build with Triton's loop pipeliner at `pipeline`. Models, first:
  - unbuilt: where the TTIR shows the pass would decline every loop (no scf.for; num_stages <= 1 and no loop asking
    for more): its variant, Triton's pipeliner, would be the same TTGIR built a second time (no_loop_to_pipeline).
  - Triton's first (the variant built before ours, `before_ours`): where Triton's pipeliner's LDS admits every wave
    the kernel asks for (or the hardware's most, under no waves_per_eu), or where it copies through registers (no
    async copy to LDS: gfx90a, gfx942) with at most 2 stages and so keeps at most one LDS buffer per operand, what
    ours keeps (ours cannot save LDS: bench/results/stream_pipeline_amd.txt), and Triton's pipeliner, compiled,
    runs every wave its LDS lets run with no spill of any ranked class (cost_model.ties_at_best_before_dot_cycles
    against no LDS at all, or against its own), no LDS saving of ours can buy a wave and no spill of ours can be
    fewer; neither pipeliner changes the dot ops of the loop body (they move loads and add buffers), so ours could
    rank better only on LDS ops, which no model here reads (the win the "nothing to win" model below gives up
    too). Ours is then not built: a whole make_ttgir saved on the kernels whose compile it weighs most on (small
    tiles at full occupancy). Where Triton's spills, ours is built and compared: its other schedule may spill
    less (held-out seed 3580 on gfx90a, num_stages 2: main-loop scratch 43 -> 14; 3932 on gfx90a, 241 -> 177,
    where a rule without Triton's compile had declined it).
  - launch: where only one of the two can launch (the LDS model: more LDS than a CU has cannot run), that one;
  - LDS: where a `lds_limit` budget is set and only ours meets it, ours; where ours needs no less LDS than Triton's
    pipeliner and Triton's, compiled (the kernel handed on), spills nothing of a ranked class, Triton's: ours' LDS
    buys no wave, and where ours keeps Triton's buffers or more, ours never ranked better in the all-trials runs but
    on LDS ops or on a spill of Triton's (see `_one_buffer_each`; seeds 1127 gfx950, 3932 gfx90a: main-loop scratch
    40 -> 0 and 241 -> 177 where Triton's spilled, which a rule reading the LDS alone had declined);
  - nothing to win: where ours' LDS saving buys no wave (both LDS admit the same waves with any registers), ours'
    TTGIR needs no fewer main-loop dot cycles (dot_work), and Triton's pipeliner, compiled first, has no spill of
    any kind at every wave ours' LDS lets run, ours could rank better only on LDS ops, which no model here reads:
    Triton's, ours not compiled. The win given up is measured: of the trials of seeds 1050-1169 where Triton's
    pipeliner spilled nothing at ours' occupancy, ours won on LDS ops in 1 of 41 (the rest: equal 22, worse on
    LDS ops 18);
  - the LDS bound (cost_model.wins_on_occupancy): where ours, compiled, has no scratch spill and runs more waves
    than Triton's pipeliner's LDS lets run with any registers, ours (Triton's is not compiled).
Judge (trial): cost_model.judge.
"""
from __future__ import annotations

from ..models import cost_model, dot_figures, dot_work, occupancy as occ_model
from ..models.lds_budget import budget_for_register_occupancy, lds_total
from . import Decision, Speculation, Verdict, budget_spent, compiles_capped, first_line

NAME = "mfma-stream-pipeline"


def no_loop_to_pipeline(ttir: str, num_stages: int) -> str | None:
    """Why the pass would decline every loop of the kernel whose TTIR (generic text) is `ttir`, read before it is
    built (its own checks, StreamPipeline.cpp checkLoopShape): no scf.for, or num_stages <= 1 where no loop asks
    for stages of its own (tt.num_stages); None where it may pipeline one. No pass before the pipeline point makes
    a loop, so where the TTIR has none the pass has none."""
    if not ttir:
        return None
    if '"scf.for"' not in ttir:
        return "no scf.for in the kernel's TTIR"
    if num_stages <= 1 and "tt.num_stages" not in ttir:
        return "the kernel was compiled with num_stages <= 1 and no loop asks for more"
    return None


def _verdict(decision, reason, evidence, chosen) -> Verdict:
    return Verdict(decision, reason, evidence, chosen, remark=f"{decision}: {reason}")


class StreamPipeline(Decision):
    name = NAME
    key = "triton_mfma_stream_pipeline"
    point = "pipeline"
    option = "verify_pipeline"
    speculation = Speculation(lower_after_model=True)
    judge = staticmethod(cost_model.judge)  # (Triton's, ours) -> cost_model.Judgement of ours

    def unbuilt(self, ctx):
        if ctx.trial_all or not self.verifies(ctx):
            return None
        opts = ctx.triton_options
        stages = getattr(opts, "num_stages", 2)
        nothing = no_loop_to_pipeline(ctx.ttir, stages)
        if nothing is not None:
            return _verdict("declined", f"{nothing}; Triton's loop pipeliner ran (ours not built)", "model", None)
        return None

    variant_first = True

    def before_ours(self, ctx, theirs):
        if ctx.options.get("lds_limit") is not None:  # a budget ours may meet where Triton's does not: the model
            return None
        asked = ctx.asked_w
        lds = lds_total(theirs.text)
        if lds is None:
            return None
        saves = not _one_buffer_each(ctx)
        if saves:
            most = occ_model.occupancy(ctx.arch, ctx.num_warps, 0, 0, 0, asked)
            admitted = occ_model.occupancy(ctx.arch, ctx.num_warps, 0, 0, lds, asked)
            if not admitted.workgroups_per_cu or admitted.waves_per_simd < most.waves_per_simd:
                return None  # ours' LDS saving may buy waves: ours is built and compared (it may win uncompiled)
        f = ctx.figures(theirs)
        if isinstance(f, Exception):
            return None
        if saves:
            if not cost_model.ties_at_best_before_dot_cycles(f, 0, ctx.arch, ctx.num_warps, asked):
                return None
            return _verdict("declined", f"Triton's loop pipeliner, compiled first, runs {f.occupancy} waves/SIMD, the "
                                        f"most any LDS lets run (its {lds} B admit them), with no spill: ours could "
                                        f"rank better only on LDS ops, which no model reads (ours not built)", "model",
                            theirs)
        if not cost_model.nothing_ranked(f):  # ours keeps the LDS buffers Triton's keeps
            return None
        return _verdict("declined", f"Triton's loop pipeliner keeps one LDS buffer per operand here ({ctx.arch}, "
                                    f"num_stages <= 2, no async copy), as ours does, and, compiled first, spills "
                                    f"nothing at {f.occupancy} waves/SIMD: ours could rank better only on LDS ops, "
                                    f"which no model reads (ours not built)", "model", theirs)

    def settled(self, ctx, ours):
        if "pipeline" in ours.declined:
            return _verdict("declined", f"{ours.declined_reason(NAME)}; Triton's loop pipeliner ran", "pass", ours)
        if not self.verifies(ctx):  # the pass as it is: no decision, metadata only
            return Verdict("unverified", "not verified (verify_pipeline=False)", "none", ours)
        return None

    def compared(self, ctx, ours):
        return ctx.variant(ours.choice - {"pipeline"})

    def unlaunchable(self, ctx, ours, theirs, why):
        return _verdict("declined", f"{why}: a tie keeps Triton's loop pipeliner", "model", theirs)

    def identical(self, ctx, ours, theirs):
        return _verdict("unchanged", "the same TTGIR as Triton's loop pipeliner (up to value names and locations)",
                        "identical", ours)

    def model_applies(self, ctx, ours, theirs):
        return True

    def model(self, ctx, ours, theirs):
        lds_ours, lds_theirs = lds_total(ours.text), lds_total(theirs.text)
        launch = cost_model.one_launches(ctx.arch, ctx.num_warps, lds_ours, lds_theirs)
        if launch is not None and not ctx.trial_all:
            ours_launches, why = launch
            if ours_launches:
                return _verdict("applied", f"{why}: Triton's loop pipeliner cannot rank better (not compiled)",
                                "model", ours)
            return _verdict("declined", f"{why}: Triton's loop pipeliner", "model", theirs)
        budget = _lds_budget(ctx, theirs) if lds_ours is not None and lds_theirs is not None else None
        if budget is not None and lds_theirs > budget:
            if lds_ours <= budget:
                return _verdict("applied", f"meets the LDS budget {budget} B with one buffer per operand (Triton's "
                                           f"loop pipeliner needs {lds_theirs} B, ours {lds_ours} B)", "model", ours)
            ctx.note("lds_limit", f"the LDS budget {budget} B cannot be met: Triton's loop pipeliner needs "
                                  f"{lds_theirs} B, ours {lds_ours} B")
        if compiles_capped(ctx, needs=2) is not None:  # Triton's compiled first would leave ours no room
            return None
        if lds_ours is not None and lds_theirs is not None and lds_ours >= lds_theirs and not ctx.trial_all:
            # ours' LDS buys no wave; Triton's, compiled (the kernel handed on if it is declined), shows whether
            # there is a spill ours' other schedule may cut (the all-trials runs: see _one_buffer_each)
            f = ctx.figures(theirs)
            if isinstance(f, Exception) or not cost_model.nothing_ranked(f):
                return None
            return _verdict("declined", f"Triton's loop pipeliner needs no more LDS ({lds_theirs} B, ours {lds_ours} "
                                        f"B) and, compiled, spills nothing at {f.occupancy} waves/SIMD: ours could "
                                        f"rank better only on LDS ops, which no model reads (ours not compiled)",
                            "model", theirs)
        if lds_ours is not None and lds_theirs is not None and not ctx.trial_all:
            v = _nothing_to_win(ctx, ours, theirs, lds_ours, lds_theirs)
            if v is not None:
                return v
        if lds_theirs is not None and not ctx.trial_all:  # the LDS ours saves may settle it: ours compiled
            f = ctx.figures(ours)
            why = None if isinstance(f, Exception) else cost_model.wins_on_occupancy(
                f, lds_theirs, ctx.arch, ctx.num_warps, ctx.w)
            if why is not None:
                return _verdict("applied", f"{why}: Triton's loop pipeliner cannot rank better (not compiled)",
                                "model", ours)
        return None

    def trial(self, ctx, ours, theirs, f_theirs, f_ours):
        if isinstance(f_theirs, Exception):
            raise f_theirs
        if isinstance(f_ours, Exception):
            return _verdict("declined", f"ours does not compile ({first_line(f_ours)})", "trial", theirs)
        j = self.judge(f_theirs, f_ours)
        figures = dot_figures.summary(f_theirs, f_ours)
        if not j.better:
            why = f"worse on {j.figure}" if j.worse else "no gain on any ranked figure"
            return _verdict("declined", f"{why} against Triton's loop pipeliner ({figures})", "trial", theirs)
        return _verdict("applied", f"better on {j.figure} than Triton's loop pipeliner ({figures})", "trial", ours)


# Where ours keeps the LDS buffers Triton's keeps (one per operand, as Triton's at num_stages <= 2 without async
# copy), the all-trials runs (bench/trial_all.py, seeds 1100-1139, 1670-1709, 3570-3589, 3830-3841, 3922-3933)
# compared both 47 times where both launch: ours ranked better 5 times, on main-loop scratch where Triton's spilled
# (415 -> 371, 43 -> 14, 55 -> 47) and on LDS ops (18 -> 17 twice), never on occupancy (no gain 35, worse 7).
# Where ours needs no less LDS than Triton's, 23 times: better 6, on main-loop scratch or AGPR copies where
# Triton's spilled or copied (40 -> 0, 241 -> 177; copies 4 -> 3) and on LDS ops (3), never on occupancy.


def _one_buffer_each(ctx) -> bool:
    """Whether Triton's pipeliner keeps at most one LDS buffer per operand here, as ours does (it copies through
    registers, no async copy to LDS: gfx90a, gfx942, with at most 2 stages): ours cannot save LDS."""
    from triton.backends.amd.compiler import is_async_copy_enabled

    opts = ctx.triton_options
    stages = getattr(opts, "num_stages", 2)
    return stages <= 2 and not is_async_copy_enabled(getattr(opts, "base_arch", opts.arch))


def _nothing_to_win(ctx, ours, theirs, lds_ours: int, lds_theirs: int) -> Verdict | None:
    """Triton's pipeliner (compiled) where ours could rank better on no key the models read (module docstring);
    None where it might, or where the premises cannot be read. Triton's is compiled only where ours' LDS buys no
    wave: elsewhere ours, compiled first, may settle it on occupancy (`wins_on_occupancy`) without Triton's."""
    def waves(lds: int) -> int:
        occ = occ_model.occupancy(ctx.arch, ctx.num_warps, 0, 0, lds, ctx.w)
        return occ.waves_per_simd if occ.workgroups_per_cu else 0

    if waves(lds_ours) != waves(lds_theirs):
        return None
    c_ours, c_theirs = dot_work.main_loop_cycles_of(ours.text, ctx.arch), dot_work.main_loop_cycles_of(theirs.text,
                                                                                                      ctx.arch)
    if c_ours is None or c_theirs is None or c_ours < c_theirs:
        return None
    f = ctx.figures(theirs)
    if isinstance(f, Exception):
        return None
    if not f.vgpr_spills + f.sgpr_spills and \
            cost_model.ties_at_best_before_dot_cycles(f, lds_ours, ctx.arch, ctx.num_warps, ctx.w):
        return _verdict("declined", f"Triton's loop pipeliner, compiled, leaves ours nothing to win that a model "
                                    f"reads: no spill at {f.occupancy} waves/SIMD, as many as ours' LDS ({lds_ours} B "
                                    f"against {lds_theirs} B) lets run, main-loop dot cycles {c_theirs} (ours "
                                    f"{c_ours}); ours not compiled (LDS ops not modelled)", "model", theirs)
    spent = budget_spent(ctx)  # read where ours' compile would follow
    if spent is not None:
        return _verdict("declined", f"Triton's loop pipeliner, compiled: ours' LDS saving buys no wave and its TTGIR "
                                    f"needs no fewer dot cycles, and {spent} (ours not compiled)", "model", theirs)
    return None


def _lds_budget(ctx, reference) -> int | None:
    """The kernel's LDS budget in bytes (`lds_limit`), None when none is set; "occupancy" is resolved from
    `reference` compiled (the budget that keeps the workgroups per CU its registers allow)."""
    value = ctx.options.get("lds_limit")
    if value != "occupancy":
        return value
    f = ctx.figures(reference)
    if isinstance(f, Exception):
        return None
    return budget_for_register_occupancy(ctx.arch, ctx.num_warps, f.vgpr_total, f.sgpr, ctx.w)[0]
