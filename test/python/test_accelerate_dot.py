"""mfma-accelerate-dot on real kernels, in place of Triton's accelerate_matmul, on gfx90a/gfx942/gfx950.

Each kernel is compiled to hsaco with the pass; the instruction the pass reports choosing must be the
v_mfma_* the AMDGPU backend emits. For flash attention the final TTGIR must have no LDS round trip between
the two dots. Every MFMA layout the compiles leave on a tt.dot is checked element by element, through
Triton's LinearLayout, against the instruction's documented lane/register mapping.
"""
from __future__ import annotations

import contextlib
import re
import warnings

import pytest
import triton
import triton.language as tl
from conftest import assert_same_compiles
from irutil import ops, parse
from linear_layouts import is_register_permutation, linear_layout, position
from mlir import ir
from triton import knobs

import triton_mfma
from triton_mfma import MFMARemark
from triton_mfma.models import cost_model
from triton_mfma.compiler.compile import compile_kernel
from triton_mfma.examples import ARCHS
from triton_mfma.examples import kernels as K
from triton_mfma.composition.passes import REGISTRY

PASS = "mfma-accelerate-dot"

# Kernels of the corpus, re-jitted: other tests compare stock compiles of the corpus' JITFunction objects
# byte for byte, and Triton 3.9's compile of a JITFunction is not independent of that object's earlier
# compiles (phi order in the llir can change), so these tests keep their own objects.
matmul = triton.jit(K.matmul.fn)
splitk_gemm = triton.jit(K.splitk_gemm.fn)
attn_fwd = triton.jit(K.attn_fwd.fn)


def _attn(d, causal, bm=128, bn=64):
    return attn_fwd, K._attn_sig(), dict(BLOCK_M=bm, BLOCK_N=bn, HEAD_DIM=d, CAUSAL=causal)


@contextlib.contextmanager
def _capture_ttgir(box: dict):
    """A stages hook that keeps the final TTGIR in generic form (chained after triton-mfma's hook)."""
    def hook(*args):
        if not args:
            return "capture-ttgir", "capture-ttgir"
        stages = args[1]
        inner = stages["ttgir"]

        def ttgir(src, metadata):
            mod = inner(src, metadata)
            box["ttgir"] = triton_mfma.export_generic(mod)
            return mod

        stages["ttgir"] = ttgir

    knobs.runtime.add_stages_inspection_hook = hook
    try:
        yield box
    finally:
        knobs.runtime.add_stages_inspection_hook = None


class Compiled:
    def __init__(self, kernel, ttgir: str, remarks: list[str]):
        self.kernel, self.ttgir, self.remarks = kernel, ttgir, remarks
        self.module = parse(ttgir)
        self.amdgcn = kernel.asm["amdgcn"]

    def chosen(self) -> list[str]:
        """The instructions the pass's remarks name as chosen, one per dot."""
        return [m.group(1) for r in self.remarks if (m := re.search(r": (v_mfma_\w+) warps=", r))]

    def emitted(self) -> set[str]:
        return set(re.findall(r"^\s*(v_mfma_\w+)", self.amdgcn, re.MULTILINE))


_cache: dict = {}


def compile_ours(fn, sig, constexprs, arch, options=None, **mfma_options) -> Compiled:
    """The pass's own choice (verify_dot=False unless given): these tests check the pass, not the hook's
    verification, which may put Triton's layouts back."""
    mfma_options.setdefault("verify_dot", False)
    key = (fn.__name__, tuple(sorted(sig.items())), tuple(sorted(constexprs.items())), arch,
           tuple(sorted((options or {}).items())), tuple(sorted(mfma_options.items())))
    if key not in _cache:
        box = {}
        with _capture_ttgir(box), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            triton_mfma.enable(passes=[PASS], **mfma_options)
            try:
                kernel = compile_kernel(fn, sig, constexprs, arch, options)
            finally:
                triton_mfma.disable()
        remarks = [str(w.message) for w in caught if issubclass(w.category, MFMARemark)]
        _cache[key] = Compiled(kernel, box["ttgir"], remarks)
    return _cache[key]


