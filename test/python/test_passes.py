"""The Python registry of passes agrees with Passes.td (through the passes.json the build generates from it)."""
from triton_mfma.ir import native
from triton_mfma.composition.passes import HOOK_OPTIONS, POINTS, REGISTRY

CPP_KINDS = {"bool": bool, "unsigned": int, "int": int, "int64_t": int, "uint64_t": int, "std::string": str}


def test_every_pass_of_passes_td_is_registered_and_nothing_else():
    assert set(REGISTRY) == set(native.pass_registry())


def test_every_python_option_is_a_pass_option_of_the_same_kind():
    reg = native.pass_registry()
    for p in REGISTRY.values():
        declared = {o["argument"]: o for o in reg[p.name]["options"]}
        for opt in p.options:
            if opt.flag is None:  # handled in Python (e.g. verify_dot)
                continue
            assert opt.flag in declared, f"{p.name}: {opt.flag} is not an option in Passes.td"
            assert CPP_KINDS[declared[opt.flag]["type"]] is opt.kind, (p.name, opt.name, declared[opt.flag]["type"])
        for flag in p.from_kernel:
            assert flag in declared, f"{p.name}: {flag} is not an option in Passes.td"


def test_points_and_option_names_are_unique_and_checked():
    assert all(p.point in POINTS for p in REGISTRY.values())
    by_name = {}
    for o in [o for p in REGISTRY.values() for o in p.options] + list(HOOK_OPTIONS):
        by_name.setdefault(o.name, []).append(o)
    for name, decls in by_name.items():  # an option several passes share (lds_limit) means one thing
        assert len({(o.kind, o.choices, o.low, o.high, o.symbolic, o.doc) for o in decls}) == 1, name
    import pytest

    for opt in [o for p in REGISTRY.values() for o in p.options]:
        bad = ["{x}", 3.5] + ([opt.low - 1] if opt.low is not None else []) + \
            ([max(c for c in opt.choices if isinstance(c, int)) + 1] if opt.kind is int and opt.choices else [])
        for value in bad:
            with pytest.raises(ValueError, match=opt.name):
                opt.check(value)
