"""Command line: `triton-mfma demo [--arch gfx942]`, and the `mfma-opt` launcher."""
from __future__ import annotations

import argparse
import os
import sys
import warnings

# The demo's extended column runs every default pass; until transforming passes are on by default it
# runs the layout analysis, so the module still makes the full trip through our C++ and back.
DEMO_ANALYSIS_PASS = "mfma-print-layouts"


def _fmt_row(cells, widths):
    return "  ".join(str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(cells, widths)))


def demo(arch: str, names: list[str] | None = None, out=sys.stdout) -> int:
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # silence Triton 3.9's default-change notice
    from . import native, passes, resources
    from .compile import compile_pair
    from .examples import CORPUS

    ext_passes = list(passes.DEFAULT_PASSES) or [DEMO_ANALYSIS_PASS]
    cols = ["VGPR", "AGPR", "spills", "LDS B", "occ", "MFMA", "compile s"]
    header = ["kernel", "build"] + cols
    widths = [22, 8, 5, 5, 6, 7, 4, 5, 9]
    print(f"triton-mfma demo: {len(names or CORPUS)} kernels for {arch} (no GPU needed; figures from the amdgcn)",
          file=out)
    print(f"extended = stock Triton 3.9 pipeline + triton-mfma passes {ext_passes} "
          f"through the generic-text bridge ({native.native_version()})", file=out)
    print(_fmt_row(header, widths), file=out)
    print("-" * (sum(widths) + 2 * len(widths)), file=out)
    differ = 0
    for name in names or CORPUS:
        fn, sig, cx = CORPUS[name]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", native.MFMARemark)
            stock, ext, ts, te = compile_pair(fn, sig, cx, arch, ext_passes, strict=True)
        rows = []
        for label, k, t in (("stock", stock, ts), ("triton-mfma", ext, te)):
            r = resources.of_kernel(k)
            rows.append([r.vgpr, r.agpr, r.vgpr_spill + r.sgpr_spill, r.lds, r.occupancy, r.mfma_count, f"{t:.2f}"])
            print(_fmt_row([name if label == "stock" else "", label] + rows[-1], widths), file=out)
        differ += rows[0][:-1] != rows[1][:-1] or stock.asm["amdgcn"] != ext.asm["amdgcn"]
    print("-" * (sum(widths) + 2 * len(widths)), file=out)
    if differ:
        print(f"{differ} kernel(s) differ between stock and triton-mfma.", file=out)
    else:
        print("All kernels compile to identical amdgcn: no transforming pass is enabled by default yet, so the\n"
              "columns are equal by construction; the extra compile time is the bridge round trip.", file=out)
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="triton-mfma", description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("demo", help="compile the bundled kernels with stock Triton and with triton-mfma")
    d.add_argument("--arch", default="gfx942", choices=["gfx90a", "gfx942", "gfx950"])
    d.add_argument("--kernel", action="append", help="only these bundled kernels (repeatable)")
    args = ap.parse_args(argv)
    if args.cmd == "demo":
        return demo(args.arch, args.kernel)
    return 2


def mfma_opt() -> None:
    """Console entry point `mfma-opt`: exec the C++ driver shipped in the package."""
    from .native import MFMA_OPT_PATH

    if not os.path.exists(MFMA_OPT_PATH):
        sys.exit(f"mfma-opt: {MFMA_OPT_PATH} is missing; rebuild with `pip install .`")
    os.execv(MFMA_OPT_PATH, [MFMA_OPT_PATH] + sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
