#!/usr/bin/env python3
"""Checks that two mfma-opt binaries give byte-identical results.

    python tools/check_identical_output.py BASE_MFMA_OPT [NEW_MFMA_OPT] [--fuzz N]

For a behaviour-preserving change to the passes (a refactoring): every
mfma-opt invocation of test/lit's RUN lines (the mfma-opt part of each, its
redirections and `-o` dropped), the pass pipelines of test/lit/pass-outcomes
as mfma-opt pipelines, every pass alone and all of them in a row on each
test/lit and test/lit/Inputs module, and, with --fuzz N, the first N inputs
of test/fuzz/mfma_fuzz.py (seed 0) with their pipelines. Each is run by both
binaries on the same file; their exit status, stdout and stderr must be
equal. NEW_MFMA_OPT defaults to this tree's python/triton_mfma/_native/mfma-opt.

Exit status 0 when every invocation is identical, 1 otherwise (the first
differences are printed).
"""

import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIT = ROOT / "test" / "lit"

# Each pass alone, with options at typical values, and all of them in a row.
PIPELINES = [
    "mfma-accelerate-dot",
    "mfma-stream-pipeline",
    "mfma-stream-pipeline{num-stages=3}",
    "mfma-grid-order",
    "mfma-grid-order{mode=on}",
    "mfma-grid-order{mode=on group-size=0}",
    "mfma-grid-order{num-xcds=8}",
    "mfma-split-epilogue-cvt",
    "mfma-lds-usage",
    "mfma-print-layouts",
    "mfma-hip-num-programs",
    "mfma-accelerate-dot,mfma-stream-pipeline,mfma-grid-order,"
    "mfma-split-epilogue-cvt,mfma-lds-usage,mfma-print-layouts",
]

REDIRECT = re.compile(r"^\d?>(&\d|.*)$")


def run_lines(path: Path):
    """The mfma-opt argument lists of `path`'s RUN lines."""
    out = []
    for line in path.read_text().splitlines():
        m = re.match(r"\s*// RUN: (.*)", line)
        if not m:
            continue
        cmd = m.group(1).replace("%s", str(path)).replace("%S", str(path.parent))
        words = shlex.split(cmd)
        if "capi_outcomes.py" in cmd:
            # %python capi_outcomes.py %tmfma_lib FILE "p1,p2" | ...
            i = next(k for k, w in enumerate(words) if w.endswith("capi_outcomes.py"))
            out.append([words[i + 2], f"--pass-pipeline=builtin.module({words[i + 3]})"])
            continue
        if "|" in words:
            words = words[: words.index("|")]
        if words and words[0] == "not":
            words = words[1:]
        if not words or words[0] != "mfma-opt":
            continue
        args, skip = [], False
        for w in words[1:]:
            if skip:
                skip = False
            elif w == "-o":
                skip = True
            elif not REDIRECT.match(w):
                args.append(w)
        out.append(args)
    return out


def invocations(fuzz: int):
    """(description, args, stdin text or None) for every check."""
    files = sorted(LIT.glob("*.mlir"))
    inputs = sorted((LIT / "Inputs").glob("*.mlir"))
    for f in files:
        for args in run_lines(f):
            yield f"{f.name}: {' '.join(args)}", args, None
    for f in files + inputs:
        for p in PIPELINES:
            args = [str(f), "-split-input-file", f"--pass-pipeline=builtin.module({p})"]
            yield f"{f.name}: {p}", args, None
    if fuzz:
        sys.path.insert(0, str(ROOT / "test" / "fuzz"))
        import mfma_fuzz  # noqa: E402

        seeds = mfma_fuzz.load_seeds()
        corpus = mfma_fuzz.layout_corpus(seeds)
        for i in range(fuzz):
            c = mfma_fuzz.make_case(0, i, seeds, corpus)
            yield f"fuzz {i}: {c.pipeline}", [f"--pass-pipeline=builtin.module({c.pipeline})"], c.text


def run(binary: str, args, path: str | None):
    full = [binary] + ([path] if path else []) + args
    try:
        p = subprocess.run(full, capture_output=True, timeout=60)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", b"", b""


def compare(base: str, new: str, item):
    desc, args, text = item
    path = None
    if text is not None:
        with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
            f.write(text)
            path = f.name
    try:
        a, b = run(base, args, path), run(new, args, path)
    finally:
        if path:
            os.unlink(path)
    return desc, a == b, a, b


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("base")
    ap.add_argument("new", nargs="?", default=str(ROOT / "python/triton_mfma/_native/mfma-opt"))
    ap.add_argument("--fuzz", type=int, default=0, help="also the first N fuzz inputs")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    items = list(invocations(args.fuzz))
    diffs = []
    changed_output = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for desc, same, a, b in pool.map(lambda it: compare(args.base, args.new, it), items):
            if not same:
                diffs.append((desc, a, b))
            elif a[1] or a[2]:
                changed_output += 1
    for desc, a, b in diffs[:10]:
        print(f"DIFFERENT: {desc}\n  base rc={a[0]}, new rc={b[0]}; "
              f"stdout equal: {a[1] == b[1]}, stderr equal: {a[2] == b[2]}")
    print(f"{len(items)} invocations, {len(items) - len(diffs)} identical "
          f"({changed_output} with output), {len(diffs)} different")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
