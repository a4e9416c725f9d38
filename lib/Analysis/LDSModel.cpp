//===- LDSModel.cpp - LDS bytes as Triton 3.9 allocates them --------------===//
//
// Three parts, each our own code following facts read from Triton 3.9 and
// checked against it (test/python/test_lds_model.py); the first two are
// here, the third in LDSAllocation.cpp, the GF(2) algebra in GF2Layout.cpp:
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
#include "TritonMFMA/GenericIR.h"
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
  std::optional<StringRef> target = getTarget(module);
  if (!target) {
    if (error)
      *error = ("module has no " + attrname::Target + " attribute").str();
    return failure();
  }
  unsigned tpw = 64;
  if (std::optional<unsigned> a = getThreadsPerWarp(module))
    tpw = *a;
  else if (target->starts_with("cuda"))
    tpw = 32;
  if (!llvm::isPowerOf2_32(tpw) || tpw > 64) {
    if (error)
      *error = (attrname::ThreadsPerWarp + " = " + Twine(tpw) +
                " is not modelled (a power of two up to 64)")
                   .str();
    return failure();
  }
  return fromTarget(*target, tpw, error);
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
  if (isTritonPointerType(elementType))
    return 64;
  if (elementType.isIntOrIndexOrFloat() && !elementType.isIndex())
    return std::max(8u, elementType.getIntOrFloatBitWidth());
  return 0;
}

//===----------------------------------------------------------------------===//
// Triton's swizzled LDS layout and warp-shuffle test on flat bases
//===----------------------------------------------------------------------===//

namespace {

using Flat = FlatBases;

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

/// `l` over (register, lane) -> `outNames`, with zero bases appended up to
/// `nReg` registers and `nLane` lanes.
GF2Layout padRegisterLane(const GF2Layout &l, ArrayRef<std::string> outNames,
                          int nReg, int nLane) {
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
}

/// A map of (register, lane) bits: [dim][i] = the (register value, lane
/// value) bit i of dim (0 register, 1 lane) goes to.
using RegisterLaneMap = SmallVector<SmallVector<std::array<int32_t, 2>>>;

/// The bit map from padded source S to padded destination T, with the bits
/// zero on both sides mapped to themselves and those zero on one side paired
/// up in order.
RegisterLaneMap registerLaneMap(const GF2Layout &S, const GF2Layout &T) {
  GF2Layout P = S.invertAndCompose(T);
  const char *dims[2] = {kReg, kLane};
  RegisterLaneMap p(2);
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
  return p;
}

/// The register -> lane ... -> register runs in the cycles of `p`.
int countMixedRuns(const RegisterLaneMap &p, int nReg, int nLane) {
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
        // Back at the start: the cycle is closed. (A map that is not a
        // permutation, from layouts with repeated or combined bases, can
        // lead into a cycle that avoids the start: stop there too.)
      } while (flat(currD, currI) != flat(d, i) &&
               !visited[flat(currD, currI)]);
    }
  return count;
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
  GF2Layout S = padRegisterLane(src, outNames, nReg, nLane);
  GF2Layout T = padRegisterLane(dst, outNames, nReg, nLane);
  return countMixedRuns(registerLaneMap(S, T), nReg, nLane);
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
  // toGF2Layout's bounds; the GF(2) solver needs both layouts' input bits
  // in 64 columns, and the two sides must describe the same tensor.
  if (src.getTotalInDimSizeLog2() > 32 || dst.getTotalInDimSizeLog2() > 32 ||
      src.getTotalOutDimSizeLog2() > 30 ||
      src.getOutDims() != dst.getOutDims()) {
    if (error)
      *error = "layouts outside the model (more than 2^32 hardware positions "
               "or different tensor shapes)";
    return failure();
  }
  if (bitwidth == 0 || bitwidth > 128) {
    if (error)
      *error =
          ("element width of " + Twine(bitwidth) + " bits not modelled").str();
    return failure();
  }
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
  // A failure names the layout (the attribute) and why.
  auto convert = [&](const Layout &l) -> FailureOr<GF2Layout> {
    std::string why;
    FailureOr<GF2Layout> ll =
        toGF2Layout(l, shape, target.threadsPerWarp, error ? &why : nullptr);
    if (failed(ll) && error)
      *error = "layout " + l.str() + ": " + why;
    return ll;
  };
  FailureOr<GF2Layout> s = convert(src);
  if (failed(s))
    return failure();
  FailureOr<GF2Layout> d = convert(dst);
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

namespace {
/// The axis and first operand of a tt.reduce / tt.scan.
struct AxisSource {
  unsigned axis;
  TensorInfo src;
};
} // namespace

static FailureOr<AxisSource> axisSource(Operation *op,
                                        std::optional<unsigned> axis,
                                        StringRef name, std::string *error) {
  if (!axis || op->getNumOperands() == 0) {
    (void)failWith(error, name + " without axis or operands");
    return failure();
  }
  FailureOr<TensorInfo> src = getTensorInfo(op->getOperand(0).getType(), error);
  if (failed(src))
    return failure();
  return AxisSource{*axis, std::move(*src)};
}

