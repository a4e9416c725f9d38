//===- GridOrderPlanner.h - mfma-grid-order: the decision -*- C++ -*-===//
//
// Steps 2, 3, 5 and 6 of mfma-grid-order (GridOrder.cpp's header): from a
// kernel's ProgramAxes, whether its program ids are remapped, into which
// order, and on which run-time guard (the Plan that GridOrderRemapper.h
// emits). Every step that leaves the kernel alone says why (Decline).
//
//===----------------------------------------------------------------------===//
#ifndef TRITONMFMA_TRANSFORMS_GRIDORDERPLANNER_H
#define TRITONMFMA_TRANSFORMS_GRIDORDERPLANNER_H

#include "TritonMFMA/L2Model.h"
#include "TritonMFMA/ProgramAxes.h"

#include "GridOrderSupport.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>

namespace mlir::triton_mfma::grid_order {

/// The run-time condition the remap is taken on, launch-wide.
enum class Guard {
  None, ///< always (mode=on, a compile-time verdict)
  L2,   ///< single L2: stockOrderMisses
  XCD,  ///< multi-XCD: sharedBytesExceedL2
};

/// "l2", "xcd", "none": the guard's name in `tmfma.grid_order`.
StringRef guardName(Guard g);

/// The pass options the analysis and the rewrite read.
struct GridOrderOptions {
  std::string mode;
  unsigned groupSize;
  int64_t l2Bytes;
  unsigned l2EffectivePercent, numCUs, numXCDs, defaultTripCount, programsPerCU;
};

/// What the decision (steps 3, 5, 6) hands the rewrite (step 4).
struct Plan {
  const LoadedOperand *heavy = nullptr;
  DimMask xMask = 0, yMask = 0;
  bool reorder = false; ///< false: hardware order kept (XCD chunks only)
  unsigned numXCDs = 1;
  bool hip = false; ///< the grid size is read from the implicit arguments
  Guard guard = Guard::None;
  int farDim = -1; ///< L2 guard: the dimension H's twins differ in
  int64_t concurrent = 0, threshold = 0;
  ProgramsPerCU perCU;
  /// XCD verdict: the shared heavy operands (indices into the operands).
  SmallVector<unsigned> shared;
  std::optional<int64_t> sharedBytes; ///< their distinct bytes, if constant
};

/// Why a kernel is left alone, where it is.
using Decline = std::optional<std::string>;

/// its program ids. Each step returns why the kernel is left alone, if it is.
class GridOrderPlanner {
public:
  GridOrderPlanner(const GridOrderOptions &opts, ModuleOp module,
                   Operation *func, const ProgramAxes &pa)
      : opts(opts), module(module), func(func), pa(pa),
        operands(pa.getOperands()), defTrips(opts.defaultTripCount),
        nDims(pa.getDims().size()), all((DimMask(1) << nDims) - 1) {}

  /// Step 2: programs that communicate, ids already permuted, a callee
  /// reading program ids; in auto mode, atomic result writes; no loads.
  Decline checkSafety();
  /// The target's L2 figures, with the option overrides.
  void readTargetFigures();
  /// Step 3: the heavy operand H the new order is built for, the sharing
  /// (X) and moving (Y) dimensions; declines where no order gains.
  Decline chooseHeavyOperand();
  /// Step 5 (single-L2 targets): in auto mode, the L2 guard's figures.
  Decline decideL2Guard();
  /// Step 6 (multi-XCD targets): whether the XCD remap pays, at compile
  /// time where the shared bytes are constants, else the XCD guard.
  Decline decideXCDGuard();
  /// The remark's account of the heavy operand and its dimensions.
  const std::string &describeHeavy() const { return why; }
  /// The remark's account of the new order and its guard.
  std::string describeOrder() const;
  /// The pass outcome's account of a remap.
  std::string describeVerdict(StringRef name) const;

  const Plan &getPlan() const { return plan; }
  const TargetL2Model &getModel() const { return model; }

private:
  /// At least 3/4 of the largest estimated bytes per program.
  bool isHeavy(const LoadedOperand &o) const;
  /// Some dimension that does not move `o` is slower than one that does.
  bool suffers(const LoadedOperand &o) const {
    DimMask sharing = all & ~o.moved;
    for (unsigned r = 0; r < nDims; ++r)
      if (sharing & (DimMask(1) << r))
        for (unsigned s = 0; s < r; ++s)
          if (o.moved & (DimMask(1) << s))
            return true;
    return false;
  }
  std::optional<int64_t> constantSharedBytes() const;

  const GridOrderOptions &opts;
  ModuleOp module;
  Operation *func;
  const ProgramAxes &pa;
  ArrayRef<LoadedOperand> operands;
  int64_t defTrips;
  unsigned nDims;
  DimMask all;
  std::string target;
  TargetL2Model model;
  int64_t maxBytes = 0;
  Plan plan;
  std::string why;         ///< H, its bytes and its dimensions
  std::string sharedNames; ///< the shared heavy operands, for the remarks
};

} // namespace mlir::triton_mfma::grid_order

#endif // TRITONMFMA_TRANSFORMS_GRIDORDERPLANNER_H
