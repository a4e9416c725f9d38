"""The command line as a new user meets it: the README's commands and plausible mistakes, each run for real.

A mistake must answer one line on stderr, exit status 2, and nothing on stdout (it is caught before any work);
a correct command must exit 0 with no traceback and no stray LLVM line; on a Triton build the project cannot run on
("stock"), exit 0 and exactly one line on stderr, the warning. The C++ driver mfma-opt keeps mlir-opt's
conventions for its own mistakes (LLVM's option parser, status 1: "tool-mistake"), without a crash. Prints one
line per invocation and a
tally; the recorded output is bench/results/cli_mistakes.txt.

    PYTHONPATH=python python bench/cli_mistakes.py [-k SUBSTRING] > bench/results/cli_mistakes.txt
"""
from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import checkout  # noqa: E402
GELU = "examples/matmul_bias_gelu.py:matmul_bias_gelu"
GELU_SIG = ("'*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,"
            "128,128,32,8'")
LIT = "test/lit/mfma-print-layouts.mlir"
REPORT = f"{{tm}} report {GELU} --signature {GELU_SIG}"
OPT = "{tm} opt {ttgir}"

# (command, "ok" | "mistake" | "stock" | "tool-mistake"); {tm}: triton-mfma, {mo}: the mfma-opt launcher, {ttgir}: a gemm's TTGIR, {tmp}: a dir;
# triton-mfma with another Triton than the installed one: {no_triton} (none), {old_triton} (2.1.0), {broken_triton}
# (an import error), {no_torch} (a build that imports torch, missing), {no_symbols} (this Triton, its libtriton
# replaced by a library exporting none of the bridge's symbols, as fbtriton 3.8.0rc3's exports one)
CASES = [
    # README commands
    ("{tm} --version", "ok"),
    ("{tm} --help", "ok"),
    ("{tm} passes", "ok"),
    ("{tm} passes --json", "ok"),
    ("{tm} demo --kernel gemm --no-showcase", "ok"),
    ("{tm} demo --kernel gemm --passes mfma-accelerate-dot --json", "ok"),
    (f"{REPORT} --arch gfx942", "ok"),
    (f"{REPORT} --arch gfx942 --compare --plot {{tmp}}/gelu.png", "ok"),
    (f"{REPORT} --json --num-warps 8", "ok"),
    (f"{OPT}", "ok"),
    (f"{OPT} --passes mfma-split-epilogue-cvt --option lds_limit=32768 -o {{tmp}}/split.ttgir", "ok"),
    (f"{OPT} --pipeline 'mfma-grid-order{{{{mode=on group-size=4}}}}'", "ok"),
    (f"{OPT} --passes mfma-print-layouts -q", "ok"),
    (f"{OPT} --generic --no-locations", "ok"),
    (f"{OPT} --passes mfma-stream-pipeline --num-stages 2", "ok"),
    (f"cat {{ttgir}} | {{tm}} opt - --passes mfma-lds-usage", "ok"),
    (f"{OPT} | head -3", "ok"),
    ("{tm} passes | head -2", "ok"),
    ("{mo} --help | head -3", "ok"),
    ("{mo} --version", "ok"),
    (f"{{mo}} {LIT} -split-input-file -mfma-print-layouts -verify-diagnostics -o /dev/null", "ok"),
    ("TRITON_MFMA_REMARKS=none {tm} demo --kernel gemm --no-showcase", "ok"),
    ("TRITON_MFMA_REMARKS=all {tm} demo --kernel layernorm --no-showcase", "ok"),
    # the top level
    ("{tm}", "mistake"),
    ("{tm} --versoin", "mistake"),
    ("{tm} --verison demo", "mistake"),
    ("{tm} reprot", "mistake"),
    ("{tm} deom --kernel gemm", "mistake"),
    ("{tm} demo --kernal gemm", "mistake"),
    ("{tm} passes --jsn", "mistake"),
    ("{tm} passes extra", "mistake"),
    # demo
    ("{tm} demo --arch gfx941", "mistake"),
    ("{tm} demo --arch sm90", "mistake"),
    ("{tm} demo --kernel gemmm", "mistake"),
    ("{tm} demo --kernel ''", "mistake"),
    ("{tm} demo --passes mfma-bogus", "mistake"),
    ("{tm} demo --passes mfma-accelerate-dot --option waves_per_eu=fast", "mistake"),
    ("{tm} demo --option lds_limit", "mistake"),
    ("{tm} demo --option no_such_option=1", "mistake"),
    # report
    (f"{REPORT} --num-warps 3", "mistake"),
    (f"{REPORT} --num-warps 0", "mistake"),
    (f"{REPORT} --num-warps 64", "mistake"),
    (f"{REPORT} --num-warps four", "mistake"),
    (f"{REPORT} --num-stages -1", "mistake"),
    (f"{REPORT} --waves-per-eu -2", "mistake"),
    (f"{REPORT} --waves-per-eu fast", "mistake"),
    (f"{REPORT} --plot /nonexistent_dir/x.png", "mistake"),
    (f"{REPORT} --plot {{tmp}}", "mistake"),
    (f"{REPORT} --plot {{tmp}}/x.txt", "mistake"),
    (f"{REPORT} --passes mfma-grid-ordr", "mistake"),
    (f"{REPORT} --option group_size=4", "mistake"),
    (f"{REPORT} --arch gfx1100", "mistake"),
    (f"{{tm}} report {GELU}", "mistake"),
    (f"{{tm}} report examples/matmul_bias_gelu.py --signature {GELU_SIG}", "mistake"),
    (f"{{tm}} report examples/nope.py:k --signature {GELU_SIG}", "mistake"),
    (f"{{tm}} report examples/matmul_bias_gelu.py:nope --signature {GELU_SIG}", "mistake"),
    (f"{{tm}} report {GELU} --signature '*fp16'", "mistake"),
    (f"{{tm}} report {GELU} --signature '*fp17:16'" + ",i32" * 12 + ",128,128,32,8", "mistake"),
    (f"{REPORT} --constexpr BLOCK_M", "mistake"),
    (f"{{tm}} report {LIT}:k --signature i32", "mistake"),
    # opt: arguments are checked before the file is read
    (f"{{tm}} opt {LIT} --passes mfma-grid-ordr", "mistake"),
    (f"{{tm}} opt {LIT} --pipeline 'mfma-grid-ordr'", "mistake"),
    (f"{{tm}} opt {LIT} --pipeline 'mfma-grid-order{{{{mode=on'", "mistake"),
    (f"{{tm}} opt {LIT} --pipeline 'mfma-grid-order{{{{mode=bogus}}}}'", "mistake"),
    (f"{{tm}} opt {LIT} --pipeline 'mfma-grid-order{{{{group_size=4}}}}'", "mistake"),
    (f"{{tm}} opt {LIT} --pipeline 'mfma-grid-order{{{{group-size=x}}}}'", "mistake"),
    (f"{{tm}} opt {LIT} --pipeline 'canonicalize'", "mistake"),
    (f"{{tm}} opt {LIT} --pipeline 'mfma-grid-order,'", "mistake"),
    (f"{{tm}} opt {LIT} --pipeline 'mfma-grid-order)'", "mistake"),
    (f"{OPT} --passes mfma-stream-pipeline --num-stages -1", "mistake"),
    (f"{OPT} --num-stages two", "mistake"),
    (f"{OPT} --passes mfma-grid-order --pipeline mfma-grid-order", "mistake"),
    (f"{OPT} --pipeline mfma-grid-order --option mode=on", "mistake"),
    (f"{OPT} --passes mfma-grid-order --option mode=bogus", "mistake"),
    (f"{OPT} --passes mfma-grid-order --option group_size=4", "mistake"),
    (f"{OPT} --dump-pass X", "mistake"),
    (f"{OPT} -o /nonexistent_dir/out.ttgir", "mistake"),
    ("{tm} opt /nonexistent.ttgir", "mistake"),
    ("{tm} opt /nonexistent.ttgir --passes mfma-bogus", "mistake"),
    (f"{{tm}} opt {LIT}", "mistake"),
    ("{tm} opt README.md", "mistake"),
    ("{tm} opt", "mistake"),
    # mfma-opt: the MLIR driver answers as mlir-opt does (LLVM's option parser; status 1, as lit's `not` expects)
    (f"{{mo}} {LIT} -mfma-grid-ordr", "tool-mistake"),
    ("{mo} /nonexistent.mlir", "tool-mistake"),
    # the environment
    ("TRITON_MFMA_REMARKS=bogus {tm} demo --kernel gemm --no-showcase", "mistake"),
    ("TRITON_MFMA_STRICT=maybe {tm} demo --kernel gemm --no-showcase", "mistake"),
    ("TRITON_MFMA_TRIAL_THREADS=-3 {tm} demo --kernel gemm --no-showcase", "mistake"),
    ("TRITON_MFMA_TRIAL_THREADS=many {tm} demo --kernel gemm --no-showcase", "mistake"),
    ("TRITON_CODEGEN_AMD=mfma-bogus {tm} demo --kernel gemm --no-showcase", "mistake"),
    # the Triton found: none, one that cannot import, one too old, one without what the bridge calls
    ("{no_triton} demo --kernel gemm --no-showcase", "mistake"),
    (f"{{no_triton}} report {GELU} --signature {GELU_SIG}", "mistake"),
    ("{no_triton} opt {ttgir}", "mistake"),
    ("{no_triton} --version", "ok"),
    ("{no_triton} passes", "ok"),
    ("{old_triton} demo --kernel gemm --no-showcase", "mistake"),
    (f"{{old_triton}} report {GELU} --signature {GELU_SIG}", "mistake"),
    ("{old_triton} opt {ttgir}", "mistake"),
    ("{old_triton} --version", "ok"),
    ("{broken_triton} demo --kernel gemm --no-showcase", "mistake"),
    ("{broken_triton} --version", "ok"),
    ("{no_torch} demo --kernel gemm --no-showcase", "mistake"),
    (f"{{no_torch}} report {GELU} --signature {GELU_SIG}", "mistake"),
    ("{no_torch} --version", "ok"),
    ("{no_symbols} demo --kernel gemm --no-showcase", "stock"),
    (f"{{no_symbols}} report {GELU} --signature {GELU_SIG} --arch gfx942", "stock"),
    ("{no_symbols} --version", "ok"),
]

