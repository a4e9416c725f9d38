"""The variant-compile engine: candidates' LLVM IR by attribute insertion equals make_llir's, the hand-off gives
Triton exactly what a compile of the chosen variant gives, trials run concurrently and change nothing."""
import copy
import threading
import time
import warnings

import pytest
from types import SimpleNamespace
from conftest import stock_kernel

import triton_mfma
from triton_mfma import MFMARemark
from triton_mfma.compiler.compile import compile_kernel
from triton_mfma.ir.llvm_ir import llir_with_waves
from triton_mfma.trials import variants
from triton_mfma.trials.threads import OtherLoad, trial_threads
from triton_mfma.examples import CORPUS
from ldsutil import kernel_generic_ttgir


@pytest.mark.parametrize("name", ["gemm", "attn_fwd_d64", "softmax", "splitk_gemm"])
@pytest.mark.parametrize("arch", ["gfx90a", "gfx950"])
def test_waves_attribute_insertion_equals_make_llir(name, arch):
    """waves_per_eu only adds `amdgpu-waves-per-eu` to the kernel's LLVM function attributes: inserting it into
    the w=0 LLVM IR gives make_llir's own output for w, byte for byte."""
    fn, sig, cx = CORPUS[name]
    bases = {stock_kernel(name, arch).asm["llir"]}
    for w in (2, 5):
        # Triton 3.9's own LLVM IR is not deterministic on every kernel (value numbering of splitk_gemm's phis
        # varies between compiles): some compile of each side must match
        reals = {compile_kernel(fn, sig, cx, arch, {"waves_per_eu": w}).asm["llir"]}
        for _ in range(6):
            if {llir_with_waves(b, w) for b in bases} & reals:
                break
            bases.add(compile_kernel(fn, sig, cx, arch).asm["llir"])
            reals.add(compile_kernel(fn, sig, cx, arch, {"waves_per_eu": w}).asm["llir"])
        assert {llir_with_waves(b, w) for b in bases} & reals
    assert all(llir_with_waves(b, 0) == b for b in bases)


def test_waves_attribute_insertion_refuses_what_it_cannot_do_exactly():
    shared = ("define amdgpu_kernel void @k(ptr %a) #0 {\n  ret void\n}\n"
              "define void @f() #0 {\n  ret void\n}\nattributes #0 = { nounwind \"a\"=\"1\" }\n")
    assert llir_with_waves(shared, 2) is None
    already = ("define amdgpu_kernel void @k(ptr %a) #0 {\n  ret void\n}\n"
               "attributes #0 = { nounwind \"amdgpu-waves-per-eu\"=\"2,2\" }\n")
    assert llir_with_waves(already, 3) is None
    one = ("define amdgpu_kernel void @k(ptr %a) local_unnamed_addr #0 !dbg !4 {\n  ret void\n}\n"
           "attributes #0 = { memory(argmem: readwrite) nounwind \"b-x\" \"denormal\"=\"ieee\" }\n")
    assert llir_with_waves(one, 3).endswith(
        "attributes #0 = { memory(argmem: readwrite) nounwind \"amdgpu-waves-per-eu\"=\"3,3\" \"b-x\" "
        "\"denormal\"=\"ieee\" }\n")


def test_trial_threads_follow_the_environment(monkeypatch):
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    assert trial_threads(4) == 1
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "3")
    assert trial_threads(2) == 2
    monkeypatch.delenv("TRITON_MFMA_TRIAL_THREADS")
    assert 1 <= trial_threads(2) <= 2


def test_other_load_counts_other_processes_not_this_ones_threads(monkeypatch):
    """Idle cores are the machine's busy time less this process's own: a program compiling kernel after kernel
    keeps its trial threads (the 1-minute load average would count its own past threads as other work), while a
    process beside it takes a core away."""
    import subprocess
    import sys

    from triton_mfma.trials import threads

    samples = iter([(0.0, 10.0, 5.0), (1.0, 11.9, 6.9), (1.1, 12.0, 6.9), (2.0, 13.0, 7.1)])
    load = OtherLoad()
    monkeypatch.setattr(load, "_sample", lambda: next(samples))
    monkeypatch.setattr(threads.os, "getloadavg", lambda: (3.0, 3.0, 3.0))
    assert load() == 2.0  # no window yet: the load average less this compile's own thread
    assert load() == pytest.approx(0.0)  # 1.9 s busy, all of it this process's (its trial threads)
    assert load() == pytest.approx(0.0)  # a window under MIN_WINDOW_S: the last value
    assert load() == pytest.approx(0.9)  # since the last window's end: 1.1 s busy, 0.2 s of it this process's

    monkeypatch.delenv("TRITON_MFMA_TRIAL_THREADS", raising=False)
    threads.other_load()
    child = subprocess.Popen([sys.executable, "-c", "import time\nt = time.time()\nwhile time.time() - t < 1.5: pass"])
    try:
        time.sleep(1.0)
        assert threads.other_load() >= 0.7  # the busy child, whatever else the machine runs
    finally:
        child.wait()


@pytest.mark.parametrize("threads", ["1", "2"])
def test_handed_off_compile_equals_a_plain_compile_of_the_choice(threads, monkeypatch):
    """The amdgcn Triton gets from the hand-off (the verification's trial compile) equals what compiling the
    chosen layouts in the ordinary way gives; sequential and concurrent trials agree."""
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", threads)
    fn, sig, cx = CORPUS["attn_fwd_d64"]
    # accelerate-dot alone: its hand-off, without the other default passes' changes
    with warnings.catch_warnings(), triton_mfma.enabled(passes=["mfma-accelerate-dot"]):
        warnings.simplefilter("ignore", MFMARemark)
        handed = compile_kernel(fn, sig, cx, "gfx942")
    decision = handed.metadata.triton_mfma_accelerate_dot
    assert decision["evidence"] in ("trial", "identical", "model"), decision
    with warnings.catch_warnings(), triton_mfma.enabled(passes=["mfma-accelerate-dot"], verify_dot=False):
        warnings.simplefilter("ignore", MFMARemark)
        plain = compile_kernel(fn, sig, cx, "gfx942")
    if decision["decision"] == "kept":
        assert handed.asm["amdgcn"] == plain.asm["amdgcn"]
        assert handed.asm["llir"] == plain.asm["llir"]
    else:
        assert handed.asm["amdgcn"] == stock_kernel("attn_fwd_d64", "gfx942").asm["amdgcn"]
    assert handed.metadata.shared == plain.metadata.shared or decision["decision"] != "kept"


