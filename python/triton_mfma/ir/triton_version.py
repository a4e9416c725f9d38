"""The installed Triton's version (`TRITON_VERSION`), read as this module is imported: a Triton older than
MIN_TRITON is refused there, in one line (UnsupportedTritonError). make_ttgir.py imports it, so importing the pipeline
refuses an unusable Triton; the command line tells it apart before (cli_checks.triton_status)."""
from __future__ import annotations

import re

MIN_TRITON = (3, 8)  # the oldest Triton whose IR and Python API the bridge and the hook read


class UnsupportedTritonError(ImportError):
    """No Triton, or one older than triton-mfma reads."""


def triton_version(version: str | None = None) -> tuple:
    """(major, minor) of `version` (default: the installed Triton's `triton.__version__`)."""
    if version is None:
        try:
            import triton
        except ImportError as e:
            raise UnsupportedTritonError(
                f"triton-mfma needs Triton {MIN_TRITON[0]}.{MIN_TRITON[1]} or newer, and no Triton is installed "
                f"({e}); install one with `pip install 'triton>=3.8'` (or `pip install 'triton-mfma[triton]'`), or "
                "use the one your PyTorch brings") from None
        version = triton.__version__
    m = re.match(r"(\d+)\.(\d+)", version)
    if not m:
        raise UnsupportedTritonError(f"triton-mfma cannot read the Triton version {version!r}")
    return int(m.group(1)), int(m.group(2))


def check_triton_version(version: str | None = None) -> tuple:
    """(major, minor) of the installed Triton; UnsupportedTritonError (one line) if it is older than MIN_TRITON.
    A newer version is accepted: whether its pipeline composes is decided from its make_ttgir (make_ttgir.build())."""
    v = triton_version(version)
    if v < MIN_TRITON:
        import triton

        found = version or f"{triton.__version__} (from {triton.__file__})"
        raise UnsupportedTritonError(
            f"triton-mfma needs Triton {MIN_TRITON[0]}.{MIN_TRITON[1]} or newer; the installed Triton is {found}. "
            "Install a newer one (`pip install 'triton>=3.8'`), or the PyTorch that brings one (PyTorch 2.14: 3.8)")
    return v


TRITON_VERSION = check_triton_version()
