//===- Layouts.cpp - TritonGPU layouts as C++ values ----------------------===//
//
// The layout model's values and printers. Parsing: LayoutParser.cpp and
// LayoutBuilders.cpp; tensor/memdesc/pointer types: LayoutTypes.cpp.
//
// Printing: one printer per kind, following Triton 3.9's
// lib/Dialect/TritonGPU/IR/Dialect.cpp: canonical field order, defaults
// omitted (CGALayout when it has no bases, tilesPerWarp when all ones,
// elementBitWidth when 32, kWidth when 0, WMMA instrShape when [16, 16, 16],
// padded_shared's `{order, shape}` shorthand when its offsets are an identity,
// ...). Checked against Triton 3.9 itself and on real TTGIR.
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/Layouts.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>

using namespace mlir;
using namespace mlir::triton_mfma;

//===----------------------------------------------------------------------===//
// Kinds
//===----------------------------------------------------------------------===//

namespace {
struct KindName {
  LayoutKind kind;
  const char *mnemonic;
};
} // namespace

static const KindName kKindNames[] = {
    {LayoutKind::Blocked, "blocked"},
    {LayoutKind::Slice, "slice"},
    {LayoutKind::DotOperand, "dot_op"},
    {LayoutKind::AMDMfma, "amd_mfma"},
    {LayoutKind::AMDWmma, "amd_wmma"},
    {LayoutKind::NvidiaMma, "nvidia_mma"},
    {LayoutKind::Linear, "linear"},
    {LayoutKind::GenericLinear, "generic_linear"},
    {LayoutKind::SwizzledShared, "swizzled_shared"},
    {LayoutKind::AMDRotatingShared, "amd_rotating_shared"},
    {LayoutKind::PaddedShared, "padded_shared"},
    {LayoutKind::SharedLinear, "shared_linear"},
    {LayoutKind::PartitionedShared, "partitioned_shared"},
    {LayoutKind::NVMMAShared, "nvmma_shared"},
    {LayoutKind::SharedMemory, "shared_memory"},
};

StringRef mlir::triton_mfma::getLayoutMnemonic(LayoutKind kind) {
  for (const KindName &k : kKindNames)
    if (k.kind == kind)
      return k.mnemonic;
  return "<invalid>";
}

std::optional<LayoutKind>
mlir::triton_mfma::getLayoutKindForMnemonic(StringRef mnemonic) {
  for (const KindName &k : kKindNames)
    if (mnemonic == k.mnemonic)
      return k.kind;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// LinearBases
//===----------------------------------------------------------------------===//

const BasisList *LinearBases::lookup(StringRef name) const {
  for (const auto &[n, bases] : dims)
    if (n == name)
      return &bases;
  return nullptr;
}

BasisList &LinearBases::getOrCreate(StringRef name) {
  for (auto &[n, bases] : dims)
    if (n == name)
      return bases;
  dims.emplace_back(name.str(), BasisList());
  return dims.back().second;
}

unsigned LinearBases::getRank() const {
  for (const auto &[n, bases] : dims)
    if (!bases.empty())
      return bases.front().size();
  return 0;
}

SmallVector<int64_t> LinearBases::getOutDimSizes(unsigned rank) const {
  SmallVector<int64_t> maxValue(rank, 0);
  for (const auto &[n, bases] : dims)
    for (const Basis &b : bases)
      for (unsigned d = 0; d < rank && d < b.size(); ++d)
        maxValue[d] = std::max<int64_t>(maxValue[d], b[d]);
  SmallVector<int64_t> sizes;
  for (int64_t m : maxValue)
    sizes.push_back(m <= 0 ? 1 : static_cast<int64_t>(llvm::NextPowerOf2(m)));
  return sizes;
}

int64_t LinearBases::getInDimSize(StringRef name) const {
  const BasisList *b = lookup(name);
  return b ? (int64_t(1) << std::min<size_t>(b->size(), 62)) : 1;
}

//===----------------------------------------------------------------------===//
// Printing helpers
//===----------------------------------------------------------------------===//

template <typename T>
static void printList(raw_ostream &os, ArrayRef<T> values,
                      StringRef sep = ", ") {
  llvm::interleave(values, os, [&](const T &v) { os << v; }, sep);
}

std::string mlir::triton_mfma::formatList(ArrayRef<unsigned> values) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  printList<unsigned>(os, values);
  os << "]";
  return s;
}

