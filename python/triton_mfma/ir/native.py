"""ctypes front of libTritonMFMA.so: run our C++ passes (upstream MLIR 22.1.8) on generic MLIR text.

The library exports only the C API of include/TritonMFMA/CAPI.h (every `tmfma_*` function) and hides
every MLIR/LLVM symbol, so it lives beside Triton's own MLIR in one process. ctypes keeps it
CPython-version free. Besides running pipelines, the C API answers what the C++ knows: the target
description (`target_info`), the L2 model (`l2_query`) and the MFMA instruction table (`mfma_cycles`).
"""
from __future__ import annotations

import ctypes
import json
import os
import re
import warnings
from dataclasses import dataclass

NATIVE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_native")  # triton_mfma/_native
LIBRARY_PATH = os.path.join(NATIVE_DIR, "libTritonMFMA.so")
MFMA_OPT_PATH = os.path.join(NATIVE_DIR, "mfma-opt")
PASSES_JSON_PATH = os.path.join(NATIVE_DIR, "passes.json")

_lib = None


class PipelineError(RuntimeError):
    """A pass pipeline failed: the input did not parse, the pipeline is unknown, or a pass failed."""

    def __init__(self, pipeline: str, diagnostics: list["Diagnostic"]):
        self.pipeline = pipeline
        self.diagnostics = diagnostics
        lines = "\n".join(str(d) for d in diagnostics) or "(no diagnostic)"
        super().__init__(f"pipeline '{pipeline}' failed:\n{lines}")


class MFMARemark(UserWarning):
    """A remark from one of our passes (a decision and its reason)."""


class MFMAWarning(UserWarning):
    """A warning from one of our passes, or a fallback to stock Triton."""


@dataclass(frozen=True)
class Diagnostic:
    severity: str  # "error" | "warning" | "remark" | "note"
    location: str
    message: str

    def __str__(self) -> str:
        return f"{self.location}: {self.severity}: {self.message}" if self.location else f"{self.severity}: {self.message}"


@dataclass(frozen=True)
class Outcome:
    """What one pass run did (include/TritonMFMA/PassOutcome.h)."""
    pass_name: str  # the pass argument, e.g. "mfma-stream-pipeline"
    status: str  # "applied" | "unchanged" | "declined" (run Triton's own pass in its place)
    reason: str  # one line

    def __str__(self) -> str:
        return f"{self.pass_name}: {self.status}: {self.reason}"


@dataclass(frozen=True)
class PipelineResult:
    text: str
    diagnostics: list[Diagnostic]
    outcomes: list[Outcome]

    def outcome(self, pass_name: str) -> Outcome | None:
        """The last outcome of `pass_name` in this run, if it ran."""
        return next((o for o in reversed(self.outcomes) if o.pass_name == pass_name), None)

    def declined(self) -> list[str]:
        """Passes that declined the module (their Triton counterparts must run in their place)."""
        return [o.pass_name for o in self.outcomes if o.status == "declined"]


def parse_outcomes(text: str) -> list[Outcome]:
    """Split the library's "<pass>\t<status>\t<reason>" lines."""
    out = []
    for line in text.splitlines():
        if line:
            name, status, reason = (line.split("\t", 2) + ["", ""])[:3]
            out.append(Outcome(name, status, reason))
    return out


_DIAG_LINE = re.compile(r"^(error|warning|remark|note): (.*)$")
_FILE_LOC = re.compile(r"^\S+:\d+:\d+$")


def parse_diagnostics(text: str) -> list[Diagnostic]:
    """Split the library's "<severity>: <location>: <message>" lines; continuation lines join the last one."""
    out: list[Diagnostic] = []
    for line in text.splitlines():
        m = _DIAG_LINE.match(line)
        if m:
            rest = m.group(2)
            loc, sep, msg = rest.partition(": ")
            if not sep or not (loc.startswith("loc(") or _FILE_LOC.match(loc)):
                loc, msg = "", rest
            out.append(Diagnostic(m.group(1), loc, msg))
        elif out and line.strip():
            last = out.pop()
            out.append(Diagnostic(last.severity, last.location, last.message + "\n" + line))
    return out


def library():
    """Load libTritonMFMA.so once (ImportError with the build hint if it is missing)."""
    global _lib
    if _lib is None:
        if not os.path.exists(LIBRARY_PATH):
            raise ImportError(f"{LIBRARY_PATH} is missing: build the package with `pip install .` (or -e .)")
        lib = ctypes.CDLL(LIBRARY_PATH)
        lib.tmfma_run_pipeline.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p),
                                           ctypes.POINTER(ctypes.c_void_p)]
        lib.tmfma_run_pipeline.restype = ctypes.c_int
        lib.tmfma_run_pipeline_ex.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p),
                                              ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p)]
        lib.tmfma_run_pipeline_ex.restype = ctypes.c_int
        lib.tmfma_free.argtypes = [ctypes.c_void_p]
        lib.tmfma_free.restype = None
        lib.tmfma_version.argtypes = []
        lib.tmfma_version.restype = ctypes.c_char_p
        lib.tmfma_mfma_table.argtypes = []
        lib.tmfma_mfma_table.restype = ctypes.c_void_p
        lib.tmfma_target_info.argtypes = []
        lib.tmfma_target_info.restype = ctypes.c_void_p
        lib.tmfma_l2_query.argtypes = [ctypes.c_char_p]
        lib.tmfma_l2_query.restype = ctypes.c_void_p
        _lib = lib
    return _lib


