"""LDS write instructions one lane issues for a store into a swizzled shared layout, counted from the layouts: what
Triton's lowering vectorizes and what LLVM then pairs (lds_chunks reads it for accelerate-dot's LDS-ops model).

Algorithm, for a `ttg.local_store` or a `ttg.local_alloc` of a 2-D tensor:
  1. The source layout as linear bases over the tensor's coordinates: a `#ttg.linear` layout's own register, lane
     and warp bases; a `#ttg.blocked` layout's, as Triton builds them (sizePerThread, then threadsPerWarp, then
     warpsPerCTA, each along its order; repeats over the shape as further register bases; bases past the shape
     broadcast, 0).
  2. The shared layout as a map from coordinates to an element offset (Triton's sharedToLinearLayout: row r, column
     c -> r * columns + (c XOR the swizzle of r), the swizzle vec * phase(r) with phase(r) = (r / perPhase) %
     maxPhase, and for `amd_rotating_shared` XOR (r / maxPhase / perPhase) % maxPhase). Both maps are linear over
     GF(2), so each basis has an offset image and a lane's element offsets are XORs of them.
  3. Triton's vectorization: the leading register bases whose images are offsets 1, 2, 4, ... form one contiguous
     chunk, at most 16 bytes: one instruction per chunk.
  4. LLVM's pairing (ds_write2_b32 / ds_write2_b64, for 4- and 8-byte chunks): two chunks of a lane share a base
     address register with constant offsets where the bits in which their offsets differ are bits no lane or warp
     basis sets (elsewhere the difference depends on the lane: the XOR is no addition); the offsets, in units of
     the chunk, fit 8 bits (or 8 bits of 64 units: the st64 form). Chunks pair greedily in register order.
Measured against compiled main loops (bench/kwidth_lds.py, accelerate-dot trials where only kWidth differs and
neither compile spills): the per-op counts ordered the two variants' writes as compiled on every such trial of
seeds 3370-3569 and 3750-3829, the two where ours wrote more (3380, 3461 on gfx942: 8 chunks paired into 8 against
16 unpaired) included. Where a compile spills, its scratch code changes what LLVM pairs: not modelled.
None where the layouts are not these (3-D, broadcast registers, another shared layout, an element type not listed).
"""
from __future__ import annotations

import re

from .dot_figures import LDS_WIDEST_BYTES

ELEMENT_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i8": 1, "i16": 2, "i32": 4, "f8E4M3FN": 1, "f8E5M2": 1,
                 "f8E4M3FNUZ": 1, "f8E5M2FNUZ": 1}
PAIRED_BYTES = (4, 8)  # ds_write2_b32, ds_write2_b64
PAIR_OFFSET_LIMIT = 255  # 8-bit offset fields, in units of the chunk (or of 64 chunks: the st64 forms)

# a distributed source tensor: (shape "AxB", element, blocked | linear, the layout's body); a swizzled shared layout:
# (kind, vec, perPhase, maxPhase, order)
SOURCE_LAYOUT = re.compile(r"tensor<((?:\d+x)+)(\w+), #ttg\.(blocked|linear)<\{(.*?)\}>>")
SHARED_LAYOUT = re.compile(r"#ttg\.(swizzled_shared|amd_rotating_shared)<\{vec = (\d+), perPhase = (\d+), "
                           r"maxPhase = (\d+), "
                     r"order = \[([\d, ]+)\]\}>")


def ints(text: str) -> list[int]:
    return [int(v) for v in re.findall(r"-?\d+", text)]


def _log2(n: int) -> int:
    return max(n - 1, 0).bit_length()


def _blocked_bases(body: str, shape: list[int]) -> tuple[list, list, list]:
    """(register, lane, warp) bases of a blocked layout over `shape` (step 1)."""
    field = lambda name: ints(re.search(name + r" = \[([\d, ]+)\]", body).group(1))  # noqa: E731
    per_thread, per_warp, per_cta, order = (field(n) for n in ("sizePerThread", "threadsPerWarp", "warpsPerCTA",
                                                               "order"))
    rank, extent = len(shape), [1] * len(shape)
    bases = {"register": [], "lane": [], "warp": []}

    def grow(kind: str, dim: int, count: int) -> None:
        for _ in range(_log2(count)):
            step = extent[dim]
            bases[kind].append([step if i == dim else 0 for i in range(rank)] if step < shape[dim] else [0] * rank)
            extent[dim] *= 2

    for kind, sizes in (("register", per_thread), ("lane", per_warp), ("warp", per_cta)):
        for d in order:
            grow(kind, d, sizes[d])
    for d in order:  # repeats over the shape
        while extent[d] < shape[d]:
            grow("register", d, 2)
    return bases["register"], bases["lane"], bases["warp"]


