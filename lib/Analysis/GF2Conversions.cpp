//===- GF2Conversions.cpp - TritonGPU layouts to GF(2) maps ---------------===//
//
// The linear layout Triton 3.9 assigns to a register layout for a given
// tensor shape. Facts (checked against Triton 3.9's own conversion, which the
// Python tests call through its gluon bindings):
//
//  - A layout first describes one CTA's tile (register, lane, warp bases);
//    the tile is then fitted to the shape: output dimensions smaller than the
//    shape get extra register bases (identity, one output dimension after the
//    other in the tile's output order); along larger ones every basis value
//    at or beyond the shape becomes zero, whatever its input dimension
//    (those elements are then broadcast).
//  - blocked: sizePerThread, threadsPerWarp, warpsPerCTA are identities laid
//    out along `order` (most minor first).
//  - slice: the parent's layout for the shape with a 1 inserted at `dim`,
//    without that output dimension and without its all-zero register bases.
//  - amd_mfma (32x32, 16x16 results, order [1, 0]): one instruction's tile
//    (below), warps along dim1 then dim0 spaced by tile * tilesPerWarp, and
//    every remaining bit of a dimension (tilesPerWarp repeats and shape
//    repeats alike) a register basis, dim1's bits first, each ascending.
//  - dot_op of an amd_mfma parent: kWidth consecutive K elements in
//    registers, lanes along the non-K dimension across the instruction's
//    width then along K (stride kWidth), warps as the parent's along the
//    operand's non-K dimension and broadcast along the other, then remaining
//    K bits, then remaining non-K bits, as registers.
//  - nvidia_mma: v2 tile 16x8 per warp, v3 (wgmma) 64xN per warpgroup.
//  - linear: the bases as written.
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/GF2Layout.h"
#include "TritonMFMA/Layouts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::triton_mfma;