# the fake Triton packages (a directory put first on PYTHONPATH: name -> its triton/__init__.py)
FAKE_TRITONS = {
    "old_triton": '__version__ = "2.1.0"\n',
    "broken_triton": "from .knobs import knobs  # no such module in this build\n",
    "no_torch": "import torch  # a build that needs torch, on a machine without it\n",
}
SHOWN = {"no_triton": "[no Triton] triton-mfma", "old_triton": "[Triton 2.1.0] triton-mfma",
         "broken_triton": "[Triton that cannot import] triton-mfma", "no_torch": "[Triton needing torch] triton-mfma",
         "no_symbols": "[libtriton without the bridge's symbols] triton-mfma"}


def _other_tritons(tmp: str, py: str) -> dict:
    """{name: the command running triton-mfma with that Triton} (FAKE_TRITONS, no Triton, a symbol-less
    libtriton compiled here)."""
    main = "from triton_mfma.commands.cli import main; sys.exit(main(sys.argv[1:]))"
    subs = {"no_triton": f"{py} -c 'import sys; sys.modules[\"triton\"] = None; {main}'"}
    for name, init in FAKE_TRITONS.items():
        os.makedirs(os.path.join(tmp, name, "triton"))
        with open(os.path.join(tmp, name, "triton", "__init__.py"), "w") as f:
            f.write(init)
        subs[name] = f"PYTHONPATH={shlex.quote(os.path.join(tmp, name))}:$PYTHONPATH {py} -m triton_mfma.commands.cli"
    stub, lib = os.path.join(tmp, "stub.c"), os.path.join(tmp, "libtriton.so")
    with open(stub, "w") as f:
        f.write("int tmfma_the_only_export(void) { return 1; }\n")
    subprocess.run(["cc", "-shared", "-fPIC", "-o", lib, stub], check=True)
    subs["no_symbols"] = (f"{py} -c 'import sys; from triton._C import libtriton; libtriton.__file__ = \"{lib}\"; "
                          f"{main}'")
    return subs


