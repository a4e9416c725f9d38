"""The decision protocol (triton_mfma/decisions): the registry, the one writer of verdicts, the judges' rules, and
that no decision schedules compiles (the engine's policy does)."""
from __future__ import annotations

import ast
import os
import warnings
from dataclasses import replace

import pytest

import triton_mfma
from triton_mfma import MFMARemark, decisions
from triton_mfma.models import dot_figures
from triton_mfma.composition import remarks
from triton_mfma.compiler.compile import compile_kernel
from triton_mfma.models.cost_model import Judgement
from triton_mfma.decisions import Decision, Verdict, record
from triton_mfma.decisions.accelerate_dot import AccelerateDot
from triton_mfma.decisions.grid_order import lost
from triton_mfma.decisions.registry import REGISTRY
from triton_mfma.models.dot_figures import Figures
from triton_mfma.examples import CORPUS
from triton_mfma.composition.passes import REGISTRY as PASSES, find_option

# what only the engine's policy calls (engine.Engine / policy.Policy): a decision declares, never schedules
SCHEDULING = {"prefetch", "cancel", "release", "aside", "llir_here", "settle", "compile", "compile_each",
              "figures_each", "candidates", "running", "_compile_one", "submit"}


def _figures(**kw) -> Figures:
    base = dict(instrs="", vgpr=100, agpr=0, vgpr_total=100, sgpr=50, vgpr_spills=0, sgpr_spills=0, spills=0,
                occupancy=4, lds=16384, loop_mfma=8, loop_fma=0, loop_cycles=128, loop_ds_read=8, loop_ds_write=4,
                loop_barriers=2)
    base.update(kw)
    base["spills"] = base["vgpr_spills"] + base["sgpr_spills"]
    return Figures(**base)


def test_registry_declares_each_decision_once():
    names = [d.name for d in REGISTRY]
    keys = [d.key for d in REGISTRY]
    assert len(set(names)) == len(names) and len(set(keys)) == len(keys)
    assert all(k.startswith("triton_mfma_") for k in keys)
    for d in REGISTRY:
        assert callable(d.judge), d.name
        assert d.stage in ("ttgir", "llir", "amdgcn"), d.name
        assert d.point is None or d.point in {"accelerate_matmul", "pipeline"}, d.name
        # a pass's decision is named after the pass and has an option of that pass; the others (over Triton's own
        # options or the kernel as a whole) have an activation option
        assert d.option is None or find_option(d.option)[1] == ([d.name] if d.name in PASSES else []), d.option
    # the TTGIR decisions before the llir ones (waves_per_eu decides on the TTGIR the others chose), LLVM's
    # scheduling strategy last, on the compile handed on
    stages = [d.stage for d in REGISTRY]
    assert stages == sorted(stages, key=("ttgir", "llir", "amdgcn").index)


def test_decisions_on_compiled_kernels_share_one_protocol():
    """Every decision on a compiled kernel (stages llir and amdgcn, and cuda's on the cubin) decides through
    `Decision.decide(ctx, base, trials)`, and the stages find them through the registries and `wanted`, never by
    name: no module of compiler/ names a decision."""
    from triton_mfma.compiler import stages
    from triton_mfma.decisions.registry import CUDA_REGISTRY

    for d in list(REGISTRY) + list(CUDA_REGISTRY):
        if d.stage != "ttgir":
            assert type(d).decide is not Decision.decide, d.name
            assert d.option is None or find_option(d.option), d.name
    assert [d.stage for d in CUDA_REGISTRY] == ["cubin"]
    source = open(stages.__file__).read()
    for d in list(REGISTRY) + list(CUDA_REGISTRY):
        assert f'"{d.name}"' not in source, d.name


