"""Activation: install our stages hook into Triton and run the project passes inside its compiles.

`enable(passes=[...], **options)`, `disable()`, `with enabled(...):`. The hook is
`triton.knobs.runtime.add_stages_inspection_hook`; Triton calls it with no arguments for a cache-key
suffix (ours: package version + passes + options, so changing them recompiles) and with
(backend, stages, options, language, capability) to edit the stages. A hook already installed is
chained: its key is appended and it sees (and may wrap) our stages.

Failure policy: if the bridge or one of our passes fails, warn (pass, kernel, reason) and return
stock Triton's result for that stage; TRITON_MFMA_STRICT=1 (or strict=True) raises instead.
TRITON_MFMA_DUMP=<dir> (or dump=<dir>) writes each module before/after each of our pass groups.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import threading
import warnings

from . import __version__
from .autowaves import choose as choose_waves
from .autowaves import with_waves_per_eu
from .bridge import BridgeError, export_generic, import_generic
from .native import MFMARemark, MFMAWarning, PipelineError, run_pipeline_with_diagnostics
from .passes import DEFAULT_PASSES, REGISTRY, REPLACING_POINTS, option_names

GENERAL_OPTIONS = {"strict", "dump"}  # policies: they do not change the code, so not in the cache key
# handled by the hook itself: waves_per_eu (int = force for every kernel, or "auto"); verify_dot (bool, default
# True: keep mfma-accelerate-dot's layouts only where the kernel's amdgcn is not worse than with Triton's own)
HOOK_OPTIONS = {"waves_per_eu", "verify_dot"}


class PassFailure(RuntimeError):
    def __init__(self, pass_names: str, kernel: str, cause: BaseException):
        self.pass_names, self.kernel, self.cause = pass_names, kernel, cause
        super().__init__(f"triton-mfma: {pass_names} failed on kernel '{kernel}': {cause}")


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "0").strip().lower() not in ("", "0", "false", "no", "off")


class Activation:
    """An immutable description of what is enabled: the passes, their options, the policies."""

    def __init__(self, passes=None, **options):
        names = list(DEFAULT_PASSES if passes is None else passes)
        unknown = [n for n in names if n not in REGISTRY]
        if unknown:
            raise ValueError(f"unknown triton-mfma pass(es) {unknown}; known: {sorted(REGISTRY)}")
        bad = set(options) - option_names() - GENERAL_OPTIONS - HOOK_OPTIONS
        if bad:
            raise ValueError(f"unknown triton-mfma option(s) {sorted(bad)}; known: "
                             f"{sorted(option_names() | GENERAL_OPTIONS | HOOK_OPTIONS)}")
        wpe = options.get("waves_per_eu")
        if wpe is not None and wpe != "auto" and not (isinstance(wpe, int) and 0 <= wpe <= 8):
            raise ValueError(f"waves_per_eu must be an int in 0..8 or 'auto', not {wpe!r}")
        by_point = {}
        for n in names:
            p = REGISTRY[n]
            if p.point in REPLACING_POINTS and by_point.get(p.point):
                raise ValueError(f"passes {by_point[p.point][0].name} and {n} both replace '{p.point}'")
            by_point.setdefault(p.point, []).append(p)
        self.passes = tuple(names)
        self.by_point = by_point
        self.options = dict(options)
        self.strict = bool(options.get("strict")) or _env_flag("TRITON_MFMA_STRICT")
        self.dump_dir = options.get("dump") or os.environ.get("TRITON_MFMA_DUMP") or None
        pass_options = {k: v for k, v in sorted(options.items()) if k not in GENERAL_OPTIONS}
        self.key = f"triton_mfma-{__version__}-" + json.dumps({"passes": self.passes, "options": pass_options},
                                                               sort_keys=True, default=str)
        self.hash = hashlib.sha256(self.key.encode()).hexdigest()

    def points_for(self, target_backend: str) -> dict:
        return {pt: [p for p in ps if target_backend in p.targets] for pt, ps in self.by_point.items()
                if any(target_backend in p.targets for p in ps)}


_lock = threading.Lock()
_active: Activation | None = None
_previous_hook = None  # the hook that was installed when we installed ours
_dump_counter = 0


def current() -> Activation | None:
    return _active


def is_enabled() -> bool:
    return _active is not None


def enable(passes=None, **options) -> None:
    """Activate triton-mfma for every later compile in this process (replaces a previous enable)."""
    global _active, _previous_hook
    act = Activation(passes, **options)
    from triton import knobs

    with _lock:
        if knobs.runtime.add_stages_inspection_hook is not _stages_hook:
            _previous_hook = knobs.runtime.add_stages_inspection_hook
            knobs.runtime.add_stages_inspection_hook = _stages_hook
        _active = act


def disable() -> None:
    """Deactivate; the hook that was installed before ours is put back."""
    global _active, _previous_hook
    from triton import knobs

    with _lock:
        if knobs.runtime.add_stages_inspection_hook is _stages_hook:
            knobs.runtime.add_stages_inspection_hook = _previous_hook
        _previous_hook = None
        _active = None


@contextlib.contextmanager
def enabled(passes=None, **options):
    """`with triton_mfma.enabled(passes=[...], lds_limit=...):` — active inside the block only."""
    saved = _active
    enable(passes, **options)
    try:
        yield _active
    finally:
        if saved is None:
            disable()
        else:
            with _lock:
                globals()["_active"] = saved


def _kernel_name(mod) -> str:
    try:
        return mod.get_entry_func_name()
    except Exception:  # a module without a public function
        return "<unknown>"


def _dump(act: Activation, kernel: str, label: str, text: str) -> None:
    global _dump_counter
    if not act.dump_dir:
        return
    with _lock:
        _dump_counter += 1
        n = _dump_counter
    d = os.path.join(act.dump_dir, re.sub(r"[^A-Za-z0-9_.-]", "_", kernel))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, f"{n:04d}-{label}.mlir"), "w") as f:
        f.write(text)


def _report(diagnostics, kernel: str) -> None:
    for d in diagnostics:
        if d.severity == "warning":
            warnings.warn(f"[{kernel}] {d}", MFMAWarning, stacklevel=3)
        elif d.severity == "remark":
            warnings.warn(f"[{kernel}] {d}", MFMARemark, stacklevel=3)


def run_at_point(act: Activation, backend_name: str, point: str, mod, triton_options, ctx=None, declined=None):
    """Run the passes placed at `point` on `mod` through the bridge; returns the (new) module.

    `ctx` (lds_budget.PointContext) lets a pass resolve symbolic options (ProjectPass.resolve). A pass that
    replaces a Triton pass may decline a module (IR unchanged, a remark "<pass> declined: ..."); the point is
    then added to `declined` (a set), and the composed make_ttgir runs Triton's own pass there."""
    todo = act.points_for(backend_name).get(point)
    if not todo:
        return mod
    kernel = _kernel_name(mod)
    names = ",".join(p.name for p in todo)
    try:
        elements = [p.pipeline_element(p.resolve(act.options, ctx) if p.resolve else act.options, triton_options)
                    for p in todo]
    except ValueError as e:
        raise PassFailure(names, kernel, e) from e
    pipeline = "builtin.module(" + ",".join(elements) + ")"
    try:
        before = export_generic(mod)
        _dump(act, kernel, f"{point}-before-{names}", before)
        after, diagnostics = run_pipeline_with_diagnostics(before, pipeline)
        _report(diagnostics, kernel)
        if declined is not None and any(d.severity == "remark" and f"{p.name} declined: " in d.message
                                        for d in diagnostics for p in todo):
            declined.add(point)
        _dump(act, kernel, f"{point}-after-{names}", after)
        return import_generic(after, mod.context, pass_name=names)
    except (PipelineError, BridgeError, OSError) as e:
        raise PassFailure(names, kernel, e) from e


