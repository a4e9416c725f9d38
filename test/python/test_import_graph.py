"""The package's import graph has no cycle (docs/development.md gives the order its layers import in).

Read from the sources with `ast`, nothing imported: every `import` / `from ... import` of a module of the package,
wherever it stands (module level, a function, a method, a class body, `if TYPE_CHECKING:`), and every
`importlib.import_module` / `__import__` of a literal name, is an edge; an import moved into a function is one all
the same. Names resolve as Python resolves them: `from pkg import name` is an edge to the submodule `pkg.name` where
there is one, else to `pkg` (a name its `__init__` defines). No kernel is compiled.
"""
import ast
import os
from collections import deque

import pytest

pytestmark = pytest.mark.fast

PYTHON = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python")

# The package's folders (and its top-level modules) by layer, in the order they import (docs/development.md): a
# module imports from its own layer or an earlier one. "triton_mfma" is the package's __init__.
LAYERS = (
    ("ir", "_version", "examples"),
    ("composition", "models"),
    ("decisions",),
    ("trials",),
    ("compiler", "triton_mfma"),
    ("commands", "testing", "_autoload"),
)


def modules(root: str, package: str) -> dict:
    """Dotted module name -> (path, whether it is a package's __init__) for every .py file under root/package."""
    out = {}
    for dirpath, dirnames, files in os.walk(os.path.join(root, package)):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for f in sorted(files):
            if f.endswith(".py"):
                path = os.path.join(dirpath, f)
                name = os.path.relpath(path, root)[:-3].replace(os.sep, ".")
                init = name.endswith(".__init__")
                out[name[:-len(".__init__")] if init else name] = (path, init)
    return out


def _literal(node):
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _called_import(call: ast.Call) -> str | None:
    """The module an importlib.import_module(...) / __import__(...) call of a literal name imports, else None."""
    f = call.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
    if name not in ("import_module", "__import__") or not call.args:
        return None
    target = _literal(call.args[0])
    if target is None or name == "__import__" or not target.startswith("."):
        return target
    anchor = _literal(call.args[1]) if len(call.args) > 1 else next(
        (_literal(k.value) for k in call.keywords if k.arg == "package"), None)
    if anchor is None:
        return None
    level = len(target) - len(target.lstrip("."))
    base = anchor.rsplit(".", level - 1)[0] if level > 1 else anchor
    return f"{base}.{target[level:]}" if target[level:] else base


def imports(name: str, path: str, init: bool, known: dict) -> list:
    """(imported module, line) for every import in module `name` of a module in `known`."""
    here = name if init else name.rpartition(".")[0]  # the package relative imports start from
    found = []
    for node in ast.walk(ast.parse(open(path, encoding="utf-8").read(), path)):
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = here.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        elif isinstance(node, ast.Call):
            called = _called_import(node)
            targets = [called] if called else []
        for t in targets:
            while t not in known and "." in t:  # a name in a module: the module
                t = t.rpartition(".")[0]
            if t in known and t != name:
                found.append((t, node.lineno))
    return found


def graph(root: str, package: str) -> tuple[dict, dict]:
    """(module -> the modules it imports, (importer, imported) -> "file:line" of the first such import)."""
    known = modules(root, package)
    edges, where = {m: set() for m in known}, {}
    for m, (path, init) in known.items():
        for t, line in imports(m, path, init, known):
            edges[m].add(t)
            where.setdefault((m, t), f"{os.path.relpath(path, root)}:{line}")
    return edges, where


def components(edges: dict) -> list:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(out)


def shortest_cycle(edges: dict, start: str, within: set) -> list:
    """The shortest import path from `start` back to it inside one component: [start, ..., start]."""
    came = {start: None}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        for w in sorted(edges[v] & within):
            if w == start:
                path = [v]
                while came[path[-1]] is not None:
                    path.append(came[path[-1]])
                return path[::-1] + [start]
            if w not in came:
                came[w] = v
                queue.append(w)
    return []


def cycles(root: str, package: str) -> list:
    """One line per distinct shortest cycle through each module of each component: `a -> b -> a (file:line, ...)`."""
    edges, where = graph(root, package)
    lines = []
    for comp in components(edges):
        seen = set()
        for m in comp:
            c = shortest_cycle(edges, m, set(comp))
            turn = c.index(min(c[:-1]))  # the same cycle seen from another module is listed once
            key = tuple(c[turn:-1] + c[:turn])
            if key in seen:
                continue
            seen.add(key)
            steps = list(key) + [key[0]]
            short = [s[len(package) + 1:] if s != package else package for s in steps]
            lines.append(" -> ".join(short) + " (" + ", ".join(where[a, b] for a, b in zip(steps, steps[1:])) + ")")
    return lines


def layer_violations(root: str, package: str, layers) -> list:
    """One line per import of a module in a later layer than the importer's: `a -> b (file:line)`; a top-level
    folder or module that no layer names is one too."""
    edges, where = graph(root, package)
    rank = {name: i for i, layer in enumerate(layers) for name in layer}

    def top(module):  # the top-level folder or module a module is in; the package's __init__ is the package
        return module.split(".")[1] if "." in module else module

    found = sorted(f"{top(m)}: in no layer" for m in {top(m) for m in edges} - set(rank))
    for a in sorted(edges):
        for b in sorted(edges[a]):
            if top(a) in rank and top(b) in rank and rank[top(b)] > rank[top(a)]:
                found.append(f"{a[len(package) + 1:] or package} -> {b[len(package) + 1:] or package} ({where[a, b]})")
    return found


