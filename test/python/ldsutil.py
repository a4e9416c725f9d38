"""Helpers for comparing the LDS model with Triton 3.9's own allocation.

Triton's numbers come from Triton itself: `AllocateAMDGPUSharedMemory` (the pass make_llir runs)
applied to a module, read back as its `ttg.shared` attribute. A convert's own scratch is what that
pass gives a module holding only that convert. The model's numbers come from `mfma-lds-usage`
with `annotate=true`, read structurally with the upstream MLIR Python bindings.
"""
from __future__ import annotations

from irutil import ops as walk
from irutil import parse
from mlir import ir as mir
from triton._C.libtriton import amd, ir

from triton_mfma.ir.bridge import import_generic
from triton_mfma.ir.native import run_pipeline_with_diagnostics


def triton_context():
    ctx = ir.context()
    ir.load_dialects(ctx)
    amd.load_dialects(ctx)
    return ctx


def triton_shared_bytes(generic_text: str, arch: str) -> int:
    """`ttg.shared` after Triton's AMD shared-memory allocation of the module."""
    mod = import_generic(generic_text, triton_context())
    pm = ir.pass_manager(mod.context)
    amd.passes.ttgpuir.add_allocate_shared_memory(pm, arch)
    pm.run(mod, "allocate_shared_memory")
    return mod.get_int_attr("ttg.shared")


def single_convert_module(src_type: str, dst_type: str, target: str, num_warps: int,
                          threads_per_warp: int = 64) -> str:
    """Generic text of a module whose only LDS user is one convert_layout."""
    return f'''"builtin.module"() ({{
  "tt.func"() <{{function_type = ({src_type}) -> (), sym_name = "f", sym_visibility = "public"}}> ({{
  ^bb0(%arg0: {src_type}):
    %0 = "ttg.convert_layout"(%arg0) : ({src_type}) -> {dst_type}
    "tt.return"() : () -> ()
  }}) : () -> ()
}}) {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {num_warps} : i32, ttg.target = "{target}", "ttg.threads-per-warp" = {threads_per_warp} : i32}} : () -> ()
'''


def model(generic_text: str) -> dict:
    """The model's view: per convert (types, path, scratch, linear layouts) and the total."""
    out, _ = run_pipeline_with_diagnostics(generic_text, "builtin.module(mfma-lds-usage{annotate=true})")
    m = parse(out)
    converts = []
    for op in walk(m, "ttg.convert_layout"):
        a = op.attributes
        converts.append(dict(src_type=str(op.operands[0].type), dst_type=str(op.results[0].type),
                             path=mir.StringAttr(a["mfma.lds_path"]).value,
                             scratch=mir.IntegerAttr(a["mfma.lds_scratch"]).value,
                             src_linear=mir.StringAttr(a["mfma.src_linear"]).value,
                             dst_linear=mir.StringAttr(a["mfma.dst_linear"]).value))
    totals = [mir.IntegerAttr(f.attributes["mfma.lds_total"]).value for f in walk(m, "tt.func")]
    return dict(converts=converts, total=max(totals) if totals else 0)


def module_attr(generic_text: str, name: str):
    return parse(generic_text).operation.attributes[name]


def kernel_generic_ttgir(kernel) -> str:
    """The TTGIR make_llir starts from (what Triton allocates), in generic form."""
    from triton_mfma.ir.triton_ir import generic_ttgir

    return generic_ttgir(kernel)
