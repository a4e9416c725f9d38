"""The stage plan: which of Triton's compile stages triton-mfma replaces, per backend, and why.

hip, Triton language (`HipCompile`: every decision of one kernel's compile is taken in its ttgir stage)
  ttgir   Triton's make_ttgir when the kernel has no dot (our interior points have nothing to act on), else the
          composed copy (pipeline.amd_make_ttgir) with our passes at `accelerate_matmul` / `pipeline`; then the
          passes at `ttgir_end`. Decisions that compare compiled variants (mfma-accelerate-dot's verification,
          waves_per_eu "auto") compile them through the variant engine (engine.py).
  llir    the chosen variant's LLVM IR when a decision already compiled it (hand-off), else Triton's make_llir
          (with the forced / kernel waves_per_eu)
  amdgcn  likewise
cuda, Triton language
  ttgir   the composed NVIDIA copy when the `pipeline` point is active and the kernel has a dot, else Triton's;
          then the passes at `ttgir_end`; where mfma-grid-order remapped, the kernel is compiled to a cubin here
          and the remap dropped where ptxas spills (`GenericCompile._check_grid_order`)
  llir, ptx, cubin   what that check compiled for the module handed on (hand-off), else Triton's
other backends and languages (e.g. Gluon)
  ttgir   Triton's, then the passes at `ttgir_end`

Failure policy: any failure in our part of a stage warns (pass, kernel, reason), records
`metadata["triton_mfma_fallback"]`, and returns stock Triton's result for that stage; strict mode raises.
"""
from __future__ import annotations

import functools

from . import dot_figures, occupancy, remarks
from .bridge import export_generic, import_generic, real_module
from .engine import Engine, fresh_context, trial_threads, with_waves_per_eu
from .passes import REGISTRY, REPLACING_POINTS, setting
from .runner import PassFailure, kernel_name, run_passes

INTERIOR_POINTS = ("accelerate_matmul", "pipeline")
GRID_ORDER = "mfma-grid-order"


def _has_dot(generic_text: str) -> bool:
    return '"tt.dot"' in generic_text or '"tt.dot_scaled"' in generic_text


def _first_line(e: BaseException) -> str:
    return str(e).splitlines()[0] if str(e) else type(e).__name__


def _record_lines(metadata, unchanged: dict, decisions: dict) -> None:
    """metadata.triton_mfma: one line per pass, its decision over its 'unchanged' outcome."""
    if unchanged or decisions:
        metadata["triton_mfma"] = {**unchanged, **decisions}


def _unchanged_lines(outcomes) -> dict:
    """Metadata lines for transforming passes that ran and left the module as it was, with why (the remark
    summary leaves them out; the kernel's metadata keeps every decision)."""
    return {o.pass_name: f"unchanged: {o.reason.replace(': unchanged: ', ': ')}" if o.reason else "unchanged"
            for o in outcomes
            if o.status == "unchanged" and o.pass_name in REGISTRY and REGISTRY[o.pass_name].transforms}


class PointRunner:
    """Runs the passes of one activation at an insertion point; collects outcomes, remarks and declines."""

    def __init__(self, act, backend_name: str, triton_options, kernel_remarks, ctx_factory=None, skip=()):
        self.act = act
        self.points = {pt: [p for p in ps if p.name not in skip] for pt, ps in act.points_for(backend_name).items()}
        self.triton_options = triton_options
        self.remarks = kernel_remarks
        self.ctx_factory = ctx_factory  # (module) -> lds_budget.PointContext
        self.last_text = ""  # the generic text of the module the last call returned, where the library printed it
        self.before = {}  # point -> the generic text of the module the passes there were given
        self.after = {}  # point -> the generic text of what they returned (the library's output)
        self.spare = {}  # point -> that module, where the passes returned a new one (engine.Build.spare)

    def __call__(self, point: str, mod, declined: set | None = None, outcomes: list | None = None,
                 before: str | None = None):
        passes = self.points.get(point)
        self.last_text = ""
        if not passes:
            return mod
        ctx = self.ctx_factory(mod) if self.ctx_factory else None
        res = run_passes(passes, mod, user_options=self.act.options, triton_options=self.triton_options, ctx=ctx,
                         dump_dir=self.act.dump_dir, label=point, before=before)
        self.before[point] = res.before
        declined_here = point in REPLACING_POINTS and res.declined()  # Triton's step then runs there instead
        if not declined_here:  # what the build goes on with
            self.after[point] = res.text
        if res.module is not mod:
            self.spare[point] = mod
        for d in res.diagnostics:
            self.remarks.diagnostic(d)
        if outcomes is not None:
            outcomes.extend(res.outcomes)
        analyses = [p.name for p in passes if not p.transforms]
        if analyses:  # an analysis's remarks are its result: the summary says how many there are
            n = sum(d.severity == "remark" for d in res.diagnostics)
            self.remarks.decide("+".join(analyses), f"{n} remark(s) at {point} (remarks='all' shows them)")
        for o in res.outcomes:
            if o.status in ("applied", "declined") and o.pass_name not in self.remarks.decisions:
                self.remarks.decide(o.pass_name, f"{o.status}: {o.reason}" if o.reason else o.status)
        if declined is not None and declined_here:
            declined.add(point)
        self.last_text = res.text
        return res.module


