"""The command line and the user-facing helpers: one-line errors, Triton's AOT signature, opt, passes, --json,
--option, the plot, the examples, the supported Triton versions."""
import json
import os
import subprocess
import sys
import warnings

import pytest
import triton
from conftest import stock_kernel

import triton_mfma
from triton_mfma import MFMARemark
from triton_mfma.commands.cli import main as cli_main
from triton_mfma.compiler.compile import SignatureError, aot_signature, compile_kernel, target
from triton_mfma.examples import CORPUS
from triton_mfma.examples.kernels import matmul

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNELS_PY = os.path.join(os.path.dirname(triton_mfma.__file__), "examples", "kernels.py")
EXAMPLES = os.path.join(ROOT, "examples")
LIT_INPUT = os.path.join(ROOT, "test", "lit", "mfma-print-layouts.mlir")  # several modules: not one Triton parses
MATMUL_SIG = "*fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32,i32,i32,i32"
MATMUL_CX = ["--constexpr", "BLOCK_M=64", "--constexpr", "BLOCK_N=64", "--constexpr", "BLOCK_K=32"]
# Triton's AOT form of a launch on 16-byte-aligned fp16 tensors, sizes multiple of 16, unit inner strides
MATMUL_AOT = "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1,64,64,32"


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(triton_mfma.__path__[0])] +
                                        [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    env.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    env.pop("TRITON_CODEGEN_AMD", None)
    return env


def run_cli(*args, prelude: str = "", timeout: int = 600):
    """`triton-mfma ARGS` in a fresh interpreter (prelude: Python run first, e.g. to hide a module)."""
    code = f"import sys\n{prelude}\nfrom triton_mfma.commands.cli import main\nsys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=timeout,
                          env=_env())


def assert_user_error(r, *fragments):
    """Exit status 2, exactly one line on stderr, no traceback, the fragments in that line."""
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert len(lines) == 1, r.stderr
    assert "Traceback" not in r.stderr
    for f in fragments:
        assert f in lines[0], (f, lines[0])
    return lines[0]


# ---------------------------------------------------------------------------------------------------------
# one-line errors


