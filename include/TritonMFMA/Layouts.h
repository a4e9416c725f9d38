//===- Layouts.h - TritonGPU layouts as C++ values ---------------*- C++
//-*-===//
//
// Our MLIR does not know the `ttg` dialect: a layout such as
//
//   tensor<128x64xf16, #ttg.blocked<{sizePerThread = [1, 8], ...}>>
//
// arrives as a builtin RankedTensorType whose encoding is an OpaqueAttr
// (dialect "ttg", data "blocked<{...}>"), and `!ttg.memdesc<...>` arrives as an
// OpaqueType. This header turns that text into typed values, once, and prints
// them back byte-for-byte the way Triton 3.9's printers do (default fields
// omitted, canonical field order), so that passes can work on values and
// write layouts back into the IR as text Triton re-parses.
//
// Kinds modelled (Triton 3.9 mnemonics):
//   distributed: blocked, slice, dot_op, amd_mfma, amd_wmma, nvidia_mma,
//                linear, generic_linear
//   shared:      swizzled_shared, amd_rotating_shared, padded_shared,
//                shared_linear, partitioned_shared, nvmma_shared
//   memory space: shared_memory
//
// Anything else under `#ttg.` is an "unknown layout" error; malformed text is
// an error with the offset of the problem. Parsing never asserts or aborts.
//
//===----------------------------------------------------------------------===//
#ifndef TRITONMFMA_LAYOUTS_H
#define TRITONMFMA_LAYOUTS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace mlir::triton_mfma {

enum class LayoutKind {
  // Distributed (register) layouts.
  Blocked,
  Slice,
  DotOperand,
  AMDMfma,
  AMDWmma,
  NvidiaMma,
  Linear,
  GenericLinear,
  // Shared-memory layouts.
  SwizzledShared,
  AMDRotatingShared,
  PaddedShared,
  SharedLinear,
  PartitionedShared,
  NVMMAShared,
  // Memory space of a memdesc.
  SharedMemory,
};

/// The mnemonic after `#ttg.`, e.g. "amd_mfma".
StringRef getLayoutMnemonic(LayoutKind kind);
/// Inverse of getLayoutMnemonic.
std::optional<LayoutKind> getLayoutKindForMnemonic(StringRef mnemonic);

/// One basis vector of a linear layout: one entry per tensor dimension.
using Basis = SmallVector<int32_t, 4>;
using BasisList = SmallVector<Basis, 8>;

/// The bases of a linear layout per input dimension ("register", "lane",
/// "warp", "block", "offset"), in printing order.
struct LinearBases {
  SmallVector<std::pair<std::string, BasisList>, 4> dims;

  const BasisList *lookup(StringRef name) const;
  BasisList &getOrCreate(StringRef name);
  /// Rank (length of the first basis found), or 0 if all lists are empty.
  unsigned getRank() const;
  /// Out-dimension sizes as Triton infers them: per dimension the next power
  /// of two above the largest basis entry (1 if none).
  SmallVector<int64_t> getOutDimSizes(unsigned rank) const;
  /// Number of elements of input dimension `name` (2^#bases).
  int64_t getInDimSize(StringRef name) const;
  bool operator==(const LinearBases &o) const { return dims == o.dims; }
};

/// `CGALayout = [[...], ...]`: the `block` bases of a layout's CTA-to-CGA
/// mapping. Empty (the common single-CTA case) is not printed.
struct CGALayout {
  BasisList block;
  bool isTrivial() const { return block.empty(); }
  bool operator==(const CGALayout &o) const { return block == o.block; }
};

//===----------------------------------------------------------------------===//
// Layout values
//===----------------------------------------------------------------------===//

class Layout;
using LayoutPtr = std::shared_ptr<const Layout>;

/// Base of all layout values. Use llvm::isa/dyn_cast on `layout.get()`.
class Layout {
public:
  virtual ~Layout();
  LayoutKind getKind() const { return kind; }
  StringRef getMnemonic() const { return getLayoutMnemonic(kind); }
  /// Tensor rank the layout applies to (0 for a memory space).
  virtual unsigned getRank() const = 0;

  bool isDistributed() const { return kind <= LayoutKind::GenericLinear; }
  bool isShared() const {
    return kind >= LayoutKind::SwizzledShared &&
           kind <= LayoutKind::NVMMAShared;
  }
  bool isMemorySpace() const { return kind == LayoutKind::SharedMemory; }