def _fallback(act: Activation, stage: str, kernel: str, err: BaseException):
    if act.strict:
        raise err
    warnings.warn(f"{err}; using stock Triton's {stage} for this kernel", MFMAWarning, stacklevel=3)


def _llir_context(backend, src, metadata, opts):
    """PointContext at llir_begin (hip): can compile the module as it stands to amdgcn, once."""
    from .lds_budget import PointContext

    cache = {}

    def stock_amdgcn():
        if "amdgcn" not in cache:
            copy = import_generic(export_generic(src), src.context)
            md = dict(metadata)
            cache["amdgcn"] = backend.make_amdgcn(backend.make_llir(copy, md, opts), md, opts)
        return cache["amdgcn"]

    return PointContext("hip", opts.arch, opts.num_warps, getattr(opts, "waves_per_eu", 0) or 0,
                        _kernel_name(src), stock_amdgcn)


def _generic_context(backend_name, src, opts):
    from .lds_budget import PointContext

    return PointContext(backend_name, str(getattr(opts, "arch", "")), getattr(opts, "num_warps", 4), 0,
                        _kernel_name(src), None)


def _has_dot(generic_text: str) -> bool:
    return '"tt.dot"' in generic_text or '"tt.dot_scaled"' in generic_text


def _verified_ttgir(act, src, snapshot, metadata, options, ttgir_points, make_run, to_amdgcn, reuse=None):
    """mfma-accelerate-dot, verified: make_ttgir with our dot layouts and with Triton's own (every other pass
    the same), both compiled to amdgcn; ours is kept unless it is worse on a figure of dot_figures (occupancy,
    spills, main-loop dot cycles, main-loop LDS ops). Returns the chosen TTGIR; a remark says which and why.
    `to_amdgcn(module, metadata) -> (llir, amdgcn)`; with `reuse` (a dict) the chosen module's trial results
    are left there, keyed by its generic text, for the llir/amdgcn stages. `make_run(declined)` gives the
    callback that runs our passes at a point and records the points whose pass declined in `declined`."""
    from . import dot_figures
    from .pipeline import amd_make_ttgir

    kernel = _kernel_name(src)
    md_ours = dict(metadata)
    declined = set()
    ours = amd_make_ttgir(src, md_ours, options, make_run(declined), ttgir_points, declined)
    if "accelerate_matmul" in declined:  # Triton's accelerate_matmul ran: nothing to compare
        metadata.update(md_ours)
        metadata["triton_mfma_accelerate_dot"] = {"decision": "declined", "reason": "see the pass's remark"}
        return ours
    wpe = options.waves_per_eu if isinstance(getattr(options, "waves_per_eu", 0), int) else 0

    trials = {}

    def figures(mod, md):
        text = export_generic(mod)
        md = dict(md)
        llir, amdgcn = to_amdgcn(import_generic(text, mod.context), md)
        trials[id(mod)] = (text, llir, amdgcn, md)
        return dot_figures.of_amdgcn(amdgcn, md["shared"], options.arch, options.num_warps, wpe)

    def why(e):
        return str(e).splitlines()[0] if str(e) else type(e).__name__

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MFMARemark)  # the trial compiles repeat the other passes' remarks
        try:
            md_stock = dict(metadata)
            stock_declined = set()
            stock = amd_make_ttgir(import_generic(snapshot, src.context), md_stock, options,
                                   make_run(stock_declined), ttgir_points - {"accelerate_matmul"}, stock_declined)
            f_stock = figures(stock, md_stock)
        except Exception as e:  # noqa: BLE001 - without a comparison ours stands, as unverified
            stock = None
            stock_error = why(e)
        try:
            f_ours = figures(ours, md_ours)
        except Exception as e:  # noqa: BLE001 - ours does not compile: the failure policy decides
            if act.strict or stock is None:
                raise
            warnings.warn(f"triton-mfma: mfma-accelerate-dot's layouts could not be compiled or measured on kernel "
                          f"'{kernel}' ({why(e)}); using Triton's dot layouts", MFMAWarning, stacklevel=3)
            metadata.update(md_stock)
            metadata["triton_mfma_accelerate_dot"] = {"decision": "failed", "reason": why(e)}
            return stock

    def choose(chosen, md_chosen, decision, remark):
        warnings.warn(f"[{kernel}] mfma-accelerate-dot: {remark}", MFMARemark, stacklevel=4)
        metadata.update(md_chosen)
        # kept with the compiled kernel (and its cache entry), like waves_per_eu="auto"'s decision
        metadata["triton_mfma_accelerate_dot"] = {"decision": decision, "reason": remark}
        if reuse is not None:  # the next stages get the chosen TTGIR: hand them its trial llir and amdgcn
            text, llir, amdgcn, md_after = trials[id(chosen)]
            reuse[text] = (llir, amdgcn, md_after)
        return chosen

    if stock is None:
        return choose(ours, md_ours, "unverified", f"not verified (the comparison compile failed: {stock_error}); "
                                                   "keeping its layouts")
    worse = dot_figures.worse_on(f_stock, f_ours)
    figures_text = dot_figures.summary(f_stock, f_ours)
    if worse:
        return choose(stock, md_stock, "reverted", f"reverted to Triton's dot layouts: ours is worse on "
                                                   f"{'; '.join(worse)} ({figures_text})")
    return choose(ours, md_ours, "kept", f"kept, not worse than Triton's dot layouts ({figures_text})")


