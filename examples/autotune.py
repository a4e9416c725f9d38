"""Autotuning with triton-mfma: configs carrying waves_per_eu="auto".

    python examples/autotune.py            # on an AMD GPU with ROCm PyTorch: tune, then run the best
    python examples/autotune.py --no-gpu   # any machine: compile each config for gfx942 and show what "auto" chose

`waves_per_eu` is Triton's own AMD option and goes in a Config like any kernel option; "auto" is
triton-mfma's: while it is enabled, each config is compiled with the waves_per_eu that lets the most waves
run without spilling (the decision is a remark and stays in the kernel's metadata). The autotuner then
times the configs as usual.
"""
import os
import sys

import triton

import triton_mfma

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from matmul_bias_gelu import matmul_bias_gelu  # noqa: E402

CONFIGS = [
    triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32, "GROUP_M": 8, "waves_per_eu": "auto"},
                  num_warps=4, num_stages=2),
    triton.Config({"BLOCK_M": 256, "BLOCK_N": 128, "BLOCK_K": 32, "GROUP_M": 8, "waves_per_eu": "auto"},
                  num_warps=8, num_stages=2),
]

matmul_bias_gelu_tuned = triton.autotune(configs=CONFIGS, key=["M", "N", "K"])(matmul_bias_gelu)


def on_gpu() -> int:
    import torch

    M, N, K = 4096, 4096, 4096
    a = torch.randn((M, K), device="cuda", dtype=torch.float16)
    b = torch.randn((K, N), device="cuda", dtype=torch.float16)
    bias = torch.randn((N,), device="cuda", dtype=torch.float16)
    c = torch.empty((M, N), device="cuda", dtype=torch.float16)
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)  # noqa: E731
    with triton_mfma.enabled():
        matmul_bias_gelu_tuned[grid](a, b, bias, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                     c.stride(0), c.stride(1))
    print("best config:", matmul_bias_gelu_tuned.best_config)
    return 0


def without_gpu(arch: str = "gfx942") -> int:
    """What the autotuner compiles, one config at a time, for `arch` (no driver asked)."""
    from triton_mfma.compiler.compile import aot_signature, compile_kernel

    sig = "*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1"
    for cfg in CONFIGS:
        meta = dict(cfg.kwargs)
        options = {"num_warps": cfg.num_warps, "num_stages": cfg.num_stages, "waves_per_eu": meta.pop("waves_per_eu")}
        signature, constexprs, attrs = aot_signature(matmul_bias_gelu, sig, meta, arch)
        with triton_mfma.enabled():
            k = compile_kernel(matmul_bias_gelu, signature, constexprs, arch, options, attrs)
        r = triton_mfma.report(k)
        print(f"{meta} num_warps={cfg.num_warps}: waves_per_eu -> {r.waves_per_eu}; {r.res.vgpr_total} VGPRs, "
              f"{r.occupancy}")
        print(f"    {k.metadata.triton_mfma_waves_per_eu['reason']}")
    return 0


if __name__ == "__main__":
    if "--no-gpu" in sys.argv:
        sys.exit(without_gpu())
    try:
        import torch
        gpu = torch.cuda.is_available() and getattr(torch.version, "hip", None) is not None
    except ImportError:
        gpu = False
    if not gpu:
        print("no AMD GPU visible to PyTorch: compiling each config for gfx942 instead (--no-gpu)")
        sys.exit(without_gpu())
    sys.exit(on_gpu())
