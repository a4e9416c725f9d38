#!/usr/bin/env python3
"""Seeded, deterministic fuzzer of mfma-opt: every pass, mutated lit inputs.

    python test/fuzz/mfma_fuzz.py                  # 2,000 inputs, seed 0 (what CI runs, through
                                                   # test/python/test_fuzz.py)
    python test/fuzz/mfma_fuzz.py --runs 20000     # soak (bench/results/fuzz_soak.txt)
    python test/fuzz/mfma_fuzz.py --seed 7 --runs 5000 --jobs 2 --save-dir /tmp/crashes
    python test/fuzz/mfma_fuzz.py --dump 123       # print input 123 (and its pipeline)

TMFMA_FUZZ_RUNS / TMFMA_FUZZ_SEED set the defaults of --runs / --seed (the
pytest test reads them too). mfma-opt is found as test/lit/lit.cfg.py finds
it: $MFMA_OPT, this tree's python/triton_mfma/_native/mfma-opt, the installed
package's.

Input i is built by its own `random.Random(f"{seed}:{i}")` (so a run is the
same whatever the batching or the number of workers). One input in five is
generated: a kernel converting a tensor of a random shape and element type
between two random valid layouts (blocked, linear, slice, amd_mfma, dot_op;
warps, lanes and orders random but consistent with the module), reducing it
along an axis and holding a shared buffer, for the LDS model, the splitter
and the layout printer (a third of those then get a layout mutation). The
others mutate a seed: the chunks of test/lit/*.mlir (split at `// -----`) and
the whole modules of test/lit/Inputs/*.mlir, with one to three mutations and
a pass pipeline:

  - layout fields: one `#ttg.*` layout text of the module is rewritten and
    replaced everywhere it occurs (so types stay consistent and the input
    parses): an array entry set to 0, -1, 2^31-1, 2^32, 1024, 3, 5, ..., two
    entries swapped, an entry duplicated / removed / added (rank changes), an
    integer or boolean field changed, a key dropped or an unknown one added,
    the mnemonic swapped for another kind, or the layout replaced by another
    layout of the corpus;
  - shapes: a tensor / memdesc shape changed everywhere it occurs (0, 1, 3,
    2^31, dynamic, a dimension dropped or added), or its element type (f64,
    i128, index, complex, vector, pointer, ...);
  - memdescs: mutable dropped, alloc shape added, memory space changed;
  - scalar attributes (`value = 4 : i32`, `"ttg.num-warps"`, `axis`, ...) set
    to interesting integers or given another integer type (si32, ui64, i128,
    ...); the target string changed;
  - structure: an operation deleted (with everything that uses its results),
    duplicated (results renamed), two neighbouring operations swapped, a
    region emptied (no block) or its terminator removed, an operand dropped
    or added (types kept in step), a block argument added, an operation
    renamed to another known one (tt.dot, scf.for, ttg.convert_layout, ...),
    properties or module attributes dropped;
  - truncation at a random point.

The pipelines: each pass alone (with its options at typical values), and all
of them in a row; one input in ten gets instead a pipeline whose options are
at or past their limits (lds-limit=-1, group-size=0, kpack=7, ...). Inputs of
one pipeline go in batches through one mfma-opt process each
(`-split-input-file`, output discarded), two processes at a time, with a
timeout and an address-space limit (runaway allocation becomes a crash, not a
hung machine). A batch that dies by a signal or times out is re-run one input
at a time to name the culprits. A signal (negative return code), an LLVM crash banner
("PLEASE submit a bug report", "Assertion", "UNREACHABLE") or a timeout is a
failure; exit status 0 or 1 (diagnostics) is fine.

Exit status: 0 if no failure, 1 otherwise. `--save-dir` writes each culprit
as `<kind>-<index>.mlir` with its pipeline in a comment.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LIT_DIR = REPO / "test" / "lit"

PIPELINES = [
    "mfma-print-layouts",
    "mfma-print-layouts{round-trip-only=true}",
    "mfma-lds-usage",
    "mfma-lds-usage{annotate=true}",
    "mfma-dot-work",
    "mfma-split-epilogue-cvt",
    "mfma-split-epilogue-cvt{lds-limit=16384}",
    "mfma-split-epilogue-cvt{lds-limit=4096 max-steps=5}",
    "mfma-accelerate-dot",
    "mfma-accelerate-dot{matrix-instr-nonkdim=16 kpack=2}",
    "mfma-accelerate-dot{matrix-instr-nonkdim=4 chain-dots=false}",
    "mfma-stream-pipeline",
    "mfma-stream-pipeline{num-stages=1}",
    "mfma-grid-order",
    "mfma-grid-order{mode=on group-size=4}",
    "mfma-accelerate-dot,mfma-stream-pipeline,mfma-grid-order,mfma-split-epilogue-cvt,mfma-lds-usage,"
    "mfma-print-layouts",
    "mfma-accelerate-dot,mfma-dot-work",
]

# Option values at and past their limits (each an error or a decision, never a
# crash).
ODD_PIPELINES = [
    "mfma-split-epilogue-cvt{lds-limit=-1}",
    "mfma-split-epilogue-cvt{lds-limit=1 max-steps=0}",
    "mfma-split-epilogue-cvt{lds-limit=9223372036854775807 max-steps=4294967295}",
    "mfma-stream-pipeline{num-stages=0}",
    "mfma-stream-pipeline{num-stages=4294967295}",
    "mfma-grid-order{mode=on group-size=0}",
    "mfma-grid-order{mode=on group-size=4294967295 num-xcds=0 num-cus=0}",
    "mfma-grid-order{mode=on num-xcds=4294967295 num-cus=1 l2-bytes=-1}",
    "mfma-grid-order{l2-bytes=1 l2-effective-percent=4294967295 default-trip-count=0}",
    "mfma-grid-order{mode=maybe}",
    "mfma-accelerate-dot{kpack=7}",
    "mfma-accelerate-dot{matrix-instr-nonkdim=4294967295}",
    "mfma-print-layouts{round-trip-only=false},mfma-lds-usage{annotate=true},mfma-print-layouts",
]

INTERESTING = [0, 1, 2, 3, 4, 5, 7, 8, 16, 31, 32, 33, 63, 64, 65, 128, 1024, 4096, 65536,
               2147483647, 2147483648, 4294967295, 4294967296, 9223372036854775807,
               -1, -2, -8, -2147483648]
SMALL = [0, 1, 2, 3, 4, 5, 7, 8, 16, 32, 64, 128, -1]

CRASH_MARKERS = ("PLEASE submit a bug report", "Assertion `", "UNREACHABLE executed",
                 "Stack dump:", "LLVM ERROR: out of memory")


def find_mfma_opt() -> str:
    """As test/lit/lit.cfg.py: $MFMA_OPT, the tree's build, the installed package's."""
    env = os.environ.get("MFMA_OPT")
    if env:
        return env
    local = REPO / "python" / "triton_mfma" / "_native" / "mfma-opt"
    if local.is_file():
        return str(local)
    out = subprocess.run(
        [sys.executable, "-c",
         "import importlib.util, os; s = importlib.util.find_spec('triton_mfma'); "
         "print(os.path.join(os.path.dirname(s.origin), '_native', 'mfma-opt'))"],
        capture_output=True, text=True, cwd="/").stdout.strip()
    if out and os.path.isfile(out):
        return out
    raise FileNotFoundError("mfma-opt not found: build it or set MFMA_OPT")


# --------------------------------------------------------------------------
# Seeds
# --------------------------------------------------------------------------

def load_seeds() -> list[str]:
    seeds = []
    for path in sorted(LIT_DIR.glob("*.mlir")) + sorted((LIT_DIR / "Inputs").glob("*.mlir")):
        for chunk in re.split(r"^// -----\s*$", path.read_text(), flags=re.M):
            lines = [ln for ln in chunk.splitlines() if not ln.lstrip().startswith("//")]
            text = "\n".join(lines).strip()
            if "tt.func" in text or "module" in text:
                seeds.append(text + "\n")
    return seeds


def layout_corpus(seeds: list[str]) -> list[str]:
    return sorted({s[a:b] for s in seeds for a, b in layout_spans(s)})


# --------------------------------------------------------------------------
# Text helpers
# --------------------------------------------------------------------------

LAYOUT_START = re.compile(r"#ttg\.[a-z_]+")


def layout_spans(text: str) -> list[tuple[int, int]]:
    """[start, end) of every `#ttg.*` attribute text (nested ones included)."""
    spans = []
    for m in LAYOUT_START.finditer(text):
        end = m.end()
        if end < len(text) and text[end] == "<":
            depth = 0
            i = end
            while i < len(text):
                c = text[i]
                if c == "<":
                    depth += 1
                elif c == ">" and text[i - 1] != "-":
                    depth -= 1
                    if depth == 0:
                        break
                elif c == "\n":
                    i = -1
                    break
                i += 1
            if i < 0 or i >= len(text):
                continue
            end = i + 1
        spans.append((m.start(), end))
    return spans


def split_top(s: str) -> list[str]:
    """Top-level comma split (outside <>, [], {}, ())."""
    out, depth, cur = [], 0, []
    prev = ""
    for c in s:
        if c in "<[{(":
            depth += 1
        elif c in "]})" or (c == ">" and prev != "-"):
            depth -= 1
        if c == "," and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        prev = c
    if cur or out:
        out.append("".join(cur))
    return [p.strip() for p in out]


def match_close(s: str, i: int) -> int:
    """Index of the bracket closing the one at s[i], or -1."""
    pairs = {"(": ")", "[": "]", "{": "}", "<": ">"}
    stack = []
    j = i
    while j < len(s):
        c = s[j]
        if c in pairs:
            stack.append(pairs[c])
        elif c in ")]}" or (c == ">" and s[j - 1] != "-"):
            if not stack or stack[-1] != c:
                return -1
            stack.pop()
            if not stack:
                return j
        j += 1
    return -1


def pick(rng: random.Random, seq):
    return seq[rng.randrange(len(seq))]


# --------------------------------------------------------------------------
# Layout mutations
# --------------------------------------------------------------------------

FIELD = re.compile(r"(\b[A-Za-z]+\b) = (\[\[[^=]*?\]\]|\[[^\[\]]*\]|-?\d+|true|false)")
MNEMONICS = ["blocked", "slice", "dot_op", "amd_mfma", "amd_wmma", "nvidia_mma", "linear",
             "generic_linear", "swizzled_shared", "amd_rotating_shared", "padded_shared",
             "shared_linear", "partitioned_shared", "nvmma_shared", "shared_memory", "bogus"]
EXTRA_KEYS = ["order", "CGALayout", "tilesPerWarp", "elementBitWidth", "kWidth", "rank",
              "instrShape", "fp4Padded", "junk"]


def mutate_int_list(rng: random.Random, items: list[str]) -> list[str]:
    items = list(items)
    op = rng.randrange(7)
    if op == 0 and items:
        items[rng.randrange(len(items))] = str(pick(rng, INTERESTING))
    elif op == 1 and len(items) >= 2:
        i, j = rng.sample(range(len(items)), 2)
        items[i], items[j] = items[j], items[i]
    elif op == 2 and items:
        i = rng.randrange(len(items))
        items[(i + 1) % len(items)] = items[i]
    elif op == 3 and items:
        del items[rng.randrange(len(items))]
    elif op == 4:
        items.insert(rng.randrange(len(items) + 1), str(pick(rng, SMALL)))
    elif op == 5:
        items = []
    else:
        items = [str(pick(rng, INTERESTING)) for _ in range(rng.randrange(1, 5))]
    return items


def mutate_value(rng: random.Random, value: str) -> str:
    if value in ("true", "false"):
        return pick(rng, ["true", "false", "0", "[]"])
    if value.startswith("[["):
        inner = value[1:-1]
        bases = re.findall(r"\[[^\[\]]*\]", inner)
        op = rng.randrange(5)
        if op == 0 and bases:
            k = rng.randrange(len(bases))
            parts = [p for p in bases[k][1:-1].split(",") if p.strip()]
            bases[k] = "[" + ", ".join(mutate_int_list(rng, [p.strip() for p in parts])) + "]"
        elif op == 1 and bases:
            del bases[rng.randrange(len(bases))]
        elif op == 2 and bases:
            bases.append(pick(rng, bases))
        elif op == 3:
            bases.append("[" + ", ".join(str(pick(rng, INTERESTING))
                                         for _ in range(rng.randrange(1, 4))) + "]")
        else:
            bases = bases * rng.randrange(2, 12)
        return "[" + ", ".join(bases) + "]"
    if value.startswith("["):
        parts = [p.strip() for p in value[1:-1].split(",") if p.strip()]
        return "[" + ", ".join(mutate_int_list(rng, parts)) + "]"
    return str(pick(rng, INTERESTING))


def mutate_layout_text(rng: random.Random, layout: str, corpus: list[str]) -> str:
    fields = list(FIELD.finditer(layout))
    op = rng.randrange(10)
    if op <= 5 and fields:
        m = pick(rng, fields)
        return layout[:m.start(2)] + mutate_value(rng, m.group(2)) + layout[m.end(2):]
    if op == 6 and fields:
        m = pick(rng, fields)
        # drop "key = value" with one neighbouring comma
        s, e = m.start(), m.end()
        if layout[e:e + 2] == ", ":
            e += 2
        elif layout[s - 2:s] == ", ":
            s -= 2
        return layout[:s] + layout[e:]
    if op == 7:
        i = layout.find("{")
        if i >= 0:
            key = pick(rng, EXTRA_KEYS)
            val = pick(rng, ["[1, 0]", "[]", "4", "true", "[[1, 0]]", "[0, 0, 0]", "64"])
            return layout[:i + 1] + f"{key} = {val}, " + layout[i + 1:]
    if op == 8:
        return re.sub(r"^#ttg\.[a-z_]+", "#ttg." + pick(rng, MNEMONICS), layout, count=1)
    if corpus:
        return pick(rng, corpus)
    return layout


def mut_layout(rng: random.Random, text: str, corpus: list[str]) -> str:
    spans = layout_spans(text)
    if not spans:
        return text
    s, e = pick(rng, spans)
    old = text[s:e]
    new = mutate_layout_text(rng, old, corpus)
    return text.replace(old, new)


# --------------------------------------------------------------------------
# Shapes, memdescs, scalar attributes
# --------------------------------------------------------------------------

SHAPE = re.compile(r"(tensor|memdesc)<((?:\d+x)+)")


def mut_shape(rng: random.Random, text: str) -> str:
    ms = list(SHAPE.finditer(text))
    if not ms:
        return text
    m = pick(rng, ms)
    dims = m.group(2)[:-1].split("x")
    op = rng.randrange(5)
    if op == 4:  # the element type, everywhere this shape has it
        m2 = re.compile(re.escape(m.group(0)) + r"([a-z0-9A-Z]+)").search(text, m.start())
        if not m2:
            return text
        new_ty = pick(rng, ["f16", "f32", "bf16", "f64", "i1", "i8", "i32", "i64", "i128",
                            "index", "f8E4M3FN", "f8E5M2", "tf32", "complex<f32>",
                            "vector<2xf32>", "!tt.ptr<f16>", "none"])
        return text.replace(m2.group(0), m.group(0) + new_ty)
    if op == 0:
        dims[rng.randrange(len(dims))] = str(pick(rng, [0, 1, 2, 3, 6, 4096, 65536,
                                                         2147483648, 4294967296, "?"]))
    elif op == 1 and len(dims) > 1:
        del dims[rng.randrange(len(dims))]
    elif op == 2:
        dims.insert(rng.randrange(len(dims) + 1), str(pick(rng, [1, 2, 4, 64])))
    else:
        dims = [str(int(d) * pick(rng, [2, 4, 16, 1024])) for d in dims]
    old = m.group(0)
    new = f"{m.group(1)}<{'x'.join(dims)}x"
    return text.replace(old, new)


MEMDESC = re.compile(r"!ttg\.memdesc<")


def mut_memdesc(rng: random.Random, text: str) -> str:
    ms = list(MEMDESC.finditer(text))
    if not ms:
        return text
    m = pick(rng, ms)
    end = match_close(text, m.end() - 1)
    if end < 0:
        return text
    old = text[m.start():end + 1]
    params = split_top(old[len("!ttg.memdesc<"):-1])
    op = rng.randrange(5)
    if op == 0 and "mutable" in params:
        params.remove("mutable")
    elif op == 1:
        params.append(pick(rng, ["2x64x64", "0x4", "1", "4294967296x2", "64x64"]))
    elif op == 2 and len(params) > 2:
        params[2] = pick(rng, ["#ttg.shared_memory", "#smem", "#ttg.blocked<{}>", "#ttng.tensor_memory"])
    elif op == 3 and len(params) > 1:
        del params[rng.randrange(1, len(params))]
    else:
        params.insert(1, "mutable")
    new = "!ttg.memdesc<" + ", ".join(params) + ">"
    return text.replace(old, new)


SCALAR = re.compile(r"(= )(-?\d+)( : (?:i\d+|index))")
TARGET = re.compile(r'(ttg\.target" = |ttg\.target = )"([^"]*)"')


def mut_scalar(rng: random.Random, text: str) -> str:
    if rng.randrange(6) == 0:
        ms = list(TARGET.finditer(text))
        if ms:
            m = pick(rng, ms)
            new = pick(rng, ["hip:gfx90a", "hip:gfx942", "hip:gfx950", "hip:gfx1100", "hip:gfx908",
                             "cuda:90", "cuda:80", "cuda:x", "hip:", "", "cuda:99999999999", "hip"])
            return text[:m.start(2)] + new + text[m.end(2):]
    ms = list(SCALAR.finditer(text))
    if not ms:
        return text
    m = pick(rng, ms)
    if rng.randrange(4) == 0:  # the type: signed, unsigned, wide, narrow
        ty = pick(rng, [" : si32", " : ui32", " : i64", " : i1", " : i128", " : index",
                        " : ui64", " : si8", " : i256"])
        return text[:m.start(3)] + ty + text[m.end(3):]
    return text[:m.start(2)] + str(pick(rng, INTERESTING)) + text[m.end(2):]


# --------------------------------------------------------------------------
# Structure
# --------------------------------------------------------------------------

OP_LINE = re.compile(r'^(\s*)((?:%[\w.$-]+(?::\d+)?(?:, )?)+ = )?"[\w.]+"\(')
RESULT = re.compile(r"%[\w.$-]+")


def op_spans(lines: list[str]) -> list[tuple[int, int]]:
    """[first, last] line of every operation (its regions included)."""
    spans = []
    for i, ln in enumerate(lines):
        m = OP_LINE.match(ln)
        if not m:
            continue
        indent = m.group(1)
        if ln.rstrip().endswith("({"):
            j = i + 1
            while j < len(lines):
                lj = lines[j]
                if lj.startswith(indent + "})") and not lj.startswith(indent + " "):
                    break
                j += 1
            if j >= len(lines):
                continue
            spans.append((i, j))
        else:
            spans.append((i, i))
    return spans


def defined_values(line: str) -> list[str]:
    m = OP_LINE.match(line)
    if not m or not m.group(2):
        return []
    return [v.split(":")[0] for v in RESULT.findall(m.group(2))]


def mut_delete_op(rng: random.Random, lines: list[str]) -> list[str]:
    spans = op_spans(lines)
    if not spans:
        return lines
    a, b = pick(rng, spans)
    dead = set(defined_values(lines[a]))
    keep = lines[:a] + lines[b + 1:]
    # Cascade: drop every operation that uses a deleted value.
    for _ in range(50):
        if not dead:
            break
        pat = re.compile("(" + "|".join(re.escape(d) for d in dead) + r")(?![\w.$-])")
        spans = op_spans(keep)
        victim = None
        for s, e in spans:
            if s == e and pat.search(keep[s]):
                victim = (s, e)
                break
            if s != e and (pat.search(keep[s]) or pat.search(keep[e])):
                victim = (s, e)
                break
        if victim is None:
            break
        s, e = victim
        dead |= set(defined_values(keep[s]))
        keep = keep[:s] + keep[e + 1:]
    return keep


def mut_duplicate_op(rng: random.Random, lines: list[str]) -> list[str]:
    spans = [s for s in op_spans(lines) if '"tt.func"' not in lines[s[0]]]
    if not spans:
        return lines
    a, b = pick(rng, spans)
    copy = lines[a:b + 1]
    for v in defined_values(copy[0]):
        copy[0] = re.sub(re.escape(v) + r"(?![\w.$-])", v + "_fzdup", copy[0], count=1)
    if b > a:
        # block arguments and values inside the regions must be renamed too
        names = set()
        for ln in copy[1:]:
            names.update(defined_values(ln))
            for blk in re.findall(r"\^bb\w*\(([^)]*)\)", ln):
                names.update(re.findall(r"%[\w.$-]+", blk))
        for n in names:
            copy[1:] = [re.sub(re.escape(n) + r"(?![\w.$-])", n + "_fzdup", ln) for ln in copy[1:]]
    return lines[:b + 1] + copy + lines[b + 1:]


def mut_swap_ops(rng: random.Random, lines: list[str]) -> list[str]:
    spans = [s for s in op_spans(lines) if s[0] == s[1]]
    pairs = [(x, y) for x, y in zip(spans, spans[1:]) if y[0] == x[0] + 1]
    if not pairs:
        return lines
    (a, _), (b, _) = pick(rng, pairs)
    lines = list(lines)
    lines[a], lines[b] = lines[b], lines[a]
    return lines


def mut_region(rng: random.Random, lines: list[str]) -> list[str]:
    spans = [s for s in op_spans(lines) if s[1] > s[0]]
    if not spans:
        return lines
    a, b = pick(rng, spans)
    op = rng.randrange(3)
    if op == 0:  # no block at all
        return lines[:a + 1] + lines[b:]
    if op == 1:  # drop the terminator of the (last) block
        for j in range(b - 1, a, -1):
            if OP_LINE.match(lines[j]):
                return lines[:j] + lines[j + 1:]
        return lines
    # keep only the block header(s): blocks without operations
    return lines[:a + 1] + [ln for ln in lines[a + 1:b] if ln.lstrip().startswith("^")] + lines[b:]


def operand_info(line: str):
    """(operand list span, type list span) of a one-line generic op, or None."""
    m = OP_LINE.match(line)
    if not m:
        return None
    ostart = m.end() - 1
    oend = match_close(line, ostart)
    if oend < 0:
        return None
    # the function type: last " : (" at top level
    k = line.rfind(" : (")
    while k > oend:
        tend = match_close(line, k + 3)
        if tend > 0 and line[tend + 1:tend + 5] == " -> ":
            return (ostart, oend), (k + 3, tend)
        k = line.rfind(" : (", 0, k)
    return None


def value_types(lines: list[str]) -> list[tuple[str, str]]:
    pairs = []
    for ln in lines:
        info = operand_info(ln)
        if not info:
            continue
        (os_, oe), (ts, te) = info
        vals = split_top(ln[os_ + 1:oe])
        tys = split_top(ln[ts + 1:te])
        if len(vals) == len(tys):
            pairs.extend((v, t) for v, t in zip(vals, tys) if v.startswith("%"))
    return pairs


def mut_operands(rng: random.Random, lines: list[str]) -> list[str]:
    cands = [i for i, ln in enumerate(lines) if operand_info(ln)]
    if not cands:
        return lines
    i = pick(rng, cands)
    ln = lines[i]
    (os_, oe), (ts, te) = operand_info(ln)
    vals = [v for v in split_top(ln[os_ + 1:oe]) if v]
    tys = [t for t in split_top(ln[ts + 1:te]) if t]
    if len(vals) != len(tys):
        return lines
    op = rng.randrange(3)
    if op == 0 and vals:
        k = rng.randrange(len(vals))
        del vals[k]
        del tys[k]
    else:
        known = value_types(lines[:i])
        if not known:
            return lines
        v, t = pick(rng, known)
        if op == 1 or not vals:
            k = rng.randrange(len(vals) + 1)
            vals.insert(k, v)
            tys.insert(k, t)
        else:
            k = rng.randrange(len(vals))
            vals[k], tys[k] = v, t
    new = ln[:os_ + 1] + ", ".join(vals) + ln[oe:ts + 1] + ", ".join(tys) + ln[te:]
    lines = list(lines)
    lines[i] = new
    return lines


BLOCK_HDR = re.compile(r"^(\s*\^bb\w*\()([^)]*)(\):?)")


def mut_block_args(rng: random.Random, lines: list[str]) -> list[str]:
    cands = [i for i, ln in enumerate(lines) if BLOCK_HDR.match(ln)]
    if not cands:
        return lines
    i = pick(rng, cands)
    m = BLOCK_HDR.match(lines[i])
    args = [a for a in split_top(m.group(2)) if a]
    extra = f"%fzarg{rng.randrange(100)}: " + pick(rng, ["i32", "i64", "f32", "index",
                                                          "tensor<64x64xf32>", "!tt.ptr<f16>"])
    args.insert(rng.randrange(len(args) + 1), extra)
    lines = list(lines)
    lines[i] = m.group(1) + ", ".join(args) + m.group(3) + lines[i][m.end():]
    return lines


OP_NAMES = ["tt.load", "tt.store", "tt.dot", "tt.dot_scaled", "tt.reduce", "tt.splat",
            "tt.broadcast", "tt.expand_dims", "tt.addptr", "tt.make_range", "tt.get_program_id",
            "tt.get_num_programs", "tt.func", "tt.call", "tt.return", "tt.atomic_rmw",
            "scf.for", "scf.if", "scf.while", "scf.yield", "scf.condition", "arith.constant",
            "arith.addi", "arith.muli", "arith.cmpi", "arith.select", "ttg.convert_layout",
            "ttg.local_alloc", "ttg.local_load", "ttg.local_store", "ttg.local_dealloc",
            "ttg.memdesc_index", "ttg.memdesc_subslice", "ttg.memdesc_trans", "ttg.barrier",
            "ttg.async_copy_global_to_local", "ttng.warp_group_dot", "amdg.buffer_load",
            "amdg.in_thread_transpose", "tt.trans", "tt.reshape"]


def mut_rename_op(rng: random.Random, lines: list[str]) -> list[str]:
    """Another operation name: the passes meet known names with unexpected
    operands, results, regions and properties."""
    spans = op_spans(lines)
    if not spans:
        return lines
    a, _ = pick(rng, spans)
    lines = list(lines)
    lines[a] = re.sub(r'"[\w.]+"\(', '"' + pick(rng, OP_NAMES) + '"(', lines[a], count=1)
    return lines


PROPS = re.compile(r"<\{(.*?)\}> :")


def mut_properties(rng: random.Random, lines: list[str]) -> list[str]:
    """Drops an operation's properties, or one of them; or drops a module
    attribute."""
    lines = list(lines)
    if rng.randrange(4) == 0:
        mods = [i for i, ln in enumerate(lines) if ln.lstrip().startswith("module attributes")]
        if mods:
            i = pick(rng, mods)
            m = re.search(r"\{(.*)\}", lines[i])
            if m:
                attrs = split_top(m.group(1))
                if attrs:
                    del attrs[rng.randrange(len(attrs))]
                lines[i] = lines[i][:m.start(1)] + ", ".join(attrs) + lines[i][m.end(1):]
            return lines
    cands = [i for i, ln in enumerate(lines) if PROPS.search(ln)]
    if not cands:
        return lines
    i = pick(rng, cands)
    m = PROPS.search(lines[i])
    if rng.randrange(2):
        lines[i] = lines[i][:m.start()] + ":" + lines[i][m.end():]
    else:
        entries = split_top(m.group(1))
        if entries:
            del entries[rng.randrange(len(entries))]
        lines[i] = lines[i][:m.start(1)] + ", ".join(entries) + lines[i][m.end(1):]
    return lines


def structural(rng: random.Random, text: str) -> str:
    lines = text.splitlines()
    fn = pick(rng, [mut_delete_op, mut_delete_op, mut_duplicate_op, mut_swap_ops, mut_region,
                    mut_region, mut_operands, mut_operands, mut_block_args, mut_rename_op,
                    mut_rename_op, mut_properties, mut_properties])
    return "\n".join(fn(rng, lines)) + "\n"


def truncate(rng: random.Random, text: str) -> str:
    if len(text) < 2:
        return text
    return text[:rng.randrange(1, len(text))]


# --------------------------------------------------------------------------
# Generated modules: valid layouts Triton could produce, in unusual shapes
# --------------------------------------------------------------------------

def _split_pow2(rng: random.Random, total: int, rank: int) -> list[int]:
    """`total` (a power of two) as a product of `rank` random powers of two."""
    out = [1] * rank
    while total > 1:
        out[rng.randrange(rank)] *= 2
        total //= 2
    return out


def _list(xs) -> str:
    return "[" + ", ".join(str(x) for x in xs) + "]"


def gen_blocked(rng: random.Random, rank: int, threads: int, warps: int) -> str:
    order = list(range(rank))
    rng.shuffle(order)
    spt = [pick(rng, [1, 1, 2, 4, 8]) for _ in range(rank)]
    return (f"#ttg.blocked<{{sizePerThread = {_list(spt)}, threadsPerWarp = "
            f"{_list(_split_pow2(rng, threads, rank))}, warpsPerCTA = "
            f"{_list(_split_pow2(rng, warps, rank))}, order = {_list(order)}}}>")


def gen_linear(rng: random.Random, shape: list[int], threads: int, warps: int) -> str:
    """A surjective linear layout onto `shape`: every output bit is some basis
    (in random order), the other bases zero or combinations."""
    rank = len(shape)
    bits = [(d, 1 << b) for d in range(rank) for b in range(shape[d].bit_length() - 1)]
    rng.shuffle(bits)
    n_lane, n_warp = threads.bit_length() - 1, warps.bit_length() - 1
    n_reg = max(0, len(bits) - n_lane - n_warp) + rng.randrange(3)
    bases = []
    for i in range(n_reg + n_lane + n_warp):
        v = [0] * rank
        if i < len(bits):
            d, x = bits[i]
            v[d] = x
        elif bits and rng.randrange(2):
            for d, x in rng.sample(bits, min(len(bits), rng.randrange(1, 3))):
                v[d] ^= x
        bases.append(v)
    rng.shuffle(bases)
    regs, lanes, wps = bases[:n_reg], bases[n_reg:n_reg + n_lane], bases[n_reg + n_lane:]

    def fmt(bs):
        return "[" + ", ".join(_list(b) for b in bs) + "]"

    return (f"#ttg.linear<{{register = {fmt(regs)}, lane = {fmt(lanes)}, warp = {fmt(wps)}, "
            f"block = []}}>")


def gen_mfma(rng: random.Random, warps: int) -> str:
    m = pick(rng, [32, 16])
    version = pick(rng, [2, 3, 4])
    k = {32: 8, 16: 16}[m] * (2 if version == 4 else 1)
    tiles = ", tilesPerWarp = [2, 2]" if rng.randrange(5) == 0 else ""
    return (f"#ttg.amd_mfma<{{version = {version}, warpsPerCTA = {_list(_split_pow2(rng, warps, 2))}, "
            f"instrShape = [{m}, {m}, {k}], isTransposed = {pick(rng, ['true', 'false'])}{tiles}}}>")


def gen_layout(rng: random.Random, shape: list[int], threads: int, warps: int) -> str:
    rank = len(shape)
    kinds = ["blocked", "blocked", "linear", "slice"]
    if rank == 2 and threads == 64:
        kinds += ["mfma", "mfma", "dot"]
    kind = pick(rng, kinds)
    if kind == "linear":
        return gen_linear(rng, shape, threads, warps)
    if kind == "slice":
        dim = rng.randrange(rank + 1)
        return f"#ttg.slice<{{dim = {dim}, parent = {gen_blocked(rng, rank + 1, threads, warps)}}}>"
    if kind == "mfma":
        return gen_mfma(rng, warps)
    if kind == "dot":
        return (f"#ttg.dot_op<{{opIdx = {rng.randrange(2)}, parent = {gen_mfma(rng, warps)}, "
                f"kWidth = {pick(rng, [4, 8, 16])}}}>")
    return gen_blocked(rng, rank, threads, warps)


REDUCE = """    %r = "tt.reduce"(%a) <{{axis = {axis} : i32}}> ({{
    ^bb1(%x: {elem}, %y: {elem}):
      %s = "arith.addf"(%x, %y) <{{fastmath = #arith.fastmath<none>}}> : ({elem}, {elem}) -> {elem}
      "tt.reduce.return"(%s) : ({elem}) -> ()
    }}) : ({t_src}) -> {t_red}"""

MODULE = """module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {warps} : i32, \
ttg.target = "{target}", "ttg.threads-per-warp" = {threads} : i32}} {{
  "tt.func"() <{{function_type = ({t_src}) -> (), sym_name = "generated", sym_visibility = "public"}}> ({{
  ^bb0(%a: {t_src}):
{body}
    "tt.return"() : () -> ()
  }}) : () -> ()
}}
"""


def generate_module(rng: random.Random) -> str:
    """A kernel converting a tensor between two generated layouts, reducing it
    along an axis, and holding a shared buffer: what the LDS model computes
    on, with layouts no lit test has."""
    hip = rng.randrange(4) != 0
    threads = 64 if hip else 32
    warps = pick(rng, [1, 2, 4, 8, 16])
    rank = pick(rng, [1, 2, 2, 2, 3])
    shape = [pick(rng, [1, 2, 4, 16, 32, 64, 128, 256]) for _ in range(rank)]
    while rank > 1 and shape[0] * shape[-1] > 65536:
        shape[0] //= 2
    elem = pick(rng, ["f16", "f32", "bf16", "i8", "i1", "f64", "f8E4M3FN"])
    src, dst = (gen_layout(rng, shape, threads, warps) for _ in range(2))
    dims = "x".join(str(d) for d in shape)
    t_src, t_dst = f"tensor<{dims}x{elem}, {src}>", f"tensor<{dims}x{elem}, {dst}>"
    target = pick(rng, ["hip:gfx90a", "hip:gfx942", "hip:gfx950"]) if hip else "cuda:90"
    body = [f'    %c = "ttg.convert_layout"(%a) : ({t_src}) -> {t_dst}']
    axis = rng.randrange(rank)
    if rank > 1 and rng.randrange(2) and elem in ("f16", "f32", "bf16"):
        red_shape = "x".join(str(d) for i, d in enumerate(shape) if i != axis)
        t_red = f"tensor<{red_shape}x{elem}, #ttg.slice<{{dim = {axis}, parent = {src}}}>>"
        body.append(REDUCE.format(axis=axis, elem=elem, t_src=t_src, t_red=t_red))
    if rng.randrange(2):
        order = list(range(rank))
        rng.shuffle(order)
        md = (f"!ttg.memdesc<{pick(rng, ['', '2x'])}{dims}x{elem}, #ttg.swizzled_shared<{{vec = "
              f"{pick(rng, [1, 4, 8])}, perPhase = {pick(rng, [1, 2])}, maxPhase = {pick(rng, [1, 8])}, "
              f"order = {_list(order)}}}>, #ttg.shared_memory, mutable>")
        body.insert(0, f'    %buf = "ttg.local_alloc"() : () -> {md}')
        body.append(f'    "ttg.local_dealloc"(%buf) : ({md}) -> ()')
    return MODULE.format(warps=warps, target=target, threads=threads, t_src=t_src,
                         body="\n".join(body))


GENERATED_PIPELINES = [
    "mfma-lds-usage{annotate=true}",
    "mfma-print-layouts",
    "mfma-split-epilogue-cvt{lds-limit=1024}",
    "mfma-split-epilogue-cvt{lds-limit=256 max-steps=3}",
]


# --------------------------------------------------------------------------
# Inputs
# --------------------------------------------------------------------------

@dataclasses.dataclass
class Case:
    index: int
    pipeline: str
    text: str


def make_case(seed: int, index: int, seeds: list[str], corpus: list[str]) -> Case:
    rng = random.Random(f"{seed}:{index}")
    if rng.randrange(5) == 0:
        # Generated: valid layouts in unusual combinations, sometimes mutated.
        text = generate_module(rng)
        if rng.randrange(3) == 0:
            text = mut_layout(rng, text, corpus)
        return Case(index, pick(rng, GENERATED_PIPELINES), text)
    text = pick(rng, seeds)
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
        r = rng.randrange(100)
        if r < 45:
            text = mut_layout(rng, text, corpus)
        elif r < 55:
            text = mut_shape(rng, text)
        elif r < 60:
            text = mut_memdesc(rng, text)
        elif r < 70:
            text = mut_scalar(rng, text)
        elif r < 97:
            text = structural(rng, text)
        else:
            text = truncate(rng, text)
    # `// -----` inside an input would split it.
    text = text.replace("// -----", "//")
    pipeline = pick(rng, ODD_PIPELINES) if rng.randrange(10) == 0 else pick(rng, PIPELINES)
    return Case(index, pipeline, text)


# --------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------

@dataclasses.dataclass
class Failure:
    kind: str  # "signal" or "timeout"
    case: Case
    detail: str


def crash_summary(err: str) -> str:
    """The assertion / error line and our frames of an LLVM crash report."""
    lines = err.splitlines()
    head = [ln for ln in lines if "Assertion" in ln or "LLVM ERROR" in ln or "UNREACHABLE" in ln
            or ln.startswith("terminate called")]
    frames = [re.sub(r"^#\d+ 0x[0-9a-f]+ ", "", ln.strip()) for ln in lines
              if "triton_mfma" in ln and re.match(r"\s*#\d+", ln)]
    frames = [f.split(" (/")[0][:160] for f in frames[:4]]
    return " | ".join(head[:1] + frames) or (lines[-1] if lines else "")


def _limit_memory(mem_mb: int):
    def fn():
        b = mem_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (b, b))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return fn


def run_texts(mfma_opt: str, pipeline: str, texts: list[str], timeout: float, mem_mb: int):
    """(kind, detail): kind in ok / signal / timeout."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write("\n// -----\n".join(texts))
        path = f.name
    try:
        args = [mfma_opt, path, "-split-input-file", "-o", os.devnull,
                f"--pass-pipeline=builtin.module({pipeline})"]
        try:
            p = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               timeout=timeout, preexec_fn=_limit_memory(mem_mb))
        except subprocess.TimeoutExpired:
            return "timeout", f"no exit within {timeout:g} s"
        err = p.stderr.decode("utf-8", "replace")
        crashed = p.returncode < 0 or p.returncode not in (0, 1) or any(
            mk in err for mk in CRASH_MARKERS)
        if crashed:
            return "signal", f"rc={p.returncode}: {crash_summary(err)}"
        return "ok", ""
    finally:
        os.unlink(path)


