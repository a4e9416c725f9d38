"""Instruction order inside a kernel's main loop, read from amdgcn or PTX.

Used to check what a software pipeliner did: in a stream-pipelined loop the global loads of the next
iteration are issued before the matrix instructions (MFMA / wgmma / mma) of this one. LLVM's asm
printers annotate every basic block of a loop (`; =>This Inner Loop Header: Depth=1`,
`;   in Loop: Header=BB0_67 Depth=1`; PTX uses `//`); the main loop is the innermost loop holding the
most matrix instructions. Its blocks are taken in layout order, rotated to start at the header (the
first block of an iteration), and the instructions are classified.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .resources import LDS_READ, LDS_WRITE

_LABEL = re.compile(r"^(?:\.L|\$L__)(BB\d+_\d+):|^(?:;|//) %bb\.(\d+):")
_HEADER = re.compile(r"=>This (Inner )?Loop Header: Depth=(\d+)")
_IN_LOOP = re.compile(r"in Loop: Header=(BB\d+_\d+) Depth=(\d+)")


def _kind(mnemonic: str) -> str | None:
    m = mnemonic
    if m.startswith(("global_load", "buffer_load")) or m.startswith(("ld.global", "cp.async.ca", "cp.async.cg")):
        return "global_load"
    if m.startswith("v_mfma") or m.startswith(("wgmma.mma_async", "mma.sync")):
        return "mma"
    if m.startswith(LDS_READ) or m.startswith(("ld.shared", "ldmatrix")):
        return "lds_read"
    if m.startswith(LDS_WRITE) or m.startswith("st.shared"):
        return "lds_write"
    if m in ("s_barrier",) or m.startswith(("bar.sync", "barrier.sync")):
        return "barrier"
    return None


@dataclass
class LoopOrder:
    """Classified instructions of one loop, in execution order from its header."""
    header: str
    sequence: list = field(default_factory=list)  # kinds, in order ("global_load", "mma", ...)

    @property
    def unroll(self) -> int:
        """How many identical copies of one iteration the loop body holds (LLVM may unroll by 2)."""
        n = len(self.sequence)
        for copies in range(n, 1, -1):
            if n % copies == 0 and self.sequence == self.sequence[: n // copies] * copies:
                return copies
        return 1

    @property
    def iteration(self) -> list:
        """The instruction kinds of one source iteration when the body is an exact repetition."""
        return self.sequence[: len(self.sequence) // self.unroll]

    def count(self, kind: str) -> int:
        return self.sequence.count(kind)

    @property
    def global_loads(self) -> int:
        return self.count("global_load")

    @property
    def mma(self) -> int:
        return self.count("mma")

    @property
    def loads_before_first_mma(self) -> int:
        """Global loads issued in an iteration before its first matrix instruction (per copy of the body
        if it is unrolled; compare with `loads_per_iteration`)."""
        n = 0
        for k in self.iteration:
            if k == "mma":
                return n
            n += k == "global_load"
        return n

    @property
    def loads_per_iteration(self) -> int:
        return self.iteration.count("global_load")

    @property
    def loads_after_last_mma(self) -> int:
        n = 0
        for k in reversed(self.iteration):
            if k == "mma":
                return n
            n += k == "global_load"
        return n

    def summary(self) -> str:
        """E.g. 'G8 B M16 B W4' : runs of global loads, barriers, MMAs, LDS reads (R) / writes (W)."""
        letters = {"global_load": "G", "mma": "M", "lds_read": "R", "lds_write": "W", "barrier": "B"}
        out, prev, n = [], None, 0
        for k in self.sequence + [None]:
            if k == prev:
                n += 1
                continue
            if prev is not None:
                out.append(letters[prev] + (str(n) if n > 1 else ""))
            prev, n = k, 1
        return " ".join(out) + (f" (body = {self.unroll} x one iteration)" if self.unroll > 1 else "")


def _blocks(asm: str):
    """(label, loop header or None, is inner header, [instruction mnemonics]) per basic block."""
    blocks, current = [], None
    for raw in asm.splitlines():
        line = raw.strip()
        m = _LABEL.match(line)
        if m:
            label = m.group(1) or f"bb.{m.group(2)}"
            header = inner = None
            if h := _HEADER.search(line):
                header, inner = label, bool(h.group(1))
            elif h := _IN_LOOP.search(line):
                header = h.group(1)
            current = [label, header, inner, []]
            blocks.append(current)
            continue
        if current is None:
            continue
        if line.startswith((";", "//")) and not current[3] and current[1] is None:
            # the annotation may sit on its own comment line right after the label (PTX does this)
            if h := _HEADER.search(line):
                current[1], current[2] = current[0], bool(h.group(1))
            elif h := _IN_LOOP.search(line):
                current[1] = h.group(1)
        code = line.split("//")[0].split(";")[0].strip() if not line.startswith((";", "//")) else ""
        if not code or code.startswith(".") or code.endswith(":") or code.startswith(("{", "}")):
            continue
        tokens = code.split()
        if tokens[0].startswith("@"):  # PTX predicate
            tokens = tokens[1:]
        if tokens:
            current[3].append(tokens[0])
    return blocks


def main_loop_order(asm: str) -> LoopOrder | None:
    """The innermost loop with the most matrix instructions, or None if the code has no loop with any."""
    blocks = _blocks(asm)
    inner = {b[0] for b in blocks if b[2]}
    best = None
    for header in inner:
        members = [b for b in blocks if b[1] == header]
        start = next(i for i, b in enumerate(members) if b[0] == header)
        ordered = members[start:] + members[:start]
        seq = [k for b in ordered for m in b[3] if (k := _kind(m))]
        order = LoopOrder(header, seq)
        if order.mma and (best is None or order.mma > best.mma):
            best = order
    return best
