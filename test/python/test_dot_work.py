"""The dot-cycles model (dot_work.py over the mfma-dot-work analysis): the MFMA instruction a dot's shape and
operand types name on each arch, and accelerate-dot deciding by it without compiling Triton's layouts only where
a trial would keep ours on the same figure."""
from __future__ import annotations

import warnings

import pytest

import triton_mfma
from triton_mfma.models import dot_work
from triton_mfma.ir import native
from triton_mfma.compiler.compile import compile_kernel


@pytest.mark.parametrize("arch,shape,types,mnemonic", [
    ("gfx90a", (16, 16, 16), ("f16", "f16"), "v_mfma_f32_16x16x16f16"),
    ("gfx90a", (32, 32, 8), ("bf16", "bf16"), "v_mfma_f32_32x32x8bf16_1k"),
    ("gfx942", (16, 16, 8), ("f32", "f32"), "v_mfma_f32_16x16x8_xf32"),
    ("gfx942", (16, 16, 4), ("f32", "f32"), "v_mfma_f32_16x16x4_f32"),
    ("gfx942", (32, 32, 16), ("f8E4M3FNUZ", "f8E5M2FNUZ"), "v_mfma_f32_32x32x16_fp8_bf8"),
    ("gfx950", (16, 16, 32), ("f8E5M2", "f8E5M2"), "v_mfma_f32_16x16x32_bf8_bf8"),
    ("gfx950", (32, 32, 32), ("i8", "i8"), "v_mfma_i32_32x32x32_i8"),
])
def test_instruction_named_by_shape_and_types(arch, shape, types, mnemonic):
    assert dot_work.instruction_cycles(arch, *shape, *types) == native.mfma_cycles()[arch, mnemonic]


@pytest.mark.parametrize("arch,shape,types", [
    ("gfx90a", (16, 16, 32), ("f8E4M3FNUZ", "f8E4M3FNUZ")),  # no fp8 MFMA on gfx90a
    ("gfx942", (16, 16, 16), ("f16", "bf16")),  # mixed operand types name no instruction
    ("gfx942", (16, 16, 16), ("f64", "f64")),
])
def test_no_instruction_no_cycles(arch, shape, types):
    assert dot_work.instruction_cycles(arch, *shape, *types) is None


def _generated(seed, arch, tmp_path, **mfma_options):
    from triton_mfma.testing import kernelgen

    fn, sig, cx, attrs, opts = kernelgen.compile_args(kernelgen.spec(seed), str(tmp_path), arch)
    with warnings.catch_warnings(), triton_mfma.enabled(**mfma_options):
        warnings.simplefilter("ignore")
        return compile_kernel(fn, sig, cx, arch, opts, attrs)


@pytest.mark.parametrize("arch", ["gfx90a", "gfx942"])
def test_fewer_dot_cycles_decided_without_compiling_tritons_layouts(tmp_path, monkeypatch, arch):
    """Generated seed 851 (fp8 chained GEMM 32x32x32, 8 warps): Triton's layouts put the 8 warps along M, each
    repeating the tile's one block row (32x32x8: 4 instructions per wave on gfx90a), ours 4 x 2 warps of 16x16x16
    (2). The model keeps ours with one compile; every trial keeps ours on the same figure, and its record shows the
    model's prediction equal to the compiled main loop's dot cycles."""
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    k = _generated(851, arch, tmp_path)
    dot = k.metadata.triton_mfma_accelerate_dot
    assert (dot["decision"], dot["evidence"]) == ("kept", "model") and "dot cycles" in dot["reason"], dot
    assert k.metadata.triton_mfma_trials == 1
    full = _generated(851, arch, tmp_path, trial_all=True).metadata.triton_mfma_accelerate_dot
    assert (full["decision"], full["evidence"]) == ("kept", "trial") and full["reason"].startswith("better on dot")
    assert full["dot_cycles"]["model"] == full["dot_cycles"]["compiled"], full["dot_cycles"]
    assert k.asm is not None