def _some_compiles_equal(left, right, first_left, tries: int = 4) -> bool:
    """Whether some output of `left()` (the first one given) equals some output of `right()`, each side compiled
    up to `tries` times. splitk_gemm's compiles vary in a long-lived process (phi numbering; debug lines LLVM
    merges, e.g. `.loc 1 46 18` against `.loc 1 0 5 is_stmt 0`), in stock Triton's make_llir as in ours."""
    a, b = {first_left}, {right()}
    for _ in range(tries - 1):
        if a & b:
            break
        a.add(left())
        b.add(right())
    return bool(a & b)


def test_auto_waves_compiles_candidates_from_one_llir():
    """waves_per_eu="auto" on a kernel with room for more waves: the chosen candidate's LLVM IR is the base's
    with the attribute, and its amdgcn equals a compile with that waves_per_eu."""
    fn, sig, cx = CORPUS["splitk_gemm"]
    chosen = []

    def auto():
        with warnings.catch_warnings(), triton_mfma.enabled(passes=[], waves_per_eu="auto"):
            warnings.simplefilter("ignore", MFMARemark)
            k = compile_kernel(fn, sig, cx, "gfx90a")
        chosen.append(k.metadata.waves_per_eu)
        return k.asm["amdgcn"]

    first = auto()
    w = chosen[0]
    assert isinstance(w, int)
    assert _some_compiles_equal(auto, lambda: compile_kernel(fn, sig, cx, "gfx90a", {"waves_per_eu": w}).asm["amdgcn"],
                                first)
    assert set(chosen) == {w}


def test_prefetched_trial_decides_as_the_sequential_one(monkeypatch):
    """A kWidth-only difference left to a trial (gemm, gfx942; accelerate-dot's kWidth-only model off: whether it
    tells moves with the Triton version's register allocation and SGPR rule): with an idle core the trial of Triton's layouts compiles
    beside ours (Engine.prefetch) instead of after it; the decision, the amdgcn and the number of compiles are those
    of the sequential trial (each variant compiled once)."""
    from triton_mfma.trials import engine
    from triton_mfma.decisions import accelerate_dot

    monkeypatch.setattr(accelerate_dot, "widest_lds_ops", lambda *args: None)
    fn, sig, cx = CORPUS["gemm"]
    prefetched = []
    real = engine.Engine.prefetch

    def spy(self, jobs, **kw):
        jobs = list(jobs)
        prefetched.extend(jobs)
        return real(self, jobs, **kw)

    monkeypatch.setattr(engine.Engine, "prefetch", spy)
    out = {}
    for threads in ("1", "2"):
        monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", threads)
        with warnings.catch_warnings(), triton_mfma.enabled(passes=["mfma-accelerate-dot"]):
            warnings.simplefilter("ignore", MFMARemark)
            k = compile_kernel(fn, sig, cx, "gfx942")
        out[threads] = (k.metadata.triton_mfma_accelerate_dot, k.metadata.triton_mfma_trials, k.asm["amdgcn"])
    assert prefetched, "the kWidth-only path asks for the trial ahead"
    assert out["1"][0]["evidence"] == "trial" and out["1"][1] == 2
    assert out["1"] == out["2"]


def test_gated_compile_stops_before_amdgcn_where_the_model_declines(monkeypatch):
    """The stream pipeliner on gfx950, attention D128 128x32, which the LDS model declines (Triton's loop
    pipeliner needs no more LDS): ours starts compiling as soon as its TTGIR exists, gated, and stops after its
    LLVM IR, so the compile never waits for a make_amdgcn of a variant the model declined. Triton's variant is
    built slowly here, so that without the gate ours would reach make_amdgcn first. Decision and amdgcn are the
    sequential compile's."""
    from triton.backends.amd.compiler import HIPBackend

    from triton_mfma.composition import make_ttgir
    from triton_mfma.examples import kernels as K

    calls, finishes = [], []
    real_amdgcn, real_finish = HIPBackend.make_amdgcn, make_ttgir._Composer.finish

    def amdgcn(*a, **kw):
        calls.append(1)
        return real_amdgcn(*a, **kw)

    def finish(self):
        finishes.append(1)
        if len(finishes) == 2:  # the build with Triton's loop pipeliner
            time.sleep(1.5)
        return real_finish(self)

    monkeypatch.setattr(HIPBackend, "make_amdgcn", staticmethod(amdgcn))
    monkeypatch.setattr(make_ttgir._Composer, "finish", finish)
    fn, sig, cx = K._attn(128, False, 128, 32)
    out = {}
    for threads in ("1", "2"):
        monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", threads)
        calls.clear()
        finishes.clear()
        with warnings.catch_warnings(), triton_mfma.enabled(passes=["mfma-stream-pipeline"]):
            warnings.simplefilter("ignore", MFMARemark)
            k = compile_kernel(fn, sig, cx, "gfx950")
        out[threads] = (k.metadata.triton_mfma_stream_pipeline, k.asm["amdgcn"], len(calls))
    assert out["2"][0]["evidence"] == "model" and out["2"][0]["decision"] == "declined", out["2"][0]
    assert out["2"][2] == 1  # Triton's variant only: ours stopped before make_amdgcn
    assert out["1"] == out["2"]


def test_identical_dot_layouts_stop_the_comparison_build_after_its_step(monkeypatch):
    """Where mfma-accelerate-dot chooses Triton's own layouts (gemm on gfx950), the build with Triton's
    accelerate_matmul is compared right after that step with what ours returned there (the ops are built in
    Triton's order) and ends there: Triton's remaining TTGIR passes run once, in our build only."""
    from triton_mfma.composition import make_ttgir

    finished = []
    real = make_ttgir._Composer.finish

    def spy(self):
        finished.append(1)
        return real(self)

    monkeypatch.setattr(make_ttgir._Composer, "finish", spy)
    fn, sig, cx = CORPUS["gemm"]
    with warnings.catch_warnings(), triton_mfma.enabled(passes=["mfma-accelerate-dot"]):
        warnings.simplefilter("ignore", MFMARemark)
        k = compile_kernel(fn, sig, cx, "gfx950")
    assert k.metadata.triton_mfma_accelerate_dot["evidence"] == "identical"
    assert len(finished) == 1


