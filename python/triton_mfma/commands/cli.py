"""Command line: `triton-mfma demo`, `report FILE.py:KERNEL`, `passes`, `opt FILE`, and the `mfma-opt` launcher.

Every user error is one line on stderr and exit status 2 (`--debug` shows the traceback).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
import warnings

from .cli_checks import (TRITON_COMMANDS, CliError, _AlreadyReported, _as_list, _check_activation, _check_kernel_spec,
                         _check_plot, _error_line, _suggest, _triton_version_text, check_args, check_triton,
                         triton_status)
from .cli_opt import opt_cmd
from ..ir.triton_ir import parse_triton_ir  # noqa: F401 - a library caller's (docs/reliability.md) and the tests'
from .. import __version__
from ..compiler import hook
from ..composition import passes as passes_mod  # `passes` names the activation's list of pass names here
from ..composition.remarks import body
from ..ir import native
from ..ir.native import MFMA_OPT_PATH
from ..models import occupancy, resources
from ..models.report import report

PROG = "triton-mfma"


def _fmt_row(cells, widths):
    return "  ".join(str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(cells, widths)))


# ---------------------------------------------------------------------------------------------------------
# demo


def _figures(k) -> dict:
    r = resources.of_kernel(k)
    return {"vgpr": r.vgpr, "agpr": r.agpr, "spills": r.vgpr_spill + r.sgpr_spill, "lds": r.lds,
            "occupancy": r.occupancy, "mfma": r.mfma_count}


def demo(arch: str, names=None, out=None, passes_=None, showcase: bool | None = None, options: dict | None = None,
         as_json: bool = False) -> int:
    """Part 1: the bundled kernels, stock vs the default passes (or `passes_`). Part 2 (`showcase`, default: when
    neither kernels nor passes are chosen): each transforming pass alone on a case where it acts.

    `names` and `passes_` are lists or comma-separated strings. `as_json`: one JSON document on `out` instead
    of the tables."""
    out = out or sys.stdout
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # silence Triton 3.9's default-change notice
    triton_version = _triton_version_text()
    # a build without what the bridge calls: the project is off, both columns are stock Triton's (one warning)
    off = triton_status().problem  # (not fatal: check_triton passed)
    from ..compiler.compile import compile_pair
    from ..examples import CORPUS

    names = _as_list(names, "kernel")
    passes_ = _as_list(passes_, "pass")
    options = dict(options or {})
    unknown = [n for n in names or [] if n not in CORPUS]
    if unknown:
        raise CliError(f"no bundled kernel {', '.join(map(repr, unknown))}; the bundled kernels are "
                       f"{', '.join(CORPUS)}")
    _check_activation(passes_, options)
    ext_passes = list(passes_ or passes_mod.DEFAULT_PASSES)
    verifies = "mfma-accelerate-dot" in ext_passes and passes_mod.setting(options, "verify_dot")
    text = (lambda *a, **k: None) if as_json else (lambda *a, **k: print(*a, file=out, **k))
    doc = {"arch": arch, "triton": triton_version, "triton_mfma": native.native_version(), "passes": ext_passes,
           "options": options, "kernels": [], "showcase": [], "triton_mfma_off": off}

    cols = ["VGPR", "AGPR", "spills", "LDS B", "occ", "MFMA", "compile s"]
    header = ["kernel", "build"] + cols
    widths = [22, 11, 5, 5, 6, 7, 4, 5, 9]
    text(f"triton-mfma demo: {len(names or CORPUS)} kernels for {arch} (no GPU needed; figures from the amdgcn)")
    if off:  # nothing of ours runs: the header says what the columns are, not what would have run
        text(f"triton-mfma is off for this Triton build ({off}): both builds below are stock Triton "
             f"{triton_version}'s (the warning on stderr)")
    else:
        text(f"extended = stock Triton {triton_version} pipeline + triton-mfma passes {ext_passes}"
             + (f" {options}" if options else "") + f" through the generic-text bridge ({native.native_version()})")
    text(_fmt_row(header, widths))
    text("-" * (sum(widths) + 2 * len(widths)))
    differ, failed, decisions = 0, [], {"kept": [], "reverted": []}
    for name in names or CORPUS:
        fn, sig, cx = CORPUS[name]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", native.MFMARemark)
            try:
                # no pass list: the default set with its default options (waves_per_eu="auto"), as users get it
                stock, ext, ts, te = compile_pair(fn, sig, cx, arch, passes_ or None, strict=not off, **options)
            except Exception as e:  # noqa: BLE001 - report the kernel and go on with the others
                failed.append(name)
                first = str(e).splitlines()[0] if str(e) else type(e).__name__
                doc["kernels"].append({"kernel": name, "error": first})
                text(f"{name}: triton-mfma failed: {first}")
                continue
        verdict = (getattr(ext.metadata, "triton_mfma_accelerate_dot", None) or {}).get("decision")
        if verdict in decisions:
            decisions[verdict].append(name)
        entry = {"kernel": name, "accelerate_dot": verdict,
                 "identical_amdgcn": stock.asm["amdgcn"] == ext.asm["amdgcn"]}
        rows = []
        for label, k, t in (("stock", stock, ts), ("triton-mfma", ext, te)):
            f = _figures(k)
            entry[label] = {**f, "compile_s": round(t, 3)}
            rows.append([f["vgpr"], f["agpr"], f["spills"], f["lds"], f["occupancy"], f["mfma"], f"{t:.2f}"])
            text(_fmt_row([name if label == "stock" else "", label] + rows[-1], widths))
        doc["kernels"].append(entry)
        differ += rows[0][:-1] != rows[1][:-1] or not entry["identical_amdgcn"]
    text("-" * (sum(widths) + 2 * len(widths)))
    rc = 0
    if failed:
        text(f"{len(failed)} kernel(s) failed with triton-mfma (strict mode): {failed}")
        rc = 1
    else:
        if decisions["kept"] or decisions["reverted"]:
            text(textwrap.fill(
                "mfma-accelerate-dot, verified (ours kept unless the one judge ranks stock's amdgcn better: "
                "scratch spills, occupancy, main-loop copies and lane spills, dot cycles, LDS ops): kept on "
                f"{', '.join(decisions['kept']) or 'none'}; reverted to Triton's layouts on "
                f"{', '.join(decisions['reverted']) or 'none'}.", 116))
        if off:
            text("triton-mfma was off for this Triton build: both builds are stock Triton's.")
        elif differ:
            text(f"{differ} kernel(s) differ between stock and triton-mfma"
                 + ("; compile time includes the verification's second compile." if verifies else "."))
        elif passes_:
            text("All kernels compile to identical amdgcn with these passes.")
        else:
            text(f"All kernels compile to identical amdgcn: the default passes {list(passes_mod.DEFAULT_PASSES)} act "
                 "only where a kernel\nneeds them (none of these does); the extra compile time is the bridge "
                 "round trip.")
        if not off and (showcase if showcase is not None else (names is None and passes_ is None and not options)):
            if _showcase(arch, out, doc["showcase"], text):
                rc = 1
    if as_json:
        print(json.dumps(doc, indent=1, default=str), file=out)
    return rc


def _remark_line(text: str, width: int = 150) -> str:
    """A remark without its location prefix, cut to one line."""
    text = body(text.replace("\n", " "))  # without "triton-mfma remark [kernel] "
    if text.startswith("chain ") and "): " in text:  # "chain head (with the dot at FILE:L): ..." -> "chain head: ..."
        text = text.split(" (", 1)[0] + ": " + text.split("): ", 1)[1]
    return text if len(text) <= width else text[:width - 3] + "..."


def _showcase(arch: str, out, records: list | None = None, text=None) -> int:
    """Each transforming pass alone, stock vs the pass, on the cases of examples/showcase.py."""
    from ..compiler.compile import compile_pair
    from ..examples.showcase import cases

    records = records if records is not None else []
    text = text or (lambda *a, **k: print(*a, file=out, **k))
    cols = ["build", "VGPR", "spills", "LDS B", "waves", "wg/CU", "MFMA", "ds ops", "compile s"]
    widths = [40, 9, 5, 6, 7, 5, 5, 5, 6, 9]
    text()
    text(f"Each transforming pass on its own, where it acts ({arch}); waves = waves/SIMD and wg/CU = "
         "workgroups/CU\nfrom registers and LDS (0: cannot launch), spills = VGPR + SGPR, ds ops = ds_read + ds_write "
         "instructions:")
    text(_fmt_row(["pass / case"] + cols, widths))
    text("-" * (sum(widths) + 2 * len(widths)))
    failed, current = 0, None
    for case in cases(arch):
        if case.pass_name != current:
            current = case.pass_name
            text(case.pass_name)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                stock, ext, ts, te = compile_pair(case.kernel, case.signature, case.constexprs, arch,
                                                  [case.pass_name], case.options or None, strict=True,
                                                  remarks="all", **case.pass_options)
            except Exception as e:  # noqa: BLE001 - report the case and go on with the others
                failed += 1
                first = str(e).splitlines()[0] if str(e) else type(e).__name__
                records.append({"pass": case.pass_name, "case": case.label, "error": first})
                text(f"  {case.label}: triton-mfma failed: {first}")
                continue
        remarks = [str(w.message) for w in caught if issubclass(w.category, native.MFMARemark)]
        remarks.sort(key=lambda r: "mfma-accelerate-dot: " not in r)  # the verification's decision first
        record = {"pass": case.pass_name, "case": case.label, "look_at": case.look_at,
                  "remarks": [_remark_line(rm, 10000) for rm in remarks]}
        for label, k, t in (("stock", stock, ts), ("with pass", ext, te)):
            r = resources.of_kernel(k)
            occ = occupancy.occupancy(arch, k.metadata.num_warps, r.vgpr_total, r.sgpr, k.metadata.shared)
            record["stock" if label == "stock" else "with_pass"] = {
                "vgpr_total": r.vgpr_total, "spills": r.vgpr_spill + r.sgpr_spill, "lds": k.metadata.shared,
                "waves_per_simd": occ.waves_per_simd, "workgroups_per_cu": occ.workgroups_per_cu,
                "mfma": r.mfma_count, "ds_ops": r.ds_read + r.ds_write, "compile_s": round(t, 3)}
            text(_fmt_row(["  " + case.label if label == "stock" else "", label, r.vgpr_total,
                           r.vgpr_spill + r.sgpr_spill, k.metadata.shared, occ.waves_per_simd,
                           occ.workgroups_per_cu, r.mfma_count, r.ds_read + r.ds_write, f"{t:.2f}"], widths))
        records.append(record)
        text(textwrap.fill(case.look_at, 116, initial_indent="    look at: ", subsequent_indent=" " * 13))
        for rm in remarks[:3]:
            text(f"    remark: {_remark_line(rm)}")
    text("-" * (sum(widths) + 2 * len(widths)))
    text("Figures are static (no GPU here); what they are worth at run time is measured in bench/ "
         "(bench/results/).")
    return failed


# ---------------------------------------------------------------------------------------------------------
# report


def _load_kernel(spec: str):
    """`path/to/file.py:KERNEL` -> the @triton.jit function (an @autotune/@heuristics wrapper is unwrapped)."""
    import importlib.util

    path, name = _check_kernel_spec(spec)
    mod_name = os.path.splitext(os.path.basename(path))[0]
    mod_spec = importlib.util.spec_from_file_location(mod_name, path)
    module = importlib.util.module_from_spec(mod_spec)
    sys.modules[mod_spec.name] = module  # Triton resolves globals of the kernel through its module
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))  # as triton/tools/compile.py does
    try:
        mod_spec.loader.exec_module(module)
    except Exception as e:  # noqa: BLE001 - the user's file: one line
        first = str(e).splitlines()[0] if str(e) else ""
        raise CliError(f"importing {path} failed: {type(e).__name__}: {first}") from e
    from triton.runtime.jit import JITFunction

    kernels = sorted(k for k, v in vars(module).items() if isinstance(v, JITFunction)
                     or isinstance(getattr(v, "fn", None), JITFunction))
    fn = getattr(module, name, None)
    while fn is not None and not isinstance(fn, JITFunction) and hasattr(fn, "fn"):
        fn = fn.fn  # Autotuner / Heuristics
    if not isinstance(fn, JITFunction):
        what = "no kernel" if getattr(module, name, None) is None else "no @triton.jit kernel"
        raise CliError(f"{path} has {what} {name!r}; its kernels: {', '.join(kernels) or 'none'}")
    return fn


def _parse_option(text: str) -> tuple[str, object]:
    """`name=value` with value as int, float, bool (true/false) or string."""
    from ..compiler.compile import parse_value

    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name.strip(), parse_value(value.strip())


def _waves_per_eu(text: str):
    if text == "auto":
        return "auto"
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer or 'auto', got {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer or 'auto', got {text!r}")
    return v


def _num_warps(text: str) -> int:
    """A workgroup of 1-16 waves (AMD: at most 1024 lanes), a power of two as Triton requires."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a power of two from 1 to 16, got {text!r}") from None
    if v < 1 or v > 16 or v & (v - 1):
        raise argparse.ArgumentTypeError(f"expected a power of two from 1 to 16 (a workgroup of at most 1024 "
                                         f"lanes), got {text!r}")
    return v


