"""The one place where Triton's MLIR (LLVM b010a18d, inside libtriton.so) meets ours (MLIR 22.1.8).

They share no C++ ABI, so modules cross as *generic MLIR text*:

    export_generic(module)        Triton module -> generic text (full debug locations, no aliases)
    import_generic(text, context) generic text  -> Triton module, parsed and verified by Triton
    strip_locations(text)         generic text without its `loc(...)` (for comparing what the code is)
    with_aliases(text)            the same module, each dialect attribute printed once as an alias

Texts cross with every attribute inline (`--mlir-print-local-scope`; our MLIR 22 holds Triton's attributes as
opaque ones and prints them inline too), and a TTGIR repeats its layouts at every value: Triton's parser then
parses each occurrence again. `import_generic` hands Triton the aliased form, which parses to the same module
(aliases are syntax only) about twice as fast on a TTGIR.

Triton prints generic form only when the global LLVM options `--mlir-print-op-generic` and
`--mlir-print-local-scope` are set. libtriton.so exports `LLVMParseCommandLineOptions` and
`mlir::registerAsmPrinterCLOptions()`, so we register the printer options once and flip them around
each print. They are process-global: a lock serialises every flip, and every path restores them.

What a build offers is probed, not assumed from its version (`probe`): at first use per libtriton, every symbol
and Python binding the project calls is resolved; a build lacking one (a build made without exported symbols,
e.g. fbtriton 3.8.0rc3's libtriton exports one) raises `TritonBuildError`, and the hook keeps the project off for it.
"""
from __future__ import annotations

import ctypes
import os
import re
import tempfile
import threading

_LOCK = threading.RLock()
_PRINTER_OPTS_REGISTERED = False


class BridgeError(RuntimeError):
    """Text produced by a pass did not parse or verify in Triton.

    `text` keeps the offending module for inspection; `pass_name` names its producer.
    """

    def __init__(self, message: str, text: str = "", pass_name: str | None = None, diagnostics: str = ""):
        self.text = text
        self.pass_name = pass_name
        self.diagnostics = diagnostics
        where = f" (text produced by {pass_name})" if pass_name else ""
        detail = f"\n{diagnostics.strip()}" if diagnostics.strip() else ""
        super().__init__(f"{message}{where}{detail}")


class TritonBuildError(RuntimeError):
    """The installed Triton build lacks a symbol or binding the project calls: the project stays off for it
    (its compiles are stock Triton's; strict mode raises this). `version`, `library`, `missing` name what."""

    def __init__(self, version: str, library: str, missing: list[str]):
        self.version, self.library, self.missing = version, library, list(missing)
        super().__init__(f"triton-mfma cannot run on Triton {version} (libtriton: {library}): it lacks "
                         f"{', '.join(self.missing)}; triton-mfma stays off for this build, its compiles are stock "
                         "Triton's")


# What the project calls in libtriton: C symbols through ctypes (the generic-printing switch), with how to show
# them, and Triton's Python bindings (bridge, engine, pipeline).
SYMBOLS = {"LLVMParseCommandLineOptions": "LLVMParseCommandLineOptions",
           "_ZN4mlir27registerAsmPrinterCLOptionsEv": "mlir::registerAsmPrinterCLOptions() "
                                                      "(_ZN4mlir27registerAsmPrinterCLOptionsEv)"}
BINDINGS = ("ir.parse_mlir_module", "ir.context", "ir.load_dialects", "ir.pass_manager", "ir.module.str",
            "ir.module.get_entry_func_name")
_BUILDS: dict = {}  # libtriton path -> its ctypes handle, or the TritonBuildError it raised


def _library_path() -> str:
    from triton._C import libtriton

    return libtriton.__file__


def _missing_bindings() -> list[str]:
    try:
        from triton._C.libtriton import ir
    except Exception as e:  # noqa: BLE001 - a binding module that does not import is a missing one
        return [f"the binding triton._C.libtriton.ir ({type(e).__name__}: {e})"]
    missing = []
    for name in BINDINGS:
        obj = ir
        for part in name.split(".")[1:]:
            obj = getattr(obj, part, None)
        if obj is None:
            missing.append(f"the binding {name}")
    return missing


