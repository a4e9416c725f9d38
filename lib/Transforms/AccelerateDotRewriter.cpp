//===- AccelerateDotRewriter.cpp - mfma-accelerate-dot: rewrite -----------===//
//
// AccelerateDotRewriter.h: step 4 of mfma-accelerate-dot.
//
//===----------------------------------------------------------------------===//

#include "AccelerateDotRewriter.h"

#include "TritonMFMA/GenericIR.h"
#include "TritonMFMA/Layouts.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::triton_mfma;

namespace mlir::triton_mfma::accelerate_dot {
namespace {

Value createOp(OpBuilder &b, Location loc, StringRef name, ValueRange operands,
               Type resultType, Attribute properties = {}) {
  return GenericBuilder(b, loc)
      .create(name, operands, resultType, properties)
      ->getResult(0);
}

/// The operation that converts `from` elements to `to` elements, as Triton's
/// AccelerateAMDMatmul spells it.
StringRef castOpName(Type from, Type to) {
  if (isa<FloatType>(from) && isa<FloatType>(to)) {
    unsigned fb = from.getIntOrFloatBitWidth(), tb = to.getIntOrFloatBitWidth();
    bool plain =
        (from.isF16() || from.isF32() || from.isBF16() || from.isF64()) &&
        (to.isF16() || to.isF32() || to.isBF16() || to.isF64());
    if (plain && !(from.isBF16() && to.isF16()) &&
        !(from.isF16() && to.isBF16()))
      return fb < tb ? opname::ExtF : opname::TruncF;
    return opname::FpToFp;
  }
  unsigned fb = from.getIntOrFloatBitWidth(), tb = to.getIntOrFloatBitWidth();
  return fb < tb ? opname::ExtSI : opname::TruncI;
}

/// Converts `v` to layout `layout` and element type `elem` (convert first,
/// then cast, as Triton does).
Value convertAndCast(OpBuilder &b, Location loc, Value v, const Layout &layout,
                     Type elem) {
  auto ty = cast<RankedTensorType>(v.getType());
  auto converted = RankedTensorType::get(ty.getShape(), ty.getElementType(),
                                         getLayoutAttr(b.getContext(), layout));
  Value out = createOp(b, loc, opname::ConvertLayout, v, converted);
  if (elem == ty.getElementType())
    return out;
  auto castTy =
      RankedTensorType::get(ty.getShape(), elem, converted.getEncoding());
  return createOp(b, loc, castOpName(ty.getElementType(), elem), out, castTy);
}

/// Casts `v` (any layout) to element type `elem`, keeping the layout.
Value castTo(OpBuilder &b, Location loc, Value v, Type elem) {
  auto ty = cast<RankedTensorType>(v.getType());
  if (ty.getElementType() == elem)
    return v;
  auto castTy = RankedTensorType::get(ty.getShape(), elem, ty.getEncoding());
  return createOp(b, loc, castOpName(ty.getElementType(), elem), v, castTy);
}

} // namespace

void rewriteMfma(DotSite &s, const Decision &d, GfxArch arch) {
  Operation *op = s.op;
  MLIRContext *ctx = op->getContext();
  OpBuilder b(op);
  Location loc = op->getLoc();
  const MfmaInstr &instr = *d.choice.instr;
  auto *blocked = cast<BlockedLayout>(s.resultLayout.get());

  auto mfma = std::make_shared<AMDMfmaLayout>();
  mfma->version = getMfmaVersion(arch);
  mfma->warpsPerCTA = d.choice.warps;
  mfma->instrShape = {instr.m, instr.n, instr.k};
  mfma->isTransposed = s.transposed;
  mfma->cga = blocked->cga;
  DotOperandLayout aLayout, bLayout;
  aLayout.opIdx = 0;
  bLayout.opIdx = 1;
  aLayout.parent = bLayout.parent = mfma;
  aLayout.kWidth = bLayout.kWidth = d.choice.kWidth;

  Type f16 = b.getF16Type();
  Type aElem = s.emulateF16 ? f16 : s.aTy.getElementType();
  Type bElem = s.emulateF16 ? f16 : s.bTy.getElementType();
  DotOp old(op);
  // The accumulator first, then A and B: the order Triton's accelerate_matmul
  // builds them in, so that where both choose the same layouts the modules are
  // equal op for op right after this step (the variant engine then stops
  // building Triton's variant there).
  Type resElem = s.resTy.getElementType();
  Type accElem = instr.isIntAcc() ? Type(b.getI32Type()) : b.getF32Type();
  Value c = convertAndCast(b, loc, old.getC(), *mfma, accElem);
  Value a = convertAndCast(b, loc, old.getA(), aLayout, aElem);
  Value bv = convertAndCast(b, loc, old.getB(), bLayout, bElem);
  auto accTy = RankedTensorType::get(s.resTy.getShape(), accElem,
                                     getLayoutAttr(ctx, *mfma));
  Value dot;
  if (instr.scaled) {
    // Triton's ScaleDotElemType: E4M3 = 0, E5M2 = 1.
    auto code = [&](MfmaElem e) {
      return b.getI32IntegerAttr(e == MfmaElem::F8E5M2 ? 1 : 0);
    };
    NamedAttrList props;
    props.append("a_elem_type", code(s.aElem));
    props.append("b_elem_type", code(s.bElem));
    props.append("fastMath", b.getBoolAttr(false));
    props.append("lhs_k_pack", b.getBoolAttr(true));
    props.append("operandSegmentSizes",
                 b.getDenseI32ArrayAttr({1, 1, 1, 0, 0}));
    props.append("rhs_k_pack", b.getBoolAttr(true));
    dot = createOp(b, loc, opname::DotScaled, {a, bv, c}, accTy,
                   props.getDictionary(ctx));
  } else {
    dot = createOp(b, loc, opname::Dot, {a, bv, c}, accTy,
                   op->getPropertiesAsAttribute());
    dot.getDefiningOp()->setDiscardableAttrs(
        op->getDiscardableAttrDictionary());
  }
  Value out = castTo(b, loc, dot, resElem);
  out = createOp(b, loc, opname::ConvertLayout, out, s.resTy);
  op->getResult(0).replaceAllUsesWith(out);
  op->erase();
}

bool rewriteFma(DotSite &s) {
  Operation *op = s.op;
  OpBuilder b(op);
  Type ea = s.aTy.getElementType(), eb = s.bTy.getElementType();
  bool mixed = ea != eb, changed = false;
  for (unsigned i = 0; i < 2; ++i) {
    Value v = op->getOperand(i);
    Type e = i == 0 ? ea : eb;
    if (!isa<FloatType>(e) || e.isF32() || (e.isF16() && !mixed))
      continue;
    op->setOperand(i, castTo(b, op->getLoc(), v, b.getF32Type()));
    changed = true;
  }
  return changed;
}

} // namespace mlir::triton_mfma::accelerate_dot