def _fallback(act, stage: str, kernel: str, err: BaseException, metadata: dict | None = None):
    if act.strict:
        raise err
    if metadata is not None:
        metadata["triton_mfma_fallback"] = f"{stage}: {_first_line(err)}"
    remarks.warn(f"{err}; using stock Triton's {stage} for this kernel")


class HipCompile:
    """One `triton.compile` of one kernel for a hip target."""

    def __init__(self, act, backend, options, stages):
        self.act = act
        self.backend = backend
        self.points = act.points_for("hip")
        kernel_w = getattr(options, "waves_per_eu", 0)
        wanted = act.options.get("waves_per_eu")
        # an explicit waves_per_eu of the kernel's wins over a global "auto"; a global int forces
        self.auto = kernel_w == "auto" or (wanted == "auto" and kernel_w == 0)
        if self.auto:
            self.fixed_w = 0
        elif isinstance(wanted, int):
            self.fixed_w = wanted
        else:
            self.fixed_w = kernel_w if isinstance(kernel_w, int) else 0
        self.options = with_waves_per_eu(options, self.fixed_w)
        self.stock = {k: stages[k] for k in ("ttgir", "llir", "amdgcn") if k in stages}
        self.handoff = None  # (TTGIR module handed to Triton, engine.Compiled of it)
        self.chosen = None  # the engine.Build handed to Triton, where it was compiled
        self.final_w = self.fixed_w
        self.kernel_remarks = None
        self.engine = None
        self._unchanged = {}  # metadata lines of the passes that left the chosen TTGIR as it was
        self._figures = {}  # (id(engine.Compiled), w) -> (the Compiled, kept alive, its Figures): read amdgcn once
        self._stages = None  # Triton's stage dict, once installed

    def needed(self) -> bool:
        return bool(self.points) or self.auto or self.act.options.get("waves_per_eu") is not None

    def install(self, stages) -> None:
        if {"ttgir", "llir", "amdgcn"} - set(self.stock):
            return  # not the stage set this plan knows
        stages["ttgir"], stages["llir"], stages["amdgcn"] = self.ttgir, self.llir, self.amdgcn
        self._stages = stages

    # -- ttgir: every decision ----------------------------------------------------------------------------------
    def ttgir(self, src, metadata):
        kernel = kernel_name(src)
        self.kernel_remarks = remarks.KernelRemarks(kernel, remarks.level(self.act.remarks))
        snapshot = export_generic(src)  # make_ttgir mutates src: keep the TTIR for variants and a fallback
        try:
            return self._decide(src, metadata, snapshot)
        except Exception as e:  # noqa: BLE001 - any failure falls back to stock (or raises if strict)
            if self.engine is not None:
                self.engine.settle()
            self.handoff, self.final_w = None, self.fixed_w
            _fallback(self.act, "make_ttgir", kernel, e, metadata)
            metadata["waves_per_eu"] = self.final_w
            return self.stock["ttgir"](import_generic(snapshot, src.context, parsed_before=True), metadata)
        except BaseException:  # an interrupt: nothing of this compile runs on behind it
            if self.engine is not None:
                self.engine.abandon()
            raise
        finally:
            if not self.auto:  # with "auto" the llir stage decides once more, then shows the summary
                self.kernel_remarks.flush()

    def _make_ttgir(self, src, md, choice, resume=None, aside=False):
        """A TTGIR variant: `choice` holds the interior points where ours runs and "skip:<pass>" for a pass at
        ttgir_end left out. `resume` (engine.Resume): start at its point from another build's module; where this
        build's module becomes an earlier build's (whose choice agrees from there on), the rest is that build's
        (no more steps run). `aside`: built on another thread (engine.Engine.aside); what its passes say is
        kept in a buffer, replayed by the callable returned last."""
        if aside:
            buffer = remarks.RemarkBuffer()
            built = self._build_ttgir(src, md, choice, resume, buffer)
            return (*built, lambda: buffer.replay(self.kernel_remarks))
        return self._build_ttgir(src, md, choice, resume, self.kernel_remarks)

    def _build_ttgir(self, src, md, choice, resume, kernel_remarks):
        from .engine import POINT_ORDER, SameAsBuild, same_code
        from .pipeline import amd_make_ttgir

        skip = {c[5:] for c in choice if c.startswith("skip:")}
        run = PointRunner(self.act, "hip", self.options, kernel_remarks,
                          lambda m: self._point_context(m, kernel_remarks), skip)
        declined, outcomes = set(), []

        def carry(build, points):  # steps shared with `build`: so is what our passes were given and said there
            names = {p.name for pt in points for p in run.points.get(pt, ())}
            outcomes.extend(o for o in build.outcomes if o.pass_name in names)
            declined.update(p for p in build.declined if p in points)
            for pt in points:
                if pt in build.before:
                    run.before.setdefault(pt, build.before[pt])
                if pt in build.after:
                    run.after.setdefault(pt, build.after[pt])

        if resume is not None:
            carry(resume.base, POINT_ORDER[:POINT_ORDER.index(resume.point)])
            run.before[resume.point] = resume.base.before[resume.point]  # the module it resumes from

        def ours_at(pt, m):
            before = None
            if resume is not None and pt in resume.compare and run.points.get(pt):
                before = export_generic(m)
                for other in resume.compare[pt]:
                    if same_code(before, other.before[pt]):
                        raise SameAsBuild(pt, other)
            return run(pt, m, declined, outcomes, before)

        def after_step(pt, m):  # Triton's step ran at the resume point: is the module now what ours returned there?
            text = export_generic(m)
            for other in resume.compare_after:
                if same_code(text, other.after[pt]):
                    raise SameAsBuild(pt, other, after=True)

        interior = {c for c in choice if c in INTERIOR_POINTS}
        try:
            if resume is not None and resume.point == "ttgir_end":
                mod = ours_at("ttgir_end", resume.module)
                md["tensordesc_meta"] = mod.get_tensordesc_metadata()
            elif interior or resume is not None:
                mod = amd_make_ttgir(src, md, self.options, ours_at, interior, declined,
                                     (resume.point, resume.module) if resume is not None else None,
                                     after_step if resume is not None and resume.compare_after else None)
            else:
                mod = ours_at("ttgir_end", self.stock["ttgir"](src, md))
        except SameAsBuild as same:  # from here on, that build's steps and module
            other, at = same.build, POINT_ORDER.index(same.point)
            carry(other, POINT_ORDER[at + 1 if same.after else at:])
            md.clear()
            md.update(other.metadata)
            return other.module, declined, outcomes, other.text, dict(run.before), dict(run.after), {}
        # ttgir_end is make_ttgir's last step
        return mod, declined, outcomes, run.last_text, dict(run.before), dict(run.after), dict(run.spare)

    def _decide(self, src, metadata, snapshot):
        interior = {p for p in INTERIOR_POINTS if p in self.points} if _has_dot(snapshot) else set()
        self.engine = Engine(self.backend, self.options, snapshot, src.context, self._make_ttgir,
                             lower_in_place=self._llir_stage_is_ours())
        if "pipeline" in interior and not self.act.options.get("trial_all") \
                and setting(self.act.options, "verify_pipeline"):
            why = self._pipeline_cannot_gain()
            if why:  # the model tells without building our variant
                interior.discard("pipeline")
                metadata["triton_mfma_stream_pipeline"] = {"decision": "declined", "reason": why, "evidence": "model"}
                self.kernel_remarks.decide("mfma-stream-pipeline", f"declined: {why}")
        first = self._first_comparison(interior)
        if first is not None:  # what it compares ours with: built beside ours, so both compile from the start
            self.engine.aside(interior - {first}, metadata, self.fixed_w)
        chosen = self.engine.ttgir(interior, metadata, first=src)
        # ours compiled: accelerate-dot's verification reads it, a pipeline trial compares it, or Triton gets it.
        # Its LLVM IR on this thread, from the module itself (the variant it is compared with builds and compiles
        # aside meanwhile): at once, except with the stream pipeliner in, whose LDS model reads the two TTGIRs
        # and may decline ours without a trial (ours' make_llir first would hold that decision back)
        if interior and "pipeline" not in interior:
            self.engine.llir_here(chosen)
        if "pipeline" in interior:
            ours = chosen
            chosen = self._decide_pipeline(ours, metadata)
            if chosen is not ours:
                self.engine.cancel([(ours, self.fixed_w)])
            else:
                self.engine.llir_here(ours)
            self.engine.release([(chosen, self.fixed_w)])
            self.engine.prefetch([(chosen, self.fixed_w)])  # Triton's pipeliner kept without a trial: start it
        if "accelerate_matmul" in interior:
            chosen = self._verify_dot(chosen, metadata)
        if self._grid_order_on():
            chosen = self._check_grid_order(chosen, metadata)
        if self.engine.lowered(chosen) and self.engine.compiled(chosen, self.fixed_w) is None:
            self._compile_each([(chosen, self.fixed_w)])  # no decision compiled it: its LLVM IR is made
        self.engine.settle()
        compiled = self.engine.compiled(chosen, self.fixed_w)
        metadata.update(chosen.metadata)
        metadata["waves_per_eu"] = self.final_w
        self.handoff = (chosen.module, compiled) if compiled is not None else None
        self.chosen = chosen if compiled is not None else None
        self._record(metadata, chosen.outcomes)
        return chosen.module

    def _llir_stage_is_ours(self) -> bool:
        """Whether Triton's llir stage is still ours (a later stages hook may have put in a function that
        compiles the TTGIR module itself): only then is a module lowered in place never asked for more than its
        text."""
        return self._stages is not None and self._stages.get("llir") == self.llir

    def _first_comparison(self, interior: set) -> str | None:
        """The interior point whose decision compares ours first (the variant without ours there is the first
        one built after ours): the stream pipeliner's, then accelerate-dot's; None where no decision compares."""
        if "pipeline" in interior and setting(self.act.options, "verify_pipeline"):
            return "pipeline"
        if "accelerate_matmul" in interior and setting(self.act.options, "verify_dot"):
            return "accelerate_matmul"
        return None

    def _record(self, metadata, outcomes=None):
        if outcomes is not None:  # the chosen TTGIR's outcomes; the llir stage records again without them
            self._unchanged = _unchanged_lines(outcomes)
        _record_lines(metadata, self._unchanged, self.kernel_remarks.decisions)
        trials = self.engine.trials if self.engine is not None else 0
        if trials:
            metadata["triton_mfma_trials"] = trials

    def _point_context(self, mod, kernel_remarks):
        from .lds_budget import PointContext

        def stock_amdgcn():  # the module as it stands, compiled to amdgcn (lds_limit="occupancy")
            md = {"num_ctas": getattr(self.options, "num_ctas", 1)}
            copy = import_generic(export_generic(mod), mod.context, parsed_before=True)
            return self.backend.make_amdgcn(self.backend.make_llir(copy, md, self.options), md, self.options)

        return PointContext("hip", self.options.arch, self.options.num_warps, self.fixed_w, kernel_name(mod),
                            stock_amdgcn, kernel_remarks.decide)

    # -- mfma-accelerate-dot, verified --------------------------------------------------------------------------
    def _verify_dot(self, ours, metadata):
        """Ours is kept where the kernel is not worse than with Triton's dot layouts (dot_figures.worse_on);
        the comparison compiles both only where the TTGIRs differ."""
        name = "mfma-accelerate-dot"

        def record(decision, reason, evidence, chosen, compared=None):
            # compared: what a trial compared (the model's margins are measured from its registers)
            metadata["triton_mfma_accelerate_dot"] = {"decision": decision, "reason": reason, "evidence": evidence,
                                                      **(compared or {})}
            self.kernel_remarks.decide(name, reason if reason.startswith(decision) else f"{decision}: {reason}")
            return chosen

        if "accelerate_matmul" in ours.declined:
            why = ours.declined_reason(name)
            return record("declined", f"declined: {why}; Triton's accelerate_matmul ran", "pass", ours)
        if not setting(self.act.options, "verify_dot"):  # no decision taken: metadata only
            metadata["triton_mfma_accelerate_dot"] = {"decision": "unverified", "evidence": "none",
                                                      "reason": "not verified (verify_dot=False)"}
            return ours
        theirs = self.engine.ttgir(ours.choice - {"accelerate_matmul"}, metadata)
        if theirs.same_code(ours):
            return record("kept", "the same TTGIR as with Triton's dot layouts (up to value names and locations)",
                          "identical", ours)
        w = self.fixed_w
        kwidth_only = dot_figures.only_kwidth_differs(ours.text, theirs.text)
        if not self.act.options.get("trial_all") and kwidth_only:
            from .lds_budget import lds_total

            # model first: our compile (the one Triton then gets) may show that theirs cannot do better; where a
            # core is idle, theirs compiles beside it (the trial, if the model cannot tell, then costs no wait).
            # Not gated: the model cannot tell more often than it can (26 of 42 on the bench suite), and a gate
            # would hold theirs' make_amdgcn until ours' is done, where they now overlap
            self.engine.prefetch([(theirs, w)])
            f_ours = self._figures_each([(ours, w)])[0]
            other_lds = lds_total(theirs.text)
            why = None if isinstance(f_ours, Exception) or other_lds is None else dot_figures.cannot_be_worse(
                f_ours, other_lds, self.options.arch, self.options.num_warps, w)
            if why is not None:
                self.engine.cancel([(theirs, w)])
                return record("kept", f"only kWidth differs from Triton's layouts: {why}", "model", ours)
        self.engine.prefetch([(theirs, w)])  # running while ours' follow-ups wait for ours
        speculative = self._prefetch_followups(ours, metadata, beside=(theirs, w))
        f_theirs, f_ours = self._figures_each([(theirs, w), (ours, w)])
        if isinstance(f_theirs, Exception):
            self.engine.cancel(speculative)
            return record("unverified", f"not verified (the comparison compile failed: {_first_line(f_theirs)}); "
                                        "keeping its layouts", "trial", ours)
        if isinstance(f_ours, Exception):
            if self.act.strict:
                raise f_ours
            remarks.warn(f"triton-mfma: {name}'s layouts could not be compiled or measured on kernel "
                         f"'{kernel_name(ours.module)}' ({_first_line(f_ours)}); using Triton's dot layouts")
            metadata["triton_mfma_fallback"] = f"{name}: {_first_line(f_ours)}"
            return record("failed", _first_line(f_ours), "trial", theirs)
        worse = dot_figures.worse_on(f_theirs, f_ours)
        figures = dot_figures.summary(f_theirs, f_ours)
        compared = {"kwidth_only": kwidth_only,
                    "figures": {"triton": dot_figures.registers(f_theirs), "ours": dot_figures.registers(f_ours)}}
        if worse:
            self.engine.cancel(speculative)
            return record("reverted", f"reverted to Triton's dot layouts: ours is worse on {'; '.join(worse)} "
                                      f"({figures})", "trial", theirs, compared)
        return record("kept", f"not worse than Triton's dot layouts ({figures})", "trial", ours, compared)

    def _prefetch_followups(self, ours, metadata, beside) -> list:
        """While `beside` (build, w), the compile `ours` is compared with, still runs: wait for `ours` (compiling
        or compiled) and start on a free core what the decisions after this one will compile if `ours` is kept —
        the grid-order check's variant without the remap (a whole compile: first) and the waves_per_eu
        candidates. Ours is kept more often than not; where it is not, the caller cancels them (a make_llir
        started cannot be stopped: the stage waits for it). Nothing is started where `beside` is done by then:
        the decision is taken first. The jobs started."""
        if trial_threads(2) < 2 or not (self.auto or self._grid_order_on()):
            return []
        first = self._figures_each([(ours, self.fixed_w)])[0]
        if isinstance(first, Exception) or not self.engine.running(*beside):
            return []
        without = self._grid_check_variant(ours, metadata)
        jobs = [(without, self.fixed_w)] if without is not None else []
        if self.auto:
            jobs += [(ours, c) for c in self._waves_plan(ours)]
        self.engine.prefetch(jobs)
        return jobs

    # -- mfma-grid-order: the remap must not cost registers ------------------------------------------------------
    def _check_grid_order(self, ours, metadata):
        """The remap's index arithmetic is scalar: where the compiled kernel spills SGPRs or is limited by its
        SGPRs, the kernel is compiled without the remap too and the remap is dropped if it cost spills or
        occupancy (its gain is in L2, which no static figure shows). Elsewhere a few more SGPRs cost nothing."""
        w = self.fixed_w
        without = self._grid_check_variant(ours, metadata)
        if without is None:
            return ours
        f_ours = self._figures_each([(ours, w)])[0]
        self.engine.prefetch([(without, w)])
        speculative = self._prefetch_followups(ours, metadata, beside=(without, w))
        f_without = self._figures_each([(without, w)])[0]
        if isinstance(f_without, Exception):
            return ours
        lost = [f"{k} {a} -> {b}" for k, a, b in (("VGPR spills", f_without.vgpr_spills, f_ours.vgpr_spills),
                                                    ("SGPR spills", f_without.sgpr_spills, f_ours.sgpr_spills))
                if b > a]
        if f_ours.occupancy < f_without.occupancy:
            lost.append(f"occupancy {f_without.occupancy} -> {f_ours.occupancy} waves/SIMD")
        if not lost:
            return ours
        self.engine.cancel(speculative)
        why = f"remap dropped: it costs {'; '.join(lost)}"
        metadata["triton_mfma_grid_order"] = {"decision": "dropped", "reason": why, "evidence": "trial"}
        self.kernel_remarks.decide(GRID_ORDER, why)
        return without

    def _grid_order_on(self) -> bool:
        return any(p.name == GRID_ORDER for p in self.points.get("ttgir_end", ()))

    def _grid_check_variant(self, ours, metadata):
        """The variant without the remap that the grid-order check compiles for `ours` (compiled: where its
        SGPRs spill or limit occupancy), None where the check compiles nothing."""
        if not setting(self.act.options, "verify_grid_order"):
            return None
        outcome = next((o for o in ours.outcomes if o.pass_name == GRID_ORDER), None)
        if outcome is not None and outcome.status != "applied":
            return None
        f_ours = self._figures_each([(ours, self.fixed_w)])[0]
        if isinstance(f_ours, Exception):
            raise f_ours
        limiter = occupancy.occupancy(self.options.arch, self.options.num_warps, f_ours.vgpr_total, f_ours.sgpr,
                                      f_ours.lds, self.fixed_w).limiter
        if not f_ours.sgpr_spills and limiter != "sgpr":
            return None
        without = self.engine.ttgir(ours.choice | {f"skip:{GRID_ORDER}"}, metadata)
        return None if without.same_code(ours) else without

    # -- mfma-stream-pipeline, decided per kernel ----------------------------------------------------------------
    def _pipeline_cannot_gain(self) -> str | None:
        """Where Triton's loop pipeliner copies through registers (no async copy to LDS: gfx90a, gfx942) with at
        most 2 stages, it keeps at most one LDS buffer per operand — what ours keeps — so ours cannot save LDS,
        and a saving in LDS is what it has to offer (measured: bench/results/stream_pipeline_amd.txt)."""
        from triton.backends.amd.compiler import is_async_copy_enabled

        stages = getattr(self.options, "num_stages", 2)
        if stages <= 2 and not is_async_copy_enabled(getattr(self.options, "base_arch", self.options.arch)):
            return (f"Triton's loop pipeliner keeps at most one LDS buffer per operand here ({self.options.arch}, "
                    f"num_stages={stages}, no async copy), as ours does: no LDS to save")
        return None

    def _decide_pipeline(self, ours, metadata):
        """Ours replaces Triton's loop pipeliner only where it wins something nameable (more waves per SIMD, fewer
        main-loop LDS ops or fewer registers) and loses nothing (registers, spills, occupancy, LDS). Model first:
        where the LDS model says ours needs no less LDS than Triton's pipeliner, there is nothing it could win
        that the compile would not show as a loss, so Triton's pipeliner is kept without a trial compile."""
        from .lds_budget import lds_total

        name = "mfma-stream-pipeline"

        def record(decision, reason, evidence, chosen):
            metadata["triton_mfma_stream_pipeline"] = {"decision": decision, "reason": reason, "evidence": evidence}
            self.kernel_remarks.decide(name, f"{decision}: {reason}")
            return chosen

        if "pipeline" in ours.declined:
            why = ours.declined_reason(name)
            return record("declined", f"{why}; Triton's loop pipeliner ran", "pass", ours)
        if not setting(self.act.options, "verify_pipeline"):  # the pass as it is: no decision, metadata only
            metadata["triton_mfma_stream_pipeline"] = {"decision": "unverified", "evidence": "none",
                                                       "reason": "not verified (verify_pipeline=False)"}
            return ours
        theirs = self.engine.ttgir(ours.choice - {"pipeline"}, metadata)
        if theirs.same_code(ours):
            return record("unchanged", "the same TTGIR as Triton's loop pipeliner (up to value names and locations)",
                          "identical", ours)
        lds_ours, lds_theirs = lds_total(ours.text), lds_total(theirs.text)
        budget = self._lds_budget(theirs) if lds_ours is not None and lds_theirs is not None else None
        if budget is not None and lds_theirs > budget:
            if lds_ours <= budget:
                return record("applied", f"meets the LDS budget {budget} B with one buffer per operand "
                                         f"(Triton's loop pipeliner needs {lds_theirs} B, ours {lds_ours} B)",
                              "model", ours)
            self.kernel_remarks.decide("lds_limit", f"the LDS budget {budget} B cannot be met: Triton's loop "
                                                    f"pipeliner needs {lds_theirs} B, ours {lds_ours} B")
        if lds_ours is not None and lds_theirs is not None and lds_ours >= lds_theirs \
                and not self.act.options.get("trial_all"):
            return record("declined", f"Triton's loop pipeliner needs no more LDS ({lds_theirs} B, ours {lds_ours} B)",
                          "model", theirs)
        self.engine.llir_here(ours)  # the trial compiles ours here, from its own module
        f_theirs, f_ours = self._figures_each([(theirs, self.fixed_w), (ours, self.fixed_w)])
        if isinstance(f_theirs, Exception):
            raise f_theirs
        if isinstance(f_ours, Exception):
            return record("declined", f"ours does not compile ({_first_line(f_ours)})", "trial", theirs)
        worse, gains = dot_figures.pipeline_verdict(f_theirs, f_ours)
        figures = dot_figures.summary(f_theirs, f_ours)
        if worse or not gains:
            why = f"worse on {'; '.join(worse)}" if worse else "no gain"
            return record("declined", f"{why} against Triton's loop pipeliner ({figures})", "trial", theirs)
        return record("applied", f"{'; '.join(gains)}, nothing worse than Triton's loop pipeliner ({figures})",
                      "trial", ours)

    def _lds_budget(self, reference) -> int | None:
        """The kernel's LDS budget in bytes (`lds_limit`), None when none is set; "occupancy" is resolved from
        `reference` compiled (the budget that keeps the workgroups per CU its registers allow)."""
        from .lds_budget import budget_for_register_occupancy

        value = self.act.options.get("lds_limit")
        if value != "occupancy":
            return value
        f = self._figures_each([(reference, self.fixed_w)])[0]
        if isinstance(f, Exception):
            return None
        return budget_for_register_occupancy(self.options.arch, self.options.num_warps, f.vgpr_total, f.sgpr,
                                             self.fixed_w)[0]

    def _figures_each(self, jobs):
        """dot_figures.Figures of each (build, w), compiled concurrently; an exception in place of a failure."""
        out = []
        for (build, w), c in zip(jobs, self._compile_each(jobs)):
            try:
                if isinstance(c, Exception):
                    raise c
                key = (id(c), w)
                if key not in self._figures:
                    self._figures[key] = (c, dot_figures.of_amdgcn(c.amdgcn, c.metadata["shared"], self.options.arch,
                                                                   self.options.num_warps, w))
                out.append(self._figures[key][1])
            except Exception as e:  # noqa: BLE001 - the caller's policy decides
                out.append(e)
        return out

    def _compile_each(self, jobs):
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

    # -- waves_per_eu "auto" ------------------------------------------------------------------------------------
    # -- llir / amdgcn: waves_per_eu "auto" and the hand-off ----------------------------------------------------
    def llir(self, src, metadata):
        handed = self.handoff[1] if self.handoff is not None and src is self.handoff[0] else None
        if handed is None:
            src = real_module(src)
        if self.auto:
            try:
                return self._auto_waves(src, metadata, handed)
            finally:
                self.kernel_remarks.flush()
        if handed is not None:
            metadata.update({k: v for k, v in handed.metadata.items() if k not in ("name", "waves_per_eu")})
            return handed.llir
        return self.backend.make_llir(src, metadata, with_waves_per_eu(self.options, self.final_w))

    def _waves_plan(self, build) -> list[int]:
        """The waves_per_eu candidates "auto" will compile for `build` (compiled at w=0)."""
        from .autowaves import candidate, plan

        base = self.engine.compiled(build, 0)
        if base is None:
            return []
        promising, _, possible = plan(self.options.arch, self.options.num_warps,
                                      candidate(self.options.arch, self.options.num_warps, base))
        return possible if self.act.options.get("trial_all") else promising

    def _auto_waves(self, src, metadata, base):
        """waves_per_eu="auto" on the chosen TTGIR: the base (w=0) is the decisions' trial compile when there was
        one, else Triton's module compiled in place; candidates are the base's LLVM IR with the attribute."""
        from .autowaves import choose
        from .engine import Compiled

        if base is None:
            llir0 = self.backend.make_llir(src, metadata, with_waves_per_eu(self.options, 0))
            md = dict(metadata)
            base = Compiled(0, llir0, self.backend.make_amdgcn(llir0, md, with_waves_per_eu(self.options, 0)), md)
        else:
            metadata.update({k: v for k, v in base.metadata.items() if k not in ("name", "waves_per_eu")})
        if self.engine is None:
            self.engine = Engine(self.backend, self.options, "", None, None)
        if self.chosen is not None and base is self.engine.compiled(self.chosen, 0):
            # the decisions' build: its candidates are the engine's (compiled once, some maybe already)
            compile_many = lambda ws: self.engine.compile([(self.chosen, w) for w in ws])  # noqa: E731
        else:
            md0 = {k: v for k, v in base.metadata.items() if k != "name"}
            compile_many = lambda ws: self.engine.candidates(base.llir, md0, ws)  # noqa: E731
        choice = choose(self.options.arch, self.options.num_warps, base, compile_many,
                        trial_all=bool(self.act.options.get("trial_all")))
        chosen = choice.chosen.compiled
        self.final_w = chosen.waves_per_eu
        self.handoff = (src, chosen)
        metadata["waves_per_eu"] = self.final_w
        metadata["triton_mfma_waves_per_eu"] = choice.as_metadata()
        self.kernel_remarks.decide("waves_per_eu auto", choice.reason())
        self._record(metadata)
        return chosen.llir

    def amdgcn(self, src, metadata):
        if self.handoff is not None and src == self.handoff[1].llir:
            metadata.update({k: v for k, v in self.handoff[1].metadata.items() if k != "waves_per_eu"})
            return self.handoff[1].amdgcn
        return self.backend.make_amdgcn(src, metadata, with_waves_per_eu(self.options, self.final_w))


