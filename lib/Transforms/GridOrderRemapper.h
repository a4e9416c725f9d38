//===- GridOrderRemapper.h - mfma-grid-order: the rewrite -*- C++ -*-===//
//
// Step 4 of mfma-grid-order (GridOrder.cpp's header): emits a Plan
// (GridOrderPlanner.h) at the top of the kernel: the run-time guard, the
// new program ids, every use of the old ones redirected.
//
//===----------------------------------------------------------------------===//
#ifndef TRITONMFMA_TRANSFORMS_GRIDORDERREMAPPER_H
#define TRITONMFMA_TRANSFORMS_GRIDORDERREMAPPER_H

#include "GridOrderPlanner.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <optional>

namespace mlir::triton_mfma::grid_order {


/// Emits the remap of a Plan at the top of the kernel and redirects every
/// use of the program ids. The methods are the rewrite's steps, called in
/// this order by run(); sizes and row counts are built where first needed.
class GridRemapper {
public:
  GridRemapper(const ProgramAxes &pa, const Plan &plan,
               const GridOrderOptions &opts)
      : pa(pa), plan(plan), opts(opts), func(pa.getFunc()),
        entry(FuncOp(func).getEntryBlock()), dims(pa.getDims()),
        nDims(dims.size()), operands(pa.getOperands()), b(func->getContext()),
        size(nDims) {}

  /// The rewrite; the byte unit of the guard it built (1 where none or a
  /// 64-bit one), or failure with an error on the kernel.
  FailureOr<int64_t> run() {
    hoistProgramIds();
    readGridSizes();
    if (failed(computeRowLengths()))
      return failure();
    chooseGuardUnit();
    SmallVector<Value> ids;
    // The guards' conditions are marked expected false: block placement
    // then lays the remap out of line, after the path of a launch that keeps
    // its order (the remap code it branched over cost short programs 1-2%).
    auto unlikely = [&](Value cond) { return e->g.expectFalse(cond); };
    if (plan.guard == Guard::L2)
      ids = branch(unlikely(buildL2LaunchTest()), [&] {
        return branch(unlikely(buildL2BytesTest()),
                      [&] { return remapCompleteRows(); });
      });
    else if (plan.guard == Guard::XCD)
      ids = branch(unlikely(buildXCDGuard()),
                   [&] { return remapCompleteRows(); });
    else
      ids = remapCompleteRows();
    redirectUses(ids);
    return unit;
  }

private:
  /// One program-id op per axis, moved to the top in axis order; the
  /// builder after them.
  void hoistProgramIds();
  /// tt.get_num_programs (on hip, the implicit argument) per axis read.
  void readGridSizes();
  /// Phase A, run by every program: the row lengths of split axes (both
  /// branches need them). Nothing here reads a program id.
  LogicalResult computeRowLengths();
  /// The unit the guard counts bytes in, and so its width.
  void chooseGuardUnit();
  /// Step 5: the L2 guard's launch test (more than one wave, twins: the
  /// grid size only), in front of the first branch ...
  Value buildL2LaunchTest();
  /// ... and its bytes test (the arguments' trip counts), in front of the
  /// second, inside the first.
  Value buildL2BytesTest();
  /// Step 6: the XCD guard.
  Value buildXCDGuard();
  /// Phase B, only where the new order is taken: programs past the last
  /// complete row of a split axis keep their ids (a nested branch: the row
  /// divisions are on the remapped path only).
  SmallVector<Value> remapCompleteRows();
  /// The new ids: hardware linear index, XCD chunks, new order, new ids.
  SmallVector<Value> computeNewIds();
  /// L, axis 0 fastest (a split axis counts its complete rows, rows * X
  /// programs, where hi * X + lo is the id itself).
  Value linearIndex();
  /// xcd_chunk(L): contiguous chunks per XCD, ceil/floor sized.
  Value chunkPerXCD(Value lin);
  /// The new coordinates: X fastest grouped G at a time, then Y (or the
  /// hardware order when the plan keeps it).
  SmallVector<Value> reorderCoordinates(Value lin);
  /// Per axis: the id and, for a split axis, hi * X + lo, hi, lo.
  SmallVector<Value> programIdsFrom(ArrayRef<Value> coord);
  /// Every use of the old ids, outside what we built, sees the new ones;
  /// the kernel's own `pid // X`, `pid % X` are replaced.
  void redirectUses(ArrayRef<Value> ids);

  /// scf.if (cond) { then() } else { old ids }, at the insertion point.
  SmallVector<Value> branch(Value cond,
                            function_ref<SmallVector<Value>()> then);
  /// The ids the kernel body reads, per axis: the id and, for a split axis,
  /// `pid // X` and `pid % X`.
  SmallVector<Value> oldIds();
  /// Bytes per program of operand `o` (in units), trip counts computed at
  /// the top.
  Value operandBytes(unsigned o);
  Value getRows(int axis) {
    if (!rows[axis])
      rows[axis] = e->udiv(nprog[axis], divisor[axis]);
    return rows[axis];
  }
  Value getSize(unsigned i) {
    if (size[i])
      return size[i];
    const GridDim &d = dims[i];
    if (d.kind == GridDim::Kind::Whole)
      size[i] = nprog[d.axis];
    else if (d.kind == GridDim::Kind::Lo)
      size[i] = divisor[d.axis];
    else
      size[i] = e->max(getRows(d.axis), one);
    return size[i];
  }
  /// Product of the sizes of the dimensions in `mask` (1 if none).
  Value product(DimMask mask) {
    Value p;
    for (unsigned i = 0; i < nDims; ++i)
      if (mask & (DimMask(1) << i))
        p = p ? e->mul(p, getSize(i)) : getSize(i);
    return p ? p : one;
  }
  /// Mixed-radix decomposition of `v` over the dimensions in `mask`.
  void decompose(Value v, DimMask mask, SmallVectorImpl<Value> &coord) {
    SmallVector<unsigned> idx;
    for (unsigned i = 0; i < nDims; ++i)
      if (mask & (DimMask(1) << i))
        idx.push_back(i);
    for (auto [k, i] : llvm::enumerate(idx)) {
      if (k + 1 == idx.size()) {
        coord[i] = v;
      } else {
        coord[i] = e->urem(v, getSize(i));
        v = e->udiv(v, getSize(i));
      }
    }
  }

  const ProgramAxes &pa;
  const Plan &plan;
  const GridOrderOptions &opts;
  Operation *func;
  Block *entry;
  ArrayRef<GridDim> dims;
  unsigned nDims;
  ArrayRef<LoadedOperand> operands;
  OpBuilder b;
  std::optional<Emitter> e;
  IRMapping map;
  Value pid[3], nprog[3], divisor[3], rows[3];
  SmallVector<Value> size;
  Value one;
  SmallVector<Type> idTypes;
  int64_t unit = 0;
  Operation *outermostIf = nullptr;
};

} // namespace mlir::triton_mfma::grid_order

#endif // TRITONMFMA_TRANSFORMS_GRIDORDERREMAPPER_H
