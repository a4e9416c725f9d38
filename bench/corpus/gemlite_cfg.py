"""gemlite (gemlite/triton_kernels/gemm_kernels.py): low-bit GEMMs (packed int weights dequantized in the main
loop before tl.dot), as gemm_forward launches gemm_INT_kernel on AMD (gemlite's IS_HIP config list, "fast"
autotune setting: get_fast_autotune_config_amd), each config passed through gemlite's own pruner
(kernel_config_pruner: BLOCK_SIZE_M adapted to M, stages to the shared memory, waves_per_eu and
matrix_instr_nonkdim=16 as compile options). AMD targets only: on NVIDIA gemlite launches another config list.

The quantisation settings are those GemLiteLinearTriton computes (core.py) for:
  A16W4: fp16 activations, 4-bit weights packed 8 per int32, group 128, scales and zeros (W_group_mode 3);
  A16W8: fp16 activations, int8 weights (one per element), channel-wise scales (channel_scale_mode 1);
  A8W8:  int8 activations and weights, int32 accumulation, channel-wise weight and per-row activation scales
         (channel_scale_mode 3).
"""
from __future__ import annotations

import triton.language as tl

from harness import C, P, Config, from_triton_config, spread

LIB = "gemlite"
AMD = ("gfx90a", "gfx942", "gfx950")


def configs() -> list[Config]:
    from gemlite.triton_kernels import gemm_kernels as gk
    from gemlite.triton_kernels.utils import get_closest_m

    kern = gk.gemm_INT_kernel
    amd_list = gk.get_fast_autotune_config_amd()
    out: list[Config] = []
    N = K = 4096
    settings = {
        # name: (input dtype id, W_nbits, group, elements_per_sample, W_q dtype, a_sizeof, b_sizeof, act/out dtype,
        #        acc, channel_scale_mode, W_group_mode, data_contiguous)
        "A16W4": (1, 4, 128, 8, "i32", 2, 4, "fp16", tl.float32, 0, 3, True),
        "A16W8": (1, 8, K, 1, "i8", 2, 1, "fp16", tl.float32, 1, 0, False),
        "A8W8": (4, 8, K, 1, "i8", 1, 1, "i8", tl.int32, 3, 0, False),
    }
    TT = {"fp16": tl.float16, "i8": tl.int8}
    for qname, (in_id, nbits, g, e, wq, asz, bsz, adt, acc, csm, wgm, contig) in settings.items():
        out_dt = "fp16"
        for M, n in ((16, 2), (1024, 3)):
            nargs = dict(M=M, N=N, K=K, group_size=g, elements_per_sample=e, type_id=in_id * 100 + nbits,
                         a_sizeof=asz, b_sizeof=bsz)
            pruned = list(gk.kernel_config_pruner(amd_list, nargs, load_scales_as_block=False,
                                                  channel_scale_mode=csm))
            for j, tc in enumerate(spread(pruned, n)):
                cx, opts = from_triton_config(tc, kern)
                name = "".join(f"{k.replace('BLOCK_SIZE_', '')}{v}" for k, v in tc.kwargs.items()
                               if k.startswith("BLOCK")) + f"w{tc.num_warps}s{tc.num_stages}"
                name += f"wpe{opts.get('waves_per_eu', 0)}"
                if contig:  # W_q packed (K / e, N), contiguous
                    sbk, sbn = N, 1
                else:  # W_q (N, K).t(): column-major
                    sbk, sbn = 1, K
                groups = K // g
                if csm == 0:  # group-wise scales / zeros: (N, K/g).t()
                    meta = dict(scales_ptr=P("fp16"), zeros_ptr=P("fp16"), stride_meta_g=1, stride_meta_n=groups)
                else:  # channel-wise scales (1, N); no zeros: core.py passes an empty int32 tensor
                    meta = dict(scales_ptr=P("fp16"), zeros_ptr=P("i32"), stride_meta_g=1, stride_meta_n=1)  # zeros: torch.tensor([[]], int32)
                act_scales = (dict(scales_a_ptr=P("fp32"), stride_meta_a_m=1, stride_meta_a_g=1) if csm == 3 else
                              dict(scales_a_ptr=None, stride_meta_a_m=None, stride_meta_a_g=None))
                out.append(Config(LIB, f"gemm_{qname}/M{M}/{name}", kern, dict(
                    a_ptr=P(adt), b_ptr=P(wq), c_ptr=P(out_dt), M=M, N=N, K=K, M_CLOSEST=get_closest_m(M),
                    W_nbits=nbits, group_size=g, unpack_mask=2 ** nbits - 1, elements_per_sample=e,
                    type_id=in_id * 100 + nbits, a_sizeof=asz, b_sizeof=bsz, stride_am=K, stride_ak=1,
                    stride_bk=sbk, stride_bn=sbn, stride_cm=N, stride_cn=1, load_scales_as_block=False,
                    input_dtype=TT[adt], output_dtype=tl.float16, acc_dtype=acc,
                    meta_dtype=tl.float16, channel_scale_mode=csm, W_group_mode=wgm, zero_is_scalar=False,
                    data_contiguous=contig, use_tma=False, use_5d_scales=False, meta_scale_norm_ptr=None,
                    warp_specialize=False, **meta, **act_scales, **cx), opts,
                    "gemlite/triton_kernels/gemm_kernels.py: gemm_forward -> gemm_INT_kernel "
                    "(get_fast_autotune_config_amd through kernel_config_pruner)", archs=AMD,
                    quick=(qname == "A16W4" and M == 16 and j == 0)))
    return out