def _num_stages(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        v = -1
    if v < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}")
    return v


def _amd_arch(text: str) -> str:
    from ..compiler.compile import AMD_ARCHS

    if text in AMD_ARCHS:
        return text
    if text.startswith(("cuda", "sm")):
        raise argparse.ArgumentTypeError(f"{text!r} is not an AMD target: triton-mfma reads AMD amdgcn "
                                         f"({', '.join(AMD_ARCHS)})")
    raise argparse.ArgumentTypeError(f"unsupported arch {text!r}; choose one of {', '.join(AMD_ARCHS)}")


def _default_passes():
    return passes_mod.DEFAULT_PASSES


def report_cmd(args, out=None) -> int:
    out = out or sys.stdout
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    if args.plot:
        _check_plot(args.plot)  # before compiling anything (main() checked already; report_cmd may be called alone)
    _triton_version_text()
    from ..compiler.compile import aot_signature, always_compile, compile_kernel
    passes = _as_list(args.passes, "pass")
    mfma_options = dict(args.option or [])
    _check_activation(passes, mfma_options)
    fn = _load_kernel(args.kernel)
    constexprs = {}
    for c in args.constexpr or []:
        k, sep, v = c.partition("=")
        if not sep or not k.strip():
            raise CliError(f"--constexpr expects NAME=VALUE, got {c!r}")
        constexprs[k.strip()] = v.strip()
    from ..compiler.compile import parse_value

    constexprs = {k: parse_value(v) for k, v in constexprs.items()}
    sig, constexprs, attrs = aot_signature(fn, args.signature, constexprs, args.arch, args.large_tensors)
    options = {"num_warps": args.num_warps, "num_stages": args.num_stages}
    if args.waves_per_eu is not None:
        options["waves_per_eu"] = args.waves_per_eu
    builds = []
    with warnings.catch_warnings(), always_compile():
        warnings.simplefilter("ignore", native.MFMARemark)
        if args.compare:
            hook.disable()
            stock_opts = dict(options)
            if stock_opts.get("waves_per_eu") == "auto":
                stock_opts["waves_per_eu"] = 0  # stock Triton has no "auto": compare with its default
            builds.append(("stock", report(compile_kernel(fn, sig, constexprs, args.arch, stock_opts, attrs))))
        with hook.enabled(passes=passes, **mfma_options):
            builds.append(("triton-mfma", report(compile_kernel(fn, sig, constexprs, args.arch, options, attrs))))
    config = {"kernel": fn.__name__, "arch": args.arch, **options,
              "passes": list(passes) if passes is not None else list(_default_passes()), **mfma_options,
              "constexprs": {k: v for k, v in constexprs.items()}}
    if args.json:
        doc = {"config": config, **{label: r.as_dict() for label, r in builds}}
        print(json.dumps(doc, indent=1, default=str), file=out)
    elif len(builds) == 1:
        print(builds[0][1], file=out)
    else:
        stock, ext = (dict(b[1].rows()) for b in builds)
        w0 = max(len(k) for k in ext)
        w1 = max(len(v) for v in stock.values())
        print(f"{'':{w0}}  {'stock':{w1}}  triton-mfma", file=out)
        for k, b in ext.items():
            print(f"{k:{w0}}  {stock.get(k, ''):{w1}}  {b}", file=out)
    if args.plot:
        plot(builds, args.plot, config)
        print(f"plot written to {args.plot}", file=sys.stderr if args.json else out)
    return 0


