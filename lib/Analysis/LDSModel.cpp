//===- LDSModel.cpp - LDS bytes as Triton 3.9 allocates them --------------===//
//
// Three parts, each our own code following facts read from Triton 3.9 and
// checked against it (test/python/test_lds_model.py):
//
//  1. Does a conversion need LDS? Convert the layouts to GF(2) maps, build the
//     conversion map dst -> src and quotient out the block, warp, lane and
//     register dimensions it leaves untouched (in that order, stopping at the
//     first that moves data). Only registers left: a register permutation.
//     Registers and lanes left: warp shuffles, provided the permutation of
//     (register, lane) bits has fewer than two register<->lane transpositions
//     when its cycles are factored; anything else goes through LDS.
//  2. How big is the scratch? Triton swizzles the buffer: a vector basis
//     (register bits common to both layouts, up to 128 bits, filled to 32
//     bits with warp bits when narrower), bank bits, and segment bits, the
//     first segment candidates being the bits that neither side's vector nor
//     lane tile (the lanes one LDS instruction serves in one cycle) uses.
//     Segment bits that are register bits in both layouts become "reps":
//     rounds that reuse the buffer. Scratch = tensor / 2^reps elements.
//  3. Where do buffers go? Explicit buffers (local_alloc) live over the
//     liveness of every value aliasing them, scratch buffers over their op;
//     offsets by Triton's first-fit-then-colour scheme.
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/LDSModel.h"
#include "TritonMFMA/Layouts.h"
#include "TritonMFMA/TargetInfo.h"

#include "mlir/Analysis/Liveness.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#include <limits>
#include <map>

#define DEBUG_TYPE "mfma-lds-model"

using namespace mlir;
using namespace mlir::triton_mfma;

namespace {

int log2i(int64_t v) { return v <= 0 ? -1 : int(llvm::Log2_64(uint64_t(v))); }

FailureOr<int64_t> failWith(std::string *error, const Twine &msg) {
  if (error)
    *error = msg.str();
  return failure();
}
} // namespace

//===----------------------------------------------------------------------===//
// Target
//===----------------------------------------------------------------------===//

FailureOr<TargetModel> TargetModel::fromTarget(StringRef target,
                                               unsigned threadsPerWarp,
                                               std::string *error) {
  TargetModel t;
  t.threadsPerWarp = threadsPerWarp;
  auto [vendor, arch] = target.split(':');
  t.arch = arch.str();
  if (vendor == "hip") {
    t.isHip = true;
    const TargetInfo *info = lookupTargetInfo(target);
    if (!info) {
      if (error)
        *error = ("no LDS model for hip target '" + arch + "'").str();
      return failure();
    }
    t.ldsBytes = info->ldsPerWorkgroup;
    t.numBanks = info->ldsBanks;
    t.loadLaneTile128.assign(info->loadLaneTile128.begin(),
                             info->loadLaneTile128.end());
    return t;
  }
  if (vendor == "cuda") {
    int cc = 0;
    if (arch.getAsInteger(10, cc)) {
      if (error)
        *error = ("bad cuda target '" + target + "'").str();
      return failure();
    }
    if (const TargetInfo *info = lookupTargetInfo(target)) {
      t.ldsBytes = info->ldsPerWorkgroup;
      t.numBanks = info->ldsBanks;
    } else {
      t.ldsBytes = getCudaSharedPerBlock(cc);
      t.numBanks = getCudaSharedBanks();
    }
    return t;
  }
  if (error)
    *error = ("unknown target '" + target + "'").str();
  return failure();
}

FailureOr<TargetModel> TargetModel::fromModule(ModuleOp module,
                                               std::string *error) {
  auto target = module->getAttrOfType<StringAttr>("ttg.target");
  if (!target) {
    if (error)
      *error = "module has no ttg.target attribute";
    return failure();
  }
  unsigned tpw = 64;
  if (auto a = module->getAttrOfType<IntegerAttr>("ttg.threads-per-warp"))
    tpw = unsigned(a.getInt());
  else if (target.getValue().starts_with("cuda"))
    tpw = 32;
  return fromTarget(target.getValue(), tpw, error);
}

StringRef mlir::triton_mfma::stringifyConvertPath(ConvertPath path) {
  switch (path) {
  case ConvertPath::Registers:
    return "registers";
  case ConvertPath::WarpShuffle:
    return "warp-shuffle";
  case ConvertPath::LDS:
    return "lds";
  }
  return "?";
}

unsigned mlir::triton_mfma::getLDSBitwidth(Type elementType) {
  // Pointers are 64-bit; `!tt.ptr<...>` is an opaque type in our MLIR.
  if (auto opaque = dyn_cast<OpaqueType>(elementType))
    if (opaque.getDialectNamespace() == "tt" &&
        opaque.getTypeData().starts_with("ptr"))
      return 64;
  if (elementType.isIntOrIndexOrFloat() && !elementType.isIndex())
    return std::max(8u, elementType.getIntOrFloatBitWidth());
  return 0;
}

//===----------------------------------------------------------------------===//
// GF(2) helpers on flat bases
//===----------------------------------------------------------------------===//

