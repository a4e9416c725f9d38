"""Import-time device queries answered without a GPU.

Some libraries ask torch or Triton's driver for the device while being imported (gemlite: compute
capability, device properties, `driver.active.get_current_target()`; flag_gems: the device name and its
vendor). This machine has a CPU build of torch and no GPU, so their import fails. We only need their
@triton.jit functions, so inside `no_gpu(arch)` those queries get the answer of a device of that arch and
nothing is launched; everything patched is put back on exit (module-level constants the libraries
computed stay, e.g. gemlite's IS_HIP, which selects its AMD configs: the ones we mirror).

Libraries that tell ROCm from CUDA by torch's build (sglang: `is_hip()` is `torch.version.hip is not None`) and ask
`torch.cuda.is_available()` before the device name get, inside `rocm_torch()` (within `no_gpu(gfx...)`), the answers
of a ROCm build of torch with a device: `torch.version.hip` set, `is_available()` True; put back on exit.
"""
from __future__ import annotations

import contextlib
import os
import types

_PROPS = {
    "gfx942": dict(name="AMD Instinct MI300X", gcnArchName="gfx942:sramecc+:xnack-", major=9, minor=4,
                   multi_processor_count=304, warp_size=64, smem=64 * 1024),
    "cuda:90": dict(name="NVIDIA H200", gcnArchName="", major=9, minor=0, multi_processor_count=132,
                    warp_size=32, smem=227 * 1024),
}


class _Utils:
    def __init__(self, p):
        self._p = p

    def get_device_properties(self, *_):
        return {"max_shared_mem": self._p["smem"], "multiprocessor_count": self._p["multi_processor_count"],
                "max_num_regs": 65536, "warpSize": self._p["warp_size"], "sm_clock_rate": 2100000,
                "mem_clock_rate": 2600000, "mem_bus_width": 8192}


class _FakeDriver:
    """Enough of Triton's DriverBase for import-time questions; anything that would launch fails."""

    def __init__(self, arch, p):
        from triton.backends.compiler import GPUTarget
        self._target = (GPUTarget("hip", arch, 64) if arch.startswith("gfx")
                        else GPUTarget("cuda", int(arch.split(":")[1]), 32))
        self.utils = _Utils(p)

    def get_current_target(self):
        return self._target

    def get_current_device(self):
        return 0

    def get_current_stream(self, *_):
        return 0

    def get_active_torch_device(self):
        import torch
        return torch.device("cpu")


@contextlib.contextmanager
def no_gpu(arch: str = "gfx942"):
    import torch
    from triton.runtime.driver import driver as _drv

    saved_env = os.environ.get("GEMS_VENDOR")
    if arch.startswith("gfx"):
        os.environ.setdefault("GEMS_VENDOR", "amd")  # flag_gems: its AMD backend, instead of probing tools
    if torch.cuda.is_available():  # a real device (the H200 run): leave torch and Triton alone
        yield
        return
    p = _PROPS["cuda:90" if arch.startswith("cuda") else "gfx942"]
    props = types.SimpleNamespace(total_memory=192 * 1024**3, max_shared_memory_per_block_optin=p["smem"],
                                  shared_memory_per_block=p["smem"], shared_memory_per_block_optin=p["smem"],
                                  L2_cache_size=4 * 1024**2, regs_per_multiprocessor=65536,
                                  max_threads_per_multi_processor=2048, is_integrated=False,
                                  **{k: v for k, v in p.items() if k != "smem"})
    patched = {
        "get_device_properties": lambda *a, **k: props,
        "get_device_capability": lambda *a, **k: (props.major, props.minor),
        "get_device_name": lambda *a, **k: props.name,
        "current_device": lambda: 0,
        "device_count": lambda: 0,  # no per-device workspaces are allocated at import
    }
    saved = {k: getattr(torch.cuda, k) for k in patched}
    saved_active = _drv._active
    try:
        for k, v in patched.items():
            setattr(torch.cuda, k, v)
        _drv.set_active(_FakeDriver(arch, p))
        yield
    finally:
        for k, v in saved.items():
            setattr(torch.cuda, k, v)
        _drv._active = saved_active
        if saved_env is None:
            os.environ.pop("GEMS_VENDOR", None)


ROCM_TORCH_HIP_VERSION = "6.4.43484-123"  # the form of a ROCm 6.4 wheel's torch.version.hip


@contextlib.contextmanager
def rocm_torch():
    """Inside no_gpu(gfx...): torch answers as a ROCm build with a device (torch.version.hip set,
    torch.cuda.is_available() True), for libraries that branch on torch's build at import (sglang's is_hip()).
    Nothing is launched: every device query that follows is no_gpu's. Where a real device is present (the H200
    run), torch is left alone."""
    import torch

    if torch.cuda.is_available():
        if torch.version.hip is None:
            raise RuntimeError("rocm_torch(): a real CUDA device is present; it cannot answer as a ROCm build")
        yield
        return
    saved_hip, saved_avail = torch.version.hip, torch.cuda.is_available
    try:
        torch.version.hip = ROCM_TORCH_HIP_VERSION
        torch.cuda.is_available = lambda: True
        yield
    finally:
        torch.version.hip = saved_hip
        torch.cuda.is_available = saved_avail
