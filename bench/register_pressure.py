"""Register pressure: the configurations that spill under stock Triton, and what the defaults make of them.

    PYTHONPATH=python python bench/register_pressure.py RUN.json [RUN.json ...] [--out bench/results/register_pressure]

Reads differential runs (bench/differential.py's <out>.json: stock and the defaults compiled in child processes,
figures from the amdgcn, each decision's record) and corpus runs (bench/corpus/run.py --json: the same figures and
records of public libraries' configurations) and keeps the kernel x arch pairs whose stock compile spills
(VGPR or SGPR). Per pair: stock | ours spills, main-loop scratch ops (spill/reload instructions in the main loop:
paid every iteration), scratch ops in all, occupancy, the verdict of the one judge (dot_figures.compare), the
decisions that acted (num_stages, the waves_per_eu relaxation, "auto", accelerate-dot, the pipeliner, the
combination check) and the trial compiles.

Classes (issue 39's criterion):
  loop-scratch cut   fewer main-loop scratch ops at no lower occupancy
  ranked better      better by the one judge otherwise (a trade the rule justifies: listed one by one)
  request kept       the kernel's explicit waves_per_eu runs the waves it asks for under stock, and is kept (the
                     rule: an author's waves_per_eu that buys its waves stands, spills and all; relaxing it would
                     lose waves): listed one by one
  same               no ranked figure changed
  worse              worse by the one judge
The summary gives each class's count per arch and in all, and the share of "loop-scratch cut" + "ranked better"
among all spilling pairs and among those that spill in the main loop under stock.
"""
from __future__ import annotations

import argparse
import os
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import checkout  # noqa: E402
from record import emit, read_json  # noqa: E402

checkout.use_checkout_if_built()

from triton_mfma.models.occupancy import occupancy  # noqa: E402

ACTING = {  # metadata key -> decision values that changed the kernel
    "triton_mfma_num_stages": ("reduced",), "triton_mfma_waves_relax": ("relaxed",),
    "triton_mfma_combination": ("reverted",), "triton_mfma_accelerate_dot": ("kept",),
    "triton_mfma_stream_pipeline": ("applied",),
}


def classify(s, o, row) -> tuple[str, list[str]]:
    from triton_mfma.models import dot_figures

    verdict, why = dot_figures.compare(s, o)
    if verdict == "worse":
        return "worse", why
    if o.loop_scratch_ops < s.loop_scratch_ops and o.occupancy >= s.occupancy:
        return "loop-scratch cut", why
    if verdict == "better" and why and not why[0].startswith(("registers", "LDS ", "spills")):
        return "ranked better", why
    asked = row["spec"]["options"].get("waves_per_eu") or 0
    relax = row["ours"].get("reasons", {}).get("triton_mfma_waves_relax") or {}
    if asked and s.occupancy >= asked and relax.get("decision") == "kept":
        # the author's trade, kept by rule: the waves asked run (spills for occupancy); relaxing would lose waves
        return "request kept", [f"waves_per_eu={asked}: {s.occupancy} waves/SIMD run as asked"]
    return "same", why


def acted(reasons: dict) -> list[str]:
    out = []
    for key, values in ACTING.items():
        r = reasons.get(key)
        if isinstance(r, dict) and r.get("decision") in values:
            out.append(f"{key[len('triton_mfma_'):]}={r['decision']}")
    auto = reasons.get("triton_mfma_waves_per_eu")
    if isinstance(auto, dict) and auto.get("chosen"):
        out.append(f"auto w={auto['chosen']}")
    return out


def rows_of(run) -> list[dict]:
    """A differential run's rows as they are; a corpus run's (bench/corpus/run.py --json: {"results": [...]}) as
    rows of the same shape: seed = the library, what = the configuration, its asked waves_per_eu as the option."""
    if isinstance(run, list):
        return run
    rows = []
    for r in run["results"]:
        if not r.get("judge_figures"):
            continue  # stock failed, ours failed, or a cuda row
        rows.append({"seed": r["lib"], "arch": r["arch"], "what": r["id"].split("/", 1)[-1],
                     "spec": {"options": {"waves_per_eu": r.get("waves_per_eu", 0)}},
                     "stock": {"figures": r["judge_figures"]["stock"]},
                     "ours": {"figures": r["judge_figures"]["ours"], "reasons": r.get("reasons", {})}})
    return rows


