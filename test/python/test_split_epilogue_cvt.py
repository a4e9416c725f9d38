"""mfma-split-epilogue-cvt on real kernels (gfx90a, gfx942), budgets 64/48/32 KiB.

Flash-attention fwd D=128 (BLOCK_M=256/BLOCK_N=32 and 128/64, causal and not), as the issue asks,
and split-K GEMMs with 256x128 and 128x128 tiles, whose atomic epilogue converts the MFMA
accumulator to a blocked layout through LDS (Triton 3.9 stores flash attention's output straight
from the MFMA layout, so its LDS is the Q buffer, a local_alloc the pass does not touch).

For every kernel and budget: the kernel reaches hsaco; VGPR spills are not above stock Triton's; when
the pass reports success (a remark "... within budget B B"), Triton's own `metadata.shared` is <= B;
when it reports failure, the IR is unchanged. The split-K kernels must succeed where stock is over
budget, with more converts in the module Triton then allocates (read from the dumped module).

Compile time: the pass is first run on the kernel's TTGIR alone (the module make_llir receives); when
it leaves the IR unchanged the kernel is stock Triton's, already compiled, so only changed modules are
compiled again with the pass enabled (through the hook, as users run it).
"""
import glob
import os
import warnings

import pytest
from conftest import assert_same_compiles
from irutil import ops, parse
from ldsutil import kernel_generic_ttgir

import triton_mfma
from triton_mfma import MFMARemark
from triton_mfma.compiler.compile import compile_kernel
from triton_mfma.examples.kernels import _attn, _splitk_sig, splitk_gemm
from triton_mfma.models.lds_budget import budget_for_register_occupancy
from triton_mfma.ir.native import run_pipeline_with_diagnostics
from triton_mfma.models.resources import of_kernel

BUDGETS = (64 * 1024, 48 * 1024, 32 * 1024)
KERNELS = {
    "attn_d128_bm256_bn32": _attn(128, False, 256, 32),
    "attn_d128_bm256_bn32_causal": _attn(128, True, 256, 32),
    "attn_d128_bm128_bn64": _attn(128, False, 128, 64),
    "attn_d128_bm128_bn64_causal": _attn(128, True, 128, 64),
    "splitk_256x128": (splitk_gemm, _splitk_sig(), dict(BLOCK_M=256, BLOCK_N=128, BLOCK_K=32, SPLIT_K=4)),
    "splitk_128x128": (splitk_gemm, _splitk_sig(), dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=32, SPLIT_K=4)),
}
CASES = [(k, a) for a in ("gfx90a", "gfx942") for k in KERNELS]


def compile_split(name, arch, lds_limit, dump):
    fn, sig, cx = KERNELS[name]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with triton_mfma.enabled(passes=["mfma-split-epilogue-cvt"], lds_limit=lds_limit, dump=dump):
            k = compile_kernel(fn, sig, cx, arch)
    remarks = [str(w.message) for w in caught if issubclass(w.category, MFMARemark)]
    return k, remarks


def reported_success(remarks, budget):
    return any(f"within budget {budget} B" in r for r in remarks)


def split_module(dump):
    """The module the pass returned (what Triton's allocation then sees), parsed."""
    after = sorted(glob.glob(os.path.join(dump, "*", "*ttgir_end-after-*.mlir")))
    assert len(after) == 1, after
    return parse(open(after[0]).read())


def split_ttgir(text, budget):
    """(output text, remark texts) of the pass on a module."""
    out, diags = run_pipeline_with_diagnostics(text, f"builtin.module(mfma-split-epilogue-cvt{{lds-limit={budget}}})")
    return out, [d.message for d in diags if d.severity == "remark"]


