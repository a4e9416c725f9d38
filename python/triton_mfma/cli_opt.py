"""`triton-mfma opt`: a Triton IR file (or an MLIR_ENABLE_DUMP dump) through our passes, printed back; and reading
Triton IR files with Triton's own parser (also for `report` and grid order's tools)."""
from __future__ import annotations

import os
import sys
import tempfile

from .cli_checks import CliError, _as_list, _check_activation, _error_line, _triton_version_text


def _triton_context():
    """A Triton MLIR context with Triton's dialects loaded (as triton.compiler's IRSource does), for hip and
    cuda modules."""
    from triton._C.libtriton import amd, ir, nvidia

    ctx = ir.context()
    ir.load_dialects(ctx)
    amd.load_dialects(ctx)
    nvidia.load_dialects(ctx)
    return ctx


def parse_triton_ir(path: str, ctx=None, display_name: str | None = None, precheck: bool = False):
    """Parse a .ttir/.ttgir as Triton prints it (kernel.asm["ttgir"], the cache's .ttgir, MLIR_ENABLE_DUMP
    output, or our generic dumps) with Triton's parser. CliError with the parser's first diagnostic.
    Triton's parser crashes on some malformed files: `precheck=True` (for a file of the user's, in a process
    that must survive it) parses it in a fresh interpreter first, a crash there a CliError."""
    from triton._C.libtriton import ir

    from . import safe_parse
    from .bridge import _LOCK, _CapturedStderr

    if precheck:
        try:
            safe_parse.precheck(path, display_name or path)
        except safe_parse.ParserCrash as e:
            raise CliError(str(e)) from None

    ctx = ctx or _triton_context()
    with _LOCK, _CapturedStderr() as err:
        try:
            module = ir.parse_mlir_module(path, ctx)
        except RuntimeError:
            module = None
    if module is None:
        first = next((ln for ln in err.text.splitlines() if "error" in ln), err.text.strip().splitlines()[0]
                     if err.text.strip() else "Triton's parser rejected it")
        first = first.strip().replace(path, display_name) if display_name else first.strip()
        raise CliError(f"could not parse {display_name or path}: {first}")
    module.context = ctx
    return module


