"""Options the user set are constraints (issue 55): no decision, revert or combination check hands on a kernel
outside them where a candidate it compared meets them; where none does, the remark says so."""
from __future__ import annotations

import re
import warnings
from types import SimpleNamespace

import pytest

import triton_mfma
from triton_mfma import MFMARemark
from triton_mfma.compiler.compile import aot_signature, compile_kernel
from triton_mfma.models.cost_model import Judgement
from triton_mfma.decisions import Verdict, within_constraints
from triton_mfma.decisions.stream_pipeline import StreamPipeline
from triton_mfma.examples import CORPUS
from triton_mfma.examples.kernels import splitk_gemm

# Issue 55's reproduction: split-K GEMM 128x128x64, 8 warps, gfx950, as a launch on torch tensors specializes it
SPLITK = ("*fp16:16,*fp16:16,*fp32:16,i32:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1",
          dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, SPLIT_K=4))


def _splitk(arch="gfx950", **mfma_options):
    sig, cx, attrs = aot_signature(splitk_gemm, SPLITK[0], SPLITK[1], arch)
    if mfma_options.pop("stock", False):
        return compile_kernel(splitk_gemm, sig, cx, arch, {"num_warps": 8}, attrs)
    with warnings.catch_warnings(), triton_mfma.enabled(**mfma_options):
        warnings.simplefilter("ignore", MFMARemark)
        return compile_kernel(splitk_gemm, sig, cx, arch, {"num_warps": 8}, attrs)


@pytest.mark.parametrize("max_compiles", [None, 2])
def test_an_explicit_lds_limit_bounds_the_combination_check(max_compiles):
    """The stream pipeliner meets 32768 B with one buffer per operand; the combination check ranks Triton's layouts
    and pipeliner (68016 B) better on LDS ops, and reverted to them before: the budget the user set now keeps ours,
    the record naming the constraint and the judge's own verdict. The same where the compile budget leaves one
    comparison of ours with Triton's kernel (max_compiles=2: policy.Policy._once_against_tritons)."""
    stock = _splitk(stock=True)
    k = _splitk(lds_limit=32768, **({} if max_compiles is None else {"max_compiles": max_compiles}))
    md = k.metadata
    assert k.metadata.shared <= 32768 < stock.metadata.shared
    assert md.triton_mfma_stream_pipeline["decision"] == "applied", md.triton_mfma_stream_pipeline
    comb = md.triton_mfma_combination
    assert "lds_limit=32768 B" in comb["reason"] and "lds_limit=32768" in md.triton_mfma["combination"], comb
    if max_compiles is None:
        assert comb["decision"] == "constrained", comb
        assert comb["judged"]["decision"] == "reverted", comb  # what the judge alone would have handed on
    else:
        assert comb["decision"] == "budget" and "ours handed on" in comb["reason"], comb
    assert "superseded" not in md.triton_mfma_stream_pipeline


@pytest.mark.parametrize("lds_limit", [None, 32768])
def test_without_lds_limit_the_combination_check_reverts_as_before(lds_limit, monkeypatch):
    """The same kernel with the stream pipeliner applied by a judge that says so (trial_all: every decision by
    trial): with no lds_limit set the combination check reverts to Triton's kernel as it did; with one set, only
    the constraint differs."""
    monkeypatch.setattr(StreamPipeline, "judge", staticmethod(lambda theirs, ours: Judgement(-1, "x", "forced")))
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    k = _splitk(trial_all=True, **({} if lds_limit is None else {"lds_limit": lds_limit}))
    md = k.metadata
    assert md.triton_mfma_stream_pipeline["decision"] == "applied", md.triton_mfma_stream_pipeline
    comb = md.triton_mfma_combination
    if lds_limit is None:
        assert comb["decision"] == "reverted" and "lds_limit" not in comb["reason"], comb
        assert md.triton_mfma_stream_pipeline.get("superseded") == "combination: reverted"
        assert k.metadata.shared > 32768
    else:
        assert comb["decision"] == "constrained" and comb["judged"]["decision"] == "reverted", comb
        assert k.metadata.shared <= lds_limit


def test_an_lds_limit_no_candidate_meets_is_said():
    """16384 B: no split of the epilogue's convert and no pipeliner gets there; the kernel handed on is the
    decisions' as without the budget, and its remarks say the budget is not met."""
    k = _splitk(lds_limit=16384)
    assert k.metadata.shared > 16384
    assert re.match(r"16384 B not met: the kernel handed on needs \d+ B", k.metadata.triton_mfma["lds_limit"]), \
        k.metadata.triton_mfma


def _candidate(shared):
    return SimpleNamespace(metadata={"shared": shared})  # a compile: LDS from its metadata


@pytest.mark.parametrize("limit,chosen,other,hands_on", [
    (32768, 65536, 32768, "other"),  # outside, the other within: the other
    (32768, 32768, 65536, "chosen"),  # within
    (32768, 65536, 49152, "chosen"),  # neither within: the judge's choice stands
    (None, 65536, 32768, "chosen"),  # no budget set
    ("occupancy", 65536, 32768, "chosen"),  # a goal resolved per build, not a bound
])
@pytest.mark.parametrize("judge_keeps_ours", [False, True])
def test_within_constraints(limit, chosen, other, hands_on, judge_keeps_ours):
    """The one rule, whichever side the decision's verdict chose (a revert to the variant, or ours kept)."""
    ctx = SimpleNamespace(options={} if limit is None else {"lds_limit": limit})
    picked, left = _candidate(chosen), _candidate(other)
    ours, theirs = (picked, left) if judge_keeps_ours else (left, picked)
    v = Verdict("kept" if judge_keeps_ours else "reverted", "the judge's reason", "trial", picked)
    out = within_constraints(ctx, v, ours, theirs)
    if hands_on == "chosen":
        assert out is v
    else:
        assert out.chosen is left and out.decision == "constrained" and "lds_limit=32768 B" in out.reason, out
        assert out.details["judged"] == v.as_metadata() and "the judge's reason" in out.reason
        assert out.reason.startswith("the variant compared" if judge_keeps_ours else "ours"), out.reason
    assert within_constraints(ctx, None, ours, theirs) is None


@pytest.mark.parametrize("options,read,default", [
    (dict(matrix_instr_nonkdim=16), r"v_mfma_\w+", {"v_mfma_f32_32x32x8_f16"}),
    (dict(kpack=2), r"kWidth = \d+", {"kWidth = 4"})])
def test_an_authors_mfma_shape_and_kpack_hold(options, read, default):
    """An explicit matrix_instr_nonkdim / kpack other than Triton's default (0, 1) reaches accelerate-dot and
    Triton's accelerate_matmul alike, so every candidate keeps it: the kernel handed on issues the MFMA instruction
    (nonkdim) or operand kWidth (kpack) stock Triton compiles with the same options, not Triton's default choice
    here. (Where kpack is left at 1, ours' kWidth is its own choice.)"""
    fn, sig, cx = CORPUS["gemm"]

    def shape(k):
        return set(re.findall(read, k.asm["amdgcn"] + k.asm["ttgir"]))

    stock = compile_kernel(fn, sig, cx, "gfx942", options)
    with warnings.catch_warnings(), triton_mfma.enabled():
        warnings.simplefilter("ignore", MFMARemark)
        k = compile_kernel(fn, sig, cx, "gfx942", options)
    assert shape(k) == shape(stock) != default, (shape(k), shape(stock))
