//===- GF2Layout.h - Triton linear layouts as GF(2) maps ---------*- C++
//-*-===//
//
// Triton describes where every tensor element lives with a *linear layout*: a
// linear map over GF(2) from hardware coordinates (input dimensions
// `register`, `lane`, `warp`, `block`) to tensor coordinates (output
// dimensions `dim0`, `dim1`, ...). The map is given by one basis vector per
// input bit: the tensor coordinates of input 1, 2, 4, ... of that dimension;
// any other input is the XOR of the bases of its set bits. Triton's own LDS
// decisions (does a convert_layout go through LDS, how big is its scratch
// buffer) are computed on these maps, so a faithful model must compute on them
// too.
//
// This header is our own implementation of the operations those decisions
// use, with Triton's semantics:
//   - product (`*`): the right factor is more major (its bases are shifted
//     past the left factor's output sizes);
//   - `flattenOuts`: the first output dimension is the least significant;
//   - `invertAndCompose`: dimensions equal in both layouts map as identity,
//     the rest through the minimum-norm least-squares solution (reduced row
//     echelon form, free variables zero), which favours broadcasting;
//   - `quotient`: removes a dimension that the map leaves untouched.
// TritonGPU layout values (Layouts.h) become GF2Layouts through `toGF2Layout`
// (lib/Analysis/GF2Conversions.cpp), which follows Triton 3.9's
// LinearLayoutConversions for the register layouts the LDS model needs.
//
//===----------------------------------------------------------------------===//
#ifndef TRITONMFMA_GF2LAYOUT_H
#define TRITONMFMA_GF2LAYOUT_H

#include "mlir/Support/LLVM.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::triton_mfma {

class GF2Layout {
public:
  /// One basis vector: one value per output dimension, in output order.
  using Basis = SmallVector<int32_t, 4>;
  struct InDim {
    std::string name;
    SmallVector<Basis, 8> bases; ///< size of the dimension = 2^bases.size()
    bool operator==(const InDim &o) const {
      return name == o.name && bases == o.bases;
    }
  };
  struct OutDim {
    std::string name;
    int32_t size; ///< a power of two
    bool operator==(const OutDim &o) const {
      return name == o.name && size == o.size;
    }
  };

  GF2Layout() = default;
  /// Output sizes are given explicitly (bases must fit in them).
  GF2Layout(SmallVector<InDim, 4> ins, SmallVector<OutDim, 4> outs);

  /// in -> out, i -> i.
  static GF2Layout identity1D(int32_t size, StringRef in, StringRef out);
  /// in (of `size`) -> out (of size 1), everything -> 0.
  static GF2Layout zeros1D(int32_t size, StringRef in, StringRef out);

  /// Triton's product: `*this` is minor, `outer` major.
  GF2Layout operator*(const GF2Layout &outer) const;
  GF2Layout &operator*=(const GF2Layout &outer) {
    *this = *this * outer;
    return *this;
  }
  bool operator==(const GF2Layout &o) const {
    return ins == o.ins && outs == o.outs;
  }
  bool operator!=(const GF2Layout &o) const { return !(*this == o); }

  ArrayRef<InDim> getInDims() const { return ins; }
  ArrayRef<OutDim> getOutDims() const { return outs; }
  bool hasInDim(StringRef name) const { return findIn(name) >= 0; }
  bool hasOutDim(StringRef name) const { return findOut(name) >= 0; }
  int getOutDimIndex(StringRef name) const { return findOut(name); }
  /// log2 of an input dimension's size; 0 if absent.
  int getInDimSizeLog2(StringRef name) const;
  int32_t getInDimSize(StringRef name) const {
    return int32_t(1) << getInDimSizeLog2(name);
  }
  /// Size of an output dimension; 1 if absent.
  int32_t getOutDimSize(StringRef name) const;
  int getOutDimSizeLog2(StringRef name) const;
  int getTotalInDimSizeLog2() const;
  int getTotalOutDimSizeLog2() const;
  /// The bases of an input dimension (empty if absent).
  ArrayRef<Basis> getBases(StringRef inDim) const;
  /// Component `out` of basis `i` of `in`.
  int32_t getBasis(StringRef in, int i, StringRef out) const;

  /// Output sizes as the bases imply them (next power of two above each
  /// dimension's largest value), as Triton's constructor infers them.
  GF2Layout withInferredOutSizes() const;

