"""The bytes one lane's LDS instruction can move, read from a TTGIR's layouts; where two variants differ only in
kWidth and the swizzle that follows from it, whether every LDS op of one moves at least what any op of the other
can (accelerate-dot's model, decisions/accelerate_dot.py).

A chunk is the run of a lane's elements contiguous both in its registers and in LDS, in bytes, at most
LDS_WIDEST_BYTES (the widest LDS instruction):
  - a write (`ttg.local_alloc` of a tensor, `ttg.local_store`): the source layout's contiguous registers along the
    shared layout's fastest dimension (a blocked layout's sizePerThread there where its own order starts there; a
    linear layout's leading register bases 1, 2, 4, ... along it), cut at the swizzle's `vec` where it swizzles
    (maxPhase > 1: the XOR moves whole vec-element runs apart);
  - a read into a dot operand (`ttg.local_load` to `#ttg.dot_op`): the operand's kWidth along K where K is the
    shared layout's fastest dimension (cut at `vec` likewise), one element where it is not.
One instruction moves one chunk, or two in the paired forms (ds_read2 / ds_write2 of 4 or 8 bytes each), so at
most min(16, 2 x chunk); below 4 bytes there is no paired form. Of two ops that move the same bytes per lane, one
whose chunk is at least that bound of the other's needs no more instructions; equal chunks below 4 bytes need as
many, except for reads where the arch reads LDS transposed (ds_read_b64_tr_b16 and kin move a one-element run
of several lanes at once, and the kWidth shapes them: occupancy.Target.lds_transpose_reads). Equal chunks of 4 or 8
bytes can go either way: LLVM pairs the narrow ops by their addresses, which the swizzle decides (generated seeds
3380 and 3461 on gfx942: 8-byte writes, vec 4 -> 8, 12 -> 18 and 16 -> 24 writes per iteration): no bound from the
runs. For writes into a swizzled layout the instructions are counted instead,
pairing included (lds_writes), where its layouts are ones it reads; the runs bound the rest.
Ops whose lines are the same in both TTGIRs (up to value names) lower to the same code. Anything else that touches
LDS differently, or a layout this reading does not know, leaves no bound (None).
"""
from __future__ import annotations

import re

from ..ir.bridge import strip_locations
from .dot_figures import LDS_WIDEST_BYTES, SSA_NAME
from .lds_writes import ELEMENT_BYTES, SHARED_LAYOUT, SOURCE_LAYOUT, ints, layout_bases, write_instructions
from .occupancy import target

PAIRED_MIN_BYTES = 4  # ds_read2 / ds_write2 pair 4- or 8-byte values only

# the ops that move data through LDS (an alloc with no operand, a dealloc or a view moves none)
LDS_OP = re.compile(r'"(?:ttg\.local_alloc"\(%|ttg\.local_store"|ttg\.local_load"|ttg\.convert_layout"|'
                    r'[\w.]*(?:copy|load|store)[\w.]*_(?:to|from)_local")')
_MEMDESC = re.compile(r"!ttg\.memdesc<((?:\d+x)+)(\w+), ")
_DOT_OPERAND = re.compile(r"-> tensor<[^>]*#ttg\.dot_op<\{opIdx = (\d), .*kWidth = (\d+)\}>>")
def shared_run(shared: re.Match, along: int) -> int | None:
    """Elements contiguous in LDS along dimension `along` of a shared layout: vec where it swizzles, unbounded
    where it does not, 1 across its fastest dimension."""
    vec, max_phase, order = int(shared.group(2)), int(shared.group(4)), ints(shared.group(5))
    if order[0] != along:
        return 1
    return vec if max_phase > 1 else None


def register_run(kind: str, body: str, along: int, shape: list[int]) -> int:
    """A lane's registers contiguous along dimension `along`: a blocked layout's sizePerThread there where its
    order starts there (1 elsewhere); a linear layout's leading register bases 1, 2, 4, ... there."""
    if kind == "blocked":
        size = ints(re.search(r"sizePerThread = \[([\d, ]+)\]", body).group(1))
        order = ints(re.search(r"order = \[([\d, ]+)\]", body).group(1))
        return size[along] if order[0] == along else 1
    return leading_run(layout_bases(kind, body, shape)[0], along)


