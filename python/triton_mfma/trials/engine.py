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
Tried and measured, not kept (commit 7e1c314, 2 cores, compile time / stock): starting the waves_per_eu
candidates of the grid check's variant without the remap beside its compile, with follow-ups stopped once the
compile they run beside has ended and a queued job run on the thread waiting for it: where the check drops the
remap 2.38x -> 1.95x (GEMM 256x128x32 gfx90a) and 2.43x -> 2.12x (attention D128 gfx942); where it keeps it
+0.03..+0.14x (the candidate's make_amdgcn slows the one the check waits for; 1.72x -> 2.07x in the full bench run,
where a stopped job's stale entry also kept the candidates from starting again); the slowest kernel (a revert,
2.38x) unchanged, so the bench's maximum does not move: not worth the code.
Weighed, not built: applying the remap to the LLVM IR of the kernel without it (translated from the pass's scalar
ops and spliced in after make_llir), so that the grid check's two variants share one make_llir. It would save only
make_llir: on the GEMMs whose check compiles a second variant make_amdgcn takes as long (stock compiles, gfx942
64x128x64 3 stages: make_llir 0.103 s, make_amdgcn 0.096 s; gfx90a 256x128x32: 0.221 / 0.215 s; gfx942 128x256x32:
0.191 / 0.176 s; bench/results/stage_times.txt), so those stay above 2x stock; only attention (make_llir 1.06 of
1.25 s) would gain, and the remap would then reach the GPU through a lowering of our own instead of Triton's.
"""
from __future__ import annotations

import copy
import functools
import os
import re
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import NamedTuple

from ..ir.bridge import LoweredModule, export_generic, import_generic, print_module, strip_locations
from ..composition.points import COMPARE_AFTER, POINT_ORDER, STAGES  # noqa: F401 - the one table of points (points.py)
from ..ir.runner import kernel_name


@dataclass
class Compiled:
    """One variant compiled to amdgcn."""
    waves_per_eu: int
    llir: str = field(repr=False)
    amdgcn: str = field(repr=False)
    metadata: dict = field(repr=False)  # after make_amdgcn
    cpu_s: float = 0.0  # CPU time of its make_llir (where its own) and make_amdgcn, on their threads


# Generic text up to what does not change the code: locations (debug info only) and SSA value names (Triton names
# values after the source variables their location carries, so the same op built by another pass prints as
# %acc_106 instead of %a_106). Names are replaced by their order of first appearance, which keeps every def-use
# edge: two texts equal after this are the same module.
_SSA_NAME = re.compile(r"%[\w$.-]+")


@functools.lru_cache(maxsize=32)  # a build's text is compared with several others
def _canonical(text: str) -> str:
    names: dict[str, str] = {}
    return _SSA_NAME.sub(lambda m: names.setdefault(m.group(0), f"%{len(names)}"), strip_locations(text))


def same_code(a: str, b: str) -> bool:
    """Whether two TTGIRs (generic text) are the same module up to locations and value names."""
    return a == b or _canonical(a) == _canonical(b)


class Made(NamedTuple):
    """What the stage's make_ttgir callback returns for one variant (fields as in `Build`; `text`: the module's
    generic text where the last step printed it, else "")."""
    module: object
    declined: set
    outcomes: list
    text: str
    before: dict
    after: dict
    spare: dict


@dataclass
class Build:
    """One TTGIR variant: the module (handed to Triton if chosen), its generic text, what our passes said."""
    choice: frozenset  # insertion points where our pass ran instead of Triton's
    module: object = field(repr=False)
    text: str = field(repr=False)
    metadata: dict = field(repr=False)  # after make_ttgir
    declined: set = field(default_factory=set)  # points whose pass declined (Triton's step ran there)
    outcomes: list = field(default_factory=list)  # runner.Outcome of every pass that ran
    before: dict = field(default_factory=dict, repr=False)  # point -> generic text of the module our passes got there
    after: dict = field(default_factory=dict, repr=False)  # point -> generic text of what our passes returned there
    # point -> the module our passes got there, where they returned a new one (the build went on with that): the
    # very module a build differing from here on would have, use-list order included (a parsed copy would not
    # have it, and Triton's passes then pick other locations for the ops they merge); taken by one resumed build
    spare: dict = field(default_factory=dict, repr=False)

    @classmethod
    def made(cls, choice: frozenset, metadata: dict, made: "Made") -> "Build":
        """The Build of what make_ttgir made. The library's output is the module's generic text (Triton prints it
        back identically: test_bridge.py), so a TTGIR that ends with our passes is not printed again."""
        return cls(choice, made.module, made.text or export_generic(made.module), metadata, set(made.declined),
                   list(made.outcomes), made.before, made.after, made.spare)

    def same_code(self, other: "Build") -> bool:
        return same_code(self.text, other.text)

    def declined_reason(self, pass_name: str) -> str:
        """Why `pass_name` declined this module (its structured outcome), or "" if it did not."""
        return next((o.reason for o in self.outcomes if o.pass_name == pass_name and o.status == "declined"), "")


# POINT_ORDER: the insertion points of a hip TTGIR build, in pipeline order; a build's choice says, at each, whether
# our pass runs there (the interior points) or which of the passes there are left out ("skip:<pass>", at ttgir_end).
# COMPARE_AFTER: replacing points where a build that resumes there with Triton's step compares its module right
# after that step with what our pass returned there in other builds: mfma-accelerate-dot builds its ops in the order Triton's
# accelerate_matmul does, so where both choose the same layouts the modules are equal there (measured: every
# "identical" comparison of the bench suite), and the rest of Triton's variant need not be built. The stream
# pipeliner's output is rarely Triton's, so the export that comparison needs is not paid there (points.py).


def stages_of(choice: frozenset) -> int | None:
    """The num_stages a choice builds with (None: the kernel's own)."""
    return next((int(c[len(STAGES):]) for c in choice if c.startswith(STAGES)), None)


def _at(choice: frozenset, point: str):
    if point == "ttgir_end":
        return frozenset(c for c in choice if c.startswith("skip:"))
    if point == "pipeline":
        return point in choice, stages_of(choice)
    return point in choice


def _steps_before(choice: frozenset, point: str) -> frozenset:
    """What of `choice` decides a build's module before `point`: its choices at earlier points and its num_stages
    (the options every step is built with); not `point` and later points, nor the passes left out at ttgir_end."""
    later = set(POINT_ORDER[POINT_ORDER.index(point):])
    return frozenset(c for c in choice if c not in later and not c.startswith("skip:"))


def _first_difference(a: frozenset, b: frozenset) -> int | None:
    """Index in POINT_ORDER of the first point where two choices differ (None: they agree everywhere)."""
    return next((i for i, p in enumerate(POINT_ORDER) if _at(a, p) != _at(b, p)), None)


@dataclass
class Resume:
    """Where a new build starts from an earlier one: the steps before `point` are the same in both, so the new
    build continues from the module `base` had there (its spare); at each later point in `compare`, a module
    equal to an earlier build's there, whose choice agrees with the new one from that point on, means the rest is
    that build's too (`SameAsBuild`)."""
    point: str
    module: object = field(repr=False)
    base: Build = field(repr=False)
    compare: dict = field(default_factory=dict, repr=False)  # point -> [earlier Build with its text there]
    # earlier Builds whose module right after our passes at `point` the new build's module right after Triton's
    # step there is compared with (their choices agree with the new one after `point`)
    compare_after: list = field(default_factory=list, repr=False)


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


class Cancelled(Exception):
    """A speculative compile dropped before its make_amdgcn (`Engine.cancel`)."""


class SameAsBuild(Exception):
    """Raised by a resumed build at `point` when its module there is `build`'s (up to names and locations):
    before the steps at `point`, or (`after`) right after them."""

    def __init__(self, point: str, build: Build, after: bool = False):
        super().__init__(point)
        self.point, self.build, self.after = point, build, after


class SameAsOurs(Exception):
    """Raised by an aside build right after Triton's step at the point where it diverges from ours, where its module
    there is what ours' passes returned (or ours' pass declined and Triton's step ran in ours too): from there on the
    two are one build, so the aside stops (the variant is then resumed on the adopting thread, which finds the same
    at once)."""


class PointBoard:
    """What each build returned at each insertion point, published as its build passes there, for an aside build
    of a variant that diverges at that point to compare with (builds run on different threads)."""

    DECLINED = object()  # the pass declined there: Triton's step ran

    def __init__(self):
        self._cond = threading.Condition()
        self._texts: dict[tuple[frozenset, str], object] = {}
        self._done: set[frozenset] = set()
        self._closed = False

    def publish(self, choice: frozenset, point: str, text) -> None:
        with self._cond:
            self._texts[choice, point] = text
            self._cond.notify_all()

    def finish(self, choice: frozenset) -> None:
        """The build of `choice` ended (built or failed): nothing more is published for it."""
        with self._cond:
            self._done.add(choice)
            self._cond.notify_all()

    def close(self) -> None:
        """The compile is settled or interrupted: no waiter waits any longer (an interrupt may come before the
        build waited for starts; the aside must then end, not hold the process's exit)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def wait(self, choice: frozenset, point: str):
        """What the build of `choice` returned at `point` (text, or DECLINED); None where it ended without, or
        the board was closed first."""
        with self._cond:
            self._cond.wait_for(lambda: (choice, point) in self._texts or choice in self._done or self._closed)
            return self._texts.get((choice, point))


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


_ATTR_GROUP = re.compile(r"^attributes #(\d+) = \{ (.*) \}$", re.MULTILINE)
_KERNEL_DEF = re.compile(r"^define amdgpu_kernel [^\n]*\) (?:[^\n]*?)#(\d+)", re.MULTILINE)


def llir_with_waves(llir: str, w: int) -> str | None:
    """The LLVM IR make_llir gives with waves_per_eu=w, from its w=0 output: the kernel's attribute group gains
    `"amdgpu-waves-per-eu"="w,w"` in LLVM's printing order (enum attributes, then string attributes by key).
    None when that cannot be done exactly (the group is shared, or already has the attribute)."""
    if w == 0:
        return llir
    return llir_with_fn_attr(llir, "amdgpu-waves-per-eu", f"{w},{w}")


def llir_with_fn_attr(llir: str, key: str, value: str) -> str | None:
    """`llir` with the kernel's attribute group gaining the string attribute `"key"="value"` where LLVM prints it
    (enum attributes, then string attributes by key); None where that cannot be done exactly (the group is shared
    with another function, or already has the attribute)."""
    kernels = _KERNEL_DEF.findall(llir)
    if len(kernels) != 1:
        return None
    group = kernels[0]
    if len(re.findall(rf"#{group}\b", llir)) != 2:  # the define and the group itself: nothing else shares it
        return None
    m = next((m for m in _ATTR_GROUP.finditer(llir) if m.group(1) == group), None)
    if m is None or f'"{key}"' in m.group(2):
        return None
    tokens = re.findall(r'"[^"]*"(?:="[^"]*")?|[^\s"(]+(?:\([^)]*\))?', m.group(2))
    enums = [t for t in tokens if not t.startswith('"')]
    strings = [t for t in tokens if t.startswith('"')]
    strings.append(f'"{key}"="{value}"')
    strings.sort(key=lambda t: t.split("=", 1)[0].strip('"'))
    line = f"attributes #{group} = {{ {' '.join(enums + strings)} }}"
    return llir[:m.start()] + line + llir[m.end():]


def llir_without_waves(llir: str, w: int) -> str | None:
    """The inverse of `llir_with_waves`: make_llir's w=0 output from its output at waves_per_eu=w (None where the
    attribute is not there exactly once as make_llir prints it)."""
    token = f' "amdgpu-waves-per-eu"="{w},{w}"'
    if w == 0:
        return llir
    if llir.count(token) != 1:
        return None
    return llir.replace(token, "")


def trial_threads(jobs: int) -> int:
    """Threads for `jobs` independent trial compiles: the idle cores, at most `jobs`; TRITON_MFMA_TRIAL_THREADS
    overrides. Idle = cores minus those other processes keep busy (`other_load`)."""
    env = os.environ.get("TRITON_MFMA_TRIAL_THREADS", "").strip()
    if env.isdigit():
        return max(1, min(jobs, int(env)))
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return max(1, min(jobs, cores - int(other_load() + 0.5)))


class _OtherLoad:
    """Cores kept busy by other processes: the busy CPU time of the cores this process may run on (/proc/stat,
    per core: a container sees the host's) minus this process's own (its threads and waited-for children), over
    the time since the last look. The 1-minute load average cannot tell them apart: this process's own trial
    threads of the last minute would count as other work, and a program compiling many kernels in a row would
    throttle itself to one thread. (Compiles in other threads of this process count as its own: compile workers
    in separate processes, as PyTorch's are, count as other load.) Where /proc/stat cannot be read: the load
    average minus this compile's own thread."""

    MIN_WINDOW_S = 0.25  # shorter windows are mostly the 10 ms clock-tick rounding

    def __init__(self):
        self._lock = threading.Lock()
        self._last = None  # (monotonic s, machine busy s, own s)
        self._value = None

    @staticmethod
    def _sample():
        try:
            mine = os.sched_getaffinity(0)
        except AttributeError:  # pragma: no cover - not Linux
            mine = None
        busy = 0
        with open("/proc/stat") as f:
            for line in f:
                fields = line.split()
                # the cores this process may run on (a container sees the host's): user nice system idle iowait
                # irq softirq steal, busy is all but idle and iowait
                if not fields or not fields[0].startswith("cpu") or not fields[0][3:].isdigit():
                    continue
                if mine is not None and int(fields[0][3:]) not in mine:
                    continue
                ticks = [int(x) for x in fields[1:9]]
                busy += sum(ticks) - ticks[3] - ticks[4]
        own = sum(os.times()[:4])
        return time.monotonic(), busy / os.sysconf("SC_CLK_TCK"), own

    @staticmethod
    def _load_average() -> float:
        """The 1-minute load average less this compile's own thread."""
        try:
            return max(0.0, os.getloadavg()[0] - 1.0)
        except OSError:  # pragma: no cover
            return 0.0

    def __call__(self) -> float:
        try:
            sample = self._sample()
        except (OSError, ValueError, IndexError):
            return self._load_average()
        with self._lock:
            if self._last is not None and sample[0] - self._last[0] >= self.MIN_WINDOW_S:
                dt = sample[0] - self._last[0]
                self._value = max(0.0, (sample[1] - self._last[1]) - (sample[2] - self._last[2])) / dt
                self._last = sample
            elif self._last is None:
                self._last = sample
            return self._load_average() if self._value is None else self._value  # no window yet: the average


other_load = _OtherLoad()
# the first window starts at import, so a compile's first look has one: the load average it would fall back to counts
# the last minute's processes, which in a benchmark or a build are this one's predecessors (held-out seeds 4502-4531
# compiled one at a time on 2 cores: trials beside the main compile almost never ran, wall 1.27x stock, CPU 1.28x)
other_load()


_pool_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2), thread_name_prefix="triton-mfma")
        return _pool


