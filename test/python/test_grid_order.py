"""mfma-grid-order: the emitted remap is executed (a scalar interpreter over the pass's output IR) for many grid
sizes, including ones that are multiples of nothing, and must be a bijection with the promised order; the run-time
guards must agree with the Python L2 model; real kernels compile through Triton with the pass (cuda and hip); the
residency bound makes the published MI210 split-K launches remap; a kernel already in the chosen order is left
byte-identical in every mode; `triton_mfma.grid_order_decision` answers for launches on gfx90a and cuda:90."""
import itertools
import math
import os
import re
import warnings

import pytest
import triton
import triton.language as tl
from conftest import assert_same_compiles
from irutil import ops, parse
from mlir import ir

import triton_mfma
from triton_mfma import MFMARemark, MFMAWarning, PipelineError, run_pipeline_with_diagnostics
from triton_mfma.models import l2model, occupancy
from triton_mfma.examples.kernels import _splitk_tile

LIT = os.path.join(os.path.dirname(__file__), "..", "lit", "mfma-grid-order.mlir")


def lit_case(name: str) -> str:
    """One kernel of the lit test (its split-input-file chunk), with every program id also fed to a `test.use`
    probe, whose operands after the pass are the ids the kernel body sees."""
    chunk = next(c for c in open(LIT).read().split("// -----") if f'sym_name = "{name}"' in c)
    pids = sorted(re.findall(r'%(\w+) = "tt.get_program_id"\(\) <\{axis = (\d) : i32\}>', chunk),
                  key=lambda p: int(p[1]))
    last = max(chunk.index(f'%{p} = "tt.get_program_id"') for p, _ in pids)
    eol = chunk.index("\n", last) + 1
    probe = (f'    "test.use"({", ".join("%" + p for p, _ in pids)}) : '
             f'({", ".join("i32" for _ in pids)}) -> ()\n')
    return chunk[:eol] + probe + chunk[eol:]


def run_pass(text: str, options: str = "") -> tuple[str, list]:
    pipeline = f"builtin.module(mfma-grid-order{{{options}}})" if options else "builtin.module(mfma-grid-order)"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MFMARemark)
        return run_pipeline_with_diagnostics(text, pipeline)


# The remap reads the grid size: tt.get_num_programs, or on hip the implicit kernel argument it lowers to
GRID_SIZE_READS = ("tt.get_num_programs", "llvm.amdgcn.implicitarg.ptr")


def grid_size_reads(module) -> int:
    return len(ops(module, "tt.get_num_programs")) + sum(
        ir.StringAttr(op.attributes["intrin"]).value == "llvm.amdgcn.implicitarg.ptr"
        for op in ops(module, "llvm.call_intrinsic"))


def _trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


class Remap:
    """Executes the scalar integer ops at the top of the kernel: (program ids, grid, arguments) -> the ids the
    kernel body sees (the probe's operands)."""

    BIN = {
        "arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b, "arith.muli": lambda a, b: a * b,
        "arith.divsi": _trunc_div, "arith.remsi": lambda a, b: a - _trunc_div(a, b) * b,
        "arith.divui": lambda a, b: a // b, "arith.remui": lambda a, b: a % b,  # (on non-negative values)
        "arith.minsi": min, "arith.maxsi": max, "arith.andi": lambda a, b: a & b,
    }
    CMP = {0: lambda a, b: a == b, 2: lambda a, b: a < b, 4: lambda a, b: a > b, 5: lambda a, b: a >= b}

    def __init__(self, text: str):
        self.module = parse(text)
        func = ops(self.module, "tt.func")[0]
        self.block = func.regions[0].blocks[0]
        self.probe = ops(self.module, "test.use")[0]

    def __call__(self, pid, nprog, args=None):
        env = {}
        for i, a in enumerate(self.block.arguments):
            if args and i in args:
                env[a] = args[i]
        self.taken = None
        result = self._run(self.block.operations, env, pid, nprog)
        if result is None:
            raise AssertionError("probe not reached")
        return result

    def _run(self, operations, env, pid, nprog):
        for op in operations:
            name = op.name
            if name == "test.use":
                return tuple(env[v] for v in op.operands)
            if name == "scf.yield":
                return [env[v] for v in op.operands]
            if name == "scf.if" and op.operands[0] in env:
                self.taken = bool(env[op.operands[0]])
                region = op.regions[0 if self.taken else 1]
                for r, v in zip(op.results, self._run(region.blocks[0].operations, env, pid, nprog)):
                    env[r] = v
                continue
            if len(op.results) != 1 or not isinstance(op.results[0].type, ir.IntegerType):
                continue
            r = op.results[0]
            if name == "llvm.load":  # hip: hidden_block_count_{x,y,z}, the implicit arguments' i32 0, 1, 2
                gep = op.operands[0].owner
                base = gep.operands[0].owner
                assert gep.name == "llvm.getelementptr" and base.name == "llvm.call_intrinsic"
                assert ir.StringAttr(base.attributes["intrin"]).value == "llvm.amdgcn.implicitarg.ptr"
                assert str(gep.attributes["elem_type"]) == "i32"
                env[r] = nprog[ir.DenseI32ArrayAttr(gep.attributes["rawConstantIndices"])[0]]
                continue
            vals = [env.get(v) for v in op.operands]
            if any(v is None for v in vals):
                continue
            if name in ("tt.get_program_id", "tt.get_num_programs"):
                axis = ir.IntegerAttr(op.attributes["axis"]).value
                env[r] = (pid if name == "tt.get_program_id" else nprog)[axis]
            elif name == "arith.constant":
                env[r] = ir.IntegerAttr(op.attributes["value"]).value
            elif name in self.BIN:
                env[r] = self.BIN[name](*vals)
            elif name == "arith.cmpi":
                env[r] = int(self.CMP[ir.IntegerAttr(op.attributes["predicate"]).value](*vals))
            elif name == "arith.select":
                env[r] = vals[1] if vals[0] else vals[2]
            elif name == "llvm.call_intrinsic":  # the guard's condition, marked expected false
                assert ir.StringAttr(op.attributes["intrin"]).value == "llvm.expect.i1"
                env[r] = vals[0]
            elif name == "arith.extsi":
                env[r] = vals[0]
        return None


