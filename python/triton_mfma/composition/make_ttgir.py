"""The installed Triton's make_ttgir composed with the project's insertion points (points.py).

A Triton build is recognized by what its make_ttgir does, not by its version string. Algorithm, per backend
(hip; cuda, whose composed pipeline lets passes that are not MFMA-specific run and be checked there too):
  1. identity: a hash of the normalized AST of the backend's make_ttgir (inspect.getsource), looked up in
     KNOWN_BUILDS (builds whose composition test_hook.py checks byte-identical to stock);
  2. derivation: the composed make_ttgir is the installed source itself, rewritten: its pass manager and module
     become the composer's (`_tmfma_c.pm`, `_tmfma_c.mod`); before the first of the Triton calls a point
     replaces (points.py), our passes run (`at`: the pass manager built so far runs, the module crosses the bridge,
     a new pass manager continues); each replaced call is added only where ours is inactive or declined the
     module; `ttgir_end` follows the last pass-manager run. Where an `if` splits a point's calls between its
     branches, its test is read from the compile's options (knobs, environment) and the branch taken is derived
     (one build per branch). A point whose calls are missing or out of order is not derived; a make_ttgir that
     wraps another (no pass calls, `__wrapped__`, a closure) is not derivable;
  3. proof at first use, for a build not in KNOWN_BUILDS: once per build (and branch) and arch, the derived
     make_ttgir with no project pass must give TTGIR byte-identical to stock's (and the same metadata); where it
     does not, or where nothing was derived, Triton's stage is left alone (our interior points do not run) and one
     warning names the build and the first difference.
With no point active the derived function runs exactly Triton's statements on one pass manager, so its output is
stock's. Any Triton from 3.8 on is accepted at import; a newer one works where its pipeline is known or derivable.
"""
from __future__ import annotations

import ast
import copy
import hashlib
import inspect
import os
import re
import textwrap
import threading
import types
from dataclasses import dataclass, field
from typing import Callable

from .points import INTERIOR_POINTS, POINTS
# importing the pipeline refuses an unusable Triton (hook.enable relies on it)
from ..ir.triton_version import (MIN_TRITON, TRITON_VERSION, UnsupportedTritonError,  # noqa: F401
                             check_triton_version, triton_version)
from . import remarks
from ..ir.bridge import import_generic

# identity (backend:hash of make_ttgir's normalized AST) -> the build it is. Their composition is checked
# byte-identical to stock by test_hook.py (ttgir and amdgcn) on both versions; ROCm's 3.8.x and PyTorch's
# 3.8.0+git... wheels carry upstream 3.8.0's make_ttgir (compared function by function). `python -m
# triton_mfma.composition.make_ttgir` prints the installed build's identities.
KNOWN_BUILDS = {
    "hip:e3406ddeb6e0": "upstream 3.9.0",
    "cuda:c273fab7ccdb": "upstream 3.9.0",
    "hip:bac581aebc22": "upstream 3.8.0",
    "cuda:8861aee834bc": "upstream 3.8.0",
}

# OursAt(point, module) -> module: runs the project passes placed at `point` (identity if none).
OursAt = Callable[[str, object], object]
_C = "_tmfma_c"  # the composer's name inside a derived make_ttgir (an added keyword-only parameter)


class NotDerivable(Exception):
    """The installed make_ttgir cannot be composed (one line: why)."""


class _Skipped:
    """make_ttgir's module in the steps before a resume point: its context only (no step runs on it)."""

    def __init__(self, context):
        self.context = context


