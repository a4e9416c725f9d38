"""The command line's user errors and the checks main() runs before any work: no file is parsed, nothing is
compiled, before they pass. A user error (`CliError`) is one line on stderr and exit status 2."""
from __future__ import annotations

import os
import sys

from ..compiler import hook
from ..composition import passes as passes_mod, remarks
from ..ir import native
from ..ir.bridge import BridgeError, TritonBuildError, _CapturedStderr, _LOCK, probe
from ..ir.cli_error import CliError
from ..ir.native import PipelineError
from ..ir.triton_ir import DUMP_HEADER

PLOT_FORMATS = ("png", "pdf", "svg", "jpg", "jpeg")


def _as_list(value, what: str) -> list[str] | None:
    """None, "a,b" or ["a", "b"] -> a list of names (a string is never iterated character by character)."""
    if value is None:
        return None
    if isinstance(value, str):
        value = [value]
    out = [p.strip() for v in value for p in str(v).split(",") if p.strip()]
    if not out:
        raise CliError(f"empty {what} list")
    return out


def _check_activation(passes, options: dict) -> None:
    """Validate a pass list and options exactly as `triton_mfma.enabled(...)` does (ValueError -> one line);
    an unknown name first, with the closest known one."""
    for name in passes or []:
        if name not in passes_mod.REGISTRY:
            raise CliError(f"unknown triton-mfma pass {name!r}{_suggest(name, passes_mod.REGISTRY)}; known: "
                           f"{', '.join(passes_mod.REGISTRY)}")
    known = passes_mod.option_names() | {o.name for o in passes_mod.HOOK_OPTIONS}
    for name in options:
        if name not in known:
            raise CliError(f"unknown triton-mfma option {name!r}{_suggest(name, known)} (`triton-mfma passes` "
                           "lists them)")
    with hook.enabled(passes=passes, **options):
        pass


# What the command line needs of Triton (pipeline.MIN_TRITON: pipeline refuses an unusable Triton as it is imported,
# so its constant cannot be read there; test_cli checks the two agree).
MIN_TRITON = (3, 8)
NEEDS = f"Triton {MIN_TRITON[0]}.{MIN_TRITON[1]} or newer"
INSTALL = f"pip install 'triton>={MIN_TRITON[0]}.{MIN_TRITON[1]}', or the one your PyTorch brings"
TRITON_COMMANDS = ("demo", "report", "opt")  # the commands that compile or parse with Triton


class TritonStatus:
    """The installed Triton as the command line finds it: `found` ("Triton 3.9.0 (/path)", "no Triton"), and
    `problem` (None: usable); `fatal`: no command can work with it (else the project is off and compiles are
    stock Triton's: a build without the symbols the bridge calls)."""

    def __init__(self, found: str, problem: str | None = None, fatal: bool = True, fix: str = ""):
        self.found, self.problem, self.fatal = found, problem, fatal and problem is not None
        self.fix = fix or f"triton-mfma needs {NEEDS}: {INSTALL}"

    def error_line(self) -> str:
        return f"{self.found}: {self.problem}; {self.fix}"

    def version_text(self) -> str:
        if self.problem is None:
            return f"{self.found}: supported"
        return f"{self.found}: unsupported ({self.problem}; {self.fix})"


def _first(e: BaseException) -> str:
    text = str(e).strip()
    return f"{type(e).__name__}: {text.splitlines()[0]}" if text else type(e).__name__


def triton_status() -> TritonStatus:
    """Whether the installed Triton can be used: found, importable, new enough, whole, and offering what the bridge
    calls (bridge.probe). Never raises."""
    import importlib.util
    import re

    try:
        spec = importlib.util.find_spec("triton")
    except Exception:  # noqa: BLE001 - a broken finder: as if none were installed
        spec = None
    if spec is None:
        return TritonStatus("no Triton", f"no module 'triton' is installed for {sys.executable}")
    where = os.path.dirname(spec.origin) if spec.origin else next(iter(spec.submodule_search_locations or []), "?")
    try:
        import triton
    except (Exception, SystemExit) as e:  # noqa: BLE001 - whatever its import raises is one line
        needs = getattr(e, "name", None) if isinstance(e, ModuleNotFoundError) else None
        if needs and needs.split(".")[0] != "triton":  # a module this build imports (torch) is missing
            return TritonStatus(f"Triton ({where})", f"cannot be imported: {_first(e)}",
                                fix=f"this Triton needs {needs.split('.')[0]}: install it, or another {NEEDS}")
        return TritonStatus(f"Triton ({where})", f"cannot be imported: {_first(e)}")
    version = str(getattr(triton, "__version__", "?"))
    found = f"Triton {version} ({where})"
    m = re.match(r"(\d+)\.(\d+)", version)
    if not m:
        return TritonStatus(found, f"its version {version!r} cannot be read")
    if (int(m.group(1)), int(m.group(2))) < MIN_TRITON:
        return TritonStatus(found, "too old")
    try:
        from triton import knobs  # noqa: F401 - what the hook sets
        from triton._C import libtriton  # noqa: F401
        from triton.compiler import ASTSource  # noqa: F401
    except (Exception, SystemExit) as e:  # noqa: BLE001
        return TritonStatus(found, f"cannot be imported whole: {_first(e)}")
    try:
        probe()
    except TritonBuildError as e:
        return TritonStatus(found, f"its libtriton ({e.library}) lacks {', '.join(e.missing)}", fatal=False,
                            fix="triton-mfma stays off for it, its compiles are stock Triton's")
    return TritonStatus(found)


