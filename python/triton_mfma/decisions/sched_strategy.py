"""LLVM's scheduling strategy, where the main loop of the kernel handed on still spills to scratch.

AMDGPU's machine scheduler reads the kernel attribute `amdgpu-sched-strategy` (max-occupancy when unset); Triton
3.8 and 3.9 pass an author's choice through the option `llvm_fn_attrs`. A function attribute touches no global
LLVM state, and the candidates share the handed-on compile's LLVM IR: only make_amdgcn runs again.

Compared with: the compile handed on (after every TTGIR decision and the waves_per_eu ones), the same LLVM IR with
the attribute set to each strategy the installed LLVM knows (`available`: its name is a string of libtriton, where
LLVM's option parser compares it; an unknown name is ignored silently, so the version string cannot tell).
Stakes: only where the handed-on compile has scratch spill instructions in its main loop (cost_model key 2, paid
every iteration) and can launch; elsewhere nothing compiles (held-out generated seeds 4386 and 4439 on gfx90a and
gfx942: five strategies compiled for kernels no CU can run). Public AMD spill regressions of 2026 came with an LLVM upgrade at an
unchanged TTGIR (bench/spill_calibration.md), which no TTGIR decision reaches.
Order, from what each strategy's objective is (LLVM's GCNSchedStrategy): register pressure first (iterative-minreg
schedules for the fewest registers, iterative-maxocc for the most waves, max-memory-clause keeps memory clauses
that free registers early), then latency (max-ilp, iterative-ilp), which trade registers for overlap. One candidate
at a time, while the compile budget allows one more (decisions.budget_spent, no reserve: the base is the
reference; a candidate is one make_amdgcn of the base's LLVM IR, predicted at the kernel's longest make_amdgcn
timed alone, not at a whole compile); a strategy may take many times the default's time (max-ilp 46x,
iterative-minreg 18.5x on generated seed 7262), so where the budget has less left than that a candidate runs in a
child process stopped at the budget's end (decisions.backend_limit, ir.bounded); none after one without a scratch
spill (what was at stake is won), but under trial_all.
Judge: the one judge (cost_model.judge) against the base; the best-ranked better candidate is handed on, a tie keeps
LLVM's default.
Not run where the author chose: `llvm_fn_attrs` or `schedule_hint` set (theirs), or option `sched_strategy` off.
"""
from __future__ import annotations

import functools
import mmap

from ..models import cost_model
from ..composition.passes import setting
from ..ir import bounded
from . import Decision, Verdict, backend_limit, budget_spent, first_line

NAME = "sched_strategy"
ATTRIBUTE = "amdgpu-sched-strategy"
# AMDGPU's strategies other than the default (max-occupancy), in the order tried (the module docstring)
STRATEGIES = ("iterative-minreg", "iterative-maxocc", "max-memory-clause", "max-ilp", "iterative-ilp")


