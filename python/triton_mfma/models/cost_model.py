"""The one judge of every decision: two compiles of one kernel ranked by what their static figures say about speed.

Every decision (accelerate-dot, the stream pipeliner, grid order's check, waves_per_eu "auto" and the
register-pressure relaxation) and the benches' comparison (dot_figures.compare) rank variants by `rank`, a
lexicographic order on the figures of dot_figures.Figures. The order is the rule that public measurements of spill
and occupancy trades on CDNA support (bench/spill_calibration.md: 16 independent cases; the ids below are its rows):

  1. launch        a kernel whose workgroup needs more LDS than a CU has cannot run;
  2. loop scratch  scratch (memory) spill/reload instructions in the main loop, paid every iteration: the variant
                   with fewer wins *whatever the occupancy* (14 of 14 timed cases for the side that spills less;
                   4 of 4 for "fewer waves, no spills" over "more waves, spills": D03, D09, D21, D25);
  3. scratch       scratch spill/reload instructions anywhere: no public measurement shows spills outside the loop
                   to be cheap (calibration gap 2), so they still rank above occupancy;
  4. occupancy     waves per SIMD that run (registers, LDS, SGPRs: occupancy.py); where nothing spills, waves are
                   worth keeping (finding 6: D25, D26);
  5. loop copies   AGPR<->VGPR copies in the main loop, a spill class of their own (D23: +58% from removing them at
                   one wave; part of D08's 2x);
  6. loop lanes    SGPR spills to VGPR lanes (v_writelane / v_readlane) in the main loop: no timed evidence, so
                   last of the main loop's spill classes;
  7. other loops   SGPR lane spills in the kernel's other loops (the blocks the asm printer marks "in Loop:"), paid
                   every iteration of theirs (issue 35's rule: a lane spill outside every loop is free, inside any
                   loop it is not); the main loop first (held-out fla-core kernels: lane spills 0 -> 3-13 in loops
                   other than the main one were kept for a main-loop LDS op fewer);
  8. dot cycles    one main-loop iteration's matrix-pipe issue cycles (MFMA table) or FMA cycles;
  9. LDS ops       one main-loop iteration's LDS instructions;
 10. spills        VGPR + SGPR spills in all: a tie-breaker between variants equal on every key above (SGPR lane
                   spills outside every loop and scratch below the noise floor still cost instructions).

Main-loop figures (keys 2, 5, 6, 8, 9) are compared per iteration of the reference's loop: LLVM unrolls a loop (twice
where the trip count is dynamic, whole where it is static and short) by heuristics that move with register
pressure, and an iteration that holds two of the other's does twice the work, not twice the cost (generated seed
221 on gfx942: our layouts' loop unrolled twice read "dot cycles 256 -> 512" for the same MFMAs per K-step). An
unroll is recognized where the loop's dot work is an integer multiple u of the other's and its global-memory load
bytes at least u times (`unrolled`); elsewhere the figures are compared as they are, except where one loop was
unrolled whole (no loop holds its dots) and no whole multiple tells its iterations: no main-loop key is compared.

Below NOISE_SCRATCH_BYTES of scratch per lane a memory spill outside the main loop is noise (D14: 16 B "not
visible" across a sweep, 28-36 B already +2..13%: D13; where those spills were is not stated) and key 3 reads 0;
in the main loop every scratch instruction counts (paid every iteration, the costliest place: D01, D07, D08).
Keys 1-7 are the *spill and occupancy* classes (`SPILL_KEYS`): grid order's check judges the remap on these only,
since its gain (L2 reuse) is in no static figure and its scalar arithmetic costs registers by design. The benches'
verdict against stock (dot_figures.compare) reads keys 1-9 (`MAIN_KEYS`): SGPR lane spills outside every loop
are not worse there (issue 35's rule); the decisions break a tie on those with key 10. What ranks on no key never
decides a change: registers or LDS bytes that buy no occupancy.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from . import occupancy

# bench/spill_calibration.md, D14: scratch of 16 B per lane made no visible difference across aiter's 131-shape
# sweep on gfx950, 28-36 B cost 2-13% (D13).
NOISE_SCRATCH_BYTES = 16

KEYS = ("launch", "loop scratch", "scratch", "occupancy", "loop copies", "loop lanes", "other loops' lanes",
        "dot cycles", "LDS ops", "spills")
SPILL_KEYS = KEYS[:7]
MAIN_KEYS = KEYS[:9]


@dataclass(frozen=True)
class Judgement:
    """How a candidate compares with a reference: order < 0 better, 0 equal on every key, > 0 worse; `key` the
    deciding key, `figure` it as "name a -> b" (None on a tie)."""
    order: int
    key: str | None = None
    figure: str | None = None

    @property
    def better(self) -> bool:
        return self.order < 0

    @property
    def worse(self) -> bool:
        return self.order > 0


def _scratch(f, ops: int) -> int:
    return ops if getattr(f, "scratch", NOISE_SCRATCH_BYTES + 1) > NOISE_SCRATCH_BYTES else 0


def cannot_launch(arch: str, num_warps: int, lds: int | None) -> bool:
    """Whether a workgroup needing `lds` bytes (the LDS model's figure; None: unknown) can run on no CU (key 1)."""
    return lds is not None and occupancy.occupancy(arch, num_warps, 0, 0, lds, 0).workgroups_per_cu == 0


def one_launches(arch: str, num_warps: int, lds_ours: int | None, lds_theirs: int | None) -> tuple[bool, str] | None:
    """Where the LDS model (both TTGIRs) says exactly one of two variants can launch: (whether it is ours, why).
    The one that launches ranks better at key 1, whatever its registers: nothing needs compiling to know it."""
    if lds_ours is None or lds_theirs is None:
        return None
    mine, other = cannot_launch(arch, num_warps, lds_ours), cannot_launch(arch, num_warps, lds_theirs)
    if mine == other:
        return None
    return (not mine, f"only {'ours' if other else 'the other variant'} can launch (LDS {lds_ours} B against "
                      f"{lds_theirs} B per workgroup; more than a CU has cannot run)")


def _whole_multiple(x: Fraction) -> bool:
    return x != 1 and (x.numerator == 1 or x.denominator == 1)


def unrolled(reference, candidate) -> Fraction:
    """How many of the reference's main-loop iterations one of the candidate's holds: u (or 1/u) where LLVM unrolled one
    loop u times the other's. Where both figures know the K-steps their loop holds (`loop_steps`, from the TTGIRs' dot
    cycles per iteration), their ratio. Else the bytes the loop loads from global memory count K-steps: the loads follow
    the blocked layouts, not the dot layouts, so where they are exactly u times the other's at no more than u times the
    dot work, u (a dot layout that repeats a tile over idle warps does more work per K-step: generated seed 892 on
    gfx950, equal work per loop body at twice the loads; seed 945, our loop unrolled whole, 8 K-steps at twice the work
    of stock's one, whose 8 warps each compute the whole 32x32 tile). Else the work: exactly u times the other's at no
    fewer than u times the loads (a layout may load some tiles twice: generated seed 357 on gfx942, our loop unrolled
    whole, 4x the dot work of stock's iteration at 5.3x its loads). Not told apart: a layout that computes AND loads
    every tile u times over. 1 otherwise, and where either figure is unknown. 1 where no loop holds the dots in either
    (`loop_whole`: no loop, or LLVM unrolled it whole): both figures count the whole kernel, every K-step (held-out
    seed 4612, K one tile: Triton's warps repeat blocks, 4x our dot work at 5x our loads, and the work and load
    ratios read our whole kernel as a fifth of an iteration, 32 dot cycles as 160 against 128)."""
    if getattr(reference, "loop_whole", False) and getattr(candidate, "loop_whole", False):
        return Fraction(1)
    sr, sc = getattr(reference, "loop_steps", 0), getattr(candidate, "loop_steps", 0)
    if sr and sc:  # the K-steps each compiled loop holds, from the TTGIRs (dot_figures.with_loop_steps)
        return Fraction(sc, sr)
    wr, wc = getattr(reference, "loop_work", 0), getattr(candidate, "loop_work", 0)
    br, bc = getattr(reference, "loop_load_bytes", 0), getattr(candidate, "loop_load_bytes", 0)
    fma = _steps_beside_fma(reference, candidate, br, bc)
    if fma is not None:
        return fma
    if not (wr and wc and br and bc):
        return Fraction(1)
    u, b = Fraction(wc, wr), Fraction(bc, br)
    if _whole_multiple(b) and (u <= b if b > 1 else u >= b):
        return b
    if _whole_multiple(u) and (b >= u if u > 1 else b <= u):
        return u
    return Fraction(1)


def _steps_beside_fma(reference, candidate, br: int, bc: int) -> Fraction | None:
    """The unroll where one figure knows its K-steps (`loop_steps`) and the other's dots run on FMA, whose steps
    only have an upper bound (`loop_steps_at_most`): the loads ratio, where it makes the FMA side's steps a whole
    number within that bound. Work cannot tell there: an FMA instruction and an MFMA one count work in other units,
    and an MFMA layout of a small tile pads and repeats it (generated seed 7278 on gfx942, fp8 16x16x16 on 8 warps:
    ours' loop holds 4 K-steps of one 32x32x16 MFMA, Triton's FMA loop at most 2 by its fewest instructions, and
    the loads say 2: per Triton's iteration 64 dot cycles against 128, the same LDS ops, not "LDS ops 8 -> 16")."""
    sr, sc = getattr(reference, "loop_steps", 0), getattr(candidate, "loop_steps", 0)
    mr, mc = getattr(reference, "loop_steps_at_most", 0), getattr(candidate, "loop_steps_at_most", 0)
    if not (br and bc) or not ((sc and not sr and mr) or (sr and not sc and mc)):
        return None
    b = Fraction(bc, br)
    other, at_most = (Fraction(sc) / b, mr) if sc else (sr * b, mc)
    if other.denominator != 1 or not 1 <= other <= at_most:
        return None
    return b


def rank(f, unroll: Fraction = Fraction(1), loop: bool = True) -> tuple:
    """The figures of one compile as the rank key (smaller is better), in the order of KEYS; main-loop figures
    divided by `unroll` (the iterations of the compared loop one of these holds: `unrolled`); without `loop`, the
    main-loop keys read 0 (not compared)."""
    s = (1 if unroll == 1 else 1 / unroll) if loop else 0
    return (0 if f.occupancy > 0 else 1,
            f.loop_scratch_ops * s,
            _scratch(f, f.spill_mem_ops),
            -f.occupancy,
            f.loop_acc_copies * s,
            f.loop_lane_ops * s,
            getattr(f, "other_loop_lane_ops", 0),
            f.loop_cycles * s,
            f.loop_ds * s,
            f.vgpr_spills + f.sgpr_spills)


def _ranks(reference, candidate) -> tuple[tuple, tuple, bool]:
    """Both rank keys, the candidate's main-loop figures per the reference's iteration; whether they were scaled.
    Where LLVM unrolled one main loop whole and not the other (`loop_whole`: no loop holds its dots) and `unrolled`
    cannot tell how many iterations that holds (loads around the loop that the layouts make differ), there is no
    iteration of it to set against the other's, and no main-loop key is compared: the whole kernel's figures
    against one iteration read the unrolled variant worse by about its trip count (generated seed 1287 on gfx942:
    our layouts' 8 K-steps unrolled whole, 640 dot cycles and 143 LDS ops in all, 192 B of loads per lane of which
    32 around the loop, against 512, 70 and 20 B in one iteration of Triton's, whose 8 warps each compute the whole
    32-row tile: 64 dot cycles per K-step against 512 by the TTGIRs)."""
    u = unrolled(reference, candidate)
    whole_r, whole_c = getattr(reference, "loop_whole", False), getattr(candidate, "loop_whole", False)
    if u == 1 and whole_r != whole_c:
        return rank(reference, loop=False), rank(candidate, loop=False), False
    if whole_c and not whole_r:
        reference = _with_outside_lds(reference, u)
    elif whole_r and not whole_c:
        candidate = _with_outside_lds(candidate, 1 / u)
    return rank(reference), rank(candidate, u), u != 1


def _with_outside_lds(rolled, iterations: Fraction):
    """`rolled`'s main-loop LDS ops with what lies outside its loop spread over `iterations` of it: where the other
    compile's loop was unrolled whole, its figure counts the whole kernel, `iterations` of this loop's K-steps, and
    the LDS ops around the loop (a prologue, the epilogue's layout conversions) with them. Generated seed 7378 on
    gfx942 (int8 128x32x64, K=256): ours unrolled whole, 52 LDS ops over 4 K-steps; Triton's loop 11 a K-step and
    24 around it, 68 for the same 4 K-steps, was read as "LDS ops 11 -> 13 per iteration". `rolled` as it is where
    the whole kernel's LDS ops were not read."""
    from dataclasses import replace

    reads, writes = getattr(rolled, "ds_read_all", -1), getattr(rolled, "ds_write_all", -1)
    if reads < rolled.loop_ds_read or writes < rolled.loop_ds_write or iterations < 1:
        return rolled
    return replace(rolled, loop_ds_read=rolled.loop_ds_read + Fraction(reads - rolled.loop_ds_read) / iterations,
                   loop_ds_write=rolled.loop_ds_write + Fraction(writes - rolled.loop_ds_write) / iterations)


def ranked_spills(f) -> tuple:
    """The spill classes among SPILL_KEYS (loop scratch, scratch, loop copies, loop lanes, other loops' lanes): all 0
    where a compile has no spill that the spill and occupancy classes count."""
    r = rank(f)
    return r[1], r[2], r[4], r[5], r[6]


def nothing_ranked(f) -> bool:
    """Whether a compile with figures `f` launches and has no spill traffic of a class the judge ranks
    (ranked_spills): what it could still lose on is occupancy and the keys after the spill classes."""
    return f.occupancy > 0 and not any(ranked_spills(f))


def wins_on_occupancy(f, other_lds: int, arch: str, num_warps: int, waves_per_eu: int = 0) -> str | None:
    """Why a compile with figures `f` ranks better than every compile of a variant whose LDS is `other_lds` bytes
    (what the LDS model reads from its TTGIR), without compiling that variant; None where this bound cannot tell.
    It can where `f` is at the minimum of every key before occupancy (it launches, no scratch spill) and runs more
    waves than the variant's LDS, the workgroup slots and waves_per_eu let run with registers and SGPRs unlimited:
    the variant then loses at the occupancy key at the latest, whatever its registers (an exact bound, not an
    estimate: occupancy.py equals the backend's figure, the LDS model Triton's allocation)."""
    if f.occupancy == 0 or any(rank(f)[1:3]):
        return None
    occ = occupancy.occupancy(arch, num_warps, 0, 0, other_lds, waves_per_eu)
    cap = occ.waves_per_simd if occ.workgroups_per_cu else 0
    if f.occupancy <= cap:
        return None
    return (f"no scratch spill and {f.occupancy} waves/SIMD, more than the other variant's LDS ({other_lds} B) "
            f"lets run with any registers ({cap})")


def ties_at_best_before_dot_cycles(f, other_lds: int, arch: str, num_warps: int, waves_per_eu: int = 0) -> bool:
    """Whether no compile of a variant whose LDS is `other_lds` bytes can rank better than `f` on the keys before
    dot cycles: `f` launches, has no spill of any ranked class (loop scratch, scratch, loop copies, loop lanes) and
    runs as many waves as that LDS, the workgroup slots and waves_per_eu let run with any registers. Where the
    variant's dot cycles are then known to be more (dot_work: from its TTGIR), it ranks worse, uncompiled."""
    if not nothing_ranked(f):
        return False
    occ = occupancy.occupancy(arch, num_warps, 0, 0, other_lds, waves_per_eu)
    return f.occupancy >= (occ.waves_per_simd if occ.workgroups_per_cu else 0)


LOOP_KEYS = ("loop scratch", "loop copies", "loop lanes", "dot cycles", "LDS ops")


def _number(x) -> str:
    return str(x) if not isinstance(x, Fraction) or x.denominator == 1 else f"{float(x):.1f}"


def _shown(key: str, a, b, scaled: bool = False) -> str:
    if key == "occupancy":
        return f"occupancy {-a} -> {-b} waves/SIMD"
    if key == "launch":
        return "launch " + ("possible" if a == 0 else "impossible") + " -> " + ("possible" if b == 0 else "impossible")
    per = " per iteration of the first (the loops unroll differently)" if scaled and key in LOOP_KEYS else ""
    return f"{key} {_number(a)} -> {_number(b)}{per}"


NEITHER_LAUNCHES = "neither launches (more LDS than a CU has)"


def judge(reference, candidate, keys: tuple = KEYS) -> Judgement:
    """`candidate` against `reference` (both dot_figures.Figures) on `keys` (a prefix of KEYS), in their order.
    Where neither launches they are equal: a kernel that cannot run has no speed to rank (key 1)."""
    ra, rb, scaled = _ranks(reference, candidate)
    if ra[0] == rb[0] == 1:
        return Judgement(0, "launch", NEITHER_LAUNCHES)
    for key, a, b in zip(keys, ra, rb):
        if a != b:
            return Judgement(-1 if b < a else 1, key, _shown(key, a, b, scaled))
    return Judgement(0)


def differences(reference, candidate, keys: tuple = KEYS) -> tuple[list[str], list[str]]:
    """(the keys on which `candidate` is worse, those on which it is better), each as "name a -> b"."""
    worse, better = [], []
    ra, rb, scaled = _ranks(reference, candidate)
    if ra[0] == rb[0] == 1:
        return worse, better
    for key, a, b in zip(keys, ra, rb):
        if a != b:
            (worse if b > a else better).append(_shown(key, a, b, scaled))
    return worse, better
