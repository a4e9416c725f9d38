"""The main job: `triton-mfma demo` compiles the bundled kernels both ways and prints the table."""
import io
import subprocess
import sys

from triton_mfma.models import resources
from triton_mfma.commands.cli import demo

from conftest import stock_kernel


def test_demo_table():
    out = io.StringIO()
    assert demo("gfx942", ["gemm", "softmax"], out=out) == 0
    text = out.getvalue()
    assert "stock" in text and "triton-mfma" in text
    rows = [ln.split() for ln in text.splitlines() if ln.split()[:1] in (["gemm"], ["softmax"])]
    assert len(rows) == 2
    # default passes: mfma-accelerate-dot verified on the GEMM (kept or reverted, said), softmax untouched
    assert "mfma-accelerate-dot, verified" in text and "gemm" in text.split("mfma-accelerate-dot, verified")[1]


def test_demo_console_command_runs():
    r = subprocess.run([sys.executable, "-m", "triton_mfma.commands.cli", "demo", "--arch", "gfx90a", "--kernel",
                        "masked_relu"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "masked_relu" in r.stdout


def test_resources_read_from_amdgcn():
    gemm = resources.of_kernel(stock_kernel("gemm", "gfx942"))
    assert gemm.mfma_count > 0 and all(k.startswith("v_mfma") for k in gemm.mfma)
    assert 1 <= gemm.occupancy <= 8 and gemm.vgpr_total >= gemm.vgpr > 0
    assert gemm.lds == stock_kernel("gemm", "gfx942").metadata.shared > 0
    soft = resources.of_kernel(stock_kernel("softmax", "gfx942"))
    assert soft.mfma_count == 0 and soft.vgpr_spill == 0


def test_demo_with_a_transforming_pass():
    out = io.StringIO()
    assert demo("gfx942", ["splitk_gemm"], out=out, passes_=["mfma-accelerate-dot"]) == 0
    text = out.getvalue()
    assert "['mfma-accelerate-dot']" in text
    assert "differ between stock and triton-mfma" in text or "identical amdgcn with these passes" in text


def test_demo_showcase_shows_each_pass_at_work():
    """Part 2 of the demo: every transforming pass on a case where it acts, figures from the real amdgcn."""
    from triton_mfma.composition import passes

    out = io.StringIO()
    assert demo("gfx942", ["softmax"], out=out, showcase=True) == 0
    text = out.getvalue()
    transforming = [name for name, p in passes.REGISTRY.items() if p.transforms]
    for name in transforming:
        assert f"\n{name}\n" in text, name

    def rows(label):  # (stock, with pass) figure rows of one case
        lines = text.splitlines()
        i = next(n for n, ln in enumerate(lines) if ln.strip().startswith(label))
        return [ln.split()[-8:] for ln in lines[i:i + 2]]

    # columns: VGPR spills LDS waves wg/CU MFMA ds compile
    stock, ours = rows("split-K GEMM, 256x128 tiles")
    assert int(stock[2]) > 65536 >= int(ours[2]) and stock[4] == "0" and int(ours[4]) >= 1
    stock, ours = rows("flash attention 128x128")
    assert int(ours[2]) < int(stock[2]) and int(ours[6]) < int(stock[6])
    stock, ours = rows("split-K GEMM, M=1")
    assert stock[5] == "0" and int(ours[5]) > 0  # FMA -> MFMA
    assert "remark: grid order of 'splitk_decode_slow': remapped" in text
