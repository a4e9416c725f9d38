"""A fixed sample of generated kernels (triton_mfma.testing.kernelgen) through the differential runner
(bench/differential.py) on gfx90a, gfx942 and gfx950: stock vs the defaults in strict mode, one child process per
compile with a time limit. Required: no failure, no hang, not worse (dot_figures.compare); kernels stock Triton rejects
are dropped. The large runs are bench/results/differential_seeds150-485.txt and differential_seeds486-649.txt."""
import json
import importlib.util
import sys
from pathlib import Path

import pytest

from triton_mfma.testing import kernelgen

ROOT = Path(__file__).resolve().parents[2]
ARCHS = ("gfx90a", "gfx942", "gfx950")
# chosen for what they cover and for compiling in a few seconds: see each seed's kernelgen.spec(seed).describe()
SAMPLE = (1, 2, 4, 13, 15, 16, 17)


def _runner():
    if "differential" not in sys.modules:
        sys.path.insert(0, str(ROOT / "bench"))
        spec = importlib.util.spec_from_file_location("differential", ROOT / "bench" / "differential.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["differential"] = module
        spec.loader.exec_module(module)
    return sys.modules["differential"]


def test_generator_is_reproducible():
    a = [kernelgen.source(kernelgen.spec(s)) for s in (0, 17, 4242)]
    assert a == [kernelgen.source(kernelgen.spec(s)) for s in (0, 17, 4242)]
    assert kernelgen.spec(17).options == kernelgen.spec(17).options
    assert len({kernelgen.source(kernelgen.spec(s)) for s in range(50)}) == 50
    kinds = {kernelgen.spec(s).dtype for s in range(300)}
    assert {"fp32", "fp16", "bf16", "int8", "dot_scaled", "fp8e4nv", "fp8e5", "fp8e4b8", "fp8e5b16"} <= kinds


@pytest.mark.parametrize("arch", ARCHS)
def test_generated_sample_not_worse(arch, tmp_path):
    runner = _runner()
    rows = [runner.judge(seed, arch, str(tmp_path), timeout=240) for seed in SAMPLE]
    report = "\n".join(runner.line(r) for r in rows)
    print(report)
    counted = [r for r in rows if r["verdict"] != "dropped"]
    assert len(counted) >= len(SAMPLE) - 2, report
    bad = [r for r in counted if r["verdict"] in ("worse", "failure", "hang")]
    assert not bad, "\n".join(runner.line(r) for r in bad)


def test_lane_reads_are_spills_only_where_sgprs_spill(tmp_path):
    """Held-out seed 4050 on gfx942 (a row reduction, 8 warps, waves_per_eu=5): its main loop reads lanes
    (v_readlane_b32, the wave's reduction) with no SGPR spilled; those are no spills. The relaxation to the 4 waves
    whole workgroups let run compiles nothing more (before, the lane reads read as main-loop lane spills and the
    request was compiled too)."""
    import warnings

    import triton_mfma
    from triton_mfma.models import dot_figures
    from triton_mfma.compiler.compile import always_compile, compile_kernel

    fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.spec(4050), str(tmp_path), "gfx942")
    with warnings.catch_warnings(), always_compile(), triton_mfma.enabled(strict=True):
        warnings.simplefilter("ignore")
        k = compile_kernel(fn, sig, cx, "gfx942", opts, attrs)
    f = dot_figures.of_kernel(k)
    assert "v_readlane_b32" in k.asm["amdgcn"] and f.sgpr_spills == 0  # the premise
    assert (f.loop_lane_ops, f.lane_spill_ops, f.loop_spill_ops) == (0, 0, 0)
    relax = k.metadata.triton_mfma_waves_relax
    assert (relax["decision"], relax["evidence"]) == ("relaxed", "model"), relax
    assert getattr(k.metadata, "triton_mfma_trials", 1) == 1  # one make_amdgcn: the kernel handed on


