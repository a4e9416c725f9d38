"""Stock Triton vs triton-mfma's default passes on the bench suite (bench/suite.py), gfx90a / gfx942 / gfx950.

    PYTHONPATH=python python bench/defaults.py [--arch gfx942 ...] [--option KEY=VALUE ...]
        [--out bench/results/defaults]

Both builds go to hsaco in one run; figures from the amdgcn (dot_figures.py): effective waves per SIMD
(registers and LDS), LDS bytes, VGPR+AGPR registers, VGPR and SGPR spills, and in the main loop the dot's issue
cycles and ds_read + ds_write. Verdict per configuration: dot_figures.compare (the one judge's main keys,
cost_model.py: worse / better / same; SGPR spills into VGPR lanes outside the main loop are not worse).
Also printed: what each pass decided (the kernel's metadata). Writes <out>.txt and <out>.json.
"""
from __future__ import annotations

import argparse
import os
import sys
import warnings

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
os.environ["TRITON_MFMA_STRICT"] = "1"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import triton  # noqa: E402

import triton_mfma  # noqa: E402
from triton_mfma.models import dot_figures  # noqa: E402
from triton_mfma.compiler.compile import always_compile, compile_kernel  # noqa: E402
from triton_mfma.composition.passes import DEFAULT_PASSES  # noqa: E402
from suite import ARCHS, Report, add_option_argument, configs, decisions, options_text, parsed_options  # noqa: E402


verdict = dot_figures.compare  # the benches' one comparison: the one judge's main keys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arch", action="append")
    ap.add_argument("--only")
    add_option_argument(ap)
    ap.add_argument("--out", default="bench/results/defaults")
    args = ap.parse_args()
    options = parsed_options(args)
    warnings.simplefilter("ignore")
    report = Report()
    rows, emit = report.rows, report.emit

    emit(f"# stock Triton {triton.__version__} vs triton-mfma {triton_mfma.__version__} defaults {list(DEFAULT_PASSES)} "
         f"+ waves_per_eu auto{' with ' + str(options) if options else ''} -- `PYTHONPATH=python python "
         f"bench/defaults.py{options_text(args)}`")
    emit("# occ = waves/SIMD (registers+LDS); regs = VGPR+AGPR; sp = VGPR+SGPR spills; cyc / ds = main-loop dot "
         "cycles / LDS ops; stock | ours")
    emit(f"{'config':34} {'arch':7} {'occ':>5} {'LDS':>13} {'regs':>9} {'sp':>9} {'cyc':>11} {'ds':>9}  verdict")
    with always_compile():
        for arch in args.arch or ARCHS:
            for c in configs():
                if args.only and args.only not in c.name:
                    continue
                with triton_mfma.disabled():
                    stock = compile_kernel(c.fn, c.signature, c.constexprs, arch, c.options)
                with triton_mfma.enabled(**options):
                    ours = compile_kernel(c.fn, c.signature, c.constexprs, arch, c.options)
                s, o = dot_figures.of_kernel(stock), dot_figures.of_kernel(ours)
                v, why = verdict(s, o)
                d = decisions(ours.metadata)
                rows.append(dict(config=c.name, arch=arch, kind=c.kind, verdict=v, why=why, decisions=d,
                                 stock=vars(s), ours=vars(o), identical=stock.asm["amdgcn"] == ours.asm["amdgcn"]))
                emit(f"{c.name:34} {arch:7} {s.occupancy:>2}|{o.occupancy:<2} {s.lds:>6}|{o.lds:<6} "
                     f"{s.vgpr_total:>4}|{o.vgpr_total:<4} {s.spills:>4}|{o.spills:<4} {s.loop_cycles:>5}|"
                     f"{o.loop_cycles:<5} {s.loop_ds:>4}|{o.loop_ds:<4}  {v} {', '.join(why)}  {d}")
    emit()
    n = len(rows)
    for arch in args.arch or ARCHS:
        sub = [r for r in rows if r["arch"] == arch]
        if sub:
            emit(f"{arch}: worse {sum(r['verdict'] == 'worse' for r in sub)}, better "
                 f"{sum(r['verdict'] == 'better' for r in sub)}, same {sum(r['verdict'] == 'same' for r in sub)} "
                 f"of {len(sub)}")
    worse = [r for r in rows if r["verdict"] == "worse"]
    better = [r for r in rows if r["verdict"] == "better"]
    emit(f"all: worse than stock {len(worse)}/{n}, strictly better {len(better)}/{n} ({100 * len(better) // max(1, n)}%)")
    for r in worse:
        emit(f"  worse: {r['config']} {r['arch']}: {', '.join(r['why'])} {r['decisions']}")
    report.write(args.out)


if __name__ == "__main__":
    main()
