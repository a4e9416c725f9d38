//===- GF2Layout.cpp - Triton linear layouts as GF(2) maps ----------------===//
//
// Matrices: a layout is the GF(2) matrix whose column c is input bit c (input
// dimensions concatenated in order, low bits first) and whose row r is output
// bit r (output dimensions concatenated, the first one least significant).
// Each row is stored as one uint64_t (bit c = column c); layouts here have at
// most a few dozen input bits.
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/GF2Layout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>

using namespace mlir;
using namespace mlir::triton_mfma;

SmallVector<std::string> mlir::triton_mfma::standardOutDimNames(unsigned rank) {
  SmallVector<std::string> names;
  for (unsigned i = 0; i < rank; ++i)
    names.push_back("dim" + std::to_string(i));
  return names;
}

static int log2Exact(int64_t v) { return llvm::Log2_64(uint64_t(v)); }

GF2Layout::GF2Layout(SmallVector<InDim, 4> ins, SmallVector<OutDim, 4> outs)
    : ins(std::move(ins)), outs(std::move(outs)) {}

int GF2Layout::findIn(StringRef name) const {
  for (auto [i, d] : llvm::enumerate(ins))
    if (d.name == name)
      return int(i);
  return -1;
}

int GF2Layout::findOut(StringRef name) const {
  for (auto [i, d] : llvm::enumerate(outs))
    if (d.name == name)
      return int(i);
  return -1;
}

GF2Layout GF2Layout::identity1D(int32_t size, StringRef in, StringRef out) {
  InDim d{in.str(), {}};
  // 64-bit counter: at most 31 steps for any int32 size.
  for (int64_t v = 1; v < size; v *= 2)
    d.bases.push_back(Basis{int32_t(v)});
  return GF2Layout({d}, {OutDim{out.str(), size}});
}

GF2Layout GF2Layout::zeros1D(int32_t size, StringRef in, StringRef out) {
  InDim d{in.str(), {}};
  for (int64_t v = 1; v < size; v *= 2)
    d.bases.push_back(Basis{0});
  return GF2Layout({d}, {OutDim{out.str(), 1}});
}

int GF2Layout::getInDimSizeLog2(StringRef name) const {
  int i = findIn(name);
  return i < 0 ? 0 : int(ins[i].bases.size());
}

int32_t GF2Layout::getOutDimSize(StringRef name) const {
  int i = findOut(name);
  return i < 0 ? 1 : outs[i].size;
}

int GF2Layout::getOutDimSizeLog2(StringRef name) const {
  return log2Exact(getOutDimSize(name));
}

int GF2Layout::getTotalInDimSizeLog2() const {
  int n = 0;
  for (const InDim &d : ins)
    n += d.bases.size();
  return n;
}

int GF2Layout::getTotalOutDimSizeLog2() const {
  int n = 0;
  for (const OutDim &d : outs)
    n += log2Exact(d.size);
  return n;
}

ArrayRef<GF2Layout::Basis> GF2Layout::getBases(StringRef inDim) const {
  int i = findIn(inDim);
  if (i < 0)
    return {};
  return ins[i].bases;
}

int32_t GF2Layout::getBasis(StringRef in, int i, StringRef out) const {
  int o = findOut(out);
  ArrayRef<Basis> bs = getBases(in);
  if (o < 0 || i < 0 || i >= int(bs.size()))
    return 0;
  return bs[i][o];
}

GF2Layout GF2Layout::withInferredOutSizes() const {
  GF2Layout r = *this;
  for (auto [o, out] : llvm::enumerate(r.outs)) {
    int32_t all = 0;
    for (const InDim &d : ins)
      for (const Basis &b : d.bases)
        all |= b[o];
    out.size = all == 0 ? 1 : int32_t(llvm::NextPowerOf2(uint32_t(all)));
  }
  return r;
}

