"""AMD's aiter (amd-aiter on PyPI; aiter/ops/triton/): its Triton kernels as its own launch functions launch them on an
MI300X, with the configurations it ships for that device (aiter/ops/triton/configs/MI300X-*.json, picked by the
library's `_get_config` / `get_optimal_moe_config` from the shapes, as at launch).

How: the launching function itself (e.g. `aiter.ops.triton.gemm_a16w16.gemm_a16w16`) is called on torch CPU tensors
of the shapes below, inside `_shim.no_gpu("gfx942")` and `rocm_torch()` (Triton's driver answers gfx942, so
`arch_info.get_device()` is "MI300X" and the MI300X JSON files are read; the device has 304 CUs), and every
`kernel[grid](...)` it reaches is recorded instead of launched (capture.py): the kernel, its arguments as the
launch passes them (strides, shapes, constexprs, the config's block sizes) and its compile options (num_warps,
num_stages, waves_per_eu, matrix_instr_nonkdim, kpack, as the JSON gives them). Nothing of aiter's is copied.

What is imported how (amd-aiter 0.1.7.post2.dev18, bench/heldout/requirements.txt):
  - `aiter/__init__.py` is not run: it loads aiter's C++/HIP JIT modules (aiter.jit.core), which need ROCm. A
    package object `aiter` whose __path__ is the installed folder stands in for it, so `aiter.ops.triton.*` import
    from their files as usual (their own imports are torch, triton and aiter.ops.triton.utils);
  - `aiter/ops/triton/mha.py` imports `_triton_kernels/flash_attn_triton_amd` (the flash-attention v2 interface it
    re-exports) whose bwd.py autotunes on keys that are no kernel argument (ACTUAL_HEAD_DIM): Triton 3.9 refuses
    that at import. That module is stubbed (an empty module); mha.py's own forward (`_flash_attn_forward` ->
    `_attn_fwd`) does not use it.
Targets: gfx90a, gfx942, gfx950 with the MI300X's options (aiter ships no gfx90a configs; its MI350X ones are not
used); fp8 configurations (torch.float8_e4m3fnuz: aiter's fp8 type on gfx942) on gfx942 only.
"""
from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
import types

import torch
import triton.language as tl

import _shim
from _shim import rocm_torch
from capture import launches, one, to_config

LIB = "aiter"
AMD = ("gfx90a", "gfx942", "gfx950")
FP8_ARCHS = ("gfx942",)
BF, FP16, F32 = torch.bfloat16, torch.float16, torch.float32
FP8 = torch.float8_e4m3fnuz  # aiter.ops.triton.utils.types.get_fp8_e4m3_dtype() on gfx942
E = torch.empty


def _import_aiter():
    """The aiter package without its __init__ (see the module docstring)."""
    if "aiter" not in sys.modules:
        spec = importlib.util.find_spec("aiter")
        if spec is None or not spec.origin:
            raise ImportError("amd-aiter is not installed (pip install --no-deps -r bench/heldout/requirements.txt)")
        pkg = types.ModuleType("aiter")
        pkg.__path__ = [os.path.dirname(spec.origin)]
        pkg.__file__ = spec.origin
        sys.modules["aiter"] = pkg
    name = "aiter.ops.triton._triton_kernels.flash_attn_triton_amd"
    if name not in sys.modules:
        fa = types.ModuleType(name)
        fa.flash_attn_2 = None  # mha.py imports it; nothing here calls it
        sys.modules[name] = fa


@contextlib.contextmanager
def _driver_target(arch: str):
    """Inside no_gpu(): Triton's driver answers `arch` instead (the device's other answers stay the MI300X's; aiter
    asks the driver only for the arch, which names its config files)."""
    from triton.runtime.driver import driver
    saved = driver._active
    driver.set_active(_shim._FakeDriver(arch, _shim._PROPS["gfx942"]))
    try:
        yield
    finally:
        driver._active = saved


def configs() -> list:
    with rocm_torch():
        _import_aiter()
        return _configs()


