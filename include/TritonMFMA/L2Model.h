//===- L2Model.h - L2 reuse model for grid ordering -------------*- C++ -*-===//
//
// The model mfma-grid-order decides with (lib/Analysis/L2Model.cpp), the only
// one: Python reaches it through the C API (tmfma_l2_query;
// python/triton_mfma/models/l2model.py), and the pass emits the same formula
// as its run-time guard (stockOrderMisses below, written once for both).
//
// Programs are dispatched in linear order and about P = (programs per CU) x
// CUs of them run at once. A tile read by two programs is served from L2 the
// second time iff the two run at once (distance <= P) or the bytes the
// programs between them stream through L2 fit in the part of L2 a shared tile
// can count on: L2 x effective fraction (TargetInfo.h). On multi-XCD parts
// (gfx942, gfx950) consecutive workgroups go round-robin to the XCDs, so two
// programs only share an L2 when their ids are congruent modulo the XCD count.
//
// Programs per CU at TTGIR (registers are not allocated yet): a LOWER BOUND,
// the least of
//  - registers: every wave fits on its SIMD whatever its registers, so at
//    least SIMDs x (register file / the most registers a wave may have)
//    waves per CU are resident (CDNA: 4 x 512/512 = 4 waves; H100/H200:
//    4 x 512/256 = 8 warps), i.e. max(1, that / warps per program) programs;
//  - LDS / shared memory, exact: the kernel's allocation (the LDS model,
//    LDSModel.h, which equals Triton's; else the sum of its local_allocs) in
//    the target's granules, plus what the system reserves per program;
//  - the workgroup slots of a CU.
// A lower bound on P is the safe direction for the run-time guard: it can
// only make the guard say "more than one wave" where the grid in fact runs in
// one, and remapping programs that all run at once costs the index arithmetic
// and nothing else (the order among co-resident programs does not change
// which tiles L2 holds). Overstating P would decline launches that need the
// new order. A caller that knows the compiled kernel's residency passes it
// (mfma-grid-order's `programs-per-cu`).
// On cuda:90 the premise fails: a remap of a launch that fits one wave at
// its real residency measured 0.98x on an H200 (issue 38), so there the wave
// test counts the programs that may run at once, an UPPER bound (the warp
// slots instead of registers; TargetL2Model::wavesAtMost): a launch the
// model cannot show to need two waves keeps its order.
//
//===----------------------------------------------------------------------===//
#ifndef TRITONMFMA_L2MODEL_H
#define TRITONMFMA_L2MODEL_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace mlir::triton_mfma {

/// Bit set over grid dimensions (ProgramAxes.h).
using DimMask = uint32_t;

/// Programs per CU and what bounds them (programsPerCU).
struct Residency {
  int64_t byRegisters = 0; ///< lower bound: waves resident whatever their
                           ///< registers, over the program's warps
  int64_t byShared = 0;    ///< exact, from the program's LDS / shared memory
  int64_t bySlots = 0;     ///< workgroup (block) slots
  int64_t programs = 0;    ///< the least of the three (at least 1)
  /// "registers", "LDS" or "workgroup slots": the bound that gave `programs`.
  const char *limiter = "registers";
};

struct TargetL2Model {
  std::string target;       ///< "cuda:90", "hip:gfx942", ...
  std::string device;       ///< what the figures are for
  int64_t l2Bytes = 0;      ///< one L2 (per XCD on multi-XCD parts)
  double l2Effective = 0.5; ///< fraction a shared tile can count on
  int cus = 0;              ///< CUs / SMs of the whole device
  int xcds = 1;             ///< L2 domains workgroups are spread over
  /// Warps per CU resident whatever their registers (each with the most
  /// registers a wave may have).
  int residentWarps = 0;
  /// Warps per CU resident at most (each with the fewest registers): the
  /// upper bound's register part (programsAtMost).
  int maxResidentWarps = 0;
  /// The run-time guard's wave test counts the programs that may run at once
  /// (an upper bound) instead of those that surely do (the lower bound):
  /// where the remap of a launch that fits one wave costs (cuda:90, see
  /// GridOrder.cpp).
  bool wavesAtMost = false;
  int64_t sharedPerCU = 0;  ///< shared memory / LDS per CU
  int64_t sharedReservedPerProgram = 0;
  int64_t sharedGranule = 1; ///< allocation granule of a program's LDS
  int maxProgramsPerCU = 0;  ///< hardware workgroup / block slots per CU

