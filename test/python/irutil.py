"""Structural IR inspection for tests: parse generic MLIR text with the upstream MLIR Python bindings
(the same MLIR 22.1.8 our C++ uses), unregistered dialects allowed, and walk operations."""
from mlir import ir


# Operations found by a walk do not keep their module alive: if the module were freed while a test still
# holds them (e.g. `ops(parse(text))`), reading them would touch freed memory (a segfault seen in CI).
# Parsed modules therefore live until the test process ends.
_KEEP_ALIVE = []


def parse(text: str):
    ctx = ir.Context()
    ctx.allow_unregistered_dialects = True
    module = ir.Module.parse(text, ctx)
    _KEEP_ALIVE.append((ctx, module))
    return module


def ops(module, name: str | None = None) -> list:
    found = []

    def visit(op):
        if name is None or op.name == name:
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return found


def encoding(value_type) -> str:
    """The layout attribute of a ranked tensor type, as text ('' if none)."""
    t = ir.RankedTensorType(value_type)
    return str(t.encoding) if t.encoding is not None else ""
