"""The main loop's LDS instructions bounded from a TTGIR's layouts (models/lds_ops.py): what a lane reads into an MFMA
dot operand or a linear layout and writes from a blocked one, the main loop's ops, and the bound accelerate-dot keeps
ours by without compiling Triton's layouts ("fewest LDS ops")."""
from __future__ import annotations

from triton_mfma.models import lds_ops, linear_layouts

MFMA = "#ttg.amd_mfma<{{version = 3, warpsPerCTA = [{w0}, {w1}], instrShape = [{m}, {n}, 8], isTransposed = true}}>"
SHARED = "#ttg.swizzled_shared<{{vec = {vec}, perPhase = 1, maxPhase = {phase}, order = [1, 0]}}>"
BLOCKED = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"


def read(shape=(64, 64), op=0, w=(2, 2), mn=(32, 32), kwidth=8, vec=8, phase=8, ty="f16"):
    shared = SHARED.format(vec=vec, phase=phase)
    parent = MFMA.format(w0=w[0], w1=w[1], m=mn[0], n=mn[1])
    s = f"{shape[0]}x{shape[1]}x{ty}"
    return (f'%v = "ttg.local_load"(%v) : (!ttg.memdesc<{s}, {shared}, #ttg.shared_memory>) -> '
            f"tensor<{s}, #ttg.dot_op<{{opIdx = {op}, parent = {parent}, kWidth = {kwidth}}}>>")


def store(vec=8, phase=8):
    return (f'"ttg.local_store"(%v, %v) : (tensor<64x64xf16, {BLOCKED}>, !ttg.memdesc<64x64xf16, '
            f"{SHARED.format(vec=vec, phase=phase)}, #ttg.shared_memory, mutable>) -> ()")


def test_a_lane_reads_its_warps_blocks_over_the_whole_k():
    # A of a 64x64 f16 tile, warps [2, 2] of 32x32: one 32-row block over K = 64, 64 B a lane: four 16-byte reads
    assert lds_ops.instructions(read(), paired=False) == 4
    # warps [4, 1] over 64 rows of 32: each wave's block repeats on another (one block, as many bytes)
    assert lds_ops.instructions(read(w=(4, 1)), paired=False) == 4
    # 16x16 instructions on warps [1, 4]: 4 blocks of 16 rows, 128 B a lane
    assert lds_ops.instructions(read(w=(1, 4), mn=(16, 16)), paired=False) == 8
    # kWidth 4: 8-byte chunks, eight reads, or four where LLVM pairs them all
    assert (lds_ops.instructions(read(kwidth=4), paired=False), lds_ops.instructions(read(kwidth=4), paired=True)) \
        == (8, 4)
    # a swizzle vec of 2 cuts the run at 4 bytes: paired at best 8 bytes
    assert lds_ops.instructions(read(vec=2), paired=True) == 8
    # a tile not a whole number of instruction rows, or a 4x4 instruction: not counted
    assert lds_ops.instructions(read(shape=(48, 64)), paired=False) is None
    assert lds_ops.instructions(read(mn=(4, 4)), paired=False) is None


def test_a_read_into_a_linear_layout_counts_its_registers():
    line = ('%v = "ttg.local_load"(%v) : (!ttg.memdesc<64x32xbf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, '
            'maxPhase = 1, order = [1, 0]}>, #ttg.shared_memory, mutable>) -> tensor<64x32xbf16, #ttg.linear<{'
            'register = [[0, 1], [0, 2], [0, 8], [0, 16]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]], '
            'warp = [[32, 0], [0, 0]], block = []}>>')
    # 16 elements of 2 bytes a lane in runs of 4 along the unswizzled fastest dimension: four 8-byte reads, two paired
    assert (lds_ops.instructions(line, paired=False), lds_ops.instructions(line, paired=True)) == (4, 2)


def test_a_store_is_counted_from_its_layouts():
    assert lds_ops.instructions(store(), paired=False) is not None


def _kernel(body_in_loop: list[str], peeled: list[str] = ()) -> str:
    inner = "\n".join("      " + ln for ln in body_in_loop)
    after = "\n".join("    " + ln for ln in peeled)
    return ('module {\n  "tt.func"() ({\n    %a = "scf.for"(%0, %1, %2) ({\n' + inner +
            '\n      %d = "tt.dot"(%x, %y, %z) : () -> ()\n      "scf.yield"(%d) : () -> ()\n    }) : () -> ()\n' +
            after + '\n    "tt.return"() : () -> ()\n  }) : () -> ()\n}\n')


def test_the_main_loop_is_the_loop_around_the_dots():
    k = _kernel([store(), read()], [read(kwidth=4), '%e = "tt.dot"(%x, %y, %z) : () -> ()'])
    assert lds_ops.main_loop_lines(k) == [store(), read()]  # the pipeliner's peeled dot and its read are not in it
    two_loops = k.replace('"tt.return"', '%b = "scf.for"(%0) ({\n      %f = "tt.dot"(%x) : () -> ()\n    }) : () -> '
                                         '()\n    "tt.return"')
    assert lds_ops.main_loop_lines(two_loops) is None


