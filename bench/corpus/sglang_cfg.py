"""SGLang (sglang/srt/layers/...): kernels whose launch options AMD engineers tuned, as SGLang's ROCm build launches
them on an MI300X (`_is_hip` branches; the device answers come from _shim.no_gpu + rocm_torch):

  - attention/triton_ops/decode_attention.py, the triton attention backend's decode (triton_backend.py):
    grouped stage 1 (GQA/MLA: BLOCK_N 32, 16 for Lk >= 576; num_stages 1, waves_per_eu 1, matrix_instr_nonkdim 16,
    kpack 2 under HIP), the MHA stage 1 (BLOCK_N 8 under HIP, "work around SGPR limit on MI3xx"), stage 2 (the
    split-KV reduction: waves_per_eu 4, matrix_instr_nonkdim 16, kpack 2 under HIP); max_kv_splits = 16
    (ServerArgs._handle_amd_specifics);
  - attention/triton_ops/extend_attention.py: extend_attention_fwd -> _fwd_kernel (prefill with a cached prefix;
    block sizes from the library's _get_block_sizes_for_extend_attention, HIP: 64x64, 4 warps; num_stages 1,
    waves_per_eu 1, matrix_instr_nonkdim 16, kpack 2; STORE_TRANSPOSE under HIP);
  - attention/triton_ops/prefill_attention.py: context_attention_fwd -> _fwd_kernel (the vision encoders'
    attention, layers/attention/vision.py; BLOCK 128 where the module's CUDA_CAPABILITY, (9, 4) on an MI300X, is > 8);
  - moe/fused_moe_triton: invoke_fused_moe_kernel -> fused_moe_kernel, the up (w1) and down (w2) projections of
    fused_experts, with the config SGLang's own lookup picks (fused_moe_triton_config.get_moe_configs: the JSON for
    `device_name=AMD_Instinct_MI300X` read from the installed package, the entry whose batch size is closest to M, as
    try_get_optimal_moe_config picks it; its num_warps, num_stages, waves_per_eu, matrix_instr_nonkdim, kpack are
    compile options, as `**config` makes them at launch).

What is imported how (sglang 0.5.5.post3, bench/corpus/requirements*.txt):
  - the attention modules and the MoE config module are SGLang's own, imported under rocm_torch() (so their
    module-level `_is_hip` is True, as on ROCm); the config module is loaded from its file because its package's
    __init__ (fused_moe_triton/__init__.py -> fused_moe.py) imports sgl_kernel and vllm._custom_ops under HIP;
  - fused_moe_triton_kernels.py cannot be imported on this machine at all: its imports reach
    layers/quantization/fp8_kernel.py, which under HIP requires `vllm._C` (or aiter), and on any other platform
    layers/moe/moe_runner/deep_gemm.py, which requires sgl_kernel's CUDA build. Its @triton.jit functions are
    therefore compiled from the installed file's own source (`_jit_from_file`: the named functions and the jit
    functions they call, at their line numbers, in a namespace holding only triton and triton.language); a
    function that uses any other module-level name is refused, so the kernels are exactly the library's.
AMD targets only (the options are the HIP branch's; on CUDA SGLang launches other block sizes). fp8 MoE configs on
gfx942 only: the MI300X's JSON with its fp8 type (e4m3fnuz, what fp8_kernel.py picks for gfx94x).
"""
from __future__ import annotations

import ast
import builtins
import importlib
import importlib.util
import os
import sys
import types

import triton
import triton.language as tl

from _shim import rocm_torch
from harness import C, P, Config

LIB = "sglang"
AMD = ("gfx90a", "gfx942", "gfx950")
DEVICE = "AMD Instinct MI300X"  # what no_gpu's torch.cuda.get_device_name answers; the JSON configs are keyed by it


def _sglang_file(rel: str) -> str:
    import sglang
    path = os.path.join(os.path.dirname(sglang.__file__), rel)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"sglang {getattr(sglang, '__version__', '?')} has no {rel} (the corpus mirrors "
                                f"sglang 0.5.5.post3's layout: pip install --no-deps -r bench/corpus/requirements-nodeps.txt)")
    return path


