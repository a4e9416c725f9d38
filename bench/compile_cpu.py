"""Compile cost of the defaults on a differential run, by issue 53's populations and budget (bench/cputime.py).

    PYTHONPATH=python python bench/compile_cpu.py RUN.json [RUN.json ...] [--out bench/results/compile_cpu]

Reads bench/differential.py's <out>.json (each compile timed in its own child process, after a warm-up compile:
CPU time of every thread, user + sys; wall time) and prints, per arch and in all, for kernels with a tt.dot and
without: the median, p90 (nearest rank) and max of ours / stock CPU time and wall time, and how many kernels needed
how many compiles of ours (make_amdgcn runs, the one handed to Triton included) with the median ratio at each count;
and, over all archs, the kernels by issue 53's populations (cputime.population: a dot kernel whose stock compile
has spill traffic the judge ranks, or none) against their budget rows, and the kernels over the every-kernel bound
(ours > max(3x stock's CPU, stock's + 10 s)).
Only pairs both sides compiled count (worse, better, same).
"""
from __future__ import annotations

import argparse
import statistics
from collections import defaultdict

from cputime import BUDGET, distribution, over_every_kernel_bound, population, within_budget
from record import emit, read_json


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--out")
    args = ap.parse_args()
    rows = [r for path in args.runs for r in read_json(path) if r.get("verdict") in ("worse", "better", "same")]
    groups = defaultdict(lambda: defaultdict(list))  # (arch, kind) -> {"cpu": [...], "wall": [...], compiles: [...]}
    over = []
    for r in rows:
        s, o = r["stock"], r["ours"]
        if not (s.get("compile_cpu_s") and o.get("compile_cpu_s")):
            continue
        kind = "no dot" if r["spec"].get("family") == "nodot" else "dot"
        cpu, wall = o["compile_cpu_s"] / s["compile_cpu_s"], o["compile_wall_s"] / s["compile_wall_s"]
        trials = (o.get("reasons") or {}).get("triton_mfma_trials")
        pop = population(kind == "dot", s.get("figures"), generated=True)
        groups["all", pop]["cpu"].append(cpu)
        groups["all", pop]["wall"].append(wall)
        if over_every_kernel_bound(s["compile_cpu_s"], o["compile_cpu_s"]):
            over.append(f"  over max(3x, +10 s): seed {r['seed']} {r['arch']}: {s['compile_cpu_s']:.1f} s -> "
                        f"{o['compile_cpu_s']:.1f} s ({cpu:.1f}x)")
        for arch in (r["arch"], "all"):
            g = groups[arch, kind]
            g["cpu"].append(cpu)
            g["wall"].append(wall)
            if isinstance(trials, int):
                g[trials].append(cpu)
    lines = [f"# compile cost of the defaults, ours / stock, from differential runs -- `PYTHONPATH=python python "
             f"bench/compile_cpu.py {' '.join(a for a in __import__('sys').argv[1:])}`",
             "# budget (issue 53, CPU time): " + "; ".join(
                 f"{pop}: median <= {med}" + (f", p90 <= {p90}" if p90 else "") for pop, (med, p90) in BUDGET.items())
             + "; every kernel <= max(3x, stock + 10 s)"]
    for (arch, kind), g in sorted(groups.items(), key=lambda kv: (kv[0][0] == "all", kv[0][1] in BUDGET, kv[0])):
        cpu = g["cpu"]
        met = f" ({within_budget(kind, cpu)})" if kind in BUDGET else ""
        lines.append(f"{arch:6} {kind:24} {len(cpu):4} kernels: CPU {distribution(cpu)}{met}; wall "
                     f"{distribution(g['wall'])}")
        counts = sorted(k for k in g if isinstance(k, int))
        if arch == "all" and counts:
            lines.append("       compiles of ours: " + ", ".join(
                f"{k}: {len(g[k])} (CPU median {statistics.median(g[k]):.2f})" for k in counts))
    lines.append(f"over the every-kernel bound: {len(over)}")
    lines += over
    emit(lines, args.out and args.out + ".txt")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
