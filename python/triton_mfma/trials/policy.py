"""The engine's speculation policy for one hip compile (`Policy`): the decisions (decisions/) on the variants the
engine (engine.py) builds; the policy alone schedules their compiles (docs/architecture.md)."""
from __future__ import annotations

import functools
from typing import NamedTuple

from .. import decisions as decision_protocol  # LONG_COMPILE_S read at each call (tests set it)
from ..decisions import (STAKES_RESERVE, Verdict, budget_spent, compiles_capped, cpu_capped, first_line,
                         lds_limit_unmet, neither_launches, outside_constraints, record, within_constraints)
from ..decisions.context import CompiledTrials
from ..decisions.grid_order import NAME as GRID, SKIP
from ..models import cost_model, dot_figures, dot_work, occupancy
from ..models.lds_budget import lds_total
from ..models.resources import printed
from . import remembered
from .engine import Engine
from .threads import trial_threads

LONG_COMPILE_RULES = ("results >= one wave", "FMA, results >= asked", "FMA, + operands >= one wave")


class LongCompile(NamedTuple):
    """What predicts a long compile, read from a kernel's TTIR (`long_compile`; Policy._long_reference_first acts
    on it, bench/long_compile_rules.py measures it)."""
    demand: int  # registers per lane the dot results hold (dot_work.accumulator_registers)
    fma: bool  # some dot has operand types no MFMA of the arch takes: Triton does it on FMA (dot_work.without_mfma)
    fma_need: int  # on FMA, with one K-tile of operands (dot_work.fma_operand_registers); else 0
    asked: int  # the register budget of the waves asked
    one_wave: int  # the register budget of one wave: the whole file

    @property
    def rules(self) -> tuple[str, ...]:
        """The LONG_COMPILE_RULES met."""
        met = (self.demand >= self.one_wave, self.fma and self.demand >= self.asked,
               self.fma and self.fma_need >= self.one_wave)
        return tuple(rule for rule, m in zip(LONG_COMPILE_RULES, met) if m)


def long_compile(ttir: str, arch: str, num_warps: int, waves_per_eu: int) -> LongCompile:
    demand = dot_work.accumulator_registers(ttir, num_warps)
    fma = dot_work.without_mfma(ttir, arch)
    fma_need = demand + dot_work.fma_operand_registers(ttir, num_warps) if fma else 0
    return LongCompile(demand, fma, fma_need, occupancy.vgpr_budget(arch, max(1, waves_per_eu)),
                       occupancy.vgpr_budget(arch, 1))


class _BudgetSpent(Exception):
    """A decision would compile its variant for a trial, but the compile budget is spent (the exception's text:
    why, decisions.budget_spent)."""