def _reuse_trial_compiles(stages, reuse: dict) -> None:
    """llir and amdgcn stages that return the verified TTGIR's trial results instead of compiling it again."""
    inner_llir, inner_amdgcn = stages["llir"], stages["amdgcn"]

    def llir(src, metadata):
        hit = reuse.pop(export_generic(src), None) if reuse else None
        if hit is None:
            return inner_llir(src, metadata)
        text, amdgcn, md = hit
        metadata.update(md)
        reuse[("amdgcn", text)] = amdgcn
        return text

    def amdgcn(src, metadata):
        hit = reuse.pop(("amdgcn", src), None)
        return hit if hit is not None else inner_amdgcn(src, metadata)

    stages["llir"], stages["amdgcn"] = llir, amdgcn


def _wrap_hip_stages(act: Activation, backend, stages, options) -> None:
    from .pipeline import amd_make_ttgir

    points = act.points_for("hip")
    stock_ttgir, stock_llir = stages.get("ttgir"), stages.get("llir")  # noqa: F841
    ttgir_points = set(points) - {"llir_begin"}

    def make_llir_with(src, metadata, opts):
        if "llir_begin" in points:
            try:
                src = run_at_point(act, "hip", "llir_begin", src, opts, _llir_context(backend, src, metadata, opts))
            except PassFailure as e:
                _fallback(act, "make_llir input", e.kernel, e)
        return backend.make_llir(src, metadata, opts)

    verify = "accelerate_matmul" in ttgir_points and act.options.get("verify_dot", True)
    forced = act.options.get("waves_per_eu")
    auto = forced == "auto" or getattr(options, "waves_per_eu", 0) == "auto"
    if auto:
        forced = None
    if forced is not None:
        options = with_waves_per_eu(options, forced)
    # the verified TTGIR's trial llir/amdgcn, reused by the next stages (not with waves_per_eu="auto", whose
    # llir stage compiles its own candidates)
    reuse = {} if verify and not auto else None

    # trial compiles of the verification: with waves_per_eu="auto" they use Triton's default (0)
    trial_options = with_waves_per_eu(options, 0) if auto else options

    def to_amdgcn(m, md):
        llir = make_llir_with(m, md, trial_options)
        return llir, backend.make_amdgcn(llir, md, trial_options)

    if ttgir_points and stock_ttgir is not None:
        def ttgir(src, metadata):
            snapshot = export_generic(src)  # make_ttgir mutates src: keep the TTIR for a fallback

            def make_run(declined):
                return lambda pt, m: run_at_point(act, "hip", pt, m, options, declined=declined)

            try:
                if verify and _has_dot(snapshot):
                    return _verified_ttgir(act, src, snapshot, metadata, options, ttgir_points, make_run, to_amdgcn,
                                           reuse)
                declined = set()
                return amd_make_ttgir(src, metadata, options, make_run(declined), ttgir_points, declined)
            except Exception as e:  # noqa: BLE001 - any failure falls back to stock (or raises if strict)
                _fallback(act, "make_ttgir", _kernel_name(src), e)
                return stock_ttgir(import_generic(snapshot, src.context), metadata)

        stages["ttgir"] = ttgir

    if stock_llir is not None and ("llir_begin" in points or auto or forced is not None):
        if auto:
            _auto_waves_stages(backend, stages, options, make_llir_with)
        else:
            stages["llir"] = lambda src, metadata: make_llir_with(src, metadata, options)
    if reuse is not None and "llir" in stages and "amdgcn" in stages:
        _reuse_trial_compiles(stages, reuse)


