//===- AccelerateDotAnalysis.h - mfma-accelerate-dot: one dot -*- C++ -*-===//
//
// Steps 1 and 2 of mfma-accelerate-dot (AccelerateDot.cpp's header): what the
// pass reads of one tt.dot (DotSite: its types and shape, the facts about its
// operands that the cost model weighs, the fp8-as-f16 fallback) and the IR
// walks around it (the chain head that feeds its operand A, the layouts its
// result is stored in). Apart from the pass because the choice
// (AccelerateDotChooser.h) and the rewrite (AccelerateDotRewriter.h) read the
// same DotSite.
//
//===----------------------------------------------------------------------===//
#ifndef TRITONMFMA_TRANSFORMS_ACCELERATEDOTANALYSIS_H
#define TRITONMFMA_TRANSFORMS_ACCELERATEDOTANALYSIS_H

#include "TritonMFMA/Layouts.h"
#include "TritonMFMA/MfmaCostModel.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

#include <string>

namespace mlir::triton_mfma::accelerate_dot {

//===----------------------------------------------------------------------===//
// Generic-IR helpers (Triton's dialects are unregistered here)
//===----------------------------------------------------------------------===//

RankedTensorType tensorTypeOf(Value v);

/// "file:line" of the first file location in `loc`, for remarks that name
/// another operation.
std::string describeLoc(Location loc);

//===----------------------------------------------------------------------===//
// Analysis of one dot
//===----------------------------------------------------------------------===//

struct DotSite {
  Operation *op = nullptr;
  RankedTensorType aTy, bTy, resTy;
  LayoutPtr resultLayout; // a BlockedLayout
  DotProblem problem;
  MfmaElem aElem{}, bElem{};
  bool emulateF16 = false; ///< fp8 types without an instruction: f16 MFMA
  std::string typeRemark;
  DotSite *head = nullptr, *tail = nullptr;
  bool transposed = true;
  std::string transposeWhy = "row-major stores";

  std::string shapeText() const {
    std::string s;
    llvm::raw_string_ostream os(s);
    if (problem.batch > 1)
      os << problem.batch << "x";
    os << problem.m << "x" << problem.n << "x" << problem.k << " "
       << getElemName(aElem) << "*" << getElemName(bElem);
    return s;
  }
};

/// Step 1, per dot: fills `site` (its `resultLayout` already set) for `op`
/// on `arch`; an error on `op` for malformed input.
LogicalResult analyze(Operation *op, DotSite &site, GfxArch arch);

/// The dot whose result reaches `tail`'s operand A through same-shape
/// elementwise operations of the same block, or null.
Operation *findChainHead(Operation *tail);

/// Layouts of the values that `tt.store`/`tt.atomic_rmw` write from `result`
/// (followed through same-shape elementwise ops and scf.yield -> scf.for).
SmallVector<LayoutPtr> findStoreLayouts(Value result);

} // namespace mlir::triton_mfma::accelerate_dot

#endif // TRITONMFMA_TRANSFORMS_ACCELERATEDOTANALYSIS_H
