//===- ProgramAxes.h - which program-id axes move which loads ---*- C++ -*-===//
//
// Analysis behind mfma-grid-order (lib/Analysis/ProgramAxes.cpp).
//
// The program grid as a kernel sees it is a list of *dimensions* in hardware
// dispatch order (fastest first): one per `tt.get_program_id` axis the kernel
// reads, except that an axis the kernel splits with a div/rem pair by the same
// pid-independent value X (`pid // X`, `pid % X`: a 2-D tile grid launched on
// a 1-D axis, row-major) becomes two dimensions, the remainder ("lo", size X)
// faster than the quotient ("hi", size nprog / X).
//
// Following the use-def chains from the program ids, every value gets the set
// of dimensions it depends on (data flow only; scf.for/if/while iter args and
// yields position by position). For every global read (`tt.load`,
// `ttg.async_copy_global_to_local`, `amdg.buffer_load[_to_local]`, descriptor
// loads) the set of dimensions its *address* depends on is the set of
// dimensions that move it; loads are grouped into operands by the kernel
// argument their address derives from. Programs that differ only in the other
// dimensions read the same tiles of that operand.
//
// Bytes per program of each operand: tile bytes (shape x element size) times
// the trip counts of the enclosing loops: constant when the bounds are
// constants, else kept symbolic (the loop), with a default for estimates.
//
//===----------------------------------------------------------------------===//
#ifndef TRITONMFMA_PROGRAMAXES_H
#define TRITONMFMA_PROGRAMAXES_H

#include "TritonMFMA/L2Model.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::triton_mfma {

// DimMask (L2Model.h): a bit set over ProgramAxes::dims (at most 6
// dimensions: 3 axes x lo/hi).

struct GridDim {
  enum class Kind { Whole, Lo, Hi };
  int axis = 0;
  Kind kind = Kind::Whole;
  /// Lo/Hi: the divisor X of the kernel's `pid // X`, `pid % X`.
  Value divisor;
  /// "axis2", "axis0.lo", "axis0.hi".
  std::string name() const;
};

/// One loop factor of a byte count: the trip count of `loop` (an scf.for),
/// or of an unknown loop (scf.while, ...) when `loop` is not an scf.for.
struct TripFactor {
  Operation *loop = nullptr;
  std::optional<int64_t> constant; ///< known trip count
};

/// `bytes` x the product of the trip counts of `loops`.
struct ByteTerm {
  int64_t bytes = 0;
  SmallVector<TripFactor> loops;
};

/// A tensor the kernel reads: all loads whose address derives from one
/// kernel argument (or one load whose root could not be found).
struct LoadedOperand {
  int argIndex = -1; ///< -1: root unknown
  std::string name;  ///< argument name from its location, else "arg<i>"
  DimMask moved = 0; ///< dimensions that change its addresses
  SmallVector<Operation *> loads;
  SmallVector<ByteTerm> terms; ///< bytes read per program, summed
  /// Bytes per program with unknown trip counts replaced by `defaultTrips`.
  int64_t estimateBytes(int64_t defaultTrips) const;
};

class ProgramAxes {
public:
  /// Runs the analysis on a `tt.func`.
  explicit ProgramAxes(Operation *func);

  Operation *getFunc() const { return func; }
  /// Dimensions in hardware order, fastest first.
  ArrayRef<GridDim> getDims() const { return dims; }
  /// `tt.get_program_id` ops of `axis` (empty if the kernel does not read it).
  ArrayRef<Operation *> getProgramIdOps(int axis) const { return pidOps[axis]; }
  bool readsProgramIds() const;
  ArrayRef<LoadedOperand> getOperands() const { return operands; }
  /// Dimensions `v` depends on.
  DimMask getMask(Value v) const;
  DimMask getAxisMask(int axis) const;
  /// Non-empty when the kernel already permutes its program ids by hand
  /// (scalar div/rem/min/max/select on program ids beyond one row-major
  /// split): names the first such operation.
  const std::string &getHandSwizzle() const { return handSwizzle; }
  Operation *getHandSwizzleOp() const { return handSwizzleOp; }
  /// Non-empty when programs may communicate (results of atomics used,
  /// atomic_cas): reordering programs could then deadlock or change results.
  const std::string &getOrderHazard() const { return orderHazard; }
  /// The name of the first atomic the kernel writes memory with (any
  /// tt.atomic_* or amdg.buffer_atomic_*), or "".
  StringRef getAtomicWrite() const { return atomicWrite; }
  /// The split ops (`pid // X`, `pid % X`) of split axes.
  bool isSplitOp(Operation *op) const { return splitOps.contains(op); }
  /// The split ops (`pid // X` and `pid % X`) of `axis`, each with its
  /// dimension (Lo or Hi).
  SmallVector<std::pair<Operation *, GridDim::Kind>>
  getSplitOps(int axis) const;

  std::string describeMask(DimMask mask) const;
  /// "a_ptr: moved by {axis0,axis1}, 8192 B x trips(scf.for @ loc)".
  std::string describe(const LoadedOperand &operand) const;

private:
  void findProgramIds();
  void findSplits();
  void propagate();
  void findHandSwizzle();
  void findHazards();
  void collectLoads();

  Operation *func;
  SmallVector<Operation *> pidOps[3];
  SmallVector<GridDim> dims;
  llvm::DenseMap<Operation *, DimMask> splitOps; ///< op -> its Lo/Hi dim bit
  llvm::DenseMap<Value, DimMask> masks;
  SmallVector<LoadedOperand> operands;
  std::string handSwizzle, orderHazard;
  StringRef atomicWrite;
  Operation *handSwizzleOp = nullptr;
};

/// Trip count of an scf.for whose bounds are `arith.constant`s.
std::optional<int64_t> getConstantTripCount(Operation *forOp);

} // namespace mlir::triton_mfma

#endif // TRITONMFMA_PROGRAMAXES_H