def test_no_decision_module_schedules():
    """Every call in decisions/*.py: none is a scheduling primitive, none reaches the engine."""
    folder = os.path.dirname(decisions.__file__)
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".py"):
            continue
        tree = ast.parse(open(os.path.join(folder, name)).read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                assert node.func.attr not in SCHEDULING, f"{name}:{node.lineno} calls {node.func.attr}"
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                mods = [a.name for a in node.names] + [getattr(node, "module", "") or ""]
                assert not any("engine" in m for m in mods), f"{name}:{node.lineno} imports the engine"


def test_record_is_the_one_writer():
    md, kr = {}, remarks.KernelRemarks("k", "none")
    record(Verdict("kept", "why", "trial", None, {"figures": 1}, remark="kept: why"), "pass-a", "triton_mfma_a", md, kr)
    assert md == {"triton_mfma_a": {"decision": "kept", "reason": "why", "evidence": "trial", "figures": 1}}
    assert kr.decisions == {"pass-a": "kept: why"}
    record(Verdict("unverified", "off", "none", None), "pass-b", "triton_mfma_b", md, kr)  # metadata only
    assert md["triton_mfma_b"]["decision"] == "unverified" and "pass-b" not in kr.decisions
    record(Verdict("chosen", "r", "model", None, remark="r", fields={"chosen": 2}), "w", "triton_mfma_w", md, kr)
    assert md["triton_mfma_w"] == {"chosen": 2}
    with pytest.warns(Warning, match="fell back"):
        record(Verdict("failed", "x", "trial", None, remark="failed: x", warning="fell back", fallback="p: x"),
               "pass-c", "triton_mfma_c", md, kr)
    assert md["triton_mfma_fallback"] == "p: x"
    record(None, "pass-d", "triton_mfma_d", md, kr)
    assert "triton_mfma_d" not in md


def test_judges_are_the_rules():
    """Every decision's judge is cost_model.judge (grid order's on the spill and occupancy classes only)."""
    without = _figures(sgpr_spills=3, lane_spill_ops=6)
    assert lost(without, _figures(sgpr_spills=3, lane_spill_ops=6)) == []
    assert lost(without, _figures(sgpr_spills=4, lane_spill_ops=8)) == []  # lanes outside the loop: issue 35's rule
    assert lost(without, _figures(sgpr_spills=4, loop_lane_ops=2)) == ["loop lanes 0 -> 2"]
    assert lost(without, _figures(sgpr_spills=3, occupancy=3)) == ["occupancy 4 -> 3 waves/SIMD"]
    assert lost(without, _figures(vgpr_spills=2, scratch=64, spill_mem_ops=4)) == ["scratch 0 -> 4"]
    assert lost(without, _figures(vgpr_total=200, loop_cycles=256)) == []  # the remap's registers are its price
    dot = AccelerateDot.judge
    assert dot(_figures(), _figures(loop_cycles=129)).figure == "dot cycles 128 -> 129"
    assert dot(_figures(), _figures(loop_cycles=129)).worse
    assert not dot(_figures(), _figures(vgpr_total=200, lds=65536)).worse  # registers, LDS bytes: no loss alone
    # more waves outrank main-loop LDS ops (issue 39's flex-attention backward: occupancy 1 -> 2, LDS ops 47 -> 75)
    assert dot(_figures(occupancy=1), _figures(occupancy=2, loop_ds_read=40)).better
    # scratch traffic in the main loop outranks occupancy (bench/spill_calibration.md), above the noise floor
    spilling = dict(vgpr_spills=2, scratch=64, spill_mem_ops=4, loop_scratch_ops=2)
    assert dot(_figures(occupancy=2), _figures(occupancy=4, **spilling)).worse
    assert dot(_figures(occupancy=2), _figures(occupancy=4, **dict(spilling, scratch=16))).worse  # in the loop
    outside = dict(spilling, scratch=16, loop_scratch_ops=0)
    assert dot(_figures(occupancy=2), _figures(occupancy=4, **outside)).better  # noise outside the main loop


def test_lane_spills_in_any_loop_rank_after_the_main_loops():
    """SGPR lane spills in a loop other than the main one are paid every iteration of theirs (issue 54: held-out
    fla-core kernels kept ours with 3-13 of them where stock had none, for a main-loop LDS op fewer): they rank after
    the main loop's spill classes and before its dot cycles and LDS ops; outside every loop they stay free."""
    dot = AccelerateDot.judge
    other = _figures(sgpr_spills=3, lane_spill_ops=6, other_loop_lane_ops=4, loop_ds_read=4)
    assert dot(_figures(), other).figure == "other loops' lanes 0 -> 4"
    assert dot(_figures(), other).worse
    assert dot(_figures(loop_lane_ops=2), other).better  # the main loop's lanes first
    assert not dot(_figures(), _figures(sgpr_spills=3, lane_spill_ops=6, loop_ds_read=4)).worse  # outside: free
    assert lost(_figures(), other) == ["other loops' lanes 0 -> 4"]  # a spill class: grid order's check reads it
    assert dot_figures.compare(_figures(), other)[0] == "worse"  # the benches' verdict against stock


def test_lane_spills_are_read_in_every_loop():
    """dot_figures reads the loops the asm printer marks: the main loop (most MFMAs) and every other one."""
    asm = """kernel:
\ts_mov_b32 s0, 0
\tv_writelane_b32 v1, s2, 0
.LBB0_1:                                ; =>This Inner Loop Header: Depth=1
\tv_readlane_b32 s3, v1, 0
\tv_writelane_b32 v1, s3, 1
\tds_read_b128 v[2:5], v6
\ts_cbranch_scc1 .LBB0_1
.LBB0_2:                                ; =>This Inner Loop Header: Depth=1
\tv_mfma_f32_32x32x8_f16 v[0:15], v[16:17], v[18:19], v[0:15]
\tv_mfma_f32_32x32x8_f16 v[0:15], v[16:17], v[18:19], v[0:15]
\tv_readlane_b32 s4, v1, 2
.LBB0_3:                                ;   in Loop: Header=BB0_2 Depth=1
\ts_cbranch_scc1 .LBB0_2
\ts_endpgm
"""
    from triton_mfma.models import loop_order

    blocks = loop_order._blocks(asm)
    assert dot_figures._main_header(blocks) == "BB0_2"
    assert dot_figures._other_loops(blocks) == ["v_readlane_b32", "v_writelane_b32", "ds_read_b128", "s_cbranch_scc1"]
    loop, whole = dot_figures.main_loop(asm, blocks)
    assert not whole and loop.count("v_mfma_f32_32x32x8_f16") == 2 and "v_readlane_b32" in loop


def test_the_lds_bound_settles_only_what_no_register_count_could_change():
    """cost_model.wins_on_occupancy: ours (4 warps, gfx942) at 4 waves/SIMD without scratch beats any variant whose
    LDS admits 2 (two 32 KiB workgroups per CU); not one whose LDS admits 4, nor where ours spills to scratch."""
    from triton_mfma.models.cost_model import wins_on_occupancy

    assert "more than the other variant's LDS (32768 B) lets run with any registers (2)" in \
        wins_on_occupancy(_figures(occupancy=4), 32768, "gfx942", 4)
    assert wins_on_occupancy(_figures(occupancy=4), 16384, "gfx942", 4) is None
    assert wins_on_occupancy(_figures(occupancy=4, scratch=64, spill_mem_ops=2), 32768, "gfx942", 4) is None
    assert wins_on_occupancy(_figures(occupancy=1), 1 << 20, "gfx942", 4)  # the other cannot launch at all


@pytest.mark.parametrize("vgpr,sgpr,scratch,w,tried", [
    (76, 34, 0, 6, False),  # gfx950, 8 warps, waves_per_eu 6: VGPR-limited 4 above the 7-wave step (seed 3974)
    (48, 104, 0, 0, True),  # SGPR-limited (6 waves): the remap's own registers are SGPRs
    (76, 34, 64, 6, True),  # a spill: read from the compile's figures
])
def test_grid_order_check_compiles_where_the_remaps_registers_can_cost(vgpr, sgpr, scratch, w, tried):
    """The remap's arithmetic is scalar: a VGPR-limited occupancy is not its cost (in the held-out trials every kernel
    without a spill had the same VGPRs with and without it), an SGPR-limited one or a spill may be."""
    from types import SimpleNamespace

    from triton_mfma.decisions.grid_order import registers_can_be_its_cost
    from triton_mfma.models.resources import Printed

    ctx = SimpleNamespace(arch="gfx950", num_warps=8, w=w)
    printed = Printed(vgpr, sgpr, scratch // 4, 0, scratch, 0, False, False)
    assert registers_can_be_its_cost(ctx, printed, lambda: _figures(vgpr=vgpr, vgpr_total=vgpr, sgpr=sgpr,
                                                                     vgpr_spills=scratch // 4, spills=scratch // 4,
                                                                     scratch=scratch, spill_mem_ops=4,
                                                                     loop_scratch_ops=2)) is tried


@pytest.mark.parametrize("judge,decision", [(lambda theirs, ours: Judgement(1, "x", "a figure"), "reverted"),
                                            (lambda theirs, ours: Judgement(0), "kept")])
def test_a_replaced_judge_decides(judge, decision, monkeypatch):
    """The judge is one replaceable function: accelerate-dot's trial (trial_all: no model) follows it."""
    monkeypatch.setattr(AccelerateDot, "judge", staticmethod(judge))
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    fn, sig, _ = CORPUS["gemm"]
    with warnings.catch_warnings(), triton_mfma.enabled(passes=["mfma-accelerate-dot"], trial_all=True):
        warnings.simplefilter("ignore", MFMARemark)
        k = compile_kernel(fn, sig, dict(BLOCK_M=64, BLOCK_N=128, BLOCK_K=64), "gfx942", dict(num_stages=3))
    dot = k.metadata.triton_mfma_accelerate_dot
    assert (dot["decision"], dot["evidence"]) == (decision, "trial"), dot
    assert ("a figure" in dot["reason"]) == (decision == "reverted")
    assert k.metadata.triton_mfma["mfma-accelerate-dot"].startswith(decision)


class _DotCycles(Decision):
    """A decision added as one class and one registry entry: it compares ours with the build with Triton's dot
    layouts (the very variant accelerate-dot compares) and records the main-loop dot cycles ours saves."""
    name = "dot-cycles"
    key = "triton_mfma_dot_cycles"
    judge = staticmethod(lambda theirs, ours: theirs.loop_cycles - ours.loop_cycles)

    def present(self, ctx, interior):
        return "accelerate_matmul" in interior

    def compared(self, ctx, ours):
        return ctx.variant(ours.choice - {"accelerate_matmul"}) if "accelerate_matmul" in ours.choice else None

    def trial(self, ctx, ours, theirs, f_theirs, f_ours):
        why = f"ours saves {self.judge(f_theirs, f_ours)} main-loop dot cycles"
        return Verdict("measured", why, "trial", ours, remark=why)


def test_a_new_decision_is_one_class_and_one_registry_entry(monkeypatch):
    """Registered after accelerate-dot, the new decision is run by the engine's policy, recorded in the metadata
    and the remarks, and its variant's compile is the one accelerate-dot's trial made (no trial more)."""
    from triton_mfma.compiler import stages
    from triton_mfma.decisions import accelerate_dot
    from triton_mfma.examples import kernels as K

    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    # only kWidth differs here, which accelerate-dot's model tells: off, so that its trial compiles Triton's layouts
    monkeypatch.setattr(accelerate_dot, "widest_lds_ops", lambda *args: None)

    def compile_defaults():
        with warnings.catch_warnings(), triton_mfma.enabled():
            warnings.simplefilter("ignore", MFMARemark)
            return compile_kernel(K.matmul, K._gemm_sig(), dict(BLOCK_M=64, BLOCK_N=64, BLOCK_K=32), "gfx90a")

    base = compile_defaults()
    assert base.metadata.triton_mfma_accelerate_dot["evidence"] == "trial", base.metadata.triton_mfma_accelerate_dot
    monkeypatch.setattr(stages, "DECISIONS", REGISTRY[:2] + (_DotCycles(),) + REGISTRY[2:])
    k = compile_defaults()
    rec = k.metadata.triton_mfma_dot_cycles
    assert (rec["decision"], rec["evidence"]) == ("measured", "trial") and "dot cycles" in rec["reason"], rec
    assert k.metadata.triton_mfma["dot-cycles"] == rec["reason"]
    assert k.metadata.triton_mfma_trials == base.metadata.triton_mfma_trials
    assert k.metadata.triton_mfma_accelerate_dot == base.metadata.triton_mfma_accelerate_dot


@pytest.mark.parametrize("seed,spills", [(150, True), (152, False)])
def test_printed_figures_agree_with_the_parsed_ones(seed, spills, tmp_path):
    """What the models read without parsing instructions (resources.Printed) is the parsed figures' own: the same
    registers and LDS, and `spill_free` only where no spill class the judge ranks is there (generated seeds on
    gfx90a, stock: 150 spills 129 VGPRs to scratch in its main loop, 152 spills nothing)."""
    from triton_mfma.models import cost_model, dot_figures, resources
    from triton_mfma.testing import kernelgen

    fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.spec(seed), str(tmp_path), "gfx90a")
    k = compile_kernel(fn, sig, cx, "gfx90a", opts, attrs)
    f, p = dot_figures.of_kernel(k), resources.printed(k.asm["amdgcn"], k.metadata.shared)
    assert (p.vgpr_total, p.sgpr, p.vgpr_spill, p.sgpr_spill, p.lds) == (f.vgpr_total, f.sgpr, f.vgpr_spills,
                                                                          f.sgpr_spills, f.lds)
    assert p.spill_free is not spills and any(cost_model.ranked_spills(f)) is spills


def test_an_unrolled_loop_is_compared_per_iteration():
    """LLVM unrolled one compile's main loop twice (generated seed 221 on gfx942: the same MFMAs per K-step, twice
    per loop body): its figures count per iteration of the other's, so fewer LDS ops per K-step rank better, not
    twice the dot cycles worse. Twice the dot work at the same loads is not an unroll (a layout computing tiles
    twice): compared as it is."""
    from fractions import Fraction

    from triton_mfma.models.cost_model import judge, unrolled

    once = _figures(loop_cycles=256, loop_ds_read=16, loop_ds_write=6, loop_work=131072, loop_load_bytes=96)
    twice = _figures(loop_cycles=512, loop_ds_read=16, loop_ds_write=12, loop_work=262144, loop_load_bytes=192)
    assert unrolled(once, twice) == 2 and unrolled(twice, once) == Fraction(1, 2)
    j = judge(once, twice)
    assert j.better and j.figure.startswith("LDS ops 22 -> 14 per iteration"), j
    assert judge(twice, once).worse
    redundant = _figures(loop_cycles=512, loop_ds_read=16, loop_ds_write=12, loop_work=262144, loop_load_bytes=96)
    assert unrolled(once, redundant) == 1 and judge(once, redundant).figure == "dot cycles 256 -> 512"
    assert unrolled(once, _figures(loop_cycles=512)) == 1  # work unknown: as it is
    # generated seed 357 on gfx942 (int8 64x32x32, K=256): our loop unrolled whole, 4x the dot work of stock's
    # iteration and 5.3x its loads (our layout loads some tiles twice): per stock's iteration, the same dot cycles
    # and fewer LDS ops
    stock = _figures(loop_cycles=128, loop_ds_read=8, loop_ds_write=6, loop_work=65536, loop_load_bytes=48)
    ours = _figures(loop_cycles=512, loop_ds_read=16, loop_ds_write=15, loop_work=262144, loop_load_bytes=256)
    assert unrolled(stock, ours) == 4 and unrolled(ours, stock) == Fraction(1, 4)
    assert judge(stock, ours).better and judge(stock, ours).figure.startswith("LDS ops 14 -> 7.8 per iteration")
    # generated seed 892 on gfx950 (fp8 32x32x32, 2 warps): Triton's layout computes the tile on both warps, ours
    # splits it and LLVM unrolls ours twice as far: the same dot work per loop body, twice the loads (K-steps)
    theirs = _figures(loop_cycles=128, loop_ds_read=4, loop_ds_write=2, loop_work=65536, loop_load_bytes=8)
    split = _figures(loop_cycles=128, loop_ds_read=6, loop_ds_write=2, loop_work=65536, loop_load_bytes=16)
    assert unrolled(theirs, split) == 2 and unrolled(split, theirs) == Fraction(1, 2)
    assert judge(theirs, split).figure == "dot cycles 128 -> 64 per iteration of the first (the loops unroll " \
                                          "differently)"
    # generated seed 945 on gfx950 (int8 32x32x128, 8 warps, K=1024): stock's 8 warps each compute the whole tile
    # (4 MFMAs per K-step), ours split it (2) and LLVM unrolls our loop whole: 8 K-steps (8x the loads) at twice
    # the work; per K-step fewer dot cycles and LDS ops, not "LDS ops 13 -> 28" per two of them
    stock = _figures(loop_cycles=128, loop_ds_read=12, loop_ds_write=1, loop_work=131072, loop_load_bytes=16)
    whole = _figures(loop_cycles=256, loop_ds_read=48, loop_ds_write=8, loop_work=262144, loop_load_bytes=128)
    assert unrolled(stock, whole) == 8 and judge(stock, whole).better
    assert judge(stock, whole).figure.startswith("dot cycles 128 -> 32 per iteration")
    # twice the loads at more than twice the work: a layout computing tiles over, not an unroll
    assert unrolled(theirs, _figures(loop_cycles=512, loop_work=262144, loop_load_bytes=16)) == 1
    # generated seed 1287 on gfx942 (bf16 32x128x32, 8 warps, K=256, a chained dot): stock's 8 warps each compute
    # the whole tile; our loop is unrolled whole with the loads around it (192 B: 8 K-steps of 20 B and 32 B more),
    # which no whole multiple tells: no main-loop key is compared, the rest decides (no longer "worse dot cycles
    # 512 -> 640", the whole kernel against one iteration)
    stock = _figures(loop_cycles=512, loop_ds_read=68, loop_ds_write=2, loop_work=131072, loop_load_bytes=20,
                     occupancy=1, vgpr_total=126)
    whole = _figures(loop_cycles=640, loop_ds_read=119, loop_ds_write=24, loop_work=163840, loop_load_bytes=192,
                     occupancy=1, vgpr_total=58, loop_whole=True)
    assert unrolled(stock, whole) == 1 and judge(stock, whole).order == 0 == judge(whole, stock).order
    from triton_mfma.models.dot_figures import compare

    assert compare(stock, whole) == ("better", ["registers 126->58"])
    # where a whole multiple tells, it is used whatever unrolled (seed 945 above, our loop unrolled whole)
    assert judge(stock := _figures(loop_cycles=128, loop_ds_read=12, loop_ds_write=1, loop_work=131072,
                                   loop_load_bytes=16),
                 _figures(loop_cycles=256, loop_ds_read=48, loop_ds_write=8, loop_work=262144, loop_load_bytes=128,
                          loop_whole=True)).better


def test_two_whole_kernels_are_compared_as_they_are():
    """No loop holds the dots in either compile (held-out seed 4612, K one tile: no scf.for): both figures count the
    whole kernel. Triton's 4 warps repeat each other's blocks (4x our dot work) at 5x our loads, which the work and
    load ratios read as our kernel holding a fifth of an iteration: 32 dot cycles as 160 against 128."""
    from triton_mfma.models.cost_model import judge, unrolled

    stock = _figures(loop_cycles=128, loop_ds_read=18, loop_ds_write=2, loop_work=32768, loop_load_bytes=140,
                     loop_whole=True)
    ours = _figures(loop_cycles=32, loop_ds_read=6, loop_ds_write=3, loop_work=8192, loop_load_bytes=28,
                    loop_whole=True)
    assert unrolled(stock, ours) == 1 == unrolled(ours, stock)
    assert judge(stock, ours).better and judge(stock, ours).figure == "dot cycles 128 -> 32"


def test_k_steps_from_the_ttgirs_decide_the_unroll():
    """Where both figures know the K-steps their compiled loop holds (the TTGIR's dot cycles per iteration against
    the compiled loop's), their ratio is the unroll, whatever the work and loads say. Held-out seed 4265 on gfx942
    (fp32 64x64x64, K=256, 8 warps): Triton's warps repeat each other's blocks (512 cycles per K-step), ours split
    them (256) and LLVM unrolled ours whole over 4 K-steps (3 in the loop, one peeled by Triton's pipeliner); the
    work ratio read 2, and the LDS ops "per iteration" 22 -> 38 where per K-step they are 22 -> 19."""
    from triton_mfma.models.cost_model import judge, unrolled

    stock = _figures(loop_cycles=512, loop_ds_read=16, loop_ds_write=6, loop_work=65536, loop_load_bytes=64,
                     loop_steps=1)
    ours = _figures(loop_cycles=1024, loop_ds_read=50, loop_ds_write=26, loop_work=131072, loop_load_bytes=272,
                    loop_whole=True, loop_steps=4)
    assert unrolled(stock, ours) == 4
    assert judge(stock, ours).better and judge(stock, ours).figure.startswith("dot cycles 512 -> 256 per iteration")
    from dataclasses import replace

    assert unrolled(stock, replace(ours, loop_steps=0)) == 2  # without the steps: the work ratio, as before


def _stock_and_ours(seed: int, arch: str, tmp_path, monkeypatch):
    """dot_figures.Figures of generated `seed` on `arch`, compiled by stock Triton and by the defaults."""
    from triton_mfma.testing import kernelgen
    from triton_mfma.compiler.compile import always_compile

    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.spec(seed), str(tmp_path), arch)
    with warnings.catch_warnings(), always_compile():
        warnings.simplefilter("ignore")
        with triton_mfma.disabled():
            stock = dot_figures.of_kernel(compile_kernel(fn, sig, cx, arch, opts, attrs))
        with triton_mfma.enabled():
            ours = dot_figures.of_kernel(compile_kernel(fn, sig, cx, arch, opts, attrs))
    return stock, ours


