"""Compile-time cost of the generic-text bridge: stock Triton vs one no-op round trip per kernel.

For every corpus kernel and arch, compiled fresh (Triton's cache bypassed), alternating:
  stock     Triton 3.9's own pipeline
  roundtrip our composed make_ttgir with one crossing at `ttgir_end`: export_generic -> C++ parse/print
            (empty pipeline) -> import_generic (Triton re-parses and verifies)
  analysis  the same crossing running the mfma-print-layouts analysis (every layout parsed + printed)
Each configuration is timed `--reps` times; the minimum is kept. End-to-end compile times are noisy on a
shared 2-core machine, so the bridge is also timed on its own: export -> C++ -> import of the kernel's
TTGIR module, minimum of 5, in milliseconds; `bridge ratio` = (stock + bridge) / stock is the robust
figure. Prints a table and the median ratios.

    python bench/roundtrip_overhead.py [--reps 3] [--arch gfx942 ...]
"""
import argparse
import os
import statistics
import sys
import time
import warnings

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

from triton import knobs  # noqa: E402

import triton_mfma  # noqa: E402
from triton_mfma.ir.bridge import export_generic, import_generic  # noqa: E402
from triton_mfma.compiler.compile import always_compile, compile_kernel  # noqa: E402
from triton_mfma.examples import ARCHS, CORPUS  # noqa: E402
from triton_mfma.ir.native import MFMARemark, run_pipeline  # noqa: E402
from triton_mfma.composition.make_ttgir import amd_make_ttgir  # noqa: E402


def _noop_roundtrip(point, mod):
    if point != "ttgir_end":
        return mod
    return import_generic(run_pipeline(export_generic(mod), ""), mod.context, pass_name="(empty pipeline)")


def _roundtrip_hook(*args):
    if not args:
        return "bench-roundtrip", "bench-roundtrip"
    backend, stages, options = args[:3]
    stages["ttgir"] = lambda src, md: amd_make_ttgir(src, md, options, _noop_roundtrip, {"ttgir_end"})


def _bridge_seconds(fn, sig, cx, arch, reps=5):
    """Time one round trip on the real TTGIR module of this kernel, captured inside a stock compile."""
    best = []

    def hook(*args):
        if not args:
            return "bench-bridge", "bench-bridge"
        stages = args[1]
        orig = stages["ttgir"]

        def ttgir(src, md):
            mod = orig(src, md)
            for _ in range(reps):
                t = time.perf_counter()
                _noop_roundtrip("ttgir_end", mod)
                best.append(time.perf_counter() - t)
            return mod

        stages["ttgir"] = ttgir

    knobs.runtime.add_stages_inspection_hook = hook
    try:
        compile_kernel(fn, sig, cx, arch)
    finally:
        knobs.runtime.add_stages_inspection_hook = None
    return min(best)


def _time(fn, reps):
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--arch", action="append")
    args = ap.parse_args()
    archs = args.arch or list(ARCHS)
    warnings.simplefilter("ignore", MFMARemark)
    rows = []
    print(f"{'kernel':22} {'arch':7} {'stock s':>8} {'roundtrip s':>11} {'ratio':>6} {'analysis s':>10} {'ratio':>6}"
          f" {'bridge ms':>9} {'bridge ratio':>12}")
    with always_compile():
        for arch in archs:
            for name, (fn, sig, cx) in CORPUS.items():
                def stock():
                    compile_kernel(fn, sig, cx, arch)

                def roundtrip():
                    knobs.runtime.add_stages_inspection_hook = _roundtrip_hook
                    try:
                        compile_kernel(fn, sig, cx, arch)
                    finally:
                        knobs.runtime.add_stages_inspection_hook = None

                def analysis():
                    with triton_mfma.enabled(passes=["mfma-print-layouts"], strict=True):
                        compile_kernel(fn, sig, cx, arch)

                stock()  # warm-up: first compile of a kernel pays for Python-side parsing
                ts, tr, ta = _time(stock, args.reps), _time(roundtrip, args.reps), _time(analysis, args.reps)
                tb = _bridge_seconds(fn, sig, cx, arch)
                rows.append((tr / ts, ta / ts, (ts + tb) / ts))
                print(f"{name:22} {arch:7} {ts:8.3f} {tr:11.3f} {tr / ts:6.3f} {ta:10.3f} {ta / ts:6.3f}"
                      f" {tb * 1000:9.2f} {(ts + tb) / ts:12.3f}", flush=True)
    print(f"median ratio roundtrip/stock over {len(rows)} kernels: {statistics.median(r[0] for r in rows):.3f}")
    print(f"median ratio analysis/stock  over {len(rows)} kernels: {statistics.median(r[1] for r in rows):.3f}")
    print(f"median bridge ratio (stock + one round trip)/stock over {len(rows)} kernels: "
          f"{statistics.median(r[2] for r in rows):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
