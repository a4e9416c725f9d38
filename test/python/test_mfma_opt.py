"""mfma-opt, the lit driver, as users run it: installed console command, bad input handled."""
import shutil
import subprocess

import pytest

GOOD = open(__file__.replace("test_mfma_opt.py", "test_native.py")).read().split("'''")[1]


def _run(stdin, *args):
    exe = shutil.which("mfma-opt")
    assert exe, "mfma-opt is installed as a console command"
    return subprocess.run([exe, *args, "-"], input=stdin, capture_output=True, text=True, timeout=60)


def test_accepts_generic_ttgir():
    r = _run(GOOD, "--mlir-print-op-generic", "--mlir-print-debuginfo", "--mlir-print-local-scope")
    assert r.returncode == 0, r.stderr
    assert '"tt.make_range"' in r.stdout


@pytest.mark.parametrize("text", [GOOD[: len(GOOD) // 2], GOOD.replace("}>", "}", 1), "\x00garbage{{", ""],
                         ids=["truncated", "malformed", "garbage", "empty"])
def test_bad_input_gives_diagnostic_not_signal(text):
    r = _run(text, "--pass-pipeline=builtin.module(mfma-print-layouts)")
    if text == "":
        assert r.returncode == 0  # an empty file is an empty module
        return
    assert r.returncode > 0, "non-zero exit, and never a signal (negative return code)"
    assert "error" in r.stderr