def test_a_loop_unrolled_whole_is_judged_per_k_step(tmp_path, monkeypatch):
    """Held-out seed 4265 on gfx942, compiled: the K-steps come from each kernel's TTGIR (stock 1, ours 4), and the
    verdict against stock is the decision's, not "worse on LDS ops"."""
    stock, ours = _stock_and_ours(4265, "gfx942", tmp_path, monkeypatch)
    assert (stock.loop_steps, ours.loop_steps) == (1, 4)
    verdict, why = dot_figures.compare(stock, ours)
    assert verdict == "better" and why[0].startswith("dot cycles 512 -> 256 per iteration"), why


def test_k_steps_are_read_where_the_dots_tell_them():
    """dot_figures.with_loop_steps: the compiled loop's dot cycles over the TTGIR loop's per iteration; a peeled
    iteration outside the loop counts where the loop was unrolled whole; a different dot outside it (a chain) leaves
    the steps unread; so does a loop that did not unroll whole, whatever is outside."""
    from test_dot_work import _two_dots

    from triton_mfma.models.dot_figures import with_loop_steps

    mfma = ("mfma", (8, 1), (16, 16, 16))  # 16x16x16 over 8 warps: one instruction a wave, 32 cycles
    peeled = _two_dots(mfma, mfma)
    chain = _two_dots(mfma, ("mfma", (8, 1), (32, 32, 8)))  # another instruction: not the loop's dot again
    assert with_loop_steps(_figures(loop_cycles=64), peeled, "gfx90a").loop_steps == 2
    assert with_loop_steps(_figures(loop_cycles=128, loop_whole=True), peeled, "gfx90a").loop_steps == 4
    assert with_loop_steps(_figures(loop_cycles=96), peeled, "gfx90a").loop_steps == 3
    assert with_loop_steps(_figures(loop_cycles=100), peeled, "gfx90a").loop_steps == 0  # not a whole number
    assert with_loop_steps(_figures(loop_cycles=64), chain, "gfx90a").loop_steps == 2
    assert with_loop_steps(_figures(loop_cycles=96, loop_whole=True), chain, "gfx90a").loop_steps == 0


