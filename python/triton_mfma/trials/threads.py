"""Threads for trial compiles: how many cores are idle (other processes' load, read from /proc/stat), and the pool
trial compiles and aside builds run in.
"""
from __future__ import annotations

import os
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor

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


class OtherLoad:
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


other_load = OtherLoad()
# the first window starts at import, so a compile's first look has one: the load average it would fall back to counts
# the last minute's processes, which in a benchmark or a build are this one's predecessors (held-out seeds 4502-4531
# compiled one at a time on 2 cores: trials beside the main compile almost never ran, wall 1.27x stock, CPU 1.28x)
other_load()


_pool_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None


def executor() -> ThreadPoolExecutor:
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


def submit_speculative(fn, *args, cancel: threading.Event, gate: threading.Event) -> Future:
    """executor().submit(fn, *args) for a job that stops at `gate` where `cancel` is set. An interrupt in the
    submit itself (it may start a thread and wait for it) leaves the job, submitted or not, registered nowhere:
    it sets both, so that the job stops at its gate instead of waiting there for ever."""
    try:
        return executor().submit(fn, *args)
    except BaseException:
        cancel.set()
        gate.set()
        raise