def leading_run(registers: list, along: int) -> int:
    """Elements in the run of leading register bases 1, 2, 4, ... along dimension `along` (linear layout bases)."""
    run = 1
    for i, basis in enumerate(registers):
        if basis != [1 << i if d == along else 0 for d in range(len(basis))]:
            break
        run *= 2
    return run


def chunk_bytes(elements: int | None, limit: int | None, element_bytes: int) -> int:
    runs = [r for r in (elements, limit) if r is not None]
    return min(LDS_WIDEST_BYTES, (min(runs) if runs else LDS_WIDEST_BYTES) * element_bytes)


def op_chunk(line: str) -> tuple[str, int] | None:
    """("write" | "read", the op's chunk in bytes) of one LDS op's line (generic text), None where unknown."""
    shared = SHARED_LAYOUT.search(line)
    if shared is None:
        return None
    if '"ttg.local_load"' in line:
        memdesc, dot = _MEMDESC.search(line), _DOT_OPERAND.search(line)
        if memdesc is None or dot is None or memdesc.group(2) not in ELEMENT_BYTES:
            return None
        shape = ints(memdesc.group(1).replace("x", " "))
        if len(shape) != 2:
            return None
        k_dim = 1 if dot.group(1) == "0" else 0
        return "read", chunk_bytes(int(dot.group(2)), shared_run(shared, k_dim), ELEMENT_BYTES[memdesc.group(2)])
    if '"ttg.local_alloc"' in line or '"ttg.local_store"' in line:
        source = SOURCE_LAYOUT.search(line)
        if source is None or source.group(2) not in ELEMENT_BYTES:
            return None
        along = ints(shared.group(5))[0]
        registers = register_run(source.group(3), source.group(4), along, ints(source.group(1).replace("x", " ")))
        return "write", chunk_bytes(registers, shared_run(shared, along), ELEMENT_BYTES[source.group(2)])
    return None


def no_more_instructions(mine: int, other: int, narrow_equal: bool = True) -> bool:
    """Whether an op moving chunks of `mine` bytes needs no more instructions than one moving the same bytes per
    lane in chunks of `other` bytes (the module docstring); `narrow_equal`: equal chunks below the paired forms
    count as many."""
    return mine >= min(LDS_WIDEST_BYTES, 2 * other) or (narrow_equal and mine == other < PAIRED_MIN_BYTES)


def _lds_lines(ttgir: str) -> list[str]:
    return [SSA_NAME.sub("%v", ln.strip()) for ln in strip_locations(ttgir).splitlines() if LDS_OP.search(ln)]


def no_more_lds_ops(ours: str, theirs: str, arch: str) -> dict | None:
    """Where two TTGIRs (generic text) differ only in kWidth and swizzle: {"write": bool, "read": bool}, whether
    every LDS op of `ours` of that direction needs no more instructions than its counterpart in `theirs` (the
    ops pair up in text order); None where some op touching LDS differs and is no read or write this module
    reads."""
    transposed = target(arch).lds_transpose_reads
    a, b = _lds_lines(ours), _lds_lines(theirs)
    if len(a) != len(b):
        return None
    out = {"write": True, "read": True}
    for mine, other in zip(a, b):
        if mine == other:
            continue
        x, y = op_chunk(mine), op_chunk(other)
        if x is None or y is None or x[0] != y[0]:
            return None
        counts = (write_instructions(mine), write_instructions(other)) if x[0] == "write" else (None, None)
        if None not in counts:  # the writes counted, pairing included (lds_writes)
            out["write"] = out["write"] and counts[0] <= counts[1]
            continue
        out[x[0]] = out[x[0]] and no_more_instructions(x[1], y[1], narrow_equal=not (x[0] == "read" and transposed))
    return out