@pytest.mark.parametrize("args,fragments", [
    (["report", f"{KERNELS_PY}:matmul", "--signature", "*int9," + MATMUL_SIG.split(",", 1)[1]] + MATMUL_CX,
     ["unknown type '*int9'", "fp16"]),
    (["report", f"{KERNELS_PY}:matmul", "--signature", "a_ptr=*fp16,b_ptr=*fp16"], ["no type or value", "c_ptr"]),
    (["report", f"{KERNELS_PY}:matmul", "--signature", "*fp16,*fp16"], ["2 entries", "15 arguments"]),
    (["report", f"{KERNELS_PY}:matmul", "--signature", MATMUL_SIG, "--passes", "mfma-bogus"] + MATMUL_CX,
     ["mfma-bogus"]),
    (["report", f"{KERNELS_PY}:matmul", "--signature", MATMUL_SIG, "--waves-per-eu", "fast"] + MATMUL_CX,
     ["--waves-per-eu", "'fast'"]),
    (["report", f"{KERNELS_PY}:matmul", "--signature", MATMUL_SIG, "--option", "bogus=1"] + MATMUL_CX, ["bogus"]),
    (["report", f"{KERNELS_PY}:matmul", "--signature", MATMUL_SIG, "--option", "lds_limit"] + MATMUL_CX,
     ["NAME=VALUE"]),
    (["report", f"{KERNELS_PY}:matmul", "--signature", MATMUL_SIG, "--arch", "cuda:90"] + MATMUL_CX,
     ["not an AMD target"]),
    (["report", f"{KERNELS_PY}:matmul", "--signature", "*fp16:8," + MATMUL_SIG.split(",", 1)[1]] + MATMUL_CX,
     [":8", "not 1 or 16"]),
    (["report", f"{KERNELS_PY}:nope", "--signature", "i32"], ["has no kernel 'nope'", "matmul"]),
    (["report", "nofile:kernel", "--signature", "i32"], ["expected FILE.py:KERNEL"]),
    (["report", "missing.py:kernel", "--signature", "i32"], ["no such file"]),
    (["demo", "--kernel", "nosuch"], ["no bundled kernel 'nosuch'", "gemm", "softmax"]),
    (["demo", "--passes", "mfma-bogus"], ["mfma-bogus", "mfma-accelerate-dot"]),
    (["demo", "--arch", "gfx1100"], ["unsupported arch 'gfx1100'"]),
    (["opt", "no-such-file.ttgir"], ["no such file"]),
    (["bogus-command"], ["unknown command 'bogus-command'"]),
    (["reprot"], ["did you mean 'report'?"]),
    (["--versoin"], ["'--versoin'", "did you mean '--version'?"]),
    (["demo", "--kernal", "gemm"], ["'--kernal'", "did you mean '--kernel'?"]),
    (["report", f"{KERNELS_PY}:matmul", "--signature", MATMUL_SIG, "--num-warps", "3"] + MATMUL_CX,
     ["--num-warps", "power of two", "'3'"]),
    (["report", f"{KERNELS_PY}:matmul", "--signature", MATMUL_SIG, "--num-warps", "32"] + MATMUL_CX,
     ["--num-warps", "1024 lanes"]),
    (["report", f"{KERNELS_PY}:matmul", "--signature", MATMUL_SIG, "--num-stages", "-1"] + MATMUL_CX,
     ["--num-stages", "non-negative"]),
    (["report", f"{KERNELS_PY}:matmul", "--signature", MATMUL_SIG, "--plot", "/nonexistent_dir/x.png"] + MATMUL_CX,
     ["no such directory /nonexistent_dir"]),
    (["report", f"{KERNELS_PY}:matmul", "--signature", MATMUL_SIG, "--plot", "x.txt"] + MATMUL_CX, [".png"]),
    (["report", f"{KERNELS_PY}:matmul", "--signature", MATMUL_SIG, "--passes", "mfma-grid-ordr"] + MATMUL_CX,
     ["did you mean 'mfma-grid-order'?"]),
    # opt: the arguments before the file (the project's lit input is not one module Triton parses)
    (["opt", LIT_INPUT, "--passes", "mfma-grid-ordr"], ["did you mean 'mfma-grid-order'?"]),
    (["opt", LIT_INPUT, "--pipeline", "mfma-grid-ordr"], ["did you mean 'mfma-grid-order'?"]),
    (["opt", LIT_INPUT, "--pipeline", "mfma-grid-order{mode=on"], ["unclosed '{'"]),
    (["opt", LIT_INPUT, "--pipeline", "mfma-grid-order{mode=bogus}"],
     ["mode must be auto, on or off"]),
    (["opt", LIT_INPUT, "--pipeline", "mfma-grid-order{group_size=4}"],
     ["no option 'group_size'", "did you mean 'group-size'?"]),
    (["opt", LIT_INPUT, "--pipeline", "mfma-stream-pipeline{num-stages=-1}"],
     ["num-stages='-1'", "unsigned"]),
    (["opt", LIT_INPUT, "--passes", "mfma-stream-pipeline", "--num-stages", "-1"],
     ["--num-stages", "non-negative"]),
])
def test_user_errors_are_one_line_with_status_2(args, fragments):
    line = assert_user_error(run_cli(*args), *fragments)
    assert "could not parse" not in line and "alloc shape" not in line


@pytest.mark.parametrize("name,value,fragment", [
    ("TRITON_MFMA_REMARKS", "bogus", "none, summary or all"),
    ("TRITON_MFMA_STRICT", "maybe", "0 or 1"),
    ("TRITON_MFMA_TRIAL_THREADS", "-3", "a positive integer"),
])
def test_environment_values_are_checked(name, value, fragment):
    env = dict(_env(), **{name: value})
    code = "import sys\nfrom triton_mfma.commands.cli import main\nsys.exit(main(sys.argv[1:]))"
    r = subprocess.run([sys.executable, "-c", code, "demo", "--kernel", "gemm"], capture_output=True, text=True,
                       env=env, timeout=600)
    assert_user_error(r, name, fragment)
    from triton_mfma.composition import remarks

    with pytest.MonkeyPatch.context() as mp, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mp.setenv(name, value)
        mp.setattr(remarks, "_ENV_WARNED", False)
        remarks.check_environment()
        remarks.check_environment()
    assert [str(w.message) for w in caught] == [f"triton-mfma: {name}={value!r} is not valid: expected "
                                                f"{remarks.ENVIRONMENT[name][0]}; using the default"]


