"""Which triton_mfma a bench script, and every child process it starts, runs.

The checkout's python/ where it holds a build (`make build`, `pip install -e .`), else the installed package
(`pip install .` builds the native library into site-packages only, as CI does): a child must import the same
package as its parent, never a checkout without its native library.
"""
import os
import sys

CHECKOUT_PYTHON = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python")


def use_checkout_if_built() -> None:
    """Put the checkout's python/ first on sys.path where it holds a build of the native library."""
    if os.path.exists(os.path.join(CHECKOUT_PYTHON, "triton_mfma", "_native", "libTritonMFMA.so")):
        if CHECKOUT_PYTHON not in sys.path:
            sys.path.insert(0, CHECKOUT_PYTHON)


def child_env(**extra: str) -> dict:
    """os.environ with PYTHONPATH leading to the triton_mfma this process imports, plus `extra`."""
    import triton_mfma

    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(triton_mfma.__file__)))
    rest = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != package_parent]
    return dict(os.environ, PYTHONPATH=os.pathsep.join([package_parent] + rest), **extra)
