"""The matrix-pipe cycles one wave issues for a kernel's dots, read from its TTGIR (the mfma-dot-work analysis), so
that two layout choices of one kernel can be ranked on dot cycles without compiling either.

Per dot (a tt.dot_scaled of fp8 operands without scales too: gfx950 runs it on the f8f6f4 MFMA of its shape): the
MFMA instructions per wave (mfma-dot-work: the tile over warps x instruction shape, warps that a small
tile leaves without a block of their own repeating another's) times the instruction's issue cycles, from the MFMA
table the compiled figures use (native.mfma_cycles): the instruction is the one of that shape whose operand types
are the dot's. `compare` ranks two TTGIRs of one kernel that differ in layouts only: their dots pair up in program
order; one has fewer cycles where no dot of it has more and the main loop's (the one loop holding dots; the whole
kernel where no loop does) are fewer, whatever LLVM's unrolling then weighs them by.

A dot done on FMA (Triton's layouts where no MFMA instruction takes its operands, or its tile is too small) has a
lower bound in place of its cycles: each lane does its accumulator elements x K multiply-adds, one FMA-family
instruction does at most two (v_pk_fma of two elements, v_dot2 of one along K on f16 or bf16 operands:
dot_figures.PAIRED_FMA), and the compiled figure counts FMA_ISSUE_CYCLES per such instruction.
`compare` takes the bound for the other side only (its figure is then at least that), never for the side it says
has fewer cycles; only for float operands, whose instructions the figure counts (an i8 FMA dot runs v_dot4, which
it does not); and only where that side has no MFMA layout at all: beside an MFMA instruction the figure counts the
MFMA ones alone, and where LLVM unrolls the main loop whole it counts the whole kernel's (held-out seed 4228 on
gfx950: Triton's layouts put a tt.dot_scaled on MFMA, which this analysis does not read, and the tt.dot after it
on FMA; LLVM unrolled the loop whole, and the figure counted 64 cycles, the scaled dot's, against ours' 96).
"""
from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from ..ir import native
from ..ir.native import PipelineError, run_pipeline_with_diagnostics

_REMARK = re.compile(r"dot work: loop (-?\d+) depth (\d+), (?:mfma (\d+)x(\d+)x(\d+) (\S+) x (\S+), (\d+) per wave|"
                     r"fma (\S+) x (\S+), (\d+) elements x (\d+) per lane|not mfma)")
_FMA_COUNTED = {"f16", "bf16", "f32"}  # operand types whose FMA dot the compiled figure counts (FMA_PREFIXES)
# an FMA-family instruction, as the compiled figures count it too (dot_figures.FMA_PREFIXES)
MACS_PER_FMA_AT_MOST = 2  # per lane (dot_figures.PAIRED_FMA; CDNA3 ISA, VOP3P)
FMA_ISSUE_CYCLES = 4  # a wave64 VALU instruction issues over 4 cycles on a SIMD16: the FMA dot's cycle figure
_MNEMONIC = re.compile(r"^v_mfma_(?:f32|i32|f64)_(\d+)x(\d+)x(\d+)_?(.+)$")
_FAMILY = {"f16": "f16", "bf16": "bf16", "f32": "f32", "f64": "f64", "i8": "i8",
           "f8E4M3FNUZ": "fp8", "f8E4M3FN": "fp8", "f8E5M2FNUZ": "bf8", "f8E5M2": "bf8"}


@dataclass(frozen=True)
class Dot:
    loop: int  # the innermost enclosing scf.for, numbered in pre-order; -1: none
    cycles: int | None  # issue cycles per wave; None: not a dot the table names, nor an FMA dot of float operands
    exact: bool = True  # False: an FMA dot, `cycles` a lower bound


def _suffixes(a: str, b: str) -> set[str]:
    fa, fb = _FAMILY.get(a), _FAMILY.get(b)
    if fa is None or fb is None:
        return set()
    if fa in ("fp8", "bf8") and fb in ("fp8", "bf8"):
        return {f"{fa}_{fb}", "f8f6f4"}
    if fa != fb:
        return set()
    return {"bf16": {"bf16", "bf16_1k"}, "f32": {"f32", "xf32"}}.get(fa, {fa})


@functools.lru_cache(maxsize=None)
def instruction_cycles(arch: str, m: int, n: int, k: int, a: str, b: str) -> int | None:
    """Issue cycles of the MFMA instruction of shape m x n x k on operands `a` x `b` (TTGIR element types) on
    `arch`; None where the table has none or shapes and types name several."""
    found = set()
    for (table_arch, mnemonic), cycles in native.mfma_cycles().items():
        x = _MNEMONIC.match(mnemonic)
        if table_arch == arch and x and (int(x[1]), int(x[2]), int(x[3])) == (m, n, k) and \
                x[4] in _suffixes(a, b):
            found.add(cycles)
    return found.pop() if len(found) == 1 else None