def generic_ttgir(compiled) -> str:
    """A compiled kernel's final TTGIR (compiled.asm["ttgir"]) as generic MLIR text, printed by Triton."""
    from .bridge import export_generic

    text = compiled.asm["ttgir"]
    if isinstance(text, bytes):
        text = text.decode()
    with tempfile.NamedTemporaryFile("w", suffix=".ttgir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        return export_generic(parse_triton_ir(path, _triton_context(), display_name="the kernel's TTGIR"))
    finally:
        os.unlink(path)


DUMP_HEADER = "// -----// IR Dump "


def module_from_dump(text: str, pass_name: str | None = None) -> tuple[str, str, int, int]:
    """One module of MLIR_ENABLE_DUMP output (many modules, each after a `// -----// IR Dump Before <pass>`
    header): the one printed before the last pass whose header names `pass_name`, else the last one that is
    still Triton IR (holds a `tt.func`). -> (module text, its header, its index, how many there are)."""
    sections, header, body = [], None, []
    for line in text.splitlines(keepends=True):
        if line.startswith(DUMP_HEADER):
            if header is not None:
                sections.append((header, "".join(body)))
            header, body = line.strip(), []
        elif header is not None:
            body.append(line)
    if header is not None:
        sections.append((header, "".join(body)))
    if pass_name:
        chosen = [i for i, (h, _) in enumerate(sections) if pass_name in h]
        if not chosen:
            names = sorted({h[len(DUMP_HEADER):].split(":")[0].split(" ")[1] for h, _ in sections
                            if len(h[len(DUMP_HEADER):].split(":")[0].split(" ")) > 1})
            raise CliError(f"no IR dump before a pass named like {pass_name!r}; the dump has "
                           f"{', '.join(names[:40])}{' ...' if len(names) > 40 else ''}")
    else:
        chosen = [i for i, (_, b) in enumerate(sections) if "tt.func" in b]
        if not chosen:
            raise CliError("the dump holds no Triton IR module (no tt.func)")
    i = chosen[-1]
    return sections[i][1], sections[i][0], i, len(sections)


def opt_pipeline(passes, options: dict, num_stages: int | None = None) -> str:
    """MLIR pipeline text for `passes` with `options` (the Python option names of `triton-mfma passes`)."""
    from types import SimpleNamespace

    from . import passes as passes_mod

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


def opt_cmd(args, out=None) -> int:
    """`triton-mfma opt`: the work on the file (Triton's parser, our passes, Triton's printer) runs in a child
    process (safe_parse.in_child), so that input on which Triton's parser crashes is one line, exit 2."""
    out = out or sys.stdout
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    _triton_version_text()
    from . import safe_parse

    if args.passes and args.pipeline:
        raise CliError("give --passes or --pipeline, not both")
    options = dict(args.option or [])
    if args.pipeline and options:
        raise CliError("--option goes with --passes (a --pipeline carries its own options)")
    if args.passes:
        _check_activation(_as_list(args.passes, "pass"), options)
    if args.file == "-":
        text = sys.stdin.read()
    elif not os.path.isfile(args.file):
        raise CliError(f"no such file: {args.file}")
    else:
        with open(args.file, errors="replace") as f:
            text = f.read()
    if DUMP_HEADER in text:  # MLIR_ENABLE_DUMP output: many modules
        text, header, i, n = module_from_dump(text, args.dump_pass)
        if not args.quiet:
            print(f"note: module {i + 1} of {n} in the dump: {header}", file=sys.stderr)
    elif args.dump_pass:
        raise CliError(f"--dump-pass: {args.file} is not MLIR_ENABLE_DUMP output (no '{DUMP_HEADER}' headers)")
    # the parser reads a file: the parent owns its folder, so a child that crashes leaves nothing behind
    with tempfile.TemporaryDirectory(prefix="triton-mfma-opt-") as workdir:
        if getattr(args, "debug", False):  # tracebacks wanted: in this process
            result = _opt_module(args, options, text, workdir)
        else:
            try:
                what = args.file if args.file != "-" else "<stdin>"
                result, stderr = safe_parse.in_child(_opt_in_child, args, options, text, workdir, what=what)
            except safe_parse.ParserCrash as e:
                raise CliError(str(e)) from None
            sys.stderr.write(stderr)
    if args.output and args.output != "-":
        with open(args.output, "w") as f:
            f.write(result)
    else:
        out.write(result if result.endswith("\n") else result + "\n")
    return 0


def _opt_in_child(args, options: dict, text: str, workdir: str) -> str:
    """_opt_module, its errors as the one line main() would print (a user error comes back as a CliError)."""
    try:
        return _opt_module(args, options, text, workdir)
    except Exception as e:  # noqa: BLE001 - the parent prints it
        msg, rc = _error_line(e)
        if rc == 2:
            raise CliError(msg) from None
        raise


def _opt_module(args, options: dict, text: str, workdir: str) -> str:
    """Parse `text` with Triton's parser (from a file in `workdir`), run the pipeline of `args` on it, print it
    back."""
    from . import bridge
    from .native import run_pipeline_with_diagnostics
    from .safe_parse import note

    suffix = os.path.splitext(args.file)[1] if args.file != "-" else ".mlir"
    path = os.path.join(workdir, "input" + (suffix or ".mlir"))
    with open(path, "w") as f:
        f.write(text)
    note("parsing")
    module = parse_triton_ir(path, display_name=args.file)
    if args.pipeline:
        pipeline = args.pipeline if args.pipeline.startswith("builtin.module(") else f"builtin.module({args.pipeline})"
    elif args.passes:
        passes = _as_list(args.passes, "pass")
        _check_activation(passes, options)
        pipeline = opt_pipeline(passes, options, args.num_stages)
    else:
        pipeline = None
    if pipeline is not None:
        note("printing")
        text = bridge.export_generic(module)
        note("passes")
        after, diagnostics = run_pipeline_with_diagnostics(text, pipeline)
        if not args.quiet:
            for d in diagnostics:
                print(str(d), file=sys.stderr)
        note("reparsing")
        module = bridge.import_generic(after, module.context, pass_name=pipeline)
    note("printing")
    if args.generic:
        return bridge.export_generic(module)
    return module.str_nodebug() if args.no_locations else module.str()