def probe(path: str | None = None):
    """libtriton (`path`: the installed Triton's) as a ctypes handle, once every symbol and binding the project
    calls resolves; else TritonBuildError naming the build, the file and what is missing. Probed once per file."""
    with _LOCK:
        path = path or _library_path()
        if path not in _BUILDS:
            _BUILDS[path] = _probe(path)
        found = _BUILDS[path]
    if isinstance(found, TritonBuildError):
        raise found
    return found


def _probe(path: str):
    try:
        import triton

        version = str(getattr(triton, "__version__", "of unknown version"))
    except Exception:  # noqa: BLE001 - named as unknown; the missing pieces say the rest
        version = "of unknown version"
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        return TritonBuildError(version, path, [f"a loadable library ({e})"])
    missing = [shown for sym, shown in SYMBOLS.items() if not hasattr(lib, sym)] + _missing_bindings()
    if missing:
        return TritonBuildError(version, path, missing)
    lib.LLVMParseCommandLineOptions.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p), ctypes.c_char_p]
    lib.LLVMParseCommandLineOptions.restype = ctypes.c_int
    return lib


def _libtriton():
    return probe()


def _set_generic_printing(on: bool) -> None:
    global _PRINTER_OPTS_REGISTERED
    lib = _libtriton()
    if not _PRINTER_OPTS_REGISTERED:
        # mlir::registerAsmPrinterCLOptions(): makes --mlir-print-* known to LLVM's option parser.
        getattr(lib, "_ZN4mlir27registerAsmPrinterCLOptionsEv")()
        _PRINTER_OPTS_REGISTERED = True
    value = "true" if on else "false"
    args = [b"triton-mfma", f"--mlir-print-op-generic={value}".encode(), f"--mlir-print-local-scope={value}".encode()]
    argv = (ctypes.c_char_p * len(args))(*args)
    lib.LLVMParseCommandLineOptions(len(args), argv, None)


# A location is removed up to its own closing parenthesis: it nests (`loc("x"("f.py":1:2))`), may quote
# parentheses, and block arguments carry theirs inline, followed by more arguments.
_LOC_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[()]')


def strip_locations(text: str) -> str:
    """Generic text without its locations (debug info only: they never change the code)."""
    out, i = [], 0
    while (j := text.find(" loc(", i)) >= 0:
        out.append(text[i:j])
        depth, i = 1, len(text)
        for m in _LOC_TOKEN.finditer(text, j + 5):
            depth += {"(": 1, ")": -1}.get(m.group(0), 0)
            if depth == 0:
                i = m.end()
                break
    out.append(text[i:])
    return "".join(out)


# A quoted string (skipped: it is not code), or a dialect attribute inline with up to three levels of `<>` inside
# it and no string (`#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{...}>, kWidth = 8}>`: the outermost is
# aliased, what it nests goes with it). An attribute nested deeper is left inline: aliasing is all or nothing
# per occurrence, and any mix of aliased and inline attributes is the same module.
_ANGLE_BODY = r'[^<>"]*'
for _ in range(3):
    _ANGLE_BODY = rf'[^<>"]*(?:(?:<{_ANGLE_BODY}>)[^<>"]*)*'