def compile_stock_ttgir(fn, sig, constexprs, arch, options=None):
    box = {}
    with _capture_ttgir(box):
        compile_kernel(fn, sig, constexprs, arch, options)
    return parse(box["ttgir"])


def assert_chosen_instructions_emitted(c: Compiled, n_dots: int):
    chosen = c.chosen()
    assert len(chosen) == n_dots, c.remarks
    assert c.kernel.asm["hsaco"], "compiled to a code object"
    assert set(chosen) == c.emitted(), f"chosen {chosen}, amdgcn has {sorted(c.emitted())}"


# --- GEMM, split-K decode GEMM, flash attention ------------------------------------------------------------

GEMM_TILES = [(16, 16, 64), (16, 256, 32), (32, 64, 64), (64, 128, 32), (128, 128, 32), (256, 64, 32),
              (256, 256, 32)]


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("bm,bn,bk", GEMM_TILES, ids=[f"{m}x{n}x{k}" for m, n, k in GEMM_TILES])
def test_gemm(arch, bm, bn, bk):
    c = compile_ours(matmul, K._gemm_sig(), dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk), arch)
    assert_chosen_instructions_emitted(c, 1)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("m", [1, 4, 16, 64])
def test_splitk_decode_gemm(arch, m):
    fn, sig = splitk_gemm, K.CORPUS["splitk_gemm"][1]
    c = compile_ours(fn, sig, dict(BLOCK_M=m, BLOCK_N=64, BLOCK_K=64, SPLIT_K=4), arch)
    assert_chosen_instructions_emitted(c, 1)
    if m < 16:
        # Triton uses FMA (M = 1) or a 4x64 tile every wave computes whole (M = 4); the cost model picks
        # 16x16 with the waves along N.
        assert all("16x16" in i for i in c.chosen()), c.remarks


def _ops_in(op, name: str) -> list:
    found = []

    def visit(o):
        if o.name == name:
            found.append(o)
        return ir.WalkResult.ADVANCE

    op.operation.walk(visit)
    return found


def _producer(value):
    """The operation defining `value`, or None for a block argument."""
    if isinstance(value.owner, ir.Block):
        return None
    return value.owner.operation if hasattr(value.owner, "operation") else value.owner


def _path_from(head, tail):
    """Operations between `head`'s result and `tail`'s operand A (walking A's producers back within the loop
    body), or None if A is not computed from `head`'s result."""
    path, work, seen, found = [], [tail.operands[0]], set(), False
    while work:
        v = work.pop()
        if v == head.results[0]:
            found = True
            continue
        op = _producer(v)
        if op is None or op.name == "tt.dot" or id(op) in seen:
            continue
        seen.add(id(op))
        path.append(op)
        work.extend(op.operands)
    return path if found else None


def assert_no_lds_round_trip(module):
    """In the KV loop: the first dot's result reaches the second dot's operand A with no local_alloc /
    local_load / local_store on the way, and every convert_layout on the way is a register permutation
    (each lane and wave keeps the same elements; checked with Triton's LinearLayout)."""
    loops = ops(module, "scf.for")
    assert len(loops) == 1, "one KV loop"
    d1, d2 = _ops_in(loops[0], "tt.dot")
    path = _path_from(d1, d2)
    assert path is not None, "the second dot's operand A is computed from the first dot's result"
    names = [op.name for op in path]
    assert not {"ttg.local_alloc", "ttg.local_load", "ttg.local_store"} & set(names), names
    for op in path:
        if op.name != "ttg.convert_layout":
            continue
        src, dst = ir.RankedTensorType(op.operands[0].type), ir.RankedTensorType(op.results[0].type)
        shape, elem = tuple(src.shape), str(src.element_type)
        ok = is_register_permutation(linear_layout(str(src.encoding), shape, elem),
                                     linear_layout(str(dst.encoding), shape, elem))
        assert ok, f"{src.encoding} -> {dst.encoding} moves data across lanes"


