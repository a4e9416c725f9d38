//===- L2Model.h - L2 reuse model for grid ordering -------------*- C++ -*-===//
//
// The model mfma-grid-order decides with (lib/Analysis/L2Model.cpp), the only
// one: Python reaches it through the C API (tmfma_l2_query;
// python/triton_mfma/l2model.py), and the pass emits the same formula as its
// run-time guard (stockOrderMisses below, written once for both).
//
// Programs are dispatched in linear order and about P = (programs per CU) x
// CUs of them run at once. A tile read by two programs is served from L2 the
// second time iff the two run at once (distance <= P) or the bytes the
// programs between them stream through L2 fit in the part of L2 a shared tile
// can count on: L2 x effective fraction (TargetInfo.h). On multi-XCD parts
// (gfx942, gfx950) consecutive workgroups go round-robin to the XCDs, so two
// programs only share an L2 when their ids are congruent modulo the XCD count.
//
// Programs per CU at TTGIR (registers are not allocated yet): warps resident
// per CU assuming 128 registers per thread (SIMDs x min(waves per SIMD,
// register file / 128): 16 on CDNA and on the H100), then limited by shared
// memory / LDS (the sum of the kernel's ttg.local_alloc buffers, in the
// target's allocation granules, plus what the system reserves per program)
// and by the workgroup slots.
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

namespace mlir::triton_mfma {

/// Bit set over grid dimensions (ProgramAxes.h).
using DimMask = uint32_t;

/// Registers per thread the model assumes before register allocation.
inline constexpr int kAssumedRegistersPerThread = 128;

struct TargetL2Model {
  std::string target;       ///< "cuda:90", "hip:gfx942", ...
  std::string device;       ///< what the figures are for
  int64_t l2Bytes = 0;      ///< one L2 (per XCD on multi-XCD parts)
  double l2Effective = 0.5; ///< fraction a shared tile can count on
  int cus = 0;              ///< CUs / SMs of the whole device
  int xcds = 1;             ///< L2 domains workgroups are spread over
  int residentWarps = 0;    ///< warps per CU under the register assumption
  int64_t sharedPerCU = 0;  ///< shared memory / LDS per CU
  int64_t sharedReservedPerProgram = 0;
  int64_t sharedGranule = 1; ///< allocation granule of a program's LDS
  int maxProgramsPerCU = 0;  ///< hardware workgroup / block slots per CU

  int64_t effectiveL2Bytes() const {
    return static_cast<int64_t>(static_cast<double>(l2Bytes) * l2Effective);
  }
  /// Programs of `numWarps` warps using `sharedBytes` that fit on one CU.
  int64_t programsPerCU(int numWarps, int64_t sharedBytes) const;
  /// P: programs running at once on the whole device.
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
  V misses;        ///< the verdict
};

/// The stock order's verdict, written once over an arithmetic `A` that
/// provides `Value`, `constant(int64_t)`, `widen(Value)` (to 64 bits),
/// `mul`, `add`, `greater` (signed) and `both` (and): evaluated on integers
/// (evaluateStockOrderMisses, the C API) or emitted as IR (mfma-grid-order's
/// run-time guard).
///
/// In the stock order the twin read of the heavy operand's tile is
/// `distance` programs later: the product of the sizes of the grid
/// dimensions faster than `farDim` (the dimension the twins differ in). It
/// misses L2 iff the grid needs more than one wave (more than `concurrent`
/// programs: in one wave all start together) and the bytes streamed in
/// between (each operand's bytes per program times the number of its
/// distinct tiles among those programs: the sizes of the dimensions faster
/// than `farDim` that move it) exceed `threshold` (the effective L2).
template <typename A>
StockOrderGuard<typename A::Value>
stockOrderMisses(A &a, ArrayRef<typename A::Value> sizes, unsigned farDim,
                 unsigned numOperands,
                 function_ref<typename A::Value(unsigned)> operandBytes,
                 function_ref<DimMask(unsigned)> moved, int64_t concurrent,
                 int64_t threshold) {
  using V = typename A::Value;
  V total = a.constant(1);
  for (V size : sizes)
    total = a.mul(total, a.widen(size));
  V streamed = a.constant(0);
  for (unsigned o = 0; o < numOperands; ++o) {
    V bytes = operandBytes(o);
    for (unsigned i = 0; i < farDim; ++i)
      if (moved(o) & (DimMask(1) << i))
        bytes = a.mul(bytes, a.widen(sizes[i]));
    streamed = a.add(streamed, bytes);
  }
  V waves = a.greater(total, a.constant(concurrent));
  V fits = a.greater(streamed, a.constant(threshold));
  return {total, streamed, a.both(waves, fits)};
}

/// One operand of a stock-order query: bytes per program and the grid
/// dimensions that move it.
struct L2Operand {
  int64_t bytes = 0;
  DimMask moved = 0;
};

/// stockOrderMisses on integers (64-bit, wrapping, as the emitted guard
/// computes); `misses` is 0 or 1.
StockOrderGuard<int64_t> evaluateStockOrderMisses(ArrayRef<int64_t> sizes,
                                                  unsigned farDim,
                                                  ArrayRef<L2Operand> operands,
                                                  int64_t concurrent,
                                                  int64_t threshold);

/// The C API's query (tmfma_l2_query): a JSON object in, a JSON object out
/// (see CAPI.h for the fields); {"error": ...} for a bad request.
std::string queryL2Model(llvm::StringRef requestJSON);

} // namespace mlir::triton_mfma

#endif // TRITONMFMA_L2MODEL_H