namespace {

/// Bounds of the model: a tensor of at most 2^30 elements (every output
/// size fits an int32), a CTA tile of at most 2^30 elements, and at most 32
/// input bits per layout (so that two layouts' GF(2) matrices fit the 64
/// columns of a uint64_t row in invertAndCompose).
constexpr int kMaxOutBits = 30;
constexpr int kMaxTileBits = 30;
constexpr int kMaxInBits = 32;

int log2i(int64_t v) { return llvm::Log2_64(uint64_t(v)); }

/// identity1D per dimension along `order` (most minor first).
GF2Layout identityStandardND(StringRef in, ArrayRef<unsigned> sizes,
                             ArrayRef<unsigned> order,
                             ArrayRef<std::string> outNames) {
  GF2Layout r;
  for (unsigned d : order)
    r *= GF2Layout::identity1D(sizes[d], in, outNames[d]);
  return r;
}

/// Zeroes, along output `out`, every basis component that is not below
/// `size` (those elements are broadcast instead), in every input dimension.
GF2Layout zeroOutside(const GF2Layout &l, StringRef out, int32_t size) {
  int o = l.getOutDimIndex(out);
  SmallVector<GF2Layout::InDim, 4> ins(l.getInDims().begin(),
                                       l.getInDims().end());
  for (GF2Layout::InDim &d : ins)
    for (GF2Layout::Basis &b : d.bases)
      if (b[o] >= size)
        b[o] = 0;
  SmallVector<GF2Layout::OutDim, 4> outs(l.getOutDims().begin(),
                                         l.getOutDims().end());
  outs[o].size = size;
  return GF2Layout(std::move(ins), std::move(outs));
}

/// Fits a CTA layout (outputs in tile order) to `shape` and appends the
/// (single-CTA) block dimension; outputs end in standard order.
GF2Layout fitToShape(GF2Layout cta, ArrayRef<int64_t> shape) {
  SmallVector<std::string> std = standardOutDimNames(shape.size());
  SmallVector<std::string> tileOrder;
  for (const GF2Layout::OutDim &o : cta.getOutDims())
    tileOrder.push_back(o.name);
  auto desired = [&](StringRef name) {
    for (auto [i, n] : llvm::enumerate(std))
      if (n == name)
        return int32_t(shape[i]);
    return int32_t(1);
  };
  for (const std::string &o : tileOrder) {
    int32_t actual = cta.getOutDimSize(o), want = desired(o);
    if (actual < want)
      cta *= GF2Layout::identity1D(want / actual, kReg, o);
  }
  for (const std::string &o : tileOrder)
    if (cta.getOutDimSize(o) > desired(o))
      cta = zeroOutside(cta, o, desired(o));
  GF2Layout block;
  for (const std::string &o : tileOrder)
    block *= GF2Layout::identity1D(1, kBlock, o);
  return (cta * block).transposeOuts(std);
}

/// A layout from explicit bases given in standard output coordinates.
GF2Layout fromBases(
    ArrayRef<std::pair<const char *, SmallVector<GF2Layout::Basis, 8>>> dims,
    ArrayRef<int64_t> sizes) {
  SmallVector<GF2Layout::InDim, 4> ins;
  for (auto &[name, bases] : dims)
    ins.push_back({name, bases});
  SmallVector<GF2Layout::OutDim, 4> outs;
  SmallVector<std::string> std = standardOutDimNames(sizes.size());
  for (auto [i, s] : llvm::enumerate(sizes))
    outs.push_back({std[i], int32_t(s)});
  return GF2Layout(std::move(ins), std::move(outs));
}

GF2Layout::Basis unit(unsigned rank, unsigned dim, int32_t v) {
  GF2Layout::Basis b(rank, 0);
  b[dim] = v;
  return b;
}

/// Register bases for every bit of dimension `d` below `limit` that no basis
/// of `l` (any input) covers yet, ascending.
void addMissingBits(SmallVectorImpl<GF2Layout::Basis> &regs,
                    ArrayRef<SmallVector<GF2Layout::Basis, 8>> used,
                    unsigned rank, unsigned d, int64_t limit) {
  for (int64_t v = 1; v < limit; v *= 2) {
    bool covered = false;
    for (const auto &list : used)
      for (const GF2Layout::Basis &b : list)
        covered |= b[d] == v;
    for (const GF2Layout::Basis &b : regs)
      covered |= b[d] == v;
    if (!covered)
      regs.push_back(unit(rank, d, int32_t(v)));
  }
}

FailureOr<GF2Layout> fail(std::string *error, const Twine &msg) {
  if (error)
    *error = msg.str();
  return failure();
}

/// Adds log2 of each entry to `bits`; fails unless every entry is a power of
/// two.
LogicalResult addPow2Bits(ArrayRef<unsigned> values, StringRef what, int &bits,
                          std::string *error) {
  for (unsigned v : values) {
    if (!llvm::isPowerOf2_32(v)) {
      if (error)
        *error =
            (what + " must be powers of two, got " + formatList(values)).str();
      return failure();
    }
    bits += log2i(v);
  }
  return success();
}

/// The parameters of an amd_mfma layout the conversion relies on: rank 2,
/// 32x32 or 16x16 results, 32-bit accumulators, waves of 64, power-of-two
/// warps and tiles per warp, the CTA tile within bounds.
LogicalResult checkMfma(const AMDMfmaLayout &l, unsigned threadsPerWarp,
                        StringRef who, std::string *error) {
  auto failWith = [&](const Twine &msg) {
    if (error)
      *error = (who + ": " + msg).str();
    return failure();
  };
  std::string why;
  unsigned m = l.getMDim(), n = l.getNDim();
  if (!((m == 32 && n == 32) || (m == 16 && n == 16)))
    return failWith("only 32x32 and 16x16 results are modelled");
  if (l.elementBitWidth != 32)
    return failWith("only 32-bit accumulators are modelled");
  if (l.warpsPerCTA.size() != 2)
    return failWith("only rank 2 is modelled");
  if (threadsPerWarp != 0 && threadsPerWarp != 64)
    return failWith("waves of " + Twine(threadsPerWarp) +
                    " threads (MFMA needs 64)");
  if (!l.tilesPerWarp.empty() && l.tilesPerWarp.size() != 2 &&
      l.tilesPerWarp.size() != 3)
    return failWith("tilesPerWarp must have 2 or 3 entries, got " +
                    formatList(l.tilesPerWarp));
  int warpBits = 0, tileBits = 0;
  if (failed(addPow2Bits(l.warpsPerCTA, "warpsPerCTA", warpBits, &why)) ||
      failed(addPow2Bits(ArrayRef<unsigned>(l.tilesPerWarp).take_front(2),
                         "tilesPerWarp", tileBits, &why)))
    return failWith(why);
  if (warpBits + tileBits + 2 * log2i(m) > kMaxTileBits)
    return failWith("the CTA tile is larger than 2^" + Twine(kMaxTileBits) +
                    " elements");
  return success();
}

FailureOr<GF2Layout> blockedToGF2(const BlockedLayout &l,
                                  ArrayRef<int64_t> shape,
                                  unsigned threadsPerWarp, std::string *error) {
  // The parser checks these too; the conversion does not rely on it.
  unsigned rank = l.order.size();
  if (l.sizePerThread.size() != rank || l.threadsPerWarp.size() != rank ||
      l.warpsPerCTA.size() != rank)
    return fail(error, "blocked: fields of different ranks");
  SmallVector<bool> seen(rank, false);
  for (unsigned d : l.order) {
    if (d >= rank || seen[d])
      return fail(error, "blocked: order " + formatList(l.order) +
                             " is not a permutation");
    seen[d] = true;
  }
  int regBits = 0, laneBits = 0, warpBits = 0;
  if (failed(addPow2Bits(l.sizePerThread, "blocked: sizePerThread", regBits,
                         error)) ||
      failed(addPow2Bits(l.threadsPerWarp, "blocked: threadsPerWarp", laneBits,
                         error)) ||
      failed(
          addPow2Bits(l.warpsPerCTA, "blocked: warpsPerCTA", warpBits, error)))
    return failure();
  if (regBits + laneBits + warpBits > kMaxTileBits)
    return fail(error, "blocked: the CTA tile is larger than 2^" +
                           Twine(kMaxTileBits) + " elements");
  if (threadsPerWarp != 0 && (int64_t(1) << laneBits) != threadsPerWarp)
    return fail(error,
                "blocked: threadsPerWarp " + formatList(l.threadsPerWarp) +
                    " has " + Twine(int64_t(1) << laneBits) +
                    " threads, the module's warps " + Twine(threadsPerWarp));
  SmallVector<std::string> std = standardOutDimNames(shape.size());
  GF2Layout cta = identityStandardND(kReg, l.sizePerThread, l.order, std) *
                  identityStandardND(kLane, l.threadsPerWarp, l.order, std) *
                  identityStandardND(kWarp, l.warpsPerCTA, l.order, std);
  return fitToShape(cta, shape);
}

/// Full-size layout from bases, then shrunk to `shape` where smaller.
GF2Layout shrinkTo(GF2Layout full, ArrayRef<int64_t> shape) {
  // Outputs in the order dim1, dim0 (the MMA tile order) for shrinking.
  SmallVector<std::string> std = standardOutDimNames(shape.size());
  SmallVector<std::string> rev(std.rbegin(), std.rend());
  return fitToShape(
      full.transposeOuts(rev).sublayout({kReg, kLane, kWarp}, rev), shape);
}

FailureOr<GF2Layout> mfmaToGF2(const AMDMfmaLayout &l, ArrayRef<int64_t> shape,
                               unsigned threadsPerWarp, std::string *error) {
  if (shape.size() != 2)
    return fail(error, "amd_mfma: only rank 2 is modelled");
  if (failed(checkMfma(l, threadsPerWarp, "amd_mfma", error)))
    return failure();
  unsigned m = l.getMDim(), n = l.getNDim();
  // Tile of one instruction; `t`: the dimension registers run along.
  unsigned t = l.isTransposed ? 1 : 0, o = 1 - t;
  SmallVector<GF2Layout::Basis, 8> regs, lanes, warps;
  if (m == 32) {
    for (int32_t v : {1, 2, 8, 16})
      regs.push_back(unit(2, t, v));
    for (int32_t v : {1, 2, 4, 8, 16})
      lanes.push_back(unit(2, o, v));
    lanes.push_back(unit(2, t, 4));
  } else {
    for (int32_t v : {1, 2})
      regs.push_back(unit(2, t, v));
    for (int32_t v : {1, 2, 4, 8})
      lanes.push_back(unit(2, o, v));
    for (int32_t v : {4, 8})
      lanes.push_back(unit(2, t, v));
  }
  SmallVector<unsigned> tpw =
      l.tilesPerWarp.empty() ? SmallVector<unsigned>{1, 1} : l.tilesPerWarp;
  unsigned tile[2] = {m, n};
  SmallVector<int64_t> full(shape.begin(), shape.end());
  for (unsigned d : {1u, 0u}) {
    int64_t stride = int64_t(tile[d]) * tpw[d];
    for (unsigned w = 1; w < l.warpsPerCTA[d]; w *= 2)
      warps.push_back(unit(2, d, int32_t(stride * w)));
    full[d] = std::max(full[d], stride * l.warpsPerCTA[d]);
  }
  for (unsigned d : {1u, 0u})
    addMissingBits(regs, {lanes, warps}, 2, d, full[d]);
  return shrinkTo(
      fromBases({{kReg, regs}, {kLane, lanes}, {kWarp, warps}}, full), shape);
}

FailureOr<GF2Layout> mfmaDotToGF2(const DotOperandLayout &l,
                                  const AMDMfmaLayout &p,
                                  ArrayRef<int64_t> shape,
                                  unsigned threadsPerWarp, std::string *error) {
  if (shape.size() != 2)
    return fail(error, "dot_op: only rank 2 is modelled");
  if (failed(checkMfma(p, threadsPerWarp, "dot_op parent", error)))
    return failure();
  unsigned m = p.getMDim();
  if (l.kWidth == 0 || !llvm::isPowerOf2_32(l.kWidth) || l.kWidth > 1024)
    return fail(error, "dot_op: kWidth must be a power of two up to 1024");
  if (l.opIdx > 1)
    return fail(error, "dot_op: opIdx must be 0 or 1");
  unsigned kDim = l.opIdx == 0 ? 1 : 0, nonK = 1 - kDim;
  SmallVector<GF2Layout::Basis, 8> regs, lanes, warps;
  for (unsigned v = 1; v < l.kWidth; v *= 2)
    regs.push_back(unit(2, kDim, int32_t(v)));
  unsigned tileNonK = m;
  for (unsigned v = 1; v < tileNonK; v *= 2)
    lanes.push_back(unit(2, nonK, int32_t(v)));
  for (unsigned v = l.kWidth; lanes.size() < 6; v *= 2)
    lanes.push_back(unit(2, kDim, int32_t(v)));
  SmallVector<unsigned> tpw =
      p.tilesPerWarp.empty() ? SmallVector<unsigned>{1, 1} : p.tilesPerWarp;
  SmallVector<int64_t> full(shape.begin(), shape.end());
  int64_t kCover = int64_t(l.kWidth) << (6 - log2i(tileNonK));
  full[kDim] = std::max(full[kDim], kCover);
  for (unsigned d : {1u, 0u}) {
    if (d == nonK) {
      int64_t stride = int64_t(tileNonK) * tpw[d];
      for (unsigned w = 1; w < p.warpsPerCTA[d]; w *= 2)
        warps.push_back(unit(2, d, int32_t(stride * w)));
      full[d] = std::max(full[d], stride * p.warpsPerCTA[d]);
    } else {
      for (unsigned w = 1; w < p.warpsPerCTA[d]; w *= 2)
        warps.push_back(GF2Layout::Basis(2, 0));
    }
  }
  addMissingBits(regs, {lanes, warps}, 2, kDim, full[kDim]);
  addMissingBits(regs, {lanes, warps}, 2, nonK, full[nonK]);
  return shrinkTo(
      fromBases({{kReg, regs}, {kLane, lanes}, {kWarp, warps}}, full), shape);
}

FailureOr<GF2Layout> nvidiaMmaToGF2(const NvidiaMmaLayout &l,
                                    ArrayRef<int64_t> shape,
                                    unsigned threadsPerWarp,
                                    std::string *error) {
  if (shape.size() != 2 || threadsPerWarp != 32)
    return fail(error, "nvidia_mma: only rank 2, 32 threads per warp");
  SmallVector<GF2Layout::Basis, 8> regs, lanes, warps;
  // One 16x8 (v2) or 16xN (v3) accumulator tile per warp: (dim0, dim1).
  regs.push_back(unit(2, 1, 1));
  regs.push_back(unit(2, 0, 8));
  for (int32_t v : {2, 4})
    lanes.push_back(unit(2, 1, v));
  for (int32_t v : {1, 2, 4})
    lanes.push_back(unit(2, 0, v));
  if (l.warpsPerCTA.size() != 2)
    return fail(error, "nvidia_mma: only rank 2 is modelled");
  int warpBits = 0;
  if (failed(addPow2Bits(l.warpsPerCTA, "nvidia_mma: warpsPerCTA", warpBits,
                         error)))
    return failure();
  if (warpBits > 16)
    return fail(error, "nvidia_mma: more than 2^16 warps");
  int64_t tileN = 8;
  if (l.versionMajor == 3) {
    if (l.instrShape.size() < 2)
      return fail(error, "nvidia_mma v3: instrShape missing");
    if (!llvm::isPowerOf2_32(l.instrShape[1]) || l.instrShape[1] < 8 ||
        l.instrShape[1] > 256)
      return fail(error, "nvidia_mma v3: instrShape N must be a power of two "
                         "in [8, 256]");
    tileN = l.instrShape[1];
    for (int64_t v = 8; v < tileN; v *= 2)
      regs.push_back(unit(2, 1, int32_t(v)));
  } else if (l.versionMajor != 2) {
    return fail(error, "nvidia_mma: only versions 2 and 3 are modelled");
  }
  // Warps: dim0 first (16 rows each), then dim1.
  int64_t tile[2] = {16, tileN};
  SmallVector<int64_t> full(shape.begin(), shape.end());
  for (unsigned d : {0u, 1u}) {
    for (unsigned w = 1; w < l.warpsPerCTA[d]; w *= 2)
      warps.push_back(unit(2, d, int32_t(tile[d] * w)));
    full[d] = std::max(full[d], tile[d] * l.warpsPerCTA[d]);
  }
  for (unsigned d : {1u, 0u})
    addMissingBits(regs, {lanes, warps}, 2, d, full[d]);
  return shrinkTo(
      fromBases({{kReg, regs}, {kLane, lanes}, {kWarp, warps}}, full), shape);
}

FailureOr<GF2Layout> toGF2LayoutImpl(const Layout &layout,
                                     ArrayRef<int64_t> shape,
                                     unsigned threadsPerWarp,
                                     std::string *error);

} // namespace

