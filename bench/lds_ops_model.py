"""The accuracy of accelerate-dot's "fewest LDS ops" model (decisions/accelerate_dot.py, models/lds_ops.py) on
compiled trials: every comparison a trial (option trial_all), the model's verdict recorded beside the judge's.

    PYTHONPATH=python python bench/lds_ops_model.py --corpus gfx942 [--lib fla ...] [--out FILE]
    PYTHONPATH=python python bench/lds_ops_model.py --seeds 2830..2929 --arch gfx942 [--out FILE]

For each kernel whose accelerate-dot comparison was a trial: whether the model would have kept ours uncompiled
("tells"), and what the trial found (ours kept: better or equal; reverted: Triton's layouts ranked better). An error
is a kernel the model keeps where the trial reverted. The corpus needs its libraries (bench/corpus/requirements*.txt).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import warnings
from collections import Counter

from record import emit_table


def _record(k) -> dict:
    md = k.metadata._asdict() if hasattr(k.metadata, "_asdict") else vars(k.metadata)
    return md.get("triton_mfma_accelerate_dot") or {}


def corpus_kernels(arch: str, libs):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus"))
    import run as corpus_run
    from harness import compile_cfg

    configs, errors = corpus_run.load(libs)
    for lib, e in errors.items():
        print(f"# {lib} not loaded: {e}", file=sys.stderr)
    for c in configs:
        if arch in c.archs:
            yield c.id, (lambda c=c: compile_cfg(c, arch))


def generated_kernels(seeds, arch: str, directory: str):
    from triton_mfma.compiler.compile import compile_kernel
    from triton_mfma.testing import kernelgen

    for seed in seeds:
        fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.spec(seed), directory, arch)
        yield f"seed {seed}", (lambda fn=fn, sig=sig, cx=cx, attrs=attrs, opts=opts:
                               compile_kernel(fn, sig, cx, arch, opts, attrs))


def seed_range(text: str) -> list[int]:
    if ".." in text:
        a, b = text.split("..")
        return list(range(int(a), int(b) + 1))
    return [int(s) for s in text.split(",")]


def main() -> int:
    import triton_mfma
    from triton_mfma.compiler.compile import always_compile

    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", metavar="ARCH")
    ap.add_argument("--lib", nargs="*")
    ap.add_argument("--seeds")
    ap.add_argument("--arch", default="gfx942")
    ap.add_argument("--out")
    args = ap.parse_args()
    os.environ.setdefault("TRITON_MFMA_TRIAL_THREADS", "1")
    table, lines = Counter(), []
    with tempfile.TemporaryDirectory() as directory:
        kernels = corpus_kernels(args.corpus, args.lib) if args.corpus else \
            generated_kernels(seed_range(args.seeds), args.arch, directory)
        arch = args.corpus or args.arch
        for name, compile_it in kernels:
            with warnings.catch_warnings(), always_compile(), triton_mfma.enabled(trial_all=True):
                warnings.simplefilter("ignore")
                try:
                    rec = _record(compile_it())
                except Exception as e:  # noqa: BLE001 - a kernel that does not compile is no trial
                    print(f"{name}: {type(e).__name__}: {str(e)[:200]}", file=sys.stderr)
                    continue
            if rec.get("evidence") != "trial" or "fewest_lds" not in rec:
                continue
            tells = rec["fewest_lds"]["model"]
            widest = (rec.get("widest_lds") or {}).get("model")
            outcome = rec["decision"]
            table["tells" if tells else "no bound", outcome] += 1
            if tells and not widest:  # what the kWidth-only model ("widest LDS ops") left to a trial
                table["(tells, widest LDS ops does not)", outcome] += 1
            if tells and "convert_layout" in str(rec["fewest_lds"].get("bound")):  # step 4b of models/lds_ops.py
                table["(tells, with converts counted)", outcome] += 1
            lines.append(f"{name} {arch}: {'tells' if tells else 'no bound'} {rec['fewest_lds'].get('bound')}; "
                         f"trial {outcome}: {rec.get('reason', '')[:160]}")
            print(lines[-1], file=sys.stderr, flush=True)
    errors = table["tells", "reverted"]
    out = [f"# accelerate-dot's fewest-LDS-ops model against compiled trials -- `PYTHONPATH=python python "
           f"bench/lds_ops_model.py {' '.join(sys.argv[1:])}`",
           f"# trials {sum(n for (k, _), n in table.items() if not k.startswith('('))}; the model tells on "
           f"{table['tells', 'kept'] + errors}, of which the trial reverted (errors) {errors}"]
    emit_table(out, table, lines, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