  int64_t effectiveL2Bytes() const {
    return static_cast<int64_t>(static_cast<double>(l2Bytes) * l2Effective);
  }
  /// Programs of `numWarps` warps using `sharedBytes` of LDS that fit on
  /// one CU: a lower bound (see the header), with the bound that gives it.
  Residency residency(int numWarps, int64_t sharedBytes) const;
  /// Programs that may be resident on one CU at most: registers at their
  /// fewest (the warp slots), LDS exact, workgroup slots.
  Residency programsAtMost(int numWarps, int64_t sharedBytes) const;
  int64_t programsPerCU(int numWarps, int64_t sharedBytes) const {
    return residency(numWarps, sharedBytes).programs;
  }
  /// P: programs running at once on the whole device (at least).
  int64_t concurrentPrograms(int numWarps, int64_t sharedBytes) const {
    return programsPerCU(numWarps, sharedBytes) * cus;
  }
};

/// The model for a `ttg.target` string ("cuda:90", "hip:gfx942", ...) from
/// its TargetInfo; nullopt for targets without L2 figures.
std::optional<TargetL2Model> lookupL2Model(llvm::StringRef target);
/// lookupL2Model, or the assumptions for an unknown target (no L2 or CU
/// figures: the pass options supply them).
TargetL2Model getL2Model(llvm::StringRef target);

/// The parts of the stock order's verdict (see stockOrderMisses).
template <typename V> struct StockOrderGuard {
  V totalPrograms; ///< programs in the grid
  V streamedBytes; ///< bytes streamed between the twin reads
  V waves;         ///< more than one wave: totalPrograms > concurrent
  V exceeds;       ///< streamedBytes > threshold
  V twins;         ///< the twins' dimension has more than one program
  V misses;        ///< the verdict: waves, exceeds and twins
};

/// The stock order's verdict, written once over an arithmetic `A` that
/// provides `Value`, `constant(int64_t)`, `widen(Value)` (to 64 bits),
/// `mul`, `add`, `greater` (signed) and `both` (and): evaluated on integers
/// (evaluateStockOrderMisses, the C API) or emitted as IR (mfma-grid-order's
/// run-time guard, which emits its two tests in two nested branches).
///
/// In the stock order the twin read of the heavy operand's tile is
/// `distance` programs later: the product of the sizes of the grid
/// dimensions faster than `farDim` (the dimension the twins differ in). It
/// misses L2 iff the grid needs more than one wave (`total` programs, more
/// than `concurrent`: in one wave all start together) and the bytes streamed
/// in between (each operand's bytes per program times the number of its
/// distinct tiles among those programs: the sizes of the dimensions faster
/// than `farDim` that move it) exceed `threshold` (the effective L2), and
/// only where there are twins at all (`twins`: more than one program along
/// `farDim`, which the caller tests; a split-K decode launch with one M tile
/// shares no weight tile, and remapping it cost 1-2% on an H200). Only
/// `sizes[0 .. farDim)` are read.
///
/// The launch test (waves and twins) reads the grid size only; the bytes
/// test reads the kernel's arguments (trip counts). The guard runs the launch
/// test first, alone in front of its branch: a launch that fits one wave,
/// where the guard's cost was measured (short decode programs on an H200,
/// 1-2%), waits for the fewest instructions before its first load.
template <typename A>
typename A::Value stockOrderLaunchTest(A &a, typename A::Value total,
                                       int64_t concurrent,
                                       typename A::Value twins,
                                       typename A::Value *waves = nullptr) {
  typename A::Value w = a.greater(total, a.constant(concurrent));
  if (waves)
    *waves = w;
  return a.both(w, twins);
}

/// The bytes test: {bytes streamed between the twin reads, > threshold}.
template <typename A>
std::pair<typename A::Value, typename A::Value>
stockOrderBytesTest(A &a, ArrayRef<typename A::Value> sizes, unsigned farDim,
                    unsigned numOperands,
                    function_ref<typename A::Value(unsigned)> operandBytes,
                    function_ref<DimMask(unsigned)> moved, int64_t threshold) {
  using V = typename A::Value;
  // Each operand's bytes times the product of its sizes (the product first:
  // it does not wait for the trip counts, so the emitted guard is shallower).
  V streamed = a.constant(0);
  for (unsigned o = 0; o < numOperands; ++o) {
    std::optional<V> tiles;
    for (unsigned i = 0; i < farDim; ++i)
      if (moved(o) & (DimMask(1) << i))
        tiles = tiles ? a.mul(*tiles, a.widen(sizes[i])) : a.widen(sizes[i]);
    V bytes = operandBytes(o);
    streamed = a.add(streamed, tiles ? a.mul(bytes, *tiles) : bytes);
  }
  return {streamed, a.greater(streamed, a.constant(threshold))};
}