@functools.lru_cache(maxsize=64)
def dots(generic_ttgir: str, arch: str) -> tuple[Dot, ...] | None:
    """Every tt.dot of the kernel in program order; None where the analysis does not run on it."""
    try:
        _, diagnostics = run_pipeline_with_diagnostics(generic_ttgir, "builtin.module(mfma-dot-work)")
    except PipelineError:
        return None
    out = []
    for d in diagnostics:
        x = _REMARK.search(d.message)
        if x is None:
            continue
        if x[9] is not None:
            out.append(Dot(int(x[1]), fma_cycles_at_least(x[9], x[10], int(x[11]), int(x[12])), exact=False))
            continue
        cycles = None
        if x[3] is not None:
            per = instruction_cycles(arch, int(x[3]), int(x[4]), int(x[5]), x[6], x[7])
            cycles = None if per is None else per * int(x[8])
        out.append(Dot(int(x[1]), cycles))
    return tuple(out)


def fma_cycles_at_least(a: str, b: str, elements: int, k: int) -> int | None:
    """The fewest main-loop dot cycles the compiled figure can count for an FMA dot whose lanes hold `elements`
    accumulator elements over a K of `k` (the module docstring); None for operands the figure does not count."""
    if a not in _FMA_COUNTED or b not in _FMA_COUNTED:
        return None
    # two multiply-adds in one instruction: of one element along K (v_dot2, f16 and bf16 operands only: CDNA has no
    # f32 dot instruction), or of two elements (v_pk_fma)
    per = MACS_PER_FMA_AT_MOST if elements > 1 or (a, b) != ("f32", "f32") else 1
    return FMA_ISSUE_CYCLES * math.ceil(elements * k / per)


def main_loop_cycles(ds: tuple[Dot, ...]) -> int | None:
    """The main loop's dot cycles per wave: the one loop holding dots (the whole kernel where none does); None
    where several loops hold dots (which one LLVM's loops make the main one is not told here), or where it holds
    dots on MFMA and on FMA (the compiled figure then counts the MFMA instructions alone)."""
    loops = {d.loop for d in ds if d.loop >= 0}
    if len(loops) > 1:
        return None
    inside = [d for d in ds if not loops or d.loop in loops]
    if not inside or len({d.exact for d in inside}) > 1:
        return None
    return sum(d.cycles for d in inside)


def compare(ours: str, theirs: str, arch: str) -> tuple[int, int] | None:
    """(theirs', ours' main-loop dot cycles per wave) where every dot of ours needs no more cycles than its pair
    in theirs and the main loop's are fewer; None otherwise, or where either cannot be read. Theirs' may be an FMA
    dot's lower bound (theirs' compiled figure is then at least that), ours' never."""
    a, b = dots(ours, arch), dots(theirs, arch)
    if not a or not b or len(a) != len(b) or any(d.cycles is None for d in a + b) or not all(d.exact for d in a):
        return None
    if not all(d.exact for d in b) and "#ttg.amd_mfma" in theirs:
        return None  # FMA beside MFMA (a tt.dot_scaled's too): the compiled figure counts the MFMA alone (seed 4228)
    if any(x.loop != y.loop or x.cycles > y.cycles for x, y in zip(a, b)):
        return None
    mine, other = main_loop_cycles(a), main_loop_cycles(b)
    if mine is None or other is None or mine >= other:
        return None
    return other, mine


def compiled_fma_fewer(ours: str, theirs: str, arch: str, compiled: int) -> tuple[int, int] | None:
    """(theirs' main-loop dot cycles of one iteration, `compiled`) where every dot of ours runs on FMA and ours'
    compiled main loop (`compiled`: its figure) counts fewer cycles than one iteration of theirs' MFMA dots; None
    otherwise. Theirs' compiled figure counts at least one iteration's MFMA instructions (more where LLVM unrolls
    the loop), ours' at least one iteration's FMA instructions: the premise that they are the dots' (`compiled` is
    no less than ours' lower bound; an i8 FMA dot's v_dot4, which the figure does not count, has none). So ours
    needs fewer dot cycles per K-step however LLVM unrolls either loop (held-out seed 4311: a 16x16 f32 tile on 4
    warps, Triton's layouts repeating one 16x16x4 MFMA block on every warp, 256 cycles an iteration; ours on FMA,
    one element a lane, 128)."""
    a, b = dots(ours, arch), dots(theirs, arch)
    if not a or not b or len(a) != len(b) or "#ttg.amd_mfma" in ours or any(d.exact or d.cycles is None for d in a):
        return None
    if any(x.loop != y.loop for x, y in zip(a, b)):
        return None
    mine, other = main_loop_cycles(a), main_loop_cycles_of(theirs, arch)
    if mine is None or other is None or not mine <= compiled < other:
        return None
    return other, compiled