def test_k_steps_beside_an_fma_loop_come_from_the_loads():
    """One loop's dots on MFMA (its K-steps known), the other's on FMA (at most its compiled cycles over the dots'
    fewest per K-step): the loads ratio is the unroll where it puts the FMA loop's steps within that bound. Generated
    seed 7278 on gfx942 (fp8 16x16x16, 8 warps): ours holds 4 K-steps of one 32x32x16 MFMA, Triton's FMA loop 2 (at
    most 2: 128 cycles against 64 a K-step at the fewest instructions); the work ratio (32x: another unit, and a
    padded, repeated tile) tells nothing. Per Triton's iteration: 64 dot cycles against 128, LDS ops 8 against 8."""
    from fractions import Fraction

    from triton_mfma.models.cost_model import judge, unrolled
    from triton_mfma.models.dot_figures import compare

    stock = _figures(loop_cycles=128, loop_ds_read=4, loop_ds_write=4, loop_work=2048, loop_load_bytes=4,
                     loop_steps_at_most=2)
    ours = _figures(loop_cycles=128, loop_ds_read=8, loop_ds_write=8, loop_work=65536, loop_load_bytes=8,
                    loop_steps=4)
    assert unrolled(stock, ours) == 2 and unrolled(ours, stock) == Fraction(1, 2)
    assert compare(stock, ours)[0] == "better" and judge(ours, stock).worse
    assert unrolled(replace(stock, loop_load_bytes=2), ours) == 4  # one K-step in Triton's loop: within the bound
    # loads that put the FMA loop past its bound (2 steps where 1 at most fits), or at a fraction of a step: not
    # read, as before (the work and loads rule, which cannot tell here)
    assert unrolled(replace(stock, loop_steps_at_most=1), ours) == 1
    assert unrolled(replace(stock, loop_load_bytes=3), ours) == 1
    assert unrolled(replace(stock, loop_steps_at_most=0), ours) == 1