  /// The same map with output dimensions listed in `order` (a permutation).
  GF2Layout transposeOuts(ArrayRef<std::string> order) const;
  /// The same map with input dimensions listed in `order` (a permutation).
  GF2Layout transposeIns(ArrayRef<std::string> order) const;
  /// Restriction to the input dimensions `inNames`, projected on the output
  /// dimensions `outNames` (both kept in this layout's order).
  GF2Layout sublayout(ArrayRef<std::string> inNames,
                      ArrayRef<std::string> outNames) const;
  /// One output dimension (named like the first) of the total size; the first
  /// output dimension is the least significant.
  GF2Layout flattenOuts() const;
  /// The bases of `inDim` as flat output values (see flattenOuts).
  SmallVector<int32_t> getFlatBases(StringRef inDim) const;

  /// x -> outer(this(x)); outer's input dimensions are this one's outputs.
  GF2Layout compose(const GF2Layout &outer) const;
  /// C with outer(C(x)) == this(x): maps this layout's inputs to `outer`'s
  /// inputs. `outer` must be surjective; dimensions whose bases are the same
  /// in both layouts map as the identity.
  GF2Layout invertAndCompose(const GF2Layout &outer) const;
  /// The layout without `dim` (as input and output) if the map is the
  /// identity on `dim` and does not mix it with any other dimension.
  std::optional<GF2Layout> quotient(StringRef dim) const;

  /// Input dimension `dim` with its all-zero bases removed.
  GF2Layout removeZeroBases(StringRef dim) const;
  /// The flat output value for the given input coordinates.
  int64_t applyFlat(ArrayRef<std::pair<StringRef, int32_t>> inputs) const;
  bool isSurjective() const;

  /// `#ttg.linear<{register = [...], lane = [...], warp = [...],
  /// block = [...]}>` as Triton prints it (for register layouts).
  std::string toLinearAttrText() const;
  std::string str() const;

private:
  int findIn(StringRef name) const;
  int findOut(StringRef name) const;

  SmallVector<InDim, 4> ins;
  SmallVector<OutDim, 4> outs;
};

/// Input dimension names of Triton's distributed linear layouts.
inline constexpr const char *kReg = "register";
inline constexpr const char *kLane = "lane";
inline constexpr const char *kWarp = "warp";
inline constexpr const char *kBlock = "block";

/// Standard output dimension names dim0 .. dim{rank-1}.
SmallVector<std::string> standardOutDimNames(unsigned rank);

/// Row-reduces `rows` (bit vectors over `numCols` columns, GF(2)) in place into
/// reduced row echelon form, pivots searched from column 0 up (the form is
/// unique, so this is Triton's f2reduce result); returns the pivot column of
/// each non-zero row.
SmallVector<int> rrefPivots(SmallVectorImpl<uint64_t> &rows, int numCols);

//===----------------------------------------------------------------------===//
// Subspaces of GF(2)^dim on flat bases (a basis vector is an int, bit i its
// coordinate i; see GF2Layout::getFlatBases)
//===----------------------------------------------------------------------===//

using FlatBases = SmallVector<int32_t>;

/// Basis of {x : <x, v> = 0 for all v in vectors}, one vector per free
/// column of the echelon form, ascending.
FlatBases nullspaceBasis(ArrayRef<int32_t> vectors, int dim);
/// A basis of span(b1) ∩ span(b2). For unit vectors: b1's common elements,
/// in b1's order; otherwise via nullspaces (as Triton does).
FlatBases intersectionBasis(ArrayRef<int32_t> b1, ArrayRef<int32_t> b2,
                            int dim);
/// `v` without its zero vectors.
FlatBases removeZeros(ArrayRef<int32_t> v);

class Layout;
/// The linear layout Triton 3.9 gives a register (distributed) layout for a
/// tensor of `shape`, with input dimensions register, lane, warp, block and
/// output dimensions dim0.. in standard order. Supported: blocked, slice (of
/// a supported parent), amd_mfma (32x32 and 16x16 results), dot_op of an
/// amd_mfma parent, nvidia_mma (v2, v3), linear; single-CTA layouts only.
/// Anything else fails with a message in `error`.
FailureOr<GF2Layout> toGF2Layout(const Layout &layout, ArrayRef<int64_t> shape,
                                 unsigned threadsPerWarp,
                                 std::string *error = nullptr);

} // namespace mlir::triton_mfma

#endif // TRITONMFMA_GF2LAYOUT_H
