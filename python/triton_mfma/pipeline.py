"""Extended compile stages: Triton's own passes, in Triton's order, with named insertion points.

`amd_make_ttgir` is a faithful copy of `HIPBackend.make_ttgir` (third_party/amd/backend/compiler.py) with
`at(point)` calls between its steps; `nvidia_make_ttgir` is the same for `CUDABackend.make_ttgir`
(third_party/nvidia/backend/compiler.py), so that passes that are not MFMA-specific (the stream pipeliner)
also run, and are checked on real hardware, for cuda. Both are composed for the installed Triton: 3.9.x
(the reference) and 3.8.x (the Triton PyTorch 2.14 pins), whose make_ttgir differ in a few steps, each
marked `_V38` below. Any other Triton is refused at import with a clear message (SUPPORTED_TRITON). With no
project pass at any point it builds exactly one pass manager holding exactly Triton's passes, so the result
is byte-identical to stock (test/python/test_hook.py checks ttgir and amdgcn, on both versions). When a
point has passes, the pass manager built so far runs, the module crosses the bridge to our C++ passes,
comes back verified, and a new pass manager continues.
"""
from __future__ import annotations

import re
from typing import Callable

# Triton versions whose make_ttgir this module reproduces (major, minor), and how to get one.
SUPPORTED_TRITON = ((3, 8), (3, 9))
SUPPORTED_TRITON_TEXT = "Triton 3.8 or 3.9"


class UnsupportedTritonError(ImportError):
    """The installed Triton is not one whose compile pipeline triton-mfma reproduces."""


def triton_version(version: str | None = None) -> tuple:
    """(major, minor) of `version` (default: the installed Triton's `triton.__version__`)."""
    if version is None:
        try:
            import triton
        except ImportError as e:
            raise UnsupportedTritonError(
                f"triton-mfma needs {SUPPORTED_TRITON_TEXT}, and no Triton is installed ({e}); install one with "
                "`pip install 'triton>=3.8,<3.10'` (or `pip install 'triton-mfma[triton]'`), or use the one your "
                "PyTorch brings") from None
        version = triton.__version__
    m = re.match(r"(\d+)\.(\d+)", version)
    if not m:
        raise UnsupportedTritonError(f"triton-mfma cannot read the Triton version {version!r}")
    return int(m.group(1)), int(m.group(2))


def check_triton_version(version: str | None = None) -> tuple:
    """(major, minor) of the installed Triton; UnsupportedTritonError (one clear line) if it is not supported."""
    v = triton_version(version)
    if v not in SUPPORTED_TRITON:
        import triton

        found = version or f"{triton.__version__} (from {triton.__file__})"
        raise UnsupportedTritonError(
            f"triton-mfma supports {SUPPORTED_TRITON_TEXT}; the installed Triton is {found}. Install a supported "
            "one (`pip install 'triton>=3.8,<3.10'`), or the PyTorch that brings one (PyTorch 2.14: Triton 3.8)")
    return v


TRITON_VERSION = check_triton_version()
_V38 = TRITON_VERSION == (3, 8)  # steps where Triton 3.8.0's make_ttgir differs from 3.9.0's

from triton import knobs  # noqa: E402
from triton._C.libtriton import amd, ir, passes  # noqa: E402

# OursAt(point, module) -> module: runs the project passes placed at `point` (identity if none).
OursAt = Callable[[str, object], object]


class _Composer:
    """Accumulates Triton passes in a pass manager; flushes it at insertion points that have work. At a
    replacing point whose pass declined the module (`declined`, filled by the hook), the caller adds the
    Triton passes the point replaces, as if the point were not active."""

    def __init__(self, mod, ours_at: OursAt, active_points: set, declined: set | None = None, resume=None,
                 after_step=None):
        self.mod = mod
        self._after_step = after_step
        self._ours_at = ours_at
        self._active = active_points
        self._declined = declined if declined is not None else set()
        # (point, module): the steps before `point` are skipped (the passes they add are never run) and the
        # build continues from `module`, the module another build had there
        self._resume = resume
        self._new_pm()

    def _new_pm(self):
        self.pm = ir.pass_manager(self.mod.context)
        self.dump_enabled = self.pm.enable_debug()

    def replaces(self, point: str) -> bool:
        return point in self._active

    def declined(self, point: str) -> bool:
        """Whether our pass at a replacing point declined the module (then Triton's own pass runs there)."""
        return point in self._declined

    def at(self, point: str) -> None:
        if self._resume is not None:
            if self._resume[0] != point:
                return  # a step before the resume point: nothing runs
            self.mod, self._resume = self._resume[1], None
            self._new_pm()
        if point not in self._active:
            return
        self.pm.run(self.mod, "make_ttgir")
        self.mod = self._ours_at(point, self.mod)
        self._new_pm()

    def after(self, point: str) -> None:
        """After Triton's own step at a replacing point: where the caller compares the module there
        (`after_step(point, module)`, which may raise to end the build), the steps so far run first."""
        if self._after_step is None or self._resume is not None:
            return
        self.pm.run(self.mod, "make_ttgir")
        self._after_step(point, self.mod)
        self._new_pm()

    def finish(self):
        if self._resume is not None:
            raise RuntimeError(f"make_ttgir: the resume point {self._resume[0]!r} is not a step of this pipeline")
        self.pm.run(self.mod, "make_ttgir")
        return self.mod


