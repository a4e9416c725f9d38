"""The C++ stays in short, named steps: no function in lib/ or include/ is longer than MAX_FUNCTION_LINES.

A function's length is the span from the line of its name (where its parameter list opens) to the line of its
closing brace, both counted: what `ctags --fields=+ne` reports, and what docs/development.md states as the rule.
The scanner below is a small brace matcher over C++ with comments, string and character literals and preprocessor
lines blanked out; it tells a function body from a namespace, class, enum or braced initializer by the text before
the brace. Lambdas count toward the function they are written in. Its own tests (the fixture below) keep it honest:
a scanner that found no function would pass the rule vacuously.

`python test/python/test_code_shape.py [N]` lists the N longest functions.
"""

import functools
import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCE_DIRS = ("lib", "include")
SUFFIXES = {".cpp", ".h", ".hpp", ".cc", ".c", ".inc"}
MAX_FUNCTION_LINES = 80

_RAW_STRING = re.compile(r'R"([^()\\\s]{0,16})\(')
_TEMPLATE_PREFIX = re.compile(r"^\s*template\s*<")
_CLASS_HEAD = re.compile(r"^\s*(?:typedef\s+)?(?:class|struct|union)\b")
_ENUM_HEAD = re.compile(r"^\s*(?:typedef\s+)?enum\b")
_NAMESPACE_HEAD = re.compile(r'^\s*(?:inline\s+)?namespace\b|^\s*extern\s*""\s*$')
_OPERATOR_TOKEN = re.compile(r"\boperator\s*(?:\(\s*\)|\[\s*\]|[^\s(\w]+)")
_ENDS_AFTER_PARAMS = re.compile(
    r"\)\s*(?:const|volatile|noexcept|override|final|mutable|&|&&|\s)*(?:->\s*[^;{}=]+)?$")
_NAME_BEFORE = re.compile(r"((?:[~\w]+\s*::\s*)*~?\s*(?:operator\s*(?:\(\s*\)|[^\s(\w]+)|[\w]+))\s*$")


def blank_non_code(text):
    """`text` with comments, string and character literals and preprocessor lines turned into spaces (newlines
    kept, so positions and line numbers stay those of the file). A literal keeps its quotes: `"{"` becomes `" "`."""
    out = list(text)
    n = len(text)
    i = 0
    line_start = True

    def blank(a, b):
        for j in range(a, b):
            if out[j] != "\n":
                out[j] = " "

    while i < n:
        c = text[i]
        if line_start and c == "#":  # a preprocessor line, with its backslash continuations
            j = i
            while j < n and not (text[j] == "\n" and text[j - 1] != "\\"):
                j += 1
            blank(i, j)
            i = j
            continue
        if c == "\n":
            line_start = True
            i += 1
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            blank(i, j)
            i = j
        elif c == "R" and _RAW_STRING.match(text, i) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = _RAW_STRING.match(text, i)
            end = text.find(")" + m.group(1) + '"', m.end())
            j = n if end < 0 else end + len(m.group(1)) + 2
            blank(i + 2, j - 1)
            i = j
        elif c == '"' or (c == "'" and not (i and text[i - 1].isalnum())):  # 1'000 is a digit separator
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            blank(i + 1, min(j, n))
            i = j + 1
        else:
            i += 1
    return "".join(out)


def _strip_template_prefix(head):
    """`head` without a leading `template <...>` (balanced angle brackets)."""
    m = _TEMPLATE_PREFIX.match(head)
    if not m:
        return head
    depth, i = 1, m.end()
    while i < len(head) and depth:
        depth += {"<": 1, ">": -1}.get(head[i], 0)
        i += 1
    return _strip_template_prefix(head[i:])


def _depth0_text(head):
    """`head` with what sits inside parentheses removed."""
    out, depth = [], 0
    for c in head:
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif depth == 0:
            out.append(c)
    return "".join(out)


def _has_ctor_initializers(head):
    """A constructor's `Foo(args) : a(x), b{y}` head: a single colon right after a parameter list."""
    depth = 0
    for i, c in enumerate(head):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                rest = head[i + 1:].lstrip()
                if rest.startswith(":") and not rest.startswith("::"):
                    return True
    return False


