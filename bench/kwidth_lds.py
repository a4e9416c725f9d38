"""Why accelerate-dot still compiles Triton's layouts where only kWidth differs: the main-loop LDS ops of both sides.

    PYTHONPATH=python python bench/kwidth_lds.py RUN.json [RUN.json ...] [--limit N] [--out FILE]

Where ours and Triton's dot layouts differ only in kWidth (and the swizzle that follows from it), both move the same
bytes per lane through LDS each iteration; the model keeps ours uncompiled only where every LDS instruction of ours
moves the 16 B per lane one can at most (decisions/accelerate_dot.py, "widest LDS ops"). Elsewhere a trial compiles
Triton's. This bench asks whether the TTGIRs could tell instead: for each accelerate-dot trial of a differential run
where only kWidth differed and stock's compile took under 5 s, the kernel is compiled again with the defaults, every
comparison a trial (trial_all), accelerate-dot's two compiles captured, and their main-loop LDS reads and writes counted (per iteration of the first, where
the loops unroll differently: dot_figures), with whether the shared layouts are the same in both TTGIRs. The table:
per class (no spill on either side / a spill; the same shared layouts or not), how often ours has fewer, as many or
more reads and writes than Triton's layouts, and the trial's verdict.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import warnings
from collections import Counter

from record import emit_table, read_json

_SHARED = re.compile(r"#ttg\.(?:swizzled|padded|amd_rotating)_shared<\{[^}]*\}>")


def trials_to_redo(runs: list[str], limit: int | None) -> list[tuple[int, str, dict]]:
    out = []
    for path in runs:
        for r in read_json(path):
            dot = ((r.get("ours") or {}).get("reasons") or {}).get("triton_mfma_accelerate_dot") or {}
            if dot.get("evidence") == "trial" and dot.get("kwidth_only") and \
                    (r["stock"].get("compile_cpu_s") or 1e9) < 5:
                out.append((r["seed"], r["arch"], r["spec"]))
    return out[:limit] if limit else out


def captured_trials(spec: dict, arch: str, directory: str) -> list[tuple]:
    """(ours' TTGIR, Triton's TTGIR, ours' Figures, Triton's Figures, verdict) of every accelerate-dot trial one compile
    of `spec` with the defaults made."""
    import triton_mfma
    from triton_mfma.testing import kernelgen
    from triton_mfma.compiler.compile import always_compile, compile_kernel
    from triton_mfma.decisions import accelerate_dot

    got, real = [], accelerate_dot.AccelerateDot.trial

    def trial(self, ctx, ours, theirs, f_theirs, f_ours):
        v = real(self, ctx, ours, theirs, f_theirs, f_ours)
        if not isinstance(f_theirs, Exception) and not isinstance(f_ours, Exception):
            got.append((ours.text, theirs.text, f_ours, f_theirs, v.decision))
        return v

    accelerate_dot.AccelerateDot.trial = trial
    try:
        fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.from_dict(spec), directory, arch)
        # every comparison a trial: the models' cases are measured too (the bound's, the widest ops')
        with warnings.catch_warnings(), always_compile(), triton_mfma.enabled(trial_all=True):
            warnings.simplefilter("ignore")
            compile_kernel(fn, sig, cx, arch, opts, attrs)
    finally:
        accelerate_dot.AccelerateDot.trial = real
    return got


def per_iteration(f_ours, f_theirs) -> tuple:
    """(reads, writes) of ours and of Triton's, ours per Triton's loop iteration where LLVM unrolled them apart (the
    judge's own scaling, cost_model.unrolled)."""
    from triton_mfma.models.cost_model import unrolled

    u = unrolled(f_theirs, f_ours)
    return ((f_ours.loop_ds_read / u, f_ours.loop_ds_write / u), (f_theirs.loop_ds_read, f_theirs.loop_ds_write))


def _order(a, b) -> str:
    return "fewer" if a < b else "as many" if a == b else "more"


def main() -> int:
    from triton_mfma.models import dot_figures
    from triton_mfma.decisions.accelerate_dot import layouts_bound

    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--out")
    args = ap.parse_args()
    os.environ.setdefault("TRITON_MFMA_TRIAL_THREADS", "1")
    todo = trials_to_redo(args.runs, args.limit)
    table, lines = Counter(), []
    with tempfile.TemporaryDirectory() as directory:
        for i, (seed, arch, spec) in enumerate(todo):
            print(f"[{i + 1}/{len(todo)}] {seed} {arch}", file=sys.stderr, flush=True)
            for ours, theirs, f_ours, f_theirs, decision in captured_trials(spec, arch, directory):
                if not dot_figures.only_kwidth_differs(ours, theirs):
                    continue
                spill = "a spill" if f_ours.spills or f_theirs.spills else "no spill"
                same = "same shared layouts" if sorted(_SHARED.findall(ours)) == sorted(_SHARED.findall(theirs)) \
                    else "other shared layouts"
                (ro, wo), (rt, wt) = per_iteration(f_ours, f_theirs)
                # the decision reads the bound only where ours, compiled, has no spill (a spill's code moves the
                # LDS ops LLVM pairs): elsewhere it is no bound
                bound = "bound" if not f_ours.spills and layouts_bound(ours, theirs, arch, f_ours) else "no bound"
                table[spill, same, bound, "reads " + _order(ro, rt), "writes " + _order(wo, wt), decision] += 1
                lines.append(f"{seed} {arch} {spill}, {same}, {bound}: reads {rt} -> {float(ro):g}, writes {wt} -> "
                             f"{float(wo):g}; {decision}")
    out = [f"# accelerate-dot trials where only kWidth differs, main-loop LDS ops Triton's -> ours -- `PYTHONPATH=python "
           f"python bench/kwidth_lds.py {' '.join(sys.argv[1:])}`",
           f"# {len(todo)} kernels x arch recompiled, {sum(table.values())} such trials"]
    emit_table(out, table, lines, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
