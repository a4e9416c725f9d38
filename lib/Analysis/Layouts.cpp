//===- Layouts.cpp - TritonGPU layouts as C++ values ----------------------===//
//
// Parsing: a small recursive-descent parser over the attribute text builds a
// value tree (integers, booleans, arrays, dictionaries, nested layouts), and a
// builder per kind checks the keys (unknown, duplicate, missing), ranges and
// ranks and fills the typed struct. Nesting depth is bounded, every error
// carries the character offset, and nothing asserts on bad input.
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

/// Offset bases of identityStandardND(shape, order): for each dimension in
/// `order` (fastest first), log2(shape[d]) unit steps along d.
static BasisList identityOffsetBases(ArrayRef<int64_t> shape,
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
  return identityOffsetBases(getShape(), getOrder()) ==
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

//===----------------------------------------------------------------------===//
// Value-tree parser
//===----------------------------------------------------------------------===//

namespace {

/// A parsed attribute value.
struct Value {
  enum class Kind { Int, Bool, Array, Dict, Layout };
  Kind kind = Kind::Int;
  size_t pos = 0; ///< offset of the value in the text
  int64_t intValue = 0;
  bool boolValue = false;
  std::vector<Value> elements;                        // Array
  std::vector<std::pair<std::string, Value>> entries; // Dict
  std::vector<size_t> keyPositions;                   // Dict
  LayoutPtr layout;                                   // Layout
};

constexpr unsigned kMaxDepth = 64;

class TextParser {
public:
  TextParser(StringRef text, std::string *error) : text(text), error(error) {}

  LayoutPtr parseTopLevel() {
    LayoutPtr l = parseLayoutValue(0);
    if (!l)
      return nullptr;
    skipWs();
    if (pos != text.size())
      return fail("unexpected trailing characters after the layout");
    return l;
  }

  /// Parses "#ttg.<mnemonic>[<...>]" starting at the current position.
  LayoutPtr parseLayoutValue(unsigned depth);

  bool failed() const { return hasFailed; }
  size_t getPos() const { return pos; }

private:
  StringRef text;
  std::string *error;
  size_t pos = 0;
  bool hasFailed = false;

  std::nullptr_t fail(const Twine &msg) { return failAt(pos, msg); }
  std::nullptr_t failAt(size_t at, const Twine &msg) {
    if (!hasFailed && error)
      *error = (msg + " (at offset " + Twine(at) + ")").str();
    hasFailed = true;
    return nullptr;
  }

  void skipWs() {
    while (pos < text.size() && llvm::isSpace(text[pos]))
      ++pos;
  }
  bool atEnd() {
    skipWs();
    return pos >= text.size();
  }
  char peek() {
    skipWs();
    return pos < text.size() ? text[pos] : '\0';
  }
  bool consumeIf(char c) {
    if (peek() == c) {
      ++pos;
      return true;
    }
    return false;
  }
  bool consumeIf(StringRef s) {
    skipWs();
    if (text.substr(pos).starts_with(s)) {
      pos += s.size();
      return true;
    }
    return false;
  }
  bool expect(char c, StringRef what) {
    if (consumeIf(c))
      return true;
    if (atEnd())
      fail(Twine("expected '") + Twine(c) + "' " + what +
           ", but the text ended");
    else
      fail(Twine("expected '") + Twine(c) + "' " + what + ", got '" +
           Twine(text[pos]) + "'");
    return false;
  }
  static bool isIdentChar(char c) {
    return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$' || c == '-';
  }
  /// identifier or "quoted string"
  bool parseKey(std::string &key) {
    skipWs();
    if (pos < text.size() && text[pos] == '"') {
      size_t end = text.find('"', pos + 1);
      if (end == StringRef::npos) {
        fail("unterminated string");
        return false;
      }
      key = text.slice(pos + 1, end).str();
      pos = end + 1;
      return true;
    }
    size_t start = pos;
    while (pos < text.size() && (llvm::isAlnum(text[pos]) || text[pos] == '_'))
      ++pos;
    if (start == pos) {
      fail("expected a key");
      return false;
    }
    key = text.slice(start, pos).str();
    return true;
  }
  bool parseInt(int64_t &value) {
    skipWs();
    size_t start = pos;
    bool negative = false;
    if (pos < text.size() && text[pos] == '-') {
      negative = true;
      ++pos;
    }
    size_t digitsStart = pos;
    while (pos < text.size() && llvm::isDigit(text[pos]))
      ++pos;
    if (digitsStart == pos) {
      failAt(start, "expected an integer");
      return false;
    }
    uint64_t magnitude = 0;
    if (text.slice(digitsStart, pos).getAsInteger(10, magnitude) ||
        magnitude >
            static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      failAt(start, "integer out of range");
      return false;
    }
    value = negative ? -static_cast<int64_t>(magnitude)
                     : static_cast<int64_t>(magnitude);
    // Optional MLIR type suffix, e.g. `4 : i32`.
    size_t save = pos;
    skipWs();
    if (pos < text.size() && text[pos] == ':' &&
        !(pos + 1 < text.size() && text[pos + 1] == '+')) {
      ++pos;
      skipWs();
      size_t tstart = pos;
      while (pos < text.size() && llvm::isAlnum(text[pos]))
        ++pos;
      StringRef ty = text.slice(tstart, pos);
      if (!(ty.starts_with("i") || ty.starts_with("si") ||
            ty.starts_with("ui") || ty == "index")) {
        pos = save;
      }
    } else {
      pos = save;
    }
    return true;
  }

public:
  bool parseValue(Value &v, unsigned depth);
  bool parseDict(Value &v, unsigned depth);
};

} // namespace

bool TextParser::parseDict(Value &v, unsigned depth) {
  v.kind = Value::Kind::Dict;
  v.pos = pos;
  if (!expect('{', "to open a dictionary"))
    return false;
  if (consumeIf('}'))
    return true;
  do {
    std::string key;
    size_t keyPos = (skipWs(), pos);
    if (!parseKey(key))
      return false;
    if (!expect('=', ("after key '" + key + "'").c_str()))
      return false;
    Value value;
    if (!parseValue(value, depth + 1))
      return false;
    v.entries.emplace_back(std::move(key), std::move(value));
    v.keyPositions.push_back(keyPos);
  } while (consumeIf(','));
  return expect('}', "to close the dictionary");
}

bool TextParser::parseValue(Value &v, unsigned depth) {
  if (depth > kMaxDepth) {
    fail("nesting too deep");
    return false;
  }
  skipWs();
  v.pos = pos;
  char c = peek();
  if (c == '[') {
    ++pos;
    v.kind = Value::Kind::Array;
    if (consumeIf(']'))
      return true;
    do {
      Value e;
      if (!parseValue(e, depth + 1))
        return false;
      v.elements.push_back(std::move(e));
    } while (consumeIf(','));
    return expect(']', "to close the array");
  }
  if (c == '{')
    return parseDict(v, depth);
  if (c == '#') {
    v.kind = Value::Kind::Layout;
    v.layout = parseLayoutValue(depth + 1);
    return v.layout != nullptr;
  }
  if (c == '-' || llvm::isDigit(c)) {
    v.kind = Value::Kind::Int;
    return parseInt(v.intValue);
  }
  if (consumeIf("true")) {
    v.kind = Value::Kind::Bool;
    v.boolValue = true;
    return true;
  }
  if (consumeIf("false")) {
    v.kind = Value::Kind::Bool;
    v.boolValue = false;
    return true;
  }
  if (c == '\0')
    fail("expected a value, but the text ended");
  else
    fail(Twine("unexpected character '") + Twine(c) + "' in a value");
  return false;
}

//===----------------------------------------------------------------------===//
// Typed builders
//===----------------------------------------------------------------------===//

namespace {

/// Reads the entries of a parsed dictionary with checks.
class DictReader {
public:
  DictReader(const Value &dict, StringRef what,
             std::function<std::nullptr_t(size_t, const Twine &)> fail)
      : dict(dict), what(what), fail(std::move(fail)) {}

  /// Rejects duplicate keys and keys not in `allowed`.
  bool checkKeys(ArrayRef<StringRef> allowed) {
    for (size_t i = 0; i < dict.entries.size(); ++i) {
      const std::string &key = dict.entries[i].first;
      if (!llvm::is_contained(allowed, StringRef(key))) {
        fail(dict.keyPositions[i],
             "unexpected key '" + key + "' in " + what +
                 " (expected one of: " + llvm::join(allowed, ", ") + ")");
        return false;
      }
      for (size_t j = 0; j < i; ++j) {
        if (dict.entries[j].first == key) {
          fail(dict.keyPositions[i], "duplicate key '" + key + "' in " + what);
          return false;
        }
      }
    }
    return true;
  }

  const Value *get(StringRef key) const {
    for (const auto &[k, v] : dict.entries)
      if (k == key)
        return &v;
    return nullptr;
  }

  const Value *require(StringRef key) {
    const Value *v = get(key);
    if (!v)
      fail(dict.pos, "missing '" + key + "' in " + what);
    return v;
  }

  bool toUInt(const Value &v, StringRef key, unsigned &out) {
    if (v.kind != Value::Kind::Int) {
      fail(v.pos, "expected an integer for '" + key + "' in " + what);
      return false;
    }
    if (v.intValue < 0 || v.intValue > std::numeric_limits<unsigned>::max()) {
      fail(v.pos, "expected a non-negative 32-bit integer for '" + key +
                      "' in " + what);
      return false;
    }
    out = static_cast<unsigned>(v.intValue);
    return true;
  }
  bool uintField(StringRef key, unsigned &out, bool required = true) {
    const Value *v = required ? require(key) : get(key);
    if (!v)
      return !required;
    return toUInt(*v, key, out);
  }
  bool boolField(StringRef key, bool &out, bool required = true) {
    const Value *v = required ? require(key) : get(key);
    if (!v)
      return !required;
    if (v->kind != Value::Kind::Bool) {
      fail(v->pos, "expected true or false for '" + key + "' in " + what);
      return false;
    }
    out = v->boolValue;
    return true;
  }
  bool uintArray(const Value &v, StringRef key,
                 SmallVectorImpl<unsigned> &out) {
    if (v.kind != Value::Kind::Array) {
      fail(v.pos, "expected an array of integers for '" + key + "' in " + what);
      return false;
    }
    out.clear();
    for (const Value &e : v.elements) {
      unsigned x;
      if (!toUInt(e, key, x))
        return false;
      out.push_back(x);
    }
    return true;
  }
  bool uintArrayField(StringRef key, SmallVectorImpl<unsigned> &out,
                      bool required = true) {
    const Value *v = required ? require(key) : get(key);
    if (!v)
      return !required;
    return uintArray(*v, key, out);
  }
  /// `[[a, b], [c, d]]`; every basis must have `rank` entries (if rank != 0;
  /// otherwise the first basis fixes it and `rank` is updated).
  bool basisList(const Value &v, StringRef key, BasisList &out,
                 unsigned &rank) {
    if (v.kind != Value::Kind::Array) {
      fail(v.pos, "expected an array of bases for '" + key + "' in " + what);
      return false;
    }
    out.clear();
    for (const Value &b : v.elements) {
      if (b.kind != Value::Kind::Array) {
        fail(b.pos, "expected a basis (array of integers) in '" + key +
                        "' of " + what);
        return false;
      }
      Basis basis;
      for (const Value &e : b.elements) {
        if (e.kind != Value::Kind::Int ||
            e.intValue < std::numeric_limits<int32_t>::min() ||
            e.intValue > std::numeric_limits<int32_t>::max()) {
          fail(e.pos,
               "expected a 32-bit integer in basis '" + key + "' of " + what);
          return false;
        }
        basis.push_back(static_cast<int32_t>(e.intValue));
      }
      if (rank == 0)
        rank = basis.size();
      if (basis.size() != rank) {
        fail(b.pos, "basis of '" + key + "' in " + what + " has " +
                        Twine(basis.size()) + " entries, expected rank " +
                        Twine(rank));
        return false;
      }
      out.push_back(std::move(basis));
    }
    return true;
  }
  bool cgaField(CGALayout &cga, unsigned rank) {
    const Value *v = get("CGALayout");
    if (!v)
      return true;
    unsigned r = rank;
    return basisList(*v, "CGALayout", cga.block, r);
  }
  bool layoutField(StringRef key, LayoutPtr &out) {
    const Value *v = require(key);
    if (!v)
      return false;
    if (v->kind != Value::Kind::Layout) {
      fail(v->pos, "expected a #ttg layout for '" + key + "' in " + what);
      return false;
    }
    out = v->layout;
    return true;
  }

  const Value &dict;
  std::string what;
  std::function<std::nullptr_t(size_t, const Twine &)> fail;
};

} // namespace

LayoutPtr TextParser::parseLayoutValue(unsigned depth) {
  if (depth > kMaxDepth)
    return fail("nesting too deep");
  skipWs();
  size_t start = pos;
  if (!consumeIf('#'))
    return fail("expected a layout attribute starting with '#ttg.'");
  size_t dialectStart = pos;
  while (pos < text.size() && (llvm::isAlnum(text[pos]) || text[pos] == '_'))
    ++pos;
  StringRef dialect = text.slice(dialectStart, pos);
  if (dialect != "ttg" || pos >= text.size() || text[pos] != '.')
    return failAt(start, "expected a '#ttg.' layout, got '#" + dialect +
                             "...' (only TritonGPU layouts are modelled)");
  ++pos;
  size_t mnemonicStart = pos;
  while (pos < text.size() && (llvm::isAlnum(text[pos]) || text[pos] == '_'))
    ++pos;
  StringRef mnemonic = text.slice(mnemonicStart, pos);
  std::optional<LayoutKind> kind = getLayoutKindForMnemonic(mnemonic);
  if (!kind)
    return failAt(mnemonicStart, "unknown layout '#ttg." + mnemonic + "'");
  std::string what = ("#ttg." + mnemonic).str();
  auto failFn = [this](size_t at, const Twine &msg) { return failAt(at, msg); };

  if (*kind == LayoutKind::SharedMemory) {
    if (peek() == '<')
      return fail("#ttg.shared_memory takes no parameters");
    return std::make_shared<SharedMemorySpace>();
  }

  if (!expect('<', ("after '" + what + "'").c_str()))
    return nullptr;

  // padded_shared: <[interval:+padding, ...] {dict}>
  if (*kind == LayoutKind::PaddedShared) {
    auto layout = std::make_shared<PaddedSharedLayout>();
    if (!expect('[',
                "to open the interval:+padding list of #ttg.padded_shared"))
      return nullptr;
    do {
      int64_t interval, padding;
      size_t at = (skipWs(), pos);
      if (!parseInt(interval))
        return nullptr;
      if (!expect(':', "between interval and padding"))
        return nullptr;
      if (!expect('+', "before the padding"))
        return nullptr;
      if (!parseInt(padding))
        return nullptr;
      if (interval <= 0 || padding <= 0 || !llvm::isPowerOf2_64(interval) ||
          !llvm::isPowerOf2_64(padding) || interval > (int64_t(1) << 31) ||
          padding > (int64_t(1) << 31))
        return failAt(at, "#ttg.padded_shared intervals and paddings must be "
                          "positive powers of two");
      if (llvm::is_contained(layout->intervals, unsigned(interval)))
        return failAt(at, "duplicate interval in #ttg.padded_shared");
      layout->intervals.push_back(interval);
      layout->paddings.push_back(padding);
    } while (consumeIf(','));
    if (!expect(']', "to close the interval:+padding list"))
      return nullptr;
    Value dict;
    if (!parseDict(dict, depth + 1))
      return nullptr;
    DictReader r(dict, what, failFn);
    if (r.get("offset") || r.get("block")) {
      if (!r.checkKeys({"offset", "block"}))
        return nullptr;
      unsigned rank = 0;
      BasisList &offset = layout->linear.getOrCreate("offset");
      BasisList &block = layout->linear.getOrCreate("block");
      if (const Value *v = r.require("offset")) {
        if (!r.basisList(*v, "offset", offset, rank))
          return nullptr;
      } else {
        return nullptr;
      }
      if (const Value *v = r.require("block")) {
        if (!r.basisList(*v, "block", block, rank))
          return nullptr;
      } else {
        return nullptr;
      }
      if (rank == 0)
        return failAt(dict.pos, "empty layout not supported in " + what);
      layout->rank = rank;
    } else {
      if (!r.checkKeys({"order", "shape"}))
        return nullptr;
      SmallVector<unsigned> order, shape;
      if (!r.uintArrayField("order", order) ||
          !r.uintArrayField("shape", shape))
        return nullptr;
      if (order.size() != shape.size())
        return failAt(dict.pos, "mismatch of shape and order ranks in " + what);
      for (unsigned i = 0; i < order.size(); ++i) {
        if (order[i] >= order.size() || llvm::count(order, order[i]) != 1)
          return failAt(dict.pos, "order of " + what + " is not a permutation");
        if (shape[i] == 0 || !llvm::isPowerOf2_32(shape[i]))
          return failAt(dict.pos,
                        "shape of " + what + " must be powers of two");
      }
      SmallVector<int64_t> shape64(shape.begin(), shape.end());
      layout->linear.getOrCreate("offset") =
          identityOffsetBases(shape64, order);
      layout->linear.getOrCreate("block");
      layout->rank = order.size();
    }
    if (!expect('>', "to close #ttg.padded_shared"))
      return nullptr;
    return layout;
  }

  Value dict;
  if (!parseDict(dict, depth + 1))
    return nullptr;
  DictReader r(dict, what, failFn);

  switch (*kind) {
  case LayoutKind::Blocked: {
    auto l = std::make_shared<BlockedLayout>();
    if (!r.checkKeys({"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order",
                      "CGALayout"}) ||
        !r.uintArrayField("sizePerThread", l->sizePerThread) ||
        !r.uintArrayField("threadsPerWarp", l->threadsPerWarp) ||
        !r.uintArrayField("warpsPerCTA", l->warpsPerCTA) ||
        !r.uintArrayField("order", l->order))
      return nullptr;
    size_t rank = l->order.size();
    if (l->sizePerThread.size() != rank || l->threadsPerWarp.size() != rank ||
        l->warpsPerCTA.size() != rank)
      return failAt(dict.pos, "sizePerThread, threadsPerWarp, warpsPerCTA and "
                              "order of #ttg.blocked must have the same rank");
    if (!r.cgaField(l->cga, rank))
      return nullptr;
    if (!expect('>', "to close #ttg.blocked"))
      return nullptr;
    return l;
  }
  case LayoutKind::Slice: {
    auto l = std::make_shared<SliceLayout>();
    if (!r.checkKeys({"dim", "parent"}) || !r.uintField("dim", l->dim) ||
        !r.layoutField("parent", l->parent))
      return nullptr;
    if (!l->parent->isDistributed())
      return failAt(dict.pos, "the parent of #ttg.slice must be a distributed "
                              "layout, got #ttg." +
                                  l->parent->getMnemonic());
    if (l->dim >= l->parent->getRank())
      return failAt(dict.pos, "slice dim=" + Twine(l->dim) +
                                  " must be less than the parent rank=" +
                                  Twine(l->parent->getRank()));
    if (!expect('>', "to close #ttg.slice"))
      return nullptr;
    return l;
  }
  case LayoutKind::DotOperand: {
    auto l = std::make_shared<DotOperandLayout>();
    if (!r.checkKeys({"opIdx", "parent", "kWidth"}) ||
        !r.uintField("opIdx", l->opIdx) ||
        !r.layoutField("parent", l->parent) ||
        !r.uintField("kWidth", l->kWidth, /*required=*/false))
      return nullptr;
    if (l->opIdx > 1)
      return failAt(dict.pos, "opIdx of #ttg.dot_op must be 0 or 1");
    if (!l->parent->isDistributed())
      return failAt(dict.pos, "the parent of #ttg.dot_op must be a "
                              "distributed layout, got #ttg." +
                                  l->parent->getMnemonic());
    if (l->kWidth == 0 && isa<AMDMfmaLayout>(l->parent.get()))
      return failAt(dict.pos,
                    "#ttg.dot_op kWidth is mandatory for an amd_mfma parent");
    if (!expect('>', "to close #ttg.dot_op"))
      return nullptr;
    return l;
  }
  case LayoutKind::AMDMfma: {
    auto l = std::make_shared<AMDMfmaLayout>();
    if (!r.checkKeys({"version", "warpsPerCTA", "instrShape", "isTransposed",
                      "CGALayout", "tilesPerWarp", "elementBitWidth"}) ||
        !r.uintField("version", l->version) ||
        !r.uintArrayField("warpsPerCTA", l->warpsPerCTA) ||
        !r.uintArrayField("instrShape", l->instrShape) ||
        !r.boolField("isTransposed", l->isTransposed) ||
        !r.uintArrayField("tilesPerWarp", l->tilesPerWarp,
                          /*required=*/false) ||
        !r.uintField("elementBitWidth", l->elementBitWidth,
                     /*required=*/false))
      return nullptr;
    if (l->version > 4)
      return failAt(dict.pos, "version of #ttg.amd_mfma must be in [0, 4]");
    if (l->instrShape.size() < 2 || l->instrShape.size() > 3)
      return failAt(dict.pos, "instrShape of #ttg.amd_mfma must be [M, N] or "
                              "[M, N, K]");
    if (l->elementBitWidth != 32 && l->elementBitWidth != 64)
      return failAt(dict.pos,
                    "elementBitWidth of #ttg.amd_mfma must be 32 or 64");
    if (!r.cgaField(l->cga, l->warpsPerCTA.size()))
      return nullptr;
    if (!expect('>', "to close #ttg.amd_mfma"))
      return nullptr;
    return l;
  }
  case LayoutKind::AMDWmma: {
    auto l = std::make_shared<AMDWmmaLayout>();
    bool hasRank = r.get("rank") != nullptr;
    if (!r.checkKeys({"version", "rank", "ctaLayout", "isTranspose",
                      "CGALayout", "instrShape"}) ||
        !r.uintField("version", l->version) ||
        !r.uintField("rank", l->rank, /*required=*/false) ||
        !r.boolField("isTranspose", l->isTransposed, /*required=*/false) ||
        !r.uintArrayField("instrShape", l->instrShape, /*required=*/false))
      return nullptr;
    const Value *cta = r.require("ctaLayout");
    if (!cta)
      return nullptr;
    if (cta->kind != Value::Kind::Dict)
      return failAt(cta->pos, "expected dictionary value for 'ctaLayout' in "
                              "#ttg.amd_wmma");
    DictReader cr(*cta, "the ctaLayout of #ttg.amd_wmma", failFn);
    if (!cr.checkKeys({"register", "warp"}))
      return nullptr;
    unsigned rank = hasRank ? l->rank : 0;
    BasisList &regs = l->ctaLayout.getOrCreate("register");
    BasisList &warps = l->ctaLayout.getOrCreate("warp");
    if (const Value *v = cr.get("register"))
      if (!cr.basisList(*v, "register", regs, rank))
        return nullptr;
    const Value *w = cr.require("warp");
    if (!w || !cr.basisList(*w, "warp", warps, rank))
      return nullptr;
    if (rank != 0)
      l->rank = rank;
    if (!r.cgaField(l->cga, l->rank))
      return nullptr;
    if (l->version < 1 || l->version > 3)
      return failAt(dict.pos, "version of #ttg.amd_wmma must be in [1, 3]");
    if (!expect('>', "to close #ttg.amd_wmma"))
      return nullptr;
    return l;
  }
  case LayoutKind::NvidiaMma: {
    auto l = std::make_shared<NvidiaMmaLayout>();
    if (!r.checkKeys({"versionMajor", "versionMinor", "warpsPerCTA",
                      "CGALayout", "instrShape"}) ||
        !r.uintField("versionMajor", l->versionMajor) ||
        !r.uintField("versionMinor", l->versionMinor, /*required=*/false) ||
        !r.uintArrayField("warpsPerCTA", l->warpsPerCTA) ||
        !r.uintArrayField("instrShape", l->instrShape) ||
        !r.cgaField(l->cga, l->warpsPerCTA.size()))
      return nullptr;
    if (!expect('>', "to close #ttg.nvidia_mma"))
      return nullptr;
    return l;
  }
  case LayoutKind::Linear:
  case LayoutKind::GenericLinear: {
    auto l = std::make_shared<LinearLayout>(*kind == LayoutKind::GenericLinear);
    if (!r.checkKeys({"register", "lane", "warp", "block"}))
      return nullptr;
    unsigned rank = 0;
    for (StringRef dim : {"register", "lane", "warp", "block"}) {
      const Value *v = r.require(dim);
      if (!v)
        return nullptr;
      if (!r.basisList(*v, dim, l->bases.getOrCreate(dim), rank))
        return nullptr;
    }
    if (rank == 0)
      return failAt(dict.pos, "empty layout not supported in " + what);
    l->rank = rank;
    if (!expect('>', ("to close " + what).c_str()))
      return nullptr;
    return l;
  }
  case LayoutKind::SwizzledShared:
  case LayoutKind::AMDRotatingShared: {
    auto l = std::make_shared<SwizzledSharedLayout>(
        *kind == LayoutKind::AMDRotatingShared);
    if (!r.checkKeys({"vec", "perPhase", "maxPhase", "order", "CGALayout"}) ||
        !r.uintField("vec", l->vec) || !r.uintField("perPhase", l->perPhase) ||
        !r.uintField("maxPhase", l->maxPhase) ||
        !r.uintArrayField("order", l->order) ||
        !r.cgaField(l->cga, l->order.size()))
      return nullptr;
    if (!expect('>', ("to close " + what).c_str()))
      return nullptr;
    return l;
  }
  case LayoutKind::SharedLinear: {
    auto l = std::make_shared<SharedLinearLayout>();
    if (!r.checkKeys({"offset", "block"}))
      return nullptr;
    unsigned rank = 0;
    const Value *off = r.require("offset");
    if (!off ||
        !r.basisList(*off, "offset", l->linear.getOrCreate("offset"), rank))
      return nullptr;
    BasisList &block = l->linear.getOrCreate("block");
    if (const Value *b = r.get("block"))
      if (!r.basisList(*b, "block", block, rank))
        return nullptr;
    if (rank == 0)
      return failAt(dict.pos, "empty layout not supported in " + what);
    l->rank = rank;
    if (!expect(',', "before 'alignment' in #ttg.shared_linear"))
      return nullptr;
    std::string key;
    size_t keyPos = (skipWs(), pos);
    if (!parseKey(key))
      return nullptr;
    if (key != "alignment")
      return failAt(keyPos, "expected 'alignment' in #ttg.shared_linear");
    if (!expect('=', "after 'alignment'"))
      return nullptr;
    int64_t align;
    size_t alignPos = (skipWs(), pos);
    if (!parseInt(align))
      return nullptr;
    if (align <= 0 || align > (int64_t(1) << 31) || !llvm::isPowerOf2_64(align))
      return failAt(alignPos, "alignment of #ttg.shared_linear must be a "
                              "positive power of two");
    l->alignment = align;
    if (!expect('>', "to close #ttg.shared_linear"))
      return nullptr;
    return l;
  }
  case LayoutKind::PartitionedShared: {
    auto l = std::make_shared<PartitionedSharedLayout>();
    if (!r.checkKeys({"numPartitions", "numGroups", "partitionDim",
                      "partitionLayout"}) ||
        !r.uintField("numPartitions", l->numPartitions) ||
        !r.uintField("numGroups", l->numGroups) ||
        !r.uintField("partitionDim", l->partitionDim) ||
        !r.layoutField("partitionLayout", l->partitionLayout))
      return nullptr;
    if (!l->partitionLayout->isShared())
      return failAt(dict.pos, "partitionLayout of #ttg.partitioned_shared "
                              "must be a shared layout");
    if (!expect('>', "to close #ttg.partitioned_shared"))
      return nullptr;
    return l;
  }
  case LayoutKind::NVMMAShared: {
    auto l = std::make_shared<NVMMASharedLayout>();
    if (!r.checkKeys({"swizzlingByteWidth", "transposed", "elementBitWidth",
                      "fp4Padded", "CGALayout", "rank"}) ||
        !r.uintField("swizzlingByteWidth", l->swizzlingByteWidth) ||
        !r.boolField("transposed", l->transposed, /*required=*/false) ||
        !r.uintField("elementBitWidth", l->elementBitWidth) ||
        !r.boolField("fp4Padded", l->fp4Padded, /*required=*/false))
      return nullptr;
    bool hasRank = r.get("rank") != nullptr;
    if (!r.uintField("rank", l->rank, /*required=*/false))
      return nullptr;
    unsigned rank = hasRank ? l->rank : 0;
    if (const Value *v = r.get("CGALayout")) {
      if (!r.basisList(*v, "CGALayout", l->cga.block, rank))
        return nullptr;
      if (!hasRank && rank != 0)
        l->rank = rank;
    }
    if (!expect('>', "to close #ttg.nvmma_shared"))
      return nullptr;
    return l;
  }
  case LayoutKind::PaddedShared:
  case LayoutKind::SharedMemory:
    break;
  }
  return fail("internal error: unhandled layout kind");
}

LayoutPtr mlir::triton_mfma::parseLayout(StringRef text, std::string *error) {
  TextParser parser(text, error);
  return parser.parseTopLevel();
}

bool mlir::triton_mfma::isTTGAttr(Attribute attr) {
  auto opaque = dyn_cast_or_null<OpaqueAttr>(attr);
  return opaque && opaque.getDialectNamespace().getValue() == "ttg";
}

std::string mlir::triton_mfma::getTTGAttrText(Attribute attr) {
  if (!isTTGAttr(attr))
    return "";
  return ("#ttg." + cast<OpaqueAttr>(attr).getAttrData()).str();
}

LayoutPtr mlir::triton_mfma::parseLayout(Attribute attr, std::string *error) {
  if (!isTTGAttr(attr)) {
    if (error) {
      std::string s;
      llvm::raw_string_ostream os(s);
      if (attr)
        attr.print(os);
      else
        os << "<<null>>";
      *error = "not a #ttg layout: " + s;
    }
    return nullptr;
  }
  return parseLayout(getTTGAttrText(attr), error);
}

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
    info.layout = parseLayout(info.encoding, error);
    if (!info.layout)
      return failure();
  }
  return info;
}