static void printBasisList(raw_ostream &os, const BasisList &bases,
                           StringRef sep = ", ") {
  os << "[";
  llvm::interleave(
      bases, os,
      [&](const Basis &b) {
        os << "[";
        printList<int32_t>(os, b, sep);
        os << "]";
      },
      sep);
  os << "]";
}

/// `name = [[..], ..], name = [..]` for the given in-dims (skipping empty
/// lists if asked), as Triton's printLinearLayout.
static void printLinearBases(raw_ostream &os, const LinearBases &lb,
                             bool skipEmpty = false) {
  bool first = true;
  for (const auto &[name, bases] : lb.dims) {
    if (skipEmpty && bases.empty())
      continue;
    if (!first)
      os << ", ";
    first = false;
    os << name << " = ";
    printBasisList(os, bases);
  }
}

static void maybePrintCGA(raw_ostream &os, const CGALayout &cga) {
  if (cga.isTrivial())
    return;
  os << ", CGALayout = ";
  printBasisList(os, cga.block);
}

static const char *boolStr(bool b) { return b ? "true" : "false"; }

/// Compact forms for remarks: "[2,2]" and "32x32x8".
static void describeList(raw_ostream &os, ArrayRef<unsigned> values) {
  os << "[";
  printList<unsigned>(os, values, ",");
  os << "]";
}

static void describeCGA(raw_ostream &os, const CGALayout &cga) {
  if (cga.isTrivial())
    return;
  os << " CGALayout=";
  printBasisList(os, cga.block, ",");
}

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

Layout::~Layout() = default;

void Layout::print(raw_ostream &os) const {
  os << "#ttg." << getMnemonic();
  printParams(os);
}

std::string Layout::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  print(os);
  return s;
}

void Layout::describe(raw_ostream &os) const {
  os << getMnemonic();
  std::string params;
  llvm::raw_string_ostream ps(params);
  describeParams(ps);
  if (!params.empty())
    os << ":" << params;
}

std::string Layout::getDescription() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  describe(os);
  return s;
}

void BlockedLayout::printParams(raw_ostream &os) const {
  os << "<{sizePerThread = [";
  printList<unsigned>(os, sizePerThread);
  os << "], threadsPerWarp = [";
  printList<unsigned>(os, threadsPerWarp);
  os << "], warpsPerCTA = [";
  printList<unsigned>(os, warpsPerCTA);
  os << "], order = [";
  printList<unsigned>(os, order);
  os << "]";
  maybePrintCGA(os, cga);
  os << "}>";
}

void BlockedLayout::describeParams(raw_ostream &os) const {
  os << " sizePerThread=";
  describeList(os, sizePerThread);
  os << " threadsPerWarp=";
  describeList(os, threadsPerWarp);
  os << " warpsPerCTA=";
  describeList(os, warpsPerCTA);
  os << " order=";
  describeList(os, order);
  describeCGA(os, cga);
}

void SliceLayout::printParams(raw_ostream &os) const {
  os << "<{dim = " << dim << ", parent = ";
  parent->print(os);
  os << "}>";
}

void SliceLayout::describeParams(raw_ostream &os) const {
  os << " dim=" << dim << " parent=(";
  parent->describe(os);
  os << ")";
}

void DotOperandLayout::printParams(raw_ostream &os) const {
  os << "<{opIdx = " << opIdx << ", parent = ";
  parent->print(os);
  if (kWidth != 0)
    os << ", kWidth = " << kWidth;
  os << "}>";
}

void DotOperandLayout::describeParams(raw_ostream &os) const {
  os << " opIdx=" << opIdx;
  if (kWidth != 0)
    os << " kWidth=" << kWidth;
  os << " parent=(";
  parent->describe(os);
  os << ")";
}

bool AMDMfmaLayout::hasUnitTilesPerWarp() const {
  return llvm::all_of(tilesPerWarp, [](unsigned t) { return t == 1; });
}

