"""The L2 model of mfma-grid-order as Python sees it, and the bench's speedup predictions.

The decision is the C++ one (lib/Analysis/L2Model.cpp, reached through the C API: `native.l2_query`), the
same the pass emits as its run-time guards; nothing here re-implements it:
  * `Target.programs_per_cu` / `concurrent_programs`: P = programs per CU x CUs that run at once, programs per CU
    the model's bound at TTGIR (`Target.residency`: LDS exact, workgroup slots, and registers: a lower bound on
    CDNA, every wave with the most registers; an upper bound on cuda:90, the warp slots; see L2Model.h).
  * `stock_order_misses`: does the twin read of the heavy operand miss L2 in the stock order (single-L2 targets)?
  * `shared_bytes_exceed_l2`: do the shared operands' distinct bytes exceed one XCD's effective L2 (multi-XCD
    targets: the XCD remap pays)?
For a compiled kernel and a launch, `triton_mfma.grid_order_decision` (grid.py) answers from the kernel itself.
Figures come from the C++ target description (lib/Analysis/TargetInfo.cpp: `native.target_info`).

PREDICTIONS (below `stock_order_misses`; the bench prints them next to measurements, no pass uses them): a
memory-bound kernel's time is its DRAM traffic over the DRAM bandwidth (on MI300X also Infinity-Cache traffic over
its bandwidth, the larger of the two); a GEMM's time is max(FLOPs / achievable peak, DRAM traffic / bandwidth).
Only ratios are printed; absolute times are not claimed.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..ir import native


@dataclass(frozen=True)
class Target:
    name: str
    device: str
    l2_bytes: int  # one L2 (per XCD on multi-XCD parts)
    l2_effective: float  # fraction a shared tile can count on
    cus: int
    xcds: int
    shared_per_cu: int
    shared_reserved: int
    resident_warps: int  # warps per CU resident whatever their registers (the bound's register part)
    max_programs_per_cu: int
    # prediction-only figures (not used by the pass)
    dram_bw: float  # bytes/s
    mall_bytes: int  # Infinity Cache (MI300X), shared by all XCDs
    mall_bw: float
    fp16_flops: float  # dense peak, FLOP/s
    achievable: float  # fraction of the peak a Triton GEMM reaches

    @property
    def effective_l2(self) -> int:
        return int(self.l2_bytes * self.l2_effective)

    def _query(self, num_warps: int, shared_bytes: int, grid: dict | None = None) -> dict:
        request = {"target": self.name, "num_warps": num_warps, "shared_bytes": shared_bytes}
        if grid is not None:
            request["grid"] = grid
        return native.l2_query(request)

    def programs_per_cu(self, num_warps: int, shared_bytes: int) -> int:
        return self._query(num_warps, shared_bytes)["programs_per_cu"]

    def residency(self, num_warps: int, shared_bytes: int) -> dict:
        """The lower bound on programs per CU and its parts: programs_by_registers, programs_by_shared,
        programs_by_slots, programs_limiter ("registers", "LDS", "workgroup slots"), programs_per_cu."""
        q = self._query(num_warps, shared_bytes)
        return {k: q[k] for k in ("programs_by_registers", "programs_by_shared", "programs_by_slots",
                                  "programs_limiter", "programs_per_cu")}

    def concurrent_programs(self, num_warps: int, shared_bytes: int) -> int:
        return self._query(num_warps, shared_bytes)["concurrent_programs"]


_TARGETS: dict[str, Target] | None = None


def _targets() -> dict[str, Target]:
    global _TARGETS
    if _TARGETS is None:
        out = {}
        for t in native.target_info():
            m = native.l2_query({"target": t["target"]})
            out[t["target"]] = Target(t["target"], t["device"], m["l2_bytes"], float(m["l2_effective"]), m["cus"], m["xcds"],
                                      m["shared_per_cu"], m["shared_reserved_per_program"], m["resident_warps"],
                                      m["max_programs_per_cu"], dram_bw=float(t["dram_bandwidth"]),
                                      mall_bytes=t["mall_bytes"], mall_bw=float(t["mall_bandwidth"]),
                                      fp16_flops=float(t["fp16_flops"]), achievable=float(t["achievable"]))
        _TARGETS = out
    return _TARGETS


def __getattr__(name: str):
    if name == "TARGETS":  # {"cuda:90": Target, "hip:gfx942": ...}, read from the library on first use
        return dict(_targets())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def stock_order_misses(target: Target, sizes_fastest_first, far_dim: int, operands, num_warps: int,
                       shared_bytes: int) -> bool:
    """The run-time guard (the C++ L2 model's verdict): does the twin read of the heavy operand miss L2 in the stock
    order?

    sizes_fastest_first: grid dimension sizes in hardware order; far_dim: index of the dimension the twins differ
    in; operands: [(bytes_per_program, set of dimension indices that move it)]."""
    grid = {"sizes": list(sizes_fastest_first), "far_dim": far_dim,
            "operands": [{"bytes": b, "moved": sorted(moved)} for b, moved in operands]}
    return target._query(num_warps, shared_bytes, grid)["misses"]


def shared_bytes_exceed_l2(target: Target, sizes, operands) -> bool:
    """The multi-XCD guard (the C++ L2 model's verdict): do the shared operands' distinct bytes (bytes per program
    times the sizes of the dimensions that move each) exceed one XCD's effective L2?

    sizes: grid dimension sizes in hardware order; operands: [(bytes_per_program, set of dimension indices that
    move it)]."""
    xcd = {"sizes": list(sizes), "operands": [{"bytes": b, "moved": sorted(moved)} for b, moved in operands]}
    return native.l2_query({"target": target.name, "xcd": xcd})["exceeds"]


# ---------------------------------------------------------------------------------------------------------------
# PREDICTIONS (bench only). Assumption: of the Infinity Cache (target.mall_bytes) 0.75 counts as capacity for an
# operand's re-reads (other traffic, set conflicts), as the L2 model counts its effective fraction.
MALL_USABLE = 0.75

# Split-K decode GEMM: A [M, K] fp16, W [K, N] fp16, partials [SPLIT_K, M, N] fp32; grid (N tiles, SPLIT_K, M tiles)
# in the slow order.

@dataclass(frozen=True)
class DecodeConfig:
    M: int
    N: int
    K: int
    BLOCK_M: int = 32
    BLOCK_N: int = 64
    BLOCK_K: int = 64
    SPLIT_K: int = 8
    num_warps: int = 4
    stages: int = 3  # loads in flight per operand on cuda: stages - 1 in the prologue

    @property
    def grid(self):
        return (math.ceil(self.N / self.BLOCK_N), self.SPLIT_K, math.ceil(self.M / self.BLOCK_M))

    @property
    def trips(self) -> int:
        return math.ceil(self.K / (self.BLOCK_K * self.SPLIT_K))

    @property
    def w_bytes(self) -> int:
        return self.K * self.N * 2

    def per_program(self):
        """(A bytes, W bytes) one program reads, counted as the pass counts them on the pipelined TTGIR: one tile
        per iteration (the prologue's loads are the first iterations', masked by the trip count)."""
        return (self.BLOCK_M * self.BLOCK_K * 2 * self.trips, self.BLOCK_K * self.BLOCK_N * 2 * self.trips)

    def shared_bytes(self) -> int:
        return max(1, self.stages - 1) * (self.BLOCK_M * self.BLOCK_K + self.BLOCK_K * self.BLOCK_N) * 2


def decode_guard(target: Target, c: DecodeConfig) -> bool:
    """What the pass's run-time guard decides for the slow-order decode kernel (dims n, k, m; twins differ in m)."""
    a, w = c.per_program()
    return stock_order_misses(target, c.grid, 2, [(a, {1, 2}), (w, {0, 1})], c.num_warps, c.shared_bytes())


def _decode_time(target: Target, c: DecodeConfig, w_dram_reads: float, w_mall_reads: float = 0.0) -> float:
    other = c.M * c.K * 2 + c.SPLIT_K * c.M * c.N * 4
    dram = w_dram_reads * c.w_bytes + other
    t = dram / target.dram_bw
    if target.mall_bw:
        t = max(t, (w_mall_reads * c.w_bytes + other) / target.mall_bw)
    return t


def predict_decode(target: Target, c: DecodeConfig, remapped: bool) -> float:
    """Predicted time (s) of the slow-order decode kernel, stock or with the pass."""
    m_tiles = c.grid[2]
    if target.xcds > 1:
        # Hardware order: twins are on different XCDs (different L2s) whatever the distance; the Infinity Cache
        # catches the re-reads while W fits in it. With the pass: XCD chunks + M fastest, twins share an L2.
        if remapped and shared_bytes_exceed_l2(target, c.grid, [(c.per_program()[1], {0, 1})]):
            return _decode_time(target, c, 1.0, 1.0)
        if c.w_bytes <= MALL_USABLE * target.mall_bytes:
            return _decode_time(target, c, 1.0, m_tiles)
        return _decode_time(target, c, m_tiles, m_tiles)
    if remapped and decode_guard(target, c):
        return _decode_time(target, c, 1.0)
    misses = decode_guard(target, c)  # the stock order's twin read misses exactly when the guard fires
    return _decode_time(target, c, m_tiles if misses else 1.0)


# ---------------------------------------------------------------------------------------------------------------
# 2-D GEMM on a 1-D grid: row-major tile order (N tiles fast) vs GROUP_M grouped order.

@dataclass(frozen=True)
class GemmConfig:
    M: int
    N: int
    K: int
    BLOCK_M: int = 128
    BLOCK_N: int = 128
    BLOCK_K: int = 64
    num_warps: int = 4
    stages: int = 3
    group: int = 8

    def shared_bytes(self) -> int:
        return self.stages * (self.BLOCK_M + self.BLOCK_N) * self.BLOCK_K * 2


def predict_gemm(target: Target, c: GemmConfig, grouped: bool) -> float:
    """Predicted time (s) = max(FLOPs at the achievable peak, DRAM traffic / bandwidth[, Infinity-Cache traffic /
    its bandwidth]).

    Programs of equal length run in waves of P (P = programs at once): a wave starts together and walks K
    together. A tile's twin read d programs later is therefore
      * in the same wave with probability 1 - d/P (d < P): the two programs read each K slice at about the same
        time, a hit (a wave's working set per K step is small);
      * otherwise in a later wave: between the two reads the machine streams the distinct panels of
        max(d, P) programs (a whole wave at least); a hit iff they fit in the effective L2.
    So a twin read misses with probability f(d) = min(d, P)/P x [distinct(max(d, P)) > effective L2], and an
    operand with n twins per tile is read 1 + (n - 1) f(d) times.
    Row-major (N tiles fast): A's twins are adjacent, B's n_n apart. Grouped (GROUP_M, M fastest in groups of
    `group` rows): B's twins are adjacent inside a group and `group` x n_n apart across groups, A's `group`
    apart. Multi-XCD parts: each XCD is a machine of P/xcds programs with its own L2 (the pass gives each XCD a
    contiguous chunk of the grouped order; in row-major each XCD sees every 8th column).
    (An earlier version spread program starts evenly instead of in waves; it predicted the plain order 0.86x of
    grouped for the H200 8192^3 bench GEMM, measured 0.99-1.00x.)"""
    n_m, n_n = math.ceil(c.M / c.BLOCK_M), math.ceil(c.N / c.BLOCK_N)
    a_bytes, b_bytes, c_bytes = c.M * c.K * 2, c.K * c.N * 2, c.M * c.N * 2
    panel_a, panel_b = c.K * c.BLOCK_M * 2, c.K * c.BLOCK_N * 2
    p = target.concurrent_programs(c.num_warps, c.shared_bytes())
    cols = n_n
    if target.xcds > 1:
        p = max(1, p // target.xcds)
        if not grouped:
            cols = max(1, n_n // target.xcds)

    def distinct(w):
        if grouped:
            return min(c.group, n_m, w) * panel_a + min(cols, w / c.group + 1) * panel_b
        return min(n_m, w / cols + 1) * panel_a + min(w, cols) * panel_b

    def miss(d):
        return min(d, p) / p * (distinct(max(d, p)) > target.effective_l2)

    if grouped:
        g = min(c.group, n_m)
        groups = math.ceil(n_m / c.group)
        b_reads = 1 + (groups - 1) * miss(c.group * cols) + groups * (g - 1) * miss(1)
        a_reads = 1 + (n_n - 1) * miss(g)
    else:
        b_reads = 1 + (n_m - 1) * miss(cols)
        a_reads = 1 + (n_n - 1) * miss(1)
    l2_misses = a_reads * a_bytes + b_reads * b_bytes + c_bytes
    dram = l2_misses
    t = 0.0
    if target.mall_bytes:  # re-reads of an operand that fits in the Infinity Cache come from there
        fits = max(a_bytes, b_bytes) <= MALL_USABLE * target.mall_bytes
        dram = a_bytes + b_bytes + c_bytes if fits else l2_misses
        t = l2_misses / target.mall_bw
    flops = 2.0 * c.M * c.N * c.K
    return max(flops / (target.fp16_flops * target.achievable), dram / target.dram_bw, t)
