"""LLVM's scheduling strategy decision (decisions/sched_strategy.py) on the kernels whose main loop still spilled
after the other decisions in recorded differential runs: what it tried, what it cut, and the verdict against stock.

    PYTHONPATH=python python bench/sched_strategy.py RUN.json [RUN.json ...] [--limit N] [--timeout 600]
        [--out bench/results/sched_strategy]

For every pair of the runs whose ours (compiled by the tree that recorded the run) had scratch spill instructions in
its main loop, ours is compiled again with this tree's defaults in a child process (bench/differential.py's,
strict, after a warm-up compile) and read: the decision's record (the default strategy's figures, the strategies
compiled, the one handed on), the kernel's main-loop scratch against the default strategy's at no lower occupancy,
and the one judge's verdict (dot_figures.compare) against the run's recorded stock compile. CPU time: ours'
compile against the recorded stock compile's (another process, another day: a rough figure).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from record import emit, read_json, write_json  # noqa: E402


def spilling(runs) -> list[dict]:
    """The recorded pairs whose ours had main-loop scratch, in the runs' order."""
    return [r for path in runs for r in read_json(path)
            if ((r.get("ours") or {}).get("figures") or {}).get("loop_scratch_ops", 0) > 0]


def main() -> int:
    import differential
    from triton_mfma.models.dot_figures import Figures, compare

    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--out")
    args = ap.parse_args()
    rows = spilling(args.runs)[:args.limit]
    lines = [f"# LLVM's scheduling strategy on the main loops that spilled after the other decisions -- `PYTHONPATH="
             f"python python bench/sched_strategy.py {' '.join(sys.argv[1:])}`",
             "# base = the default strategy's compile (this tree); lsc = main-loop scratch ops, occ = waves/SIMD; "
             "verdict = the one judge against the run's stock compile"]
    print("\n".join(lines), flush=True)
    out, kdir = [], tempfile.mkdtemp(prefix="sched-")
    for r in rows:
        o = differential.run_child("ours", r["seed"], r["arch"], kdir, args.timeout)
        rec = (o.get("reasons") or {}).get("triton_mfma_sched_strategy")
        row = {"seed": r["seed"], "arch": r["arch"], "what": r["what"], "status": o.get("status"), "record": rec,
               "stock_cpu_s": r["stock"].get("compile_cpu_s"), "ours_cpu_s": o.get("compile_cpu_s")}
        if o.get("status") == "ok":
            f, s = Figures(**o["figures"]), Figures(**r["stock"]["figures"])
            row["verdict"] = compare(s, f)[0]
            row["lsc"], row["occ"] = f.loop_scratch_ops, f.occupancy
            base = (rec or {}).get("base") or {"loop_scratch": f.loop_scratch_ops, "occupancy": f.occupancy}
            row["base_lsc"], row["base_occ"] = base["loop_scratch"], base["occupancy"]
            row["cut"] = f.loop_scratch_ops < base["loop_scratch"] and f.occupancy >= base["occupancy"]
        out.append(row)
        decided = "no record (no main-loop scratch now)" if rec is None else \
            f"{rec['decision']}{' ' + rec.get('strategy', '') if rec.get('strategy') else ''}, {len(rec['tried'])} " \
            f"compiled"
        lines.append(f"{r['seed']:5} {r['arch']:7} {r['what'][:44]:44} " + (
            f"lsc {row['base_lsc']:5} -> {row['lsc']:5} occ {row['base_occ']}|{row['occ']} {row['verdict']:6} "
            f"{decided}" if o.get("status") == "ok" else f"{o.get('status')}: {o.get('error', '')[:80]}"))
        print(lines[-1], flush=True)
    ok = [x for x in out if x.get("status") == "ok"]
    still = [x for x in ok if x["base_lsc"] > 0]
    cut = [x for x in still if x["cut"]]
    ratios = [x["ours_cpu_s"] / x["stock_cpu_s"] for x in ok if x.get("ours_cpu_s") and x.get("stock_cpu_s")]
    summary = [f"kernels {len(out)}, compiled {len(ok)}; main loop still spilling under the default strategy "
               f"{len(still)}; fewer main-loop scratch ops at no lower occupancy through the strategy {len(cut)} "
               f"({100 * len(cut) // max(1, len(still))}%); worse than stock {sum(x['verdict'] == 'worse' for x in ok)}",
               f"strategies handed on: " + ", ".join(
                   f"{s} {sum((x['record'] or {}).get('strategy') == s for x in ok)}"
                   for s in sorted({(x['record'] or {}).get('strategy') for x in ok} - {None})),
               f"CPU ours / recorded stock: median {statistics.median(ratios):.2f}" if ratios else ""]
    emit(summary, None)
    if args.out:
        emit(lines + [""] + summary, args.out + ".txt")
        write_json(args.out + ".json", out, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
