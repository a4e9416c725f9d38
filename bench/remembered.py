"""Remembered trial verdicts (python/triton_mfma/trials/remembered.py) on a second specialization of generated kernels:
what they save and how often they differ from the verdicts a fresh compile of that specialization takes.

    PYTHONPATH=python python bench/remembered.py --seeds 4544..4573 [--arch gfx942 ...] [--timeout 600] [--out F]

Per generated kernel with a dot and arch, in one child process (Triton imported afresh, a warm-up compile first):
  A        the generator's specialization (its integer arguments' `:16` hints as the generator gives them), defaults;
  B, kept  the same kernel with no integer argument a multiple of 16 (a launch on shapes and strides that are not:
           the loads' vectorization, masks and registers change), defaults: A's trial verdicts are remembered;
  B, fresh the same compile with nothing remembered;
  B, stock stock Triton.
Reported: CPU seconds of each (every thread, and the child processes it waited for: cputime.process_cpu),
make_amdgcn compiles, the TTGIR decisions, and
the kernel handed on from B kept against B fresh and against stock by the one judge on the keys of the verdict against
stock (cost_model.MAIN_KEYS). Kernels whose A and B specializations are the same, or that have no dot, are skipped.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ARCHS = ("gfx90a", "gfx942", "gfx950")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cputime import process_cpu  # noqa: E402

TTGIR_DECISIONS = ("accelerate_dot", "stream_pipeline", "num_stages", "combination", "grid_order")


def _unaligned(spec: str) -> str:
    return ",".join(e.split(":")[0] if e.startswith(("i32", "i64")) else e for e in spec.split(","))


def child(seed: int, arch: str, kdir: str, out: str) -> None:
    import warnings

    import triton
    import triton_mfma
    from triton.compiler import ASTSource
    from triton_mfma.models import dot_figures
    from triton_mfma.testing import kernelgen
    from triton_mfma.trials import remembered
    from triton_mfma.compiler.compile import always_compile, aot_signature, target

    s = kernelgen.spec(seed)
    res = {"seed": seed, "arch": arch, "what": s.describe()}
    spec_a = kernelgen.aot_spec(s)
    spec_b = _unaligned(spec_a)
    if spec_a == spec_b or s.family != "gemm":
        res["status"] = "skipped"
        json.dump(res, open(out, "w"))
        return
    try:
        fn, sig, cx, attrs, opts = kernelgen.compile_args(s, kdir, arch)
        sig_b, cx_b, attrs_b = aot_signature(fn, spec_b, kernelgen.signature_spec(s)[1], arch=arch)
    except Exception as e:  # noqa: BLE001 - Triton's frontend rejects the generator's signature
        res.update(status="error", error=f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300])
        json.dump(res, open(out, "w"))
        return
    warnings.simplefilter("ignore")

    def compile_one(label, sig_, cx_, attrs_, on=True):
        before = process_cpu()
        with always_compile(), (triton_mfma.enabled() if on else triton_mfma.disabled()):
            k = triton.compile(ASTSource(fn=fn, signature=sig_, constexprs=cx_, attrs=attrs_), target=target(arch),
                               options=opts)
        md = k.metadata._asdict() if hasattr(k.metadata, "_asdict") else vars(k.metadata)
        got = {"cpu_s": round(process_cpu() - before, 3),
               "figures": vars(dot_figures.of_kernel(k)), "trials": md.get("triton_mfma_trials"),
               "decisions": {d: [md[f"triton_mfma_{d}"]["decision"], md[f"triton_mfma_{d}"]["evidence"]]
                             for d in TTGIR_DECISIONS if isinstance(md.get(f"triton_mfma_{d}"), dict)}}
        res[label] = got

    try:
        with always_compile(), triton_mfma.disabled():  # untimed: Triton's and LLVM's first-use setup
            triton.compile(ASTSource(fn=fn, signature=sig, constexprs=cx, attrs=attrs), target=target(arch),
                           options=opts)
        remembered.forget()
        compile_one("a", sig, cx, attrs)
        compile_one("b_kept", sig_b, cx_b, attrs_b)
        remembered.forget()
        compile_one("b_fresh", sig_b, cx_b, attrs_b)
        compile_one("b_stock", sig_b, cx_b, attrs_b, on=False)
        res["status"] = "ok"
    except Exception as e:  # noqa: BLE001 - recorded
        msg = str(e).strip().splitlines()
        res.update(status="error", error=f"{type(e).__name__}: {msg[-1] if msg else ''}"[:300])
    json.dump(res, open(out, "w"))


def run_child(seed: int, arch: str, kdir: str, timeout: float) -> dict:
    fd, out = tempfile.mkstemp(prefix=f"remembered-{seed}-{arch}-", suffix=".json")
    os.close(fd)
    env = dict(os.environ, TRITON_MFMA_TRIAL_THREADS="1")  # the CPU time is the decisions' own
    try:
        subprocess.run([sys.executable, __file__, "--child", str(seed), arch, kdir, out], env=env, timeout=timeout,
                       check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out) as fh:
            return json.load(fh)
    except subprocess.TimeoutExpired:
        return {"seed": seed, "arch": arch, "status": "hang"}
    except (OSError, ValueError):
        return {"seed": seed, "arch": arch, "status": "error", "error": "no result"}
    finally:
        os.unlink(out)


def _judge(reference: dict, candidate: dict) -> str:
    """"better" / "worse" / "same": `candidate`'s figures against `reference`'s by the one judge (MAIN_KEYS)."""
    from triton_mfma.models import cost_model
    from triton_mfma.models.dot_figures import Figures

    j = cost_model.judge(Figures(**reference), Figures(**candidate), cost_model.MAIN_KEYS)
    return "better" if j.better else "worse" if j.worse else "same"


def report(results: list[dict]) -> list[str]:
    ok = [r for r in results if r.get("status") == "ok"]
    lines = []
    for r in ok:
        kept, fresh, stock = r["b_kept"], r["b_fresh"], r["b_stock"]
        r["kept_vs_fresh"], r["kept_vs_stock"] = _judge(fresh["figures"], kept["figures"]), \
            _judge(stock["figures"], kept["figures"])
        r["same_decisions"] = {d: v[0] for d, v in kept["decisions"].items()} == \
            {d: v[0] for d, v in fresh["decisions"].items()}
        remembered_n = sum(v[1] == "remembered" for v in kept["decisions"].values())
        lines.append(f"{r['seed']:>5} {r['arch']:<7} {r['what'][:58]:<58} trials A {r['a']['trials']} B kept "
                     f"{kept['trials']} fresh {fresh['trials']}  cpu/stock kept {kept['cpu_s'] / stock['cpu_s']:.2f} "
                     f"fresh {fresh['cpu_s'] / stock['cpu_s']:.2f}  remembered {remembered_n}  decisions "
                     f"{'same' if r['same_decisions'] else 'DIFFER'}  kept vs fresh {r['kept_vs_fresh']}, vs stock "
                     f"{r['kept_vs_stock']}")
    with_mem = [r for r in ok if any(v[1] == "remembered" for v in r["b_kept"]["decisions"].values())]
    lines.append("")
    lines.append(f"kernels: {len(results)}, compared {len(ok)} (skipped: same specialization or no GEMM "
                 f"{sum(r.get('status') == 'skipped' for r in results)}; errors "
                 f"{sum(r.get('status') == 'error' for r in results)}, hangs "
                 f"{sum(r.get('status') == 'hang' for r in results)})")
    if not ok:
        return lines
    ratio = lambda rs, side: [r[side]["cpu_s"] / r["b_stock"]["cpu_s"] for r in rs]  # noqa: E731
    for name, rs in (("all compared", ok), ("with a remembered verdict", with_mem)):
        if not rs:
            continue
        kept, fresh = sorted(ratio(rs, "b_kept")), sorted(ratio(rs, "b_fresh"))
        p90 = lambda xs: xs[min(len(xs) - 1, int(0.9 * len(xs)))]  # noqa: E731
        lines.append(f"{name} ({len(rs)}): B CPU / stock median kept {statistics.median(kept):.2f} fresh "
                     f"{statistics.median(fresh):.2f}, p90 kept {p90(kept):.2f} fresh {p90(fresh):.2f}, max kept "
                     f"{kept[-1]:.2f} fresh {fresh[-1]:.2f}; compiles kept {sum(r['b_kept']['trials'] for r in rs)} "
                     f"fresh {sum(r['b_fresh']['trials'] for r in rs)}")
        lines.append(f"  decisions the same as fresh {sum(r['same_decisions'] for r in rs)}/{len(rs)}; kernel kept "
                     f"vs fresh: better {sum(r['kept_vs_fresh'] == 'better' for r in rs)}, same "
                     f"{sum(r['kept_vs_fresh'] == 'same' for r in rs)}, worse "
                     f"{sum(r['kept_vs_fresh'] == 'worse' for r in rs)}; vs stock: worse "
                     f"{sum(r['kept_vs_stock'] == 'worse' for r in rs)} (fresh vs stock worse "
                     f"{sum(_judge(r['b_stock']['figures'], r['b_fresh']['figures']) == 'worse' for r in rs)})")
    return lines


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5])
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", required=True, help="A..B (inclusive)")
    ap.add_argument("--arch", action="append", choices=ARCHS)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--kernels", default=None, help="directory for the generated sources (default: a temp dir)")
    ap.add_argument("--out", default=None, help="write OUT.txt and OUT.json")
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.seeds.split(".."))
    kdir = args.kernels or tempfile.mkdtemp(prefix="remembered-kernels-")
    jobs = [(seed, arch) for seed in range(lo, hi + 1) for arch in (args.arch or ARCHS)]
    header = [f"# remembered trial verdicts on a second specialization -- `PYTHONPATH=python python "
              f"bench/remembered.py --seeds {args.seeds}{''.join(f' --arch {a}' for a in args.arch or ())}` ({time.strftime('%Y-%m-%d')}, "
              f"{os.cpu_count()} cores, TRITON_MFMA_TRIAL_THREADS=1)",
              "# B = A with no integer argument a multiple of 16; kept = A's trial verdicts remembered; fresh = "
              "nothing remembered; cpu/stock = CPU of B's compile over stock Triton's of B"]
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda j: run_child(j[0], j[1], kdir, args.timeout), jobs))
    lines = header + report(results)
    print("\n".join(lines))
    if args.out:
        with open(args.out + ".txt", "w") as fh:
            fh.write("\n".join(lines) + "\n")
        from record import write_json

        write_json(args.out + ".json", results, indent=1)


if __name__ == "__main__":
    main()
