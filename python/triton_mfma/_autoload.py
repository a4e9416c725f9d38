"""Imported at interpreter start by triton_mfma_autoload.pth when TRITON_CODEGEN_AMD is set.

TRITON_CODEGEN_AMD=1 activates the hook with the default passes; a comma-separated list of pass
names (TRITON_CODEGEN_AMD=mfma-print-layouts,...) activates those.
"""
import os
import warnings


def _activate():
    value = os.environ.get("TRITON_CODEGEN_AMD", "0").strip()
    if value.lower() in ("", "0", "false", "no", "off"):
        return
    try:
        import triton_mfma

        passes = None if value.lower() in ("1", "true", "yes", "on") else [p for p in value.split(",") if p]
        triton_mfma.enable(passes=passes)
    except Exception as e:  # never break interpreter start-up
        warnings.warn(f"triton-mfma: TRITON_CODEGEN_AMD is set but activation failed: {e}")


_activate()