namespace {

using Flat = SmallVector<int32_t>;


/// Basis of {x : <x, v> = 0 for all v in vectors}, one vector per free
/// column, ascending.
Flat nullspaceBasis(ArrayRef<int32_t> vectors, int dim) {
  SmallVector<uint64_t> rows;
  for (int32_t v : vectors)
    rows.push_back(uint64_t(uint32_t(v)));
  SmallVector<int> pivots = rrefPivots(rows, dim);
  Flat basis;
  for (int free = 0; free < dim; ++free) {
    if (llvm::is_contained(pivots, free))
      continue;
    uint64_t vec = uint64_t(1) << free;
    for (uint64_t r : rows)
      if (r && (r & (uint64_t(1) << free)))
        vec ^= uint64_t(1) << llvm::countr_zero(r);
    basis.push_back(int32_t(vec));
  }
  return basis;
}

/// Unit vectors completing `basis` to the whole space (the non-pivot
/// columns of its echelon form), ascending.
Flat complementBasis(ArrayRef<int32_t> basis, int dim) {
  SmallVector<uint64_t> rows;
  for (int32_t v : basis)
    rows.push_back(uint64_t(uint32_t(v)));
  SmallVector<int> pivots = rrefPivots(rows, dim);
  Flat comp;
  for (int i = 0; i < dim; ++i)
    if (!llvm::is_contained(pivots, i))
      comp.push_back(int32_t(1) << i);
  return comp;
}

/// A basis of span(b1) ∩ span(b2). For unit vectors: b1's common elements,
/// in b1's order; otherwise via nullspaces (as Triton does).
Flat intersectionBasis(ArrayRef<int32_t> b1, ArrayRef<int32_t> b2, int dim) {
  auto pow2 = [](int32_t x) { return x > 0 && llvm::isPowerOf2_32(x); };
  if (llvm::all_of(b1, pow2) && llvm::all_of(b2, pow2)) {
    Flat r;
    for (int32_t b : b1)
      if (b != 0 && llvm::is_contained(b2, b))
        r.push_back(b);
    return r;
  }
  Flat joint = nullspaceBasis(b1, dim);
  joint.append(nullspaceBasis(b2, dim));
  return nullspaceBasis(joint, dim);
}

Flat removeZeros(ArrayRef<int32_t> v) {
  Flat r;
  for (int32_t x : v)
    if (x != 0)
      r.push_back(x);
  return r;
}

/// The vector basis of an LDS round trip between `src` and `dst` (flattened,
/// one output dimension): register bits common to both, at most 128 bits;
/// narrower than 32 bits, filled with register bits that are warp bits on
/// the other side, then with warp bits.
Flat vectorBasis(const GF2Layout &src, const GF2Layout &dst,
                 unsigned bitwidth) {
  Flat regSrc = src.getFlatBases(kReg), regDst = dst.getFlatBases(kReg);
  Flat blockSrc = src.getFlatBases(kBlock);
  int dim = src.getTotalOutDimSizeLog2();
  Flat vbasis = intersectionBasis(regSrc, regDst, dim);
  unsigned maxVecBases = log2i(128 / bitwidth);
  if (vbasis.size() > maxVecBases)
    vbasis.resize(maxVecBases);
  if ((int64_t(1) << vbasis.size()) * bitwidth >= 32)
    return vbasis;
  unsigned basesPerBank = log2i(32 / bitwidth);
  Flat warpSrc = removeZeros(src.getFlatBases(kWarp));
  Flat warpDst = removeZeros(dst.getFlatBases(kWarp));
  auto removeVec = [&](ArrayRef<int32_t> v) {
    Flat r;
    for (int32_t x : v)
      if (!llvm::is_contained(vbasis, x))
        r.push_back(x);
    return r;
  };
  Flat regSrcWarp = intersectionBasis(removeVec(regSrc), warpDst, dim);
  Flat regDstWarp = intersectionBasis(removeVec(regDst), warpSrc, dim);
  Flat largest;
  if (regSrcWarp.size() == regDstWarp.size() && !regSrcWarp.empty())
    largest = *llvm::min_element(regSrcWarp) < *llvm::min_element(regDstWarp)
                  ? regSrcWarp
                  : regDstWarp;
  else
    largest = regSrcWarp.size() > regDstWarp.size() ? regSrcWarp : regDstWarp;
  vbasis.append(largest.begin(), largest.end());
  if (vbasis.size() < basesPerBank) {
    Flat both = intersectionBasis(warpSrc, warpDst, dim);
    vbasis.append(both.begin(), both.end());
  }
  for (size_t i = 0; vbasis.size() < basesPerBank &&
                     (i < warpSrc.size() || i < warpDst.size());
       ++i) {
    if (i < warpSrc.size() && !llvm::is_contained(vbasis, warpSrc[i]))
      vbasis.push_back(warpSrc[i]);
    if (vbasis.size() < basesPerBank && i < warpDst.size() &&
        !llvm::is_contained(vbasis, warpDst[i]) &&
        !llvm::is_contained(blockSrc, warpDst[i]))
      vbasis.push_back(warpDst[i]);
  }
  if (vbasis.size() > basesPerBank)
    vbasis.resize(basesPerBank);
  return vbasis;
}

/// Lane bits one LDS instruction serves in one cycle: the given ones
/// (ds_read_b128), or the lanes in order up to the bank width.
Flat laneTile(ArrayRef<int> laneAddr, ArrayRef<int32_t> lane, int64_t vecSize,
              unsigned bitwidth, int numBanks) {
  int log2Vec = log2i(std::max<int64_t>(1, vecSize * bitwidth / 32));
  int log2Phase =
      std::max<int>(0, log2Vec + int(lane.size()) - log2i(numBanks));
  Flat res;
  if (!laneAddr.empty()) {
    for (int i : laneAddr)
      if (i < int(lane.size()))
        res.push_back(lane[i]);
    return res;
  }
  res.assign(lane.begin(), lane.end() - std::min<int>(log2Phase, lane.size()));
  return res;
}

/// Segment bits of the swizzled buffer: bits used by neither side's bank
/// tile, lowest first, then XOR pairs of the two sides' differences (whose
/// count decides bank conflicts).
Flat computeSegment(ArrayRef<int32_t> bankSrc, ArrayRef<int32_t> bankDst,
                    ArrayRef<int32_t> blockBases, int dim, int lenSegment) {
  llvm::SmallDenseSet<int32_t> setSrc(bankSrc.begin(), bankSrc.end());
  llvm::SmallDenseSet<int32_t> setDst(bankDst.begin(), bankDst.end());
  setSrc.insert(blockBases.begin(), blockBases.end());
  setDst.insert(blockBases.begin(), blockBases.end());
  setSrc.erase(0);
  setDst.erase(0);
  Flat segment;
  for (int b = 0; b < dim; ++b)
    if (!setSrc.contains(1 << b) && !setDst.contains(1 << b))
      segment.push_back(1 << b);
  if (int(segment.size()) >= lenSegment) {
    segment.resize(std::max(0, lenSegment));
    return segment;
  }
  Flat A, B;
  for (int32_t v : setSrc)
    if (!setDst.contains(v))
      A.push_back(v);
  for (int32_t v : setDst)
    if (!setSrc.contains(v))
      B.push_back(v);
  if (A.size() > B.size())
    std::swap(A, B);
  llvm::sort(A);
  llvm::sort(B);
  int conflicts = std::min<int>(
      std::max<int>(0, lenSegment - int(A.size()) - int(segment.size())),
      int(A.size()));
  for (size_t i = conflicts; i < A.size(); ++i)
    segment.push_back(A[i] ^ B[i]);
  segment.append(A.begin(), A.begin() + conflicts);
  segment.append(B.begin(), B.begin() + conflicts);
  if (int(segment.size()) > lenSegment)
    segment.resize(lenSegment);
  return segment;
}

/// Number of register<->lane transpositions Triton factors out of the
/// (register, lane) bit permutation of a warp-local conversion.
int mixedTranspositions(const GF2Layout &srcIn, const GF2Layout &dstIn) {
  GF2Layout src = srcIn.removeZeroBases(kReg),
            dst = dstIn.removeZeroBases(kReg);
  int nReg = std::max(src.getInDimSizeLog2(kReg), dst.getInDimSizeLog2(kReg));
  int nLane =
      std::max(src.getInDimSizeLog2(kLane), dst.getInDimSizeLog2(kLane));
  SmallVector<std::string> outNames;
  for (const GF2Layout::OutDim &o : src.getOutDims())
    outNames.push_back(o.name);
  auto pad = [&](const GF2Layout &l) {
    GF2Layout s = l.sublayout({kReg, kLane}, outNames);
    SmallVector<GF2Layout::InDim, 4> ins(s.getInDims().begin(),
                                         s.getInDims().end());
    for (GF2Layout::InDim &d : ins) {
      int want = d.name == kReg ? nReg : nLane;
      while (int(d.bases.size()) < want)
        d.bases.push_back(GF2Layout::Basis(outNames.size(), 0));
    }
    return GF2Layout(std::move(ins),
                     SmallVector<GF2Layout::OutDim, 4>(s.getOutDims().begin(),
                                                       s.getOutDims().end()));
  };
  GF2Layout S = pad(src), T = pad(dst);
  GF2Layout P = S.invertAndCompose(T);
  // P's bases as (register value, lane value) pairs, indexed [dim][i].
  const char *dims[2] = {kReg, kLane};
  SmallVector<SmallVector<std::array<int32_t, 2>>> p(2);
  for (int d = 0; d < 2; ++d)
    for (const GF2Layout::Basis &b : P.getBases(dims[d]))
      p[d].push_back({b[P.getOutDimIndex(kReg)], b[P.getOutDimIndex(kLane)]});
  Flat sFlat[2] = {S.getFlatBases(kReg), S.getFlatBases(kLane)};
  Flat tFlat[2] = {T.getFlatBases(kReg), T.getFlatBases(kLane)};
  SmallVector<std::pair<int, int>> srcFree, dstFree;
  for (int d = 0; d < 2; ++d)
    for (size_t i = 0; i < sFlat[d].size(); ++i) {
      int32_t s = sFlat[d][i], t = tFlat[d][i];
      if (s == 0 && t == 0)
        p[d][i][d] = int32_t(1) << i;
      else if (s == 0)
        srcFree.push_back({d, int(i)});
      else if (t == 0)
        dstFree.push_back({d, int(i)});
    }
  for (auto [sz, dz] : llvm::zip(srcFree, dstFree))
    p[sz.first][sz.second][dz.first] = int32_t(1) << dz.second;

  int count = 0;
  SmallVector<bool> visited(nReg + nLane, false);
  auto flat = [&](int d, int i) { return d == 0 ? i : nReg + i; };
  for (int d = 0; d < 2; ++d)
    for (int i = 0; i < int(p[d].size()); ++i) {
      if (visited[flat(d, i)])
        continue;
      int currD = d, currI = i;
      bool open = false; // inside a register -> lane ... -> register run
      do {
        visited[flat(currD, currI)] = true;
        int nextD = currD, nextI = currI;
        for (int k = 0; k < 2; ++k)
          if (p[currD][currI][k] != 0) {
            nextD = k;
            nextI = log2i(p[currD][currI][k]);
          }
        if (currD == 0 && nextD == 1)
          open = true;
        else if (currD == 1 && nextD == 0 && open) {
          ++count;
          open = false;
        }
        if (nextD == currD && nextI == currI)
          break; // a fixed point (or an unfilled zero column)
        currD = nextD;
        currI = nextI;
      } while (flat(currD, currI) != flat(d, i));
    }
  return count;
}

} // namespace

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

