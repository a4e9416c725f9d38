"""Register pressure of an explicit waves_per_eu: relaxed to the waves that can run, where the request only costs
spills.

`waves_per_eu=N` (the kernel's, or one the activation forces) sets the register budget for N waves per SIMD
(occupancy.vgpr_budget: 512 / N in granules). Where LDS, SGPRs, the workgroup slots or whole workgroups (8 warps
put 2 waves on each SIMD: N = 7 runs 6) cap the occupancy below N, those N waves never run: the squeezed budget
buys nothing and spills (a public case: the LDS admits 2 waves, N=8 spills 31 VGPRs, N=4 none at the same 2 waves;
bench/spill_calibration.md D09-D11).

Two steps, model first:
  1. Before anything compiles (`comparison_waves`): where ours' TTGIR needs LDS that admits fewer waves than N
     (the LDS model at N's register budget: whole workgroups counted), the TTGIR decisions compare their variants
     at those waves (2 at the least: MIN_COMPARED_WAVES), not under a budget no wave of which runs. The occupancy
     of the waves that run is the one N could reach; the budget is theirs.
  2. In the llir stage, on the chosen TTGIR (`decide`), from its compile:
     - compared below N: the chosen kernel's own caps (its LDS, its SGPRs, the workgroup slots) admit those
       waves: it stands, relaxed (evidence model); they admit more (the chosen variant needs less LDS than ours
       did): compiled at min(N, those waves), relaxed to them or N kept (model); fewer (one wave where the
       comparisons ran at 2): compiled at one wave only where the compile at 2 spills (a larger budget cuts
       nothing else) and what it needed is not far beyond that budget (`fits`), and kept where the one judge
       ranks it better (trial);
     - compared at N: nothing is compiled where it spills nothing or its caps admit N waves (the request buys what
       it asks for, or costs nothing); else the same TTGIR at the waves the caps admit (< N: never raised),
       sharing its make_llir, kept where the one judge (cost_model.judge) ranks it better at an occupancy no
       lower than N reached.
     Where a compile of the kernel spent the compile budget (decisions.LONG_COMPILE_S), the compile made stands
     at the waves it was made at (the request, or the waves the comparisons ran at) and nothing more compiles; the
     budget is read where a compile would follow (below N, reading it compiles stock's kernel first: policy).
"""
from __future__ import annotations

import functools

from ..composition.passes import setting
from ..models import cost_model, dot_figures, occupancy as occ_model, resources
from ..models.lds_budget import lds_total
from . import Decision, Verdict, at_waves_bounded, budget_spent

NAME = "waves_per_eu relax"
# The TTGIR decisions compare at 2 waves at the least: at one wave the budget is the whole file (AGPRs as general
# registers), where LLVM compiles a kernel whose registers do not fit even that about 10x slower (generated seed 160,
# a 1-warp 64x256x128 GEMM, gfx90a: 12.9 s at 2 waves, 132.8 s at 1, spilling 3133 and 1598 VGPRs; past 600 s on
# gfx950). One wave is then tried on the chosen kernel only where what it needed at 2 is not far beyond that
# budget (`fits`).
MIN_COMPARED_WAVES = 2
ONE_WAVE_DEMAND = 2  # see `fits`

_CAPS = {"lds": "its LDS ({lds} B/workgroup)", "sgpr": "its {sgpr} SGPRs",
         "workgroup-slots": "the CU's workgroup slots ({warps} waves/workgroup)",
         "whole-workgroups": "the whole-workgroup step ({warps} waves/workgroup, {per_simd} on each SIMD)"}