# (label, value of a KernelReport, which direction is better)
PLOT_METRICS = [
    ("VGPR+AGPR", lambda r: r.res.vgpr_total, "lower"),
    ("SGPR", lambda r: r.res.sgpr, "lower"),
    ("spills (VGPR+SGPR)", lambda r: r.res.vgpr_spill + r.res.sgpr_spill, "lower"),
    ("LDS KiB", lambda r: r.res.lds / 1024, "lower"),
    ("waves/SIMD", lambda r: r.occupancy.waves_per_simd, "higher"),
    ("workgroups/CU", lambda r: r.occupancy.workgroups_per_cu, "higher"),
    ("MFMA instructions", lambda r: r.res.mfma_count, "lower"),
    ("ds_read", lambda r: r.res.ds_read, "lower"),
    ("ds_write", lambda r: r.res.ds_write, "lower"),
]
PLOT_COLOURS = ["#9a9a9a", "#4a6d8c"]  # stock: grey; triton-mfma: slate blue (neither reads as good or bad)


def plot(builds, path: str, config: dict | None = None) -> None:
    """Bar panels of `builds` [(label, KernelReport)]: each panel says which direction is better; the title
    carries the kernel, arch and configuration."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(PLOT_METRICS), figsize=(2.0 * len(PLOT_METRICS), 3.6))
    for ax, (label, get, better) in zip(axes, PLOT_METRICS):
        values = [get(r) for _, r in builds]
        ax.bar(range(len(builds)), values, color=PLOT_COLOURS[-len(builds):] if len(builds) == 1 else PLOT_COLOURS)
        ax.set_xticks(range(len(builds)), [n for n, _ in builds], rotation=30, fontsize=7)
        ax.set_title(f"{label}\n{'↓ lower' if better == 'lower' else '↑ higher'} is better", fontsize=8)
        ax.set_ylim(0, max(values + [1]) * 1.2)
        ax.tick_params(axis="y", labelsize=7)
        for i, v in enumerate(values):
            ax.annotate(f"{v:g}", (i, v), ha="center", va="bottom", fontsize=7)
    r = builds[-1][1]
    config = dict(config or {})
    parts = [f"{k}={v}" for k, v in config.items() if k not in ("kernel", "arch", "constexprs")]
    cx = ", ".join(f"{k}={v}" for k, v in (config.get("constexprs") or {}).items())
    title = f"{r.name} on {r.arch}: " + ", ".join(parts)
    fig.suptitle(textwrap.fill(title, 160) + (f"\n{textwrap.fill(cx, 160)}" if cx else ""), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


_plot = plot  # the old private name


# ---------------------------------------------------------------------------------------------------------
# passes


def passes_doc() -> dict:
    """Passes, insertion points, options (types, allowed values, defaults), defaults on: JSON-ready. Python's
    option declarations (passes.py) with the C++ passes' own (passes.json, generated from Passes.td)."""
    cxx = native.pass_registry()
    default = list(passes_mod.DEFAULT_PASSES)

    def option(o, p=None):
        c = next((x for x in cxx.get(p.name, {}).get("options", []) if x["argument"] == o.flag), {}) if p else {}
        default_value = o.default if o.default is not None else c.get("default_value")
        return {"name": o.name, "pass_option": o.flag, "type": c.get("type") or o.kind.__name__,
                "values": o.allowed(), "default": default_value,
                "from_triton_option": (p.triton_options.get(o.name) or [None])[0] if p else None,
                "help": o.doc}

    out = {"default_passes": default, "default_options": dict(passes_mod.DEFAULT_OPTIONS),
           "points": dict(passes_mod.POINTS), "passes": [], "activation_options": []}
    for name, p in passes_mod.REGISTRY.items():
        out["passes"].append({"name": name, "point": p.point, "targets": list(p.targets),
                              "cuda_only_when_named": "cuda" in p.by_name_only, "default": name in default,
                              "summary": p.summary, "options": [option(o, p) for o in p.options]})
    out["activation_options"] = [option(o) for o in passes_mod.HOOK_OPTIONS]
    return out


