"""Occupancy model vs the AMDGPU backend, waves_per_eu honoured and "auto", the kernel report."""
import os
import warnings

import pytest
from conftest import CASE_IDS, CASES, stock_kernel

import triton_mfma
from triton_mfma import MFMARemark, report
from triton_mfma.models import dot_figures, occupancy
from triton_mfma.commands.cli import main as cli_main
from triton_mfma.compiler.compile import compile_kernel
from triton_mfma.examples import CORPUS
from triton_mfma.examples.kernels import _attn
from triton_mfma.models.resources import of_kernel


@pytest.mark.parametrize("name,arch", CASES, ids=CASE_IDS)
def test_model_equals_backend_occupancy(name, arch):
    """For waves_per_eu 0..4 the model's register occupancy equals `; Occupancy:` in the amdgcn."""
    fn, sig, cx = CORPUS[name]
    for w in range(5):
        k = stock_kernel(name, arch) if w == 0 else compile_kernel(fn, sig, cx, arch, {"waves_per_eu": w})
        r = of_kernel(k)
        model = occupancy.register_occupancy(arch, r.vgpr_total, r.sgpr, w)
        assert model == r.occupancy, f"w={w}: model {model}, backend {r.occupancy} ({r})"


def test_model_rules():
    assert occupancy.register_occupancy("gfx942", 128, 30) == 4
    assert occupancy.register_occupancy("gfx942", 129, 30) == 3  # 136 after the granule: 512 // 136
    assert occupancy.register_occupancy("gfx942", 64, 94) == 7  # SGPR-limited: 800 // (96 + 16)
    assert occupancy.register_occupancy("gfx942", 64, 30, waves_per_eu=2) == 2
    assert occupancy.vgpr_budget("gfx942", 3) == 168 and occupancy.vgpr_budget("gfx942", 5) == 96
    # LDS: 64 KiB per CU on gfx942, 160 KiB on gfx950; 512-byte granules
    assert occupancy.workgroups_by_lds("gfx942", 32768) == 2 and occupancy.workgroups_by_lds("gfx950", 32768) == 5
    assert occupancy.lds_bytes_allocated("gfx942", 257) == 512
    o = occupancy.occupancy("gfx942", 4, 64, 30, 32768)
    assert (o.waves_per_simd, o.workgroups_per_cu, o.limiter) == (2, 2, "lds")
    assert occupancy.lds_budget_for_workgroups("gfx942", 3) == 21504
    with pytest.raises(ValueError, match="no occupancy model"):
        occupancy.target("gfx1100")


def _figures_with(**kw):
    from triton_mfma.models.dot_figures import Figures

    base = dict(instrs="", vgpr=256, agpr=64, vgpr_total=320, sgpr=100, vgpr_spills=0, sgpr_spills=26, spills=26,
                occupancy=1, lds=32768, loop_mfma=8, loop_fma=0, loop_cycles=128, loop_ds_read=8, loop_ds_write=4,
                loop_barriers=2)
    return Figures(**{**base, **kw})


def test_auto_plan_at_one_wave():
    """The model's candidates for a base that spills at one wave/SIMD: w=1 ("1,1" sets LLVM's scheduling target)
    on every arch where a spill of the base is one the judge ranks (here SGPR lane spills in the main loop): on
    held-out generated seed 1686 on gfx950 it cut VGPR spills 677 -> 391. Where its spills are all outside the main
    loop (lane spills the judge counts free), the same waves could win only the tie-breaker: not compiled."""
    from triton_mfma.models import autowaves
    from triton_mfma.models.resources import Resources

    for arch in ("gfx90a", "gfx942", "gfx950"):
        res = Resources(vgpr=256, agpr=64, vgpr_total=320, sgpr=100, vgpr_spill=0, sgpr_spill=26, scratch=0,
                        lds=32768, occupancy=1)
        occ = occupancy.occupancy(arch, 8, res.vgpr_total, res.sgpr, res.lds, 0)
        assert occ.register_waves == 1
        in_loop = autowaves.Candidate(0, res, occ, None, _figures=_figures_with(lane_spill_ops=52, loop_lane_ops=4))
        promising, skipped, possible = autowaves.plan(arch, 8, in_loop)
        assert promising == [1] and 1 in possible, (arch, skipped)
        outside = autowaves.Candidate(0, res, occ, None, _figures=_figures_with(lane_spill_ops=52, loop_lane_ops=0))
        promising, skipped, possible = autowaves.plan(arch, 8, outside)
        assert promising == [] and 1 in possible, (arch, skipped)
        assert skipped[1] == ("the default reaches 1 waves/SIMD and none of its 26 spills is ranked (no scratch, "
                              "none in the main loop): the same waves could cut only those")


