"""Which decision makes a generated kernel worse: compile it (a seed, or a reproducer @spec.json) with stock, with
the defaults, and with the defaults less one decision at a time, each in its own child process, and print the
figures and the verdict of each against stock.

    PYTHONPATH=python python bench/differential_diagnose.py SEED_OR_@SPEC --arch gfx942 [--timeout 600]

Variants: defaults; without mfma-accelerate-dot / mfma-stream-pipeline / mfma-split-epilogue-cvt /
mfma-grid-order (each: the other default passes, waves_per_eu auto kept); without waves_per_eu auto (the default
passes, the kernel's own waves_per_eu). The variant that is not worse where the defaults are names the decision.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import differential  # noqa: E402  (puts the checkout's python/ first where it is built)


def variants() -> dict:
    from triton_mfma.composition.passes import DEFAULT_OPTIONS, DEFAULT_PASSES

    out = {"defaults": None}
    for p in DEFAULT_PASSES:
        if p != "mfma-hip-num-programs":
            out[f"without {p}"] = dict(passes=[q for q in DEFAULT_PASSES if q != p], **DEFAULT_OPTIONS)
    out["without waves_per_eu auto"] = dict(passes=list(DEFAULT_PASSES))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("seed")
    ap.add_argument("--arch", default="gfx942")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--kernels", default="/tmp/tmfma-diagnose")
    args = ap.parse_args()
    seed = differential.parse_seeds(args.seed)[0]
    from triton_mfma.models import dot_figures

    print(differential.spec_of(seed).describe())
    stock = differential.run_child("stock", seed, args.arch, args.kernels, args.timeout)
    if stock["status"] != "ok":
        print("stock:", stock)
        return
    s = differential.figures(stock["figures"])
    print(f"{'stock':34} {dot_figures.summary(s, s)}  cpu {stock['cpu_s']}s")
    for name, opts in variants().items():
        os.environ["TMFMA_DIFF_OPTIONS"] = json.dumps(opts) if opts is not None else ""
        r = differential.run_child("ours", seed, args.arch, args.kernels, args.timeout)
        if r["status"] != "ok":
            print(f"{name:34} {r['status']}: {r.get('error')}")
            continue
        o = differential.figures(r["figures"])
        v, why = dot_figures.compare(s, o)
        print(f"{name:34} occ {o.occupancy} vgpr {o.vgpr_total} sp {o.vgpr_spills}+{o.sgpr_spills} lds {o.lds} "
              f"cyc {o.loop_cycles} ds {o.loop_ds} loop-spill-ops {o.loop_spill_ops}  {v} {'; '.join(why)} "
              f"{r.get('decisions', '')}")


if __name__ == "__main__":
    main()