def test_compare_is_the_one_judge():
    """dot_figures.compare ranks by cost_model: SGPR spills into VGPR lanes outside the main loop are not worse (issue
    35's rule), nor registers or LDS bytes that cost no occupancy; scratch spills are, in the main loop even at more
    waves (bench/spill_calibration.md), except below the noise floor; lanes in the main loop are."""
    from dataclasses import replace

    from triton_mfma.models.dot_figures import Figures, compare

    base = Figures(instrs="v_mfma_f32_32x32x8_f16", vgpr=128, agpr=0, vgpr_total=128, sgpr=100, vgpr_spills=0,
                   sgpr_spills=0, spills=0, occupancy=4, lds=32768, loop_mfma=16, loop_fma=0, loop_cycles=512,
                   loop_ds_read=8, loop_ds_write=4, loop_barriers=2)
    lanes = replace(base, sgpr_spills=3, spills=3, lane_spill_ops=6)
    assert compare(base, lanes)[0] == "same"
    assert compare(base, replace(lanes, vgpr_total=136, lds=65536))[0] == "same"  # no occupancy lost
    assert compare(base, replace(lanes, loop_spill_ops=2, loop_lane_ops=2)) == ("worse", ["loop lanes 0 -> 2"])
    scratch = replace(base, vgpr_spills=4, spills=4, scratch=32, spill_mem_ops=4)
    assert compare(base, scratch) == ("worse", ["scratch 0 -> 4"])
    assert compare(base, replace(scratch, scratch=16))[0] == "same"  # below the noise floor
    in_loop = replace(scratch, loop_scratch_ops=2, occupancy=8)
    assert compare(base, in_loop)[0] == "worse"  # more waves do not pay for scratch every iteration
    assert compare(in_loop, base)[0] == "better"
    assert compare(base, replace(base, occupancy=3)) == ("worse", ["occupancy 4 -> 3 waves/SIMD"])
    assert compare(base, replace(base, loop_cycles=256, lds=65536)) == ("better", ["dot cycles 512 -> 256"])
    assert compare(base, replace(base, vgpr_total=120)) == ("better", ["registers 128->120"])


def test_grid_remap_is_checked_where_ours_spills_and_dropped_where_it_costs(tmp_path, monkeypatch):
    """Generated seed 7 on gfx90a (chained fp16 dots, 256x16x64, waves_per_eu=6 kept as asked: 11 VGPR spills under
    stock). Ours spills, so the compiled check compiles the kernel without the remap and asks the judge: with the
    remap laid out of line (its branch marked expected false) it costs no spill (11 -> 11; before that, 11 -> 13,
    and it was dropped), so it stays; where the judge says it costs, the kernel without it is handed on."""
    import warnings

    import triton_mfma
    from triton_mfma.compiler.compile import compile_kernel
    from triton_mfma.decisions.grid_order import GridOrderCheck

    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.spec(7), str(tmp_path), "gfx90a")

    def compile_ours():
        with warnings.catch_warnings(), triton_mfma.enabled(relax_waves_per_eu=False, strict=True, cpu_bound=False):
            warnings.simplefilter("ignore")
            return compile_kernel(fn, sig, cx, "gfx90a", opts, attrs)

    calls = []
    judge = GridOrderCheck.judge
    monkeypatch.setattr(GridOrderCheck, "judge", staticmethod(lambda a, b: calls.append(1) or judge(a, b)))
    kept = compile_ours()
    assert calls and "applied" in kept.metadata.triton_mfma["mfma-grid-order"]
    assert "tmfma.grid_order" in kept.asm["ttgir"]
    d = kept.metadata.triton_mfma_grid_order  # the compile the check paid for, recorded
    assert (d["decision"], d["evidence"]) == ("kept", "trial") and "costs nothing" in d["reason"], d
    assert d["without"]["vgpr_spills"] == d["ours"]["vgpr_spills"], d
    monkeypatch.setattr(GridOrderCheck, "judge", staticmethod(lambda a, b: ["VGPR spills 11 -> 13"]))
    dropped = compile_ours()
    d = dropped.metadata.triton_mfma_grid_order
    assert (d["decision"], d["evidence"]) == ("dropped", "trial") and "VGPR spills 11 -> 13" in d["reason"], d
    assert "tmfma.grid_order" not in dropped.asm["ttgir"]