def amd_make_ttgir(mod, metadata, options, ours_at: OursAt, active_points: set, declined: set | None = None,
                   resume=None, after_step=None):
    """`HIPBackend.make_ttgir` (triton 3.9.0 and 3.8.0) with insertion points. `resume=(point, module)` starts
    at an insertion point from the module another build had there (`mod` is then unused): the variant
    engine's builds share the steps before the first point where they differ."""
    from triton.backends.amd.compiler import (is_async_copy_enabled, is_fpsan_supported,
                                              is_in_thread_transpose_enabled, is_pingpong_schedule_enabled)
    if _V38:
        def fpsan_on():
            return options.instrumentation_mode == "fpsan" and is_fpsan_supported(options.arch)
        base_arch = options.arch
    else:
        from triton.backends.amd.compiler import is_enabled

        def fpsan_on():
            return is_enabled(options, "fpsan") and is_fpsan_supported(options.base_arch)
        base_arch = options.base_arch

    if resume is None:
        pm = ir.pass_manager(mod.context)
        pm.enable_debug()
        passes.ttir.add_convert_to_ttgpuir(pm, f"hip:{options.arch}", options.num_warps, options.warp_size,
                                           options.num_ctas)
        pm.run(mod, "make_ttgir_early")
    else:
        mod = resume[1]

    c = _Composer(mod, ours_at, active_points, declined, resume, after_step)
    pm = lambda: c.pm  # noqa: E731 - the current pass manager changes at flushed points
    emuTF32 = False
    passes.ttgpuir.add_coalesce(pm())
    passes.ttgpuir.add_f32_dot_tc(pm(), emuTF32)
    passes.ttgpuir.add_remove_layout_conversions(pm())
    passes.ttgpuir.add_optimize_thread_locality(pm())
    c.at("pre_accelerate")
    c.at("accelerate_matmul")
    if not c.replaces("accelerate_matmul") or c.declined("accelerate_matmul"):
        amd.passes.ttgpuir.add_accelerate_matmul(pm(), options.arch, options.matrix_instr_nonkdim, options.kpack)
        c.after("accelerate_matmul")
    passes.ttgpuir.add_remove_layout_conversions(pm())
    c.at("post_accelerate")
    amd.passes.ttgpuir.add_optimize_epilogue(pm())
    amd.passes.ttgpuir.add_optimize_dot_operands(pm(), options.arch)
    amd.passes.ttgpuir.add_hoist_layout_conversions(pm())
    amd.passes.ttgpuir.add_sink_layout_conversions(pm())

    passes.ttgpuir.add_fuse_nested_loops(pm())
    passes.common.add_canonicalizer(pm())
    passes.ttir.add_triton_licm(pm())
    passes.common.add_canonicalizer(pm())

    use_async_copy = is_async_copy_enabled(base_arch)  # 3.8: options.arch
    use_block_pingpong = is_pingpong_schedule_enabled(options.arch, use_async_copy)
    amd.passes.ttgpuir.add_optimize_descriptor_encoding(pm())
    c.at("pipeline")
    if not c.replaces("pipeline") or c.declined("pipeline"):
        amd.passes.ttgpuir.add_schedule_loops(pm(), options.num_stages)
        amd.passes.ttgpuir.add_pipeline(pm(), use_async_copy, use_block_pingpong)
    if use_async_copy:
        amd.passes.ttgpuir.add_coalesce_async_copy(pm(), options.arch)
    amd.passes.ttgpuir.add_convert_to_tensor_ops(pm())
    passes.common.add_canonicalizer(pm())
    passes.ttgpuir.add_remove_layout_conversions(pm())
    passes.ttgpuir.add_reduce_data_duplication(pm())
    if is_in_thread_transpose_enabled(options.arch):
        amd.passes.ttgpuir.add_in_thread_transpose(pm())
        passes.ttgpuir.add_remove_layout_conversions(pm())
    amd.passes.ttgpuir.add_move_up_prologue_loads(pm())
    if use_block_pingpong and options.num_stages > 1:
        amd.passes.ttgpuir.add_block_pingpong(pm(), options.num_stages)

    if knobs.amd.use_buffer_ops:
        amd.passes.ttgpuir.add_canonicalize_pointers(pm())
        passes.common.add_canonicalizer(pm())
        amd.passes.ttgpuir.add_convert_to_buffer_ops(
            pm(),
            options.arch,
            knobs.amd.use_buffer_atomics,
            knobs.amd.buffer_ops_analyze_small_tensor_range,
        )
        amd.passes.ttgpuir.add_optimize_buffer_op_ptr(pm())

    amd.passes.ttgpuir.add_fold_true_cmpi(pm())
    amd.passes.ttgpuir.add_prepare_if_combining(pm())
    passes.common.add_canonicalizer(pm())
    passes.common.add_cse(pm())
    passes.common.add_symbol_dce(pm())
    if fpsan_on():
        amd.passes.ttgpuir.add_fp_sanitizer(pm())
        if _V38:
            passes.ttgpuir.add_fp_sanitizer(pm())
        else:
            passes.ttgpuir.add_fp_sanitizer(pm(), options.fpsan_homomorphic_casts)
    mod = c.finish()
    mod = ours_at("ttgir_end", mod)
    metadata["tensordesc_meta"] = mod.get_tensordesc_metadata()
    return mod


