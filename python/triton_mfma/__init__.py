"""triton-mfma: MLIR passes for Triton's AMD (CDNA/MFMA) compiler, plugged into Triton 3.9.

    import triton_mfma
    with triton_mfma.enabled(passes=["mfma-print-layouts"]):
        kernel[grid](...)

or set TRITON_CODEGEN_AMD=1 in the environment. See README.md.
"""
__version__ = "0.1.0"

from .bridge import BridgeError, export_generic, import_generic  # noqa: E402
from .hook import current, disable, enable, enabled, is_enabled  # noqa: E402
from .report import KernelReport, report  # noqa: E402
from .native import (Diagnostic, MFMARemark, MFMAWarning, PipelineError, run_pipeline,  # noqa: E402
                     run_pipeline_with_diagnostics)

__all__ = ["__version__", "BridgeError", "Diagnostic", "MFMARemark", "MFMAWarning", "PipelineError", "current",
           "disable", "enable", "enabled", "KernelReport", "report", "export_generic", "import_generic", "is_enabled", "run_pipeline",
           "run_pipeline_with_diagnostics"]
