"""A real Triton build without the symbols the bridge calls (issue 55): fbtriton 3.8.0rc3 (PyPI `fbtriton`: module
`triton`, version 3.8.0+fb; its libtriton exports one dynamic symbol). With the project on, every compile is
Triton's own with one warning, the demo exits 0 with stock figures, strict mode raises TritonBuildError.

Optional: runs only where fbtriton is the installed Triton (`make fbtriton` makes such a virtual environment and
runs this file there; not in CI: the wheel is 300 MB). test_reliability.py checks the same with a stub library.
"""
import importlib.metadata
import json
import os
import subprocess
import sys
import warnings

import pytest

import triton_mfma
from triton_mfma import MFMAWarning
from triton_mfma.compiler.compile import compile_kernel
from triton_mfma.examples import CORPUS

ARCH = "gfx942"


def _fbtriton() -> str | None:
    """fbtriton's version where its distribution provides the `triton` module imported here, else None."""
    try:
        version = importlib.metadata.version("fbtriton")
    except importlib.metadata.PackageNotFoundError:
        return None
    return version if "fbtriton" in importlib.metadata.packages_distributions().get("triton", []) else None


pytestmark = pytest.mark.skipif(_fbtriton() is None, reason="fbtriton is not the installed Triton (distribution "
                                "`fbtriton` absent): `make fbtriton` runs this file in a virtual environment with it")


def _compile(names):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with triton_mfma.enabled():
            kernels = {name: compile_kernel(*CORPUS[name], ARCH) for name in names}
    return kernels, [str(w.message) for w in seen if issubclass(w.category, MFMAWarning)]


def test_a_compile_with_the_project_on_is_tritons_own(monkeypatch):
    import triton
    from conftest import assert_same_as_stock

    monkeypatch.setenv("TRITON_MFMA_STRICT", "0")
    kernels, warned = _compile(("gemm", "softmax"))
    assert len(warned) == 1, warned  # one per build, not one per compile
    for part in (f"Triton {triton.__version__}", "libtriton.so", "LLVMParseCommandLineOptions", "stays off"):
        assert part in warned[0], (part, warned[0])
    for name, k in kernels.items():
        assert not [key for key in k.metadata._asdict() if key.startswith("triton_mfma")], name
        assert_same_as_stock(k, name, ARCH, stages=("ttir", "ttgir", "llir", "amdgcn"))


def test_strict_mode_raises_our_error_not_attribute_error(monkeypatch):
    from triton_mfma.ir.bridge import TritonBuildError

    monkeypatch.setenv("TRITON_MFMA_STRICT", "1")
    with pytest.raises(TritonBuildError, match="LLVMParseCommandLineOptions") as err:
        _compile(("gemm",))
    assert err.value.version.endswith("+fb") and err.value.library.endswith("libtriton.so"), err.value


def _cli(*args):
    env = {**os.environ, "TRITON_MFMA_STRICT": "0", "TRITON_DEFAULT_FP_FUSION": "1"}
    return subprocess.run([sys.executable, "-m", "triton_mfma.commands.cli", *args], capture_output=True, text=True,
                          timeout=600, env=env)


def test_demo_exits_0_with_stock_figures_and_one_warning():
    r = _cli("demo", "--kernel", "gemm", "--kernel", "attn_fwd_d64", "--kernel", "softmax", "--json")
    assert r.returncode == 0, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "MFMAWarning" in lines[0] and "stays off" in lines[0], r.stderr
    out = json.loads(r.stdout)
    assert "LLVMParseCommandLineOptions" in out["triton_mfma_off"]
    for row in out["kernels"]:
        assert row["identical_amdgcn"], row["kernel"]
        figures = [k for k in row["stock"] if k != "compile_s"]
        assert {k: row["stock"][k] for k in figures} == {k: row["triton-mfma"][k] for k in figures}, row


def test_version_says_unsupported_and_why():
    r = _cli("--version")
    assert r.returncode == 0 and "unsupported" in r.stdout and "LLVMParseCommandLineOptions" in r.stdout, r