  /// Prints `#ttg.<mnemonic><...>` exactly as Triton 3.9 does.
  void print(raw_ostream &os) const;
  std::string str() const;
  /// One-line human summary used in remarks, e.g.
  /// "amd_mfma: version=3 instrShape=32x32x8 warpsPerCTA=[2,2] transposed".
  void describe(raw_ostream &os) const;
  std::string getDescription() const;

protected:
  explicit Layout(LayoutKind kind) : kind(kind) {}
  /// Everything after the mnemonic (`<{...}>`), or nothing.
  virtual void printParams(raw_ostream &os) const = 0;
  virtual void describeParams(raw_ostream &os) const = 0;

private:
  LayoutKind kind;
};

/// #ttg.blocked<{sizePerThread, threadsPerWarp, warpsPerCTA, order
///               [, CGALayout]}>
struct BlockedLayout final : Layout {
  BlockedLayout() : Layout(LayoutKind::Blocked) {}
  SmallVector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA, order;
  CGALayout cga;
  unsigned getRank() const override { return order.size(); }
  static bool classof(const Layout *l) {
    return l->getKind() == LayoutKind::Blocked;
  }

protected:
  void printParams(raw_ostream &os) const override;
  void describeParams(raw_ostream &os) const override;
};

/// #ttg.slice<{dim, parent}>
struct SliceLayout final : Layout {
  SliceLayout() : Layout(LayoutKind::Slice) {}
  unsigned dim = 0;
  LayoutPtr parent;
  unsigned getRank() const override {
    return parent && parent->getRank() > 0 ? parent->getRank() - 1 : 0;
  }
  static bool classof(const Layout *l) {
    return l->getKind() == LayoutKind::Slice;
  }

protected:
  void printParams(raw_ostream &os) const override;
  void describeParams(raw_ostream &os) const override;
};

/// #ttg.dot_op<{opIdx, parent[, kWidth]}> (kWidth printed when non-zero).
struct DotOperandLayout final : Layout {
  DotOperandLayout() : Layout(LayoutKind::DotOperand) {}
  unsigned opIdx = 0;
  LayoutPtr parent;
  unsigned kWidth = 0;
  unsigned getRank() const override { return parent ? parent->getRank() : 0; }
  static bool classof(const Layout *l) {
    return l->getKind() == LayoutKind::DotOperand;
  }

protected:
  void printParams(raw_ostream &os) const override;
  void describeParams(raw_ostream &os) const override;
};

/// #ttg.amd_mfma<{version, warpsPerCTA, instrShape, isTransposed
///                [, CGALayout][, tilesPerWarp][, elementBitWidth]}>
/// version: 1 = gfx908 (CDNA1), 2 = gfx90a (CDNA2), 3 = gfx942 (CDNA3),
/// 4 = gfx950 (CDNA4). tilesPerWarp is printed unless all ones;
/// elementBitWidth unless 32.
struct AMDMfmaLayout final : Layout {
  AMDMfmaLayout() : Layout(LayoutKind::AMDMfma) {}
  unsigned version = 0;
  SmallVector<unsigned> warpsPerCTA;
  SmallVector<unsigned> instrShape; // [M, N, K] (K may be absent)
  bool isTransposed = false;
  CGALayout cga;
  SmallVector<unsigned> tilesPerWarp; // empty == all ones
  unsigned elementBitWidth = 32;

  unsigned getRank() const override { return warpsPerCTA.size(); }
  unsigned getMDim() const { return instrShape.size() > 0 ? instrShape[0] : 0; }
  unsigned getNDim() const { return instrShape.size() > 1 ? instrShape[1] : 0; }
  unsigned getKDim() const { return instrShape.size() > 2 ? instrShape[2] : 0; }
  bool hasUnitTilesPerWarp() const;
  static bool classof(const Layout *l) {
    return l->getKind() == LayoutKind::AMDMfma;
  }

protected:
  void printParams(raw_ostream &os) const override;
  void describeParams(raw_ostream &os) const override;
};

/// #ttg.amd_wmma<{version, isTranspose, ctaLayout = {[register = ...,]
///                warp = ...}[, CGALayout][, instrShape]}>
/// instrShape is printed unless [16, 16, 16]; empty ctaLayout bases are not
/// printed.
struct AMDWmmaLayout final : Layout {
  AMDWmmaLayout() : Layout(LayoutKind::AMDWmma) {}
  unsigned version = 0;
  bool isTransposed = false;
  LinearBases ctaLayout; // "register", "warp"
  CGALayout cga;
  SmallVector<unsigned> instrShape = {16, 16, 16};
  unsigned rank = 2;
  unsigned getRank() const override { return rank; }
  static bool classof(const Layout *l) {
    return l->getKind() == LayoutKind::AMDWmma;
  }

protected:
  void printParams(raw_ostream &os) const override;
  void describeParams(raw_ostream &os) const override;
};

