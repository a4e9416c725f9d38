"""Real-world corpus: Triton kernels from public libraries, stock Triton vs triton-mfma's default passes.

    PYTHONPATH=python python bench/corpus/run.py [--quick] [--arch gfx942 ...] [--lib liger ...] [--only SUBSTR]
                                                 [--json OUT.json] [--out OUT.txt] [--reps N]

The kernels are imported at run time from the installed libraries (bench/corpus/requirements.txt); each
configuration mirrors the library's own launch (bench/corpus/<lib>.py says which file and function). For every
configuration and target: a stock compile, then the project's defaults (`triton_mfma.enabled()` with no
arguments: whatever triton_mfma.composition.passes.DEFAULT_PASSES holds at run time; on cuda the cuda-capable ones) in
strict mode (a failing pass raises: a failure caused by the project), repeated non-strict only where strict
raised (a fallback: MFMAWarning). Each compile is fresh (knobs.compilation.always_compile), stock and ours
one after the other (interleaved), after one untimed warm-up compile per kernel function.

Figures, read from the amdgcn (triton_mfma.models.resources.of_kernel) and the occupancy model
(triton_mfma.models.occupancy): VGPR+AGPR (.vgpr_count), SGPR, VGPR/SGPR spills, LDS bytes, waves per SIMD and
workgroups per CU (registers and LDS). On cuda:90 from the cubin (cuobjdump --dump-resource-usage: registers,
local-memory spills) and metadata.shared; warps per SM modelled from them. The verdict on AMD is the one judge's
(dot_figures.compare, as in bench/differential.py: main-loop scratch, scratch, occupancy, main-loop AGPR copies and SGPR
lane spills, dot cycles, LDS ops); on cuda worse = fewer warps or blocks, more shared memory, more spills (a change that
removes spills at lower occupancy counts as a gain); better = not worse and better on one.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from importlib.metadata import version

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness  # noqa: E402
from _shim import no_gpu  # noqa: E402

LIBS = {  # library key -> (configuration module, distribution whose version is reported)
    "liger": ("liger", "liger-kernel"),
    "flag_gems": ("flaggems", "flag-gems"),
    "gemlite": ("gemlite_cfg", "gemlite"),
    "fla": ("fla_cfg", "fla-core"),
    "sglang": ("sglang_cfg", "sglang"),
}
ARCHS = ("gfx90a", "gfx942", "gfx950", "cuda:90")


def load(libs=None, quick=False):
    """(configurations, {lib: import error}) — a library that does not import is reported, not fatal."""
    import importlib
    import warnings

    out, errors = [], {}
    for lib, (mod, _) in LIBS.items():
        if libs and lib not in libs:
            continue
        try:
            with no_gpu(), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                cs = importlib.import_module(mod).configs()
        except Exception as e:  # noqa: BLE001
            errors[lib] = f"{type(e).__name__}: {e}"
            continue
        out += [c for c in cs if c.quick] if quick else cs
    ids = [c.id for c in out]
    dup = {i for i in ids if ids.count(i) > 1}
    assert not dup, f"duplicate configuration names: {sorted(dup)}"
    return out, errors


def fmt(f: dict | None) -> str:
    if not f:
        return "-"
    sp = f"{f['vgpr_spill']}/{f['sgpr_spill']}"
    return f"r{f['regs']:>3} s{f['sgpr']:>3} sp{sp:>7} lds{f['lds']:>7} w{f['waves']} wg{f['workgroups']:>2}"


def summary_lines(results, archs) -> list[str]:
    lines = []
    head = (f"{'arch':8} {'configs':>7} {'stock err':>9} {'failures':>8} {'fallbacks':>9} {'worse':>5} "
            f"{'better':>6} {'changed':>7} {'t ratio med':>11} {'t ratio max':>11}  accelerate-dot decisions")
    lines.append(head)
    for arch in list(archs) + ["all"]:
        rs = [r for r in results if arch == "all" or r.arch == arch]
        if not rs:
            continue
        s = harness.summarize(rs)
        dec = {}
        for r in rs:
            d = (r.ours or {}).get("decision") or "-"
            dec[d] = dec.get(d, 0) + 1
        dec_s = ", ".join(f"{k} {v}" for k, v in sorted(dec.items()) if k != "-")
        lines.append(f"{arch:8} {s['configs']:>7} {s['stock_errors']:>9} {s['failures']:>8} {s['fallbacks']:>9} "
                     f"{s['worse']:>5} {s['better']:>6} {s['changed']:>7} {s['ratio_median']:>11.2f} "
                     f"{s['ratio_max']:>11.2f}  {dec_s}")
    return lines + population_lines(results)


def population_lines(results) -> list[str]:
    """CPU time ours / stock by issue 53's populations (bench/cputime.py), all archs together."""
    from cputime import BUDGET, distribution, over_every_kernel_bound, within_budget

    ok = [r for r in results if not r.error and not r.failure and r.cpu_stock and r.cpu_ours and
          r.arch.startswith("gfx")]
    lines = ["# CPU time ours / stock (every thread, after a warm-up compile) by issue 53's populations:"]
    for pop in BUDGET:
        ratios = [r.cpu_ratio for r in ok if r.population == pop]
        if ratios:
            lines.append(f"#   {pop} ({len(ratios)}): {distribution(ratios)} ({within_budget(pop, ratios)})")
    over = [r for r in ok if over_every_kernel_bound(r.cpu_stock, r.cpu_ours)]
    lines.append(f"#   over the every-kernel bound (max(3x, + 10 s)): {len(over)}"
                 + "".join(f"; {r.id} {r.arch} {r.cpu_ratio:.2f}x" for r in over))
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="only the configurations marked quick (the CI subset)")
    ap.add_argument("--arch", nargs="+", default=list(ARCHS), choices=ARCHS)
    ap.add_argument("--lib", nargs="+", choices=sorted(LIBS))
    ap.add_argument("--only", help="only configurations whose name contains this")
    ap.add_argument("--json", help="write every result here")
    ap.add_argument("--out", help="also write the printed report here")
    ap.add_argument("--reps", type=int, default=1, help="compiles of each side per kernel, in turn; the least time "
                    "of each is reported")
    args = ap.parse_args(argv)

    import triton
    import triton_mfma
    from triton_mfma.composition.passes import DEFAULT_PASSES

    out_f = open(args.out, "w") if args.out else None

    def emit(line=""):
        print(line, flush=True)
        if out_f:
            out_f.write(line + "\n")
            out_f.flush()

    cmd = "PYTHONPATH=python python bench/corpus/run.py " + " ".join(sys.argv[1:] if argv is None else argv)
    emit(f"# {cmd}")
    cfgs, errors = load(args.lib, args.quick)
    if args.only:
        cfgs = [c for c in cfgs if args.only in c.id]
    versions = {}
    for lib, (_, dist) in LIBS.items():
        try:
            versions[dist] = version(dist)
        except Exception:  # noqa: BLE001
            versions[dist] = "absent"
    emit(f"# triton {triton.__version__}, torch {version('torch')}, triton-mfma {triton_mfma.__version__}, "
         f"python {platform.python_version()}; libraries: " + ", ".join(f"{k} {v}" for k, v in versions.items()))
    emit(f"# default passes at run time: {', '.join(DEFAULT_PASSES)} (cuda: the cuda-capable ones)")
    for lib, e in errors.items():
        emit(f"# library {lib} not loaded: {e}")
    per_lib = {}
    for c in cfgs:
        per_lib[c.lib] = per_lib.get(c.lib, 0) + 1
    emit(f"# {len(cfgs)} configurations: " + ", ".join(f"{k} {v}" for k, v in per_lib.items()))
    emit("# columns: r = VGPR+AGPR (cuda: registers), s = SGPR, sp = VGPR/SGPR spills (cuda: local bytes), lds = bytes,"
         " w = waves/SIMD (cuda: warps/SM), wg = workgroups/CU (blocks/SM); t = compile seconds stock/ours")
    results = []
    warmed = set()
    t0 = time.time()
    for cfg in cfgs:
        for arch in args.arch:
            if arch not in cfg.archs:
                continue
            r = harness.run_one(cfg, arch, passes=None, strict=True, warmed=warmed, reps=args.reps)
            results.append(r)
            if r.error:
                verdict = "STOCK-ERROR " + r.error.splitlines()[0][:150]
            elif r.failure:
                verdict = "FAILURE " + r.failure.replace("\n", " ")[:300]
            else:
                verdict = ("WORSE " + "; ".join(r.worse)) if r.worse else (
                    ("better " + "; ".join(r.better)) if r.better else ("same" if r.stock == r.ours else "changed"))
                if r.fallbacks:
                    verdict += f" FALLBACKS {len(r.fallbacks)}: " + r.fallbacks[0].replace("\n", " ")[:200]
            dec = (r.ours or {}).get("decision") or ""
            emit(f"{cfg.id:62} {arch:7} stock[{fmt(r.stock)}] ours[{fmt(r.ours)}] {dec:8} "
                 f"t {r.t_stock:5.1f}/{r.t_ours:5.1f} cpu {r.cpu_stock:5.1f}/{r.cpu_ours:5.1f} {verdict}")
    emit()
    emit(f"# summary ({time.time() - t0:.0f} s); 'stock err' = stock Triton itself fails (not the project's);"
         " t ratio = ours/stock compile seconds")
    for line in summary_lines(results, args.arch):
        emit(line)
    better = [r for r in results if r.better and not r.worse and not r.failure]
    worse = [r for r in results if r.worse]
    failures = [r for r in results if r.failure or r.fallbacks]
    emit()
    emit(f"# strictly better ({len(better)}):")
    for r in better:
        emit(f"#   {r.id} {r.arch}: {'; '.join(r.better)} ({(r.ours or {}).get('decision') or 'no dot'})")
    emit(f"# worse than stock ({len(worse)}):")
    for r in worse:
        emit(f"#   {r.id} {r.arch}: {'; '.join(r.worse)}")
    emit(f"# failures / fallbacks ({len(failures)}):")
    for r in failures:
        emit(f"#   {r.id} {r.arch}: {r.failure or r.fallbacks[0]}"[:600])
    stock_err = [r for r in results if r.error]
    if stock_err:
        emit(f"# stock Triton errors ({len(stock_err)}; not counted):")
        for r in stock_err:
            emit(f"#   {r.id} {r.arch}: {r.error.splitlines()[-1][:200]}")
    if args.json:
        import dataclasses
        sys.path.insert(0, os.path.dirname(HERE))  # bench/: its record helper
        from record import write_json
        data = {"command": cmd, "versions": versions, "default_passes": list(DEFAULT_PASSES),
                "import_errors": errors,
                "summary": {a: harness.summarize([r for r in results if a == "all" or r.arch == a])
                            for a in list(args.arch) + ["all"] if any(a == "all" or r.arch == a for r in results)},
                "results": [dict(dataclasses.asdict(r), ratio=r.ratio) for r in results]}
        write_json(args.json, data, indent=1, default=str)
    if out_f:
        out_f.close()
    return 1 if any(r.failure or r.fallbacks for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
