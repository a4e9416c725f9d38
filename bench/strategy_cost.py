"""What one scheduling-strategy candidate costs against LLVM's default, per strategy, on kernels whose main loop
spills: the CPU time of make_amdgcn of one LLVM IR with the attribute `amdgpu-sched-strategy` set to each strategy
(decisions/sched_strategy.py), over the same IR without it.

    PYTHONPATH=python python bench/strategy_cost.py SEED:ARCH [SEED:ARCH ...] | --from RUN.json [...]
        [--timeout 600] [--out bench/results/strategy_cost]

For each kernel (a generated seed on an arch; `--from`: the rows of recorded bench/sched_strategy.py runs whose
default strategy spilled in the main loop) a child process compiles ours with the defaults (strict), takes the
handed-on LLVM IR without any strategy attribute, and times make_amdgcn of it (thread CPU time, after the compile)
with no attribute, then with each strategy, each once. Each strategy's ratio to the default's is the figure: what
the decision's bounded candidate (decisions.sched_strategy) must expect before it compiles one.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import checkout  # noqa: E402
from record import emit, read_json, write_json  # noqa: E402

checkout.use_checkout_if_built()

_ATTR = re.compile(r' "amdgpu-sched-strategy"="[^"]*"')


def child(seed: int, arch: str, out: str) -> None:
    """Compile one generated kernel with ours' defaults and time make_amdgcn of its LLVM IR per strategy."""
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    os.environ["TRITON_MFMA_STRICT"] = "1"
    import warnings

    warnings.simplefilter("ignore")
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    from triton.backends.amd.compiler import HIPBackend

    import triton_mfma
    import differential
    from triton_mfma.compiler.compile import always_compile, target
    from triton_mfma.decisions.sched_strategy import ATTRIBUTE, STRATEGIES
    from triton_mfma.ir.llvm_ir import llir_with_fn_attr
    from triton_mfma.models import dot_figures
    from triton_mfma.testing import kernelgen

    kdir = tempfile.mkdtemp(prefix="stratcost-")
    fn, sig, cx, attrs, opts = kernelgen.compile_args(differential.spec_of(seed), kdir, arch)
    with always_compile(), triton_mfma.enabled():
        k = triton.compile(ASTSource(fn=fn, signature=sig, constexprs=cx, attrs=attrs), target=target(arch),
                           options=opts)
    llir = _ATTR.sub("", k.asm["llir"])
    backend = HIPBackend(GPUTarget("hip", arch, 64))
    options = backend.parse_options(dict(opts))
    result = {"seed": seed, "arch": arch, "llir_lines": llir.count("\n"), "largest_block": largest_block(llir),
              "handed_on": dot_figures.of_kernel(k).loop_scratch_ops, "times": {}, "loop_scratch": {}}
    for s in ("default",) + STRATEGIES:
        src = llir if s == "default" else llir_with_fn_attr(llir, ATTRIBUTE, s)
        if src is None:
            continue
        t0 = time.thread_time()
        asm = HIPBackend.make_amdgcn(src, {}, options)
        result["times"][s] = round(time.thread_time() - t0, 3)
        f = dot_figures.of_amdgcn(asm, k.metadata.shared, arch, k.metadata.num_warps)
        result["loop_scratch"][s] = f.loop_scratch_ops
    with open(out, "w") as f:
        json.dump(result, f)


def largest_block(llir: str) -> int:
    """Instructions in the LLVM IR's largest basic block (what a machine scheduler's region grows with)."""
    best = n = 0
    for line in llir.splitlines():
        if not line.startswith("  "):  # a label, a define, a brace: the block ends
            best, n = max(best, n), 0
        elif not line.lstrip().startswith(";"):
            n += 1
    return max(best, n)


def run_one(seed, arch, timeout):
    import subprocess

    fd, out = tempfile.mkstemp(suffix=".json")
    os.close(fd)

    env = checkout.child_env()
    try:
        subprocess.run([sys.executable, os.path.abspath(__file__), "--child", str(seed), arch, out], env=env,
                       timeout=timeout, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True)
        return json.load(open(out))
    except Exception as e:  # noqa: BLE001 - one kernel's failure is a row
        return {"seed": seed, "arch": arch, "error": f"{type(e).__name__}: {str(e)[-300:]}"}
    finally:
        os.unlink(out)


def kernels(args) -> list[tuple[int, str]]:
    out = [(int(s.split(":")[0]), s.split(":")[1]) for s in args.kernels]
    for path in args.from_runs or ():
        out += [(r["seed"], r["arch"]) for r in read_json(path)
                if (r.get("base_lsc") or 0) > 0 and (r.get("record") or {}) not in ({}, None)]
    return list(dict.fromkeys(out))


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(int(sys.argv[2]), sys.argv[3], sys.argv[4])
        return 0
    ap = argparse.ArgumentParser()
    ap.add_argument("kernels", nargs="*")
    ap.add_argument("--from", dest="from_runs", nargs="*")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--out")
    args = ap.parse_args()
    from triton_mfma.decisions.sched_strategy import STRATEGIES

    lines = [f"# make_amdgcn CPU per scheduling strategy, over the default's -- `PYTHONPATH=python python "
             f"bench/strategy_cost.py {' '.join(sys.argv[1:])}`",
             "# seed arch  largest-block  default-s  " + "  ".join(STRATEGIES)]
    print("\n".join(lines), flush=True)
    rows, ratios = [], {s: [] for s in STRATEGIES}
    for seed, arch in kernels(args):
        r = run_one(seed, arch, args.timeout)
        rows.append(r)
        if "error" in r:
            line = f"{seed:5} {arch}  error: {r['error'][-200:]}"
        else:
            d = r["times"]["default"]
            cells = []
            for s in STRATEGIES:
                t = r["times"].get(s)
                if t is None or not d:
                    cells.append("-")
                    continue
                ratios[s].append(t / d)
                cells.append(f"{t / d:5.2f}x")
            line = f"{seed:5} {arch}  {r['largest_block']:6}  {d:7.2f}  " + "  ".join(cells)
        lines.append(line)
        print(line, flush=True)
    lines.append("# per strategy: median / max ratio to the default's make_amdgcn (kernels)")
    for s, xs in ratios.items():
        if xs:
            lines.append(f"#   {s:18} {statistics.median(xs):5.2f}x / {max(xs):5.2f}x ({len(xs)})")
    emit(lines[-len(ratios) - 1:], None)
    if args.out:
        emit(lines, args.out + ".txt")
        write_json(args.out + ".json", rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