def test_default_remark_is_one_short_line(tmp_path):
    """At the default verbosity a kernel's remark is one line of at most 160 characters (message), and the
    warning prints on one line; remarks='all' keeps the reasons."""
    from triton_mfma.composition import remarks

    code = ("import triton_mfma\nfrom triton_mfma.compiler.compile import compile_kernel\n"
            "from triton_mfma.examples import CORPUS\nfn, sig, cx = CORPUS['gemm']\n"
            "with triton_mfma.enabled():\n    compile_kernel(fn, sig, cx, 'gfx942')\n")
    env = {k: v for k, v in _env().items() if k != "TRITON_MFMA_REMARKS"}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "MFMARemark" in lines[0], r.stderr
    message = lines[0].split("MFMARemark: ", 1)[1]
    assert len(message) <= remarks.SUMMARY_WIDTH and "accelerate-dot" in message, message
    decisions = {"mfma-accelerate-dot": "kept: " + "x" * 300, "waves_per_eu auto": "waves_per_eu=auto chose 0 (...)"}
    assert len(remarks.PREFIX + " [k] " + remarks.short_summary("k", decisions)) <= remarks.SUMMARY_WIDTH


def test_mfma_opt_help_into_a_closed_pipe_is_quiet():
    code = "from triton_mfma.commands.cli import mfma_opt; mfma_opt()"
    r = subprocess.run(f"{sys.executable} -c '{code}' --help | head -2", shell=True, capture_output=True, text=True,
                       env=_env(), timeout=120)
    assert r.returncode == 0 and r.stderr == "" and r.stdout.startswith("OVERVIEW"), r.stderr


def test_triton_compilation_error_is_one_line():
    """A signature that type-checks but does not compile (a pointer where the kernel does integer arithmetic):
    Triton's CompilationError, reduced to one line with the kernel line."""
    r = run_cli("report", f"{KERNELS_PY}:matmul", "--signature", "*fp16,*fp16,*fp16,*fp16," + MATMUL_SIG.split(",", 4)[4],
                *MATMUL_CX)
    assert_user_error(r, "Triton could not compile the kernel", "kernel line")


def test_debug_shows_the_traceback():
    r = run_cli("report", f"{KERNELS_PY}:matmul", "--signature", "*int9," + MATMUL_SIG.split(",", 1)[1],
                *MATMUL_CX, "--debug")
    assert r.returncode != 0 and "Traceback" in r.stderr and "unknown type" in r.stderr


def test_plot_without_matplotlib_fails_before_compiling():
    """No matplotlib: one line naming it, and nothing compiled (compile_kernel would fail the test)."""
    prelude = ("sys.modules['matplotlib'] = None\n"
               "import triton_mfma.compiler.compile as c\n"
               "def _no(*a, **k): raise SystemExit('compiled before checking matplotlib')\n"
               "c.compile_kernel = _no")
    r = run_cli("report", f"{KERNELS_PY}:matmul", "--signature", MATMUL_SIG, *MATMUL_CX, "--plot", "x.png",
                prelude=prelude)
    assert_user_error(r, "--plot needs matplotlib")


def test_version():
    r = run_cli("--version")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"triton-mfma {triton_mfma.__version__}") and f"Triton {triton.__version__}" in r.stdout
    assert "MLIR 22.1.8" in r.stdout


def test_report_of_a_non_amd_kernel_says_so():
    fn, sig, cx = CORPUS["row_sum"]
    k = compile_kernel(fn, sig, cx, "cuda:90")
    with pytest.raises(ValueError, match=r"reads AMD amdgcn.*'row_sum' was compiled for cuda:90"):
        triton_mfma.report(k)


# ---------------------------------------------------------------------------------------------------------
# Triton's AOT signature: the kernel a launch compiles