# -- the composer a derived make_ttgir calls ----------------------------------------------------------------------
class _Composer:
    """The pass manager and module of one derived make_ttgir run. At an active point the pass manager built so far
    runs, our passes run, and a new pass manager continues. At a replacing point whose pass declined the module
    (`declined`, filled by the hook) Triton's replaced steps are added, as if the point were not active."""

    def __init__(self, mod, ours_at: OursAt, active_points: set, declined: set | None = None, resume=None,
                 after_step=None):
        # before the resume point the steps only build pass managers (in the resumed module's context)
        self.mod = mod if resume is None else _Skipped(resume[1].context)
        self.pm = None  # set by make_ttgir's own `pm = ir.pass_manager(...)`
        self._after_step = after_step
        self._ours_at = ours_at
        self._active = active_points
        self._declined = declined if declined is not None else set()
        # (point, module): the steps before `point` are skipped (the passes they add are never run) and the
        # build continues from `module`, the module another build had there
        self._resume = resume

    def _new_pm(self):
        from triton._C.libtriton import ir

        self.pm = ir.pass_manager(self.mod.context)
        self.pm.enable_debug()

    def run(self, mod, *args):
        """make_ttgir's own `pm.run(mod, ...)`; skipped before the resume point."""
        if self._resume is None:
            self.pm.run(mod, *args)

    def took(self, value, expected: bool, where: str) -> None:
        """make_ttgir's test of a resolved `if` (at `where`, file:line), read again as it runs: the derivation
        holds the branch it took when the compile's options were read (_branches); another one is not composed."""
        if bool(value) != expected:
            raise NotDerivable(f"make_ttgir's test at {where} reads {bool(value)} as it runs, "
                               f"{expected} when its branch was derived (an option, knob or environment variable "
                               "changed during the compile)")

    def triton_step(self, point: str) -> bool:
        """Whether Triton's steps replaced by `point` are added: the point is inactive, or ours declined there."""
        return point not in self._active or point in self._declined

    def at(self, point: str) -> None:
        from triton._C.libtriton import ir  # noqa: F401 - loaded before a pass manager is made

        if self._resume is not None:
            if self._resume[0] != point:
                return  # a step before the resume point: nothing runs
            self.mod, self._resume = self._resume[1], None
            self._new_pm()
        if point not in self._active:
            return
        self.pm.run(self.mod, "make_ttgir")
        self.mod = self._ours_at(point, self.mod)
        self._new_pm()

    def after(self, point: str) -> None:
        """After Triton's own step at a replacing point: where the caller compares the module there
        (`after_step(point, module)`, which may raise to end the build), the steps so far run first."""
        if self._after_step is None or self._resume is not None or not POINTS[point].compare_after:
            return
        self.pm.run(self.mod, "make_ttgir")
        self._after_step(point, self.mod)
        self._new_pm()

    def finish(self) -> None:
        """After make_ttgir's last pass-manager run: the passes at ttgir_end."""
        if self._resume is not None:
            raise RuntimeError(f"make_ttgir: the resume point {self._resume[0]!r} is not a step of this pipeline")
        self.mod = self._ours_at("ttgir_end", self.mod)


# -- identity and derivation --------------------------------------------------------------------------------------
def installed_make_ttgir(backend_name: str, backend=None):
    """The make_ttgir function `backend` (default: the backend class of `backend_name`) compiles with."""
    if backend is not None:
        cls = type(backend)
    elif backend_name == "hip":
        from triton.backends.amd.compiler import HIPBackend as cls
    else:
        from triton.backends.nvidia.compiler import CUDABackend as cls
    raw = inspect.getattr_static(cls, "make_ttgir")
    return raw.__func__ if isinstance(raw, (staticmethod, classmethod)) else raw


def _function_def(fn) -> ast.FunctionDef:
    if getattr(fn, "__wrapped__", None) is not None:
        raise NotDerivable(f"make_ttgir wraps another function ({fn.__module__}.{fn.__qualname__})")
    try:
        source = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError) as e:
        raise NotDerivable(f"the source of make_ttgir is not readable ({e})") from None
    tree = ast.parse(source)
    if not tree.body or not isinstance(tree.body[0], ast.FunctionDef):
        raise NotDerivable("make_ttgir is not a plain function")
    return tree.body[0]


def identity(backend_name: str, fn) -> str:
    """`backend:hash` of make_ttgir's normalized AST (no decorators, docstring, line numbers, comments or
    formatting): the hash of its `ast.unparse` text, which reads the same across Python versions."""
    try:
        node = _function_def(fn)
        node.decorator_list = []
        if node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant) \
                and isinstance(node.body[0].value.value, str):
            node.body = node.body[1:]
        text = ast.unparse(node)
    except NotDerivable:
        text = f"{getattr(fn, '__module__', '')}.{getattr(fn, '__qualname__', repr(fn))}"
    return f"{backend_name}:{hashlib.sha256(text.encode()).hexdigest()[:12]}"


