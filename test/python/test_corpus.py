"""Real-world corpus, quick subset (bench/corpus: kernels of public Triton libraries, mirrored launches).

For each configuration marked `quick` in bench/corpus/<lib>.py, on gfx942: stock Triton and the project's
defaults (`triton_mfma.enabled()`, strict) both compile; no MFMAWarning; ours not worse than stock on
occupancy (waves per SIMD, workgroups per CU), LDS bytes, VGPR+SGPR spills. Correctness and resources only,
never timings. Run only these: `pytest -m corpus test/python/test_corpus.py`. Skipped when the libraries are
absent (install them: pip install -r bench/corpus/requirements.txt, as .ci/run does).
"""
import os
import sys

import pytest

pytestmark = pytest.mark.corpus

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench", "corpus"))

ARCH = "gfx942"


def _load():
    try:
        import run as corpus_run
    except ImportError as e:  # torch or triton_mfma itself missing
        return [], {"corpus": f"{type(e).__name__}: {e}"}
    return corpus_run.load(quick=True)


CONFIGS, IMPORT_ERRORS = _load()
SKIP_REASON = ("corpus libraries not installed or not importable (pip install -r bench/corpus/requirements.txt): "
               + "; ".join(f"{k}: {v[:200]}" for k, v in IMPORT_ERRORS.items()))


def test_every_library_loads():
    """All five libraries import and contribute quick configurations. Where some are missing the test is skipped
    with the reason, except under CI (CI=true), which installs them (.ci/run): there a missing one fails."""
    if IMPORT_ERRORS:
        if os.environ.get("CI"):
            pytest.fail(SKIP_REASON)
        pytest.skip(SKIP_REASON)
    assert {c.lib for c in CONFIGS} == {"liger", "flag_gems", "gemlite", "fla", "sglang"}
    assert 10 <= len(CONFIGS) <= 22


@pytest.mark.skipif(not any(c.lib == "sglang" for c in CONFIGS), reason=SKIP_REASON)
def test_sglang_amd_tuned_options_reach_the_compile():
    """sglang's configurations are its ROCm launches: the decode kernels carry the HIP branch's options, the fused
    MoE one an MI300X JSON entry read from the installed package, and Triton compiles them with those options."""
    import harness

    sg = {c.name.split("/")[0]: c for c in CONFIGS if c.lib == "sglang"}
    assert {"decode_grouped_stage1", "decode_stage2", "fused_moe"} <= set(sg)
    assert sg["decode_grouped_stage1"].options == {"num_warps": 4, "num_stages": 1, "waves_per_eu": 1,
                                                   "matrix_instr_nonkdim": 16, "kpack": 2}
    assert sg["decode_stage2"].options["waves_per_eu"] == 4
    moe = sg["fused_moe"]
    assert "device_name=AMD_Instinct_MI300X" in moe.mirrors
    assert {"num_warps", "num_stages", "matrix_instr_nonkdim", "kpack"} <= set(moe.options)
    assert moe.args["BLOCK_SIZE_M"].value >= 16
    k = harness.compile_cfg(sg["decode_grouped_stage1"], ARCH)  # stock Triton
    assert (k.metadata.waves_per_eu, k.metadata.matrix_instr_nonkdim, k.metadata.kpack) == (1, 16, 2)
    assert '"amdgpu-waves-per-eu"="1,1"' in k.asm["llir"]


@pytest.mark.skipif(not CONFIGS, reason=SKIP_REASON)
@pytest.mark.parametrize("cfg", CONFIGS, ids=[c.id for c in CONFIGS])
def test_corpus_not_worse(cfg):
    import warnings

    import harness
    import triton_mfma

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", triton_mfma.MFMARemark)
        r = harness.run_one(cfg, ARCH, passes=None, strict=True)
    assert not r.error, f"stock Triton failed on {cfg.id} ({cfg.mirrors}): {r.error}"
    assert not r.failure, f"{cfg.id} {ARCH}: our defaults raised in strict mode: {r.failure}"
    assert not r.fallbacks, f"{cfg.id} {ARCH}: MFMAWarning: {r.fallbacks}"
    assert not r.worse, f"{cfg.id} {ARCH}: worse than stock: {r.worse} (stock {r.stock}, ours {r.ours})"