namespace {
struct SwizzledScratch {
  int64_t elements = 0; ///< per round
  int logReps = 0;
};
} // namespace

/// The scratch buffer of Triton's swizzled LDS round trip src -> dst.
static SwizzledScratch swizzledScratch(const TargetModel &target,
                                       const GF2Layout &src,
                                       const GF2Layout &dst,
                                       unsigned bitwidth) {
  // Which load tile: ds_read_b128 serves lanes in a target-specific order.
  // (Triton picks it from the vector width of the layouts as they are,
  // broadcast registers included.)
  Flat vecWithBroadcast =
      vectorBasis(src.flattenOuts(), dst.flattenOuts(), bitwidth);
  int64_t vecBitwidth = (int64_t(1) << vecWithBroadcast.size()) * bitwidth;
  ArrayRef<int> loadTile;
  if (target.isHip && vecBitwidth == 128)
    loadTile = target.loadLaneTile128;

  GF2Layout s = src.removeZeroBases(kReg).flattenOuts();
  GF2Layout d = dst.removeZeroBases(kReg).flattenOuts();
  int dim = s.getTotalOutDimSizeLog2();
  Flat vbasis = vectorBasis(s, d, bitwidth);
  int64_t vecSize = int64_t(1) << vbasis.size();
  Flat tileSrc =
      laneTile({}, s.getFlatBases(kLane), vecSize, bitwidth, target.numBanks);
  Flat tileDst = laneTile(loadTile, d.getFlatBases(kLane), vecSize, bitwidth,
                          target.numBanks);
  Flat blockBases = removeZeros(s.getFlatBases(kBlock));
  int lenB = std::min<int>(
      log2i(std::max<int64_t>(1, target.numBanks * 32 / (vecSize * bitwidth))),
      dim - int(vbasis.size()) - int(blockBases.size()));
  int lenS = dim - lenB - int(vbasis.size()) - int(blockBases.size());
  Flat bankSrc = vbasis, bankDst = vbasis;
  bankSrc.append(tileSrc.begin(), tileSrc.end());
  bankDst.append(tileDst.begin(), tileDst.end());
  Flat segment = computeSegment(bankSrc, bankDst, blockBases, dim, lenS);
  Flat regSrc = s.getFlatBases(kReg), regDst = d.getFlatBases(kReg);
  SwizzledScratch r;
  for (int32_t b : segment)
    r.logReps += llvm::is_contained(regSrc, b) && llvm::is_contained(regDst, b);
  r.elements = int64_t(1) << (dim - r.logReps);
  LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] swizzle " << src.str() << " -> "
                          << dst.str() << ": vec=" << vbasis.size()
                          << " tile=" << tileSrc.size() << "/" << tileDst.size()
                          << " segment=" << segment.size()
                          << " logReps=" << r.logReps << "\n");
  return r;
}

