"""An explicit waves_per_eu relaxed to the waves that can run (decisions/relax_waves_per_eu.py): never raised, never
below the occupancy it reached, untouched where it buys what it asks for or the option is off."""
from __future__ import annotations

import warnings

import pytest

from conftest import assert_same_compiles

import triton_mfma
from triton_mfma import MFMARemark
from triton_mfma.models import cost_model, dot_figures
from triton_mfma.compiler.compile import compile_kernel
from triton_mfma.decisions.relax_waves_per_eu import RelaxWavesPerEu, admitted_waves
from triton_mfma.examples import kernels as K

GEMM = (K.matmul, K._gemm_sig())


def _compile(arch, tiles, options, **mfma_options):
    # the mechanisms tested here act on kernels that spill: the CPU caps (decisions.STAKES_CPU) off, as they would
    # end the trials on CPU times, which move with the machine's load
    mfma_options.setdefault("cpu_bound", False)
    with warnings.catch_warnings(), triton_mfma.enabled(**mfma_options):
        warnings.simplefilter("ignore", MFMARemark)
        return compile_kernel(*GEMM, dict(zip(("BLOCK_M", "BLOCK_N", "BLOCK_K"), tiles)), arch, options)


def test_request_that_cannot_run_is_relaxed_to_the_waves_that_run(monkeypatch):
    """gfx90a GEMM 128x128x64, 4 warps, waves_per_eu=8: 16 KiB of LDS per workgroup admits 4 waves/SIMD, so the
    64-register budget only spills; at waves_per_eu=4 (128 registers) the same 4 waves spill less."""
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    options = {"num_warps": 4, "waves_per_eu": 8}
    stock = compile_kernel(*GEMM, dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64), "gfx90a", options)
    k = _compile("gfx90a", (128, 128, 64), options)
    relax = k.metadata.triton_mfma_waves_relax
    # ours' TTGIR needs 16 KiB of LDS: the decisions compared at 4 waves, and the chosen kernel's caps admit 4; it
    # still spills SGPRs there, so the request itself is compiled too (LLVM's allocation is not monotonic) and loses
    assert (relax["decision"], relax["evidence"], relax["asked"], relax["tried"], relax["compared"]) == \
        ("relaxed", "trial", 8, 4, 8), relax
    assert "its LDS (16384 B/workgroup) admits 4" in relax["reason"]
    assert k.metadata.waves_per_eu == 4 and '"amdgpu-waves-per-eu"="4,4"' in k.asm["llir"]
    f_stock, f_ours = dot_figures.of_kernel(stock), dot_figures.of_kernel(k)
    assert f_ours.occupancy >= f_stock.occupancy == 4
    assert f_ours.vgpr_spills < f_stock.vgpr_spills
    assert cost_model.judge(f_stock, f_ours).better
    assert k.metadata.triton_mfma["waves_per_eu relax"].startswith("waves_per_eu 8 -> 4")


@pytest.mark.parametrize("arch,tiles,w", [("gfx942", (64, 64, 32), 2), ("gfx90a", (128, 128, 64), 2)])
def test_request_that_runs_or_costs_nothing_stands_without_a_trial(arch, tiles, w):
    """No spills at the requested waves, or the caps admit them: the model keeps the request, nothing compiled
    beside it, and the kernel is stock's byte for byte (LLVM's scheduling strategy off: GEMM 128x128x64 on gfx90a
    spills in its main loop at 2 waves, where that decision compiles its strategies; test_sched_strategy)."""
    options = {"num_warps": 4, "waves_per_eu": w}

    def compile_stock():
        return compile_kernel(*GEMM, dict(zip(("BLOCK_M", "BLOCK_N", "BLOCK_K"), tiles)), arch, options)

    stock = compile_stock()
    k = _compile(arch, tiles, options, passes=[], sched_strategy=False)
    relax = k.metadata.triton_mfma_waves_relax
    assert (relax["decision"], relax["evidence"]) == ("kept", "model"), relax
    assert k.metadata.waves_per_eu == w
    assert_same_compiles(k, stock, ("amdgcn",), compile_stock)
    assert getattr(k.metadata, "triton_mfma_trials", 0) <= 1  # the compile handed to Triton, as stock's one


