"""make_amdgcn under a CPU-time limit, in a child process: a candidate whose cost no figure of the kernel predicts
stops where the compile budget ends, instead of passing it.

LLVM's back end cannot be interrupted in-process, so the candidate runs in a child: one per process, started at the
first bounded compile (`python -c`, importing the backend's module: about 0.3 s of CPU, paid once) and kept for the
next ones, which cost only their own compile and the texts' transfer. Each request is stopped once the child's CPU
time since it began reaches its limit (read from /proc; RLIMIT_CPU set per request behind it): the child is killed,
and the next request starts another. The CPU a request took counts in the kernel's budget, finished or not
(`make_amdgcn`'s result); `live_cpu_s` is what the running child has taken so far, for the benches, which read
this process's CPU time (getrusage counts a child once reaped). Only the backend runs there: its input is the LLVM IR already made, its output the amdgcn text and the
metadata make_amdgcn fills.
"""
from __future__ import annotations

import atexit
import os
import pickle
import resource
import select
import struct
import subprocess
import sys
import tempfile
import threading
import time
import warnings

# the child: sys.path first, then requests (CPU limit in s, backend class, LLVM IR, metadata, options), each answered
# ("ok", amdgcn, metadata) or ("error", the exception's last line); every message a length (8 bytes) and a pickle
_CHILD = r"""
import math, os, pickle, resource, struct, sys
inp, out = sys.stdin.buffer, sys.stdout.buffer
def read():
    head = inp.read(8)
    if len(head) < 8:
        sys.exit(0)
    return pickle.loads(inp.read(struct.unpack("<Q", head)[0]))
def write(obj):
    data = pickle.dumps(obj)
    out.write(struct.pack("<Q", len(data)) + data)
    out.flush()
sys.path[:] = read()
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
from triton._C.libtriton import llvm
if hasattr(llvm, "init_targets"):  # what make_llir does before make_amdgcn in the compiling process (3.8 needs it)
    llvm.init_targets()
while True:
    limit, cls, src, md, options = read()
    t = os.times()
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    soft = math.ceil(t.user + t.system + limit) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (soft if hard < 0 else min(soft, hard), hard))
    try:
        write(("ok", cls.make_amdgcn(src, md, options), md))
    except BaseException as e:
        lines = str(e).strip().splitlines()
        write(("error", f"{type(e).__name__}: {lines[-1] if lines else ''}"))
"""
POLL_S = 0.02
WALL_PER_CPU = 3  # the wall-clock guard: a request on a loaded machine gets its CPU seconds over up to this long
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


class OverLimit(Exception):
    """The child used the request's CPU seconds (`cpu_s`) without finishing."""

    def __init__(self, limit_s: float, cpu_s: float):
        super().__init__(f"stopped at the compile budget's {limit_s:.1f} s of CPU left, unfinished")
        self.cpu_s = cpu_s


class ChildFailed(Exception):
    def __init__(self, why: str, cpu_s: float):
        super().__init__(why)
        self.cpu_s = cpu_s


class ChildUnavailable(ChildFailed):
    """The child ended without an answer (not a failure of the backend's, which it reports): no child is started
    again in this process (`available`), whose callers compile here instead."""