/// dst -> src with the untouched dimensions quotiented out.
static GF2Layout minimalConversion(const GF2Layout &src, const GF2Layout &dst) {
  GF2Layout comp = dst.invertAndCompose(src);
  for (const char *dim : {kBlock, kWarp, kLane, kReg}) {
    std::optional<GF2Layout> q = comp.quotient(dim);
    if (!q)
      break;
    comp = *q;
  }
  return comp;
}

FailureOr<ConvertCost>
mlir::triton_mfma::analyzeConvert(const TargetModel &target,
                                  const GF2Layout &src, const GF2Layout &dst,
                                  unsigned bitwidth, std::string *error) {
  (void)error; // every pair of GF(2) layouts has an answer
  ConvertCost cost;
  cost.bitwidth = bitwidth;
  GF2Layout comp = minimalConversion(src, dst);
  SmallVector<std::string> outs;
  for (const GF2Layout::OutDim &o : comp.getOutDims())
    outs.push_back(o.name);
  if (outs.empty() || (outs.size() == 1 && outs[0] == kReg)) {
    cost.path = ConvertPath::Registers;
    return cost;
  }
  if (outs.size() == 2 && outs[0] == kReg && outs[1] == kLane &&
      mixedTranspositions(src, dst) < 2) {
    cost.path = ConvertPath::WarpShuffle;
    return cost;
  }
  cost.path = ConvertPath::LDS;
  SwizzledScratch sw = swizzledScratch(target, src, dst, bitwidth);
  cost.reps = 1 << sw.logReps;
  cost.elements = sw.elements;
  cost.scratchBytes = sw.elements * bitwidth / 8;
  // Written once per distinct element, read once per destination register.
  int64_t reads = int64_t(1) << dst.getTotalInDimSizeLog2();
  cost.ldsTraffic =
      ((int64_t(1) << src.getTotalOutDimSizeLog2()) + reads) * bitwidth / 8;
  return cost;
}

