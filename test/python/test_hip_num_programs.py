"""mfma-hip-num-programs on real compiles: a kernel that reads the grid size (tl.num_programs) compiles to the same
amdgcn as stock Triton's (up to debug lines), without make_llir linking the device library for it; the pass runs
after grid order at ttgir_end whatever order the passes are listed in; cuda is left alone."""
import re
import warnings

import pytest
import triton
from triton.compiler import ASTSource

import triton_mfma
from triton_mfma.compiler.compile import always_compile, target
from triton_mfma.examples.kernels import GRID_ORDER_KERNELS

NAME = "matmul_1d_grouped_grid"  # num_pid_m = tl.num_programs(0) // num_pid_n


def _compile(arch, **mfma):
    fn, sig, cx = GRID_ORDER_KERNELS[NAME]
    with always_compile(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if mfma.pop("stock", False):
            with triton_mfma.disabled():
                return triton.compile(ASTSource(fn, sig, cx), target=target(arch))
        with triton_mfma.enabled(strict=True, **mfma):
            return triton.compile(ASTSource(fn, sig, cx), target=target(arch))


def _code(amdgcn: str) -> list[str]:
    """The instructions and directives, without debug lines and comments (their locations differ)."""
    return [ln for ln in amdgcn.splitlines()
            if ln.strip() and not ln.strip().startswith((".loc", ";", ".Ltmp", ".file")) and "debug_" not in ln]


@pytest.fixture
def linked(monkeypatch):
    """The device libraries make_llir links, per compile (Triton's llvm.link_extern_libs, observed)."""
    import triton.backends.amd.compiler as amd_compiler

    calls, real = [], amd_compiler.llvm

    class Observed:
        def __getattr__(self, name):
            value = getattr(real, name)
            if name != "link_extern_libs":
                return value

            def link(module, paths):
                calls.append([p.rsplit("/", 1)[-1] for p in paths])
                return value(module, paths)
            return link

    monkeypatch.setattr(amd_compiler, "llvm", Observed())
    return calls


@pytest.mark.parametrize("arch", ["gfx90a", "gfx942"])
def test_same_amdgcn_without_the_device_library(arch, linked):
    stock = _compile(arch, stock=True)
    assert linked == [["ockl.bc"]]  # stock Triton links ockl for tt.get_num_programs
    linked.clear()
    ours = _compile(arch, passes=["mfma-hip-num-programs"])
    assert linked == []
    assert "tt.get_num_programs" in stock.asm["ttgir"] and "tt.get_num_programs" not in ours.asm["ttgir"]
    assert "llvm.amdgcn.implicitarg.ptr" in ours.asm["ttgir"]
    # Triton is not deterministic on every kernel within one process (conftest.assert_same_as_stock): some compile
    # of ours must equal some compile of stock's
    ours_code, stock_code = {tuple(_code(ours.asm["amdgcn"]))}, {tuple(_code(stock.asm["amdgcn"]))}
    for _ in range(5):
        if ours_code & stock_code:
            break
        stock_code.add(tuple(_code(_compile(arch, stock=True).asm["amdgcn"])))
        ours_code.add(tuple(_code(_compile(arch, passes=["mfma-hip-num-programs"]).asm["amdgcn"])))
    assert ours_code & stock_code, f"amdgcn differs from stock's in {len(ours_code)} + {len(stock_code)} compiles"


def test_runs_after_grid_order_in_any_listed_order():
    a = _compile("gfx942", passes=["mfma-hip-num-programs", "mfma-grid-order"])
    b = _compile("gfx942", passes=["mfma-grid-order", "mfma-hip-num-programs"])
    assert a.asm["ttgir"] == b.asm["ttgir"]
    assert "tt.get_num_programs" not in a.asm["ttgir"]


def test_remark_and_cuda_untouched():
    fn, sig, cx = GRID_ORDER_KERNELS[NAME]
    with always_compile(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with triton_mfma.enabled(passes=["mfma-hip-num-programs"], backends=("hip", "cuda"), remarks="all"):
            hip = triton.compile(ASTSource(fn, sig, cx), target=target("gfx942"))
            cuda = triton.compile(ASTSource(fn, sig, cx), target=target("cuda:90"))
    text = " ".join(str(w.message) for w in caught)
    assert re.search(r"mfma-hip-num-programs: 1 grid-size read\(s\) from the implicit kernel arguments", text), text
    assert "llvm.amdgcn.implicitarg.ptr" in hip.asm["ttgir"]
    assert "tt.get_num_programs" in cuda.asm["ttgir"]  # not a hip pass: cuda keeps its special register