def test_same_code_ignores_names_and_locations_only():
    from triton_mfma.trials.variants import same_code

    a = ('%a_1 = "tt.load"(%arg0) : (tensor<4x!tt.ptr<f16>>) -> tensor<4xf16> loc("k.py":3:4)\n'
         '%b_2 = "arith.addf"(%a_1, %c0) : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16> loc(#loc3)\n')
    renamed = a.replace("%a_1", "%acc_1").replace("%b_2", "%x_9").replace('loc("k.py":3:4)', 'loc("pid")')
    swapped = a.replace('"(%a_1, %c0)', '"(%c0, %a_1)')
    assert same_code(a, renamed)
    assert not same_code(a, swapped)  # the def-use edges differ
    assert not same_code(a, a.replace("addf", "mulf"))
    # block arguments carry their locations inline, nested, followed by more arguments
    args = ('^bb0(%k: i32 loc("k"("k.py":21:5)), %acc: tensor<4xf32, #mma> loc("acc"("k.py":(2):3))):\n'
            '"scf.yield"(%acc) : (tensor<4xf32, #mma>) -> () loc("k.py":9:1)\n')
    assert same_code(args, args.replace('"k"("k.py":21:5)', "#loc7").replace("%acc", "%a_3"))
    assert not same_code(args, args.replace("tensor<4xf32, #mma> loc", "tensor<4xf32, #blocked> loc"))


@pytest.mark.parametrize("name,arch", [("attn_fwd_d64", "gfx950"), ("gemm", "gfx90a")])
def test_variant_builds_resume_where_they_differ_and_equal_full_builds(name, arch, monkeypatch):
    """A variant's TTGIR starts where its choice first differs from an earlier build's, from the module that build
    had there, and stops where its module becomes that build's again: the result is the TTGIR a build from the
    TTIR gives (up to value names and locations). gfx950 attention: Triton's dot layouts are ours, which the
    resumed build finds at the pipeline point (no more steps); gfx90a gemm: they differ (resumed builds run to
    the end)."""
    from triton_mfma.trials import engine

    real_ttgir, real_resume = engine.Engine.variant, engine.Engine._resume_for
    resumed, checked, builds = [], [], []

    def resume_spy(self, choice):
        r = real_resume(self, choice)
        resumed.append((choice, r.point if r is not None else None))
        return r

    def ttgir_spy(self, choice, metadata, first=None):
        build = real_ttgir(self, choice, metadata, first)
        builds.append(build)
        if first is None:  # the same choice built from the TTIR snapshot, as before resuming existed
            saved, self._builds = self._builds, {}
            try:
                full = real_ttgir(self, choice, metadata)
            finally:
                self._builds = saved
            checked.append((frozenset(choice), variants.same_code(full.text, build.text), build.module))
        return build

    monkeypatch.setattr(engine.Engine, "variant", ttgir_spy)
    monkeypatch.setattr(engine.Engine, "_resume_for", resume_spy)
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")  # on one thread every later variant is resumed
    fn, sig, cx = CORPUS[name]
    with warnings.catch_warnings(), triton_mfma.enabled():
        warnings.simplefilter("ignore", MFMARemark)
        k = compile_kernel(fn, sig, cx, arch)
    assert checked and all(same for _, same, _ in checked), checked
    assert any(point is not None for _, point in resumed), resumed
    dot = k.metadata.triton_mfma_accelerate_dot
    stopped_early = [c for c, _, module in checked if any(module is b.module for b in builds if b.choice != c)]
    if arch == "gfx950":
        assert dot["evidence"] == "identical" and frozenset() in stopped_early, (dot, stopped_early)
    else:  # the layouts differ (kWidth): decided by the model or a trial depending on Triton's register use
        assert dot["evidence"] in ("trial", "model") and not stopped_early, (dot, stopped_early)


@pytest.mark.parametrize("name,arch", [("gemm", "gfx90a"), ("attn_fwd_d64", "gfx942"), ("gemm", "gfx942")])
def test_first_compared_variant_is_built_aside_and_changes_nothing(name, arch, monkeypatch):
    """With an idle core, the variant the first decision compares ours with (here Triton's dot layouts: the stream
    pipeliner is not built with num_stages 2 on these archs, and where it is, its variant is built first, on the
    compiling thread, policy.Policy._variant_first) is built from the TTIR on another thread while ours is built:
    it is the TTGIR the resumed build gives on one thread (up to value names and locations), and the compile is the
    same: the amdgcn Triton gets and every decision line (its remarks are replayed after ours')."""
    from triton_mfma.trials import engine

    real_adopt = engine.Engine._adopt
    adopted = []

    def adopt_spy(self, choice, ahead):
        build = real_adopt(self, choice, ahead)
        assert build is not None and threading.current_thread() is threading.main_thread()
        del self._builds[choice]  # the same choice as one thread builds it: resumed from ours
        resumed = self.variant(choice, build.metadata)
        adopted.append((choice, variants.same_code(build.text, resumed.text)))
        self._builds[choice] = build
        return build

    fn, sig, cx = CORPUS[name]

    def compile_with(threads):
        monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", threads)
        with warnings.catch_warnings(), triton_mfma.enabled():
            warnings.simplefilter("ignore", MFMARemark)
            return compile_kernel(fn, sig, cx, arch)

    one = compile_with("1")
    monkeypatch.setattr(engine.Engine, "_adopt", adopt_spy)
    two = compile_with("2")
    assert adopted and all(same for _, same in adopted), adopted
    assert two.metadata.triton_mfma == one.metadata.triton_mfma
    # Triton's own output varies between compiles of some kernels in one process: some compile of each must match
    assert _some_compiles_equal(lambda: compile_with("2").asm["amdgcn"], lambda: compile_with("1").asm["amdgcn"],
                                two.asm["amdgcn"])


def test_aside_build_stops_where_its_module_becomes_ours(monkeypatch, tmp_path):
    """Generated seed 2871 on gfx950: the stream pipeliner is not built (num_stages 1), so the variant built aside
    is accelerate-dot's, Triton's layouts, and our layouts are Triton's there. The aside build stops right after
    Triton's accelerate_matmul, where its module is what our pass returned (variants.SameAsOurs), instead of building
    a whole TTGIR for nothing; the variant is then resumed on the compiling thread. The compile is what one thread
    gives: every decision line and the amdgcn."""
    from triton_mfma.testing import kernelgen
    from triton_mfma.compiler import stages

    stopped = []
    real = stages.HipCompile._build_ttgir_steps

    def spy(self, src, md, choice, resume, kernel_remarks, cut):
        try:
            return real(self, src, md, choice, resume, kernel_remarks, cut)
        except variants.SameAsOurs as e:
            stopped.append((frozenset(choice), str(e), threading.current_thread() is threading.main_thread()))
            raise

    fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.spec(2871), str(tmp_path), "gfx950")

    def compile_with(threads):
        monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", threads)
        with warnings.catch_warnings(), triton_mfma.enabled():
            warnings.simplefilter("ignore", MFMARemark)
            return compile_kernel(fn, sig, cx, "gfx950", opts, attrs)

    one = compile_with("1")
    monkeypatch.setattr(stages.HipCompile, "_build_ttgir_steps", spy)
    two = compile_with("2")
    assert stopped == [(frozenset(), "accelerate_matmul", False)], stopped
    assert two.metadata.triton_mfma_accelerate_dot["evidence"] == "identical"
    assert two.metadata.triton_mfma == one.metadata.triton_mfma
    assert _some_compiles_equal(lambda: compile_with("2").asm["amdgcn"], lambda: compile_with("1").asm["amdgcn"],
                                two.asm["amdgcn"])


