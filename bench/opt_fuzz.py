#!/usr/bin/env python3
"""Fuzz of `triton-mfma opt`: mutated TTGIR / TTIR files through the command, every outcome classified.

    PYTHONPATH=python python bench/opt_fuzz.py --runs 2000            # bench/results/opt_fuzz.txt
    PYTHONPATH=python python bench/opt_fuzz.py --runs 200 --cli       # each input a fresh `triton-mfma opt` process
    PYTHONPATH=python python bench/opt_fuzz.py --dump 17              # print input 17 and its arguments

Seeds: the chunks of test/lit/*.mlir and test/lit/Inputs/*.mlir (generic MLIR, as test/fuzz/mfma_fuzz.py loads
them) and Triton's own printing (pretty form, with locations) of the TTGIR and TTIR of the bundled kernels
(triton_mfma.examples.CORPUS on gfx90a / gfx942 / gfx950), compiled once with stock Triton. Input i is built by
`random.Random(f"{seed}:{i}")` from one seed and one to three mutations: those of test/fuzz/mfma_fuzz.py (layout
fields, shapes and element types, memdescs, scalar attributes and the target, operations deleted / duplicated /
swapped / renamed, regions emptied, operands dropped; truncation), which it imports, and, for the pretty form
they were not written for, mutations of lines (deleted, duplicated, swapped) and tokens (a number set to an
interesting value, an identifier or value name replaced by another of the file, a token deleted, a bracket
inserted). Its arguments: no pass, or one of our passes (`--passes`), sometimes `--generic` / `--no-locations`.

Each input runs through `triton_mfma.commands.cli.main(["opt", ...])` (what the `triton-mfma` entry point runs) in a
worker process, its stderr captured at the file descriptor; `--cli` runs a fresh interpreter per input instead.
Outcomes: ok (exit 0), user error (exit 2 and exactly one stderr line, `triton-mfma opt: error: ...`), and the
failures: a signal (the worker or the process dying), a hang (past --timeout), any other exit status, or an error
of more than one line. With --raw, each rejected input is also parsed by Triton's parser in a forked child with
no protection, and the summary says how many of them end that process with a signal: what `opt` survived. Exit status 0 if there is no failure.
"""
from __future__ import annotations

import argparse
import collections
import importlib.util
import io
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
import checkout  # noqa: E402

checkout.use_checkout_if_built()
DEFAULT_SEED_DIR = Path(tempfile.gettempdir()) / "triton-mfma-opt-fuzz-seeds"
PASSES = ["mfma-lds-usage", "mfma-print-layouts", "mfma-split-epilogue-cvt", "mfma-accelerate-dot",
          "mfma-stream-pipeline", "mfma-grid-order", "mfma-hip-num-programs"]
INTERESTING = ["0", "1", "-1", "3", "7", "64", "65536", "2147483647", "4294967296", "-2147483648",
               "99999999999999999999"]


def _mfma_fuzz():
    if "mfma_fuzz" in sys.modules:
        return sys.modules["mfma_fuzz"]
    spec = importlib.util.spec_from_file_location("mfma_fuzz", REPO / "test" / "fuzz" / "mfma_fuzz.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["mfma_fuzz"] = module
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------------------------------------------------
# Seeds


def compiled_seeds(seed_dir: Path, kernels=None, archs=None) -> list[str]:
    """Triton's printing of the TTGIR and TTIR of the bundled kernels (`kernels` on `archs`, default all),
    compiled once into `seed_dir`."""
    import triton
    from triton_mfma.examples import ARCHS, CORPUS

    kernels, archs = list(kernels or CORPUS), list(archs or ARCHS)
    seed_dir = seed_dir / triton.__version__
    seed_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for arch in archs:
        for name in kernels:
            files = [seed_dir / f"{name}-{arch}.{ext}" for ext in ("ttgir", "ttir")]
            if not all(f.is_file() for f in files):
                from triton_mfma.compiler.compile import compile_kernel

                fn, sig, cx = CORPUS[name]
                k = compile_kernel(fn, sig, cx, arch)
                for f in files:
                    f.write_text(k.asm[f.suffix[1:]])
            paths += files
    return [p.read_text() for p in sorted(paths)]


def load_seeds(seed_dir: Path, kernels=None, archs=None) -> tuple[list[str], list[str]]:
    """(generic seeds, pretty seeds)."""
    return _mfma_fuzz().load_seeds(), compiled_seeds(seed_dir, kernels, archs)


# ---------------------------------------------------------------------------------------------------------
# Mutations of the pretty form: lines and tokens

TOKEN = re.compile(r"-?\d+|%[\w.$#-]+|#[\w.]+|[A-Za-z_][\w.]*|[\[\]{}()<>,:=\"]")


def mut_lines(rng: random.Random, text: str) -> str:
    lines = text.splitlines()
    if len(lines) < 2:
        return text
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    kind = rng.randrange(3)
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(j, lines[i])
    else:
        lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines) + "\n"


