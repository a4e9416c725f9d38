"""Command line: `triton-mfma demo [--arch gfx942]`, `triton-mfma report FILE.py:KERNEL ...`, and the
`mfma-opt` launcher."""
from __future__ import annotations

import argparse
import os
import sys
import textwrap
import warnings

def _fmt_row(cells, widths):
    return "  ".join(str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(cells, widths)))


def demo(arch: str, names: list[str] | None = None, out=None, passes_: list[str] | None = None,
         showcase: bool | None = None) -> int:
    """Part 1: the bundled kernels, stock vs the default passes (or `passes_`). Part 2 (`showcase`, default: when
    neither kernels nor passes are chosen): each transforming pass alone on a case where it acts."""
    out = out or sys.stdout
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # silence Triton 3.9's default-change notice
    from . import native, passes, resources
    from .compile import compile_pair
    from .examples import CORPUS

    ext_passes = list(passes_ or passes.DEFAULT_PASSES)
    cols = ["VGPR", "AGPR", "spills", "LDS B", "occ", "MFMA", "compile s"]
    header = ["kernel", "build"] + cols
    widths = [22, 11, 5, 5, 6, 7, 4, 5, 9]
    print(f"triton-mfma demo: {len(names or CORPUS)} kernels for {arch} (no GPU needed; figures from the amdgcn)",
          file=out)
    print(f"extended = stock Triton 3.9 pipeline + triton-mfma passes {ext_passes} "
          f"through the generic-text bridge ({native.native_version()})", file=out)
    print(_fmt_row(header, widths), file=out)
    print("-" * (sum(widths) + 2 * len(widths)), file=out)
    differ, failed, decisions = 0, [], {"kept": [], "reverted": []}
    for name in names or CORPUS:
        fn, sig, cx = CORPUS[name]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", native.MFMARemark)
            try:
                stock, ext, ts, te = compile_pair(fn, sig, cx, arch, ext_passes, strict=True)
            except Exception as e:  # noqa: BLE001 - report the kernel and go on with the others
                failed.append(name)
                print(f"{name}: triton-mfma failed: {str(e).splitlines()[0]}", file=out)
                continue
        verdict = (getattr(ext.metadata, "triton_mfma_accelerate_dot", None) or {}).get("decision")
        if verdict in decisions:
            decisions[verdict].append(name)
        rows = []
        for label, k, t in (("stock", stock, ts), ("triton-mfma", ext, te)):
            r = resources.of_kernel(k)
            rows.append([r.vgpr, r.agpr, r.vgpr_spill + r.sgpr_spill, r.lds, r.occupancy, r.mfma_count, f"{t:.2f}"])
            print(_fmt_row([name if label == "stock" else "", label] + rows[-1], widths), file=out)
        differ += rows[0][:-1] != rows[1][:-1] or stock.asm["amdgcn"] != ext.asm["amdgcn"]
    print("-" * (sum(widths) + 2 * len(widths)), file=out)
    if failed:
        print(f"{len(failed)} kernel(s) failed with triton-mfma (strict mode): {failed}", file=out)
        return 1
    if decisions["kept"] or decisions["reverted"]:
        print(textwrap.fill(
            "mfma-accelerate-dot, verified (ours kept only where the amdgcn is not worse than stock's on occupancy, "
            f"spills, main-loop dot cycles and LDS ops): kept on {', '.join(decisions['kept']) or 'none'}; "
            f"reverted to Triton's layouts on {', '.join(decisions['reverted']) or 'none'}.", 116), file=out)
    if differ:
        print(f"{differ} kernel(s) differ between stock and triton-mfma; compile time includes the verification's "
              "second compile.", file=out)
    elif passes_:
        print("All kernels compile to identical amdgcn with these passes.", file=out)
    else:
        print(f"All kernels compile to identical amdgcn: the default passes {list(passes.DEFAULT_PASSES)} act only "
              "where a kernel\nneeds them (none of these does); the extra compile time is the bridge round trip.",
              file=out)
    if showcase if showcase is not None else (names is None and passes_ is None):
        if _showcase(arch, out):
            return 1
    return 0


def _remark_line(text: str, width: int = 150) -> str:
    """A remark without its location prefix, cut to one line."""
    text = text.split("remark: ", 1)[-1].replace("\n", " ")
    if text.startswith("[") and "] " in text:  # "[kernel] ..." (the hook's own remarks)
        text = text.split("] ", 1)[1]
    if text.startswith("chain ") and "): " in text:  # "chain head (with the dot at FILE:L): ..." -> "chain head: ..."
        text = text.split(" (", 1)[0] + ": " + text.split("): ", 1)[1]
    return text if len(text) <= width else text[:width - 3] + "..."


