"""Static figures of a dot kernel's amdgcn, and the "not worse than stock" test on them.

Used by mfma-accelerate-dot's verification (hook.py: the kernel is compiled with Triton's own dot layouts and
with ours, and ours is kept only when it is not worse on any of these) and by bench/accelerate_dot.py, so the
bench and the compiler judge by the same figures:

  occupancy   waves per SIMD that actually run (registers and LDS, occupancy.py); 0 when a workgroup needs
              more LDS than a CU has (the kernel cannot launch)
  spills      VGPR + SGPR spills
  dot cycles  one main-loop iteration's matrix-pipe issue cycles (the MFMA table's figure per instruction), or 4
              per FMA-family VALU instruction when the loop has no MFMA (an FMA dot)
  LDS ops     ds_read + ds_write instructions in the main loop
  spill ops   where the spills are: scratch spill/reload instructions (LLVM's "Spill" / "Reload" comments) and
              SGPR-to-VGPR-lane spill instructions (v_writelane / v_readlane), in the main loop and in all

`compare` is the one stock-vs-ours comparison of the benches (bench/defaults.py, bench/differential.py):
`worse_on` above is the stricter test of the accelerate-dot verification.

The main loop is the innermost loop with the most MFMA + FMA instructions (loop membership from LLVM's loop
annotations in the amdgcn); a kernel with its dots outside any loop is counted whole.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from . import loop_order, native
from .bridge import strip_locations
from . import occupancy as occ_model
from .resources import code_and_tail, from_amdgcn

# VALU instructions that do a dot's multiply-adds when Triton lowers it to FMA (a wave64 VALU instruction
# issues in 4 clocks on CDNA): counted so that an FMA dot's loop is not "free" next to an MFMA one.
FMA_PREFIXES = ("v_fma_f32", "v_fmac_f32", "v_pk_fma_f32", "v_fma_mix", "v_dot2", "v_fma_f16", "v_pk_fma_f16",
                "v_mad_", "v_fmac_f16")


@dataclass
class Figures:
    instrs: str
    vgpr: int
    agpr: int
    vgpr_total: int
    sgpr: int
    vgpr_spills: int
    sgpr_spills: int
    spills: int
    occupancy: int
    lds: int
    loop_mfma: int
    loop_fma: int
    loop_cycles: int
    loop_ds_read: int
    loop_ds_write: int
    loop_barriers: int
    spill_mem_ops: int = 0  # scratch spill + reload instructions, whole kernel
    lane_spill_ops: int = 0  # v_writelane / v_readlane, whole kernel
    loop_spill_ops: int = 0  # both kinds, in the main loop

    @property
    def loop_ds(self) -> int:
        return self.loop_ds_read + self.loop_ds_write


def _work(mnemonics) -> int:
    return sum(m.startswith("v_mfma") or m.startswith(FMA_PREFIXES) for m in mnemonics)


def main_loop(asm: str) -> list[str]:
    """Mnemonics of the main loop: the innermost loop with the most MFMA + FMA instructions; for a kernel
    whose dots are in no loop, the whole kernel."""
    blocks = loop_order._blocks(code_and_tail(asm)[0])
    best: list[str] = []
    for header in {b[0] for b in blocks if b[2]}:
        body = [m for b in blocks if b[1] == header for m in b[3]]
        if _work(body) > _work(best):
            best = body
    if not _work(best):
        best = [m for b in blocks for m in b[3]]
    return best


_SPILL_COMMENT = re.compile(r"^(\s*)(\w+)(.*;.*\b(?:Spill|Reload)\b)", re.MULTILINE)
_SPILL_MARK = "spill."  # the mnemonic prefix a marked spill instruction gets (no real mnemonic starts so)
LANE_SPILL = ("v_writelane_b32", "v_readlane_b32")


def _is_spill(m: str) -> bool:
    return m.startswith(_SPILL_MARK) or m in LANE_SPILL


def of_amdgcn(amdgcn: str, shared: int, arch: str, num_warps: int, waves_per_eu: int = 0) -> Figures:
    res = from_amdgcn(amdgcn, shared)
    occ = occ_model.occupancy(arch, num_warps, res.vgpr_total, res.sgpr, res.lds, waves_per_eu)
    marked = _SPILL_COMMENT.sub(lambda m: m.group(1) + _SPILL_MARK + m.group(2) + m.group(3), amdgcn)
    code = [m for b in loop_order._blocks(code_and_tail(marked)[0]) for m in b[3]]
    loop = main_loop(marked)
    cycles = native.mfma_cycles()
    mfma = [m for m in loop if m.startswith("v_mfma")]
    fma = [m for m in loop if m.startswith(FMA_PREFIXES)]
    unknown = {m for m in mfma if (arch, m) not in cycles}
    if unknown:
        raise ValueError(f"MFMA instructions missing from the table for {arch}: {sorted(unknown)}")
    return Figures(
        instrs="+".join(sorted(res.mfma)) or "FMA",
        vgpr=res.vgpr, agpr=res.agpr, vgpr_total=res.vgpr_total, sgpr=res.sgpr, vgpr_spills=res.vgpr_spill, sgpr_spills=res.sgpr_spill,
        spills=res.vgpr_spill + res.sgpr_spill, occupancy=occ.waves_per_simd if occ.workgroups_per_cu else 0, lds=res.lds,
        loop_mfma=len(mfma), loop_fma=len(fma),
        # FMA-family VALU instructions are the dot's work only when the loop has no MFMA (an FMA dot);
        # next to MFMAs they are the kernel's other arithmetic (e.g. softmax), the same for both compiles.
        loop_cycles=sum(cycles[arch, m] for m in mfma) if mfma else 4 * len(fma),
        loop_ds_read=sum(m.startswith(("ds_read", "ds_load")) for m in loop),
        loop_ds_write=sum(m.startswith(("ds_write", "ds_store")) for m in loop),
        loop_barriers=loop.count("s_barrier"),
        spill_mem_ops=sum(m.startswith(_SPILL_MARK) for m in code),
        lane_spill_ops=sum(m in LANE_SPILL for m in code),
        loop_spill_ops=sum(map(_is_spill, loop)))


def of_kernel(kernel) -> Figures:
    """Figures of a `triton.compile` result for a hip target."""
    from .report import kernel_arch

    md = kernel.metadata
    return of_amdgcn(kernel.asm["amdgcn"], md.shared, kernel_arch(md), md.num_warps,
                     int(getattr(md, "waves_per_eu", 0) or 0))


def worse_on(stock: Figures, ours: Figures) -> list[str]:
    """The figures on which `ours` is worse than `stock`, each as "name a -> b" (empty: not worse)."""
    failed = []
    if ours.occupancy < stock.occupancy:
        failed.append(f"occupancy {stock.occupancy} -> {ours.occupancy} waves/SIMD")
    if ours.spills > stock.spills:
        failed.append(f"spills {stock.spills} -> {ours.spills}")
    if ours.loop_cycles > stock.loop_cycles:
        failed.append(f"dot cycles {stock.loop_cycles} -> {ours.loop_cycles}")
    if ours.loop_ds > stock.loop_ds:
        failed.append(f"LDS ops {stock.loop_ds} -> {ours.loop_ds}")
    return failed


def compare(s: Figures, o: Figures) -> tuple[str, list[str]]:
    """The benches' verdict on ours (`o`) against stock (`s`): ("worse" | "better" | "same", reasons).

      worse   lower occupancy (unless VGPR spills went away: removing spills at lower occupancy is a gain),
              more LDS (unless VGPR spills went away at an occupancy no lower: the LDS bytes are then the price
              of the spills' scratch traffic, and occupancy, which counts LDS, did not drop), more VGPR spills,
              more SGPR spills unless they are the harmless kind (below), more spill instructions in the main
              loop at no fewer spills in all
      better  not worse, and strictly better on one of: occupancy, LDS, spills, registers, main-loop dot
              cycles, main-loop LDS ops
      same    neither

    Harmless SGPR spills (issue 35's rule): SGPR spills that land in VGPR lanes (v_writelane / v_readlane, no
    more scratch spill instructions), none of them in the main loop, at an unchanged VGPR count and occupancy:
    a few scalar instructions, not worse. SGPR spills to memory and any spill in the main loop are worse."""
    worse, better = [], []
    if o.occupancy < s.occupancy and not (o.vgpr_spills < s.vgpr_spills):
        worse.append(f"occupancy {s.occupancy}->{o.occupancy}")
    if o.lds > s.lds and not (o.vgpr_spills < s.vgpr_spills and o.occupancy >= s.occupancy):
        worse.append(f"LDS {s.lds}->{o.lds}")
    if o.vgpr_spills > s.vgpr_spills:
        worse.append(f"VGPR spills {s.vgpr_spills}->{o.vgpr_spills}")
    if o.sgpr_spills > s.sgpr_spills:
        in_lanes = (o.spill_mem_ops <= s.spill_mem_ops and o.loop_spill_ops <= s.loop_spill_ops
                    and o.vgpr_total == s.vgpr_total and o.occupancy == s.occupancy)
        if not in_lanes:
            worse.append(f"SGPR spills {s.sgpr_spills}->{o.sgpr_spills}")
    if o.loop_spill_ops > s.loop_spill_ops and o.spills >= s.spills:  # no fewer spills, more of them in the loop
        worse.append(f"main-loop spill ops {s.loop_spill_ops}->{o.loop_spill_ops}")
    for label, a, b in (("occupancy", -s.occupancy, -o.occupancy), ("LDS", s.lds, o.lds),
                        ("spills", s.spills, o.spills), ("registers", s.vgpr_total, o.vgpr_total), ("dot cycles", s.loop_cycles, o.loop_cycles),
                        ("LDS ops", s.loop_ds, o.loop_ds)):
        if b < a:
            better.append(f"{label} {abs(a)}->{abs(b)}")
    if worse:
        return "worse", worse
    return ("better", better) if better else ("same", [])


def pipeline_verdict(stock: Figures, ours: Figures) -> tuple[list[str], list[str]]:
    """mfma-stream-pipeline against Triton's loop pipeliner: (figures ours is worse on: either kind of spill,
    occupancy, LDS, and registers unless they come with more waves; figures it gains on: occupancy, main-loop LDS
    ops, registers)."""
    worse, gains = [], []
    for label, a, b in (("VGPR spills", stock.vgpr_spills, ours.vgpr_spills),
                        ("SGPR spills", stock.sgpr_spills, ours.sgpr_spills), ("LDS B", stock.lds, ours.lds)):
        if b > a:
            worse.append(f"{label} {a} -> {b}")
    # registers are the price of the prefetch: worse only where they buy no more waves
    if ours.vgpr_total > stock.vgpr_total and ours.occupancy <= stock.occupancy:
        worse.append(f"registers {stock.vgpr_total} -> {ours.vgpr_total}")
    if ours.occupancy < stock.occupancy:
        worse.append(f"occupancy {stock.occupancy} -> {ours.occupancy} waves/SIMD")
    if ours.occupancy > stock.occupancy:
        gains.append(f"occupancy {stock.occupancy} -> {ours.occupancy} waves/SIMD")
    if ours.loop_ds < stock.loop_ds:
        gains.append(f"main-loop LDS ops {stock.loop_ds} -> {ours.loop_ds}")
    if ours.vgpr_total < stock.vgpr_total:
        gains.append(f"registers {stock.vgpr_total} -> {ours.vgpr_total}")
    return worse, gains


def registers(f: Figures) -> dict:
    """The register figures of one compile, for metadata (what the verification's model is measured on)."""
    return {"vgpr": f.vgpr_total, "sgpr": f.sgpr, "vgpr_spills": f.vgpr_spills, "sgpr_spills": f.sgpr_spills,
            "occupancy": f.occupancy}


def summary(stock: Figures, ours: Figures) -> str:
    return (f"occupancy {stock.occupancy} -> {ours.occupancy}, spills {stock.spills} -> {ours.spills}, "
            f"main-loop dot cycles {stock.loop_cycles} -> {ours.loop_cycles}, "
            f"LDS ops {stock.loop_ds} -> {ours.loop_ds}")


# -- the model of the verification: where one compile tells that ours cannot be worse -------------------------
# How many registers fewer the other layouts could need than ours. Measured (bench/compile_time.py, its
# all-trials compiles: 27 kWidth-only comparisons on gfx90a/gfx942 where ours does not spill): Triton's needed at
# most 8 VGPRs and 12 SGPRs fewer than ours, and in most comparisons more than ours; where ours spills, the spill
# counts of the two differ either way (13 of 56 reverted, every one where ours spills). Within these margins of an
# occupancy step the model cannot tell, and a trial compile decides.
VGPR_MARGIN = 16
SGPR_MARGIN = 16

_LAYOUT_NOISE = [  # after the locations (bridge.strip_locations: op names differ with the pass that made the op)
    (re.compile(r"%[A-Za-z_][\w$.]*|%\d+"), "%v"),  # SSA names
    (re.compile(r"kWidth = \d+"), "kWidth = K"),
    (re.compile(r"vec = \d+, perPhase = \d+, maxPhase = \d+"), "swizzle"),
]


def only_kwidth_differs(ttgir_a: str, ttgir_b: str) -> bool:
    """Whether two TTGIRs (generic text) differ only in the dot operands' kWidth and the shared layouts' swizzle
    that follows from it: the same MFMA instructions, warps and loops, so the main loop issues the same MFMA
    cycles, and the wider operand reads of the larger kWidth need no more LDS instructions."""
    ttgir_a, ttgir_b = strip_locations(ttgir_a), strip_locations(ttgir_b)
    for pattern, repl in _LAYOUT_NOISE:
        ttgir_a, ttgir_b = pattern.sub(repl, ttgir_a), pattern.sub(repl, ttgir_b)
    return ttgir_a == ttgir_b


def cannot_be_worse(ours: Figures, other_lds: int, arch: str, num_warps: int, waves_per_eu: int = 0) -> str | None:
    """Why a variant with `ours` figures cannot be worse than another whose layouts differ only in kWidth (and
    whose LDS the LDS model gives as `other_lds`); None when the model cannot tell. Not worse means: no spills
    to lose, LDS no larger, and an occupancy the other could not exceed even with VGPR_MARGIN fewer VGPRs and
    SGPR_MARGIN fewer SGPRs."""
    if ours.spills:
        return None
    if ours.lds > other_lds:
        return None
    bound = occ_model.occupancy(arch, num_warps, max(0, ours.vgpr_total - VGPR_MARGIN),
                                max(0, ours.sgpr - SGPR_MARGIN), other_lds, waves_per_eu).waves_per_simd
    if ours.occupancy < bound:
        return None
    return (f"no spills, {ours.occupancy} waves/SIMD, which the other layouts could not exceed even with "
            f"{VGPR_MARGIN} fewer VGPRs and {SGPR_MARGIN} fewer SGPRs; same MFMA instructions, wider LDS reads")
