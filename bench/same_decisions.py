"""Do two trees decide the same? Ours' compiles of the bench suite and of generated kernels, one tree at a time,
then the two records compared: every decision's record and ours' amdgcn (without debug lines and paths).

    python bench/same_decisions.py record --tree /path/to/tree --arch gfx942 [--suite] [--seeds 6000..6019]
        [--options '{"waves_per_eu": "auto"}'] --out A.json
    python bench/same_decisions.py compare A.json B.json

`record` runs in a child with PYTHONPATH=<tree>/python (the tree's native library built or copied into
python/triton_mfma/_native), so a tree from before a refactor runs its own code. Compiles use
`enabled(cpu_bound=False)`: the compile-cost caps decide from CPU time, so a loaded machine could change a decision
that no code change made. A generated seed is compiled for ours only, with a time limit per kernel (--timeout);
one that runs past it is recorded as such in both records' comparison, not as a difference.
`compare` prints one line per kernel that differs and a summary; it exits 1 where any does.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def _imports():
    """compile_kernel, always_compile and kernelgen wherever this tree keeps them (the package moved into folders
    in issue 56; a tree from before reads the flat paths)."""
    try:
        from triton_mfma.compiler.compile import always_compile, compile_kernel
        from triton_mfma.testing import kernelgen
    except ImportError:
        from triton_mfma import kernelgen
        from triton_mfma.compile import always_compile, compile_kernel
    return compile_kernel, always_compile, kernelgen


def _fingerprint(k, tree: str) -> dict:
    from suite import without_debug_lines

    md = k.metadata._asdict() if hasattr(k.metadata, "_asdict") else vars(k.metadata)
    records = {key: [v.get("decision"), v.get("chosen")] for key, v in md.items()
               if key.startswith("triton_mfma_") and isinstance(v, dict) and ("decision" in v or "chosen" in v)}
    asm = "\n".join(line for line in without_debug_lines(k.asm["amdgcn"]).splitlines()
                    if tree not in line and "string offset" not in line)
    # a generated kernel's file is named after a hash of its source, whose first line names the generator's module
    asm = re.sub(r"gen_(\d+)_[0-9a-f]{10}\.py", r"gen_\1.py", asm)
    return {"amdgcn": hashlib.sha1(asm.encode()).hexdigest(), "decisions": records}


def child(tree: str, arch: str, what: str, kdir: str, out: str, options: str = "{}") -> None:
    """One compile of ours (`options`: enabled()'s, JSON, beside cpu_bound=False), its fingerprint to `out`."""
    import warnings

    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    sys.path.insert(0, os.path.join(tree, "bench"))
    import triton_mfma

    compile_kernel, always_compile, kernelgen = _imports()
    extra = json.loads(options)
    with always_compile(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if what.startswith("suite:"):
                from suite import configs

                c = next(c for c in configs() if c.name == what[6:])
                with triton_mfma.enabled(cpu_bound=False, **extra):
                    k = compile_kernel(c.fn, c.signature, c.constexprs, arch, c.options)
            else:
                fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.spec(int(what)), kdir, arch)
                with triton_mfma.enabled(cpu_bound=False, **extra):
                    k = compile_kernel(fn, sig, cx, arch, opts, attrs=attrs)
            got = _fingerprint(k, tree)
        except Exception as e:  # noqa: BLE001 - a kernel Triton rejects is recorded, the same in both trees
            got = {"error": f"{type(e).__name__}: {(str(e).strip().splitlines() or [''])[-1][:200]}"}
    json.dump(got, open(out, "w"))


def suite_names(tree: str) -> list[str]:
    code = (f"import sys; sys.path.insert(0, {os.path.join(tree, 'bench')!r}); from suite import configs; "
            "print('\\n'.join(c.name for c in configs()))")
    env = dict(os.environ, PYTHONPATH=os.path.join(tree, "python"))
    return subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True,
                          text=True).stdout.split("\n")[:-1]


def record(args) -> None:
    tree = os.path.abspath(args.tree)
    whats = [f"suite:{n}" for n in suite_names(tree)] if args.suite else []
    if args.seeds:
        a, _, b = args.seeds.partition("..")
        whats += [str(s) for s in range(int(a), int(b or a) + 1)]
    env = dict(os.environ, PYTHONPATH=os.path.join(tree, "python"))
    rows = {}
    kdir = args.kernels  # the same directory in both records: a kernel's path is in its amdgcn's debug strings
    os.makedirs(kdir, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for what in whats:
            out = os.path.join(tmp, "one.json")
            try:
                subprocess.run([sys.executable, __file__, "child", tree, args.arch, what, kdir, out, args.options],
                               env=env, timeout=args.timeout, check=True, capture_output=True)
                rows[what] = json.load(open(out))
            except subprocess.TimeoutExpired:
                rows[what] = {"timeout": args.timeout}
            except subprocess.CalledProcessError as e:
                rows[what] = {"error": (e.stderr.decode(errors="replace").strip().splitlines() or ["?"])[-1][:200]}
            print(what, json.dumps(rows[what])[:160], flush=True)
    result = {"tree": tree, "arch": args.arch, "options": json.loads(args.options), "rows": rows}
    json.dump(result, open(args.out, "w"), indent=1, sort_keys=True)


def compare(a_path: str, b_path: str) -> int:
    a, b = json.load(open(a_path)), json.load(open(b_path))
    same = differ = unread = 0
    for what in sorted(set(a["rows"]) | set(b["rows"])):
        x, y = a["rows"].get(what), b["rows"].get(what)
        if x is None or y is None or "timeout" in x or "timeout" in y:
            unread += 1
            print(f"{what}: not in both records, or past the time limit in one")
        elif x == y:
            same += 1
        else:
            differ += 1
            keys = sorted(k for k in set(x) | set(y) if x.get(k) != y.get(k))
            print(f"{what}: differs in {', '.join(keys)}: {json.dumps({k: x.get(k) for k in keys})} -> "
                  f"{json.dumps({k: y.get(k) for k in keys})}")
    print(f"{a['arch']}: same {same}, different {differ}, not compared {unread} "
          f"({a['tree']} -> {b['tree']})")
    return 1 if differ else 0


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "child":
        child(*sys.argv[2:8])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("--tree", required=True)
    r.add_argument("--arch", required=True)
    r.add_argument("--suite", action="store_true")
    r.add_argument("--seeds", default="", help="A..B (inclusive): generated kernels")
    r.add_argument("--timeout", type=float, default=900)
    r.add_argument("--options", default="{}",
                   help="triton_mfma.enabled()'s options, JSON (e.g. '{\"waves_per_eu\": \"auto\"}')")
    r.add_argument("--kernels", default=os.path.join(tempfile.gettempdir(), "same_decisions_kernels"),
                   help="where generated kernels' sources go (the same for both records)")
    r.add_argument("--out", required=True)
    c = sub.add_parser("compare")
    c.add_argument("a")
    c.add_argument("b")
    args = ap.parse_args()
    if args.cmd == "record":
        record(args)
        return 0
    return compare(args.a, args.b)


if __name__ == "__main__":
    sys.exit(main())