def check_triton() -> TritonStatus:
    """CliError (one line: what was found, what is needed) where no command can use the installed Triton."""
    status = triton_status()
    if status.fatal:
        raise CliError(status.error_line())
    return status


def _triton_version_text() -> str:
    check_triton()
    import triton

    return triton.__version__


def _check_plot_dependency() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise CliError("--plot needs matplotlib: pip install matplotlib (or 'triton-mfma[plot]')") from None


def _suggest(word: str, choices) -> str:
    """ " (did you mean X?)" for the closest of `choices` (underscores read as hyphens too), else ""."""
    import difflib

    choices = list(choices)
    for w in (word, word.replace("_", "-"), word.replace("-", "_")):
        if w != word and w in choices:
            return f" (did you mean {w!r}?)"
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    if not close:  # a pass option's name without its pass's prefix (mode -> grid_mode)
        close = [c for c in choices if isinstance(c, str) and c.endswith(("_" + word, "-" + word))][:1]
    return f" (did you mean {close[0]!r}?)" if close else ""


def _check_kernel_spec(spec: str) -> tuple[str, str]:
    path, sep, name = spec.rpartition(":")
    if not sep or not path.endswith(".py") or not name:
        raise CliError(f"expected FILE.py:KERNEL, got {spec!r}")
    if not os.path.isfile(path):
        raise CliError(f"no such file: {path}")
    return path, name


