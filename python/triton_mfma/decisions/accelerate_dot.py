"""mfma-accelerate-dot, verified: ours is kept where the kernel is not worse than with Triton's dot layouts.

Compared with: the build with Triton's accelerate_matmul. The comparison compiles both only where the TTGIRs
differ. Models, first, none of which compiles Triton's layouts:
  - launch: where only one of the two can launch (the LDS model on both TTGIRs), that one;
  - occupancy: ours, compiled, runs more waves without scratch spills than theirs' LDS lets run with any registers
    (cost_model.wins_on_occupancy);
  - dot cycles: ours' TTGIR needs fewer main-loop dot cycles per wave (dot_work: MFMA instructions per wave, no
    dot of ours needing more) and ours, compiled, has no spill and as many waves as theirs' LDS lets run
    (cost_model.ties_at_best_before_dot_cycles): theirs ties at best on every key before dot cycles and loses
    there. Where ours runs its dots on FMA, ours' compiled main loop against one iteration of theirs' MFMA dots
    (dot_work.compiled_fma_fewer). Every trial records this model's prediction beside the compiled figures (its
    accuracy).
  - widest LDS ops: only kWidth (and the swizzle that follows from it) differs, so both move the same bytes per
    lane through LDS each iteration; ours, compiled, has no spill of any kind, its TTGIR needs no more main-loop dot
    cycles, and every LDS instruction of its main loop moves the 16 bytes per lane an LDS instruction can at most
    (dot_figures.LDS_WIDEST_BYTES): theirs cannot need fewer LDS ops, and ties at best on every key but occupancy.
    Where theirs' LDS would let more waves run than ours does and ours' VGPRs, not its SGPRs, hold it there, theirs
    reaches them only with fewer VGPRs for the same bytes per lane: measured rare (KWIDTH_MORE_WAVES), so the model
    keeps ours there too (issue 53: the compile that found "equal on every ranked figure" was most of such a
    kernel's extra CPU). Every trial records this model's premises beside the compiled LDS ops.
    Or, in place of the widest ops: the shared layouts are the same in both TTGIRs (kWidth alone differs, ours' no
    smaller) and every dot operand is read from them (no convert_layout to a dot operand, whose LDS traffic follows
    the kWidth): the writes to LDS are the same code, and ours' reads take the same bytes in contiguous runs no
    shorter (bench/kwidth_lds.py: of the kWidth-only trials with the same shared layouts, converting or not, 15 of
    15 on seeds 2830-3329 and 11 of 11 held out on 3370-3569 had as many LDS reads and writes as Triton's layouts).
    Or, where the shared layouts differ: every LDS op of ours needs no more instructions than its counterpart of
    Triton's layouts, by their layouts (lds_chunks): writes counted as Triton vectorizes them and LLVM pairs them
    (lds_writes: two 4- or 8-byte chunks whose address difference no lane bit changes become one ds_write2), reads
    bounded by a lane's contiguous run (one instruction moves one run, or two in the paired forms, at most 16 B);
    or ours' compiled ops of that direction all move 16 B. Measured with every comparison a trial
    (bench/kwidth_lds.py, "bound" where ours has no spill): see bench/results/kwidth_lds_seeds*.txt.
  - fewest LDS ops: the dot layouts differ in more than kWidth (instruction shape, warps); ours, compiled, has no
    spill of any kind at as many waves as theirs' LDS lets run, its TTGIR needs no more main-loop dot cycles, and
    the main loop's LDS ops that differ need no more instructions in ours, counted from the layouts without pairing,
    than in theirs with every pair formed (models/lds_ops.py): theirs ties at best on every key. Not where LLVM
    unrolled ours' main loop whole (its figures then count the kernel's LDS ops outside the loop too). Every trial
    records this model's verdict and bound (bench/lds_ops_model.py measures it on compiled trials).
Where none of these tells (a chained dot's convert_layout to a dot operand, a layout lds_writes does not read, a
spill of ours), there is no model: the LDS ops follow the layouts in ways the models do not read (held-out
generated seeds 650-749: 4 of 42 kernels a former kWidth model kept had more main-loop LDS ops than stock, one of
them worse on nothing else: seed 697 on gfx942, 24 -> 30). Judge (trial): the
one judge (cost_model.judge); ours is kept unless Triton's ranks better, a tie keeps ours.
"""
from __future__ import annotations

from ..ir.runner import kernel_name
from ..models import cost_model, dot_figures, dot_work, lds_chunks, lds_ops, occupancy
from ..models.lds_budget import lds_total
from . import Decision, Speculation, Verdict, first_line, ranked_without_theirs

NAME = "mfma-accelerate-dot"


def _verdict(decision, reason, evidence, chosen, details=None, **extra) -> Verdict:
    return Verdict(decision, reason, evidence, chosen, details or {},
                   remark=reason if reason.startswith(decision) else f"{decision}: {reason}", **extra)


