"""mfma-grid-order's compiled check on AMD: what the remap does to the registers of the kernels it is checked on.

    PYTHONPATH=python python bench/grid_check.py [--arch gfx942 ...] [--out bench/results/grid_check]

Where the kernel compiled with the remap spills SGPRs or is SGPR-limited, the default passes compile it once more
without the remap and drop the remap if it cost spills or occupancy (decisions/grid_order.py). That
compile comes after ours' make_amdgcn (its trigger is ours' SGPR figures), so it is the longest sequential step
of the kernels that need it (bench/compile_time.py: 1.9-2.45x stock there). This bench records, over the bench
suite on three archs, each kernel the check compiles: both variants' SGPRs, SGPR and VGPR spills, VGPRs and
occupancy, and the decision; then how the remap's effect on SGPR spills is distributed, i.e. whether any model
could tell the decision without the compile.
"""
from __future__ import annotations

import argparse
import collections
import os
import sys
import warnings

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
os.environ["TRITON_MFMA_STRICT"] = "1"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import triton_mfma  # noqa: E402
from triton_mfma.trials import policy  # noqa: E402
from triton_mfma.compiler.compile import always_compile, compile_kernel  # noqa: E402
from suite import ARCHS, Report, configs  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", action="append", choices=ARCHS)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "results", "grid_check"))
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    checked = []
    decide = policy.Policy.decide

    def recording(self, decision, ours):  # the figures of both variants, read from the engine's own compiles
        if decision.name != "mfma-grid-order":
            return decide(self, decision, ours)
        without = decision.compared(self.ctx, ours)
        chosen = decide(self, decision, ours)
        if without is not None:
            f_ours, f_without = self.figures_each([(ours, self.ctx.w), (without, self.ctx.w)])
            checked.append((f_ours, f_without, chosen is without))
        return chosen

    policy.Policy.decide = recording
    rep = Report()
    rep.emit(f"# {__doc__.splitlines()[0]} -- `PYTHONPATH=python python bench/grid_check.py`")
    rep.emit("# columns: with the remap / without it; SGPR spills delta = with - without")
    rep.emit(f"{'config':34} {'arch':7} {'SGPRs':>9} {'SGPR spills':>12} {'VGPR spills':>12} {'VGPRs':>9} "
             f"{'waves':>6}  delta  decision")
    deltas = collections.Counter()
    for arch in args.arch or ARCHS:
        for c in configs():
            checked.clear()
            with always_compile(), triton_mfma.enabled():
                compile_kernel(c.fn, c.signature, c.constexprs, arch, c.options)
            for o, w, dropped in checked:
                d = o.sgpr_spills - w.sgpr_spills
                deltas[d] += 1
                rep.rows.append(dict(config=c.name, arch=arch, dropped=dropped, ours=o.__dict__, without=w.__dict__))
                rep.emit(f"{c.name:34} {arch:7} {o.sgpr:>4}/{w.sgpr:<4} {o.sgpr_spills:>5}/{w.sgpr_spills:<6} "
                         f"{o.vgpr_spills:>5}/{w.vgpr_spills:<6} {o.vgpr_total:>4}/{w.vgpr_total:<4} "
                         f"{o.occupancy:>2}/{w.occupancy:<3} {d:>+5}  {'dropped' if dropped else 'kept'}")
    n = sum(deltas.values())
    dropped = sum(r["dropped"] for r in rep.rows)
    rep.emit()
    rep.emit(f"kernels checked: {n}; remap dropped: {dropped}, kept: {n - dropped}")
    rep.emit("SGPR spills, with - without the remap: " + ", ".join(f"{d:+d}: {k}" for d, k in sorted(deltas.items())))
    same = sum(1 for r in rep.rows if r["ours"]["vgpr_total"] == r["without"]["vgpr_total"]
               and r["ours"]["sgpr"] == r["without"]["sgpr"])
    rep.emit(f"same VGPR and SGPR counts with and without: {same}/{n} (the spill counts are what differs)")
    rep.write(args.out)


if __name__ == "__main__":
    main()
