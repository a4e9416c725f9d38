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
                   last of the spill classes;
  7. dot cycles    one main-loop iteration's matrix-pipe issue cycles (MFMA table) or FMA cycles;
  8. LDS ops       one main-loop iteration's LDS instructions;
  9. spills        VGPR + SGPR spills in all: a tie-breaker between variants equal on every key above (SGPR lane
                   spills outside the loop and scratch below the noise floor still cost instructions).

Below NOISE_SCRATCH_BYTES of scratch per lane a memory spill outside the main loop is noise (D14: 16 B "not
visible" across a sweep, 28-36 B already +2..13%: D13; where those spills were is not stated) and key 3 reads 0;
in the main loop every scratch instruction counts (paid every iteration, the costliest place: D01, D07, D08).
Keys 1-6 are the *spill and occupancy* classes (`SPILL_KEYS`): grid order's check judges the remap on these only,
since its gain (L2 reuse) is in no static figure and its scalar arithmetic costs registers by design. The benches'
verdict against stock (dot_figures.compare) reads keys 1-8 (`MAIN_KEYS`): SGPR lane spills outside the main loop
are not worse there (issue 35's rule); the decisions break a tie on those with key 9. What ranks on no key never
decides a change: registers or LDS bytes that buy no occupancy.
"""
from __future__ import annotations

from dataclasses import dataclass

# bench/spill_calibration.md, D14: scratch of 16 B per lane made no visible difference across aiter's 131-shape
# sweep on gfx950, 28-36 B cost 2-13% (D13).
NOISE_SCRATCH_BYTES = 16

KEYS = ("launch", "loop scratch", "scratch", "occupancy", "loop copies", "loop lanes", "dot cycles", "LDS ops",
        "spills")
SPILL_KEYS = KEYS[:6]
MAIN_KEYS = KEYS[:8]


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


def rank(f) -> tuple:
    """The figures of one compile as the rank key (smaller is better), in the order of KEYS."""
    return (0 if f.occupancy > 0 else 1,
            f.loop_scratch_ops,
            _scratch(f, f.spill_mem_ops),
            -f.occupancy,
            f.loop_acc_copies,
            f.loop_lane_ops,
            f.loop_cycles,
            f.loop_ds,
            f.vgpr_spills + f.sgpr_spills)


def ranked_spills(f) -> tuple:
    """The spill classes among SPILL_KEYS (loop scratch, scratch, loop copies, loop lanes): all 0 where a compile
    has no spill that the spill and occupancy classes count."""
    r = rank(f)
    return r[1], r[2], r[4], r[5]


def wins_on_occupancy(f, other_lds: int, arch: str, num_warps: int, waves_per_eu: int = 0) -> str | None:
    """Why a compile with figures `f` ranks better than every compile of a variant whose LDS is `other_lds` bytes
    (what the LDS model reads from its TTGIR), without compiling that variant; None where this bound cannot tell.
    It can where `f` is at the minimum of every key before occupancy (it launches, no scratch spill) and runs more
    waves than the variant's LDS, the workgroup slots and waves_per_eu let run with registers and SGPRs unlimited:
    the variant then loses at the occupancy key at the latest, whatever its registers (an exact bound, not an
    estimate: occupancy.py equals the backend's figure, the LDS model Triton's allocation)."""
    from . import occupancy

    if f.occupancy == 0 or any(rank(f)[1:3]):
        return None
    occ = occupancy.occupancy(arch, num_warps, 0, 0, other_lds, waves_per_eu)
    cap = occ.waves_per_simd if occ.workgroups_per_cu else 0
    if f.occupancy <= cap:
        return None
    return (f"no scratch spill and {f.occupancy} waves/SIMD, more than the other variant's LDS ({other_lds} B) "
            f"lets run with any registers ({cap})")


def _shown(key: str, a: int, b: int) -> str:
    if key == "occupancy":
        return f"occupancy {-a} -> {-b} waves/SIMD"
    if key == "launch":
        return "launch " + ("possible" if a == 0 else "impossible") + " -> " + ("possible" if b == 0 else "impossible")
    return f"{key} {a} -> {b}"


def judge(reference, candidate, keys: tuple = KEYS) -> Judgement:
    """`candidate` against `reference` (both dot_figures.Figures) on `keys` (a prefix of KEYS), in their order."""
    for key, a, b in zip(keys, rank(reference), rank(candidate)):
        if a != b:
            return Judgement(-1 if b < a else 1, key, _shown(key, a, b))
    return Judgement(0)


def differences(reference, candidate, keys: tuple = KEYS) -> tuple[list[str], list[str]]:
    """(the keys on which `candidate` is worse, those on which it is better), each as "name a -> b"."""
    worse, better = [], []
    for key, a, b in zip(keys, rank(reference), rank(candidate)):
        if a != b:
            (worse if b > a else better).append(_shown(key, a, b))
    return worse, better
