"""Activation: scoped per thread, validated up front, strict not bypassed by the cache; remarks' verbosity."""
import os
import subprocess
import sys
import threading
import warnings

import pytest
from triton import knobs

import triton_mfma
from triton_mfma import MFMARemark, MFMAWarning
from triton_mfma.ir import runner
from triton_mfma.compiler.compile import compile_kernel
from triton_mfma.examples import CORPUS
from triton_mfma.examples import kernels as K

ANALYSIS = "mfma-print-layouts"


def test_two_threads_each_get_their_own_options():
    """Thread A compiles with matrix_instr_nonkdim=16, thread B with 32, at the same time: each gets its own."""
    fn, sig = K.matmul, K._gemm_sig()
    cx = dict(BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
    results, barrier = {}, threading.Barrier(2)

    def work(label, nonkdim):
        with triton_mfma.enabled(passes=["mfma-accelerate-dot"], matrix_instr_nonkdim=nonkdim, verify_dot=False):
            barrier.wait()
            results[label] = (compile_kernel(fn, sig, cx, "gfx942"), triton_mfma.current())

    threads = [threading.Thread(target=work, args=("a", 16)), threading.Thread(target=work, args=("b", 32))]
    # warning filters are process-wide: set once here (catch_warnings in each thread restores them under the other)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert "v_mfma_f32_16x16x16" in results["a"][0].asm["amdgcn"]
    assert "v_mfma_f32_32x32x8" in results["b"][0].asm["amdgcn"]
    assert results["a"][1].options["matrix_instr_nonkdim"] == 16
    assert not triton_mfma.is_enabled()
    assert knobs.runtime.add_stages_inspection_hook is None, "no activation left: the hook is gone"


def test_a_thread_without_a_block_compiles_stock():
    fn, sig, cx = CORPUS["softmax"]
    seen = []
    with triton_mfma.enabled(passes=[ANALYSIS]):
        t = threading.Thread(target=lambda: seen.append(triton_mfma.current()))
        t.start()
        t.join()
        assert triton_mfma.current() is not None
    assert seen == [None]
    triton_mfma.enable(passes=[ANALYSIS])
    t = threading.Thread(target=lambda: seen.append(triton_mfma.current()))
    t.start()
    t.join()
    assert seen[-1] is not None and seen[-1].passes == (ANALYSIS,), "enable() reaches every thread"
    with triton_mfma.disabled():
        assert triton_mfma.current() is None
    triton_mfma.disable()
    compile_kernel(fn, sig, cx, "gfx942")


def test_strict_after_a_cached_fallback_recompiles_and_raises(monkeypatch, tmp_path):
    """A non-strict compile that fell back to stock is cached; a strict compile of the same kernel does not get
    that entry: it compiles again and raises."""
    def broken(text, pipeline):
        raise triton_mfma.PipelineError(pipeline, [])

    monkeypatch.setattr(runner, "_run", broken)
    monkeypatch.setenv("TRITON_MFMA_STRICT", "0")
    saved = knobs.compilation.always_compile
    knobs.compilation.always_compile = False
    knobs.cache.dir = str(tmp_path)
    fn, sig, cx = CORPUS["softmax"]
    try:
        with pytest.warns(MFMAWarning, match="stock Triton"), triton_mfma.enabled(passes=[ANALYSIS]):
            k = compile_kernel(fn, sig, cx, "gfx942")
        assert "triton_mfma_fallback" in k.metadata._asdict() or hasattr(k.metadata, "triton_mfma_fallback")
        with pytest.raises(Exception, match="failed on kernel"), triton_mfma.enabled(passes=[ANALYSIS], strict=True):
            compile_kernel(fn, sig, cx, "gfx942")
    finally:
        knobs.compilation.always_compile = saved


@pytest.mark.parametrize("options, message", [
    (dict(grid_order="on},mfma-lds-usage{annotate=true"), "grid_order"),
    (dict(lds_limit=-5), "lds_limit"),
    (dict(lds_limit="big"), "lds_limit"),
    (dict(kpack=3), "kpack"),
    (dict(matrix_instr_nonkdim=7), "matrix_instr_nonkdim"),
    (dict(grid_order="maybe"), "grid_order"),
    (dict(waves_per_eu=9), "waves_per_eu"),
    (dict(max_compiles=1), "max_compiles"),
    (dict(remember="sometimes"), "remember"),
    (dict(cpu_bound="sometimes"), "cpu_bound"),
    (dict(remarks="loud"), "remarks"),
    (dict(backends="rocm"), "backends"),
])
def test_bad_option_values_are_rejected_at_enable(options, message):
    passes = ["mfma-grid-order", "mfma-split-epilogue-cvt", "mfma-accelerate-dot"]
    with pytest.raises(ValueError, match=message):
        triton_mfma.enable(passes=passes, **options)
    assert not triton_mfma.is_enabled()


def test_an_option_no_enabled_pass_uses_is_an_error():
    with pytest.raises(ValueError, match="lds_limit.*mfma-split-epilogue-cvt.*not enabled"):
        triton_mfma.enable(passes=["mfma-grid-order"], lds_limit=4096)
    with pytest.raises(ValueError, match="unknown triton-mfma option"):
        triton_mfma.enable(no_such_option=1)


def test_option_values_reach_the_pipeline_only_checked():
    from triton_mfma.composition.passes import REGISTRY

    p = REGISTRY["mfma-grid-order"]
    assert p.pipeline_element({"grid_order": "on", "grid_group_size": 4}) == "mfma-grid-order{mode=on group-size=4}"
    with pytest.raises(ValueError):
        p.option("grid_order").pipeline_value("on}")


def test_a_pass_list_given_as_a_string_is_split_on_commas():
    act = triton_mfma.compiler.hook.Activation("mfma-print-layouts,mfma-lds-usage")
    assert act.passes == ("mfma-print-layouts", "mfma-lds-usage")


def test_defaults_act_on_hip_only_unless_cuda_is_asked_for():
    default = triton_mfma.compiler.hook.Activation()
    assert default.points_for("cuda") == {} and default.points_for("hip")
    named = triton_mfma.compiler.hook.Activation(passes=["mfma-grid-order", "mfma-stream-pipeline"])
    assert set(named.points_for("cuda")) == {"ttgir_end", "pipeline"}
    asked = triton_mfma.compiler.hook.Activation(backends=["hip", "cuda"])
    assert "pipeline" not in asked.points_for("cuda"), "the stream pipeliner acts on cuda only when named"


def _run(code, **env):
    full = {k: v for k, v in os.environ.items() if not k.startswith("TRITON_MFMA_REMARKS")}
    full.update(env)
    return subprocess.run([sys.executable, *code], env=full, capture_output=True, text=True, check=True)


SCRIPT = ("import os, triton_mfma; from triton import knobs; knobs.compilation.always_compile = True\n"
          "from triton_mfma.compiler.compile import compile_kernel\nfrom triton_mfma.examples import CORPUS\n"
          "fn, sig, cx = CORPUS['gemm']\nwith triton_mfma.enabled(passes=['mfma-print-layouts']):\n"
          "    compile_kernel(fn, sig, cx, 'gfx942')\n")


@pytest.mark.parametrize("how, expect", [
    ({}, 1),
    ({"TRITON_MFMA_REMARKS": "none"}, 0),
    ({"TRITON_MFMA_REMARKS": "all"}, None),
    ({"args": ["-W", "ignore:triton-mfma remark"]}, 0),
    ({"args": ["-W", "ignore::triton_mfma.MFMARemark"]}, 0),
    ({"PYTHONWARNINGS": "ignore::triton_mfma.MFMARemark"}, 0),
])
def test_remark_verbosity_and_filters_from_the_shell(how, expect):
    env = {k: v for k, v in how.items() if k != "args"}
    out = _run([*how.get("args", []), "-c", SCRIPT], **env)
    lines = [ln for ln in out.stderr.splitlines() if "MFMARemark" in ln]
    if expect is None:
        assert len(lines) > 1
    else:
        assert len(lines) == expect, out.stderr
    assert "Traceback" not in out.stderr


def test_remarks_point_at_the_users_code():
    with warnings.catch_warnings(record=True) as caught, triton_mfma.enabled(passes=[ANALYSIS], remarks="summary"):
        warnings.simplefilter("always")
        fn, sig, cx = CORPUS["softmax"]
        compile_kernel(fn, sig, cx, "gfx942")
    summary = [w for w in caught if issubclass(w.category, MFMARemark)]
    assert len(summary) == 1 and summary[0].filename == __file__, [(w.filename, str(w.message)) for w in summary]