GF2Layout GF2Layout::operator*(const GF2Layout &outer) const {
  // Dimensions of the minor factor first, then the new ones of the major.
  SmallVector<std::string> inNames, outNames;
  for (const InDim &d : ins)
    inNames.push_back(d.name);
  for (const InDim &d : outer.ins)
    if (!llvm::is_contained(inNames, d.name))
      inNames.push_back(d.name);
  for (const OutDim &d : outs)
    outNames.push_back(d.name);
  for (const OutDim &d : outer.outs)
    if (!llvm::is_contained(outNames, d.name))
      outNames.push_back(d.name);

  SmallVector<InDim, 4> newIns;
  for (const std::string &in : inNames) {
    InDim nd{in, {}};
    for (int i = 0, e = getInDimSizeLog2(in); i < e; ++i) {
      Basis b;
      for (const std::string &out : outNames)
        b.push_back(getBasis(in, i, out));
      nd.bases.push_back(b);
    }
    for (int i = 0, e = outer.getInDimSizeLog2(in); i < e; ++i) {
      Basis b;
      for (const std::string &out : outNames)
        b.push_back(outer.getBasis(in, i, out) << getOutDimSizeLog2(out));
      nd.bases.push_back(b);
    }
    newIns.push_back(std::move(nd));
  }
  SmallVector<OutDim, 4> newOuts;
  for (const std::string &out : outNames)
    newOuts.push_back({out, getOutDimSize(out) * outer.getOutDimSize(out)});
  return GF2Layout(std::move(newIns), std::move(newOuts));
}

GF2Layout GF2Layout::transposeOuts(ArrayRef<std::string> order) const {
  assert(order.size() == outs.size() && "not a permutation of the outputs");
  SmallVector<int> perm;
  for (const std::string &n : order)
    perm.push_back(findOut(n));
  GF2Layout r;
  for (const InDim &d : ins) {
    InDim nd{d.name, {}};
    for (const Basis &b : d.bases) {
      Basis nb;
      for (int p : perm)
        nb.push_back(b[p]);
      nd.bases.push_back(nb);
    }
    r.ins.push_back(std::move(nd));
  }
  for (int p : perm)
    r.outs.push_back(outs[p]);
  return r;
}

GF2Layout GF2Layout::transposeIns(ArrayRef<std::string> order) const {
  assert(order.size() == ins.size() && "not a permutation of the inputs");
  GF2Layout r;
  for (const std::string &n : order)
    r.ins.push_back(ins[findIn(n)]);
  r.outs = outs;
  return r;
}

GF2Layout GF2Layout::sublayout(ArrayRef<std::string> inNames,
                               ArrayRef<std::string> outNames) const {
  SmallVector<int> keepOut;
  GF2Layout r;
  for (auto [o, out] : llvm::enumerate(outs))
    if (llvm::is_contained(outNames, out.name)) {
      keepOut.push_back(int(o));
      r.outs.push_back(out);
    }
  for (const InDim &d : ins) {
    if (!llvm::is_contained(inNames, d.name))
      continue;
    InDim nd{d.name, {}};
    for (const Basis &b : d.bases) {
      Basis nb;
      for (int o : keepOut)
        nb.push_back(b[o]);
      nd.bases.push_back(nb);
    }
    r.ins.push_back(std::move(nd));
  }
  return r;
}

/// Flat value of a basis: output dimension o contributes its value shifted
/// past the sizes of the output dimensions before it.
static int64_t flatValue(const GF2Layout &l, const GF2Layout::Basis &b) {
  int64_t v = 0;
  int shift = 0;
  for (auto [o, out] : llvm::enumerate(l.getOutDims())) {
    v |= int64_t(b[o]) << shift;
    shift += log2Exact(out.size);
  }
  return v;
}

