"""Does a compiled kernel's mfma-grid-order remap run for a launch, and why?

    import triton_mfma
    k = kernel[grid](a, w, p, M, N, K, ...)              # or triton.compile(...)
    d = triton_mfma.grid_order_decision(k, grid, M=64, N=768, K=4096, ...)
    d.remaps          # True / False
    print(d)          # the figures: P and how it was bounded, twin distance, bytes streamed between twin reads,
                      # effective L2 (or "no guard: always remaps" / "never remaps: why"), and the kernel's real
                      # residency from its registers and LDS next to the bound the guard used

What the answer is computed from: the compiled kernel itself. mfma-grid-order leaves on a remapped kernel's
`tt.func` the attribute `tmfma.grid_order` (the kind of guard and the figures it was built with: P, programs per CU
and their bound, the effective L2, the grid dimensions) and tags the guard's values (`tmfma.grid_value`: total
programs, bytes streamed between twin reads, distinct bytes of the shared operands, each test). The scalar integer
operations at the top of the kernel's TTGIR (`compiled.asm["ttgir"]`) are executed here with the launch's grid and
arguments, so the verdict is the one the compiled guard computes, bit for bit (same widths, same wrapping). A kernel
without the attribute has no remap: the pass left it unchanged (the reason is re-derived by running the pass on its
TTGIR, which is then exactly what the pass saw) or Triton-mfma's stage code dropped the remap (metadata says why).

The real residency: on AMD from the amdgcn (VGPRs, SGPRs, LDS: `occupancy.py`); on CUDA from the cubin's register
and shared-memory use (`cuobjdump -res-usage`, Triton's own copy) with the H100/H200 figures of TargetInfo.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ..ir import native
from ..ir.native import MFMARemark, run_pipeline_with_diagnostics
from ..ir.triton_ir import generic_ttgir
from . import occupancy, resources

__all__ = ["GridOrderDecision", "Residency", "grid_order_decision"]


@dataclass(frozen=True)
class Residency:
    """Programs (workgroups / blocks) resident per CU (SM) for the compiled kernel."""
    programs_per_cu: int
    limiter: str  # what bounds it: "vgpr", "sgpr", "lds", "workgroup-slots", "registers", "shared memory", ...
    detail: str  # the figures it was computed from

    def __str__(self) -> str:
        return f"{self.programs_per_cu} programs/CU (limited by {self.limiter}; {self.detail})"


@dataclass
class GridOrderDecision:
    kernel: str
    target: str  # "hip:gfx90a", "cuda:90"
    grid: tuple  # (n0, n1, n2)
    remaps: bool  # whether the launch runs the new order (programs past the last complete row of a split axis
                  # keep their ids in any case)
    guard: str  # "l2" (single L2: waves and bytes between twin reads), "xcd" (multi-XCD: shared operands' distinct
                # bytes), "none" (no run-time guard: always remaps), "no remap" (the compiled kernel has none)
    reason: str  # one line: why
    figures: dict = field(default_factory=dict)  # what the guard computed for this launch and was built with
    residency: Residency | None = None  # the compiled kernel's real residency (None: could not be read)
    bound: dict = field(default_factory=dict)  # programs per CU the guard used, and its parts

    def __str__(self) -> str:
        lines = [f"{self.kernel} ({self.target}), grid {self.grid}: {'remaps' if self.remaps else 'keeps its order'}"
                 f" ({self.guard}): {self.reason}"]
        f = self.figures
        if self.guard == "l2":
            lines.append(f"  programs {f['total_programs']} vs P = {f['concurrent_programs']} "
                         f"({f['cus']} CUs x {f['programs_per_cu']}, {self.bound.get('how', '')})")
            lines.append(f"  twin distance {f['twin_distance']} programs; bytes streamed between twin reads "
                         f"{f['streamed_bytes']} vs effective L2 {f['threshold']} B "
                         f"({f['l2_bytes']} B x {f['l2_effective']:.2f})")
        elif self.guard == "xcd":
            lines.append(f"  distinct bytes of the shared operands ({', '.join(f['shared'])}) {f['distinct_bytes']} "
                         f"vs one XCD's effective L2 {f['threshold']} B ({f['xcds']} XCDs)")
        if self.residency is not None:
            used = self.bound.get("programs_per_cu")
            lines.append(f"  real residency: {self.residency}" +
                         (f"; the guard counted {used} programs/CU" if used is not None else ""))
        return "\n".join(lines)


class _AttrParser:
    """The MLIR attribute syntax our attributes use: {k = v, ...}, [..], "str", ints / floats with a type, bools."""

    def __init__(self, text: str):
        self.s, self.i = text, 0

    def _ws(self):
        while self.i < len(self.s) and self.s[self.i] in " \n\t":
            self.i += 1

    def value(self):
        self._ws()
        c = self.s[self.i]
        if c == "{":
            return self.dict()
        if c == "[":
            self.i += 1
            out = []
            self._ws()
            if self.s[self.i] == "]":
                self.i += 1
                return out
            while True:
                out.append(self.value())
                self._ws()
                c = self.s[self.i]
                self.i += 1
                if c == "]":
                    return out
        if c == '"':
            j = self.i + 1
            buf = []
            while self.s[j] != '"':
                if self.s[j] == "\\":
                    j += 1
                buf.append(self.s[j])
                j += 1
            self.i = j + 1
            return "".join(buf)
        m = re.compile(r"(true|false|[-+0-9.eE]+)(\s*:\s*[a-z0-9]+)?").match(self.s, self.i)
        if not m:  # anything else (types, affine maps, ...): skip to the next delimiter at this depth
            depth, j = 0, self.i
            while j < len(self.s) and not (depth == 0 and self.s[j] in ",}]"):
                depth += self.s[j] in "<([{"
                depth -= self.s[j] in ">)]}"
                j += 1
            raw, self.i = self.s[self.i:j], j
            return raw.strip()
        self.i = m.end()
        tok = m.group(1)
        if tok in ("true", "false"):
            return tok == "true"
        return float(tok) if any(ch in tok for ch in ".eE") and not tok.lstrip("-+").isdigit() else int(tok)

    def dict(self) -> dict:
        assert self.s[self.i] == "{"
        self.i += 1
        out = {}
        while True:
            self._ws()
            if self.s[self.i] == "}":
                self.i += 1
                return out
            m = re.compile(r'("[^"]*"|[\w.$-]+)\s*').match(self.s, self.i)
            key = m.group(1).strip('"')
            self.i = m.end()
            if self.s[self.i] == "=":
                self.i += 1
                out[key] = self.value()
            else:
                out[key] = True  # unit attribute
            self._ws()
            if self.s[self.i] == ",":
                self.i += 1


_OP = re.compile(r'^\s*(?:(%[\w$.#-]+)(?::(\d+))?\s*=\s*)?"([\w.]+)"\((.*?)\)\s*(?:<\{(.*?)\}>)?\s*(\{.*?\})?\s*:\s*'
                 r'\((.*?)\)\s*->\s*(.*?)(?:\s+loc\(.*)?$')
_INT_TYPE = re.compile(r"^i(\d+)$")


@dataclass
class _Kernel:
    name: str
    args: dict  # SSA name -> parameter name
    ops: list  # top-level ops of the entry block: (result, op name, operands, properties, attrs, result type)
    attr: dict | None  # tmfma.grid_order
    conds: list  # the SSA names of the guard's branch conditions, outermost first (the remap runs where all hold)


def _find_kernel(generic: str, name: str) -> _Kernel:
    lines = generic.splitlines()
    start = next((i for i, ln in enumerate(lines) if '"tt.func"()' in ln and f'sym_name = "{name}"' in ln), None)
    if start is None:
        raise ValueError(f"no tt.func named {name!r} in the kernel's TTGIR")
    indent = len(lines[start]) - len(lines[start].lstrip())
    header = lines[start + 1]  # ^bb0(%a: type loc("a"(...)), ...)
    args = {m.group(1): m.group(2) for m in re.finditer(r'(%[\w$.-]+):[^%]*?loc\("([^"]+)"', header)}
    # the end of the function: the first line back at the function's indentation that closes it
    end = next(i for i in range(start + 2, len(lines))
               if lines[i].startswith(" " * indent + "})") and not lines[i].startswith(" " * (indent + 1)))
    attr = None
    closing = lines[end]
    k = closing.find("tmfma.grid_order = ")
    if k >= 0:
        attr = _AttrParser(closing[k + len("tmfma.grid_order = "):]).dict()
    # The guard and everything it reads come before the remap's first branch; the L2 guard's bytes test comes
    # first inside it, before the second (GridRemapper::run in lib/Transforms/GridOrderRemapper.cpp: the launch
    # test alone in front of the first branch).
    levels = 2 if attr is not None and attr.get("guard") == "l2" else 1
    body_indent = indent + 2
    ops, conds = [], []
    for ln in lines[start + 2:end]:
        ws, level = len(ln) - len(ln.lstrip()), body_indent + 2 * len(conds)
        if ws < level:
            break  # the first branch's then-region ended without a second branch
        if ws > level:
            continue
        m = re.match(r'\s*%[\w$.-]+(?::\d+)?\s*=\s*"scf.if"\((%[\w$.#-]+)\)', ln)
        if m:
            conds.append(m.group(1))
            if len(conds) == levels:
                break
            continue
        m = _OP.match(ln)
        if m:
            res, nres, opname, operands, props, attrs, itypes, rtype = m.groups()
            if nres is None:
                ops.append((res, opname, [o.strip() for o in operands.split(",") if o.strip()], props or "",
                            attrs or "", rtype.strip(), [t.strip() for t in itypes.split(",") if t.strip()]))
    return _Kernel(name, args, ops, attr, conds)


def _wrap(v: int, bits: int) -> int:
    if bits == 1:
        return v & 1
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def _tdiv(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


_BIN = {"arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b, "arith.muli": lambda a, b: a * b,
        "arith.divsi": _tdiv, "arith.remsi": lambda a, b: a - _tdiv(a, b) * b,
        "arith.floordivsi": lambda a, b: a // b, "arith.ceildivsi": lambda a, b: -((-a) // b),
        "arith.minsi": min, "arith.maxsi": max, "arith.andi": lambda a, b: a & b, "arith.ori": lambda a, b: a | b,
        "arith.xori": lambda a, b: a ^ b, "arith.shli": lambda a, b: a << b, "arith.shrsi": lambda a, b: a >> b}
_UNSIGNED = {"arith.divui": lambda a, b: a // b, "arith.remui": lambda a, b: a % b,
             "arith.minui": min, "arith.maxui": max, "arith.shrui": lambda a, b: a >> b,
             "arith.ceildivui": lambda a, b: -((-a) // b)}
_CMP = {0: lambda a, b: a == b, 1: lambda a, b: a != b, 2: lambda a, b: a < b, 3: lambda a, b: a <= b,
        4: lambda a, b: a > b, 5: lambda a, b: a >= b}
_UCMP = {6: lambda a, b: a < b, 7: lambda a, b: a <= b, 8: lambda a, b: a > b, 9: lambda a, b: a >= b}


def _evaluate(k: _Kernel, grid, args: dict, pid=(0, 0, 0)):
    """Values of the kernel's top-level scalar integer ops: {ssa: int} and {role: int} from the tags."""
    env = {ssa: int(args[name].__index__()) for ssa, name in k.args.items()
           if name in args and _is_int(args[name])}
    roles = {}
    block_counts = {}  # SSA -> i32 index into a hip kernel's implicit arguments (hidden_block_count_x, _y, _z)
    for res, op, operands, props, attrs, rtype, itypes in k.ops:
        if op == "llvm.call_intrinsic" and '"llvm.amdgcn.implicitarg.ptr"' in props:
            block_counts[res] = 0
            continue
        if op == "llvm.getelementptr" and operands and operands[0] in block_counts and "elem_type = i32" in props:
            block_counts[res] = block_counts[operands[0]] + int(
                re.search(r"rawConstantIndices = array<i32: (\d+)>", props).group(1))
            continue
        t = _INT_TYPE.match(rtype)
        if res is None or not t:
            continue
        bits = int(t.group(1))
        if op == "llvm.load" and block_counts.get(operands[0]) in (0, 1, 2):  # the grid size on hip
            vals = [grid[block_counts[operands[0]]]]
        else:
            vals = [env.get(o) for o in operands]
        if any(v is None for v in vals):
            continue
        r = None
        if op == "llvm.load":
            r = vals[0]
        elif op == "llvm.call_intrinsic" and '"llvm.expect.i1"' in props:
            r = vals[0]  # the guard's condition, marked expected false: the value is the condition's
        elif op == "arith.constant":
            m = re.search(r"value = (-?\d+|true|false)", props)
            if m:
                r = {"true": 1, "false": 0}.get(m.group(1), None)
                r = int(m.group(1)) if r is None else r
        elif op in ("tt.get_num_programs", "tt.get_program_id"):
            axis = int(re.search(r"axis = (\d+)", props).group(1))
            r = (grid if op == "tt.get_num_programs" else pid)[axis]
        elif op in _BIN:
            r = _BIN[op](*vals)
        elif op in _UNSIGNED:
            mask = (1 << bits) - 1
            r = _UNSIGNED[op](*(v & mask for v in vals))
        elif op == "arith.cmpi":
            p = int(re.search(r"predicate = (\d+)", props).group(1))
            if p in _CMP:
                r = int(_CMP[p](*vals))
            else:
                t_in = _INT_TYPE.match(itypes[0]) if itypes else None
                mask = (1 << int(t_in.group(1))) - 1 if t_in else (1 << 64) - 1
                r = int(_UCMP[p](*(v & mask for v in vals)))
        elif op == "arith.select":
            r = vals[1] if vals[0] else vals[2]
        elif op in ("arith.extsi", "arith.trunci", "arith.index_cast"):
            r = vals[0]
        elif op == "arith.extui":
            t_in = _INT_TYPE.match(itypes[0]) if itypes else None
            r = vals[0] & ((1 << int(t_in.group(1))) - 1) if t_in else vals[0]
        if r is None:
            continue
        env[res] = _wrap(r, bits)
        m = re.search(r"tmfma\.grid_value = \[(.*?)\]", attrs)
        if m:
            for role in re.findall(r'"([^"]+)"', m.group(1)):
                roles[role] = env[res]
    return env, roles