/// Both tests and the verdict.
template <typename A>
StockOrderGuard<typename A::Value>
stockOrderMisses(A &a, typename A::Value total,
                 ArrayRef<typename A::Value> sizes, unsigned farDim,
                 unsigned numOperands,
                 function_ref<typename A::Value(unsigned)> operandBytes,
                 function_ref<DimMask(unsigned)> moved, int64_t concurrent,
                 int64_t threshold, typename A::Value twins) {
  typename A::Value waves;
  typename A::Value launch =
      stockOrderLaunchTest(a, total, concurrent, twins, &waves);
  auto [streamed, exceeds] = stockOrderBytesTest(
      a, sizes, farDim, numOperands, operandBytes, moved, threshold);
  return {total, streamed, waves, exceeds, twins, a.both(launch, exceeds)};
}

/// The parts of the multi-XCD verdict (see sharedBytesExceedL2).
template <typename V> struct SharedFootprint {
  V distinctBytes; ///< distinct bytes of the shared operands
  V exceeds;       ///< the verdict
};

/// Multi-XCD targets: programs that share tiles land on different XCDs in
/// hardware order, so each XCD reads the shared tiles its programs use into
/// its own L2. When the shared operands' distinct bytes (each operand's bytes
/// per program times the number of its distinct tiles: the product of the
/// sizes of the dimensions that move it) fit one XCD's effective L2
/// (`threshold`), every XCD reads each of them from beyond its L2 at most
/// once whatever the order, so the XCD remap saves at most (XCDs - 1) x
/// those bytes, served by the Infinity Cache: not worth its arithmetic. The
/// remap pays iff they exceed it. Written over the same arithmetic as
/// stockOrderMisses.
template <typename A>
SharedFootprint<typename A::Value>
sharedBytesExceedL2(A &a, ArrayRef<typename A::Value> sizes,
                    unsigned numOperands,
                    function_ref<typename A::Value(unsigned)> operandBytes,
                    function_ref<DimMask(unsigned)> moved, int64_t threshold) {
  using V = typename A::Value;
  V distinct = a.constant(0);
  for (unsigned o = 0; o < numOperands; ++o) {
    std::optional<V> tiles;
    for (unsigned i = 0; i < sizes.size(); ++i)
      if (moved(o) & (DimMask(1) << i))
        tiles = tiles ? a.mul(*tiles, a.widen(sizes[i])) : a.widen(sizes[i]);
    V bytes = operandBytes(o);
    distinct = a.add(distinct, tiles ? a.mul(bytes, *tiles) : bytes);
  }
  return {distinct, a.greater(distinct, a.constant(threshold))};
}

/// One operand of a stock-order query: bytes per program and the grid
/// dimensions that move it.
struct L2Operand {
  int64_t bytes = 0;
  DimMask moved = 0;
};

/// stockOrderMisses on integers (64-bit, wrapping, as the emitted guard
/// computes) for a grid of `sizes` (total: their product); the verdicts are
/// 0 or 1.
StockOrderGuard<int64_t> evaluateStockOrderMisses(ArrayRef<int64_t> sizes,
                                                  unsigned farDim,
                                                  ArrayRef<L2Operand> operands,
                                                  int64_t concurrent,
                                                  int64_t threshold);

/// sharedBytesExceedL2 on integers (64-bit, wrapping); `exceeds` is 0 or 1.
SharedFootprint<int64_t>
evaluateSharedBytesExceedL2(ArrayRef<int64_t> sizes,
                            ArrayRef<L2Operand> operands, int64_t threshold);

/// The C API's query (tmfma_l2_query): a JSON object in, a JSON object out
/// (see CAPI.h for the fields); {"error": ...} for a bad request.
std::string queryL2Model(llvm::StringRef requestJSON);

} // namespace mlir::triton_mfma

#endif // TRITONMFMA_L2MODEL_H
