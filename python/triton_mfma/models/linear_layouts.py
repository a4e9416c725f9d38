"""A distributed tensor type's layout as Triton's linear layout: (register, lane, warp) bases, each a coordinate
vector, read from the type's text (generic MLIR). Blocked and linear layouts as lds_writes reads them; MFMA results,
dot operands of an MFMA parent and slices of any of these as Triton 3.8/3.9 convert them
(LinearLayoutConversions.cpp: the instruction's tile, warps along the fastest dimension first, then repeats in
registers along the order; bases beyond the shape are zero for lanes and warps, dropped for registers except an MFMA
result's). None for
any other layout or field (an MFMA with tilesPerWarp or an element bit width, a 3-D tensor): no bases guessed.
test_linear_layouts.py checks each against Triton's own conversion."""
from __future__ import annotations

import functools
import re

from .lds_writes import ints, layout_bases

_TYPE = re.compile(r"^tensor<((?:\d+x)+)(\w+), #ttg\.(\w+)<\{(.*)\}>>$")
_MFMA = re.compile(r"^version = \d+, warpsPerCTA = \[(\d+), (\d+)\], instrShape = \[(\d+), (\d+)(?:, \d+)?\], "
                   r"isTransposed = (true|false)$")
_DOT = re.compile(r"^opIdx = (\d), parent = #ttg\.amd_mfma<\{(.*)\}>, kWidth = (\d+)$")
_SLICE = re.compile(r"^dim = (\d), parent = #ttg\.(\w+)<\{(.*)\}>$")
WAVE = 64


def _log2(n: int) -> int:
    return n.bit_length() - 1


def _fit(registers: list, lanes: list, warps: list, shape: list[int], order: list[int],
         keep_registers: bool = False) -> tuple[list, list, list]:
    """Repeats in registers along `order` until the shape is covered; then bases beyond it: registers dropped
    (zero where `keep_registers`: an MFMA result keeps its instruction's registers), lanes and warps zero
    (broadcast)."""
    cover = [1] * len(shape)
    for b in registers + lanes + warps:
        for d, c in enumerate(b):
            cover[d] = max(cover[d], 2 * c)
    registers = list(registers)
    for d in order:
        while cover[d] < shape[d]:
            registers.append([cover[d] if e == d else 0 for e in range(len(shape))])
            cover[d] *= 2
    inside = lambda b: all(c < s for c, s in zip(b, shape))  # noqa: E731
    zero = [0] * len(shape)
    registers = [b if inside(b) else zero for b in registers] if keep_registers else \
        [b for b in registers if inside(b)]
    return (registers, [b if inside(b) else zero for b in lanes],
            [b if inside(b) else zero for b in warps])


def _unit(dim: int, value: int) -> list[int]:
    return [value, 0] if dim == 0 else [0, value]


def _mfma(body: str, shape: list[int]) -> tuple[list, list, list] | None:
    x = _MFMA.match(body)
    if x is None or len(shape) != 2:
        return None
    wm, wn, m, n = (int(x.group(i)) for i in range(1, 5))
    if m != n or m not in (16, 32):
        return None
    # the tile as the instruction lays it out, [row, col] with rows along M: a lane's 4 consecutive rows (32x32:
    # two groups 8 apart), lanes along N then over the row groups; transposed swaps rows and columns
    rows = [1, 2, 8, 16] if m == 32 else [1, 2]
    lane_rows = [4] if m == 32 else [4, 8]
    registers = [_unit(0, r) for r in rows]
    lanes = [_unit(1, 1 << i) for i in range(_log2(m))] + [_unit(0, r) for r in lane_rows]
    if x.group(5) == "true":
        registers, lanes = [b[::-1] for b in registers], [b[::-1] for b in lanes]
    warps = [_unit(1, m << i) for i in range(_log2(wn))] + [_unit(0, m << i) for i in range(_log2(wm))]
    return _fit(registers, lanes, warps, shape, [1, 0], keep_registers=True)


def _dot(body: str, shape: list[int]) -> tuple[list, list, list] | None:
    x = _DOT.match(body)
    parent = _MFMA.match(x.group(2)) if x else None
    if parent is None or len(shape) != 2:
        return None
    op, kwidth = int(x.group(1)), int(x.group(3))
    wm, wn, m, n = (int(parent.group(i)) for i in range(1, 5))
    if m != n or m not in (16, 32) or kwidth & (kwidth - 1):
        return None
    k_dim, other = (1, 0) if op == 0 else (0, 1)
    # a lane holds kWidth consecutive K elements of one row (A) or column (B); lanes cover the instruction's rows,
    # then groups of kWidth along K; the rest of K repeats in registers before the warps
    registers = [_unit(k_dim, 1 << i) for i in range(_log2(kwidth))]
    lanes = [_unit(other, 1 << i) for i in range(_log2(m))] + \
        [_unit(k_dim, kwidth << i) for i in range(_log2(WAVE // m))]
    k_tile = kwidth * (WAVE // m)
    while k_tile < shape[k_dim]:
        registers.append(_unit(k_dim, k_tile))
        k_tile *= 2
    # warps along N first, then M; the operand does not vary along the other operand's warps (broadcast)
    along_n = [_unit(1, m << i) if op == 1 else [0, 0] for i in range(_log2(wn))]
    along_m = [_unit(0, m << i) if op == 0 else [0, 0] for i in range(_log2(wm))]
    return _fit(registers, lanes, along_n + along_m, shape, [k_dim, other])


def _distributed(kind: str, body: str, shape: list[int]) -> tuple[list, list, list] | None:
    if kind in ("blocked", "linear"):
        return layout_bases(kind, body, shape)
    if kind == "amd_mfma":
        return _mfma(body, shape)
    if kind == "dot_op":
        return _dot(body, shape)
    return None


def _slice(body: str, shape: list[int]) -> tuple[list, list, list] | None:
    x = _SLICE.match(body)
    if x is None or len(shape) != 1:
        return None
    dim = int(x.group(1))
    parent = _distributed(x.group(2), x.group(3), shape[:dim] + [1] + shape[dim:])
    if parent is None:
        return None
    drop = lambda b: b[:dim] + b[dim + 1:]  # noqa: E731
    registers, lanes, warps = (list(map(drop, group)) for group in parent)
    return [b for b in registers if any(b)], lanes, warps


@functools.lru_cache(maxsize=512)
def _cached(tensor_type: str):
    x = _TYPE.match(tensor_type)
    if x is None:
        return None
    shape = ints(x.group(1).replace("x", " "))
    if x.group(3) == "slice":
        return _slice(x.group(4), shape)
    return _distributed(x.group(3), x.group(4), shape)


def shape_and_element(tensor_type: str) -> tuple[list[int], str] | None:
    """(shape, element type) of a tensor type's text, None where it is not one."""
    x = _TYPE.match(tensor_type)
    return None if x is None else (ints(x.group(1).replace("x", " ")), x.group(2))


def bases(tensor_type: str) -> tuple[list, list, list] | None:
    """(register, lane, warp) bases of a tensor type's layout (the module docstring), None where not read."""
    got = _cached(tensor_type)
    return None if got is None else tuple([list(b) for b in group] for group in got)
