# `make test` is the README's test command and what .ci/run runs: lit (mfma-opt + FileCheck) then pytest.
PYTHON ?= python3
LIT ?= lit
# What differs between Triton versions: the bridge, the composed pipelines (stock identity), the hook, the CLI,
# Triton's lowering of the grid size (the device library make_llir links for it), the stage names grid order's
# compiled check on cuda hands its results to.
VERSION_TESTS = test/python/test_bridge.py test/python/test_hook.py test/python/test_cli.py test/python/test_engine.py \
	test/python/test_hip_num_programs.py test/python/test_grid_order.py test/python/test_builds.py \
	test/python/test_reliability.py test/python/test_bounded.py

.PHONY: test test-fast lit pytest pytest-fast pytest-versions build fbtriton

test: lit pytest

# The edit-test loop: lit, the pytest tests that compile no kernel and a few representative compiles (the `fast`
# marker, test/python/conftest.py FAST); about 2 minutes on an idle 2-core machine. `make test` stays the full suite.
test-fast: lit pytest-fast

lit:
	$(LIT) -v test/lit

pytest:
	$(PYTHON) -m pytest test/python -q -p no:cacheprovider

pytest-fast:
	$(PYTHON) -m pytest test/python -q -p no:cacheprovider -m fast

# The Triton-version-dependent subset (CI runs it on the second Triton version: PYTHON=<venv>/bin/python).
pytest-versions:
	$(PYTHON) -m pytest $(VERSION_TESTS) -q -p no:cacheprovider

# The real fbtriton proof (issue 55; not in CI: its wheel is 300 MB): a virtual environment with fbtriton 3.8.0rc3
# and this tree, the demo, a compile with the project on and off, test/python/test_fbtriton.py (docs/builds.md).
FBT_VENV ?= /tmp/fbt-venv
fbtriton:
	bench/fbtriton.sh $(FBT_VENV)

# Developer build without pip: C++ artifacts into python/triton_mfma/_native (see setup.py for pip).
build:
	$(PYTHON) setup.py build_ext --inplace
