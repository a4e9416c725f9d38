"""flag-gems (flag_gems/ops/*.py) with its AMD backend (GEMS_VENDOR=amd: flag_gems/runtime/backend/_amd's
tune_configs.yaml and heuristics): the kernels its ATen operators launch, with the library's own tuned configs
(read from the kernels' libtuner/autotune objects at run time) and its heuristics (evaluated by the harness).
"""
from __future__ import annotations

import importlib

from harness import C, P, Config, from_triton_config, library_configs, spread

LIB = "flag_gems"


def _ops(name):
    return importlib.import_module(f"flag_gems.ops.{name}")


def _tc(tc) -> str:
    kw = "".join(f"{k.replace('BLOCK_', '').replace('TILE_', '').replace('SIZE_', '')}{int(v)}"
                 for k, v in tc.kwargs.items())
    return f"{kw}w{tc.num_warps}s{tc.num_stages}"


def configs() -> list[Config]:
    out: list[Config] = []
    add = out.append

    # mm.py: general_mm -> mm_kernel_general (libtuner over the AMD "mm" configs; GROUP_M=8 from the launch)
    mm = _ops("mm")
    M = N = K = 4096
    tcs = library_configs(mm.mm_kernel_general.fn)
    for dt, picks in (("fp16", spread(tcs, 6)), ("bf16", spread(tcs, 2)), ("fp32", [tcs[1]])):
        for j, tc in enumerate(picks):
            cx, opts = from_triton_config(tc, mm.mm_kernel_general)
            add(Config(LIB, f"mm/{M}x{N}x{K}/{dt}/{_tc(tc)}", mm.mm_kernel_general, dict(
                A=P(dt), B=P(dt), C=P(dt), M=M, N=N, K=K, stride_am=K, stride_ak=1, stride_bk=N, stride_bn=1,
                stride_cm=N, stride_cn=1, GROUP_M=8, **cx), opts,
                "flag_gems/ops/mm.py: general_mm -> mm_kernel_general (libtuner config)",
                quick=(dt == "fp16" and j == 1)))
    # mm.py, decode shape (M = 16 tokens): the same kernel, the small-M configs of the list
    for tc in [t for t in tcs if t.kwargs["BLOCK_M"] == 16][:2]:
        cx, opts = from_triton_config(tc, mm.mm_kernel_general)
        add(Config(LIB, f"mm/16x4096x4096/bf16/{_tc(tc)}", mm.mm_kernel_general, dict(
            A=P("bf16"), B=P("bf16"), C=P("bf16"), M=16, N=4096, K=4096, stride_am=4096, stride_ak=1,
            stride_bk=4096, stride_bn=1, stride_cm=4096, stride_cn=1, GROUP_M=8, **cx), opts,
            "flag_gems/ops/mm.py: general_mm -> mm_kernel_general (libtuner config, decode M)"))

    # bmm.py: bmm -> bmm_kernel (libtuner over the AMD "bmm" configs; DIVISIBLE_* from the AMD heuristics)
    bmm = _ops("bmm")
    for Bt, M, N, K, dt in ((16, 1024, 1024, 128, "fp16"), (32, 512, 128, 512, "bf16")):
        for tc in spread(library_configs(bmm.bmm_kernel.fn), 3):
            cx, opts = from_triton_config(tc, bmm.bmm_kernel)
            add(Config(LIB, f"bmm/{Bt}x{M}x{N}x{K}/{dt}/{_tc(tc)}", bmm.bmm_kernel, dict(
                A=P(dt), B=P(dt), O=P(dt), M=M, N=N, K=K, stride_ab=M * K, stride_am=K, stride_ak=1, stride_bb=K * N,
                stride_bk=N, stride_bn=1, stride_ob=M * N, stride_om=N, stride_on=1, **cx), opts,
                "flag_gems/ops/bmm.py: bmm -> bmm_kernel (libtuner config + heuristics)"))

    # addmm.py: addmm -> addmm_kernel (bias broadcast over rows: stride_im = 0)
    addmm = _ops("addmm")
    for j, tc in enumerate(spread(library_configs(addmm.addmm_kernel.fn), 3)):
        cx, opts = from_triton_config(tc, addmm.addmm_kernel)
        add(Config(LIB, f"addmm/4096x4096x4096/fp16/{_tc(tc)}", addmm.addmm_kernel, dict(
            a_ptr=P("fp16"), b_ptr=P("fp16"), i_ptr=P("fp16"), c_ptr=P("fp16"), alpha=1.0, beta=1.0, M=4096,
            N=4096, K=4096, stride_am=4096, stride_ak=1, stride_bk=4096, stride_bn=1, stride_im=0, stride_in=1,
            stride_cm=4096, stride_cn=1, **cx), opts,
            "flag_gems/ops/addmm.py: addmm -> addmm_kernel (libtuner config)", quick=(j == 1)))

    # attention.py: scaled_dot_product_attention_forward -> _attn_fwd (libtuner over the AMD "attention" configs
    # plus the library's SMALL_HEAD_DIM_CONFIGS; STAGE 3 = causal)
    attn = _ops("attention")
    tcs = library_configs(attn._attn_fwd.fn)
    for Z, Hq, Hkv, S, D, causal, n in ((1, 32, 8, 4096, 128, True, 4), (2, 16, 16, 2048, 64, False, 3)):
        for j, tc in enumerate(spread([t for t in tcs if t.kwargs["BLOCK_N"] <= D], n)):
            cx, opts = from_triton_config(tc, attn._attn_fwd)
            st = dict(b=Hq * S * D, h=S * D, s=D)
            kv = dict(b=Hkv * S * D, h=S * D, s=D)
            add(Config(LIB, f"sdpa_fwd/H{Hq}-{Hkv}S{S}D{D}{'c' if causal else ''}/bf16/{_tc(tc)}", attn._attn_fwd, dict(
                Q=P("bf16"), K=P("bf16"), V=P("bf16"), attn_mask=None, sm_scale=D ** -0.5, M=P("fp32"), Out=P("bf16"),
                stride_q_batch=st["b"], stride_q_head=st["h"], stride_q_seqlen=st["s"], stride_q_headsize=1,
                stride_k_batch=kv["b"], stride_k_head=kv["h"], stride_k_seqlen=kv["s"], stride_k_headsize=1,
                stride_v_batch=kv["b"], stride_v_head=kv["h"], stride_v_seqlen=kv["s"], stride_v_headsize=1,
                stride_attn_mask_batch=1, stride_attn_mask_head=1, stride_attn_mask_q_seqlen=1,
                stride_attn_mask_kv_seqlen=1, stride_o_batch=st["b"], stride_o_head=st["h"],
                stride_o_seqlen=st["s"], stride_o_headsize=1, Z=Z, q_head_num=Hq, kv_head_num=Hkv,
                GROUP_HEAD=Hq // Hkv, Q_CTX=S, KV_CTX=S, HEAD_DIM=D, STAGE=3 if causal else 1, HAS_ATTN_MASK=False,
                **cx), opts,
                "flag_gems/ops/attention.py: scaled_dot_product_attention_forward -> _attn_fwd (libtuner config)",
                quick=(causal and j == 1)))

    # softmax.py: softmax (dim = last, K == 1) -> softmax_kernel_inner (TILE_N, ONE_TILE_PER_CTA, num_warps from
    # the AMD heuristics)
    sm = _ops("softmax")
    for N, dt in ((4096, "fp16"), (32000, "fp32"), (128256, "bf16")):
        add(Config(LIB, f"softmax_inner/N{N}/{dt}", sm.softmax_kernel_inner, dict(
            output_ptr=P(dt), input_ptr=P(dt), M=8192, N=N), {},
            "flag_gems/ops/softmax.py: softmax -> softmax_kernel_inner (heuristics)", quick=(N == 4096)))

    # rms_norm.py: rms_norm_forward -> rms_norm_kernel (N <= 4096) / rms_norm_loop_kernel (autotuned, N > 4096)
    rn = _ops("rms_norm")
    for N in (2048, 4096):
        add(Config(LIB, f"rms_norm/N{N}/bf16", rn.rms_norm_kernel, dict(
            out_ptr=P("bf16"), INV_RMS=P("fp32"), in_ptr=P("bf16"), w_ptr=P("bf16"), y_stride_r=N, y_stride_c=1,
            x_stride_r=N, x_stride_c=1, N=N, eps=1e-6, BLOCK_SIZE=N), {},
            "flag_gems/ops/rms_norm.py: rms_norm_forward -> rms_norm_kernel"))
    for tc in spread(library_configs(rn.rms_norm_loop_kernel.fn), 2):
        cx, opts = from_triton_config(tc, rn.rms_norm_loop_kernel)
        add(Config(LIB, f"rms_norm_loop/N8192/bf16/{_tc(tc)}", rn.rms_norm_loop_kernel, dict(
            out_ptr=P("bf16"), INV_RMS=P("fp32"), in_ptr=P("bf16"), w_ptr=P("bf16"), N=8192, eps=1e-6, **cx), opts,
            "flag_gems/ops/rms_norm.py: rms_norm_forward -> rms_norm_loop_kernel (autotune config)"))

    # layernorm.py: layer_norm -> layer_norm_persistent_kernel (N <= 4096, autotuned) / layer_norm_loop_kernel
    ln = _ops("layernorm")
    for tc in spread(library_configs(ln.layer_norm_persistent_kernel.fn), 2):
        cx, opts = from_triton_config(tc, ln.layer_norm_persistent_kernel)
        add(Config(LIB, f"layer_norm_persistent/N4096/fp16/{_tc(tc)}", ln.layer_norm_persistent_kernel, dict(
            in_ptr=P("fp16"), out_ptr=P("fp16"), weight_ptr=P("fp16"), bias_ptr=P("fp16"), out_mean_ptr=P("fp32"),
            out_rstd_ptr=P("fp32"), M=8192, N=4096, eps=1e-5, TILE_N=4096, **cx), opts,
            "flag_gems/ops/layernorm.py: layer_norm -> layer_norm_persistent_kernel (autotune config)"))
    for tc in spread(library_configs(ln.layer_norm_loop_kernel.fn), 2):
        cx, opts = from_triton_config(tc, ln.layer_norm_loop_kernel)
        add(Config(LIB, f"layer_norm_loop/N8192/bf16/{_tc(tc)}", ln.layer_norm_loop_kernel, dict(
            in_ptr=P("bf16"), out_ptr=P("bf16"), weight_ptr=P("bf16"), bias_ptr=P("bf16"), out_mean_ptr=P("fp32"),
            out_rstd_ptr=P("fp32"), M=8192, N=8192, eps=1e-5, **cx), opts,
            "flag_gems/ops/layernorm.py: layer_norm -> layer_norm_loop_kernel (autotune config)"))
    return out
