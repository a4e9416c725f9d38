"""liger-kernel (liger_kernel/ops/*.py): kernels as the library's launch functions launch them.

Sizes are those of common LLMs (Llama-3 8B/70B: hidden 4096/8192, FFN 14336/28672, vocab 128256, 32/8 heads of 128;
Qwen2.5-7B: hidden 3584, FFN 18944, 28/4 heads; Gemma: vocab 256000; Qwen3-30B-A3B MoE: hidden 2048, expert FFN
768, 128 experts). Row counts never enter a signature except where a launch passes them.
"""
from __future__ import annotations

import math

import triton
import triton.language as tl

from harness import C, P, Config, from_triton_config, library_configs, spread

LIB = "liger"
SM_COUNT = 304  # what the backward launches read from torch.cuda.get_device_properties (MI300X; 132 on H200)


def calculate_settings(n):
    """liger_kernel/ops/utils.py: calculate_settings (per arch: is_hip() picks 16 warps instead of 32)."""
    block = triton.next_power_of_2(n)
    if block >= 32768:
        return block, (lambda arch: {"num_warps": 16 if arch.startswith("gfx") else 32})
    warps = 16 if block >= 8192 else 8 if block >= 2048 else 4
    return block, (lambda arch: {"num_warps": warps})


def configs() -> list[Config]:
    from liger_kernel.ops import (cross_entropy, dyt, fused_add_rms_norm, fused_moe_kernels,
                                  fused_neighborhood_attention, geglu, kl_div, layer_norm, rms_norm, rope,
                                  softmax, swiglu)

    out: list[Config] = []
    add = out.append
    TT = {"bf16": tl.bfloat16, "fp16": tl.float16, "fp32": tl.float32}

    # rms_norm.py: rms_norm_forward -> _rms_norm_forward_kernel (BLOCK_SIZE > 256: one row per program)
    for n, dt, mode, quick in [(4096, "bf16", 0, True), (8192, "bf16", 1, False), (3584, "fp16", -1, False),
                               (16384, "bf16", 0, False)]:
        block, opts = calculate_settings(n)
        rstd = "fp32" if mode in (0, 1) else dt
        add(Config(LIB, f"rms_norm_fwd/{n}/{dt}/cast{mode}", rms_norm._rms_norm_forward_kernel, dict(
            Y_ptr=P(dt), Y_row_stride=n, X_ptr=P(dt), X_row_stride=n, W_ptr=P(dt), W_row_stride=1, RSTD_ptr=P(rstd),
            RSTD_row_stride=1, n_cols=n, eps=1e-6, offset=1.0 if mode == 1 else 0.0, casting_mode=mode,
            elementwise_affine=True, BLOCK_SIZE=block), opts,
            "liger_kernel/ops/rms_norm.py: rms_norm_forward -> _rms_norm_forward_kernel", quick=quick))
    # rms_norm.py: rms_norm_forward -> _block_rms_norm_forward_kernel (BLOCK_SIZE <= 256, >= 32768 rows: QK-norm)
    for n in (128, 256):
        block, opts = calculate_settings(n)
        add(Config(LIB, f"block_rms_norm_fwd/{n}/bf16", rms_norm._block_rms_norm_forward_kernel, dict(
            Y_ptr=P("bf16"), Y_row_stride=n, X_ptr=P("bf16"), X_row_stride=n, W_ptr=P("bf16"), W_row_stride=1,
            RSTD_ptr=P("fp32"), RSTD_row_stride=1, n_rows=65536, n_cols=n, eps=1e-6, offset=0.0, casting_mode=0,
            elementwise_affine=True, BLOCK_SIZE=block, BLOCK_ROW=16), opts,
            "liger_kernel/ops/rms_norm.py: rms_norm_forward -> _block_rms_norm_forward_kernel"))
    # rms_norm.py: rms_norm_backward -> _rms_norm_backward_kernel (grid = SM count, fp32 dW partials)
    for n, dt, quick in [(4096, "bf16", True), (8192, "bf16", False)]:
        block, opts = calculate_settings(n)
        rows = 8192
        add(Config(LIB, f"rms_norm_bwd/{n}/{dt}", rms_norm._rms_norm_backward_kernel, dict(
            dY_ptr=P(dt), dY_row_stride=n, dX_ptr=P(dt), dX_row_stride=n, X_ptr=P(dt), X_row_stride=n,
            X_dtype=TT[dt], W_ptr=P(dt), W_row_stride=1, RSTD_ptr=P("fp32"), RSTD_row_stride=1, dW_ptr=P("fp32"),
            dW_row_stride=n, n_rows=rows, n_cols=n, offset=0.0, rows_per_program=math.ceil(rows / SM_COUNT),
            casting_mode=0, elementwise_affine=True, BLOCK_SIZE=block, COMPUTE_DW=True), opts,
            "liger_kernel/ops/rms_norm.py: rms_norm_backward -> _rms_norm_backward_kernel", quick=quick))
    # fused_add_rms_norm.py: fused_add_rms_norm_forward -> _fused_add_rms_norm_forward_kernel
    n = 4096
    block, opts = calculate_settings(n)
    add(Config(LIB, f"fused_add_rms_norm_fwd/{n}/bf16", fused_add_rms_norm._fused_add_rms_norm_forward_kernel, dict(
        Y_ptr=P("bf16"), Y_row_stride=n, S_ptr=P("bf16"), S_row_stride=n, X_ptr=P("bf16"), X_row_stride=n,
        R_ptr=P("bf16"), R_row_stride=n, W_ptr=P("bf16"), W_row_stride=1, RSTD_ptr=P("fp32"), RSTD_row_stride=1,
        n_cols=n, eps=1e-6, offset=0.0, casting_mode=0, BLOCK_SIZE=block), opts,
        "liger_kernel/ops/fused_add_rms_norm.py: fused_add_rms_norm_forward -> _fused_add_rms_norm_forward_kernel"))

    # layer_norm.py: layer_norm_forward -> _layer_norm_forward_kernel
    for n, dt in [(4096, "bf16"), (8192, "fp16"), (1024, "fp32")]:
        block, opts = calculate_settings(n)
        add(Config(LIB, f"layer_norm_fwd/{n}/{dt}", layer_norm._layer_norm_forward_kernel, dict(
            Y_ptr=P(dt), Y_row_stride=n, X_ptr=P(dt), X_row_stride=n, W_ptr=P(dt), W_row_stride=1, B_ptr=P(dt),
            B_row_stride=1, Mean_ptr=P("fp32"), Mean_row_stride=1, RSTD_ptr=P("fp32"), RSTD_row_stride=1, n_cols=n,
            eps=1e-5, BLOCK_SIZE=block), opts,
            "liger_kernel/ops/layer_norm.py: layer_norm_forward -> _layer_norm_forward_kernel", quick=(n == 4096)))
    # layer_norm.py: layer_norm_backward -> _layer_norm_backward_kernel (grid = SM count)
    for n, dt in [(4096, "bf16"), (1024, "fp32")]:
        block, opts = calculate_settings(n)
        rows = 8192
        add(Config(LIB, f"layer_norm_bwd/{n}/{dt}", layer_norm._layer_norm_backward_kernel, dict(
            X_ptr=P(dt), stride_x=n, W_ptr=P(dt), Mean_ptr=P("fp32"), stride_mean=1, RSTD_ptr=P("fp32"),
            stride_rstd=1, DX_ptr=P(dt), stride_dx=n, DW_ptr=P("fp32"), stride_dw=n, DB_ptr=P("fp32"), stride_db=n,
            DY_ptr=P(dt), stride_dy=n, n_rows=rows, n_cols=n, rows_per_program=math.ceil(rows / SM_COUNT),
            BLOCK_SIZE=block, COMPUTE_DW=True, COMPUTE_DB=True), opts,
            "liger_kernel/ops/layer_norm.py: layer_norm_backward -> _layer_norm_backward_kernel"))

    # rope.py: rope_forward / rope_backward -> _triton_rope (q, k transposed to (bsz, seq, heads, head_dim))
    for model, bs, sl, nq, nk, hd, bwd in [("llama3-8b", 1, 4096, 32, 8, 128, False), ("qwen2.5-7b", 2, 2048, 28, 4, 128, False),
                                            ("llama3-8b", 1, 4096, 32, 8, 128, True)]:
        pq, pk = triton.next_power_of_2(nq), triton.next_power_of_2(nk)
        add(Config(LIB, f"rope_{'bwd' if bwd else 'fwd'}/{model}/bf16", rope._triton_rope, dict(
            q_ptr=P("bf16"), q_row_stride=nq * hd, k_ptr=P("bf16"), k_row_stride=nk * hd, cos=P("bf16"),
            cos_row_stride=hd, sin=P("bf16"), sin_row_stride=hd, sl=sl, bs=bs, cos_bs=1, n_qh=nq, n_kh=nk, hd=hd,
            pad_n_qh=pq, pad_n_kh=pk, pad_hd=triton.next_power_of_2(hd), pad_rd=triton.next_power_of_2(hd), rd=hd,
            BLOCK_SIZE=max(pq, pk), BACKWARD_PASS=bwd), {},
            f"liger_kernel/ops/rope.py: rope_{'backward' if bwd else 'forward'} -> _triton_rope",
            quick=(model == "llama3-8b" and not bwd)))

    # swiglu.py: swiglu_forward / swiglu_backward -> _swiglu_{forward,backward}_kernel (not Blackwell: one row)
    for n, dt in [(14336, "bf16"), (18944, "bf16"), (4096, "fp16")]:
        block, opts = calculate_settings(n)
        add(Config(LIB, f"swiglu_fwd/{n}/{dt}", swiglu._swiglu_forward_kernel, dict(
            a_ptr=P(dt), b_ptr=P(dt), c_ptr=P(dt), stride=n, gate_multiplier=1.0, n_cols=n, BLOCK_SIZE=block),
            opts, "liger_kernel/ops/swiglu.py: swiglu_forward -> _swiglu_forward_kernel", quick=(n == 14336)))
    for n, dt in [(14336, "bf16")]:
        block, opts = calculate_settings(n)
        add(Config(LIB, f"swiglu_bwd/{n}/{dt}", swiglu._swiglu_backward_kernel, dict(
            dc_ptr=P(dt), a_ptr=P(dt), b_ptr=P(dt), stride=n, gate_multiplier=1.0, n_cols=n, BLOCK_SIZE=block),
            opts, "liger_kernel/ops/swiglu.py: swiglu_backward -> _swiglu_backward_kernel"))
    # geglu.py: geglu_forward / geglu_backward -> _geglu_tanh_{forward,backward}_kernel (Gemma FFN 16384 / 24576)
    for n, bwd in [(16384, False), (24576, False), (16384, True)]:
        block, opts = calculate_settings(n)
        kern = geglu._geglu_tanh_backward_kernel if bwd else geglu._geglu_tanh_forward_kernel
        first = dict(dc=P("bf16")) if bwd else dict(c=P("bf16"))
        add(Config(LIB, f"geglu_{'bwd' if bwd else 'fwd'}/{n}/bf16", kern, dict(
            a=P("bf16"), b=P("bf16"), stride=n, n_cols=n, BLOCK_SIZE=block, **first), opts,
            f"liger_kernel/ops/geglu.py: geglu_{'backward' if bwd else 'forward'} -> {kern.__name__}"))

    # cross_entropy.py: cross_entropy_forward -> liger_cross_entropy_kernel (BLOCK_SIZE = min(32768, next_pow2(V));
    # 16 warps on hip, 32 otherwise)
    ce_opts = lambda arch: {"num_warps": 16 if arch.startswith("gfx") else 32}  # noqa: E731
    for model, V, dt, smoothing, zloss, softcap, quick in [
            ("llama3", 128256, "bf16", 0.0, False, None, True), ("llama2", 32000, "fp32", 0.1, False, None, False),
            ("gemma2", 256000, "bf16", 0.0, True, 30.0, False)]:
        add(Config(LIB, f"cross_entropy/{model}/V{V}/{dt}", cross_entropy.liger_cross_entropy_kernel, dict(
            X_ptr=P(dt), X_stride=V, Y_ptr=P("i64"), Y_stride=1, weight_ptr=None, loss_ptr=P(dt),
            z_loss_ptr=P(dt) if zloss else None, loss_stride=1, token_accuracy_ptr=None, token_accuracy_stride=0,
            predicted_tokens_ptr=None, predicted_tokens_stride=0, n_cols=V, n_non_ignore=8000,
            sum_non_ignore_weight=8000, weight_sum=0.0, ignore_index=-100, lse_square_scale=1e-4 if zloss else 0.0,
            label_smoothing=smoothing, reduction="mean", softcap=softcap, RETURN_Z_LOSS=zloss,
            RETURN_TOKEN_ACCURACY=False, RETURN_PREDICTED_TOKENS=False, BLOCK_SIZE=min(32768, triton.next_power_of_2(V)),
            HAS_WEIGHT=False, HAS_SOFTCAPPING=softcap is not None, HAS_GRADIENTS=True), ce_opts,
            "liger_kernel/ops/cross_entropy.py: cross_entropy_forward -> liger_cross_entropy_kernel", quick=quick))

    # softmax.py: _softmax_forward -> _softmax_single_block_forward_kernel (n_cols <= BLOCK_SIZE)
    for n in (4096, 32000):
        block, opts = calculate_settings(n)
        add(Config(LIB, f"softmax_fwd/{n}/fp32", softmax._softmax_single_block_forward_kernel, dict(
            Y_ptr=P("fp32"), Y_row_stride=n, X_ptr=P("fp32"), X_row_stride=n, n_cols=n, BLOCK_SIZE=block), opts,
            "liger_kernel/ops/softmax.py: _softmax_forward -> _softmax_single_block_forward_kernel"))
    # softmax.py: _softmax_backward -> _softmax_single_block_backward_kernel
    block, opts = calculate_settings(4096)
    add(Config(LIB, "softmax_bwd/4096/bf16", softmax._softmax_single_block_backward_kernel, dict(
        dy_ptr=P("bf16"), dy_stride=4096, y_ptr=P("bf16"), y_stride=4096, dx_ptr=P("bf16"), dx_stride=4096,
        n_cols=4096, BLOCK_SIZE=block), opts,
        "liger_kernel/ops/softmax.py: _softmax_backward -> _softmax_single_block_backward_kernel"))

    # kl_div.py: kldiv_forward_triton -> _kldiv_kernel_forward (BLOCK_SIZE = min(16384, next_pow2(V)))
    V = 128256
    block = min(65536 // 4, triton.next_power_of_2(V))
    add(Config(LIB, f"kl_div_fwd/V{V}/fp32", kl_div._kldiv_kernel_forward, dict(
        y_ptr=P("fp32"), y_stride=V, gt_ptr=P("fp32"), gt_stride=V, loss_ptr=P("fp32"), loss_stride=1, n_cols=V,
        eps=1e-10, BLOCK_SIZE=block, reduction=3, log_target=False), {"num_warps": 16},
        "liger_kernel/ops/kl_div.py: kldiv_forward_triton -> _kldiv_kernel_forward (batchmean)"))
    # dyt.py: liger_dyt_fwd -> _dyt_fwd_kernel (autotuned: the library's configs, a spread of them)
    for tc in spread(library_configs(dyt._dyt_fwd_kernel), 2):
        cx, opts = from_triton_config(tc)
        add(Config(LIB, f"dyt_fwd/4096/bf16/BLOCK_N{tc.kwargs['BLOCK_N']}w{tc.num_warps}", dyt._dyt_fwd_kernel, dict(
            X=P("bf16"), Y=P("bf16"), Alpha=P("bf16"), Gamma=P("bf16"), Beta=P("bf16"), HAVE_BETA=True, N=4096,
            **cx), opts, "liger_kernel/ops/dyt.py: liger_dyt_fwd -> _dyt_fwd_kernel (autotune config)"))

    # fused_moe.py: LigerFusedMoEFunction.forward -> _fused_up_proj_swiglu_kernel / _fused_down_proj_kernel
    # (grouped GEMMs with tl.dot; BLOCK_M = BLOCK_M_TOKEN = 64; autotuned over the library's 32 configs: a spread)
    H, I, E = 2048, 768, 128  # Qwen3-30B-A3B
    up = fused_moe_kernels._fused_up_proj_swiglu_kernel
    # (configs with 4-5 stages need 80-160 KiB of LDS here: more than gfx90a/gfx942 have, the autotuner drops them)
    fits = lambda tcs: [tc for tc in tcs if tc.num_stages <= 3]  # noqa: E731
    for j, tc in enumerate(spread(fits(library_configs(up)), 4)):
        cx, opts = from_triton_config(tc)
        add(Config(LIB, f"moe_up_proj_swiglu/H{H}I{I}/bf16/{_tc_name(tc)}", up, dict(
            x_ptr=P("bf16"), gate_up_proj_ptr=P("bf16"), x_gather_idx_ptr=P("i32"), expert_start_ptr=P("i32"),
            tile_row_start_ptr=P("i32"), tile_expert_ptr=P("i32"), pre_act_ptr=P("bf16"), post_act_ptr=P("bf16"),
            H_dim=H, I_dim=I, stride_x_T=H, stride_x_H=1, stride_w_E=2 * I * H, stride_w_N=H, stride_w_K=1,
            stride_pre_TK=2 * I, stride_pre_N=1, stride_post_TK=I, stride_post_N=1, BLOCK_M=64, **cx), opts,
            "liger_kernel/ops/fused_moe.py: LigerFusedMoEFunction.forward -> _fused_up_proj_swiglu_kernel",
            quick=(j == 1)))
    down = fused_moe_kernels._fused_down_proj_kernel
    for tc in spread(fits(library_configs(down)), 3):
        cx, opts = from_triton_config(tc)
        add(Config(LIB, f"moe_down_proj/H{H}I{I}/bf16/{_tc_name(tc)}", down, dict(
            post_act_ptr=P("bf16"), down_proj_ptr=P("bf16"), expert_start_ptr=P("i32"), tile_row_start_ptr=P("i32"),
            tile_expert_ptr=P("i32"), Y_ptr=P("bf16"), H_dim=H, I_dim=I, stride_post_TK=I, stride_post_I=1,
            stride_w_E=H * I, stride_w_H=I, stride_w_I=1, stride_Y_TK=H, stride_Y_H=1, BLOCK_M=64, **cx), opts,
            "liger_kernel/ops/fused_moe.py: LigerFusedMoEFunction.forward -> _fused_down_proj_kernel"))

    # fused_neighborhood_attention.py: fused_neighborhood_attention_forward -> _qk_kernel / _av_kernel (tl.dot;
    # num_stages / num_warps are the kernel's own constexpr arguments, so the compile keeps Triton's defaults)
    fna = fused_neighborhood_attention
    for B, Hh, S, D in [(2, 8, 1024, 64), (1, 12, 512, 128)]:
        block = triton.next_power_of_2(S)
        nw = 16 if block >= 8192 else 8 if block >= 2048 else 4
        bm, bn, bk = min(64, block), min(64, block), max(16, triton.next_power_of_2(D))
        ns = 4 if S >= 512 else 2
        st = dict(b=Hh * S * D, h=S * D, s=D, d=1)
        qk_st = dict(b=Hh * S * S, h=S * S, s=S, s2=1)
        add(Config(LIB, f"neighborhood_attn_qk/B{B}H{Hh}S{S}D{D}/fp16", fna._fused_neighborhood_attention_qk_kernel, dict(
            Q_ptr=P("fp16"), K_ptr=P("fp16"), QK_ptr=P("fp16"), mask_ptr=P("fp32"),
            q_batch_stride=st["b"], q_head_stride=st["h"], q_seq_stride=st["s"], q_dim_stride=1,
            k_batch_stride=st["b"], k_head_stride=st["h"], k_seq_stride=st["s"], k_dim_stride=1,
            qk_batch_stride=qk_st["b"], qk_head_stride=qk_st["h"], qk_seq_stride=qk_st["s"], qk_seq2_stride=1,
            batch_size=B, num_heads=Hh, seq_len=S, head_dim=D, scale=1.0 / math.sqrt(D), kernel_size=7, dilation=1,
            BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, num_stages=ns, num_warps=nw), {},
            "liger_kernel/ops/fused_neighborhood_attention.py: fused_neighborhood_attention_forward -> "
            "_fused_neighborhood_attention_qk_kernel", quick=(S == 1024)))
        add(Config(LIB, f"neighborhood_attn_av/B{B}H{Hh}S{S}D{D}/fp16", fna._fused_neighborhood_attention_av_kernel, dict(
            Attn_ptr=P("fp16"), V_ptr=P("fp16"), Out_ptr=P("fp16"),
            attn_batch_stride=qk_st["b"], attn_head_stride=qk_st["h"], attn_seq_stride=qk_st["s"], attn_seq2_stride=1,
            v_batch_stride=st["b"], v_head_stride=st["h"], v_seq_stride=st["s"], v_dim_stride=1,
            out_batch_stride=st["b"], out_head_stride=st["h"], out_seq_stride=st["s"], out_dim_stride=1,
            batch_size=B, num_heads=Hh, seq_len=S, head_dim=D, BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
            num_stages=ns, num_warps=nw), {},
            "liger_kernel/ops/fused_neighborhood_attention.py: fused_neighborhood_attention_forward -> "
            "_fused_neighborhood_attention_av_kernel"))
    return out


def _tc_name(tc) -> str:
    kw = "".join(f"{k.replace('BLOCK_', '')}{v}" for k, v in tc.kwargs.items())
    return f"{kw}w{tc.num_warps}s{tc.num_stages}"