def mut_token(rng: random.Random, text: str) -> str:
    tokens = list(TOKEN.finditer(text))
    if not tokens:
        return text
    m = rng.choice(tokens)
    tok = m.group(0)
    kind = rng.randrange(4)
    if kind == 0 and re.fullmatch(r"-?\d+", tok):
        new = rng.choice(INTERESTING)
    elif kind <= 1:
        same = [t.group(0) for t in tokens if t.group(0)[:1] == tok[:1] and t.group(0) != tok]
        new = rng.choice(same) if same else rng.choice(INTERESTING)
    elif kind == 2:
        new = ""
    else:
        new = tok + rng.choice(["[", "]", "<", ">", "{", "}", "(", ")", ",", ":", "\""])
    return text[:m.start()] + new + text[m.end():]


def mutate(rng: random.Random, text: str, generic: bool, corpus: list[str]) -> str:
    f = _mfma_fuzz()
    for _ in range(rng.choice([1, 1, 2, 2, 3])):
        r = rng.randrange(100)
        if r < 25:
            text = f.mut_layout(rng, text, corpus)
        elif r < 35:
            text = f.mut_shape(rng, text)
        elif r < 40:
            text = f.mut_memdesc(rng, text)
        elif r < 50:
            text = f.mut_scalar(rng, text)
        elif r < 65:
            text = f.structural(rng, text) if generic else mut_lines(rng, text)
        elif r < 95:
            text = mut_token(rng, text)
        else:
            text = f.truncate(rng, text)
    return text


def make_case(seed: int, index: int, generic: list[str], pretty: list[str], corpus: list[str]):
    """(text, opt arguments after the file) of input `index`."""
    rng = random.Random(f"{seed}:{index}")
    use_generic = rng.randrange(3) == 0
    text = mutate(rng, rng.choice(generic if use_generic else pretty), use_generic, corpus)
    args = []
    if rng.randrange(4):
        args += ["--passes", rng.choice(PASSES)]
    if rng.randrange(6) == 0:
        args.append(rng.choice(["--generic", "--no-locations"]))
    return text, args + ["-q"] if rng.randrange(2) else args


# ---------------------------------------------------------------------------------------------------------
# Running


def classify(rc, stderr: str) -> str:
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    if rc == "hang":
        return "hang"
    if rc == "signal" or (isinstance(rc, int) and rc < 0):
        return "signal"
    if rc == 0:
        return "ok"
    if rc == 2 and len(lines) == 1 and lines[0].startswith("triton-mfma opt: error: "):
        return "user error"
    return "bad error"


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def run_in_process(path: str, args: list[str], timeout: float):
    """(rc, stderr) of cli.main(["opt", path, *args]) in this process (stderr read at fd 2)."""
    from triton_mfma.commands import cli

    sys.stdout.flush()
    with tempfile.TemporaryFile() as err:
        saved_fd, saved_err, saved_out = os.dup(2), sys.stderr, sys.stdout
        os.dup2(err.fileno(), 2)
        sys.stderr = io.TextIOWrapper(os.fdopen(os.dup(2), "wb"), write_through=True)
        sys.stdout = open(os.devnull, "w")
        signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            rc = cli.main(["opt", path, *args])
        except _Timeout:
            rc = "hang"
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            sys.stderr.close()
            sys.stdout.close()
            sys.stderr, sys.stdout = saved_err, saved_out
            os.dup2(saved_fd, 2)
            os.close(saved_fd)
        err.seek(0)
        return rc, err.read().decode(errors="replace")


