"""The pass runner: our passes at one insertion point, on one Triton module, through the bridge.

    module --export_generic--> text --libTritonMFMA (MLIR 22)--> text --import_generic--> module

The pipeline text is built from checked option values only (passes.Option.pipeline_value). Each pass reports a
structured outcome (applied / unchanged / declined + reason) next to its remarks; a pass at a replacing point that
declines the module leaves the IR unchanged, and the composed make_ttgir then runs Triton's own step there.
"""
from __future__ import annotations

import os
import re
import sys
import threading
from dataclasses import dataclass, field

from . import native
from .bridge import BridgeError, export_generic, import_generic
from .native import PipelineError

_dump_lock = threading.Lock()
_dump_counter = 0


class PassFailure(RuntimeError):
    def __init__(self, pass_names: str, kernel: str, cause: BaseException):
        self.pass_names, self.kernel, self.cause = pass_names, kernel, cause
        super().__init__(f"triton-mfma: {pass_names} failed on kernel '{kernel}': {cause}")


class DumpFailure(PassFailure):
    """The `dump=` directory (TRITON_MFMA_DUMP) could not be written: the cause named, not the passes."""

    def __init__(self, pass_names: str, kernel: str, dump_dir: str, cause: OSError):
        super().__init__(pass_names, kernel, cause)
        RuntimeError.__init__(self, f"triton-mfma: cannot write the dump directory {dump_dir!r} (option dump= / "
                                    f"TRITON_MFMA_DUMP) for kernel '{kernel}': {cause.strerror or cause}")


@dataclass(frozen=True)
class Outcome:
    pass_name: str
    status: str  # "applied" | "unchanged" | "declined"
    reason: str = ""


@dataclass
class PointResult:
    module: object
    outcomes: list = field(default_factory=list)
    diagnostics: list = field(default_factory=list)
    text: str = field(default="", repr=False)  # the module's generic text (what the library printed)
    before: str = field(default="", repr=False)  # the generic text of the module the passes were given

    def declined(self) -> bool:
        return any(o.status == "declined" for o in self.outcomes)


def kernel_name(mod) -> str:
    try:
        return mod.get_entry_func_name()
    except Exception:  # noqa: BLE001 - a module without a public function
        return "<unknown>"


def dump(dump_dir: str | None, kernel: str, label: str, text: str) -> None:
    global _dump_counter
    if not dump_dir:
        return
    with _dump_lock:
        _dump_counter += 1
        n = _dump_counter
    d = os.path.join(dump_dir, re.sub(r"[^A-Za-z0-9_.-]", "_", kernel))
    try:
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, f"{n:04d}-{label}.mlir"), "w") as f:
            f.write(text)
    except OSError as e:
        raise DumpFailure(label, kernel, dump_dir, e) from e


def _mlir_dump(kernel: str, when: str, names: str, label: str, mod) -> None:
    """Our passes in MLIR_ENABLE_DUMP's stream, the way Triton's own passes appear there (`triton-mfma opt
    --dump-pass <pass>` finds them)."""
    value = os.environ.get("MLIR_ENABLE_DUMP", "0").strip()
    if value in ("", "0") or (value != "1" and value != kernel):
        return
    sys.stderr.write(f"// -----// IR Dump {when} {names}: triton-mfma at {label} ('builtin.module' operation) "
                     f"//----- //\n{mod.str()}\n\n")
    sys.stderr.flush()


def _run(text: str, pipeline: str):
    """(text, diagnostics, outcomes) from the library; outcomes from the C API where it reports them, else from
    the passes' "<pass> declined: ..." remarks."""
    full = getattr(native, "run_pipeline_full", None)
    if full is not None:
        r = full(text, pipeline)
        return r.text, r.diagnostics, [Outcome(o.pass_name, o.status, o.reason) for o in r.outcomes]
    out, diagnostics = native.run_pipeline_with_diagnostics(text, pipeline)
    outcomes = []
    for d in diagnostics:
        m = re.match(r"^(mfma-[a-z0-9-]+) declined: (.*)$", d.message) if d.severity == "remark" else None
        if m:
            outcomes.append(Outcome(m[1], "declined", m[2]))
    return out, diagnostics, outcomes


def run_passes(passes, mod, *, user_options: dict, triton_options=None, ctx=None, dump_dir=None,
               label: str = "", before: str | None = None) -> PointResult:
    """Run `passes` (passes.ProjectPass, in order) on `mod`; returns the new module and what the passes said.
    `before`: `mod`'s generic text where the caller has printed it already.
    Raises PassFailure (bridge, option resolution or pass failure)."""
    kernel = kernel_name(mod)
    names = ",".join(p.name for p in passes)
    try:
        elements = [p.pipeline_element(p.resolve(user_options, ctx) if p.resolve else user_options, triton_options)
                    for p in passes]
    except ValueError as e:
        raise PassFailure(names, kernel, e) from e
    pipeline = "builtin.module(" + ",".join(elements) + ")"
    try:
        if before is None:
            before = export_generic(mod)
        dump(dump_dir, kernel, f"{label}-before-{names}", before)
        _mlir_dump(kernel, "Before", names, label, mod)
        after, diagnostics, outcomes = _run(before, pipeline)
        dump(dump_dir, kernel, f"{label}-after-{names}", after)
        result = mod if after == before else import_generic(after, mod.context, pass_name=names)
        _mlir_dump(kernel, "After", names, label, result)
        return PointResult(result, outcomes, diagnostics, after, before)
    except DumpFailure:
        raise
    except (PipelineError, BridgeError, OSError) as e:
        raise PassFailure(names, kernel, e) from e