class _FakeTensor:
    """What Triton's launcher reads from a tensor: dtype, data_ptr (16-byte aligned) and its range (< 2 GiB)."""

    def __init__(self, dtype):
        self.dtype = dtype

    def data_ptr(self):
        return 1 << 20

    def ptr_range(self):
        return 1 << 20


def _launch_specialization(fn, args, kwargs, arch="gfx942"):
    """(signature, constexprs by name, attrs) that a launch of `fn` on `args` would compile, from Triton's own
    binder (no GPU)."""
    from triton.compiler import make_backend
    from triton.runtime.jit import create_function_from_signature

    backend = make_backend(target(arch))
    binder = create_function_from_signature(fn.signature, fn.params, backend)
    bound, specialization, options = binder(*args, **kwargs)
    _, sig, cx, attrs = fn._pack_args(backend, kwargs, bound, specialization, options)
    return sig, {fn.arg_names[k[0]]: v for k, v in cx.items()}, attrs


def test_aot_signature_is_what_a_launch_compiles():
    tl = triton.language
    args = [_FakeTensor(tl.float16)] * 3 + [1024, 512, 256, 256, 1, 512, 1, 512, 1]
    launch = _launch_specialization(matmul, args, dict(BLOCK_M=64, BLOCK_N=64, BLOCK_K=32))
    assert aot_signature(matmul, MATMUL_AOT) == launch
    # the short forms give the same
    short = MATMUL_AOT.rsplit(",", 3)[0]
    assert aot_signature(matmul, short, {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}) == launch
    named = ",".join(f"{n}={e}" for n, e in zip(matmul.arg_names, MATMUL_AOT.split(",")))
    assert aot_signature(matmul, named) == launch


def test_aot_signature_of_the_pytorch_example_kernel():
    sys.path.insert(0, EXAMPLES)
    try:
        from matmul_bias_gelu import matmul_bias_gelu
    finally:
        sys.path.remove(EXAMPLES)
    tl = triton.language
    args = [_FakeTensor(tl.float16)] * 4 + [4096, 4096, 4000, 4000, 1, 4096, 1, 4096, 1]
    meta = dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=32, GROUP_M=8)
    launch = _launch_specialization(matmul_bias_gelu, args, meta)
    spec = "*fp16:16,*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:1,i32:16,i32:1"
    assert aot_signature(matmul_bias_gelu, spec, meta) == launch
    sig, cx, attrs = launch  # what the example launches compiles (wide buffer loads: aligned, under 2 GiB)
    k = compile_kernel(matmul_bias_gelu, sig, cx, "gfx942", None, attrs)
    assert "buffer_load_dwordx4" in k.asm["amdgcn"]


def test_aot_hints_change_the_compiled_kernel():
    """Without the hints the report compiled another kernel than a launch (narrower loads)."""
    def report(spec, cx=None, **kw):
        sig, constexprs, attrs = aot_signature(matmul, spec, cx, **kw)
        return triton_mfma.report(compile_kernel(matmul, sig, constexprs, "gfx942", None, attrs))

    plain = report(MATMUL_SIG, {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}, large_tensors=True)
    hinted = report(MATMUL_AOT)
    assert hinted.res.global_loads != plain.res.global_loads
    assert "buffer_load_dwordx4" in hinted.res.global_loads


def test_aot_signature_errors():
    with pytest.raises(SignatureError, match="tl.constexpr: give it a value"):
        aot_signature(matmul, MATMUL_AOT.rsplit(",", 1)[0] + ",i32")
    with pytest.raises(SignatureError, match="applies to integers"):
        aot_signature(matmul, "*fp16:1" + MATMUL_AOT[len("*fp16:16"):])
    with pytest.raises(SignatureError, match="both in --signature and as --constexpr"):
        aot_signature(matmul, "BLOCK_M=64", {"BLOCK_M": 64})
    with pytest.raises(SignatureError, match="mixes"):
        aot_signature(matmul, "a_ptr=*fp16,*fp16")
    # Triton's dtype aliases are accepted, as the launcher accepts them
    assert aot_signature(matmul, MATMUL_AOT.replace("*fp16", "*float16"))[0]["a_ptr"] == "*fp16"


