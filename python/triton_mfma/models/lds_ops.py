"""The main loop's LDS instructions per lane, bounded from a TTGIR's layouts, where two variants of a kernel differ in
their dot layouts (instruction shape, warps, kWidth) and the shared layouts that follow: whether one cannot need
more than the other (accelerate-dot's model, decisions/accelerate_dot.py, "fewest LDS ops").

Algorithm, for each TTGIR (generic text):
  1. The main loop: the innermost `scf.for` around the dots (the generic printer indents a region deeper than its
     op; dots peeled out of it by the pipeliner are not in it), the whole kernel where no loop holds one, none
     where dots sit in several loops (dot_work's main loop); its LDS ops are lds_chunks' (reads into dot operands,
     stores, converts, copies).
  2. The two lists pair up in program order; a pair whose lines are the same (up to value names) lowers to the
     same code and cancels. Every other pair must be a read into an MFMA dot operand or a store of a distributed
     tensor, on both sides; anything else (a convert_layout, an async copy, a 3-D or FMA operand) leaves no bound.
  3. A read of a dot operand (`ttg.local_load` to `#ttg.dot_op` of an `amd_mfma` parent, rank 2): a wave holds
     its operand rows (A: M; B: N) in blocks of the instruction's M (N) rows, ceil(rows / (warps x instruction
     rows)) of them (a tile smaller than the warps' blocks repeats on every warp: one block), over the whole K, so
     a lane holds blocks x instruction rows x K / 64 elements; one instruction moves one chunk (lds_chunks.op_chunk:
     the kWidth run, cut at the swizzle's vec, at most 16 B), two in the paired forms (4- and 8-byte chunks).
     A read into a `#ttg.linear` layout (an operand Triton reads transposed, then permutes in registers): one
     element per combination of its register bases; the chunk its leading register bases make along the shared
     layout's fastest dimension (lds_chunks).
  4. A store (`ttg.local_store`, `ttg.local_alloc` of a tensor): lds_writes' count, pairing included, where it
     reads the layouts; else a lane's elements (a blocked layout's sizePerThread x its repeats over the shape) over
     the chunk, paired or not.
  4b. A `ttg.convert_layout` (an operand Triton reads transposed gets one, a chained dot's operand another): as
     linear layouts (models/linear_layouts.py: blocked, linear, MFMA results, MFMA dot operands, slices), it
     moves data between warps where the elements a warp holds after it are not all elements the same warp held
     before (the span of its register and lane bases, shifted by its warp bases, not contained): Triton lowers
     such a convert through LDS, a lane storing its source elements and loading its destination ones. At least
     (theirs): the distinct bytes each side holds (2^rank of its register bases) at the widest an instruction
     moves. At most (ours): every register at the run of leading register bases 1, 2, 4, ... both layouts share
     (a vector both sides can move whole), unpaired. A convert within warps moves no LDS data on either side
     (registers permuted, or lanes exchanged by ds_bpermute, which the figures do not count as LDS ops).
  5. Ours' count without pairing against theirs' with every pair formed (and, where the arch reads LDS transposed,
     every read of theirs at the widest): where ours' is no more, theirs' main loop cannot need fewer LDS
     instructions than ours'.
Measured against compiled trials (bench/lds_ops_model.py): see bench/results/lds_ops_model*.txt.
"""
from __future__ import annotations

import functools
import math
import re

from ..ir.bridge import strip_locations
from .dot_figures import LDS_WIDEST_BYTES, SSA_NAME
from .lds_chunks import LDS_OP, PAIRED_MIN_BYTES, chunk_bytes, leading_run, op_chunk, register_run, shared_run
from . import linear_layouts
from .lds_writes import ELEMENT_BYTES, SHARED_LAYOUT, SOURCE_LAYOUT, ints, write_instructions
from .occupancy import target

LANES = 64
_FOR = '"scf.for"('
_DOT = '"tt.dot"('
_MFMA_OPERAND = re.compile(r"-> tensor<(\d+)x(\d+)x(\w+), #ttg\.dot_op<\{opIdx = (\d), parent = #ttg\.amd_mfma<\{"
                           r"[^}]*?warpsPerCTA = \[(\d+), (\d+)\][^}]*?instrShape = \[(\d+), (\d+)(?:, \d+)?\]"
                           r"[^}]*\}>, kWidth = (\d+)\}>>")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def main_loop_lines(ttgir: str) -> list[str] | None:
    """The LDS op lines of the main loop (step 1), value names replaced; None where dots sit in several loops."""
    lines = strip_locations(ttgir).splitlines()
    dots = [i for i, ln in enumerate(lines) if _DOT in ln]
    loops = []  # (start, end) of each scf.for's region
    for i, ln in enumerate(lines):
        if _FOR in ln:
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() and _indent(lines[j]) <= _indent(ln)),
                       len(lines))
            loops.append((i, end))
    holding = set()
    for d in dots:  # the innermost loop around each dot
        around = [(i, e) for i, e in loops if i < d < e]
        if around:
            holding.add(max(around))
    if len(holding) > 1 or not dots:
        return None
    start, stop = holding.pop() if holding else (-1, len(lines))  # no loop holds a dot: the whole kernel
    return [SSA_NAME.sub("%v", ln.strip()) for ln in lines[start + 1:stop] if LDS_OP.search(ln)]


