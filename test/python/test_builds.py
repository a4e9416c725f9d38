"""Triton builds recognized by what their make_ttgir does (pipeline.py), with modified copies of make_ttgir.

Each modified copy is real code in a real module file (inspect.getsource reads it), installed as
HIPBackend.make_ttgir for one test; compiles are real (hsaco for gfx942, no GPU). A build whose pipeline is
known or derivable compiles with the project's passes; one that is not compiles exactly as stock, with one
warning naming the build.
"""
import importlib.util
import inspect
import textwrap
import warnings

import pytest
import triton
from triton.backends.amd.compiler import HIPBackend

from conftest import assert_same_compiles

import triton_mfma
from triton_mfma import MFMARemark, MFMAWarning, pipeline
from triton_mfma.compile import compile_kernel
from triton_mfma.examples import CORPUS

ARCH = "gfx942"
UPSTREAM = inspect.getsource(HIPBackend.make_ttgir)
SCHEDULE = "amd.passes.ttgpuir.add_schedule_loops(pm, options.num_stages)"
PIPELINE = "amd.passes.ttgpuir.add_pipeline(pm, use_async_copy, use_block_pingpong)"
ACCELERATE = "amd.passes.ttgpuir.add_accelerate_matmul(pm, options.arch, options.matrix_instr_nonkdim, options.kpack)"


@pytest.fixture(autouse=True)
def _fresh_builds(monkeypatch):
    """Each test sees its own builds and warnings (the module caches them per make_ttgir function)."""
    monkeypatch.setattr(pipeline, "_BUILDS", {})
    monkeypatch.setattr(pipeline, "_WARNED", set())


def _module(tmp_path, name, source):
    """A module file holding `source`, in the namespace of Triton's AMD compiler module (its imports)."""
    path = tmp_path / f"{name}.py"
    path.write_text("from triton.backends.amd import compiler as _amd\n"
                    "globals().update({k: v for k, v in vars(_amd).items() if not k.startswith('__')})\n\n"
                    + source)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _drop(source, statement):
    return "".join(line for line in source.splitlines(True) if line.strip() != statement)


def _install(monkeypatch, tmp_path, edit, name="modified"):
    """HIPBackend.make_ttgir := upstream's source with `edit` applied (a function of the source text)."""
    body = textwrap.dedent(UPSTREAM).replace("@staticmethod\n", "")
    changed = edit(body)
    assert changed != body, "the edit must change make_ttgir"
    fn = _module(tmp_path, name, changed).make_ttgir
    monkeypatch.setattr(HIPBackend, "make_ttgir", staticmethod(fn))
    return fn