def _configs() -> list:
    from aiter.ops.triton import (batched_gemm_bf16, extend_attention, gemm_a8w8, gemm_a8w8_blockscale,
                                  gemm_a16w16, gemm_a16w16_atomic, gmm, mha, mha_fused_bwd,
                                  mha_onekernel_bwd, mla_decode_rope, moe_op, pa_decode, unified_attention)
    from aiter.ops.triton.utils._triton import arch_info
    from aiter.ops.triton.utils.moe_config_utils import get_optimal_moe_config

    assert arch_info.get_device() == "MI300X", arch_info.get_arch()
    out = []
    T = "aiter/ops/triton/"

    def add(launch, name, mirrors, archs=AMD, quick=False):
        out.append(to_config(launch, LIB, name, T + mirrors, archs, quick))

    # ------------------------------------------------------------------ flash attention forward (mha.py)
    # mha.py: _flash_attn_forward -> _attn_fwd, bshd (q (B, S, H, D)), config from MI300X-MHA-DEFAULT.json
    # ("default"; "dropout_or_fp32" with dropout; "pe" where D_qk > D_v)
    for name, B, S, H, KVH, D, Dv, dt, causal, drop, quick in [
        ("llama3-8b/causal/bf16", 1, 4096, 32, 8, 128, 128, BF, True, 0.0, True),
        ("vit-l/noncausal/fp16", 8, 1024, 16, 16, 64, 64, FP16, False, 0.0, False),
        ("gpt2/causal/d64/fp16", 4, 2048, 12, 12, 64, 64, FP16, True, 0.0, False),
        ("llama2-7b/causal/dropout/bf16", 2, 2048, 32, 32, 128, 128, BF, True, 0.1, False),
        ("deepseek-v3-mla-prefill/pe/bf16", 1, 4096, 16, 16, 192, 128, BF, True, 0.0, False),
    ]:
        q, k, v = E(B, S, H, D, dtype=dt), E(B, S, KVH, D, dtype=dt), E(B, S, KVH, Dv, dtype=dt)
        lse = drop > 0
        add(one(mha._flash_attn_forward, q, k, v, drop, D ** -0.5, causal, -1, -1, None, None, False, False, S, S),
            f"mha_fwd/{name}", "mha.py: _flash_attn_forward -> _attn_fwd (MI300X-MHA-DEFAULT.json)", quick=quick)
    # varlen (thd): flash_attn_varlen_func's path; Qwen2.5-7B heads, 8 sequences of up to 2048
    q, k = E(8 * 1024, 28, 128, dtype=BF), E(8 * 1024, 4, 128, dtype=BF)
    cu = torch.arange(0, 9, dtype=torch.int32) * 1024
    add(one(mha._flash_attn_forward, q, k, k, 0.0, 128 ** -0.5, True, -1, -1, None, None, True, False, 2048, 2048,
            cu_seqlens_q=cu, cu_seqlens_k=cu),
        "mha_fwd/qwen2.5-7b/varlen/causal/bf16", "mha.py: _flash_attn_forward (varlen) -> _attn_fwd")
    # fp8 (flash_attn_fp8_func: q/k/v e4m3fnuz with per-batch descales, fp32 output)
    q, k = E(1, 4096, 32, 128, dtype=FP8), E(1, 4096, 8, 128, dtype=FP8)
    ds = E(1, 32, dtype=F32)
    add(one(mha._flash_attn_forward, q, k, k, 0.0, 128 ** -0.5, True, -1, -1, None, None, True, False, 4096, 4096,
            descale_q=ds, descale_k=E(1, 8, dtype=F32), descale_v=E(1, 8, dtype=F32)),
        "mha_fwd/llama3-8b/causal/fp8", "mha.py: _flash_attn_forward (fp8) -> _attn_fwd", archs=FP8_ARCHS)

    # ------------------------------------------------------------------ flash attention backward
    # mha_onekernel_bwd.py: flash_attn_onekernel_backward -> _bwd_preprocess, bwd_kernel_causal / _noncausal
    # (mha.py's default backward; config "bkwd_onekernel" of MI300X-MHA-DEFAULT.json); mha_fused_bwd.py:
    # flash_attn_fused_backward (mha_set_use_fused_bwd_kernel(True); "bkwd_fused")
    for name, B, S, H, KVH, D, causal in [("llama3-8b/causal", 1, 4096, 32, 8, 128, True),
                                          ("llama2-7b/noncausal", 2, 2048, 32, 32, 128, False),
                                          ("gpt2/causal/d64", 4, 2048, 12, 12, 64, True)]:
        q, k = E(B, S, H, D, dtype=BF), E(B, S, KVH, D, dtype=BF)
        lse = E(B, H, S, dtype=F32)
        args = (E(B, S, H, D, dtype=BF), q, k, k, E(B, S, H, D, dtype=BF), lse, torch.zeros_like(q),
                E(B, S, KVH, D, dtype=BF), E(B, S, KVH, D, dtype=BF), None, D ** -0.5, None, causal, None, None,
                S, S, 0.0)
        for ln in launches(mha_onekernel_bwd.flash_attn_onekernel_backward, *args, USE_INT64_STRIDES=True):
            if ln.fn.__name__ == "_bwd_preprocess" and name != "llama3-8b/causal":
                continue  # the preprocess (o . do, no dot) once
            add(ln, f"mha_bwd_onekernel/{ln.fn.__name__}/{name}",
                f"mha_onekernel_bwd.py: flash_attn_onekernel_backward -> {ln.fn.__name__}")
        if name != "gpt2/causal/d64":
            for ln in launches(mha_fused_bwd.flash_attn_fused_backward, *args, USE_INT64_STRIDES=True):
                if "preprocess" in ln.fn.__name__:
                    continue
                add(ln, f"mha_bwd_fused/{ln.fn.__name__}/{name}",
                    f"mha_fused_bwd.py: flash_attn_fused_backward -> {ln.fn.__name__}")

    # ------------------------------------------------------------------ decode / paged attention
    # pa_decode.py: paged_attention_decode (vLLM's paged KV cache (blocks, kv heads, 16, D)); v1 where the context
    # fits one partition or there are many heads, else v2 (partitions + reduce)
    # (Not here: MHA, one query head per KV head, takes the *_wo_dot_kernel variants, whose source stock Triton 3.9
    # rejects: `acc *= alpha[:, None]` on a scalar alpha, "too many indices for tensor of rank 0".)
    for name, seqs, H, KVH, D, ctx in [("llama3-8b/gqa/ctx4096", 64, 32, 8, 128, 4096),
                                       ("qwen2.5-7b/gqa7/ctx2048", 32, 28, 4, 128, 2048),
                                       ("llama3-70b-tp8/ctx16384", 8, 8, 1, 128, 16384)]:
        blk = 16
        nblk = seqs * ctx // blk
        lns = launches(pa_decode.paged_attention_decode, E(seqs, H, D, dtype=BF), E(seqs, H, D, dtype=BF),
                       E(nblk, KVH, blk, D, dtype=BF), E(nblk, KVH, blk, D, dtype=BF),
                       torch.full((seqs,), ctx, dtype=torch.int32), torch.zeros(seqs, ctx // blk, dtype=torch.int32),
                       D ** -0.5, ctx, tl.bfloat16, torch.ones(1), torch.ones(1))
        for ln in lns:
            add(ln, f"pa_decode/{ln.fn.__name__}/{name}", f"pa_decode.py: paged_attention_decode -> {ln.fn.__name__}")
    # unified_attention.py: unified_attention (vLLM's V1 attention: mixed prefill/decode over a paged cache;
    # the 2D kernel for a batch with a prefill, the 3D split-KV kernel + reduce_segments for all-decode)
    for name, nq, maxq, seqs, ctx in [("llama3-8b/prefill-chunk", 2048, 512, 4, 4096),
                                      ("llama3-8b/decode", 64, 1, 64, 8192)]:
        H, KVH, D, blk = 32, 8, 128, 16
        nblk = seqs * ctx // blk
        cu = torch.arange(0, seqs + 1, dtype=torch.int32) * (nq // seqs)
        lns = launches(unified_attention.unified_attention, E(nq, H, D, dtype=BF), E(nblk, blk, KVH, D, dtype=BF),
                       E(nblk, blk, KVH, D, dtype=BF), E(nq, H, D, dtype=BF), cu, maxq,
                       torch.full((seqs,), ctx, dtype=torch.int32), ctx, D ** -0.5, True, (-1, -1),
                       torch.zeros(seqs, ctx // blk, dtype=torch.int32), 0.0, None, None, None)
        for ln in lns:
            add(ln, f"unified_attention/{ln.fn.__name__}/{name}",
                f"unified_attention.py: unified_attention -> {ln.fn.__name__}")
    # mla_decode_rope.py: decode_attention_fwd_grouped_rope (DeepSeek-V3 absorbed MLA decode at TP8: 16 heads,
    # kv_lora_rank 512 + rope 64, split KV; MI300X-MLA_DECODE_ROPE-DEFAULT.json)
    bs, H, splits, ctx = 32, 16, 8, 4096
    kv = E(bs * ctx, 1, 576, dtype=BF)
    for ln in launches(mla_decode_rope.decode_attention_fwd_grouped_rope, E(bs, H, 576, dtype=BF), kv,
                       kv[..., :512], E(bs, H, 512, dtype=BF), torch.arange(0, bs + 1, dtype=torch.int32) * ctx,
                       torch.zeros(bs * ctx, dtype=torch.int32), E(bs, 64, dtype=BF), 512, 64,
                       E(163840, 64, dtype=BF), torch.zeros(bs, dtype=torch.int64),
                       E(bs, H, splits, 513, dtype=F32), splits, 576 ** -0.5, 0.0, True, False):
        add(ln, f"mla_decode_rope/{ln.fn.__name__}/deepseek-v3-tp8",
            f"mla_decode_rope.py: decode_attention_fwd_grouped_rope -> {ln.fn.__name__}")
    # extend_attention.py: extend_attention_fwd (prefill with a cached prefix, SGLang's layout;
    # MI300X-EXTEND_ATTENTION.json)
    H, KVH, D, ext, pre, bs = 32, 8, 128, 512, 1536, 4
    add(one(extend_attention.extend_attention_fwd, E(bs * ext, H, D, dtype=BF), E(bs * ext, KVH, D, dtype=BF),
            E(bs * ext, KVH, D, dtype=BF), E(bs * ext, H, D, dtype=BF), E(bs * pre, KVH, D, dtype=BF),
            E(bs * pre, KVH, D, dtype=BF), torch.arange(0, bs + 1, dtype=torch.int32) * ext,
            torch.arange(0, bs + 1, dtype=torch.int32) * pre, torch.zeros(bs * pre, dtype=torch.int64), None, True,
            None, ext),
        "extend_attention/llama3-8b", "extend_attention.py: extend_attention_fwd -> _fwd_kernel")
    # Not here: lean_atten.py (stream-K attention) cannot be launched in this version: persistent_lean_attention calls
    # `_get_config(causal=, batch_size=)` (it takes no argument) and `arch_info.get_num_sms()` (absent), and
    # `_persistent_lean_attention` passes XCD_REMAP twice (by name and in **config): a TypeError before any compile.

    # ------------------------------------------------------------------ GEMMs (configs/gemm/MI300X-GEMM-*.json)
    for name, M, N, K in [("llama3-8b-up/m16", 16, 14336, 4096), ("llama3-8b-down/m128", 128, 4096, 14336),
                          ("llama3-70b-qkv/m4096", 4096, 10240, 8192)]:
        for ln in launches(gemm_a16w16.gemm_a16w16, E(M, K, dtype=BF), E(N, K, dtype=BF)):
            add(ln, f"gemm_a16w16/{ln.fn.__name__}/{name}", f"gemm_a16w16.py: gemm_a16w16 -> {ln.fn.__name__}",
                quick=M == 16)
    # split-K with atomics (MI300X-GEMM-A16W16-ATOMIC.json: NUM_KSPLIT from the config)
    for name, M, N, K in [("llama3-8b-down/m8", 8, 4096, 14336), ("llama3-70b-o/m64", 64, 8192, 8192)]:
        for ln in launches(gemm_a16w16_atomic.gemm_a16w16_atomic, E(M, K, dtype=BF), E(N, K, dtype=BF),
                           dtype=F32, y=torch.zeros(M, N, dtype=F32)):
            add(ln, f"gemm_a16w16_atomic/{name}", f"gemm_a16w16_atomic.py: gemm_a16w16_atomic -> {ln.fn.__name__}")
    # int8 (per-token x per-channel scales) and fp8 W8A8
    for name, M, N, K, dt, archs in [("int8/m32", 32, 4096, 4096, torch.int8, AMD),
                                     ("int8/m2048", 2048, 14336, 4096, torch.int8, AMD),
                                     ("fp8/m512", 512, 8192, 8192, FP8, FP8_ARCHS)]:
        ln = one(gemm_a8w8.gemm_a8w8, E(M, K, dtype=dt), E(N, K, dtype=dt), E(M, 1, dtype=F32), E(1, N, dtype=F32))
        add(ln, f"gemm_a8w8/{name}", "gemm_a8w8.py: gemm_a8w8 -> _gemm_a8w8_kernel", archs=archs)
    # fp8 with 128x128 block scales (DeepSeek-V3's linear layers)
    for name, M, N, K in [("deepseek-v3/m16", 16, 7168, 2048), ("deepseek-v3/m2048", 2048, 4608, 7168)]:
        for ln in launches(gemm_a8w8_blockscale.gemm_a8w8_blockscale, E(M, K, dtype=FP8), E(N, K, dtype=FP8),
                           E(M, (K + 127) // 128, dtype=F32), E((N + 127) // 128, (K + 127) // 128, dtype=F32)):
            add(ln, f"gemm_a8w8_blockscale/{ln.fn.__name__}/{name}",
                f"gemm_a8w8_blockscale.py: gemm_a8w8_blockscale -> {ln.fn.__name__}", archs=FP8_ARCHS)
    # split-K: aiter ships split-K GEMM configs for the MI350X only (configs/gemm/MI350X-*-N=..-K=...json; none of its
    # MI300X files has NUM_KSPLIT > 1), so these two are the MI350X's launch (captured with Triton's driver answering
    # gfx950: arch_info.get_device() "MI350X"): DeepSeek-V3's MoE router GEMM (N 256 experts, K 7168), bf16 with
    # atomics (NUM_KSPLIT 14), compiled for all three targets; its fp8 block-scale GEMM M 8, N 7168, K 2048 (NUM_KSPLIT 4,
    # partials then the reduce kernel) in the MI350X's fp8 (e4m3fn, OCP), gfx950 only
    with _driver_target("gfx950"):
        assert arch_info.get_device() == "MI350X", arch_info.get_arch()
        M, N, K = 16, 256, 7168
        ln = one(gemm_a16w16_atomic.gemm_a16w16_atomic, E(M, K, dtype=BF), E(N, K, dtype=BF), dtype=F32,
                 y=torch.zeros(M, N, dtype=F32))
        assert ln.args["NUM_KSPLIT"] > 1, ln.args["NUM_KSPLIT"]
        add(ln, "gemm_a16w16_atomic/splitk/deepseek-v3-router/m16/mi350x",
            "gemm_a16w16_atomic.py: gemm_a16w16_atomic -> _gemm_a16_w16_atomic_kernel "
            "(MI350X-GEMM-A16W16-ATOMIC-N=256-K=7168.json)")
        M, N, K = 8, 7168, 2048  # not 16: the library's lru_cache'd _get_config holds (16, 7168, 2048)'s MI300X answer
        f8 = torch.float8_e4m3fn
        lns = launches(gemm_a8w8_blockscale.gemm_a8w8_blockscale, E(M, K, dtype=f8), E(N, K, dtype=f8),
                       E(M, K // 128, dtype=F32), E(N // 128, K // 128, dtype=F32))
        assert lns[0].args["NUM_KSPLIT"] > 1 and len(lns) == 2, ([x.fn.__name__ for x in lns], {k: v for k, v in lns[0].args.items() if k.isupper()})
        for ln in lns:
            add(ln, f"gemm_a8w8_blockscale/splitk/{ln.fn.__name__}/deepseek-v3/m8/mi350x",
                f"gemm_a8w8_blockscale.py: gemm_a8w8_blockscale -> {ln.fn.__name__} "
                "(MI350X-GEMM-A8W8_BLOCKSCALE-N=7168-K=2048.json)", archs=("gfx950",))
    # batched bf16 GEMM (MI300X-BATCHED_GEMM-A16W16.json)
    for ln in launches(batched_gemm_bf16.batched_gemm_bf16, E(16, 256, 512, dtype=BF), E(16, 128, 512, dtype=BF)):
        add(ln, f"batched_gemm_bf16/{ln.fn.__name__}/b16", f"batched_gemm_bf16.py: batched_gemm_bf16 -> {ln.fn.__name__}")

    # ------------------------------------------------------------------ grouped GEMMs (gmm.py; MI300X-GMM.json)
    G, M, K, N = 8, 8192, 4096, 2048
    gs = torch.full((G,), M // G, dtype=torch.int32)
    add(one(gmm.gmm, E(M, K, dtype=BF), E(G, K, N, dtype=BF), gs), "gmm/gmm/8x1024x4096x2048",
        "gmm.py: gmm -> gmm_kernel")
    add(one(gmm.ptgmm, E(K, M, dtype=BF), E(M, N, dtype=BF), gs), "gmm/ptgmm/8x4096x1024x2048",
        "gmm.py: ptgmm -> tgmm_persistent_kernel")
    add(one(gmm.nptgmm, E(K, M, dtype=BF), E(M, N, dtype=BF), gs), "gmm/nptgmm/8x4096x1024x2048",
        "gmm.py: nptgmm -> tgmm_non_persistent_kernel")

    # ------------------------------------------------------------------ fused MoE (moe_op.py; configs/moe/MI300X-MOE-*.json)
    # fused_moe with the config get_optimal_moe_config picks for M (small_M < 256 <= medium_M < 1024 <= large_M):
    # Mixtral-8x7B w1 (E 8, 2*14336 x 4096, top 2) and w2; fp8 W8A8 per-tensor; int8 W8A16
    def moe(name, M, Ex, N, K, topk, wdt, quant, mirrors_cfg, archs=AMD):
        blk_m_cfg = get_optimal_moe_config(BF, use_int8_w8a16=quant == "int8_w8a16",
                                           use_fp8_w8a8=quant == "fp8_w8a8", M=M)
        bm = blk_m_cfg["BLOCK_SIZE_M"]
        em = M * topk + Ex * (bm - 1)
        em = (em + bm - 1) // bm * bm
        a = E(M, K, dtype=BF)
        b = E(Ex, N, K, dtype=wdt)
        c = E(M, topk, N, dtype=BF)
        b_scale = E(Ex, N, dtype=F32) if quant == "int8_w8a16" else (E(Ex, dtype=F32) if quant else None)
        a_scale = None
        lns = launches(moe_op.fused_moe, a, b, c, a_scale, b_scale, None, E(M, topk, dtype=F32),
                       torch.zeros(M, topk, dtype=torch.int32), torch.zeros(em, dtype=torch.int32),
                       torch.zeros(em // bm, dtype=torch.int32), torch.zeros(1, dtype=torch.int32),
                       name.endswith("w2"), topk if not name.endswith("w2") else 1, tl.bfloat16,
                       quant == "fp8_w8a8", quant == "int8_w8a16", False, None, blk_m_cfg)
        for ln in lns:
            if ln.fn.__name__ != "_fused_moe_kernel" and "moe" not in ln.fn.__name__:
                continue  # the activation quantization before an fp8 MoE: not the GEMM
            add(ln, f"fused_moe/{ln.fn.__name__}/{name}",
                f"moe_op.py: fused_moe -> {ln.fn.__name__} (get_optimal_moe_config, {mirrors_cfg})", archs=archs)

    moe("mixtral-8x7b/m1/w1", 1, 8, 28672, 4096, 2, BF, None, "MI300X-MOE-DEFAULT.json small_M")
    moe("mixtral-8x7b/m512/w1", 512, 8, 28672, 4096, 2, BF, None, "MI300X-MOE-DEFAULT.json medium_M")
    moe("mixtral-8x7b/m4096/w2", 4096, 8, 4096, 14336, 2, BF, None, "MI300X-MOE-DEFAULT.json large_M")
    moe("mixtral-8x7b/m64/int8-w8a16/w1", 64, 8, 28672, 4096, 2, torch.int8, "int8_w8a16",
        "MI300X-MOE-INT8_W8A16.json small_M")
    moe("mixtral-8x22b-tp4/m256/fp8-w8a8/w1", 256, 8, 8192, 6144, 2, FP8, "fp8_w8a8",
        "MI300X-MOE-FP8_W8A8.json medium_M", archs=FP8_ARCHS)
    return out
