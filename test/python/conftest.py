import os

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # silence Triton 3.9's default-change notice
os.environ["TRITON_MFMA_STRICT"] = "1"  # a failing pass is an error in tests, never a silent fallback
os.environ["TRITON_MFMA_REMARKS"] = "all"  # tests read the passes' own remarks, not only the per-kernel summary

import pytest  # noqa: E402
from triton import knobs  # noqa: E402

from triton_mfma.compiler.compile import compile_kernel  # noqa: E402
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
    """`kernel`'s stages equal stock Triton's compile of corpus kernel `name`, byte for byte, up to Triton's own
    nondeterminism (assert_same_compiles)."""
    fn, sig, cx = CORPUS[name]
    assert_same_compiles(kernel, stock_kernel(name, arch), stages, lambda: compile_kernel(fn, sig, cx, arch),
                         recompile, tries)


def assert_same_compiles(ours, stock, stages, compile_stock, compile_ours=None, tries=6):
    """`ours`' stages equal `stock`'s, byte for byte, up to Triton's own nondeterminism.

    Triton 3.9 itself is not deterministic on every kernel: for splitk_gemm on gfx90a two stock compiles in one
    process can give identical ttgir but llir/amdgcn with phis in another order (rarely); for splitk_decode_fast
    on gfx90a a CI run gave hsacos one byte apart in .debug_line. So a mismatch is re-checked against fresh
    stock compiles (`compile_stock()`) and, when `compile_ours` is given, fresh compiles of ours: some output ours
    produces must equal some output stock produces, per stage.
    """
    ours, stock = [ours], [stock]

    def matched(stage):
        return bool({k.asm[stage] for k in ours} & {k.asm[stage] for k in stock})

    for _ in range(tries):
        if all(matched(s) for s in stages):
            return
        stock.append(compile_stock())
        if compile_ours is not None:
            ours.append(compile_ours())
    for s in stages:
        assert matched(s), f"{s} differs from every stock compile ({len(ours)} of ours, {len(stock)} of stock)"


# The fast tier (`make test-fast`, marker `fast`): the tests that compile no kernel, and a few representative
# compiles (one per decision, the hand-off, the fallback). Prefixes of node ids relative to test/python.
FAST = (
    # no kernel compile
    "test_passes.py", "test_native.py", "test_mfma_opt.py", "test_code_shape.py",
    "test_decisions.py::test_registry", "test_decisions.py::test_no_decision", "test_decisions.py::test_record",
    "test_decisions.py::test_judges",
    "test_engine.py::test_waves_attribute_insertion_refuses", "test_engine.py::test_trial_threads",
    "test_engine.py::test_other_load", "test_engine.py::test_same_code",
    "test_hook.py::test_cache_key_tracks_passes_and_options", "test_hook.py::test_unknown_pass_or_option",
    "test_hook.py::test_enabled_block_restores_state", "test_hook.py::test_previous_hook_is_chained",
    "test_activation.py::test_bad_option_values", "test_activation.py::test_an_option_no_enabled_pass",
    "test_activation.py::test_option_values_reach_the_pipeline", "test_activation.py::test_a_pass_list_given",
    "test_grid_order.py::test_splitk_slow_remap", "test_grid_order.py::test_xcd_chunks",
    "test_grid_order.py::test_matmul_1d_grouped", "test_grid_order.py::test_guard_matches",
    "test_grid_order.py::test_xcd_guard_matches", "test_grid_order.py::test_bad_mode",
    "test_grid_order.py::test_l2model_mirrors", "test_grid_order.py::test_concurrent_programs",
    "test_occupancy.py::test_model_rules", "test_occupancy.py::test_auto_plan_at_one_wave",
    "test_split_epilogue_cvt.py::test_lds_limit_validation",
    "test_decisions.py::test_lane_spills", "test_sched_strategy.py::test_the_attribute",
    "test_sched_strategy.py::test_strategies_are_probed", "test_sched_strategy.py::test_the_authors_choice",
    # representative compiles
    "test_decisions.py::test_a_replaced_judge_decides", "test_decisions.py::test_a_new_decision",
    "test_engine.py::test_handed_off_compile_equals_a_plain_compile_of_the_choice[1]",
    "test_accelerate_dot.py::test_verification_reverts_where_ours_is_worse",
    "test_stream_pipeline.py::test_decided_per_kernel_declines_where_no_lds_can_be_saved",
    "test_grid_order.py::test_real_kernels_compile_with_the_pass[gfx942]",
    "test_hook.py::test_failing_pass_falls_back_to_stock_with_warning",
    "test_hook.py::test_composed_pipeline_without_passes_is_stock[gemm-gfx942]",
    "test_hook.py::test_default_passes_are_not_worse_than_stock[attn_fwd_d64-gfx942]",
    "test_hook.py::test_default_passes_are_not_worse_than_stock[splitk_gemm-gfx90a]",
    "test_engine.py::test_first_compared_variant_is_built_aside_and_changes_nothing[gemm-gfx90a]",
    "test_engine.py::test_cancelled_speculation",
    "test_grid_order.py::test_unverified_grid_order",
    "test_stream_pipeline.py::test_decided_per_kernel_meets_an_lds_budget",
    "test_accelerate_dot.py::test_verification_keeps_ours_where_not_worse",
    "test_cli.py::test_passes_command",
)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.nodeid.split("test/python/", 1)[-1].startswith(FAST):
            item.add_marker(pytest.mark.fast)