def passes_cmd(args, out=None) -> int:
    out = out or sys.stdout
    doc = passes_doc()
    if args.json:
        print(json.dumps(doc, indent=1, default=str), file=out)
        return 0
    p = lambda *a: print(*a, file=out)  # noqa: E731
    p(f"triton-mfma passes; on by default (enable() / TRITON_CODEGEN_AMD=1): {', '.join(doc['default_passes'])}")
    p("Choose others with --passes P1,P2 (CLI), enable(passes=[...]) or TRITON_CODEGEN_AMD=P1,P2; options with "
      "--option NAME=VALUE (CLI) or enable(..., NAME=VALUE).")
    for ps in doc["passes"]:
        p()
        p(f"{ps['name']}{'  [default]' if ps['default'] else ''}")
        p(f"  at {ps['point']} ({doc['points'].get(ps['point'], '')}); targets: {', '.join(ps['targets'])}")
        p(textwrap.fill(ps["summary"], 110, initial_indent="  ", subsequent_indent="  "))
        for o in ps["options"]:
            dflt = o["default"] if o["default"] is not None else "the pass decides"
            src = f"; the kernel's Triton option {o['from_triton_option']} when set" if o["from_triton_option"] else ""
            flag = f" (pass option {o['pass_option']})" if o["pass_option"] else ""
            p(f"  option {o['name']}{flag}: {o['values']}; default {dflt}{src}")
            if o["help"]:
                p(textwrap.fill(o["help"], 110, initial_indent="      ", subsequent_indent="      "))
    p()
    p("Insertion points:")
    w = max(len(k) for k in doc["points"])
    for k, v in doc["points"].items():
        p(f"  {k:{w}}  {v}")
    if doc["activation_options"]:
        p()
        p("Options of the activation itself (any pass list; the default set adds "
          + ", ".join(f"{k}={v!r}" for k, v in doc["default_options"].items()) + "):")
        for o in doc["activation_options"]:
            p(f"  {o['name']}: {o['values']}" + (f" - {o['help']}" if o["help"] else ""))
    return 0