# ---------------------------------------------------------------------------------------------------------
# report / demo / passes output


def test_report_json_with_aot_signature_and_option(capsys):
    rc = cli_main(["report", f"{KERNELS_PY}:matmul", "--arch", "gfx942", "--signature", MATMUL_AOT, "--compare",
                   "--passes", "mfma-accelerate-dot", "--option", "verify_dot=false", "--json"])
    assert rc == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["config"]["passes"] == ["mfma-accelerate-dot"] and doc["config"]["verify_dot"] is False
    assert doc["config"]["constexprs"]["BLOCK_M"] == 64 and doc["config"]["constexprs"]["stride_ak"] == 1
    for build in ("stock", "triton-mfma"):
        r = doc[build]
        assert r["arch"] == "gfx942" and r["resources"]["mfma_count"] > 0
        assert any(k.startswith("buffer_load_dwordx") for k in r["resources"]["global_loads"])
        assert r["occupancy"]["waves_per_simd"] >= 1
    assert doc["triton-mfma"]["accelerate_dot"]["decision"] == "unverified"  # verify_dot=false reached it


def test_report_help_lists_the_aot_syntax():
    from triton_mfma.composition import passes

    r = run_cli("report", "--help")
    assert r.returncode == 0 and "*fp16:16" in r.stdout and "i32:1" in r.stdout
    flat = " ".join(r.stdout.split())
    assert all(name in flat for name in passes.REGISTRY), "report --help lists the passes"


def test_passes_command_lists_passes_points_options_and_defaults():
    from triton_mfma.composition import passes

    r = run_cli("passes")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    for name, p in passes.REGISTRY.items():
        assert f"\n{name}" in out and p.point in out
        for opt in p.options:
            assert f"option {opt.name}" in out, opt.name
    for point in passes.POINTS:
        assert f"  {point} " in out
    for name in passes.DEFAULT_PASSES:
        assert f"\n{name}  [default]" in out
    assert "option lds_limit (pass option lds-limit): int in [0, 1048576] | 'occupancy'" in out
    assert "option grid_group_size (pass option group-size): int in [0, 1024]; default 8" in out
    doc = json.loads(run_cli("passes", "--json").stdout)
    assert doc["default_passes"] == list(passes.DEFAULT_PASSES)
    grid = next(p for p in doc["passes"] if p["name"] == "mfma-grid-order")
    assert {o["name"]: o["default"] for o in grid["options"]}["grid_order"] == "auto"


def test_demo_json_and_string_arguments():
    """`demo` takes a string or a list for kernels and passes (a string is not iterated character by character);
    --json gives every figure; the footer mentions the verification only when it ran."""
    import io

    from triton_mfma.commands.cli import demo

    out = io.StringIO()
    assert demo("gfx942", "masked_relu", out=out, passes_="mfma-print-layouts") == 0
    text = out.getvalue()
    assert "['mfma-print-layouts']" in text and "verification" not in text
    out = io.StringIO()
    assert demo("gfx942", ["masked_relu"], out=out, passes_=["mfma-print-layouts"], as_json=True) == 0
    doc = json.loads(out.getvalue())
    assert doc["passes"] == ["mfma-print-layouts"] and doc["triton"] == triton.__version__
    (k,) = doc["kernels"]
    assert k["kernel"] == "masked_relu" and k["identical_amdgcn"] is True
    assert k["stock"]["vgpr"] == k["triton-mfma"]["vgpr"] > 0 and doc["showcase"] == []


# ---------------------------------------------------------------------------------------------------------
# opt: Triton's own textual IR through our passes


def test_opt_reads_triton_pretty_ir_and_prints_it_back(tmp_path):
    k = stock_kernel("gemm", "gfx942")
    src = tmp_path / "gemm.ttgir"
    src.write_text(k.asm["ttgir"])
    r = run_cli("opt", str(src), "--passes", "mfma-lds-usage")
    assert r.returncode == 0, r.stderr
    assert "remark: LDS total" in r.stderr
    out = r.stdout
    assert "tt.func public @matmul" in out and "#ttg.amd_mfma" in out and '"tt.func"' not in out
    # stable: what it prints reads back and prints the same
    again = tmp_path / "again.ttgir"
    again.write_text(out)
    r2 = run_cli("opt", str(again))
    assert r2.returncode == 0 and r2.stdout == out
    # TTIR too, and without locations
    ttir = tmp_path / "gemm.ttir"
    ttir.write_text(k.asm["ttir"])
    r3 = run_cli("opt", str(ttir), "--no-locations", "-q")
    assert r3.returncode == 0 and "tt.dot" in r3.stdout and "loc(" not in r3.stdout