def test_point_board_hands_a_waiting_build_what_another_returned_or_nothing():
    from triton_mfma.trials.variants import PointBoard

    board, ours = PointBoard(), frozenset({"accelerate_matmul"})
    got = []
    waiter = threading.Thread(target=lambda: got.append(board.wait(ours, "accelerate_matmul")))
    waiter.start()
    board.publish(ours, "accelerate_matmul", "text")
    waiter.join(5)
    assert got == ["text"]
    board.publish(ours, "pipeline", PointBoard.DECLINED)
    assert board.wait(ours, "pipeline") is PointBoard.DECLINED
    board.finish(ours)  # ended without reaching a point: the waiter is told, never left waiting
    assert board.wait(ours, "ttgir_end") is None
    never = frozenset({"pipeline"})  # a build that never starts (an interrupt came first): closing releases
    waiter = threading.Thread(target=lambda: got.append(board.wait(never, "pipeline")))
    waiter.start()
    board.close()
    waiter.join(5)
    assert not waiter.is_alive() and got[-1] is None


def test_speculation_a_model_made_unnecessary_never_runs_and_changes_nothing(monkeypatch, tmp_path):
    """With a spare core, Triton's layouts are built aside while ours are (generated seed 490 on gfx942: 240 KiB of
    LDS under both, where a CU has 64); their compile waits at its gate before make_llir, the model's keep (neither
    launches) leaves it there, and settling drops it: no make_llir of theirs ran, no trial counted. A cancelled job
    stops before make_amdgcn, and the same job compiled later gives what a compile without the speculation
    gives."""
    from triton_mfma.testing import kernelgen
    from triton_mfma.trials import engine
    from triton_mfma.compiler import stages

    lowered, engines = [], []
    real_lower, real_decide = engine.Engine._lower, stages.HipCompile._decide

    def lower_spy(self, build, module):
        lowered.append(build.choice)
        return real_lower(self, build, module)

    def decide_spy(self, *args):
        out = real_decide(self, *args)
        engines.append(self.engine)
        return out

    monkeypatch.setattr(engine.Engine, "_lower", lower_spy)
    monkeypatch.setattr(stages.HipCompile, "_decide", decide_spy)
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "2")
    fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.spec(490), str(tmp_path), "gfx942")
    with warnings.catch_warnings(), triton_mfma.enabled(passes=["mfma-accelerate-dot"]):
        warnings.simplefilter("ignore", MFMARemark)
        k = compile_kernel(fn, sig, cx, "gfx942", opts, attrs)
    dot = k.metadata.triton_mfma_accelerate_dot
    assert dot["evidence"] == "model" and dot["decision"] == "kept" and "neither launches" in dot["reason"], dot
    (eng,) = engines
    theirs = next(b for b in eng._builds.values() if "accelerate_matmul" not in b.choice)
    assert theirs.choice not in lowered and lowered, lowered  # ours was lowered, theirs never
    assert eng.trials == 1 and eng.compiled(theirs, 0) is None
    assert not eng._inflight and not eng._dropped  # settled before the stage returned

    trials = eng.trials
    stop = threading.Event()
    stop.set()
    with pytest.raises(variants.Cancelled):
        eng._compile_one(theirs, 3, stop)
    assert eng.trials == trials and eng.compiled(theirs, 3) is None
    eng.prefetch([(theirs, 3)])
    eng.cancel([(theirs, 3)])
    eng.settle()
    (late,) = eng.compile([(theirs, 3)])
    assert eng.trials == trials + 1  # compiled once, whether the cancel came before or after its make_amdgcn
    llir0 = eng._llir0(theirs)[0]
    assert late.llir == llir_with_waves(llir0, 3)
    assert late.amdgcn == eng.candidates(llir0, eng._llir0(theirs)[1], [3])[0].amdgcn


def _record_followups(mp, pick=lambda job: True) -> list:
    """The (build, w) jobs the engine's policy starts as follow-ups (those `pick` keeps), appended to the list
    returned, while `mp` (a pytest MonkeyPatch) holds."""
    from triton_mfma.trials import policy

    started = []
    real = policy.Policy._followups

    def spy(self, decision, ours, beside):
        jobs = real(self, decision, ours, beside)
        started.extend(job for job in jobs if pick(job))
        return jobs

    mp.setattr(policy.Policy, "_followups", spy)
    return started


def _same_waves_for_any_spill(mp) -> None:
    """waves_per_eu "auto" compiles its same-waves candidate for any spill of the base, as before issue 53's rule:
    attention D=128 causal on gfx942 has SGPR spills outside every loop only, so by default no candidate is
    compiled there, and the scheduling tests below need one to start beside the comparison."""
    from triton_mfma.models import autowaves

    mp.setattr(autowaves.Candidate, "ranked_spills", property(lambda self: bool(self.spills)))