def _call_attr(stmt) -> str | None:
    """`add_x` for a statement `a.b.add_x(...)`."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Attribute):
        return stmt.value.func.attr
    return None


def _parse_stmt(text: str) -> ast.stmt:
    return ast.parse(text).body[0]


class _Rewrite(ast.NodeTransformer):
    """The pass manager and module names become the composer's attributes; `pm.run(...)` its run()."""

    def __init__(self, pm_names: set, mod_name: str):
        self.pm_names, self.mod_name = pm_names, mod_name

    def visit_Call(self, node):
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == "run" and isinstance(f.value, ast.Name) \
                and f.value.id in self.pm_names:
            node.func = ast.Attribute(ast.Name(_C, ast.Load()), "run", ast.Load())
        self.generic_visit(node)
        return node

    def visit_Name(self, node):
        if node.id in self.pm_names:
            return ast.copy_location(ast.Attribute(ast.Name(_C, ast.Load()), "pm", node.ctx), node)
        if node.id == self.mod_name:
            return ast.copy_location(ast.Attribute(ast.Name(_C, ast.Load()), "mod", node.ctx), node)
        return node

    def visit_Lambda(self, node):
        self._no_capture(node)
        return node

    def visit_FunctionDef(self, node):
        self._no_capture(node)
        return node

    def _no_capture(self, node):
        used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        if used & (self.pm_names | {self.mod_name}):
            raise NotDerivable("make_ttgir uses its pass manager or module inside a nested function")


def _insert_points(body: list, backend_name: str, found: dict) -> list:
    """`body` with the interior points at the Triton calls they replace (recursively in nested blocks); `found`:
    point -> how many blocks have it, or the reason it is malformed."""
    replaced = {}
    for name in INTERIOR_POINTS:
        for call in POINTS[name].replaces.get(backend_name, ()):
            replaced[call] = name
    for stmt in body:  # nested blocks first
        for attr in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, attr, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt) \
                    and not isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
                setattr(stmt, attr, _insert_points(inner, backend_name, found))
    calls = {}  # point -> [(index, call)]
    for i, stmt in enumerate(body):
        attr = _call_attr(stmt)
        if attr in replaced:
            calls.setdefault(replaced[attr], []).append((i, attr))
    out, starts, lasts = [], {}, {}
    for point, seq in calls.items():
        wanted = POINTS[point].replaces[backend_name]
        if tuple(a for _, a in seq) != wanted:
            found[point] = (f"its Triton steps {', '.join(wanted)} are not in that order in one block "
                            f"(found {', '.join(a for _, a in seq)})")
            continue
        if not isinstance(found.get(point, 0), str):
            found[point] = found.get(point, 0) + 1
        starts[seq[0][0]] = point
        lasts[seq[-1][0]] = point
        for i, _ in seq:
            lasts.setdefault(("member", i), point)
    for i, stmt in enumerate(body):
        if i in starts:
            out.append(_parse_stmt(f"{_C}.at({starts[i]!r})"))
        point = lasts.get(("member", i))
        if point is not None and not isinstance(found.get(point), str):
            guard = _parse_stmt(f"if {_C}.triton_step({point!r}):\n    pass")
            guard.body = [stmt] + ([_parse_stmt(f"{_C}.after({point!r})")] if lasts.get(i) == point else [])
            out.append(guard)
        else:
            out.append(stmt)
    return out


def _is_run(stmt) -> bool:
    """Whether a (rewritten) statement runs make_ttgir's pass manager (`_tmfma_c.run(...)`)."""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "run"
               and isinstance(n.func.value, ast.Name) and n.func.value.id == _C for n in ast.walk(stmt))


# -- make_ttgir's branches on the compile's options ----------------------------------------------------------------
# A fork may put a point's Triton steps under if/elif/else on its options, knobs or environment (fbtriton 3.8.0rc3:
# the pipeliner's calls, on two environment variables). Where such an `if` gives a point up (its steps are not in
# order in one block), its test is read for each compile from the options make_ttgir is given, and the derivation
# holds the branch taken (a check in its place reads the test again as make_ttgir runs). A test that reads anything
# else (a helper's result, a local) is not read: the point stays given up, the message names the test.
_BLOCKS = ("body", "orelse", "finalbody")
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _gives_up(stmts: list, backend_name: str) -> bool:
    """Whether some point's Triton steps in `stmts` are not in order in one block."""
    found: dict = {}
    _insert_points(copy.deepcopy(stmts), backend_name, found)
    return any(isinstance(v, str) for v in found.values())