FailureOr<GF2Layout> mlir::triton_mfma::toGF2Layout(const Layout &layout,
                                                    ArrayRef<int64_t> shape,
                                                    unsigned threadsPerWarp,
                                                    std::string *error) {
  int outBits = 0;
  for (int64_t s : shape) {
    if (s <= 0 || !llvm::isPowerOf2_64(uint64_t(s)))
      return fail(error, "tensor dimensions must be powers of two");
    outBits += log2i(s);
  }
  if (outBits > kMaxOutBits)
    return fail(error, "tensors of more than 2^" + Twine(kMaxOutBits) +
                           " elements are not modelled");
  if (layout.getRank() != shape.size())
    return fail(error, "layout rank " + Twine(layout.getRank()) +
                           " differs from the tensor's " + Twine(shape.size()));
  FailureOr<GF2Layout> result =
      toGF2LayoutImpl(layout, shape, threadsPerWarp, error);
  if (succeeded(result) && result->getTotalInDimSizeLog2() > kMaxInBits)
    return fail(error, "layout of 2^" + Twine(result->getTotalInDimSizeLog2()) +
                           " hardware positions (more than 2^" +
                           Twine(kMaxInBits) + ") is not modelled");
  return result;
}

namespace {

/// A slice: its parent's layout over the shape with `dim` reinserted (size
/// 1), without that output dimension.
FailureOr<GF2Layout> sliceToGF2(const SliceLayout &s, ArrayRef<int64_t> shape,
                                unsigned threadsPerWarp, std::string *error) {
  if (!s.parent)
    return fail(error, "slice without parent");
  SmallVector<int64_t> parentShape(shape.begin(), shape.end());
  parentShape.insert(parentShape.begin() + s.dim, 1);
  FailureOr<GF2Layout> parent =
      toGF2Layout(*s.parent, parentShape, threadsPerWarp, error);
  if (failed(parent))
    return failure();
  // Drop output `dim` (all zero there), rename the rest dim0.., and drop
  // the register bases that became zero.
  SmallVector<std::string> parentNames =
      standardOutDimNames(parentShape.size());
  SmallVector<std::string> keep;
  for (auto [i, n] : llvm::enumerate(parentNames))
    if (i != s.dim)
      keep.push_back(n);
  GF2Layout sub = parent->sublayout({kReg, kLane, kWarp, kBlock}, keep);
  SmallVector<GF2Layout::InDim, 4> ins(sub.getInDims().begin(),
                                       sub.getInDims().end());
  SmallVector<GF2Layout::OutDim, 4> outs;
  SmallVector<std::string> names = standardOutDimNames(shape.size());
  for (auto [i, o] : llvm::enumerate(sub.getOutDims()))
    outs.push_back({names[i], o.size});
  return GF2Layout(std::move(ins), std::move(outs)).removeZeroBases(kReg);
}

/// A linear layout: its bases as they are, checked against the tensor (and,
/// for `#ttg.linear`, the lanes of a warp).
FailureOr<GF2Layout> linearToGF2(const LinearLayout &l, ArrayRef<int64_t> shape,
                                 unsigned threadsPerWarp, std::string *error) {
  if (l.bases.getInDimSize("block") != 1)
    return fail(error, "multi-CTA layouts are not modelled");
  SmallVector<GF2Layout::InDim, 4> ins;
  for (const char *name : {kReg, kLane, kWarp, kBlock}) {
    GF2Layout::InDim d{name, {}};
    if (const BasisList *bs = l.bases.lookup(name))
      for (const Basis &b : *bs) {
        if (b.size() != shape.size())
          return fail(error, "linear: a basis of the wrong rank");
        for (auto [v, size] : llvm::zip(b, shape))
          if (v < 0 || v >= size)
            return fail(error, Twine("linear: basis entry ") + Twine(v) +
                                   " outside the tensor dimension of " +
                                   Twine(size));
        d.bases.push_back(GF2Layout::Basis(b.begin(), b.end()));
      }
    ins.push_back(std::move(d));
  }
  if (threadsPerWarp != 0 && l.getKind() == LayoutKind::Linear &&
      (int64_t(1) << std::min<size_t>(ins[1].bases.size(), 62)) !=
          threadsPerWarp)
    return fail(error, "linear: " + Twine(ins[1].bases.size()) +
                           " lane bases for warps of " +
                           Twine(threadsPerWarp) + " threads");
  SmallVector<GF2Layout::OutDim, 4> outs;
  SmallVector<std::string> names = standardOutDimNames(shape.size());
  for (auto [i, s] : llvm::enumerate(shape))
    outs.push_back({names[i], int32_t(s)});
  return GF2Layout(std::move(ins), std::move(outs));
}

FailureOr<GF2Layout> toGF2LayoutImpl(const Layout &layout,
                                     ArrayRef<int64_t> shape,
                                     unsigned threadsPerWarp,
                                     std::string *error) {
  if (auto *b = dyn_cast<BlockedLayout>(&layout)) {
    if (!b->cga.isTrivial())
      return fail(error, "multi-CTA layouts are not modelled");
    return blockedToGF2(*b, shape, threadsPerWarp, error);
  }
  if (auto *s = dyn_cast<SliceLayout>(&layout))
    return sliceToGF2(*s, shape, threadsPerWarp, error);
  if (auto *m = dyn_cast<AMDMfmaLayout>(&layout)) {
    if (!m->cga.isTrivial())
      return fail(error, "multi-CTA layouts are not modelled");
    return mfmaToGF2(*m, shape, threadsPerWarp, error);
  }
  if (auto *d = dyn_cast<DotOperandLayout>(&layout)) {
    if (auto *p = dyn_cast_or_null<AMDMfmaLayout>(d->parent.get())) {
      if (!p->cga.isTrivial())
        return fail(error, "multi-CTA layouts are not modelled");
      return mfmaDotToGF2(*d, *p, shape, threadsPerWarp, error);
    }
    return fail(error, "dot_op: only amd_mfma parents are modelled");
  }
  if (auto *n = dyn_cast<NvidiaMmaLayout>(&layout)) {
    if (!n->cga.isTrivial())
      return fail(error, "multi-CTA layouts are not modelled");
    return nvidiaMmaToGF2(*n, shape, threadsPerWarp, error);
  }
  if (auto *l = dyn_cast<LinearLayout>(&layout))
    return linearToGF2(*l, shape, threadsPerWarp, error);
  return fail(error, Twine("layout kind '") + layout.getMnemonic() +
                         "' is not modelled");
}

} // namespace