def admitted_waves(arch: str, num_warps: int, f, n: int = 0) -> tuple[int, str]:
    """(waves per SIMD the kernel could run with registers unlimited: LDS, SGPRs and workgroup slots, 0 where its
    workgroup cannot launch; the cap that decides it). With `n` (a waves_per_eu asked): at most the waves that run
    under n's register budget, where whole workgroups cap them below n (8 warps put 2 waves on each SIMD: n = 7
    runs 6, with 7's budget)."""
    occ = occ_model.occupancy(arch, num_warps, 0, f.sgpr, f.lds)
    cap = _CAPS.get(occ.limiter, "the waves per SIMD").format(lds=f.lds, sgpr=f.sgpr, warps=num_warps)
    admitted = occ.waves_per_simd if occ.workgroups_per_cu else 0
    if n and admitted >= n:
        at_n = occ_model.occupancy(arch, num_warps, occ_model.vgpr_budget(arch, n), f.sgpr, f.lds, n)
        if at_n.workgroups_per_cu and at_n.waves_per_simd < n:
            per_simd = -(-num_warps // occ_model.target(arch).simds_per_cu)
            return at_n.waves_per_simd, _CAPS["whole-workgroups"].format(warps=num_warps, per_simd=per_simd)
    return admitted, cap


def fits(arch: str, f, w: int, target: int) -> bool:
    """Whether a compile at `target` (< w) waves is worth trying from what the compile at `w` needed: its registers
    plus the scratch it spilled to (bytes per lane / 4) within ONE_WAVE_DEMAND times the target's budget. Measured
    on three generated kernels at 2 waves (gfx90a): demand 120 (seed 26) and 729 (seed 10: one wave compiled in
    12.8 s as 2 waves did) were worth it; 1620 (seed 160: 132.8 s against 12.9 s, still spilling) was not. A model
    of LLVM's allocation time is not available: this is the measured boundary, not a derived one."""
    return f.vgpr_total + f.scratch // 4 <= ONE_WAVE_DEMAND * occ_model.vgpr_budget(arch, target)


def _beyond(arch: str, f, w: int, target: int) -> str:
    """Why `target` waves are not tried (`fits` said no), from the compile `f` at `w`."""
    return (f"not {target}: {f.vgpr_total} registers and {f.scratch} B of scratch per lane at {w} waves, more than "
            f"{ONE_WAVE_DEMAND}x its budget ({occ_model.vgpr_budget(arch, target)})")


_WITHOUT_SPILLS = "waves_per_eu={n} compiles without spills"


class RelaxWavesPerEu(Decision):
    name = NAME
    key = "triton_mfma_waves_relax"
    stage = "llir"
    option = "relax_waves_per_eu"
    judge = staticmethod(cost_model.judge)  # (the compile at N, the relaxed one) -> cost_model.Judgement

    def wanted(self, options, waves, triton_options):
        return waves.asked > 0 and not waves.auto and bool(setting(options, self.option))

    def present(self, ctx, interior):
        return self.wanted(ctx.options, ctx.waves, ctx.triton_options)

    def comparison_waves(self, ctx, ours):
        lds = lds_total(ours.text)
        if lds is None:
            return None
        # registers: the budget of the waves asked (whole workgroups may run fewer); none other than LDS capped
        n = ctx.asked_w
        occ = occ_model.occupancy(ctx.arch, ctx.num_warps, occ_model.vgpr_budget(ctx.arch, n), 0, lds, n)
        w = max(occ.waves_per_simd, MIN_COMPARED_WAVES)
        return w if occ.workgroups_per_cu and w < n else None

    def model(self, ctx, f_asked) -> tuple[int | None, str]:
        """(the waves_per_eu to try, why), or (None, why the request stands) from the compile at N."""
        n = ctx.w
        if not (f_asked.vgpr_spills or f_asked.sgpr_spills):
            return None, _WITHOUT_SPILLS.format(n=n)
        admitted, cap = admitted_waves(ctx.arch, ctx.num_warps, f_asked, n)
        if admitted >= n or admitted == 0:
            return None, f"waves_per_eu={n}: {admitted} waves/SIMD can run, the request is within what runs"
        return admitted, f"waves_per_eu={n} asks for {n} waves/SIMD, but {cap} admits {admitted}"

    def decide(self, ctx, base, trials) -> Verdict:
        """`base`: the variants.Compiled at ctx.w (the kernel's waves_per_eu, or the waves its LDS admits where the
        TTGIR decisions compared there); the relaxed candidates are its TTGIR at other waves (`trials.at_waves`)."""
        compile_many = functools.partial(at_waves_bounded, ctx, trials)
        n, w0 = ctx.asked_w, base.waves_per_eu
        if cost_model.cannot_launch(ctx.arch, ctx.num_warps, base.metadata["shared"]):
            return Verdict("kept", f"the kernel cannot launch at any waves_per_eu: {base.metadata['shared']} B of LDS "
                                   f"per workgroup, more than a CU has", "model", base, {"asked": n})
        printed = resources.printed(base.amdgcn, base.metadata["shared"])
        if w0 >= n and not (printed.vgpr_spill or printed.sgpr_spill):  # the model's first rule, on the figures alone
            return Verdict("kept", _WITHOUT_SPILLS.format(n=n), "model", base, {"asked": n})
        f0 = ctx.figures_of(base, w0)
        if w0 < n:  # its models first: the budget is read where a compile would follow
            return self._compared_below(ctx, n, base, f0, compile_many)
        spent = self._as_compiled(ctx, n, base)
        if spent is not None:
            return spent
        w, why = self.model(ctx, f0)
        if w is not None and w < MIN_COMPARED_WAVES <= n and not fits(ctx.arch, f0, n, w):
            # see MIN_COMPARED_WAVES: one wave only where the spills fit its budget (also where 2 were asked:
            # generated seed 1030 on gfx942, 256 registers and 5,853 VGPR spills at 2 waves; the compile at one
            # wave took 40x stock's 7 s)
            if n == MIN_COMPARED_WAVES:
                why = f"{why}; {_beyond(ctx.arch, f0, n, w)}"
                return Verdict("kept", why, "model", base, {"asked": n}, remark=f"waves_per_eu {n} kept; {why}")
            w = MIN_COMPARED_WAVES
        if w is None:
            return Verdict("kept", why, "model", base, {"asked": n})
        try:
            relaxed = compile_many([w])[0]
        except Exception as e:  # noqa: BLE001 - the request stands where the relaxed compile fails
            return Verdict("kept", f"{why}; waves_per_eu={w} does not compile ({e})", "trial", base, {"asked": n})
        f_relaxed = ctx.figures_of(relaxed, w)
        j = self.judge(f0, f_relaxed)
        figures = (f"spills {f0.vgpr_spills}+{f0.sgpr_spills} -> {f_relaxed.vgpr_spills}+"
                   f"{f_relaxed.sgpr_spills}, occupancy {f0.occupancy} -> {f_relaxed.occupancy}, "
                   f"registers {f0.vgpr_total} -> {f_relaxed.vgpr_total}")
        details = {"asked": n, "tried": w, "figures": {"asked": dot_figures.registers(f0),
                                                        "relaxed": dot_figures.registers(f_relaxed)}}
        if j.better and f_relaxed.occupancy >= f0.occupancy:
            reason = f"waves_per_eu {n} -> {w}; {why}; better on {j.figure} ({figures})"
            return Verdict("relaxed", reason, "trial", relaxed, details, remark=reason)
        verdict = f"worse on {j.figure}" if j.worse else "no better on any ranked figure"
        reason = f"waves_per_eu {n} kept; {why}, but waves_per_eu={w} is {verdict} ({figures})"
        return Verdict("kept", reason, "trial", base, details, remark=reason)

    @staticmethod
    def _as_compiled(ctx, n, base, details=None) -> Verdict | None:
        """Where the compile budget is spent, the compile made stands at the waves it was made at (nothing else
        compiled): that verdict, else None. The relaxed waves share the base's LLVM IR (another attribute)."""
        spent = budget_spent(ctx, same_llir=True)
        if spent is None:
            return None
        w0 = base.waves_per_eu
        why = f"waves_per_eu {n}{'' if w0 >= n else f' -> {w0}'} as compiled: {spent} (nothing else compiled)"
        return Verdict("kept" if w0 >= n else "relaxed", why, "model", base, details or {"asked": n}, remark=why)

    @staticmethod
    def _stock_waves_bound(ctx, n) -> int:
        """At least the waves/SIMD the request runs under Triton's own kernel (its interior steps, num_stages as
        given): what its LDS and the request admit, registers unlimited; n where the LDS model cannot tell."""
        try:
            lds = lds_total(ctx.variant(frozenset()).text)
        except Exception:  # noqa: BLE001 - no bound: the request's waves
            return n
        if lds is None:
            return n
        return occ_model.occupancy(ctx.arch, ctx.num_warps, 0, 0, lds, n).waves_per_simd

    def _against_the_request(self, ctx, n, base, f0, stands, details, compile_many) -> Verdict:
        """The relaxed compile spills: LLVM's allocation is not monotonic in the budget (generated seed 359, a
        1-warp tl.dot_scaled GEMM on gfx950: waves_per_eu=7, 4 waves run; at 4's budget 128 VGPRs and 10 scratch
        ops per main-loop iteration, at 7's 70 VGPRs and none), so the request is compiled too and kept where the
        one judge ranks it better."""
        spent = budget_spent(ctx, reserve=0, same_llir=True)
        if spent is not None:
            return Verdict("relaxed", f"{stands}; the request not compiled too: {spent}", "model", base, details,
                           remark=stands)
        try:
            c = compile_many([n])[0]
            f_n = ctx.figures_of(c, n)
        except Exception:  # noqa: BLE001 - the relaxed compile stands where the request's fails
            return Verdict("relaxed", stands, "model", base, details, remark=stands)
        details = {**details, "compared": n, "figures": {**details["figures"], "asked": dot_figures.registers(f_n)}}
        j = self.judge(f0, f_n)
        if j.better:
            reason = (f"waves_per_eu {n} kept: the waves that run are fewer, but their budget compiles worse "
                      f"({j.figure}; {dot_figures.summary(f0, f_n)})")
            return Verdict("kept", reason, "trial", c, details, remark=reason)
        return Verdict("relaxed", f"{stands}; waves_per_eu={n} itself is no better ({dot_figures.summary(f0, f_n)})",
                       "trial", base, details, remark=stands)

    def _compared_below(self, ctx, n, base, f0, compile_many) -> Verdict:
        """The TTGIR decisions compared at w0 < n (the waves ours' LDS admits, at least MIN_COMPARED_WAVES): the
        chosen kernel's own caps say which compile is handed on."""
        w0 = base.waves_per_eu
        admitted, cap = admitted_waves(ctx.arch, ctx.num_warps, f0, n)
        budget = lambda w: occ_model.vgpr_budget(ctx.arch, w)  # noqa: E731
        details = {"asked": n, "tried": w0, "figures": {"relaxed": dot_figures.registers(f0)}}
        asks = f"waves_per_eu={n} asks for {n} waves/SIMD, but {cap} admits {admitted}"
        target = n if admitted == 0 else min(n, admitted)
        stands = (f"waves_per_eu {n} -> {w0}; {asks}: the register budget of {w0} waves ({budget(w0)} instead of "
                  f"{budget(n)}; {f0.vgpr_total} registers, {f0.vgpr_spills}+{f0.sgpr_spills} spills, "
                  f"{f0.occupancy} waves/SIMD)")
        if target == w0:
            if not any(cost_model.ranked_spills(f0)):
                return Verdict("relaxed", stands, "model", base, details, remark=stands)
            return self._against_the_request(ctx, n, base, f0, stands, details, compile_many)
        if target < w0 and not any(cost_model.ranked_spills(f0)):
            # fewer waves' larger budget can cut only spills, and the compile at w0 has none of any ranked class;
            # its waves are the LDS's already (the recorded held-out runs, seeds 650-1169: each of the 55 compiles
            # at the target where the one at w0 spilled nothing ranked no better)
            why = f"{stands}; not {target}: nothing spills at {w0} for its larger budget to cut"
            return Verdict("relaxed", why, "model", base, details, remark=why)
        if target < w0 and not fits(ctx.arch, f0, w0, target):
            why = f"{stands}; {_beyond(ctx.arch, f0, w0, target)}"
            return Verdict("relaxed", why, "model", base, details, remark=why)
        spent = self._as_compiled(ctx, n, base, details)
        if spent is not None:
            return spent
        try:
            c = compile_many([target])[0]
        except Exception as e:  # noqa: BLE001 - the compile compared stands
            why = f"{stands}; waves_per_eu={target} does not compile ({e})"
            return Verdict("relaxed", why, "model", base, details, remark=why)
        details["tried"] = target
        f_t = ctx.figures_of(c, target)
        if target < w0 and not (self.judge(f0, f_t).better and f_t.occupancy >= f0.occupancy):
            why = f"{stands}; waves_per_eu={target} is no better ({dot_figures.summary(f0, f_t)})"
            return Verdict("relaxed", why, "trial", base, details, remark=why)
        below_ranks_better = target > w0 and self.judge(f_t, f0).better
        floor = self._stock_waves_bound(ctx, n) if below_ranks_better else 0
        if below_ranks_better and f0.occupancy >= floor:
            # more waves run under a smaller budget, which the compile compared at w0 (done) ranks worse: the
            # main-loop scratch first (generated seed 700 on gfx942: waves_per_eu=7 where num_stages=1 lets 7 run,
            # 51 main-loop scratch ops; at 6, 48, as stock), where w0's waves are no fewer than the request runs
            # under Triton's own kernel (never below the occupancy the request reached)
            details["compared"] = target
            why = (f"{stands}; waves_per_eu={target}, which the chosen kernel's caps admit, ranks worse "
                   f"({dot_figures.summary(f0, f_t)})")
            return Verdict("relaxed", why, "trial", base, details, remark=why)
        than_w0 = (f"at {w0} it would rank better ({dot_figures.summary(f_t, f0)}) but run fewer waves than the "
                   f"request under Triton's kernel ({floor})" if below_ranks_better else f"it ranks no worse than at {w0}")
        if target == n:
            return Verdict("kept", f"waves_per_eu={n}: the chosen kernel's caps admit {admitted} waves/SIMD, and "
                                   f"{than_w0}", "trial", c, details)
        reason = f"waves_per_eu {n} -> {target}; {asks}: the register budget of those waves ({budget(target)})"
        if any(cost_model.ranked_spills(f_t)):
            # the cap was read from the compile at w0, whose registers are not those at n (generated seed 684 on
            # gfx942, while the decisions compared at the waves of a TTGIR a decision then replaced: 96 SGPRs at 4
            # waves' budget "admit 6"; at 6, 43 main-loop scratch ops where stock's 8 waves spill 42): the request
            # is compiled too, as where the relaxed compile spills at w0
            return self._against_the_request(ctx, n, c, f_t, reason, details, compile_many)
        return Verdict("relaxed", reason, "trial", c, details, remark=reason)