def native_version() -> str:
    return library().tmfma_version().decode()


_mfma_cycles: tuple | None = None  # (cycles, macs), read once


def mfma_cycles() -> dict:
    """(arch, amdgcn mnemonic) -> issue cycles of one hardware instruction, from the C++ instruction table
    (the figures mfma-accelerate-dot's cost model uses)."""
    return _mfma_table()[0]


def mfma_macs() -> dict:
    """(arch, amdgcn mnemonic) -> multiply-adds per wave of one hardware instruction (the same table)."""
    return _mfma_table()[1]


def _mfma_table() -> tuple[dict, dict]:
    global _mfma_cycles
    if _mfma_cycles is None:
        lib = library()
        cycles, macs = {}, {}
        for line in _take(lib, ctypes.c_void_p(lib.tmfma_mfma_table())).splitlines():
            arch, mnemonic, c, m = line.split()
            cycles[arch, mnemonic], macs[arch, mnemonic] = int(c), int(m)
        _mfma_cycles = cycles, macs
    return _mfma_cycles


_pass_registry: dict | None = None


def pass_registry() -> dict:
    """Every pass of the library, generated at build time from include/TritonMFMA/Passes.td
    (`_native/passes.json`), keyed by pass argument ("mfma-grid-order"): {"argument", "name", "summary",
    "description", "options": [{"argument", "cpp_name", "type" (C++), "default" (C++ text), "default_value"
    (parsed: bool / int / str), "description", "list"}]}. Options are declared once, in Passes.td."""
    global _pass_registry
    if _pass_registry is None:
        if not os.path.exists(PASSES_JSON_PATH):
            raise ImportError(f"{PASSES_JSON_PATH} is missing: build the package with `pip install .` (or -e .)")
        with open(PASSES_JSON_PATH) as f:
            _pass_registry = json.load(f)
    return json.loads(json.dumps(_pass_registry))  # a copy: callers may edit theirs


_target_info: list | None = None


def target_info() -> list[dict]:
    """The C++ target description (lib/Analysis/TargetInfo.cpp), one dict per target ("hip:gfx90a", "hip:gfx942",
    "hip:gfx950", "cuda:90"): CUs, XCDs, L2, LDS, register files, wave size and the bench's prediction figures
    (field names: include/TritonMFMA/CAPI.h, tmfma_target_info)."""
    global _target_info
    if _target_info is None:
        lib = library()
        _target_info = json.loads(_take(lib, ctypes.c_void_p(lib.tmfma_target_info())))
    return [dict(t) for t in _target_info]


def l2_query(request: dict) -> dict:
    """Ask the C++ L2 model of mfma-grid-order (lib/Analysis/L2Model.cpp): programs at once, effective L2 and,
    with a "grid", the run-time guard's verdict. Request and answer fields: include/TritonMFMA/CAPI.h
    (tmfma_l2_query). A bad request raises ValueError."""
    lib = library()
    answer = json.loads(_take(lib, ctypes.c_void_p(lib.tmfma_l2_query(json.dumps(request).encode()))))
    if "error" in answer:
        raise ValueError(f"tmfma_l2_query: {answer['error']}")
    return answer


def _take(lib, ptr: ctypes.c_void_p) -> str:
    if not ptr.value:
        return ""
    try:
        return ctypes.string_at(ptr.value).decode("utf-8", "replace")
    finally:
        lib.tmfma_free(ptr.value)


def run_pipeline_with_diagnostics(text: str, pipeline: str) -> tuple[str, list[Diagnostic]]:
    """Run `pipeline` (MLIR textual pipeline syntax) on generic text; return (text, diagnostics).

    Raises PipelineError when the library reports failure.
    """
    lib = library()
    out, diag = ctypes.c_void_p(), ctypes.c_void_p()
    rc = lib.tmfma_run_pipeline(text.encode(), pipeline.encode(), ctypes.byref(out), ctypes.byref(diag))
    result, diagnostics = _take(lib, out), parse_diagnostics(_take(lib, diag))
    if rc != 0:
        raise PipelineError(pipeline, diagnostics)
    return result, diagnostics


def run_pipeline_full(text: str, pipeline: str) -> PipelineResult:
    """Run `pipeline` on generic text; return the text, the diagnostics and each pass's outcome (applied /
    unchanged / declined, with a reason). Raises PipelineError when the library reports failure."""
    lib = library()
    out, diag, outcomes = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
    rc = lib.tmfma_run_pipeline_ex(text.encode(), pipeline.encode(), ctypes.byref(out), ctypes.byref(diag),
                                   ctypes.byref(outcomes))
    result, diagnostics = _take(lib, out), parse_diagnostics(_take(lib, diag))
    passes = parse_outcomes(_take(lib, outcomes))
    if rc != 0:
        raise PipelineError(pipeline, diagnostics)
    return PipelineResult(result, diagnostics, passes)


def run_pipeline(text: str, pipeline: str) -> str:
    """Run our passes on generic MLIR text. Errors raise PipelineError; warnings and remarks become
    Python warnings (MFMAWarning / MFMARemark) carrying their locations."""
    result, diagnostics = run_pipeline_with_diagnostics(text, pipeline)
    for d in diagnostics:
        if d.severity == "warning":
            warnings.warn(str(d), MFMAWarning, stacklevel=2)
        elif d.severity == "remark":
            warnings.warn(str(d), MFMARemark, stacklevel=2)
    return result