FailureOr<ConvertCost> mlir::triton_mfma::analyzeConvert(
    const TargetModel &target, ArrayRef<int64_t> shape, Type elementType,
    const Layout &src, const Layout &dst, std::string *error) {
  unsigned bitwidth = getLDSBitwidth(elementType);
  if (bitwidth == 0) {
    if (error)
      *error = "element type without a known width";
    return failure();
  }
  FailureOr<GF2Layout> s =
      toGF2Layout(src, shape, target.threadsPerWarp, error);
  if (failed(s))
    return failure();
  FailureOr<GF2Layout> d =
      toGF2Layout(dst, shape, target.threadsPerWarp, error);
  if (failed(d))
    return failure();
  return analyzeConvert(target, *s, *d, bitwidth, error);
}

FailureOr<ConvertCost>
mlir::triton_mfma::analyzeConvertOp(const TargetModel &target, Operation *op,
                                    std::string *error) {
  if (op->getNumOperands() != 1 || op->getNumResults() != 1) {
    if (error)
      *error = "convert_layout must have one operand and one result";
    return failure();
  }
  FailureOr<TensorInfo> src = getTensorInfo(op->getOperand(0).getType(), error);
  if (failed(src))
    return failure();
  FailureOr<TensorInfo> dst = getTensorInfo(op->getResult(0).getType(), error);
  if (failed(dst))
    return failure();
  if (!src->layout || !dst->layout) {
    if (error)
      *error = "convert_layout operand or result has no #ttg layout";
    return failure();
  }
  return analyzeConvert(target, src->shape, src->elementType, *src->layout,
                        *dst->layout, error);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// Zeroes the `axis` component of dimension `dim`'s bases and renumbers the
/// remaining axis components 1, 2, 4, ... in input order.
static GF2Layout zeroAxisAndRenumber(const GF2Layout &l, unsigned axis,
                                     StringRef dim) {
  SmallVector<GF2Layout::InDim, 4> ins(l.getInDims().begin(),
                                       l.getInDims().end());
  for (GF2Layout::InDim &d : ins)
    if (d.name == dim)
      for (GF2Layout::Basis &b : d.bases)
        b[axis] = 0;
  int32_t next = 1;
  for (GF2Layout::InDim &d : ins)
    for (GF2Layout::Basis &b : d.bases)
      if (b[axis] != 0) {
        b[axis] = next;
        next *= 2;
      }
  return GF2Layout(std::move(ins),
                   SmallVector<GF2Layout::OutDim, 4>(l.getOutDims().begin(),
                                                     l.getOutDims().end()))
      .withInferredOutSizes();
}

/// The layout that swaps the warp bits along `axis` into lanes, so the next
/// round reduces them within warps.
static GF2Layout interLayout(const GF2Layout &l, unsigned axis) {
  SmallVector<GF2Layout::InDim, 4> ins(l.getInDims().begin(),
                                       l.getInDims().end());
  auto find = [&](StringRef n) -> SmallVector<GF2Layout::Basis, 8> * {
    for (GF2Layout::InDim &d : ins)
      if (d.name == n)
        return &d.bases;
    return nullptr;
  };
  auto *lanes = find(kLane), *warps = find(kWarp), *blocks = find(kBlock);
  SmallVector<GF2Layout::Basis, 8> empty;
  if (!lanes)
    lanes = &empty;
  auto axisBases = [&](SmallVector<GF2Layout::Basis, 8> *bs) {
    SmallVector<unsigned> out;
    if (bs)
      for (unsigned i = 0; i < bs->size(); ++i)
        if ((*bs)[i][axis] != 0)
          out.push_back(i);
    return out;
  };
  SmallVector<unsigned> warpAxis = axisBases(warps),
                        blockAxis = axisBases(blocks);
  SmallVector<unsigned> zeroLanes;
  for (unsigned i = 0; i < lanes->size(); ++i)
    if (llvm::all_of((*lanes)[i], [](int32_t v) { return v == 0; }))
      zeroLanes.push_back(i);
  size_t total = warpAxis.size() + blockAxis.size();
  unsigned laneIdx = 0;
  if (zeroLanes.size() >= total) {
    for (unsigned idx : warpAxis)
      std::swap((*lanes)[zeroLanes[laneIdx++]], (*warps)[idx]);
    for (unsigned idx : blockAxis)
      std::swap((*lanes)[zeroLanes[laneIdx++]], (*blocks)[idx]);
  } else if (total <= lanes->size()) {
    for (unsigned idx : warpAxis)
      std::swap((*lanes)[laneIdx++], (*warps)[idx]);
    for (unsigned idx : blockAxis)
      std::swap((*lanes)[laneIdx++], (*blocks)[idx]);
  } else {
    for (unsigned idx : warpAxis) {
      std::swap((*lanes)[laneIdx++], (*warps)[idx]);
      if (laneIdx >= lanes->size())
        break;
    }
  }
  return GF2Layout(std::move(ins),
                   SmallVector<GF2Layout::OutDim, 4>(l.getOutDims().begin(),
                                                     l.getOutDims().end()));
}

FailureOr<int64_t>
mlir::triton_mfma::reduceScratchBytes(const TargetModel &target, Operation *op,
                                      std::string *error) {
  auto axisAttr = op->getAttrOfType<IntegerAttr>("axis");
  if (!axisAttr || op->getNumOperands() == 0)
    return failWith(error, "tt.reduce without axis or operands");
  unsigned axis = unsigned(axisAttr.getInt());
  FailureOr<TensorInfo> src = getTensorInfo(op->getOperand(0).getType(), error);
  if (failed(src))
    return failure();
  if (!src->layout)
    return failWith(error, "tt.reduce operand has no #ttg layout");
  if (axis >= src->shape.size())
    return failWith(error, "tt.reduce axis out of range");
  FailureOr<GF2Layout> ll =
      toGF2Layout(*src->layout, src->shape, target.threadsPerWarp, error);
  if (failed(ll))
    return failure();

  // Registers, then lanes, reduced within the warp.
  GF2Layout reg = ll->removeZeroBases(kReg);
  {
    SmallVector<GF2Layout::InDim, 4> ins(reg.getInDims().begin(),
                                         reg.getInDims().end());
    for (GF2Layout::InDim &d : ins)
      if (d.name == kReg)
        std::stable_partition(
            d.bases.begin(), d.bases.end(),
            [&](const GF2Layout::Basis &b) { return b[axis] != 0; });
    reg = GF2Layout(std::move(ins),
                    SmallVector<GF2Layout::OutDim, 4>(reg.getOutDims().begin(),
                                                      reg.getOutDims().end()));
  }
  reg = zeroAxisAndRenumber(reg, axis, kReg).removeZeroBases(kReg);
  reg = zeroAxisAndRenumber(reg, axis, kLane);

  auto isReduced = [&](const GF2Layout &l) {
    return l.getOutDims()[axis].size == 1;
  };
  int64_t best = 0;
  for (int round = 0; !isReduced(reg); ++round) {
    if (round > 3)
      return failWith(error, "tt.reduce: too many rounds");
    GF2Layout tmp = interLayout(reg, axis);
    int64_t bytes = 0;
    for (Value in : op->getOperands()) {
      auto t = dyn_cast<RankedTensorType>(in.getType());
      if (!t)
        return failWith(error, "tt.reduce operand is not a ranked tensor");
      unsigned bw = getLDSBitwidth(t.getElementType());
      if (bw == 0)
        return failWith(error, "tt.reduce element type without a width");
      // Each round is an LDS round trip reg -> tmp, sized as such.
      bytes += swizzledScratch(target, reg, tmp, bw).elements * bw / 8;
    }
    best = std::max(best, bytes);
    reg = zeroAxisAndRenumber(tmp, axis, kLane);
  }
  return best;
}

//===----------------------------------------------------------------------===//
// Scratch of one operation
//===----------------------------------------------------------------------===//

FailureOr<int64_t> mlir::triton_mfma::scratchBytesOf(const TargetModel &target,
                                                     Operation *op,
                                                     std::string *error) {
  StringRef name = op->getName().getStringRef();
  if (name == "ttg.convert_layout") {
    FailureOr<ConvertCost> c = analyzeConvertOp(target, op, error);
    if (failed(c))
      return failure();
    return c->scratchBytes;
  }
  if (name == "tt.reduce")
    return reduceScratchBytes(target, op, error);
  // Operations that may need scratch but are not modelled: refuse rather
  // than guess.
  static const char *const kUnmodelled[] = {"tt.scan",
                                            "tt.gather",
                                            "tt.histogram",
                                            "tt.call",
                                            "ttg.warp_specialize",
                                            "tt.atomic_rmw",
                                            "tt.atomic_cas",
                                            "amdg.buffer_atomic_rmw",
                                            "amdg.buffer_atomic_cas",
                                            "ttg.local_atomic_scatter_rmw"};
  for (const char *u : kUnmodelled)
    if (name == u) {
      // Atomics only need scratch when their result is used.
      if (StringRef(u).contains("atomic") && op->use_empty())
        return int64_t(0);
      return failWith(error,
                      Twine("LDS scratch of '") + name + "' is not modelled");
    }
  return int64_t(0);
}

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

namespace {

bool isSharedLocalAlloc(Operation *op) {
  if (op->getName().getStringRef() != "ttg.local_alloc" ||
      op->getNumResults() != 1)
    return false;
  FailureOr<MemDescInfo> md = getMemDescInfo(op->getResult(0).getType());
  return succeeded(md) && md->memorySpace &&
         md->memorySpace->getKind() == LayoutKind::SharedMemory;
}

FailureOr<int64_t> explicitBytes(Operation *alloc, std::string *error) {
  FailureOr<MemDescInfo> md =
      getMemDescInfo(alloc->getResult(0).getType(), error);
  if (failed(md))
    return failure();
  int64_t elems = 1;
  for (int64_t s : md->allocShape)
    elems *= s;
  if (auto *padded = dyn_cast_or_null<PaddedSharedLayout>(md->encoding.get())) {
    // Padding after every `interval` elements.
    int64_t extra = 0;
    for (auto [interval, pad] : llvm::zip(padded->intervals, padded->paddings))
      if (interval > 0)
        extra += (elems / interval) * pad;
    // Triton does not pad after the last interval.
    for (auto [interval, pad] : llvm::zip(padded->intervals, padded->paddings))
      if (interval > 0 && elems % interval == 0 && elems >= int64_t(interval))
        extra -= pad;
    elems += extra;
  }
  unsigned bw = md->elementType ? getLDSBitwidth(md->elementType) : 0;
  if (bw == 0)
    return failWith(error, "local_alloc element type without a known width");
  // Explicit buffers use the plain width (i1 is stored as a byte too).
  return elems * bw / 8;
}

int64_t allocAlignment(Operation *alloc) {
  if (auto a = alloc->getAttrOfType<IntegerAttr>("alignment"))
    return a.getInt();
  return 16;
}

bool isMemDescView(StringRef name) {
  return name == "ttg.memdesc_index" || name == "ttg.memdesc_subslice" ||
         name == "ttg.memdesc_trans" || name == "ttg.memdesc_reshape" ||
         name == "ttg.memdesc_reinterpret" || name == "ttg.memdesc_subview";
}

/// Which local_allocs each value may alias: views of an alloc, and values
/// flowing through scf.for / scf.if / scf.while (matched by name: the scf
/// dialect is unregistered here).
DenseMap<Value, llvm::SmallSetVector<Operation *, 2>>
computeAliases(Operation *func) {
  DenseMap<Value, llvm::SmallSetVector<Operation *, 2>> alias;
  bool changed = true;
  auto merge = [&](Value to, Value from) {
    auto it = alias.find(from);
    if (it == alias.end())
      return;
    auto copy = it->second;
    auto &set = alias[to];
    for (Operation *a : copy)
      changed |= set.insert(a);
  };
  auto yieldOf = [](Region &r) -> Operation * {
    if (r.empty() || r.front().empty())
      return nullptr;
    return &r.front().back();
  };
  while (changed) {
    changed = false;
    func->walk([&](Operation *op) {
      StringRef name = op->getName().getStringRef();
      if (isSharedLocalAlloc(op)) {
        changed |= alias[op->getResult(0)].insert(op);
      } else if (isMemDescView(name) && op->getNumOperands() > 0 &&
                 op->getNumResults() == 1) {
        merge(op->getResult(0), op->getOperand(0));
      } else if (name == "scf.for" && op->getNumRegions() == 1) {
        Block &body = op->getRegion(0).front();
        Operation *yield = yieldOf(op->getRegion(0));
        unsigned n = op->getNumResults();
        for (unsigned i = 0; i < n; ++i) {
          Value init = op->getOperand(3 + i);
          Value arg = body.getArgument(1 + i);
          merge(arg, init);
          merge(op->getResult(i), init);
          if (yield && i < yield->getNumOperands()) {
            merge(arg, yield->getOperand(i));
            merge(op->getResult(i), yield->getOperand(i));
          }
        }
      } else if (name == "scf.if") {
        for (Region &r : op->getRegions())
          if (Operation *yield = yieldOf(r))
            for (unsigned i = 0;
                 i < op->getNumResults() && i < yield->getNumOperands(); ++i)
              merge(op->getResult(i), yield->getOperand(i));
      } else if (name == "scf.while" && op->getNumRegions() == 2) {
        Block &before = op->getRegion(0).front();
        Block &after = op->getRegion(1).front();
        Operation *cond = yieldOf(op->getRegion(0));
        Operation *yield = yieldOf(op->getRegion(1));
        for (unsigned i = 0; i < before.getNumArguments(); ++i) {
          if (i < op->getNumOperands())
            merge(before.getArgument(i), op->getOperand(i));
          if (yield && i < yield->getNumOperands())
            merge(before.getArgument(i), yield->getOperand(i));
        }
        if (cond)
          for (unsigned i = 1; i < cond->getNumOperands(); ++i) {
            if (i - 1 < after.getNumArguments())
              merge(after.getArgument(i - 1), cond->getOperand(i));
            if (i - 1 < op->getNumResults())
              merge(op->getResult(i - 1), cond->getOperand(i));
          }
      }
    });
  }
  return alias;
}

struct Interval {
  int64_t start = 0, end = std::numeric_limits<int64_t>::max();
  bool intersects(const Interval &o) const {
    return start < o.end && o.start < end;
  }
};

} // namespace

std::optional<size_t> LDSAllocation::bufferOf(Operation *op) const {
  for (auto [i, b] : llvm::enumerate(buffers))
    if (b.owner == op)
      return i;
  return std::nullopt;
}

int64_t LDSAllocation::explicitBytesLiveAt(Operation *op) const {
  auto it = opIds.find(op);
  if (it == opIds.end())
    return 0;
  int64_t id = it->second, bytes = 0;
  for (const LDSBuffer &b : buffers)
    if (b.kind == LDSBuffer::Kind::Explicit && b.owner != op &&
        b.liveStart <= id && id < b.liveEnd)
      bytes += b.size;
  return bytes;
}

FailureOr<LDSAllocation>
mlir::triton_mfma::allocateLDS(const TargetModel &target, Operation *func,
                               std::string *error) {
  LDSAllocation alloc;
  // Operation ids in post-order: a parent after everything it contains.
  func->walk<WalkOrder::PostOrder>(
      [&](Operation *op) { alloc.opIds[op] = int64_t(alloc.opIds.size()); });

  // Buffers in Triton's order: explicit ones (pre-order), then scratch.
  SmallVector<LDSBuffer> explicitBufs, scratchBufs;
  std::string err;
  bool failedOp = false;
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (failedOp || op == func)
      return;
    if (isSharedLocalAlloc(op)) {
      FailureOr<int64_t> bytes = explicitBytes(op, &err);
      if (failed(bytes)) {
        failedOp = true;
        return;
      }
      explicitBufs.push_back(
          {LDSBuffer::Kind::Explicit, op, *bytes, allocAlignment(op)});
      return;
    }
    FailureOr<int64_t> bytes = scratchBytesOf(target, op, &err);
    if (failed(bytes)) {
      err = (op->getName().getStringRef() + ": " + err).str();
      failedOp = true;
      return;
    }
    if (*bytes > 0)
      scratchBufs.push_back({LDSBuffer::Kind::Scratch, op, *bytes, 128});
  });
  if (failedOp) {
    if (error)
      *error = err;
    return failure();
  }

  // Liveness of explicit buffers: every value aliasing them.
  Liveness liveness(func);
  auto rangeOf = [&](Value v) {
    Interval r{std::numeric_limits<int64_t>::max(),
               std::numeric_limits<int64_t>::min()};
    for (Operation *live : liveness.resolveLiveness(v)) {
      int64_t id = alloc.opIds.lookup(live);
      r.start = std::min(r.start, id);
      r.end = std::max(r.end, id + 1);
    }
    return r;
  };
  auto aliases = computeAliases(func);
  for (LDSBuffer &b : explicitBufs) {
    Interval r = rangeOf(b.owner->getResult(0));
    b.liveStart = r.start;
    b.liveEnd = r.end;
  }
  // Values in operation order (operands, then results), as Triton visits
  // them; each extends the range of the buffers it may alias.
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    auto extend = [&](Value v) {
      auto it = aliases.find(v);
      if (it == aliases.end())
        return;
      Interval r = rangeOf(v);
      for (Operation *a : it->second)
        for (LDSBuffer &b : explicitBufs)
          if (b.owner == a) {
            b.liveStart = std::min(b.liveStart, r.start);
            b.liveEnd = std::max(b.liveEnd, r.end);
          }
    };
    for (Value v : op->getOperands())
      extend(v);
    for (Value v : op->getResults())
      extend(v);
  });
  for (LDSBuffer &b : scratchBufs) {
    b.liveStart = alloc.opIds.lookup(b.owner);
    b.liveEnd = b.liveStart + 1;
  }

  SmallVector<LDSBuffer> &bufs = alloc.buffers;
  bufs.append(explicitBufs.begin(), explicitBufs.end());
  bufs.append(scratchBufs.begin(), scratchBufs.end());
  // Larger buffers first (stable).
  SmallVector<size_t> order(bufs.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return bufs[a].size > bufs[b].size;
  });
  auto live = [&](size_t i) {
    return Interval{bufs[i].liveStart, bufs[i].liveEnd};
  };
  auto setOffsetAligned = [&](size_t i, int64_t off) {
    int64_t a = std::max<int64_t>(1, bufs[i].alignment);
    bufs[i].offset = (off + a - 1) / a * a;
    return bufs[i].offset;
  };

  // 1. First fit over liveness: slots (offset -> live range still free).
  std::multimap<int64_t, Interval> slots;
  slots.insert({0, Interval{}});
  SmallVector<size_t> todo(order);
  while (!todo.empty() && !slots.empty()) {
    auto slotIt = slots.begin();
    int64_t offset = slotIt->first;
    Interval range = slotIt->second;
    slots.erase(slotIt);
    auto pick = llvm::find_if(todo, [&](size_t i) {
      Interval x = live(i);
      if (!x.intersects(range))
        return false;
      for (auto &s : slots)
        if (s.second.intersects(x))
          return false;
      return true;
    });
    if (pick == todo.end())
      continue;
    size_t i = *pick;
    Interval x = live(i);
    int64_t at = setOffsetAligned(i, offset);
    slots.insert({at + bufs[i].size, Interval{std::max(range.start, x.start),
                                              std::min(range.end, x.end)}});
    if (range.start < x.start)
      slots.insert({offset, Interval{range.start, x.end}});
    if (x.end < range.end)
      slots.insert({offset, Interval{x.start, range.end}});
    todo.erase(pick);
  }

  // 2. Colour until no two live-overlapping buffers overlap in memory.
  auto interference = [&]() {
    DenseMap<size_t, SmallVector<size_t>> g;
    for (size_t x : order)
      for (size_t y : order) {
        if (x == y)
          continue;
        Interval xs{bufs[x].offset, bufs[x].offset + bufs[x].size};
        Interval ys{bufs[y].offset, bufs[y].offset + bufs[y].size};
        if (live(x).intersects(live(y)) && xs.intersects(ys))
          g[x].push_back(y);
      }
    return g;
  };
  DenseMap<size_t, SmallVector<size_t>> graph = interference();
  int guard = 0;
  do {
    alloc.totalBytes = 0;
    DenseMap<size_t, int> colors;
    for (size_t x : order)
      colors[x] = x == order.front() ? 0 : -1;
    for (size_t x : order) {
      SmallVector<bool> available(order.size(), true);
      for (size_t y : graph.lookup(x))
        if (colors[y] >= 0)
          available[colors[y]] = false;
      colors[x] = int(llvm::find(available, true) - available.begin());
    }
    for (size_t x : order) {
      int64_t newOffset = 0;
      for (size_t y : graph.lookup(x))
        newOffset = std::max(newOffset, bufs[y].offset + bufs[y].size);
      if (colors[x] != 0)
        setOffsetAligned(x, newOffset);
      alloc.totalBytes =
          std::max(alloc.totalBytes, bufs[x].offset + bufs[x].size);
    }
    graph = interference();
  } while (!graph.empty() && ++guard < 64);
  if (order.empty())
    alloc.totalBytes = 0;
  (void)target;
  return alloc;
}