class GenericCompile:
    """cuda and other backends: the composed NVIDIA make_ttgir where the pipeline point acts, then `ttgir_end`;
    on cuda, grid order's compiled check and the hand-off of what it compiled."""

    LOWERING = ("llir", "ptx", "cubin")  # cuda's stages after ttgir, each fed the previous one's result

    def __init__(self, act, backend, backend_name, stages, options, capability, composed: bool):
        self.act, self.backend_name, self.options, self.capability = act, backend_name, options, capability
        self.backend = backend
        self.points = act.points_for(backend_name)
        self.stock_ttgir = stages.get("ttgir")
        self.stock = {k: stages[k] for k in self.LOWERING if k in stages}
        self.composed = composed
        # {stage: (its input, its output, metadata after it)} of the variant the grid-order check compiled and
        # handed on (`_hand_off`): the llir stage's input is the TTGIR module handed to Triton (known by identity),
        # the others' the text the previous stage gave (known by value); None: Triton compiles
        self.handoff = None

    def install(self, stages) -> None:
        if self.points and self.stock_ttgir is not None:
            stages["ttgir"] = self.ttgir
            if self._grid_check_possible():
                for k in self.LOWERING:
                    stages[k] = functools.partial(self._lowering, k)

    def _grid_check_possible(self) -> bool:
        return (self.backend_name == "cuda" and len(self.stock) == len(self.LOWERING)
                and any(p.name == GRID_ORDER for p in self.points.get("ttgir_end", ())))

    def _lowering(self, stage, src, metadata):
        """Triton's stage, or what the grid-order check already compiled for the module it handed on."""
        if self.handoff is not None:
            given, out, md = self.handoff[stage]
            if src is given or (stage != "llir" and src == given):
                metadata.update(md)
                return out
        return self.stock[stage](src, metadata)

    def _hand_off(self, module, steps: dict):
        """`module` is what the ttgir stage returns; `steps` what `_lower` compiled from a copy of it."""
        self.handoff = {**steps, "llir": (module, *steps["llir"][1:])}
        return module

    def ttgir(self, src, metadata):
        from .pipeline import nvidia_make_ttgir

        kernel_remarks = remarks.KernelRemarks(kernel_name(src), remarks.level(self.act.remarks))
        run = PointRunner(self.act, self.backend_name, self.options, kernel_remarks, self._point_context)
        snapshot = export_generic(src)
        interior = {p for p in INTERIOR_POINTS if p in self.points} if self.composed and _has_dot(snapshot) \
            else set()
        declined, outcomes = set(), []
        try:
            if interior:
                try:
                    mod = nvidia_make_ttgir(src, metadata, self.options, self.capability,
                                            lambda pt, m: run(pt, m, declined, outcomes), interior, declined)
                except Exception as e:  # noqa: BLE001 - any failure falls back to stock (or raises if strict)
                    _fallback(self.act, "make_ttgir", kernel_name(src), e, metadata)
                    return self.stock_ttgir(import_generic(snapshot, src.context, parsed_before=True), metadata)
                return self._check_grid_order(mod, run, metadata, outcomes, kernel_remarks)
            out = self.stock_ttgir(src, metadata)  # Triton's own failure is not ours to handle
            try:
                mod = run("ttgir_end", out, outcomes=outcomes)
            except PassFailure as e:
                _fallback(self.act, "make_ttgir", e.kernel, e, metadata)
                return out
            return self._check_grid_order(mod, run, metadata, outcomes, kernel_remarks)
        finally:
            _record_lines(metadata, _unchanged_lines(outcomes), kernel_remarks.decisions)
            kernel_remarks.flush()

    def _point_context(self, mod):
        from .lds_budget import PointContext

        return PointContext(self.backend_name, str(getattr(self.options, "arch", self.capability)),
                            getattr(self.options, "num_warps", 4), 0, kernel_name(mod), None)

    # -- mfma-grid-order on cuda: the remap must not meet register spills --------------------------------------
    def _check_grid_order(self, ours, run, metadata, outcomes, kernel_remarks):
        """Where mfma-grid-order remapped, the kernel is compiled to a cubin here (Triton's own stages, on a copy;
        the results are handed to the later stages, not compiled again). Where ptxas spills registers (stack
        bytes), the remap is dropped and the kernel without it compiled and handed on instead: at the register
        limit ptxas's code for the same order moved an H200 split-K GEMM by -5..+4% (bench/results/
        grid_order_splitk.txt: the guarded remap 0.95x where stock already spilled), more than the L2 model's
        gain and nothing it can predict. With grid_order="on" (the remap asked for by name) it is dropped only
        where it costs spills, as on AMD, where the engine drops a remap that costs spills (`HipCompile`).
        Spills are the stack bytes ptxas adds to what the PTX declares (a `tl.device_print`'s argument buffer is
        stack too, declared by the PTX: not a spill)."""
        applied = any(o.pass_name == GRID_ORDER and o.status == "applied" for o in outcomes)
        spare = run.spare.get("ttgir_end")
        if not applied or spare is None or not self._grid_check_possible() \
                or not setting(self.act.options, "verify_grid_order"):
            return ours
        from . import resources

        try:
            steps = self._lower(run.last_text or export_generic(ours), metadata)
            self._hand_off(ours, steps)
            figures = resources.from_cubin(steps["cubin"][1], steps["ptx"][1])
            if not figures.spills:
                return ours
            skip = PointRunner(self.act, self.backend_name, self.options, kernel_remarks, self._point_context,
                               skip={GRID_ORDER})
            without = skip("ttgir_end", spare)
            steps_without = self._lower(skip.last_text or export_generic(without), metadata)
            spilled = resources.from_cubin(steps_without["cubin"][1], steps_without["ptx"][1])
        except Exception as e:  # noqa: BLE001 - the check is ours: the remapped module goes on (compiled or not)
            if self.act.strict:
                raise
            metadata["triton_mfma_fallback"] = f"mfma-grid-order's compiled check: {_first_line(e)}"
            remarks.warn(f"{e}; mfma-grid-order's compiled check failed for {kernel_name(ours)}: the remap is kept "
                         f"unchecked")
            return ours
        if self.act.options.get("grid_order") == "on":  # asked for by name: dropped only where it costs spills
            if spilled.spills >= figures.spills:
                return ours
            why = f"remap dropped: it costs register spills ({spilled.spills} -> {figures.spills} B/thread)"
        else:
            why = (f"remap dropped: the kernel spills registers with it ({figures.spills} B/thread, "
                   f"{figures.regs} registers; without it {spilled.spills} B, {spilled.regs}): at the register "
                   f"limit ptxas's code decides more than the order")
        metadata["triton_mfma_grid_order"] = {"decision": "dropped", "reason": why, "evidence": "compiled"}
        kernel_remarks.decide(GRID_ORDER, why)
        return self._hand_off(without, steps_without)

    def _lower(self, text: str, metadata) -> dict:
        """Triton's llir, ptx and cubin stages on a copy of the TTGIR `text` (in a context of its own):
        {stage: (its input, its output, metadata after it)}."""
        md, steps, src = dict(metadata), {}, import_generic(text, fresh_context(self.backend), parsed_before=True)
        for stage in self.LOWERING:
            out = self.stock[stage](src, md)
            steps[stage] = (src, out, dict(md))
            src = out
        return steps


def wrap_stages(act, backend, stages, options, language, capability) -> None:
    """Triton's stages hook, for one compile: replace the stages the plan above names."""
    from triton.backends.compiler import Language

    name = getattr(getattr(backend, "target", None), "backend", "")
    if not name:
        return
    if name == "hip" and language == Language.TRITON:
        plan = HipCompile(act, backend, options, stages)
        if plan.needed():
            plan.install(stages)
        return
    GenericCompile(act, backend, name, stages, options, capability,
                   composed=(name == "cuda" and language == Language.TRITON)).install(stages)
