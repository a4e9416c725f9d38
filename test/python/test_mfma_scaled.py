"""The block-scaled MFMA family of gfx950 (`tl.dot_scaled`) in the instruction table and the figures: an mxfp4 and
an fp8 `tl.dot_scaled` GEMM compile in strict mode with the defaults, and their figures read (dot_figures raises
on an MFMA instruction missing from the table)."""

import pytest

from triton_mfma.models import dot_figures
from triton_mfma.testing import kernelgen
from triton_mfma.ir import native
from triton_mfma.compiler.compile import always_compile

import triton
import triton_mfma
from triton.compiler import ASTSource
from triton_mfma.compiler.compile import target

SCALED = ("v_mfma_scale_f32_32x32x64_f8f6f4", "v_mfma_scale_f32_16x16x128_f8f6f4")


def test_table_has_the_scaled_family():
    cycles = native.mfma_cycles()
    # fp8-operand figures (CDNA4: 16 / 8 passes), the same as the unscaled f8f6f4 instruction of the shape
    assert cycles["gfx950", SCALED[0]] == cycles["gfx950", "v_mfma_f32_32x32x64_f8f6f4"] == 64
    assert cycles["gfx950", SCALED[1]] == cycles["gfx950", "v_mfma_f32_16x16x128_f8f6f4"] == 32
    assert not any(("gfx942", m) in cycles or ("gfx90a", m) in cycles for m in SCALED)


@pytest.mark.parametrize("formats,bm,bn", [(("e2m1", "e2m1"), 128, 128), (("e4m3", "e4m3"), 64, 64),
                                          (("e4m3", "e2m1"), 32, 32), (("e5m2", "e5m2"), 16, 16)])
def test_dot_scaled_compiles_strict_with_figures(formats, bm, bn, tmp_path, monkeypatch):
    monkeypatch.setenv("TRITON_MFMA_STRICT", "1")
    s = kernelgen.Spec(seed=900001, dtype="dot_scaled", formats=formats, bm=bm, bn=bn, bk=128, k=512,
                       options={"num_warps": 4, "num_stages": 2, "waves_per_eu": 0})
    fn, sig, cx, attrs, opts = kernelgen.compile_args(s, str(tmp_path), "gfx950")
    with always_compile(), triton_mfma.enabled():
        k = triton.compile(ASTSource(fn=fn, signature=sig, constexprs=cx, attrs=attrs), target=target("gfx950"),
                           options=opts)
    asm = k.asm["amdgcn"]
    assert any(m in asm for m in SCALED), "no scaled MFMA in the kernel"
    f = dot_figures.of_kernel(k)
    assert f.loop_mfma > 0 and f.loop_cycles > 0 and f.occupancy > 0