def _per_instruction(chunk: int, paired: bool) -> int:
    return min(LDS_WIDEST_BYTES, 2 * chunk) if paired and chunk >= PAIRED_MIN_BYTES else chunk


def _read_bytes(line: str) -> int | None:
    """Bytes per lane a read into an MFMA dot operand moves (step 3); None where not such a read."""
    x = _MFMA_OPERAND.search(line)
    if x is None or '"ttg.local_load"' not in line or x.group(3) not in ELEMENT_BYTES:
        return None
    d0, d1, element, op = int(x.group(1)), int(x.group(2)), ELEMENT_BYTES[x.group(3)], int(x.group(4))
    warps, instr = (int(x.group(5)), int(x.group(6))), (int(x.group(7)), int(x.group(8)))
    rows, k = (d0, d1) if op == 0 else (d1, d0)
    tile, waves = instr[op], warps[op]
    if tile not in (16, 32) or rows % tile:
        return None
    blocks = max(1, math.ceil(rows / (waves * tile)))
    return blocks * tile * k * element // LANES


def _store_bytes(line: str) -> int | None:
    """Bytes per lane a store of a blocked tensor moves (step 4); None where not such a store."""
    src = SOURCE_LAYOUT.search(line)
    if src is None or src.group(3) != "blocked" or src.group(2) not in ELEMENT_BYTES:
        return None
    shape = ints(src.group(1).replace("x", " "))
    field = {n: ints(re.search(n + r" = \[([\d, ]+)\]", src.group(4)).group(1))
             for n in ("sizePerThread", "threadsPerWarp", "warpsPerCTA")}
    per = 1
    for d, size in enumerate(shape):
        cover = field["sizePerThread"][d] * field["threadsPerWarp"][d] * field["warpsPerCTA"][d]
        per *= field["sizePerThread"][d] * max(1, math.ceil(size / cover))
    return per * ELEMENT_BYTES[src.group(2)]


_LINEAR_READ = re.compile(r"!ttg\.memdesc<(\d+)x(\d+)x(\w+), .*\) -> tensor<\d+x\d+x\w+, #ttg\.linear<\{(.*?)\}>>")


def _linear_read(line: str) -> tuple[str, int] | None:
    """("read", chunk bytes) of a read into a linear layout (a dot operand Triton reads transposed, step 3b)."""
    x, shared = _LINEAR_READ.search(line), SHARED_LAYOUT.search(line)
    if x is None or shared is None or '"ttg.local_load"' not in line or x.group(3) not in ELEMENT_BYTES:
        return None
    along = ints(shared.group(5))[0]
    run = register_run("linear", x.group(4), along, [int(x.group(1)), int(x.group(2))])
    return "read", chunk_bytes(run, shared_run(shared, along), ELEMENT_BYTES[x.group(3)])


def _linear_read_bytes(line: str) -> int | None:
    """Bytes per lane a read into a linear layout moves: one element per register basis combination."""
    x = _LINEAR_READ.search(line)
    if x is None:
        return None
    registers = re.search(r"register = \[((?:\[[\d, ]*\](?:, )?)*)\]", x.group(4))
    if registers is None:
        return None
    return (1 << len(re.findall(r"\[", registers.group(1)))) * ELEMENT_BYTES[x.group(3)]


_CONVERT = re.compile(r'"ttg\.convert_layout"\(%v\) : \((tensor<.*>)\) -> (tensor<.*>)$')


def _bits(vector: list[int]) -> int:
    """A coordinate vector as one integer, each dimension in its own 20 bits (linear layouts combine by XOR)."""
    return sum(c << (20 * d) for d, c in enumerate(vector))


def _reduced(vectors) -> dict[int, int]:
    """A basis of the span of `vectors` (_bits integers) over GF(2), one vector per leading bit."""
    basis: dict[int, int] = {}
    for v in vectors:
        v = _residue(v, basis)
        if v:
            basis[v.bit_length()] = v
    return basis


def _residue(v: int, basis: dict[int, int]) -> int:
    while v and v.bit_length() in basis:
        v ^= basis[v.bit_length()]
    return v


def _in_span(v: int, basis: dict[int, int]) -> bool:
    return _residue(v, basis) == 0


def crosses_warps(src: tuple, dst: tuple) -> bool:
    """Whether a convert from layout `src` to `dst` ((register, lane, warp) bases) moves data between warps: warp w
    holds span(registers, lanes) shifted by its warp bases; after the convert it must hold only what it held."""
    within = _reduced(_bits(b) for b in src[0] + src[1])
    if not all(_in_span(_bits(b), within) for b in dst[0] + dst[1]):
        return True
    if len(src[2]) != len(dst[2]):
        return True
    return not all(_in_span(_bits(a) ^ _bits(b), within) for a, b in zip(src[2], dst[2]))