/// #ttg.nvidia_mma<{versionMajor, versionMinor, warpsPerCTA[, CGALayout],
///                  instrShape}>
struct NvidiaMmaLayout final : Layout {
  NvidiaMmaLayout() : Layout(LayoutKind::NvidiaMma) {}
  unsigned versionMajor = 0, versionMinor = 0;
  SmallVector<unsigned> warpsPerCTA, instrShape;
  CGALayout cga;
  unsigned getRank() const override { return warpsPerCTA.size(); }
  static bool classof(const Layout *l) {
    return l->getKind() == LayoutKind::NvidiaMma;
  }

protected:
  void printParams(raw_ostream &os) const override;
  void describeParams(raw_ostream &os) const override;
};

/// #ttg.linear<{register, lane, warp, block}> and
/// #ttg.generic_linear<{register, lane, warp, block}>.
struct LinearLayout final : Layout {
  explicit LinearLayout(bool generic = false)
      : Layout(generic ? LayoutKind::GenericLinear : LayoutKind::Linear) {}
  LinearBases bases; // register, lane, warp, block (always all four)
  unsigned rank = 0;
  unsigned getRank() const override { return rank; }
  static bool classof(const Layout *l) {
    return l->getKind() == LayoutKind::Linear ||
           l->getKind() == LayoutKind::GenericLinear;
  }

protected:
  void printParams(raw_ostream &os) const override;
  void describeParams(raw_ostream &os) const override;
};

/// #ttg.swizzled_shared<{vec, perPhase, maxPhase, order[, CGALayout]}> and
/// #ttg.amd_rotating_shared<{...same fields...}>.
struct SwizzledSharedLayout final : Layout {
  explicit SwizzledSharedLayout(bool rotating = false)
      : Layout(rotating ? LayoutKind::AMDRotatingShared
                        : LayoutKind::SwizzledShared) {}
  unsigned vec = 0, perPhase = 0, maxPhase = 0;
  SmallVector<unsigned> order;
  CGALayout cga;
  bool isRotating() const { return getKind() == LayoutKind::AMDRotatingShared; }
  unsigned getRank() const override { return order.size(); }
  static bool classof(const Layout *l) {
    return l->getKind() == LayoutKind::SwizzledShared ||
           l->getKind() == LayoutKind::AMDRotatingShared;
  }

protected:
  void printParams(raw_ostream &os) const override;
  void describeParams(raw_ostream &os) const override;
};

/// #ttg.padded_shared<[interval:+padding, ...] {order = [...], shape = [...]}>
/// or, when the offset mapping is not an identity (or `block` is non-empty),
/// #ttg.padded_shared<[...] {offset = [...], block = [...]}>.
struct PaddedSharedLayout final : Layout {
  PaddedSharedLayout() : Layout(LayoutKind::PaddedShared) {}
  SmallVector<unsigned> intervals, paddings;
  LinearBases linear; // offset, block
  unsigned rank = 0;
  unsigned getRank() const override { return rank; }
  /// Triton's getOrder(): dimensions by first appearance in the offset
  /// bases, then the remaining ones from rank-1 down to 0.
  SmallVector<unsigned> getOrder() const;
  SmallVector<int64_t> getShape() const { return linear.getOutDimSizes(rank); }
  /// Whether the short `{order, shape}` form describes it exactly.
  bool isIdentity() const;
  /// Offset bases of identityStandardND(shape, order): for each dimension in
  /// `order` (fastest first), log2(shape[d]) unit steps along d.
  static BasisList getIdentityOffsetBases(ArrayRef<int64_t> shape,
                                          ArrayRef<unsigned> order);
  static bool classof(const Layout *l) {
    return l->getKind() == LayoutKind::PaddedShared;
  }

protected:
  void printParams(raw_ostream &os) const override;
  void describeParams(raw_ostream &os) const override;
};

