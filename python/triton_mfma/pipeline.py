"""Extended compile stages: Triton 3.9's own passes, in Triton's order, with named insertion points.

`amd_make_ttgir` is a faithful copy of `HIPBackend.make_ttgir` (triton 3.9.0,
third_party/amd/backend/compiler.py) with `at(point)` calls between its steps. With no project pass
at any point it builds exactly one pass manager holding exactly Triton's passes, so the result is
byte-identical to stock (test/python/test_hook.py checks ttgir and amdgcn). When a point has passes,
the pass manager built so far runs, the module crosses the bridge to our C++ passes, comes back
verified, and a new pass manager continues.
"""
from __future__ import annotations

from typing import Callable

from triton import knobs
from triton._C.libtriton import amd, ir, passes

# OursAt(point, module) -> module: runs the project passes placed at `point` (identity if none).
OursAt = Callable[[str, object], object]


class _Composer:
    """Accumulates Triton passes in a pass manager; flushes it at insertion points that have work."""

    def __init__(self, mod, ours_at: OursAt, active_points: set):
        self.mod = mod
        self._ours_at = ours_at
        self._active = active_points
        self._new_pm()

    def _new_pm(self):
        self.pm = ir.pass_manager(self.mod.context)
        self.pm.enable_debug()

    def replaces(self, point: str) -> bool:
        return point in self._active

    def at(self, point: str) -> None:
        if point not in self._active:
            return
        self.pm.run(self.mod, "make_ttgir")
        self.mod = self._ours_at(point, self.mod)
        self._new_pm()

    def finish(self):
        self.pm.run(self.mod, "make_ttgir")
        return self.mod


def amd_make_ttgir(mod, metadata, options, ours_at: OursAt, active_points: set):
    from triton.backends.amd.compiler import (is_async_copy_enabled, is_enabled, is_fpsan_supported,
                                              is_in_thread_transpose_enabled, is_pingpong_schedule_enabled)

    pm = ir.pass_manager(mod.context)
    pm.enable_debug()
    passes.ttir.add_convert_to_ttgpuir(pm, f"hip:{options.arch}", options.num_warps, options.warp_size,
                                       options.num_ctas)
    pm.run(mod, "make_ttgir_early")

    c = _Composer(mod, ours_at, active_points)
    pm = lambda: c.pm  # noqa: E731 - the current pass manager changes at flushed points
    emuTF32 = False
    passes.ttgpuir.add_coalesce(pm())
    passes.ttgpuir.add_f32_dot_tc(pm(), emuTF32)
    passes.ttgpuir.add_remove_layout_conversions(pm())
    passes.ttgpuir.add_optimize_thread_locality(pm())
    c.at("pre_accelerate")
    if c.replaces("accelerate_matmul"):
        c.at("accelerate_matmul")
    else:
        amd.passes.ttgpuir.add_accelerate_matmul(pm(), options.arch, options.matrix_instr_nonkdim, options.kpack)
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

    use_async_copy = is_async_copy_enabled(options.base_arch)
    use_block_pingpong = is_pingpong_schedule_enabled(options.arch, use_async_copy)
    amd.passes.ttgpuir.add_optimize_descriptor_encoding(pm())
    if c.replaces("pipeline"):
        c.at("pipeline")
    else:
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
    if is_enabled(options, "fpsan") and is_fpsan_supported(options.base_arch):
        amd.passes.ttgpuir.add_fp_sanitizer(pm())
        passes.ttgpuir.add_fp_sanitizer(pm(), options.fpsan_homomorphic_casts)
    mod = c.finish()
    mod = ours_at("ttgir_end", mod)
    metadata["tensordesc_meta"] = mod.get_tensordesc_metadata()
    return mod
