"""Element mapping of TritonGPU layouts, computed by Triton itself (its LinearLayout), for tests.

`linear_layout(text, shape)` parses a layout attribute (as Triton prints it, e.g. "#ttg.amd_mfma<{...}>") in
Triton's own MLIR context, through a one-argument function whose tensor argument carries the layout, reads it
back as a Gluon layout object (`GluonOpBuilder.get_gluon_layout_from_tensor`) and converts it with
`GluonOpBuilder.to_linear_layout` -- Triton 3.9's public route from a layout attribute to its LinearLayout.
The result maps (register, lane, warp) to tensor coordinates: each input bit selects a basis vector and the
selected vectors are XORed (`position`).

After the first `to_linear_layout` call, nanobind prints a "leaked instances" report when the interpreter
exits (Triton's binding keeps Python objects alive in statics; four lines of Python calling
`GluonOpBuilder.to_linear_layout` show it too). It is harmless and does not change the exit status.
"""
from __future__ import annotations

import functools

from triton._C.libtriton import gluon_ir, ir

import triton_mfma

_ctx = None


def _context():
    global _ctx
    if _ctx is None:
        _ctx = ir.context()
        ir.load_dialects(_ctx)
        from triton._C.libtriton import amd

        amd.load_dialects(_ctx)
    return _ctx


@functools.lru_cache(maxsize=None)
def linear_layout(layout: str, shape: tuple, elem: str = "f16", num_warps: int = 4):
    shape_txt = "x".join(str(s) for s in shape)
    text = (f'module attributes {{"ttg.num-warps" = {num_warps} : i32, "ttg.threads-per-warp" = 64 : i32, '
            f'ttg.target = "hip:gfx942"}} {{\n'
            f'  tt.func @f(%a: tensor<{shape_txt}x{elem}, {layout}>) {{ tt.return }}\n}}\n')
    ctx = _context()
    module = triton_mfma.import_generic(text, ctx)
    builder = gluon_ir.GluonOpBuilder(ctx)
    value = module.get_function("f").args(0)
    gluon_layout = builder.get_gluon_layout_from_tensor(value)
    return builder.to_linear_layout(gluon_layout._to_ir(builder), list(shape))


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
