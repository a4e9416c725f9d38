"""One kernel compiled on the installed Triton with the project off, on, and on in strict mode: whether the compile
with it on is Triton's own (same amdgcn, no triton_mfma metadata), the warnings, what strict mode raises.
Used by bench/fbtriton.sh on fbtriton 3.8.0rc3 (issue 55); runs on any Triton.

    python bench/fbtriton_compile.py [--kernel gemm] [--arch gfx942]
"""
import argparse
import hashlib
import os
import warnings

os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

import triton  # noqa: E402
from triton import knobs  # noqa: E402

import triton_mfma  # noqa: E402
from triton_mfma.compiler.compile import compile_kernel  # noqa: E402
from triton_mfma.examples import CORPUS  # noqa: E402


def _compile(name, arch, on):
    """(kernel or the exception raised, MFMAWarnings)."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            if on:
                with triton_mfma.enabled():
                    k = compile_kernel(*CORPUS[name], arch)
            else:
                k = compile_kernel(*CORPUS[name], arch)
        except Exception as e:  # noqa: BLE001 - what strict mode raises is the finding
            k = e
    return k, [str(w.message) for w in seen if issubclass(w.category, triton_mfma.MFMAWarning)]


def _sha(text):
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()[:16]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernel", default="gemm", choices=sorted(CORPUS))
    ap.add_argument("--arch", default="gfx942")
    args = ap.parse_args()
    knobs.compilation.always_compile = True  # each compile is a compile, none from Triton's cache
    print(f"Triton {triton.__version__} ({os.path.dirname(triton.__file__)}), kernel {args.kernel}, {args.arch}")
    os.environ["TRITON_MFMA_STRICT"] = "0"
    stock, _ = _compile(args.kernel, args.arch, on=False)
    ours, warned = _compile(args.kernel, args.arch, on=True)
    again, warned_again = _compile(args.kernel, args.arch, on=True)
    for label, k in (("project off", stock), ("project on", ours), ("project on, again", again)):
        keys = [key for key in k.metadata._asdict() if key.startswith("triton_mfma")]
        print(f"  {label:18s} amdgcn sha256 {_sha(k.asm['amdgcn'])}, ttgir {_sha(k.asm['ttgir'])}, "
              f"hsaco {_sha(k.asm['hsaco'])}; triton_mfma metadata keys: {keys or 'none'}")
    same = all(ours.asm[s] == stock.asm[s] for s in ("ttgir", "amdgcn"))
    print(f"  project on == project off (ttgir, amdgcn): {same}")
    print(f"  MFMAWarnings: {len(warned)} at the first compile with the project on, {len(warned_again)} at the second")
    for w in warned:
        print(f"    {w}")
    os.environ["TRITON_MFMA_STRICT"] = "1"
    strict, _ = _compile(args.kernel, args.arch, on=True)
    if isinstance(strict, Exception):
        print(f"  strict (TRITON_MFMA_STRICT=1): raised {type(strict).__module__}.{type(strict).__name__}: {strict}")
    else:
        print("  strict (TRITON_MFMA_STRICT=1): compiled, nothing raised")


if __name__ == "__main__":
    main()
