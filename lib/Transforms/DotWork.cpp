//===- DotWork.cpp - mfma-dot-work ----------------------------------------===//
//
// Analysis pass: the matrix instructions each wave issues for every dot.
//
// Algorithm: number the `scf.for` loops of each function in pre-order; for
// every `tt.dot` (and `tt.dot_scaled` of fp8 operands without scales, which
// gfx950 runs on the same f8f6f4 instructions), read its result layout. An
// `#ttg.amd_mfma` layout with an instruction shape mM x mN x mK of at least
// 16 x 16 gives, per wave,
//   prod_d ceil(shape[d] / (warpsPerCTA[d] * instr[d])) * ceil(K / mK)
// instructions (instr[d] = mM, mN on the last two dimensions, 1 on a batch
// dimension): warps that a tile too small for them leaves without a distinct
// block repeat another's, and still issue it. The remark names the innermost
// enclosing loop and its depth, so that a caller can take the main loop's
// dots, and the operand element types, which with the instruction shape name
// the MFMA instruction.
//
// A dot with a `#ttg.blocked` result is done on FMA: each lane computes every
// accumulator element it holds, K multiply-adds each. The elements per lane
// are the layout's registers over the shape, per dimension
//   max(min(sizePerThread, shape), sizePerThread * shape / tile)
// (tile = sizePerThread * threadsPerWarp * warpsPerCTA: a shape smaller than
// the tile repeats lanes and warps, not registers; one smaller than
// sizePerThread keeps only the registers it covers), remarked with K so that
// a caller bounds the instructions from the most multiply-adds one FMA-family
// instruction does. Any other dot is remarked "not mfma".
//
// The figure is what two layout choices of one kernel are compared on
// without compiling either (decisions/accelerate_dot.py).
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/GenericIR.h"
#include "TritonMFMA/Layouts.h"
#include "TritonMFMA/PassOutcome.h"
#include "TritonMFMA/Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace mlir::triton_mfma {
#define GEN_PASS_DEF_MFMADOTWORK
#include "TritonMFMA/Passes.h.inc"
} // namespace mlir::triton_mfma

using namespace mlir;
using namespace mlir::triton_mfma;