GF2Layout GF2Layout::flattenOuts() const {
  if (outs.empty())
    return *this;
  int64_t total = int64_t(1) << getTotalOutDimSizeLog2();
  GF2Layout r;
  r.outs.push_back({outs.front().name, int32_t(total)});
  for (const InDim &d : ins) {
    InDim nd{d.name, {}};
    for (const Basis &b : d.bases)
      nd.bases.push_back(Basis{int32_t(flatValue(*this, b))});
    r.ins.push_back(std::move(nd));
  }
  return r;
}

SmallVector<int32_t> GF2Layout::getFlatBases(StringRef inDim) const {
  SmallVector<int32_t> v;
  for (const Basis &b : getBases(inDim))
    v.push_back(int32_t(flatValue(*this, b)));
  return v;
}

int64_t
GF2Layout::applyFlat(ArrayRef<std::pair<StringRef, int32_t>> inputs) const {
  int64_t v = 0;
  for (auto [name, x] : inputs) {
    ArrayRef<Basis> bs = getBases(name);
    for (auto [i, b] : llvm::enumerate(bs))
      if ((x >> i) & 1)
        v ^= flatValue(*this, b);
  }
  return v;
}

GF2Layout GF2Layout::compose(const GF2Layout &outer) const {
  GF2Layout r;
  r.outs = outer.outs;
  for (const InDim &d : ins) {
    InDim nd{d.name, {}};
    for (const Basis &b : d.bases) {
      Basis nb(outer.outs.size(), 0);
      for (auto [o, out] : llvm::enumerate(outs)) {
        ArrayRef<Basis> obs = outer.getBases(out.name);
        for (auto [i, ob] : llvm::enumerate(obs))
          if ((b[o] >> i) & 1)
            for (size_t k = 0; k < nb.size(); ++k)
              nb[k] ^= ob[k];
      }
      nd.bases.push_back(nb);
    }
    r.ins.push_back(std::move(nd));
  }
  return r;
}

//===----------------------------------------------------------------------===//
// Least squares over GF(2)
//===----------------------------------------------------------------------===//

/// Rows = flat output bits, column c = flat input bit c.
static SmallVector<uint64_t> toMatrix(const GF2Layout &l) {
  SmallVector<uint64_t> rows(l.getTotalOutDimSizeLog2(), 0);
  int c = 0;
  for (const GF2Layout::InDim &d : l.getInDims())
    for (const GF2Layout::Basis &b : d.bases) {
      int64_t v = flatValue(l, b);
      for (size_t r = 0; r < rows.size(); ++r)
        if ((v >> r) & 1)
          rows[r] |= uint64_t(1) << c;
      ++c;
    }
  return rows;
}

SmallVector<int> mlir::triton_mfma::rrefPivots(SmallVectorImpl<uint64_t> &rows,
                                               int numCols) {
  size_t rank = 0;
  for (int c = 0; c < numCols && rank < rows.size(); ++c) {
    uint64_t bit = uint64_t(1) << c;
    size_t p = rank;
    while (p < rows.size() && !(rows[p] & bit))
      ++p;
    if (p == rows.size())
      continue;
    std::swap(rows[p], rows[rank]);
    for (size_t r = 0; r < rows.size(); ++r)
      if (r != rank && (rows[r] & bit))
        rows[r] ^= rows[rank];
    ++rank;
  }
  SmallVector<int> pivots;
  for (uint64_t r : rows)
    if (r)
      pivots.push_back(llvm::countr_zero(r));
  return pivots;
}

