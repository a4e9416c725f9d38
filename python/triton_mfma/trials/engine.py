"""The variant-compile engine: variants of one kernel compiled once each, sharing what they have in common.

Every decision that compares compiled kernels (decisions/: mfma-accelerate-dot's verification, the stream
pipeliner's check, grid order's check, waves_per_eu "auto"; lds_limit "occupancy") gets its variants from this
engine, through `Policy`, which runs the decisions and alone decides, from what each declares, what is built aside,
prefetched, gated or cancelled (docs/architecture.md). One kernel's variants share:

  TTIR ─ make_ttgir(choice) ─► TTGIR ─ make_llir ─► LLVM IR (w=0) ─ + "amdgpu-waves-per-eu"="w,w" ─► make_amdgcn(w)

  - a TTGIR per *choice* (the insertion points where our pass runs instead of Triton's), built once; two choices
    that give the same TTGIR text share everything after it;
  - a build that first differs from an earlier one at point p starts at p, from the very module the earlier
    build had there (the steps before p are the same; that module is the earlier build's spare, since the build
    went on with what our passes returned), and stops at a later point where its module is an earlier build's
    (up to names and locations) whose choice agrees from there on: the rest would be the same steps;
  - one make_llir per TTGIR: waves_per_eu only adds the LLVM function attribute `amdgpu-waves-per-eu` (Triton's
    make_llir sets nothing else from it), so every candidate's LLVM IR is the w=0 text with the attribute
    inserted where LLVM prints it (test_engine.py checks it equals make_llir's own output);
  - one make_amdgcn per (TTGIR, w), memoised;
  - the chosen variant's LLVM IR and amdgcn are handed to Triton's llir/amdgcn stages, never compiled again;
  - where a core is idle, the variant the first decision compares ours with is built *aside*: from the TTIR, in
    a context of its own, on another thread, while ours is built (Triton's passes release the GIL: two
    make_ttgir take 0.6 of their sequential time). Resuming it after ours would put a second make_ttgir on the
    compiling thread before its trial compile could start; aside, both trial compiles start together and the
    steps the two share before they differ run twice, beside each other.

Trial compiles of independent variants run concurrently in threads when the machine has idle cores (Triton's
make_llir and make_amdgcn release the GIL; on a 2-core machine two concurrent compiles take 0.66-0.72 of their
sequential time, memory bandwidth and caches being shared); TRITON_MFMA_TRIAL_THREADS=1 keeps them sequential.
A trial compiles a copy of the TTGIR in a context of its own, except where the thread that built a variant
compiles it next (`llir_here`: ours on the compiling thread, an aside build on its own): make_llir then lowers the
very module (parsing a copy cost 4-9 ms before each compile, and Triton's parser holds the GIL), printed first:
Triton asks the ttgir stage's result for its text only (bridge.LoweredModule).
Where a decision's model reads one compile and may still need a second (accelerate-dot's kWidth-only
differences), the second is started beside the first on an idle core (`prefetch`); where the model then tells,
the speculative compile is dropped (`cancel`: not started, or stopped after its make_llir, before make_amdgcn, the
longer step on dot kernels), and the stage waits for what still runs before it returns (`settle`). A speculative
compile started before a model decides whether it is needed can be *gated*: it waits after its make_llir until
the model has told (`cancel`) or not (`release`), so a compile the model made unnecessary never runs make_amdgcn
(the stage would otherwise wait for it: make_amdgcn cannot be stopped once started). That pays where the model
decides before the compile's LLVM IR is done (the stream pipeliner's LDS model); where the model reads another
compile, a gate would hold make_amdgcn back where it could have run beside that compile's.
"""
from __future__ import annotations

import contextlib
import copy
import functools
import threading
import time
from concurrent.futures import Future
from typing import NamedTuple

from ..composition.points import COMPARE_AFTER, POINT_ORDER, variants_at
from ..ir.bridge import LoweredModule, import_generic, print_module
from ..ir.llvm_ir import llir_with_fn_attr, llir_with_waves
from ..ir.runner import kernel_name
from ..ir import bounded
from .threads import executor, submit_speculative, trial_threads
from .variants import (Build, Cancelled, Compiled, PointBoard, Resume, at_point, first_difference,
                       steps_before)


