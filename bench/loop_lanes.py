"""SGPR lane spills in loops, ours against stock: issue 54's done-when on recorded runs.

    PYTHONPATH=python python bench/loop_lanes.py RECORD.json[.xz] ... [--slack 2]

A kernel handed on breaks the rule where its blocks in loops (the asm printer's "in Loop:" marks:
dot_figures.Figures.loop_block_lane_ops) hold more than `--slack` v_writelane / v_readlane more than stock's, at
no less main-loop scratch (a lane spill bought with scratch taken out of the main loop is the judge's trade, key 2
over keys 6-7). Reads the corpus runner's records (bench/corpus/run.py --json: results[].judge_figures) and the
differential runner's (bench/differential.py: [].stock.figures / [].ours.figures); a record made before the figure
existed is counted apart ("not counted"), never as a pass.
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from record import read_json  # noqa: E402

SLACK = 2  # issue 54: "by more than 2"


def pairs(record) -> list[tuple[str, dict, dict]]:
    """(name, stock's figures, ours' figures) of every AMD compile pair in a recorded run."""
    if isinstance(record, dict) and "results" in record:  # the corpus runner
        return [(f"{r['id']} {r['arch']}", r["judge_figures"]["stock"], r["judge_figures"]["ours"])
                for r in record["results"] if r.get("judge_figures")]
    out = []
    for r in record:  # the differential runner
        s, o = ((r.get(side) or {}).get("figures") for side in ("stock", "ours"))
        if s and o:
            out.append((f"seed {r['seed']} {r['arch']}", s, o))
    return out


def breaks(stock: dict, ours: dict, slack: int = SLACK) -> bool:
    return (ours["loop_block_lane_ops"] > stock["loop_block_lane_ops"] + slack
            and ours["loop_scratch_ops"] >= stock["loop_scratch_ops"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", nargs="+")
    ap.add_argument("--slack", type=int, default=SLACK)
    args = ap.parse_args()
    total = broken = unknown = more = fewer = 0
    for path in args.records:
        rows = pairs(read_json(path))
        counted = [(n, s, o) for n, s, o in rows if "loop_block_lane_ops" in s and "loop_block_lane_ops" in o]
        unknown += len(rows) - len(counted)
        for name, s, o in counted:
            total += 1
            more += o["loop_block_lane_ops"] > s["loop_block_lane_ops"]
            fewer += o["loop_block_lane_ops"] < s["loop_block_lane_ops"]
            if breaks(s, o, args.slack):
                broken += 1
                print(f"  more lanes in loops: {name}: {s['loop_block_lane_ops']} -> {o['loop_block_lane_ops']} "
                      f"(main-loop scratch {s['loop_scratch_ops']} -> {o['loop_scratch_ops']})")
        print(f"{path}: {len(counted)} pairs counted, {len(rows) - len(counted)} recorded before the figure")
    print(f"lane instructions in loop blocks, ours against stock, {total} pairs: more {more}, fewer {fewer}; "
          f"more by over {args.slack} at no less main-loop scratch: {broken}" + (f"; not counted: {unknown}" if unknown
                                                                              else ""))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