def test_option_off_keeps_the_request():
    options = {"num_warps": 4, "waves_per_eu": 8}
    k = _compile("gfx90a", (128, 128, 64), options, relax_waves_per_eu=False)
    assert not hasattr(k.metadata, "triton_mfma_waves_relax")
    assert k.metadata.waves_per_eu == 8


def test_never_below_the_occupancy_the_request_reached(monkeypatch):
    """Compared at N (no LDS model for the comparisons' waves), the relaxation is a trial: a judge that ranks the
    relaxed compile better is not enough, at a lower occupancy the request stands."""
    from dataclasses import replace

    monkeypatch.setattr(RelaxWavesPerEu, "comparison_waves", lambda self, ctx, ours: None)

    real = dot_figures.of_amdgcn

    def lower_when_relaxed(amdgcn, shared, arch, num_warps, waves_per_eu=0):
        f = real(amdgcn, shared, arch, num_warps, waves_per_eu)
        return replace(f, occupancy=f.occupancy - 1) if waves_per_eu == 4 else f

    monkeypatch.setattr(dot_figures, "of_amdgcn", lower_when_relaxed)
    monkeypatch.setattr(RelaxWavesPerEu, "judge", staticmethod(lambda a, b: cost_model.Judgement(-1, "x", "x 1 -> 0")))
    k = _compile("gfx90a", (128, 128, 64), {"num_warps": 4, "waves_per_eu": 8}, passes=[])
    relax = k.metadata.triton_mfma_waves_relax
    assert relax["decision"] == "kept" and relax["tried"] == 4, relax
    assert k.metadata.waves_per_eu == 8


def test_admitted_waves_names_the_cap():
    f = dot_figures.Figures(instrs="", vgpr=64, agpr=0, vgpr_total=64, sgpr=40, vgpr_spills=1, sgpr_spills=0,
                            spills=1, occupancy=4, lds=16384, loop_mfma=0, loop_fma=0, loop_cycles=0, loop_ds_read=0,
                            loop_ds_write=0, loop_barriers=0)
    assert admitted_waves("gfx90a", 4, f) == (4, "its LDS (16384 B/workgroup)")
    assert admitted_waves("gfx90a", 4, dot_figures.Figures(**{**f.__dict__, "lds": 0}))[0] == 8
    assert admitted_waves("gfx90a", 4, dot_figures.Figures(**{**f.__dict__, "lds": 1 << 20}))[0] == 0


def _generated(seed, arch, tmp_path, **mfma_options):
    from triton_mfma.testing import kernelgen

    fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.spec(seed), str(tmp_path), arch)
    stock = compile_kernel(fn, sig, cx, arch, opts, attrs)
    mfma_options.setdefault("cpu_bound", False)  # as in _compile
    with warnings.catch_warnings(), triton_mfma.enabled(**mfma_options):
        warnings.simplefilter("ignore")
        return stock, compile_kernel(fn, sig, cx, arch, opts, attrs)


def test_a_stage_less_where_the_main_loop_spills_to_scratch(tmp_path, monkeypatch):
    """Generated seed 26 on gfx90a (fp32 GEMM 128x16x32, 2 warps, num_stages=2, waves_per_eu=6), the request kept
    (relax_waves_per_eu=False): 40 scratch ops per main-loop iteration under stock; with one stage fewer none, and
    2 waves/SIMD instead of 1."""
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    stock, k = _generated(26, "gfx90a", tmp_path, relax_waves_per_eu=False)
    d = k.metadata.triton_mfma_num_stages
    assert (d["decision"], d["evidence"], d["asked"], d["tried"]) == ("reduced", "trial", 2, 1), d
    f_stock, f_ours = dot_figures.of_kernel(stock), dot_figures.of_kernel(k)
    assert f_stock.loop_scratch_ops > 0 == f_ours.loop_scratch_ops
    assert dot_figures.compare(f_stock, f_ours)[0] == "better"


