"""Model-first decisions against all-trials decisions on generated kernels (issue 35: "decisions equal to all-trials
on >= 97% of configurations; each difference listed with why").

    PYTHONPATH=python python bench/trial_all.py --seeds A..B [--arch gfx942 ...] [--timeout 300]
        [--out bench/results/trial_all_seedsA-B]

Per generated kernel (triton_mfma.testing.kernelgen, the differential runner's generator) and arch, in a child process
with a time limit: one compile with the defaults (strict), one with `trial_all=True` (every verified decision
taken by trial compiles, never by a model alone). Equal where the chosen amdgcn is the same (up to debug line
directives, which Triton's own compiles of some kernels vary in); where it differs and the decisions are the
same, both are compiled once more before it counts. Kernels Triton rejects and kernels without a tt.dot (no model
decides anything there) are not counted. Prints one line per kernel and a summary; writes <out>.txt and .json.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import warnings

os.environ["TRITON_MFMA_STRICT"] = "1"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from record import write_json  # noqa: E402
from suite import ARCHS, without_debug_lines  # noqa: E402


def _records(md) -> dict:
    """Every decision's record in the kernel's metadata (decision, evidence), and the waves_per_eu handed on."""
    out = {k[len("triton_mfma_"):]: {"decision": v.get("decision", v.get("chosen")), "evidence": v.get("evidence")}
           for k, v in md._asdict().items() if k.startswith("triton_mfma_") and isinstance(v, dict) and
           ("decision" in v or "chosen" in v)}
    out["waves_per_eu"] = getattr(md, "waves_per_eu", None)
    return out


def one(seed: int, arch: str, kernels: str) -> dict:
    """The child's work: both compiles of one generated kernel."""
    import triton_mfma
    from triton_mfma.testing import kernelgen
    from triton_mfma.compiler.compile import always_compile, compile_kernel

    spec = kernelgen.spec(seed)
    fn, sig, cx, attrs, opts = kernelgen.compile_args(spec, kernels, arch)
    row = {"seed": seed, "arch": arch, "family": getattr(spec, "family", None)}
    with always_compile(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            from triton_mfma.compiler import hook
            with hook.disabled():
                stock = compile_kernel(fn, sig, cx, arch, opts, attrs)
        except Exception as e:  # noqa: BLE001 - Triton rejects it: not counted
            return {**row, "status": "rejected", "why": str(e).splitlines()[0][:200] if str(e) else type(e).__name__}
        if "tt.dot" not in stock.asm["ttgir"] and "tt.dot_scaled" not in stock.asm["ttgir"]:
            return {**row, "status": "nodot"}

        def build(**o):
            with triton_mfma.enabled(**o):
                return compile_kernel(fn, sig, cx, arch, opts, attrs)

        ours, full = build(), build(trial_all=True)
        same_records = _records(ours.metadata) == _records(full.metadata)
        seen_ours, seen_full = {ours.asm["amdgcn"]}, {full.asm["amdgcn"]}
        if same_records and not seen_ours & seen_full:
            seen_ours.add(build().asm["amdgcn"])
            seen_full.add(build(trial_all=True).asm["amdgcn"])
        same = bool(seen_ours & seen_full) or bool({without_debug_lines(a) for a in seen_ours}
                                                   & {without_debug_lines(a) for a in seen_full})
    return {**row, "status": "ok", "same": same, "same_records": same_records,
            "trials": getattr(ours.metadata, "triton_mfma_trials", None),
            "trials_all": getattr(full.metadata, "triton_mfma_trials", None),
            "ours": _records(ours.metadata), "all": _records(full.metadata),
            "dot_cycles_all": (getattr(full.metadata, "triton_mfma_accelerate_dot", None) or {}).get("dot_cycles"),
            "why": getattr(ours.metadata, "triton_mfma", None),
            "why_all": getattr(full.metadata, "triton_mfma", None)}


def _seeds(text: str) -> list[int]:
    if ".." in text:
        a, b = text.split("..")
        return list(range(int(a), int(b) + 1))
    return [int(s) for s in text.split(",")]


def _differences(a: dict, b: dict) -> dict:
    return {k: (a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds")
    ap.add_argument("--arch", action="append")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--kernels", default="/tmp/trial_all_kernels")
    ap.add_argument("--out")
    ap.add_argument("--one", nargs=2, help=argparse.SUPPRESS)  # SEED ARCH: the child
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(int(args.one[0]), args.one[1], args.kernels), default=str))
        return 0
    if not args.seeds:
        ap.error("--seeds is required")
    os.makedirs(args.kernels, exist_ok=True)
    lines = [f"# model-first vs all-trials decisions on generated kernels -- `PYTHONPATH=python python "
             f"bench/trial_all.py {' '.join(sys.argv[1:])}`"]
    print(lines[0], flush=True)
    rows = []
    for seed in _seeds(args.seeds):
        for arch in args.arch or ARCHS:
            try:
                p = subprocess.run([sys.executable, __file__, "--one", str(seed), arch, "--kernels", args.kernels],
                                   capture_output=True, text=True, timeout=args.timeout)
                row = json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 and p.stdout.strip() else \
                    {"seed": seed, "arch": arch, "status": "failed", "why": (p.stderr.strip().splitlines() or ["?"])[-1]}
            except subprocess.TimeoutExpired:
                row = {"seed": seed, "arch": arch, "status": "timeout", "why": f"past {args.timeout} s"}
            rows.append(row)
            if row["status"] == "ok":
                verdict = "equal" if row["same"] else \
                    f"DIFFERS {json.dumps(_differences(row['ours'], row['all']))}"
                line = f"{seed:5} {arch:7} trials {row['trials']} / {row['trials_all']}  {verdict}"
            else:
                line = f"{seed:5} {arch:7} {row['status']} {row.get('why', '')}"
            lines.append(line)
            print(line, flush=True)
    ok = [r for r in rows if r["status"] == "ok"]
    diff = [r for r in ok if not r["same"]]
    trials = sum(r["trials"] or 0 for r in ok), sum(r["trials_all"] or 0 for r in ok)
    summary = [f"dot kernels compiled both ways: {len(ok)}; chosen amdgcn equal to the all-trials choice: "
               f"{len(ok) - len(diff)}/{len(ok)} ({100 * (len(ok) - len(diff)) / max(1, len(ok)):.1f}%); "
               f"make_amdgcn calls {trials[0]} against {trials[1]} with all trials",
               "not counted: " + ", ".join(f"{s} {sum(r['status'] == s for r in rows)}"
                                           for s in ("nodot", "rejected", "failed", "timeout"))]
    # the models' own accuracy: each model-first verdict taken without compiling the variant, against the trial
    models = {}
    for r in ok:
        for name, line in (r.get("why") or {}).items():
            if "(not compiled)" in line:
                agreed = (r.get("why_all") or {}).get(name, "").split(":")[0] == line.split(":")[0]
                n, a = models.get(name, (0, 0))
                models[name] = (n + 1, a + agreed)
    summary.append("verdicts taken by a model without compiling the variant, and the all-trials verdict agreeing: "
                   + (", ".join(f"{k} {a}/{n}" for k, (n, a) in sorted(models.items())) or "none"))
    # the dot-cycles model (dot_work.compare) on every all-trials accelerate-dot trial where it ranked ours fewer:
    # theirs' compiled figure at least the model's (an FMA dot's a lower bound), ours' the model's
    told = [r["dot_cycles_all"] for r in ok if (r.get("dot_cycles_all") or {}).get("model")]
    summary.append(f"dot-cycles model, where it ranked ours fewer (all-trials accelerate-dot trials): {len(told)}; "
                   f"the other's compiled cycles at least the model's: "
                   f"{sum(c['compiled'][0] >= c['model'][0] for c in told)}; ours' as the model's: "
                   f"{sum(c['compiled'][1] == c['model'][1] for c in told)}")
    for r in diff:
        summary.append(f"  differs: {r['seed']} {r['arch']}: {json.dumps(_differences(r['ours'], r['all']))}")
        for k, v in (r.get("why") or {}).items():
            if v != (r.get("why_all") or {}).get(k):
                summary.append(f"      {k}: model-first: {v}")
                summary.append(f"      {' ' * len(k)}  all trials: {(r.get('why_all') or {}).get(k)}")
    for line in summary:
        print(line)
    lines += summary
    if args.out:
        with open(args.out + ".txt", "w") as f:
            f.write("\n".join(lines) + "\n")
        write_json(args.out + ".json", rows, indent=1, default=str)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