def test_auto_remarks_say_the_waves_that_run():
    """8 warps at 72 VGPRs on gfx942: the registers allow 7 waves/SIMD, whole workgroups of 8 waves run 6 (3 per CU
    of 4 SIMDs): the remarks name both, not "the default's 7" alone."""
    from triton_mfma.models import autowaves
    from triton_mfma.models.resources import Resources

    res = Resources(vgpr=72, agpr=0, vgpr_total=72, sgpr=40, vgpr_spill=0, sgpr_spill=0, scratch=0, lds=0,
                    occupancy=6)
    occ = occupancy.occupancy("gfx942", 8, res.vgpr_total, res.sgpr, res.lds, 0)
    assert (occ.register_waves, occ.waves_per_simd) == (7, 6)
    _, skipped, _ = autowaves.plan("gfx942", 8, autowaves.Candidate(0, res, occ, None))
    assert skipped[6] == "fewer waves than the default's 7 waves/SIMD by its registers (6 run in whole workgroups)"
    assert skipped[7] == "the default already reaches 7 waves/SIMD by its registers (6 run in whole workgroups) " \
                         "without spills", skipped


AUTO_CASES = [("attn_d64", _attn(64, False)), ("attn_d128_causal_bm256_bn32", _attn(128, True, 256, 32)),
              ("attn_d128_bm128_bn64", _attn(128, False, 128, 64)), ("splitk_gemm", CORPUS["splitk_gemm"])]


@pytest.mark.parametrize("arch", ["gfx90a", "gfx942", "gfx950"])
@pytest.mark.parametrize("label,case", AUTO_CASES, ids=[c[0] for c in AUTO_CASES])
def test_auto_never_spills_more_and_never_loses_occupancy(label, case, arch):
    fn, sig, cx = case
    stock = compile_kernel(fn, sig, cx, arch)
    default = report(stock)
    with warnings.catch_warnings(record=True) as caught, triton_mfma.enabled(waves_per_eu="auto"):
        warnings.simplefilter("always")
        k = compile_kernel(fn, sig, cx, arch)
    auto = report(k)
    decision = k.metadata.triton_mfma_waves_per_eu
    assert decision["chosen"] == k.metadata.waves_per_eu == auto.waves_per_eu
    # chosen, or kept where the compile budget leaves no candidate (decisions.STAKES_CPU: a spilling kernel)
    said = ("waves_per_eu=auto chose", "waves_per_eu=auto kept 0 (the kernel's own")
    assert any(issubclass(w.category, MFMARemark) and any(s in str(w.message) for s in said) for w in caught)
    # the benches' verdict (the one judge's main keys) on the defaults with "auto" against stock: not worse
    verdict = dot_figures.compare(dot_figures.of_kernel(stock), dot_figures.of_kernel(k))
    assert verdict[0] != "worse", (verdict, decision["reason"])
    assert auto.occupancy.waves_per_simd >= default.occupancy.waves_per_simd, decision["reason"]
    tried = decision["tried"]
    assert tried[str(decision["chosen"])][0] >= tried["0"][0], decision["reason"]  # waves/SIMD
    assert str(decision["chosen"]) in decision["reason"]
    # the remark names the figure that decided (the judge's), where more than the default was compiled
    if len(tried) > 1:
        decided = "better than w=0 on " if decision["chosen"] != 0 else "none ranks better than the default (w="
        assert decided in decision["reason"], decision["reason"]