def test_opt_runs_a_transforming_pass_with_options(tmp_path):
    fn, sig, _ = CORPUS["splitk_gemm"]
    k = compile_kernel(fn, sig, dict(BLOCK_M=256, BLOCK_N=128, BLOCK_K=32, SPLIT_K=4), "gfx942")
    src = tmp_path / "splitk.ttgir"
    src.write_text(k.asm["ttgir"])
    before = k.asm["ttgir"].count("ttg.convert_layout")
    r = run_cli("opt", str(src), "--passes", "mfma-split-epilogue-cvt", "--option", "lds_limit=32768", "-q")
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("ttg.convert_layout") > before
    r = run_cli("opt", str(src), "--pipeline", "mfma-grid-order{mode=sideways}")
    assert_user_error(r, "mode must be auto, on or off")
    bad = tmp_path / "bad.ttgir"
    bad.write_text("module { garbage }")
    assert_user_error(run_cli("opt", str(bad)), "could not parse", "bad.ttgir")
    r = run_cli("opt", str(src), "--passes", "mfma-split-epilogue-cvt", "--option", "lds_limit=occupancy")
    assert_user_error(r, "occupancy")


def test_opt_prints_a_dump_in_triton_form(tmp_path):
    """TRITON_MFMA_DUMP writes generic MLIR; `triton-mfma opt` prints any of those files as Triton prints IR."""
    fn, sig, cx = CORPUS["softmax"]
    with warnings.catch_warnings(), triton_mfma.enabled(passes=["mfma-print-layouts"], dump=str(tmp_path)):
        warnings.simplefilter("ignore", MFMARemark)
        compile_kernel(fn, sig, cx, "gfx942")
    dumps = sorted(p for p in tmp_path.rglob("*.mlir"))
    assert dumps and '"tt.func"' in dumps[-1].read_text()
    r = run_cli("opt", str(dumps[-1]))
    assert r.returncode == 0, r.stderr
    assert "tt.func public @softmax" in r.stdout and "#ttg.blocked" in r.stdout


def test_opt_reads_mlir_enable_dump_output(tmp_path):
    """MLIR_ENABLE_DUMP=1 prints a module before each of Triton's passes; opt takes one of them."""
    code = ("from triton_mfma.compiler.compile import compile_kernel\nfrom triton_mfma.examples import CORPUS\n"
            "fn, sig, cx = CORPUS['gemm']\ncompile_kernel(fn, sig, cx, 'gfx942')")
    env = {**_env(), "MLIR_ENABLE_DUMP": "1", "TRITON_ALWAYS_COMPILE": "1"}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 0 and "// -----// IR Dump Before" in r.stderr
    dump = tmp_path / "dump.txt"
    dump.write_text(r.stderr)
    # before Triton's accelerate_matmul: blocked layouts only; ours picks the MFMA layout
    r = run_cli("opt", str(dump), "--dump-pass", "TritonAMDGPUAccelerateMatmul", "--passes", "mfma-accelerate-dot",
                "--option", "matrix_instr_nonkdim=16")
    assert r.returncode == 0, r.stderr
    assert "note: module" in r.stderr and "TritonAMDGPUAccelerateMatmul" in r.stderr.splitlines()[0]
    assert "#ttg.amd_mfma" in r.stdout and "instrShape = [16, 16" in r.stdout
    # default: the last module still in Triton IR
    r = run_cli("opt", str(dump), "-q")
    assert r.returncode == 0 and "tt.func public @matmul" in r.stdout and "ttg.shared" in r.stdout
    assert_user_error(run_cli("opt", str(dump), "--dump-pass", "NoSuchPass"), "NoSuchPass", "TritonGPUCoalesce")


