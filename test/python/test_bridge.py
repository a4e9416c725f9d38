"""The generic-text bridge: Triton module -> generic text -> our C++ (MLIR 22) -> Triton, exactly."""
import re
import threading

import pytest
from conftest import CASE_IDS, CASES
from irutil import ops, parse
from triton import knobs

import triton_mfma
from triton_mfma import BridgeError, export_generic, import_generic, run_pipeline
from triton_mfma.compiler.compile import compile_kernel
from triton_mfma.examples import CORPUS


def _capture(name, arch, stage):
    """Compile a corpus kernel and run `check(module)` on the module right after `stage`."""
    seen = {}

    def hook(*args):
        if not args:
            return "capture", "capture"
        stages = args[1]
        orig = stages[stage]

        def wrapped(src, md):
            mod = orig(src, md)
            seen["module"] = mod
            seen["print"] = mod.str()
            seen["generic"] = export_generic(mod)
            seen["after_export"] = mod.str()
            through_cpp = run_pipeline(seen["generic"], "")
            seen["cpp_identical"] = through_cpp == seen["generic"]
            seen["roundtrip"] = import_generic(through_cpp, mod.context).str()
            return mod

        stages[stage] = wrapped

    knobs.runtime.add_stages_inspection_hook = hook
    try:
        fn, sig, cx = CORPUS[name]
        compile_kernel(fn, sig, cx, arch)
    finally:
        knobs.runtime.add_stages_inspection_hook = None
    return seen


@pytest.mark.parametrize("name,arch", CASES, ids=CASE_IDS)
@pytest.mark.parametrize("stage", ["ttir", "ttgir"])
def test_roundtrip_is_byte_identical(name, arch, stage):
    seen = _capture(name, arch, stage)
    assert seen["generic"].startswith('"builtin.module"()'), "export must be generic form"
    assert "#ttg.blocked" in seen["generic"] or stage == "ttir", "no aliases: layouts are printed inline"
    assert 'loc("' in seen["generic"], "debug locations are kept"
    assert seen["after_export"] == seen["print"], "export_generic must restore Triton's printing flags"
    assert seen["cpp_identical"], "MLIR 22 parse/print changed the text"
    assert seen["roundtrip"] == seen["print"], "Triton print differs after export -> C++ -> import"


def test_generic_text_is_structurally_readable_by_upstream_mlir():
    seen = _capture("attn_fwd_d128", "gfx942", "ttgir")
    module = parse(seen["generic"])
    dots = ops(module, "tt.dot")
    assert len(dots) == 2, "flash attention has QK^T and PV"
    for dot in dots:
        assert "#ttg.amd_mfma" in str(dot.results[0].type)
        for operand in list(dot.operands)[:2]:
            assert "#ttg.dot_op" in str(operand.type)
    assert len(ops(module, "scf.for")) == 1


def test_export_restores_flags_on_exception():
    class Broken:
        def str(self):
            raise RuntimeError("printer failed")

    with pytest.raises(RuntimeError, match="printer failed"):
        export_generic(Broken())
    seen = _capture("masked_relu", "gfx942", "ttgir")
    assert not seen["print"].startswith('"builtin.module"()'), "flags leaked: Triton now prints generic"


def test_export_is_safe_under_concurrency():
    mod = _capture("softmax", "gfx942", "ttgir")["module"]  # lowered further in place by make_llir
    expected, plain = export_generic(mod), mod.str()
    results, errors = [], []

    def worker():
        try:
            for _ in range(20):
                results.append(export_generic(mod))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(results) == 160 and all(r == expected for r in results)
    assert mod.str() == plain and not plain.startswith('"builtin.module"()')


def test_import_of_non_verifying_text_names_the_pass():
    seen = _capture("masked_relu", "gfx942", "ttgir")
    text = seen["generic"]
    # a range whose length contradicts its result shape: parses, but tt.make_range's verifier rejects it
    assert "end = 1024 : i32" in text
    broken = text.replace("end = 1024 : i32", "end = 1000 : i32", 1)
    with pytest.raises(BridgeError) as info:
        import_generic(broken, seen["module"].context, pass_name="mfma-test-pass")
    assert info.value.pass_name == "mfma-test-pass"
    assert info.value.text == broken
    assert "make_range" in info.value.diagnostics  # the verifier's own words (run by Triton's parse)
    assert "mfma-test-pass" in str(info.value)