def run_batch(mfma_opt: str, pipeline: str, cases: list[Case], timeout: float, mem_mb: int):
    kind, detail = run_texts(mfma_opt, pipeline, [c.text for c in cases],
                             timeout * max(1, len(cases)) / 4, mem_mb)
    if kind == "ok":
        return []
    failures = []
    for c in cases:
        k, d = run_texts(mfma_opt, pipeline, [c.text], timeout, mem_mb)
        if k != "ok":
            failures.append(Failure(k, c, d))
    if not failures:  # only together (should not happen): report the batch
        failures.append(Failure(kind, cases[0], "batch only: " + detail))
    return failures


@dataclasses.dataclass
class Report:
    inputs: int
    seconds: float
    failures: list[Failure]
    processes: int
    per_pass: dict[str, int]  # inputs whose pipeline runs each pass

    @property
    def signals(self) -> int:
        return sum(f.kind == "signal" for f in self.failures)

    @property
    def timeouts(self) -> int:
        return sum(f.kind == "timeout" for f in self.failures)

    def summary(self) -> str:
        return (f"{self.inputs} inputs, {self.signals} signals, {self.timeouts} timeouts, "
                f"{self.seconds:.1f} s ({self.processes} mfma-opt batches)")


def fuzz(runs: int = 2000, seed: int = 0, jobs: int = 2, batch: int = 25, timeout: float = 20.0,
         mem_mb: int = 4096, start: int = 0, mfma_opt: str | None = None,
         progress: bool = False) -> Report:
    mfma_opt = mfma_opt or find_mfma_opt()
    seeds = load_seeds()
    corpus = layout_corpus(seeds)
    t0 = time.monotonic()
    cases = [make_case(seed, i, seeds, corpus) for i in range(start, start + runs)]
    by_pipeline: dict[str, list[Case]] = {}
    for c in cases:
        by_pipeline.setdefault(c.pipeline, []).append(c)
    batches = [(p, cs[i:i + batch]) for p, cs in by_pipeline.items()
               for i in range(0, len(cs), batch)]
    failures: list[Failure] = []
    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futs = [pool.submit(run_batch, mfma_opt, p, cs, timeout, mem_mb) for p, cs in batches]
        for fut in concurrent.futures.as_completed(futs):
            failures.extend(fut.result())
            done += 1
            if progress and done % 20 == 0:
                print(f"  {done}/{len(batches)} batches, {len(failures)} failures, "
                      f"{time.monotonic() - t0:.0f} s", file=sys.stderr, flush=True)
    failures.sort(key=lambda f: f.case.index)
    per_pass: dict[str, int] = {}
    for c in cases:
        for name in set(re.findall(r"mfma-[a-z-]+", c.pipeline)):
            per_pass[name] = per_pass.get(name, 0) + 1
    return Report(runs, time.monotonic() - t0, failures, len(batches), per_pass)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=int(os.environ.get("TMFMA_FUZZ_RUNS", 2000)))
    ap.add_argument("--seed", type=int, default=int(os.environ.get("TMFMA_FUZZ_SEED", 0)))
    ap.add_argument("--start", type=int, default=0, help="index of the first input")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--batch", type=int, default=25, help="inputs per mfma-opt process")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per input")
    ap.add_argument("--mem-mb", type=int, default=4096, help="address-space limit per process")
    ap.add_argument("--save-dir", help="write each failing input there")
    ap.add_argument("--dump", type=int, metavar="INDEX", help="print input INDEX and exit")
    args = ap.parse_args(argv)
    if args.dump is not None:
        seeds = load_seeds()
        corpus = layout_corpus(seeds)
        c = make_case(args.seed, args.dump, seeds, corpus)
        print(f"// pipeline: builtin.module({c.pipeline})\n{c.text}")
        return 0
    rep = fuzz(args.runs, args.seed, args.jobs, args.batch, args.timeout, args.mem_mb,
               args.start, progress=True)
    for f in rep.failures:
        print(f"[{f.kind}] input {f.case.index} ({f.case.pipeline}): {f.detail}\n")
        if args.save_dir:
            d = Path(args.save_dir)
            d.mkdir(parents=True, exist_ok=True)
            (d / f"{f.kind}-{f.case.index}.mlir").write_text(
                f"// pipeline: builtin.module({f.case.pipeline})\n{f.case.text}")
    print(rep.summary())
    print("inputs per pass: " + ", ".join(f"{k} {v}" for k, v in sorted(rep.per_pass.items())))
    return 1 if rep.failures else 0


if __name__ == "__main__":
    sys.exit(main())