def _auto_waves_stages(backend, stages, options, make_llir_with) -> None:
    """waves_per_eu="auto": the llir stage compiles the candidates and keeps the best; the amdgcn stage returns
    the winner's amdgcn instead of compiling it again."""
    chosen_amdgcn = {}  # llir text -> its amdgcn, so the amdgcn stage does not redo the winner

    def llir(src, metadata):
        text = export_generic(src)

        def compile_with(w):
            md = dict(metadata)
            opts = with_waves_per_eu(options, w)
            ll = make_llir_with(import_generic(text, src.context), md, opts)
            return ll, backend.make_amdgcn(ll, md, opts), md

        choice = choose_waves(options.arch, options.num_warps, compile_with)
        metadata.update(choice.chosen.metadata)
        metadata["waves_per_eu"] = choice.chosen.waves_per_eu
        metadata["triton_mfma_waves_per_eu"] = choice.as_metadata()
        warnings.warn(f"[{metadata.get('name', _kernel_name(src))}] {choice.reason()}", MFMARemark, stacklevel=2)
        chosen_amdgcn[choice.chosen.llir] = choice.chosen.amdgcn
        return choice.chosen.llir

    stock_amdgcn = stages["amdgcn"]

    def amdgcn(src, metadata):
        if src in chosen_amdgcn:
            return chosen_amdgcn.pop(src)
        return stock_amdgcn(src, metadata)

    stages["llir"], stages["amdgcn"] = llir, amdgcn


