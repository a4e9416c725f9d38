"""A library's launch, run on CPU tensors, with every kernel launch it makes recorded instead of launched.

`launches(fn, *args, **kwargs)` calls the library's own launching function (its config lookup, its arithmetic on
shapes and strides, its heuristics) with torch CPU tensors; each `kernel[grid](...)` it reaches ends in
`JITFunction.run`, which is replaced for the call by one that records the kernel and the arguments it was given
(after any @triton.heuristics wrapper added its values) and launches nothing. `to_config` turns one record into
the corpus harness's Config: a tensor becomes P(its Triton element type), ints, floats, bools, None and constexpr
values stay as passed, and the keyword arguments that are no kernel argument (num_warps, num_stages,
waves_per_eu, matrix_instr_nonkdim, kpack, ...) are the compile options, as at launch. The harness's `build()`
then makes the signature Triton's JIT binder would (bench/corpus/harness.py).
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass

import torch
import triton
from triton.runtime.jit import JITFunction

from harness import C, P, Config

_TORCH_TO_TRITON = {
    torch.float32: "fp32", torch.float16: "fp16", torch.bfloat16: "bf16", torch.float64: "fp64",
    torch.int8: "i8", torch.uint8: "u8", torch.int16: "i16", torch.int32: "i32", torch.int64: "i64",
    torch.bool: "i1", torch.float8_e4m3fnuz: "fp8e4b8", torch.float8_e4m3fn: "fp8e4nv",
    torch.float8_e5m2fnuz: "fp8e5b16", torch.float8_e5m2: "fp8e5",
}


@dataclass
class Launch:
    fn: JITFunction
    args: dict  # kernel argument name -> value as passed (tensors still tensors)
    options: dict  # the launch's keyword arguments that are no kernel argument


@contextlib.contextmanager
def recording():
    """Inside: every JITFunction launch is appended to the yielded list and not run (it returns None)."""
    out: list[Launch] = []
    saved = JITFunction.run

    def run(self, *args, grid, warmup, **kwargs):
        names = set(self.arg_names)
        kw = {k: v for k, v in kwargs.items() if k in names}
        opts = {k: v for k, v in kwargs.items() if k not in names}
        bound = self.signature.bind_partial(*args, **kw)
        out.append(Launch(self, dict(bound.arguments), opts))
        return None

    JITFunction.run = run
    try:
        yield out
    finally:
        JITFunction.run = saved


def launches(fn, *args, **kwargs) -> list[Launch]:
    with recording() as out:
        fn(*args, **kwargs)
    if not out:
        raise RuntimeError(f"{getattr(fn, '__name__', fn)} launched no kernel")
    return out


def _value(name, v):
    if isinstance(v, torch.Tensor):
        if v.data_ptr() % 16:
            raise ValueError(f"argument {name}: a tensor not 16-byte aligned (the harness's P() says it is)")
        return P(_TORCH_TO_TRITON[v.dtype])
    if v is None or isinstance(v, (bool, int, float, str, C)):
        return v
    return C(v)  # a dtype, a tl.constexpr value, ...


def to_config(launch: Launch, lib: str, name: str, mirrors: str, archs: tuple, quick: bool = False) -> Config:
    fn = launch.fn
    args = {}
    for p in fn.params:
        if p.name not in launch.args:
            continue
        v = launch.args[p.name]
        if isinstance(v, triton.language.core.constexpr):
            v = v.value
        args[p.name] = C(v) if p.is_constexpr and not isinstance(v, torch.Tensor) else _value(p.name, v)
    opts = {k: v for k, v in launch.options.items() if v is not None}
    return Config(lib, name, fn, args, opts, mirrors, archs=archs, quick=quick)


def one(fn, *args, kernel: str | None = None, **kwargs) -> Launch:
    """The one launch of `kernel` (by @triton.jit function name; the only launch if None) that fn makes."""
    ls = launches(fn, *args, **kwargs)
    if kernel is not None:
        ls = [x for x in ls if x.fn.__name__ == kernel]
    if len(ls) != 1:
        raise RuntimeError(f"expected one launch of {kernel}, got {[x.fn.__name__ for x in ls]}")
    return ls[0]