@functools.lru_cache(maxsize=None)
def available(libtriton: str) -> tuple[str, ...]:
    """The STRATEGIES whose names libtriton holds as C strings (LLVM's option parser compares the attribute with
    them), in order; () where the file cannot be read."""
    try:
        with open(libtriton, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
            return tuple(s for s in STRATEGIES if m.find(b"\0" + s.encode() + b"\0") >= 0)
    except (OSError, ValueError):
        return ()


def libtriton_path() -> str:
    from triton._C import libtriton

    return libtriton.__file__


def authors_choice(triton_options) -> str | None:
    """What the author set that this decision leaves alone, or None."""
    attrs = getattr(triton_options, "llvm_fn_attrs", ()) or ()
    hint = getattr(triton_options, "schedule_hint", "") or ""
    if attrs:
        return "llvm_fn_attrs " + ",".join(f"{k}={v}" if v else k for k, v in attrs)
    if hint and hint != "none":
        return f"schedule_hint={hint}"
    return None


class SchedStrategy(Decision):
    name = NAME
    key = "triton_mfma_sched_strategy"
    stage = "amdgcn"  # decided on the compile handed on, after the llir-stage decisions
    option = NAME
    attribute = ATTRIBUTE
    judge = staticmethod(cost_model.judge)  # (the default strategy's figures, a candidate's) -> cost_model.Judgement

    def wanted(self, options, waves, triton_options):
        return bool(setting(options, self.option)) and authors_choice(triton_options) is None

    def present(self, ctx, interior):
        return ctx.has_dot and self.wanted(ctx.options, ctx.waves, ctx.triton_options)

    def decide(self, ctx, base, trials) -> Verdict | None:
        """`base`: the variants.Compiled handed on; each strategy compiles its LLVM IR with the attribute
        (`trials.with_attr`: an exception in place of one that failed). None where nothing is at stake (no scratch
        spill in the main loop): no record."""
        def compile_many(values):
            with trials.bounded(backend_limit(ctx)):
                return trials.with_attr(self.attribute, values)

        def figures_of(c):
            return trials.figures(c, None)

        f_base = figures_of(base)
        loop_scratch = cost_model.rank(f_base)[1]
        if not loop_scratch:
            return None
        if not f_base.occupancy:
            why = f"the kernel cannot launch (LDS {f_base.lds} B per workgroup, more than a CU has): no speed to gain"
            return Verdict("kept", why, "model", base, remark=f"kept the default: {why}",
                           fields={"decision": "kept", "reason": why, "base": _numbers(f_base), "tried": []})
        strategies = available(libtriton_path())
        if not strategies:
            why = "no scheduling strategy but LLVM's default is known to this Triton's LLVM"
            return Verdict("kept", why, "model", base, remark=f"kept the default: {why}")
        tried, best, f_best, skipped = [], base, f_base, None
        for s in strategies:
            spent = budget_spent(ctx, 1, reserve=0, same_llir=True)
            if spent is not None:
                skipped = f"{', '.join(strategies[len(tried):])} not compiled: {spent}"
                break
            c = compile_many([s])[0]
            if isinstance(c, bounded.OverLimit):
                tried.append(f"{s}: {c} ({c.cpu_s:.1f} s)")
                if s != strategies[-1]:
                    skipped = f"{', '.join(strategies[len(tried):])} not compiled: the compile budget is spent"
                break
            if isinstance(c, Exception):
                tried.append(f"{s}: failed ({first_line(c)})")
                continue
            f = figures_of(c)
            j = self.judge(f_base, f)
            ranked = f"better on {j.figure}" if j.better else f"worse on {j.figure}" if j.worse else "a tie"
            tried.append(f"{s}: {_figures(f)} ({ranked})")
            if self.judge(f_best, f).better:
                best, f_best = c, f
            if not any(cost_model.rank(f)[1:3]) and not ctx.trial_all:
                break  # no scratch spill left: what was at stake is won (trial_all measures that it was)
        head = f"the default's main loop spills ({loop_scratch} scratch ops)"
        fields = {"base": _numbers(f_base), "tried": tried, "skipped": skipped}
        if best is base:
            reason = (f"kept the default: {head}; none of {len(tried)} compiled ranks better"
                      + (f" ({'; '.join(tried)})" if tried else "")
                      + (f"; {skipped}" if skipped else ""))
            return Verdict("kept", reason, "trial" if tried else "model", base, remark=reason,
                           fields={"decision": "kept", "reason": reason, **fields})
        strategy = _strategy_of(best.llir)
        j = self.judge(f_base, f_best)
        n = f"{len(tried)} strateg{'y' if len(tried) == 1 else 'ies'}"
        reason = f"{strategy}: better on {j.figure}; {head}, {n} compiled"
        return Verdict("applied", reason, "trial", best, remark=reason,
                       fields={"decision": "applied", "strategy": strategy, "reason": reason, **fields,
                               "chosen": _numbers(f_best)})


def _figures(f) -> str:
    n = _numbers(f)
    return (f"loop scratch {n['loop_scratch']}, scratch {n['scratch']}, {n['occupancy']} waves/SIMD, "
            f"{n['vgpr_spills']}+{n['sgpr_spills']} spills")


def _numbers(f) -> dict:
    return {"loop_scratch": f.loop_scratch_ops, "scratch": f.spill_mem_ops, "occupancy": f.occupancy,
            "vgpr_spills": f.vgpr_spills, "sgpr_spills": f.sgpr_spills}


def _strategy_of(llir: str) -> str:
    start = llir.index(f'"{ATTRIBUTE}"="') + len(ATTRIBUTE) + 4
    return llir[start:llir.index('"', start)]
