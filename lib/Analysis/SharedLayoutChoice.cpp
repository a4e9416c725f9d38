//===- SharedLayoutChoice.cpp - Triton's shared layout for dot operands ---===//
//
// See chooseDotOperandSharedLayout in Layouts.h.
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/Layouts.h"
#include "TritonMFMA/MfmaTable.h"
#include "TritonMFMA/TargetInfo.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::triton_mfma;

namespace {

/// What the formulas below divide by and index with, and what Triton's
/// choice covers: a shape that matches the blocked layout, an order that is
/// a permutation, bounded widths, one CTA, operand 0 or 1.
LogicalResult checkInputs(ArrayRef<int64_t> shape, unsigned bits,
                          const BlockedLayout &src,
                          const DotOperandLayout &dotOp, std::string &why) {
  unsigned rank = src.order.size();
  if (rank == 0 || rank != shape.size() || llvm::any_of(shape, [](int64_t s) {
        return s <= 0 || s > (int64_t(1) << 30);
      })) {
    why = "the tile's shape does not match its blocked layout";
    return failure();
  }
  for (unsigned d : src.order)
    if (d >= rank) {
      why = "the blocked layout's order is not a permutation";
      return failure();
    }
  if (bits > 1024 || dotOp.kWidth > 1024) {
    why = "element width or kWidth out of range";
    return failure();
  }
  if (!src.cga.isTrivial()) {
    why = "multi-CTA layouts are not supported";
    return failure();
  }
  if (bits == 0 || dotOp.opIdx > 1) {
    why = "unsupported element type or operand index";
    return failure();
  }
  return success();
}

/// The swizzle of an operand of an amd_mfma dot (Triton's
/// composeSharedLayoutForOperand): none unless K is contiguous (or gfx950
/// swizzles 8/16-bit operands either way).
LogicalResult setMfmaSwizzle(SwizzledSharedLayout &shared,
                             const AMDMfmaLayout &mfma, ArrayRef<int64_t> shape,
                             unsigned bits, const DotOperandLayout &dotOp,
                             std::string &why) {
  if (shape.size() != 2) {
    why = "batched MFMA operands are not supported";
    return failure();
  }
  int kDimIndex = dotOp.opIdx == 0 ? 1 : 0;
  bool isKContig = shared.order[0] == unsigned(kDimIndex);
  bool isGFX950 = mfma.version == 4;
  bool swizzleNonKContig = isGFX950 && (bits == 8 || bits == 16);
  if (!isKContig && !swizzleNonKContig) {
    shared.vec = shared.perPhase = shared.maxPhase = 1;
    return success();
  }
  // Triton: 64 banks on gfx950, 32 before (the targets' LDS banks).
  const unsigned numBanks = getTargetInfo(isGFX950 ? GfxArch::GFX950
                                                   : GfxArch::GFX942)
                                .ldsBanks,
                 bankBitWidth = 32, simdWidth = 16;
  int innerDimLength = shape[shared.order[0]];
  int elemsPerOneBanksRow = (numBanks * bankBitWidth) / bits;
  int perPhase = std::max(1, elemsPerOneBanksRow / innerDimLength);
  unsigned vec = dotOp.kWidth;
  if (vec == 0) {
    why = "MFMA operand without kWidth";
    return failure();
  }
  int maxPhase = std::max(
      std::min<int>(simdWidth / perPhase, innerDimLength / int(vec)), 1);
  if (mfma.getMDim() == 4)
    maxPhase = 4;
  shared.vec = vec;
  shared.perPhase = perPhase;
  shared.maxPhase = maxPhase;
  return success();
}

/// The swizzle of an operand of an nvidia_mma (v2, v3) dot.
LogicalResult setMmaSwizzle(SwizzledSharedLayout &shared,
                            const NvidiaMmaLayout &mma, ArrayRef<int64_t> shape,
                            unsigned bits, const DotOperandLayout &dotOp,
                            std::string &why) {
  if (mma.versionMajor != 2 && mma.versionMajor != 3) {
    why = "unsupported nvidia_mma version";
    return failure();
  }
  int rank = shape.size();
  int K = shape[shared.order[0]];
  int perPhase = int(std::max<int64_t>(1024 / (int64_t(bits) * K), 1));
  int mmaStride = 8;
  int vec = 4 * dotOp.kWidth;
  if (vec == 0) {
    why = "mma operand without kWidth";
    return failure();
  }
  int kDim = dotOp.opIdx == 0 ? rank - 1 : rank - 2;
  if (int(shared.order[0]) != kDim)
    std::swap(vec, mmaStride);
  int maxPhase = std::max(std::min<int>(mmaStride, 1024 / (vec * bits)), 1);
  maxPhase = std::max(maxPhase / perPhase, 1);
  shared.vec = vec;
  shared.perPhase = perPhase;
  shared.maxPhase = maxPhase;
  return success();
}

} // namespace

FailureOr<SwizzledSharedLayout> mlir::triton_mfma::chooseDotOperandSharedLayout(
    ArrayRef<int64_t> shape, unsigned bits, const BlockedLayout &src,
    const DotOperandLayout &dotOp, std::string &why) {
  if (failed(checkInputs(shape, bits, src, dotOp, why)))
    return failure();
  SwizzledSharedLayout shared;
  shared.cga = src.cga;
  if (src.order.size() == 3) {
    for (unsigned d : src.order)
      if (d != 0)
        shared.order.push_back(d);
    shared.order.push_back(0);
  } else {
    shared.order.assign(src.order.begin(), src.order.end());
  }
  LogicalResult set = failure();
  if (auto *mfma = dyn_cast_or_null<AMDMfmaLayout>(dotOp.parent.get()))
    set = setMfmaSwizzle(shared, *mfma, shape, bits, dotOp, why);
  else if (auto *mma = dyn_cast_or_null<NvidiaMmaLayout>(dotOp.parent.get()))
    set = setMmaSwizzle(shared, *mma, shape, bits, dotOp, why);
  else
    why = "its dot operand layout has neither an amd_mfma nor an nvidia_mma "
          "parent";
  if (failed(set))
    return failure();
  return shared;
}
