"""fla-core (flash-linear-attention's ops, fla/ops/...): the chunked gated delta rule (Qwen3-Next's Gated DeltaNet
layers) kernel by kernel, as chunk_gated_delta_rule_fwd launches them (cumsum of the gates, K K^T with beta,
the 64x64 triangular inverse, the WY representation, the chunk states, the output), plus the fused recurrent
decode kernel. Each kernel's own autotune list (read at run time) and @triton.heuristics (evaluated by the
harness) apply; chunk size BT = 64 as in the library. All launches are keyword launches, mirrored name for name.
"""
from __future__ import annotations

import triton

from harness import P, Config, from_triton_config, library_configs, spread

LIB = "fla"


def _tc(tc) -> str:
    kw = "".join(f"{k}{v}" for k, v in tc.kwargs.items() if k != "DOT_PRECISION")
    return f"{kw}w{tc.num_warps}s{tc.num_stages}"


def configs() -> list[Config]:
    import importlib
    m = {n: importlib.import_module("fla.ops." + n) for n in (
        "common.chunk_o", "common.chunk_delta_h", "common.chunk_scaled_dot_kkt", "gated_delta_rule.wy_fast",
        "gated_delta_rule.fused_recurrent", "utils.cumsum", "utils.solve_tril")}
    out: list[Config] = []
    add = out.append
    BT = 64
    shapes = [("qwen3-next", 1, 4096, 16, 32, 128, 128, 3), ("gdn-h8-d64", 2, 2048, 8, 8, 64, 64, 1)]
    for model, B, T, H, HV, K, V, n in shapes:
        first = model == "qwen3-next"
        # utils/cumsum.py: chunk_local_cumsum_scalar -> chunk_local_cumsum_scalar_kernel (gates, fp32)
        kern = m["utils.cumsum"].chunk_local_cumsum_scalar_kernel
        for tc in spread(library_configs(kern.fn), 2 if first else 1):
            cx, opts = from_triton_config(tc, kern)
            add(Config(LIB, f"cumsum_scalar/{model}/{_tc(tc)}", kern, dict(
                s=P("fp32"), o=P("fp32"), scale=None, cu_seqlens=None, chunk_indices=None, T=T, B=B, H=HV, BT=BT,
                REVERSE=False, USE_GRAPH=False, **cx), opts,
                "fla/ops/utils/cumsum.py: chunk_local_cumsum_scalar -> chunk_local_cumsum_scalar_kernel"))
        # common/chunk_scaled_dot_kkt.py: chunk_scaled_dot_kkt_fwd -> chunk_scaled_dot_kkt_fwd_kernel (A fp32)
        kern = m["common.chunk_scaled_dot_kkt"].chunk_scaled_dot_kkt_fwd_kernel
        for j, tc in enumerate(spread(library_configs(kern.fn), n)):
            cx, opts = from_triton_config(tc, kern)
            add(Config(LIB, f"scaled_dot_kkt/{model}/bf16/{_tc(tc)}", kern, dict(
                k=P("bf16"), g=P("fp32"), beta=P("bf16"), A=P("fp32"), cu_seqlens=None, chunk_indices=None, T=T,
                H=H, HV=HV, K=K, BT=BT, **cx), opts,
                "fla/ops/common/chunk_scaled_dot_kkt.py: chunk_scaled_dot_kkt_fwd -> chunk_scaled_dot_kkt_fwd_kernel",
                quick=(first and j == 1)))
        # utils/solve_tril.py: solve_tril (BT = 64) -> merge_16x16_to_64x64_inverse_kernel (fp32 'ieee' dots;
        # USE_TMA = IS_TMA_SUPPORTED, False on AMD, and mirrored False on cuda:90 too)
        kern = m["utils.solve_tril"].merge_16x16_to_64x64_inverse_kernel
        for tc in spread(library_configs(kern.fn), n):
            cx, opts = from_triton_config(tc, kern)
            add(Config(LIB, f"solve_tril_64/{model}/{_tc(tc)}", kern, dict(
                A=P("fp32"), Ai=P("bf16"), cu_seqlens=None, chunk_indices=None, T=T, H=HV, BT=BT, USE_TMA=False,
                **cx), opts, "fla/ops/utils/solve_tril.py: solve_tril -> merge_16x16_to_64x64_inverse_kernel"))
        # gated_delta_rule/wy_fast.py: recompute_w_u_fwd -> recompute_w_u_fwd_kernel (BK = BV = 64)
        kern = m["gated_delta_rule.wy_fast"].recompute_w_u_fwd_kernel
        for tc in spread(library_configs(kern.fn), n):
            cx, opts = from_triton_config(tc, kern)
            add(Config(LIB, f"recompute_w_u/{model}/bf16/{_tc(tc)}", kern, dict(
                k=P("bf16"), v=P("bf16"), beta=P("bf16"), w=P("bf16"), u=P("bf16"), A=P("bf16"), g=P("fp32"),
                cu_seqlens=None, chunk_indices=None, T=T, H=H, HV=HV, K=K, V=V, BT=BT, BK=64, BV=64, **cx), opts,
                "fla/ops/gated_delta_rule/wy_fast.py: recompute_w_u_fwd -> recompute_w_u_fwd_kernel"))
        # common/chunk_delta_h.py: chunk_gated_delta_rule_fwd_h -> chunk_gated_delta_rule_fwd_kernel_h_blockdim64
        # (initial state given, final state stored, v_new saved)
        kern = m["common.chunk_delta_h"].chunk_gated_delta_rule_fwd_kernel_h_blockdim64
        for j, tc in enumerate(spread(library_configs(kern.fn), 2 if first else 1)):
            cx, opts = from_triton_config(tc, kern)
            add(Config(LIB, f"chunk_delta_h/{model}/bf16/{_tc(tc)}", kern, dict(
                k=P("bf16"), v=P("bf16"), w=P("bf16"), v_new=P("bf16"), g=P("fp32"), gk=None, h=P("bf16"),
                h0=P("fp32"), ht=P("fp32"), cu_seqlens=None, chunk_offsets=None, T=T, H=H, HV=HV, K=K, V=V, BT=BT,
                STATE_V_FIRST=False, **cx), opts,
                "fla/ops/common/chunk_delta_h.py: chunk_gated_delta_rule_fwd_h -> "
                "chunk_gated_delta_rule_fwd_kernel_h_blockdim64", quick=(first and j == 0)))
        # common/chunk_o.py: chunk_fwd_o -> chunk_fwd_kernel_o (gated: g given)
        kern = m["common.chunk_o"].chunk_fwd_kernel_o
        for j, tc in enumerate(library_configs(kern.fn) if first else spread(library_configs(kern.fn), 1)):
            cx, opts = from_triton_config(tc, kern)
            add(Config(LIB, f"chunk_o/{model}/bf16/{_tc(tc)}", kern, dict(
                q=P("bf16"), k=P("bf16"), v=P("bf16"), h=P("bf16"), g=P("fp32"), g_gamma=None, o=P("bf16"),
                cu_seqlens=None, chunk_indices=None, scale=K ** -0.5, T=T, H=H, HV=HV, K=K, V=V, BT=BT,
                STATE_V_FIRST=False, **cx), opts, "fla/ops/common/chunk_o.py: chunk_fwd_o -> chunk_fwd_kernel_o",
                quick=(first and j == 1)))
        # gated_delta_rule/fused_recurrent.py: fused_recurrent_gated_delta_rule_fwd -> ..._fwd_kernel (decode,
        # T = 1; BK = next_pow2(K), BV = min(8, next_pow2(V)), num_warps=1, num_stages=3; q/k L2-normed in kernel)
        kern = m["gated_delta_rule.fused_recurrent"].fused_recurrent_gated_delta_rule_fwd_kernel
        add(Config(LIB, f"fused_recurrent_decode/{model}/bf16", kern, dict(
            q=P("bf16"), k=P("bf16"), v=P("bf16"), g=P("fp32"), gk=None, gv=None, beta=P("bf16"), A_log=None,
            dt_bias=None, o=P("bf16"), h0=P("fp32"), ht=P("fp32"), cu_seqlens=None, scale=K ** -0.5, T=1, H=H, HV=HV,
            K=K, V=V, BK=triton.next_power_of_2(K), BV=min(8, triton.next_power_of_2(V)), IS_BETA_HEADWISE=True,
            USE_QK_L2NORM_IN_KERNEL=True, APPLY_BETA_SIGMOID=False, ALLOW_NEG_EIGVAL=False, STATE_V_FIRST=False),
            {"num_warps": 1, "num_stages": 3},
            "fla/ops/gated_delta_rule/fused_recurrent.py: fused_recurrent_gated_delta_rule_fwd -> "
            "fused_recurrent_gated_delta_rule_fwd_kernel"))
    return out
