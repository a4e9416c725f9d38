"""The project's bench suite: the configurations every whole-project bench compiles (defaults vs stock, compile
time), on gfx90a, gfx942 and gfx950.

GEMMs with 16..256 tiles (f16, bf16, num_stages 2 and 3), split-K decode GEMMs with M = 1..64 (atomic and
deterministic, in both grid orders), GEMMs on a 1-D grid in row-major and hand-grouped order, flash attention
forward D = 64/128, causal or not, in several tile shapes and with waves_per_eu 0/2/3, and kernels without a dot
(softmax, layernorm, a row reduction, elementwise kernels with masks, `scf.if` and `tl.assume`).
"""
from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field

from triton_mfma.examples import CORPUS
from triton_mfma.examples import kernels as K

ARCHS = ("gfx90a", "gfx942", "gfx950")


@dataclass(frozen=True)
class Config:
    name: str
    fn: object = field(repr=False)
    signature: dict = field(repr=False)
    constexprs: dict = field(repr=False)
    options: dict = field(default_factory=dict)  # Triton compile options (num_warps, num_stages, waves_per_eu)
    kind: str = ""  # gemm / splitk / decode / gemm1d / attn / nodot

    @property
    def has_dot(self) -> bool:
        return self.kind != "nodot"


def configs() -> list[Config]:
    out = []
    for bm, bn, bk in [(16, 16, 64), (32, 32, 64), (64, 64, 32), (64, 128, 64), (128, 128, 32), (128, 128, 64),
                       (128, 256, 32), (256, 128, 32), (256, 256, 32)]:
        out.append(Config(f"gemm f16 {bm}x{bn}x{bk}", K.matmul, K._gemm_sig(),
                          dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk), kind="gemm"))
    out.append(Config("gemm bf16 128x128x64", K.matmul, K._gemm_sig("*bf16", "*fp16"),
                      dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64), kind="gemm"))
    for bm, bn, bk in [(128, 128, 64), (64, 128, 64)]:
        out.append(Config(f"gemm f16 {bm}x{bn}x{bk} 3 stages", K.matmul, K._gemm_sig(),
                          dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk), dict(num_stages=3), kind="gemm"))
    fn, sig, _ = CORPUS["splitk_gemm"]
    for m in (1, 4, 16, 64):
        out.append(Config(f"splitk M={m} 64x64x64 sk4", fn, sig, dict(BLOCK_M=m, BLOCK_N=64, BLOCK_K=64, SPLIT_K=4),
                          kind="splitk"))
    for name in ("splitk_decode_slow", "splitk_decode_fast"):
        fn, sig, cx = K.GRID_ORDER_KERNELS[name]
        out.append(Config(name.replace("_", " "), fn, sig, cx, kind="decode"))
    for name in ("matmul_1d", "matmul_1d_grouped"):
        fn, sig, cx = K.GRID_ORDER_KERNELS[name]
        out.append(Config(name.replace("_", " "), fn, sig, cx, kind="gemm1d"))
    for d, causal, bm, bn in [(64, False, 128, 64), (64, True, 128, 64), (128, False, 128, 64), (128, True, 128, 64),
                              (64, False, 128, 32), (128, False, 256, 32), (128, False, 128, 32)]:
        fn, sig, cx = K._attn(d, causal, bm, bn)
        base = f"attn D{d} {bm}x{bn}{' causal' if causal else ''}"
        waves = (0, 2, 3) if (d, bm, bn) in ((64, 128, 64), (128, 128, 32)) else (0,)
        for w in waves:
            out.append(Config(base + (f" wpe{w}" if w else ""), fn, sig, cx, dict(waves_per_eu=w) if w else {},
                              kind="attn"))
    for name in ("softmax", "layernorm", "row_sum", "masked_relu", "scale_if", "hinted_copy"):
        fn, sig, cx = CORPUS[name]
        out.append(Config(name, fn, sig, cx, kind="nodot"))
    return out


def decisions(md) -> dict:
    """What each pass decided for a compiled kernel (its metadata), in short: the benches' decision columns."""
    out = {}
    for key, short in (("triton_mfma_accelerate_dot", "dot"), ("triton_mfma_stream_pipeline", "pipe"),
                       ("triton_mfma_grid_order", "grid")):
        d = getattr(md, key, None)
        if d:
            out[short] = d.get("decision")
    w = getattr(md, "triton_mfma_waves_per_eu", None)
    if w:
        out["wpe"] = w.get("chosen")
    summary = getattr(md, "triton_mfma", None) or {}
    if "grid" not in out and "mfma-grid-order" in summary:
        out["grid"] = summary["mfma-grid-order"].split(":")[0]
    return out


class Report:
    """Lines printed as they come and kept, and rows: written to <out>.txt and <out>.json at the end."""

    def __init__(self):
        self.lines, self.rows = [], []

    def emit(self, s: str = "") -> None:
        print(s, flush=True)
        self.lines.append(s)

    def write(self, out: str) -> None:
        os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
        with open(out + ".txt", "w") as f:
            f.write("\n".join(self.lines) + "\n")
        from record import write_json

        write_json(out + ".json", self.rows, indent=1, default=str)


def add_option_argument(ap) -> None:
    """`--option KEY=VALUE` (repeatable): an option of `triton_mfma.enabled` for every triton-mfma compile of a
    bench (what a decision's check costs or changes, e.g. `verify_grid_order=False`)."""
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="an option of triton_mfma.enabled for every triton-mfma compile (a Python literal value)")


def parsed_options(args) -> dict:
    """The `--option` values as keyword arguments of `triton_mfma.enabled`."""
    return {k: ast.literal_eval(v) for k, _, v in (kv.partition("=") for kv in args.option)}


def options_text(args) -> str:
    """The `--option` arguments as they were given, for a bench's reproduce line."""
    return "".join(f" --option {kv}" for kv in args.option)


def without_debug_lines(amdgcn: str) -> str:
    """amdgcn without its debug line directives: stock Triton's own compiles of some kernels differ there alone
    (`.loc 1 46 18` against `.loc 1 0 5 is_stmt 0`)."""
    return "\n".join(line for line in amdgcn.splitlines() if not line.lstrip().startswith(".loc"))
