"""Compile bundled or user kernels for a target with stock Triton or with triton-mfma, no GPU needed."""
from __future__ import annotations

import contextlib
import time

import triton
from triton import knobs
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

from . import hook


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


def compile_kernel(fn, signature: dict, constexprs: dict, arch: str, options: dict | None = None):
    return triton.compile(ASTSource(fn=fn, signature=signature, constexprs=constexprs), target=target(arch),
                          options=options)


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