class _Speculative(NamedTuple):
    """A compile started ahead (`Engine.prefetch`): its future, the event that drops it before make_amdgcn, and
    the gate it waits at after make_llir (set from the start unless gated)."""
    future: Future
    cancel: threading.Event
    gate: threading.Event


class _Aside(NamedTuple):
    """A TTGIR built on another thread (`Engine.aside`): the build when done, and the job that goes on to
    compile it at waves_per_eu `w` (None: it does not)."""
    built: Future
    job: _Speculative
    w: int | None


def fresh_context(backend):
    """A Triton MLIR context of its own, with Triton's dialects and `backend`'s loaded: for a copy of a module
    compiled beside (or instead of) the one Triton's compile holds."""
    from triton._C.libtriton import ir

    ctx = ir.context()
    ir.load_dialects(ctx)
    backend.load_dialects(ctx)
    return ctx


def with_waves_per_eu(options, w):
    """A copy of Triton's frozen HIPOptions with another waves_per_eu (no __post_init__ re-run)."""
    opts = copy.copy(options)
    object.__setattr__(opts, "waves_per_eu", w)
    return opts


def with_num_stages(options, n):
    """A copy of Triton's frozen options with another num_stages (no __post_init__ re-run)."""
    opts = copy.copy(options)
    object.__setattr__(opts, "num_stages", n)
    return opts