def test_readme_no_gpu_recipe_runs(tmp_path):
    """The README's "Compiling without a GPU" block, on a small kernel."""
    readme = open(os.path.join(ROOT, "README.md")).read()
    section = readme[readme.index("## Compiling without a GPU"):]
    block = section[section.index("```python") + len("```python"):section.index("```", section.index("```python") + 9)]
    kernel = ("import triton, triton.language as tl\n"
              "@triton.jit\n"
              "def my_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n"
              "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
              "    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)\n")
    script = tmp_path / "recipe.py"
    script.write_text(kernel + block)
    r = _run_example(str(script))
    assert r.returncode == 0, r.stderr
    assert "my_kernel (gfx942, 4 warps" in r.stdout


# ---------------------------------------------------------------------------------------------------------
# plot


def test_plot_says_which_direction_is_better(tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from triton_mfma.commands import cli

    figs = []
    monkeypatch.setattr(plt, "close", lambda fig=None: figs.append(fig))
    rep = triton_mfma.report(stock_kernel("gemm", "gfx942"))
    png = tmp_path / "p.png"
    cli.plot([("stock", rep), ("triton-mfma", rep)], str(png),
             {"kernel": "matmul", "arch": "gfx942", "num_warps": 4, "passes": ["mfma-accelerate-dot"],
              "constexprs": {"BLOCK_M": 128}})
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    (fig,) = figs
    titles = [ax.get_title() for ax in fig.axes]
    assert len(titles) == len(cli.PLOT_METRICS) and all("is better" in t for t in titles)
    title = fig._suptitle.get_text()
    assert "gfx942" in title and "num_warps=4" in title and "mfma-accelerate-dot" in title and "BLOCK_M=128" in title
    colours = {tuple(round(c, 2) for c in bar.get_facecolor()[:3]) for ax in fig.axes for bar in ax.patches}
    assert all(not (r > 0.6 and g < 0.4 and b < 0.4) for r, g, b in colours)  # no red
    plt.close(fig)


# ---------------------------------------------------------------------------------------------------------
# examples and versions


def _run_example(*args):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=600, env=_env(),
                          cwd=ROOT)


def test_example_compile_without_gpu():
    r = _run_example(os.path.join(EXAMPLES, "compile_without_gpu.py"), "gfx942")
    assert r.returncode == 0, r.stderr
    assert "hsaco:" in r.stdout and "matmul_bias_gelu (gfx942" in r.stdout and "buffer_load_dwordx" in r.stdout


def test_example_autotune_without_gpu():
    r = _run_example(os.path.join(EXAMPLES, "autotune.py"), "--no-gpu")
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("waves_per_eu=auto chose") == 2


def test_example_pytorch_without_an_amd_gpu_says_so():
    r = _run_example(os.path.join(EXAMPLES, "matmul_bias_gelu.py"))
    assert r.returncode == 0, r.stderr
    assert "AMD GPU" in r.stdout or "result matches torch" in r.stdout


def test_supported_triton_versions():
    """A version string only refuses a Triton older than 3.8: a newer one is judged by its make_ttgir."""
    from triton_mfma.composition import make_ttgir

    assert make_ttgir.TRITON_VERSION >= make_ttgir.MIN_TRITON
    assert make_ttgir.check_triton_version("3.8.0") == (3, 8)
    assert make_ttgir.check_triton_version("3.9.1+git0123abcd") == (3, 9)
    assert make_ttgir.check_triton_version("3.10.0") == (3, 10)
    for v in ("3.7.1", "2.3.1"):
        with pytest.raises(make_ttgir.UnsupportedTritonError, match="needs Triton 3.8 or newer"):
            make_ttgir.check_triton_version(v)


# ---------------------------------------------------------------------------------------------------------
# No Triton, a Triton that cannot import, one too old, one without what the bridge calls