def test_remap_that_decided_a_comparison_is_judged_against_the_kernel_without_it(tmp_path, monkeypatch):
    """Generated seed 1352 on gfx950 (fp16 256x256x16, 4 warps, 4 stages): with grid order's remap on both sides,
    Triton's pipeliner has 286 main-loop AGPR copies and ours 280, so the stream pipeliner kept ours; without the
    remap Triton's has 148. The combination check then compares with the kernel without the interior choices and
    without the remap, reverts to it, and the remap is dropped with them: the same figures as stock. The CPU caps
    are off: the kernel spills, and its cap (decisions.STAKES_CPU) would end the trials on CPU times."""
    monkeypatch.setenv("TMFMA_DIFF_OPTIONS", json.dumps({"cpu_bound": False}))
    runner = _runner()
    row = runner.judge(1352, "gfx950", str(tmp_path), timeout=240)
    assert row["verdict"] in ("same", "better"), runner.line(row)
    reasons = row["ours"]["reasons"]
    combination, grid = reasons["triton_mfma_combination"], reasons["triton_mfma_grid_order"]
    assert combination["decision"] == "reverted" and "without grid order's remap" in combination["reason"], combination
    assert (grid["decision"], grid["evidence"]) == ("dropped", "combination"), grid


def test_a_stage_less_taken_under_the_remap_is_checked_without_it(tmp_path, monkeypatch):
    """Held-out seed 2399 on gfx950 (fp8e4b8 128x128x64, 4 warps, 3 stages, waves_per_eu=3): with grid order's remap
    in place 3 stages spill 10 main-loop scratch ops and 2 stages 8, so num_stages took a stage less; without the
    remap 3 stages spill none (stock). The stage less is a choice the remap's registers may have decided, so the
    combination check compares with the kernel without the interior choices and without the remap: not worse.
    The CPU bound on every kernel is off here: under it the kernel's fifth compile is the one comparison with
    Triton's kernel instead (test_engine), and this test is about the combination check's reference."""
    monkeypatch.setenv("TMFMA_DIFF_OPTIONS", json.dumps({"cpu_bound": False}))
    runner = _runner()
    row = runner.judge(2399, "gfx950", str(tmp_path), timeout=240)
    assert row["verdict"] in ("same", "better"), runner.line(row)
    combination = row["ours"]["reasons"]["triton_mfma_combination"]
    assert "without grid order's remap" in combination["reason"], combination


def test_choices_compared_at_other_waves_are_checked_at_the_waves_handed_on(tmp_path, monkeypatch):
    """Held-out seed 2437 on gfx942 (dot_scaled e2m1 64x64x128, 4 warps, 4 stages, waves_per_eu=5): the TTGIR
    decisions compare at the 4 waves the LDS admits, where a stage less cuts main-loop scratch 12 -> 10; the
    relaxation keeps the 5 asked, where that stage less spills 2 ops and stock's 4 stages 1. Checked at the waves
    handed on, Triton's kernel is handed on: stock's figures. The CPU caps off, as above."""
    monkeypatch.setenv("TMFMA_DIFF_OPTIONS", json.dumps({"cpu_bound": False}))
    runner = _runner()
    row = runner.judge(2437, "gfx942", str(tmp_path), timeout=240)
    assert row["verdict"] in ("same", "better"), runner.line(row)
    check = row["ours"]["reasons"]["triton_mfma_combination_waves"]
    assert (check["decision"], check["evidence"]) == ("reverted", "trial") and "waves_per_eu=5" in check["reason"], \
        check