/// #ttg.shared_linear<{offset[, block]}, alignment = N>
struct SharedLinearLayout final : Layout {
  SharedLinearLayout() : Layout(LayoutKind::SharedLinear) {}
  LinearBases linear; // offset, block
  unsigned alignment = 0;
  unsigned rank = 0;
  unsigned getRank() const override { return rank; }
  static bool classof(const Layout *l) {
    return l->getKind() == LayoutKind::SharedLinear;
  }

protected:
  void printParams(raw_ostream &os) const override;
  void describeParams(raw_ostream &os) const override;
};

/// #ttg.partitioned_shared<{numPartitions, numGroups, partitionDim,
///                          partitionLayout}>
struct PartitionedSharedLayout final : Layout {
  PartitionedSharedLayout() : Layout(LayoutKind::PartitionedShared) {}
  unsigned numPartitions = 0, numGroups = 0, partitionDim = 0;
  LayoutPtr partitionLayout;
  unsigned getRank() const override {
    return partitionLayout ? partitionLayout->getRank() : 0;
  }
  static bool classof(const Layout *l) {
    return l->getKind() == LayoutKind::PartitionedShared;
  }

protected:
  void printParams(raw_ostream &os) const override;
  void describeParams(raw_ostream &os) const override;
};

/// #ttg.nvmma_shared<{swizzlingByteWidth, transposed, elementBitWidth
///                    [, fp4Padded = true][, rank = R | , CGALayout]}>
struct NVMMASharedLayout final : Layout {
  NVMMASharedLayout() : Layout(LayoutKind::NVMMAShared) {}
  unsigned swizzlingByteWidth = 0;
  bool transposed = false;
  unsigned elementBitWidth = 0;
  bool fp4Padded = false;
  unsigned rank = 2;
  CGALayout cga;
  unsigned getRank() const override { return rank; }
  static bool classof(const Layout *l) {
    return l->getKind() == LayoutKind::NVMMAShared;
  }

protected:
  void printParams(raw_ostream &os) const override;
  void describeParams(raw_ostream &os) const override;
};

/// #ttg.shared_memory (memory space of a memdesc).
struct SharedMemorySpace final : Layout {
  SharedMemorySpace() : Layout(LayoutKind::SharedMemory) {}
  unsigned getRank() const override { return 0; }
  static bool classof(const Layout *l) {
    return l->getKind() == LayoutKind::SharedMemory;
  }

protected:
  void printParams(raw_ostream &) const override {}
  void describeParams(raw_ostream &) const override {}
};

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

/// Parses a full layout attribute text, e.g. "#ttg.blocked<{...}>".
/// On failure returns nullptr and, if `error` is given, a message that
/// names the problem and its character offset.
LayoutPtr parseLayout(StringRef text, std::string *error = nullptr);

/// Whether `attr` is a `#ttg.*` attribute (an OpaqueAttr of dialect "ttg").
bool isTTGAttr(Attribute attr);
/// The text of a `#ttg.*` OpaqueAttr ("#ttg." + data), or "" otherwise.
std::string getTTGAttrText(Attribute attr);
/// Parses a `#ttg.*` OpaqueAttr. nullptr with an error for anything else.
LayoutPtr parseLayout(Attribute attr, std::string *error = nullptr);

/// Builds the OpaqueAttr our MLIR uses for `layout` (the same uniqued
/// attribute the parser produces for Triton's text of that layout).
Attribute getLayoutAttr(MLIRContext *ctx, const Layout &layout);

//===----------------------------------------------------------------------===//
// Typed views of tensor and memdesc types
//===----------------------------------------------------------------------===//

/// `tensor<128x64xf16, #ttg.blocked<...>>`: shape, element type, encoding.
struct TensorInfo {
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute encoding; ///< null if the tensor has none
  LayoutPtr layout;   ///< null if no encoding or not a #ttg layout
};

/// Fails (with `error`) if `type` is not a ranked tensor or its `#ttg`
/// encoding does not parse. A tensor without encoding, or with a non-ttg
/// encoding, succeeds with a null `layout`.
FailureOr<TensorInfo> getTensorInfo(Type type, std::string *error = nullptr);

/// `!ttg.memdesc<2x64x64xf16, #ttg.swizzled_shared<...>, #ttg.shared_memory,
///               mutable[, 4x64x64]>`
struct MemDescInfo {
  SmallVector<int64_t> shape;
  SmallVector<int64_t> allocShape; ///< == shape unless printed explicitly
  std::string elementTypeText;
  Type elementType; ///< parsed in the type's context (may be an OpaqueType)
  std::string encodingText, memorySpaceText;
  LayoutPtr encoding;    ///< null if not a #ttg layout (e.g. #ttng.*)
  LayoutPtr memorySpace; ///< null if not a #ttg memory space
  bool mutableMemory = false;

