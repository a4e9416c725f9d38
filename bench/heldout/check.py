"""Does every configuration of the held-aside set compile? Stock Triton (triton_mfma disabled) for each of its
targets, and optionally the project's defaults in strict mode (`--ours`: triton_mfma.enabled(strict=True), a
failing pass raises). Prints one line per configuration and target (ok / FAIL and the error) and the counts; no
figures, no decisions (the set is held aside from tuning: README.md).

    PYTHONPATH=python python bench/heldout/check.py [--arch gfx90a gfx942 gfx950] [--lib aiter ...] [--ours]
"""
from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import run as heldout_run  # noqa: E402  (puts bench/corpus on the path, loads the corpus runner)

import harness  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--arch", nargs="+", default=["gfx90a", "gfx942", "gfx950"])
    ap.add_argument("--lib", nargs="+", choices=sorted(heldout_run.LIBS))
    ap.add_argument("--ours", action="store_true", help="also the project's defaults, strict")
    args = ap.parse_args(argv)

    from triton import knobs

    import triton_mfma

    heldout_run.corpus_run.LIBS = heldout_run.LIBS
    cfgs, errors = heldout_run.corpus_run.load(args.lib)
    for lib, e in errors.items():
        print(f"# library {lib} not loaded: {e}")
    counts = {}
    knobs.compilation.always_compile = True
    t0 = time.time()
    for cfg in cfgs:
        for arch in args.arch:
            if arch not in cfg.archs:
                continue
            modes = [("stock", triton_mfma.disabled)] + ([("ours", lambda: triton_mfma.enabled(strict=True))]
                                                         if args.ours else [])
            for mode, ctx in modes:
                try:
                    with ctx():
                        harness.compile_cfg(cfg, arch)
                    status = "ok"
                except Exception as e:  # noqa: BLE001
                    status = "FAIL " + f"{type(e).__name__}: {e}".replace("\n", " ")[:300]
                key = (arch, mode)
                c = counts.setdefault(key, [0, 0])
                c[0 if status == "ok" else 1] += 1
                print(f"{cfg.id:70} {arch:7} {mode:5} {status}", flush=True)
    print(f"\n# {len(cfgs)} configurations, {time.time() - t0:.0f} s")
    for (arch, mode), (ok, bad) in sorted(counts.items()):
        print(f"# {arch:7} {mode:5} compiled {ok}, failed {bad}")
    return 1 if errors or any(bad for _, bad in counts.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