def _is_os(name: str, fn) -> bool:
    return fn.__globals__.get(name) is os


def _allowed_call(call: ast.Call, fn, local: set) -> bool:
    """An environment read (`os.environ.get`, `os.getenv`, of constants) or `getattr(x, "name"[, default])`."""
    f, consts = call.func, all(isinstance(a, ast.Constant) for a in call.args)
    if call.keywords or not call.args:
        return False
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Attribute) and f.attr == "get" \
            and f.value.attr == "environ" and isinstance(f.value.value, ast.Name) and _is_os(f.value.value.id, fn):
        return consts
    if isinstance(f, ast.Attribute) and f.attr == "getenv" and isinstance(f.value, ast.Name) and _is_os(f.value.id, fn):
        return consts
    return isinstance(f, ast.Name) and f.id == "getattr" and "getattr" not in local \
        and "getattr" not in fn.__globals__ and len(call.args) in (2, 3) and isinstance(call.args[1], ast.Constant)


_READS = (ast.Constant, ast.Compare, ast.BoolOp, ast.UnaryOp, ast.BinOp, ast.Tuple, ast.List, ast.Set,
          ast.Attribute, ast.Subscript, ast.Name, ast.Call, ast.expr_context, ast.cmpop, ast.boolop, ast.unaryop,
          ast.operator)


def _unreadable(test, params: set, local: set, fn) -> str:
    """"" where `test` reads only make_ttgir's option parameters, modules of its module (knobs, os) and the
    environment, with comparisons and arithmetic; else the first thing it reads that is not one of those."""
    callees = set()
    for n in ast.walk(test):
        if isinstance(n, ast.Call):
            if not _allowed_call(n, fn, local):
                return f"a call of {ast.unparse(n.func)}"
            callees.add(id(n.func))
    for n in ast.walk(test):
        if not isinstance(n, _READS):
            return f"a {type(n).__name__} expression"
        if isinstance(n, ast.Name) and id(n) not in callees and n.id not in params and \
                (n.id in local or not isinstance(fn.__globals__.get(n.id), types.ModuleType)):
            return f"the name {n.id}"
    return ""


@dataclass
class _Branches:
    """The `if`s of one make_ttgir that give a point up, by (line, column): (test, "" where it can be read from
    the compile's options, else what it reads that cannot)."""
    params: tuple  # make_ttgir's parameters after the module and metadata (options; cuda: options, capability)
    tests: dict

    def outcomes(self, fn, args) -> tuple:
        """((line, column), True / False / why it is not read) for each test, from make_ttgir's arguments `args`
        after the module and metadata (None: no compile's options)."""
        env = dict(zip(self.params, args)) if args is not None else None
        return tuple((pos, self._read(test, why, fn, env)) for pos, (test, why) in self.tests.items())

    @staticmethod
    def _read(test, why: str, fn, env):
        if why:
            return why
        if env is None:
            return "no compile's options to read it from"
        try:
            expr = ast.fix_missing_locations(ast.Expression(copy.deepcopy(test)))
            return bool(eval(compile(expr, "<make_ttgir test>", "eval"), fn.__globals__, dict(env)))
        except Exception as e:  # noqa: BLE001 - a test that fails to read is one not read
            return f"reading it raised {type(e).__name__}: {e}"


def _branches(backend_name: str, fn, node: ast.FunctionDef) -> _Branches:
    params = tuple(a.arg for a in node.args.args[2:])
    local = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    tests = {}
    for n in ast.walk(node):
        if isinstance(n, ast.If) and _gives_up([n], backend_name):
            tests[n.lineno, n.col_offset] = (n.test, _unreadable(n.test, set(params) - local, local, fn))
    return _Branches(params, tests)


def _where(fn, lineno: int) -> str:
    """file:line of line `lineno` of make_ttgir's source (as inspect.getsource gives it, decorators first)."""
    return f"{os.path.basename(fn.__code__.co_filename)}:{fn.__code__.co_firstlineno + lineno - 1}"