def test_the_decisions_compare_at_the_waves_the_lds_admits(tmp_path, monkeypatch):
    """The same kernel with the defaults: its LDS admits 1 wave/SIMD, so the decisions compare at waves_per_eu=2
    (MIN_COMPARED_WAVES: not under a budget no wave of which runs, not at the whole file) instead of 6; no scratch
    spill is left for a stage less to remove; nothing spills at 2, so one wave's larger budget has nothing to cut
    and is not compiled: 2 waves' budget is handed on, at the one wave/SIMD the LDS lets run."""
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    stock, k = _generated(26, "gfx90a", tmp_path)
    relax = k.metadata.triton_mfma_waves_relax
    assert (relax["decision"], relax["evidence"], relax["asked"], relax["tried"]) == ("relaxed", "model", 6, 2), relax
    assert "nothing spills at 2" in relax["reason"]
    assert k.metadata.triton_mfma_num_stages["decision"] == "kept" and k.metadata.waves_per_eu == 2
    f_stock, f_ours = dot_figures.of_kernel(stock), dot_figures.of_kernel(k)
    assert f_ours.occupancy >= f_stock.occupancy and f_ours.loop_scratch_ops == 0 < f_stock.loop_scratch_ops


def test_no_stage_less_without_main_loop_scratch():
    """The model: no scratch spill in the main loop, nothing compiled for num_stages (metadata only)."""
    with warnings.catch_warnings(), triton_mfma.enabled(cpu_bound=False):  # a mechanism: no CPU caps
        warnings.simplefilter("ignore")
        k = compile_kernel(*GEMM, dict(BLOCK_M=64, BLOCK_N=64, BLOCK_K=32), "gfx942", {"num_stages": 3})
    d = k.metadata.triton_mfma_num_stages
    assert (d["decision"], d["evidence"]) == ("kept", "model"), d
    assert "num_stages" not in k.metadata.triton_mfma


def test_choices_that_together_lose_to_tritons_are_reverted(tmp_path, monkeypatch):
    """Generated seed 0 on gfx950 (fp8e5b16 GEMM 128x128x64, 8 warps, 4 stages): our pipeliner and our dot layouts
    each rank no worse in their own comparison, together 2 waves/SIMD where Triton's kernel runs 4; the combination
    check compiles Triton's and keeps it (the CPU bound on every kernel off: with it, this kernel's third compile
    is the one comparison with Triton's kernel instead, which hands on the same kernel: test_engine)."""
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    stock, k = _generated(0, "gfx950", tmp_path, cpu_bound=False)
    d = k.metadata.triton_mfma_combination
    assert (d["decision"], d["evidence"]) == ("reverted", "trial"), d
    assert "occupancy 4 -> 2" in d["reason"]
    f_stock, f_ours = dot_figures.of_kernel(stock), dot_figures.of_kernel(k)
    assert f_ours.occupancy == f_stock.occupancy == 4
    assert dot_figures.compare(f_stock, f_ours)[0] != "worse"


def test_whole_workgroups_cap_the_waves_asked():
    """8 warps put 2 waves on each SIMD: waves_per_eu=7 runs 6 waves (with 7's budget, 72 VGPRs), so 6 is what the
    request admits, and the cap says why; with 4 warps (one wave per SIMD each) the LDS caps it first."""
    f = dot_figures.Figures(instrs="", vgpr=72, agpr=0, vgpr_total=72, sgpr=40, vgpr_spills=52, sgpr_spills=0,
                            spills=52, occupancy=6, lds=12288, loop_mfma=0, loop_fma=0, loop_cycles=0,
                            loop_ds_read=0, loop_ds_write=0, loop_barriers=0)
    waves, cap = admitted_waves("gfx90a", 8, f, 7)
    assert (waves, cap) == (6, "the whole-workgroup step (8 waves/workgroup, 2 on each SIMD)")
    assert admitted_waves("gfx90a", 8, f, 6)[0] == 8  # 6 runs as asked: registers unlimited, 8 would
    assert admitted_waves("gfx90a", 4, f, 7) == (5, "its LDS (12288 B/workgroup)")  # 1 wave/SIMD per workgroup
    assert admitted_waves("gfx90a", 8, f)[0] == 8  # no request: the caps other than registers only