def on_fma(generic_ttgir: str, arch: str) -> bool:
    """Whether some dot of the TTGIR runs on FMA (its cycles a lower bound)."""
    return any(not d.exact for d in dots(generic_ttgir, arch) or ())


def main_loop_cycles_of(generic_ttgir: str, arch: str) -> int | None:
    """The main loop's dot cycles per wave of one TTGIR; None where any dot is not an MFMA the table names, or the
    analysis cannot tell which loop is the main one."""
    ds = dots(generic_ttgir, arch)
    if not ds or any(d.cycles is None or not d.exact for d in ds):
        return None
    return main_loop_cycles(ds)


_DOT_OPERANDS = re.compile(r'"tt\.dot"\(.*?:\s*\(tensor<(?:\d+x)+(\w+)>,\s*tensor<(?:\d+x)+(\w+)>')


def without_mfma(generic_text: str, arch: str) -> bool:
    """Whether some tt.dot of the TTIR or TTGIR has operand types no MFMA instruction of `arch` takes (the MFMA
    table): Triton's layouts then do it on FMA (fp8 on gfx90a). False where a type is not one the table names."""
    suffixes = {x[4] for (table_arch, mnemonic) in native.mfma_cycles() if table_arch == arch
                for x in [_MNEMONIC.match(mnemonic)] if x}
    for m in _DOT_OPERANDS.finditer(generic_text):
        wanted = _suffixes(m.group(1), m.group(2))
        if wanted and not wanted & suffixes:
            return True
    return False


_DOT_RESULT = re.compile(r'"tt\.dot(?:_scaled)?"\(.*->\s*tensor<((?:\d+x)+)(f64|f32|i32|f16|bf16)\b')
_BITS = {"f64": 64, "f32": 32, "i32": 32, "f16": 16, "bf16": 16}


def accumulator_registers(generic_text: str, num_warps: int) -> int:
    """32-bit registers per lane the kernel's dot results hold (every tt.dot / tt.dot_scaled result tensor over
    the workgroup's lanes, 64 per wave), read from the TTIR or TTGIR: a lower bound of what the kernel keeps live,
    since an accumulator stays live across its loop."""
    total = 0
    for m in _DOT_RESULT.finditer(generic_text):
        total += math.prod(_dims(m.group(1))) * _BITS[m.group(2)] // 32
    return -(-total // (64 * max(1, num_warps)))


_DOT_SHAPES = re.compile(r'"tt\.dot"\(.*?:\s*\(tensor<((?:\d+x)+)(\w+)>,\s*tensor<((?:\d+x)+)(\w+)>,\s*'
                         r'tensor<((?:\d+x)+)\w+>')
_OPERAND_BITS = {**_BITS, "i8": 8}


def fma_operand_registers(generic_ttir: str, num_warps: int) -> int:
    """A lower bound of the 32-bit registers per lane that one K-tile of a tt.dot's operands holds where Triton
    lowers it on FMA (read from the TTIR; the sum over its dots): that lowering loads the whole tile of both
    operands, in the dot operand layouts, before its multiply-adds. A lane computing a results needs the A rows
    and the B columns of its results over all K: R rows and C columns with R x C >= a, so R + C >= 2 sqrt(a), each
    K elements of its operand type (fp8 and int8 packed four to a register)."""
    total = 0.0
    for m in _DOT_SHAPES.finditer(generic_ttir):
        a_dims, c_dims = _dims(m.group(1)), _dims(m.group(5))
        per_lane = math.prod(c_dims) / (64 * max(1, num_warps))
        bits = max(_OPERAND_BITS.get(m.group(2), 8), _OPERAND_BITS.get(m.group(4), 8))
        total += 2 * per_lane ** 0.5 * a_dims[-1] * min(bits, 32) / 32
    return int(total)


def _dims(shape: str) -> list[int]:
    """`256x64x` (a tensor type's shape as the regexes capture it) -> [256, 64]."""
    return [int(d) for d in shape.rstrip("x").split("x")]
