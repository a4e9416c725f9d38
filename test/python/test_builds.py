"""Triton builds recognized by what their make_ttgir does (make_ttgir.py), with modified copies of make_ttgir.

Each modified copy is real code in a real module file (inspect.getsource reads it), installed as
HIPBackend.make_ttgir for one test; compiles are real (hsaco for gfx942, no GPU). A build whose pipeline is
known or derivable compiles with the project's passes; one that is not compiles exactly as stock, with one
warning naming the build.
"""
import importlib.util
import inspect
import textwrap
import warnings
from pathlib import Path

import pytest
import triton
from triton.backends.amd.compiler import HIPBackend

from conftest import assert_same_compiles

import triton_mfma
from triton_mfma import MFMARemark, MFMAWarning
from triton_mfma.composition import make_ttgir
from triton_mfma.compiler.compile import compile_kernel
from triton_mfma.examples import CORPUS

ARCH = "gfx942"
UPSTREAM = inspect.getsource(HIPBackend.make_ttgir)
SCHEDULE = "amd.passes.ttgpuir.add_schedule_loops(pm, options.num_stages)"
PIPELINE = "amd.passes.ttgpuir.add_pipeline(pm, use_async_copy, use_block_pingpong)"
ACCELERATE = "amd.passes.ttgpuir.add_accelerate_matmul(pm, options.arch, options.matrix_instr_nonkdim, options.kpack)"


@pytest.fixture(autouse=True)
def _fresh_builds(monkeypatch):
    """Each test sees its own builds and warnings (the module caches them per make_ttgir function)."""
    monkeypatch.setattr(make_ttgir, "_BUILDS", {})
    monkeypatch.setattr(make_ttgir, "_WARNED", set())


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


# an accelerate-dot decision made (our pass acted at its point): by a trial or a model, or under the compile budget
# (a loaded machine reaches the CPU bound before a trial: ours compared once with Triton's kernel)
DECIDED = ("kept", "reverted", "budget")


def _assert_stock(ours, stock):
    assert_same_compiles(ours, stock, ("ttgir", "amdgcn"), lambda: _gemm()[0])


def test_installed_builds_are_known():
    for backend in ("hip", "cuda"):
        b = make_ttgir.build(backend)
        assert b.known and b.composed is not None and not b.missing, b.describe()
        assert b.identity in make_ttgir.KNOWN_BUILDS


def test_identity_ignores_formatting_but_not_passes(monkeypatch, tmp_path):
    reformatted = _install(monkeypatch, tmp_path, lambda s: s.replace("    pm.enable_debug()\n",
                                                                      "    pm.enable_debug()  # a comment\n", 1),
                           "reformatted")
    assert make_ttgir.identity("hip", reformatted) == make_ttgir.build("hip").identity
    assert make_ttgir.identity("hip", reformatted) in make_ttgir.KNOWN_BUILDS
    added = _install(monkeypatch, tmp_path, lambda s: s.replace(
        "passes.ttgpuir.add_coalesce(pm)\n", "passes.ttgpuir.add_coalesce(pm)\n    passes.common.add_cse(pm)\n"),
        "added_id")
    assert make_ttgir.identity("hip", added) not in make_ttgir.KNOWN_BUILDS


@pytest.mark.parametrize("version", ["3.8.0+git4cff872c.rocm10.0.0", "3.10.0"])
def test_renamed_version_with_a_known_pipeline_runs_the_passes(monkeypatch, version):
    monkeypatch.setattr(triton, "__version__", version)
    assert make_ttgir.check_triton_version() >= (3, 8)
    k, warned, _ = _gemm(["mfma-accelerate-dot"])
    assert not warned
    build = k.metadata.triton_mfma_build
    assert build["triton"] == version and "known" in build["pipeline"], build
    assert k.metadata.triton_mfma_accelerate_dot["decision"] in DECIDED


def test_older_triton_is_refused_in_one_line():
    with pytest.raises(make_ttgir.UnsupportedTritonError, match="needs Triton 3.8 or newer"):
        make_ttgir.check_triton_version("3.7.1")
    assert make_ttgir.check_triton_version("3.10.0") == (3, 10)


