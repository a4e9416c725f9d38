"""`triton-mfma opt`: a Triton IR file (or an MLIR_ENABLE_DUMP dump) through our passes, printed back."""
from __future__ import annotations

import os
import sys
import tempfile

from ..ir import bridge, safe_parse
from ..ir.native import run_pipeline_with_diagnostics
from ..ir.safe_parse import note
from ..ir.triton_ir import DUMP_HEADER, module_from_dump, parse_triton_ir
from .cli_checks import CliError, _as_list, _check_activation, _error_line, _triton_version_text, opt_pipeline


def opt_cmd(args, out=None) -> int:
    """`triton-mfma opt`: the work on the file (Triton's parser, our passes, Triton's printer) runs in a child
    process (safe_parse.in_child), so that input on which Triton's parser crashes is one line, exit 2."""
    out = out or sys.stdout
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    _triton_version_text()
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