@pytest.mark.parametrize("seed,arch,said", [
    # Generated seed 4029 on gfx90a (fp8e5b16 GEMM 16x16x16, 8 warps: no MFMA of gfx90a takes its operands):
    # Triton's layouts do the dot on FMA, at least 64 cycles a wave (16 dependent f32 multiply-adds per lane), ours
    # on one 16x16x16 MFMA (32); Triton's compiled figure at least the bound.
    (4029, "gfx90a", "on FMA"),
    # Held-out seed 4311 on gfx942 (fp32 ieee 16x16x32, 4 warps): Triton's layouts repeat one 16x16x4 f32 MFMA block
    # on every warp (256 cycles an iteration), ours run the dot on FMA, one element a lane (128 compiled; two compiles
    # before this model, 2.67x stock CPU); Triton's compiled figure at least one iteration's.
    (4311, "gfx942", "ours on FMA"),
])
def test_fma_dot_decided_without_compiling_tritons_layouts(tmp_path, monkeypatch, seed, arch, said):
    """One side's dot on FMA, the other's on MFMA: the model keeps ours with one compile; the trial keeps ours on dot
    cycles, with the model's figures for ours exact and for Triton's at most its compiled one."""
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    k = _generated(seed, arch, tmp_path)
    dot = k.metadata.triton_mfma_accelerate_dot
    assert (dot["decision"], dot["evidence"]) == ("kept", "model") and said in dot["reason"], dot
    assert k.metadata.triton_mfma_trials == 1
    full = _generated(seed, arch, tmp_path, trial_all=True).metadata.triton_mfma_accelerate_dot
    assert (full["decision"], full["evidence"]) == ("kept", "trial") and full["reason"].startswith("better on dot")
    (model_theirs, model_ours), (theirs, ours) = full["dot_cycles"]["model"], full["dot_cycles"]["compiled"]
    assert theirs >= model_theirs and ours == model_ours, full["dot_cycles"]


def test_fma_dot_beside_a_scaled_mfma_is_compared_by_trial(tmp_path, monkeypatch):
    """Held-out seed 4228 on gfx950: Triton's layouts put its tt.dot_scaled on MFMA (which the analysis does not
    read) and the tt.dot after it on FMA, and LLVM unrolls the loop whole, so the compiled figure counts the scaled
    dot's MFMA cycles alone (64; ours 96): no bound there, and the trial reverts to Triton's layouts."""
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    dot = _generated(4228, "gfx950", tmp_path).metadata.triton_mfma_accelerate_dot
    assert (dot["decision"], dot["evidence"]) == ("reverted", "trial") and dot["dot_cycles"]["model"] is None, dot


def test_scaled_fp8_dot_read_without_compiling_tritons_layouts(tmp_path, monkeypatch):
    """Held-out seed 4273 on gfx950 (fp8e5 32x64x64 chain, 8 warps): Triton's layouts make its dots tt.dot_scaled
    on 32x32x64 f8f6f4 MFMAs, its 8 warps repeating one block (128 cycles a wave each), ours tt.dot on 16x16 (32).
    The analysis reads the scaled dots: ours kept by model, one compile (two before, 2.04x stock CPU)."""
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    k = _generated(4273, "gfx950", tmp_path)
    dot = k.metadata.triton_mfma_accelerate_dot
    assert (dot["decision"], dot["evidence"]) == ("kept", "model") and "256 -> 64" in dot["reason"], dot
    assert k.metadata.triton_mfma_trials == 1