def test_a_rolled_loop_beside_one_unrolled_whole_counts_what_lies_around_it():
    """One loop unrolled whole (its figure the whole kernel's, over its K-steps), the other rolled (the loop alone):
    the rolled one's LDS ops outside its loop are spread over the same K-steps. Generated seed 7378 on gfx942 (int8
    128x32x64, K=256): ours unrolled whole, 52 LDS ops for 4 K-steps; Triton's loop 11 a K-step and 24 around it,
    68 for the 4: better, not "LDS ops 11 -> 13 per iteration". Without the whole kernel's LDS ops (-1: not read),
    as before."""
    from triton_mfma.models.cost_model import judge
    from triton_mfma.models.dot_figures import compare

    stock = _figures(loop_cycles=128, loop_ds_read=8, loop_ds_write=3, loop_work=65536, loop_load_bytes=40,
                     loop_steps=1, ds_read_all=16, ds_write_all=19)
    ours = _figures(loop_cycles=512, loop_ds_read=24, loop_ds_write=28, loop_work=262144, loop_load_bytes=160,
                    loop_whole=True, loop_steps=4, ds_read_all=24, ds_write_all=28)
    assert compare(stock, ours) == ("better", ["LDS ops 17 -> 13 per iteration of the first (the loops unroll "
                                               "differently)"])
    assert judge(ours, stock).worse and judge(ours, stock).figure.startswith("LDS ops 52 -> 68")
    unread = replace(stock, ds_read_all=-1, ds_write_all=-1)
    assert compare(unread, ours)[0] == "worse"  # the loop alone, as before