FA_CASES = [(64, False), (64, True), (128, False), (128, True)]


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("d,causal", FA_CASES, ids=[f"d{d}{'-causal' if c else ''}" for d, c in FA_CASES])
def test_flash_attention(arch, d, causal):
    fn, sig, cx = _attn(d, causal)
    c = compile_ours(fn, sig, cx, arch)
    assert_chosen_instructions_emitted(c, 2)
    assert any("chain head" in r for r in c.remarks) and any("chain tail" in r for r in c.remarks)
    assert_no_lds_round_trip(c.module)


def test_flash_attention_bn16_stock_round_trips_ours_does_not():
    """BLOCK_N = 16: Triton picks 16x16 for QK^T and 32x32 for PV, so P goes through LDS; the joint choice
    keeps one instruction M and P in registers."""
    fn, sig, _ = _attn(64, False)
    cx = dict(BLOCK_M=128, BLOCK_N=16, HEAD_DIM=64, CAUSAL=False)
    with pytest.raises(AssertionError, match="moves data across lanes|local_"):
        assert_no_lds_round_trip(compile_stock_ttgir(fn, sig, cx, "gfx942"))
    c = compile_ours(fn, sig, cx, "gfx942")
    assert_chosen_instructions_emitted(c, 2)
    assert set(c.chosen()) == {"v_mfma_f32_16x16x16_f16"}
    assert_no_lds_round_trip(c.module)


# --- Triton's own options reach the pass ---------------------------------------------------------------------

def test_triton_options_reach_the_pass():
    p = REGISTRY[PASS]

    class Opts:
        matrix_instr_nonkdim = 16
        kpack = 1

    assert p.pipeline_element({}, Opts()) == f"{PASS}{{matrix-instr-nonkdim=16}}"
    assert p.pipeline_element({"matrix_instr_nonkdim": 32}, Opts()) == f"{PASS}{{matrix-instr-nonkdim=32}}"
    assert p.pipeline_element({}, None) == PASS
    Opts.matrix_instr_nonkdim, Opts.kpack = 0, 2  # Triton's "choose" nonkdim; an explicit kpack
    assert p.pipeline_element({}, Opts()) == f"{PASS}{{kpack=2}}"


def test_matrix_instr_nonkdim_from_the_kernel_options():
    c = compile_ours(matmul, K._gemm_sig(), dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=32), "gfx942",
                     options={"matrix_instr_nonkdim": 16})
    assert c.chosen() == ["v_mfma_f32_16x16x16_f16"]
    assert_chosen_instructions_emitted(c, 1)


# --- element mapping of every emitted MFMA layout ------------------------------------------------------------

# Other element types, so that every instruction family the pass emits is checked.
TYPED_GEMMS = [("gfx90a", "*bf16", "*fp16"), ("gfx90a", "*i8", "*i32"), ("gfx942", "*fp32", "*fp32"),
               ("gfx942", "*fp8e4b8", "*fp16"), ("gfx942", "*i8", "*i32"), ("gfx950", "*fp8e4nv", "*fp16"),
               ("gfx950", "*bf16", "*fp16"), ("gfx950", "*i8", "*i32")]


def _kernels_for_mapping(arch):
    yield compile_ours(matmul, K._gemm_sig(), dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=32), arch)
    fn, sig = splitk_gemm, K.CORPUS["splitk_gemm"][1]
    yield compile_ours(fn, sig, dict(BLOCK_M=16, BLOCK_N=64, BLOCK_K=64, SPLIT_K=4), arch)
    yield compile_ours(*_attn(128, True), arch)
    for a, dt, out in TYPED_GEMMS:
        if a == arch:
            yield compile_ours(matmul, K._gemm_sig(dt, out), dict(BLOCK_M=64, BLOCK_N=64, BLOCK_K=64), arch)


