"""Work on a user's IR file with Triton's parser where a crash of that parser cannot end the caller's process.

Triton's MLIR parser and verifier abort (SIGABRT) or crash (SIGSEGV, SIGFPE) on some malformed TTGIR (2.6% of
15,200 mutated files, issue 37) instead of returning a diagnostic. Two ways around it:

    in_child(fn, *args)    run `fn` in a forked child; its return value (pickled), its stderr and any exception
                           come back; a child that dies by a signal, or that runs past `timeout`, is a
                           ParserCrash (one line: the signal and the last diagnostic line it printed). Fork
                           only where no MLIR context or thread of the caller's is live (`triton-mfma opt`
                           calls it first thing), so the child holds no lock another thread had.
    precheck(path)         parse the file in a fresh interpreter (spawned, safe in any process); a ParserCrash
                           where that interpreter dies, else nothing: the caller then parses it in-process, and
                           the same parser on the same text gives the same result.
"""
from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import tempfile


_progress = None  # in a child of in_child: the file the steps are noted in


def note(step: str) -> None:
    """In a child of in_child: the step now running ("parsing", "printing", "passes", "reparsing"), named if the
    child dies."""
    if _progress is not None:
        os.write(_progress.fileno(), step.encode() + b"\n")


class ParserCrash(RuntimeError):
    """Triton's parser (or what ran after it on the module) ended its process with a signal, or hung."""


def _signal_name(status: int) -> str:
    try:
        return signal.Signals(status).name
    except ValueError:
        return f"signal {status}"


def _last_diagnostic(text: str) -> str:
    """The line of a dying process's stderr that says what went wrong (an assertion, an error), else ''."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for key in ("Assertion", "error:", "LLVM ERROR", "UNREACHABLE"):
        hit = [ln for ln in lines if key in ln]
        if hit:
            return hit[0][:300]
    return ""


def crash_message(what: str, status: int, stderr: str, step: str = "parsing") -> str:
    cause = _last_diagnostic(stderr)
    who = {"parsing": "Triton's parser", "printing": "Triton's printer", "passes": "triton-mfma's passes",
           "reparsing": "Triton's parser, on the passes' output,"}.get(step, step)
    return f"{who} crashed ({_signal_name(status)}) on {what}" + (f": {cause}" if cause else "")


def in_child(fn, *args, what: str = "the input", timeout: float | None = None):
    """(fn(*args), the child's stderr text). An exception raised by `fn` is raised here (pickled back; one that
    does not pickle comes back as a RuntimeError with its type and first line)."""
    global _progress
    with tempfile.TemporaryFile() as result, tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as progress:
        pid = os.fork()
        if pid == 0:  # the child: never returns into the caller's code
            status = 0
            _progress = progress
            try:
                _no_core_dump()  # the crash is expected and reported: no core file for it
                os.dup2(err.fileno(), 2)
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, 1)
                sys.stdout = open(os.devnull, "w")
                sys.stderr = os.fdopen(os.dup(2), "w", buffering=1)
                try:
                    payload = ("ok", fn(*args))
                except BaseException as e:  # noqa: BLE001 - every outcome goes back to the parent
                    try:
                        pickle.dumps(e)
                        payload = ("raise", e)
                    except Exception:  # noqa: BLE001 - an exception that does not pickle
                        first = str(e).strip().splitlines()[0] if str(e).strip() else ""
                        payload = ("raise", RuntimeError(f"{type(e).__name__}: {first}"))
                sys.stderr.flush()
                result.write(pickle.dumps(payload))
                result.flush()
            except BaseException:  # noqa: BLE001
                status = 3
            finally:
                os._exit(status)
        try:
            status = _wait(pid, timeout)
        except BaseException:  # an interrupt of the parent ends the child too
            _kill(pid)
            raise
        err.seek(0)
        stderr = err.read().decode(errors="replace")
        if status is None:
            raise ParserCrash(f"Triton's parser did not finish on {what} within {timeout:g} s")
        progress.seek(0)
        steps = progress.read().decode(errors="replace").splitlines()
        if os.WIFSIGNALED(status):
            raise ParserCrash(crash_message(what, os.WTERMSIG(status), stderr, steps[-1] if steps else "parsing"))
        result.seek(0)
        data = result.read()
        if os.WEXITSTATUS(status) != 0 or not data:
            raise ParserCrash(f"the process parsing {what} exited with status {os.WEXITSTATUS(status)}"
                              + (f": {_last_diagnostic(stderr)}" if _last_diagnostic(stderr) else ""))
        kind, value = pickle.loads(data)
        if kind == "raise":
            raise value
        return value, stderr


def _no_core_dump() -> None:
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ImportError, ValueError, OSError):
        pass


def _wait(pid: int, timeout: float | None):
    """The child's wait status, or None (and the child killed) past `timeout`."""
    if timeout is None:
        return os.waitpid(pid, 0)[1]
    import time

    end = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        if time.monotonic() > end:
            _kill(pid)
            return None
        time.sleep(0.005)


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass


_PRECHECK = """
import sys
from triton._C.libtriton import amd, ir, nvidia
ctx = ir.context()
ir.load_dialects(ctx); amd.load_dialects(ctx); nvidia.load_dialects(ctx)
try:
    ir.parse_mlir_module(sys.argv[1], ctx)
except RuntimeError:
    pass
"""


def precheck(path: str, what: str | None = None, timeout: float = 300) -> None:
    """ParserCrash where Triton's parser ends a process on the file at `path` (parsed in a fresh interpreter)."""
    what = what or path
    try:
        r = subprocess.run([sys.executable, "-c", _PRECHECK, path], capture_output=True, text=True, timeout=timeout,
                           preexec_fn=_no_core_dump)
    except subprocess.TimeoutExpired:
        raise ParserCrash(f"Triton's parser did not finish on {what} within {timeout:g} s") from None
    if r.returncode < 0:
        raise ParserCrash(crash_message(what, -r.returncode, r.stderr))