_STRING_OR_ATTR = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|(#[a-z_][a-z0-9_]*\.[A-Za-z_]\w*<' + _ANGLE_BODY + ">)")
_ALIAS_PREFIX = "#tmfma_a"


def with_aliases(text: str) -> str:
    """`text` with each distinct dialect attribute defined once as `#tmfma_aN = ...` at the top and referred to
    by that name: the same module for any MLIR parser. Text that already uses the prefix is returned as it is."""
    if _ALIAS_PREFIX in text:
        return text
    aliases: dict[str, str] = {}

    def alias(m):
        body = m.group(1)
        if body is None:
            return m.group(0)
        name = aliases.get(body)
        if name is None:
            name = aliases[body] = f"{_ALIAS_PREFIX}{len(aliases)}"
        return name

    out = _STRING_OR_ATTR.sub(alias, text)
    if not aliases:
        return text
    return "".join(f"{name} = {body}\n" for body, name in aliases.items()) + out


def export_generic(module) -> str:
    """Print a Triton `ir.module` as generic MLIR text with debug locations and no aliases."""
    if isinstance(module, LoweredModule):
        return module.generic
    with _LOCK:
        _set_generic_printing(True)
        try:
            return module.str()
        finally:
            _set_generic_printing(False)


def print_module(module) -> str:
    """What `str(module)` gives (Triton's own printing), on any thread: the generic-printing switch
    export_generic sets is process-wide."""
    with _LOCK:
        return str(module)


class LoweredModule:
    """Stands for a TTGIR module that make_llir lowered in place (`Engine.llir_here`), where it is handed to
    Triton's compile loop as the ttgir stage's result: the loop writes its text (the .ttgir file), printed before
    the lowering, and gives it back to the llir stage, which hands on the compiled LLVM IR; `export_generic` gives
    its generic text. Anything else asked of it (a user's hook, TRITON_USE_IR_LOC) is asked of a module parsed
    again from the generic text."""

    def __init__(self, pretty: str, generic: str, name: str, context_factory):
        self._pretty, self.generic, self._name = pretty, generic, name
        self._context_factory = context_factory
        self._parsed = None

    def __str__(self) -> str:
        return self._pretty

    def get_entry_func_name(self) -> str:
        return self._name

    def module(self):
        """A TTGIR module of the same text, parsed once, in a context of its own."""
        if self._parsed is None:
            self._parsed = import_generic(self.generic, self._context_factory(), parsed_before=True)
        return self._parsed

    def __getattr__(self, name):
        if name.startswith("_"):  # not the module's API (and no recursion before __init__ has run: copy, pickle)
            raise AttributeError(name)
        return getattr(self.module(), name)


def real_module(mod):
    """`mod` as an `ir.module` Triton's passes accept (a LoweredModule parsed again)."""
    return mod.module() if isinstance(mod, LoweredModule) else mod


class _CapturedStderr:
    """Collects what MLIR's default diagnostic handler writes to fd 2 (parse errors) during a call."""

    def __enter__(self):
        self._file = tempfile.TemporaryFile(mode="w+b")
        self._saved = os.dup(2)
        os.dup2(self._file.fileno(), 2)
        return self

    def __exit__(self, *exc):
        os.dup2(self._saved, 2)
        os.close(self._saved)
        self._file.seek(0)
        self.text = self._file.read().decode("utf-8", "replace")
        self._file.close()
        return False


def import_generic(text: str, context, pass_name: str | None = None, parsed_before: bool = False):
    """Parse generic MLIR text into Triton's `context`; Triton verifies it (its parse_mlir_module is MLIR's
    parseSourceFile, which runs the verifier after parsing: no second verification here).

    `parsed_before`: the text is one Triton printed or already parsed and verified (a copy for another
    context): its parse is not serialised with the others to capture diagnostics it cannot have (the
    capture redirects the process's stderr; threads copying variants for trial compiles would wait on it).
    Raises BridgeError (with the text and Triton's diagnostics) if it does not parse or verify.
    """
    aliased = with_aliases(text)
    module, diagnostics = _parse(aliased, context, capture=not parsed_before)
    if module is None and (aliased is not text or parsed_before):  # diagnostics pointing into the given text
        module, diagnostics = _parse(text, context)
    if module is None:
        raise BridgeError("Triton could not parse or verify the module", text, pass_name, diagnostics)
    module.context = context  # Triton's stages read it (as compiler.py does for parsed modules)
    return module


def _parse(text: str, context, capture: bool = True):
    """(Triton module or None, what the parser reported: only with `capture`)."""
    from triton._C.libtriton import ir

    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        if not capture:
            try:
                return ir.parse_mlir_module(path, context), ""
            except RuntimeError:
                return None, ""
        with _LOCK, _CapturedStderr() as err:
            try:
                module = ir.parse_mlir_module(path, context)
            except RuntimeError:
                module = None
        return module, err.text
    finally:
        os.unlink(path)