void AMDMfmaLayout::printParams(raw_ostream &os) const {
  os << "<{version = " << version << ", warpsPerCTA = [";
  printList<unsigned>(os, warpsPerCTA);
  os << "], instrShape = [";
  printList<unsigned>(os, instrShape);
  os << "], isTransposed = " << boolStr(isTransposed);
  maybePrintCGA(os, cga);
  if (!hasUnitTilesPerWarp()) {
    os << ", tilesPerWarp = [";
    printList<unsigned>(os, tilesPerWarp);
    os << "]";
  }
  if (elementBitWidth != 32)
    os << ", elementBitWidth = " << elementBitWidth;
  os << "}>";
}

void AMDMfmaLayout::describeParams(raw_ostream &os) const {
  os << " version=" << version << " instrShape=";
  printList<unsigned>(os, instrShape, "x");
  os << " warpsPerCTA=";
  describeList(os, warpsPerCTA);
  os << (isTransposed ? " transposed" : " not-transposed");
  if (!hasUnitTilesPerWarp()) {
    os << " tilesPerWarp=";
    describeList(os, tilesPerWarp);
  }
  if (elementBitWidth != 32)
    os << " elementBitWidth=" << elementBitWidth;
  describeCGA(os, cga);
}

static const unsigned kDefaultWmmaInstrShape[] = {16, 16, 16};

void AMDWmmaLayout::printParams(raw_ostream &os) const {
  os << "<{version = " << version << ", isTranspose = " << boolStr(isTransposed)
     << ", ctaLayout = {";
  printLinearBases(os, ctaLayout, /*skipEmpty=*/true);
  os << "}";
  maybePrintCGA(os, cga);
  if (ArrayRef<unsigned>(instrShape) != ArrayRef(kDefaultWmmaInstrShape)) {
    os << ", instrShape = [";
    printList<unsigned>(os, instrShape);
    os << "]";
  }
  os << "}>";
}

void AMDWmmaLayout::describeParams(raw_ostream &os) const {
  os << " version=" << version << " instrShape=";
  printList<unsigned>(os, instrShape, "x");
  os << " warps=" << ctaLayout.getInDimSize("warp");
  os << (isTransposed ? " transposed" : " not-transposed");
  describeCGA(os, cga);
}

void NvidiaMmaLayout::printParams(raw_ostream &os) const {
  os << "<{versionMajor = " << versionMajor
     << ", versionMinor = " << versionMinor << ", warpsPerCTA = [";
  printList<unsigned>(os, warpsPerCTA);
  os << "]";
  maybePrintCGA(os, cga);
  os << ", instrShape = [";
  printList<unsigned>(os, instrShape);
  os << "]}>";
}

void NvidiaMmaLayout::describeParams(raw_ostream &os) const {
  os << " version=" << versionMajor << "." << versionMinor << " instrShape=";
  printList<unsigned>(os, instrShape, "x");
  os << " warpsPerCTA=";
  describeList(os, warpsPerCTA);
  describeCGA(os, cga);
}

void LinearLayout::printParams(raw_ostream &os) const {
  os << "<{";
  printLinearBases(os, bases);
  os << "}>";
}

void LinearLayout::describeParams(raw_ostream &os) const {
  os << " rank=" << rank << " registers=" << bases.getInDimSize("register")
     << " lanes=" << bases.getInDimSize("lane")
     << " warps=" << bases.getInDimSize("warp")
     << " blocks=" << bases.getInDimSize("block");
}

void SwizzledSharedLayout::printParams(raw_ostream &os) const {
  os << "<{vec = " << vec << ", perPhase = " << perPhase
     << ", maxPhase = " << maxPhase << ", order = [";
  printList<unsigned>(os, order);
  os << "]";
  maybePrintCGA(os, cga);
  os << "}>";
}

void SwizzledSharedLayout::describeParams(raw_ostream &os) const {
  os << " vec=" << vec << " perPhase=" << perPhase << " maxPhase=" << maxPhase
     << " order=";
  describeList(os, order);
  describeCGA(os, cga);
}