def test_added_pass_is_derived_proven_and_runs_the_passes(monkeypatch, tmp_path):
    _install(monkeypatch, tmp_path, lambda s: s.replace(
        "passes.ttgpuir.add_coalesce(pm)\n", "passes.ttgpuir.add_coalesce(pm)\n    passes.common.add_cse(pm)\n"))
    b = make_ttgir.build("hip")
    assert b.known is None and b.composed is not None and not b.missing
    k, warned, _ = _gemm(["mfma-accelerate-dot", "mfma-stream-pipeline"])
    assert not warned
    assert b.proven == {ARCH: ""}
    assert "derived, proven" in k.metadata.triton_mfma_build["pipeline"]
    assert k.metadata.triton_mfma_accelerate_dot["decision"] in DECIDED
    assert "triton_mfma_stream_pipeline" in k.metadata._asdict() or "mfma-stream-pipeline" in k.metadata.triton_mfma


def test_composition_replaces_the_steps_it_names(monkeypatch, tmp_path):
    """The derived source: ours before accelerate_matmul, Triton's step only where ours is off or declined."""
    _install(monkeypatch, tmp_path, lambda s: s.replace(
        "passes.ttgpuir.add_coalesce(pm)\n", "passes.ttgpuir.add_coalesce(pm)\n    passes.common.add_cse(pm)\n"))
    src = make_ttgir.build("hip").composed.source
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
    assert point in make_ttgir.build("hip").missing
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
    composed, missing = make_ttgir.derive("hip", other)
    monkeypatch.setattr(HIPBackend, "make_ttgir", staticmethod(_module(
        tmp_path, "installed", textwrap.dedent(UPSTREAM).replace("@staticmethod\n", "").replace(
            "pm.enable_debug()\n", "pm.enable_debug()  # the installed one\n", 1)).make_ttgir))
    installed = make_ttgir.installed_make_ttgir("hip")
    b = make_ttgir.TritonBuild("hip", triton.__version__, "hip:test", None, composed, missing)
    make_ttgir._BUILDS["hip", installed] = b
    stock, warned, _ = _gemm()
    ours, warned, _ = _gemm(["mfma-accelerate-dot"])
    _assert_stock(ours, stock)
    assert len(warned) == 1 and "differs from stock (line" in warned[0] and ARCH in warned[0], warned
    assert b.proven[ARCH].startswith("line ")


def test_metadata_names_the_build_and_its_code_changing_flags():
    k, _, _ = _gemm(["mfma-accelerate-dot"])
    build = k.metadata.triton_mfma_build
    assert build["triton"] == triton.__version__
    assert build["make_ttgir"] == make_ttgir.build("hip").identity
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
    assert make_ttgir._flag_applies(src, "amdgpu-use-amdgpu-trackers", "gfx942") is True
    assert make_ttgir._flag_applies(src, "amdgpu-use-amdgpu-trackers", "gfx90a") is False
    assert make_ttgir._flag_applies("def f(): pass", "amdgpu-use-amdgpu-trackers", "gfx942") is None


# ---------------------------------------------------------------------------------------------------------
# make_ttgir branching on the compile's options, knobs or environment: the branch the compile takes is derived

FIXTURES = Path(__file__).resolve().parent / "fixtures"
BRANCH_VARS = ("TRITON_USE_MODULO_SCHEDULE", "TRITON_ENABLE_AMD_MODULO", "TMFMA_TEST_PIPELINE_ONLY")


def _options(**changed):
    from triton.backends.compiler import GPUTarget

    return HIPBackend(GPUTarget("hip", ARCH, 64)).parse_options(changed)


def _point_steps(source):
    """The composed source from the pipeline point to the end of Triton's steps there."""
    return source[source.index("_tmfma_c.at('pipeline')"):source.index("_tmfma_c.after('pipeline')")]


