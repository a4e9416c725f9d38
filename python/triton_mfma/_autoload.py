"""Imported at interpreter start by triton_mfma_autoload.pth when TRITON_CODEGEN_AMD is set.

TRITON_CODEGEN_AMD=1 activates the hook with the default passes; a comma-separated list of pass
names (TRITON_CODEGEN_AMD=mfma-print-layouts,...) activates those. A value it cannot activate is one line
on stderr (the interpreter starts all the same; the command line then exits with status 2: REPORTED).
"""
import os
import sys

REPORTED = False  # the one line about TRITON_CODEGEN_AMD is on stderr


def _activate():
    global REPORTED
    value = os.environ.get("TRITON_CODEGEN_AMD", "0").strip()
    if value.lower() in ("", "0", "false", "no", "off"):
        return
    try:
        import triton_mfma
        from triton_mfma.composition import remarks

        problems = [p for p in remarks.environment_problems() if p.startswith("TRITON_CODEGEN_AMD=")]
        if problems:
            raise ValueError(problems[0])
        passes = None if value.lower() in ("1", "true", "yes", "on") else [p for p in value.split(",") if p]
        triton_mfma.enable(passes=passes)
    except Exception as e:  # never break interpreter start-up
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        print(f"triton-mfma: not activated: {first}", file=sys.stderr)
        REPORTED = True


_activate()