@pytest.mark.parametrize("name,arch", [("splitk_gemm", "gfx90a"), ("attn_fwd_d128_causal", "gfx942")])
def test_waves_candidates_started_beside_the_comparison_change_nothing(name, arch, monkeypatch):
    """With waves_per_eu "auto" and an idle core, ours' candidates start while Triton's layouts still compile for
    accelerate-dot's comparison (cancelled where ours is reverted: attention D=128 causal): the decisions and the
    amdgcn are those of the sequential run."""
    from triton_mfma.trials import engine
    from triton_mfma.decisions import accelerate_dot

    _same_waves_for_any_spill(monkeypatch)
    started = _record_followups(monkeypatch)
    # split-K's layouts differ from Triton's in kWidth only, which accelerate-dot's model tells: off, so that
    # Triton's layouts compile for the comparison the candidates start beside
    monkeypatch.setattr(accelerate_dot, "widest_lds_ops", lambda *args: None)
    # as where Triton's layouts compile longer than ours (they start later): the comparison is still running
    monkeypatch.setattr(engine.Engine, "running", lambda self, build, w: True)
    fn, sig, cx = CORPUS[name]
    decided = {"1": set(), "2": set()}

    def compile_with(threads):
        monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", threads)
        n = len(started)
        with warnings.catch_warnings(), triton_mfma.enabled(cpu_bound=False):  # a mechanism: no CPU caps
            warnings.simplefilter("ignore", MFMARemark)
            k = compile_kernel(fn, sig, cx, arch)
        if threads == "1":
            assert len(started) == n, "sequential: nothing starts beside"
        md = k.metadata
        # what was decided (the decisions' texts quote register figures: the code behind them is compared, with
        # _some_compiles_equal's tolerance, below)
        dot, waves = md.triton_mfma_accelerate_dot, md.triton_mfma_waves_per_eu
        decided[threads].add((dot["decision"], dot["evidence"], waves["chosen"], md.waves_per_eu))
        return k.asm["amdgcn"]

    sequential = compile_with("1")
    assert _some_compiles_equal(lambda: compile_with("1"), lambda: compile_with("2"), sequential)
    assert started, "the candidates of ours start beside the comparison"
    assert len(decided["1"]) == 1 and decided["1"] == decided["2"]


def test_grid_check_variant_starts_beside_the_comparison_and_changes_nothing(monkeypatch):
    """GEMM 128x128x64 on gfx90a spills SGPRs with the remap, so mfma-grid-order's check compiles the kernel
    without it too. With an idle core that compile starts as soon as ours is compiled, while Triton's layouts
    still compile for accelerate-dot's comparison, instead of after that decision: the decisions and the
    amdgcn are those of the sequential run."""
    from triton_mfma.trials import engine

    started = _record_followups(monkeypatch, lambda job: "skip:mfma-grid-order" in job[0].choice)
    monkeypatch.setattr(engine.Engine, "running", lambda self, build, w: True)  # Triton's layouts still compile
    fn, sig, _ = CORPUS["gemm"]
    cx = dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64)

    def compile_with(threads):
        monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", threads)
        # the CPU caps off (as in every test of a mechanism): this kernel spills, and its cap
        # (decisions.STAKES_CPU) would end the trials on CPU times, which move with the machine's load
        with warnings.catch_warnings(), triton_mfma.enabled(cpu_bound=False):
            warnings.simplefilter("ignore", MFMARemark)
            return compile_kernel(fn, sig, cx, "gfx90a")

    one = compile_with("1")
    assert not started
    two = compile_with("2")
    assert started, "the variant without the remap starts beside the comparison"
    assert two.metadata.triton_mfma == one.metadata.triton_mfma
    assert "mfma-grid-order" in one.metadata.triton_mfma
    assert _some_compiles_equal(lambda: compile_with("2").asm["amdgcn"], lambda: compile_with("1").asm["amdgcn"],
                                two.asm["amdgcn"])


def test_nothing_starts_beside_a_comparison_already_done():
    """Where the compile ours is compared with is done when ours is (attention D=128 causal on gfx942, where
    Triton's layouts win), the decision is taken before anything else starts: ours' follow-ups are not started
    (on the bench suite's D=128 causal, the variant without the remap: a make_llir that, started, cost the stage
    1.4 s of waiting after the revert). The kernel is the one compiled with the follow-ups started beside."""
    from triton_mfma.trials import engine

    fn, sig, cx = CORPUS["attn_fwd_d128_causal"]

    def compile_with(running):
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("TRITON_MFMA_TRIAL_THREADS", "2")
            _same_waves_for_any_spill(mp)
            started = _record_followups(mp)
            mp.setattr(engine.Engine, "running", lambda self, build, w: running)
            with warnings.catch_warnings(), triton_mfma.enabled(cpu_bound=False):  # a mechanism: no CPU caps
                warnings.simplefilter("ignore", MFMARemark)
                k = compile_kernel(fn, sig, cx, "gfx942")
        return k, list(started)

    (done, started_done), (beside, started_beside) = compile_with(False), compile_with(True)
    assert done.metadata.triton_mfma_accelerate_dot["decision"] == "reverted", done.metadata.triton_mfma
    assert done.metadata.triton_mfma == beside.metadata.triton_mfma
    assert not started_done and started_beside
    assert _some_compiles_equal(lambda: compile_with(False)[0].asm["amdgcn"],
                                lambda: compile_with(True)[0].asm["amdgcn"], done.asm["amdgcn"])


def test_adopting_an_aside_build_whose_text_another_build_compiles_drops_its_compile():
    """An aside build whose text is byte for byte another build's (ours where our pass declined and Triton's step
    ran instead) has its compile dropped: the other build's compile of that text is the one waited for."""
    from concurrent.futures import Future

    from triton_mfma.trials import engine

    eng = engine.Engine(None, None, "", None, None)
    ours = variants.Build(frozenset({"pipeline"}), None, "module text", {})
    prefetched = engine._Speculative(Future(), threading.Event(), threading.Event())
    eng._inflight[(ours.text, 0)] = prefetched
    theirs = variants.Build(frozenset(), None, "module text", {})
    built, compiling = Future(), Future()
    built.set_result((theirs, lambda: None))
    compiling.set_running_or_notify_cancel()  # the job set `built` itself: it is running when adopted
    job = engine._Speculative(compiling, threading.Event(), threading.Event())
    assert eng._adopt(frozenset(), engine._Aside(built, job, 0)) is theirs
    assert eng._inflight[(ours.text, 0)] is prefetched
    assert job.cancel.is_set() and job.gate.is_set() and eng._dropped == [compiling]


