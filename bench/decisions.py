"""What every decision decided, and the trial compiles it cost, on the bench suite (bench/suite.py) x arch.

    PYTHONPATH=python python bench/decisions.py [--arch gfx942 ...] [--only NAME] [--option KEY=VALUE ...]
        [--out bench/results/decisions]
    python bench/decisions.py --diff BEFORE.json AFTER.json

One fresh compile per configuration with the defaults (Triton's cache bypassed, strict mode). Printed per
configuration: each pass's decision line from the kernel's metadata (`triton_mfma`: pass -> outcome), each
decision's record (`triton_mfma_<decision>`: decision, reason, evidence and what a trial compared) and the
trial-compile count (`triton_mfma_trials`: make_amdgcn calls the decisions made). Two runs of this script on two
trees, diffed, show whether a change kept every decision and its cost. The trial count depends on how many
trial threads run (speculative compiles started beside others, then dropped): run it with
TRITON_MFMA_TRIAL_THREADS set (1: sequential, the count is the decisions' own) to compare trees.
Writes <out>.txt and <out>.json. `--diff` compares two such JSON files (no compile): per configuration and arch,
the records that differ and the trial counts that differ.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import warnings

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
os.environ["TRITON_MFMA_STRICT"] = "1"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import triton  # noqa: E402

import triton_mfma  # noqa: E402
from triton_mfma.compiler.compile import always_compile, compile_kernel  # noqa: E402
from suite import ARCHS, Report, add_option_argument, configs, options_text, parsed_options  # noqa: E402


def records(md) -> dict:
    """The kernel's triton-mfma metadata: every `triton_mfma*` field (the pass outcomes, each decision's record,
    the trial count, a fallback)."""
    fields = md._asdict() if hasattr(md, "_asdict") else vars(md)
    return {k: v for k, v in sorted(fields.items()) if k.startswith("triton_mfma")}


def diff(before: str, after: str) -> int:
    """Print what differs between two runs' JSON (per configuration x arch); the number of rows that differ."""
    from record import read_json

    a, b = ({(r["config"], r["arch"]): r for r in read_json(p)} for p in (before, after))
    if a.keys() != b.keys():
        print(f"different configurations: {sorted(a.keys() ^ b.keys())}")
        return len(a.keys() ^ b.keys())
    records = trials = 0
    for k, x in a.items():
        y = b[k]
        fields = [f for f in sorted((x.keys() | y.keys()) - {"config", "arch", "triton_mfma_trials"})
                  if x.get(f) != y.get(f)]
        if fields:
            records += 1
            print(f"records differ: {k[0]} | {k[1]}: {', '.join(fields)}")
        tx, ty = x.get("triton_mfma_trials", 0), y.get("triton_mfma_trials", 0)
        if tx != ty:
            trials += 1
            print(f"trials differ: {k[0]} | {k[1]}: {tx} -> {ty}")
    total = [sum(r.get("triton_mfma_trials", 0) for r in d.values()) for d in (a, b)]
    print(f"{len(a)} compiles: decision records differing {records}, trial counts differing {trials}; "
          f"trial compiles in all {total[0]} -> {total[1]}")
    return records + trials


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arch", action="append")
    ap.add_argument("--only")
    add_option_argument(ap)
    ap.add_argument("--out", default="bench/results/decisions")
    ap.add_argument("--diff", nargs=2, metavar=("BEFORE", "AFTER"), help="compare two runs' JSON; no compile")
    args = ap.parse_args()
    if args.diff:
        sys.exit(1 if diff(*args.diff) else 0)
    options = parsed_options(args)
    warnings.simplefilter("ignore")
    report = Report()
    threads = os.environ.get("TRITON_MFMA_TRIAL_THREADS", "")
    report.emit(f"# triton-mfma {triton_mfma.__version__} defaults on Triton {triton.__version__}, "
                f"TRITON_MFMA_TRIAL_THREADS={threads or '(unset: idle cores)'} -- `PYTHONPATH=python python "
                f"bench/decisions.py{options_text(args)}`")
    with always_compile():
        for arch in args.arch or ARCHS:
            for c in configs():
                if args.only and args.only not in c.name:
                    continue
                with triton_mfma.enabled(**options):
                    k = compile_kernel(c.fn, c.signature, c.constexprs, arch, c.options)
                rec = records(k.metadata)
                report.rows.append(dict(config=c.name, arch=arch, **rec))
                report.emit(f"{c.name} | {arch} | trials {rec.get('triton_mfma_trials', 0)}")
                for line in (rec.get("triton_mfma") or {}).items():
                    report.emit(f"    {line[0]}: {line[1]}")
                for key, value in rec.items():
                    if key not in ("triton_mfma", "triton_mfma_trials"):
                        report.emit(f"    {key}: {json.dumps(value, sort_keys=True, default=str)}")
    total = sum(r.get("triton_mfma_trials", 0) for r in report.rows)
    report.emit(f"# {len(report.rows)} compiles, {total} trial compiles")
    report.write(args.out)


if __name__ == "__main__":
    main()
