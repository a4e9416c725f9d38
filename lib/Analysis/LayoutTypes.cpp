//===- LayoutTypes.cpp - tensor, memdesc and pointer types ----------------===//
//
// Typed views of the types Triton's IR carries in our MLIR (Layouts.h):
// ranked tensors with a `#ttg` encoding, `!ttg.memdesc<...>` and
// `!tt.ptr<...>` opaque types. The memdesc text is parsed by the layout
// parser (LayoutParser.cpp).
//
//===----------------------------------------------------------------------===//

#include "LayoutParser.h"
#include "TritonMFMA/Layouts.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <cstring>
#include <tuple>

using namespace mlir;
using namespace mlir::triton_mfma;

Attribute mlir::triton_mfma::getLayoutAttr(MLIRContext *ctx,
                                           const Layout &layout) {
  std::string text = layout.str();
  StringRef data = StringRef(text).drop_front(strlen("#ttg."));
  return OpaqueAttr::get(StringAttr::get(ctx, "ttg"), data, NoneType::get(ctx));
}

//===----------------------------------------------------------------------===//
// Tensor and memdesc types
//===----------------------------------------------------------------------===//

FailureOr<TensorInfo> mlir::triton_mfma::getTensorInfo(Type type,
                                                       std::string *error) {
  auto tensor = dyn_cast_or_null<RankedTensorType>(type);
  if (!tensor) {
    if (error)
      *error = "not a ranked tensor type";
    return failure();
  }
  TensorInfo info;
  info.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
  info.elementType = tensor.getElementType();
  info.encoding = tensor.getEncoding();
  if (isTTGAttr(info.encoding)) {
    std::string why;
    info.layout = parseLayout(info.encoding, error ? &why : nullptr);
    if (!info.layout) {
      if (error) // names the attribute, then what is wrong with it
        *error =
            "cannot parse layout " + getTTGAttrText(info.encoding) + ": " + why;
      return failure();
    }
  }
  return info;
}

//===----------------------------------------------------------------------===//
// Layouts in their context
//===----------------------------------------------------------------------===//

static int64_t saturatingProduct(ArrayRef<unsigned> values) {
  constexpr int64_t kCap = int64_t(1) << 40;
  int64_t p = 1;
  for (unsigned v : values)
    p = v != 0 && p > kCap / v ? kCap : p * v;
  return p;
}

namespace {
enum class Span { Warps, Lanes };
} // namespace

/// The warps or the lanes a distributed layout spans (see Layouts.h).
static std::optional<int64_t> getSpan(const Layout &layout, Span span) {
  bool warps = span == Span::Warps;
  if (auto *b = dyn_cast<BlockedLayout>(&layout))
    return saturatingProduct(warps ? b->warpsPerCTA : b->threadsPerWarp);
  if (auto *m = dyn_cast<AMDMfmaLayout>(&layout))
    return warps ? saturatingProduct(m->warpsPerCTA) : 64;
  if (auto *n = dyn_cast<NvidiaMmaLayout>(&layout))
    return warps ? saturatingProduct(n->warpsPerCTA) : 32;
  // (generic_linear is not tied to the hardware: not checked.)
  if (auto *l = dyn_cast<LinearLayout>(&layout);
      l && l->getKind() == LayoutKind::Linear)
    return l->bases.getInDimSize(warps ? "warp" : "lane");
  if (auto *w = dyn_cast<AMDWmmaLayout>(&layout))
    return warps ? std::optional<int64_t>(w->ctaLayout.getInDimSize("warp"))
                 : std::nullopt;
  const Layout *parent = nullptr;
  if (auto *s = dyn_cast<SliceLayout>(&layout))
    parent = s->parent.get();
  else if (auto *d = dyn_cast<DotOperandLayout>(&layout))
    parent = d->parent.get();
  return parent ? getSpan(*parent, span) : std::nullopt;
}

std::optional<int64_t> mlir::triton_mfma::getTotalWarps(const Layout &layout) {
  return getSpan(layout, Span::Warps);
}

std::optional<int64_t> mlir::triton_mfma::getTotalLanes(const Layout &layout) {
  return getSpan(layout, Span::Lanes);
}

std::string mlir::triton_mfma::verifyTensorLayout(
    const Layout &layout, ArrayRef<int64_t> shape,
    std::optional<unsigned> numWarps, std::optional<unsigned> threadsPerWarp) {
  std::string msg;
  llvm::raw_string_ostream os(msg);
  if (layout.getRank() != shape.size()) {
    os << "layout " << layout.str() << " has rank " << layout.getRank()
       << ", but the tensor it is attached to has rank " << shape.size();
    return msg;
  }
  if (!layout.isDistributed())
    return "";
  // Triton's words: "has a total of 8 warps per CTA, but the context
  // requires 4 warps per CTA".
  for (auto [span, want, unit] :
       {std::make_tuple(Span::Warps, numWarps, "warps per CTA"),
        std::make_tuple(Span::Lanes, threadsPerWarp, "threads per warp")}) {
    std::optional<int64_t> have = getSpan(layout, span);
    if (have && want && *have != int64_t(*want)) {
      os << "layout " << layout.str() << " has a total of " << *have << " "
         << unit << ", but the context requires " << *want << " " << unit;
      return msg;
    }
  }
  return "";
}