SmallVector<unsigned> PaddedSharedLayout::getOrder() const {
  SmallVector<unsigned> order;
  if (const BasisList *offset = linear.lookup("offset")) {
    for (const Basis &b : *offset) {
      for (unsigned d = 0; d < b.size(); ++d) {
        if (b[d] != 0) {
          if (!llvm::is_contained(order, d))
            order.push_back(d);
          break;
        }
      }
    }
  }
  for (int d = static_cast<int>(rank) - 1; d >= 0; --d)
    if (!llvm::is_contained(order, static_cast<unsigned>(d)))
      order.push_back(d);
  return order;
}

BasisList PaddedSharedLayout::getIdentityOffsetBases(ArrayRef<int64_t> shape,
                                                     ArrayRef<unsigned> order) {
  BasisList bases;
  unsigned rank = shape.size();
  for (unsigned d : order) {
    if (d >= rank)
      continue;
    for (int64_t v = 1; v < shape[d]; v *= 2) {
      Basis b(rank, 0);
      b[d] = static_cast<int32_t>(v);
      bases.push_back(b);
    }
  }
  return bases;
}

bool PaddedSharedLayout::isIdentity() const {
  const BasisList *block = linear.lookup("block");
  if (block && !block->empty())
    return false;
  const BasisList *offset = linear.lookup("offset");
  BasisList empty;
  return getIdentityOffsetBases(getShape(), getOrder()) ==
         (offset ? *offset : empty);
}

void PaddedSharedLayout::printParams(raw_ostream &os) const {
  os << "<[";
  for (unsigned i = 0; i < intervals.size(); ++i) {
    if (i)
      os << ", ";
    os << intervals[i] << ":+" << paddings[i];
  }
  os << "] {";
  if (isIdentity()) {
    os << "order = [";
    printList<unsigned>(os, getOrder());
    os << "], shape = [";
    printList<int64_t>(os, getShape());
    os << "]";
  } else {
    printLinearBases(os, linear);
  }
  os << "}>";
}

void PaddedSharedLayout::describeParams(raw_ostream &os) const {
  os << " padding=[";
  for (unsigned i = 0; i < intervals.size(); ++i) {
    if (i)
      os << ",";
    os << intervals[i] << ":+" << paddings[i];
  }
  os << "] order=";
  describeList(os, getOrder());
  os << " shape=[";
  printList<int64_t>(os, getShape(), ",");
  os << "]";
  if (!isIdentity())
    os << " non-identity";
}

void SharedLinearLayout::printParams(raw_ostream &os) const {
  os << "<{";
  LinearBases toPrint;
  for (const auto &[name, bases] : linear.dims)
    if (name != "block" || !bases.empty())
      toPrint.dims.emplace_back(name, bases);
  printLinearBases(os, toPrint);
  os << "}, alignment = " << alignment << ">";
}

void SharedLinearLayout::describeParams(raw_ostream &os) const {
  os << " rank=" << rank << " offsets=" << linear.getInDimSize("offset")
     << " blocks=" << linear.getInDimSize("block")
     << " alignment=" << alignment;
}

void PartitionedSharedLayout::printParams(raw_ostream &os) const {
  os << "<{numPartitions = " << numPartitions << ", numGroups = " << numGroups
     << ", partitionDim = " << partitionDim << ", partitionLayout = ";
  partitionLayout->print(os);
  os << "}>";
}

void PartitionedSharedLayout::describeParams(raw_ostream &os) const {
  os << " numPartitions=" << numPartitions << " numGroups=" << numGroups
     << " partitionDim=" << partitionDim << " partitionLayout=(";
  partitionLayout->describe(os);
  os << ")";
}

void NVMMASharedLayout::printParams(raw_ostream &os) const {
  os << "<{swizzlingByteWidth = " << swizzlingByteWidth
     << ", transposed = " << boolStr(transposed)
     << ", elementBitWidth = " << elementBitWidth;
  if (fp4Padded)
    os << ", fp4Padded = true";
  if (cga.isTrivial() && rank != 2)
    os << ", rank = " << rank;
  else
    maybePrintCGA(os, cga);
  os << "}>";
}

void NVMMASharedLayout::describeParams(raw_ostream &os) const {
  os << " swizzlingByteWidth=" << swizzlingByteWidth
     << (transposed ? " transposed" : "")
     << " elementBitWidth=" << elementBitWidth
     << (fp4Padded ? " fp4Padded" : "") << " rank=" << rank;
  describeCGA(os, cga);
}