def test_auto_as_a_kernel_option_and_cached_with_the_kernel(tmp_path):
    from triton import knobs

    fn, sig, cx = CORPUS["splitk_gemm"]
    saved = knobs.compilation.always_compile
    knobs.compilation.always_compile = False  # this test is about the cache
    try:
        with triton_mfma.enabled(), warnings.catch_warnings():
            warnings.simplefilter("ignore", MFMARemark)
            first = compile_kernel(fn, sig, cx, "gfx942", {"waves_per_eu": "auto"})
            again = compile_kernel(fn, sig, cx, "gfx942", {"waves_per_eu": "auto"})
    finally:
        knobs.compilation.always_compile = saved
    assert first.hash == again.hash
    assert again.metadata.triton_mfma_waves_per_eu == first.metadata.triton_mfma_waves_per_eu
    assert isinstance(again.metadata.waves_per_eu, int)


def test_forced_waves_per_eu_and_bad_values():
    fn, sig, cx = CORPUS["gemm"]
    with triton_mfma.enabled(waves_per_eu=3), warnings.catch_warnings():
        warnings.simplefilter("ignore", MFMARemark)  # the default passes' remarks
        k = compile_kernel(fn, sig, cx, "gfx942")
    assert of_kernel(k).occupancy == 3
    with pytest.raises(ValueError, match="waves_per_eu"):
        triton_mfma.enable(waves_per_eu=11)


def test_report_of_a_kernel():
    r = report(stock_kernel("attn_fwd_d128", "gfx942"))
    rows = dict(r.rows())
    assert r.res.mfma_count > 0 and "v_mfma" in rows["MFMA"]
    assert r.res.loops == 1 and r.res.ds_read > 0 and r.res.ds_write > 0
    assert r.modelled_register_occupancy == r.res.occupancy
    assert sum(r.res.global_loads.values()) > 0
    assert "limited by" in str(r)


KERNELS_PY = os.path.join(os.path.dirname(triton_mfma.__file__), "examples", "kernels.py")


def test_report_cli_compare_and_plot(tmp_path, capsys):
    png = tmp_path / "cmp.png"
    rc = cli_main(["report", f"{KERNELS_PY}:matmul", "--arch", "gfx90a",
                   "--signature", "*fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32,i32,i32,i32",
                   "--constexpr", "BLOCK_M=64", "--constexpr", "BLOCK_N=64", "--constexpr", "BLOCK_K=32",
                   "--waves-per-eu", "auto", "--compare", "--plot", str(png)])
    out = capsys.readouterr().out
    assert rc == 0
    assert "stock" in out and "triton-mfma" in out and "waves_per_eu auto" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_report_cli_named_signature(capsys):
    rc = cli_main(["report", f"{KERNELS_PY}:softmax", "--arch", "gfx950",
                   "--signature", "x_ptr=*fp32,y_ptr=*fp32,n_cols=i32,stride_x=i32,stride_y=i32",
                   "--constexpr", "BLOCK=512"])
    assert rc == 0
    assert "softmax (gfx950" in capsys.readouterr().out


def test_report_cli_rejects_bad_spec(capsys):
    """One line on stderr, exit status 2 (test_cli.py checks every user error this way, in subprocesses)."""
    assert cli_main(["report", "nofile:kernel", "--signature", "i32"]) == 2
    assert "expected FILE.py:KERNEL" in capsys.readouterr().err
    assert cli_main(["report", f"{KERNELS_PY}:nope", "--signature", "i32"]) == 2
    assert "has no kernel" in capsys.readouterr().err