@pytest.mark.parametrize("seed,arch,why", [(1446, "gfx90a", "16 B per lane"),
                                            (3440, "gfx942", "shared layouts are the same"),
                                            (3374, "gfx942", "contiguous runs")])
def test_lds_ops_models_keep_our_layouts_without_compiling_tritons(seed, arch, why, tmp_path):
    """Only kWidth differs from Triton's layouts, ours has no spill at the waves Triton's LDS lets run and the same
    main-loop dot cycles, and one of accelerate-dot's LDS-ops models tells that Triton's layouts cannot need fewer
    LDS ops: ours is kept by model and the kernel compiles once.
      - 1446 gfx90a, the widest ops: each of ours' 18 main-loop LDS ops moves 16 B per lane (ds_read_b128,
        ds_write_b128; Triton's layouts: ds_read2st64_b64, the same bytes);
      - held-out 3440 gfx942, the same shared layouts, every dot operand read from them: the same LDS writes, the
        reads the same bytes in runs no shorter (its trial on 232a21e: 32 reads and 2 writes each side, kept;
        seed 3410, a chained dot converting to a dot operand, is still compared by trial);
      - 3374 gfx942, the layouts' bound (lds_chunks; swizzle vec 4 -> 8): each LDS op of ours moves at least what
        its counterpart of Triton's can (8-byte runs where Triton's move 4, 16 B where they move 8; its trial on
        232a21e: reads 21 -> 19, writes 7 -> 5)."""
    runner = _runner()
    row = runner.judge(seed, arch, str(tmp_path), timeout=240)
    assert row["verdict"] in ("same", "better"), runner.line(row)
    reasons = row["ours"]["reasons"]
    dot = reasons["triton_mfma_accelerate_dot"]
    assert (dot["decision"], dot["evidence"]) == ("kept", "model") and why in dot["reason"], dot
    assert reasons["triton_mfma_trials"] == 1
    stock, ours = row["stock"]["figures"], row["ours"]["figures"]
    assert ours["loop_ds_read"] + ours["loop_ds_write"] <= stock["loop_ds_read"] + stock["loop_ds_write"]


_STORE = ('"ttg.local_store"(%a, %b) : (tensor<64x32xf16, #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = '
          '[16, 4], warpsPerCTA = [1, 4], order = [0, 1]}>>, !ttg.memdesc<64x32xf16, #ttg.swizzled_shared<{vec = 4, '
          'perPhase = 1, maxPhase = 16, order = [0, 1]}>, #ttg.shared_memory, mutable>) -> () loc(#loc3)')
_LOAD = ('%c = "ttg.local_load"(%b) : (!ttg.memdesc<64x32xf16, #ttg.swizzled_shared<{vec = 4, perPhase = 1, '
         'maxPhase = 16, order = [0, 1]}>, #ttg.shared_memory, mutable>) -> tensor<64x32xf16, #ttg.dot_op<{opIdx = '
         '1, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 16, 16], isTransposed = '
         'true}>, kWidth = 4}>> loc(#loc4)')


def test_lds_chunks_read_runs_from_layouts():
    from triton_mfma.models.lds_chunks import op_chunk

    assert op_chunk(_STORE) == ("write", 8)  # 4 f16 registers along the shared layout's fastest dimension
    assert op_chunk(_STORE.replace("vec = 4", "vec = 2")) == ("write", 4)  # cut at the swizzle's vec
    assert op_chunk(_STORE.replace("sizePerThread = [4, 1]", "sizePerThread = [8, 1]").replace(
        "vec = 4, perPhase = 1, maxPhase = 16", "vec = 4, perPhase = 1, maxPhase = 1")) == ("write", 16)  # no swizzle
    assert op_chunk(_STORE.replace("order = [0, 1]}>>", "order = [1, 0]}>>")) == ("write", 2)  # registers across it
    linear = _STORE.replace("#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 4], warpsPerCTA = [1, 4], "
                            "order = [0, 1]}>", "#ttg.linear<{register = [[1, 0], [2, 0], [0, 1]], lane = [[4, 0]], "
                            "warp = [], block = []}>")
    assert op_chunk(linear) == ("write", 8)
    assert op_chunk(_LOAD) == ("read", 8)  # kWidth 4 along K, K fastest in LDS
    assert op_chunk(_LOAD.replace("kWidth = 4", "kWidth = 8").replace("vec = 4", "vec = 8")) == ("read", 16)
    assert op_chunk(_LOAD.replace("opIdx = 1", "opIdx = 0")) == ("read", 2)  # K across the fastest dimension
    assert op_chunk('%d = "ttg.local_load"(%b) : (!ttg.memdesc<64x32xf16, #ttg.padded_shared<{}>>)') is None


