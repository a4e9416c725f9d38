#!/usr/bin/env bash
# The real fbtriton proof (issue 55; not in CI: the wheel is 300 MB). fbtriton 3.8.0rc3 (PyPI: module `triton`,
# version 3.8.0+fb) has a libtriton without the symbols the bridge calls: with the project on, every compile must be
# Triton's own (one warning), the demo must exit 0 with stock figures, strict mode must raise TritonBuildError.
#
#   bench/fbtriton.sh [VENV] > bench/results/fbtriton.txt      (or: make fbtriton)
#
# VENV (default /tmp/fbt-venv): made with python3.11 (fbtriton's wheels are cp311) and FBTRITON (default
# fbtriton==3.8.0rc3: a requirement or a wheel file) where it does not exist; this tree is (re)installed into it
# with its C++ build kept in TMFMA_BUILD_DIR (default VENV-build). Prints each command and what came back.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${1:-/tmp/fbt-venv}
spec=${FBTRITON:-fbtriton==3.8.0rc3}
py=$venv/bin/python
export TRITON_DEFAULT_FP_FUSION=1 TRITON_MFMA_STRICT=0
unset PYTHONPATH TRITON_CODEGEN_AMD

err=$(mktemp)
trap 'rm -f "$err"' EXIT
run() {  # the command (shell-quoted), its stdout, then its stderr and how many lines it has, its exit status
    printf '$'; printf ' %q' "$@"; echo
    "$@" 2>"$err"
    local rc=$?
    if [ -s "$err" ]; then echo "[stderr: $(wc -l <"$err") line(s)]"; cat "$err"; fi
    echo "[exit $rc]"
    echo
}

dirty=$(git -C "$root" status --short --untracked-files=no | awk '{print $2}' | tr '\n' ' ')
echo "# bench/fbtriton.sh $venv > bench/results/fbtriton.txt   ($(date -u +%Y-%m-%dT%H:%MZ), at $(git -C "$root" rev-parse --short HEAD)${dirty:+; the tree installed also had uncommitted changes in: $dirty})"
if [ ! -x "$py" ]; then
    python3.11 -m venv "$venv" && "$py" -m pip install --quiet "$spec" >&2 || { echo "cannot make $venv" >&2; exit 2; }
fi
TMFMA_BUILD_DIR=${TMFMA_BUILD_DIR:-$venv-build} "$py" -m pip install --quiet "$root[test]" >&2 \
    || { echo "cannot install $root into $venv" >&2; exit 2; }
cd /tmp || exit 2  # the installed project, not the tree's python/
run "$py" -m pip list --format=freeze
# the project installs without a triton requirement: fbtriton's module `triton` must still be the one imported
run "$py" -c 'import importlib.metadata as m, triton; print("triton", triton.__version__, "from", m.packages_distributions()["triton"], triton.__file__)'
run "$venv/bin/triton-mfma" --version
run "$venv/bin/triton-mfma" demo
run "$py" "$root/bench/fbtriton_compile.py" --kernel gemm
run "$py" "$root/bench/fbtriton_compile.py" --kernel attn_fwd_d64 --arch gfx950
# the pipeline as derived from fbtriton's make_ttgir (its pipeliner's calls sit in if/elif/else): the default branch
run "$py" -m triton_mfma.composition.make_ttgir
cd "$root" || exit 2
run "$py" -m pytest -q -p no:cacheprovider -rs test/python/test_fbtriton.py