def _gemm_ttgir(path: str) -> None:
    checkout.use_checkout_if_built()
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    from triton_mfma.compiler.compile import compile_kernel
    from triton_mfma.examples import CORPUS

    fn, sig, cx = CORPUS["gemm"]
    with open(path, "w") as f:
        f.write(compile_kernel(fn, sig, cx, "gfx942").asm["ttgir"])


def judge(kind: str, rc: int, out: str, err: str) -> str:
    """"" where the outcome is clean for its kind, else what is wrong."""
    lines = [ln for ln in err.splitlines() if ln.strip()]
    noise = [ln for ln in lines if "Traceback" in ln or "LLVM ERROR" in ln or "invalid for uint" in ln
             or "nanobind: leaked" in ln]
    if kind == "ok":
        if rc != 0:
            return f"rc {rc}"
        return f"noise: {noise[0][:80]}" if noise else ""
    if kind == "stock":  # the project off for this Triton build: Triton's own compile, exactly one warning
        return f"rc {rc}" if rc != 0 else "" if len(lines) == 1 and "stays off" in lines[0] else \
            f"{len(lines)} stderr lines"
    if kind == "tool-mistake":  # mlir-opt's conventions: nonzero status, LLVM's own lines, no crash
        return f"rc {rc}" if rc == 0 else (f"noise: {noise[0][:80]}" if noise else "")
    if rc != 2:
        return f"rc {rc}"
    if len(lines) != 1:
        return f"{len(lines)} stderr lines"
    if out.strip():
        return "work done before the error (stdout not empty)"
    return ""


