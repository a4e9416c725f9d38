"""The LLVM command-line flags a kernel's compile passed to LLVM, captured at the call (the report's backend flags).

Triton's AMD backend hands LLVM process-wide options (`flags`) in make_llir and make_amdgcn, decided there by arch,
options, knobs or helpers (3.8's `sink-insts-to-avoid-spills` under schedule_hint='attention', ROCm 3.8's
`amdgpu-use-amdgpu-trackers` on some archs): reading the backend's source cannot tell which ones a compile passed.
So the entry points that take them (ENTRY_POINTS) are wrapped while a compile of ours runs one of those two methods
(pass-through, counted: put back when none runs), and the compile's backend has its make_llir / make_amdgcn wrapped
(`collect_on`, per compile: Triton makes a backend per compile) to note what each call passed into that call's
metadata: `metadata["triton_mfma_llvm_flags"] = {"make_llir": [...], "make_amdgcn": [...]}`. Trial compiles note
theirs into their own metadata, and the one handed to Triton brings its own with it.
"""
from __future__ import annotations

import contextvars
import functools
import importlib
import threading

KEY = "triton_mfma_llvm_flags"
METHODS = ("make_llir", "make_amdgcn")
# (module, function, index of `flags` among its positional arguments; None: keyword `flags` only)
ENTRY_POINTS = (
    ("triton._C.libtriton.llvm", "optimize_module", 4),  # (module, opt level, arch, features, flags, fp fusion)
    ("triton._C.libtriton.llvm", "attach_datalayout", 4),  # 3.9: (module, triple, arch, features, flags)
    ("triton._C.libtriton.llvm", "translate_to_asm", 4),  # 3.8: (src, triple, arch, features, flags, ...)
    ("triton._C.libtriton.llvm", "translate_to_mir", 4),
    ("triton._C.libtriton.llvm", "translate_mir_to_asm", 4),
    ("triton.backends.amd.compiler", "compile_amdgpu", None),  # 3.9: (src, triple, arch, features, *, flags, ...)
)

_noted: contextvars.ContextVar = contextvars.ContextVar("triton_mfma_llvm_flags", default=None)
_lock = threading.Lock()
_users = 0  # calls of make_llir / make_amdgcn running with the entry points wrapped
_originals: list = []  # (module, name, function) put back when no call runs


def _recording(fn, index):
    @functools.wraps(fn)
    def call(*args, **kwargs):
        noted = _noted.get()
        if noted is not None:
            flags = kwargs.get("flags", args[index] if index is not None and len(args) > index else None)
            if isinstance(flags, (list, tuple)):
                noted.extend(str(f) for f in flags)
        return fn(*args, **kwargs)

    return call


def _wrap_entry_points() -> None:
    global _users
    with _lock:
        _users += 1
        if _users > 1:
            return
        for module_name, name, index in ENTRY_POINTS:
            try:
                module = importlib.import_module(module_name)
            except ImportError:
                continue
            fn = getattr(module, name, None)
            if callable(fn):
                _originals.append((module, name, fn))
                setattr(module, name, _recording(fn, index))


def _unwrap_entry_points() -> None:
    global _users
    with _lock:
        _users -= 1
        if _users == 0:
            while _originals:
                module, name, fn = _originals.pop()
                setattr(module, name, fn)


def _collecting(method: str, fn, src, metadata, options):
    noted: list = []
    token = _noted.set(noted)
    _wrap_entry_points()
    try:
        return fn(src, metadata, options)
    finally:
        _unwrap_entry_points()
        _noted.reset(token)
        if isinstance(metadata, dict):  # a new dict: metadata copies made before share the old one
            metadata[KEY] = {**(metadata.get(KEY) or {}), method: list(dict.fromkeys(noted))}


def collect_on(backend) -> None:
    """This compile's `backend` notes the LLVM flags each make_llir / make_amdgcn call passes (module docstring)."""
    for method in METHODS:
        fn = getattr(backend, method, None)
        if callable(fn) and not isinstance(fn, functools.partial):
            setattr(backend, method, functools.partial(_collecting, method, fn))


def describe(noted: dict | None) -> str:
    """The report's words for what a compile's metadata noted: the flags, per method where they differ."""
    if not noted:
        return "not recorded (compiled without triton-mfma)"
    lists = {m: noted.get(m) for m in METHODS if m in noted}
    words = {m: " ".join(v) or "none" for m, v in lists.items()}
    if len(set(words.values())) == 1:
        flags = next(iter(words.values()))
        return f"{flags} passed" if flags != "none" else "none passed"
    return "; ".join(f"{m}: {w}" for m, w in words.items())