def test_ours_needs_no_more_where_its_reads_are_wider():
    ours, theirs = _kernel([store(), read(kwidth=8)]), _kernel([store(vec=4, phase=16), read(kwidth=4, vec=4,
                                                                                            phase=16)])
    bound = lds_ops.no_more_loop_lds_ops(ours, theirs, "gfx942")
    assert bound is not None and bound[0] <= bound[1], bound
    # the other way round, ours' narrower reads may need more: no bound
    assert lds_ops.no_more_loop_lds_ops(_kernel([read(kwidth=4)]), _kernel([read(kwidth=8)]), "gfx942") is None
    # an op this model does not count, where the two differ: no bound
    convert = ('%v = "ttg.convert_layout"(%v) : (tensor<64x64xf16, {b}>) -> tensor<64x64xf16, #ttg.linear<{{register '
               '= [[0, {r}]], lane = [], warp = [], block = []}}>>')
    assert lds_ops.no_more_loop_lds_ops(_kernel([convert.format(b=BLOCKED, r=1), read()]),
                                        _kernel([convert.format(b=BLOCKED, r=2), read()]), "gfx942") is None
    # the same ops on both sides cancel
    assert lds_ops.no_more_loop_lds_ops(_kernel([convert.format(b=BLOCKED, r=1), read()]),
                                        _kernel([convert.format(b=BLOCKED, r=1), read(kwidth=4)]), "gfx942") == (4, 4)
    # where the arch reads LDS transposed, theirs' reads count at the widest: ours' 16-byte reads still no more
    assert lds_ops.no_more_loop_lds_ops(_kernel([read(kwidth=8)]), _kernel([read(kwidth=4)]), "gfx950") == (4, 4)
    assert lds_ops.no_more_loop_lds_ops(_kernel([read(kwidth=4)]), _kernel([read(kwidth=4, vec=4)]), "gfx950") \
        is None


# liger's fused MoE up-projection (bf16 64x64 tiles, 4 warps): Triton reads the transposed weight tile in registers
# and converts it to the operand's linear layout, whose leading register run follows kWidth (ours 8, Triton's 4)
LINEAR = ("#ttg.linear<{{register = [[0, 1], [0, 2], [0, {r}], [0, 16], [0, 32]], lane = [[1, 0], [2, 0], [4, 0], "
          "[8, 0], [16, 0], [0, {l}]], warp = [[32, 0], [0, 0]], block = []}}>")


def convert(run: int, to: str | None = None) -> str:
    dst = to or LINEAR.format(r=4 if run == 8 else 8, l=8 if run == 8 else 4)
    return f'%v = "ttg.convert_layout"(%v) : (tensor<64x64xbf16, {BLOCKED}>) -> tensor<64x64xbf16, {dst}>'


def test_a_convert_between_warps_is_counted_through_lds():
    """Compiled on gfx942 (Triton 3.9), that kernel's main loop: Triton's layouts 2 + 8 LDS instructions a convert
    (16-byte stores, 8-byte reads), ours 2 + 4: at most 6 for ours' (every register at the shared run of 8
    elements), at least 6 for Triton's (32 and 64 distinct bytes a lane at 16 bytes)."""
    assert lds_ops.crosses_warps(*(linear_layouts.bases(f"tensor<64x64xbf16, {layout}>")
                                   for layout in (BLOCKED, LINEAR.format(r=4, l=8))))
    assert lds_ops.convert_instructions(convert(8), at_most=True) == 6
    assert lds_ops.convert_instructions(convert(4), at_most=False) == 6
    assert lds_ops.convert_instructions(convert(4), at_most=True) == 12  # a run of 4 shared: 8-byte stores and reads
    assert lds_ops.no_more_loop_lds_ops(_kernel([convert(8), read()]), _kernel([convert(4), read(kwidth=4)]),
                                        "gfx942") == (10, 10)
    assert lds_ops.no_more_loop_lds_ops(_kernel([convert(4), read()]), _kernel([convert(8), read()]), "gfx942") \
        is None
    # a convert to the layout it starts from stays within warps and moves nothing
    same = convert(8, to=BLOCKED)
    assert lds_ops.convert_instructions(same, at_most=True) == 0 == lds_ops.convert_instructions(same, at_most=False)
    # into an MFMA result (fla's chunk_delta_h): the blocked layout's warps hold rows the MFMA's give other warps
    mfma = convert(8, to=MFMA.format(w0=2, w1=2, m=32, n=32))
    assert lds_ops.convert_instructions(mfma, at_most=False) == 4  # 16 bf16 a lane on each side, at 16 bytes: 2 + 2
    # a layout this model does not read (a 4x4 instruction) leaves no bound
    assert lds_ops.convert_instructions(convert(8, to=MFMA.format(w0=2, w1=2, m=4, n=4)), at_most=True) is None


def test_no_bound_where_llvm_unrolled_ours_whole(monkeypatch):
    """Generated seed 2855 on gfx942: LLVM unrolled ours' main loop whole, so its figures count the whole kernel's
    LDS ops (the epilogue's convert too) per K-step, 100 / 4 against 10 of Triton's loop: the model does not tell
    there, where it tells on the same layouts with a loop."""
    from types import SimpleNamespace

    from triton_mfma.decisions import accelerate_dot
    from test_decisions import _figures

    monkeypatch.setattr(accelerate_dot, "lds_total", lambda text: 16384)  # the layouts' LDS, as the LDS model reads it
    monkeypatch.setattr(accelerate_dot.dot_work, "main_loop_cycles_of", lambda text, arch: 256)
    ctx = SimpleNamespace(arch="gfx942", num_warps=4, w=0)
    builds = SimpleNamespace(text=_kernel([read(kwidth=8)])), SimpleNamespace(text=_kernel([read(kwidth=4)]))
    f = _figures(occupancy=8, lds=16384)
    assert accelerate_dot.fewest_lds_ops(ctx, *builds, f) is not None
    f.loop_whole = True
    assert accelerate_dot.fewest_lds_ops(ctx, *builds, f) is None
