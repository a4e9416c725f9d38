"""same_text.py EXPECTED ACTUAL: exit 1 unless ACTUAL == EXPECTED (ignoring one
trailing newline, which mfma-opt adds and Triton's module.str() does not)."""
import sys

expected = open(sys.argv[1]).read()
actual = open(sys.argv[2]).read()
if actual.endswith("\n") and not expected.endswith("\n"):
    actual = actual[:-1]
if actual != expected:
    for i, (a, b) in enumerate(zip(expected.splitlines(), actual.splitlines())):
        if a != b:
            print(f"line {i + 1} differs:\n  expected: {a[:300]}\n  actual:   {b[:300]}")
            break
    else:
        print(f"lengths differ: {len(expected)} vs {len(actual)}")
    sys.exit(1)
print("identical")
