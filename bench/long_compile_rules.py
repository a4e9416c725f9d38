"""The compile budget's predictors of a long compile, measured on differential runs (policy.Policy._long_reference_first).

    PYTHONPATH=python python bench/long_compile_rules.py RUN.json [RUN.json ...] [--held-out SEED] [--out FILE]

Where a rule predicts that a kernel's compile is long, Triton's kernel is compiled first, so that a compile over the
budget (decisions.LONG_COMPILE_S) leaves at most one more. The rules read the kernel's TTIR only:
  results >= one wave   the dot results need one wave's whole register file (dot_work.accumulator_registers)
  FMA, results >= asked no MFMA takes the dot's operands on the arch (dot_work.without_mfma: Triton does it on FMA)
                        and its results need the register budget of the waves asked
  FMA, + operands >= one wave
                        on FMA, its results with one K-tile of operands (dot_work.fma_operand_registers) need one
                        wave's whole register file
For every pair both sides compiled, the TTIR is rebuilt from the recorded generator spec (Triton's make_ttir, no
lowering) and each rule evaluated; the table counts, per rule and for the pairs no rule meets, how many there are
and how many took more than the budget of stock CPU. Seeds from --held-out on are counted apart: the rules were
chosen on the seeds before.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import warnings
from collections import Counter

from record import emit, read_json


class _Stop(Exception):
    pass


def ttir(spec: dict, arch: str, directory: str) -> str:
    """The generic TTIR of generated `spec` as Triton's make_ttir gives it for `arch`."""
    import triton
    from triton import knobs

    from triton_mfma.testing import kernelgen
    from triton_mfma.ir.bridge import export_generic
    from triton_mfma.compiler.compile import always_compile, target

    fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.from_dict(spec), directory, arch)
    box = {}

    def hook(*args):
        if not args:
            return "long-compile-rules", "long-compile-rules"
        _backend, stages, *_ = args
        make_ttir = stages["ttir"]

        def capture(src, metadata):
            box["ttir"] = export_generic(make_ttir(src, metadata))
            raise _Stop

        stages["ttir"] = capture

    previous = knobs.runtime.add_stages_inspection_hook
    knobs.runtime.add_stages_inspection_hook = hook
    try:
        with warnings.catch_warnings(), always_compile():
            warnings.simplefilter("ignore")
            triton.compile(triton.compiler.ASTSource(fn, sig, cx, attrs), target=target(arch), options=opts)
    except _Stop:
        pass
    finally:
        knobs.runtime.add_stages_inspection_hook = previous
    return box["ttir"]


def main() -> int:
    from triton_mfma.decisions import LONG_COMPILE_S
    from triton_mfma.trials.policy import LONG_COMPILE_RULES, long_compile

    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--held-out", type=int, default=None, help="first seed not looked at while choosing the rules")
    ap.add_argument("--out")
    args = ap.parse_args()
    rows = {}
    for path in args.runs:
        for r in read_json(path):
            if r.get("verdict") in ("worse", "better", "same") and r["spec"].get("family") == "gemm" \
                    and r["stock"].get("compile_cpu_s"):  # (runs before 150 timed the whole child only)
                rows[r["seed"], r["arch"]] = r  # a later run of the same pair replaces an earlier one
    counts = {part: Counter() for part in ("tuned", "held out")}
    unpredicted = []  # long compiles no rule met
    directory = tempfile.mkdtemp(prefix="long-compile-rules-")
    for (seed, arch), r in sorted(rows.items()):
        wpe = r["spec"]["options"].get("waves_per_eu", 0)
        text = ttir(r["spec"], arch, directory)
        met = long_compile(text, arch, r["spec"]["options"]["num_warps"], wpe if isinstance(wpe, int) else 0).rules
        long = r["stock"]["compile_cpu_s"] > LONG_COMPILE_S
        part = "held out" if args.held_out is not None and seed >= args.held_out else "tuned"
        for rule in met or ["none"]:
            counts[part][rule, long] += 1
        if long and not met:
            unpredicted.append(f"  {part}: seed {seed} {arch} {r['what']}: stock {r['stock']['compile_cpu_s']:.0f} s, "
                               f"ours {r['ours']['compile_cpu_s']:.0f} s")
        counts[part]["any", long] += bool(met)
        counts[part]["all", long] += 1
    lines = [f"# long-compile predictors (policy.Policy._long_reference_first) on {len(rows)} generated GEMM pairs -- "
             f"`PYTHONPATH=python python bench/long_compile_rules.py {' '.join(args.runs)}"
             f"{f' --held-out {args.held_out}' if args.held_out is not None else ''}`",
             f"# long: stock's compile took more than the budget, {LONG_COMPILE_S:.0f} s of CPU"]
    for part, c in counts.items():
        if not c["all", False] + c["all", True]:
            continue
        lines.append(f"{part}: {c['all', False] + c['all', True]} pairs, {c['all', True]} long")
        for rule in (*LONG_COMPILE_RULES, "any", "none"):
            n, n_long = c[rule, False] + c[rule, True], c[rule, True]
            lines.append(f"  {rule:30s} {n:5d} pairs, {n_long:4d} long ({100 * n_long / max(1, n):.0f}%)")
    lines += ["long compiles no rule met:", *unpredicted]
    emit(lines, args.out)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
    sys.exit(main())