FailureOr<int64_t>
mlir::triton_mfma::reduceScratchBytes(const TargetModel &target, Operation *op,
                                      std::string *error) {
  FailureOr<AxisSource> as =
      axisSource(op, ReduceOp(op).getAxis(), opname::Reduce, error);
  if (failed(as))
    return failure();
  unsigned axis = as->axis;
  std::optional<TensorInfo> src = std::move(as->src);
  if (!src->layout)
    return failWith(error, opname::Reduce + " operand has no #ttg layout");
  if (axis >= src->shape.size())
    return failWith(error, opname::Reduce + " axis out of range");
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
      return failWith(error, opname::Reduce + ": too many rounds");
    GF2Layout tmp = interLayout(reg, axis);
    int64_t bytes = 0;
    for (Value in : op->getOperands()) {
      auto t = dyn_cast<RankedTensorType>(in.getType());
      if (!t)
        return failWith(error,
                        opname::Reduce + " operand is not a ranked tensor");
      unsigned bw = getLDSBitwidth(t.getElementType());
      if (bw == 0)
        return failWith(error,
                        opname::Reduce + " element type without a width");
      // Each round is an LDS round trip reg -> tmp, sized as such.
      bytes += swizzledScratch(target, reg, tmp, bw).elements * bw / 8;
    }
    best = std::max(best, bytes);
    reg = zeroAxisAndRenumber(tmp, axis, kLane);
  }
  return best;
}

// Triton's ScanLoweringHelper::getScratchSizeInBytes: warps along the axis
// exchange their partial results through LDS, one element per operand for
// each non-axis thread of every warp, block and axis block.
FailureOr<int64_t> mlir::triton_mfma::scanScratchBytes(Operation *op,
                                                       std::string *error) {
  FailureOr<AxisSource> as =
      axisSource(op, ScanOp(op).getAxis(), opname::Scan, error);
  if (failed(as))
    return failure();
  unsigned axis = as->axis;
  std::optional<TensorInfo> src = std::move(as->src);
  auto *blocked = dyn_cast_or_null<BlockedLayout>(src->layout.get());
  if (!blocked) // Triton's lowering supports blocked layouts only: no scratch
    return int64_t(0);
  size_t rank = src->shape.size();
  if (axis >= rank || blocked->sizePerThread.size() != rank ||
      blocked->threadsPerWarp.size() != rank ||
      blocked->warpsPerCTA.size() != rank)
    return failWith(error, opname::Scan + " axis or layout rank out of range");
  if (blocked->warpsPerCTA[axis] == 1)
    return int64_t(0);
  int64_t elementBytes = 0;
  for (Value in : op->getOperands()) {
    auto t = dyn_cast<RankedTensorType>(in.getType());
    unsigned bw = t ? getLDSBitwidth(t.getElementType()) : 0;
    if (bw == 0)
      return failWith(error, opname::Scan + " operand without a width");
    elementBytes += (bw + 7) / 8;
  }
  auto ceilDiv = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
  int64_t warps = 1, threads = 1, nonAxisElems = 1, nonAxisBlocks = 1;
  for (size_t d = 0; d < rank; ++d) {
    warps *= blocked->warpsPerCTA[d];
    threads *= blocked->threadsPerWarp[d];
    int64_t perBlock = int64_t(blocked->sizePerThread[d]) *
                       blocked->threadsPerWarp[d] * blocked->warpsPerCTA[d];
    if (d == axis)
      continue;
    nonAxisElems *= blocked->sizePerThread[d];
    nonAxisBlocks *= ceilDiv(src->shape[d], perBlock);
  }
  int64_t axisBlocks = ceilDiv(
      src->shape[axis], int64_t(blocked->sizePerThread[axis]) *
                            blocked->threadsPerWarp[axis] *
                            blocked->warpsPerCTA[axis]);
  int64_t nonAxisThreads = threads / blocked->threadsPerWarp[axis];
  return elementBytes * warps * nonAxisThreads * nonAxisElems * axisBlocks *
         nonAxisBlocks;
}

//===----------------------------------------------------------------------===//
// Scratch of one operation
//===----------------------------------------------------------------------===//

FailureOr<int64_t> mlir::triton_mfma::scratchBytesOf(const TargetModel &target,
                                                     Operation *op,
                                                     std::string *error) {
  if (isOp(op, opname::ConvertLayout)) {
    FailureOr<ConvertCost> c = analyzeConvertOp(target, op, error);
    if (failed(c))
      return failure();
    return c->scratchBytes;
  }
  if (isOp(op, opname::Reduce))
    return reduceScratchBytes(target, op, error);
  if (isOp(op, opname::Scan))
    return scanScratchBytes(op, error);
  // Operations that may need scratch but are not modelled: refuse rather
  // than guess. Atomics only need scratch when their result is used.
  bool atomic =
      isAnyOp(op, opname::AtomicRMW, opname::AtomicCAS, opname::BufferAtomicRMW,
              opname::BufferAtomicCAS, opname::LocalAtomicScatterRMW);
  if (atomic || isAnyOp(op, opname::Gather, opname::Histogram,
                        opname::Call, opname::WarpSpecialize)) {
    if (atomic && op->use_empty())
      return int64_t(0);
    return failWith(error, Twine("LDS scratch of '") +
                               op->getName().getStringRef() +
                               "' is not modelled");
  }
  return int64_t(0);
}