class Engine:
    """Variants of one hip kernel in one `triton.compile`.

    `make_ttgir(module, metadata, choice, resume=None) -> Made` builds a TTGIR from a TTIR module (or from
    `resume`, a `Resume`) with our passes at the points in `choice`; with `aside=True` it runs on another thread
    and returns (Made, a callable that replays the remarks its passes made, on the thread that adopts the build);
    `backend`/`options` are Triton's; `lower_in_place`: whether a module may be lowered in place (`llir_here`),
    i.e. whether the stage handing the chosen TTGIR on only asks it for its text."""

    def __init__(self, backend, options, snapshot: str, context, make_ttgir, lower_in_place: bool = False):
        self.backend = backend
        self.options = options
        self.snapshot = snapshot  # the TTIR, generic text
        self.context = context
        self._make_ttgir = make_ttgir
        self.lower_in_place = lower_in_place
        self._builds: dict[frozenset, Build] = {}
        self._llir: dict[str, tuple[str, dict]] = {}  # TTGIR text -> (w=0 LLVM IR, metadata after make_llir)
        self._compiled: dict[tuple[str, int], Compiled] = {}
        # (TTGIR text, w) -> a speculative compile not yet waited for; cancelled ones still running are in _dropped
        self._inflight: dict[tuple[str, int], _Speculative] = {}
        self._dropped: list = []
        self._lock = threading.Lock()
        self._aside: dict[frozenset, _Aside] = {}  # choice -> its TTGIR being built on another core (`aside`)
        self.board = PointBoard()  # what each build returned at each point (`aside` compares there)
        self.trials = 0  # make_amdgcn calls the engine made (what the decisions cost)
        self.longest_s = 0.0  # the CPU time of the longest compile of this kernel so far (`noted`)
        # the longest make_amdgcn alone: what a candidate of an LLVM IR already made costs (`_make_amdgcn`)
        self.longest_backend_s = 0.0
        self.first_s = 0.0  # the CPU time of its first compile: what the compile budget scales with (`noted`)
        self.first: Compiled | None = None  # its first compile: its stakes scale the budget (`noted`)
        # a compile of Triton's kernel at the waves the kernel asks, where the policy made one: stock's own compile,
        # what the budget scales with once known (decisions.cpu_cap)
        self.stock_s = 0.0
        self.spent_s = 0.0  # the CPU time of all its compiles and variants' TTGIR builds so far (`noted`, `spend`)
        # the thread Triton compiles on, and its CPU clock when this kernel's engine began: everything it does for
        # the kernel (passes, the bridge's texts, reading figures) counts, beside what other threads do (`cpu_s`)
        self._owner, self._owner_t0 = threading.get_ident(), time.thread_time()
        self._elsewhere_s = 0.0  # CPU of compiles and builds made on other threads (`noted`, `spend`)
        self._llir_cpu: dict[str, float] = {}  # build text -> CPU seconds of its make_llir
        # (point, steps before it): Triton's step there returned what our passes did, on the module builds with
        # those steps have there (`note_same_step`)
        self._same_steps: set[tuple[str, frozenset]] = set()
        self._here: set[int] = set()  # ids of builds `compile` lowers in place where it is asked for them (`lower_here`)
        self._limit: tuple[float, float] | None = None  # `bounded`: (CPU seconds allowed, spent_s when it opened)

    # -- TTGIR -----------------------------------------------------------------------------------------------
    def variant(self, choice, metadata: dict, first=None) -> Build:
        """The TTGIR with our passes at the points in `choice` (memoised). `first`: the TTIR module itself, for
        the first build (Triton's own module becomes that TTGIR). A later build starts where it first differs
        from an earlier one, from the module that build had there (`Resume`), and ends early where its module
        becomes the earlier build's again; else it starts from the TTIR snapshot."""
        choice = frozenset(choice)
        if choice in self._builds:
            return self._builds[choice]
        ahead = self._aside.pop(choice, None)
        if ahead is not None:
            built = self._adopt(choice, ahead)
            if built is not None:
                return built
        same = self._same_as_built(choice)
        if same is not None:
            self._builds[choice] = same
            return same
        md = dict(metadata)
        resume = self._resume_for(choice) if first is None else None
        t0 = time.thread_time()
        if resume is None:
            src = first if first is not None else import_generic(self.snapshot, self.context, parsed_before=True)
            build = Build.made(choice, md, self._make_ttgir(src, md, choice))
        else:
            build = Build.made(choice, md, self._make_ttgir(None, md, choice, resume))
        if first is None:  # a variant's build: a cost stock has not (the first is what its make_ttgir does)
            self.spend(time.thread_time() - t0)
        self._builds[choice] = build
        self._note_declined(build)
        return build

    # -- equal steps --------------------------------------------------------------------------------------------
    def note_same_step(self, point: str, choice) -> None:
        """Triton's step at `point` returned, on the module the builds of `choice` have there, what our passes
        returned on it (up to names and locations; or ours declined there and Triton's step ran): from that module,
        a build with our passes at `point` and one without go on with the same module, so every choice with the
        same steps before `point` gives one TTGIR with or without `point` (`ttgir` builds it once)."""
        key = (point, steps_before(frozenset(choice), point))
        with self._lock:
            self._same_steps.add(key)

    def _note_declined(self, build: Build) -> None:
        for point in build.declined:
            if point in POINT_ORDER and point in build.choice and not variants_at(build.choice, point):
                self.note_same_step(point, build.choice)

    def _canonical_choice(self, choice, same=None) -> frozenset:
        """`choice` without the points where our passes and Triton's step give the same module (`note_same_step`),
        in pipeline order: a point's steps before it are those of the choice so reduced, compared with the steps
        noted, reduced alike (an equality seen later reduces what was noted before it)."""
        if same is None:
            with self._lock:
                same = set(self._same_steps)
        out = set(choice)
        for point in POINT_ORDER:
            if point in out and not variants_at(out, point):  # the steps noted are those of the plain pass
                before = steps_before(frozenset(out), point)
                if any(p == point and self._canonical_choice(steps, same) == before for p, steps in same):
                    out.discard(point)
        return frozenset(out)

    def _same_as_built(self, choice: frozenset) -> Build | None:
        """A build already made whose choice differs from `choice` only at points where the steps are the same
        (the very TTGIR `choice` would give), else None."""
        if not self._same_steps:
            return None
        mine = self._canonical_choice(choice)
        return next((b for c, b in list(self._builds.items()) if self._canonical_choice(c) == mine), None)

    def aside(self, choice, metadata: dict, w: int | None = None, diverges=None) -> None:
        """Start building the TTGIR of `choice` on an idle core, from the TTIR snapshot in a context of its own,
        while this thread builds another: the variant the first decision compares with, so that its trial
        compile starts as early as the chosen one's instead of after a second make_ttgir on this thread (a
        resumed build shares the steps before the first differing point; these few steps now run beside, not
        after). With `w`, the same job goes on to compile it at that waves_per_eu once released, gated before its
        make_llir (`prefetch` or `compile` of it releases it, `cancel` drops it: the decision may find the TTGIRs
        equal, or its model may tell). `diverges`: (point, ours' choice), the point where `choice` differs from the
        build this thread makes: right after Triton's step there the aside stops where its module is what ours'
        passes returned (`SameAsOurs`: the TTGIRs are then equal, and this core's build would be for nothing).
        `ttgir(choice)` adopts the build; its remarks are replayed on this thread then."""
        choice = frozenset(choice)
        if choice in self._builds or choice in self._aside or trial_threads(2) < 2 or \
                self._same_as_built(choice) is not None:
            return
        md = dict(metadata)
        built: Future = Future()
        cancel, gate = threading.Event(), threading.Event()
        cut = None if diverges is None else \
            (diverges[0], functools.partial(self.board.wait, frozenset(diverges[1]), diverges[0]))

        def job():
            try:
                t0 = time.thread_time()
                src = import_generic(self.snapshot, self._fresh_context(), parsed_before=True)
                made, replay = self._make_ttgir(src, md, choice, aside=True, cut=cut)
                build = Build.made(choice, md, made)
                self.spend(time.thread_time() - t0)
                if w is not None and self.lower_in_place:  # lowered below: no later build may start from its modules
                    build.spare = {}
            except BaseException as e:
                built.set_exception(e)
                raise
            built.set_result((build, replay))
            if w is None:
                return None
            # its compile waits until a decision needs it (prefetch, compile): where the TTGIRs turn out equal or
            # a model decides, nothing of it runs (CPU time is the cost where cores are busy, issue 35)
            gate.wait()
            if cancel.is_set():
                return None
            self.llir_here(build)
            return self._compile_one(build, w, cancel, gate)

        self._aside[choice] = _Aside(built, _Speculative(submit_speculative(job, cancel=cancel, gate=gate), cancel,
                                                         gate), w)

    def _adopt(self, choice: frozenset, ahead: "_Aside") -> Build | None:
        """The Build an `aside` job made, replaying its remarks here (its compile, if it has one, is now a
        speculative compile like `prefetch`'s, gated); None where it failed (the caller builds the variant again
        on this thread, where the failure is reported as any build's)."""
        try:
            build, replay = ahead.built.result()
        except Exception:  # noqa: BLE001 - rebuilt by the caller
            return None
        except BaseException:  # an interrupt while it waits: the job, out of _aside, is no one's to settle
            self._drop(ahead.job)
            raise
        replay()
        self._builds[choice] = build
        self._note_declined(build)
        if ahead.w is not None:
            key = (build.text, ahead.w)
            if key in self._inflight or key in self._compiled:  # the very text of another build: compiled there
                self._drop(ahead.job)
            else:
                self._inflight[key] = ahead.job
        return build

    def _resume_for(self, choice: frozenset) -> Resume | None:
        """The earlier build sharing the most steps with `choice` whose module at the first differing point is
        still spare; None if there is none."""
        best = None
        for b in self._builds.values():
            i = first_difference(b.choice, choice)
            if i is not None and POINT_ORDER[i] in b.spare and (best is None or i > best[0]):
                best = (i, b)
        if best is None:
            return None
        i, base = best
        compare = {}
        for j in range(i + 1, len(POINT_ORDER)):
            later = [b for b in self._builds.values() if POINT_ORDER[j] in b.before
                     and all(at_point(b.choice, q) == at_point(choice, q) for q in POINT_ORDER[j:])]
            if later:
                compare[POINT_ORDER[j]] = later
        point = POINT_ORDER[i]
        compare_after = []
        if point in COMPARE_AFTER and point not in choice:  # Triton's step runs there in the new build
            compare_after = [b for b in self._builds.values() if point in b.after
                             and all(at_point(b.choice, q) == at_point(choice, q) for q in POINT_ORDER[i + 1:])]
        return Resume(point, base.spare.pop(point), base, compare, compare_after)

    # -- LLVM IR and amdgcn ----------------------------------------------------------------------------------
    def _fresh_context(self):
        return fresh_context(self.backend)

    def llir_here(self, build: Build) -> None:
        """make_llir of `build`'s own module, on this thread (no copy parsed): for the thread that built it, which
        nothing else uses its context while it runs. The module is printed first and `build.module` becomes its
        LoweredModule; a build later found equal to this one shares that. Its LLVM IR is memoised as `_llir0`'s.
        Nothing is done without `lower_in_place` (the variant compiles a parsed copy when a decision asks)."""
        if not self.lower_in_place or self.lowered(build):
            return
        with self._lock:
            if build.text in self._llir:
                return
        module = build.module
        build.module = LoweredModule(print_module(module), build.text, kernel_name(module), self._fresh_context)
        self._lower(build, module)

    def lower_here(self, build: Build) -> None:
        """Where `compile` is asked for `build` (made on this thread) before it is lowered, it lowers the very
        module on this thread first (`llir_here`: no copy parsed), as the thread that built it; nothing is lowered
        where it is never compiled."""
        self._here.add(id(build))

    def _llir0(self, build: Build) -> tuple[str, dict]:
        with self._lock:
            hit = self._llir.get(build.text)
        if hit is not None:
            return hit
        return self._lower(build, import_generic(build.text, self._fresh_context(), parsed_before=True))

    def _lower(self, build: Build, module) -> tuple[str, dict]:
        """make_llir (w=0) of `module`, `build`'s TTGIR, memoised by its text: (LLVM IR, metadata after it)."""
        md = dict(build.metadata)
        t0 = time.thread_time()
        llir = self.backend.make_llir(module, md, with_waves_per_eu(self.options, 0))
        with self._lock:
            self._llir_cpu.setdefault(build.text, time.thread_time() - t0)
            self._llir.setdefault(build.text, (llir, md))
            return self._llir[build.text]

    def _compile_one(self, build: Build, w: int, cancel: threading.Event | None = None,
                     gate: threading.Event | None = None) -> Compiled:
        key = (build.text, w)
        with self._lock:
            hit = self._compiled.get(key)
        if hit is not None:
            return hit
        if cancel is not None and cancel.is_set():
            raise Cancelled(key[1])
        llir0, md0 = self._llir0(build)
        if gate is not None:
            gate.wait()  # set by release, cancel, compile or settle
        if cancel is not None and cancel.is_set():
            raise Cancelled(key[1])

        def remake(opts):  # the attribute cannot be inserted exactly: let make_llir do it
            md = dict(build.metadata)
            copy = import_generic(build.text, self._fresh_context(), parsed_before=True)
            return md, self.backend.make_llir(copy, md, opts)

        result = self._amdgcn(llir0, md0, w, remake, self._llir_cpu.get(key[0], 0.0))
        with self._lock:
            self._compiled.setdefault(key, result)
            return self._compiled[key]

    def _amdgcn(self, llir0: str, md0: dict, w: int, remake=None, llir_s: float = 0.0) -> Compiled:
        """One candidate from a w=0 LLVM IR: the waves_per_eu attribute inserted, then make_amdgcn. Where it
        cannot be inserted exactly, `remake(options) -> (metadata, LLVM IR)` gives make_llir's own (else
        ValueError). `llir_s`: the CPU time of the make_llir it comes from, counted in its cost."""
        llir = llir_with_waves(llir0, w)
        md = dict(md0)
        opts = with_waves_per_eu(self.options, w)
        if llir is None:
            if remake is None:
                raise ValueError("the waves_per_eu attribute cannot be inserted exactly")
            md, llir = remake(opts)
        return self._make_amdgcn(llir, md, w, llir_s)

    @contextlib.contextmanager
    def bounded(self, limit_s: float | None):
        """While open, every make_amdgcn the engine makes runs in a child process, all of them together stopped at
        `limit_s` CPU seconds (`_make_amdgcn`; bounded.OverLimit in place of one past it); None: as
        before, in this process."""
        if limit_s is None:
            yield
            return
        self._limit = (limit_s, self.spent_s)
        try:
            yield
        finally:
            self._limit = None

    def _make_amdgcn(self, llir: str, md: dict, w: int, llir_s: float = 0.0) -> Compiled:
        """make_amdgcn of `llir` at waves_per_eu `w`, counted as a trial and in the compile budget (`llir_s`: the
        CPU time of the make_llir it comes from); under `bounded`, in a child process (ir.bounded) with the seconds
        left: bounded.OverLimit where they ran out, the child's CPU counted in the budget either way."""
        opts, amdgcn, child = with_waves_per_eu(self.options, w), None, False
        limit = self._limit
        if limit is not None and bounded.available():
            left = limit[0] - (self.spent_s - limit[1])
            if left <= 0:
                raise bounded.OverLimit(limit[0], 0.0)
            try:
                amdgcn, md_after, backend_s = bounded.make_amdgcn(self.backend, llir, md, opts, left)
                md.update(md_after)
                child = True
            except (bounded.OverLimit, bounded.ChildFailed) as e:
                self.spend(e.cpu_s, child=True)
                if not isinstance(e, bounded.ChildUnavailable):
                    raise
                # no child can compile here (it says why once): this process does, unbounded
        if amdgcn is None:
            t0 = time.thread_time()
            amdgcn = self.backend.make_amdgcn(llir, md, opts)
            backend_s = time.thread_time() - t0
        with self._lock:
            self.trials += 1
            self.longest_backend_s = max(self.longest_backend_s, backend_s)
        return self.noted(Compiled(w, llir, amdgcn, md, llir_s + backend_s), child=child)

    def spend(self, cpu_s: float, child: bool = False) -> None:
        """CPU seconds a variant's TTGIR build took (or a child process: `child`), counted in the compile budget with
        the compiles (`spent_s`)."""
        with self._lock:
            self.spent_s += cpu_s
            self._elsewhere(cpu_s, child)

    def _elsewhere(self, cpu_s: float, child: bool = False) -> None:
        if child or threading.get_ident() != self._owner:
            self._elsewhere_s += cpu_s

    def cpu_s(self) -> float:
        """The CPU seconds this kernel's compile has taken since its engine began, on every thread: the compiling
        thread's own clock, plus the compiles and builds other threads made (a speculative one still running is
        counted once done); never less than the compiles and builds counted one by one (`spent_s`)."""
        if threading.get_ident() != self._owner:
            return self.spent_s
        with self._lock:
            return max(self.spent_s, time.thread_time() - self._owner_t0 + self._elsewhere_s)

    def noted(self, c: Compiled, child: bool = False) -> Compiled:
        """`c`, its CPU time counted in the compile budget (`longest_s`, `first_s`, `spent_s`:
        decisions.budget_spent); `child`: compiled in a child process."""
        with self._lock:
            self.longest_s = max(self.longest_s, c.cpu_s)
            self.first_s = self.first_s or c.cpu_s
            self.first = self.first or c
            self.spent_s += c.cpu_s
            self._elsewhere(c.cpu_s, child)
        return c

    def with_fn_attr(self, base: Compiled, key: str, values) -> list[Compiled | Exception]:
        """`base`'s LLVM IR compiled with the kernel attribute `key` set to each of `values` (one make_amdgcn each,
        concurrently where cores are idle and no `bounded` limit holds); an exception in place of one that cannot
        be made (the attribute cannot be inserted exactly, the backend failed, or bounded.OverLimit)."""
        def one(value):
            llir = llir_with_fn_attr(base.llir, key, value)
            if llir is None:
                return ValueError(f"the attribute {key} cannot be inserted into the kernel's LLVM IR exactly")
            try:
                return self._make_amdgcn(llir, dict(base.metadata), base.waves_per_eu)
            except Exception as e:  # noqa: BLE001 - the decision's rule says what a failure means
                return e

        values = list(values)
        if self._limit is None and trial_threads(len(values)) > 1:
            return list(executor().map(one, values))
        return [one(v) for v in values]

    def candidates(self, llir0: str, md0: dict, ws) -> list[Compiled]:
        """amdgcn of one LLVM IR (compiled with waves_per_eu=0) for each waves_per_eu in `ws`, concurrently where
        cores are idle; each from the w=0 text with the attribute inserted (ValueError where it cannot be)."""
        ws = list(ws)
        one = functools.partial(self._amdgcn, llir0, md0)
        if trial_threads(len(ws)) > 1:
            return list(executor().map(one, ws))
        return [one(w) for w in ws]

    def prefetch(self, jobs, gated: bool = False) -> None:
        """Start compiling [(build, waves_per_eu), ...] in the background, only where a core is idle: the trial a
        decision will need if its model cannot tell, run beside the compile the model reads instead of after it.
        `gated`: each stops after its make_llir until `release` (or `cancel`); `compile` of the same jobs
        releases and waits for them; `settle` before the stage returns."""
        for b, w in jobs:
            key = (b.text, w)
            if key in self._inflight and not gated:
                self._inflight[key].gate.set()  # wanted now: an aside build's compile waits no longer
            if key in self._compiled or key in self._inflight or trial_threads(2) < 2:
                continue
            cancel, gate = threading.Event(), threading.Event()
            if not gated:
                gate.set()
            self._inflight[key] = _Speculative(submit_speculative(self._compile_one, b, w, cancel, gate, cancel=cancel,
                                                                   gate=gate), cancel, gate)

    def release(self, jobs) -> None:
        """Let gated speculative compiles of [(build, waves_per_eu), ...] go on to make_amdgcn."""
        for b, w in jobs:
            entry = self._inflight.get((b.text, w))
            if entry is not None:
                entry.gate.set()

    def cancel(self, jobs) -> None:
        """Drop the speculative compiles of [(build, waves_per_eu), ...] that a model made unnecessary: one not
        started never runs, one running stops after its make_llir (`settle` still waits for it)."""
        for b, w in jobs:
            entry = self._inflight.pop((b.text, w), None)
            if entry is not None:
                self._drop(entry)

    def _drop(self, entry: _Speculative) -> None:
        """Stop a speculative compile: not started, it never runs; running, it stops at its gate (after its
        make_llir) and `settle` waits for it."""
        entry.cancel.set()
        entry.gate.set()
        if not entry.future.cancel():
            self._dropped.append(entry.future)

    def settle(self) -> None:
        """Wait for the speculative compiles and aside builds still running (nothing is left running behind
        Triton's stages). A gated compile nobody released by now is not needed: it is dropped at its gate."""
        self.board.close()
        for key in list(self._inflight):
            entry = self._inflight.pop(key)
            if entry.gate.is_set():
                entry.future.exception()
            else:
                self._drop(entry)
        while self._aside:  # built for a decision that did not come
            self._drop(self._aside.popitem()[1].job)
        while self._dropped:
            self._dropped.pop().exception()

    def abandon(self) -> None:
        """An interrupted compile (KeyboardInterrupt): stop every speculative compile and aside build without
        waiting for them (`settle` waits): one not started never runs, one running stops at its gate."""
        self.board.close()
        for entry in self._inflight.values():
            self._drop(entry)
        self._inflight.clear()
        while self._aside:
            self._drop(self._aside.popitem()[1].job)
        self._dropped.clear()

    def _take(self, key) -> Future:
        """A speculative compile now waited for: out of _inflight, its gate open."""
        entry = self._inflight.pop(key)
        entry.gate.set()
        return entry.future

    def compile(self, jobs) -> list[Compiled]:
        """Compile [(build, waves_per_eu), ...] to amdgcn, concurrently where cores are idle; in job order.
        Jobs already running (prefetched) are waited for, never compiled twice; the others start at once, beside
        them. A failing job raises its exception (after the others finished)."""
        jobs = list(jobs)
        for b, _ in jobs:  # built on this thread for a decision that may compile it: its own module is lowered
            if id(b) in self._here:
                self._here.discard(id(b))
                self.llir_here(b)
        keys = list(dict.fromkeys((b.text, w) for b, w in jobs))
        builds = {b.text: b for b, _ in jobs}
        running = {k: self._take(k) for k in keys if k in self._inflight}
        todo = [k for k in keys if k not in self._compiled and k not in running]
        errors = []
        try:
            if len(todo) > 1 and trial_threads(len(todo) + len(running)) - len(running) > 1:
                for entry in self._inflight.values():  # a gated compile must not hold a worker these need
                    entry.gate.set()
                # one w=0 LLVM IR per TTGIR first (the candidates' IR derives from it), then the amdgcn jobs
                texts = list(dict.fromkeys(t for t, _ in todo))
                list(executor().map(lambda t: self._llir0(builds[t]), texts))
                futures = [executor().submit(self._compile_one, builds[t], w) for t, w in todo]
                errors += [f.exception() for f in futures]
            else:  # on this thread, beside what is running
                for t, w in todo:
                    self._compile_one(builds[t], w)
        finally:
            errors += [f.exception() for f in running.values()]
        for e in errors:
            if e is not None:
                raise e
        return [self._compiled[(b.text, w)] for b, w in jobs]

    def running(self, build: Build, w: int) -> bool:
        """Whether a compile of (build, w) started ahead (`prefetch`, `aside`) is still running."""
        entry = self._inflight.get((build.text, w))
        return entry is not None and not entry.future.done()

    @staticmethod
    def lowered(build: Build) -> bool:
        """Whether `build`'s module was lowered in place (`llir_here`)."""
        return isinstance(build.module, LoweredModule)

    def compiled(self, build: Build, w: int) -> Compiled | None:
        return self._compiled.get((build.text, w))