_MFMA = re.compile(r"#ttg\.amd_mfma<\{version = \d+, warpsPerCTA = \[[\d, ]+\], instrShape = \[(\d+), (\d+), (\d+)\], "
                   r"isTransposed = (true|false)")


def _kbase(instr_k: int, m: int) -> int:
    # Elements a lane feeds one hardware instruction: the tile's K spread over 64 / m lane groups.
    return instr_k * m // 64


def check_result_mapping(ll, m, n, transposed):
    """Accumulator of an m x n tile (m = n = 16 or 32), as the CDNA3/CDNA4 ISA guides lay it out (AMD's
    matrix-core guide shows the same with code: 32x32: C[8 * (v // 4) + 4 * (l // 32) + v % 4][l % 32];
    16x16: C[4 * (l // 16) + v][l % 16]): lane l, register v of the first tile hold D[i][j] with j = l % n,
    i = (v // 4) * (4 * 64 // n) + 4 * (l // n) + v % 4. A transposed layout computes D^T = B^T A^T, so lane
    l holds D[j][i] instead."""
    for lane in range(64):
        for v in range(m * n // 64):
            i = (v // 4) * (4 * 64 // n) + 4 * (lane // n) + v % 4
            j = lane % n
            expected = (j, i) if transposed else (i, j)
            assert position(ll, v, lane) == expected, (lane, v)


def check_operand_mapping(lla, llb, m, n, k, kwidth, kbase, exact):
    """Operands of one hardware instruction, lane l, element v < kBase (the lane's registers 0..kBase-1):
    A[i][kk] with i = l % m, B[kk][j] with j = l % n (ISA); A and B must agree on kk for every (l, v); every
    row of A sees the same k distinct kk (a whole K block, none twice; with kpack 2 or a chain tail's kWidth 4
    the block is a permutation of K that A and B share); and where the lane's run is the instruction's own
    (kWidth == kBase) kk is the ISA's kBase * (l // m) + v (for the f8f6f4 instructions, runs of 16 at
    32 * (v // 16) + 16 * (l // 32) + v % 16, as AMD documents them)."""
    rows: dict = {}
    for lane in range(64):
        for v in range(kbase):
            ia, ka = position(lla, v, lane)
            kb, jb = position(llb, v, lane)
            assert ia == lane % m and jb == lane % n, (lane, v, (ia, ka), (kb, jb))
            assert ka == kb, ("A and B disagree on K", lane, v, ka, kb)
            rows.setdefault(ia, []).append(ka)
            if exact:
                groups = 64 // m
                run = kwidth
                expected = (v // run) * run * groups + run * (lane // m) + v % run
                assert ka == expected, (lane, v, ka, expected)
    blocks = {tuple(sorted(ks)) for ks in rows.values()}
    assert len(blocks) == 1, "every row sees the same K block"
    block = blocks.pop()
    assert len(block) == k and len(set(block)) == k, ("k distinct K indices per row", block)


@pytest.mark.parametrize("arch", ARCHS)
def test_emitted_layouts_match_the_instruction_mapping(arch):
    checked = set()
    for c in _kernels_for_mapping(arch):
        for dot in ops(c.module, "tt.dot") + ops(c.module, "tt.dot_scaled"):
            a_t, b_t = ir.RankedTensorType(dot.operands[0].type), ir.RankedTensorType(dot.operands[1].type)
            d_t = ir.RankedTensorType(dot.results[0].type)
            match = _MFMA.search(str(d_t.encoding))
            assert match, f"an MFMA result layout: {d_t.encoding}"
            m, n, k = (int(x) for x in match.groups()[:3])
            transposed = match.group(4) == "true"
            kwidth = int(re.search(r"kWidth = (\d+)", str(a_t.encoding)).group(1))
            scaled = dot.name == "tt.dot_scaled"
            kbase = _kbase(k, m)
            key = (str(d_t.encoding), str(a_t.encoding), str(b_t.encoding), str(a_t.element_type))
            if key in checked:
                continue
            checked.add(key)
            assert m == n and m in (16, 32), "the kernels here use square tiles"
            lld = linear_layout(str(d_t.encoding), tuple(d_t.shape), "f32")
            check_result_mapping(lld, m, n, transposed)
            lla = linear_layout(str(a_t.encoding), tuple(a_t.shape), str(a_t.element_type))
            llb = linear_layout(str(b_t.encoding), tuple(b_t.shape), str(b_t.element_type))
            check_operand_mapping(lla, llb, m, n, k, kwidth, kbase, exact=kwidth == kbase or scaled)
    assert len(checked) >= 4


# --- verification (verify_dot, the default): ours kept unless the one judge ranks Triton's layouts better ----

def _decision(c: Compiled) -> str:
    return next(r for r in c.remarks if "mfma-accelerate-dot: " in r)


def test_verification_reverts_where_ours_is_worse():
    """gfx942 GEMM 16x64x64: ours (kpack 2) costs 2 SGPRs on an SGPR-limited kernel, occupancy 7 -> 6; the
    verified compile keeps Triton's layouts, and its amdgcn is stock's."""
    cx = dict(BLOCK_M=16, BLOCK_N=64, BLOCK_K=64)
    raw = compile_ours(matmul, K._gemm_sig(), cx, "gfx942")
    verified = compile_ours(matmul, K._gemm_sig(), cx, "gfx942", verify_dot=True)
    stock = compile_kernel(matmul, K._gemm_sig(), cx, "gfx942")
    assert raw.amdgcn != stock.asm["amdgcn"]
    assert "reverted to Triton's dot layouts" in _decision(verified) and "occupancy 7 -> 6" in _decision(verified)
    assert_same_compiles(verified.kernel, stock, ("amdgcn",),
                         lambda: compile_kernel(matmul, K._gemm_sig(), cx, "gfx942"))


def test_verification_keeps_ours_where_not_worse():
    """gfx942 flash attention 128x128, 8 warps: chain-dot layouts keep P in registers (LDS ops 172 -> 50)."""
    fn, sig, cx = _attn(64, False, 128, 128)
    raw = compile_ours(fn, sig, cx, "gfx942", dict(num_warps=8))
    verified = compile_ours(fn, sig, cx, "gfx942", dict(num_warps=8), verify_dot=True)
    decision = _decision(verified)
    assert "kept: better on dot cycles" in decision, decision
    assert re.search(r"LDS ops (\d+) -> (\d+)", decision) and verified.amdgcn == raw.amdgcn
    before, after = map(int, re.search(r"LDS ops (\d+) -> (\d+)", decision).groups())
    assert after < before


def test_kwidth_only_layouts_below_their_lds_cap_are_kept_without_a_compile():
    """gfx942 flash attention D=64 128x64, 4 warps: only kWidth differs from Triton's layouts; ours has no spill at 3
    waves/SIMD where Triton's layouts' LDS would let 4 run, which they could reach only with fewer VGPRs for the
    same bytes per lane (rare: accelerate_dot.KWIDTH_MORE_WAVES). Kept by the model, Triton's layouts not compiled;
    under trial_all the comparison compiles and finds them equal, with the same kernel."""
    from triton_mfma.decisions.accelerate_dot import KWIDTH_MORE_WAVES

    fn, sig, cx = _attn(64, False, 128, 64)
    modeled = compile_ours(fn, sig, cx, "gfx942", verify_dot=True)
    decision = _decision(modeled)
    assert "only kWidth differs" in decision and KWIDTH_MORE_WAVES in decision, decision
    assert "no spill at 3 waves/SIMD" in decision and "(not compiled)" in decision, decision
    assert modeled.kernel.metadata.triton_mfma_trials == 1
    tried = compile_ours(fn, sig, cx, "gfx942", verify_dot=True, trial_all=True)
    assert "kept: equal on every ranked figure" in _decision(tried), _decision(tried)
    assert "occupancy 3 -> 3" in _decision(tried) and tried.amdgcn == modeled.amdgcn


def test_verification_is_off_for_kernels_without_dots_and_when_disabled():
    fn, sig, cx = K.CORPUS["softmax"]
    verification = re.compile(r"mfma-accelerate-dot: (kept|reverted)")
    assert not any(verification.search(r) for r in compile_ours(fn, sig, cx, "gfx942", verify_dot=True).remarks)
    gemm = compile_ours(matmul, K._gemm_sig(), dict(BLOCK_M=16, BLOCK_N=64, BLOCK_K=64), "gfx942")
    assert not any(verification.search(r) for r in gemm.remarks)


def test_verification_falls_back_to_stock_when_ours_does_not_compile(monkeypatch):
    """If our layouts' trial compile fails, a user's compile warns and uses Triton's layouts (strict: raises).
    The failure is simulated in the figures of every compile that is not stock's (ours)."""
    from triton_mfma import MFMAWarning
    from triton_mfma.models import dot_figures

    cx = dict(BLOCK_M=32, BLOCK_N=32, BLOCK_K=64)
    stock = compile_kernel(matmul, K._gemm_sig(), cx, "gfx942").asm["amdgcn"]
    real = dot_figures.of_amdgcn

    def flaky(amdgcn, *args, **kwargs):
        if amdgcn != stock:
            raise RuntimeError("simulated: ours does not compile")
        return real(amdgcn, *args, **kwargs)

    monkeypatch.setattr(dot_figures, "of_amdgcn", flaky)
    monkeypatch.setenv("TRITON_MFMA_STRICT", "0")  # a user's compile (the tests run strict)
    with warnings.catch_warnings(record=True) as caught, triton_mfma.enabled(passes=[PASS]):
        warnings.simplefilter("always")
        k = compile_kernel(matmul, K._gemm_sig(), cx, "gfx942")
    assert any(issubclass(w.category, MFMAWarning) and "using Triton's dot layouts" in str(w.message)
               for w in caught)
    assert k.asm["amdgcn"] == stock
    monkeypatch.setenv("TRITON_MFMA_STRICT", "1")
    with pytest.raises(Exception, match="simulated"), warnings.catch_warnings(), triton_mfma.enabled(passes=[PASS]):
        warnings.simplefilter("ignore", MFMARemark)
        compile_kernel(matmul, K._gemm_sig(), cx, "gfx942")



@triton.jit
def _dot_scaled_kernel(a_ptr, b_ptr, sa_ptr, sb_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    om, on, ok, oks = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K), tl.arange(0, K // 32)
    a = tl.load(a_ptr + om[:, None] * K + ok[None, :])
    b = tl.load(b_ptr + ok[:, None] * N + on[None, :])
    sa = tl.load(sa_ptr + om[:, None] * (K // 32) + oks[None, :])
    sb = tl.load(sb_ptr + on[:, None] * (K // 32) + oks[None, :])
    tl.store(c_ptr + om[:, None] * N + on[None, :], tl.dot_scaled(a, sa, "e4m3", b, sb, "e4m3"))


@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
def test_declined_module_gets_tritons_accelerate_matmul(arch):
    """tt.dot_scaled is declined (remark, IR unchanged); the hook runs Triton's accelerate_matmul in the pass's
    place, so even in strict mode the kernel compiles, and its amdgcn is stock's."""
    sig = {"a_ptr": "*fp8e4nv", "b_ptr": "*fp8e4nv", "sa_ptr": "*u8", "sb_ptr": "*u8", "c_ptr": "*fp32"}
    cx = dict(M=64, N=64, K=128)
    sig.update({k: "constexpr" for k in cx})
    with warnings.catch_warnings(record=True) as caught, triton_mfma.enabled(passes=[PASS], strict=True):
        warnings.simplefilter("always")
        ours = compile_kernel(_dot_scaled_kernel, sig, cx, arch)
    remarks = [str(w.message) for w in caught if issubclass(w.category, MFMARemark)]
    assert any("mfma-accelerate-dot declined: a tt.dot_scaled" in r for r in remarks), remarks
    assert not any("mfma-accelerate-dot: kept" in r or "reverted" in r for r in remarks)
    assert ours.asm["amdgcn"] == compile_kernel(_dot_scaled_kernel, sig, cx, arch).asm["amdgcn"]


def test_verification_compares_against_stock_with_the_other_passes_declining():
    """With mfma-stream-pipeline on as well, a loop it declines gets Triton's pipeliner in both compiles the
    verification makes; the stock side of its comparison is then stock Triton's kernel, figure for figure."""
    from triton_mfma.models import dot_figures
    from triton_mfma.examples.pipeline_kernels import PIPELINE_CORPUS

    fn, sig, cx = PIPELINE_CORPUS["gemm_store_in_loop"]
    with warnings.catch_warnings(record=True) as caught, triton_mfma.enabled(
            passes=[PASS, "mfma-stream-pipeline"], verify_dot=True):
        warnings.simplefilter("always")
        ours = compile_kernel(fn, sig, cx, "gfx942")
    decision = next(str(w.message) for w in caught if "mfma-accelerate-dot: " in str(w.message))
    assert any(re.search("mfma-stream-pipeline:? declined", str(w.message)) for w in caught)
    stock = dot_figures.of_kernel(compile_kernel(fn, sig, cx, "gfx942"))
    compared = dict(re.findall(r"(occupancy|spills|main-loop dot cycles|LDS ops) (\d+) ->", decision))
    assert compared == {"occupancy": str(stock.occupancy), "spills": str(stock.spills),
                        "main-loop dot cycles": str(stock.loop_cycles), "LDS ops": str(stock.loop_ds)}, decision
    assert not cost_model.judge(stock, dot_figures.of_kernel(ours)).worse


def test_verification_decision_is_kept_with_the_kernel_and_reported(tmp_path, monkeypatch):
    """The decision travels in the kernel's metadata (so a cached kernel still has it) and in its report."""
    from triton import knobs

    monkeypatch.setattr(knobs.cache, "dir", str(tmp_path))  # a fresh cache: the first compile is a real one
    cx = dict(BLOCK_M=16, BLOCK_N=64, BLOCK_K=64)
    saved = knobs.compilation.always_compile
    knobs.compilation.always_compile = False  # this test is about the cache
    try:
        with warnings.catch_warnings(), triton_mfma.enabled(passes=[PASS]):
            warnings.simplefilter("ignore", MFMARemark)
            first = compile_kernel(matmul, K._gemm_sig(), cx, "gfx942")
            again = compile_kernel(matmul, K._gemm_sig(), cx, "gfx942")
    finally:
        knobs.compilation.always_compile = saved
    assert first.hash == again.hash
    assert again.metadata.triton_mfma_accelerate_dot == first.metadata.triton_mfma_accelerate_dot
    assert first.metadata.triton_mfma_accelerate_dot["decision"] == "reverted"
    report = triton_mfma.report(again)
    rows = dict(report.rows())
    assert rows["mfma-accelerate-dot"].startswith("reverted to Triton's dot layouts")
    # the verification compiled both layouts: what the compile cost, also from a cached kernel
    assert report.trials == again.metadata.triton_mfma_trials == 2 and rows["trial compiles"].startswith("2 ")
    assert report.as_dict()["trials"] == 2