def nvidia_make_ttgir(mod, metadata, opt, capability, ours_at: OursAt, active_points: set,
                      declined: set | None = None):
    """`CUDABackend.make_ttgir` (triton 3.9.0 and 3.8.0) with insertion points.

    `pipeline` replaces `assign_latencies` + `schedule_loops` + `pipeline` (on capability 8.x/9.x after
    `hopper_warpspec`, on 10.x+ with `warp_specialize` kept between them and ours running first; below
    8.0 Triton does not pipeline and the point sits after `triton_licm`). Stock Triton runs one pass
    manager here; with no active point so does this copy, so its output is byte-identical.
    """
    from triton._C.libtriton import nvidia
    if _V38:
        def fpsan_on():
            return "fpsan" in opt.instrumentation_mode
    else:
        from triton.backends.nvidia.compiler import is_enabled

        def fpsan_on():
            return is_enabled(opt, "fpsan")

    # Set maxnreg on all kernels, if it was provided.
    if opt.maxnreg is not None:
        mod.set_attr("ttg.maxnreg", ir.builder(mod.context).get_int32_attr(opt.maxnreg))

    c = _Composer(mod, ours_at, active_points, declined)
    pm = lambda: c.pm  # noqa: E731 - the current pass manager changes at flushed points
    emuTF32 = (capability // 10 >= 8)
    passes.ttir.add_convert_to_ttgpuir(pm(), f"cuda:{capability}", opt.num_warps, 32, opt.num_ctas)
    if not _V38 and opt.clc:
        nvidia.passes.ttnvgpuir.add_to_clc(pm())
    # optimize TTGIR
    passes.ttgpuir.add_coalesce(pm())
    passes.ttgpuir.add_f32_dot_tc(pm(), emuTF32)
    if _V38:
        nvidia.passes.ttnvgpuir.add_plan_cta(pm())
    else:
        nvidia.passes.ttnvgpuir.add_assign_cga_layouts(pm())
        passes.ttgpuir.add_remove_layout_conversions(pm())
        nvidia.passes.ttnvgpuir.add_optimize_cta_locality(pm())
    passes.ttgpuir.add_remove_layout_conversions(pm())
    passes.ttgpuir.add_optimize_thread_locality(pm())
    c.at("pre_accelerate")
    if c.replaces("accelerate_matmul"):
        c.at("accelerate_matmul")
    else:
        passes.ttgpuir.add_accelerate_matmul(pm())
    if not _V38:
        nvidia.passes.ttnvgpuir.add_check_matmul_two_cta(pm())
    passes.ttgpuir.add_remove_layout_conversions(pm())
    c.at("post_accelerate")
    passes.ttgpuir.add_optimize_dot_operands(pm(), capability >= 80)
    nvidia.passes.ttnvgpuir.add_optimize_descriptor_encoding(pm())
    passes.ttir.add_loop_aware_cse(pm())
    if capability // 10 in [8, 9]:
        passes.ttgpuir.add_fuse_nested_loops(pm())
        passes.common.add_canonicalizer(pm())
        passes.ttir.add_triton_licm(pm())
        passes.common.add_canonicalizer(pm())
        passes.ttgpuir.add_combine_tensor_select_and_if(pm())
        nvidia.passes.hopper.add_hopper_warpspec(pm(), opt.num_stages, c.dump_enabled)
        if c.replaces("pipeline"):
            c.at("pipeline")
        if not c.replaces("pipeline") or c.declined("pipeline"):
            passes.ttgpuir.add_assign_latencies(pm(), opt.num_stages)
            passes.ttgpuir.add_schedule_loops(pm())
            passes.ttgpuir.add_pipeline(pm(), opt.num_stages, c.dump_enabled)
    elif capability // 10 >= 10:
        passes.ttgpuir.add_fuse_nested_loops(pm())
        passes.common.add_canonicalizer(pm())
        passes.ttir.add_triton_licm(pm())
        passes.ttgpuir.add_optimize_accumulator_init(pm())
        passes.ttgpuir.add_hoist_tmem_alloc(pm(), False)
        nvidia.passes.ttnvgpuir.add_promote_lhs_to_tmem(pm())
        if c.replaces("pipeline"):
            c.at("pipeline")
        if c.replaces("pipeline") and not c.declined("pipeline"):
            passes.ttgpuir.add_warp_specialize(pm(), opt.num_stages)
        else:
            passes.ttgpuir.add_assign_latencies(pm(), opt.num_stages)
            passes.ttgpuir.add_schedule_loops(pm())
            passes.ttgpuir.add_warp_specialize(pm(), opt.num_stages)
            passes.ttgpuir.add_pipeline(pm(), opt.num_stages, c.dump_enabled)
        passes.ttgpuir.add_optimize_partition_warps(pm())
        passes.ttgpuir.add_combine_tensor_select_and_if(pm())
        # hoist again and allow hoisting out of if statements
        passes.ttgpuir.add_hoist_tmem_alloc(pm(), True)
        nvidia.passes.ttnvgpuir.add_remove_tmem_tokens(pm())
    else:
        passes.ttir.add_triton_licm(pm())
        c.at("pipeline")
    passes.common.add_canonicalizer(pm())
    passes.ttir.add_loop_aware_cse(pm())
    if capability // 10 == 8:
        passes.ttgpuir.add_prefetch(pm())
    passes.ttgpuir.add_optimize_dot_operands(pm(), capability >= 80)
    passes.ttgpuir.add_coalesce_async_copy(pm())
    nvidia.passes.ttnvgpuir.add_optimize_tmem_layouts(pm())
    nvidia.passes.ttnvgpuir.add_tmem_load_reduce(pm())
    if capability // 10 >= 9:
        nvidia.passes.ttnvgpuir.add_tma_lowering(pm())
    if not _V38 and capability // 10 >= 10:
        nvidia.passes.ttnvgpuir.add_lower_clc(pm())
    passes.ttgpuir.add_remove_layout_conversions(pm())
    nvidia.passes.ttnvgpuir.add_interleave_tmem(pm())
    passes.ttgpuir.add_reduce_data_duplication(pm())
    passes.ttgpuir.add_reorder_instructions(pm())
    passes.ttir.add_loop_aware_cse(pm())
    passes.common.add_symbol_dce(pm())
    nvidia.passes.ttnvgpuir.add_fence_insertion(pm(), capability)
    nvidia.passes.ttnvgpuir.add_lower_mma(pm())
    if not _V38:
        nvidia.passes.ttnvgpuir.add_hoist_mbarrier_lifecycle(pm(), capability)
    passes.common.add_sccp(pm())
    passes.common.add_cse(pm())
    passes.common.add_canonicalizer(pm())
    if fpsan_on():
        if _V38:
            passes.ttgpuir.add_fp_sanitizer(pm())
            passes.ttgpuir.add_remove_layout_conversions(pm())
        else:
            passes.ttgpuir.add_fp_sanitizer(pm(), opt.fpsan_homomorphic_casts)
            passes.ttgpuir.add_remove_layout_conversions(pm(), True)
        passes.common.add_canonicalizer(pm())
        passes.common.add_cse(pm())

    mod = c.finish()
    mod = ours_at("ttgir_end", mod)
    metadata["tensordesc_meta"] = mod.get_tensordesc_metadata()
    return mod