def test_relaxed_to_the_waves_whole_workgroups_run(tmp_path, monkeypatch):
    """Generated seed 163 (a tl.dot_scaled e4m3 GEMM 32x64x128, 8 warps, waves_per_eu=7) on gfx90a: 7 waves never
    run (6 do), and 7's budget spills in the main loop every iteration; relaxed to 6: the same 6 waves, fewer
    main-loop scratch ops than stock."""
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    stock, k = _generated(163, "gfx90a", tmp_path)
    relax = k.metadata.triton_mfma_waves_relax
    assert relax["decision"] == "relaxed" and "7 -> 6" in relax["reason"], relax
    assert "whole-workgroup step" in relax["reason"] and k.metadata.waves_per_eu == 6
    f_stock, f_ours = dot_figures.of_kernel(stock), dot_figures.of_kernel(k)
    assert f_ours.occupancy == f_stock.occupancy == 6
    assert 0 < f_ours.loop_scratch_ops < f_stock.loop_scratch_ops


def test_a_relaxed_compile_that_spills_is_compared_with_the_request(tmp_path, monkeypatch):
    """Generated seed 359 (a 1-warp tl.dot_scaled GEMM, waves_per_eu=7) on gfx950: the workgroup slots let 4 waves
    run, but at 4's budget LLVM spills in the main loop where at 7's it does not (its allocation is not monotonic
    in the budget): the request is compiled too and kept, as stock compiles it."""
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    stock, k = _generated(359, "gfx950", tmp_path)
    relax = k.metadata.triton_mfma_waves_relax
    assert (relax["decision"], relax["evidence"], relax["tried"], relax["compared"]) == ("kept", "trial", 4, 7), relax
    f_stock, f_ours = dot_figures.of_kernel(stock), dot_figures.of_kernel(k)
    assert f_ours.loop_scratch_ops == 0 and dot_figures.compare(f_stock, f_ours)[0] != "worse"


def test_the_budgets_one_comparison_is_with_what_stock_compiles(monkeypatch):
    """Where the compile budget turns the trials into one comparison with Triton's kernel while the decisions compare
    below the waves asked (the waves the LDS admits), Triton's kernel is compiled at the waves asked, as stock
    compiles it, not at the compared ones (generated seed 7072 on gfx950: 57 s at 2 waves where stock took 6.4 s at
    7). GEMM 128x128x64 on gfx90a, waves_per_eu=8, every compile past the budget (LONG_COMPILE_S 0): the judge's
    figures of Triton's kernel are stock's."""
    from triton_mfma import decisions
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    monkeypatch.setattr(decisions, "LONG_COMPILE_S", 0.0)
    options = {"num_warps": 4, "waves_per_eu": 8}
    stock = compile_kernel(*GEMM, dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64), "gfx90a", options)
    k = _compile("gfx90a", (128, 128, 64), options)
    f_stock, f_ours = dot_figures.of_kernel(stock), dot_figures.of_kernel(k)
    d = k.metadata.triton_mfma_accelerate_dot
    assert d["decision"] == "budget" and "compared once with Triton's kernel (at waves_per_eu 8, ours at" in d["reason"]
    assert f"loop scratch {f_stock.loop_scratch_ops} ->" in d["reason"], (d, f_stock)
    assert dot_figures.compare(f_stock, f_ours)[0] != "worse"


def test_a_kernel_neither_build_can_launch_is_not_compared(tmp_path, monkeypatch):
    """Generated seed 490 on gfx942 (fp16 chained GEMM 256x64x128, 8 warps, 4 stages): 240 KiB of LDS per
    workgroup under stock and under ours, where a CU has 64 KiB. No figure of a kernel that cannot run says
    anything about its speed: each decision keeps what a tie keeps without a trial compile (the generated run
    had compiled 5 trials, 3.6x stock's CPU time), and the bench reads the pair as the same."""
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    stock, k = _generated(490, "gfx942", tmp_path)
    md = k.metadata
    for key in ("triton_mfma_accelerate_dot", "triton_mfma_stream_pipeline", "triton_mfma_num_stages"):
        d = getattr(md, key)
        assert d["evidence"] == "model" and "neither launches" in d["reason"], (key, d)
    assert md.triton_mfma_stream_pipeline["decision"] == "declined"  # a tie keeps Triton's pipeliner
    assert md.triton_mfma_waves_relax["evidence"] == "model" and "cannot launch" in md.triton_mfma_waves_relax["reason"]
    assert md.triton_mfma_trials <= 1, md.triton_mfma_trials
    assert dot_figures.compare(dot_figures.of_kernel(stock), dot_figures.of_kernel(k)) == \
        ("same", [cost_model.NEITHER_LAUNCHES])


