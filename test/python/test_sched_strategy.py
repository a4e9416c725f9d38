"""LLVM's scheduling strategy decided per kernel (decisions/sched_strategy.py): where the main loop of the kernel
handed on spills to scratch, its LLVM IR is compiled with AMDGPU's other scheduling strategies and the one judge
keeps one that ranks better; an author's llvm_fn_attrs / schedule_hint is theirs."""
from __future__ import annotations

import warnings

import pytest

import triton_mfma
from triton_mfma.models import dot_figures
from triton_mfma.testing import kernelgen
from triton_mfma.compiler.compile import always_compile, compile_kernel
from triton_mfma.decisions import sched_strategy
from triton_mfma.ir.llvm_ir import llir_with_fn_attr

LLIR = """define amdgpu_kernel void @k(ptr %a) #0 {
  ret void
}
attributes #0 = { nounwind "amdgpu-flat-work-group-size"="1,256" "denormal-fp-math-f32"="ieee" }
"""


def test_the_attribute_goes_where_llvm_prints_it():
    out = llir_with_fn_attr(LLIR, "amdgpu-sched-strategy", "iterative-minreg")
    assert 'attributes #0 = { nounwind "amdgpu-flat-work-group-size"="1,256" ' \
           '"amdgpu-sched-strategy"="iterative-minreg" "denormal-fp-math-f32"="ieee" }' in out
    assert llir_with_fn_attr(out, "amdgpu-sched-strategy", "max-ilp") is None  # set already: not replaced
    shared = LLIR + "define void @f() #0 {\n  ret void\n}\n"
    assert llir_with_fn_attr(shared, "amdgpu-sched-strategy", "max-ilp") is None  # another function shares it


def test_strategies_are_probed_in_the_build(tmp_path):
    """The installed libtriton knows AMDGPU's strategies by name; a library without their strings knows none."""
    known = sched_strategy.available(sched_strategy.libtriton_path())
    assert "iterative-minreg" in known and set(known) <= set(sched_strategy.STRATEGIES)
    other = tmp_path / "libother.so"
    other.write_bytes(b"\0max-ilp-like\0iterative\0")
    assert sched_strategy.available(str(other)) == ()
    assert sched_strategy.available(str(tmp_path / "missing.so")) == ()


def test_the_authors_choice_is_theirs():
    from types import SimpleNamespace as N

    assert sched_strategy.authors_choice(N(llvm_fn_attrs=(), schedule_hint="")) is None
    assert sched_strategy.authors_choice(N(llvm_fn_attrs=(), schedule_hint="none")) is None
    assert "iterative-ilp" in sched_strategy.authors_choice(
        N(llvm_fn_attrs=(("amdgpu-sched-strategy", "iterative-ilp"),), schedule_hint=""))
    assert sched_strategy.authors_choice(N(llvm_fn_attrs=(), schedule_hint="attention")) == "schedule_hint=attention"


def _compile(seed, arch, tmp_path, options=None, **mfma):
    fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.spec(seed), str(tmp_path), arch)
    opts = {**opts, **(options or {})}
    with warnings.catch_warnings(), always_compile():
        warnings.simplefilter("ignore")
        with triton_mfma.enabled(strict=True, **mfma):
            ours = compile_kernel(fn, sig, cx, arch, opts, attrs)
        with triton_mfma.disabled():
            stock = compile_kernel(fn, sig, cx, arch, opts, attrs)
    return ours, stock


def test_a_spilling_main_loop_gets_a_strategy_that_ranks_better(tmp_path):
    """Held-out generated seed 4594 on gfx950 (fp8e4b8 128x128x32, 1 warp, waves_per_eu=1): every TTGIR decision
    leaves the kernel as Triton's, whose main loop spills 25 scratch ops under LLVM's default strategy; with
    iterative-minreg, the first tried, none, at the same one wave. The strategy is in the LLVM IR handed on, the
    record says what was tried, and nothing more is compiled once the scratch is gone."""
    ours, stock = _compile(4594, "gfx950", tmp_path)
    d = ours.metadata.triton_mfma_sched_strategy
    assert (d["decision"], d["strategy"]) == ("applied", "iterative-minreg"), d
    assert len(d["tried"]) == 1 and d["tried"][0].startswith(
        "iterative-minreg: loop scratch 0, scratch 0, 1 waves/SIMD, 0+0 spills (better on loop scratch "), d
    assert '"amdgpu-sched-strategy"="iterative-minreg"' in ours.asm["llir"]
    f_ours, f_stock = dot_figures.of_kernel(ours), dot_figures.of_kernel(stock)
    assert f_stock.loop_scratch_ops > 0 == f_ours.loop_scratch_ops and f_ours.occupancy == f_stock.occupancy
    assert dot_figures.compare(f_stock, f_ours)[0] == "better"
    assert "sched_strategy" in ours.metadata.triton_mfma


@pytest.mark.parametrize("options", [{"llvm_fn_attrs": "amdgpu-sched-strategy=iterative-ilp"},
                                     {"schedule_hint": "attention"}])
def test_the_decision_never_runs_over_the_authors_choice(options, tmp_path):
    """An author's llvm_fn_attrs or schedule_hint (here on the same spilling kernel): no strategy tried, their
    attribute handed on as they set it."""
    ours, _ = _compile(4594, "gfx950", tmp_path, options)
    assert getattr(ours.metadata, "triton_mfma_sched_strategy", None) is None
    if "llvm_fn_attrs" in options:
        assert ours.asm["llir"].count('"amdgpu-sched-strategy"="iterative-ilp"') == 1
    else:
        assert '"amdgpu-sched-strategy"' not in ours.asm["llir"]


def test_nothing_compiles_where_the_main_loop_does_not_spill(tmp_path):
    """Option off, or a main loop without scratch: no record, LLVM's default strategy."""
    ours, _ = _compile(4594, "gfx950", tmp_path, sched_strategy=False)
    assert getattr(ours.metadata, "triton_mfma_sched_strategy", None) is None
    assert '"amdgpu-sched-strategy"' not in ours.asm["llir"]
    ours, _ = _compile(4594, "gfx942", tmp_path)  # ours has no main-loop scratch there
    assert dot_figures.of_kernel(ours).loop_scratch_ops == 0
    assert getattr(ours.metadata, "triton_mfma_sched_strategy", None) is None