def main() -> int:
    from triton_mfma.models.dot_figures import Figures

    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--out")
    args = ap.parse_args()
    rows = [r for path in args.runs for r in rows_of(read_json(path))]
    lines = [f"# configurations that spill under stock, and the defaults -- `PYTHONPATH=python python "
             f"bench/register_pressure.py {' '.join(sys.argv[1:])}`",
             "# sp = VGPR+SGPR spills, lsc = main-loop scratch ops, sc = scratch ops in all, occ = waves/SIMD: "
             "stock|ours; trials = make_amdgcn runs of ours (the one handed to Triton included)"]
    table = []
    for r in sorted(rows, key=lambda r: (str(r["seed"]).zfill(8), r["arch"])):
        st, ou = r.get("stock", {}), r.get("ours", {})
        if "figures" not in st or "figures" not in ou:
            continue
        s, o = Figures(**st["figures"]), Figures(**ou["figures"])
        if not s.spills:
            continue
        cls, why = classify(s, o, r)
        reasons = ou.get("reasons", {})
        table.append((r, s, o, cls))
        lines.append(f"{str(r['seed']):>5} {r['arch']:7} {r['what'][:60]:60} sp {s.spills:5}|{o.spills:<5} "
                     f"lsc {s.loop_scratch_ops:5}|{o.loop_scratch_ops:<5} sc {s.spill_mem_ops:5}|{o.spill_mem_ops:<5} "
                     f"occ {s.occupancy}|{o.occupancy} trials {reasons.get('triton_mfma_trials', '-')!s:2} "
                     f"{cls:16} {'; '.join(why)[:90]}  {' '.join(acted(reasons))}")
    lines.append("")
    for arch in sorted({r["arch"] for r, *_ in table}) + ["all"]:
        sub = [t for t in table if arch in ("all", t[0]["arch"])]
        n = Counter(t[3] for t in sub)
        in_loop = [t for t in sub if t[1].loop_scratch_ops]
        good = lambda ts, *more: sum(t[3] in ("loop-scratch cut", "ranked better", *more) for t in ts)  # noqa: E731
        pct = lambda a, b: f"{a}/{b} ({100 * a / max(1, b):.0f}%)"  # noqa: E731
        lines.append(f"{arch}: spilling under stock {len(sub)}: loop-scratch cut {n['loop-scratch cut']}, ranked "
                     f"better {n['ranked better']}, request kept {n['request kept']}, same {n['same']}, worse "
                     f"{n['worse']}; cut or better {pct(good(sub), len(sub))}, with the requests kept by rule "
                     f"{pct(good(sub, 'request kept'), len(sub))}; of those spilling in the main loop "
                     f"{pct(good(in_loop), len(in_loop))}, {pct(good(in_loop, 'request kept'), len(in_loop))}")
    relaxed = [(r, s, o) for r, s, o, _ in table
               if (r["ours"].get("reasons", {}).get("triton_mfma_waves_relax") or {}).get("decision") == "relaxed"]
    raised = [r for r, *_ in table if r["spec"]["options"].get("waves_per_eu")
              and (r["ours"].get("reasons", {}).get("triton_mfma_waves_relax") or {}).get("tried", 0)
              > r["spec"]["options"]["waves_per_eu"]]
    # below stock's occupancy: the relaxation's doing only where ours' own LDS and workgroup would run more waves
    # at the request; where they cap it, another decision's choice did (its verdict says why: a ranked trade)
    lower = [(r, o) for r, s, o in relaxed if o.occupancy < s.occupancy]
    capped = [(r, o) for r, o in lower if occupancy(r["arch"], r["spec"]["options"].get("num_warps", 4), 0, 0, o.lds,
                                                    r["spec"]["options"]["waves_per_eu"]).waves_per_simd <= o.occupancy]
    lines.append(f"explicit waves_per_eu relaxed on {len(relaxed)} pairs: raised on {len(raised)}, at an occupancy "
                 f"below what the request reached under stock on {len(lower) - len(capped)}"
                 + "".join(f"\n  below: seed {r['seed']} {r['arch']}" for r, o in lower if (r, o) not in capped))
    for r, o in capped:
        lines.append(f"  lower, but not by the relaxation (ours' LDS, {o.lds} B, admits {o.occupancy} waves/SIMD at "
                     f"the request too): seed {r['seed']} {r['arch']}: " + "; ".join(
                         f"{k[len('triton_mfma_'):]} {v.get('decision')}: {v.get('reason', '')[:160]}"
                         for k, v in r["ours"].get("reasons", {}).items() if isinstance(v, dict)
                         and v.get("evidence") == "trial" and "occupancy" in v.get("reason", "")))
    deciders = Counter(a.split("=")[0] for t in table if t[3] != "same" for a in acted(t[0]["ours"].get("reasons", {})))
    lines.append("decisions that acted on the pairs that changed: " + ", ".join(f"{k} {v}" for k, v in
                                                                            deciders.most_common()))
    emit(lines, args.out and args.out + ".txt")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
