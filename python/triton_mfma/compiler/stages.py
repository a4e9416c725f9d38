"""The stage plan: which of Triton's compile stages triton-mfma replaces, per backend, and why.

hip, Triton language (`HipCompile`: every decision of one kernel's compile is taken in its ttgir stage)
  ttgir   Triton's make_ttgir when the kernel has no dot (our interior points have nothing to act on), else the
          composed copy (make_ttgir.amd_make_ttgir) with our passes at `accelerate_matmul` / `pipeline`; then the
          passes at `ttgir_end`. The decisions (decisions/: one module each, on one protocol) compare variants
          the engine builds and compiles; the engine's policy (policy.Policy) runs them and owns what compiles
          beside what (docs/architecture.md).
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
import re
import time

from ..composition import make_ttgir, remarks
from ..composition.passes import REGISTRY, REPLACING_POINTS
from ..composition.make_ttgir import amd_make_ttgir, nvidia_make_ttgir
from ..composition.points import INTERIOR_POINTS, POINT_ORDER, variant_options, variants_at
from ..decisions import record
from ..decisions import first_line as _first_line
from ..decisions.context import Context, CubinTrials, TargetContext, Waves
from ..decisions.grid_order import NAME as GRID_ORDER  # the pass whose outcomes the cuda stages read
from ..decisions.registry import CUDA_REGISTRY, REGISTRY as DECISIONS
from ..ir.bridge import export_generic, import_generic, real_module
from ..ir.llvm_ir import llir_without_waves
from ..ir.runner import PassFailure, kernel_name, run_passes
from ..models import resources
from ..models.grid import cuda_residency
from ..models.lds_budget import PointContext
from ..trials.engine import Engine, fresh_context, with_num_stages, with_waves_per_eu
from ..trials.policy import Policy
from ..trials.variants import Compiled, Made, PointBoard, SameAsBuild, SameAsOurs, same_code, stages_of


def _has_dot(generic_text: str) -> bool:
    return '"tt.dot"' in generic_text or '"tt.dot_scaled"' in generic_text


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

    def __init__(self, act, backend_name: str, triton_options, kernel_remarks, ctx_factory=None, skip=(),
                 variant_options=None):
        self.act = act
        # the user's pass options, with those of the build's option variants (points.VARIANT_OPTIONS) over them
        self.user_options = {**act.options, **variant_options} if variant_options else act.options
        self.points = {pt: [p for p in ps if p.name not in skip] for pt, ps in act.points_for(backend_name).items()}
        self.triton_options = triton_options
        self.remarks = kernel_remarks
        self.ctx_factory = ctx_factory  # (module) -> lds_budget.PointContext
        self.last_text = ""  # the generic text of the module the last call returned, where the library printed it
        self.before = {}  # point -> the generic text of the module the passes there were given
        self.after = {}  # point -> the generic text of what they returned (the library's output)
        self.spare = {}  # point -> that module, where the passes returned a new one (variants.Build.spare)

    def __call__(self, point: str, mod, declined: set | None = None, outcomes: list | None = None,
                 before: str | None = None):
        passes = self.points.get(point)
        self.last_text = ""
        if not passes:
            return mod
        ctx = self.ctx_factory(mod) if self.ctx_factory else None
        res = run_passes(passes, mod, user_options=self.user_options, triton_options=self.triton_options, ctx=ctx,
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


def _merge(metadata: dict, other: dict, skip=()) -> None:
    """`other` (a build's or a compile's metadata: a copy made when it was made) into the compile's `metadata`, keys
    in `skip` left out; the verdicts recorded since, or amended (a superseded one), stay the policy's."""
    verdicts = {d.key: metadata[d.key] for d in DECISIONS if d.key in metadata}
    metadata.update({k: v for k, v in other.items() if k not in skip})
    metadata.update(verdicts)


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
        self.waves = Waves.of(getattr(options, "waves_per_eu", 0), act.options.get("waves_per_eu"))
        self.options = with_waves_per_eu(options, self.waves.asked)
        # whether decisions on the compiled kernel may run (waves_per_eu "auto" or the relaxation of an explicit one
        # in the llir stage; LLVM's scheduling strategy on the compile handed on): their stages are then ours
        self.decides_at = {stage: any(d.wanted(act.options, self.waves, options) for d in DECISIONS
                                      if d.stage == stage) for stage in ("llir", "amdgcn")}
        self.stock = {k: stages[k] for k in ("ttgir", "llir", "amdgcn") if k in stages}
        self.handoff = None  # (TTGIR module handed to Triton, variants.Compiled of it)
        self.chosen = None  # the variants.Build handed to Triton, where it was compiled
        self.kernel_remarks = None
        self.engine = None
        self.policy = None  # policy.Policy: the decisions of this compile
        self._unchanged = {}  # metadata lines of the passes that left the chosen TTGIR as it was
        self._stages = None  # Triton's stage dict, once installed

    def needed(self) -> bool:
        return bool(self.points) or self.decides_at["llir"] or self.act.options.get("waves_per_eu") is not None

    def install(self, stages) -> None:
        if {"ttgir", "llir", "amdgcn"} - set(self.stock):
            return  # not the stage set this plan knows
        stages["ttgir"], stages["llir"], stages["amdgcn"] = self.ttgir, self.llir, self.amdgcn
        self._stages = stages

    # -- ttgir: every decision ----------------------------------------------------------------------------------
    def ttgir(self, src, metadata):
        kernel = kernel_name(src)
        self.kernel_remarks = remarks.KernelRemarks(kernel, remarks.level(self.act.remarks))
        snapshot = None
        try:
            snapshot = export_generic(src)  # make_ttgir mutates src: keep the TTIR for variants and a fallback
            return self._decide(src, metadata, snapshot)
        except Exception as e:  # noqa: BLE001 - any failure falls back to stock (or raises if strict)
            if self.engine is not None:
                self.engine.settle()
            self.handoff = None
            _fallback(self.act, "make_ttgir", kernel, e, metadata)
            self.waves.reset(metadata)
            return self.stock["ttgir"](src if snapshot is None else
                                       import_generic(snapshot, src.context, parsed_before=True), metadata)
        except BaseException:  # an interrupt: nothing of this compile runs on behind it
            if self.engine is not None:
                self.engine.abandon()
            raise
        finally:
            if not any(self.decides_at.values()):  # else the llir stage decides once more,
                self.kernel_remarks.flush()  # then shows the summary

    def _make_ttgir(self, src, md, choice, resume=None, aside=False, cut=None):
        """A TTGIR variant: `choice` holds the interior points where ours runs and "skip:<pass>" for a pass at
        ttgir_end left out. `resume` (variants.Resume): start at its point from another build's module; where this
        build's module becomes an earlier build's (whose choice agrees from there on), the rest is that build's
        (no more steps run). `aside`: built on another thread (engine.Engine.aside); what its passes say is
        kept in a buffer, replayed by the callable returned last. `cut`: (point, wait), for an aside build: right
        after Triton's step at `point` it ends (variants.SameAsOurs) where its module is what `wait()` says the build
        it is compared with returned there."""
        if aside:
            buffer = remarks.RemarkBuffer()
            built = self._build_ttgir(src, md, choice, resume, buffer, cut)
            return built, lambda: buffer.replay(self.kernel_remarks)
        return self._build_ttgir(src, md, choice, resume, self.kernel_remarks)

    def _build_ttgir(self, src, md, choice, resume, kernel_remarks, cut=None):
        try:
            return self._build_ttgir_steps(src, md, choice, resume, kernel_remarks, cut)
        finally:
            if self.engine is not None:
                self.engine.board.finish(frozenset(choice))

    def _build_ttgir_steps(self, src, md, choice, resume, kernel_remarks, cut):
        skip = {c[5:] for c in choice if c.startswith("skip:")}
        stages = stages_of(choice)
        options = self.options if stages is None else with_num_stages(self.options, stages)
        run = PointRunner(self.act, "hip", options, kernel_remarks,
                          lambda m: self._point_context(m, kernel_remarks), skip, variant_options(choice))
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
            out = run(pt, m, declined, outcomes, before)
            if run.points.get(pt) and self.engine is not None:  # what an aside build diverging here compares with
                self.engine.board.publish(frozenset(choice), pt,
                                          PointBoard.DECLINED if pt in declined else run.after.get(pt))
            return out

        def after_step(pt, m):  # Triton's step ran at the resume point: is the module now what ours returned there?
            if cut is not None:
                if pt == cut[0]:
                    theirs = cut[1]()
                    if theirs is PointBoard.DECLINED or (theirs is not None and same_code(export_generic(m), theirs)):
                        if self.engine is not None:  # the two diverge first here: the same module came in
                            self.engine.note_same_step(pt, choice)
                        raise SameAsOurs(pt)
                return
            text = export_generic(m)
            for other in resume.compare_after:
                if same_code(text, other.after[pt]):
                    raise SameAsBuild(pt, other, after=True)

        interior = {c for c in choice if c in INTERIOR_POINTS}
        try:
            if resume is not None and resume.point == "ttgir_end":
                mod = ours_at("ttgir_end", resume.module)
                md["tensordesc_meta"] = mod.get_tensordesc_metadata()
            elif interior or resume is not None or stages is not None or cut is not None:
                mod = amd_make_ttgir(src, md, options, ours_at, interior, declined,
                                     (resume.point, resume.module) if resume is not None else None,
                                     after_step if cut is not None or (resume is not None and resume.compare_after)
                                     else None,
                                     backend=self.backend)
            else:
                mod = ours_at("ttgir_end", self.stock["ttgir"](src, md))
        except SameAsBuild as same:  # from here on, that build's steps and module
            other, at = same.build, POINT_ORDER.index(same.point)
            if same.after and self.engine is not None and same.point in other.before and \
                    not variants_at(other.choice, same.point) and \
                    same_code(run.before.get(same.point, ""), other.before[same.point]):  # Triton's step did what ours did
                self.engine.note_same_step(same.point, choice)
            carry(other, POINT_ORDER[at + 1 if same.after else at:])
            md.clear()
            md.update(other.metadata)
            return Made(other.module, declined, outcomes, other.text, dict(run.before), dict(run.after), {})
        # ttgir_end is make_ttgir's last step
        return Made(mod, declined, outcomes, run.last_text, dict(run.before), dict(run.after), dict(run.spare))

    def _decide(self, src, metadata, snapshot):
        interior = {p for p in INTERIOR_POINTS if p in self.points} if _has_dot(snapshot) else set()
        if interior:  # those the installed make_ttgir composes (proven at first use where it is not a known one)
            interior &= make_ttgir.usable_points("hip", snapshot, src.context, (self.options,), self.options.arch,
                                                 self.backend)
        metadata["triton_mfma_build"] = make_ttgir.build_record("hip", self.options.arch, self.backend)
        self.engine = Engine(self.backend, self.options, snapshot, src.context, self._make_ttgir,
                             lower_in_place=self._llir_stage_is_ours())
        self.policy = self._policy(metadata)
        self.policy.ctx.has_dot, self.policy.ctx.ttir = _has_dot(snapshot), snapshot
        chosen = self.policy.decide_ttgir(src, interior)
        compiled = self.engine.compiled(chosen, self.waves.compared)
        _merge(metadata, chosen.metadata)
        # the kernel's, or the waves its LDS admits (decisions/relax_waves_per_eu.py)
        self.waves.hand_on(self.waves.compared, metadata)
        self.handoff = (chosen.module, compiled) if compiled is not None else None
        self.chosen = chosen if compiled is not None else None
        self._record(metadata, chosen.outcomes)
        return chosen.module

    def _policy(self, metadata) -> Policy:
        """The engine's policy over the registered decisions, and what they read of this compile."""
        policy = Policy(self.engine, DECISIONS, metadata, self.kernel_remarks)
        policy.ctx = Context(self.act.options, self.options, self.waves, self.act.strict, self.points,
                             variant=lambda choice: self.engine.variant(choice, metadata), figures=policy.figures,
                             printed=policy.printed, compiled=self.engine.compiled, note=self.kernel_remarks.decide,
                             figures_of=policy.figures_of, long_compile=policy.long_compile,
                             compiles=lambda: self.engine.trials,
                             cpu=lambda: (self.engine.first_s, self.engine.cpu_s(), self.engine.longest_s),
                             backend_cpu=lambda: self.engine.longest_backend_s,
                             stock_cpu=policy.stock_cpu,
                             stakes=policy.stakes)
        return policy

    def _llir_stage_is_ours(self) -> bool:
        """Whether Triton's llir stage is still ours (a later stages hook may have put in a function that
        compiles the TTGIR module itself): only then is a module lowered in place never asked for more than its
        text."""
        return self._stages is not None and self._stages.get("llir") == self.llir

    def _record(self, metadata, outcomes=None):
        if outcomes is not None:  # the chosen TTGIR's outcomes; the llir stage records again without them
            self._unchanged = _unchanged_lines(outcomes)
        _record_lines(metadata, self._unchanged, self.kernel_remarks.decisions)
        trials = self.engine.trials if self.engine is not None else 0
        if trials:
            metadata["triton_mfma_trials"] = trials

    def _point_context(self, mod, kernel_remarks):
        def stock_amdgcn():  # the module as it stands, compiled to amdgcn (lds_limit="occupancy")
            md = {"num_ctas": getattr(self.options, "num_ctas", 1)}
            copy = import_generic(export_generic(mod), mod.context, parsed_before=True)
            return self.backend.make_amdgcn(self.backend.make_llir(copy, md, self.options), md, self.options)

        return PointContext("hip", self.options.arch, self.options.num_warps, self.waves.asked, kernel_name(mod),
                            stock_amdgcn, kernel_remarks.decide)

    # -- llir / amdgcn: waves_per_eu "auto" or relaxed, and the hand-off -----------------------------------------
    def llir(self, src, metadata):
        handed = self.handoff[1] if self.handoff is not None and src is self.handoff[0] else None
        if handed is None:
            src = real_module(src)
        try:
            if self.decides_at["llir"]:
                self._decide_llir(src, metadata, handed)
            elif handed is not None:
                _merge(metadata, handed.metadata, skip=("name", "waves_per_eu"))
            elif self._strategy_present(metadata):  # no decision compiled the kernel: compiled here, as Triton would
                self.handoff = (src, self._compile_in_place(src, metadata, self.waves.handed))
            else:
                return self.backend.make_llir(src, metadata, with_waves_per_eu(self.options, self.waves.handed))
            return self._decide_strategy(metadata)
        finally:
            if self.kernel_remarks is not None and any(self.decides_at.values()):
                self.kernel_remarks.flush()

    def _strategy_present(self, metadata) -> bool:
        """Whether a decision on the compile handed on runs (LLVM's scheduling strategy: its option, the author's
        choice and a dot are its `present`'s; not after a fallback to stock)."""
        return (self.policy is not None and "triton_mfma_fallback" not in metadata
                and bool(self.policy.present_at("amdgcn")))

    def _decide_strategy(self, metadata) -> str:
        """The LLVM IR handed on: the handed-on compile's, or the one the decisions on it chose (LLVM's scheduling
        strategy; a failure there keeps the handed-on compile, with a warning; strict mode raises)."""
        module, base = self.handoff
        if not self._strategy_present(metadata):
            return base.llir
        self.policy.metadata = metadata
        try:
            chosen = self.policy.decide_compiled("amdgcn", base, self.chosen, self.waves.handed)
        except Exception as e:  # noqa: BLE001 - the compile handed on stands
            if self.act.strict:
                raise
            chosen = base
            names = ", ".join(d.name for d in self.policy.present_at("amdgcn"))
            remarks.warn(f"triton-mfma: {names} failed on kernel '{self.kernel_remarks.kernel}' "
                         f"({_first_line(e)}); LLVM's default strategy kept")
        self.handoff = (module, chosen)
        self._record(metadata)
        return chosen.llir

    def _compile_in_place(self, src, metadata, w: int):
        """variants.Compiled of Triton's module `src` at waves_per_eu `w`: make_llir and make_amdgcn here."""
        opts = with_waves_per_eu(self.options, w)
        t0 = time.thread_time()
        llir = self.backend.make_llir(src, metadata, opts)
        md = dict(metadata)
        amdgcn = self.backend.make_amdgcn(llir, md, opts)
        return self.engine.noted(Compiled(w, llir, amdgcn, md, time.thread_time() - t0))


    def _decide_llir(self, src, metadata, base):
        """The llir-stage decisions on the chosen TTGIR (policy.Policy.decide_compiled): the base (at the waves the
        TTGIR decisions compared at: the kernel's waves_per_eu, 0 under "auto", or the waves its LDS admits,
        decisions/relax_waves_per_eu.py) is the decisions' compile when there was one, else Triton's module compiled in place at those waves (generated
        seed 1688 on gfx90a: a stage less made the LDS admit one wave, the decisions compared at 2, and no decision
        compiled the chosen kernel; compiled at the kernel's 8, the relaxation read its 107 spills at 8's budget as
        the compared waves' and compiled one wave more, where 2 spill nothing)."""
        w = self.waves.handed

        def compile_base():
            base = self._compile_in_place(src, metadata, w)
            return base, llir_without_waves(base.llir, w), dict(metadata)

        if base is not None:
            _merge(metadata, base.metadata, skip=("name", "waves_per_eu"))
        if self.engine is None:
            self.engine = Engine(self.backend, self.options, "", None, None)
        if self.policy is None:
            self.policy = self._policy(metadata)
        self.policy.metadata = metadata
        chosen = self.policy.decide_compiled("llir", base, self.chosen, w, compile_base)
        self.handoff = (src, chosen)
        self.waves.hand_on(chosen.waves_per_eu, metadata)
        self._record(metadata)
        return chosen.llir

    def amdgcn(self, src, metadata):
        if self.handoff is not None and src == self.handoff[1].llir:
            _merge(metadata, self.handoff[1].metadata, skip=("waves_per_eu",))
            return self.handoff[1].amdgcn
        return self.backend.make_amdgcn(src, metadata, with_waves_per_eu(self.options, self.waves.handed))


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
        kernel_remarks = remarks.KernelRemarks(kernel_name(src), remarks.level(self.act.remarks))
        run = PointRunner(self.act, self.backend_name, self.options, kernel_remarks, self._point_context)
        snapshot = export_generic(src)
        interior = {p for p in INTERIOR_POINTS if p in self.points} if self.composed and _has_dot(snapshot) \
            else set()
        if interior:  # those the installed make_ttgir composes (proven at first use where it is not a known one)
            interior &= make_ttgir.usable_points(self.backend_name, snapshot, src.context,
                                                 (self.options, self.capability), str(self.capability), self.backend)
            metadata["triton_mfma_build"] = make_ttgir.build_record(self.backend_name, str(self.capability),
                                                                    self.backend)
        declined, outcomes = set(), []
        try:
            if interior:
                try:
                    mod = nvidia_make_ttgir(src, metadata, self.options, self.capability,
                                            lambda pt, m: run(pt, m, declined, outcomes), interior, declined,
                                            backend=self.backend)
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
        return PointContext(self.backend_name, str(getattr(self.options, "arch", self.capability)),
                            getattr(self.options, "num_warps", 4), 0, kernel_name(mod), None)

    # -- mfma-grid-order on cuda: the remap must not meet register spills --------------------------------------
    def _check_grid_order(self, ours, run, metadata, outcomes, kernel_remarks):
        """Where mfma-grid-order remapped, the kernel is compiled to a cubin here (Triton's own stages, on a copy;
        the results are handed to the later stages, not compiled again) for the decisions on it
        (decisions.registry.CUDA_REGISTRY: grid order's check, which may have the kernel without the remap compiled
        and handed on instead)."""
        applied = any(o.pass_name == GRID_ORDER and o.status == "applied" for o in outcomes)
        spare = run.spare.get("ttgir_end")
        ctx = TargetContext(self.act.options, self.options, self.act.strict)
        present = [d for d in CUDA_REGISTRY if d.present(ctx, set())]
        if not applied or spare is None or not self._grid_check_possible() or not present:
            return ours
        lowered = {}

        def without_remap():
            skip = PointRunner(self.act, self.backend_name, self.options, kernel_remarks, self._point_context,
                               skip={GRID_ORDER})
            without = skip("ttgir_end", spare)
            lowered[id(without)] = steps = self._lower(skip.last_text or export_generic(without), metadata)
            return without, resources.from_cubin(steps["cubin"][1], steps["ptx"][1])

        try:
            text = run.last_text or export_generic(ours)
            steps = self._lower(text, metadata)
            self._hand_off(ours, steps)
            figures = resources.from_cubin(steps["cubin"][1], steps["ptx"][1])
            real = self._real_residency(text, figures, steps)
            if real is not None:
                ours, steps, figures = self._with_real_residency(real, spare, metadata, kernel_remarks)
                self._hand_off(ours, steps)
            verdicts = [(d, d.decide(ctx, figures, CubinTrials(without_remap))) for d in present]
        except Exception as e:  # noqa: BLE001 - the check is ours: the remapped module goes on (compiled or not)
            if self.act.strict:
                raise
            metadata["triton_mfma_fallback"] = f"mfma-grid-order's compiled check: {_first_line(e)}"
            remarks.warn(f"{e}; mfma-grid-order's compiled check failed for {kernel_name(ours)}: the remap is kept "
                         f"unchecked")
            return ours
        for d, v in verdicts:
            if v is not None:
                record(v, d.name, d.key, metadata, kernel_remarks)
                ours = self._hand_off(v.chosen, lowered[id(v.chosen)])
        return ours

    def _real_residency(self, text: str, figures, steps):
        """The programs per SM the compiled kernel really has, where the guard was built with more: on cuda the
        pass bounds them from above at TTGIR (the warp slots: registers are not allocated yet), and a launch
        between the two counts of programs per wave is one the guard takes for one wave where it needs several
        (an H200 split-K decode launch, 1792 programs, bound 16 per SM where registers allow 8: the remap's
        1.35x declined, bench/results/grid_order_wide.md). None where the bound is the real figure."""
        m = re.search(r"programs_per_cu = (\d+) : i64, programs_source = \"upper bound\"", text)
        if m is None:
            return None
        md = steps["cubin"][2]
        real = cuda_residency(f"cuda:{self.capability}", figures.regs, int(md.get("shared", 0) or 0),
                              int(md.get("num_warps", getattr(self.options, "num_warps", 4))))
        return real if real is not None and 0 < real.programs_per_cu < int(m.group(1)) else None

    def _with_real_residency(self, real, spare, metadata, kernel_remarks):
        """The passes at ttgir_end again, mfma-grid-order told the real programs per SM (`programs-per-cu`),
        and the result compiled: (module, steps, cubin figures)."""
        act = self.act.with_options(grid_programs_per_cu=real.programs_per_cu)
        # the same passes on the same module said what they had to say: the decision line below says what changed
        again = PointRunner(act, self.backend_name, self.options, kernel_remarks.silenced(), self._point_context)
        outcomes = []
        ours = again("ttgir_end", spare, outcomes=outcomes)
        steps = self._lower(again.last_text or export_generic(ours), metadata)
        figures = resources.from_cubin(steps["cubin"][1], steps["ptx"][1])
        o = next((o for o in outcomes if o.pass_name == GRID_ORDER), None)
        if o is not None:
            kernel_remarks.decide(GRID_ORDER, f"{o.status}: {o.reason} (programs per SM from the compiled "
                                              f"kernel: {real})" if o.reason else o.status)
        return ours, steps, figures

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
