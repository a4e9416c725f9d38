"""Compile a kernel for an AMD GPU on a machine without one, stock Triton and with triton-mfma, and compare.

    python examples/compile_without_gpu.py [gfx90a|gfx942|gfx950]

Triton compiles HIP kernels down to amdgcn and hsaco on any machine: give `triton.compile` a GPUTarget
instead of letting it ask the driver. The signature and `attrs` below are what a launch on 16-byte-aligned
torch tensors under 2 GiB produces (`*fp16:16` in Triton's AOT syntax; `triton-mfma report` takes that
syntax and builds the same).
"""
import os
import sys

import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

import triton_mfma

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from matmul_bias_gelu import matmul_bias_gelu  # noqa: E402


def source():
    names = matmul_bias_gelu.arg_names
    signature = {"a_ptr": "*fp16", "b_ptr": "*fp16", "bias_ptr": "*fp16", "c_ptr": "*fp16",
                 "M": "i32", "N": "i32", "K": "i32", "stride_am": "i32", "stride_ak": "constexpr",
                 "stride_bk": "i32", "stride_bn": "constexpr", "stride_cm": "i32", "stride_cn": "constexpr",
                 "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "BLOCK_K": "constexpr", "GROUP_M": "constexpr"}
    # unit strides are specialized to the constant 1, as a launch does (`i32:1` in the AOT syntax)
    constexprs = {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32,
                  "GROUP_M": 8}
    # pointers: 16-byte aligned (tt.divisibility) and under 2 GiB (tt.pointer_range, AMD buffer ops);
    # M, N, K and the other strides: multiples of 16
    attrs = {(names.index(n),): [["tt.divisibility", 16], ["tt.pointer_range", 32]]
             for n in ("a_ptr", "b_ptr", "bias_ptr", "c_ptr")}
    attrs.update({(names.index(n),): [["tt.divisibility", 16]] for n in ("M", "N", "K", "stride_am", "stride_bk",
                                                                         "stride_cm")})
    return ASTSource(fn=matmul_bias_gelu, signature=signature, constexprs=constexprs, attrs=attrs)


def main(arch: str = "gfx942") -> int:
    target = GPUTarget("hip", arch, 64)  # wave64; no driver is asked
    options = {"num_warps": 4, "num_stages": 2}
    stock = triton.compile(source(), target=target, options=options)
    with triton_mfma.enabled():  # the default passes
        ours = triton.compile(source(), target=target, options=options)
    print(f"hsaco: {len(stock.asm['hsaco'])} bytes (stock), {len(ours.asm['hsaco'])} bytes (triton-mfma)")
    s, o = dict(triton_mfma.report(stock).rows()), dict(triton_mfma.report(ours).rows())
    w = max(map(len, o))
    for k in o:
        print(f"{k:{w}}  {s.get(k, ''):48}  {o[k]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