def _linear_bases(body: str) -> tuple[list, list, list]:
    def grab(name: str) -> list:
        m = re.search(name + r" = \[(.*?)\](?:, \w+ = |$)", body)
        return [ints(b) for b in re.findall(r"\[([-\d, ]+)\]", m.group(1))] if m else []

    return grab("register"), grab("lane"), grab("warp")


def layout_bases(kind: str, body: str, shape: list[int]) -> tuple[list, list, list]:
    """(register, lane, warp) bases of a `blocked` or `linear` layout (its `{...}` body) over `shape` (step 1)."""
    return _blocked_bases(body, shape) if kind == "blocked" else _linear_bases(body)


def _offset_map(kind: str, vec: int, per_phase: int, max_phase: int, order: list[int], shape: list[int]):
    """The shared layout's coordinates -> element offset (step 2)."""
    col_dim, row_dim = order[0], order[1]
    columns, rows = shape[col_dim], shape[row_dim]
    swizzle = []
    for j in range(_log2(rows)):
        row = 1 << j
        phase = (row // per_phase) % max_phase
        if kind == "amd_rotating_shared":
            phase ^= row // max_phase // per_phase % max_phase
        swizzle.append((vec * phase) % columns)

    def offset(coord: list[int]) -> int:
        r, c = coord[row_dim], coord[col_dim]
        for j, x in enumerate(swizzle):
            if r >> j & 1:
                c ^= x
        return r * columns + c

    return offset


def _pairs(chunks: list[int], lane_bits: int, units: int) -> int:
    """Chunk pairs LLVM forms (step 4): `chunks` the element offsets in register order, `units` elements a chunk."""
    used, pairs = [False] * len(chunks), 0
    for i, a in enumerate(chunks):
        if used[i]:
            continue
        for j in range(i + 1, len(chunks)):
            b = chunks[j]
            if used[j] or (a ^ b) & lane_bits:
                continue
            apart = abs(b - a) // units
            if apart <= PAIR_OFFSET_LIMIT or (apart % 64 == 0 and apart // 64 <= PAIR_OFFSET_LIMIT):
                used[i] = used[j] = True
                pairs += 1
                break
    return pairs


def write_instructions(line: str) -> int | None:
    """LDS write instructions per lane of the store on `line` (generic text), None where not modelled."""
    source, shared = SOURCE_LAYOUT.search(line), SHARED_LAYOUT.search(line)
    if source is None or shared is None or source.group(2) not in ELEMENT_BYTES:
        return None
    shape, element = ints(source.group(1).replace("x", " ")), ELEMENT_BYTES[source.group(2)]
    if len(shape) != 2:
        return None
    register, lane, warp = layout_bases(source.group(3), source.group(4), shape)
    offset = _offset_map(shared.group(1), *(int(shared.group(i)) for i in (2, 3, 4)), ints(shared.group(5)), shape)
    images = [offset(b) for b in register]
    if not register or any(x == 0 for x in images) or any(len(b) != 2 for b in register + lane + warp):
        return None
    lane_bits = 0
    for b in lane + warp:
        lane_bits |= offset(b)
    contiguous = 0  # step 3
    while contiguous < len(images) and images[contiguous] == 1 << contiguous and \
            (2 << contiguous) * element <= LDS_WIDEST_BYTES:
        contiguous += 1
    rest = images[contiguous:]
    chunks = []
    for i in range(1 << len(rest)):
        o = 0
        for bit, image in enumerate(rest):
            if i >> bit & 1:
                o ^= image
        chunks.append(o)
    units = 1 << contiguous
    if units * element not in PAIRED_BYTES:
        return len(chunks)
    return len(chunks) - _pairs(chunks, lane_bits, units)
