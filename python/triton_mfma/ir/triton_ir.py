"""Triton IR as Triton reads and prints it: a .ttir/.ttgir file parsed with Triton's own parser, a compiled kernel's
TTGIR as generic MLIR text (read by the figures and grid order's tools as well as the command line), one module of
an MLIR_ENABLE_DUMP dump. A file it cannot read is a CliError: one line, as the command line reports it."""
from __future__ import annotations

import os
import tempfile

from . import safe_parse
from .bridge import _CapturedStderr, _LOCK, export_generic
from .cli_error import CliError


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
