"""mfma-grid-order: the emitted remap is executed (a scalar interpreter over the pass's output IR) for many grid
sizes, including ones that are multiples of nothing, and must be a bijection with the promised order; the run-time
guard must agree with the Python L2 model; real kernels compile through Triton with the pass (cuda and hip)."""
import itertools
import math
import os
import re
import warnings

import pytest
from irutil import ops, parse
from mlir import ir

import triton_mfma
from triton_mfma import MFMARemark, PipelineError, l2model, occupancy, run_pipeline_with_diagnostics

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


def _trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


class Remap:
    """Executes the scalar integer ops at the top of the kernel: (program ids, grid, arguments) -> the ids the
    kernel body sees (the probe's operands)."""

    BIN = {
        "arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b, "arith.muli": lambda a, b: a * b,
        "arith.divsi": _trunc_div, "arith.remsi": lambda a, b: a - _trunc_div(a, b) * b,
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
            vals = [env.get(v) for v in op.operands]
            if any(v is None for v in vals):
                continue
            r = op.results[0]
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
    out, _ = run_pass(lit_case("splitk_slow_xcd"))
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


def test_remarks_and_no_change_cases():
    for name, expect in [("no_splitk_fast", "already in a fast order"), ("no_matmul_1d_grouped", "already permutes"),
                         ("no_elementwise", "no heavy operand is shared"), ("no_ticket", "may communicate")]:
        text = lit_case(name)
        out, diags = run_pass(text)
        assert not ops(parse(out), "tt.get_num_programs"), name
        assert any(expect in d.message for d in diags), (name, [d.message for d in diags])


def test_bad_mode_is_an_error():
    with pytest.raises(PipelineError, match="mode must be auto, on or off"):
        run_pass(lit_case("splitk_slow"), "mode=sometimes")


def _compile(name, arch):
    import triton
    from triton.compiler import ASTSource

    from triton_mfma.compile import target
    from triton_mfma.examples.kernels import GRID_ORDER_KERNELS

    fn, sig, cx = GRID_ORDER_KERNELS[name]
    return triton.compile(ASTSource(fn, sig, cx), target=target(arch))


@pytest.mark.parametrize("arch", ["cuda:90", "gfx942"])
def test_real_kernels_compile_with_the_pass(arch, tmp_path):
    expected = {"splitk_decode_slow": "remapped", "matmul_1d": "remapped", "matmul_1d_grouped": "unchanged", "matmul_1d_grouped_grid": "unchanged",
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
        added = len(ops(parse(after), "tt.get_num_programs")) - len(ops(parse(before), "tt.get_num_programs"))
        assert (added > 0) == (verdict == "remapped")
        assert k.asm.get("cubin" if arch.startswith("cuda") else "hsaco")


def test_l2model_mirrors_the_cpp_figures():
    """The remark prints the C++ figures; the Python model has the same ones."""
    _, diags = run_pass(lit_case("splitk_slow_cuda"))
    msg = next(d.message for d in diags if "remapped" in d.message)
    t = l2model.TARGETS["cuda:90"]
    assert f"P = {t.concurrent_programs(4, 0)} programs ({t.cus} CUs" in msg
    assert f"exceed {t.effective_l2} B" in msg
    assert math.isclose(t.effective_l2, 50 * 2**20 * 0.5)


@pytest.mark.parametrize("rows", [64, 85])  # 16 KiB (a whole number of 512-byte granules) and 21760 B (not)
def test_concurrent_programs_use_the_occupancy_models_lds_granule(rows):
    """P in the run-time guard (C++ L2Model) counts a program's LDS in 512-byte granules with 16 workgroup slots,
    as occupancy.workgroups_by_lds does; the Python model (l2model, via occupancy.py) gives the same P."""
    text = lit_case("splitk_slow")  # gfx90a, 4 warps
    first = re.search(r'\n(\s*)%\w+ = "tt.get_program_id"[^\n]*\n', text)
    alloc = (f'{first.group(1)}%lds = "ttg.local_alloc"() : () -> !ttg.memdesc<{rows}x128xf16, '
             '#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, #ttg.shared_memory, '
             'mutable>\n')
    text = text[:first.end()] + alloc + text[first.end():]
    _, diags = run_pass(text)
    msg = next(d.message for d in diags if "remapped" in d.message)
    t = l2model.TARGETS["hip:gfx90a"]
    p = t.concurrent_programs(4, rows * 128 * 2)
    assert p == t.cus * min(4, occupancy.workgroups_by_lds("gfx90a", rows * 128 * 2))
    assert f"P = {p} programs ({t.cus} CUs x {p // t.cus})" in msg, msg