def run_cli(path: str, args: list[str], timeout: float):
    env = checkout.child_env(TRITON_DEFAULT_FP_FUSION="1")
    try:
        r = subprocess.run([sys.executable, "-m", "triton_mfma.commands.cli", "opt", path, *args], capture_output=True,
                           text=True, timeout=timeout, env=env, preexec_fn=_no_core)
    except subprocess.TimeoutExpired:
        return "hang", ""
    return r.returncode, r.stderr


def raw_parse_dies(path: str, timeout: float) -> bool:
    """Whether Triton's parser, called in-process as `opt` used to, ends a process with a signal (a forked
    child of this worker, which holds no MLIR context of its own)."""
    pid = os.fork()
    if pid == 0:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            from triton._C.libtriton import amd, ir, nvidia

            ctx = ir.context()
            ir.load_dialects(ctx)
            amd.load_dialects(ctx)
            nvidia.load_dialects(ctx)
            try:
                ir.parse_mlir_module(path, ctx)
            except RuntimeError:
                pass
        finally:
            os._exit(0)
    end = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.WIFSIGNALED(status)
        if time.monotonic() > end:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return True
        time.sleep(0.002)


def _no_core():
    import resource

    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def worker(seed: int, start: int, stop: int, seed_dir: Path, timeout: float, cli_mode: bool, raw: bool,
           kernels=None, archs=None) -> None:
    """One JSON line per input on stdout (the driver reads them)."""
    _no_core()
    generic, pretty = load_seeds(seed_dir, kernels, archs)
    corpus = _mfma_fuzz().layout_corpus(generic)
    out = sys.stdout
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(start, stop):
            text, args = make_case(seed, i, generic, pretty, corpus)
            path = os.path.join(tmp, f"input{i}.ttgir")
            Path(path).write_text(text)
            t0 = time.monotonic()
            rc, err = (run_cli if cli_mode else run_in_process)(path, args, timeout)
            rec = {"i": i, "rc": rc, "outcome": classify(rc, err), "secs": round(time.monotonic() - t0, 3),
                   "first": (err.strip().splitlines() or [""])[-1][:300], "args": args}
            if raw and rec["outcome"] == "user error":
                rec["raw_parse_dies"] = raw_parse_dies(path, timeout)
            out.write(json.dumps(rec) + "\n")
            out.flush()