class AccelerateDot(Decision):
    name = NAME
    key = "triton_mfma_accelerate_dot"
    point = "accelerate_matmul"
    option = "verify_dot"
    # theirs is not compiled beside the compile the model reads: where the model tells (16 of 42 on the bench
    # suite), that compile was CPU time for nothing (about 0.8 of stock's compile: make_ttgir and make_llir of a
    # generated GEMM, issue 35); where it cannot, theirs starts once ours' figures are read (wall time, not CPU)
    speculation = Speculation(compared_beside_model=False, compared_beside_trial=True, followups_beside_trial=True)
    judge = staticmethod(cost_model.judge)  # (Triton's, ours) -> cost_model.Judgement of ours

    def settled(self, ctx, ours):
        if "accelerate_matmul" in ours.declined:
            return _verdict("declined", f"declined: {ours.declined_reason(NAME)}; Triton's accelerate_matmul ran",
                            "pass", ours)
        if not self.verifies(ctx):  # no decision taken: metadata only
            return Verdict("unverified", "not verified (verify_dot=False)", "none", ours)
        return None

    def compared(self, ctx, ours):
        return ctx.variant(ours.choice - {"accelerate_matmul"})

    def identical(self, ctx, ours, theirs):
        return _verdict("kept", "the same TTGIR as with Triton's dot layouts (up to value names and locations)",
                        "identical", ours)

    def model_applies(self, ctx, ours, theirs):
        return not ctx.trial_all

    def model(self, ctx, ours, theirs):
        ranked = ranked_without_theirs(ctx, ours, theirs)
        if ranked is None:
            f_ours = ctx.figures(ours)
            why = widest_lds_ops(ctx, ours, theirs, f_ours) or fewest_lds_ops(ctx, ours, theirs, f_ours)
            return None if why is None else _verdict("kept", f"{why}: Triton's layouts cannot rank better (not "
                                                             f"compiled)", "model", ours)
        ours_better, why = ranked
        if ours_better:
            return _verdict("kept", f"{why}: Triton's layouts cannot rank better (not compiled)", "model", ours)
        return _verdict("reverted", f"reverted to Triton's dot layouts: {why}", "model", theirs)

    def trial(self, ctx, ours, theirs, f_theirs, f_ours):
        if isinstance(f_theirs, Exception):
            return _verdict("unverified", f"not verified (the comparison compile failed: {first_line(f_theirs)}); "
                                          "keeping its layouts", "trial", ours)
        if isinstance(f_ours, Exception):
            if ctx.strict:
                raise f_ours
            return _verdict("failed", first_line(f_ours), "trial", theirs,
                            warning=f"triton-mfma: {NAME}'s layouts could not be compiled or measured on kernel "
                                    f"'{kernel_name(ours.module)}' ({first_line(f_ours)}); using Triton's dot layouts",
                            fallback=f"{NAME}: {first_line(f_ours)}")
        j = self.judge(f_theirs, f_ours)
        figures = dot_figures.summary(f_theirs, f_ours)
        # the dot-cycles model's prediction beside the compiled figures: its accuracy, measured on every trial
        cycles = dot_work.compare(ours.text, theirs.text, ctx.arch) or \
            dot_work.compiled_fma_fewer(ours.text, theirs.text, ctx.arch, f_ours.loop_cycles)
        compared = {"kwidth_only": dot_figures.only_kwidth_differs(ours.text, theirs.text),
                    "figures": {"triton": dot_figures.registers(f_theirs), "ours": dot_figures.registers(f_ours)},
                    "dot_cycles": {"model": list(cycles) if cycles else None,
                                   "compiled": [f_theirs.loop_cycles, f_ours.loop_cycles]},
                    "widest_lds": {"model": widest_lds_ops(ctx, ours, theirs, f_ours) is not None,
                                   "compiled": [f_theirs.loop_ds, f_ours.loop_ds]},
                    "fewest_lds": {"model": fewest_lds_ops(ctx, ours, theirs, f_ours) is not None,
                                   "bound": lds_ops.compare(ours.text, theirs.text, ctx.arch)[1]}}
        if j.worse:
            return _verdict("reverted", f"reverted to Triton's dot layouts: ours is worse on {j.figure} "
                                        f"({figures})", "trial", theirs, compared)
        why = f"better on {j.figure}" if j.better else "equal on every ranked figure"
        return _verdict("kept", f"{why} than Triton's dot layouts ({figures})", "trial", ours, compared)


# Where only kWidth differs and ours has no spill, Triton's layouts ranked better on occupancy (fewer registers for
# the same bytes per lane) in 1 of the 943 comparisons compiled (the model's old premise, ours at theirs' LDS cap,
# had left them all to a trial): bench/results/stakes.txt (generated seeds 90-4653, 1 of 914) and the hand-written
# corpus bench/results/corpus_232d598.json.xz (0 of 29). An error that rare is inside the bound on decisions made
# without a compile (issue 53: >= 97% equal to all-trials).
KWIDTH_MORE_WAVES = "of 943 kWidth-only comparisons compiled where ours had no spill, 1 did"