_ROTATING = ('%v = "ttg.local_alloc"(%v) : (tensor<128x64xbf16, #ttg.linear<{register = [[1, 0], [2, 0], [0, 1], '
             '[0, 2], [0, 4], [64, 0]], lane = [[0, 8], [0, 16], [0, 32], [4, 0], [8, 0], [16, 0]], warp = [[32, 0]], '
             'block = []}>>) -> !ttg.memdesc<128x64xbf16, #ttg.amd_rotating_shared<{vec = 4, perPhase = 1, maxPhase = '
             '16, order = [0, 1]}>, #ttg.shared_memory>')


def test_lds_writes_count_what_llvm_pairs():
    """Generated seed 3380 on gfx942, the B operand's store (16 chunks of 8 bytes per lane): into Triton's swizzle
    (vec 4) the chunks apart in the register bit the swizzle does not reach have a lane-invariant distance, and
    LLVM pairs them into 8 ds_write2_b64; into ours (vec 8) that bit meets a lane's phase bit and none pair: 16
    (its loop: 12 -> 18 writes). A 16-byte chunk is one instruction; a layout not read here, no count."""
    from triton_mfma.models.lds_writes import write_instructions

    assert write_instructions(_ROTATING) == 8
    assert write_instructions(_ROTATING.replace("vec = 4", "vec = 8")) == 16
    assert write_instructions(_STORE) == 1  # two 8-byte chunks 16 rows apart, where the swizzle's phase repeats
    wide = _STORE.replace("sizePerThread = [4, 1], threadsPerWarp = [16, 4]",
                          "sizePerThread = [8, 1], threadsPerWarp = [8, 8]").replace("vec = 4", "vec = 8")
    assert write_instructions(wide) == 1  # 4 KiB over 256 lanes: one 16-byte chunk each
    assert write_instructions(_STORE.replace("tensor<64x32xf16", "tensor<2x64x32xf16")) is None  # 3-D
    assert write_instructions(_LOAD) is None


def test_lds_chunks_bound_pairs_ops_in_text_order():
    from triton_mfma.models.lds_chunks import no_more_instructions, no_more_lds_ops

    assert no_more_instructions(16, 8) and no_more_instructions(8, 4) and no_more_instructions(2, 2)
    assert not no_more_instructions(8, 8) and not no_more_instructions(4, 4)  # LLVM pairs these by address
    assert not no_more_instructions(2, 2, narrow_equal=False)
    theirs = f"{_STORE}\n{_LOAD}\n"
    wider = theirs.replace("vec = 4", "vec = 8").replace("kWidth = 4", "kWidth = 8")
    rotating = f"{_ROTATING}\n"
    assert no_more_lds_ops(rotating.replace("vec = 4", "vec = 8"), rotating, "gfx942")["write"] is False  # 16 > 8
    assert no_more_lds_ops(rotating, rotating.replace("vec = 4", "vec = 8"), "gfx942")["write"] is True
    wide_store = wider.replace("sizePerThread = [4, 1]", "sizePerThread = [8, 1]")
    assert no_more_lds_ops(wide_store, theirs.replace("sizePerThread = [4, 1]", "sizePerThread = [8, 1]"),
                           "gfx942") == {"write": True, "read": True}
    assert no_more_lds_ops(theirs, wider, "gfx942") == {"write": True, "read": False}  # writes counted: 1 and 1
    chained = '%e = "ttg.convert_layout"(%c) : (tensor<64x32xf16, #ttg.amd_mfma<{}>>) -> tensor<64x32xf16, #dot8>\n'
    assert no_more_lds_ops(wider + chained, theirs + chained.replace("dot8", "dot4"), "gfx942") is None
    assert no_more_lds_ops(wider + chained, theirs, "gfx942") is None  # not the same ops


