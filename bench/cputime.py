"""CPU time of one compile in this process: every thread's user + sys, trial threads that outlive the call included.

A compile of ours may leave trial compiles running on the engine's threads after `triton.compile` returns (a
speculative make_amdgcn cannot be stopped once started). What a user pays on a busy machine is all of it, so the
measurement ends only once no thread but the caller has used CPU for `quiet` seconds. Per-thread figures come
from /proc/self/task/*/stat (Linux), the process total from getrusage(RUSAGE_SELF).
"""
from __future__ import annotations

import os
import resource
import threading
import time

_TICK = os.sysconf("SC_CLK_TCK")


def _process_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _other_threads_cpu() -> float:
    """CPU seconds of every thread of this process but the calling one (those that exist now)."""
    me = threading.get_native_id()
    total = 0
    for tid in os.listdir("/proc/self/task"):
        if int(tid) == me:
            continue
        try:
            with open(f"/proc/self/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:  # the thread ended between listdir and open
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / _TICK


def wait_quiet(quiet: float = 0.05, limit: float = 120.0) -> None:
    """Return once the other threads have used no CPU for `quiet` seconds (or after `limit`)."""
    end = time.monotonic() + limit
    last = _other_threads_cpu()
    while time.monotonic() < end:
        time.sleep(quiet)
        now = _other_threads_cpu()
        if now - last < 1.0 / _TICK:
            return
        last = now


class Measured:
    """`with Measured() as m: compile(...)` -> m.wall (the call), m.cpu (all threads, stragglers included)."""

    def __enter__(self):
        wait_quiet()
        self._cpu0, self._t0 = _process_cpu(), time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self._t0
        wait_quiet()
        self.cpu = _process_cpu() - self._cpu0
        return False