def test_import_of_unparsable_text_raises_with_diagnostic():
    seen = _capture("masked_relu", "gfx942", "ttgir")
    truncated = seen["generic"][: len(seen["generic"]) // 2]
    with pytest.raises(BridgeError) as info:
        import_generic(truncated, seen["module"].context, pass_name="mfma-x")
    assert "error" in info.value.diagnostics
    assert info.value.text == truncated


def test_import_of_a_copy_needs_no_capture_and_still_reports_a_failure():
    """A text Triton printed or parsed before (a variant copied into another context) is parsed without the
    process-wide stderr capture, so threads copying variants do not wait on each other; if it fails after all,
    it is parsed again with the capture and reported like any other."""
    seen = _capture("masked_relu", "gfx942", "ttgir")
    copy = import_generic(seen["generic"], seen["module"].context, parsed_before=True)
    assert export_generic(copy) == seen["generic"]
    broken = seen["generic"].replace("end = 1024 : i32", "end = 1000 : i32", 1)
    with pytest.raises(BridgeError) as info:
        import_generic(broken, seen["module"].context, pass_name="mfma-x", parsed_before=True)
    assert "make_range" in info.value.diagnostics


def test_version_and_native_library():
    assert triton_mfma.__version__
    from triton_mfma.ir.native import native_version

    assert "22.1.8" in native_version()


def test_corpus_covers_the_constructs_the_fidelity_claim_names():
    """The round-trip tests above are only as good as the corpus: check, structurally, that it holds
    loops, branches, reductions, selects (masks/where), atomics, assumptions and dots."""
    seen_ops = set()
    for name in CORPUS:
        module = parse(_capture(name, "gfx942", "ttgir")["generic"])
        seen_ops |= {op.name for op in ops(module)}
    assert {"scf.for", "scf.if", "tt.reduce", "arith.select", "tt.atomic_rmw", "llvm.intr.assume", "tt.dot",
            "ttg.convert_layout", "ttg.local_alloc"} <= seen_ops


def test_import_parses_an_aliased_text_that_is_the_same_module():
    """import_generic hands Triton each layout once (bridge.with_aliases): the same module as the inline text,
    quoted strings left as they are, and diagnostics that point into the text as it was given."""
    from triton_mfma.ir.bridge import with_aliases

    seen = _capture("attn_fwd_d128", "gfx942", "ttgir")
    text, ctx = seen["generic"], seen["module"].context
    aliased = with_aliases(text)
    assert aliased.startswith("#tmfma_a0 = #ttg.") and len(aliased) < len(text) * 0.8
    assert "#ttg.blocked<" not in aliased.split('"builtin.module"', 1)[1]
    assert with_aliases(aliased) == aliased
    assert export_generic(import_generic(text, ctx)) == text
    # a string that reads like an attribute is not code: left alone
    path = re.search(r'"([^"]+\.py)":\d', text).group(1)  # the source file, named in locations only
    odd = text.replace(f'"{path}":', '"/tmp/#ttg.blocked<{x}>/k.py":')
    assert "/tmp/#ttg.blocked<{x}>/k.py" in with_aliases(odd)
    assert export_generic(import_generic(odd, ctx)) == odd
    # deeper than the aliasing reads: left inline, still one module
    assert with_aliases("a = #d.x<<<<<y>>>>>\n") == "a = #d.x<<<<<y>>>>>\n"
    # an error is reported at its line in the given text, not in the aliased one
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if '"tt.load"' in line)
    broken = "\n".join(lines[:k] + [lines[k].replace('"tt.load"(', '"tt.load"(,', 1)] + lines[k + 1:])
    with pytest.raises(BridgeError) as info:
        import_generic(broken, ctx)
    assert f":{k + 1}:" in info.value.diagnostics, info.value.diagnostics


def test_probe_names_every_missing_symbol_and_binding(monkeypatch):
    """What the project calls in libtriton is probed, not assumed from the version: a binding gone from the
    installed build, or a library without the symbols, is named with the build and the file."""
    from triton._C import libtriton
    from triton._C.libtriton import ir

    from triton_mfma.ir import bridge

    assert bridge.probe() is bridge.probe()  # the installed build has all: probed once per file
    monkeypatch.delattr(ir, "parse_mlir_module")
    with pytest.raises(bridge.TritonBuildError) as err:
        bridge.probe(libtriton.__file__ + "-again")  # not loadable: named too
    assert "a loadable library" in str(err.value)
    found = bridge._probe(libtriton.__file__)
    assert isinstance(found, bridge.TritonBuildError)
    assert found.missing == ["the binding ir.parse_mlir_module"] and found.library == libtriton.__file__
    assert "LLVMParseCommandLineOptions" not in str(found)