def test_kwidths_pair_up_in_text_order():
    from triton_mfma.models.dot_figures import converts_to_dot_operand, kwidths_no_smaller, only_kwidth_differs

    a = ("%1 = x : tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, kWidth = 8}>> "
         "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>")
    b = a.replace("kWidth = 8", "kWidth = 4")
    c = b.replace("vec = 8", "vec = 4")
    assert only_kwidth_differs(a, b, same_shared=True) and kwidths_no_smaller(a, b) and not kwidths_no_smaller(b, a)
    assert only_kwidth_differs(a, c) and not only_kwidth_differs(a, c, same_shared=True)
    chained = ('%2 = "ttg.convert_layout"(%1) : (tensor<64x64xf16, #ttg.amd_mfma<{version = 3}>>) -> '
               'tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, kWidth = 8}>> loc(#loc)')
    assert converts_to_dot_operand(chained) and not converts_to_dot_operand(a)


def test_lds_bytes_per_instruction():
    from triton_mfma.models.dot_figures import LDS_WIDEST_BYTES, lds_bytes

    widest = ("ds_read_b128", "ds_read2_b64", "ds_read2st64_b64", "ds_write_b128", "ds_write2_b64", "ds_load_b128")
    assert all(lds_bytes(m) == LDS_WIDEST_BYTES for m in widest)
    assert [lds_bytes(m) for m in ("ds_read_b64_tr_b16", "ds_read_b96", "ds_read_u16_d16_hi", "ds_write_b8")] == \
        [8, 12, 2, 1]
    assert lds_bytes("ds_bpermute_b32") == 0 == lds_bytes("ds_read_addtid_b32")  # not a read of LDS data by address


def _stock_and_ours_under_budget(seed: int, arch: str, budget_s: float, tmp_path, monkeypatch):
    """Generated `seed` compiled for `arch` by stock Triton and by the defaults (strict) under a compile budget of
    `budget_s` (decisions.LONG_COMPILE_S): (stock's CompiledKernel, ours')."""
    import warnings

    import triton_mfma
    import triton_mfma.decisions as decisions
    from triton_mfma.compiler.compile import always_compile, compile_kernel

    monkeypatch.setattr(decisions, "LONG_COMPILE_S", budget_s)
    fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.spec(seed), str(tmp_path), arch)
    with warnings.catch_warnings(), always_compile():
        warnings.simplefilter("ignore")
        with triton_mfma.disabled():
            stock = compile_kernel(fn, sig, cx, arch, opts, attrs)
        with triton_mfma.enabled(strict=True):
            ours = compile_kernel(fn, sig, cx, arch, opts, attrs)
    return stock, ours