class Policy:
    """The engine's speculation policy for one hip compile: runs the registered decisions (decisions/) on the
    variants the engine builds, and from what each declares (`decisions.Speculation`, its `compared` variant, its
    `followups`) decides what is built aside, what compiles beside what, what is dropped once a model has told.
    Every verdict is written by `decisions.record`, here only."""

    def __init__(self, engine: Engine, decisions, metadata: dict, kernel_remarks):
        self.engine = engine
        self.decisions = decisions
        self.metadata = metadata
        self.kernel_remarks = kernel_remarks
        self.ctx = None  # decisions.context.Context, set by the stage (its callables are this policy's)
        self.interior: set = set()
        self._figures = {}  # (id(Compiled), w) -> (the Compiled, kept alive, its Figures): amdgcn read once
        self._stakes = None  # (the engine's first Compiled, its stakes): `stakes`
        self._stock_tried = False  # `stock_cpu` compiled (or tried) Triton's kernel at the waves asked

    # -- what decisions read -----------------------------------------------------------------------------------
    def long_compile(self) -> float | None:
        """The CPU seconds of this kernel's longest compile so far where above decisions.LONG_COMPILE_S, else
        None: the decisions that can keep the kernel's own choice compiled then compile nothing more."""
        return self.engine.longest_s if self.engine.longest_s > decision_protocol.LONG_COMPILE_S else None

    def stakes(self) -> str | None:
        """What the kernel's first compile says there is to win (decisions.STAKES_CPU): "loop scratch" where its
        main loop spills to scratch, "spills" where it has other spill traffic the judge ranks
        (cost_model.ranked_spills), "no spill"; None before it or where its figures cannot be read."""
        first = self.engine.first
        if first is None:
            return None
        if self._stakes is None or self._stakes[0] is not first:
            try:
                spills = cost_model.ranked_spills(self.figures_of(first, first.waves_per_eu))
                self._stakes = (first, "loop scratch" if spills[0] else "spills" if any(spills) else "no spill")
            except Exception:  # noqa: BLE001 - an amdgcn the figures cannot read: the every-kernel bound alone
                self._stakes = (first, None)
        return self._stakes[1]

    def stock_cpu(self) -> float:
        """The CPU seconds of stock's own compile where known (Engine.stock_s), what the compile budget scales with
        (decisions.cpu_cap); 0 where not. Where the decisions compare below the waves the kernel asks (the waves its
        LDS admits) and the budget is read after ours' first compile, Triton's kernel is compiled at the waves asked
        first, once: ours' compile at other waves is no measure of stock's, which LLVM may make up to 10x faster
        (generated seed 7234, int8 32x256x128 on 2 warps asking 5 waves where 1-2 run: 4.7 s at 2 waves against
        stock's 0.8 s at 5, then two more compiles at one wave, 13.6-15.5 s in all on three archs). Compiled only
        when a decision would compile more (a model that decides leaves it out); the budget's one comparison with
        Triton's kernel (`_once_against_tritons`) reads the same compile."""
        if self._stock_unknown() and self.engine.first is not None:
            self._stock_tried = True
            reference = self.tritons_kernel()
            self.compile_each([(reference, self.ctx.asked_w)])
            self._note_stock(reference, self.ctx.asked_w)
        return self.engine.stock_s

    def _stock_unknown(self) -> bool:
        """Whether stock's compile time is unknown where ours' is no measure of it (the decisions compare below the
        waves the kernel asks), and not tried yet: `stock_cpu` would compile Triton's kernel at the waves asked."""
        ctx = self.ctx
        return not (self.engine.stock_s or self._stock_tried or ctx.trial_all or ctx.w == ctx.asked_w)

    def _note_stock(self, reference, w: int) -> None:
        """Triton's kernel (`reference`) compiled at the waves the kernel asks (`w`) is stock's compile: the budget
        scales with its CPU time from here on (decisions.cpu_cap)."""
        stock = self.engine.compiled(reference, w)
        if stock is not None and stock.cpu_s:
            self.engine.stock_s = stock.cpu_s

    def reserve(self) -> int:
        """The compiles a TTGIR decision's trial keeps in reserve: one of Triton's kernel, and one for the scheduling
        strategy where the stakes call for it and it may run (decisions.STAKES_RESERVE)."""
        extra = STAKES_RESERVE.get(self.stakes(), 0)
        if extra and not self.present_at("amdgcn"):
            extra = 0
        return 1 + extra

    def figures(self, build):
        return self.figures_each([(build, self.ctx.w)])[0]

    def printed(self, build):
        """resources.Printed of `build` compiled at the compared waves (no instruction parsed), or the exception
        compiling it raised."""
        c = self.compile_each([(build, self.ctx.w)])[0]
        return c if isinstance(c, Exception) else printed(c.amdgcn, c.metadata["shared"])

    def figures_each(self, jobs):
        """dot_figures.Figures of each (build, w), compiled concurrently; an exception in place of a failure."""
        out = []
        for (build, w), c in zip(jobs, self.compile_each(jobs)):
            try:
                if isinstance(c, Exception):
                    raise c
                out.append(self.figures_of(c, w, build.text))
            except Exception as e:  # noqa: BLE001 - the decision's rule says what a failure means
                out.append(e)
        return out

    def figures_of(self, c, w: int, ttgir: str | None = None):
        """dot_figures.Figures of variants.Compiled `c` read at waves `w` (its amdgcn read once); with its TTGIR
        (generic text), the K-steps its main loop holds too (dot_figures.with_loop_steps)."""
        key = (id(c), w)
        if key not in self._figures:
            self._figures[key] = (c, dot_figures.of_amdgcn(c.amdgcn, c.metadata["shared"], self.ctx.arch,
                                                           self.ctx.num_warps, w))
        f = self._figures[key][1]
        if ttgir is not None and not (f.loop_steps or f.loop_steps_at_most):
            f = dot_figures.with_loop_steps(f, ttgir, self.ctx.arch)
            self._figures[key] = (c, f)
        return f

    def compile_each(self, jobs):
        try:
            return self.engine.compile(jobs)
        except Exception:  # noqa: BLE001 - find which one failed
            out = []
            for job in jobs:
                try:
                    out.append(self.engine.compile([job])[0])
                except Exception as e:  # noqa: BLE001
                    out.append(e)
            return out

    def record(self, decision, verdict) -> None:
        record(verdict, decision.name, decision.key, self.metadata, self.kernel_remarks)

    def tritons_kernel(self, first=None):
        """The build of Triton's kernel: no interior choice, no remap (`first`: the TTIR module to build it from)."""
        return self.engine.variant(frozenset({SKIP}) if self.ctx.runs(GRID) else frozenset(), self.metadata,
                                 first=first)

    # -- the TTGIR decisions -------------------------------------------------------------------------------------
    def decide_ttgir(self, src, interior: set):
        """The chosen TTGIR Build of the kernel (`src`: Triton's TTIR module), every TTGIR decision taken; nothing
        left running. `interior`: the interior points where our passes act on this kernel. Where it exceeds an
        explicit `lds_limit` (no build compared met it), the remarks say so."""
        chosen = self._ttgir(src, interior)
        unmet = lds_limit_unmet(self.ctx, chosen)
        if unmet is not None:
            self.ctx.note("lds_limit", unmet)
        return chosen

    def _ttgir(self, src, interior: set):
        ctx, engine, w = self.ctx, self.engine, self.ctx.w
        for d in self.decisions:  # decided from the kernel's options: ours is not built with it
            if d.point in interior:
                v = d.unbuilt(ctx)
                if v is not None:
                    interior.discard(d.point)
                    self.record(d, v)
        self.interior = interior
        present = [d for d in self.decisions if d.present(ctx, interior)]
        handed, src = self._long_reference_first(src, present)
        if handed is not None:
            return handed
        src = self._variant_first(present, src)
        present = [d for d in present if d.present(ctx, interior)]
        first = next((d for d in present if d.point is not None and d.verifies(ctx)), None)
        if first is not None:  # what it compares ours with: built beside ours, so both compile from the start
            engine.aside(interior - {first.point}, self.metadata, w, diverges=(first.point, interior))
        chosen = engine.variant(interior, self.metadata, first=src)
        asked = ctx.w
        w = self._compare_at(present, chosen, asked)
        # ours compiled: a decision's model or trial reads it, or Triton gets it. Its LLVM IR on this thread, from
        # the module itself (the variant it is compared with builds and compiles aside meanwhile): at once, except
        # where a decision's model reads the TTGIRs only and may decline ours without a trial
        if interior and not any(d.speculation.lower_after_model for d in present if d.point is not None):
            engine.llir_here(chosen)
        for d in present:
            if d.stage != "ttgir":
                continue
            ours, w_ours = chosen, w
            try:
                chosen = self.decide(d, ours)
            except _BudgetSpent as spent:
                return self._once_against_tritons(present[present.index(d):], ours, str(spent))
            if chosen is not ours:
                # the next decisions compare at the waves the chosen TTGIR admits (generated seed 684 on gfx942:
                # the stream pipeliner's LDS admitted 4 of the 8 waves asked; declined, Triton's admits 8, and
                # layouts chosen at 4 waves' budget spilled more at 8 than Triton's)
                w = self._compare_at(present, chosen, asked)
            if d.speculation.lower_after_model:
                if chosen is not ours:
                    engine.cancel([(ours, w_ours)])
                else:
                    engine.llir_here(ours)
                engine.release([(chosen, w)])
                engine.prefetch([(chosen, w)])  # kept without a trial: start it
        if engine.lowered(chosen) and engine.compiled(chosen, w) is None:
            self.compile_each([(chosen, w)])  # no decision compiled it: its LLVM IR is made
        engine.settle()
        return chosen

    def _long_reference_first(self, src, present):
        """(the kernel handed on where a compile of Triton's kernel alone spent the compile budget, else None; the
        TTIR module left for ours' build: None once a build took it).

        Compiled first where a long compile is likely, Triton's kernel (no interior choice, no remap) is the one
        compile every verdict may be measured against, and issue 34's floor is 2x its time:
          - the dot results alone need as many registers per lane as one wave has or more
            (dot_work.accumulator_registers against occupancy.vgpr_budget at one wave): every variant spills, and
            such a compile may take minutes (generated seeds 1801, 1825, 1847 and 1864: 32-324 s of stock CPU, 1
            warp, a 128x256 or 256x256 accumulator), ours sometimes longer than Triton's (1847 on gfx90a: more than
            600 s against 324 s). Where that compile spends the budget (decisions.budget_spent) and the kernel
            can launch, it is handed on and nothing else is compiled.
          - Triton's layouts do a dot on FMA (no MFMA instruction takes its operands here: dot_work.without_mfma)
            and either its results alone need the register budget of the waves asked, or its results with one
            K-tile of its operands (dot_work.fma_operand_registers, a lower bound over layouts) need one wave's
            whole budget, so no waves_per_eu avoids the spills: the FMA kernel is the long compile (of 6,178
            generated GEMM pairs of seeds 150-2829, bench/results/long_compile_rules.txt: 129 meet the second, 31
            of them over 30 s of stock CPU, 135 the first, 23 over; of the 5,753 no rule meets, 8; seed 1999 on
            gfx90a: Triton's kernel 33 s, ours 19 s; 2556 under waves_per_eu "auto": 74 s, ours 166 s before the
            second). Where it spends the budget, ours is compiled once, every pass in place, and the one judge
            (cost_model.judge) hands on the better of the two.
        Elsewhere the decisions go on as usual, the reference's compile kept for any of them that compares the same
        TTGIR."""
        ctx, engine = self.ctx, self.engine
        if ctx.trial_all or not present:
            return None, src
        lc = long_compile(engine.snapshot, ctx.arch, ctx.num_warps, ctx.w)
        if not lc.rules:
            return None, src
        reference = self.tritons_kernel(first=src)
        f_ref = self.figures(reference)
        if isinstance(f_ref, Exception):
            return None, None
        spent = budget_spent(ctx)  # this compile is the kernel's first
        if spent is None or cost_model.cannot_launch(ctx.arch, ctx.num_warps, lds_total(reference.text)) or \
                lds_limit_unmet(ctx, reference) is not None:  # ours may meet the user's budget: the usual way
            return None, None
        if lc.demand >= lc.one_wave:
            return self._hand_on(present, reference, f"Triton's kernel handed on: its dot results need {lc.demand} "
                                 f"registers per lane, one wave has {lc.one_wave}, so every variant spills; compiled "
                                 f"first, {spent} (nothing else compiled)"), None
        ours = engine.variant(self.interior, self.metadata)
        head = (f"Triton's layouts do its dots on FMA: their results need {lc.demand} registers per lane, with one "
                f"K-tile of operands at least {lc.fma_need}, the waves asked have {lc.asked} and one wave "
                f"{lc.one_wave}, so Triton's kernel spills; compiled first: {spent}; ours compiled once (nothing "
                f"else), every pass in place")
        return self._the_better(present, reference, f_ref, ours, self.figures(ours), head, "model"), None

    def _variant_first(self, present, src):
        """The decisions that build their variant before ours (`variant_first`): each is asked (`before_ours`)
        whether that variant alone decides it; where it does, ours is not built with the decision's pass (a whole
        make_ttgir saved, issue 35). The variant is built anyway where it does not: every comparison reads it.
        Returns the TTIR module left for ours' build (None once a build took it)."""
        ctx, engine, asked = self.ctx, self.engine, self.ctx.w
        for d in present:
            if not d.variant_first or d.point not in self.interior or not d.verifies(ctx) or ctx.trial_all:
                continue
            if compiles_capped(ctx, needs=2) is not None:  # its variant and ours, Triton's kernel in reserve
                continue
            theirs = engine.variant(self.interior - {d.point}, self.metadata, first=src)
            src = None
            engine.lower_here(theirs)  # where `before_ours` compiles it, from its own module
            self._compare_at(present, theirs, asked)  # the waves it would be compared at with ours
            # a variant outside the user's LDS budget decides nothing alone: ours may meet it
            v = d.before_ours(ctx, theirs) if lds_limit_unmet(ctx, theirs) is None else None
            ctx.w = asked
            if v is not None:
                self.interior.discard(d.point)
                self.record(d, v)
        return src

    def _once_against_tritons(self, rest, ours, spent: str):
        """The build handed on where a decision's model cannot tell and the compile budget is spent (a compile of the
        kernel took LONG_COMPILE_S, or option max_compiles leaves only the reserve: decisions.budget_spent; held-out
        seed 2770 on gfx942: ours 44 s, then Triton's layouts and the
        kernel without the remap compiled for two trials, 2.2x stock's 45 s): instead of a trial per decision left
        (`rest`, the one whose model could not tell first), ours is compared once with Triton's kernel (no interior
        choice, no remap: what stock compiles) by the one judge, and the better is handed on, a tie keeping ours.
        Never worse than stock by that judge, at most one compile more (`spent`: why the budget is spent).
        Triton's kernel is compiled at the kernel's own waves_per_eu, as stock compiles it, also where the decisions
        compared below it (the waves its LDS admits): generated seed 7072 on gfx950, an fp8 16x256x128 GEMM on one
        warp asking 7 waves where 2 run, compiled in 6.4 s at 7 waves' budget and in 57 s at 2's, ours and then
        Triton's kernel both at 2 took 114 s; handed on, it stands at those waves (ctx.w)."""
        w = self.ctx.w
        w_ref = self.ctx.asked_w or w
        reference = self.tritons_kernel()
        head = f"no trial, the compile budget: {spent}"
        compiled = self._compiled_in_place_of(rest[0], ours, w)
        if compiled is not None:  # the budget had room for Triton's kernel alone, not for ours' compile as well
            self.engine.cancel([(ours, w)])
            ours = compiled
            head += (f"; ours with {rest[0].name} not compiled: the build with Triton's step there, compiled first, "
                     f"stands for it")
        if reference.same_code(ours):
            return self._hand_on(rest, ours, f"{head}; ours is Triton's kernel (nothing else compiled)")
        f_ref, f_ours = self.figures_each([(reference, w_ref), (ours, w)])
        self._note_stock(reference, w_ref)
        if isinstance(f_ref, Exception):
            return self._hand_on(rest, ours, f"{head}; Triton's kernel does not compile ({first_line(f_ref)}): ours "
                                             f"handed on", "trial")
        at = f" (at waves_per_eu {w_ref}, ours at {w})" if w_ref != w else ""
        chosen = self._the_better(rest, reference, f_ref, ours, f_ours, f"{head}; ours compared once with Triton's "
                                                                        f"kernel{at}", "trial")
        if chosen is reference:
            self.ctx.w = w_ref
        return chosen

    def _compiled_in_place_of(self, d, ours, w: int):
        """Where the budget ends the trials at decision `d` before ours is compiled, the variant `d` compares ours
        with if that one is compiled (the stream pipeliner's: Triton's pipeliner, compiled first), else None: the
        budget left room for one compile, the reserve that compiles Triton's kernel, so ours is not compiled too."""
        if self.engine.compiled(ours, w) is not None or d.stage != "ttgir":
            return None
        theirs = d.compared(self.ctx, ours)
        if theirs is None or theirs is ours or self.engine.compiled(theirs, w) is None:
            return None
        return theirs

    def _the_better(self, present, reference, f_ref, ours, f_ours, head: str, evidence: str):
        """Triton's kernel (`reference`) or ours, whichever the one judge ranks better (a tie keeps ours; ours' failed
        compile hands on Triton's), each TTGIR decision of `present` recording `head` and the verdict."""
        if isinstance(f_ours, Exception):
            return self._hand_on(present, reference, f"{head}: ours does not compile ({first_line(f_ours)}): "
                                                     f"Triton's kernel handed on", evidence)
        j, shown = cost_model.judge(f_ref, f_ours), dot_figures.summary(f_ref, f_ours)
        bound = outside_constraints(self.ctx, reference, ours) if j.worse else outside_constraints(self.ctx, ours,
                                                                                                   reference)
        if bound is not None:  # the user's options bound what the judge chooses
            chosen, side = (ours, "ours") if j.worse else (reference, "Triton's kernel")
            judged = j.figure or "a tie"
            return self._hand_on(present, chosen, f"{head}: {side} handed on: {bound} (the judge: {judged}, {shown})",
                                 evidence)
        if j.worse:
            return self._hand_on(present, reference, f"{head}: ours is worse on {j.figure} ({shown}): Triton's "
                                                     f"kernel handed on", evidence)
        why = f"better on {j.figure}" if j.better else "equal on every ranked figure"
        return self._hand_on(present, ours, f"{head}: ours is {why} ({shown}): ours handed on", evidence)

    def _hand_on(self, present, chosen, why: str, evidence: str = "model"):
        """`chosen`, each TTGIR decision recording `why` as its verdict (the compile budget's)."""
        for d in present:
            if d.stage == "ttgir":
                self.record(d, Verdict("budget", why, evidence, chosen, remark=why))
        self.engine.settle()
        return chosen

    def _compare_at(self, present, chosen, asked: int) -> int:
        """The waves_per_eu the decisions compare `chosen` at, from its TTGIR (`asked`: the kernel's own), set on
        the context: the first a present decision declares, else `asked`."""
        self.ctx.w = self._waves_for(present, chosen, asked)
        return self.ctx.w

    def _waves_for(self, present, build, asked: int) -> int:
        return next((w for w in (d.comparison_waves(self.ctx, build) for d in present) if w is not None), asked)

    def decide(self, d, ours):
        """One decision on `ours`: the build it chooses (recorded)."""
        v, theirs = d.settled(self.ctx, ours), None
        if v is None:
            theirs = d.compared(self.ctx, ours)
            if theirs is None:
                return ours
            v = d.identical(self.ctx, ours, theirs) if theirs.same_code(ours) else self._compare(d, ours, theirs)
        v = within_constraints(self.ctx, v, ours, theirs)  # the user's options bound what any verdict chooses
        self.record(d, v)
        chosen = v.chosen if v is not None else ours
        if chosen is not ours and hasattr(chosen, "choice"):
            self.ctx.reverted |= set(ours.choice - chosen.choice)
            self._supersede(d, v, ours.choice - chosen.choice)
            if chosen is theirs:  # the variant won against ours (a stage less): the remap may have decided it too
                self.ctx.kept_against.add((theirs.choice, ours.choice, self.ctx.w))
        elif v is not None and theirs is not None:
            self.ctx.kept_against.add((ours.choice, theirs.choice, self.ctx.w))
        return chosen

    def _supersede(self, by, verdict, dropped) -> None:
        """The earlier verdicts whose choices `by`'s `verdict` took back (`dropped`) say so in their records
        ("superseded"): the kernel handed on is not built with them (the combination check reverting to Triton's
        kernel after accelerate-dot kept our layouts and the stream pipeliner applied ours)."""
        for e in self.decisions:
            record = self.metadata.get(e.key)
            if e is not by and isinstance(record, dict) and any(e.owns(c) for c in dropped):
                self.metadata[e.key] = {**record, "superseded": f"{by.name}: {verdict.decision}"}

    def _compare(self, d, ours, theirs):
        ctx, engine, spec, w = self.ctx, self.engine, d.speculation, self.ctx.w
        why = neither_launches(ctx, ours, theirs)
        if why is not None:
            return d.unlaunchable(ctx, ours, theirs, why)
        # no compile ahead that may go unused under a cap, or where the CPU bound on every kernel leaves no room for
        # one beside a trial and its reserve (a speculative compile is not charged to the bound before it starts)
        capped = self._ahead_capped()
        if d.model_applies(ctx, ours, theirs):
            if spec.compared_beside_model and not capped:  # the trial, if the model cannot tell, then costs no wait
                engine.prefetch([(theirs, w)])
            v = d.model(ctx, ours, theirs)
            if v is not None:
                if spec.compared_beside_model:
                    engine.cancel([(theirs, w)])
                return v
        recalled = remembered.recall(ctx, d, ours, theirs)  # a trial on an earlier specialization of this kernel
        if recalled is not None:
            engine.cancel([(theirs, w)])
            return recalled
        needs = sum(engine.compiled(b, w) is None for b in (ours, theirs))
        if capped and needs:  # where the variant wins at other waves, it is compiled there too
            w_theirs = self._waves_for([e for e in self.decisions if e.present(ctx, self.interior)], theirs, ctx.asked_w)
            needs += w_theirs != w and engine.compiled(theirs, w_theirs) is None
        spent = budget_spent(ctx, needs, self.reserve()) if needs else None
        if spent is not None:  # a trial would cost as much again: one comparison, _once_against_tritons
            engine.cancel([(theirs, w)])
            raise _BudgetSpent(spent)
        if spec.compared_beside_trial:  # running while ours' follow-ups wait for ours
            engine.prefetch([(theirs, w)])
        speculative = self._followups(d, ours, beside=(theirs, w)) if spec.followups_beside_trial and not capped \
            else []
        if spec.lower_after_model:  # the trial compiles ours here, from its own module
            engine.llir_here(ours)
        f_theirs, f_ours = self.figures_each([(theirs, w), (ours, w)])
        v = d.trial(ctx, ours, theirs, f_theirs, f_ours)
        if v is not None and v.chosen is not ours:
            engine.cancel(speculative)
        remembered.note(ctx, d, ours, theirs, v)
        return v

    def _ahead_capped(self) -> bool:
        """Whether no compile may start ahead of its need (beside a model, or a trial's follow-ups): under option
        max_compiles, where the CPU bound leaves no room for one beside a trial and its reserve, and where that bound
        is not known yet (compared below the waves asked, stock's compile not made: `stock_cpu` would make it)."""
        ctx = self.ctx
        if ctx.trial_all:
            return False
        return self._stock_unknown() or bool(ctx.setting("max_compiles")) or cpu_capped(ctx, 2) is not None

    def _followups(self, d, ours, beside) -> list:
        """While `beside` (build, w), the compile `ours` is compared with, still runs: wait for `ours` (compiling
        or compiled) and start on a free core what the decisions after `d` will compile if `ours` is kept (their
        `followups`, in registry order: the grid check's variant, a whole compile, before the waves_per_eu
        candidates). Ours is kept more often than not; where it is not, `_compare` cancels them (a make_llir
        started cannot be stopped: the stage waits for it). Nothing is started where `beside` is done by then:
        the decision is taken first. The jobs started."""
        later = [e for e in self.decisions[self.decisions.index(d) + 1:] if e.present(self.ctx, self.interior)]
        if trial_threads(2) < 2 or not later:
            return []
        first = self.figures(ours)
        if isinstance(first, Exception) or not self.engine.running(*beside):
            return []
        jobs = [job for e in later for job in e.followups(self.ctx, ours)]
        self.engine.prefetch(jobs)
        return jobs

    # -- the decisions on a compiled kernel: waves_per_eu, the combination at the waves handed on, the strategy --
    def present_at(self, stage: str) -> list:
        """The decisions of `stage` ("llir" or "amdgcn") present on this compile, in the registry's order."""
        return [d for d in self.decisions if d.stage == stage and d.present(self.ctx, self.interior)]

    def decide_compiled(self, stage: str, base, chosen_build, compare_w: int, compile_base=None):
        """Every decision of `stage` present, in the registry's order, each on the compile the one before handed on
        (variants.Compiled; `base` first), their verdicts recorded: the compile to hand on. `chosen_build`: the
        variants.Build `base` compiles (None: Triton's module compiled in place); `compare_w`: the waves the TTGIR
        decisions compared at. Where `base` is None, `compile_base() -> (Compiled, its w=0 LLVM IR or None, metadata
        after make_llir)` compiles it here. Other waves of the same TTGIR share the base's make_llir: the engine's
        where the build is the engine's (compiled once, some maybe already), else the w=0 LLVM IR with the attribute
        (none: a candidate fails to compile, and the decision says so)."""
        present = self.present_at(stage)
        if not present and base is not None:
            return base
        engine_built = base is not None and chosen_build is not None  # the engine compiles other waves of it
        llir0 = md0 = None
        if base is None:
            base, llir0, md0 = compile_base()
            md0 = {k: v for k, v in md0.items() if k != "name"}

        def at_waves(ws):
            if engine_built:
                return self.engine.compile([(chosen_build, w) for w in ws])
            if llir0 is None:
                raise ValueError("the waves_per_eu attribute cannot be taken out of the LLVM IR exactly")
            return self.engine.candidates(llir0, md0, ws)

        for d in present:
            trials = CompiledTrials(
                at_waves=at_waves,
                with_attr=functools.partial(self.engine.with_fn_attr, base),
                bounded=self.engine.bounded,
                figures=lambda c, text: self.figures_of(c, c.waves_per_eu, text),
                tritons_build=self.tritons_kernel,
                build_at=lambda build, w: self.compile_each([(build, w)])[0],
                chosen=chosen_build, compared_w=compare_w)
            v = d.decide(self.ctx, base, trials)
            if v is None:
                continue
            self.record(d, v)
            if v.takes_back:
                self._supersede(d, v, v.takes_back)
                unmet = lds_limit_unmet(self.ctx, v.chosen)
                if unmet is not None:
                    self.ctx.note("lds_limit", unmet)
            base = v.chosen
        return base