namespace {

std::string typeText(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

/// The innermost enclosing scf.for's number (-1: none) and the loop depth.
std::pair<int, int>
enclosingLoop(Operation *op, const llvm::DenseMap<Operation *, int> &loops) {
  int id = -1, depth = 0;
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp()) {
    auto it = loops.find(p);
    if (it == loops.end())
      continue;
    if (id < 0)
      id = it->second;
    ++depth;
  }
  return {id, depth};
}

/// Instructions per wave of one dot with an MFMA result layout, or failure
/// (with `why`) where the layout or shapes are not the modelled kind.
FailureOr<int64_t> instructionsPerWave(const AMDMfmaLayout &mfma,
                                       ArrayRef<int64_t> shape, int64_t k,
                                       std::string &why) {
  size_t rank = shape.size();
  if (mfma.warpsPerCTA.size() != rank || rank < 2 ||
      mfma.instrShape.size() < 3) {
    why = "layout rank or instruction shape not modelled";
    return failure();
  }
  if (mfma.getMDim() < 16 || mfma.getNDim() < 16) {
    why = "instructions of several blocks (4x4) not modelled";
    return failure();
  }
  auto ceilDiv = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
  int64_t count = ceilDiv(k, mfma.getKDim());
  for (size_t d = 0; d < rank; ++d) {
    int64_t instr = d == rank - 2   ? mfma.getMDim()
                    : d == rank - 1 ? mfma.getNDim()
                                    : 1;
    count *= ceilDiv(shape[d], int64_t(mfma.warpsPerCTA[d]) * instr);
  }
  return count;
}

/// Whether a `tt.dot_scaled` with operands `a` and `b` is one of fp8
/// operands without scales (gfx950 lowers it to the f8f6f4 MFMA of its
/// layout's shape, as a tt.dot of those types): the instruction is then named
/// by shape and types alike.
bool unscaledFp8(Operation *op, const FailureOr<TensorInfo> &a,
                 const FailureOr<TensorInfo> &b) {
  auto fp8 = [](const FailureOr<TensorInfo> &t) {
    return succeeded(t) &&
           StringRef(typeText(t->elementType)).starts_with("f8");
  };
  return op->getNumOperands() == 3 && fp8(a) && fp8(b);
}

/// Accumulator elements per lane of a dot done on FMA (the module comment),
/// or failure where the layout does not cover the shape's rank.
FailureOr<int64_t> elementsPerLane(const BlockedLayout &blocked,
                                   ArrayRef<int64_t> shape) {
  size_t rank = shape.size();
  if (blocked.sizePerThread.size() != rank ||
      blocked.threadsPerWarp.size() != rank ||
      blocked.warpsPerCTA.size() != rank)
    return failure();
  int64_t count = 1;
  for (size_t d = 0; d < rank; ++d) {
    int64_t spt = blocked.sizePerThread[d];
    int64_t tile = spt * blocked.threadsPerWarp[d] * blocked.warpsPerCTA[d];
    if (spt <= 0 || tile <= 0 || shape[d] <= 0)
      return failure();
    count *= std::max(std::min(spt, shape[d]), spt * shape[d] / tile);
  }
  return count;
}

struct MFMADotWork final
    : mlir::triton_mfma::impl::MFMADotWorkBase<MFMADotWork> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    PassOutcomeScope outcome(*this, "analysis only (remarks)");
    for (Operation *func : getFunctions(module)) {
      llvm::DenseMap<Operation *, int> loops;
      func->walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (isOp(op, opname::For))
          loops.try_emplace(op, int(loops.size()));
      });
      func->walk([&](Operation *op) {
        if (!isAnyOp(op, opname::Dot, opname::DotScaled))
          return;
        auto [loop, depth] = enclosingLoop(op, loops);
        std::string where = "dot work: loop " + std::to_string(loop) +
                            " depth " + std::to_string(depth) + ", ";
        if (op->getNumOperands() < 2 || op->getNumResults() != 1) {
          op->emitRemark() << where << "not mfma (malformed dot)";
          return;
        }
        FailureOr<TensorInfo> res = getTensorInfo(op->getResult(0).getType());
        FailureOr<TensorInfo> a = getTensorInfo(op->getOperand(0).getType());
        FailureOr<TensorInfo> b = getTensorInfo(op->getOperand(1).getType());
        if (isOp(op, opname::DotScaled) && !unscaledFp8(op, a, b)) {
          op->emitRemark() << where << "not mfma (scaled operands)";
          return;
        }
        const Layout *layout = succeeded(res) ? res->layout.get() : nullptr;
        const auto *mfma = dyn_cast_or_null<AMDMfmaLayout>(layout);
        const auto *blocked = dyn_cast_or_null<BlockedLayout>(layout);
        if (blocked && succeeded(a) && succeeded(b) && !a->shape.empty()) {
          FailureOr<int64_t> elements = elementsPerLane(*blocked, res->shape);
          if (succeeded(elements)) {
            op->emitRemark() << where << "fma " << typeText(a->elementType)
                             << " x " << typeText(b->elementType) << ", "
                             << *elements << " elements x " << a->shape.back()
                             << " per lane";
            return;
          }
        }
        if (!mfma || failed(a) || failed(b) || a->shape.empty()) {
          op->emitRemark() << where << "not mfma";
          return;
        }
        std::string why;
        FailureOr<int64_t> count =
            instructionsPerWave(*mfma, res->shape, a->shape.back(), why);
        if (failed(count)) {
          op->emitRemark() << where << "not mfma (" << why << ")";
          return;
        }
        op->emitRemark() << where << "mfma " << mfma->getMDim() << "x"
                         << mfma->getNDim() << "x" << mfma->getKDim() << " "
                         << typeText(a->elementType) << " x "
                         << typeText(b->elementType) << ", " << *count
                         << " per wave";
      });
    }
    markAllAnalysesPreserved();
  }
};

} // namespace