def main() -> int:
    only = sys.argv[sys.argv.index("-k") + 1] if "-k" in sys.argv else None
    tmp = tempfile.mkdtemp(prefix="cli-mistakes-")
    ttgir = os.path.join(tmp, "matmul.ttgir")
    _gemm_ttgir(ttgir)
    py = shlex.quote(sys.executable)
    subs = {"tm": f"{py} -m triton_mfma.commands.cli",
            "mo": f"{py} -c 'from triton_mfma.commands.cli import mfma_opt; mfma_opt()'",
            "ttgir": ttgir, "tmp": tmp, **_other_tritons(tmp, py)}
    env = checkout.child_env(TRITON_DEFAULT_FP_FUSION="1")
    env.pop("TRITON_MFMA_REMARKS", None)
    import triton

    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    print(f"# PYTHONPATH=python python bench/cli_mistakes.py > bench/results/cli_mistakes.txt   (Triton "
          f"{triton.__version__}, {time.strftime('%Y-%m-%dT%H:%MZ', time.gmtime())}, at {head.strip() or '?'})")
    clean = 0
    cases = [(c, k) for c, k in CASES if only is None or only in c]
    for cmd, kind in cases:
        shown = cmd.format(tm="triton-mfma", mo="mfma-opt", ttgir="matmul.ttgir", tmp="$TMP", **SHOWN)
        t0 = time.time()
        p = subprocess.run(["bash", "-c", cmd.format(**subs)], cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=600)
        bad = judge(kind, p.returncode, p.stdout, p.stderr)
        clean += not bad
        err = next((ln for ln in p.stderr.splitlines() if ln.strip()), "")
        print(f"{'clean' if not bad else 'NOT CLEAN (' + bad + ')'} | {kind} | rc {p.returncode} | "
              f"{time.time() - t0:.1f}s | {shown}" + (f"\n    {err[:200]}" if err else ""), flush=True)
    print(f"\n{clean} of {len(cases)} invocations clean")
    return 0 if clean == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