@pytest.mark.parametrize("name,arch", [("gemm", "gfx90a"), ("attn_fwd_d64", "gfx950")])
def test_variants_lowered_in_place_change_nothing(name, arch, monkeypatch):
    """Ours (on the compiling thread) and the aside build (on its own) are lowered by make_llir in place, no copy
    parsed for them: the kernel Triton caches is what compiling parsed copies gives — the TTGIR text (printed
    before the lowering, no LLVM dialect in it), the LLVM IR, the amdgcn and every decision line."""
    from triton_mfma.trials import engine

    fn, sig, cx = CORPUS[name]
    parsed = []
    real_import = engine.import_generic

    def counting_import(text, *a, **kw):
        parsed.append(1)
        return real_import(text, *a, **kw)

    monkeypatch.setattr(engine, "import_generic", counting_import)
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "2")

    def compile_once():
        parsed.clear()
        with warnings.catch_warnings(), triton_mfma.enabled(cpu_bound=False):  # a mechanism: no CPU caps
            warnings.simplefilter("ignore", MFMARemark)
            return compile_kernel(fn, sig, cx, arch), len(parsed)

    (in_place, n_in_place), lowered = compile_once(), []
    real_llir_here = engine.Engine.llir_here
    monkeypatch.setattr(engine.Engine, "llir_here", lambda self, build: lowered.append(build.choice))
    copies, n_copies = compile_once()
    assert lowered, "no variant was lowered in place"
    assert n_in_place < n_copies, (n_in_place, n_copies)
    assert "tt.func" in in_place.asm["ttgir"] and "llvm.func" not in in_place.asm["ttgir"]
    assert in_place.asm["ttgir"] == copies.asm["ttgir"]
    assert in_place.metadata.triton_mfma == copies.metadata.triton_mfma
    monkeypatch.setattr(engine.Engine, "llir_here", real_llir_here)
    assert _some_compiles_equal(lambda: compile_once()[0].asm["amdgcn"], lambda: copies.asm["amdgcn"],
                                in_place.asm["amdgcn"])


def test_lowered_module_gives_its_text_and_a_parsed_module_for_anything_else():
    """LoweredModule: what Triton's compile loop asks of the ttgir stage's result (its text) without parsing;
    anything else (here make_llir, where no compile was handed on) from the generic text parsed once."""
    from triton.backends.amd.compiler import HIPBackend
    from triton.backends.compiler import GPUTarget

    from triton_mfma.trials import engine
    from triton_mfma.ir.bridge import LoweredModule, export_generic, real_module

    kernel = stock_kernel("gemm", "gfx942")
    backend = HIPBackend(GPUTarget("hip", "gfx942", 64))
    eng = engine.Engine(backend, None, "", None, None)
    text = kernel_generic_ttgir(kernel)
    module = engine.import_generic(text, eng._fresh_context(), parsed_before=True)
    pretty, name = str(module), module.get_entry_func_name()
    lowered = LoweredModule(pretty, text, name, eng._fresh_context)
    assert str(lowered) == pretty and lowered.get_entry_func_name() == name
    assert lowered._parsed is None  # nothing parsed for those
    assert export_generic(lowered) == text and lowered._parsed is None
    real = real_module(lowered)
    assert real is lowered.module() and export_generic(real) == text
    assert real_module(module) is module
    assert copy.copy(lowered)._parsed is lowered._parsed  # no recursion into a module not yet parsed
    options = backend.parse_options({})
    assert "amdgpu_kernel" in backend.make_llir(real, {"num_ctas": 1}, options)


@pytest.mark.parametrize("name,arch,decision", [("gemm", "gfx90a", "kept"),
                                                ("attn_fwd_d128_causal", "gfx942", "reverted")])
def test_a_later_hook_that_replaces_the_llir_stage_gets_a_module_it_can_compile(name, arch, decision):
    """A stages hook chained after ours that puts its own llir stage in (compiling the TTGIR module itself) is
    given Triton's module, not one lowered in place: nothing is lowered in place then, ours nor the variant
    built aside (Triton's layouts, chosen where accelerate-dot reverts), and the compile goes through."""
    from triton import knobs

    from triton_mfma.ir.bridge import LoweredModule

    given = []

    def hook(*args):
        if not args:
            return "own-llir", "own-llir"
        backend, stages, options = args[0], args[1], args[2]

        def llir(src, metadata):
            given.append(src)
            return backend.make_llir(src, metadata, options)

        stages["llir"] = llir

    fn, sig, cx = CORPUS[name]
    knobs.runtime.add_stages_inspection_hook = hook
    try:
        with warnings.catch_warnings(), triton_mfma.enabled():
            warnings.simplefilter("ignore", MFMARemark)
            k = compile_kernel(fn, sig, cx, arch)
    finally:
        knobs.runtime.add_stages_inspection_hook = None
    assert len(given) == 1 and not isinstance(given[0], LoweredModule)
    assert "v_mfma" in k.asm["amdgcn"] and k.metadata.triton_mfma_accelerate_dot["decision"] == decision


def test_compile_budget_keeps_the_kernels_own_choices(monkeypatch, tmp_path):
    """Where one compile of a kernel took more than decisions.LONG_COMPILE_S of CPU (here 0: every compile), the
    decisions whose own choice is the kernel's compile nothing more: waves_per_eu "auto" keeps 0 (no candidate), and
    a stage less is not tried where the main loop spills (generated seed 26 on gfx90a, 40 main-loop scratch ops):
    the kernel is compared once with Triton's instead.
    Each compile's CPU time is counted."""
    from triton_mfma import decisions
    from triton_mfma.testing import kernelgen

    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    monkeypatch.setattr(decisions, "LONG_COMPILE_S", 0.0)
    fn, sig, cx = CORPUS["splitk_gemm"]
    with warnings.catch_warnings(), triton_mfma.enabled(passes=[], waves_per_eu="auto"):
        warnings.simplefilter("ignore", MFMARemark)
        k = compile_kernel(fn, sig, cx, "gfx90a")
    d = k.metadata.triton_mfma_waves_per_eu
    assert d["chosen"] == 0 == k.metadata.waves_per_eu and list(d["tried"]) == ["0"], d
    assert "compile budget" in d["reason"] and "not compiled" in d["reason"], d
    fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.spec(26), str(tmp_path), "gfx90a")
    with warnings.catch_warnings(), triton_mfma.enabled(relax_waves_per_eu=False):
        warnings.simplefilter("ignore")
        k = compile_kernel(fn, sig, cx, "gfx90a", opts, attrs)
    d = k.metadata.triton_mfma_num_stages
    # the stream pipeliner's comparison comes first: Triton's pipeliner spills, so its model leaves it to a trial,
    # which the budget turns into the one comparison with Triton's kernel; the build compiled first (Triton's
    # pipeliner) stands for ours there, and is Triton's kernel: nothing more compiled; num_stages records it
    assert d["decision"] == "budget" and "stands for it" in d["reason"], d
    assert "ours is Triton's kernel (nothing else compiled)" in d["reason"] and k.metadata.triton_mfma_trials == 1, d
    assert k.metadata.num_stages == opts["num_stages"]


