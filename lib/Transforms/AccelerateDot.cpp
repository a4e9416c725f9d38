//===- AccelerateDot.cpp - mfma-accelerate-dot ----------------------------===//
//
// Lowers `tt.dot` from blocked layouts to MFMA layouts (replaces Triton's
// AccelerateAMDMatmul for gfx90a/gfx942/gfx950), including chain dots.
//
// Algorithm:
//  1. Read the target (`ttg.target` = "hip:gfxNNN"), the wave size (must be
//     64) and, per dot, the number of warps (`ttg.num-warps` on the closest
//     ancestor). Collect every `tt.dot` whose result layout is
//     `#ttg.blocked`. A module with a `tt.dot_scaled` to lower, an f64 or
//     rank > 3 dot, a target outside the table or waves of 32 is declined:
//     IR unchanged and a remark "mfma-accelerate-dot declined: ...", on which
//     the hook runs Triton's own accelerate_matmul in the pass's place.
//     Malformed input (no ranked tensors, no num-warps) is an error.
//  2. Chains: for each dot, walk backwards from its A operand through
//     same-shape elementwise operations (arith, math, tt.fp_to_fp,
//     ttg.convert_layout, ...) in the same block. Reaching another dot's
//     result makes the pair (head, tail).
//  3. Choice (MfmaCostModel.h). A single dot: the cheapest (instruction,
//     warpsPerCTA, kpack) of the table for its operand types; fp8 types the
//     target lacks are computed as f16; if nothing fits or the FMA estimate
//     is cheaper, it stays an FMA dot. A chain: for each instruction M
//     (32, 16), the best head with warps [numWarps, 1] and the best tail with
//     the same M, warps [numWarps, 1] and kWidth 4 (the run of consecutive
//     columns a lane holds in the head's transposed result, so the tail's
//     operand A is a register permutation of the head's result); the M with
//     the lowest total wins, if it beats both dots chosen alone plus the LDS
//     round trips that would cost (P; row max and sum when the head's warps
//     split N). isTransposed is true unless every store of the
//     result is contiguous along M (then a lane's run along M gives wider
//     stores); chain heads are always transposed.
//  4. Rewrite: convert_layout A and B to `#ttg.dot_op<{opIdx, parent =
//     #mfma, kWidth}>` (then cast to the instruction's element type if
//     emulated), C to `#mfma` (cast to f32/i32 if needed), a new `tt.dot`
//     (or `tt.dot_scaled` for gfx950's f8f6f4 instructions), and convert the
//     result back to the old layout and type. Triton's
//     remove_layout_conversions, which follows, folds the conversions.
//     Every decision is a remark with its cost and the runner-up.
//
// Code: runOnOperation checks the options, then step 1 is collectDots,
// readArch and analyze (per dot); step 2 linkChains (findChainHead); step 3
// decideAll: decideChain (canChain, bestChainPair, costApart against it,
// chainRemark) for each chain, decideSingle for the rest; step 4 rewriteAll
// (chooseTransposition, rewriteMfma or rewriteFma).
//
// Differences from Triton 3.9's AccelerateAMDMatmul (same result otherwise,
// e.g. 32x32x8 / 32x32x16 with warps [2, 2] for a 128x128 GEMM tile, 16x16
// with warps [1, 4] for M = 16, [4, 1] transposed chains for BLOCK_M = 128
// flash attention):
//  * kpack: Triton uses the kernel's kpack (default 1); the model takes 2
//    when it turns 64-bit LDS reads of 8/16-bit operands into ds_read_b128
//    (half the ds_reads, gfx90a/gfx942).
//  * small M: Triton computes M = 4 with a 4x64 tile that every wave repeats
//    and leaves M = 1 to FMA; the model finds 16x16 with warps along N about
//    half the matrix cycles and a quarter of the LDS reads per wave.
//  * warps: Triton's warpsPerTile is a fixed doubling rule; here every split
//    is costed (e.g. 32x32 GEMM tiles with 4 warps: 16x16 on [2, 2] instead
//    of 32x32 repeated by every wave).
//  * chains: Triton fixes the head to [numWarps, 1] and picks each dot's
//    instruction alone, so BLOCK_N = 16 (16x16 head, 32x32 tail) or 8 warps
//    with BLOCK_M = 64 ([8, 1] head, [2, 4] tail) send P through LDS; here
//    the pair shares instruction M and warps, or, where repeating rows across
//    waves costs more than the exchange (BLOCK_M 16/32 decode attention),
//    the dots are chosen alone on purpose.
//  * fp8 without an instruction on gfx90a: f16 MFMA instead of FMA.
//  * isTransposed follows the stores (non-transposed when every store of the
//    result is contiguous along M); Triton always transposes.
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/GenericIR.h"
#include "TritonMFMA/Layouts.h"
#include "TritonMFMA/MfmaCostModel.h"
#include "TritonMFMA/MfmaTable.h"
#include "TritonMFMA/PassOutcome.h"
#include "TritonMFMA/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "mfma-accelerate-dot"