def _gemm(passes=None):
    """(kernel, MFMAWarnings, remarks) of the gemm corpus kernel for gfx942; `passes` None: stock Triton."""
    fn, sig, cx = CORPUS["gemm"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if passes is None:
            k = compile_kernel(fn, sig, cx, ARCH)
        else:
            with triton_mfma.enabled(passes=passes):
                k = compile_kernel(fn, sig, cx, ARCH)
    warned = [str(w.message) for w in caught if issubclass(w.category, MFMAWarning)]
    return k, warned, [str(w.message) for w in caught if issubclass(w.category, MFMARemark)]


def _assert_stock(ours, stock):
    assert_same_compiles(ours, stock, ("ttgir", "amdgcn"), lambda: _gemm()[0])


def test_installed_builds_are_known():
    for backend in ("hip", "cuda"):
        b = pipeline.build(backend)
        assert b.known and b.composed is not None and not b.missing, b.describe()
        assert b.identity in pipeline.KNOWN_BUILDS


def test_identity_ignores_formatting_but_not_passes(monkeypatch, tmp_path):
    reformatted = _install(monkeypatch, tmp_path, lambda s: s.replace("    pm.enable_debug()\n",
                                                                      "    pm.enable_debug()  # a comment\n", 1),
                           "reformatted")
    assert pipeline.identity("hip", reformatted) == pipeline.build("hip").identity
    assert pipeline.identity("hip", reformatted) in pipeline.KNOWN_BUILDS
    added = _install(monkeypatch, tmp_path, lambda s: s.replace(
        "passes.ttgpuir.add_coalesce(pm)\n", "passes.ttgpuir.add_coalesce(pm)\n    passes.common.add_cse(pm)\n"),
        "added_id")
    assert pipeline.identity("hip", added) not in pipeline.KNOWN_BUILDS


@pytest.mark.parametrize("version", ["3.8.0+git4cff872c.rocm10.0.0", "3.10.0"])
def test_renamed_version_with_a_known_pipeline_runs_the_passes(monkeypatch, version):
    monkeypatch.setattr(triton, "__version__", version)
    assert pipeline.check_triton_version() >= (3, 8)
    k, warned, _ = _gemm(["mfma-accelerate-dot"])
    assert not warned
    build = k.metadata.triton_mfma_build
    assert build["triton"] == version and "known" in build["pipeline"], build
    assert k.metadata.triton_mfma_accelerate_dot["decision"] in ("kept", "reverted")


def test_older_triton_is_refused_in_one_line():
    with pytest.raises(pipeline.UnsupportedTritonError, match="needs Triton 3.8 or newer"):
        pipeline.check_triton_version("3.7.1")
    assert pipeline.check_triton_version("3.10.0") == (3, 10)


def test_added_pass_is_derived_proven_and_runs_the_passes(monkeypatch, tmp_path):
    _install(monkeypatch, tmp_path, lambda s: s.replace(
        "passes.ttgpuir.add_coalesce(pm)\n", "passes.ttgpuir.add_coalesce(pm)\n    passes.common.add_cse(pm)\n"))
    b = pipeline.build("hip")
    assert b.known is None and b.composed is not None and not b.missing
    k, warned, _ = _gemm(["mfma-accelerate-dot", "mfma-stream-pipeline"])
    assert not warned
    assert b.proven == {ARCH: ""}
    assert "derived, proven" in k.metadata.triton_mfma_build["pipeline"]
    assert k.metadata.triton_mfma_accelerate_dot["decision"] in ("kept", "reverted")
    assert "triton_mfma_stream_pipeline" in k.metadata._asdict() or "mfma-stream-pipeline" in k.metadata.triton_mfma


def test_composition_replaces_the_steps_it_names(monkeypatch, tmp_path):
    """The derived source: ours before accelerate_matmul, Triton's step only where ours is off or declined."""
    _install(monkeypatch, tmp_path, lambda s: s.replace(
        "passes.ttgpuir.add_coalesce(pm)\n", "passes.ttgpuir.add_coalesce(pm)\n    passes.common.add_cse(pm)\n"))
    src = pipeline.build("hip").composed.source
    at = src.index("_tmfma_c.at('accelerate_matmul')")
    assert src.index("if _tmfma_c.triton_step('accelerate_matmul')") > at
    assert src.index("add_accelerate_matmul") > at
    assert src.index("_tmfma_c.at('pipeline')") < src.index("add_schedule_loops") < src.index("add_pipeline(")
    assert src.index("_tmfma_c.finish()") > src.rindex("_tmfma_c.run(")


@pytest.mark.parametrize("edit,point,passes", [
    (lambda s: _drop(s, ACCELERATE), "accelerate_matmul", ["mfma-accelerate-dot"]),
    (lambda s: s.replace(SCHEDULE, "@@").replace(PIPELINE, SCHEDULE).replace("@@", PIPELINE), "pipeline",
     ["mfma-stream-pipeline"]),
], ids=["removed", "reordered"])
def test_missing_point_compiles_as_stock_with_one_warning(monkeypatch, tmp_path, edit, point, passes):
    _install(monkeypatch, tmp_path, edit)
    assert point in pipeline.build("hip").missing
    stock, warned, _ = _gemm()
    assert not warned
    ours, warned, _ = _gemm(passes)
    _assert_stock(ours, stock)
    assert len(warned) == 1 and f"no insertion point {point}" in warned[0] and "unknown pipeline" in warned[0], \
        warned
    _, again, _ = _gemm(passes)
    assert not again, "the build is named once per process"


@pytest.mark.parametrize("kind", ["closure", "functools.wraps"])
def test_wrapper_compiles_as_stock_with_one_warning(monkeypatch, tmp_path, kind):
    real = HIPBackend.make_ttgir
    seen = []
    if kind == "closure":
        def wrapper(mod, metadata, options):
            seen.append(1)
            return real(mod, metadata, options)
    else:
        import functools

        @functools.wraps(real)
        def wrapper(mod, metadata, options):
            seen.append(1)
            return real(mod, metadata, options)
    monkeypatch.setattr(HIPBackend, "make_ttgir", staticmethod(wrapper))
    stock, warned, _ = _gemm()
    ours, warned, _ = _gemm(["mfma-accelerate-dot", "mfma-stream-pipeline"])
    _assert_stock(ours, stock)
    assert len(seen) == 2, "the wrapper itself runs (our passes do not bypass it)"
    assert len(warned) == 1 and "make_ttgir not composed" in warned[0] and "wraps another function" in warned[0], \
        warned
    assert "not composed" in ours.metadata.triton_mfma_build["pipeline"]


def test_failed_proof_compiles_as_stock_naming_the_first_difference(monkeypatch, tmp_path):
    """A composition derived from another make_ttgir than the one installed (upstream's without
    remove_layout_conversions) fails the proof at first use: the build compiles as stock, with one warning
    naming the first difference."""
    other = _install(monkeypatch, tmp_path, lambda s: _drop(s, "passes.ttgpuir.add_remove_layout_conversions(pm)"),
                     "other")
    composed, missing = pipeline.derive("hip", other)
    monkeypatch.setattr(HIPBackend, "make_ttgir", staticmethod(_module(
        tmp_path, "installed", textwrap.dedent(UPSTREAM).replace("@staticmethod\n", "").replace(
            "pm.enable_debug()\n", "pm.enable_debug()  # the installed one\n", 1)).make_ttgir))
    installed = pipeline.installed_make_ttgir("hip")
    b = pipeline.Build("hip", triton.__version__, "hip:test", None, composed, missing)
    pipeline._BUILDS["hip", installed] = b
    stock, warned, _ = _gemm()
    ours, warned, _ = _gemm(["mfma-accelerate-dot"])
    _assert_stock(ours, stock)
    assert len(warned) == 1 and "differs from stock (line" in warned[0] and ARCH in warned[0], warned
    assert b.proven[ARCH].startswith("line ")


def test_metadata_names_the_build_and_its_code_changing_flags():
    k, _, _ = _gemm(["mfma-accelerate-dot"])
    build = k.metadata.triton_mfma_build
    assert build["triton"] == triton.__version__
    assert build["make_ttgir"] == pipeline.build("hip").identity
    assert build["waves_per_eu_attr"] in ("W", "W,W")
    assert build["llvm_flags"] in ("none added", "amdgpu-use-amdgpu-trackers")


def test_flag_detection_reads_the_target_condition():
    src = textwrap.dedent('''
        def get_llvm_flags(arch):
            flags = ["-x"]
            if arch in ("gfx942", "gfx950"):
                flags.append("-amdgpu-use-amdgpu-trackers=1")
            return flags
    ''')
    assert pipeline._flag_applies(src, "amdgpu-use-amdgpu-trackers", "gfx942") is True
    assert pipeline._flag_applies(src, "amdgpu-use-amdgpu-trackers", "gfx90a") is False
    assert pipeline._flag_applies("def f(): pass", "amdgpu-use-amdgpu-trackers", "gfx942") is None
