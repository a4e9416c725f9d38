"""Compile cost of the defaults on a differential run, split as issue 35's budget is: kernels with a dot and without.

    PYTHONPATH=python python bench/compile_cpu.py RUN.json [RUN.json ...] [--out bench/results/compile_cpu]

Reads bench/differential.py's <out>.json (each compile timed in its own child process, after a warm-up compile:
CPU time of every thread, user + sys; wall time) and prints, per arch and in all, for kernels with a tt.dot and
without: the median, p90 and max of ours / stock CPU time and wall time, and how many kernels needed how many
compiles of ours (make_amdgcn runs, the one handed to Triton included) with the median ratio at each count; and,
over all archs, the kernels with a dot split by whether stock's compile spills ("dot, spill": where issue 39's
trial compiles are) or not ("dot, none").
Only pairs both sides compiled count (worse, better, same).
"""
from __future__ import annotations

import argparse
import statistics
from collections import defaultdict

from record import emit, read_json

BUDGET = {"dot": (1.30, 2.0, 2.5), "no dot": (1.05, 2.0, 2.5)}  # issue 35: median, p90, max of CPU ours / stock


def quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def distribution(xs: list[float]) -> str:
    if not xs:
        return "-"
    return f"median {statistics.median(xs):.2f} p90 {quantile(xs, 0.9):.2f} max {max(xs):.2f}"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--out")
    args = ap.parse_args()
    rows = [r for path in args.runs for r in read_json(path) if r.get("verdict") in ("worse", "better", "same")]
    groups = defaultdict(lambda: defaultdict(list))  # (arch, kind) -> {"cpu": [...], "wall": [...], compiles: [...]}
    for r in rows:
        s, o = r["stock"], r["ours"]
        if not (s.get("compile_cpu_s") and o.get("compile_cpu_s")):
            continue
        kind = "no dot" if r["spec"].get("family") == "nodot" else "dot"
        cpu, wall = o["compile_cpu_s"] / s["compile_cpu_s"], o["compile_wall_s"] / s["compile_wall_s"]
        trials = (o.get("reasons") or {}).get("triton_mfma_trials")
        if kind == "dot":  # issue 39's trials are on the kernels that spill under stock: their cost apart
            spills = "dot, spill" if (s.get("figures") or {}).get("spills") else "dot, none"
            groups["all", spills]["cpu"].append(cpu)
            groups["all", spills]["wall"].append(wall)
        for arch in (r["arch"], "all"):
            g = groups[arch, kind]
            g["cpu"].append(cpu)
            g["wall"].append(wall)
            if isinstance(trials, int):
                g[trials].append(cpu)
    lines = [f"# compile cost of the defaults, ours / stock, from differential runs -- `PYTHONPATH=python python "
             f"bench/compile_cpu.py {' '.join(a for a in __import__('sys').argv[1:])}`",
             "# budget (issue 35): CPU median <= 1.30 with a dot, <= 1.05 without; p90 <= 2.0; max <= 2.5"]
    for (arch, kind), g in sorted(groups.items(), key=lambda kv: (kv[0][0] == "all", kv[0])):
        med, p90, mx = BUDGET[kind.split(",")[0]]
        cpu = g["cpu"]
        met = (statistics.median(cpu) <= med, quantile(cpu, 0.9) <= p90, max(cpu) <= mx)
        lines.append(f"{arch:6} {kind:10} {len(cpu):4} kernels: CPU {distribution(cpu)} "
                     f"({'/'.join('met' if m else 'not met' for m in met)}); wall {distribution(g['wall'])}")
        counts = sorted(k for k in g if isinstance(k, int))
        if arch == "all" and counts:
            lines.append("       compiles of ours: " + ", ".join(
                f"{k}: {len(g[k])} (CPU median {statistics.median(g[k]):.2f})" for k in counts))
    emit(lines, args.out and args.out + ".txt")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