def test_an_fma_loop_holds_at_most_its_cycles_over_its_dots_fewest():
    from test_dot_work import _two_dots

    from triton_mfma.models.dot_figures import with_loop_steps

    fma = ("fma", (8, 1), None)  # 16x16 f32 over 8 x 64 lanes: one element, 16 FMAs a K-step at least: 64 cycles
    two = with_loop_steps(_figures(loop_cycles=128), _two_dots(fma, fma), "gfx942")
    assert (two.loop_steps, two.loop_steps_at_most) == (0, 2)
    assert with_loop_steps(_figures(loop_cycles=128, loop_whole=True), _two_dots(fma, fma),
                           "gfx942").loop_steps_at_most == 0  # the whole kernel's figure: the dot after counts


def test_seed_7278_is_judged_per_k_step(tmp_path, monkeypatch):
    """Compiled (generated seed 7278 on gfx942): the verdict against stock reads the K-steps of both loops."""
    stock, ours = _stock_and_ours(7278, "gfx942", tmp_path, monkeypatch)
    assert (stock.instrs, stock.loop_steps_at_most, ours.loop_steps) == ("FMA", 2, 4)
    assert dot_figures.compare(stock, ours)[0] == "better"


def test_no_loop_to_pipeline_reads_the_passes_own_preconditions_on_the_ttir():
    from triton_mfma.decisions.stream_pipeline import no_loop_to_pipeline

    loop = '%0 = "scf.for"(%a, %b, %c) ({...}) : (i32, i32, i32) -> tensor<32x32xf32>'
    asked = '%0 = "scf.for"(%a, %b, %c) ({...}) {tt.num_stages = 3 : i32} : (i32, i32, i32) -> i32'
    assert "no scf.for" in no_loop_to_pipeline('"tt.dot"(%a, %b, %c)', 3)
    assert "num_stages <= 1" in no_loop_to_pipeline(loop, 1)
    assert no_loop_to_pipeline(loop, 2) is None
    assert no_loop_to_pipeline(asked, 1) is None  # a loop's own tt.num_stages wins over the kernel's, as in Triton
    assert no_loop_to_pipeline("", 1) is None  # nothing read: the pass decides