bool mlir::triton_mfma::isMemDescType(Type type) {
  auto opaque = dyn_cast_or_null<OpaqueType>(type);
  return opaque && opaque.getDialectNamespace().getValue() == "ttg" &&
         opaque.getTypeData().starts_with("memdesc<");
}

FailureOr<MemDescInfo> mlir::triton_mfma::getMemDescInfo(Type type,
                                                         std::string *error) {
  if (!isMemDescType(type)) {
    if (error)
      *error = "not a !ttg.memdesc type";
    return failure();
  }
  auto opaque = cast<OpaqueType>(type);
  return parseMemDesc(opaque.getTypeData(), type.getContext(), error);
}

void MemDescInfo::print(raw_ostream &os) const {
  os << "!ttg.memdesc<";
  for (int64_t d : shape)
    os << d << "x";
  os << elementTypeText;
  os << ", " << (encoding ? encoding->str() : encodingText);
  os << ", " << (memorySpace ? memorySpace->str() : memorySpaceText);
  if (mutableMemory)
    os << ", mutable";
  if (allocShape != shape && !allocShape.empty()) {
    os << ", ";
    llvm::interleave(allocShape, os, "x");
  }
  os << ">";
}

std::string MemDescInfo::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  print(os);
  return s;
}

RankedTensorType
mlir::triton_mfma::getTensorTypeWithLayout(RankedTensorType type,
                                           const Layout &layout) {
  return RankedTensorType::get(type.getShape(), type.getElementType(),
                               getLayoutAttr(type.getContext(), layout));
}

Type mlir::triton_mfma::getMemDescType(MLIRContext *ctx,
                                       const MemDescInfo &info) {
  std::string text = info.str();
  return OpaqueType::get(StringAttr::get(ctx, "ttg"),
                         StringRef(text).drop_front(strlen("!ttg.")));
}

FailureOr<SmallVector<int64_t>> mlir::triton_mfma::getShape(Type type) {
  if (auto tensor = dyn_cast_or_null<RankedTensorType>(type))
    return SmallVector<int64_t>(tensor.getShape().begin(),
                                tensor.getShape().end());
  if (isMemDescType(type)) {
    FailureOr<MemDescInfo> info = getMemDescInfo(type);
    if (succeeded(info))
      return info->shape;
  }
  return failure();
}

LayoutPtr mlir::triton_mfma::getLayout(Type type) {
  if (auto tensor = dyn_cast_or_null<RankedTensorType>(type)) {
    if (isTTGAttr(tensor.getEncoding()))
      return parseLayout(tensor.getEncoding());
    return nullptr;
  }
  if (isMemDescType(type)) {
    FailureOr<MemDescInfo> info = getMemDescInfo(type);
    if (succeeded(info))
      return info->encoding;
  }
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Pointers and element sizes
//===----------------------------------------------------------------------===//

bool mlir::triton_mfma::isTritonPointerType(Type type) {
  auto opaque = dyn_cast_or_null<OpaqueType>(type);
  return opaque && opaque.getDialectNamespace() == "tt" &&
         opaque.getTypeData().starts_with("ptr<");
}

Type mlir::triton_mfma::getPointeeType(Type type) {
  if (!isTritonPointerType(type))
    return Type();
  StringRef data = cast<OpaqueType>(type).getTypeData();
  if (!data.consume_front("ptr<") || !data.consume_back(">"))
    return Type();
  // `!tt.ptr<f16>` / `!tt.ptr<f16, 1>`: the first parameter.
  SmallVector<StringRef> params;
  layout_parser::TextParser parser(data, nullptr);
  if (!parser.parseTypeParams(params) || params.empty())
    return Type();
  return parseType(params.front(), type.getContext());
}

std::optional<int64_t> mlir::triton_mfma::getElementBytes(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  if (auto i = dyn_cast<IntegerType>(type))
    return (i.getWidth() + 7) / 8;
  if (auto f = dyn_cast<FloatType>(type))
    return (f.getWidth() + 7) / 8;
  if (isa<IndexType>(type))
    return 8;
  if (isTritonPointerType(type)) {
    Type pointee = getPointeeType(type);
    if (!pointee || isa<OpaqueType>(pointee))
      return std::nullopt; // pointer to pointer, tensor descriptor, ...
    return getElementBytes(pointee);
  }
  return std::nullopt;
}
