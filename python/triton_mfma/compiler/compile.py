"""Compile bundled or user kernels for a target with stock Triton or with triton-mfma, no GPU needed.

`aot_signature` reads Triton's ahead-of-time signature syntax (`triton/tools/compile.py`): types with an
optional divisibility hint (`*fp16:16`, `i32:16`, `i32:1` = the constant 1) and constants, so that a compile
from the command line specializes a kernel the way a launch on 16-byte-aligned tensors does.
"""
from __future__ import annotations

import contextlib
import time

import triton
from triton import knobs
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

from . import hook

AMD_ARCHS = ("gfx90a", "gfx942", "gfx950")

# Triton's scalar type names (triton.language.str_to_ty); a pointer is `*T`, a const pointer `*kT`.
SCALAR_TYPES = ("i1", "i8", "i16", "i32", "i64", "u1", "u8", "u16", "u32", "u64", "fp8e4nv", "fp8e4b8", "fp8e5",
                "fp8e5b16", "fp8e4b15", "fp16", "bf16", "fp32", "fp64")


class SignatureError(ValueError):
    """A `--signature` / `--constexpr` the kernel cannot be compiled with (one line, names the problem)."""


def target(arch: str) -> GPUTarget:
    """`gfx942` -> hip target (wave 64); `cuda:90` / `sm90` -> cuda target (warp 32)."""
    if arch.startswith("gfx"):
        return GPUTarget("hip", arch, 64)
    cap = int(arch.replace("cuda:", "").replace("sm", "").replace("_", ""))
    return GPUTarget("cuda", cap, 32)


@contextlib.contextmanager
def always_compile():
    """Bypass Triton's on-disk cache so compile times and results are fresh."""
    saved = knobs.compilation.always_compile
    knobs.compilation.always_compile = True
    try:
        yield
    finally:
        knobs.compilation.always_compile = saved


def compile_kernel(fn, signature: dict, constexprs: dict, arch: str, options: dict | None = None,
                   attrs: dict | None = None):
    return triton.compile(ASTSource(fn=fn, signature=signature, constexprs=constexprs, attrs=attrs),
                          target=target(arch), options=options)


def compile_pair(fn, signature, constexprs, arch, passes, options=None, **mfma_options):
    """(stock, extended, stock_seconds, extended_seconds), compiled fresh, one after the other.

    A first, untimed stock compile warms up what Triton caches per kernel in the process (the
    kernel's AST, the backend), so neither timed compile pays for it."""
    with always_compile():
        with hook.disabled():
            compile_kernel(fn, signature, constexprs, arch, options)
            t0 = time.perf_counter()
            stock = compile_kernel(fn, signature, constexprs, arch, options)
            t1 = time.perf_counter()
        with hook.enabled(passes=passes, **mfma_options):
            ext = compile_kernel(fn, signature, constexprs, arch, options)
        t2 = time.perf_counter()
    return stock, ext, t1 - t0, t2 - t1


# ---------------------------------------------------------------------------------------------------------
# Triton's AOT signature syntax


def _split_top_level(spec: str) -> list[str]:
    """Split at commas outside brackets (tensordesc<fp16[64, 64]> keeps its commas)."""
    parts, depth, cur = [], 0, []
    for ch in spec:
        if ch in "<[(":
            depth += 1
        elif ch in ">])":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur).strip())
    return [p for p in parts if p]


def parse_value(text: str):
    """A constant as the command line gives it: int, float, True/False, else the string itself."""
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return {"True": True, "False": False, "true": True, "false": False}.get(text, text)


def _is_constant(text: str) -> bool:
    return not isinstance(parse_value(text), str)


def canonical_type(name: str, ty: str) -> str:
    """`*fp16` / `i32` / `*float16` (an alias Triton's launcher also accepts) -> Triton's type name."""
    from triton._utils import type_canonicalisation_dict

    prefix = ""
    base = ty
    if base.startswith("*k"):
        prefix, base = "*k", base[2:]
    elif base.startswith("*"):
        prefix, base = "*", base[1:]
    if base.startswith("tensordesc") or base == "nvTmaDesc":
        return ty
    if base not in SCALAR_TYPES:
        alias = type_canonicalisation_dict.get(base)
        if alias is None or alias == "void":
            raise SignatureError(f"argument {name!r}: unknown type {ty!r}; Triton's types are "
                                 f"{', '.join(SCALAR_TYPES)}, a pointer is *T (e.g. *fp16), "
                                 "optionally with :16 (divisible by 16)")
        base = alias
    return prefix + base