def _showcase(arch: str, out) -> int:
    """Each transforming pass alone, stock vs the pass, on the cases of examples/showcase.py."""
    from . import native, occupancy, resources
    from .compile import compile_pair
    from .examples.showcase import cases

    cols = ["build", "VGPR", "spills", "LDS B", "waves", "wg/CU", "MFMA", "ds ops", "compile s"]
    widths = [40, 9, 5, 6, 7, 5, 5, 5, 6, 9]
    print(file=out)
    print(f"Each transforming pass on its own, where it acts ({arch}); waves = waves/SIMD and wg/CU = "
          "workgroups/CU\nfrom registers and LDS (0: cannot launch), spills = VGPR + SGPR, ds ops = ds_read + ds_write "
          "instructions:",
          file=out)
    print(_fmt_row(["pass / case"] + cols, widths), file=out)
    print("-" * (sum(widths) + 2 * len(widths)), file=out)
    failed, current = 0, None
    for case in cases(arch):
        if case.pass_name != current:
            current = case.pass_name
            print(case.pass_name, file=out)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                stock, ext, ts, te = compile_pair(case.kernel, case.signature, case.constexprs, arch,
                                                  [case.pass_name], case.options or None, strict=True,
                                                  **case.pass_options)
            except Exception as e:  # noqa: BLE001 - report the case and go on with the others
                failed += 1
                print(f"  {case.label}: triton-mfma failed: {str(e).splitlines()[0]}", file=out)
                continue
        remarks = [str(w.message) for w in caught if issubclass(w.category, native.MFMARemark)]
        remarks.sort(key=lambda r: "mfma-accelerate-dot: " not in r)  # the verification's decision first
        for label, k, t in (("stock", stock, ts), ("with pass", ext, te)):
            r = resources.of_kernel(k)
            occ = occupancy.occupancy(arch, k.metadata.num_warps, r.vgpr_total, r.sgpr, k.metadata.shared)
            print(_fmt_row(["  " + case.label if label == "stock" else "", label, r.vgpr_total,
                            r.vgpr_spill + r.sgpr_spill, k.metadata.shared, occ.waves_per_simd,
                            occ.workgroups_per_cu, r.mfma_count, r.ds_read + r.ds_write, f"{t:.2f}"], widths),
                  file=out)
        print(textwrap.fill(case.look_at, 116, initial_indent="    look at: ", subsequent_indent=" " * 13), file=out)
        for rm in remarks[:3]:
            print(f"    remark: {_remark_line(rm)}", file=out)
    print("-" * (sum(widths) + 2 * len(widths)), file=out)
    print("Figures are static (no GPU here); what they are worth at run time is measured in bench/ "
          "(bench/results/).", file=out)
    return failed


def _load_kernel(spec: str):
    """`path/to/file.py:KERNEL` -> the @triton.jit function."""
    import importlib.util

    path, sep, name = spec.rpartition(":")
    if not sep or not path.endswith(".py"):
        raise SystemExit(f"triton-mfma report: expected FILE.py:KERNEL, got {spec!r}")
    mod_spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(path))[0], path)
    module = importlib.util.module_from_spec(mod_spec)
    sys.modules[mod_spec.name] = module  # Triton resolves globals of the kernel through its module
    mod_spec.loader.exec_module(module)
    try:
        return getattr(module, name)
    except AttributeError:
        raise SystemExit(f"triton-mfma report: {path} has no kernel {name!r}") from None


def _parse_value(v: str):
    for conv in (int, float):
        try:
            return conv(v)
        except ValueError:
            pass
    return {"True": True, "False": False}.get(v, v)


def _signature(fn, spec: str, constexprs: dict) -> dict:
    """`--signature` is either `name=type,...` or types in argument order (constexprs excluded)."""
    parts = [p.strip() for p in spec.split(",") if p.strip()]
    if all("=" in p for p in parts):
        sig = dict(p.split("=", 1) for p in parts)
    else:
        names = [a for a in fn.arg_names if a not in constexprs]
        if len(names) != len(parts):
            raise SystemExit(f"triton-mfma report: {len(parts)} types for {len(names)} arguments {names}")
        sig = dict(zip(names, parts))
    for name in constexprs:
        sig[name] = "constexpr"
    return sig


