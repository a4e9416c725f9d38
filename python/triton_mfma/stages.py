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
          then the passes at `ttgir_end`
other backends and languages (e.g. Gluon)
  ttgir   Triton's, then the passes at `ttgir_end`

Failure policy: any failure in our part of a stage warns (pass, kernel, reason), records
`metadata["triton_mfma_fallback"]`, and returns stock Triton's result for that stage; strict mode raises.
"""
from __future__ import annotations

from . import dot_figures, remarks
from .bridge import export_generic, import_generic
from .engine import Engine, with_waves_per_eu
from .passes import REPLACING_POINTS
from .runner import PassFailure, kernel_name, run_passes

INTERIOR_POINTS = ("accelerate_matmul", "pipeline")


def _has_dot(generic_text: str) -> bool:
    return '"tt.dot"' in generic_text or '"tt.dot_scaled"' in generic_text


def _first_line(e: BaseException) -> str:
    return str(e).splitlines()[0] if str(e) else type(e).__name__


class PointRunner:
    """Runs the passes of one activation at an insertion point; collects outcomes, remarks and declines."""

    def __init__(self, act, backend_name: str, triton_options, kernel_remarks, ctx_factory=None):
        self.act = act
        self.points = act.points_for(backend_name)
        self.triton_options = triton_options
        self.remarks = kernel_remarks
        self.ctx_factory = ctx_factory  # (module) -> lds_budget.PointContext

    def __call__(self, point: str, mod, declined: set | None = None, outcomes: list | None = None):
        passes = self.points.get(point)
        if not passes:
            return mod
        ctx = self.ctx_factory(mod) if self.ctx_factory else None
        res = run_passes(passes, mod, user_options=self.act.options, triton_options=self.triton_options, ctx=ctx,
                         dump_dir=self.act.dump_dir, label=point)
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
        if declined is not None and point in REPLACING_POINTS and res.declined():
            declined.add(point)
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
        self.final_w = self.fixed_w
        self.kernel_remarks = None

    def needed(self) -> bool:
        return bool(self.points) or self.auto or self.act.options.get("waves_per_eu") is not None

    def install(self, stages) -> None:
        if {"ttgir", "llir", "amdgcn"} - set(self.stock):
            return  # not the stage set this plan knows
        stages["ttgir"], stages["llir"], stages["amdgcn"] = self.ttgir, self.llir, self.amdgcn

    # -- ttgir: every decision ----------------------------------------------------------------------------------
    def ttgir(self, src, metadata):
        kernel = kernel_name(src)
        self.kernel_remarks = remarks.KernelRemarks(kernel, remarks.level(self.act.remarks))
        snapshot = export_generic(src)  # make_ttgir mutates src: keep the TTIR for variants and a fallback
        try:
            return self._decide(src, metadata, snapshot)
        except Exception as e:  # noqa: BLE001 - any failure falls back to stock (or raises if strict)
            self.handoff, self.final_w = None, self.fixed_w
            _fallback(self.act, "make_ttgir", kernel, e, metadata)
            return self.stock["ttgir"](import_generic(snapshot, src.context), metadata)
        finally:
            self.kernel_remarks.flush()

    def _point_runner(self):
        return PointRunner(self.act, "hip", self.options, self.kernel_remarks, self._point_context)

    def _make_ttgir(self, src, md, choice):
        from .pipeline import amd_make_ttgir

        run = self._point_runner()
        declined, outcomes = set(), []
        ours_at = lambda pt, m: run(pt, m, declined, outcomes)  # noqa: E731
        if choice:
            mod = amd_make_ttgir(src, md, self.options, ours_at, set(choice), declined)
        else:
            mod = ours_at("ttgir_end", self.stock["ttgir"](src, md))
        return mod, declined, outcomes

    def _decide(self, src, metadata, snapshot):
        interior = {p for p in INTERIOR_POINTS if p in self.points} if _has_dot(snapshot) else set()
        self.engine = Engine(self.backend, self.options, snapshot, src.context, self._make_ttgir)
        chosen = self.engine.ttgir(interior, metadata, first=src)
        if "accelerate_matmul" in interior:
            chosen = self._verify_dot(chosen, metadata)
        compiled = self.engine.compiled(chosen, self.fixed_w)
        if self.auto:
            compiled = self._auto_waves(chosen, metadata)
        metadata.update(chosen.metadata)
        self.handoff = (chosen.module, compiled) if compiled is not None else None
        if self.kernel_remarks.decisions:
            metadata["triton_mfma"] = dict(self.kernel_remarks.decisions)
        if self.engine.trials:
            metadata["triton_mfma_trials"] = self.engine.trials
        return chosen.module

    def _point_context(self, mod):
        from .lds_budget import PointContext

        def stock_amdgcn():  # the module as it stands, compiled to amdgcn (lds_limit="occupancy")
            md = {"num_ctas": getattr(self.options, "num_ctas", 1)}
            copy = import_generic(export_generic(mod), mod.context)
            return self.backend.make_amdgcn(self.backend.make_llir(copy, md, self.options), md, self.options)

        return PointContext("hip", self.options.arch, self.options.num_warps, self.fixed_w, kernel_name(mod),
                            stock_amdgcn)

    # -- mfma-accelerate-dot, verified --------------------------------------------------------------------------
    def _verify_dot(self, ours, metadata):
        """Ours is kept where the kernel is not worse than with Triton's dot layouts (dot_figures.worse_on);
        the comparison compiles both only where the TTGIRs differ."""
        name = "mfma-accelerate-dot"

        def record(decision, reason, evidence, chosen):
            metadata["triton_mfma_accelerate_dot"] = {"decision": decision, "reason": reason, "evidence": evidence}
            self.kernel_remarks.decide(name, f"{decision}, {reason}" if decision != "declined" else reason)
            return chosen

        if "accelerate_matmul" in ours.declined:
            why = next((o.reason for o in ours.outcomes if o.pass_name == name and o.status == "declined"), "")
            return record("declined", f"declined: {why}; Triton's accelerate_matmul ran", "pass", ours)
        if not self.act.options.get("verify_dot", True):
            return record("unverified", "not verified (verify_dot=False); keeping its layouts", "none", ours)
        theirs = self.engine.ttgir(ours.choice - {"accelerate_matmul"}, metadata)
        if theirs.text == ours.text:
            return record("kept", "the same TTGIR as with Triton's dot layouts", "identical", ours)
        w = self.fixed_w
        results = self._compile_each([(ours, w), (theirs, w)])
        c_ours, c_theirs = results
        if isinstance(c_theirs, Exception):
            return record("unverified", f"not verified (the comparison compile failed: {_first_line(c_theirs)}); "
                                        "keeping its layouts", "trial", ours)
        if isinstance(c_ours, Exception):
            if self.act.strict:
                raise c_ours
            remarks.warn(f"triton-mfma: {name}'s layouts could not be compiled or measured on kernel "
                         f"'{kernel_name(ours.module)}' ({_first_line(c_ours)}); using Triton's dot layouts")
            metadata["triton_mfma_fallback"] = f"{name}: {_first_line(c_ours)}"
            return record("failed", _first_line(c_ours), "trial", theirs)
        arch, nw = self.options.arch, self.options.num_warps
        f_ours = dot_figures.of_amdgcn(c_ours.amdgcn, c_ours.metadata["shared"], arch, nw, w)
        f_theirs = dot_figures.of_amdgcn(c_theirs.amdgcn, c_theirs.metadata["shared"], arch, nw, w)
        worse = dot_figures.worse_on(f_theirs, f_ours)
        figures = dot_figures.summary(f_theirs, f_ours)
        if worse:
            return record("reverted", f"reverted to Triton's dot layouts: ours is worse on {'; '.join(worse)} "
                                      f"({figures})", "trial", theirs)
        return record("kept", f"not worse than Triton's dot layouts ({figures})", "trial", ours)

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
    def _auto_waves(self, build, metadata):
        from .autowaves import choose

        base = self.engine.compile([(build, 0)])[0]
        choice = choose(self.options.arch, self.options.num_warps, base,
                        lambda ws: self.engine.compile([(build, w) for w in ws]),
                        trial_all=bool(self.act.options.get("trial_all")))
        self.final_w = choice.chosen.waves_per_eu
        metadata["waves_per_eu"] = self.final_w
        metadata["triton_mfma_waves_per_eu"] = choice.as_metadata()
        self.kernel_remarks.decide("waves_per_eu", choice.reason())
        return choice.chosen.compiled

    # -- llir / amdgcn: the hand-off ----------------------------------------------------------------------------
    def llir(self, src, metadata):
        if self.handoff is not None and src is self.handoff[0]:
            compiled = self.handoff[1]
            metadata.update({k: v for k, v in compiled.metadata.items() if k != "name"})
            return compiled.llir
        return self.backend.make_llir(src, metadata, with_waves_per_eu(self.options, self.final_w))

    def amdgcn(self, src, metadata):
        if self.handoff is not None and src == self.handoff[1].llir:
            metadata.update(self.handoff[1].metadata)
            return self.handoff[1].amdgcn
        return self.backend.make_amdgcn(src, metadata, with_waves_per_eu(self.options, self.final_w))


class GenericCompile:
    """cuda and other backends: the composed NVIDIA make_ttgir where the pipeline point acts, then `ttgir_end`."""

    def __init__(self, act, backend_name, stages, options, capability, composed: bool):
        self.act, self.backend_name, self.options, self.capability = act, backend_name, options, capability
        self.points = act.points_for(backend_name)
        self.stock_ttgir = stages.get("ttgir")
        self.composed = composed

    def install(self, stages) -> None:
        if self.points and self.stock_ttgir is not None:
            stages["ttgir"] = self.ttgir

    def ttgir(self, src, metadata):
        from .pipeline import nvidia_make_ttgir

        kernel_remarks = remarks.KernelRemarks(kernel_name(src), remarks.level(self.act.remarks))
        run = PointRunner(self.act, self.backend_name, self.options, kernel_remarks, self._point_context)
        snapshot = export_generic(src)
        interior = {p for p in INTERIOR_POINTS if p in self.points} if self.composed and _has_dot(snapshot) \
            else set()
        declined = set()
        try:
            if interior:
                try:
                    return nvidia_make_ttgir(src, metadata, self.options, self.capability,
                                             lambda pt, m: run(pt, m, declined), interior, declined)
                except Exception as e:  # noqa: BLE001 - any failure falls back to stock (or raises if strict)
                    _fallback(self.act, "make_ttgir", kernel_name(src), e, metadata)
                    return self.stock_ttgir(import_generic(snapshot, src.context), metadata)
            out = self.stock_ttgir(src, metadata)  # Triton's own failure is not ours to handle
            try:
                return run("ttgir_end", out)
            except PassFailure as e:
                _fallback(self.act, "make_ttgir", e.kernel, e, metadata)
                return out
        finally:
            kernel_remarks.flush()

    def _point_context(self, mod):
        from .lds_budget import PointContext

        return PointContext(self.backend_name, str(getattr(self.options, "arch", self.capability)),
                            getattr(self.options, "num_warps", 4), 0, kernel_name(mod), None)


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
    GenericCompile(act, name, stages, options, capability,
                   composed=(name == "cuda" and language == Language.TRITON)).install(stages)