def _module(warps, instr, m=32, n=32, k=32, in_loop=True):
    """A generic TTGIR module with one f16 tt.dot (in an scf.for where `in_loop`) of the given MFMA layout."""
    mma = (f"#ttg.amd_mfma<{{version = 2, warpsPerCTA = [{warps[0]}, {warps[1]}], instrShape = "
           f"[{instr[0]}, {instr[1]}, {instr[2]}], isTransposed = true}}>")
    a = f"tensor<{m}x{k}xf16, #ttg.dot_op<{{opIdx = 0, parent = {mma}, kWidth = 4}}>>"
    b = f"tensor<{k}x{n}xf16, #ttg.dot_op<{{opIdx = 1, parent = {mma}, kWidth = 4}}>>"
    c = f"tensor<{m}x{n}xf32, {mma}>"
    dot = (f'%d = "tt.dot"(%a, %b, %acc) <{{inputPrecision = 2 : i32, maxNumImpreciseAcc = 0 : i32}}> : '
           f'({a}, {b}, {c}) -> {c}')
    body = (f'%lb = "arith.constant"() <{{value = 0 : i32}}> : () -> i32\n'
            f'%st = "arith.constant"() <{{value = 1 : i32}}> : () -> i32\n'
            f'%r = "scf.for"(%lb, %n, %st, %c) ({{\n^bb1(%i: i32, %acc: {c}):\n{dot}\n'
            f'"scf.yield"(%d) : ({c}) -> ()\n}}) : (i32, i32, i32, {c}) -> {c}\n') if in_loop else \
        dot.replace("%acc", "%c") + "\n"
    return (f'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {warps[0] * warps[1]} : i32, '
            f'ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32}} {{\n'
            f'"tt.func"() <{{function_type = ({a}, {b}, {c}, i32) -> (), sym_name = "k", sym_visibility = "public"}}> '
            f'({{\n^bb0(%a: {a}, %b: {b}, %c: {c}, %n: i32):\n{body}"tt.return"() : () -> ()\n}}) : () -> ()\n}}\n')


def test_compare_ranks_only_fewer_cycles_on_every_dot():
    """Triton's layout of seed 851 (8 x 1 warps of 32x32x8 over a 32x32 tile: 4 x 64 cycles per wave) against ours
    (4 x 2 warps of 16x16x16: 2 x 32): ours fewer; never the other way, nor between equals, nor where the dots
    are not in the same loops (the main loop cannot be paired)."""
    theirs, ours = _module((8, 1), (32, 32, 8)), _module((4, 2), (16, 16, 16))
    assert dot_work.dots(ours, "gfx90a") == (dot_work.Dot(0, 64),)
    assert dot_work.compare(ours, theirs, "gfx90a") == (256, 64)
    assert dot_work.compare(theirs, ours, "gfx90a") is None
    assert dot_work.compare(ours, ours, "gfx90a") is None
    assert dot_work.compare(_module((4, 2), (16, 16, 16), in_loop=False), theirs, "gfx90a") is None


def _fma_module(m=16, n=16, k=16, elem="f32", spt=(1, 1), tpw=(4, 16), warps=(8, 1)):
    """`_module`'s kernel with the dot on FMA: a blocked result layout (Triton's for seed 4029 on gfx90a)."""
    blk = (f"#ttg.blocked<{{sizePerThread = [{spt[0]}, {spt[1]}], threadsPerWarp = [{tpw[0]}, {tpw[1]}], "
           f"warpsPerCTA = [{warps[0]}, {warps[1]}], order = [1, 0]}}>")
    text = _module((1, 1), (16, 16, 16), m, n, k)
    mma = "#ttg.amd_mfma<{version = 2, warpsPerCTA = [1, 1], instrShape = [16, 16, 16], isTransposed = true}>"
    text = text.replace(", kWidth = 4}>>", "}>>").replace(mma, blk).replace(f"x{k}xf16", f"x{k}x{elem}")
    return text.replace(f"tensor<{k}x{n}xf16", f"tensor<{k}x{n}x{elem}").replace('"ttg.num-warps" = 1',
                                                                                   f'"ttg.num-warps" = {warps[0] * warps[1]}')


@pytest.mark.parametrize("types,elements,k,cycles", [
    (("f32", "f32"), 1, 16, 64),  # one element: an f32 chain over K, one multiply-add an instruction (no f32 dot2)
    (("f16", "f16"), 1, 16, 32),  # v_dot2 takes two of K
    (("f32", "f32"), 32, 32, 2048),  # v_pk_fma takes two elements (seed 4106 on gfx90a compiled 4096)
    (("i8", "i8"), 4, 32, None),  # v_dot4_i32_i8: not an instruction the figure counts
])
def test_fma_cycles_lower_bound(types, elements, k, cycles):
    assert dot_work.fma_cycles_at_least(*types, elements, k) == cycles