def report_cmd(args, out=None) -> int:
    out = out or sys.stdout
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    from . import hook, native
    from .compile import always_compile, compile_kernel
    from .report import report

    fn = _load_kernel(args.kernel)
    constexprs = dict((k, _parse_value(v)) for k, v in (c.split("=", 1) for c in args.constexpr or []))
    sig = _signature(fn, args.signature, constexprs)
    options = {"num_warps": args.num_warps, "num_stages": args.num_stages}
    if args.waves_per_eu is not None:
        options["waves_per_eu"] = "auto" if args.waves_per_eu == "auto" else int(args.waves_per_eu)
    passes = args.passes.split(",") if args.passes else None
    builds = []
    with warnings.catch_warnings(), always_compile():
        warnings.simplefilter("ignore", native.MFMARemark)
        if args.compare:
            hook.disable()
            stock_opts = dict(options)
            if stock_opts.get("waves_per_eu") == "auto":
                stock_opts["waves_per_eu"] = 0  # stock Triton has no "auto": compare with its default
            builds.append(("stock", report(compile_kernel(fn, sig, constexprs, args.arch, stock_opts))))
        with hook.enabled(passes=passes):
            builds.append(("triton-mfma", report(compile_kernel(fn, sig, constexprs, args.arch, options))))
    if len(builds) == 1:
        print(builds[0][1], file=out)
    else:
        stock, ext = (dict(b[1].rows()) for b in builds)
        w0 = max(len(k) for k in ext)
        w1 = max(len(v) for v in stock.values())
        print(f"{'':{w0}}  {'stock':{w1}}  triton-mfma", file=out)
        for k, b in ext.items():
            print(f"{k:{w0}}  {stock.get(k, ''):{w1}}  {b}", file=out)
    if args.plot:
        _plot(builds, args.plot)
        print(f"plot written to {args.plot}", file=out)
    return 0


def _plot(builds, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    metrics = [("VGPR+AGPR", lambda r: r.res.vgpr_total), ("SGPR", lambda r: r.res.sgpr),
               ("spills", lambda r: r.res.vgpr_spill + r.res.sgpr_spill), ("LDS KiB", lambda r: r.res.lds / 1024),
               ("waves/SIMD", lambda r: r.occupancy.waves_per_simd), ("MFMA", lambda r: r.res.mfma_count),
               ("ds_read", lambda r: r.res.ds_read), ("ds_write", lambda r: r.res.ds_write)]
    fig, axes = plt.subplots(1, len(metrics), figsize=(2.2 * len(metrics), 3.2))
    for ax, (label, get) in zip(axes, metrics):
        values = [get(r) for _, r in builds]
        ax.bar(range(len(builds)), values, color=["#888888", "#d62728"][: len(builds)])
        ax.set_xticks(range(len(builds)), [n for n, _ in builds], rotation=30, fontsize=7)
        ax.set_title(label, fontsize=9)
        ax.set_ylim(0, max(values + [1]) * 1.15)
        for i, v in enumerate(values):
            ax.annotate(f"{v:g}", (i, v), ha="center", va="bottom", fontsize=7)
    r = builds[-1][1]
    fig.suptitle(f"{r.name} on {r.arch}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="triton-mfma", description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("demo", help="compile the bundled kernels with stock Triton and with triton-mfma")
    d.add_argument("--arch", default="gfx942", choices=["gfx90a", "gfx942", "gfx950"])
    d.add_argument("--kernel", action="append", help="only these bundled kernels (repeatable)")
    d.add_argument("--passes", help="comma-separated triton-mfma passes for the extended column "
                                    "(default: the default passes)")
    d.add_argument("--no-showcase", action="store_true",
                   help="skip part 2 (each transforming pass on a case where it acts); it runs by default when "
                        "neither --kernel nor --passes is given")
    r = sub.add_parser("report", help="compile one kernel and print what the compiler produced")
    r.add_argument("kernel", metavar="FILE.py:KERNEL")
    r.add_argument("--arch", default="gfx942", choices=["gfx90a", "gfx942", "gfx950"])
    r.add_argument("--signature", required=True,
                   help="argument types: 'a_ptr=*fp16,M=i32,...' or '*fp16,i32,...' in argument order")
    r.add_argument("--constexpr", action="append", metavar="NAME=VALUE", help="repeatable")
    r.add_argument("--num-warps", type=int, default=4)
    r.add_argument("--num-stages", type=int, default=2)
    r.add_argument("--waves-per-eu", help="an int, or 'auto'")
    r.add_argument("--passes", help="comma-separated triton-mfma passes (default: the default passes)")
    r.add_argument("--compare", action="store_true", help="stock Triton and triton-mfma side by side")
    r.add_argument("--plot", metavar="OUT.png", help="draw the comparison (matplotlib)")
    args = ap.parse_args(argv)
    if args.cmd == "demo":
        return demo(args.arch, args.kernel, passes_=args.passes.split(",") if args.passes else None,
                    showcase=False if args.no_showcase else None)
    if args.cmd == "report":
        return report_cmd(args)
    return 2


def mfma_opt() -> None:
    """Console entry point `mfma-opt`: exec the C++ driver shipped in the package."""
    from .native import MFMA_OPT_PATH

    if not os.path.exists(MFMA_OPT_PATH):
        sys.exit(f"mfma-opt: {MFMA_OPT_PATH} is missing; rebuild with `pip install .`")
    os.execv(MFMA_OPT_PATH, [MFMA_OPT_PATH] + sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