def test_long_compile_of_a_kernel_that_must_spill_hands_on_tritons(tmp_path, monkeypatch):
    """Generated seed 1153 on gfx942 (int8 chained dots, 128x256, 1 warp): its dot results need 576 registers per
    lane, more than one wave has, so Triton's kernel is compiled first. Under a budget its compile exceeds (0.5 s
    here for the 30 s of decisions.LONG_COMPILE_S: held-out seeds 1825, 1847 take 32-324 s of stock CPU) it is
    handed on: one compile, stock's figures, each decision's record says why. Under the real budget the decisions
    go on as usual (7 compiles, that first one among them)."""
    from triton_mfma.models import dot_figures

    stock, ours = _stock_and_ours_under_budget(1153, "gfx942", 0.5, tmp_path, monkeypatch)
    md = ours.metadata
    assert md.triton_mfma_trials == 1
    for key in ("triton_mfma_accelerate_dot", "triton_mfma_stream_pipeline"):
        record = getattr(md, key)
        assert record["decision"] == "budget" and "576 registers per lane" in record["reason"], record
    assert md.triton_mfma_waves_relax["decision"] == "kept" and md.waves_per_eu == stock.metadata.waves_per_eu
    assert dot_figures.compare(dot_figures.of_kernel(stock), dot_figures.of_kernel(ours))[0] == "same"
    assert ours.asm["amdgcn"].count("v_mfma") == stock.asm["amdgcn"].count("v_mfma")


def test_budget_spent_by_ours_compares_once_with_tritons(tmp_path, monkeypatch):
    """Generated seed 3380 on gfx942 (bf16 GEMM 16x64x128, 2 warps; no rule predicts a long compile): under a
    budget ours' first compile exceeds (0.1 s for decisions.LONG_COMPILE_S's 30 s: held-out seed 2770 on gfx942,
    ours 44 s, then two trials, 2.2x stock's 45 s), the first decision whose model cannot tell (accelerate-dot: only
    kWidth differs, and ours' B store, counted, needs 16 LDS writes to Triton's 8) compares ours once with Triton's
    kernel instead of its trial; the decisions left record that one comparison; two compiles, not worse than
    stock."""
    from triton_mfma.models import dot_figures

    stock, ours = _stock_and_ours_under_budget(3380, "gfx942", 0.1, tmp_path, monkeypatch)
    md = ours.metadata
    assert md.triton_mfma_trials == 2
    for key in ("triton_mfma_accelerate_dot", "triton_mfma_grid_order"):
        record = getattr(md, key)
        assert (record["decision"], record["evidence"]) == ("budget", "trial"), record
        assert "compared once with Triton's kernel" in record["reason"], record
    assert dot_figures.compare(dot_figures.of_kernel(stock), dot_figures.of_kernel(ours))[0] != "worse"


@pytest.mark.parametrize("seed,need", [(1710, "need 64 registers per lane"), (2410, "at least 576")])
def test_long_fma_compile_compares_ours_once_with_tritons(seed, need, tmp_path, monkeypatch):
    """Generated seeds on gfx90a whose dot Triton's layouts do on FMA (no fp8 MFMA on gfx90a): 1710 (fp8e5b16
    128x256, 8 warps, waves_per_eu=8), whose dot results need 64 registers per lane, the budget of the 8 waves
    asked; 2410 (fp8e5b16 64x64x128, 1 warp, waves_per_eu=4), whose results need 64 of the 128 asked and with one
    K-tile of operands at least 576, more than one wave's 512 (held-out 2556 under "auto": 74 s of stock CPU, ours
    166 s before).
    Triton's kernel is compiled first. Under a budget its compile exceeds (0.1 s for decisions.LONG_COMPILE_S's
    30 s: held-out seed 1999 on gfx90a, Triton's FMA kernel 33 s, ours 19 s) ours is compiled once, every pass in
    place, and the one judge hands on the better: ours (MFMA), two compiles."""
    from triton_mfma.models import dot_figures

    stock, ours = _stock_and_ours_under_budget(seed, "gfx90a", 0.1, tmp_path, monkeypatch)
    md = ours.metadata
    assert md.triton_mfma_trials == 2
    record = md.triton_mfma_accelerate_dot
    assert record["decision"] == "budget" and "on FMA" in record["reason"] and "ours handed on" in record["reason"], \
        record
    assert need in record["reason"], record
    assert "v_mfma" in ours.asm["amdgcn"] and "v_mfma" not in stock.asm["amdgcn"]
    assert dot_figures.compare(dot_figures.of_kernel(stock), dot_figures.of_kernel(ours))[0] == "better"