@pytest.mark.parametrize("seed,arch,why", [(2871, "gfx950", "num_stages <= 1"), (2896, "gfx90a", "no scf.for")])
def test_stream_pipeliner_with_no_loop_to_pipeline_is_not_built(seed, arch, why, tmp_path, monkeypatch):
    """Where the TTIR shows the pass would decline every loop, ours is not built with it (its variant, Triton's
    pipeliner, would be the same TTGIR built twice): the first decision that compares is accelerate-dot's, and no
    build of the compile has the pipeline point."""
    from triton_mfma.trials import engine
    from triton_mfma.testing import kernelgen

    built = []
    real = engine.Engine.variant

    def spy(self, choice, *a, **kw):
        built.append(frozenset(choice))
        return real(self, choice, *a, **kw)

    monkeypatch.setattr(engine.Engine, "variant", spy)
    fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.spec(seed), str(tmp_path), arch)
    with warnings.catch_warnings(), triton_mfma.enabled():
        warnings.simplefilter("ignore", MFMARemark)
        k = compile_kernel(fn, sig, cx, arch, opts, attrs)
    pipe = k.metadata.triton_mfma_stream_pipeline
    assert pipe["decision"] == "declined" and why in pipe["reason"] and "ours not built" in pipe["reason"], pipe
    assert built and not any("pipeline" in c for c in built), built