@pytest.mark.parametrize("cap", [2, 3])
def test_max_compiles_caps_the_compiles_and_falls_back_on_tritons_kernel(cap, monkeypatch, tmp_path):
    """Option max_compiles: generated seed 4102 on gfx950 (2 warps, num_stages 3, waves_per_eu=4; Triton's
    pipeliner spills) took 4 compiles under the defaults (the stream pipeliner's and grid order's trials, the
    relaxation's). Capped, a trial runs only where one compile of Triton's kernel stays in reserve: at 2, ours and
    that one; at 3, one trial first. The kernel is never ranked below Triton's own by the one judge."""
    from triton_mfma.models import dot_figures
    from triton_mfma.testing import kernelgen
    from triton_mfma.compiler.compile import always_compile

    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.spec(4102), str(tmp_path), "gfx950")
    with warnings.catch_warnings(), always_compile():
        warnings.simplefilter("ignore")
        with triton_mfma.enabled(max_compiles=cap, strict=True, cpu_bound=False):  # the cap alone, not the CPU's
            k = compile_kernel(fn, sig, cx, "gfx950", opts, attrs)
        with triton_mfma.disabled():
            stock = compile_kernel(fn, sig, cx, "gfx950", opts, attrs)
    md = k.metadata
    assert md.triton_mfma_trials <= cap, md.triton_mfma_trials
    budget = [v for key, v in md._asdict().items() if key.startswith("triton_mfma_") and isinstance(v, dict)
              and v.get("decision") == "budget"]
    assert budget and all(f"max_compiles={cap}" in v["reason"] for v in budget), budget
    verdict, why = dot_figures.compare(dot_figures.of_kernel(stock), dot_figures.of_kernel(k))
    assert verdict != "worse", why


def test_the_cpu_bound_on_every_kernel_ends_the_trials(monkeypatch, tmp_path):
    """Issue 53's bound on every kernel (decisions.EVERY_KERNEL_CPU: max(3x, + 10 s) of the first compile's CPU),
    held at run time: a trial starts only where its compiles, predicted at the longest so far, and one of Triton's
    kernel in reserve fit. Shrunk to the first compile itself, the same kernel as above (4 compiles under the
    defaults) takes ours and the one comparison with Triton's kernel, and is not ranked below it."""
    from triton_mfma import decisions
    from triton_mfma.models import dot_figures
    from triton_mfma.testing import kernelgen
    from triton_mfma.compiler.compile import always_compile

    def ctx(first, spent, longest, on=True, stakes=None, backend=0.0, stock=0.0):
        return SimpleNamespace(cpu=lambda: (first, spent, longest), setting=lambda name: on, stakes=lambda: stakes,
                               backend_cpu=lambda: backend, stock_cpu=lambda: stock)

    assert decisions.cpu_capped(ctx(3.0, 9.0, 3.0), 1) is not None  # 9 + 2 x 3 > 13
    assert decisions.cpu_capped(ctx(3.0, 9.0, 3.0, on=False), 1) is None  # option cpu_bound off
    assert decisions.cpu_capped(ctx(3.0, 6.0, 3.0), 1) is None  # 6 + 2 x 3 <= 13
    assert decisions.cpu_capped(ctx(0.3, 2.0, 0.5), 2) is None  # + 10 s for short ones
    # the spilling population's caps by what the first compile's spills cost (decisions.STAKES_CPU): 3.5x where its
    # main loop spills to scratch, 2.0x for other ranked spills, never past the every-kernel bound; none of its own
    # where nothing spills
    assert decisions.cpu_capped(ctx(1.0, 1.0, 1.0, stakes="loop scratch"), 1) is None  # 1 + 2 x 1 <= 3.5
    assert "main loop spills to scratch" in decisions.cpu_capped(ctx(1.0, 2.0, 1.0, stakes="loop scratch"), 1)
    assert "2.0x its first compile's 1.0 s (its first compile spills)" in \
        decisions.cpu_capped(ctx(1.0, 1.0, 1.0, stakes="spills"), 1)  # 1 + 2 x 1 > 2.0
    assert decisions.cpu_capped(ctx(1.0, 0.5, 0.5, stakes="spills"), 1) is None  # 0.5 + 2 x 0.5 <= 2.0
    assert decisions.cpu_capped(ctx(1.0, 2.0, 1.0, stakes="no spill"), 1) is None  # 4 <= 11: the bound alone
    assert decisions.cpu_capped(ctx(10.0, 10.0, 10.0, stakes="loop scratch"), 1) is None  # 30 <= 3.0 x 10 < 3.5 x 10
    # where a compile of Triton's kernel at the waves asked (stock's) took less than the first (ours at other waves),
    # the bound scales with that one (generated seed 7234: 4.7 s at 2 waves, stock 0.8 s at 5)
    assert decisions.cpu_capped(ctx(4.7, 5.5, 4.7, stock=0.8), 1) is not None  # 5.5 + 2 x 4.7 > 10.8
    assert "3.5x stock's compile's 0.8 s" in decisions.cpu_capped(ctx(4.7, 5.5, 4.7, stakes="loop scratch", stock=0.8), 1)
    assert decisions.cpu_capped(ctx(0.8, 1.0, 0.8, stock=4.7), 1) is None  # a slower one changes nothing
    # candidates of an LLVM IR already made (waves_per_eu, scheduling strategies) are one make_amdgcn each: predicted
    # at the longest make_amdgcn timed alone where there is one, the reserve still at a whole compile
    assert decisions.cpu_capped(ctx(1.0, 2.5, 1.0, stakes="loop scratch"), 2, 0) is not None  # 2.5 + 2 x 1 > 3.5
    assert decisions.cpu_capped(ctx(1.0, 2.5, 1.0, stakes="loop scratch", backend=0.4), 2, 0, same_llir=True) is None
    assert "1 more make_amdgcn at up to 0.4 s each and 1 more compile at up to 1.0 s" in decisions.cpu_capped(
        ctx(1.0, 2.5, 1.0, stakes="loop scratch", backend=0.4), 1, 1, same_llir=True)  # 2.5 + 0.4 + 1 > 3.5
    assert decisions.cpu_capped(ctx(1.0, 2.5, 1.0, stakes="loop scratch"), 1, 0, same_llir=True) is None  # none timed
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    monkeypatch.setattr(decisions, "EVERY_KERNEL_CPU", (1.0, 0.0))
    fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.spec(4102), str(tmp_path), "gfx950")
    with warnings.catch_warnings(), always_compile():
        warnings.simplefilter("ignore")
        with triton_mfma.enabled(strict=True):
            k = compile_kernel(fn, sig, cx, "gfx950", opts, attrs)
        with triton_mfma.disabled():
            stock = compile_kernel(fn, sig, cx, "gfx950", opts, attrs)
    md = k.metadata
    assert md.triton_mfma_trials <= 2, md.triton_mfma_trials
    budget = [v for key, v in md._asdict().items() if key.startswith("triton_mfma_") and isinstance(v, dict)
              and v.get("decision") == "budget"]
    assert budget and all("of its first compile's" in v["reason"] for v in budget), budget
    verdict, why = dot_figures.compare(dot_figures.of_kernel(stock), dot_figures.of_kernel(k))
    assert verdict != "worse", why