def _params_open(head):
    """Offset in `head` of the parenthesis that opens the parameter list: the first one at depth 0 outside
    template angle brackets (after the `template <...>` prefix and an `operator()`'s own parentheses)."""
    body = _strip_template_prefix(head)
    base = len(head) - len(body)
    body = _OPERATOR_TOKEN.sub(lambda m: "o" * len(m.group(0)), body)
    angle = 0
    for i, c in enumerate(body):
        if c == "<":
            angle += 1
        elif c == ">" and angle and body[i - 1] != "-":
            angle -= 1
        elif c == "(" and angle == 0:
            return base + i
    return None


def classify_head(head):
    """What a `{` opens at namespace or class scope, from the text since the last `;`, `{` or `}`:
    'namespace' (also `extern "C"`), 'class', 'function', or 'other' (enum, braced initializer, ...)."""
    if _NAMESPACE_HEAD.match(head):
        return "namespace"
    body = _strip_template_prefix(head)
    if _ENUM_HEAD.match(body):
        return "other"
    if _CLASS_HEAD.match(body) and not _ENDS_AFTER_PARAMS.search(body):
        return "class"
    if ")" not in body:
        return "other"
    outside = _depth0_text(_OPERATOR_TOKEN.sub("operator", body))
    if "=" in re.sub(r"[<>!=]=|->", "", outside):  # an initializer, or a lambda assigned to a variable
        return "lambda" if "]" in outside and _ENDS_AFTER_PARAMS.search(body) else "other"
    return "function"


def find_functions(text):
    """[(name, first line, last line)] of every function body in C++ source `text`; lines count from 1."""
    code = blank_non_code(text)
    line_of = []
    line = 1
    for c in code:
        line_of.append(line)
        line += c == "\n"
    functions = []
    scopes = []  # (kind, name, start offset) for namespace/class/other/inner scopes; functions end at their brace
    head_start = 0
    fn = None  # (name, start offset, depth) of the function whose body we are in
    depth = 0
    for i, c in enumerate(code):
        if fn is not None:
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    functions.append((fn[0], line_of[fn[1]], line_of[i]))
                    fn = None
                    head_start = i + 1
            continue
        if c == ";":
            head_start = i + 1
        elif c == "{":
            head = code[head_start:i]
            parens = head.count("(") - head.count(")")
            prev = head.rstrip()[-1:]
            if parens > 0 or (_has_ctor_initializers(head) and (prev.isalnum() or prev in "_>")):
                scopes.append(("inner", None, head_start))  # a brace inside a head: default argument, member init
                continue
            kind = classify_head(head)
            if kind in ("function", "lambda"):
                opener = _params_open(head) if kind == "function" else head.find("[")
                opener = head_start + (opener if opener is not None else len(head) - len(head.lstrip()))
                m = _NAME_BEFORE.search(code, head_start, opener)
                name = re.sub(r"\s+", "", m.group(1)) if m else "<lambda>"
                owners = [s[1] for s in scopes if s[0] == "class" and s[1]]
                fn = ("::".join(owners + [name]), opener, 1)
                depth = 1
            else:
                name = None
                if kind == "class":
                    m = re.search(r"(?:class|struct|union)\s+(?:\w+\s+)*?(\w+)\s*(?:final\b|:|$)",
                                  _strip_template_prefix(head).strip())
                    name = m.group(1) if m else None
                scopes.append((kind, name, head_start))
                head_start = i + 1
        elif c == "}":
            if not scopes:
                raise ValueError(f"unbalanced '}}' at line {line_of[i]}")
            kind, _, start = scopes.pop()
            head_start = start if kind == "inner" else i + 1
    if fn is not None or scopes:
        raise ValueError("unbalanced braces: the file ends inside a scope")
    return functions


def source_files():
    return sorted(p for d in SOURCE_DIRS for p in (ROOT / d).rglob("*") if p.suffix in SUFFIXES and p.is_file())


@functools.lru_cache(maxsize=1)
def all_functions():
    """[(length, 'path:line', name)] over lib/ and include/."""
    found = []
    for path in source_files():
        for name, first, last in find_functions(path.read_text()):
            found.append((last - first + 1, f"{path.relative_to(ROOT)}:{first}", name))
    return found