# ---------------------------------------------------------------------------------------------------------
# opt


# ---------------------------------------------------------------------------------------------------------
# argument checks: main() runs them before any work (no file is parsed, nothing compiled, before they pass)




# ---------------------------------------------------------------------------------------------------------
# main


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Descriptions as written; option help wrapped without splitting pass names at their hyphens."""

    def _split_lines(self, text, width):
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


class _Parser(argparse.ArgumentParser):
    """argparse whose errors are one line on stderr (exit status 2), naming a misspelt flag or command with the
    closest known one."""

    argv: list = []  # the command line being parsed (main sets it), to name what argparse's message does not

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {self._explain(message)} (see {self.prog} --help)\n")

    def _commands(self) -> dict:
        sub = next((a for a in self._actions if isinstance(a, argparse._SubParsersAction)), None)
        return dict(sub.choices) if sub is not None else {}

    def _unknown_flag(self, parser) -> str | None:
        flags = [t.split("=", 1)[0] for t in self.argv if t.startswith("-") and t != "-"]
        return next((f for f in flags if f not in parser._option_string_actions), None)

    def _explain(self, message: str) -> str:
        commands = self._commands()
        if "the following arguments are required: cmd" in message:
            flag = self._unknown_flag(self)
            if flag:
                return f"unrecognized option {flag!r}{_suggest(flag, self._option_string_actions)}"
            return f"give a command: {', '.join(commands)}"
        m = __import__("re").search(r"invalid choice: '([^']*)'", message)
        if m and commands and message.startswith("argument cmd"):
            return f"unknown command {m.group(1)!r}{_suggest(m.group(1), commands)}; the commands: " \
                   f"{', '.join(commands)}"
        if message.startswith("unrecognized arguments"):
            at = next((i for i, t in enumerate(self.argv) if t in commands), len(self.argv))
            for parser, tokens in ((commands.get(self.argv[at]) if at < len(self.argv) else None, self.argv[at:]),
                                   (self, self.argv[:at])):
                flags = [t.split("=", 1)[0] for t in tokens if t.startswith("-") and t != "-"]
                flag = next((f for f in flags if parser is not None and f not in parser._option_string_actions),
                            None)
                if flag:
                    return f"unrecognized option {flag!r} for {parser.prog}" \
                           f"{_suggest(flag, parser._option_string_actions)}"
        return message


class _Version(argparse.Action):
    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        parts = [f"{PROG} {__version__}", triton_status().version_text()]
        try:
            from ..ir.native import native_version

            parts.append(f"libTritonMFMA {native_version()}")
        except (ImportError, OSError) as e:
            parts.append(f"libTritonMFMA missing ({e})")
        print(", ".join(parts))
        parser.exit(0)


def _passes_help() -> str:
    return (f"comma-separated triton-mfma passes (default: {','.join(passes_mod.DEFAULT_PASSES)}); known: "
            f"{', '.join(passes_mod.REGISTRY)} (`triton-mfma passes` describes them)")


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="show the traceback of an error")
    opt_common = argparse.ArgumentParser(add_help=False)
    opt_common.add_argument("--option", action="append", type=_parse_option, metavar="NAME=VALUE",
                            help="a triton-mfma option (repeatable; `triton-mfma passes` lists them); VALUE is read "
                                 "as an int, true/false or a string")

    ap = _Parser(prog=PROG, description=__doc__, parents=[common],
                 formatter_class=_Formatter)
    ap.add_argument("--version", action=_Version, help="print the versions of triton-mfma, Triton and the C++ library")
    sub = ap.add_subparsers(dest="cmd", required=True, parser_class=_Parser)

    d = sub.add_parser("demo", parents=[common, opt_common], formatter_class=_Formatter,
                       help="compile the bundled kernels with stock Triton and with triton-mfma")
    d.add_argument("--arch", default="gfx942", type=_amd_arch, help="gfx90a, gfx942 (default) or gfx950")
    d.add_argument("--kernel", action="append", help="only these bundled kernels (repeatable or comma-separated)")
    d.add_argument("--passes", help=_passes_help())
    d.add_argument("--no-showcase", action="store_true",
                   help="skip part 2 (each transforming pass on a case where it acts); it runs by default when "
                        "neither --kernel, --passes nor --option is given")
    d.add_argument("--json", action="store_true", help="one JSON document instead of the tables")

    r = sub.add_parser("report", parents=[common, opt_common],
                       help="compile one kernel and print what the compiler produced",
                       formatter_class=_Formatter,
                       description=textwrap.dedent("""\
                           Compile FILE.py:KERNEL for an AMD target (no GPU needed) and report registers, spills,
                           LDS, occupancy, MFMA and memory instructions.

                           --signature takes Triton's AOT syntax (triton/tools/compile.py), one entry per argument:
                             *fp16:16   a pointer, 16-byte aligned (as torch tensors are)
                             i32:16     an int that is a multiple of 16;  i32:1  the constant 1;  i32  any int
                             64, True   a constant (for a tl.constexpr, or a value to specialize on)
                           so the report compiles the kernel a launch on such arguments compiles. Also accepted:
                           entries for the arguments without --constexpr only, or name=entry,... in any order.
                           On AMD, pointers get tt.pointer_range=32 as a launch on tensors under 2 GiB gives them
                           (--large-tensors: not).""")) 
    r.add_argument("kernel", metavar="FILE.py:KERNEL")
    r.add_argument("--arch", default="gfx942", type=_amd_arch, help="gfx90a, gfx942 (default) or gfx950")
    r.add_argument("--signature", required=True, help="'*fp16:16,*fp16:16,i32,...,64' (see above)")
    r.add_argument("--constexpr", action="append", metavar="NAME=VALUE", help="repeatable")
    r.add_argument("--num-warps", type=_num_warps, default=4, help="1, 2, 4 (default), 8 or 16")
    r.add_argument("--num-stages", type=_num_stages, default=2, help="a non-negative int (default 2)")
    r.add_argument("--waves-per-eu", type=_waves_per_eu, help="a non-negative int, or 'auto'")
    r.add_argument("--passes", help=_passes_help())
    r.add_argument("--large-tensors", action="store_true",
                   help="pointers may address more than 2 GiB (no tt.pointer_range=32)")
    r.add_argument("--compare", action="store_true", help="stock Triton and triton-mfma side by side")
    r.add_argument("--plot", metavar="OUT.png", help="draw the builds (needs matplotlib)")
    r.add_argument("--json", action="store_true", help="the figures as JSON")

    ps = sub.add_parser("passes", parents=[common], formatter_class=_Formatter,
                        help="list the passes, their insertion points and options, and which are on by default")
    ps.add_argument("--json", action="store_true")

    o = sub.add_parser("opt", parents=[common, opt_common],
                       help="run triton-mfma passes on a .ttir/.ttgir file as Triton prints it (like triton-opt)",
                       formatter_class=_Formatter,
                       description=textwrap.dedent("""\
                           Reads Triton's own textual IR (kernel.asm["ttgir"], a .ttgir from Triton's cache,
                           MLIR_ENABLE_DUMP output (--dump-pass), or a TRITON_MFMA_DUMP file), runs our passes
                           through the bridge and prints the result as Triton prints it. Without --passes or
                           --pipeline it only reprints the module (e.g. a generic TRITON_MFMA_DUMP file in
                           Triton's pretty form). Remarks go to stderr."""))
    o.add_argument("file", metavar="FILE", help="a .ttir/.ttgir/.mlir file, or - for stdin")
    o.add_argument("--passes", help="comma-separated triton-mfma passes, run in this order; known: "
                                    + ", ".join(__import__("triton_mfma.composition.passes",
                                                           fromlist=["REGISTRY"]).REGISTRY))
    o.add_argument("--pipeline", help="an MLIR pass pipeline of our passes, e.g. 'mfma-grid-order{mode=on}'")
    o.add_argument("--num-stages", type=_num_stages, help="the kernel's num_stages (mfma-stream-pipeline reads it)")
    o.add_argument("--dump-pass", metavar="NAME",
                   help="FILE is MLIR_ENABLE_DUMP output: take the module printed before the last pass named like "
                        "NAME (default: the last module that is still Triton IR)")
    o.add_argument("-o", "--output", metavar="OUT", help="write here instead of stdout")
    o.add_argument("--generic", action="store_true", help="print generic MLIR (what crosses the bridge)")
    o.add_argument("--no-locations", action="store_true", help="print without debug locations")
    o.add_argument("-q", "--quiet", action="store_true", help="do not print the passes' remarks")
    return ap


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    _Parser.argv = argv
    command = next((a for a in argv if not a.startswith("-")), None)
    if command in TRITON_COMMANDS and not {"-h", "--help", "--version"} & set(argv):
        try:  # before the arguments: reading them (--arch) imports Triton already
            check_triton()
        except CliError as e:
            if "--debug" in argv:
                raise
            print(f"{PROG} {command}: error: {e}", file=sys.stderr)
            return 2
    args = build_parser().parse_args(argv)
    debug = getattr(args, "debug", False)
    try:
        check_args(args)
        if args.cmd == "demo":
            return demo(args.arch, args.kernel, passes_=args.passes, options=dict(args.option or []),
                        showcase=False if args.no_showcase else None, as_json=args.json)
        if args.cmd == "report":
            return report_cmd(args)
        if args.cmd == "passes":
            return passes_cmd(args)
        if args.cmd == "opt":
            return opt_cmd(args)
        return 2
    except BrokenPipeError:  # `triton-mfma opt ... | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        if debug:
            raise
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except _AlreadyReported:
        return 2
    except Exception as e:  # noqa: BLE001 - every error is one line unless --debug
        if debug:
            raise
        msg, rc = _error_line(e)
        print(f"{PROG} {args.cmd}: error: {msg}", file=sys.stderr)
        return rc


def mfma_opt() -> None:
    """Console entry point `mfma-opt`: exec the C++ driver shipped in the package."""
    if not os.path.exists(MFMA_OPT_PATH):
        sys.exit(f"mfma-opt: {MFMA_OPT_PATH} is missing; rebuild with `pip install .`")
    import signal

    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # Python ignores SIGPIPE, and an exec'd process inherits that
    os.execv(MFMA_OPT_PATH, [MFMA_OPT_PATH] + sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