def test_a_cap_before_ours_compiles_compares_the_build_compiled_in_its_place(monkeypatch):
    """The suite's GEMM 128x256x32 on gfx942: the first compile (Triton's loop pipeliner, compiled first for the
    stream pipeliner's decision) has SGPR lanes in its main loop, so the spilling cap of its stakes applies
    (decisions.STAKES_CPU, made to end the trials at once here). The budget then has room for Triton's kernel only:
    the build already compiled stands for ours, compared once with Triton's kernel; two compiles, ours with the
    stream pipeliner never compiled, and not worse than stock."""
    from triton_mfma import decisions
    from triton_mfma.models import dot_figures
    from triton_mfma.compiler.compile import always_compile
    from triton_mfma.examples import kernels as K

    monkeypatch.setitem(decisions.STAKES_CPU, "spills", 0.01)
    fn, sig, cx = K.matmul, K._gemm_sig(), dict(BLOCK_M=128, BLOCK_N=256, BLOCK_K=32)
    with warnings.catch_warnings(), always_compile():
        warnings.simplefilter("ignore")
        with triton_mfma.enabled(strict=True):
            k = compile_kernel(fn, sig, cx, "gfx942")
        with triton_mfma.disabled():
            stock = compile_kernel(fn, sig, cx, "gfx942")
    md = k.metadata
    assert md.triton_mfma_trials == 2, md.triton_mfma_trials
    record = md.triton_mfma_stream_pipeline
    assert record["decision"] == "budget" and "its first compile spills" in record["reason"], record
    assert "ours with mfma-stream-pipeline not compiled" in record["reason"], record
    verdict, why = dot_figures.compare(dot_figures.of_kernel(stock), dot_figures.of_kernel(k))
    assert verdict != "worse", why


def test_choices_differing_only_where_the_steps_are_the_same_share_one_build():
    """Engine._canonical_choice: a point is left out of a choice where Triton's step there was seen to return what
    our passes did on the module of the same earlier steps; other earlier steps or another num_stages are another
    module there, which nothing said."""
    from triton_mfma.trials.engine import Engine

    e = Engine(None, None, "", None, None)
    acc, pipe = "accelerate_matmul", "pipeline"
    assert e._canonical_choice({acc, pipe}) == {acc, pipe}  # nothing seen yet
    e.note_same_step(pipe, {acc, pipe})  # after our accelerate_matmul only
    assert e._canonical_choice({acc, pipe}) == {acc}
    assert e._canonical_choice({pipe}) == {pipe}  # Triton's layouts: another module at the pipeline point
    assert e._canonical_choice({acc, pipe, "stages:3"}) == {acc, pipe, "stages:3"}  # other options there
    assert e._canonical_choice({acc, pipe, "skip:mfma-grid-order"}) == {acc, "skip:mfma-grid-order"}
    e.note_same_step(acc, {acc})  # the first point: every build has the same module there
    assert e._canonical_choice({pipe}) == frozenset()  # Triton's layouts are ours, so are the steps after them
    assert e._canonical_choice({acc, pipe, "stages:3"}) == {acc, pipe, "stages:3"}  # seen at the kernel's num_stages


def test_a_variant_equal_to_a_build_made_is_not_built_again(monkeypatch, tmp_path):
    """Held-out generated seed 3642 on gfx90a: our layouts are Triton's (accelerate-dot identical, found by the
    build resumed at accelerate_matmul), so Triton's kernel, which the combination's model reads, is the variant
    built aside for the stream pipeliner (our layouts, Triton's pipeliner): it is not built a third time (a whole
    make_ttgir, 0.2x of this kernel's stock compile). The compile is the one made without the memo: every decision
    line and the amdgcn."""
    from triton_mfma.trials import engine
    from triton_mfma.testing import kernelgen
    from triton_mfma.compiler import stages

    fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.spec(3642), str(tmp_path), "gfx90a")
    built = []
    real = stages.HipCompile._build_ttgir_steps

    def spy(self, src, md, choice, resume, kernel_remarks, cut):
        built.append(frozenset(choice))
        return real(self, src, md, choice, resume, kernel_remarks, cut)

    def compile_once():
        with warnings.catch_warnings(), triton_mfma.enabled(strict=True):
            warnings.simplefilter("ignore", MFMARemark)
            return compile_kernel(fn, sig, cx, "gfx90a", opts, attrs)

    monkeypatch.setattr(stages.HipCompile, "_build_ttgir_steps", spy)
    memo = compile_once()
    assert frozenset() not in built, built
    assert memo.metadata.triton_mfma_accelerate_dot["evidence"] == "identical"
    assert memo.metadata.triton_mfma_combination["evidence"] == "model"
    built.clear()
    monkeypatch.setattr(engine.Engine, "note_same_step", lambda self, point, choice: None)
    without = compile_once()
    assert frozenset() in built, built  # the check can fail: without the memo Triton's kernel is built
    assert memo.metadata.triton_mfma == without.metadata.triton_mfma
    assert memo.asm["amdgcn"] == without.asm["amdgcn"]


def test_an_option_variant_differs_at_its_point_only():
    """A build whose pass at a point runs with other options ("<point>:<name>", points.VARIANT_OPTIONS) shares every
    step before that point with the plain build, differs there, and options of a pass that does not run there
    change nothing."""
    from triton_mfma.composition.points import variant_options, variants_at

    plain, regs = frozenset({"accelerate_matmul", "pipeline"}), frozenset({"accelerate_matmul", "pipeline",
                                                                          "accelerate_matmul:registers"})
    assert variants.first_difference(plain, regs) == 0  # accelerate_matmul, the first point
    assert variants.steps_before(regs, "accelerate_matmul") == variants.steps_before(plain, "accelerate_matmul")
    assert variants.steps_before(regs, "pipeline") != variants.steps_before(plain, "pipeline")
    assert variants_at(regs, "accelerate_matmul") == {"accelerate_matmul:registers"}
    assert not variants_at(regs - {"accelerate_matmul"}, "accelerate_matmul")  # our pass does not run there
    assert variants.first_difference(plain - {"accelerate_matmul"}, regs - {"accelerate_matmul"}) is None
    assert variant_options(regs) == {"dot_registers_first": True} and variant_options(plain) == {}