def fuzz(runs: int, seed: int = 0, jobs: int = 2, seed_dir: Path = None, timeout: float = 60.0,
         cli_mode: bool = False, raw: bool = False, kernels=None, archs=None) -> list[dict]:
    """Every input's record; a worker that dies is a signal for the input it was on, and a new worker goes on."""
    seed_dir = seed_dir or DEFAULT_SEED_DIR
    load_seeds(seed_dir, kernels, archs)  # compile the seeds once, before the workers read them
    selection = (["--kernels", ",".join(kernels)] if kernels else []) + (["--archs", ",".join(archs)] if archs else [])
    records: dict[int, dict] = {}
    bounds = [(runs * k // jobs, runs * (k + 1) // jobs) for k in range(jobs)]
    pending = [b for b in bounds if b[0] < b[1]]
    env = checkout.child_env(TRITON_DEFAULT_FP_FUSION="1")
    while pending:
        procs = []
        for start, stop in pending:
            cmd = [sys.executable, __file__, "--worker", str(start), str(stop), "--seed", str(seed),
                   "--seed-dir", str(seed_dir), "--timeout", str(timeout)] + (["--cli"] if cli_mode else []) + \
                  (["--raw"] if raw else []) + selection
            procs.append(((start, stop), subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env)))
        pending = []
        for (start, stop), p in procs:
            out, _ = p.communicate()
            done = [json.loads(ln) for ln in out.splitlines() if ln.startswith("{")]
            for r in done:
                records[r["i"]] = r
            last = max([start - 1] + [r["i"] for r in done])
            if last + 1 < stop:  # the worker died on input last + 1
                records[last + 1] = {"i": last + 1, "rc": p.returncode, "outcome": "signal", "secs": 0,
                                     "first": f"worker ended with status {p.returncode}", "args": []}
                if last + 2 < stop:
                    pending.append((last + 2, stop))
    return [records[i] for i in sorted(records)]


def summary(records: list[dict], wall: float, command: str) -> str:
    import triton

    counts = collections.Counter(r["outcome"] for r in records)
    lines = [f"command: {command}",
             f"on: Triton {triton.__version__}, Python {sys.version.split()[0]}, {os.cpu_count()} CPU cores",
             f"inputs: {len(records)}   wall: {wall:.1f} s   "
             + "   ".join(f"{k}: {counts.get(k, 0)}" for k in ("ok", "user error", "signal", "hang", "bad error"))]
    raw = [r for r in records if "raw_parse_dies" in r]
    if raw:
        lines.append(f"user errors on which Triton's parser, in-process, dies by a signal: "
                     f"{sum(r['raw_parse_dies'] for r in raw)} of {len(raw)}")
    def gist(line):  # the diagnostic, without the input's path and numbers
        line = re.sub(r"\S*input\d+\.ttgir", "FILE", line.split("opt: error: ", 1)[-1])
        return re.sub(r"\d+", "N", re.sub(r'loc\([^)]*\):?\s*', "", line))[:100]

    firsts = collections.Counter(gist(r["first"]) for r in records if r["outcome"] == "user error")
    lines.append("most frequent user errors (numbers as N, the input as FILE):")
    lines += [f"  {n:5d}  {msg}" for msg, n in firsts.most_common(12)]
    for r in records:
        if r["outcome"] in ("signal", "hang", "bad error"):
            lines.append(f"FAILURE input {r['i']} {r['args']}: {r['outcome']} (rc {r['rc']}): {r['first']}")
    secs = sorted(r["secs"] for r in records)
    if secs:
        lines.append(f"seconds per input: median {secs[len(secs) // 2]:.3f}, max {secs[-1]:.3f}")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per input before it counts as a hang")
    ap.add_argument("--seed-dir", type=Path, default=DEFAULT_SEED_DIR)
    ap.add_argument("--kernels", help="bundled kernels whose TTGIR / TTIR are seeds (default: all)")
    ap.add_argument("--archs", help="their targets (default: gfx90a,gfx942,gfx950)")
    ap.add_argument("--cli", action="store_true", help="a fresh `triton-mfma opt` process per input")
    ap.add_argument("--raw", action="store_true",
                    help="also parse each rejected input with Triton's parser in a throwaway process")
    ap.add_argument("--dump", type=int, metavar="I", help="print input I and its arguments")
    ap.add_argument("--out", help="write the summary here too")
    ap.add_argument("--worker", nargs=2, type=int, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    kernels = a.kernels.split(",") if a.kernels else None
    archs = a.archs.split(",") if a.archs else None
    if a.worker:
        worker(a.seed, a.worker[0], a.worker[1], a.seed_dir, a.timeout, a.cli, a.raw, kernels, archs)
        return 0
    if a.dump is not None:
        generic, pretty = load_seeds(a.seed_dir, kernels, archs)
        text, args = make_case(a.seed, a.dump, generic, pretty, _mfma_fuzz().layout_corpus(generic))
        print(f"// triton-mfma opt FILE {' '.join(args)}\n{text}")
        return 0
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    command = "PYTHONPATH=python python bench/opt_fuzz.py " + " ".join(sys.argv[1:] if argv is None else argv)
    t0 = time.monotonic()
    records = fuzz(a.runs, a.seed, a.jobs, a.seed_dir, a.timeout, a.cli, a.raw, kernels, archs)
    text = summary(records, time.monotonic() - t0, command)
    print(text)
    if a.out:
        Path(a.out).write_text(text + "\n")
    return 0 if all(r["outcome"] in ("ok", "user error") for r in records) else 1


if __name__ == "__main__":
    sys.exit(main())