@pytest.mark.parametrize("name,arch", CASES, ids=[f"{k}-{a}" for k, a in CASES])
def test_budgets_on_real_kernels(name, arch, tmp_path):
    fn, sig, cx = KERNELS[name]
    stock = compile_kernel(fn, sig, cx, arch)
    stock_res = of_kernel(stock)
    assert stock.asm["hsaco"]
    text = kernel_generic_ttgir(stock)
    n_stock_cvts = len(ops(parse(text), "ttg.convert_layout"))
    for budget in BUDGETS:
        out, remarks = split_ttgir(text, budget)
        changed = out != text
        if not reported_success(remarks, budget):
            assert not changed and any("IR unchanged" in r for r in remarks), remarks
            if name.startswith("attn") and stock.metadata.shared > budget:
                # The Q buffer (a local_alloc) is what exceeds the budget; no convert is to blame.
                assert any("no convert_layout's scratch is over it" in r for r in remarks), remarks
            continue
        if not changed:  # within budget as it is: the kernel is stock's
            assert stock.metadata.shared <= budget
            continue
        dump = str(tmp_path / f"b{budget}")
        k, hook_remarks = compile_split(name, arch, budget, dump)
        assert reported_success(hook_remarks, budget), hook_remarks
        assert k.asm["hsaco"], "no hsaco"
        assert k.metadata.shared <= budget < stock.metadata.shared, (budget, k.metadata.shared)
        assert of_kernel(k).vgpr_spill <= stock_res.vgpr_spill
        assert len(ops(split_module(dump), "ttg.convert_layout")) > n_stock_cvts
    if name.startswith("splitk"):
        for budget in BUDGETS:  # the epilogue convert is always splittable within these budgets
            assert reported_success(split_ttgir(text, budget)[1], budget)


def test_unchanged_module_through_the_hook(tmp_path):
    """Through the hook, a kernel the pass leaves alone compiles exactly as stock (and says why)."""
    fn, sig, cx = KERNELS["attn_d128_bm256_bn32"]
    stock = compile_kernel(fn, sig, cx, "gfx942")
    k, remarks = compile_split("attn_d128_bm256_bn32", "gfx942", 32 * 1024, str(tmp_path))
    assert any("IR unchanged" in r for r in remarks), remarks
    assert_same_compiles(k, stock, ("amdgcn",), lambda: compile_kernel(fn, sig, cx, "gfx942"))
    assert k.metadata.shared == stock.metadata.shared


def test_splitk_256x128_only_compiles_within_lds_with_the_pass():
    """Stock Triton gives this kernel 128 KiB of LDS (unlaunchable on a 64 KiB CU); split: <= 64 KiB."""
    fn, sig, cx = KERNELS["splitk_256x128"]
    stock = compile_kernel(fn, sig, cx, "gfx942")
    assert stock.metadata.shared > 64 * 1024
    k, remarks = compile_split("splitk_256x128", "gfx942", None, None)
    assert reported_success(remarks, 64 * 1024) and k.metadata.shared <= 64 * 1024, remarks


def test_lds_limit_occupancy():
    """'occupancy': the budget that keeps the workgroups/CU the registers allow (measured from a compile
    without the split)."""
    fn, sig, cx = KERNELS["splitk_128x128"]
    stock = compile_kernel(fn, sig, cx, "gfx942")
    r = of_kernel(stock)
    budget, waves, workgroups = budget_for_register_occupancy("gfx942", stock.metadata.num_warps, r.vgpr_total,
                                                              r.sgpr)
    assert stock.metadata.shared > budget, "the stock kernel should be LDS-limited for this test"
    k, remarks = compile_split("splitk_128x128", "gfx942", "occupancy", None)
    assert any(f"LDS budget {budget} B" in m for m in remarks), remarks
    assert reported_success(remarks, budget) and k.metadata.shared <= budget
    from triton_mfma.models import occupancy

    assert occupancy.workgroups_by_lds("gfx942", k.metadata.shared) >= workgroups


def test_lds_limit_validation():
    fn, sig, cx = KERNELS["splitk_128x128"]
    with pytest.raises(Exception, match="lds_limit"):
        with triton_mfma.enabled(passes=["mfma-split-epilogue-cvt"], lds_limit="half", strict=True):
            compile_kernel(fn, sig, cx, "gfx942")
