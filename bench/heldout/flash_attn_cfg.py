"""flash-attn's AMD Triton backend (flash_attn/flash_attn_triton_amd/, AMD's ROCm team; what `flash_attn` runs on ROCm
with FLASH_ATTENTION_TRITON_AMD_ENABLE=TRUE): forward prefill, split backward, KV-cache decode, as its interface
(interface_fa.py: fwd, varlen_fwd, bwd, fwd_kvcache, what flash_attn_interface.py calls) launches them on an MI300X.

Where the kernels come from: flash-attn 2.8.3.post2 is published as an sdist only, and building it needs CUDA or
ROCm. Its Triton backend needs no build: on first use `fetch()` runs `pip download --no-deps --no-binary :all:
flash-attn==2.8.3.post2` into a cache folder (TRITON_MFMA_HELDOUT_CACHE, default ~/.cache/triton-mfma-heldout) and
unpacks the tarball's flash_attn/ there; nothing of it is committed. `flash_attn/__init__.py` is not run (it imports
the CUDA extension): a package object `flash_attn` whose __path__ is the unpacked folder stands in for it.
interface_fa.py imports bwd_prefill_onekernel.py, whose autotune keys name arguments its kernel does not have
(IS_CAUSAL, dropout_p, ...): Triton 3.9 refuses it at import; it is stubbed (an empty module) and not used here (the
interface's default backward, BWD_MODE "split", is bwd_prefill_split.py).

How: as aiter_cfg.py, the interface function is called on CPU tensors inside no_gpu("gfx942") + rocm_torch() and its
launches recorded (capture.py). The library autotunes with one configuration unless
FLASH_ATTENTION_TRITON_AMD_AUTOTUNE is set (its default: BLOCK_M 64, BLOCK_N 64, waves_per_eu 1, 4 warps, 1 stage):
that one is what is compiled. Targets gfx90a, gfx942, gfx950.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import tempfile
import types

import torch

from _shim import rocm_torch
from capture import launches, to_config

LIB = "flash_attn"
VERSION = "2.8.3.post2"
AMD = ("gfx90a", "gfx942", "gfx950")
BF, FP16, F32 = torch.bfloat16, torch.float16, torch.float32
E = torch.empty


def cache_dir() -> str:
    return os.environ.get("TRITON_MFMA_HELDOUT_CACHE") or os.path.join(os.path.expanduser("~"), ".cache",
                                                                         "triton-mfma-heldout")


def fetch() -> str:
    """The unpacked flash_attn/ of flash-attn VERSION's sdist (fetched through pip on first use)."""
    dest = os.path.join(cache_dir(), f"flash_attn-{VERSION}")
    pkg = os.path.join(dest, "flash_attn")
    if os.path.isfile(os.path.join(pkg, "flash_attn_triton_amd", "interface_fa.py")):
        return pkg
    os.makedirs(cache_dir(), exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache_dir()) as tmp:
        env = dict(os.environ, FLASH_ATTENTION_SKIP_CUDA_BUILD="TRUE", FLASH_ATTENTION_TRITON_AMD_ENABLE="TRUE")
        # its setup.py imports torch to write the metadata pip asks for: use this environment's (no isolation)
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
                        "--no-build-isolation", "-d", tmp, f"flash-attn=={VERSION}"], check=True, env=env)
        tar = os.path.join(tmp, f"flash_attn-{VERSION}.tar.gz")
        unpacked = os.path.join(tmp, "unpacked")
        with tarfile.open(tar) as t:
            top = f"flash_attn-{VERSION}/flash_attn/"
            t.extractall(unpacked, members=[m for m in t.getmembers() if m.name.startswith(top)], filter="data")
        os.makedirs(dest, exist_ok=True)
        os.replace(os.path.join(unpacked, f"flash_attn-{VERSION}", "flash_attn"), pkg)
    return pkg


def _import():
    root = fetch()
    if "flash_attn" not in sys.modules:
        pkg = types.ModuleType("flash_attn")
        pkg.__path__ = [root]
        pkg.__file__ = os.path.join(root, "__init__.py")
        sys.modules["flash_attn"] = pkg
    name = "flash_attn.flash_attn_triton_amd.bwd_prefill_onekernel"
    if name not in sys.modules:
        ok = types.ModuleType(name)
        ok.attention_prefill_backward_triton_split_oneKernel_impl = None  # BWD_MODE "jingning" only
        sys.modules[name] = ok
    from flash_attn.flash_attn_triton_amd import interface_fa
    return interface_fa