def too_long(found):
    """The entries of `found` ((length, where, name)) over MAX_FUNCTION_LINES, longest first."""
    return sorted((f for f in found if f[0] > MAX_FUNCTION_LINES), reverse=True)


FIXTURE = r'''
#include "x.h" // {
#define BODY(x) { return x; }
namespace a::b {
namespace {
enum class Kind : unsigned { A, B };
const char *kText = "}{";
const char kBrace = '{';
const int kTable[] = {1, 2, {3}};
struct Pair { int x{0}, y = 1; };
} // namespace

/* a { brace in a comment */
struct Foo : public Base<Foo> {
  Foo(int x, std::vector<int> v = {}) : x(x), y{x + 1}, z({1, 2}) {
    use(x);
  }
  int get() const override { return x; }
  Foo &operator=(const Foo &) = default;
  bool operator==(const Foo &o) const {
    return x == o.x;
  }
  int x, y;
  std::vector<int> z;
};

template <typename T, int N = 3>
std::function<void(int)>
make(T t, int n = (1 + 2)) {
  auto f = [t](int k) {
    if (k) { return; }
  };
  const char *raw = R"d(})d";
  return f;
}
} // namespace a::b

extern "C" int c_entry(void) {
  return 1'000;
}

extern "C" {
void inside_extern() {}
}

auto kLambda = [](int x) -> int {
  return x;
};

SmallVector<int> Outer::
    member(int a,
           int b) const {
  return {a, b};
}

int Foo::operator()(int x) { return x; }
'''


def test_scanner_on_a_fixture():
    """The scanner finds exactly the fixture's function bodies, with their names and line spans, through comments,
    literals, initializer lists, default arguments, lambdas and macros."""
    got = find_functions(FIXTURE)
    assert got == [
        ("Foo::Foo", 15, 17),
        ("Foo::get", 18, 18),
        ("Foo::operator==", 20, 22),
        ("make", 29, 35),
        ("c_entry", 38, 40),
        ("inside_extern", 43, 43),
        ("<lambda>", 46, 48),
        ("Outer::member", 51, 54),
        ("Foo::operator()", 56, 56),
    ]


def test_scanner_rejects_unbalanced_braces():
    with pytest.raises(ValueError):
        find_functions("void f() {\n")
    with pytest.raises(ValueError):
        find_functions("namespace x { }\n}\n")


def test_scanner_sees_the_tree():
    """The scanner parses every source file (balanced braces) and finds the passes' entry points: the rule below
    cannot pass because nothing was found."""
    found = all_functions()
    names = {name for _, _, name in found}
    assert len(found) > 300, len(found)
    for expected in ("MFMAAccelerateDot::runOnOperation", "MFMAStreamPipeline::runOnOperation", "lookupMfma",
                     "mlir::triton_mfma::getMfmaInstrs"):
        assert any(n == expected or n.endswith("::" + expected) for n in names), expected


def test_the_limit_is_on_the_line_count():
    """A function of MAX_FUNCTION_LINES lines passes, one more line does not."""
    def function(name, lines):
        return f"int {name}() {{\n" + "  step();\n" * (lines - 2) + "}\n"

    text = function("fits", MAX_FUNCTION_LINES) + function("over", MAX_FUNCTION_LINES + 1)
    found = [(last - first + 1, f"x.cpp:{first}", name) for name, first, last in find_functions(text)]
    assert [f[0] for f in found] == [MAX_FUNCTION_LINES, MAX_FUNCTION_LINES + 1]
    assert too_long(found) == [(MAX_FUNCTION_LINES + 1, f"x.cpp:{MAX_FUNCTION_LINES + 1}", "over")]


def test_no_function_over_the_limit():
    """docs/development.md: a C++ function over MAX_FUNCTION_LINES lines is split into named steps."""
    long = too_long(all_functions())
    assert not long, "C++ functions over %d lines (split them into named steps):\n%s" % (
        MAX_FUNCTION_LINES, "\n".join(f"  {n} lines  {where}  {name}" for n, where, name in long))


if __name__ == "__main__":
    top = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    for n, where, name in sorted(all_functions(), reverse=True)[:top]:
        print(f"{n:4d}  {where}  {name}")