def test_no_import_cycle():
    found = cycles(PYTHON, "triton_mfma")
    assert not found, "import cycles in triton_mfma (an import inside a function counts):\n  " + "\n  ".join(found)


def test_folders_import_in_layer_order():
    found = layer_violations(PYTHON, "triton_mfma", LAYERS)
    assert not found, "imports against the layers' order (LAYERS, docs/development.md):\n  " + "\n  ".join(found)


def test_the_checker_finds_a_cycle(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("VALUE = 1\n")
    (pkg / "a.py").write_text("def f():\n    from . import b\n    return b.g()\n")
    (pkg / "b.py").write_text("import importlib\n\n\ndef g():\n    return importlib.import_module('pkg.a')\n")
    assert cycles(str(tmp_path), "pkg") == ["a -> b -> a (pkg/a.py:2, pkg/b.py:5)"]
    # a name the package's __init__ defines is an edge to the package, a submodule's name one to the submodule;
    # an import under TYPE_CHECKING or in a class body counts
    (pkg / "b.py").write_text("from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from . import VALUE\n\n\n"
                              "class C:\n    from pkg.a import f\n")
    edges, _ = graph(str(tmp_path), "pkg")
    assert edges == {"pkg": set(), "pkg.a": {"pkg.b"}, "pkg.b": {"pkg", "pkg.a"}}
    (pkg / "__init__.py").write_text("from .b import C\n")
    assert cycles(str(tmp_path), "pkg") == ["pkg -> b -> pkg (pkg/__init__.py:1, pkg/b.py:4)",
                                            "a -> b -> a (pkg/a.py:2, pkg/b.py:8)"]


def test_the_checker_finds_a_layer_violation(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "low").mkdir(parents=True)
    (pkg / "high").mkdir()
    for d in (pkg, pkg / "low", pkg / "high"):
        (d / "__init__.py").write_text("")
    (pkg / "high" / "h.py").write_text("from ..low import l\n")
    (pkg / "low" / "l.py").write_text("def f():\n    from pkg.high import h\n")
    assert layer_violations(str(tmp_path), "pkg", [("low",), ("high", "pkg")]) == ["low.l -> high.h (pkg/low/l.py:2)"]
    assert layer_violations(str(tmp_path), "pkg", [("low", "high")]) == ["pkg: in no layer"]


if __name__ == "__main__":
    print("\n".join(cycles(PYTHON, "triton_mfma")) or "no import cycle")
    print("\n".join(layer_violations(PYTHON, "triton_mfma", LAYERS)) or "no import against the layers' order")


def _loads_triton(module: str) -> bool:
    """Whether importing `module` in a fresh interpreter, on this process's path (the package the tests import:
    installed, or the tree), imports Triton or torch."""
    import subprocess
    import sys

    code = (f"import sys; sys.path[:] = {sys.path!r}; import {module}; "
            f"print(int('triton' in sys.modules or 'torch' in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.strip().splitlines()[-1] == "1"


def imports_in_functions(root: str, package: str) -> list:
    """(importer, imported module, file:line, whether inside a `try`) of every import of the package inside a
    function body."""
    known = modules(root, package)
    out = []
    for name, (path, init) in known.items():
        tree = ast.parse(open(path).read())

        def walk(node, in_function, in_try):
            for child in ast.iter_child_nodes(node):
                function = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
                guarded = in_try or (in_function and isinstance(node, ast.Try))
                if in_function and isinstance(child, ast.ImportFrom):
                    for target in _targets(name, init, child, known):
                        out.append((name, target, f"{os.path.relpath(path, root)}:{child.lineno}", guarded))
                walk(child, function, guarded)

        walk(tree, False, False)
    return out


def _targets(name: str, init: bool, node: ast.ImportFrom, known: dict) -> list:
    base = name.split(".") if init else name.split(".")[:-1]
    if node.level:
        base = base[:len(base) - (node.level - 1)]
        mod = ".".join(base + ([node.module] if node.module else []))
    else:
        mod = node.module or ""
    subs = [f"{mod}.{a.name}" for a in node.names if f"{mod}.{a.name}" in known]
    return subs or ([mod] if mod in known else [])


def test_imports_at_module_top():
    """An import of the package inside a function is one of two kinds: guarded (inside a `try`: the command line's
    and the autoloader's, which must not fail for a missing native library), or of a module that imports Triton
    when loaded, by a module that does not (the command line, the hook and the report work without Triton and
    refuse an unsupported one in one line). Any other belongs at the top of its module, where it is seen."""
    found = [r for r in imports_in_functions(PYTHON, "triton_mfma") if not r[3]]
    loads = {m: _loads_triton(m) for m in {r[0] for r in found} | {r[1] for r in found}}
    wrong = [f"{where}: {importer} imports {target} in a function" for importer, target, where, _ in found
             if not loads[target] or loads[importer]]
    assert not wrong, "imports that belong at their module's top:\n  " + "\n  ".join(sorted(wrong))