# name -> (the fake package's __init__.py, what the one line must say)
FAKE_TRITONS = {
    "too-old": ('__version__ = "2.1.0"\n', ["Triton 2.1.0 (", "too old", "needs Triton 3.8 or newer"]),
    "cannot-import": ("from .knobs import knobs  # no such module in this build\n",
                      ["cannot be imported", "No module named 'triton.knobs'", "needs Triton 3.8 or newer"]),
    "needs-torch": ('import sys\nsys.modules["torch"] = None  # torch missing, whatever this machine has\n'
                    'import torch\n__version__ = "3.9.0"\n',
                    ["cannot be imported", "torch", "this Triton needs torch: install it"]),
}
TRITON_COMMANDS = [["demo", "--kernel", "gemm"], ["report", f"{KERNELS_PY}:matmul", "--signature", MATMUL_SIG],
                   ["opt", LIT_INPUT]]


def _with_fake_triton(tmp_path, name):
    (tmp_path / "triton").mkdir()
    (tmp_path / "triton" / "__init__.py").write_text(FAKE_TRITONS[name][0])
    env = _env()
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env["PYTHONPATH"]])
    return env


@pytest.mark.parametrize("name", FAKE_TRITONS)
def test_an_unusable_triton_is_one_line_with_status_2(tmp_path, name):
    env, fragments = _with_fake_triton(tmp_path, name), FAKE_TRITONS[name][1]
    for command in TRITON_COMMANDS:
        r = subprocess.run([sys.executable, "-m", "triton_mfma.commands.cli", *command], capture_output=True, text=True,
                           env=env, timeout=600)
        line = assert_user_error(r, f"triton-mfma {command[0]}: error:", str(tmp_path / "triton"), *fragments)
        assert r.stdout == "", line
    r = subprocess.run([sys.executable, "-m", "triton_mfma.commands.cli", "--version"], capture_output=True, text=True,
                       env=env, timeout=600)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert "unsupported (" in r.stdout and all(f in r.stdout for f in fragments), r.stdout
    r = subprocess.run([sys.executable, "-m", "triton_mfma.commands.cli", "passes"], capture_output=True, text=True,
                       env=env, timeout=600)
    assert r.returncode == 0, r.stderr  # needs no Triton


def test_no_triton_is_one_line_with_status_2():
    prelude = "sys.modules['triton'] = None  # no Triton installed"
    for command in TRITON_COMMANDS:
        assert_user_error(run_cli(*command, prelude=prelude), f"triton-mfma {command[0]}: error: no Triton:",
                          "needs Triton 3.8 or newer", "pip install 'triton>=3.8'")
    r = run_cli("--version", prelude=prelude)
    assert r.returncode == 0 and "no Triton: unsupported (no module 'triton'" in r.stdout, r.stdout


def test_version_says_supported_and_the_minimum_is_pipelines():
    from triton_mfma.commands import cli_checks
    from triton_mfma.composition import make_ttgir

    assert cli_checks.MIN_TRITON == make_ttgir.MIN_TRITON
    r = run_cli("--version")
    assert f"Triton {triton.__version__} ({os.path.dirname(triton.__file__)}): supported" in r.stdout, r.stdout


def test_a_build_without_the_bridges_symbols_demo_is_stock_with_one_warning(tmp_path):
    """fbtriton 3.8.0rc3's libtriton exports one symbol: demo compiles stock Triton's kernels (exit 0, one
    warning), --version says unsupported and why."""
    (tmp_path / "stub.c").write_text("int tmfma_the_only_export(void) { return 1; }\n")
    lib = tmp_path / "libtriton.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(lib), str(tmp_path / "stub.c")], check=True)
    prelude = f"from triton._C import libtriton\nlibtriton.__file__ = {str(lib)!r}"
    not_strict = "\nimport os\nos.environ['TRITON_MFMA_STRICT'] = '0'  # strict would raise TritonBuildError"
    r = run_cli("demo", "--kernel", "gemm,softmax", prelude=prelude + not_strict)
    assert r.returncode == 0, r.stderr
    warned = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(warned) == 1 and "MFMAWarning" in warned[0] and str(lib) in warned[0], r.stderr
    assert "both builds are stock Triton's" in r.stdout and "Traceback" not in r.stderr
    r = run_cli("--version", prelude=prelude)
    assert f"unsupported (its libtriton ({lib}) lacks LLVMParseCommandLineOptions" in r.stdout, r.stdout