def _check_output_path(path: str, what: str) -> None:
    """`path` can be written: its directory exists and it is not a directory."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise CliError(f"{what} {path} is a directory; give a file name")
    if not os.path.isdir(folder):
        raise CliError(f"{what} {path}: no such directory {folder}")
    if not os.access(folder, os.W_OK):
        raise CliError(f"{what} {path}: the directory {folder} is not writable")


def _check_plot(path: str) -> None:
    _check_output_path(path, "--plot")
    ext = os.path.splitext(path)[1].lstrip(".").lower()
    if ext not in PLOT_FORMATS:
        raise CliError(f"--plot {path}: give one of the file types {', '.join('.' + e for e in PLOT_FORMATS)}")
    _check_plot_dependency()


def _check_constexprs(items) -> None:
    for c in items or []:
        k, sep, _ = c.partition("=")
        if not sep or not k.strip():
            raise CliError(f"--constexpr expects NAME=VALUE, got {c!r}")


def _split_top(text: str, what: str) -> list[str]:
    """`text` split at its top-level commas; CliError for an unbalanced '{' or '('."""
    parts, depth, start, opened = [], [], 0, {"{": "}", "(": ")"}
    for i, ch in enumerate(text):
        if ch in opened:
            depth.append((ch, i))
        elif ch in "})":
            if not depth or opened[depth[-1][0]] != ch:
                raise CliError(f"{what}: unmatched {ch!r} at column {i + 1} of {text!r}")
            depth.pop()
        elif ch == "," and not depth:
            parts.append(text[start:i])
            start = i + 1
    if depth:
        ch, i = depth[-1]
        raise CliError(f"{what}: unclosed {ch!r} at column {i + 1} of {text!r}")
    parts.append(text[start:])
    return parts


def _option_value_ok(kind: str, value: str) -> bool:
    if kind == "unsigned":
        return value.isdigit()
    if kind == "int64_t":
        return value.lstrip("-").isdigit()
    if kind == "bool":
        return value.lower() in ("true", "false", "1", "0")
    return True


def check_pipeline_text(text: str) -> None:
    """A --pipeline of our passes, checked without a module: the syntax, the pass names, the option names and
    value types (from the C++ passes' own registry), then the passes' own option checks on an empty module."""
    registry = native.pass_registry()
    body = text.strip()
    if body.startswith("builtin.module(") and body.endswith(")"):
        body = body[len("builtin.module("):-1]
    _split_top(text, "--pipeline")
    for element in _split_top(body, "--pipeline"):
        element = element.strip()
        if not element:
            raise CliError(f"--pipeline: an empty pass in {text!r}")
        name, brace, opts = element.partition("{")
        name = name.strip()
        if name not in registry:
            raise CliError(f"--pipeline: no triton-mfma pass {name!r}{_suggest(name, registry)}; known: "
                           f"{', '.join(registry)}")
        if brace and not opts.rstrip().endswith("}"):
            raise CliError(f"--pipeline: {element!r}: text after the options' closing '}}'")
        declared = {o["argument"]: o.get("type", "") for o in registry[name].get("options", [])}
        for item in opts.rstrip()[:-1].split() if brace else []:
            key, eq, value = item.partition("=")
            if key not in declared:
                raise CliError(f"--pipeline: {name} has no option {key!r}{_suggest(key, declared)}; its options: "
                               f"{', '.join(declared) or 'none'}")
            if not eq or not _option_value_ok(declared[key], value):
                raise CliError(f"--pipeline: {name} option {key}={value!r}: expected a value of type "
                               f"{declared[key] or 'string'}")
    pipeline = text if text.startswith("builtin.module(") else f"builtin.module({text})"
    with _LOCK, _CapturedStderr():  # what LLVM's option parser prints to stderr itself is not ours to show
        try:
            native.run_pipeline_with_diagnostics("module {}", pipeline)
        except native.PipelineError as e:
            diag = next((d for d in e.diagnostics if d.severity == "error"), None)
            msg = diag.message.splitlines()[0] if diag else str(e).splitlines()[-1]
            raise CliError(f"--pipeline {text!r}: {msg}") from None


def opt_pipeline(passes, options: dict, num_stages: int | None = None) -> str:
    """MLIR pipeline text for `passes` with `options` (the Python option names of `triton-mfma passes`)."""
    from types import SimpleNamespace

    triton_options = SimpleNamespace(num_stages=num_stages) if num_stages is not None else None
    elements = []
    for name in passes:
        p = passes_mod.REGISTRY[name]
        opts = options
        if getattr(p, "resolve", None):
            try:
                opts = p.resolve(options, None)
            except ValueError as e:
                raise CliError(f"{name}: {e} (`opt` works on IR alone, without a compile)") from None
        elements.append(p.pipeline_element(opts, triton_options))
    return "builtin.module(" + ",".join(elements) + ")"


def _check_opt(args) -> None:
    if args.passes and args.pipeline:
        raise CliError("give --passes or --pipeline, not both")
    options = dict(args.option or [])
    if args.pipeline and options:
        raise CliError("--option goes with --passes (a --pipeline carries its own options)")
    if options and not args.passes:
        raise CliError("--option goes with --passes")
    if args.passes:
        passes = _as_list(args.passes, "pass")
        _check_activation(passes, options)
        opt_pipeline(passes, options, args.num_stages)
    if args.pipeline:
        check_pipeline_text(args.pipeline)
    if args.output and args.output != "-":
        _check_output_path(args.output, "-o")
    if args.file != "-" and not os.path.isfile(args.file):
        raise CliError(f"no such file: {args.file}")
    if args.file != "-" and not args.dump_pass:
        with open(args.file, errors="replace") as f:
            split = any(ln.startswith("// -----") and not ln.startswith(DUMP_HEADER) for ln in f)
        if split:
            raise CliError(f"{args.file} holds several modules separated by '// -----' (-split-input-file input, "
                           "as lit tests are; `mfma-opt -split-input-file` reads it): give `opt` one module")


def _check_report(args) -> None:
    _check_kernel_spec(args.kernel)
    _check_constexprs(args.constexpr)
    _check_activation(_as_list(args.passes, "pass"), dict(args.option or []))
    if args.plot:
        _check_plot(args.plot)


def _check_environment() -> None:
    """Environment values triton-mfma does not accept; TRITON_CODEGEN_AMD's was reported at start-up already
    where the autoload ran (then nothing more is printed)."""
    problems = remarks.environment_problems()
    if problems:
        autoload = sys.modules.get("triton_mfma._autoload")
        if autoload is not None and getattr(autoload, "REPORTED", False) and problems[0].startswith(
                "TRITON_CODEGEN_AMD="):
            raise _AlreadyReported()
        raise CliError(problems[0])


class _AlreadyReported(CliError):
    """A user error whose one line is already on stderr."""


def check_args(args) -> None:
    """Every check that needs no work: the environment, then the command's arguments (CliError, one line)."""
    _check_environment()
    if args.cmd == "report":
        _check_report(args)
    elif args.cmd == "opt":
        _check_opt(args)
    elif args.cmd == "demo":
        _check_activation(_as_list(args.passes, "pass"), dict(args.option or []))


def _error_line(e: BaseException) -> tuple[str, int]:
    """(one-line message, exit status) of an exception."""
    first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    try:
        from triton.compiler.errors import CompilationError
    except Exception:  # noqa: BLE001 - no Triton at all, or one that does not import
        CompilationError = ()  # noqa: N806
    if CompilationError and isinstance(e, CompilationError):
        msg = e.error_message or (str(e.__cause__).strip().splitlines()[0] if e.__cause__ else "")
        if not msg:
            msg = str(e).strip().splitlines()[-1]
        where = f" (kernel line {e.node.lineno})" if hasattr(e.node, "lineno") else ""
        return f"Triton could not compile the kernel{where}: {msg}", 2
    if isinstance(e, PipelineError):
        diag = next((d for d in e.diagnostics if d.severity == "error"), None)
        return (f"pipeline '{e.pipeline}' failed: {diag.location + ': ' if diag and diag.location else ''}"
                f"{diag.message.splitlines()[0] if diag else '(no diagnostic)'}"), 2
    if isinstance(e, (CliError, ValueError, ImportError, BridgeError, TritonBuildError, OSError)):
        return first, 2
    return f"internal error: {type(e).__name__}: {first} (--debug shows the traceback)", 1
