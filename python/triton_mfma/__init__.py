"""triton-mfma: MLIR passes for Triton's AMD (CDNA/MFMA) compiler, plugged into Triton's compile pipeline.

    import triton_mfma
    with triton_mfma.enabled():            # the default passes; or passes=[...], **options
        kernel[grid](...)

or set TRITON_CODEGEN_AMD=1 in the environment. See README.md.
"""
from ._version import __version__
from .ir.bridge import BridgeError, TritonBuildError, export_generic, import_generic  # noqa: E402
from .compiler.hook import current, disable, disabled, enable, enabled, is_enabled  # noqa: E402
from .ir.native import (Diagnostic, MFMARemark, MFMAWarning, PipelineError, run_pipeline,  # noqa: E402
                     run_pipeline_with_diagnostics)
from .models.report import KernelReport, report  # noqa: E402
from .models.grid import GridOrderDecision, grid_order_decision  # noqa: E402
from .composition.remarks import apply_warnoptions as _apply_warnoptions  # noqa: E402

_apply_warnoptions()

__all__ = ["__version__", "BridgeError", "Diagnostic", "MFMARemark", "MFMAWarning", "PipelineError", "current",
           "disable", "disabled", "enable", "enabled", "GridOrderDecision", "grid_order_decision", "KernelReport",
           "report", "export_generic", "import_generic", "TritonBuildError",
           "is_enabled", "run_pipeline", "run_pipeline_with_diagnostics"]