def _module_from_file(rel: str, name: str):
    """A module of SGLang's loaded from its file (its package's __init__ is not run)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, _sglang_file(rel))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    except BaseException:
        del sys.modules[name]
        raise
    return mod


def _jit_from_file(rel: str, names: list[str]) -> dict:
    """The @triton.jit functions `names` of SGLang's file `rel` (and the @triton.jit functions of that file they call),
    compiled from the file's source at their own line numbers, in a module whose only other names are the file's
    `import triton` / `import triton.language as tl`. Raises where a function needs anything else."""
    path = _sglang_file(rel)
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    jit = {k for k, n in defs.items() if any(ast.unparse(d) in ("triton.jit", "jit") for d in n.decorator_list)}
    env_imports = [n for n in tree.body if isinstance(n, ast.Import) and all(a.name in ("triton", "triton.language")
                                                                             for a in n.names)]
    env = {a.asname or a.name.split(".")[0] for n in env_imports for a in n.names}
    if env != {"triton", "tl"}:
        raise ValueError(f"{rel}: expected `import triton` and `import triton.language as tl`, found {sorted(env)}")
    need, todo = [], list(names)
    while todo:
        name = todo.pop()
        if name in need:
            continue
        if name not in jit:
            raise ValueError(f"{rel}: no @triton.jit function {name}")
        fn = defs[name]
        local = {a.arg for a in fn.args.args + fn.args.kwonlyargs}
        local |= {x.id for x in ast.walk(fn) if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Store)}
        free = {x.id for x in ast.walk(fn) if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Load)}
        free -= local | env | set(dir(builtins))
        other = free - jit
        if other:
            raise ValueError(f"{rel}: {name} uses module-level names {sorted(other)}: it cannot be compiled alone")
        need.append(name)
        todo += sorted(free)
    future = [n for n in tree.body if isinstance(n, ast.ImportFrom) and n.module == "__future__"]
    body = future + env_imports + [defs[n] for n in sorted(need, key=lambda n: defs[n].lineno)]
    code = compile(ast.Module(body=body, type_ignores=[]), path, "exec")  # line numbers kept: getsource reads the file
    mod = types.ModuleType("sglang_corpus." + rel.replace("/", ".").removesuffix(".py"))
    mod.__file__ = path
    sys.modules[mod.__name__] = mod
    exec(code, mod.__dict__)
    return {n: getattr(mod, n) for n in names}


# ---------------------------------------------------------------------------------------------- attention

# (model, q heads, kv heads, Lk, Lv, logit_cap) per attention layer, heads per GPU. Llama-3-70B and DeepSeek-V3 at
# TP8 (one MI300X node); DeepSeek-V3's MLA absorbed for decode: one latent KV head of 576 (512 + rope 64), V = the
# first 512 (MLATokenToKVPool.get_value_buffer: a view, row stride 576).
DECODE = [
    ("llama3-8b", 32, 8, 128, 128, 0.0),
    ("llama3-70b-tp8", 8, 1, 128, 128, 0.0),
    ("qwen2.5-7b", 28, 4, 128, 128, 0.0),
    ("grok1-tp8", 6, 1, 128, 128, 30.0),
    ("deepseek-v3-mla-tp8", 16, 1, 576, 512, 0.0),
]
MHA_DECODE = [("llama2-7b", 32, 128), ("qwen1.5-moe", 16, 128)]
EXTEND = [
    # (model, q heads, kv heads, Lq, Lv, sliding window, sinks, KV-cache row strides (K, V) or None: (kv heads * L, L))
    ("llama3-8b", 32, 8, 128, 128, -1, False, None),
    ("gpt-oss-20b-swa", 64, 8, 64, 64, 127, True, None),  # gpt_oss.py: window config.sliding_window - 1; bf16 sinks
    # DeepSeek-V3 at TP8 (deepseek_v2.py, handle_attention_triton): an extend without a cached prefix runs MHA
    # (q/k 192 = 128 + rope 64, v 128, kv_group_num 1), one with a prefix the absorbed MLA (one latent head of 576,
    # v 512); the KV cache is the MLA pool's either way ((slots, 1, 576), V a view of its first 512: row stride 576)
    ("deepseek-v3-mha-tp8", 16, 16, 192, 128, -1, False, ((576, 576), (576, 576))),
    ("deepseek-v3-mla-prefix-tp8", 16, 1, 576, 512, -1, False, ((576, 576), (576, 576))),
]
VISION = [("qwen2.5-vl-vit", 16, 80), ("internvit-6b", 25, 128)]  # (encoder, heads, head dim): non-causal


def _attention(dec, ext, pre, max_kv_splits: int) -> list[Config]:
    out: list[Config] = []
    add = out.append
    hip = {"waves_per_eu": 1, "matrix_instr_nonkdim": 16, "kpack": 2}  # decode stage 1 and extend under _is_hip
    assert dec._is_hip and ext._is_hip, "sglang's attention modules were not imported as on ROCm"
    S = max_kv_splits
    for model, H, KVH, Lk, Lv, cap in DECODE:
        g = H // KVH
        # decode_attention.py: _decode_grouped_att_m_fwd -> _fwd_grouped_kernel_stage1
        block = 16 if Lk >= 576 else 32
        dmodel, dpe = {576: (512, 64), 288: (256, 32)}.get(Lk, (triton.next_power_of_2(Lk), 0))
        q_row, kv_row = (H * Lk, Lk), ((KVH * Lk, Lk) if Lk != 576 else (576, 576))
        v_row = (KVH * Lv, Lv) if Lk != 576 else (576, 576)
        add(Config(LIB, f"decode_grouped_stage1/{model}", dec._fwd_grouped_kernel_stage1, dict(
            Q=P("bf16"), K_Buffer=P("bf16"), V_Buffer=P("bf16"), sm_scale=Lk ** -0.5, kv_indptr=P("i32"),
            kv_indices=P("i64"), Att_Out=P("fp32"), Att_Lse=P("fp32"), num_kv_splits=P("i32"),
            stride_qbs=q_row[0], stride_qh=q_row[1], stride_buf_kbs=kv_row[0], stride_buf_kh=kv_row[1],
            stride_buf_vbs=v_row[0], stride_buf_vh=v_row[1], stride_mid_ob=H * S * Lv, stride_mid_oh=S * Lv,
            stride_mid_os=Lv, kv_group_num=g, q_head_num=H, BLOCK_DMODEL=dmodel, BLOCK_DPE=dpe,
            BLOCK_DV=triton.next_power_of_2(Lv), BLOCK_N=block, BLOCK_H=16, MIN_BLOCK_KV=dec._MIN_BLOCK_KV,
            logit_cap=cap, xai_temperature_len=-1, Lk=Lk, Lv=Lv),
            dict(num_warps=4, num_stages=1, **hip),
            "sglang/srt/layers/attention/triton_ops/decode_attention.py: decode_attention_fwd_grouped -> "
            "_decode_grouped_att_m_fwd -> _fwd_grouped_kernel_stage1 (HIP options)", archs=AMD,
            quick=model == "llama3-8b"))
    for model, H, Lv, sinks in [("llama3-8b", 32, 128, False), ("deepseek-v3-mla-tp8", 16, 512, False),
                                ("gpt-oss-20b", 64, 64, True)]:
        # decode_attention.py: _decode_softmax_reducev_fwd -> _fwd_kernel_stage2 (o: (bs, H, Lv))
        add(Config(LIB, f"decode_stage2/{model}", dec._fwd_kernel_stage2, dict(
            Mid_O=P("fp32"), Mid_O_1=P("fp32"), O=P("bf16"), kv_indptr=P("i32"), num_kv_splits=P("i32"),
            sink_ptr=P("bf16") if sinks else None, stride_mid_ob=H * S * Lv, stride_mid_oh=S * Lv, stride_mid_os=Lv,
            stride_obs=H * Lv, stride_oh=Lv, MAX_KV_SPLITS=S, MIN_BLOCK_KV=dec._MIN_BLOCK_KV,
            BLOCK_DV=triton.next_power_of_2(Lv), Lv=Lv, HAS_SINK=sinks),
            dict(num_warps=4, num_stages=2, waves_per_eu=4, matrix_instr_nonkdim=16, kpack=2),
            "sglang/srt/layers/attention/triton_ops/decode_attention.py: _decode_softmax_reducev_fwd -> "
            "_fwd_kernel_stage2 (HIP options)", archs=AMD, quick=model == "llama3-8b"))
    for model, H, D in MHA_DECODE:
        # decode_attention.py: _decode_att_m_fwd -> _fwd_kernel_stage1 (kv_group_num 1: BLOCK 8 and 4 warps under HIP)
        add(Config(LIB, f"decode_mha_stage1/{model}", dec._fwd_kernel_stage1, dict(
            Q=P("bf16"), K_Buffer=P("bf16"), V_Buffer=P("bf16"), sm_scale=D ** -0.5, kv_indptr=P("i32"),
            kv_indices=P("i64"), Att_Out=P("fp32"), Att_Lse=P("fp32"), num_kv_splits=P("i32"),
            stride_qbs=H * D, stride_qh=D, stride_buf_kbs=H * D, stride_buf_kh=D, stride_buf_vbs=H * D,
            stride_buf_vh=D, stride_mid_ob=H * S * D, stride_mid_oh=S * D, stride_mid_os=D, kv_group_num=1,
            BLOCK_DMODEL=triton.next_power_of_2(D), BLOCK_DV=triton.next_power_of_2(D), BLOCK_N=8,
            MIN_BLOCK_KV=dec._MIN_BLOCK_KV, logit_cap=0.0, xai_temperature_len=-1, Lk=D, Lv=D),
            dict(num_warps=4, num_stages=2),
            "sglang/srt/layers/attention/triton_ops/decode_attention.py: decode_attention_fwd_normal -> "
            "_decode_att_m_fwd -> _fwd_kernel_stage1 (HIP block size)", archs=AMD))
    for model, H, KVH, Lq, Lv, window, sinks, bufs in EXTEND:
        # extend_attention.py: extend_attention_fwd -> _fwd_kernel (causal, no custom mask; triton_backend.py's
        # forward_extend: q/k/v/o contiguous (tokens, heads, L); window_kv_offsets is set only for target-verify,
        # None in a plain extend)
        dmodel, dpe, dv, bm, bn, warps = ext._get_block_sizes_for_extend_attention(Lq, Lv)
        (kbs, kh), (vbs, vh) = bufs or ((KVH * Lq, Lq), (KVH * Lv, Lv))
        add(Config(LIB, f"extend/{model}", ext._fwd_kernel, dict(
            Q_Extend=P("bf16"), K_Extend=P("bf16"), V_Extend=P("bf16"), O_Extend=P("bf16"), K_Buffer=P("bf16"),
            V_Buffer=P("bf16"), qo_indptr=P("i32"), kv_indptr=P("i32"), kv_indices=P("i64"), mask_ptr=None,
            mask_indptr=None, sink_ptr=P("bf16") if sinks else None, window_kv_offset_ptr=None,
            sm_scale=Lq ** -0.5, kv_group_num=H // KVH, stride_qbs=H * Lq, stride_qh=Lq, stride_kbs=KVH * Lq,
            stride_kh=Lq, stride_vbs=KVH * Lv, stride_vh=Lv, stride_obs=H * Lv, stride_oh=Lv, stride_buf_kbs=kbs,
            stride_buf_kh=kh, stride_buf_vbs=vbs, stride_buf_vh=vh, SLIDING_WINDOW_SIZE=window, logit_cap=0.0,
            xai_temperature_len=-1, Lq=Lq, Lv=Lv, BLOCK_DMODEL=dmodel, BLOCK_DPE=dpe, BLOCK_DV=dv, BLOCK_M=bm,
            BLOCK_N=bn, USE_CUSTOM_MASK=False, IS_CAUSAL=True, SKIP_PREFIX_CUSTOM_MASK=True,
            STORE_TRANSPOSE=ext._is_hip, HAS_SINK=sinks),
            dict(num_warps=warps, num_stages=1, **hip),
            "sglang/srt/layers/attention/triton_ops/extend_attention.py: extend_attention_fwd -> _fwd_kernel "
            "(HIP options)", archs=AMD))
    for model, H, D in VISION:
        # prefill_attention.py: context_attention_fwd -> _fwd_kernel (vision.py: q/k/v (tokens, heads, D), non-causal)
        block = 128 if pre.CUDA_CAPABILITY[0] > 8 else 64
        add(Config(LIB, f"context_attention/{model}", pre._fwd_kernel, dict(
            Q=P("bf16"), K=P("bf16"), V=P("bf16"), sm_scale=D ** -0.5, B_Start_Loc=P("i32"), B_Seqlen=P("i32"),
            Out=P("bf16"), stride_qbs=H * D, stride_qh=D, stride_kbs=H * D, stride_kh=D, stride_vbs=H * D,
            stride_vh=D, stride_obs=H * D, stride_oh=D, kv_group_num=1, BLOCK_M=block,
            BLOCK_DMODEL=triton.next_power_of_2(D), BLOCK_N=block, IS_CAUSAL=False, Lk=D),
            dict(num_warps=4 if D <= 64 else 8, num_stages=1),
            "sglang/srt/layers/attention/triton_ops/prefill_attention.py: context_attention_fwd -> _fwd_kernel "
            f"(CUDA_CAPABILITY {tuple(pre.CUDA_CAPABILITY)})", archs=AMD))
    return out


# ---------------------------------------------------------------------------------------------- fused MoE

# (model, E, N = w2's intermediate per GPU, hidden K, top_k, quantization, M values). Mixtral-8x7B at TP1 and TP8,
# Mixtral-8x22B fp8 (per-tensor scales) at TP4, DeepSeek-V3 fp8 with 128x128 block scales at TP8: the shapes SGLang
# ships MI300X configs for. M values: decode batches and prefill chunks; an M whose config equals a smaller M's
# (same entry picked) is left out.
MOE = [
    ("mixtral-8x7b", 8, 14336, 4096, 2, None, (1, 16, 64, 512, 4096)),
    ("mixtral-8x7b-tp8", 8, 1792, 4096, 2, None, (8, 256, 2048)),
    ("mixtral-8x22b-fp8-tp4", 8, 4096, 6144, 2, "fp8_w8a8", (4, 128, 1024)),
    ("deepseek-v3-fp8-tp8", 256, 256, 7168, 8, "fp8_w8a8_block", (1, 64, 1024, 4096)),
]
FP8 = "fp8e4b8"  # torch.float8_e4m3fnuz: fp8_kernel.py's fp8_dtype where the device's gcnArchName has gfx94


def _moe(kern, cfg_mod) -> list[Config]:
    out: list[Config] = []
    for model, E, N, K, topk, quant, Ms in MOE:
        block = [128, 128] if quant == "fp8_w8a8_block" else None
        dtype = "fp8_w8a8" if quant else None
        name = cfg_mod.get_config_file_name(E, N, dtype, block)
        if f"device_name={DEVICE.replace(' ', '_')}" not in name:
            raise RuntimeError(f"sglang's MoE config lookup asked for {name!r}, not the {DEVICE}'s")
        table = cfg_mod.get_moe_configs(E, N, dtype, *(block or (0, 0)))
        if not table:
            raise RuntimeError(f"sglang ships no MoE config {name} (its lookup found none)")
        seen = set()
        for M in Ms:
            # fused_moe_triton_config.try_get_optimal_moe_config: the entry whose batch size is closest to M
            key = min(table, key=lambda x: abs(x - M))
            config = dict(table[key])
            ident = tuple(sorted(config.items()))
            if ident in seen:
                continue
            seen.add(ident)
            cx = {k: C(v) for k, v in config.items() if k in kern.arg_names}
            opts = {k: v for k, v in config.items() if k not in kern.arg_names}
            tag = (f"BM{config['BLOCK_SIZE_M']}BN{config['BLOCK_SIZE_N']}BK{config['BLOCK_SIZE_K']}"
                   f"G{config['GROUP_SIZE_M']}w{opts.get('num_warps')}s{opts.get('num_stages')}"
                   f"wpe{opts.get('waves_per_eu', 0)}nk{opts.get('matrix_instr_nonkdim', 0)}kp{opts.get('kpack', 1)}")
            bm = config["BLOCK_SIZE_M"]
            em = M * topk + (E + 1) * (bm - 1)  # moe_align_block_size: sorted_token_ids' length
            for proj in ("up", "down"):
                # fused_experts: up = A (M, K) x w1 (E, 2N, K) -> cache1 (M*topk, 2N), routed weight not applied;
                # down = cache2 (M*topk, N) x w2 (E, K, N) -> cache3 (M, topk, K), routed weight applied, top_k 1
                n_out, k_in = (2 * N, K) if proj == "up" else (K, N)
                a_rows_stride = k_in
                args = dict(
                    a_ptr=P(FP8 if quant else "bf16"), a_desc=None, b_ptr=P(FP8 if quant else "bf16"), b_desc=None,
                    bias_ptr=None, c_ptr=P("bf16"), topk_weights_ptr=P("fp32"), sorted_token_ids_ptr=P("i32"),
                    expert_ids_ptr=P("i32"), num_tokens_post_padded_ptr=P("i32"), N=n_out, K=k_in, EM=em,
                    num_valid_tokens=M * topk, stride_am=a_rows_stride, stride_ak=1, stride_be=n_out * k_in,
                    stride_bk=1, stride_bn=k_in, stride_bias_e=0, stride_bias_n=0, stride_cm=n_out, stride_cn=1,
                    MUL_ROUTED_WEIGHT=proj == "down", top_k=topk if proj == "up" else 1,
                    compute_type=tl.bfloat16, use_fp8_w8a8=bool(quant), use_int8_w8a8=False, use_int8_w8a16=False,
                    per_channel_quant=False, even_Ks=k_in % config["BLOCK_SIZE_K"] == 0, c_sorted=False,
                    filter_expert=True, **cx)
                if quant == "fp8_w8a8":  # per-tensor: scaled_fp8_quant's A scale (1,), B scales (E,): 1-d, the
                    # launch passes 0 for their strides (it reads strides of 2-d / 3-d scales only)
                    args.update(a_scale_ptr=P("fp32"), b_scale_ptr=P("fp32"), stride_asm=0, stride_ask=0,
                                stride_bse=0, stride_bsk=0, stride_bsn=0, group_n=0, group_k=0)
                elif quant:  # per_token_group_quant_fp8: A scales (rows, k/128); B scales (E, n/128, k/128)
                    kb, nb = -(-k_in // 128), -(-n_out // 128)
                    args.update(a_scale_ptr=P("fp32"), b_scale_ptr=P("fp32"), stride_asm=kb, stride_ask=1,
                                stride_bse=nb * kb, stride_bsk=1, stride_bsn=kb, group_n=128, group_k=128)
                else:
                    args.update(a_scale_ptr=None, b_scale_ptr=None, stride_asm=0, stride_ask=0, stride_bse=0,
                                stride_bsk=0, stride_bsn=0, group_n=0, group_k=0)
                out.append(Config(LIB, f"fused_moe/{model}/{proj}/M{M}/{tag}", kern, args, opts,
                                  "sglang/srt/layers/moe/fused_moe_triton/fused_moe_triton_kernels.py: "
                                  f"invoke_fused_moe_kernel -> fused_moe_kernel ({name}, entry {key})",
                                  archs=("gfx942",) if quant else AMD,
                                  quick=model == "mixtral-8x7b" and M == 1 and proj == "up"))
    return out


def configs() -> list[Config]:
    with rocm_torch():
        dec = importlib.import_module("sglang.srt.layers.attention.triton_ops.decode_attention")
        ext = importlib.import_module("sglang.srt.layers.attention.triton_ops.extend_attention")
        pre = importlib.import_module("sglang.srt.layers.attention.triton_ops.prefill_attention")
        from sglang.srt import server_args as sa
        from sglang.srt.utils import get_device_name
        if get_device_name() != DEVICE:
            raise RuntimeError(f"sglang's get_device_name() answered {get_device_name()!r}, not {DEVICE!r} "
                               "(configs() runs inside _shim.no_gpu('gfx942'), as run.load calls it)")
        args = sa.ServerArgs(model_path="dummy")  # "dummy": __post_init__ returns before probing the GPU
        args._handle_amd_specifics()  # under HIP: triton_attention_num_kv_splits = 16
        saved = sa._global_server_args
        sa.set_global_server_args_for_scheduler(args)  # get_moe_configs reads enable_deterministic_inference
        try:
            cfg_mod = _module_from_file("srt/layers/moe/fused_moe_triton/fused_moe_triton_config.py",
                                        "sglang_corpus.fused_moe_triton_config")
            kern = _jit_from_file("srt/layers/moe/fused_moe_triton/fused_moe_triton_kernels.py",
                                  ["fused_moe_kernel"])["fused_moe_kernel"]
            moe = _moe(kern, cfg_mod)
        finally:
            sa._global_server_args = saved
        return _attention(dec, ext, pre, args.triton_attention_num_kv_splits) + moe
