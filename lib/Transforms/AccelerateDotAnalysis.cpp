//===- AccelerateDotAnalysis.cpp - mfma-accelerate-dot: one dot -----------===//
//
// AccelerateDotAnalysis.h: steps 1 and 2 of mfma-accelerate-dot.
//
//===----------------------------------------------------------------------===//

#include "AccelerateDotAnalysis.h"

#include "TritonMFMA/GenericIR.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::triton_mfma;

namespace mlir::triton_mfma::accelerate_dot {
namespace {

/// Operations that compute each element of their result from the elements at
/// the same position of their operands, so that a layout can flow through
/// them unchanged.
bool isElementwise(Operation *op) {
  if (isInDialect(op, dialect::Arith) || isInDialect(op, dialect::Math))
    return !isOp(op, opname::Constant);
  return isAnyOp(op, opname::ConvertLayout, opname::FpToFp, opname::PreciseSqrt,
                 opname::PreciseDivF, opname::ClampF, opname::MulhiUI,
                 opname::ExternElementwise, opname::Bitcast);
}

/// Whether the first non-convert producer of `v` lies outside the innermost
/// loop around `user` (then its LDS load is hoisted out of the loop).
bool isLoopInvariantOperand(Value v, Operation *user) {
  while (ConvertLayoutOp cvt{v.getDefiningOp()}) {
    if (cvt->getNumOperands() != 1)
      break; // malformed: taken as the producer
    v = cvt.getSrc();
  }
  Operation *loop = user->getParentOp();
  while (loop && !isAnyOp(loop, opname::For, opname::While))
    loop = loop->getParentOp();
  if (!loop)
    return false;
  Region *defRegion = v.getParentRegion();
  return !loop->isAncestor(defRegion->getParentOp()) ||
         defRegion->getParentOp() == loop->getParentOp();
}

/// Whether dimension `kDim` is the fastest-varying one of the blocked layout
/// the operand `v` is converted from (as loaded); true when unknown.
bool isKContiguous(Value v, unsigned kDim) {
  while (ConvertLayoutOp cvt{v.getDefiningOp()}) {
    if (cvt->getNumOperands() != 1)
      break; // malformed: taken as the producer
    v = cvt.getSrc();
  }
  LayoutPtr layout = getLayout(v.getType());
  auto *blocked = dyn_cast_or_null<BlockedLayout>(layout.get());
  return !blocked || blocked->order.empty() || blocked->order[0] == kDim;
}

/// A, B, C and the result of a dot agree: [batch,] M x K, K x N, M x N,
/// M x N, static positive sizes, at most 2^30 elements each (so the cost
/// model's products fit in 64 bits). An error on `op` otherwise.
LogicalResult checkDotShapes(Operation *op, RankedTensorType a,
                             RankedTensorType b, RankedTensorType c,
                             RankedTensorType res) {
  unsigned rank = res.getRank();
  auto error = [&]() {
    InFlightDiagnostic d = op->emitError();
    d << opname::Dot << " operand shapes do not agree:";
    for (RankedTensorType t : {a, b, c, res}) {
      d << " ";
      llvm::interleave(t.getShape(), d, "x");
    }
    return d;
  };
  if (a.getRank() != rank || b.getRank() != rank || c.getRank() != rank)
    return error();
  for (RankedTensorType t : {a, b, c, res}) {
    int64_t elems = 1;
    for (int64_t s : t.getShape()) {
      if (s <= 0 || s > (int64_t(1) << 30))
        return error() << " (sizes must be static and positive)";
      elems *= s;
      if (elems > (int64_t(1) << 30))
        return error() << " (more than 2^30 elements)";
    }
  }
  ArrayRef<int64_t> as = a.getShape(), bs = b.getShape(), cs = c.getShape(),
                    rs = res.getShape();
  if (as[rank - 1] != bs[rank - 2] || as[rank - 2] != rs[rank - 2] ||
      bs[rank - 1] != rs[rank - 1] || cs != rs ||
      (rank == 3 && (as[0] != rs[0] || bs[0] != rs[0])))
    return error();
  return success();
}

} // namespace

RankedTensorType tensorTypeOf(Value v) {
  return dyn_cast<RankedTensorType>(v.getType());
}

std::string describeLoc(Location loc) {
  return formatFileLocation(loc, LocStyle::FileLine, "unknown location");
}

LogicalResult analyze(Operation *op, DotSite &site, GfxArch arch) {
  site.op = op;
  if (op->getNumOperands() != 3 || op->getNumResults() != 1)
    return op->emitError() << opname::Dot
                           << " must have three operands and one result";
  DotOp dot(op);
  site.aTy = tensorTypeOf(dot.getA());
  site.bTy = tensorTypeOf(dot.getB());
  site.resTy = tensorTypeOf(op->getResult(0));
  auto cTy = tensorTypeOf(dot.getC());
  if (!site.aTy || !site.bTy || !site.resTy || !cTy)
    return op->emitError() << opname::Dot << " without ranked tensor operands";
  unsigned rank = site.resTy.getRank();
  assert((rank == 2 || rank == 3) && "declined before analysis");
  if (failed(checkDotShapes(op, site.aTy, site.bTy, cTy, site.resTy)))
    return failure();
  for (RankedTensorType t : {site.aTy, site.bTy, cTy, site.resTy})
    if (!t.getElementType().isIntOrFloat())
      return op->emitError() << opname::Dot << " on " << t.getElementType()
                             << " elements (integers and floats only)";
  auto *blocked = dyn_cast<BlockedLayout>(site.resultLayout.get());
  if (!blocked || blocked->getRank() != rank)
    return op->emitError() << "the blocked layout of the " << opname::Dot
                           << " result has rank "
                           << (blocked ? blocked->getRank() : 0)
                           << ", the result " << rank;
  std::optional<unsigned> numWarps = lookupNumWarps(op);
  if (!numWarps || *numWarps == 0 || !llvm::isPowerOf2_32(*numWarps) ||
      *numWarps > 64)
    return op->emitError() << "no power-of-two " << attrname::NumWarps
                           << " for this dot (at most 64)";

  bool tf32 = DotOp(op).isTF32();
  Type aE = site.aTy.getElementType(), bE = site.bTy.getElementType();
  auto a = classifyElementType(aE, tf32 && arch == GfxArch::GFX942);
  auto b = classifyElementType(bE, tf32 && arch == GfxArch::GFX942);
  assert(!(a && *a == MfmaElem::F64) && !(b && *b == MfmaElem::F64) &&
         "declined before analysis");

  DotProblem &p = site.problem;
  p.arch = arch;
  p.numWarps = *numWarps;
  ArrayRef<int64_t> aShape = site.aTy.getShape();
  ArrayRef<int64_t> cShape = site.resTy.getShape();
  p.m = cShape[rank - 2];
  p.n = cShape[rank - 1];
  p.k = aShape[rank - 1];
  p.batch = rank == 3 ? cShape[0] : 1;
  p.aStorageBits = aE.isIntOrFloat() ? aE.getIntOrFloatBitWidth() : 0;
  p.bStorageBits = bE.isIntOrFloat() ? bE.getIntOrFloatBitWidth() : 0;
  p.aKContiguous = isKContiguous(dot.getA(), rank - 1);
  p.bKContiguous = isKContiguous(dot.getB(), rank - 2);
  p.aLoopInvariant = isLoopInvariantOperand(dot.getA(), op);
  p.bLoopInvariant = isLoopInvariantOperand(dot.getB(), op);
  if (a && b) {
    site.aElem = *a;
    site.bElem = *b;
    p.aElem = *a;
    p.bElem = *b;
    if (lookupMfma(arch, *a, *b).empty() && isFp8(*a) && isFp8(*b)) {
      // As Triton does for OCP fp8 on gfx942: f16 holds every fp8 value
      // exactly, so the product is computed by the f16 instructions.
      site.emulateF16 = true;
      p.aElem = p.bElem = MfmaElem::F16;
      site.typeRemark =
          ("no " + getElemName(*a) + " x " + getElemName(*b) + " MFMA on " +
           getArchName(arch) + ": computed as f16 (exact conversion); ")
              .str();
    }
  } else {
    site.typeRemark = "operand types without an MFMA instruction; ";
  }
  return success();
}

Operation *findChainHead(Operation *tail) {
  Value a = DotOp(tail).getA();
  auto aTy = tensorTypeOf(a);
  if (!aTy)
    return nullptr;
  ArrayRef<int64_t> shape = aTy.getShape();
  Block *block = tail->getBlock();
  SmallVector<Value> work{a};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != block || !seen.insert(def).second)
      continue;
    if (isOp(def, opname::Dot))
      return def;
    if (!isElementwise(def))
      continue;
    for (Value operand : def->getOperands()) {
      auto t = tensorTypeOf(operand);
      if (t && t.getShape() == shape)
        work.push_back(operand);
    }
  }
  return nullptr;
}

SmallVector<LayoutPtr> findStoreLayouts(Value result) {
  SmallVector<LayoutPtr> found;
  auto ty = tensorTypeOf(result);
  if (!ty)
    return found;
  ArrayRef<int64_t> shape = ty.getShape();
  SmallVector<Value> work{result};
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isStoredValue(use)) {
        if (LayoutPtr l = getLayout(v.getType()))
          found.push_back(l);
        continue;
      }
      if (isOp(user, opname::Yield)) {
        Operation *parent = user->getParentOp();
        if (isOp(parent, opname::For) &&
            use.getOperandNumber() < parent->getNumResults())
          work.push_back(parent->getResult(use.getOperandNumber()));
        continue;
      }
      if (!isElementwise(user))
        continue;
      for (Value r : user->getResults())
        if (auto t = tensorTypeOf(r); t && t.getShape() == shape)
          work.push_back(r);
    }
  }
  return found;
}

} // namespace mlir::triton_mfma::accelerate_dot