namespace mlir::triton_mfma {
#define GEN_PASS_DEF_MFMAACCELERATEDOT
#include "TritonMFMA/Passes.h.inc"
} // namespace mlir::triton_mfma

using namespace mlir;
using namespace mlir::triton_mfma;

namespace {

//===----------------------------------------------------------------------===//
// Generic-IR helpers (Triton's dialects are unregistered here)
//===----------------------------------------------------------------------===//

RankedTensorType tensorTypeOf(Value v) {
  return dyn_cast<RankedTensorType>(v.getType());
}

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

/// "file:line" of the first file location in `loc`, for remarks that name
/// another operation.
std::string describeLoc(Location loc) {
  return formatFileLocation(loc, LocStyle::FileLine, "unknown location");
}

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

/// The dot whose result reaches `tail`'s operand A through same-shape
/// elementwise operations of the same block, or null.
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

/// Layouts of the values that `tt.store`/`tt.atomic_rmw` write from `result`
/// (followed through same-shape elementwise ops and scf.yield -> scf.for).
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

/// Rows of A and columns of B one wave covers in the blocked result layout
/// (the FMA lowering's operand footprint).
std::pair<int64_t, int64_t> fmaWaveCoverage(const BlockedLayout &l,
                                            ArrayRef<int64_t> shape) {
  unsigned r = shape.size();
  auto cover = [&](unsigned d) -> int64_t {
    int64_t perWarp = int64_t(l.sizePerThread[d]) * l.threadsPerWarp[d];
    int64_t perCta = perWarp * l.warpsPerCTA[d];
    if (shape[d] > perCta)
      return shape[d] / l.warpsPerCTA[d];
    return std::min<int64_t>(perWarp, shape[d]);
  };
  return {cover(r - 2), cover(r - 1)};
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

//===----------------------------------------------------------------------===//
// Decisions
//===----------------------------------------------------------------------===//

struct Decision {
  bool useMfma = false;
  MfmaChoice choice;
  std::string remark; ///< full text of the remark
};

struct MFMAAccelerateDot final
    : mlir::triton_mfma::impl::MFMAAccelerateDotBase<MFMAAccelerateDot> {
  using Base::Base;

  GfxArch arch = GfxArch::GFX942;

  DotConstraints baseConstraints() const {
    DotConstraints c;
    c.nonKDim = matrixInstrNonKDim;
    c.kPack = kPack;
    if (arch == GfxArch::GFX950 && c.kPack == 2)
      c.kPack = 1; // Triton 3.9 also forces kpack 1 on gfx950
    return c;
  }

  LogicalResult analyze(Operation *op, DotSite &site) {
    site.op = op;
    if (op->getNumOperands() != 3 || op->getNumResults() != 1)
      return op->emitError()
             << opname::Dot << " must have three operands and one result";
    DotOp dot(op);
    site.aTy = tensorTypeOf(dot.getA());
    site.bTy = tensorTypeOf(dot.getB());
    site.resTy = tensorTypeOf(op->getResult(0));
    auto cTy = tensorTypeOf(dot.getC());
    if (!site.aTy || !site.bTy || !site.resTy || !cTy)
      return op->emitError()
             << opname::Dot << " without ranked tensor operands";
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
      return op->emitError()
             << "the blocked layout of the " << opname::Dot
             << " result has rank " << (blocked ? blocked->getRank() : 0)
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

  Decision decideFma(DotSite &s, StringRef why) {
    Decision d;
    d.remark = ("left as an FMA dot: " + why).str();
    return d;
  }

  void chooseTransposition(DotSite &s) {
    if (s.head || s.tail) {
      s.transposed = true;
      s.transposeWhy =
          s.tail ? "chain head: lanes hold the tail's K" : "chain tail";
      return;
    }
    SmallVector<LayoutPtr> stores = findStoreLayouts(s.op->getResult(0));
    unsigned rank = s.resTy.getRank();
    bool allColumnMajor = !stores.empty();
    for (const LayoutPtr &l : stores) {
      auto *bl = dyn_cast<BlockedLayout>(l.get());
      if (!bl || bl->order.empty() || bl->order[0] != rank - 2)
        allColumnMajor = false;
    }
    if (allColumnMajor) {
      s.transposed = false;
      s.transposeWhy = "stores contiguous along M";
    }
  }

  Decision decideSingle(DotSite &s, const DotConstraints &c) {
    if (!s.typeRemark.empty() && !s.emulateF16)
      return decideFma(s, s.typeRemark + "no MFMA for " + s.shapeText());
    MfmaSearch search = rankMfmaChoices(s.problem, c);
    if (search.ranked.empty())
      return decideFma(s, s.emulateF16
                              ? "no " + getElemName(s.aElem).str() + " x " +
                                    getElemName(s.bElem).str() + " MFMA on " +
                                    getArchName(arch).str() +
                                    ", and as f16: " + search.whyNone
                              : search.whyNone);
    const MfmaChoice &best = search.ranked.front();
    auto *bl = cast<BlockedLayout>(s.resultLayout.get());
    auto [rows, cols] = fmaWaveCoverage(*bl, s.resTy.getShape());
    DotCost fma = estimateFma(s.problem, rows, cols);
    if (!c.nonKDim && fma.cycles() < best.cost.cycles())
      return decideFma(s, llvm::formatv("FMA estimated at {0} cycles per wave, "
                                        "cheaper than {1}",
                                        fma.cycles(), best.str())
                              .str());
    Decision d;
    d.useMfma = true;
    d.choice = best;
    std::string text;
    llvm::raw_string_ostream os(text);
    os << s.typeRemark << s.shapeText() << " on " << getArchName(arch) << ": "
       << best.str();
    if (search.ranked.size() > 1)
      os << "; runner-up " << search.ranked[1].str();
    os << "; FMA " << fma.cycles() << " cycles";
    d.remark = os.str();
    return d;
  }

  /// Whether a (head, tail) chain can keep P in registers at all: 2-D dots
  /// with MFMA operand types, a 16-bit tail operand A, the same warps.
  bool canChain(const DotSite &head, const DotSite &tail, std::string &why) {
    if (head.resTy.getRank() != 2 || tail.resTy.getRank() != 2) {
      why = "batched dots";
      return false;
    }
    if ((!head.typeRemark.empty() && !head.emulateF16) ||
        (!tail.typeRemark.empty() && !tail.emulateF16)) {
      why = "an operand type without an MFMA instruction";
      return false;
    }
    if (getElemBits(tail.problem.aElem) != 16) {
      why = "the tail's operand A is not 16-bit (kWidth 4 is only a register "
            "permutation of the head's result for 16-bit elements)";
      return false;
    }
    if (tail.problem.numWarps != head.problem.numWarps) {
      why = ("different " + attrname::NumWarps).str();
      return false;
    }
    return true;
  }

  /// The cheapest (head, tail) pair sharing instruction M (32, 16), warps
  /// [numWarps, 1] and the tail's kWidth 4; `runnerUp` describes the other
  /// M. None (with `why`) when no M has both.
  std::optional<std::pair<MfmaChoice, MfmaChoice>>
  bestChainPair(const DotSite &head, const DotSite &tail, std::string &why,
                std::string &runnerUp) {
    unsigned numWarps = head.problem.numWarps;
    DotProblem tp = tail.problem;
    tp.aInRegisters = true;
    std::optional<std::pair<MfmaChoice, MfmaChoice>> best;
    for (unsigned m : {32u, 16u}) {
      DotConstraints hc = baseConstraints(), tc = baseConstraints();
      hc.warps = tc.warps = {numWarps, 1};
      hc.instrM = tc.instrM = m;
      tc.kWidth = 4;
      tc.kPack = 1;
      MfmaSearch hs = rankMfmaChoices(head.problem, hc);
      MfmaSearch ts = rankMfmaChoices(tp, tc);
      if (hs.ranked.empty() || ts.ranked.empty()) {
        if (why.empty())
          why = hs.ranked.empty() ? hs.whyNone : ts.whyNone;
        continue;
      }
      const MfmaChoice &h = hs.ranked.front(), &t = ts.ranked.front();
      int64_t total = h.cost.cycles() + t.cost.cycles();
      auto pairKey = [](const MfmaChoice &x, const MfmaChoice &y) {
        return std::make_pair(x.cost.cycles() + y.cost.cycles(),
                              x.cost.matrixCycles + y.cost.matrixCycles);
      };
      if (!best || pairKey(h, t) < pairKey(best->first, best->second)) {
        if (best)
          runnerUp = llvm::formatv("M={0}: {1} cycles", best->first.instr->m,
                                   best->first.cost.cycles() +
                                       best->second.cost.cycles());
        best = std::make_pair(h, t);
      } else {
        runnerUp = llvm::formatv("M={0}: {1} cycles", m, total);
      }
    }
    return best;
  }

  /// Each dot of a chain chosen alone, with P exchanged through LDS.
  struct ChainApart {
    MfmaChoice head, tail;
    int64_t exchange; ///< cycles of the LDS exchanges
    int64_t cycles;   ///< both dots and the exchanges
  };

  /// The alternative to a chain in registers: each dot alone and P exchanged
  /// through LDS (a round trip; the tail's read of P from LDS is already in
  /// its LDS cycles), plus two more round trips (row max, row sum) when the
  /// head splits N across waves. None if either dot has no MFMA choice.
  std::optional<ChainApart> costApart(const DotSite &head,
                                      const DotSite &tail) {
    MfmaSearch ha = rankMfmaChoices(head.problem, baseConstraints());
    MfmaSearch ta = rankMfmaChoices(tail.problem, baseConstraints());
    if (ha.ranked.empty() || ta.ranked.empty())
      return std::nullopt;
    unsigned numWarps = head.problem.numWarps;
    const MfmaChoice &h = ha.ranked.front(), &t = ta.ranked.front();
    const DotProblem &tp0 = tail.problem;
    int64_t pBytes = tp0.m * tp0.k * getElemBits(tp0.aElem) / 8 / numWarps;
    int64_t exchange = ldsRoundTripCycles(pBytes) - ldsCycles(pBytes);
    if (h.warps.back() > 1)
      exchange += 2 * ldsRoundTripCycles(head.problem.m * 4 / numWarps);
    int64_t alone = h.cost.cycles() + t.cost.cycles() + exchange;
    return ChainApart{h, t, exchange, alone};
  }

  /// The remark of one dot of a chain kept in registers.
  std::string chainRemark(const DotSite &s, const MfmaChoice &c, StringRef role,
                          const DotSite &other, int64_t pairCycles,
                          StringRef runnerUp, StringRef alternative) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << s.typeRemark << "chain " << role << " (with the dot at "
       << describeLoc(other.op->getLoc()) << "): " << s.shapeText() << " on "
       << getArchName(arch) << ": " << c.str()
       << "; result -> operand A in registers (same instruction M, warps "
          "along M, kWidth 4)";
    os << "; pair " << pairCycles << " cycles";
    if (!runnerUp.empty())
      os << ", runner-up " << runnerUp;
    if (!alternative.empty())
      os << ", " << alternative;
    return os.str();
  }

  /// Joint choice for a (head, tail) chain. Returns false (with `why`) when
  /// the pair cannot be kept in registers; both are then decided alone.
  bool decideChain(DotSite &head, DotSite &tail, Decision &dh, Decision &dt,
                   std::string &why) {
    if (!canChain(head, tail, why))
      return false;
    std::string runnerUp;
    std::optional<std::pair<MfmaChoice, MfmaChoice>> best =
        bestChainPair(head, tail, why, runnerUp);
    if (!best)
      return false;
    int64_t pairCycles = best->first.cost.cycles() + best->second.cost.cycles();
    std::string alternative;
    if (std::optional<ChainApart> apart = costApart(head, tail)) {
      if (apart->cycles < pairCycles) {
        why = llvm::formatv(
            "in registers the pair costs {0} cycles per wave ({1} + {2}); "
            "each dot alone with P through LDS {3} ({4} + {5} + {6} for the "
            "LDS exchanges)",
            pairCycles, best->first.str(), best->second.str(), apart->cycles,
            apart->head.str(), apart->tail.str(), apart->exchange);
        return false;
      }
      alternative = llvm::formatv(
          "{0} cycles with each dot alone and P through LDS", apart->cycles);
    }
    dh.useMfma = dt.useMfma = true;
    dh.choice = best->first;
    dt.choice = best->second;
    dh.remark = chainRemark(head, dh.choice, "head", tail, pairCycles, runnerUp,
                            alternative);
    dt.remark = chainRemark(tail, dt.choice, "tail", head, pairCycles, runnerUp,
                            alternative);
    return true;
  }

  //===--------------------------------------------------------------------===//
  // Rewriting
  //===--------------------------------------------------------------------===//

  void rewriteMfma(DotSite &s, const Decision &d) {
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

  /// FMA dot: Triton's FMA lowering wants f16 or f32 operands; others are
  /// upcast to f32 in their current layout (as Triton's pass does).
  /// Operands of different float types are both upcast.
  /// Returns whether it cast an operand.
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

  /// The pass options: matrix-instr-nonkdim 0/4/16/32, kpack up to 2.
  LogicalResult checkOptions(ModuleOp module) {
    if (matrixInstrNonKDim != 0 && matrixInstrNonKDim != 4 &&
        matrixInstrNonKDim != 16 && matrixInstrNonKDim != 32) {
      module.emitError("matrix-instr-nonkdim must be 0, 4, 16 or 32, not ")
          << static_cast<unsigned>(matrixInstrNonKDim);
      return failure();
    }
    if (kPack > 2) {
      module.emitError("kpack must be 0, 1 or 2, not ")
          << static_cast<unsigned>(kPack);
      return failure();
    }
    return success();
  }

  /// Step 1: the dots with a blocked result layout; `declined` says why
  /// Triton's accelerate_matmul should run instead (the first dot it cannot
  /// lower: a tt.dot_scaled, rank other than 2 or 3, f64).
  SmallVector<Operation *> collectDots(ModuleOp module, std::string &declined) {
    SmallVector<Operation *> dots;
    auto decline = [&](Operation *op, const Twine &why) {
      if (declined.empty())
        declined = (why + " at " + describeLoc(op->getLoc())).str();
    };
    module.walk([&](Operation *op) {
      if (!isAnyOp(op, opname::Dot, opname::DotScaled))
        return;
      auto res = op->getNumResults() == 1 ? tensorTypeOf(op->getResult(0))
                                          : RankedTensorType();
      LayoutPtr l = res ? getLayout(res) : nullptr;
      if (!l || !isa<BlockedLayout>(l.get()))
        return; // already lowered (or not a TritonGPU dot)
      if (isOp(op, opname::DotScaled))
        return decline(op, "a " + opname::DotScaled);
      if (res.getRank() != 2 && res.getRank() != 3)
        return decline(op, "a dot of rank " + Twine(res.getRank()));
      for (unsigned i = 0; i < 2 && i < op->getNumOperands(); ++i)
        if (auto t = tensorTypeOf(op->getOperand(i)))
          if (t.getElementType().isF64())
            return decline(op, "an f64 dot");
      dots.push_back(op);
    });
    return dots;
  }

  /// Step 1: the module's arch; none, with `declined` set, for a target
  /// outside the table or waves other than 64.
  std::optional<GfxArch> readArch(ModuleOp module, std::string &declined) {
    std::optional<StringRef> target = getTarget(module);
    std::optional<GfxArch> parsed =
        target ? parseGfxArch(*target) : std::nullopt;
    std::optional<unsigned> tpw = getThreadsPerWarp(module);
    if (!parsed)
      declined = ("target " + target.value_or("<none>") +
                  " (not gfx90a, gfx942 or gfx950)")
                     .str();
    else if (!tpw || *tpw != 64)
      declined = "waves of " + (tpw ? std::to_string(*tpw) : std::string("?")) +
                 " threads (CDNA MFMA needs 64)";
    return parsed;
  }

  /// Step 2: pairs each dot with the chain head that feeds its operand A (a
  /// head takes one tail).
  void linkChains(MutableArrayRef<DotSite> sites,
                  const llvm::DenseMap<Operation *, DotSite *> &siteOf) {
    for (DotSite &s : sites) {
      Operation *h = findChainHead(s.op);
      auto it = h ? siteOf.find(h) : siteOf.end();
      if (it == siteOf.end() || it->second->tail || it->second == &s)
        continue;
      s.head = it->second;
      it->second->tail = &s;
    }
  }

  /// Step 3: the chains kept in registers decided together (a chain that is
  /// not is unlinked, with a remark), then every other dot alone.
  llvm::DenseMap<DotSite *, Decision> decideAll(MutableArrayRef<DotSite> sites) {
    llvm::DenseMap<DotSite *, Decision> decisions;
    for (DotSite &s : sites) {
      if (decisions.count(&s))
        continue;
      if (s.tail) {
        Decision dh, dt;
        std::string why;
        if (decideChain(s, *s.tail, dh, dt, why)) {
          decisions[&s] = dh;
          decisions[s.tail] = dt;
          continue;
        }
        s.op->emitRemark() << "chain with the dot at "
                           << describeLoc(s.tail->op->getLoc())
                           << " not kept in registers: " << why;
        s.tail->head = nullptr;
        s.tail = nullptr;
      }
      if (s.head && !decisions.count(&s))
        continue; // decided with its head
    }
    for (DotSite &s : sites)
      if (!decisions.count(&s))
        decisions[&s] = decideSingle(s, baseConstraints());
    return decisions;
  }

  /// Step 4: each dot rewritten as decided, with its remark; reports the
  /// pass outcome.
  void rewriteAll(MutableArrayRef<DotSite> sites,
                  llvm::DenseMap<DotSite *, Decision> &decisions,
                  PassOutcomeScope &outcome) {
    unsigned numMfma = 0, numFma = 0;
    bool changed = false;
    for (DotSite &s : sites) {
      Decision &d = decisions[&s];
      if (d.useMfma) {
        ++numMfma;
        changed = true;
        chooseTransposition(s);
        std::string text = d.remark;
        text += s.transposed ? "; transposed (" : "; not transposed (";
        text += s.transposeWhy + ")";
        LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << text << "\n");
        s.op->emitRemark() << text;
        rewriteMfma(s, d);
      } else {
        ++numFma;
        s.op->emitRemark() << d.remark;
        changed |= rewriteFma(s);
      }
    }
    std::string summary = (Twine(numMfma) + " dot(s) to MFMA layouts, " +
                           Twine(numFma) + " left as FMA dots")
                              .str();
    if (changed)
      outcome.applied(summary);
    else
      outcome.unchanged(summary);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    PassOutcomeScope outcome(*this, Twine("no ") + opname::Dot +
                                        " with a blocked result layout");
    if (failed(checkOptions(module)))
      return signalPassFailure();

    std::string declined; // why Triton's accelerate_matmul should run instead
    SmallVector<Operation *> dots = collectDots(module, declined);
    if (dots.empty() && declined.empty())
      return markAllAnalysesPreserved();
    std::optional<GfxArch> parsed = readArch(module, declined);
    if (!declined.empty()) {
      // The whole module, so that one pass lowers all of its dots.
      module.emitRemark() << "mfma-accelerate-dot declined: " << declined
                          << "; Triton's accelerate_matmul lowers this "
                             "module's dots";
      outcome.declined(declined);
      return markAllAnalysesPreserved();
    }
    arch = *parsed;

    std::vector<DotSite> sites(dots.size());
    llvm::DenseMap<Operation *, DotSite *> siteOf;
    for (auto [i, op] : llvm::enumerate(dots)) {
      sites[i].resultLayout = getLayout(op->getResult(0).getType());
      if (failed(analyze(op, sites[i])))
        return signalPassFailure();
      siteOf[op] = &sites[i];
    }
    if (chainDots)
      linkChains(sites, siteOf);
    llvm::DenseMap<DotSite *, Decision> decisions = decideAll(sites);
    rewriteAll(sites, decisions, outcome);
  }
};

} // namespace
