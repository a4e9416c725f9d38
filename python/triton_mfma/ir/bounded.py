"""make_amdgcn under a CPU-time limit, in a child process: a candidate whose cost no figure of the kernel predicts
stops where the compile budget ends, instead of passing it.

LLVM's back end cannot be interrupted in-process, so the candidate runs in a child (`python -c`, importing the
backend's module: about 0.3 s of CPU), stopped once its CPU time reaches the seconds left (read from /proc, with
RLIMIT_CPU behind it); the child's CPU time, from wait4, counts in the kernel's budget whether it finished or not. Only the backend runs there: its input is the LLVM IR already
made, its output the amdgcn text and the metadata make_amdgcn fills.
"""
from __future__ import annotations

import math
import os
import pickle
import resource
import signal
import subprocess
import sys
import tempfile
import time

# the child: sys.path, the CPU limit, then (backend class, LLVM IR, metadata, options); the amdgcn and metadata are
# written to the file named by argv[1]
_CHILD = """
import pickle, resource, sys
inp = sys.stdin.buffer
sys.path[:] = pickle.load(inp)
limit = pickle.load(inp)
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 1))
cls, src, md, options = pickle.load(inp)
out = cls.make_amdgcn(src, md, options)
with open(sys.argv[1], "wb") as f:
    pickle.dump((out, md), f)
"""
WALL_PER_CPU = 3  # the wall-clock guard: a child on a loaded machine gets its CPU seconds over up to this long
POLL_S = 0.02


class OverLimit(Exception):
    """The child used its CPU seconds (`cpu_s`) without finishing."""

    def __init__(self, limit_s: float, cpu_s: float):
        super().__init__(f"stopped at the compile budget's {limit_s:.1f} s of CPU left, unfinished")
        self.cpu_s = cpu_s


class ChildFailed(Exception):
    def __init__(self, why: str, cpu_s: float):
        super().__init__(why)
        self.cpu_s = cpu_s


def make_amdgcn(backend, src: str, metadata: dict, options, limit_s: float) -> tuple[str, dict, float]:
    """(amdgcn, metadata after make_amdgcn, CPU seconds of the child) of `backend.make_amdgcn(src, metadata,
    options)` run in a child with `limit_s` seconds of CPU (rounded up: RLIMIT_CPU counts whole seconds); OverLimit
    where it ran out, ChildFailed where it failed otherwise (both carry the CPU it took)."""
    limit = max(1, math.ceil(limit_s))
    payload = pickle.dumps(list(sys.path)) + pickle.dumps(limit) + \
        pickle.dumps((type(backend), src, dict(metadata), options))
    env = {k: v for k, v in os.environ.items() if k != "TRITON_CODEGEN_AMD"}  # the child compiles, it hooks nothing
    with tempfile.TemporaryDirectory(prefix="tmfma-bounded-") as d:
        out, err = os.path.join(d, "out"), os.path.join(d, "err")
        with open(err, "wb") as ferr:
            p = subprocess.Popen([sys.executable, "-c", _CHILD, out], stdin=subprocess.PIPE,
                                 stdout=subprocess.DEVNULL, stderr=ferr, env=env)
        try:
            p.stdin.write(payload)
            p.stdin.close()
        except BrokenPipeError:  # the child died before reading: its status says why
            pass
        status, cpu = _wait(p, limit_s, time.monotonic() + WALL_PER_CPU * limit + 10)
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):
            raise OverLimit(limit_s, cpu)
        if status != 0 or not os.path.exists(out):
            tail = open(err, "rb").read().decode(errors="replace").strip().splitlines()
            raise ChildFailed(f"the bounded make_amdgcn failed: {tail[-1] if tail else f'status {status}'}", cpu)
        with open(out, "rb") as f:
            amdgcn, md = pickle.load(f)
    return amdgcn, md, cpu


def _wait(p: subprocess.Popen, limit_s: float, deadline: float) -> tuple[int, float]:
    """(wait status, CPU seconds) of the child, killed once its CPU time reaches `limit_s` (read from /proc where
    there is one: RLIMIT_CPU counts whole seconds) or at `deadline` (wall clock)."""
    while True:
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline or _cpu_of(p.pid) >= limit_s:
            p.kill()
            _, status, ru = os.wait4(p.pid, 0)
            break
        time.sleep(POLL_S)
    p.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait for it again
    return status, ru.ru_utime + ru.ru_stime


def _cpu_of(pid: int) -> float:
    """The CPU seconds a running child has used (0 where /proc cannot tell)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICK


_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def available() -> bool:
    """Whether a child can run this interpreter (not where sys.executable is unknown, e.g. embedded)."""
    return bool(sys.executable) and os.path.exists(sys.executable) and hasattr(os, "wait4") and \
        hasattr(resource, "RLIMIT_CPU")
