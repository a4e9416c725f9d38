"""The C API seen from Python: diagnostics become exceptions and warnings with locations."""
import os
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


def test_run_pipeline_full_reports_each_pass_outcome():
    from triton_mfma.ir.native import Outcome, run_pipeline_full

    result = run_pipeline_full(SMALL, "builtin.module(mfma-print-layouts,mfma-accelerate-dot,mfma-stream-pipeline,"
                                      "mfma-grid-order)")
    assert result.text == SMALL
    assert any(d.severity == "remark" for d in result.diagnostics)
    assert [o.pass_name for o in result.outcomes] == ["mfma-print-layouts", "mfma-accelerate-dot",
                                                      "mfma-stream-pipeline", "mfma-grid-order"]
    assert result.outcome("mfma-accelerate-dot") == Outcome("mfma-accelerate-dot", "unchanged",
                                                            "no tt.dot with a blocked result layout")
    # No loop to pipeline: the pass declines (the hook runs Triton's pipeliner in its place); the remark stays.
    assert result.outcome("mfma-stream-pipeline") == Outcome("mfma-stream-pipeline", "declined",
                                                             "no scf.for in the module")
    assert result.declined() == ["mfma-stream-pipeline"]
    assert any("mfma-stream-pipeline declined" in d.message for d in result.diagnostics)
    assert result.outcome("mfma-grid-order").reason == "'k': unchanged: the kernel reads no program id"
    assert all(o.status in ("applied", "unchanged", "declined") and "\n" not in o.reason for o in result.outcomes)


def test_run_pipeline_full_declined_target_and_errors():
    from triton_mfma.ir.native import run_pipeline_full

    lit = os.path.join(os.path.dirname(__file__), "..", "lit", "mfma-accelerate-dot-declines.mlir")
    gfx1100 = next(c for c in open(lit).read().split("// -----") if "hip:gfx1100" in c)
    result = run_pipeline_full(gfx1100, "mfma-accelerate-dot")
    assert result.text == run_pipeline_full(gfx1100, "").text  # declined: IR unchanged
    assert result.declined() == ["mfma-accelerate-dot"]
    assert result.outcomes[0].reason == "target hip:gfx1100 (not gfx90a, gfx942 or gfx950)"
    with pytest.raises(PipelineError, match="mode must be auto, on or off"):
        run_pipeline_full(SMALL, "builtin.module(mfma-grid-order{mode=sometimes})")
    with pytest.raises(PipelineError):
        run_pipeline_full(SMALL[: len(SMALL) // 2], "")
    assert run_pipeline_full(SMALL, "").outcomes == []


def test_target_info_is_the_cpp_description():
    from triton_mfma.models import l2model, occupancy
    from triton_mfma.ir import native

    targets = {t["target"]: t for t in native.target_info()}
    assert set(targets) == {"hip:gfx90a", "hip:gfx942", "hip:gfx950", "cuda:90"}
    for arch in ("gfx90a", "gfx942", "gfx950"):
        t, o = targets[f"hip:{arch}"], occupancy.target(arch)
        assert (o.lds_per_cu, o.vgpr_file, o.sgpr_file, o.max_waves_per_simd, o.wave_size) == (
            t["lds_per_cu"], t["vgpr_file"], t["sgpr_file"], t["max_waves_per_simd"], t["wave_size"])
        assert o.lds_transpose_reads == t["lds_transpose_reads"] == (arch == "gfx950")  # CDNA4's ds_read_*_tr_*
    for name, t in targets.items():
        m = l2model.TARGETS[name]
        assert (m.cus, m.xcds, m.l2_bytes, m.shared_per_cu) == (t["cus"], t["xcds"], t["l2_bytes"], t["lds_per_cu"])


def test_l2_query_is_the_pass_model():
    from triton_mfma.ir import native

    a = native.l2_query({"target": "cuda:90", "num_warps": 4, "shared_bytes": 0,
                         "grid": {"sizes": [300, 8, 2], "far_dim": 2,
                                  "operands": [{"bytes": 4096 * 32, "moved": [1, 2]},
                                               {"bytes": 8192 * 32, "moved": [0, 1]}]}})
    assert a["concurrent_programs"] == a["cus"] * a["programs_per_cu"] and a["known"]
    assert a["total_programs"] == 300 * 8 * 2
    assert a["streamed_bytes"] == 4096 * 32 * 8 + 8192 * 32 * 300 * 8
    assert a["misses"] == (a["total_programs"] > a["concurrent_programs"]
                           and a["streamed_bytes"] > a["effective_l2_bytes"])
    assert not native.l2_query({"target": "hip:gfx1100"})["known"]
    with pytest.raises(ValueError, match="target"):
        native.l2_query({})


def test_pass_registry_is_generated_from_passes_td():
    from triton_mfma.ir import native

    registry = native.pass_registry()
    assert set(registry) == {"mfma-print-layouts", "mfma-grid-order", "mfma-stream-pipeline", "mfma-lds-usage",
                             "mfma-dot-work",
                             "mfma-split-epilogue-cvt", "mfma-accelerate-dot", "mfma-hip-num-programs"}
    grid = registry["mfma-grid-order"]
    assert grid["summary"] and grid["description"]
    mode = next(o for o in grid["options"] if o["argument"] == "mode")
    assert (mode["type"], mode["default"], mode["default_value"]) == ("std::string", '"auto"', "auto")
    chain = next(o for o in registry["mfma-accelerate-dot"]["options"] if o["argument"] == "chain-dots")
    assert chain["default_value"] is True
    # Every declared option is accepted by the library under its argument.
    for name, p in registry.items():
        opts = " ".join(f"{o['argument']}={str(o['default_value']).lower()}" for o in p["options"]
                        if not isinstance(o["default_value"], str) or o["default_value"])
        run_pipeline_with_diagnostics(SMALL, f"builtin.module({name}{{{opts}}})")