def reset_pool() -> None:
    """After an interrupt: the trial pool's workers exit once its queue is drained, and a later trial compile
    makes a new pool. (A worker whose start the interrupt cut short is registered nowhere: it would wait for work
    for ever, and the interpreter's exit for it.)"""
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=False)


def _submit_speculative(fn, *args, cancel: threading.Event, gate: threading.Event) -> Future:
    """_executor().submit(fn, *args) for a job that stops at `gate` where `cancel` is set. An interrupt in the
    submit itself (it may start a thread and wait for it) leaves the job, submitted or not, registered nowhere:
    it sets both, so that the job stops at its gate instead of waiting there for ever."""
    try:
        return _executor().submit(fn, *args)
    except BaseException:
        cancel.set()
        gate.set()
        raise


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
        self.first_s = 0.0  # the CPU time of its first compile: what the compile budget scales with (`noted`)
        self.first: Compiled | None = None  # its first compile: its stakes scale the budget (`noted`)
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

    # -- TTGIR -----------------------------------------------------------------------------------------------
    def ttgir(self, choice, metadata: dict, first=None) -> Build:
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
        key = (point, _steps_before(frozenset(choice), point))
        with self._lock:
            self._same_steps.add(key)

    def _note_declined(self, build: Build) -> None:
        for point in build.declined:
            if point in POINT_ORDER and point in build.choice:
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
            if point in out:
                before = _steps_before(frozenset(out), point)
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

        self._aside[choice] = _Aside(built, _Speculative(_submit_speculative(job, cancel=cancel, gate=gate), cancel,
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
            i = _first_difference(b.choice, choice)
            if i is not None and POINT_ORDER[i] in b.spare and (best is None or i > best[0]):
                best = (i, b)
        if best is None:
            return None
        i, base = best
        compare = {}
        for j in range(i + 1, len(POINT_ORDER)):
            later = [b for b in self._builds.values() if POINT_ORDER[j] in b.before
                     and all(_at(b.choice, q) == _at(choice, q) for q in POINT_ORDER[j:])]
            if later:
                compare[POINT_ORDER[j]] = later
        point = POINT_ORDER[i]
        compare_after = []
        if point in COMPARE_AFTER and not _at(choice, point):  # Triton's step runs there in the new build
            compare_after = [b for b in self._builds.values() if point in b.after
                             and all(_at(b.choice, q) == _at(choice, q) for q in POINT_ORDER[i + 1:])]
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

    def _make_amdgcn(self, llir: str, md: dict, w: int, llir_s: float = 0.0) -> Compiled:
        """make_amdgcn of `llir` at waves_per_eu `w`, counted as a trial and in the compile budget (`llir_s`: the
        CPU time of the make_llir it comes from)."""
        t0 = time.thread_time()
        amdgcn = self.backend.make_amdgcn(llir, md, with_waves_per_eu(self.options, w))
        with self._lock:
            self.trials += 1
        return self.noted(Compiled(w, llir, amdgcn, md, llir_s + time.thread_time() - t0))

    def spend(self, cpu_s: float) -> None:
        """CPU seconds a variant's TTGIR build took, counted in the compile budget with the compiles (`spent_s`)."""
        with self._lock:
            self.spent_s += cpu_s
            self._elsewhere(cpu_s)

    def _elsewhere(self, cpu_s: float) -> None:
        if threading.get_ident() != self._owner:
            self._elsewhere_s += cpu_s

    def cpu_s(self) -> float:
        """The CPU seconds this kernel's compile has taken since its engine began, on every thread: the compiling
        thread's own clock, plus the compiles and builds other threads made (a speculative one still running is
        counted once done); never less than the compiles and builds counted one by one (`spent_s`)."""
        if threading.get_ident() != self._owner:
            return self.spent_s
        with self._lock:
            return max(self.spent_s, time.thread_time() - self._owner_t0 + self._elsewhere_s)

    def noted(self, c: Compiled) -> Compiled:
        """`c`, its CPU time counted in the compile budget (`longest_s`, `first_s`, `spent_s`:
        decisions.budget_spent)."""
        with self._lock:
            self.longest_s = max(self.longest_s, c.cpu_s)
            self.first_s = self.first_s or c.cpu_s
            self.first = self.first or c
            self.spent_s += c.cpu_s
            self._elsewhere(c.cpu_s)
        return c

    def with_fn_attr(self, base: Compiled, key: str, values) -> list[Compiled | Exception]:
        """`base`'s LLVM IR compiled with the kernel attribute `key` set to each of `values` (one make_amdgcn each,
        concurrently where cores are idle); an exception in place of one that cannot be made (the attribute cannot
        be inserted exactly, or the backend failed)."""
        def one(value):
            llir = llir_with_fn_attr(base.llir, key, value)
            if llir is None:
                return ValueError(f"the attribute {key} cannot be inserted into the kernel's LLVM IR exactly")
            try:
                return self._make_amdgcn(llir, dict(base.metadata), base.waves_per_eu)
            except Exception as e:  # noqa: BLE001 - the decision's rule says what a failure means
                return e

        values = list(values)
        if trial_threads(len(values)) > 1:
            return list(_executor().map(one, values))
        return [one(v) for v in values]

    def candidates(self, llir0: str, md0: dict, ws) -> list[Compiled]:
        """amdgcn of one LLVM IR (compiled with waves_per_eu=0) for each waves_per_eu in `ws`, concurrently where
        cores are idle; each from the w=0 text with the attribute inserted (ValueError where it cannot be)."""
        ws = list(ws)
        one = functools.partial(self._amdgcn, llir0, md0)
        if trial_threads(len(ws)) > 1:
            return list(_executor().map(one, ws))
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
            self._inflight[key] = _Speculative(_submit_speculative(self._compile_one, b, w, cancel, gate, cancel=cancel,
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
                list(_executor().map(lambda t: self._llir0(builds[t]), texts))
                futures = [_executor().submit(self._compile_one, builds[t], w) for t, w in todo]
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