STAGE_BOUNDARY_POINTS = {"ttgir_end", "llir_begin"}


def _wrap_cuda_stages(act: Activation, backend, stages, options, capability) -> None:
    """cuda: interior points (e.g. `pipeline`) need the composed make_ttgir (pipeline.nvidia_make_ttgir);
    with only stage-boundary points the generic wrapping is used, as before."""
    from .pipeline import nvidia_make_ttgir

    points = act.points_for("cuda")
    ttgir_points = set(points) - {"llir_begin"}
    stock_ttgir = stages.get("ttgir")
    if not (ttgir_points - STAGE_BOUNDARY_POINTS) or stock_ttgir is None:
        _wrap_generic_stages(act, "cuda", stages, options)
        return

    def ttgir(src, metadata):
        snapshot = export_generic(src)  # make_ttgir mutates src: keep the TTIR for a fallback
        declined = set()
        try:
            return nvidia_make_ttgir(src, metadata, options, capability,
                                     lambda pt, m: run_at_point(act, "cuda", pt, m, options, declined=declined),
                                     ttgir_points, declined)
        except Exception as e:  # noqa: BLE001 - any failure falls back to stock (or raises if strict)
            _fallback(act, "make_ttgir", _kernel_name(src), e)
            return stock_ttgir(import_generic(snapshot, src.context), metadata)

    stages["ttgir"] = ttgir
    if "llir_begin" in points:
        _wrap_generic_stages(act, "cuda", stages, options, only=("llir",))


def _wrap_generic_stages(act: Activation, backend_name: str, stages, options, only=("ttgir", "llir")) -> None:
    """Stage-boundary points only (`ttgir_end` after make_ttgir, `llir_begin` before make_llir), for backends
    without a composed make_ttgir and for cuda when no interior point is active."""
    points = act.points_for(backend_name)
    for stage, point in (("ttgir", "ttgir_end"), ("llir", "llir_begin")):
        if stage not in only or point not in points or stage not in stages:
            continue
        stock = stages[stage]

        def wrapped(src, metadata, stock=stock, point=point, stage=stage):
            if stage == "ttgir":
                out = stock(src, metadata)
                try:
                    return run_at_point(act, backend_name, point, out, options)
                except PassFailure as e:
                    _fallback(act, f"make_{stage}", e.kernel, e)
                    return out
            try:
                src = run_at_point(act, backend_name, point, src, options, _generic_context(backend_name, src, options))
            except PassFailure as e:
                _fallback(act, f"make_{stage} input", e.kernel, e)
            return stock(src, metadata)

        stages[stage] = wrapped


def _stages_hook(*args):
    act, prev = _active, _previous_hook
    if not args:  # Triton asks for the cache-key suffix
        key, h = (act.key, act.hash) if act is not None else ("", "")
        if prev is not None:
            pk, ph = prev()
            key, h = key + pk, hashlib.sha256((h + str(ph)).encode()).hexdigest()
        return key, h
    backend, stages, options, language, capability = args
    if act is not None:
        from triton.backends.compiler import Language

        target = getattr(backend, "target", None)
        name = getattr(target, "backend", "")
        if language == Language.TRITON and name == "hip":
            _wrap_hip_stages(act, backend, stages, options)
        elif language == Language.TRITON and name == "cuda":
            _wrap_cuda_stages(act, backend, stages, options, capability)
        elif name:
            _wrap_generic_stages(act, name, stages, options)
    if prev is not None:
        prev(backend, stages, options, language, capability)