/// Basis of {x : <x, v> = 0 for all v in vectors}, one vector per free
/// column, ascending.
FlatBases mlir::triton_mfma::nullspaceBasis(ArrayRef<int32_t> vectors,
                                            int dim) {
  SmallVector<uint64_t> rows;
  for (int32_t v : vectors)
    rows.push_back(uint64_t(uint32_t(v)));
  SmallVector<int> pivots = rrefPivots(rows, dim);
  FlatBases basis;
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

/// A basis of span(b1) ∩ span(b2). For unit vectors: b1's common elements,
/// in b1's order; otherwise via nullspaces (as Triton does).
FlatBases mlir::triton_mfma::intersectionBasis(ArrayRef<int32_t> b1,
                                               ArrayRef<int32_t> b2, int dim) {
  auto pow2 = [](int32_t x) { return x > 0 && llvm::isPowerOf2_32(x); };
  if (llvm::all_of(b1, pow2) && llvm::all_of(b2, pow2)) {
    FlatBases r;
    for (int32_t b : b1)
      if (b != 0 && llvm::is_contained(b2, b))
        r.push_back(b);
    return r;
  }
  FlatBases joint = nullspaceBasis(b1, dim);
  joint.append(nullspaceBasis(b2, dim));
  return nullspaceBasis(joint, dim);
}

FlatBases mlir::triton_mfma::removeZeros(ArrayRef<int32_t> v) {
  FlatBases r;
  for (int32_t x : v)
    if (x != 0)
      r.push_back(x);
  return r;
}

/// Splits a flat value over dimensions (name, log2 size), first least
/// significant.
static GF2Layout::Basis splitFlat(int64_t v,
                                  ArrayRef<std::pair<std::string, int>> dims) {
  GF2Layout::Basis b;
  for (auto &[name, lg] : dims) {
    b.push_back(int32_t(v & ((int64_t(1) << lg) - 1)));
    v >>= lg;
  }
  return b;
}

/// X with A(X(y)) == B(y), minimal norm (free variables zero). A and B have
/// the same output dimensions in the same order.
static GF2Layout lstsq(const GF2Layout &A, const GF2Layout &B) {
  int numColsA = A.getTotalInDimSizeLog2();
  int numColsB = B.getTotalInDimSizeLog2();
  assert(numColsA + numColsB <= 64 && "layout too large for the model");
  SmallVector<uint64_t> m = toMatrix(A);
  SmallVector<uint64_t> mb = toMatrix(B);
  for (size_t r = 0; r < m.size(); ++r)
    m[r] |= mb[r] << numColsA;
  rrefPivots(m, numColsA + numColsB);

  // Row j with pivot column c < numColsA gives X's row c (B part of row j).
  SmallVector<uint64_t> x(numColsA, 0);
  for (uint64_t row : m) {
    if (row == 0)
      continue;
    int c = llvm::countr_zero(row);
    if (c < numColsA)
      x[c] = row >> numColsA;
  }

  SmallVector<std::pair<std::string, int>> outDims;
  for (const GF2Layout::InDim &d : A.getInDims())
    outDims.push_back({d.name, int(d.bases.size())});
  SmallVector<GF2Layout::InDim, 4> ins;
  int c = 0;
  for (const GF2Layout::InDim &d : B.getInDims()) {
    GF2Layout::InDim nd{d.name, {}};
    for (size_t i = 0; i < d.bases.size(); ++i, ++c) {
      int64_t v = 0;
      for (int r = 0; r < numColsA; ++r)
        v |= int64_t((x[r] >> c) & 1) << r;
      nd.bases.push_back(splitFlat(v, outDims));
    }
    ins.push_back(std::move(nd));
  }
  SmallVector<GF2Layout::OutDim, 4> outs;
  for (const GF2Layout::InDim &d : A.getInDims())
    outs.push_back({d.name, int32_t(1) << d.bases.size()});
  return GF2Layout(std::move(ins), std::move(outs));
}

GF2Layout GF2Layout::invertAndCompose(const GF2Layout &outerIn) const {
  SmallVector<std::string> outNames;
  for (const OutDim &d : outs)
    outNames.push_back(d.name);
  const GF2Layout &B = *this;
  GF2Layout A = outerIn.transposeOuts(outNames);

  // Dimensions with the same bases in both map as the identity (the
  // broadcasting heuristic: never move data along them).
  SmallVector<std::string> identityDims, aRest, bRest;
  for (const InDim &d : A.ins)
    if (B.hasInDim(d.name) &&
        A.sublayout({d.name}, outNames) == B.sublayout({d.name}, outNames))
      identityDims.push_back(d.name);
  for (const InDim &d : A.ins)
    if (!llvm::is_contained(identityDims, d.name))
      aRest.push_back(d.name);
  for (const InDim &d : B.ins)
    if (!llvm::is_contained(identityDims, d.name))
      bRest.push_back(d.name);

  GF2Layout ret =
      lstsq(A.sublayout(aRest, outNames), B.sublayout(bRest, outNames));
  for (const std::string &d : identityDims)
    ret *= identity1D(A.getInDimSize(d), d, d);

  SmallVector<std::string> bOrder, aOrder;
  for (const InDim &d : B.ins)
    bOrder.push_back(d.name);
  for (const InDim &d : A.ins)
    aOrder.push_back(d.name);
  return ret.transposeIns(bOrder).transposeOuts(aOrder);
}

std::optional<GF2Layout> GF2Layout::quotient(StringRef dim) const {
  int in = findIn(dim), out = findOut(dim);
  if (in < 0 && out < 0)
    return std::nullopt;
  // The square block on `dim` is the identity...
  if (getInDimSize(dim) != getOutDimSize(dim))
    return std::nullopt;
  if (in >= 0)
    for (auto [i, b] : llvm::enumerate(ins[in].bases)) {
      if (out < 0 || b[out] != (int32_t(1) << i))
        return std::nullopt;
      // ...`dim` maps to nothing else...
      for (auto [o, v] : llvm::enumerate(b))
        if (int(o) != out && v != 0)
          return std::nullopt;
    }
  // ...and nothing else maps to `dim`.
  if (out >= 0)
    for (auto [i, d] : llvm::enumerate(ins))
      if (int(i) != in)
        for (const Basis &b : d.bases)
          if (b[out] != 0)
            return std::nullopt;
  SmallVector<std::string> inNames, outNames;
  for (const InDim &d : ins)
    if (d.name != dim)
      inNames.push_back(d.name);
  for (const OutDim &d : outs)
    if (d.name != dim)
      outNames.push_back(d.name);
  return sublayout(inNames, outNames);
}

GF2Layout GF2Layout::removeZeroBases(StringRef dim) const {
  GF2Layout r = *this;
  int i = findIn(dim);
  if (i < 0)
    return r;
  auto &bs = r.ins[i].bases;
  bs.erase(llvm::remove_if(bs,
                           [](const Basis &b) {
                             return llvm::all_of(
                                 b, [](int32_t v) { return v == 0; });
                           }),
           bs.end());
  return r;
}

bool GF2Layout::isSurjective() const {
  SmallVector<uint64_t> m = toMatrix(*this);
  int cols = getTotalInDimSizeLog2();
  rrefPivots(m, cols);
  int rank = 0;
  for (uint64_t r : m)
    rank += r != 0;
  return rank == getTotalOutDimSizeLog2();
}

static void printBasisList(raw_ostream &os, ArrayRef<GF2Layout::Basis> bs) {
  os << "[";
  llvm::interleaveComma(bs, os, [&](const GF2Layout::Basis &b) {
    os << "[";
    llvm::interleaveComma(b, os);
    os << "]";
  });
  os << "]";
}

std::string GF2Layout::toLinearAttrText() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "#ttg.linear<{";
  bool first = true;
  for (const char *name : {"register", "lane", "warp", "block"}) {
    if (!first)
      os << ", ";
    first = false;
    os << name << " = ";
    printBasisList(os, getBases(name));
  }
  os << "}>";
  return s;
}

std::string GF2Layout::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "{";
  llvm::interleaveComma(ins, os, [&](const InDim &d) {
    os << d.name << " = ";
    printBasisList(os, d.bases);
  });
  os << "} -> [";
  llvm::interleaveComma(
      outs, os, [&](const OutDim &d) { os << d.name << ":" << d.size; });
  os << "]";
  return s;
}
