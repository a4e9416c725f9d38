# `make test` is the README's test command and what .ci/run runs: lit (mfma-opt + FileCheck) then pytest.
PYTHON ?= python3

.PHONY: test lit pytest build

test: lit pytest

lit:
	lit -v test/lit

pytest:
	$(PYTHON) -m pytest test/python -q -p no:cacheprovider

# Developer build without pip: C++ artifacts into python/triton_mfma/_native (see setup.py for pip).
build:
	$(PYTHON) setup.py build_ext --inplace