class _Child:
    def __init__(self):
        env = {k: v for k, v in os.environ.items() if k != "TRITON_CODEGEN_AMD"}  # it compiles, it hooks nothing
        self.stderr = tempfile.TemporaryFile()  # what it says where it dies (`last_words`)
        self.p = subprocess.Popen([sys.executable, "-c", _CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=self.stderr, env=env)
        self.started = True  # its start (imports) is counted in the first request's CPU
        self.owner = os.getpid()
        try:
            self._send(list(sys.path))
        except OSError:  # it ended at once: the first request finds it so
            pass

    def _send(self, obj) -> None:
        data = pickle.dumps(obj)
        self.p.stdin.write(struct.pack("<Q", len(data)) + data)
        self.p.stdin.flush()

    def cpu(self) -> float:
        """The child's CPU seconds so far (from /proc; 0 where it cannot be read)."""
        try:
            with open(f"/proc/{self.p.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / _TICK

    def request(self, payload, limit_s: float) -> tuple[object, float]:
        """(the child's answer, OVER where it was stopped at its limit, None where it died; the CPU seconds it took
        for it)."""
        cpu0 = 0.0 if self.started else self.cpu()
        self.started = False
        try:
            self._send((limit_s, *payload))
        except OSError:  # it died since the last request
            return None, 0.0
        deadline = time.monotonic() + WALL_PER_CPU * limit_s + 10
        fd, buf, need = self.p.stdout.fileno(), b"", None
        while True:
            used = self.cpu() - cpu0
            if used >= limit_s or time.monotonic() > deadline:
                return OVER, used
            ready, _, _ = select.select([fd], [], [], POLL_S)
            if not ready:
                if self.p.poll() is not None:
                    return None, used
                continue
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return None, self.cpu() - cpu0
            buf += chunk
            if need is None and len(buf) >= 8:
                need = struct.unpack("<Q", buf[:8])[0] + 8
            if need is not None and len(buf) >= need:
                return pickle.loads(buf[8:need]), self.cpu() - cpu0

    def last_words(self) -> str:
        """The last line the child wrote to stderr ('' where none)."""
        try:
            self.stderr.seek(0)
            lines = self.stderr.read().decode(errors="replace").strip().splitlines()
        except (OSError, ValueError):
            return ""
        return lines[-1] if lines else ""

    def close(self, kill: bool = False) -> None:
        """Stop the child and reap it."""
        try:
            if kill:
                self.p.kill()
            else:
                self.p.stdin.close()
        except OSError:
            pass
        try:
            self.p.wait()
        except ChildProcessError:  # reaped already
            pass
        for f in (self.p.stdin, self.p.stdout, self.stderr):
            try:
                f.close()
            except OSError:
                pass


_lock = threading.Lock()
_child: _Child | None = None
_unavailable: str | None = None  # why no child compiles in this process (ChildUnavailable), once one died so
OVER = object()  # _Child.request's answer where the request reached its limit


def make_amdgcn(backend, src: str, metadata: dict, options, limit_s: float) -> tuple[str, dict, float]:
    """(amdgcn, metadata after make_amdgcn, CPU seconds it took in the child) of `backend.make_amdgcn(src, metadata,
    options)` with `limit_s` seconds of CPU; OverLimit where it ran out, ChildFailed where it failed otherwise (both
    carry the CPU it took). One request at a time: the limit is the caller's budget, not shared."""
    global _child, _unavailable
    payload = (type(backend), src, dict(metadata), options)
    with _lock:
        if _child is not None and _child.owner != os.getpid():  # a forked copy of this process: not its pipes
            _child = None
        if _child is None:
            _child = _Child()
        answer, cpu = _child.request(payload, limit_s)
        if answer is OVER or answer is None:  # stopped at its limit, or died: the next request starts another
            words = _child.last_words()
            _child.close(kill=True)
            _child = None
            if answer is OVER:
                raise OverLimit(limit_s, cpu)
            _unavailable = f"the bounded make_amdgcn's process ended without an answer{': ' if words else ''}{words}"
            warnings.warn(f"triton-mfma: {_unavailable}; candidates compile in this process, unbounded",
                          RuntimeWarning, stacklevel=2)
            raise ChildUnavailable(_unavailable, cpu)
    if answer[0] != "ok":
        raise ChildFailed(f"the bounded make_amdgcn failed: {answer[1]}", cpu)
    return answer[1], answer[2], cpu


def _close() -> None:
    global _child
    with _lock:
        if _child is not None and _child.owner == os.getpid():
            _child.close()
            _child = None


atexit.register(_close)


def live_cpu_s() -> float:
    """CPU seconds the child still running has taken so far (0 where none runs): what getrusage's RUSAGE_CHILDREN
    does not count yet (a stopped child's is there once reaped)."""
    child = _child
    return child.cpu() if child is not None else 0.0


def available() -> bool:
    """Whether a child can run this interpreter and be read (not where sys.executable is unknown, e.g. embedded,
    without /proc to read its CPU time, or once a child ended without an answer: ChildUnavailable)."""
    return _unavailable is None and bool(sys.executable) and os.path.exists(sys.executable) and \
        hasattr(resource, "RLIMIT_CPU") and os.path.exists(f"/proc/{os.getpid()}/stat")
