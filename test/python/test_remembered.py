"""Trial verdicts remembered for the repeated specializations of one kernel (remembered.py): the same kernel up to its
arguments' divisibility takes them again without compiling the variants; anything else is another kernel."""
from __future__ import annotations

import warnings
from types import SimpleNamespace

import pytest

import triton_mfma
from triton_mfma.testing import kernelgen
from triton_mfma.trials import remembered
from triton_mfma.compiler.compile import aot_signature, compile_kernel

ARGS = ("arg_attrs = [{tt.divisibility = 16 : i32, tt.pointer_range = 32 : i32}, {tt.divisibility = 16 : i32}, {}, "
        "{tt.pointer_range = 32 : i32, tt.divisibility = 16 : i32}]")
BODY = '"tt.func"() <{%s, sym_name = "k"}> ({ %%c = "arith.constant"() <{value = %d : i32}> : () -> i32 })'


def _ctx(args=ARGS, constant=64, **options):
    return SimpleNamespace(ttir=BODY % (args, constant), triton_options=SimpleNamespace(num_warps=4, arch="gfx942"),
                           options=options)


def test_kernel_key_leaves_out_the_arguments_divisibility_only():
    aligned = remembered.kernel_key(_ctx())
    unaligned = ("arg_attrs = [{tt.pointer_range = 32 : i32}, {}, {}, {tt.pointer_range = 32 : i32}]")
    assert remembered.kernel_key(_ctx(unaligned)) == aligned
    assert remembered.kernel_key(_ctx(constant=1)) != aligned  # an argument specialized to 1: another body
    assert remembered.kernel_key(_ctx(unaligned.replace("32", "64"))) != aligned  # another pointer range
    assert remembered.kernel_key(_ctx(trial_all=True)) != aligned  # the activation's options are part of it
    other = _ctx()
    other.triton_options = SimpleNamespace(num_warps=8, arch="gfx942")
    assert remembered.kernel_key(other) != aligned
    assert remembered.kernel_key(SimpleNamespace(ttir="", triton_options=None, options={})) is None


def _two_specializations(seed, arch, tmp_path):
    """The generated kernel's compile arguments as the generator gives them, and with no integer argument a multiple
    of 16 (a launch on sizes and strides that are not)."""
    s = kernelgen.spec(seed)
    fn, sig, cx, attrs, opts = kernelgen.compile_args(s, str(tmp_path), arch)
    spec_b = ",".join(e.split(":")[0] if e.startswith("i32") else e for e in kernelgen.aot_spec(s).split(","))
    sig_b, cx_b, attrs_b = aot_signature(fn, spec_b, kernelgen.signature_spec(s)[1], arch=arch)
    assert attrs_b != attrs
    return fn, opts, (sig, cx, attrs), (sig_b, cx_b, attrs_b)


def _compile(fn, arch, opts, args, **options):
    options.setdefault("cpu_bound", False)  # trials to remember: no CPU caps (decisions.STAKES_CPU) ending them
    with warnings.catch_warnings(), triton_mfma.enabled(**options):
        warnings.simplefilter("ignore")
        md = compile_kernel(fn, *args[:2], arch, opts, args[2]).metadata
    evidence = {k: getattr(md, k)["evidence"] for k in ("triton_mfma_accelerate_dot", "triton_mfma_stream_pipeline",
                                                          "triton_mfma_grid_order")}
    return md.triton_mfma_trials, evidence


@pytest.fixture
def nothing_remembered():
    remembered.forget()
    yield
    remembered.forget()


def test_second_specialization_takes_the_first_ones_trial_verdicts(tmp_path, monkeypatch, nothing_remembered):
    """Generated seed 4382 on gfx942 (fp8 chained GEMM, spilling under stock): the first compile decides
    accelerate-dot, the stream pipeliner and grid order's check by trials; the same kernel on unaligned sizes takes
    their verdicts again and compiles the kernel it hands on and the waves_per_eu candidate only. With option
    `remember` off, or under trial_all, it compiles them again."""
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    fn, opts, a, b = _two_specializations(4382, "gfx942", tmp_path)
    trials_a, first = _compile(fn, "gfx942", opts, a)
    assert set(first.values()) == {"trial"}, first
    trials_b, second = _compile(fn, "gfx942", opts, b)
    assert set(second.values()) == {"remembered"} and trials_b < trials_a, (second, trials_b, trials_a)
    _, off = _compile(fn, "gfx942", opts, b, remember=False)
    assert "remembered" not in off.values(), off
    _, every = _compile(fn, "gfx942", opts, b, trial_all=True)
    assert "remembered" not in every.values(), every
    remembered.forget()
    _, fresh = _compile(fn, "gfx942", opts, b)
    assert "remembered" not in fresh.values(), fresh


def test_the_same_specialization_compiled_again_decides_afresh(tmp_path, monkeypatch, nothing_remembered):
    """Where Triton's cache is bypassed, the same specialization compiles again: it decides by itself (the same
    verdicts), nothing taken as remembered."""
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    fn, opts, a, _ = _two_specializations(4382, "gfx942", tmp_path)
    first, again = _compile(fn, "gfx942", opts, a), _compile(fn, "gfx942", opts, a)
    assert first == again and set(again[1].values()) == {"trial"}, (first, again)