def _is_int(v) -> bool:
    """An integer argument (Python or NumPy integer, bool); tensors and pointers are not."""
    return hasattr(v, "__index__") and not hasattr(v, "data_ptr")


# ---------------------------------------------------------------------------------------------------------------
# Real residency

def _target_of(md) -> tuple[str, str]:
    t = getattr(md, "target", None)
    backend, arch = getattr(t, "backend", None), getattr(t, "arch", None)
    if backend is None:  # older metadata: arch only
        arch = getattr(md, "arch", "")
        backend = "hip" if str(arch).startswith("gfx") else "cuda"
    return backend, str(arch)


def _amd_residency(compiled, arch: str) -> Residency | None:
    try:
        res = resources.of_kernel(compiled)
    except (KeyError, ValueError):
        return None
    md = compiled.metadata
    w = getattr(md, "waves_per_eu", 0) or 0
    w = w if isinstance(w, int) else 0
    o = occupancy.occupancy(arch, md.num_warps, res.vgpr_total, res.sgpr, res.lds, w)
    return Residency(o.workgroups_per_cu, o.limiter,
                     f"{res.vgpr_total} VGPRs, {res.sgpr} SGPRs, {res.lds} B LDS, {md.num_warps} warps, "
                     f"{o.waves_per_simd} waves/SIMD")