  /// Prints "!ttg.memdesc<...>" as Triton does.
  void print(raw_ostream &os) const;
  std::string str() const;
};

bool isMemDescType(Type type);
FailureOr<MemDescInfo> getMemDescInfo(Type type, std::string *error = nullptr);
/// Parses the text of a memdesc type ("!ttg.memdesc<...>" or "memdesc<...>").
/// `ctx` (optional) is used to parse the element type.
FailureOr<MemDescInfo> parseMemDesc(StringRef text, MLIRContext *ctx,
                                    std::string *error = nullptr);

/// `type` (a ranked tensor) with its encoding replaced by `layout`.
RankedTensorType getTensorTypeWithLayout(RankedTensorType type,
                                         const Layout &layout);

/// The `!ttg.memdesc<...>` OpaqueType for `info` (as Triton prints it).
Type getMemDescType(MLIRContext *ctx, const MemDescInfo &info);

/// "[a, b, c]": a list of a layout's field as Triton prints it (messages).
std::string formatList(ArrayRef<unsigned> values);

/// Warps per CTA a distributed layout spans (blocked, amd_mfma, nvidia_mma:
/// the product of warpsPerCTA; linear, amd_wmma: 2^#warp bases; slice and
/// dot_op: their parent's); nullopt for other kinds (generic_linear, which
/// is not tied to the hardware, included). Saturates at 2^40.
std::optional<int64_t> getTotalWarps(const Layout &layout);
/// Threads per warp a distributed layout spans (blocked: the product of
/// threadsPerWarp; linear: 2^#lane bases; amd_mfma: 64; nvidia_mma: 32;
/// slice and dot_op: their parent's); nullopt for other kinds.
std::optional<int64_t> getTotalLanes(const Layout &layout);

/// Checks a tensor's layout against the tensor and its context, as Triton's
/// tensor-layout verifier does: the layout's rank is the tensor's, and a
/// distributed layout spans `numWarps` warps and `threadsPerWarp` lanes
/// (each checked only when given). "" if it agrees, else the message.
std::string verifyTensorLayout(const Layout &layout, ArrayRef<int64_t> shape,
                               std::optional<unsigned> numWarps,
                               std::optional<unsigned> threadsPerWarp);

/// Shape of a ranked tensor or a memdesc type; failure otherwise.
FailureOr<SmallVector<int64_t>> getShape(Type type);

/// Layout of a tensor (its encoding) or memdesc (its shared encoding); null if
/// none, non-ttg, or unparsable.
LayoutPtr getLayout(Type type);

//===----------------------------------------------------------------------===//
// Triton's choices
//===----------------------------------------------------------------------===//

/// Triton's choice of shared layout for a dot operand stored from `src`
/// (a blocked layout) and read as `dotOp`
/// (SwizzledSharedEncodingAttr::get(dotOpEnc, shape, order, cga, bits,
/// needTrans = false), which the AMD and NVIDIA pipeliners call):
///  - amd_mfma parent: AMDMfmaEncodingAttr::composeSharedLayoutForOperand;
///  - nvidia_mma parent (Ampere/Hopper mma v2 path): the NVIDIA builder.
/// The memory order is the blocked layout's order (batch dimension last).
FailureOr<SwizzledSharedLayout>
chooseDotOperandSharedLayout(ArrayRef<int64_t> shape, unsigned bits,
                             const BlockedLayout &src,
                             const DotOperandLayout &dotOp, std::string &why);

//===----------------------------------------------------------------------===//
// Pointers and element sizes
//===----------------------------------------------------------------------===//

/// `!tt.ptr<T[, address space]>` (an OpaqueType in our MLIR).
bool isTritonPointerType(Type type);
/// T of `!tt.ptr<T[, address space]>`, parsed in the type's context; null
/// if `type` is not a pointer or T does not parse.
Type getPointeeType(Type type);
/// Bytes of one element of `type` or of its element type (int/float/index;
/// `!tt.ptr<T>` gives T's); nullopt for anything else (pointers to pointers,
/// tensor descriptors, ...).
std::optional<int64_t> getElementBytes(Type type);

} // namespace mlir::triton_mfma

#endif // TRITONMFMA_LAYOUTS_H