bool mlir::triton_mfma::isMemDescType(Type type) {
  auto opaque = dyn_cast_or_null<OpaqueType>(type);
  return opaque && opaque.getDialectNamespace().getValue() == "ttg" &&
         opaque.getTypeData().starts_with("memdesc<");
}

/// Splits `text` at top-level commas (outside <>, [], {}, () and strings).
static bool splitTopLevel(StringRef text, SmallVectorImpl<StringRef> &parts) {
  int depth = 0;
  bool inString = false;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      continue;
    }
    switch (c) {
    case '"':
      inString = true;
      break;
    case '<':
    case '[':
    case '{':
    case '(':
      ++depth;
      break;
    case '>':
      // `->` in function types is not a closing bracket.
      if (i > 0 && text[i - 1] == '-')
        break;
      [[fallthrough]];
    case ']':
    case '}':
    case ')':
      if (--depth < 0)
        return false;
      break;
    case ',':
      if (depth == 0) {
        parts.push_back(text.slice(start, i).trim());
        start = i + 1;
      }
      break;
    default:
      break;
    }
  }
  if (depth != 0 || inString)
    return false;
  parts.push_back(text.substr(start).trim());
  return true;
}

static bool parseDimList(StringRef text, SmallVectorImpl<int64_t> &dims) {
  SmallVector<StringRef> parts;
  text.split(parts, 'x');
  for (StringRef p : parts) {
    int64_t d;
    if (p.trim().getAsInteger(10, d) || d < 0)
      return false;
    dims.push_back(d);
  }
  return !dims.empty();
}

