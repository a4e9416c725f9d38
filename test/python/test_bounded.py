"""A make_amdgcn candidate run where it can be stopped (ir.bounded): in a child process, its output the one the
backend gives in this process, stopped once its CPU time reaches the compile budget's seconds left, and counted in
the budget; decisions.backend_limit says when a candidate runs there."""
from __future__ import annotations

import time
import warnings
from types import SimpleNamespace

import pytest

import triton_mfma
from triton_mfma import decisions
from triton_mfma.compiler.compile import always_compile, compile_kernel
from triton_mfma.models import dot_figures
from triton_mfma.testing import kernelgen
from triton_mfma.ir import bounded

pytestmark = pytest.mark.skipif(not bounded.available(), reason="no child interpreter")


def _stock(seed, arch, tmp_path):
    fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.spec(seed), str(tmp_path), arch)
    with warnings.catch_warnings(), always_compile(), triton_mfma.disabled():
        warnings.simplefilter("ignore")
        k = compile_kernel(fn, sig, cx, arch, opts, attrs)
    from triton.backends.amd.compiler import HIPBackend
    from triton.backends.compiler import GPUTarget

    backend = HIPBackend(GPUTarget("hip", arch, 64))
    return k, backend, backend.parse_options(dict(opts))


def test_the_child_compiles_what_this_process_compiles(tmp_path):
    """Held-out generated seed 4594 on gfx950 (its main loop spills under stock): the same amdgcn and metadata."""
    k, backend, options = _stock(4594, "gfx950", tmp_path)
    here = backend.make_amdgcn(k.asm["llir"], {}, options)
    amdgcn, md, cpu = bounded.make_amdgcn(backend, k.asm["llir"], {}, options, 60.0)
    assert amdgcn == here and md == {"name": k.metadata.name} and cpu > 0


def test_a_child_stops_at_its_limit_and_the_next_one_answers(tmp_path):
    """The child is kept for the next request (no interpreter to start again); a request past its limit stops it
    (bounded.OverLimit, with the CPU it took: the limit and no more than a few polls past it), and the next request
    gets another. A backend failure is the backend's (ChildFailed), and the child stays."""
    k, backend, options = _stock(4594, "gfx950", tmp_path)
    here = backend.make_amdgcn(k.asm["llir"], {}, options)
    bounded.make_amdgcn(backend, k.asm["llir"], {}, options, 60.0)
    first = bounded._child.p.pid
    with pytest.raises(bounded.ChildFailed, match="AssertionError"):  # not LLVM IR: the backend's own failure
        bounded.make_amdgcn(backend, "define void @x(", {}, options, 60.0)
    assert bounded._child.p.pid == first
    t0 = time.monotonic()
    with pytest.raises(bounded.OverLimit) as e:
        bounded.make_amdgcn(backend, k.asm["llir"], {}, options, 0.01)
    assert 0.01 <= e.value.cpu_s < 0.2 and time.monotonic() - t0 < 5 and bounded._child is None
    assert bounded.make_amdgcn(backend, k.asm["llir"], {}, options, 60.0)[0] == here
    assert bounded._child.p.pid != first and bounded.live_cpu_s() > 0


def test_a_child_that_cannot_compile_leaves_it_to_this_process(tmp_path, monkeypatch):
    """A child that ends without an answer (here one that exits at once; Triton 3.8 before its targets were
    initialized there aborted so): ChildUnavailable, one warning with its last words, and no child is started again
    in this process (`available` False: the engine compiles in place, unbounded)."""
    k, backend, options = _stock(4594, "gfx950", tmp_path)
    monkeypatch.setattr(bounded, "_CHILD", "import sys; sys.stderr.write('cannot compile here'); sys.exit(3)")
    monkeypatch.setattr(bounded, "_child", None)
    monkeypatch.setattr(bounded, "_unavailable", None)
    with pytest.warns(RuntimeWarning, match="cannot compile here"), pytest.raises(bounded.ChildUnavailable):
        bounded.make_amdgcn(backend, k.asm["llir"], {}, options, 60.0)
    assert not bounded.available() and bounded._child is None


def test_a_candidate_runs_bounded_only_where_the_budget_could_run_out():
    """decisions.backend_limit: the seconds the budget has left where fewer than BACKEND_RUNAWAY times the longest
    make_amdgcn so far; None (in this process, no child to pay for) where even that fits, under trial_all, with
    the bound off, or before any compile."""
    def ctx(first, spent, backend, stakes="loop scratch", trial_all=False, on=True):
        return SimpleNamespace(cpu=lambda: (first, spent, first), setting=lambda name: on, stakes=lambda: stakes,
                               backend_cpu=lambda: backend, stock_cpu=lambda: 0.0, trial_all=trial_all)

    # generated seed 7262 on gfx942: a 4 s compile whose main loop spills, 8 s spent, make_amdgcn 2.8 s: 14 - 8 left
    assert decisions.backend_limit(ctx(4.0, 8.0, 2.8)) == pytest.approx(6.0)
    assert decisions.backend_limit(ctx(0.2, 0.3, 0.05, stakes=None)) is None  # 9.9 s left, 46 x 0.05 fits
    assert decisions.backend_limit(ctx(4.0, 8.0, 2.8, trial_all=True)) is None
    assert decisions.backend_limit(ctx(4.0, 8.0, 2.8, on=False)) is None
    assert decisions.backend_limit(ctx(0.0, 0.0, 0.0)) is None


def test_a_strategy_that_runs_away_stops_at_the_budget(tmp_path):
    """Generated seed 7262 on gfx942 (fp16 256x256x32 on one warp, waves_per_eu=5 where one wave runs): its main
    loop still spills after the other decisions; iterative-minreg's make_amdgcn there takes about 18x the default's
    (bench/results/strategy_cost_*.txt), 50 s of CPU for the kernel where stock takes 4. Run bounded, the candidate
    stops where the budget ends or finishes within it, and the kernel's compiles, the child's included, stay within
    the every-kernel bound of stock's (with room for the measurement: a tenth, and the child's start)."""
    import resource

    fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.spec(7262), str(tmp_path), "gfx942")

    def cpu():  # this process, its reaped children, and the bounded child still running
        return bounded.live_cpu_s() + sum(r.ru_utime + r.ru_stime for r in (
            resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)))

    with warnings.catch_warnings(), always_compile():
        warnings.simplefilter("ignore")
        t0 = cpu()
        with triton_mfma.disabled():
            stock = compile_kernel(fn, sig, cx, "gfx942", opts, attrs)
        t1 = cpu()
        with triton_mfma.enabled(strict=True):
            ours = compile_kernel(fn, sig, cx, "gfx942", opts, attrs)
        t2 = cpu()
    d = ours.metadata.triton_mfma_sched_strategy
    assert d["tried"] and ("stopped at the compile budget" in d["tried"][0] or d["tried"][0].startswith(
        "iterative-minreg: loop scratch")), d
    times, plus = decisions.EVERY_KERNEL_CPU
    assert t2 - t1 <= 1.1 * max(times * (t1 - t0), t1 - t0 + plus) + 0.5, (t1 - t0, t2 - t1, d)
    assert dot_figures.compare(dot_figures.of_kernel(stock), dot_figures.of_kernel(ours))[0] != "worse"
