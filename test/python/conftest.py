import os

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # silence Triton 3.9's default-change notice
os.environ["TRITON_MFMA_STRICT"] = "1"  # a failing pass is an error in tests, never a silent fallback

import pytest  # noqa: E402
from triton import knobs  # noqa: E402

from triton_mfma.compile import compile_kernel  # noqa: E402
from triton_mfma.examples import ARCHS, CORPUS  # noqa: E402

CASES = [(name, arch) for arch in ARCHS for name in CORPUS]
CASE_IDS = [f"{name}-{arch}" for name, arch in CASES]


@pytest.fixture(autouse=True, scope="session")
def _fresh_compiles(tmp_path_factory):
    """Every compile in the tests is real: no result comes from Triton's on-disk cache."""
    knobs.compilation.always_compile = True
    knobs.cache.dir = str(tmp_path_factory.mktemp("triton-cache"))
    yield


_stock = {}


def stock_kernel(name, arch):
    """Stock Triton's compile of a corpus kernel (hook inactive), memoised for the session."""
    import triton_mfma

    if (name, arch) not in _stock:
        assert not triton_mfma.is_enabled()
        fn, sig, cx = CORPUS[name]
        _stock[name, arch] = compile_kernel(fn, sig, cx, arch)
    return _stock[name, arch]


@pytest.fixture(autouse=True)
def _no_leaked_activation():
    import triton_mfma

    yield
    triton_mfma.disable()
    knobs.runtime.add_stages_inspection_hook = None


def assert_same_as_stock(kernel, name, arch, stages=("ttgir", "amdgcn"), tries=6):
    """`kernel`'s stages equal stock Triton's, byte for byte.

    Triton 3.9 itself is not deterministic on every kernel: for splitk_gemm on gfx90a two stock
    compiles in one process can give identical ttgir but llir/amdgcn with phis in another order. So a
    mismatch is re-checked against fresh stock compiles; ours must equal one that stock produces.
    """
    fn, sig, cx = CORPUS[name]
    candidates = [stock_kernel(name, arch)]
    for _ in range(tries):
        if all(kernel.asm[s] == candidates[-1].asm[s] for s in stages):
            return
        candidates.append(compile_kernel(fn, sig, cx, arch))
    for s in stages:
        assert kernel.asm[s] in {c.asm[s] for c in candidates}, f"{s} differs from every stock compile"