def _shared_run(src_registers: list, dst_registers: list) -> int:
    """Elements in the run of leading register bases 1, 2, 4, ... along one dimension that both layouts share."""
    along = next((d for d, c in enumerate(src_registers[0]) if c), 0) if src_registers else 0
    return min(leading_run(src_registers, along), leading_run(dst_registers, along))


def convert_instructions(line: str, at_most: bool) -> int | None:
    """LDS instructions per lane of a `ttg.convert_layout` (step 4b): at most (`at_most`) or at least; None where the
    line is not such a convert, or its layouts cannot be read."""
    x = _CONVERT.search(line)
    typed = linear_layouts.shape_and_element(x.group(1)) if x else None
    if typed is None or typed[1] not in ELEMENT_BYTES:
        return None
    element = ELEMENT_BYTES[typed[1]]
    src, dst = linear_layouts.bases(x.group(1)), linear_layouts.bases(x.group(2))
    if src is None or dst is None:
        return None
    if not crosses_warps(src, dst):
        return 0  # registers permuted, or lanes exchanged (ds_bpermute, which is not an LDS read or write)
    if at_most:
        chunk = min(LDS_WIDEST_BYTES, _shared_run(src[0], dst[0]) * element)
        return sum(math.ceil((1 << len(regs)) * element / chunk) for regs in (src[0], dst[0]))
    return sum(math.ceil((1 << len(_reduced(_bits(b) for b in regs))) * element / LDS_WIDEST_BYTES)
               for regs in (src[0], dst[0]))


def kind_and_chunk(line: str) -> tuple[str, int] | None:
    """("read" | "write", the op's chunk in bytes): lds_chunks' reading, and reads into linear layouts."""
    return op_chunk(line) or _linear_read(line)


def instructions(line: str, paired: bool, transposed: bool = False) -> int | None:
    """LDS instructions per lane of one op (steps 3-4): without pairing (`paired` False: at most, as the layouts
    vectorize) or with every pair formed (at least); None where the op is not one this model counts. `transposed`:
    the arch reads LDS transposed (ds_read_b64_tr and kin move a run of one element of several lanes at once), so a
    read's fewest instructions are counted at the widest an instruction moves."""
    chunk = kind_and_chunk(line)
    if chunk is None:
        return None
    kind, size = chunk
    if kind == "read" and paired and transposed:
        size = LDS_WIDEST_BYTES
    if kind == "write":
        exact = write_instructions(line)
        if exact is not None:
            return exact
        moved = _store_bytes(line)
    else:
        moved = _read_bytes(line) or _linear_read_bytes(line)
    if moved is None or size <= 0:
        return None
    return math.ceil(moved / _per_instruction(size, paired))


@functools.lru_cache(maxsize=16)  # the model, then the trial's record, read the same two TTGIRs
def compare(ours: str, theirs: str, arch: str) -> tuple[tuple[int, int] | None, str]:
    """(ours' main-loop LDS instructions per lane at most, theirs' at least), counting only the ops that differ,
    where ours' is no more (step 5), else None; and why, in words (the trial records it beside the compiled ops)."""
    transposed = target(arch).lds_transpose_reads
    a, b = main_loop_lines(ours), main_loop_lines(theirs)
    if a is None or b is None:
        return None, "dots in several loops"
    if len(a) != len(b):
        return None, f"the main loops hold {len(a)} and {len(b)} LDS ops"
    mine = other = converts = 0
    for x, y in zip(a, b):
        if x == y:
            continue
        if _CONVERT.search(x) and _CONVERT.search(y):
            ux, ly = convert_instructions(x, at_most=True), convert_instructions(y, at_most=False)
            if ux is None or ly is None:
                return None, "a ttg.convert_layout that differs is not counted"
            mine, other, converts = mine + ux, other + ly, converts + 1
            continue
        ux, ly = instructions(x, paired=False), instructions(y, paired=True, transposed=transposed)
        if ux is None or ly is None or kind_and_chunk(x)[0] != kind_and_chunk(y)[0]:
            op = re.search(r'"([\w.]+)"', x if ux is None else y)
            return None, f"a {op.group(1) if op else 'LDS op'} that differs is not counted"
        mine, other = mine + ux, other + ly
    counted = f" ({converts} convert_layout{'s' if converts > 1 else ''} counted)" if converts else ""
    if mine > other:
        return None, f"ours may need more: at most {mine} against at least {other}{counted}"
    return (mine, other), f"at most {mine} against at least {other}{counted}"


def no_more_loop_lds_ops(ours: str, theirs: str, arch: str) -> tuple[int, int] | None:
    """compare's bound alone."""
    return compare(ours, theirs, arch)[0]