@pytest.fixture
def fbtriton_make_ttgir(monkeypatch):
    for name in BRANCH_VARS:
        monkeypatch.delenv(name, raising=False)
    spec = importlib.util.spec_from_file_location("fbtriton_make_ttgir", FIXTURES / "fbtriton_make_ttgir.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.HIPBackend.make_ttgir


def test_fbtriton_make_ttgir_derives_the_branch_its_options_take(fbtriton_make_ttgir, monkeypatch):
    """fbtriton 3.8.0rc3's make_ttgir (its source text, test/python/fixtures) wraps the pipeliner's calls in
    if/elif/else on two environment variables: the default takes upstream's branch, composed as upstream's is."""
    composed, missing = make_ttgir.derive("hip", fbtriton_make_ttgir, (_options(),))
    assert not missing
    assert composed.branch == ("not os.environ.get('TRITON_USE_MODULO_SCHEDULE')",
                               "not os.environ.get('TRITON_ENABLE_AMD_MODULO')")
    assert _point_steps(composed.source) == _point_steps(make_ttgir.build("hip").composed.source)
    assert "_tmfma_c.took(os.environ.get('TRITON_ENABLE_AMD_MODULO'), False" in composed.source

    monkeypatch.setenv("TRITON_USE_MODULO_SCHEDULE", "1")  # its first branch: ours in place of its two steps there
    composed, missing = make_ttgir.derive("hip", fbtriton_make_ttgir, (_options(),))
    assert not missing and composed.branch == ("os.environ.get('TRITON_USE_MODULO_SCHEDULE')",)
    src = composed.source
    assert src.index("add_dot_decompose_and_schedule(_tmfma_c.pm, 'modulo')") < src.index("_tmfma_c.at('pipeline')")

    monkeypatch.delenv("TRITON_USE_MODULO_SCHEDULE")
    monkeypatch.setenv("TRITON_ENABLE_AMD_MODULO", "1")  # its second: no schedule_loops, so no point
    composed, missing = make_ttgir.derive("hip", fbtriton_make_ttgir, (_options(),))
    assert list(missing) == ["pipeline"], missing
    assert "(found add_pipeline); in the branch this compile takes (not os.environ.get('TRITON_USE_MODULO_SCHEDULE')" \
           ", os.environ.get('TRITON_ENABLE_AMD_MODULO'))" in missing["pipeline"], missing
    assert "_tmfma_c.at('accelerate_matmul')" in composed.source

    composed, missing = make_ttgir.derive("hip", fbtriton_make_ttgir)  # no compile's options: nothing is read
    assert "no compile's options to read it from" in missing["pipeline"] and not composed.branch


# the passes as they are: no trial or check compiles, so two compiles of one kernel are one build, comparable
UNVERIFIED = dict(verify_dot=False, verify_pipeline=False, verify_combination=False, reduce_num_stages=False,
                  sched_strategy=False, cpu_bound=False)

_BRANCHED = ("if knobs.amd.use_buffer_ops and options.num_stages == 7:\n"  # a knob and an option: False by default
             f"        {PIPELINE}\n"
             "    elif os.environ.get('TMFMA_TEST_PIPELINE_ONLY'):\n"
             f"        {PIPELINE}\n"
             "    else:\n"
             f"        {SCHEDULE}\n"
             f"        {PIPELINE}\n")


def _branched(source, test=None):
    """upstream's make_ttgir with its pipeliner's calls in if/elif/else (`test`: another first test)."""
    branched = _BRANCHED if test is None else _BRANCHED.replace(
        "knobs.amd.use_buffer_ops and options.num_stages == 7", test)
    return source.replace(f"{SCHEDULE}\n    {PIPELINE}\n", branched)


def _ours_and_warnings(fn, sig, cx, options):
    """A compile with the project on (`options`) and the MFMAWarning texts it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with triton_mfma.enabled(**options):
            k = compile_kernel(fn, sig, cx, ARCH)
    return k, [str(w.message) for w in caught if issubclass(w.category, MFMAWarning)]


def test_branched_make_ttgir_composes_the_branch_the_compile_takes(monkeypatch, tmp_path):
    """A make_ttgir branching on a knob, an option and the environment: the default options take upstream's
    branch (derived, proven, our passes run and compile as under upstream's make_ttgir); a compile whose
    environment takes the branch without schedule_loops has no pipeline point: stock output, one warning."""
    monkeypatch.delenv("TMFMA_TEST_PIPELINE_ONLY", raising=False)
    passes = ["mfma-accelerate-dot", "mfma-stream-pipeline"]
    unverified = dict(passes=passes, **UNVERIFIED)
    fn, sig, cx = CORPUS["gemm"]

    def ours():
        return _ours_and_warnings(fn, sig, cx, unverified)

    upstream, _ = ours()
    _install(monkeypatch, tmp_path, _branched)
    branched, warned = ours()
    assert not warned
    build = branched.metadata.triton_mfma_build["pipeline"]
    assert build.startswith("derived, proven") and "branch not (knobs.amd.use_buffer_ops and options.num_stages == " \
           "7); not os.environ.get('TMFMA_TEST_PIPELINE_ONLY')" in build, build
    assert branched.metadata.triton_mfma["mfma-stream-pipeline"].startswith("applied"), branched.metadata.triton_mfma
    assert_same_compiles(branched, upstream, ("ttgir", "amdgcn"), lambda: ours()[0])

    monkeypatch.setenv("TMFMA_TEST_PIPELINE_ONLY", "1")
    stock, _, _ = _gemm()
    theirs, warned, _ = _gemm(["mfma-stream-pipeline"])
    _assert_stock(theirs, stock)
    assert len(warned) == 1 and "no insertion point pipeline" in warned[0] and \
        "os.environ.get('TMFMA_TEST_PIPELINE_ONLY')" in warned[0], warned


def test_a_branch_test_that_reads_more_than_the_options_gives_the_point_up_naming_it(monkeypatch, tmp_path):
    monkeypatch.delenv("TMFMA_TEST_PIPELINE_ONLY", raising=False)
    fn = _install(monkeypatch, tmp_path, lambda s: _branched(s, "is_async_copy_enabled(options.arch) == 7"))
    composed, missing = make_ttgir.derive("hip", fn, (_options(),))
    assert "not in that order in one block" in missing["pipeline"] and \
        "branches on `is_async_copy_enabled(options.arch) == 7`" in missing["pipeline"] and \
        "a call of is_async_copy_enabled" in missing["pipeline"], missing


def test_a_branch_taken_otherwise_as_make_ttgir_runs_is_not_composed(tmp_path):
    """The derivation holds one branch; make_ttgir reads its test again as it runs, and another outcome raises
    (the stage's guard then compiles stock) instead of running steps that were not derived."""
    fake = _module(tmp_path, "fake_make_ttgir", textwrap.dedent('''
        class _PM:
            def __init__(self, context): self.added = []
            def enable_debug(self): pass
            def run(self, mod, name): mod.ran.extend(self.added)

        class _Passes:
            def __getattr__(self, name): return lambda pm, *a: pm.added.append(name)

        class ir:
            pass_manager = _PM

        class amd:
            class passes:
                ttgpuir = _Passes()

        def make_ttgir(mod, metadata, options):
            pm = ir.pass_manager(mod.context)
            amd.passes.ttgpuir.add_accelerate_matmul(pm)
            if options.num_stages == 3:
                amd.passes.ttgpuir.add_pipeline(pm)
            else:
                amd.passes.ttgpuir.add_schedule_loops(pm)
                amd.passes.ttgpuir.add_pipeline(pm)
            pm.run(mod, "make_ttgir")
            return mod
    '''))

    class Module:
        context, ran = None, []

    composed, missing = make_ttgir.derive("hip", fake.make_ttgir, (_options(num_stages=2),))
    assert not missing and composed.branch == ("not options.num_stages == 3",)
    mod = Module()
    composed(mod, {}, _options(num_stages=2), _tmfma_c=make_ttgir._Composer(mod, lambda _pt, m: m, set()))
    assert mod.ran == ["add_accelerate_matmul", "add_schedule_loops", "add_pipeline"]
    with pytest.raises(make_ttgir.NotDerivable, match=r"fake_make_ttgir.py:\d+ reads True as it runs, False when"):
        composed(Module(), {}, _options(num_stages=3), _tmfma_c=make_ttgir._Composer(Module(), lambda _pt, m: m, set()))


def test_a_newer_version_with_one_pass_moved_is_derived_proven_and_compiles_as_the_known_one(monkeypatch, tmp_path):
    """Triton 3.10 is not on PyPI yet: the installed make_ttgir under the version string 3.10.0, with
    optimize_descriptor_encoding moved from before the pipeliner to after it (across the pipeline point; a no-op
    on this kernel). An unknown build: derived, proven at first use, and our passes compile the kernel exactly as
    under the known build."""
    moved = "amd.passes.ttgpuir.add_optimize_descriptor_encoding(pm)"
    unverified = dict(passes=["mfma-accelerate-dot", "mfma-stream-pipeline"], **UNVERIFIED)
    fn, sig, cx = CORPUS["gemm"]

    def ours():
        return _ours_and_warnings(fn, sig, cx, unverified)

    known, _ = ours()
    assert "known" in known.metadata.triton_mfma_build["pipeline"]
    monkeypatch.setattr(triton, "__version__", "3.10.0")
    _install(monkeypatch, tmp_path, lambda s: _drop(s, moved).replace(f"{PIPELINE}\n", f"{PIPELINE}\n    {moved}\n"))
    src = make_ttgir.build("hip").composed.source
    assert src.index("_tmfma_c.after('pipeline')") < src.index("add_optimize_descriptor_encoding")
    newer, warned = ours()
    assert not warned
    assert newer.metadata.triton_mfma_build["triton"] == "3.10.0"
    assert newer.metadata.triton_mfma_build["pipeline"] == "derived, proven", newer.metadata.triton_mfma_build
    assert newer.metadata.triton_mfma["mfma-stream-pipeline"].startswith("applied"), newer.metadata.triton_mfma
    assert_same_compiles(newer, known, ("ttgir", "amdgcn"), lambda: ours()[0])
