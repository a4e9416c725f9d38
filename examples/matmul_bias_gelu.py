"""A fused GEMM + bias + GELU launched on PyTorch tensors, with triton-mfma's passes in Triton's compile.

    python examples/matmul_bias_gelu.py            # on an AMD GPU with ROCm PyTorch

The kernel is an ordinary @triton.jit function; `triton_mfma.enabled()` (or TRITON_CODEGEN_AMD=1 in the
environment) is all that changes. The launched kernel's compiled object goes to `triton_mfma.report`.
"""
import sys

import triton
import triton.language as tl


@triton.jit
def matmul_bias_gelu(a_ptr, b_ptr, bias_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                     stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                     GROUP_M: tl.constexpr):
    """C = gelu(A @ B + bias), A: MxK, B: KxN, bias: N; K masked (any K), GROUP_M-grouped program order."""
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    group = GROUP_M * num_n
    first_m = (pid // group) * GROUP_M
    size_m = min(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % group) % size_m
    pid_n = (pid % group) // size_m
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < k_left) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    x = acc + bias[None, :]
    # GELU, tanh approximation: x * sigmoid(2 * sqrt(2/pi) * (x + 0.044715 x^3))
    y = x * tl.sigmoid(1.5957691216057308 * (x + 0.044715 * x * x * x))
    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c_ptrs, y.to(c_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


def launch(a, b, bias, BLOCK_M=128, BLOCK_N=128, BLOCK_K=32, GROUP_M=8, **options):
    """c = gelu(a @ b + bias) on torch tensors; returns (c, the launched kernel's compiled object)."""
    import torch

    M, K = a.shape
    _, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    compiled = matmul_bias_gelu[grid](a, b, bias, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                      c.stride(0), c.stride(1), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
                                      GROUP_M=GROUP_M, **options)
    return c, compiled


def main() -> int:
    try:
        import torch
    except ImportError:
        print("this example needs PyTorch (ROCm build) and an AMD GPU; without a GPU see "
              "examples/compile_without_gpu.py")
        return 0
    if not torch.cuda.is_available() or getattr(torch.version, "hip", None) is None:
        print("no AMD GPU visible to PyTorch (torch.version.hip is None or no device); without a GPU see "
              "examples/compile_without_gpu.py")
        return 0
    import triton_mfma

    torch.manual_seed(0)
    M, N, K = 4096, 4096, 4000  # K not a multiple of BLOCK_K: the mask matters
    a = torch.randn((M, K), device="cuda", dtype=torch.float16)
    b = torch.randn((K, N), device="cuda", dtype=torch.float16)
    bias = torch.randn((N,), device="cuda", dtype=torch.float16)
    with triton_mfma.enabled():  # the default passes; remarks say what they decided
        c, compiled = launch(a, b, bias)
    ref = torch.nn.functional.gelu(a.float() @ b.float() + bias.float(), approximate="tanh")
    torch.testing.assert_close(c.float(), ref, atol=2e-2, rtol=2e-2)
    print("result matches torch")
    print(triton_mfma.report(compiled))
    ms = triton.testing.do_bench(lambda: launch(a, b, bias))
    print(f"{ms:.3f} ms, {2 * M * N * K / ms * 1e-9:.1f} TFLOP/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
