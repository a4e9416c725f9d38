"""Reliability (issue 37): a fallback is never cached as our result and names its cause; `opt` survives what
Triton's parser does not; options are checked alike in every driver; Ctrl-C in a compile with trial threads
exits promptly and leaves nothing in Triton's cache; a fixed sample of the `opt` fuzz (bench/opt_fuzz.py)."""
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest
import triton
from triton import knobs
from triton.runtime.cache import FileCacheManager

import triton_mfma
from triton_mfma import MFMAWarning
from triton_mfma.compiler import hook
from triton_mfma.commands.cli import CliError, parse_triton_ir
from triton_mfma.compiler.compile import compile_kernel
from triton_mfma.examples import CORPUS

ROOT = Path(__file__).resolve().parents[2]
PY = os.path.dirname(os.path.dirname(os.path.abspath(triton_mfma.__file__)))  # the package these tests import


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if k != "TRITON_CODEGEN_AMD"}
    env["PYTHONPATH"] = os.pathsep.join([PY] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    env.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    env.update(extra)
    return env


def run_cli(*args, **env):
    return subprocess.run([sys.executable, "-m", "triton_mfma.commands.cli", *args], capture_output=True, text=True,
                          timeout=600, env=_env(**env))


def assert_one_line_error(r, *fragments):
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert len(lines) == 1, r.stderr
    for f in fragments:
        assert f in lines[0], (f, lines[0])
    return lines[0]


@pytest.fixture
def disk_cache(tmp_path, monkeypatch):
    """Triton's on-disk cache as users have it: on, in a directory of this test's."""
    monkeypatch.setattr(knobs.compilation, "always_compile", False)
    monkeypatch.setattr(knobs.cache, "dir", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _groups(cache: Path) -> list[Path]:
    return sorted(cache.rglob("__grp__*"))


# ---------------------------------------------------------------------------------------------------------
# A fallback is not cached under our key


def test_a_fallback_is_not_cached_and_names_its_cause(disk_cache, tmp_path, monkeypatch):
    monkeypatch.setenv("TRITON_MFMA_STRICT", "0")
    fn, sig, cx = CORPUS["gemm"]
    not_a_dir = tmp_path / "a-file"
    not_a_dir.write_text("")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with triton_mfma.enabled(passes=["mfma-accelerate-dot"], dump=str(not_a_dir)):
            first = compile_kernel(fn, sig, cx, "gfx942")
    fallbacks = [str(w.message) for w in seen if issubclass(w.category, MFMAWarning)]
    assert len(fallbacks) == 1, fallbacks
    assert "cannot write the dump directory" in fallbacks[0] and str(not_a_dir) in fallbacks[0]
    assert "mfma-accelerate-dot failed" not in fallbacks[0]  # the cause named, not the pass
    assert "cannot write the dump directory" in first.metadata.triton_mfma_fallback
    assert _groups(disk_cache) == []  # nothing a lookup under this key would find

    # the cause gone: the same key (dump is a policy option, not in it) compiles ours, and caches it
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with triton_mfma.enabled(passes=["mfma-accelerate-dot"]):
            second = compile_kernel(fn, sig, cx, "gfx942")
    assert second.hash == first.hash
    assert not [w for w in seen if issubclass(w.category, MFMAWarning)]
    assert not hasattr(second.metadata, "triton_mfma_fallback")
    assert "mfma-accelerate-dot" in second.metadata.triton_mfma
    assert len(_groups(disk_cache)) == 1
    with triton_mfma.enabled(passes=["mfma-accelerate-dot"]):  # now a cache hit: ours
        third = compile_kernel(fn, sig, cx, "gfx942")
    assert third.asm["amdgcn"] == second.asm["amdgcn"] and not hasattr(third.metadata, "triton_mfma_fallback")

    monkeypatch.setenv("TRITON_MFMA_STRICT", "1")  # strict (in the key: compiled afresh): the cause is the error
    with pytest.raises(Exception, match="cannot write the dump directory"):
        with triton_mfma.enabled(passes=["mfma-accelerate-dot"], dump=str(not_a_dir)):
            compile_kernel(fn, sig, cx, "gfx942")


# ---------------------------------------------------------------------------------------------------------
# A Triton build lacking what the bridge calls: the project stays off, every compile is stock Triton's


@pytest.fixture
def symbol_less_libtriton(tmp_path, monkeypatch):
    """The installed Triton's libtriton as a build made without exported symbols shows it (fbtriton 3.8.0rc3's
    exports one): a real shared library, compiled here, holding none of the symbols the bridge calls."""
    c = tmp_path / "stub.c"
    c.write_text("int tmfma_the_only_export(void) { return 1; }\n")
    lib = tmp_path / "libtriton.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(lib), str(c)], check=True, capture_output=True)
    from triton._C import libtriton

    monkeypatch.setattr(libtriton, "__file__", str(lib))
    monkeypatch.setenv("TRITON_MFMA_STRICT", "0")
    return str(lib)


def test_a_build_without_the_bridges_symbols_compiles_stock_with_one_warning(symbol_less_libtriton, monkeypatch):
    from conftest import assert_same_as_stock

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with triton_mfma.enabled():
            kernels = {name: compile_kernel(*CORPUS[name], "gfx942") for name in ("gemm", "softmax")}
    warned = [str(w.message) for w in seen if issubclass(w.category, MFMAWarning)]
    assert len(warned) == 1, warned  # one per build, not one per compile
    for part in (f"Triton {triton.__version__}", symbol_less_libtriton, "LLVMParseCommandLineOptions",
                 "registerAsmPrinterCLOptions", "stays off"):
        assert part in warned[0], (part, warned[0])
    for name, k in kernels.items():
        assert not any(key.startswith("triton_mfma") for key in k.metadata._asdict()), name
    assert_same_as_stock(kernels["gemm"], "gemm", "gfx942")

    from triton_mfma.ir.bridge import TritonBuildError

    monkeypatch.setenv("TRITON_MFMA_STRICT", "1")  # strict: our error, naming the build, not AttributeError
    with pytest.raises(TritonBuildError, match="LLVMParseCommandLineOptions") as err:
        with triton_mfma.enabled():
            compile_kernel(*CORPUS["gemm"], "gfx942")
    assert err.value.library == symbol_less_libtriton and err.value.version == triton.__version__


def test_the_demo_on_a_build_without_the_bridges_symbols_says_both_columns_are_stock(symbol_less_libtriton):
    """On such a build the demo's header says the project is off and the columns are stock Triton's, and claims no
    passes ran; the figures of both columns are equal."""
    import io

    from triton_mfma.commands.cli import demo

    out = io.StringIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MFMAWarning)
        rc = demo("gfx942", names=["softmax"], out=out, showcase=False)
    text = out.getvalue()
    assert rc == 0 and "triton-mfma is off for this Triton build" in text and "extended =" not in text, text
    figures = [line.split()[-7:-1] for line in text.splitlines()  # VGPR .. MFMA of each table row (not the time)
               if len(line.split()) >= 8 and all(t.replace(".", "").isdigit() for t in line.split()[-7:])]
    assert len(figures) == 2 and figures[0] == figures[1], text


def test_a_failure_before_our_guard_was_inside_it(monkeypatch):
    """Every call of ours in a compile falls back to stock: the stages' setup and the first print of the module."""
    from conftest import assert_same_as_stock

    from triton_mfma.compiler import stages

    monkeypatch.setenv("TRITON_MFMA_STRICT", "0")

    def no_print(module):
        raise AttributeError("undefined symbol: LLVMParseCommandLineOptions")

    def no_setup(*args):
        raise KeyError("stage")

    for target, attr, broken, cause in ((stages, "export_generic", no_print, "undefined symbol"),
                                        (stages, "wrap_stages", no_setup, "setting up the stages: KeyError")):
        with monkeypatch.context() as mp, warnings.catch_warnings(record=True) as seen:
            mp.setattr(target, attr, broken)
            warnings.simplefilter("always")
            with triton_mfma.enabled():
                k = compile_kernel(*CORPUS["gemm"], "gfx942")
            warned = [str(w.message) for w in seen if issubclass(w.category, MFMAWarning)]
            assert len(warned) == 1 and cause in warned[0], warned
            assert cause in k.metadata.triton_mfma_fallback  # kept out of Triton's cache
            assert_same_as_stock(k, "gemm", "gfx942")
            mp.setenv("TRITON_MFMA_STRICT", "1")
            with pytest.raises((AttributeError, KeyError)):
                with triton_mfma.enabled():
                    compile_kernel(*CORPUS["gemm"], "gfx942")


class _UsersCache(FileCacheManager):
    groups = 0

    def put_group(self, filename, group):
        type(self).groups += 1
        return super().put_group(filename, group)


def test_the_cache_manager_of_the_user_is_wrapped_and_put_back(disk_cache, monkeypatch):
    monkeypatch.delattr(knobs.cache, "manager_class", raising=False)
    with triton_mfma.enabled(passes=["mfma-hip-num-programs"]):
        assert knobs.cache.manager_class is hook.FallbackFreeCache
    assert "manager_class" not in knobs.cache.__dict__  # unset again: the environment's or Triton's default
    knobs.cache.manager_class = _UsersCache
    try:
        with triton_mfma.enabled(passes=["mfma-hip-num-programs"]):
            assert hook.FallbackFreeCache.inner_class is _UsersCache
            fn, sig, cx = CORPUS["softmax"]
            compile_kernel(fn, sig, cx, "gfx942")
        assert _UsersCache.groups == 1  # the user's manager wrote the entry
        assert knobs.cache.manager_class is _UsersCache
    finally:
        del knobs.cache.manager_class


# ---------------------------------------------------------------------------------------------------------
# Options: the same checks in every driver


@pytest.mark.parametrize("value", [123, b"/tmp/x", True, 1.5])
def test_dump_is_checked_by_type(value):
    with pytest.raises(ValueError, match=r"triton-mfma option dump=.* is not allowed; allowed: a directory path"):
        with triton_mfma.enabled(dump=value):
            pass
    with pytest.raises(ValueError, match="option dump="):
        triton_mfma.enable(dump=value)


def test_options_are_checked_alike_by_the_command_line(tmp_path):
    k = compile_kernel(*CORPUS["softmax"], "gfx942")
    src = tmp_path / "softmax.ttgir"
    src.write_text(k.asm["ttgir"])
    kernel = f"{os.path.join(PY, 'triton_mfma', 'examples', 'kernels.py')}:matmul"
    matmul = ["--signature", "*fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32,i32,i32,i32", "--constexpr", "BLOCK_M=64",
              "--constexpr", "BLOCK_N=64", "--constexpr", "BLOCK_K=32"]
    for args in (["opt", str(src), "--passes", "mfma-lds-usage", "--option", "dump=123"],
                 ["report", kernel, "--arch", "gfx942", *matmul, "--option", "dump=123"],
                 ["demo", "--arch", "gfx942", "--kernel", "softmax", "--option", "dump=123"]):
        assert_one_line_error(run_cli(*args), "option dump=123 is not allowed")
    r = run_cli("opt", str(src), "--passes", "mfma-split-epilogue-cvt", "--option", "lds_limit=-1")
    assert_one_line_error(r, "lds_limit=-1")
    # a pipeline given as text reaches mfma-opt's own option check, whatever the target attribute says
    bad_target = tmp_path / "bad-target.ttgir"
    bad_target.write_text(k.asm["ttgir"].replace('ttg.target = "hip:gfx942"', 'ttg.target = "hip:gfx9x9"'))
    assert bad_target.read_text() != k.asm["ttgir"]
    r = run_cli("opt", str(bad_target), "--pipeline", "mfma-split-epilogue-cvt{lds-limit=-1}")
    assert_one_line_error(r, "lds-limit must be >= 0, not -1")


# ---------------------------------------------------------------------------------------------------------
# opt survives what Triton's parser does not

CRASHERS = {
    # a slice layout without its dim (Triton 3.8 and 3.9: SIGSEGV)
    "slice_without_dim": """#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @slice_without_dim() {
    %0 = arith.constant dense<0.000000e+00> : tensor<128xf32, #ttg.slice<{parent = #mma}>>
    tt.return
  }
}
""",
    # linear-layout bases of another rank than the tensor's (Triton 3.8 and 3.9: an assertion, SIGABRT)
    "linear_bases_of_another_rank": """module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @linear_bases_of_another_rank() {
    %0 = arith.constant dense<0.000000e+00> : tensor<64xf32, #ttg.linear<{register = [[0, -1], [65536, 65, -1]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]], warp = [[0, 2], [0, 4]], block = []}>>
    tt.return
  }
}
""",
}

_RAW_PARSE = ("import sys\nfrom triton._C.libtriton import amd, ir, nvidia\nctx = ir.context()\n"
              "ir.load_dialects(ctx); amd.load_dialects(ctx); nvidia.load_dialects(ctx)\n"
              "ir.parse_mlir_module(sys.argv[1], ctx)\n")


@pytest.mark.parametrize("name", sorted(CRASHERS))
def test_opt_survives_a_crash_of_tritons_parser(name, tmp_path):
    src = tmp_path / f"{name}.ttgir"
    src.write_text(CRASHERS[name])
    raw = subprocess.run([sys.executable, "-c", _RAW_PARSE, str(src)], capture_output=True, env=_env())
    assert raw.returncode < 0, "the input no longer crashes Triton's parser: find another for this test"
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    for extra in ([], ["--passes", "mfma-lds-usage"], ["--generic"]):
        line = assert_one_line_error(run_cli("opt", str(src), *extra, TMPDIR=str(tmp)), "Triton's parser crashed",
                                     str(src))
        assert signal.Signals(-raw.returncode).name in line
        assert not list(tmp.iterdir()), "the crashed parse left its temporary files behind"
    # the same parse as a library call: the caller's process survives it
    with pytest.raises(CliError, match="Triton's parser crashed"):
        parse_triton_ir(str(src), display_name=src.name, precheck=True)


# ---------------------------------------------------------------------------------------------------------
# Ctrl-C in a compile with trial threads running

_INTERRUPTED_COMPILE = """
import json, os, sys, threading
import triton_mfma
from triton_mfma.compiler.compile import compile_kernel
from triton_mfma.examples import CORPUS
triton_mfma.enable()
print(len(os.listdir("/proc/self/task")), flush=True)
try:
    for name in ("gemm", "attn_fwd_d64", "splitk_gemm"):
        compile_kernel(*CORPUS[name], "gfx942")
    print("finished", flush=True)
except KeyboardInterrupt:
    print(json.dumps([t.name for t in threading.enumerate() if t is not threading.main_thread()]), flush=True)
    sys.exit(130)
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="reads a process's threads from /proc")
@pytest.mark.parametrize("delay", [0.0, 0.3])  # as the first trial thread starts (inside its submit), and later
def test_ctrl_c_during_trial_compiles_exits_promptly_and_leaves_no_cache_entry(tmp_path, delay):
    cache = tmp_path / "cache"
    p = subprocess.Popen([sys.executable, "-c", _INTERRUPTED_COMPILE], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=_env(TRITON_CACHE_DIR=str(cache), TRITON_MFMA_TRIAL_THREADS="2"))
    try:
        threads_at_start = int(p.stdout.readline())
        deadline = time.monotonic() + 300
        while len(os.listdir(f"/proc/{p.pid}/task")) <= threads_at_start:  # until a trial thread runs
            assert p.poll() is None and time.monotonic() < deadline, p.stderr.read()
            time.sleep(0.002)
        time.sleep(delay)
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
        took = time.monotonic() - sent
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 130, (p.returncode, out, err)
    assert "finished" not in out
    # what runs on after the interrupt is at most the trial pool's idle workers, which the exit joins
    assert all(name.startswith("triton-mfma") for name in json.loads(out.splitlines()[-1])), out
    assert took < 3.0, f"exited {took:.2f} s after SIGINT"
    files = [f for f in cache.rglob("*") if f.is_file()] if cache.exists() else []
    grouped = set()
    for g in _groups(cache):
        grouped |= {Path(c) for c in json.loads(g.read_text())["child_paths"].values()} | {g}
    assert [f for f in files if f not in grouped] == [], "files of the interrupted compile are left in the cache"
    assert not cache.exists() or not list(cache.rglob("tmp.pid_*"))


# ---------------------------------------------------------------------------------------------------------
# A fixed sample of the opt fuzz


def _opt_fuzz():
    spec = importlib.util.spec_from_file_location("opt_fuzz", ROOT / "bench" / "opt_fuzz.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_opt_fuzz_sample_no_signal_no_hang_every_error_one_line(tmp_path):
    fuzz = _opt_fuzz()
    records = fuzz.fuzz(runs=40, seed=0, jobs=1, seed_dir=tmp_path / "seeds", timeout=120,
                        kernels=["gemm", "attn_fwd_d64"], archs=["gfx942"])
    assert len(records) == 40
    bad = [r for r in records if r["outcome"] not in ("ok", "user error")]
    assert bad == [], fuzz.summary(records, 0, "test sample")
    assert {r["outcome"] for r in records} == {"ok", "user error"}
