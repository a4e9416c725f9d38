"""Stock Triton vs triton-mfma's defaults (strict) on generated kernels (triton_mfma.testing.kernelgen), gfx90a /
gfx942 / gfx950: one subprocess per compile, with a time limit.

    PYTHONPATH=python python bench/differential.py --seeds 0..149 [--arch gfx942 ...] [--jobs 1] [--timeout 600]
        [--out bench/results/differential]

For each seed x arch: the stock compile runs in a child process, then ours (`triton_mfma.enabled()`, strict) in
another. A stock compile that raises drops the kernel for that arch (Triton rejects it: not counted). Findings:
  failure  our compile raised (strict mode: a pass failed, or a figure could not be read)
  hang     a child ran past --timeout (named: stock or ours), or was killed by a signal
  worse    dot_figures.compare (the benches' one comparison, issue 35's SGPR-spill rule included)
  slow     ours took over 2x stock's CPU time where stock's is over 30 s and stock's kernel can launch (where it
           cannot, stock's compile buys nothing: such rows are counted apart, "slow, stock cannot launch")
Compile cost is the child's CPU time (user + sys of the whole process and the processes it waited for, from
wait4) and its wall time; each child imports Triton afresh, the same for both sides.
Writes <out>.txt (a line per kernel x arch: seed, what it is, figures stock|ours, verdict, decisions) and
<out>.json (rows with the figures, times and decisions).
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import checkout  # noqa: E402
from cputime import process_cpu  # noqa: E402
from record import read_json, record_stem, write_json  # noqa: E402

checkout.use_checkout_if_built()

ARCHS = ("gfx90a", "gfx942", "gfx950")
SLOW_RATIO, SLOW_FLOOR_S = 2.0, 30.0


# -- the child: one compile ---------------------------------------------------------------------------------------

def child(side: str, seed: int, arch: str, kdir: str, out: str) -> None:
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    os.environ["TRITON_MFMA_STRICT"] = "1"
    import warnings

    warnings.simplefilter("ignore")
    import triton
    from triton.compiler import ASTSource

    import triton_mfma
    from triton_mfma.models import dot_figures
    from triton_mfma.testing import kernelgen
    from triton_mfma.compiler.compile import always_compile, target
    from suite import decisions

    s = spec_of(seed)
    _warm_up = _warm_up_kernel()
    result = {"side": side}
    try:
        fn, sig, cx, attrs, opts = kernelgen.compile_args(s, kdir, arch)
    except Exception as e:  # the generator's signature does not fit: Triton's frontend rejects it
        result.update(status="error", error=f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:500])
        json.dump(result, open(out, "w"))
        return
    # TMFMA_DIFF_OPTIONS: enabled()'s arguments as JSON (bench/differential_diagnose.py's variants); unset: defaults
    extra = json.loads(os.environ.get("TMFMA_DIFF_OPTIONS") or "{}")

    def side_ctx():
        return triton_mfma.disabled() if side == "stock" else triton_mfma.enabled(**extra)

    try:
        with always_compile(), side_ctx():  # once per process, untimed: Triton's and LLVM's first-use setup
            triton.compile(ASTSource(fn=_warm_up, signature={"x": "*fp32"}, constexprs={}), target=target(arch))
    except Exception:  # noqa: BLE001 - the kernel's own compile reports what is wrong
        pass
    try:
        before, t0 = process_cpu(), time.perf_counter()
        with always_compile(), side_ctx():
            k = triton.compile(ASTSource(fn=fn, signature=sig, constexprs=cx, attrs=attrs), target=target(arch),
                               options=opts)
        # every thread of the process and the children it waited for: trial compiles included
        result.update(compile_cpu_s=round(process_cpu() - before, 3), compile_wall_s=round(time.perf_counter() - t0, 3))
        f = dot_figures.of_kernel(k)
        result.update(status="ok", figures=vars(f), decisions=decisions(k.metadata) if side == "ours" else {})
        if side == "ours":  # each decision's reason, for the diagnosis of a finding
            md = k.metadata._asdict() if hasattr(k.metadata, "_asdict") else vars(k.metadata)
            result["reasons"] = {key: md[key] for key in md if key.startswith("triton_mfma")}
    except Exception as e:
        msg = str(e).strip().splitlines()
        result.update(status="error", error=f"{type(e).__name__}: {msg[-1] if msg else ''}"[:500])
    with open(out, "w") as fh:
        json.dump(result, fh)


def _warm_up_kernel():
    import triton
    import triton.language as tl

    @triton.jit
    def warm_up(x):
        tl.store(x + tl.arange(0, 64), tl.load(x + tl.arange(0, 64)) + 1.0)

    return warm_up


def spec_of(seed):
    """kernelgen.spec(seed), or for "@file.json" the Spec in that file (a reproducer: kernelgen.from_dict)."""
    from triton_mfma.testing import kernelgen

    if isinstance(seed, str) and seed.startswith("@"):
        return kernelgen.from_dict(json.load(open(seed[1:])))
    return kernelgen.spec(int(seed))


# -- the parent ---------------------------------------------------------------------------------------------------

def run_child(side: str, seed: int, arch: str, kdir: str, timeout: float) -> dict:
    """Run one compile in a child process: its result, with cpu_s / wall_s, or status hang / signal."""
    tag = os.path.basename(str(seed)).replace(".json", "").lstrip("@")
    fd, out = tempfile.mkstemp(prefix=f"diff-{tag}-{arch}-{side}-", suffix=".json")
    os.close(fd)
    env = checkout.child_env()
    cmd = [sys.executable, os.path.abspath(__file__), "--child", side, str(seed), arch, kdir, out]
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    deadline = t0 + timeout
    status = None
    while True:
        pid, st, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            os.killpg(p.pid, signal.SIGKILL)
            pid, st, ru = os.wait4(p.pid, 0)
            status = "hang"
            break
        time.sleep(0.05)
    wall = time.perf_counter() - t0
    stderr = p.stderr.read().decode(errors="replace")[-2000:]
    p.stderr.close()
    p.returncode = os.waitstatus_to_exitcode(st)
    cpu = ru.ru_utime + ru.ru_stime
    try:
        result = json.load(open(out)) if status is None and os.path.getsize(out) else {}
    except (OSError, ValueError):
        result = {}
    os.unlink(out)
    if status == "hang":
        result = {"status": "hang", "error": f"{side} ran past {timeout:.0f} s"}
    elif os.WIFSIGNALED(st):
        result = {"status": "signal", "error": f"{side} killed by signal {os.WTERMSIG(st)}: {stderr[-300:]}"}
    elif not result:
        result = {"status": "error", "error": f"{side} exited {p.returncode} without a result: {stderr[-300:]}"}
    result.update(cpu_s=round(cpu, 2), wall_s=round(wall, 2))
    return result


def figures(d: dict):
    from triton_mfma.models.dot_figures import Figures

    return Figures(**d)


def judge(seed: int, arch: str, kdir: str, timeout: float) -> dict:
    """One kernel x arch: both compiles and the verdict."""
    from triton_mfma.models import dot_figures
    from triton_mfma.testing import kernelgen

    s = spec_of(seed)
    row = {"seed": seed, "arch": arch, "what": s.describe(), "spec": kernelgen.as_dict(s)}
    stock = run_child("stock", seed, arch, kdir, timeout)
    row["stock"] = stock
    if stock["status"] == "error":
        row["verdict"], row["why"] = "dropped", [stock["error"]]  # Triton rejects it
        return row
    if stock["status"] in ("hang", "signal"):
        row["verdict"], row["why"] = "hang", [stock["error"]]
        return row
    ours = run_child("ours", seed, arch, kdir, timeout)
    row["ours"] = ours
    if ours["status"] in ("hang", "signal"):
        row["verdict"], row["why"] = "hang", [ours["error"]]
    elif ours["status"] != "ok":
        row["verdict"], row["why"] = "failure", [ours["error"]]
    else:
        row["verdict"], row["why"] = dot_figures.compare(figures(stock["figures"]), figures(ours["figures"]))
    mark_slow(row)
    return row


def mark_slow(row: dict) -> None:
    """row["slow"]: ours' compile took over SLOW_RATIO x stock's CPU time where stock's is over SLOW_FLOOR_S and
    stock's kernel can launch; row["slow_unlaunchable"]: the same where it cannot (more LDS than a CU has: the user
    gets an error from stock, a kernel from ours)."""
    stock, ours = row["stock"], row.get("ours", {})
    row.pop("slow", None), row.pop("slow_unlaunchable", None)
    if stock.get("status") != "ok" or ours.get("status") != "ok":
        return
    key = "compile_cpu_s" if "compile_cpu_s" in stock and "compile_cpu_s" in ours else "cpu_s"
    if stock[key] > SLOW_FLOOR_S and ours[key] > SLOW_RATIO * stock[key]:
        launches = stock.get("figures", {}).get("occupancy", 1) > 0
        row["slow" if launches else "slow_unlaunchable"] = True


def line(r: dict) -> str:
    s, o = r["stock"], r.get("ours", {})
    head = f"{str(r['seed']):>5} {r['arch']:7} {r['what'][:78]:78}"
    if "figures" in s and "figures" in o:
        a, b = s["figures"], o["figures"]
        figs = (f"occ {a['occupancy']}|{b['occupancy']} vgpr {a['vgpr_total']}|{b['vgpr_total']} "
                f"sp {a['vgpr_spills']}+{a['sgpr_spills']}|{b['vgpr_spills']}+{b['sgpr_spills']} "
                f"lds {a['lds']}|{b['lds']} cyc {a['loop_cycles']}|{b['loop_cycles']} "
                f"ds {a['loop_ds_read'] + a['loop_ds_write']}|{b['loop_ds_read'] + b['loop_ds_write']}")
    else:
        figs = ""
    key = "compile_cpu_s" if "compile_cpu_s" in s and "compile_cpu_s" in o else "cpu_s"
    t = f"cpu {s.get(key, 0):.1f}|{o.get(key, 0):.1f}s"
    why = "; ".join(r["why"])[:300]
    dec = o.get("decisions", {})
    return f"{head} {figs} {t}  {r['verdict']}{slow_tag(r)} {why} {dec if dec else ''}".rstrip()


def slow_tag(r: dict) -> str:
    return " SLOW" if r.get("slow") else " SLOW (stock cannot launch)" if r.get("slow_unlaunchable") else ""


def parse_seeds(text: str) -> list:
    """"A..B" (inclusive), "a,b,c", or "@spec.json" (one reproducer: a kernelgen Spec as JSON)."""
    out = []
    for part in text.split(","):
        if part.startswith("@"):
            out.append("@" + os.path.abspath(part[1:]))
            continue
        a, _, b = part.partition("..")
        out += list(range(int(a), int(b) + 1)) if b else [int(a)]
    return out


def cpu_ratio(r: dict) -> float:
    """Ours' CPU time over stock's: of the compile itself (all threads, after an untimed warm-up compile in the same
    process) where the run recorded it, else of the whole child process."""
    key = "compile_cpu_s" if "compile_cpu_s" in r["stock"] and "compile_cpu_s" in r["ours"] else "cpu_s"
    return r["ours"][key] / max(0.01, r["stock"][key])


def summary(rows: list[dict], archs) -> list[str]:
    out = []
    for arch in list(archs) + ["all"]:
        sub = [r for r in rows if arch in ("all", r["arch"])]
        if not sub:
            continue
        n = {v: sum(r["verdict"] == v for r in sub) for v in ("worse", "better", "same", "failure", "hang", "dropped")}
        counted = len(sub) - n["dropped"]
        ratios = sorted(cpu_ratio(r) for r in sub if r.get("ours", {}).get("status") == "ok")
        med = ratios[len(ratios) // 2] if ratios else 0
        p90 = ratios[int(len(ratios) * 0.9)] if ratios else 0
        out.append(f"{arch}: kernels {counted} (dropped by stock {n['dropped']}): worse {n['worse']}, failures "
                   f"{n['failure']}, hangs {n['hang']}, better {n['better']}, same {n['same']}; ours > 2x stock CPU "
                   f"where stock > 30 s: {sum(bool(r.get('slow')) for r in sub)} (and where stock cannot launch: "
                   f"{sum(bool(r.get('slow_unlaunchable')) for r in sub)}); CPU ours/stock median {med:.2f} "
                   f"p90 {p90:.2f} max {ratios[-1] if ratios else 0:.2f}")
    for r in rows:
        if r["verdict"] in ("worse", "failure", "hang") or r.get("slow") or r.get("slow_unlaunchable"):
            out.append(f"  {r['verdict']}{slow_tag(r)}: seed {r['seed']} {r['arch']} {r['what']}: "
                       f"{'; '.join(r['why'])[:400]} {r.get('ours', {}).get('decisions', '')}")
    return out


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        side, seed, arch, kdir, out = sys.argv[2:7]
        child(side, seed, arch, kdir, out)
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default="0..19", help="A..B (inclusive) or a comma list")
    ap.add_argument("--arch", action="append")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--out", default="bench/results/differential")
    ap.add_argument("--kernels", default=None, help="where the generated sources go (default: <out>_kernels)")
    ap.add_argument("--rejudge", metavar="JSON", help="no compiles: the verdicts of a run's recorded figures "
                                                      "(its <out>.json) with this tree's dot_figures.compare")
    args = ap.parse_args()
    if args.rejudge:
        from triton_mfma.models import dot_figures

        rows = read_json(args.rejudge)
        for r in rows:
            if r["verdict"] in ("worse", "better", "same"):
                r["verdict"], r["why"] = dot_figures.compare(figures(r["stock"]["figures"]),
                                                             figures(r["ours"]["figures"]))
            mark_slow(r)
        archs = [a for a in ARCHS if any(r["arch"] == a for r in rows)]
        rows.sort(key=lambda r: (str(r["seed"]).zfill(8), r["arch"]))
        txt = record_stem(args.rejudge) + ".txt"
        head = [ln for ln in open(txt).read().splitlines()[:2]] if os.path.exists(txt) else []
        body = head + [f"# verdicts re-derived from the recorded figures: `PYTHONPATH=python python "
                       f"bench/differential.py {' '.join(sys.argv[1:])}`"] + [line(r) for r in rows] + [""] + \
            summary(rows, archs)
        with open(args.out + ".txt", "w") as f:
            f.write("\n".join(body) + "\n")
        write_json(args.out + ".json", rows, indent=0, default=str)
        print("\n".join(summary(rows, archs)))
        return
    archs = args.arch or ARCHS
    kdir = os.path.abspath(args.kernels or args.out + "_kernels")
    seeds = parse_seeds(args.seeds)
    import triton

    import triton_mfma

    options = os.environ.get("TMFMA_DIFF_OPTIONS")
    which = f"TMFMA_DIFF_OPTIONS='{options}' " if options else ""
    lines = [f"# stock Triton {triton.__version__} vs triton-mfma {triton_mfma.__version__} "
             f"{'options ' + options if options else 'defaults'}, strict -- "
             f"`{which}PYTHONPATH=python python bench/differential.py {' '.join(sys.argv[1:])}`",
             "# occ waves/SIMD, vgpr = VGPR+AGPR, sp = VGPR+SGPR spills, lds bytes, cyc / ds = main-loop dot cycles / "
             "LDS ops: stock|ours; cpu = CPU s of the compile (all threads, after a warm-up compile) stock|ours",
             f"# TRITON_MFMA_TRIAL_THREADS={os.environ.get('TRITON_MFMA_TRIAL_THREADS', '(unset: idle cores)')} "
             f"(1: no compile beside another, what a busy machine gets: the CPU time is the decisions' own)"]
    for ln in lines:
        print(ln, flush=True)
    rows = []
    tasks = [(seed, arch) for seed in seeds for arch in archs]

    def write():
        os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
        body = lines + [line(r) for r in sorted(rows, key=lambda r: (str(r["seed"]).zfill(8), r["arch"]))] + [""] + \
            summary(sorted(rows, key=lambda r: (str(r["seed"]).zfill(8), r["arch"])), archs)
        with open(args.out + ".txt", "w") as f:
            f.write("\n".join(body) + "\n")
        write_json(args.out + ".json", rows, indent=0, default=str)

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for i, r in enumerate(pool.map(lambda t: judge(t[0], t[1], kdir, args.timeout), tasks)):
            rows.append(r)
            print(line(r), flush=True)
            if i % 10 == 9:
                write()  # a long run leaves its findings as it goes
    write()
    for ln in summary(sorted(rows, key=lambda r: (str(r["seed"]).zfill(8), r["arch"])), archs):
        print(ln, flush=True)


if __name__ == "__main__":
    main()