def test_combination_counts_no_declined_point_as_a_choice(tmp_path, monkeypatch):
    """Generated seed 3018 on gfx950: the stream pipeliner declined (no operand it can pipeline: Triton's pipeliner
    ran), accelerate-dot kept ours against Triton's layouts (by the dot-cycles model: ours on FMA, 200 cycles
    compiled, against 384 an iteration of Triton's MFMA layouts; a trial before that model). One interior choice
    changed the kernel, and its comparison was with Triton's kernel: the combination compares nothing (it built a
    third TTGIR, the same as Triton's layouts, and judged the same two compiles again)."""
    from triton_mfma.testing import kernelgen
    from triton_mfma.decisions.combination import choices_made
    from triton_mfma.trials.variants import Build

    fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.spec(3018), str(tmp_path), "gfx950")
    with warnings.catch_warnings(), triton_mfma.enabled():
        warnings.simplefilter("ignore", MFMARemark)
        k = compile_kernel(fn, sig, cx, "gfx950", opts, attrs)
    md = k.metadata
    # declined by the pass (no operand it can pipeline), or before ours is built: Triton's pipeliner, compiled first,
    # runs the most waves any LDS lets run with no spill (StreamPipeline.before_ours); either way no choice of ours
    pipe = md.triton_mfma_stream_pipeline
    assert pipe["decision"] == "declined" and pipe["evidence"] in ("pass", "model"), pipe
    dot = md.triton_mfma_accelerate_dot
    assert (dot["decision"], dot["evidence"]) == ("kept", "model") and "ours on FMA" in dot["reason"], dot
    assert not hasattr(md, "triton_mfma_combination") or md.triton_mfma_combination is None
    assert md.triton_mfma_trials == 1
    both = Build(frozenset({"pipeline", "accelerate_matmul"}), None, "", {}, declined={"pipeline"})
    assert choices_made(both) == {"accelerate_matmul"}


def test_combination_compares_with_no_interior_point_at_all(tmp_path, monkeypatch):
    """Held-out seed 4498 on gfx942 (int8 64x128x64, 1 warp, waves_per_eu=2): ours' pipeliner was kept at 2 stages,
    then a stage less was taken, where ours' pipeliner declines (one stage: nothing to pipeline). The combination
    check left that declined point in its reference, which at 2 stages then ran ours' pipeliner under Triton's layouts:
    ours ranked better than that and was kept, 6 main-loop scratch ops where stock's kernel has none. The reference
    is now Triton's kernel (every interior point left out): the combination reverts to it, and the kernel handed on
    is not worse than stock's."""
    from triton_mfma.models import cost_model, dot_figures
    from triton_mfma.testing import kernelgen

    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.spec(4498), str(tmp_path), "gfx942")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with triton_mfma.enabled(cpu_bound=False):  # a mechanism: no CPU caps (decisions.STAKES_CPU)
            ours = compile_kernel(fn, sig, cx, "gfx942", opts, attrs)
        stock = compile_kernel(fn, sig, cx, "gfx942", opts, attrs)
    md = ours.metadata
    assert not hasattr(stock.metadata, "triton_mfma_trials")
    assert md.triton_mfma_num_stages["decision"] == "reduced", md.triton_mfma_num_stages
    assert md.triton_mfma_combination["decision"] == "reverted", md.triton_mfma_combination
    # the verdicts it took back say so: the kernel handed on has neither our layouts nor a stage less
    for key in ("triton_mfma_accelerate_dot", "triton_mfma_num_stages"):
        assert getattr(md, key).get("superseded") == "combination: reverted", getattr(md, key)
    assert "superseded" not in md.triton_mfma_waves_relax
    j = cost_model.judge(dot_figures.of_kernel(stock), dot_figures.of_kernel(ours), cost_model.MAIN_KEYS)
    assert not j.worse, j


@pytest.mark.parametrize("authors,said", [({}, "the same layouts"), ({"matrix_instr_nonkdim": 16}, "the author chose the MFMA shape")])
def test_layouts_ranked_by_registers_where_the_main_loop_spills(authors, said, tmp_path, monkeypatch):
    """Generated seed 4594 on gfx950 (fp8 128x128x32, 1 warp): its main loop spills to scratch with the layouts
    chosen, so the layouts the cost model ranks by registers first are built; the model chooses the same ones (the
    TTGIRs are identical: nothing compiled). Where the author set matrix_instr_nonkdim, the variant is not built: theirs."""
    from triton_mfma.testing import kernelgen

    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.spec(4594), str(tmp_path), "gfx950")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with triton_mfma.enabled(cpu_bound=False):
            k = compile_kernel(fn, sig, cx, "gfx950", {**opts, **authors}, attrs)
    v = k.metadata.triton_mfma_dot_registers
    assert v["decision"] == "kept" and said in v["reason"], v
    assert v["evidence"] == ("identical" if not authors else "model"), v