def test_compare_bounds_an_fma_dot_on_the_other_side_only():
    """Triton's layouts of seed 4029 on gfx90a put its 16x16x16 dot on FMA (fp8 upcast to f32, 8 warps: one element
    per lane, 16 dependent multiply-adds: at least 64 cycles; compiled 72), ours on one 16x16x16 MFMA (32): ours
    fewer. The bound is never taken for the side said to have fewer, nor where the main loop mixes FMA and MFMA."""
    theirs, ours = _fma_module(), _module((8, 1), (16, 16, 16), 16, 16, 16)
    assert dot_work.dots(theirs, "gfx90a") == (dot_work.Dot(0, 64, exact=False),)
    assert dot_work.compare(ours, theirs, "gfx90a") == (64, 32)
    assert dot_work.compare(theirs, ours, "gfx90a") is None
    assert dot_work.main_loop_cycles_of(theirs, "gfx90a") is None  # exact figures only
    assert dot_work.main_loop_cycles(dot_work.dots(theirs, "gfx90a") + dot_work.dots(ours, "gfx90a")) is None
    assert dot_work.compare(ours, _fma_module(elem="f16"), "gfx90a") is None  # 32: no fewer
    # two dots, Triton's first on MFMA in the loop, its second on FMA after it (held-out seed 4228 on gfx950, a
    # chain): no bound, the compiled figure counts the MFMA instructions alone
    mfma, fma = ("mfma", (8, 1), (16, 16, 16)), ("fma", (8, 1), None)
    assert dot_work.dots(_two_dots(mfma, fma), "gfx90a") == (dot_work.Dot(0, 32), dot_work.Dot(-1, 64, exact=False))
    assert dot_work.compare(_two_dots(mfma, mfma), _two_dots(mfma, fma), "gfx90a") is None
    assert dot_work.compare(_two_dots(mfma, mfma), _two_dots(fma, fma), "gfx90a") == (64, 32)


def _two_dots(first, second) -> str:
    """A module with a 16x16x16 dot in an scf.for, then one after it; each ("mfma", warps, instrShape) or ("fma",
    warps, None): f16 operands on an MFMA layout, f32 on a blocked one (4 x 16 lanes, one element each)."""
    def types(kind, warps, instr, i):
        if kind == "mfma":
            parent = (f"#ttg.amd_mfma<{{version = 2, warpsPerCTA = [{warps[0]}, {warps[1]}], instrShape = "
                      f"[{instr[0]}, {instr[1]}, {instr[2]}], isTransposed = true}}>")
            op = lambda n: f"tensor<16x16xf16, #ttg.dot_op<{{opIdx = {n}, parent = {parent}, kWidth = 4}}>>"  # noqa
        else:
            parent = (f"#ttg.blocked<{{sizePerThread = [1, 1], threadsPerWarp = [4, 16], warpsPerCTA = "
                      f"[{warps[0]}, {warps[1]}], order = [1, 0]}}>")
            op = lambda n: f"tensor<16x16xf32, #ttg.dot_op<{{opIdx = {n}, parent = {parent}}}>>"  # noqa
        return op(0), op(1), f"tensor<16x16xf32, {parent}>"
    (a1, b1, c1), (a2, b2, c2) = types(*first, 1), types(*second, 2)
    dot = ('"tt.dot"({}, {}, {}) <{{inputPrecision = 2 : i32, maxNumImpreciseAcc = 0 : i32}}> : '
           '({}, {}, {}) -> {}')
    return (f'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "hip:gfx90a", '
            f'"ttg.threads-per-warp" = 64 : i32}} {{\n'
            f'"tt.func"() <{{function_type = ({a1}, {b1}, {c1}, {a2}, {b2}, {c2}, i32) -> (), sym_name = "k", '
            f'sym_visibility = "public"}}> ({{\n^bb0(%a: {a1}, %b: {b1}, %c: {c1}, %a2: {a2}, %b2: {b2}, %c2: {c2}, '
            f'%n: i32):\n%lb = "arith.constant"() <{{value = 0 : i32}}> : () -> i32\n'
            f'%st = "arith.constant"() <{{value = 1 : i32}}> : () -> i32\n'
            f'%r = "scf.for"(%lb, %n, %st, %c) ({{\n^bb1(%i: i32, %acc: {c1}):\n'
            f'%d = {dot.format("%a", "%b", "%acc", a1, b1, c1, c1)}\n"scf.yield"(%d) : ({c1}) -> ()\n'
            f'}}) : (i32, i32, i32, {c1}) -> {c1}\n'
            f'%e = {dot.format("%a2", "%b2", "%c2", a2, b2, c2, c2)}\n'
            f'"tt.return"() : () -> ()\n}}) : () -> ()\n}}\n')