def _resolve(body: list, outcomes: dict, taken: list, fn) -> list:
    """`body` with each `if` whose test was read replaced by its taken branch (resolved in turn), after a
    `took` check that reads the test again; `taken` gets each test as read ("not <test>" where false)."""
    out = []
    for stmt in body:
        value = outcomes.get((stmt.lineno, stmt.col_offset)) if isinstance(stmt, ast.If) else None
        if isinstance(value, bool):
            taken.append(ast.unparse(stmt.test if value else ast.UnaryOp(ast.Not(), stmt.test)))
            check = ast.Call(ast.Attribute(ast.Name(_C, ast.Load()), "took", ast.Load()),
                             [stmt.test, ast.Constant(value), ast.Constant(_where(fn, stmt.lineno))], [])
            out.append(ast.copy_location(ast.Expr(check), stmt))
            out.extend(_resolve(stmt.body if value else stmt.orelse, outcomes, taken, fn))
            continue
        if not isinstance(stmt, _NESTED):
            for attr in _BLOCKS:
                inner = getattr(stmt, attr, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    setattr(stmt, attr, _resolve(inner, outcomes, taken, fn))
        out.append(stmt)
    return out


def _branch_note(outcomes: dict, tests: dict, taken: list, fn) -> str:
    """What a point's reason adds where make_ttgir branches around its steps."""
    unread = [f"`{ast.unparse(tests[pos][0])}` ({_where(fn, pos[0])}: {why})" for pos, why in outcomes.items()
              if not isinstance(why, bool)]
    if unread:
        return "; make_ttgir branches on " + ", ".join(unread)
    return f"; in the branch this compile takes ({', '.join(taken)})" if taken else ""


def derive(backend_name: str, fn, args=None, *, outcomes=None):
    """(the composed make_ttgir, {interior point: reason it is missing}). The composed function is make_ttgir's
    own code, called with the extra keyword `_tmfma_c` (a _Composer); where an `if` of make_ttgir gives a point
    up, the branch that make_ttgir's arguments `args` after the module and metadata take (or `outcomes`, as
    _Branches.outcomes gives them) is the one composed (`composed.branch`: the tests as read). NotDerivable where
    nothing composes."""
    if fn.__code__.co_freevars:
        raise NotDerivable("make_ttgir is a closure (it wraps another function)")
    node = _function_def(fn)
    branches = _branches(backend_name, fn, node)
    read = dict(outcomes if outcomes is not None else branches.outcomes(fn, args))
    taken: list = []
    called = {_call_attr(n) for n in ast.walk(node) if isinstance(n, ast.stmt)}
    node.body = _resolve(node.body, read, taken, fn)
    if any(not (isinstance(d, ast.Name) and d.id == "staticmethod") for d in node.decorator_list):
        raise NotDerivable("make_ttgir has a decorator (it wraps another function)")
    node.decorator_list = []
    args = node.args
    if not args.args:
        raise NotDerivable("make_ttgir takes no module")
    mod_name = args.args[0].arg
    pm_names = {t.id for n in ast.walk(node) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                and isinstance(n.value.func, ast.Attribute) and n.value.func.attr == "pass_manager"
                for t in n.targets if isinstance(t, ast.Name)}
    if not pm_names:
        raise NotDerivable("make_ttgir builds no pass manager (it wraps another function)")
    for n in ast.walk(node):  # the pass manager only ever called or passed: an alias would outlive a flush
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and n.value.id in pm_names:
            raise NotDerivable("make_ttgir aliases its pass manager")
    rewrite = _Rewrite(pm_names, mod_name)
    node.body = [rewrite.visit(stmt) for stmt in node.body]
    found: dict = {}
    node.body = _insert_points(node.body, backend_name, found)
    runs = [i for i, s in enumerate(node.body) if _is_run(s)]
    if not runs:
        raise NotDerivable("make_ttgir runs no pass manager at its top level")
    node.body.insert(runs[-1] + 1, _parse_stmt(f"{_C}.finish()"))
    args.kwonlyargs.append(ast.arg(_C))
    args.kw_defaults.append(None)
    module = ast.fix_missing_locations(ast.Module([node], type_ignores=[]))
    namespace: dict = {}
    exec(compile(module, f"<triton-mfma composed {fn.__module__}.{fn.__qualname__}>", "exec"), namespace)
    made = namespace[node.name]
    composed = types.FunctionType(made.__code__, fn.__globals__, node.name, fn.__defaults__)
    composed.__kwdefaults__ = fn.__kwdefaults__
    composed.source = ast.unparse(module)  # what it runs (`python -m triton_mfma.composition.make_ttgir --source`)
    composed.branch = tuple(taken)
    note = _branch_note(read, branches.tests, taken, fn)
    missing = {p: (found[p] if isinstance(found.get(p), str) else
                   f"its Triton steps {', '.join(POINTS[p].replaces[backend_name])} are not in make_ttgir")
               + (note if called & set(POINTS[p].replaces[backend_name]) else "")
               for p in INTERIOR_POINTS if not isinstance(found.get(p), int)}
    return composed, missing


@dataclass
class TritonBuild:
    """One backend's make_ttgir as installed: what it is and what of it composes."""
    backend: str
    version: str
    identity: str
    known: str | None  # the KNOWN_BUILDS name, or None
    composed: Callable | None
    missing: dict  # interior point -> why it is not derived
    why: str = ""  # why nothing composes ("" where it does)
    proven: dict = field(default_factory=dict)  # arch -> "" (proven) or the first difference
    branch: tuple = ()  # where make_ttgir's `if`s decide a point: their tests as this build's options read them

    def name(self) -> str:
        branch = f", branch {'; '.join(self.branch)}" if self.branch else ""
        return (f"Triton {self.version} ({self.identity}"
                f"{', ' + self.known if self.known else ', unknown pipeline'}{branch})")

    def describe(self, arch: str | None = None) -> str:
        """One line for the report and the metadata."""
        if self.known:
            how = f"known ({self.known})"
        elif self.composed is None:
            how = f"not composed: {self.why}"
        elif arch is not None and arch in self.proven:
            how = "derived, proven" if not self.proven[arch] else f"derived, not composed: {self.proven[arch]}"
        else:
            how = "derived"
        if self.missing and self.composed is not None:
            how += "; no " + ", ".join(self.missing)
        if self.branch:
            how += f"; branch {'; '.join(self.branch)}"
        return f"Triton {self.version}, make_ttgir {self.identity}: {how}"


_BUILDS: dict = {}
_BRANCHES: dict = {}  # (backend, make_ttgir) -> its _Branches (None: not derivable)
_LAST = threading.local()  # per thread, per make_ttgir: how the last compile's options read its branch tests
_LOCK = threading.Lock()
_WARNED: set = set()


def _outcomes(backend_name: str, fn, args) -> tuple:
    """How make_ttgir's arguments `args` (after the module and metadata) read its branch tests; `args` None: as
    the last compile in this thread read them (a compile's build record follows its usable_points), else unread."""
    with _LOCK:
        if (backend_name, fn) not in _BRANCHES:
            try:
                _BRANCHES[backend_name, fn] = _branches(backend_name, fn, _function_def(fn))
            except NotDerivable:
                _BRANCHES[backend_name, fn] = None
        branches = _BRANCHES[backend_name, fn]
    if branches is None or not branches.tests:
        return ()
    last = _LAST.__dict__.setdefault("outcomes", {})
    if args is None:
        return last.get((backend_name, fn)) or branches.outcomes(fn, None)
    last[backend_name, fn] = got = branches.outcomes(fn, args)
    return got


def build(backend_name: str, backend=None, args=None) -> TritonBuild:
    """The installed build of `backend_name` (cached per make_ttgir function, and per branch where its `if`s on
    the compile's options decide a point: `args`, make_ttgir's arguments after the module and metadata)."""
    fn = installed_make_ttgir(backend_name, backend)
    outcomes = _outcomes(backend_name, fn, args)
    key = (backend_name, fn, outcomes) if outcomes else (backend_name, fn)
    with _LOCK:
        got = _BUILDS.get(key)
        if got is None:
            import triton

            ident = identity(backend_name, fn)
            try:
                composed, missing = derive(backend_name, fn, outcomes=outcomes)
                why = ""
            except NotDerivable as e:
                composed, missing, why = None, {}, str(e)
            got = _BUILDS[key] = TritonBuild(backend_name, triton.__version__, ident, KNOWN_BUILDS.get(ident),
                                             composed, missing, why, branch=getattr(composed, "branch", ()))
    return got


def _warn_once(key, message: str) -> None:
    with _LOCK:
        if key in _WARNED:
            return
        _WARNED.add(key)
    remarks.warn(message)


def _first_difference(a: str, b: str) -> str:
    for i, (x, y) in enumerate(zip(a.splitlines(), b.splitlines())):
        if x != y:
            return f"line {i + 1}: stock {x.strip()[:60]!r}, composed {y.strip()[:60]!r}"
    return f"stock has {len(a.splitlines())} lines, composed {len(b.splitlines())}"


def prove(b: TritonBuild, arch: str, ttir: str, context, stock_args: tuple, backend=None) -> str:
    """Stock make_ttgir and the composed one with no project pass, on two copies of the TTIR (generic text):
    "" where the TTGIR (and the metadata) are byte-identical, else the first difference."""
    one, two = (import_generic(ttir, context, parsed_before=True) for _ in range(2))
    md1, md2 = {}, {}
    stock = installed_make_ttgir(b.backend, backend)(one, md1, *stock_args)
    try:
        composed = b.composed(two, md2, *stock_args, _tmfma_c=_Composer(two, lambda _pt, m: m, set()))
    except Exception as e:  # noqa: BLE001 - a derivation that does not run is one that differs
        return f"the composed make_ttgir failed: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    a, c = str(stock), str(composed)
    if a != c:
        return _first_difference(a, c)
    if md1 != md2:
        return f"metadata differ: stock {md1}, composed {md2}"
    return ""


def usable_points(backend_name: str, ttir: str, context, stock_args: tuple, arch: str, backend=None) -> frozenset:
    """The interior points the installed build composes for `arch`: all that were derived, once the composition
    is known or proven (the proof runs here, at first use, on the kernel's TTIR `ttir`); else none, with one
    warning naming the build."""
    b = build(backend_name, backend, stock_args)
    if b.composed is None:
        _warn_once((b.identity, "none"), f"triton-mfma: {b.name()}: make_ttgir not composed ({b.why}); Triton's "
                   "ttgir stage runs as it is (the passes at accelerate_matmul and pipeline do not run)")
        return frozenset()
    if b.known is None:
        with _LOCK:
            todo = arch not in b.proven
        if todo:
            diff = prove(b, arch, ttir, context, stock_args, backend)
            with _LOCK:
                b.proven.setdefault(arch, diff)
        if b.proven[arch]:
            _warn_once((b.identity, b.branch, arch), f"triton-mfma: {b.name()} on {arch}: the composed make_ttgir "
                       f"differs from stock ({b.proven[arch]}); Triton's ttgir stage runs as it is")
            return frozenset()
    if b.missing:
        _warn_once((b.identity, b.branch, "missing"), f"triton-mfma: {b.name()}: no insertion point "
                   + "; ".join(f"{p} ({why})" for p, why in b.missing.items()) + "; passes there do not run")
    return frozenset(p for p in INTERIOR_POINTS if p not in b.missing)


# -- backend flags that change code (the report and the metadata name them) --------------------------------------
def _module_source(name: str) -> str:
    import importlib

    try:
        return inspect.getsource(importlib.import_module(name))
    except (ImportError, OSError, TypeError):
        return ""


def _flag_applies(source: str, flag: str, arch: str) -> bool | None:
    """Whether the backend source adds the LLVM flag `flag` for `arch`: None where it never names it; where it
    sits under `if` tests naming targets (string constants), whether `arch` is one of them."""
    if flag not in source:
        return None
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and flag in n.value:
            names, up = [], parents.get(n)
            while up is not None:
                if isinstance(up, ast.If):
                    names += [c.value for c in ast.walk(up.test) if isinstance(c, ast.Constant)
                              and isinstance(c.value, str) and c.value.startswith("gfx")]
                up = parents.get(up)
            if not names or arch in names:
                return True
    return False


def waves_per_eu_form(backend=None) -> str:
    """How make_llir spells the amdgpu-waves-per-eu attribute for W waves ("W,W": minimum and maximum; "W":
    a minimum only), read from the installed source; "" where it is not found."""
    try:
        from triton.backends.amd.compiler import HIPBackend

        source = inspect.getsource(type(backend).make_llir if backend is not None else HIPBackend.make_llir)
    except (ImportError, OSError, TypeError):
        return ""
    m = re.search(r"""["']amdgpu-waves-per-eu["']\s*,\s*f?["']([^"']*)["']""", source)
    return re.sub(r"\{[^}]*\}", "W", m.group(1)) if m else ""


_RECORDS: dict = {}


def build_record(backend_name: str, arch: str, backend=None) -> dict:
    """The build a kernel was compiled with (metadata["triton_mfma_build"], the report): version, pipeline
    identity and how it composes, and on hip the backend flags that change code. Read once per backend class
    and arch (reading the backend's source costs about a tenth of a small kernel's compile)."""
    b, key = build(backend_name, backend), (backend_name, arch, type(backend))
    with _LOCK:
        cached = _RECORDS.get(key)
    if cached is not None and cached[0] is b:  # the same build (a new one after the builds are forgotten)
        return dict(cached[1])
    got = _build_record(backend_name, arch, backend)
    if b.known or b.composed is None or arch in b.proven:  # final: no proof still to run for this arch
        with _LOCK:
            _RECORDS[key] = (b, got)
    return dict(got)


def _build_record(backend_name: str, arch: str, backend=None) -> dict:
    b = build(backend_name, backend)
    record = {"triton": b.version, "make_ttgir": b.identity, "pipeline": b.describe(arch).split(": ", 1)[1]}
    if backend_name == "hip":
        source = _module_source("triton.backends.amd.compiler")
        flags = [f for f in ("amdgpu-use-amdgpu-trackers",) if _flag_applies(source, f, arch)]
        record["llvm_flags"] = " ".join(flags) or "none added"
        record["waves_per_eu_attr"] = waves_per_eu_form(backend) or "unknown"
    return record


def _composing(b: TritonBuild, active_points) -> TritonBuild:
    """`b`, where it composes every active point (a variant's options, e.g. another num_stages, may take
    another branch of make_ttgir than the compile's did); else NotDerivable: a point that is not derived would
    leave Triton's steps in place of ours without a word."""
    if b.composed is None:
        raise NotDerivable(f"{b.name()}: make_ttgir not composed ({b.why})")
    lost = [f"{p} ({b.missing[p]})" for p in active_points if p in b.missing]
    if lost:
        raise NotDerivable(f"{b.name()}: no insertion point {'; '.join(lost)}")
    return b


def amd_make_ttgir(mod, metadata, options, ours_at: OursAt, active_points: set, declined: set | None = None,
                   resume=None, after_step=None, backend=None):
    """The installed `HIPBackend.make_ttgir` with insertion points. `resume=(point, module)` starts at an
    insertion point from the module another build had there (`mod` is then unused): the variant engine's builds
    share the steps before the first point where they differ."""
    b = _composing(build("hip", backend, (options,)), active_points)
    c = _Composer(mod, ours_at, active_points, declined, resume, after_step)
    return b.composed(mod, metadata, options, _tmfma_c=c)


def nvidia_make_ttgir(mod, metadata, opt, capability, ours_at: OursAt, active_points: set,
                      declined: set | None = None, backend=None):
    """The installed `CUDABackend.make_ttgir` with insertion points (`pipeline` replaces assign_latencies +
    schedule_loops + pipeline where Triton pipelines: capability 8.x-10.x; below 8.0 there is none)."""
    b = _composing(build("cuda", backend, (opt, capability)), active_points)
    return b.composed(mod, metadata, opt, capability, _tmfma_c=_Composer(mod, ours_at, active_points, declined))


def default_args(backend_name: str):
    """make_ttgir's arguments after the module and metadata for a compile with the default options (hip:
    gfx942; cuda: capability 90), or None where the backend cannot make them here."""
    from triton.backends.compiler import GPUTarget

    try:
        if backend_name == "hip":
            from triton.backends.amd.compiler import HIPBackend

            return (HIPBackend(GPUTarget("hip", "gfx942", 64)).parse_options({}),)
        from triton.backends.nvidia.compiler import CUDABackend

        return CUDABackend(GPUTarget("cuda", 90, 32)).parse_options({}), 90
    except Exception:  # noqa: BLE001 - described without the options' branch
        return None


if __name__ == "__main__":
    import sys

    for name in ("hip", "cuda"):
        b = build(name, args=default_args(name))
        print(b.describe())
        if "--source" in sys.argv[1:] and b.composed is not None:
            print(b.composed.source)
