"""What a trial buys where ours' first compile has nothing to lose: the accuracy a "nothing to win" model would have.

    PYTHONPATH=python python bench/stakes.py RUN.json [RUN.json ...] [--out bench/results/stakes]

Reads bench/differential.py's records. For every accelerate-dot verdict taken by trial where ours, compiled, had no
spill of any kind (VGPR and SGPR spills 0: no scratch, no AGPR copies from spills, no lane spills), it counts what
the trial did: kept ours, or reverted to Triton's layouts on which key of the one judge (cost_model.KEYS). A model
that skipped those trials as "nothing to win" would have been wrong on every revert; the keys say which figure a
model would have to read to skip them safely (occupancy: the register and LDS caps; dot cycles: dot_work from the
TTGIRs; LDS ops: no model reads them for layouts that differ in more than kWidth). Split by kWidth-only or other
layouts, and by the runs' seeds (the first half of the runs named, the second).
"""
from __future__ import annotations

import argparse
import re
from collections import Counter

from record import emit, read_json


def outcomes(rows) -> Counter:
    """(kWidth only, outcome) -> count, outcome 'kept' or 'reverted on <key>' (a key of the one judge)."""
    from triton_mfma.models.cost_model import KEYS

    out = Counter()
    for r in rows:
        a = ((r.get("ours") or {}).get("reasons") or {}).get("triton_mfma_accelerate_dot")
        if not isinstance(a, dict) or a.get("evidence") != "trial" or "figures" not in a:
            continue
        mine = a["figures"]["ours"]
        if mine["vgpr_spills"] + mine["sgpr_spills"]:
            continue
        if a["decision"] != "reverted":
            out[a["kwidth_only"], "kept"] += 1
            continue
        m = re.search(r"worse on (.*?) \d", a["reason"])
        key = next((k for k in KEYS if m and m.group(1).startswith(k)), "other")
        out[a["kwidth_only"], f"reverted on {key}"] += 1
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--out")
    args = ap.parse_args()
    half = (len(args.runs) + 1) // 2
    lines = [f"# accelerate-dot trials where ours had no spill: what they did -- `PYTHONPATH=python python "
             f"bench/stakes.py {' '.join(__import__('sys').argv[1:])}`"]
    for name, runs in (("all runs", args.runs), ("first half of the runs", args.runs[:half]),
                       ("second half", args.runs[half:])):
        c = outcomes(r for path in runs for r in read_json(path))
        total = sum(c.values())
        if not total:
            continue
        lines.append(f"{name}: {total} trials, kept {sum(v for (_, o), v in c.items() if o == 'kept')}")
        for kw in (True, False):
            sub = {o: v for (k, o), v in c.items() if k == kw}
            lines.append(f"  {'kWidth only' if kw else 'other layouts'} ({sum(sub.values())}): "
                         + ", ".join(f"{o} {v}" for o, v in sorted(sub.items(), key=lambda kv: -kv[1])))
    emit(lines, args.out and args.out + ".txt")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
