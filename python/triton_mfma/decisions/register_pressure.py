"""Register pressure of an explicit waves_per_eu: relaxed to the waves that can run, where the request only costs
spills.

`waves_per_eu=N` (the kernel's, or one the activation forces) sets the register budget for N waves per SIMD
(occupancy.vgpr_budget: 512 / N in granules). Where LDS, SGPRs or the workgroup slots cap the occupancy below N,
those N waves never run: the squeezed budget buys nothing and spills (a public case: the LDS admits 2 waves, N=8
spills 31 VGPRs, N=4 none at the same 2 waves; bench/spill_calibration.md D09-D11).

Model (no compile): the caps other than registers, read from the compile at N (occupancy.occupancy with no register
limit: LDS per workgroup, SGPRs, workgroup slots). Nothing is compiled where the compile at N spills nothing or the
caps admit N waves: the request then buys what it asks for (or costs nothing), and it stands.
Compared with (trial): the same TTGIR at w = the waves the caps admit (< N: never raised), sharing its make_llir.
Judge: the one judge (cost_model.judge) ranks it better than the compile at N, at an occupancy no lower than N
reached; else N stands. Decided in the llir stage, on the TTGIR every other decision chose.
"""
from __future__ import annotations

from .. import cost_model, dot_figures
from .. import occupancy as occ_model
from . import Decision, Verdict

NAME = "waves_per_eu relax"


_CAPS = {"lds": "its LDS ({lds} B/workgroup)", "sgpr": "its {sgpr} SGPRs",
         "workgroup-slots": "the CU's workgroup slots ({warps} waves/workgroup)"}


def admitted_waves(arch: str, num_warps: int, f) -> tuple[int, str]:
    """(waves per SIMD the kernel could run with registers unlimited: LDS, SGPRs and workgroup slots, 0 where its
    workgroup cannot launch; the cap that decides it)."""
    occ = occ_model.occupancy(arch, num_warps, 0, f.sgpr, f.lds)
    cap = _CAPS.get(occ.limiter, "the waves per SIMD").format(lds=f.lds, sgpr=f.sgpr, warps=num_warps)
    return (occ.waves_per_simd if occ.workgroups_per_cu else 0), cap


class RegisterPressure(Decision):
    name = NAME
    key = "triton_mfma_waves_relax"
    stage = "llir"
    option = "relax_waves_per_eu"
    judge = staticmethod(cost_model.judge)  # (the compile at N, the relaxed one) -> cost_model.Judgement

    def present(self, ctx, interior):
        return not ctx.auto and ctx.w > 0 and self.verifies(ctx)

    def model(self, ctx, f_asked) -> tuple[int | None, str]:
        """(the waves_per_eu to try, why), or (None, why the request stands) from the compile at N."""
        n = ctx.w
        if not (f_asked.vgpr_spills or f_asked.sgpr_spills):
            return None, f"waves_per_eu={n} compiles without spills"
        admitted, cap = admitted_waves(ctx.arch, ctx.num_warps, f_asked)
        if admitted >= n or admitted == 0:
            return None, f"waves_per_eu={n}: {admitted} waves/SIMD can run, the request is within what runs"
        return admitted, f"waves_per_eu={n} asks for {n} waves/SIMD, but {cap} admits {admitted}"

    def decide(self, ctx, base, compile_many) -> Verdict:
        """`base`: the engine.Compiled at N; `compile_many([w]) -> [engine.Compiled]` (the engine's)."""
        n = ctx.w
        f_asked = dot_figures.of_amdgcn(base.amdgcn, base.metadata["shared"], ctx.arch, ctx.num_warps, n)
        w, why = self.model(ctx, f_asked)
        if w is None:
            return Verdict("kept", why, "model", base, {"asked": n})
        try:
            relaxed = compile_many([w])[0]
        except Exception as e:  # noqa: BLE001 - the request stands where the relaxed compile fails
            return Verdict("kept", f"{why}; waves_per_eu={w} does not compile ({e})", "trial", base, {"asked": n})
        f_relaxed = dot_figures.of_amdgcn(relaxed.amdgcn, relaxed.metadata["shared"], ctx.arch, ctx.num_warps, w)
        j = self.judge(f_asked, f_relaxed)
        figures = (f"spills {f_asked.vgpr_spills}+{f_asked.sgpr_spills} -> {f_relaxed.vgpr_spills}+"
                   f"{f_relaxed.sgpr_spills}, occupancy {f_asked.occupancy} -> {f_relaxed.occupancy}, "
                   f"registers {f_asked.vgpr_total} -> {f_relaxed.vgpr_total}")
        details = {"asked": n, "tried": w, "figures": {"asked": dot_figures.registers(f_asked),
                                                        "relaxed": dot_figures.registers(f_relaxed)}}
        if j.better and f_relaxed.occupancy >= f_asked.occupancy:
            reason = f"waves_per_eu {n} -> {w}; {why}; better on {j.figure} ({figures})"
            return Verdict("relaxed", reason, "trial", relaxed, details, remark=reason)
        verdict = f"worse on {j.figure}" if j.worse else "no better on any ranked figure"
        reason = f"waves_per_eu {n} kept; {why}, but waves_per_eu={w} is {verdict} ({figures})"
        return Verdict("kept", reason, "trial", base, details, remark=reason)
