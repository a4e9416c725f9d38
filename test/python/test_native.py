"""The C API seen from Python: diagnostics become exceptions and warnings with locations."""
import warnings

import pytest

from triton_mfma import MFMARemark, PipelineError, run_pipeline, run_pipeline_with_diagnostics

SMALL = '''"builtin.module"() ({
  "tt.func"() <{function_type = () -> (), sym_name = "k", sym_visibility = "public"}> ({
    %0 = "tt.make_range"() <{end = 64 : i32, start = 0 : i32}> : () -> tensor<64xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>> loc("k.py":3:7)
    "tt.return"() : () -> () loc("k.py":4:1)
  }) : () -> () loc("k.py":1:1)
}) {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} : () -> () loc("k.py":0:0)'''


def test_empty_pipeline_round_trips():
    assert run_pipeline(SMALL, "") == SMALL


def test_remarks_become_warnings_with_locations():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = run_pipeline(SMALL, "builtin.module(mfma-print-layouts)")
    assert out == SMALL
    remarks = [str(w.message) for w in caught if issubclass(w.category, MFMARemark)]
    assert remarks and any("blocked" in r and "k.py" in r for r in remarks)


def test_parse_error_raises_with_location():
    with pytest.raises(PipelineError) as info:
        run_pipeline(SMALL[: len(SMALL) // 2], "")
    assert any(d.severity == "error" for d in info.value.diagnostics)


def test_unknown_pass_raises():
    with pytest.raises(PipelineError, match="mfma-no-such-pass"):
        run_pipeline(SMALL, "builtin.module(mfma-no-such-pass)")


def test_diagnostics_are_returned_structured():
    out, diags = run_pipeline_with_diagnostics(SMALL, "builtin.module(mfma-print-layouts)")
    assert out == SMALL
    assert all(d.severity in ("remark", "note") for d in diags)
