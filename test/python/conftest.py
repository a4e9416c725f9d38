import os

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # silence Triton 3.9's default-change notice
os.environ["TRITON_MFMA_STRICT"] = "1"  # a failing pass is an error in tests, never a silent fallback
os.environ["TRITON_MFMA_REMARKS"] = "all"  # tests read the passes' own remarks, not only the per-kernel summary

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


def assert_same_as_stock(kernel, name, arch, stages=("ttgir", "amdgcn"), tries=6, recompile=None):
    """`kernel`'s stages equal stock Triton's, byte for byte.

    Triton 3.9 itself is not deterministic on every kernel: for splitk_gemm on gfx90a two stock
    compiles in one process can give identical ttgir but llir/amdgcn with phis in another order (rarely).
    So a mismatch is re-checked against fresh stock compiles and, when `recompile` is given, fresh
    compiles of ours: some output ours produces must equal some output stock produces, per stage.
    """
    fn, sig, cx = CORPUS[name]
    ours, stock = [kernel], [stock_kernel(name, arch)]

    def matched(stage):
        return bool({k.asm[stage] for k in ours} & {k.asm[stage] for k in stock})

    for _ in range(tries):
        if all(matched(s) for s in stages):
            return
        stock.append(compile_kernel(fn, sig, cx, arch))
        if recompile is not None:
            ours.append(recompile())
    for s in stages:
        assert matched(s), f"{s} differs from every stock compile ({len(ours)} of ours, {len(stock)} of stock)"
