"""models/linear_layouts.py against Triton's own linear layout conversion (its Gluon builder's `to_linear_layout`),
over MFMA results, MFMA dot operands and slices of the shapes, warps, instructions and kWidths kernels use. Triton's
conversion runs in a child process: its bindings report objects they keep alive as leaks at exit."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from triton_mfma.models import linear_layouts

_ORACLE = textwrap.dedent('''
    import json, os, re, sys, tempfile
    from triton._C.libtriton import amd, gluon_ir, ir
    ctx = ir.context(); ir.load_dialects(ctx); amd.load_dialects(ctx)
    builder = gluon_ir.GluonOpBuilder(ctx, "gfx942")
    if not hasattr(builder, "to_linear_layout") or not hasattr(builder, "get_gluon_layout_from_tensor"):
        print(json.dumps(None)); sys.exit(0)
    out = []
    for t in json.load(sys.stdin):
        w = re.search(r"warpsPerCTA = \\[(\\d+), (\\d+)\\]", t)
        text = ('module attributes {"ttg.num-warps" = %d : i32, "ttg.num-ctas" = 1 : i32, "ttg.threads-per-warp" = '
                '64 : i32} {\\n  tt.func @f(%%a: %s) { tt.return }\\n}\\n' % (int(w.group(1)) * int(w.group(2)), t))
        fd, path = tempfile.mkstemp(suffix=".mlir")
        with os.fdopen(fd, "w") as f:
            f.write(text)
        arg = ir.parse_mlir_module(path, ctx).get_function("f").args(0)
        os.unlink(path)
        layout = builder.get_gluon_layout_from_tensor(arg)
        shape = [int(d) for d in re.match(r"tensor<((?:\\d+x)+)", t).group(1).split("x")[:-1]]
        ll = builder.to_linear_layout(layout._to_ir(builder), shape)
        out.append([[list(b) for b in ll.reg_bases], [list(b) for b in ll.lane_bases], [list(b) for b in ll.warp_bases]])
    print(json.dumps(out))
''')


def _types() -> list[str]:
    out = []
    for version, instr, transposed in [(3, (32, 32, 8), True), (3, (16, 16, 16), True), (3, (32, 32, 8), False),
                                       (2, (16, 16, 16), False), (4, (16, 16, 32), True), (4, (32, 32, 16), True)]:
        for w in ([1, 1], [2, 2], [4, 1], [1, 4], [2, 4], [8, 1]):
            mfma = (f"#ttg.amd_mfma<{{version = {version}, warpsPerCTA = [{w[0]}, {w[1]}], instrShape = [{instr[0]}, "
                    f"{instr[1]}, {instr[2]}], isTransposed = {'true' if transposed else 'false'}}}>")
            for m, n in ([64, 64], [16, 64], [128, 32], [32, 256], [16, 16]):
                out.append(f"tensor<{m}x{n}xf32, {mfma}>")
                out += [f"tensor<{m}x{n}xf16, #ttg.dot_op<{{opIdx = {op}, parent = {mfma}, kWidth = {k}}}>>"
                        for op in (0, 1) for k in (4, 8, 16)]
                out += [f"tensor<{(m, n)[1 - d]}xf32, #ttg.slice<{{dim = {d}, parent = {mfma}}}>>" for d in (0, 1)]
    for blocked in ("sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]",
                    "sizePerThread = [4, 1], threadsPerWarp = [16, 4], warpsPerCTA = [1, 2], order = [0, 1]"):
        out += [f"tensor<{s}xf32, #ttg.slice<{{dim = {d}, parent = #ttg.blocked<{{{blocked}}}>}}>>"
                for s in (16, 64, 256) for d in (0, 1)]
        out += [f"tensor<{m}x{n}xf16, #ttg.blocked<{{{blocked}}}>>" for m, n in ([64, 64], [16, 256], [256, 8])]
    return out


def test_bases_are_tritons():
    types = _types()
    run = subprocess.run([sys.executable, "-c", _ORACLE], input=json.dumps(types), capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    tritons = json.loads(run.stdout)
    if tritons is None:
        pytest.skip("this Triton's Gluon builder has no linear layout conversion to compare with")
    differ = [(t, want, linear_layouts.bases(t)) for t, want in zip(types, tritons)
              if linear_layouts.bases(t) != tuple(want)]
    assert not differ, differ[:3]
    assert len(types) > 1000


def test_layouts_not_read_give_no_bases():
    mfma = "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [4, 4, 4], isTransposed = true}>"
    assert linear_layouts.bases(f"tensor<64x64xf32, {mfma}>") is None  # a 4x4 instruction
    tiles = ("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true, "
             "tilesPerWarp = [2, 2]}>")
    assert linear_layouts.bases(f"tensor<64x64xf32, {tiles}>") is None  # a field the reading does not know
    assert linear_layouts.bases("tensor<64x64xf32, #ttg.amd_wmma<{version = 1, warpsPerCTA = [2, 2]}>>") is None
