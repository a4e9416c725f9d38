"""What a compile of ours costs beside stock's where the decisions compile once: the TTGIR builds of the variants the
models read (Triton's layouts, Triton's pipeliner) against everything else ours adds.

    PYTHONPATH=python python bench/variant_cost.py RUN.json [--every N] [--arch gfx942] [--reps 3] [--out ...]

Kernels: the corpus configurations (bench/corpus) that a recorded corpus run (`RUN.json`, bench/corpus/run.py
--json) found with a dot, no spill under stock, and one make_amdgcn of ours (`triton_mfma_trials` 1), every N-th.
Per kernel, in this process, after a warm-up compile: stock and ours compiled `--reps` times in turn, the least CPU
time of each (every thread: bench/cputime.py), and the CPU time ours spent building variants' TTGIRs other than
its own (Engine.variant of a choice not built before, not the first build), least over the reps. Prints per kernel
ours / stock with and without those builds, and the medians.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "corpus"))

from cputime import population, process_cpu  # noqa: E402
from record import emit, read_json  # noqa: E402


def one_compile_kernels(run: str, every: int) -> list[str]:
    rows = read_json(run)["results"]
    return [r["id"] for r in rows if not r.get("error") and not r.get("failure") and r.get("has_dot")
            and (r.get("reasons") or {}).get("triton_mfma_trials") == 1
            and population(True, (r.get("judge_figures") or {}).get("stock"), generated=False)
            == "hand-written, dot"][::every]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("run")
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--arch", default="gfx942")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--out")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        import run as corpus_run  # the libraries print as they load
        import harness
        cfgs, _ = corpus_run.load(None, False)
    import triton_mfma
    from triton import knobs
    from triton_mfma.trials import engine

    built = {"s": 0.0}
    variant = engine.Engine.variant

    def timed_variant(self, choice, metadata, first=None):
        new = frozenset(choice) not in self._builds and first is None
        t0 = time.thread_time()
        try:
            return variant(self, choice, metadata, first)
        finally:
            if new:
                built["s"] += time.thread_time() - t0

    engine.Engine.variant = timed_variant
    knobs.compilation.always_compile = True
    by_id = {c.id: c for c in cfgs}
    lines = [f"# ours' variant builds where it compiles once -- `PYTHONPATH=python python bench/variant_cost.py "
             f"{' '.join(sys.argv[1:])}`",
             "# ours/stock CPU (least of the reps), the same without the variants' TTGIR builds, their ms, stock's ms"]
    print("\n".join(lines), flush=True)
    rows = []
    for cid in one_compile_kernels(args.run, args.every):
        cfg = by_id.get(cid)
        if cfg is None:
            continue
        triton_mfma.disable()
        harness.compile_cfg(cfg, args.arch)
        t = {"stock": [], "ours": [], "variants": []}
        for _ in range(args.reps):
            for side in ("stock", "ours"):
                built["s"] = 0.0
                with triton_mfma.disabled() if side == "stock" else triton_mfma.enabled():
                    c0 = process_cpu()
                    harness.compile_cfg(cfg, args.arch)
                    t[side].append(process_cpu() - c0)
                if side == "ours":
                    t["variants"].append(built["s"])
        s, o, v = min(t["stock"]), min(t["ours"]), min(t["variants"])
        rows.append((o / s, (o - v) / s, v / s))
        line = f"{o / s:5.2f}  {(o - v) / s:5.2f}  {v * 1000:5.0f} ms  {s * 1000:5.0f} ms  {cid}"
        lines.append(line)
        print(line, flush=True)
    if rows:
        lines.append(f"# {len(rows)} kernels: median ours/stock {statistics.median(r[0] for r in rows):.2f}x, without the "
                     f"variants' builds {statistics.median(r[1] for r in rows):.2f}x; the builds "
                     f"{statistics.median(r[2] for r in rows):.2f}x of stock's compile (median)")
        print(lines[-1])
    if args.out:
        emit(lines, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