def hardware_order(nprog):
    """Program ids in dispatch order: axis 0 fastest."""
    for z in range(nprog[2]):
        for y in range(nprog[1]):
            for x in range(nprog[0]):
                yield (x, y, z)


SPLITK_GRIDS = [(5, 3, 2), (7, 2, 3), (1, 1, 9), (13, 1, 11), (4, 2, 16), (3, 5, 17)]


@pytest.mark.parametrize("grid", SPLITK_GRIDS, ids=str)
def test_splitk_slow_remap_is_a_bijection_with_m_fastest(grid):
    out, _ = run_pass(lit_case("splitk_slow"), "mode=on")
    remap = Remap(out)
    seq = [remap(p, grid) for p in hardware_order(grid)]
    assert sorted(seq) == sorted(hardware_order(grid)), "every program runs exactly once"
    n0, n1, n2 = grid
    for i, (n, k, m) in enumerate(seq):  # groups of 8 M tiles; inside a group M varies fastest
        group, r = divmod(i, 8 * n0 * n1)
        width = min(n2 - 8 * group, 8)
        assert m == 8 * group + r % width
        assert (n, k) == ((r // width) % n0, (r // width) // n0)


@pytest.mark.parametrize("grid", [(5, 3, 2), (9, 2, 3), (16, 8, 2), (3, 1, 1), (7, 7, 7)], ids=str)
def test_xcd_chunks_put_twins_on_one_xcd(grid):
    out, _ = run_pass(lit_case("splitk_slow_xcd"), "mode=on")  # (auto: only where W exceeds an XCD's L2)
    remap = Remap(out)
    hw = list(hardware_order(grid))
    seq = [remap(p, grid) for p in hw]
    assert sorted(seq) == sorted(hw)
    total = len(hw)
    # workgroup i runs on XCD i % 8: each XCD must get a contiguous run of the grouped order
    logical = {p: i for i, p in enumerate(_grouped_order(grid))}
    for xcd in range(8):
        mine = sorted(logical[seq[i]] for i in range(xcd, total, 8))
        assert mine == list(range(mine[0], mine[0] + len(mine))) if mine else True


def _grouped_order(grid, g=8):
    n0, n1, n2 = grid
    out = []
    for i in range(n0 * n1 * n2):
        group, r = divmod(i, g * n0 * n1)
        width = min(n2 - g * group, g)
        out.append(((r // width) % n0, (r // width) // n0, g * group + r % width))
    return out


@pytest.mark.parametrize("rows,row_len,extra", [(16, 8, 0), (9, 5, 3), (20, 3, 2), (3, 7, 6), (1, 4, 0)])
def test_matmul_1d_grouped_like_group_m_and_exact_for_partial_rows(rows, row_len, extra):
    """1-D grid, pid // X and pid % X with X = cdiv(N, 128): the pass gives the GROUP_M = 8 order; programs in an
    incomplete last row (grid not a multiple of X) keep their ids."""
    out, _ = run_pass(lit_case("matmul_1d"), "mode=on")
    remap = Remap(out)
    n_arg = 4  # N is the 5th argument; X = (N + 127) // 128
    nprog = rows * row_len + extra
    seq = [remap((p,), (nprog,), {n_arg: row_len * 128})[0] for p in range(nprog)]
    assert sorted(seq) == list(range(nprog))
    assert seq[rows * row_len:] == list(range(rows * row_len, nprog))
    for pid, new in enumerate(seq[: rows * row_len]):  # the tutorial's formula, on the complete rows
        group, r = divmod(pid, 8 * row_len)
        width = min(rows - 8 * group, 8)
        assert divmod(new, row_len) == (8 * group + r % width, r // width)


def test_guard_matches_python_model():
    """auto mode on cuda:90: the run-time guard equals l2model.stock_order_misses for the same kernel."""
    out, _ = run_pass(lit_case("splitk_slow_cuda"))
    remap = Remap(out)
    target = l2model.TARGETS["cuda:90"]
    seen = set()
    for n_tiles, splits, k in itertools.product([8, 64, 300, 2000], [1, 4, 8], [512, 4096, 16384]):
        grid = (n_tiles, splits, 2)
        trips = (k + 511) // 512
        operands = [(32 * 64 * 2 * trips, {1, 2}), (64 * 64 * 2 * trips, {0, 1})]
        expect = l2model.stock_order_misses(target, grid, 2, operands, num_warps=4, shared_bytes=0)
        remap((0, 0, 1), grid, {3: k})
        assert remap.taken == expect, (grid, k)
        seen.add(expect)
    assert seen == {True, False}


def test_xcd_guard_matches_python_model():
    """auto mode on gfx942: the run-time guard is l2model.shared_bytes_exceed_l2 (W's distinct bytes, bytes per
    program x n0 x n1, against one XCD's effective L2), with no wave test."""
    out, _ = run_pass(lit_case("splitk_slow_xcd"))
    remap = Remap(out)
    target = l2model.TARGETS["hip:gfx942"]
    seen = set()
    for n_tiles, splits, k in itertools.product([2, 8, 64, 300], [1, 4, 8], [512, 4096, 16384]):
        grid = (n_tiles, splits, 2)
        trips = (k + 511) // 512
        expect = l2model.shared_bytes_exceed_l2(target, grid, [(64 * 64 * 2 * trips, {0, 1})])
        remap((0, 0, 1), grid, {3: k})
        assert remap.taken == expect, (grid, k)
        seen.add(expect)
    assert seen == {True, False}


def test_remarks_and_no_change_cases():
    for name, expect in [("no_splitk_fast", "already in the order the pass would choose"),
                         ("no_matmul_1d_grouped", "already permutes"),
                         ("no_elementwise", "no heavy operand is shared"), ("no_ticket", "may communicate")]:
        text = lit_case(name)
        for options in ("", "mode=on"):  # in every mode
            out, diags = run_pass(text, options)
            assert not grid_size_reads(parse(out)), (name, options)
            assert out == run_pass(text, "mode=off")[0], (name, options)  # byte-identical
            assert any(expect in d.message for d in diags), (name, [d.message for d in diags])


def test_bad_mode_is_an_error():
    with pytest.raises(PipelineError, match="mode must be auto, on or off"):
        run_pass(lit_case("splitk_slow"), "mode=sometimes")


def _compile(name, arch):
    import triton
    from triton.compiler import ASTSource

    from triton_mfma.compiler.compile import target
    from triton_mfma.examples.kernels import GRID_ORDER_KERNELS

    fn, sig, cx = GRID_ORDER_KERNELS[name]
    return triton.compile(ASTSource(fn, sig, cx), target=target(arch))


@pytest.mark.parametrize("arch", ["cuda:90", "gfx942"])
def test_real_kernels_compile_with_the_pass(arch, tmp_path):
    # splitk_decode_fast is in the order the pass would choose: unchanged, except on gfx942, where the XCD remap
    # (W's twins on one XCD) is taken at run time where W exceeds an XCD's L2
    expected = {"splitk_decode_slow": "remapped", "matmul_1d": "remapped", "matmul_1d_grouped": "unchanged",
                "matmul_1d_grouped_grid": "unchanged",
                "splitk_decode_fast": "remapped" if arch == "gfx942" else "unchanged"}
    for name, verdict in expected.items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with triton_mfma.enabled(passes=["mfma-grid-order"], dump=str(tmp_path)):
                k = _compile(name, arch)
        remarks = [str(w.message) for w in caught
                   if issubclass(w.category, MFMARemark) and "grid order" in str(w.message)]
        assert len(remarks) == 1 and f"'{name}': {verdict}" in remarks[0], remarks
        dumps = sorted(os.listdir(tmp_path / name))
        before, after = (open(tmp_path / name / [f for f in dumps if w in f][-1]).read() for w in ("before", "after"))
        added = grid_size_reads(parse(after)) - grid_size_reads(parse(before))
        assert (added > 0) == (verdict == "remapped")
        assert k.asm.get("cubin" if arch.startswith("cuda") else "hsaco")


def test_l2model_mirrors_the_cpp_figures():
    """The remark prints the C++ figures; the Python model has the same ones."""
    _, diags = run_pass(lit_case("splitk_slow_cuda"))
    msg = next(d.message for d in diags if "remapped" in d.message)
    t = l2model.TARGETS["cuda:90"]
    assert f"P = {t.concurrent_programs(4, 0)} programs ({t.cus} CUs" in msg
    assert f"exceed {t.effective_l2} B" in msg
    assert math.isclose(t.effective_l2, 50 * 2**20)  # the whole L2 (TargetInfo.cpp)


@pytest.mark.parametrize("rows", [64, 85])  # 16 KiB (a whole number of 512-byte granules) and 21760 B (not)
def test_concurrent_programs_use_the_occupancy_models_lds_granule(rows):
    """P in the run-time guard (C++ L2Model) counts a program's LDS (the LDS model's total) in 512-byte granules
    with 16 workgroup slots, as occupancy.workgroups_by_lds does; the Python model (l2model) gives the same P.
    One warp per program, so that the register bound (one wave per SIMD: 4 programs per CU) leaves LDS the
    limit."""
    text = lit_case("splitk_slow").replace('"ttg.num-warps" = 4', '"ttg.num-warps" = 1')  # gfx90a
    first = re.search(r'\n(\s*)%\w+ = "tt.get_program_id"[^\n]*\n', text)
    alloc = (f'{first.group(1)}%lds = "ttg.local_alloc"() : () -> !ttg.memdesc<{rows}x128xf16, '
             '#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, #ttg.shared_memory, '
             'mutable>\n')
    text = text[:first.end()] + alloc + text[first.end():]
    _, diags = run_pass(text)
    msg = next(d.message for d in diags if "remapped" in d.message)
    t = l2model.TARGETS["hip:gfx90a"]
    p = t.concurrent_programs(1, rows * 128 * 2)
    assert p == t.cus * min(4, occupancy.workgroups_by_lds("gfx90a", rows * 128 * 2))
    assert f"P = {p} programs ({t.cus} CUs x {p // t.cus}" in msg, msg
    assert t.residency(1, rows * 128 * 2)["programs_limiter"] == ("LDS" if rows == 85 else "registers")


def test_residency_is_a_lower_bound_from_the_register_file():
    """Registers are unknown at TTGIR: on CDNA the bound is one wave per SIMD (a wave may have all 512 VGPRs+AGPRs),
    never more than a real compile; on the H100/H200 the wave test counts an upper bound instead (L2Model.h), the
    64 warp slots of an SM: 16 programs of 4 warps, 8 of 8, fewer where shared memory says so."""
    for target, warps, per_cu in [("hip:gfx90a", 4, 1), ("hip:gfx90a", 8, 1), ("hip:gfx90a", 2, 2),
                                  ("hip:gfx90a", 1, 4), ("hip:gfx942", 4, 1)]:
        r = l2model.TARGETS[target].residency(warps, 0)
        assert (r["programs_by_registers"], r["programs_per_cu"], r["programs_limiter"]) == (per_cu, per_cu,
                                                                                              "registers"), target
    for warps, shared, per_cu, limiter in [(4, 0, 16, "warp slots"), (8, 0, 8, "warp slots"),
                                           (4, 48 * 1024, 4, "LDS")]:
        r = l2model.TARGETS["cuda:90"].residency(warps, shared)
        assert (r["programs_per_cu"], r["programs_limiter"]) == (per_cu, limiter), (warps, shared, r)
    # the real occupancy of a kernel at the most registers a wave may have is the bound
    assert occupancy.occupancy("gfx90a", 4, 512, 100, 0).workgroups_per_cu == 1


# ---------------------------------------------------------------------------------------------------------------
# Real kernels: the MI210 split-K launches, the user API, the already-chosen order


def _compile_decode(name, arch, split_k, block_k=128, **mfma_options):
    """The split-K decode kernel as the MI210 measurement ran it: BLOCK_M = 32, BLOCK_N = 64, BLOCK_K = 128,
    4 warps, unit strides constant, the rest divisible by 16 (as Triton's launcher specialises them)."""
    import triton
    from triton.compiler import ASTSource

    from triton_mfma.compiler.compile import target
    from triton_mfma.examples.kernels import GRID_ORDER_KERNELS

    fn, sig, cx = GRID_ORDER_KERNELS[name]
    sig, cx = dict(sig), dict(cx, BLOCK_M=32, BLOCK_N=64, BLOCK_K=block_k, SPLIT_K=split_k)
    for n in ("stride_ak", "stride_wn"):
        sig[n], cx[n] = "constexpr", 1
    names = list(sig)
    attrs = {(names.index(n),): [["tt.divisibility", 16]]
             for n in ("a_ptr", "w_ptr", "p_ptr", "M", "N", "K", "stride_am", "stride_wk", "stride_pk", "stride_pm")}
    src = ASTSource(fn, sig, cx, attrs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if mfma_options.pop("stock", False):
            with triton_mfma.disabled():
                return triton.compile(src, target=target(arch))
        with triton_mfma.enabled(**mfma_options):
            return triton.compile(src, target=target(arch))


def _decode_args(M, N, K):
    return dict(M=M, N=N, K=K, stride_am=K, stride_wk=N, stride_pk=M * N, stride_pm=N)


# The published MI210 measurement (104 CUs, 8 MB L2): M = 64 (2 M tiles), BLOCK_N = 64; M tiles fastest was 6-12%
# faster on the three 192-workgroup launches (W = 6.3 / 9.4 / 12.6 MB), no change on the 96-workgroup one.
MI210_LAUNCHES = [(8, 768, 4096), (8, 768, 6144), (8, 768, 8192)]


@pytest.fixture(scope="module")
def mi210_kernels():
    # the default passes, as TRITON_CODEGEN_AMD=1 runs them
    return {sk: _compile_decode("splitk_decode_slow", "gfx90a", sk) for sk in (8, 4)}


@pytest.mark.parametrize("split_k,N,K", MI210_LAUNCHES, ids=lambda v: str(v))
def test_mi210_split_k_launches_remap(mi210_kernels, split_k, N, K):
    k = mi210_kernels[split_k]
    grid = (N // 64, split_k, 2)
    assert math.prod(grid) == 192
    d = triton_mfma.grid_order_decision(k, grid, **_decode_args(64, N, K))
    assert d.remaps and d.guard == "l2", str(d)
    f = d.figures
    # one workgroup per CU is the bound (registers unknown at TTGIR), so 192 > P = 104 ...
    assert (f["programs_per_cu"], f["concurrent_programs"], f["total_programs"]) == (1, 104, 192)
    assert d.bound["programs_source"] == "lower bound" and d.bound["programs_limiter"] == "registers"
    # ... and the twins are 96 programs apart with about W streamed in between, more than 8 MiB x 0.75
    assert f["twin_distance"] == 96 and f["threshold"] == 6 * 2**20
    assert f["streamed_bytes"] > f["threshold"] and f["streamed_bytes"] >= N * K * 2
    # the compiled kernel's own residency (registers + LDS) next to the bound: never below it
    assert d.residency is not None and d.residency.programs_per_cu >= f["programs_per_cu"]


def test_mi210_96_workgroups_is_one_wave(mi210_kernels):
    """SPLIT_K = 4, K = 2048: 96 workgroups, W = 3.1 MB; the measurement saw no change; here all 96 fit in one
    wave of P = 104 (the guard keeps the order)."""
    d = triton_mfma.grid_order_decision(mi210_kernels[4], (12, 4, 2), **_decode_args(64, 768, 2048))
    assert d.guard == "l2" and not d.remaps and not d.figures["waves"], str(d)
    assert "all run at once" in d.reason


def test_decision_agrees_with_the_python_model(mi210_kernels):
    """The API executes the compiled guard; on a sweep of launches it agrees with the C++ model through
    l2model (the same formula, fed with the kernel's figures)."""
    k = mi210_kernels[8]
    t = l2model.TARGETS["hip:gfx90a"]
    seen = set()
    for N, K, M in itertools.product([256, 768, 4096], [1024, 4096, 16384], [64, 512]):
        grid = (N // 64, 8, M // 32)
        d = triton_mfma.grid_order_decision(k, grid, **_decode_args(M, N, K))
        trips = -(-K // 1024)  # the prologue's tile and (trips - 1) in the loop: trips tiles per program
        expect = l2model.stock_order_misses(t, grid, 2, [(32 * 128 * 2 * trips, {1, 2}), (128 * 64 * 2 * trips,
                                                                                          {0, 1})],
                                            num_warps=4, shared_bytes=24576)
        assert d.remaps == expect, (grid, K, str(d))
        seen.add(expect)
    assert seen == {True, False}


def test_grid_order_decision_on_cuda():
    k = _compile_decode("splitk_decode_slow", "cuda:90", 8, passes=["mfma-grid-order"])
    big = triton_mfma.grid_order_decision(k, (128, 8, 2), **_decode_args(64, 8192, 4096))  # W = 64 MiB
    # W = 8 MiB: the bytes between twin reads fit the H200's L2 (the whole 50 MiB: TargetInfo.cpp), kept; so is a
    # launch that may fit one wave (P an upper bound on cuda: L2Model.h), whatever its bytes
    small = triton_mfma.grid_order_decision(k, (64, 8, 8), **_decode_args(256, 4096, 2048))
    one_wave = triton_mfma.grid_order_decision(k, (16, 8, 2), **_decode_args(64, 1024, 65536))
    assert big.remaps and not small.remaps and not one_wave.remaps, (str(big), str(small), str(one_wave))
    assert small.figures["waves"] and not small.figures["exceeds"], str(small)
    assert one_wave.figures["exceeds"] and not one_wave.figures["waves"], str(one_wave)
    # one M tile: no program shares a weight tile with another, whatever W (H200: remapping it cost 1-2%)
    no_twins = triton_mfma.grid_order_decision(k, (128, 8, 1), **_decode_args(16, 8192, 4096))
    assert not no_twins.remaps and no_twins.figures["waves"] and no_twins.figures["exceeds"], str(no_twins)
    assert not no_twins.figures["twins"] and "no twins" in no_twins.reason, str(no_twins)
    assert big.figures["concurrent_programs"] == 132 * 4 and big.figures["threshold"] == 50 * 2**20  # 48 KiB LDS
    assert not one_wave.figures["waves"]
    assert big.residency is None or big.residency.programs_per_cu >= 2
    assert "remaps" in str(big) and "real residency" in str(big) or big.residency is None
    with pytest.raises(ValueError, match="needs the kernel's integer arguments"):
        triton_mfma.grid_order_decision(k, (128, 8, 2))


def test_cuda_guard_counts_the_compiled_kernels_programs_per_sm():
    """On cuda the pass bounds the programs per SM from above at TTGIR (warp slots: 16 programs of 4 warps); the
    compiled check reads ptxas's registers and, where they allow fewer, builds the guard with the real figure.
    The H200 launch this decides (split-K 7, W 235 MB, 1792 programs): under the bound it "may fit one wave" and
    kept its order (1.00x where the hand order ran 1.35x, bench/results/grid_order_wide.md)."""
    k = _compile_decode("splitk_decode_slow", "cuda:90", 7, block_k=32, backends=("hip", "cuda"))
    d = triton_mfma.grid_order_decision(k, (128, 7, 2), **_decode_args(64, 8192, 14336))
    assert d.bound["how"] == "given by programs-per-cu", str(d)
    assert d.residency is not None and d.figures["programs_per_cu"] == d.residency.programs_per_cu < 16, str(d)
    assert d.remaps and d.figures["waves"], str(d)
    assert "programs per SM from the compiled kernel" in k.metadata.triton_mfma["mfma-grid-order"]
    # a launch of fewer programs than the real P is one wave: the launch test alone declines it
    one = triton_mfma.grid_order_decision(k, (16, 7, 2), **_decode_args(64, 1024, 14336))
    assert not one.remaps and not one.figures["waves"] and "all run at once" in one.reason, str(one)


def test_grid_order_decision_without_a_remap():
    k = _compile_decode("splitk_decode_fast", "cuda:90", 8, passes=["mfma-grid-order"])
    d = triton_mfma.grid_order_decision(k, (2, 128, 8), **_decode_args(64, 8192, 4096))
    assert not d.remaps and d.guard == "no remap"
    assert "already in the order the pass would choose" in d.reason, d.reason


@pytest.mark.parametrize("arch", ["gfx90a", "cuda:90"])
def test_already_chosen_order_is_byte_identical_under_on(arch):
    """splitk_decode_fast has its M tiles (W's sharing dimension) on grid axis 0: grid_order="on" leaves it as
    stock Triton compiles it."""
    def compile_stock():
        return _compile_decode("splitk_decode_fast", arch, 8, stock=True)

    def compile_on():
        return _compile_decode("splitk_decode_fast", arch, 8, passes=["mfma-grid-order"], grid_order="on")

    binary = "cubin" if arch.startswith("cuda") else "hsaco"
    assert_same_compiles(compile_on(), compile_stock(), ("ttgir", binary), compile_stock, compile_on)


@pytest.mark.parametrize("arch", ["gfx942", "cuda:90"])
def test_atomic_epilogue_keeps_its_order_unless_forced(arch):
    """splitk_gemm writes its results with tl.atomic_add: the remap measured 0.89-0.97x there on an H200
    (bench/grid_order_splitk.py), so auto declines, naming the atomic; grid_order="on" still remaps."""
    import triton
    from triton.compiler import ASTSource

    from triton_mfma.compiler.compile import target
    from triton_mfma.examples import CORPUS

    fn, sig, cx = CORPUS["splitk_gemm"]
    src = ASTSource(fn, sig, dict(cx, BLOCK_M=128, BLOCK_N=128, BLOCK_K=32, SPLIT_K=1))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with triton_mfma.enabled(passes=["mfma-grid-order"], backends=("hip", "cuda"), remarks="all"):
            auto = triton.compile(src, target=target(arch))
    remarks = [str(w.message) for w in caught if issubclass(w.category, MFMARemark)]
    assert any("unchanged: its results are written with atomics (tt.atomic_rmw)" in r for r in remarks), remarks
    assert not any(r in auto.asm["ttgir"] for r in GRID_SIZE_READS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with triton_mfma.enabled(passes=["mfma-grid-order"], grid_order="on", backends=("hip", "cuda")):
            on = triton.compile(src, target=target(arch))
    assert any(r in on.asm["ttgir"] for r in GRID_SIZE_READS)
    # the default set (every pass, auto waves on hip): the decision stays in the kernel's metadata
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with triton_mfma.enabled(backends=("hip", "cuda")):
            default = triton.compile(src, target=target(arch))
    line = default.metadata.triton_mfma["mfma-grid-order"]
    assert line.startswith("unchanged: 'splitk_gemm': its results are written with atomics"), line


@triton.jit
def splitk_store_printing(a_ptr, w_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_wk, stride_wn, stride_cm,
                          stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                          SPLIT_K: tl.constexpr):
    """splitk_store with a `tl.device_print`: its argument buffer is stack in the cubin, declared by the PTX."""
    rm, rn, acc = _splitk_tile(a_ptr, w_ptr, M, N, K, stride_am, stride_ak, stride_wk, stride_wn,
                               BLOCK_M, BLOCK_N, BLOCK_K, SPLIT_K)
    tl.device_print("K", K)
    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c_ptrs, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def _compile_splitk_store(aligned: bool, mode: str, fn=None, tiles=None, **mfma_options):
    """splitk_store (128x128x32 tiles, 255 registers on cuda:90) as Triton's launcher specialises it: `aligned`
    gives the pointers, sizes and row strides divisibility 16 (16-byte loads), else none is known (2-byte loads,
    and ptxas spills). mode: "stock" or the default passes on cuda too. `fn`: another kernel of its signature,
    `tiles`: other constexprs."""
    from triton.compiler import ASTSource

    from triton_mfma.compiler.compile import always_compile, target
    from triton_mfma.examples.kernels import GRID_ORDER_KERNELS

    default, sig, cx = GRID_ORDER_KERNELS["splitk_store"]
    fn, cx = fn or default, dict(cx, **(tiles or {}))
    names = list(sig)
    attrs = {(names.index(n),): [["tt.divisibility", 16]]
             for n in ("a_ptr", "w_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_wk", "stride_cm")} \
        if aligned else {}
    src = ASTSource(fn, sig, cx, attrs)
    with always_compile(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if mode == "stock":
            with triton_mfma.disabled():
                k = triton.compile(src, target=target("cuda:90"))
        else:
            with triton_mfma.enabled(**{"backends": ("hip", "cuda"), "strict": True, **mfma_options}):
                k = triton.compile(src, target=target("cuda:90"))
    return k, [str(w.message) for w in caught if issubclass(w.category, (MFMARemark, MFMAWarning))]


def test_cuda_remap_dropped_where_ptxas_spills():
    """On cuda the grid-order remap is compiled to a cubin in the ttgir stage; where ptxas spills registers
    (stack bytes) the remap is dropped and the kernel is stock's, byte for byte: split-K GEMM without
    divisibility hints on cuda:90 (255 registers, 272 B of stack in stock Triton too; H200: the remap ran 0.95x
    there, bench/results/grid_order_splitk.txt). The decision says why, in the metadata and a remark, and
    grid_order_decision answers that the compiled kernel has no remap."""
    from triton_mfma.models import resources

    stock, _ = _compile_splitk_store(False, "stock")
    ours, remarks = _compile_splitk_store(False, "defaults")
    stack = resources.from_cubin(stock.asm["cubin"]).stack
    assert stack > 0  # the premise: this kernel spills in stock Triton (Triton 3.9's ptxas: 272 B/thread)
    decision = ours.metadata.triton_mfma_grid_order
    assert decision["decision"] == "dropped" and decision["evidence"] == "compiled", decision
    assert "spills registers" in decision["reason"] and f"without it {stack} B" in decision["reason"], decision
    assert any("remap dropped: the kernel spills registers" in r for r in remarks), remarks
    assert ours.metadata.triton_mfma["mfma-grid-order"] == decision["reason"]
    assert ours.asm["ttgir"] == stock.asm["ttgir"] and ours.asm["ptx"] == stock.asm["ptx"]
    assert ours.asm["cubin"] == stock.asm["cubin"]
    args = dict(M=4096, N=4096, K=4096, stride_am=4096, stride_ak=1, stride_wk=4096, stride_wn=1, stride_cm=4096,
                stride_cn=1)
    d = triton_mfma.grid_order_decision(ours, (32, 1, 32), **args)
    assert not d.remaps and d.guard == "no remap" and "spills registers" in d.reason, str(d)


def test_cuda_printf_buffer_is_not_a_spill():
    """A `tl.device_print` makes stack (its argument buffer, declared by the PTX), not register spills: the aligned
    split-K GEMM with one (64x64x32 tiles: at 128x128x32 the remap costs a real spill of 8 B at 255 registers)
    keeps its remap on cuda:90: the check compiled it (the stack is there) and found nothing ptxas added."""
    from triton_mfma.models import resources

    tiles = dict(BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
    stock, _ = _compile_splitk_store(True, "stock", splitk_store_printing, tiles)
    figures = resources.from_cubin(stock.asm["cubin"], stock.asm["ptx"])
    assert figures.stack > 0 and figures.frame == figures.stack and figures.spills == 0, figures  # the premise
    ours, _ = _compile_splitk_store(True, "defaults", splitk_store_printing, tiles)
    assert ours.metadata.triton_mfma["mfma-grid-order"].startswith("applied"), ours.metadata.triton_mfma
    assert getattr(ours.metadata, "triton_mfma_grid_order", None) is None
    assert resources.from_cubin(ours.asm["cubin"], ours.asm["ptx"]).spills == 0
    assert resources.ptx_frame(".version 8.0\n.visible .entry k()\n{\n\tret;\n}\n") == 0


def test_unverified_grid_order_keeps_the_remap_without_a_check_compile(monkeypatch):
    """verify_grid_order=False: the remap goes in unchecked, as Triton compiles it, and nothing is compiled for
    the check: on cuda the plain-store split-K GEMM, whose remap the check drops (ptxas spills), keeps it and its
    ttgir stage runs no llir/ptx/cubin of its own; on gfx90a the GEMM 256x128x32 (with Triton 3.9 it spills
    SGPRs, so the check compiles it without the remap too) builds no variant for the check and, where the check
    would have compiled one, runs fewer make_amdgcn."""
    from triton.backends.amd.compiler import HIPBackend

    from triton_mfma.compiler import stages
    from triton_mfma.compiler.compile import compile_kernel
    from triton_mfma.decisions.grid_order import GridOrderCheck
    from triton_mfma.examples import CORPUS

    stock, _ = _compile_splitk_store(False, "stock")
    lowered = []
    real_lower = stages.GenericCompile._lower
    monkeypatch.setattr(stages.GenericCompile, "_lower", lambda self, *a: lowered.append(1) or real_lower(self, *a))
    ours, _ = _compile_splitk_store(False, "defaults", verify_grid_order=False)
    assert not lowered
    _compile_splitk_store(False, "defaults")
    assert lowered  # the premise: with the check, that stage compiles the kernel itself
    assert getattr(ours.metadata, "triton_mfma_grid_order", None) is None
    assert ours.metadata.triton_mfma["mfma-grid-order"].startswith("applied"), ours.metadata.triton_mfma
    assert ours.asm["cubin"] != stock.asm["cubin"]

    fn, sig, _ = CORPUS["gemm"]
    cx = dict(BLOCK_M=256, BLOCK_N=128, BLOCK_K=32)
    # one trial thread: no compile started ahead on an idle core, so the counts below do not depend on the load
    monkeypatch.setenv("TRITON_MFMA_TRIAL_THREADS", "1")
    compiles = []
    real = HIPBackend.make_amdgcn
    monkeypatch.setattr(HIPBackend, "make_amdgcn",
                        staticmethod(lambda *a: compiles.append(1) or real(*a)))

    variants = []
    real_variant = GridOrderCheck.compared
    monkeypatch.setattr(GridOrderCheck, "compared",
                        lambda self, *a: variants.append(real_variant(self, *a)) or variants[-1])

    def compile_with(**options):
        compiles.clear()
        variants.clear()
        # the CPU caps off: this kernel spills, and its cap (decisions.STAKES_CPU) would end the trials on CPU times
        with warnings.catch_warnings(), triton_mfma.enabled(strict=True, cpu_bound=False, **options):
            warnings.simplefilter("ignore", MFMARemark)
            k = compile_kernel(fn, sig, cx, "gfx90a")
        return k, len(compiles), any(v is not None for v in variants)

    (checked, n_checked, built), (unchecked, n_unchecked, built_unchecked) = \
        compile_with(), compile_with(verify_grid_order=False)
    assert not built_unchecked and getattr(unchecked.metadata, "triton_mfma_grid_order", None) is None
    assert unchecked.metadata.triton_mfma["mfma-grid-order"].startswith("applied")
    # Triton 3.9: ours spills SGPRs there, the check compiles the kernel without the remap and drops the remap
    # (one SGPR spill more); Triton 3.8's registers leave nothing to check
    assert built or checked.metadata.triton_mfma == unchecked.metadata.triton_mfma
    assert n_unchecked < n_checked if built else n_unchecked == n_checked, (n_unchecked, n_checked)
    with pytest.raises(Exception, match="verify_grid_order"):
        with triton_mfma.enabled(verify_grid_order="sometimes"):
            pass


def test_cuda_remap_kept_without_spills_is_handed_on(monkeypatch):
    """Where the remapped kernel does not spill (the same GEMM with divisibility hints: 16-byte loads, no
    stack), the remap stays, and the cubin the check compiled is the one Triton hands on. This GEMM's 255
    registers run 2 programs per SM where the guard's TTGIR bound says 16 (warp slots): the passes run again
    with the real figure and that module is compiled once more (Triton's llir, ptx and cubin stages twice, on
    copies); what Triton hands on is what it compiles from the same TTGIR without the check."""
    import triton.backends.nvidia.compiler as nv

    from triton_mfma.models import resources
    from triton_mfma.compiler.stages import GenericCompile

    calls = []
    for name in ("make_llir", "make_ptx", "make_cubin"):
        real = getattr(nv.CUDABackend, name)
        monkeypatch.setattr(nv.CUDABackend, name,
                            lambda self, *a, _real=real, _name=name: calls.append(_name) or _real(self, *a))
    checked, _ = _compile_splitk_store(True, "defaults")
    assert calls == ["make_llir", "make_ptx", "make_cubin"] * 2, calls
    assert "applied" in checked.metadata.triton_mfma["mfma-grid-order"]
    assert "programs per SM from the compiled kernel: 2 programs" in checked.metadata.triton_mfma["mfma-grid-order"]
    assert "tmfma.grid_order" in checked.asm["ttgir"] and "programs_per_cu = 2 : i64" in checked.asm["ttgir"]
    assert resources.from_cubin(checked.asm["cubin"]).stack == 0
    monkeypatch.setattr(GenericCompile, "_grid_check_possible", lambda self: False)
    unchecked, _ = _compile_splitk_store(True, "defaults", grid_programs_per_cu=2)
    assert unchecked.asm["ttgir"] == checked.asm["ttgir"]
    assert unchecked.asm["ptx"] == checked.asm["ptx"] and unchecked.asm["cubin"] == checked.asm["cubin"]
    skip = {"hash", "triton_mfma"}  # the decision line says where P came from
    assert {k: v for k, v in unchecked.metadata._asdict().items() if k not in skip} == \
        {k: v for k, v in checked.metadata._asdict().items() if k not in skip}


def test_cuda_remap_asked_for_by_name_is_dropped_only_where_it_costs_spills():
    """grid_order="on" remaps without a run-time guard; on the aligned GEMM that code spills where stock and the
    guarded remap do not (H200: 0.41x, bench/results/grid_order_splitk.txt), so it is dropped, as on the
    unaligned one, where it spills more than stock (272 -> 408 B/thread with Triton 3.9). Where it spills no more than the kernel
    without it, the remap asked for by name stays (the atomic split-K GEMM: test_atomic_epilogue_...)."""
    from triton_mfma.models import resources

    for aligned in (True, False):
        stock, _ = _compile_splitk_store(aligned, "stock")
        stack = resources.from_cubin(stock.asm["cubin"]).stack  # Triton 3.9's ptxas: 0 and 272 B/thread
        on, _ = _compile_splitk_store(aligned, "defaults", grid_order="on")
        assert f"remap dropped: it costs register spills ({stack} -> " in \
            on.metadata.triton_mfma["mfma-grid-order"], on.metadata.triton_mfma
        assert on.asm["cubin"] == stock.asm["cubin"]
    kept = _compile_atomic_splitk("cuda:90", grid_order="on")
    assert "applied" in kept.metadata.triton_mfma["mfma-grid-order"], kept.metadata.triton_mfma
    assert resources.from_cubin(kept.asm["cubin"]).stack > 0  # it spills, as much as without the remap


def _compile_atomic_splitk(arch, **mfma_options):
    import triton
    from triton.compiler import ASTSource

    from triton_mfma.compiler.compile import always_compile, target
    from triton_mfma.examples import CORPUS

    fn, sig, cx = CORPUS["splitk_gemm"]
    src = ASTSource(fn, sig, dict(cx, BLOCK_M=128, BLOCK_N=128, BLOCK_K=32, SPLIT_K=1))
    with always_compile(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with triton_mfma.enabled(backends=("hip", "cuda"), strict=True, **mfma_options):
            return triton.compile(src, target=target(arch))


def test_cuda_grid_check_failure_keeps_the_remap_with_a_warning(monkeypatch):
    """A failure of the check itself (here: the cubin's figures cannot be read) is not the user's problem: the
    remapped kernel goes on, compiled as before, with a warning and the fallback in its metadata; strict mode
    raises it."""
    from triton_mfma.models import resources

    def unreadable(cubin, ptx=""):
        raise ValueError("cuobjdump -res-usage printed no REG/STACK figures")

    monkeypatch.setattr(resources, "from_cubin", unreadable)
    monkeypatch.setenv("TRITON_MFMA_STRICT", "0")  # a user's compile (the tests run strict)
    k, messages = _compile_splitk_store(False, "defaults", strict=False)
    assert "applied" in k.metadata.triton_mfma["mfma-grid-order"]
    assert "compiled check" in k.metadata.triton_mfma_fallback
    assert any("the remap is kept unchecked" in m for m in messages), messages
    monkeypatch.setenv("TRITON_MFMA_STRICT", "1")
    with pytest.raises(Exception, match="no REG/STACK figures"):
        _compile_splitk_store(False, "defaults")