def widest_lds_ops(ctx, ours, theirs, f_ours) -> str | None:
    """Why Triton's layouts cannot rank better than ours on any key, uncompiled, where only kWidth differs (the
    module docstring's "widest LDS ops"); None where a premise does not hold or cannot be read."""
    if isinstance(f_ours, Exception) or f_ours.spills or not cost_model.nothing_ranked(f_ours):
        return None
    lds_theirs = lds_total(theirs.text)
    if lds_theirs is None or not dot_figures.only_kwidth_differs(ours.text, theirs.text):
        return None
    mine, other = dot_work.main_loop_cycles_of(ours.text, ctx.arch), dot_work.main_loop_cycles_of(theirs.text, ctx.arch)
    if mine is None or other is None or mine > other:
        return None
    lds = _no_more_lds_ops(ctx, ours, theirs, f_ours)
    if lds is None:
        return None
    if cost_model.ties_at_best_before_dot_cycles(f_ours, lds_theirs, ctx.arch, ctx.num_warps, ctx.w):
        waves = "as many as Triton's layouts' LDS lets run"
    elif occupancy.waves_with_sgprs(occupancy.target(ctx.arch), f_ours.sgpr) <= f_ours.occupancy:
        return None  # its SGPRs hold it there: theirs may need fewer (GEMM 16x64x64 on gfx942: kpack 2 took 2 more)
    else:
        waves = (f"Triton's layouts' LDS would let more run, which they reach only with fewer VGPRs for the same "
                 f"bytes per lane ({KWIDTH_MORE_WAVES})")  # ours' VGPRs hold it
    return (f"only kWidth differs: the same bytes per lane through LDS; ours has no spill at {f_ours.occupancy} "
            f"waves/SIMD, {waves}, main-loop dot cycles {mine} (Triton's {other}), and {lds}")


def fewest_lds_ops(ctx, ours, theirs, f_ours) -> str | None:
    """Why Triton's layouts cannot rank better than ours on any key, uncompiled, where the dot layouts differ in more
    than kWidth (the module docstring's "fewest LDS ops"); None where a premise does not hold or cannot be read."""
    if isinstance(f_ours, Exception) or f_ours.spills or not cost_model.nothing_ranked(f_ours):
        return None
    if getattr(f_ours, "loop_whole", False):  # LLVM unrolled ours' loop whole: its figures count the whole kernel's
        return None  # LDS ops, the epilogue's too, per K-step (generated seed 2855 on gfx942: 100 / 4 against 10)
    lds_theirs = lds_total(theirs.text)
    if lds_theirs is None or not cost_model.ties_at_best_before_dot_cycles(f_ours, lds_theirs, ctx.arch,
                                                                          ctx.num_warps, ctx.w):
        return None
    mine, other = dot_work.main_loop_cycles_of(ours.text, ctx.arch), dot_work.main_loop_cycles_of(theirs.text, ctx.arch)
    if mine is None or other is None or mine > other:
        return None
    bound = lds_ops.no_more_loop_lds_ops(ours.text, theirs.text, ctx.arch)
    if bound is None:
        return None
    return (f"ours has no spill at {f_ours.occupancy} waves/SIMD, as many as Triton's layouts' LDS lets run, "
            f"main-loop dot cycles {mine} (Triton's {other}), and its main loop's LDS ops that differ need at most "
            f"{bound[0]} instructions per lane where Triton's layouts' need at least {bound[1]} (lds_ops)")


def _no_more_lds_ops(ctx, ours, theirs, f_ours) -> str | None:
    """Why Triton's layouts, where only kWidth differs, cannot need fewer main-loop LDS ops than ours: every one of
    ours moves the most an LDS op can, the shared layouts are the same, or each op of ours moves at least what its
    counterpart of theirs can (the module docstring); None where none holds."""
    if f_ours.loop_ds_narrow == 0:
        return (f"each of its {f_ours.loop_ds} main-loop LDS ops moves {dot_figures.LDS_WIDEST_BYTES} B per lane, the "
                f"most one can")
    if dot_figures.only_kwidth_differs(ours.text, theirs.text, same_shared=True) and \
            dot_figures.kwidths_no_smaller(ours.text, theirs.text) and \
            not dot_figures.converts_to_dot_operand(ours.text):
        return ("the shared layouts are the same: the same LDS writes, and its reads take the same bytes in runs no "
                "shorter (its kWidth no smaller)")
    if layouts_bound(ours.text, theirs.text, ctx.arch, f_ours):
        return ("each of its LDS reads and writes moves at least what any of Triton's layouts' can, by their "
                "layouts' contiguous runs (lds_chunks) or at the widest")
    return None


def layouts_bound(ours: str, theirs: str, arch: str, f_ours) -> bool:
    """Whether, by the layouts (lds_chunks.no_more_lds_ops) or where ours' compiled ops of a direction all move the
    widest, each LDS read and write of ours (TTGIR `ours`, compiled figures `f_ours`) needs no more instructions
    than its counterpart in TTGIR `theirs` (bench/kwidth_lds.py measures it)."""
    bound = lds_chunks.no_more_lds_ops(ours, theirs, arch)
    widest = {"write": f_ours.loop_ds_write_narrow == 0,
              "read": f_ours.loop_ds_narrow - f_ours.loop_ds_write_narrow == 0}
    return bound is not None and all(widest[d] or bound[d] for d in ("write", "read"))