FailureOr<MemDescInfo> mlir::triton_mfma::parseMemDesc(StringRef text,
                                                       MLIRContext *ctx,
                                                       std::string *error) {
  auto fail = [&](const Twine &msg) -> FailureOr<MemDescInfo> {
    if (error)
      *error = (msg + " in '" + text + "'").str();
    return failure();
  };
  StringRef body = text.trim();
  body.consume_front("!ttg.");
  if (!body.consume_front("memdesc<") || !body.consume_back(">"))
    return fail("expected '!ttg.memdesc<...>'");
  SmallVector<StringRef> parts;
  if (!splitTopLevel(body, parts) || parts.size() < 3 || parts.size() > 5)
    return fail("malformed memdesc: expected "
                "'<shape x type, encoding, memory space[, mutable][, alloc "
                "shape]>'");
  MemDescInfo info;
  // Leading "AxBx...x" dimensions, then the element type.
  StringRef shapeAndType = parts[0];
  while (!shapeAndType.empty() && llvm::isDigit(shapeAndType.front())) {
    size_t n = 0;
    while (n < shapeAndType.size() && llvm::isDigit(shapeAndType[n]))
      ++n;
    if (n >= shapeAndType.size() || shapeAndType[n] != 'x')
      break;
    int64_t dim;
    if (shapeAndType.take_front(n).getAsInteger(10, dim))
      return fail("bad dimension");
    info.shape.push_back(dim);
    shapeAndType = shapeAndType.drop_front(n + 1);
  }
  if (shapeAndType.empty())
    return fail("missing element type");
  info.elementTypeText = shapeAndType.str();
  if (ctx) {
    size_t numRead = 0;
    info.elementType = mlir::parseType(shapeAndType, ctx, &numRead,
                                       /*isKnownNullTerminated=*/false);
    if (!info.elementType || numRead != shapeAndType.size())
      return fail("cannot parse element type '" + shapeAndType + "'");
  }
  info.encodingText = parts[1].str();
  info.memorySpaceText = parts[2].str();
  auto parseInner = [&](const std::string &layoutText, LayoutPtr &out) {
    if (!StringRef(layoutText).starts_with("#ttg."))
      return true;
    std::string innerError;
    out = parseLayout(layoutText, &innerError);
    if (!out && error)
      *error = "cannot parse layout " + layoutText + ": " + innerError;
    return out != nullptr;
  };
  if (!parseInner(info.encodingText, info.encoding) ||
      !parseInner(info.memorySpaceText, info.memorySpace))
    return failure();
  size_t next = 3;
  if (next < parts.size() && parts[next] == "mutable") {
    info.mutableMemory = true;
    ++next;
  }
  if (next < parts.size()) {
    if (!parseDimList(parts[next], info.allocShape))
      return fail("bad alloc shape '" + parts[next] + "'");
    ++next;
  } else {
    info.allocShape = info.shape;
  }
  if (next != parts.size())
    return fail("unexpected trailing memdesc parameters");
  return info;
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
    printList<int64_t>(os, allocShape, "x");
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