def _ttir_dot(a: str, b: str, c: str) -> str:
    return (f'%5 = "tt.dot"(%1, %2, %3) <{{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}}> : '
            f"(tensor<{a}>, tensor<{b}>, tensor<{c}>) -> tensor<{c}>")


@pytest.mark.parametrize("dot,warps,acc,operands,fma", [
    # held-out 2556 on gfx90a: 256x64 fp32 results over one wave's 64 lanes, 256 each; a lane's results span at
    # least 2 sqrt(256) = 32 rows + columns of 64 fp8 (4 to a register): 512
    (("256x64xf8E5M2FNUZ", "64x64xf8E5M2FNUZ", "256x64xf32"), 1, 256, 512, {"gfx90a": True, "gfx942": False}),
    # 8 warps share 128x128 results (32 per lane): 2 sqrt(32) x 64 f16 (2 to a register) = 362
    (("128x64xf16", "64x128xf16", "128x128xf32"), 8, 32, 362, {"gfx90a": False, "gfx950": False}),
    # no fp8 MFMA on gfx90a; gfx950's takes OCP fp8
    (("64x128xf8E4M3FN", "128x64xf8E4M3FN", "64x64xf32"), 4, 16, 256, {"gfx90a": True, "gfx950": False}),
])
def test_fma_register_lower_bound(dot, warps, acc, operands, fma):
    text = _ttir_dot(*dot)
    assert dot_work.accumulator_registers(text, warps) == acc
    assert dot_work.fma_operand_registers(text, warps) == operands
    for arch, expected in fma.items():
        assert dot_work.without_mfma(text, arch) is expected, arch


def test_compiled_fma_dot_of_ours_against_tritons_mfma_iteration():
    """Ours on FMA (a 32x32x32 f32 tile over 8 warps: 2 elements a lane, at least 128 cycles), Triton's layouts on
    8 x 1 warps of 32x32x8 MFMAs (256 cycles an iteration): ours' compiled loop ranks fewer only where its figure is
    below one iteration of theirs and no less than ours' own lower bound (else the figure is not the dot's); never
    where ours has an MFMA layout."""
    ours, theirs = _fma_module(32, 32, 32), _module((8, 1), (32, 32, 8))
    assert dot_work.dots(ours, "gfx90a") == (dot_work.Dot(0, 128, exact=False),)
    assert dot_work.compiled_fma_fewer(ours, theirs, "gfx90a", 128) == (256, 128)
    assert dot_work.compiled_fma_fewer(ours, theirs, "gfx90a", 255) == (256, 255)
    assert dot_work.compiled_fma_fewer(ours, theirs, "gfx90a", 256) is None  # no fewer
    assert dot_work.compiled_fma_fewer(ours, theirs, "gfx90a", 64) is None  # below ours' bound: not the dot's loop
    assert dot_work.compiled_fma_fewer(theirs, ours, "gfx90a", 128) is None  # ours on MFMA: dot_work.compare's
    assert dot_work.compiled_fma_fewer(_fma_module(32, 32, 32, elem="i8"), theirs, "gfx90a", 128) is None  # v_dot4
    assert dot_work.compiled_fma_fewer(ours, _module((8, 1), (32, 32, 8), in_loop=False), "gfx90a", 128) is None