def _cuda_residency(compiled, target: str) -> Residency | None:
    cubin = compiled.asm.get("cubin")
    if not cubin:
        return None
    try:
        regs = resources.from_cubin(cubin).regs
    except ValueError:
        return None
    md = compiled.metadata
    return cuda_residency(target, regs, int(getattr(md, "shared", 0) or 0), md.num_warps)


def cuda_residency(target: str, regs: int, shared: int, warps: int) -> Residency | None:
    """Programs per SM of a cuda kernel from ptxas's registers per thread, its shared memory and warps, with the
    target's figures (TargetInfo): None for a target without them."""
    t = next((x for x in native.target_info() if x["target"] == target), None)
    if t is None:
        return None
    gran = max(1, t["vgpr_granule"])
    per_warp = -(-max(regs, 1) // gran) * gran
    warps_per_sub = min(t["max_waves_per_simd"], t["vgpr_file"] // per_warp)
    by_regs = t["simds_per_cu"] * warps_per_sub // max(1, warps)
    by_shared = t["lds_per_cu"] // (shared + t["lds_reserved_per_workgroup"]) if shared else t["workgroup_slots_per_cu"]
    parts = {"registers": by_regs, "shared memory": by_shared, "block slots": t["workgroup_slots_per_cu"]}
    limiter = min(parts, key=parts.get)
    return Residency(max(0, parts[limiter]), limiter,
                     f"{regs} registers/thread, {shared} B shared, {warps} warps")


def _normalise_grid(grid) -> tuple:
    if isinstance(grid, int):
        grid = (grid,)
    grid = tuple(int(g) for g in grid)
    if not 1 <= len(grid) <= 3 or any(g < 1 for g in grid):
        raise ValueError(f"a launch grid is 1 to 3 positive sizes, not {grid}")
    return grid + (1,) * (3 - len(grid))


def _unchanged_reason(generic: str, name: str, target: str) -> str:
    """The pass's own reason, from running it on the compiled TTGIR (what it saw, since it left it unchanged)."""
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MFMARemark)
            _, diags = run_pipeline_with_diagnostics(generic, "builtin.module(mfma-grid-order)")
    except Exception as e:  # noqa: BLE001 - the reason is a courtesy; the verdict stands without it
        return f"the compiled kernel has no remap ({str(e).splitlines()[0]})"
    for d in diags:
        msg = d.message
        if f"grid order of '{name}': " in msg:
            why = msg.split(f"grid order of '{name}': ", 1)[1]
            if why.startswith("unchanged: "):
                return why[len("unchanged: "):].split(" [dims ")[0]
            return ("the compiled kernel has no remap (the pass would remap this TTGIR with its default options: it "
                    "ran with other options, or was not enabled)")
    return "the compiled kernel has no remap"


def grid_order_decision(compiled, grid, pid=(0, 0, 0), **args) -> GridOrderDecision:
    """For a compiled kernel (a `triton.compile` result, or what a launch `kernel[grid](...)` returns), the launch
    grid (1 to 3 sizes) and the kernel's arguments by name (integers; tensors and other values may be passed and
    are ignored), whether mfma-grid-order's remap runs for that launch, and why (GridOrderDecision: `remaps`,
    `guard`, `reason`, `figures`, and the compiled kernel's real residency next to the bound the guard used).
    Arguments the guard reads must be given (a ValueError names them)."""
    md = compiled.metadata
    name = md.name
    backend, arch = _target_of(md)
    target = f"{backend}:{arch}"
    grid3 = _normalise_grid(grid)
    residency = _amd_residency(compiled, arch) if backend == "hip" else _cuda_residency(compiled, target)

    dropped = getattr(md, "triton_mfma_grid_order", None)
    if isinstance(dropped, dict) and dropped.get("decision") == "dropped":
        return GridOrderDecision(name, target, grid3, False, "no remap", f"never remaps: {dropped.get('reason')}",
                                 residency=residency)
    generic = generic_ttgir(compiled)
    k = _find_kernel(generic, name)
    if k.attr is None:
        why = _unchanged_reason(generic, name, target)
        return GridOrderDecision(name, target, grid3, False, "no remap", f"never remaps: {why}",
                                 residency=residency)

    a = k.attr
    env, roles = _evaluate(k, grid3, args, pid)
    guard = a.get("guard", "none")
    figures = {key: a[key] for key in ("device", "dims", "heavy", "threshold", "guard_unit", "l2_bytes",
                                       "l2_effective", "xcds",
                                       "cus", "programs_per_cu", "concurrent_programs", "shared", "shared_bytes",
                                       "mode", "reorder") if key in a}
    bound = {}
    if "programs_per_cu" in a:
        bound = {key: a[key] for key in ("programs_per_cu", "programs_source", "programs_limiter",
                                         "programs_by_registers", "programs_by_lds", "programs_by_slots", "lds_bytes",
                                         "lds_source", "num_warps") if key in a}
        if a.get("programs_source") in ("lower bound", "upper bound"):
            lower = a["programs_source"] == "lower bound"
            bound["how"] = (f"{'a lower' if lower else 'an upper'} bound limited by {a['programs_limiter']}: "
                            f"{'registers >=' if lower else 'warp slots <='} "
                            f"{a['programs_by_registers']} of {a['num_warps']} warps, LDS {a['lds_bytes']} B -> "
                            f"{a['programs_by_lds']}, slots {a['programs_by_slots']}")
        else:
            bound["how"] = "given by programs-per-cu"

    def need(role):
        if role not in roles:
            missing = sorted(n for n in set(k.args.values()) if n not in args)
            raise ValueError(f"grid_order_decision: the guard of {name!r} needs the kernel's integer arguments "
                             f"{missing} (pass them by name)")
        return roles[role]

    unit = a.get("guard_unit", 1)  # the guard counts bytes in units of this many (32-bit arithmetic)
    if guard == "l2":
        total, streamed = need("total_programs"), need("streamed_bytes") * unit
        waves, l2 = bool(need("test:waves")), bool(need("test:l2"))
        twins = bool(need("test:twins"))
        remaps = waves and l2 and twins
        dims, far = a["dims"], a["far_dim"]
        sizes = []
        for d in dims:
            axis = int(d[4])
            if d.endswith(".lo"):
                sizes.append(need(f"divisor:axis{axis}"))
            elif d.endswith(".hi"):
                sizes.append(max(grid3[axis] // need(f"divisor:axis{axis}"), 1))
            else:
                sizes.append(grid3[axis])
        distance = math.prod(sizes[:far])
        figures.update(total_programs=total, streamed_bytes=streamed, twin_distance=distance,
                       far_dim=dims[far], waves=waves, exceeds=l2, twins=twins)
        if not twins:
            reason = (f"no twins: one program along {dims[far]}, the dimension the sharers differ in (no tile is "
                      "read twice)")
        elif not waves:
            reason = (f"the grid's {total} programs all run at once (P = {a['concurrent_programs']}): twins read "
                      "together")
        elif not l2:
            reason = (f"the {streamed} B streamed between twin reads ({distance} programs apart) fit the effective "
                      f"L2 ({a['threshold']} B)")
        else:
            reason = (f"{total} programs > P = {a['concurrent_programs']} and {streamed} B streamed between twin "
                      f"reads ({distance} programs apart) > the effective L2 ({a['threshold']} B)")
    elif guard == "xcd":
        distinct = need("distinct_bytes") * unit
        remaps = bool(need("test:xcd"))
        figures.update(distinct_bytes=distinct)
        reason = (f"the shared operands' {distinct} distinct bytes {'exceed' if remaps else 'fit'} one XCD's "
                  f"effective L2 ({a['threshold']} B)")
    else:
        remaps = True
        reason = "no guard: always remaps" + (" (mode=on)" if a.get("mode") == "on" else
                                              f" (the shared operands' {a['shared_bytes']} distinct bytes exceed "
                                              f"one XCD's effective L2, {a['threshold']} B, at compile time)"
                                              if "shared_bytes" in a else "")
    if guard in ("l2", "xcd") and k.conds and all(c in env for c in k.conds):
        # The compiled branch conditions themselves (for `pid`, in a complete row): they must agree.
        compiled_verdict = all(bool(env[c]) for c in k.conds)
        if compiled_verdict != remaps:
            raise AssertionError(f"grid_order_decision: the tagged tests ({remaps}) disagree with the kernel's "
                                 f"branch ({compiled_verdict})")
    return GridOrderDecision(name, target, grid3, remaps, guard, reason, figures, residency, bound)