def configs() -> list:
    with rocm_torch():
        fa = _import()
        return _configs(fa)


def _configs(fa) -> list:
    out = []
    T = "flash_attn/flash_attn_triton_amd/"

    def add(ln, name, mirrors, quick=False):
        out.append(to_config(ln, LIB, f"{name}", T + mirrors, AMD, quick))

    # interface_fa.fwd -> fwd_prefill.py: attention_prefill_forward_triton_impl -> attn_fwd (bshd)
    for name, B, S, H, KVH, D, dt, causal, drop, quick in [
        ("llama3-8b/causal/bf16", 1, 4096, 32, 8, 128, BF, True, 0.0, True),
        ("sd-unet/noncausal/d64/fp16", 2, 4096, 10, 10, 64, FP16, False, 0.0, False),
        ("llama2-7b/causal/dropout/bf16", 2, 2048, 32, 32, 128, BF, True, 0.1, False),
    ]:
        q, k = E(B, S, H, D, dtype=dt), E(B, S, KVH, D, dtype=dt)
        for ln in launches(fa.fwd, q, k, k, None, None, drop, D ** -0.5, causal, -1, -1, 0.0, False):
            add(ln, f"fwd/{ln.fn.__name__}/{name}", f"interface_fa.py: fwd -> fwd_prefill.py: {ln.fn.__name__}",
                quick)
    # interface_fa.varlen_fwd (thd): Qwen2.5-7B heads, 8 sequences of 1024
    q, k = E(8 * 1024, 28, 128, dtype=BF), E(8 * 1024, 4, 128, dtype=BF)
    cu = torch.arange(0, 9, dtype=torch.int32) * 1024
    for ln in launches(fa.varlen_fwd, q, k, k, None, cu, cu, None, None, None, None, 1024, 1024, 0.0, 128 ** -0.5,
                       False, True, -1, -1, 0.0, False):
        add(ln, f"varlen_fwd/{ln.fn.__name__}/qwen2.5-7b/causal/bf16",
            f"interface_fa.py: varlen_fwd -> fwd_prefill.py: {ln.fn.__name__}")
    # interface_fa.bwd (BWD_MODE "split") -> bwd_prefill_split.py: preprocess, dkdv and dq kernels
    for name, B, S, H, KVH, D, causal in [("llama3-8b/causal", 1, 4096, 32, 8, 128, True),
                                          ("sd-unet/noncausal/d64", 2, 4096, 10, 10, 64, False)]:
        q, k = E(B, S, H, D, dtype=BF), E(B, S, KVH, D, dtype=BF)
        for ln in launches(fa.bwd, E(B, S, H, D, dtype=BF), q, k, k, E(B, S, H, D, dtype=BF),
                           E(B, H, S, dtype=F32), torch.empty_like(q), torch.empty_like(k), torch.empty_like(k),
                           None, 0.0, D ** -0.5, causal, -1, -1, 0.0, False):
            if "preprocess" in ln.fn.__name__ and name != "llama3-8b/causal":
                continue  # the preprocess (o . do, no dot) once
            add(ln, f"bwd/{ln.fn.__name__}/{name}", f"interface_fa.py: bwd -> bwd_prefill_split.py: {ln.fn.__name__}")
    # interface_fa.fwd_kvcache (flash_attn_with_kvcache: decode over a KV cache) -> fwd_decode.py: split-K kernel and
    # its reduce
    for name, B, H, KVH, D, ctx in [("llama3-8b/ctx8192", 16, 32, 8, 128, 8192),
                                    ("llama3-70b-tp8/ctx32768", 4, 8, 1, 128, 32768)]:
        kc = E(B, ctx, KVH, D, dtype=BF)
        for ln in launches(fa.fwd_kvcache, E(B, 1, H, D, dtype=BF), kc, kc, None, None,
                           torch.full((B,), ctx - 1, dtype=torch.int32), None, None, None, None, None, None, None,
                           D ** -0.5, True, -1, -1, 0.0, False, 0):
            add(ln, f"fwd_kvcache/{ln.fn.__name__}/{name}",
                f"interface_fa.py: fwd_kvcache -> fwd_decode.py: {ln.fn.__name__}")
    return out