def aot_signature(fn, spec: str, constexprs: dict | None = None, arch: str = "gfx942",
                  large_tensors: bool = False) -> tuple[dict, dict, dict]:
    """(signature, constexprs, attrs) for `triton.compile(ASTSource(fn, signature, constexprs, attrs))`.

    `spec` is Triton's AOT signature (`triton/tools/compile.py`): one entry per argument in order, each a
    type with an optional hint (`*fp16:16`: the pointer is 16-byte aligned; `i32:16`: the value is a
    multiple of 16; `i32:1`: the constant 1, as a launch specializes it) or a constant (`64`, `True`,
    for a tl.constexpr or a value to specialize on). Two shorter forms are accepted too: entries for the
    arguments not given in `constexprs` only, in order, and `name=entry,...` in any order. A tl.constexpr
    with a default may be left out.

    On hip targets, pointers also get `tt.pointer_range=32`, as a launch gives tensors under 2 GiB while
    Triton's buffer ops are on (AMDGCN_USE_BUFFER_OPS, the default); `large_tensors=True` leaves it out,
    as a launch on a tensor over 2 GiB does.
    """
    from triton.compiler import make_backend

    constexprs = dict(constexprs or {})
    names = list(fn.arg_names)
    params = {p.name: p for p in fn.params}
    unknown = [k for k in constexprs if k not in params]
    if unknown:
        raise SignatureError(f"{fn.__name__} has no argument(s) {unknown}; its arguments are {names}")
    parts = _split_top_level(spec)
    if parts and all("=" in p for p in parts):
        entries = {}
        for p in parts:
            k, v = (s.strip() for s in p.split("=", 1))
            if k not in params:
                raise SignatureError(f"{fn.__name__} has no argument {k!r}; its arguments are {names}")
            entries[k] = v
    elif any("=" in p for p in parts):
        raise SignatureError("--signature mixes 'name=type' and positional entries; use one form")
    else:
        rest = [n for n in names if n not in constexprs]
        if len(parts) == len(names):
            entries = dict(zip(names, parts))
        elif len(parts) == len(rest):
            entries = dict(zip(rest, parts))
        else:
            raise SignatureError(f"--signature has {len(parts)} entries; {fn.__name__} takes {len(names)} "
                                 f"arguments {names}" + (f" ({len(rest)} without the constexprs given: {rest})"
                                                          if constexprs else ""))
    both = [k for k in entries if k in constexprs]
    if both:
        raise SignatureError(f"argument(s) {both} given both in --signature and as --constexpr")

    backend = make_backend(target(arch))
    hip = target(arch).backend == "hip"
    pointer_range = hip and knobs.amd.use_buffer_ops and not large_tensors
    signature, consts, attrs = {}, dict(constexprs), {}
    for i, name in enumerate(names):
        p = params[name]
        attrs[(i,)] = []  # as a launch gives every argument (kept in ASTSource's hash)
        if name in consts:
            continue
        entry = entries.get(name)
        if entry is None:
            if p.is_constexpr and p.has_default:
                consts[name] = p.default
                continue
            missing = [n for n in names if n not in entries and n not in consts
                       and not (params[n].is_constexpr and params[n].has_default)]
            raise SignatureError(f"no type or value for argument(s) {missing} of {fn.__name__} (arguments: {names})")
        if _is_constant(entry):
            consts[name] = parse_value(entry)
            continue
        ty, _, hint = entry.partition(":")
        ty = ty.strip()
        if p.is_constexpr:
            raise SignatureError(f"argument {name!r} is a tl.constexpr: give it a value (e.g. {name}=64), not the "
                                 f"type {ty!r}")
        ty = canonical_type(name, ty)
        desc = ""
        if hint:
            try:
                h = int(hint)
            except ValueError:
                h = None
            if h not in (1, 16):
                raise SignatureError(f"argument {name!r}: hint ':{hint}' is not 1 or 16 (Triton's AOT hints: "
                                     ":16 divisible by 16, :1 the constant 1)")
            if h == 1:
                if ty.startswith("*"):
                    raise SignatureError(f"argument {name!r}: ':1' (the constant 1) applies to integers, not {ty}")
                consts[name] = 1
                continue
            desc += "D"
        if ty.startswith("*") and pointer_range:
            desc += "S"
        signature[name] = ty
        attrs[(i,)] = backend.parse_attr(desc)
    for name in consts:
        signature[name] = "constexpr"
    signature = {n: signature[n] for n in names}
    return signature, consts, attrs