def test_more_waves_than_compared_are_judged_against_the_compared_ones(tmp_path, monkeypatch):
    """Generated seed 700 on gfx942 (fp8 256x64x16, 2 warps, waves_per_eu=7): the TTGIR decisions compare at the
    6 waves the kernel's LDS admits, where num_stages=1 is chosen; its smaller LDS lets 7 run, so the decisions
    after it compare at 7, where the main loop spills more (51 scratch ops against 48 at 6, stock's): the
    combination check reverts to Triton's kernel, whose LDS admits 6, and 6 waves' compile is handed on."""
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    stock, k = _generated(700, "gfx942", tmp_path)
    combination = k.metadata.triton_mfma_combination
    assert combination["decision"] == "reverted" and "loop scratch" in combination["reason"], combination
    relax = k.metadata.triton_mfma_waves_relax
    assert (relax["decision"], relax["asked"]) == ("relaxed", 7) and k.metadata.waves_per_eu == 6, relax
    f_stock, f_ours = dot_figures.of_kernel(stock), dot_figures.of_kernel(k)
    assert f_ours.loop_scratch_ops <= f_stock.loop_scratch_ops and f_ours.occupancy >= f_stock.occupancy
    assert dot_figures.compare(f_stock, f_ours)[0] != "worse"


def test_never_fewer_waves_than_the_request_runs_under_tritons_kernel(tmp_path, monkeypatch):
    """Generated seed 773 on gfx942 (fp8 128x128x32, 2 warps, waves_per_eu=5): ours' TTGIR (the stream pipeliner's
    LDS) admits 4 waves, Triton's the 5 asked. Triton's pipeliner spills, so ours is compared (applied at 4 waves:
    main-loop scratch 93 -> 80), and the choices together are then checked against Triton's kernel, which wins;
    the request stands at the 5 waves Triton's kernel runs (before Triton's compile decided the stream pipeliner,
    it was declined on its LDS alone and the layouts compared at 5: reverted)."""
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    stock, k = _generated(773, "gfx942", tmp_path)
    assert k.metadata.triton_mfma_combination["decision"] == "reverted"
    relax = k.metadata.triton_mfma_waves_relax
    assert (relax["decision"], relax["asked"]) == ("kept", 5) and k.metadata.waves_per_eu == 5, relax
    assert dot_figures.of_kernel(k).occupancy >= dot_figures.of_kernel(stock).occupancy == 5


def test_decisions_after_one_that_changes_the_ttgir_compare_at_its_waves(tmp_path, monkeypatch):
    """Generated seed 684 on gfx942 (fp8 64x128x128, 8 warps, num_stages=4, waves_per_eu=8): the stream pipeliner's
    LDS (24576 B) admits 4 of the 8 waves asked; it is declined, and Triton's TTGIR (16384 B) admits 8. The layouts
    are then compared at 8 waves, where ours spill more in the main loop than Triton's (at 4, where they were
    compared before, neither spilled, and ours at 6 waves ended 43 main-loop scratch ops against stock's 42)."""
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    stock, k = _generated(684, "gfx942", tmp_path)
    assert k.metadata.triton_mfma_stream_pipeline["decision"] == "declined"
    dot = k.metadata.triton_mfma_accelerate_dot
    assert (dot["decision"], dot["evidence"]) == ("reverted", "trial") and "loop scratch" in dot["reason"], dot
    assert k.metadata.waves_per_eu == 8
    assert dot_figures.compare(dot_figures.of_kernel(stock), dot_figures.of_kernel(k))[0] != "worse"
