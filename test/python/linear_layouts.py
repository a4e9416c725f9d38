"""Element mapping of TritonGPU layouts, computed by Triton itself (its LinearLayout), for tests.

`linear_layout(text, shape)` parses a layout attribute (as Triton prints it, e.g. "#ttg.amd_mfma<{...}>") in
Triton's own MLIR context, through a one-argument function whose tensor argument carries the layout, reads it
back as a Gluon layout object (`GluonOpBuilder.get_gluon_layout_from_tensor`) and converts it with
`GluonOpBuilder.to_linear_layout` -- Triton 3.9's public route from a layout attribute to its LinearLayout.
The result maps (register, lane, warp) to tensor coordinates: each input bit selects a basis vector and the
selected vectors are XORed (`position`).

Triton's layout-to-Python conversion (`layoutToGluon` in its gluon_ir binding, behind `to_linear_layout`) keeps
the Gluon layout classes alive in a function-local static for the life of the process, by design; nanobind then
reports them as "leaked" when that interpreter finalizes (about 30 lines at the end of the test run). So these
conversions run in a worker process (`in_oracle`), one for the session, forked from a forkserver: such a worker
ends with os._exit, without an interpreter finalization, hence without the report; the test process itself never
calls the conversion.
"""
from __future__ import annotations

import concurrent.futures
import functools
import multiprocessing
from dataclasses import dataclass

_ctx = None
_oracle = None


@dataclass(frozen=True)
class Linear:
    """A distributed LinearLayout as Triton gives it (bases per input dimension), as plain lists."""
    reg_bases: list
    lane_bases: list
    warp_bases: list
    block_bases: list
    shape: list


def in_oracle(fn, *args):
    """`fn(*args)` in the session's worker process (`fn` a module-level function, its result picklable)."""
    global _oracle
    if _oracle is None:
        _oracle = concurrent.futures.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("forkserver"))
    return _oracle.submit(fn, *args).result()


def _context():
    global _ctx
    from triton._C.libtriton import ir

    if _ctx is None:
        _ctx = ir.context()
        ir.load_dialects(_ctx)
        from triton._C.libtriton import amd

        amd.load_dialects(_ctx)
    return _ctx


@functools.lru_cache(maxsize=None)
def linear_layout(layout: str, shape: tuple, elem: str = "f16", num_warps: int = 4) -> Linear:
    return in_oracle(_linear_layout, layout, shape, elem, num_warps)


def _linear_layout(layout: str, shape: tuple, elem: str, num_warps: int) -> Linear:
    """In the worker process: Triton's LinearLayout of `layout` over `shape`."""
    from triton._C.libtriton import gluon_ir

    import triton_mfma

    shape_txt = "x".join(str(s) for s in shape)
    text = (f'module attributes {{"ttg.num-warps" = {num_warps} : i32, "ttg.threads-per-warp" = 64 : i32, '
            f'ttg.target = "hip:gfx942"}} {{\n'
            f'  tt.func @f(%a: tensor<{shape_txt}x{elem}, {layout}>) {{ tt.return }}\n}}\n')
    ctx = _context()
    module = triton_mfma.import_generic(text, ctx)
    builder = gluon_ir.GluonOpBuilder(ctx)
    value = module.get_function("f").args(0)
    gluon_layout = builder.get_gluon_layout_from_tensor(value)
    ll = builder.to_linear_layout(gluon_layout._to_ir(builder), list(shape))
    return Linear(list(ll.reg_bases), list(ll.lane_bases), list(ll.warp_bases), list(ll.block_bases),
                  list(ll.shape))


def position(ll, register: int, lane: int, warp: int = 0) -> tuple:
    """Tensor coordinates of (register, lane, warp) under the linear layout `ll`."""
    coord = [0] * len(ll.shape)
    for bases, index in ((ll.reg_bases, register), (ll.lane_bases, lane), (ll.warp_bases, warp)):
        for bit, basis in enumerate(bases):
            if index >> bit & 1:
                coord = [c ^ b for c, b in zip(coord, basis)]
    return tuple(coord)


def is_register_permutation(src, dst) -> bool:
    """Whether converting between two layouts of the same tensor moves no data across lanes or warps: every
    lane and warp holds the same set of elements in both (only the register order may differ). Triton lowers
    such a ttg.convert_layout without LDS."""
    if list(src.shape) != list(dst.shape):
        return False
    n_regs = lambda ll: 1 << len(ll.reg_bases)  # noqa: E731
    for warp in range(1 << len(src.warp_bases)):
        for lane in range(64):
            a = {position(src, r, lane, warp) for r in range(n_regs(src))}
            b = {position(dst, r, lane, warp) for r in range(n_regs(dst))}
            if a != b:
                return False
    return True
