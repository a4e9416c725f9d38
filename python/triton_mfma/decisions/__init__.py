"""The decisions of one hip compile, on one protocol: each compares the kernel as our passes made it ("ours") with
one variant, decides by a model where it can and by a judge on compiled figures where it cannot, and returns a
`Verdict`; `record` writes every verdict to the kernel's remarks and metadata.

A decision (`Decision`) declares, and never schedules:
  - where it acts: `point` (the interior insertion point whose variant it compares; None: after make_ttgir) and
    `present` (whether its pass runs in this compile), `option` (the option that turns its check off);
  - `unbuilt`: a verdict from the kernel's options alone, before ours is built (ours is then not built with it);
  - `settled`: a verdict with nothing to compare (its pass declined, the check is off);
  - `compared`: the variant it compares ours with (a build of the engine's, asked for by choice of points);
  - `identical`: the verdict where that variant's TTGIR is ours;
  - `model`: a verdict without a trial compile, or None where the model cannot tell;
  - `unlaunchable`: the verdict where neither ours nor the variant can launch (no compile: a tie);
  - `judge`: the rule on the two compiled figures (one replaceable function per decision), read by `trial`;
  - `followups`: the compiles it will ask for if `ours` is kept (what the engine may start early);
  - `speculation`: what the engine may compile beside what (`Speculation`);
  - `comparison_waves`: the waves_per_eu the TTGIR decisions compare at, where not the kernel's own.
The engine's policy (policy.Policy) reads these declarations and owns prefetch, cancel, gates and the variants
built aside. Adding a decision: one module here, one line in `REGISTRY`, its tests (docs/architecture.md).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..composition import remarks
from ..models import cost_model, dot_figures, dot_work
from ..models.lds_budget import lds_total
from ..ir import bounded


# The compile budget: where one compile of a kernel (make_llir + make_amdgcn) has taken more than this many seconds
# of CPU (issue 34's floor for a compile whose cost a user notices, against which ours may take 2x), each further
# compile of a variant costs about as much again; the decisions whose own choice is the kernel's (waves_per_eu
# "auto" keeping 0, a stage less not taken, the stream pipeliner declined where Triton's is compiled, an explicit
# waves_per_eu left as compiled) then compile nothing more (generated seed 1375 on gfx90a: 1 warp, a 256x128 fp32
# accumulator, 109 s of stock CPU; "auto" compiled a second candidate, 283 s). Where the dot results alone need
# as many registers as one wave has or more, Triton's kernel is compiled first and handed on where that compile
# spends the budget (policy.Policy._long_reference_first: held-out seeds 1825, 1847, 1864, 2.1-2.8x and a hang).
LONG_COMPILE_S = 30.0


# Issue 53's bound on every kernel: its compiles together take at most max(3x, + 10 s) of stock's CPU time. At run
# time the engine knows its own first compile's (ours, or Triton's kernel where that is compiled first: stock's to
# within our passes' own time), and predicts each further compile at the longest one so far (a variant that
# spills is the slow one: held-out seed 4628, one-wave relaxations 40-70x a 1.6 s stock compile).
EVERY_KERNEL_CPU = (3.0, 10.0)


# Issue 53's budget for kernels that spill, held per kernel by what the first compile's spills cost at run time.
# Where its main loop spills to scratch (memory traffic paid every iteration: public cases 1.3-4x slower,
# bench/spill_calibration.md), its compiles together may take the spilling row's p90, 3.5x that compile's CPU time;
# where its ranked spill traffic is AGPR copies or SGPR lanes in loops, or scratch outside the main loop (VALU
# instructions, or traffic off the hot loop; the calibration's lane spills have no timed case), the row's median,
# 2.0x: room for Triton's kernel beside ours, no trial. Both within the every-kernel bound above; past a cap, ours
# (or the build already compiled in its place) is compared once with Triton's kernel. Kernels without spills get
# no cap of their own: at that row's 2.0x, ours and the one comparison with Triton's kernel (2.1-2.7x on the suite
# with our passes' own time, bench/results/compile_time_gfx942_stakes.txt) would replace every TTGIR trial, decide
# the passes together instead of each, and meet neither of that row's bounds; that row waits for the models that
# tell "nothing to win" without a compile.
STAKES_CPU = {"loop scratch": 3.5, "spills": 2.0}
# Where the first compile's main loop spills to scratch (key 2, paid every iteration), the TTGIR decisions' trials
# keep one compile more in reserve for the llir stage's scheduling strategy (decisions/sched_strategy.py), the one
# decision aimed at exactly that: 40% of the generated kernels still spilling there after every other decision were
# cut by it (bench/results/sched_strategy_seeds4382-4501.txt), where the TTGIR trials compare layouts and
# pipeliners on every figure.
STAKES_RESERVE = {"loop scratch": 1}
# A scheduling strategy's make_amdgcn against the default's on the same LLVM IR, the most measured: what a candidate
# predicted at the longest make_amdgcn so far may take instead (bench/results/strategy_cost_seeds7000-7059.txt, 25
# spilling kernels x 5 strategies: median 0.8-1.1x, under 2.6x but on one kernel, generated seed 7262 (fp16
# 256x256x32 on one warp): max-ilp 46x a 2.9 s default on gfx950, iterative-minreg 18.5x on gfx942; nothing in the
# figures, the LLVM IR's largest block included, told that kernel apart). Where the budget has less left than that,
# the candidate runs where it can be stopped (`backend_limit`). Held aside (seeds 4382-4501's 36 spilling pairs,
# bench/results/strategy_cost_seeds4382-4501.txt): passed once in 180 candidates, seed 4384 on gfx950 (iterative-ilp
# 55x).
BACKEND_RUNAWAY = 46.0


def budget_spent(ctx, needs: int = 1, reserve: int = 1, same_llir: bool = False) -> str | None:
    """Why a decision whose own choice is the kernel's compiles nothing more, as its remark says it: a compile of
    the kernel took LONG_COMPILE_S, the `needs` compiles a trial makes, with `reserve` more (one of Triton's
    kernel: what the TTGIR decisions fall back on, policy.Policy._once_against_tritons, and the combination check at
    the waves handed on compares with), would pass the CPU bound on every kernel (cpu_capped) or option
    max_compiles; None where the budget allows them (always under trial_all). `same_llir`: the trial's compiles
    share an LLVM IR already made (a function attribute apart), so each is one make_amdgcn, predicted at the
    longest make_amdgcn of this kernel timed alone."""
    if ctx.trial_all:
        return None
    spent = ctx.long_compile()
    if spent is not None:
        return (f"a compile of this kernel took {spent:.0f} s of CPU, more than the compile budget's "
                f"{LONG_COMPILE_S:.0f} s")
    return cpu_capped(ctx, needs, reserve, same_llir) or compiles_capped(ctx, needs, reserve)


def cpu_capped(ctx, needs: int, reserve: int = 1, same_llir: bool = False) -> str | None:
    """Why `needs` more compiles, with `reserve` more, each predicted at the longest so far, would take the kernel's
    CPU time past its cap (`cpu_cap`), else None (also where option cpu_bound is off). `same_llir`: the `needs`
    compiles are each one make_amdgcn of an LLVM IR already made, predicted at the longest make_amdgcn timed alone
    (where one was)."""
    first, spent, longest = ctx.cpu()
    if not first or not ctx.setting("cpu_bound"):
        return None
    bound, why = cpu_cap(first, ctx.stakes(), ctx.stock_cpu())
    each = (ctx.backend_cpu() or longest) if same_llir else longest
    predicted = spent + needs * each + reserve * longest
    if predicted <= bound:
        return None
    if each == longest:
        return (f"{spent:.1f} s of CPU spent on this kernel's compiles, {needs + reserve} more at up to {longest:.1f} "
                f"s each would pass {why}")
    also = f" and {reserve} more compile at up to {longest:.1f} s" if reserve else ""
    return (f"{spent:.1f} s of CPU spent on this kernel's compiles, {needs} more make_amdgcn at up to {each:.1f} s "
            f"each{also} would pass {why}")


def backend_limit(ctx) -> float | None:
    """The CPU seconds a candidate that is one make_amdgcn of an LLVM IR already made may take, run where it can be
    stopped there (ir.bounded, in a child process), or None where it runs in this process: the budget unbounded
    (trial_all, option cpu_bound off, no compile timed yet), or so far from its bound that even BACKEND_RUNAWAY times
    the longest make_amdgcn so far fits (the child's start, about 0.3 s once per process, is not worth paying
    there)."""
    if ctx.trial_all or not ctx.setting("cpu_bound") or not bounded.available():
        return None
    first, spent, longest = ctx.cpu()
    if not first:
        return None
    bound, _ = cpu_cap(first, ctx.stakes(), ctx.stock_cpu())
    left = bound - spent
    return left if left < BACKEND_RUNAWAY * (ctx.backend_cpu() or longest) else None


def at_waves_bounded(ctx, trials, ws) -> list:
    """`trials.at_waves(ws)`, each make_amdgcn where it can be stopped at the budget's end where `backend_limit`
    says so: the waves_per_eu candidates share an LLVM IR made already, as the scheduling strategies do, and
    LLVM's time at fewer waves' larger budget is as unpredictable (held-out seed 4628: one-wave relaxations 40-70x
    a 1.6 s stock compile)."""
    with trials.bounded(backend_limit(ctx)):
        return trials.at_waves(ws)


def cpu_cap(first: float, stakes: str | None, stock: float = 0.0) -> tuple[float, str]:
    """(the CPU seconds a kernel's compiles may take together, why): max(3x, + 10 s) of its first compile's
    (EVERY_KERNEL_CPU), within its population's cap where its first compile's stakes are known (STAKES_CPU). Where a
    compile of Triton's kernel at the waves asked (`stock`, what stock compiles) took less, of that one's: the
    first compile may be at other waves, which LLVM compiles up to 10x slower (generated seed 7072 on gfx950: 48 s
    at the 2 waves that run against stock's 4.7 s at the 7 asked; 7234, int8 on 2 warps: 4.7 s against 0.8 s, then
    two more compiles at one wave, 13.6 s in all)."""
    times, plus = EVERY_KERNEL_CPU
    ref, of = (stock, "stock's compile's") if 0 < stock < first else (first, "its first compile's")
    bound, why = max(times * ref, ref + plus), f"max({times:.0f}x, + {plus:.0f} s) of {of} {ref:.1f} s"
    cap = STAKES_CPU.get(stakes)
    if cap is not None and cap * ref < bound:
        shown = {"loop scratch": "its first compile's main loop spills to scratch", "spills": "its first compile "
                 "spills"}[stakes]
        bound, why = cap * ref, f"{cap:.1f}x {of} {ref:.1f} s ({shown})"
    return bound, why


def compiles_capped(ctx, needs: int, reserve: int = 1) -> str | None:
    """Why option max_compiles leaves no room for `needs` compiles with `reserve` more (budget_spent), else None: a
    model that compiles the variant it compares with asks before it does (its compile would leave ours and Triton's
    kernel no room)."""
    cap, made = ctx.setting("max_compiles"), ctx.compiles()
    if cap and not ctx.trial_all and made + needs + reserve > cap:
        kept = " and one of Triton's kernel in reserve" if reserve else ""
        return (f"{made} compile{'' if made == 1 else 's'} of this kernel, {needs} more for a trial{kept} would pass "
                f"max_compiles={cap}")
    return None


@dataclass
class Verdict:
    """What one decision decided for one kernel: the build (or compile) it chose and why."""
    decision: str  # kept / reverted / applied / declined / dropped / unverified / failed / chosen ...
    reason: str
    evidence: str  # pass / none / identical / model / trial / remembered (a trial on another specialization)
    chosen: object = field(repr=False)  # the variants.Build (or, for waves_per_eu, variants.Compiled) chosen
    details: dict = field(default_factory=dict)  # what a trial compared, in the metadata record
    remark: str | None = None  # the remark line; None: metadata only
    fields: dict | None = None  # the metadata record where it is not {decision, reason, evidence, **details}
    warning: str | None = None  # a fallback to Triton's variant: warned (strict mode raises before)
    fallback: str | None = None  # metadata["triton_mfma_fallback"]
    # the choices the verdict takes back from the kernel handed on: earlier verdicts kept them (policy.Policy marks
    # their records superseded)
    takes_back: frozenset = frozenset()

    def as_metadata(self) -> dict:
        if self.fields is not None:
            return self.fields
        return {"decision": self.decision, "reason": self.reason, "evidence": self.evidence, **self.details}


@dataclass(frozen=True)
class Speculation:
    """What the engine may compile ahead for a decision (policy.Policy reads it; a decision never schedules)."""
    compared_beside_model: bool = False  # the variant compiles beside the compile the model reads (not gated)
    compared_beside_trial: bool = False  # the variant starts before the trial waits for ours
    followups_beside_trial: bool = False  # later decisions' compiles for ours start while the variant compiles
    # the model reads TTGIRs only: ours' make_llir waits for it (the trial lowers ours here), and once decided the
    # chosen variant starts compiling at once
    lower_after_model: bool = False


def neither_launches(ctx, ours, theirs) -> str | None:
    """Why neither build can launch (the LDS model on both TTGIRs: more than a CU has), else None: no figure of a
    kernel that cannot run says anything about its speed, so every decision's policy compiles nothing to compare
    them and takes `Decision.unlaunchable`."""
    mine = lds_total(ours.text)
    if not cost_model.cannot_launch(ctx.arch, ctx.num_warps, mine):
        return None
    other = lds_total(theirs.text)
    if not cost_model.cannot_launch(ctx.arch, ctx.num_warps, other):
        return None
    return f"{cost_model.NEITHER_LAUNCHES}: LDS {mine} B and {other} B per workgroup"


def ranked_without_theirs(ctx, ours, theirs) -> tuple[bool, str] | None:
    """Where models tell how ours ranks against `theirs` without compiling theirs: (True, why) ours ranks better,
    (False, why) theirs does; None where they cannot tell. In order: only one of the two can launch (the LDS model
    on both TTGIRs); ours, compiled, runs more waves without scratch spills than theirs' LDS lets run with any
    registers (cost_model.wins_on_occupancy); ours' TTGIR needs fewer main-loop dot cycles on no dot more
    (dot_work) and ours has no spill at as many waves as theirs' LDS lets run
    (cost_model.ties_at_best_before_dot_cycles); or ours runs its dots on FMA and its compiled loop counts fewer
    cycles than one iteration of theirs' MFMA dots (dot_work.compiled_fma_fewer), at the same premise."""
    lds_theirs = lds_total(theirs.text)
    launch = cost_model.one_launches(ctx.arch, ctx.num_warps, lds_total(ours.text), lds_theirs)
    if launch is not None:
        return launch
    f_ours = ctx.figures(ours)
    if isinstance(f_ours, Exception) or lds_theirs is None:
        return None
    why = cost_model.wins_on_occupancy(f_ours, lds_theirs, ctx.arch, ctx.num_warps, ctx.w)
    if why is not None:
        return True, why
    if not cost_model.ties_at_best_before_dot_cycles(f_ours, lds_theirs, ctx.arch, ctx.num_warps, ctx.w):
        return None
    at_best = f"no spill and {f_ours.occupancy} waves/SIMD, as many as the other variant's LDS lets run"
    cycles = dot_work.compare(ours.text, theirs.text, ctx.arch)
    if cycles is not None:
        on_fma = ", the other's on FMA at the fewest instructions its multiply-adds allow" \
            if dot_work.on_fma(theirs.text, ctx.arch) else ""
        return True, (f"fewer main-loop dot cycles per wave ({cycles[0]} -> {cycles[1]}: the TTGIRs' MFMA "
                      f"instructions{on_fma}, no dot of ours needing more), {at_best}")
    cycles = dot_work.compiled_fma_fewer(ours.text, theirs.text, ctx.arch, f_ours.loop_cycles)
    if cycles is not None:
        return True, (f"fewer main-loop dot cycles per wave ({cycles[0]} -> {cycles[1]}: ours on FMA, its compiled "
                      f"loop's instructions against one iteration of the other's MFMA instructions by its TTGIR), "
                      f"{at_best}")
    return None


def lds_limit(ctx) -> int | None:
    """The LDS budget in bytes the user set (`lds_limit`), a constraint on every build handed on; None where none
    is set, or where it is "occupancy" (resolved per build from its registers: not held by this rule)."""
    value = ctx.options.get("lds_limit")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def lds_of(candidate) -> int | None:
    """LDS bytes per workgroup of a build (the LDS model on its TTGIR) or of a compile (its metadata's shared);
    None where unknown."""
    text = getattr(candidate, "text", None)
    if text is not None:
        return lds_total(text)
    md = getattr(candidate, "metadata", None)
    return md.get("shared") if isinstance(md, dict) else None


def outside_constraints(ctx, chosen, other) -> str | None:
    """Why `other` is handed on instead of `chosen` (builds or compiles): `chosen` needs more LDS than an explicit
    `lds_limit` and `other` meets it (issue 55: an option the user set is a constraint, the judge ranks only what
    meets it); None where the choice stands."""
    limit = lds_limit(ctx)
    if limit is None or chosen is None or other is None:
        return None
    lds, lds_other = lds_of(chosen), lds_of(other)
    if lds is None or lds <= limit or lds_other is None or lds_other > limit:
        return None
    return f"lds_limit={limit} B, set by the user, is a constraint: the choice needs {lds} B, the other {lds_other} B"


def within_constraints(ctx, verdict: Verdict | None, ours, theirs) -> Verdict | None:
    """The verdict the user's constraints leave: where `verdict` chooses one of `ours` / `theirs` outside them
    (`outside_constraints`) and the other is within, the other, the decision's own verdict kept in the record
    (`judged`). Every choice between two candidates passes here or through `outside_constraints` (policy.Policy),
    so no decision, revert or combination check hands on a kernel over the budget where one it compared meets it."""
    chosen = None if verdict is None else verdict.chosen
    if theirs is None or not (chosen is ours or chosen is theirs):
        return verdict
    other = theirs if chosen is ours else ours
    why = outside_constraints(ctx, chosen, other)
    if why is None:
        return verdict
    why = f"{'ours' if other is ours else 'the variant compared'} handed on: {why} (verdict: {verdict.decision}: " \
          f"{verdict.reason})"
    return Verdict("constrained", why, verdict.evidence, other, details={"judged": verdict.as_metadata()},
                   remark=f"constrained: {why}")


def lds_limit_unmet(ctx, handed_on) -> str | None:
    """The remark where the kernel handed on exceeds an explicit `lds_limit`: no candidate compared met it (those
    that do are chosen, `within_constraints`); None where it is met or none is set."""
    limit = lds_limit(ctx)
    lds = None if limit is None else lds_of(handed_on)  # no LDS model run where no budget is set
    if lds is None or lds <= limit:
        return None
    return f"{limit} B not met: the kernel handed on needs {lds} B, no build compared meets it"


def first_line(e: BaseException) -> str:
    return str(e).splitlines()[0] if str(e) else type(e).__name__


def loop_scratch_trial(judge, ours, variant, f_ours, f_variant, taken: str, taken_words: str, kept_words: str,
                       variant_is: str, details: dict) -> Verdict:
    """The verdict of a trial of a variant built because ours' main loop spills to scratch (a stage less, the
    layouts ranked by registers): `variant` (decision `taken`, "`taken_words`; ...") where `judge` ranks it better,
    else ours ("`kept_words`; ..., but `variant_is` worse ...")."""
    j = judge(f_ours, f_variant)
    figures = (f"main-loop scratch ops {f_ours.loop_scratch_ops} -> {f_variant.loop_scratch_ops}, "
               f"{dot_figures.summary(f_ours, f_variant)}")
    if j.better:
        why = f"{taken_words}; the main loop spills to scratch; better on {j.figure} ({figures})"
        return Verdict(taken, why, "trial", variant, details, remark=why)
    verdict = f"worse on {j.figure}" if j.worse else "no better on any ranked figure"
    why = f"{kept_words}; the main loop spills to scratch, but {variant_is} {verdict} ({figures})"
    return Verdict("kept", why, "trial", ours, details, remark=why)


class Decision:
    """The protocol (see the module docstring); the defaults decide nothing."""
    name = ""  # the pass (or option) the remarks name
    key = ""  # metadata field of the verdict
    # the stage it decides in: "ttgir" (policy.Policy.decide_ttgir, by the steps below), or "llir" / "amdgcn" on a
    # compiled kernel (policy.Policy.decide_compiled, by `decide`)
    stage = "ttgir"
    point: str | None = None
    option: str | None = None
    speculation = Speculation()
    judge = None  # (figures of the variant, figures of ours) -> what the decision's rule says

    def present(self, ctx, interior: set) -> bool:
        return self.point is not None and self.point in interior

    def owns(self, choice: str) -> bool:
        """Whether `choice` (an element of a build's choice) is this decision's to keep or take back."""
        return self.point is not None and choice == self.point

    def verifies(self, ctx) -> bool:
        return self.option is None or bool(ctx.setting(self.option))

    def unbuilt(self, ctx) -> Verdict | None:
        return None

    # the variant is built before ours, and `before_ours` may decide from it (compiling it where it asks) so that
    # ours is not built (policy.Policy._variant_first)
    variant_first = False

    def before_ours(self, ctx, theirs) -> Verdict | None:
        """A verdict from the compared variant alone, built (`theirs`: the build without our pass at `point`)
        before ours; ours is then not built with it. None: ours is built and compared as usual."""
        return None

    def settled(self, ctx, ours) -> Verdict | None:
        return None

    def compared(self, ctx, ours):
        return None

    def identical(self, ctx, ours, theirs) -> Verdict | None:
        return None

    def model_applies(self, ctx, ours, theirs) -> bool:
        return False

    def model(self, ctx, ours, theirs) -> Verdict | None:
        return None

    def trial(self, ctx, ours, theirs, f_theirs, f_ours) -> Verdict | None:
        return None

    def unlaunchable(self, ctx, ours, theirs, why: str) -> Verdict | None:
        """The verdict where neither build can launch (the engine's model, before any compile: their LDS exceeds a
        CU's): the choice a tie of the judge makes, here ours; None: the pass's own outcome stands."""
        return Verdict("kept", why, "model", ours)

    def followups(self, ctx, ours) -> list:
        return []

    def wanted(self, options: dict, waves, triton_options) -> bool:
        """A decision on a compiled kernel: whether it may run on a compile with these options (the activation's,
        the kernel's context.Waves, Triton's), read before anything is built; the llir and amdgcn stages are ours only
        where one may. False for TTGIR decisions (their insertion points say where they run)."""
        return False

    def decide(self, ctx, base, trials) -> Verdict | None:
        """A decision on a compiled kernel: its verdict on `base` (variants.Compiled, the compile handed on so far),
        comparing what `trials` (context.CompiledTrials) compiles. None: nothing at stake, nothing recorded."""
        return None

    def comparison_waves(self, ctx, ours) -> int | None:
        """The waves_per_eu every TTGIR decision compares at, read from ours' TTGIR before anything compiles;
        None: the kernel's own."""
        return None


def record(verdict: Verdict | None, name: str, key: str, metadata: dict, kernel_remarks) -> None:
    """The one place a verdict is written: metadata[key], the remark, a fallback's warning and metadata line."""
    if verdict is None:
        return
    if verdict.warning is not None:
        remarks.warn(verdict.warning)
    if verdict.fallback is not None:
        metadata["triton_mfma_fallback"] = verdict.fallback
    metadata[key] = verdict.as_metadata()
    if verdict.remark is not None:
        kernel_remarks.decide(name, verdict.remark)
