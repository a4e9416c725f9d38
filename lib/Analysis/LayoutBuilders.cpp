//===- LayoutBuilders.cpp - typed layouts from the parsed value tree ------===//
//
// TextParser::parseLayoutValue (LayoutParser.h): "#ttg.<mnemonic>[<...>]" at
// the current position. Fields, defaults and checks follow Triton 3.9's
// lib/Dialect/TritonGPU/IR/Dialect.cpp parsers.
//
//  1. The kind: "#ttg." and a known mnemonic (parseLayoutKind).
//  2. #ttg.shared_memory, the memory space, has no parameters.
//  3. '<', then the kind's builder: #ttg.padded_shared its own grammar
//     (parsePaddedShared: the interval:+padding list, then a dictionary),
//     every other kind a dictionary (parseDictLayout) read and checked by
//     build<Kind> through DictReader: unknown, duplicate and missing keys,
//     ranges, ranks, Triton's verifiers.
//  4. The closing '>'.
//  Every failure is one message with its character offset (failAt).
//
//===----------------------------------------------------------------------===//

#include "LayoutParser.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::triton_mfma;
using namespace mlir::triton_mfma::layout_parser;

//===----------------------------------------------------------------------===//
// Checks (Triton 3.9's verifiers, and the bounds the model relies on)
//===----------------------------------------------------------------------===//

namespace {

/// Layout ranks above this are refused (Triton's tl.sort/tl.flip reshape a
/// tensor to one dimension of 2 per bit, so ranks reach the 20s).
constexpr size_t kMaxRank = 32;

/// "" if `order` is a permutation of 0..rank-1, else the message.
std::string checkOrder(StringRef field, StringRef what,
                       ArrayRef<unsigned> order) {
  SmallVector<bool> seen(order.size(), false);
  for (unsigned d : order) {
    if (d >= order.size() || seen[d])
      return (field + " of " + what + " must be a permutation of 0.." +
              Twine(int64_t(order.size()) - 1) + ", got " + formatList(order))
          .str();
    seen[d] = true;
  }
  return "";
}

/// "" if every entry is a power of two (so none is zero), else the message.
std::string checkPowersOfTwo(StringRef field, StringRef what,
                             ArrayRef<unsigned> values) {
  for (unsigned v : values)
    if (!llvm::isPowerOf2_32(v))
      return (field + " of " + what + " must be powers of two, got " +
              formatList(values))
          .str();
  return "";
}

/// "" if every entry is positive, else the message.
std::string checkPositive(StringRef field, StringRef what,
                          ArrayRef<unsigned> values) {
  for (unsigned v : values)
    if (v == 0)
      return (field + " of " + what + " must be positive, got " +
              formatList(values))
          .str();
  return "";
}

std::string checkRank(StringRef what, size_t rank) {
  if (rank > kMaxRank)
    return (what + " has rank " + Twine(rank) + ", more than the " +
            Twine(kMaxRank) + " the model accepts")
        .str();
  return "";
}

/// The first non-empty message.
std::string firstError(std::initializer_list<std::string> errors) {
  for (const std::string &e : errors)
    if (!e.empty())
      return e;
  return "";
}

/// Linear bases: entries non-negative, at most 32 bases per input dimension
/// (a 2^32-element dimension), and, if `surjective`, every output bit
/// reached (Triton builds these layouts requiring surjectivity).
std::string checkLinearBases(StringRef what, const LinearBases &bases,
                             unsigned rank, bool surjective) {
  if (std::string e = checkRank(what, rank); !e.empty())
    return e;
  for (const auto &[name, list] : bases.dims) {
    if (list.size() > 32)
      return (Twine("'") + name + "' of " + what + " has " +
              Twine(list.size()) + " bases, more than 32")
          .str();
    for (const Basis &b : list)
      for (int32_t v : b)
        if (v < 0)
          return (Twine("'") + name + "' of " + what +
                  " has a negative basis entry " + Twine(v))
              .str();
  }
  if (!surjective)
    return "";
  // GF(2) rank of the bases over the output bits, dimension by dimension
  // concatenated (each dimension's size inferred as Triton does).
  SmallVector<int64_t> sizes = bases.getOutDimSizes(rank);
  SmallVector<unsigned> offsets;
  unsigned totalBits = 0;
  for (int64_t s : sizes) {
    offsets.push_back(totalBits);
    totalBits += llvm::Log2_64(uint64_t(s));
  }
  // Gaussian elimination: pivots with distinct lowest set bits.
  SmallVector<llvm::BitVector> pivots;
  for (const auto &[name, list] : bases.dims)
    for (const Basis &b : list) {
      llvm::BitVector row(totalBits);
      for (unsigned d = 0; d < rank && d < b.size(); ++d)
        for (unsigned bit = 0; bit < 31; ++bit)
          if ((b[d] >> bit) & 1)
            row.set(offsets[d] + bit);
      while (row.any()) {
        int lead = row.find_first();
        auto *p = llvm::find_if(pivots, [&](const llvm::BitVector &x) {
          return x.find_first() == lead;
        });
        if (p == pivots.end()) {
          pivots.push_back(row);
          break;
        }
        row ^= *p;
      }
    }
  unsigned found = pivots.size();
  if (found != totalBits)
    return (what + " is not surjective: its bases reach " + Twine(found) +
            " of the " + Twine(totalBits) + " bits of its output")
        .str();
  return "";
}

} // namespace

LayoutPtr TextParser::parseLayoutValue(unsigned depth) {
  if (depth > kMaxDepth)
    return fail("nesting too deep");
  // 1. The kind.
  std::optional<LayoutKind> kind = parseLayoutKind();
  if (!kind)
    return nullptr;
  std::string what = ("#ttg." + getLayoutMnemonic(*kind)).str();
  // 2. The memory space, without parameters.
  if (*kind == LayoutKind::SharedMemory) {
    if (peek() == '<')
      return fail("#ttg.shared_memory takes no parameters");
    return std::make_shared<SharedMemorySpace>();
  }
  // 3. The parameters, by the kind's builder.
  if (!expect('<', ("after '" + what + "'").c_str()))
    return nullptr;
  LayoutPtr layout = *kind == LayoutKind::PaddedShared
                         ? parsePaddedShared(what, depth)
                         : parseDictLayout(*kind, what, depth);
  // 4. The closing '>'.
  if (!layout || !expect('>', ("to close " + what).c_str()))
    return nullptr;
  return layout;
}

std::optional<LayoutKind> TextParser::parseLayoutKind() {
  skipWs();
  size_t start = pos;
  if (!consumeIf('#')) {
    fail("expected a layout attribute starting with '#ttg.'");
    return std::nullopt;
  }
  size_t dialectStart = pos;
  while (pos < text.size() && (llvm::isAlnum(text[pos]) || text[pos] == '_'))
    ++pos;
  StringRef dialect = text.slice(dialectStart, pos);
  if (dialect != "ttg" || pos >= text.size() || text[pos] != '.') {
    failAt(start, "expected a '#ttg.' layout, got '#" + dialect +
                      "...' (only TritonGPU layouts are modelled)");
    return std::nullopt;
  }
  ++pos;
  size_t mnemonicStart = pos;
  while (pos < text.size() && (llvm::isAlnum(text[pos]) || text[pos] == '_'))
    ++pos;
  StringRef mnemonic = text.slice(mnemonicStart, pos);
  std::optional<LayoutKind> kind = getLayoutKindForMnemonic(mnemonic);
  if (!kind)
    failAt(mnemonicStart, "unknown layout '#ttg." + mnemonic + "'");
  return kind;
}

std::function<std::nullptr_t(size_t, const Twine &)> TextParser::failFn() {
  return [this](size_t at, const Twine &msg) { return failAt(at, msg); };
}

LayoutPtr TextParser::parseDictLayout(LayoutKind kind, const std::string &what,
                                      unsigned depth) {
  ParsedValue dict;
  if (!parseDict(dict, depth + 1))
    return nullptr;
  DictReader r(dict, what, failFn());
  size_t at = dict.pos;
  switch (kind) {
  case LayoutKind::Blocked:
    return buildBlocked(r, at, what);
  case LayoutKind::Slice:
    return buildSlice(r, at, what);
  case LayoutKind::DotOperand:
    return buildDotOperand(r, at, what);
  case LayoutKind::AMDMfma:
    return buildAMDMfma(r, at, what);
  case LayoutKind::AMDWmma:
    return buildAMDWmma(r, at, what);
  case LayoutKind::NvidiaMma:
    return buildNvidiaMma(r, at, what);
  case LayoutKind::Linear:
  case LayoutKind::GenericLinear:
    return buildLinear(kind, r, at, what);
  case LayoutKind::SwizzledShared:
  case LayoutKind::AMDRotatingShared:
    return buildSwizzledShared(kind, r, at, what);
  case LayoutKind::SharedLinear:
    return buildSharedLinear(r, at, what);
  case LayoutKind::PartitionedShared:
    return buildPartitionedShared(r, at, what);
  case LayoutKind::NVMMAShared:
    return buildNVMMAShared(r, at, what);
  case LayoutKind::PaddedShared:
  case LayoutKind::SharedMemory:
    break;
  }
  return fail("internal error: unhandled layout kind");
}

//===----------------------------------------------------------------------===//
// The builders, one per kind
//===----------------------------------------------------------------------===//

/// #ttg.padded_shared: `[interval:+padding, ...]` (positive powers of two,
/// distinct intervals), then a dictionary: the offset and block bases, or
/// order and shape (identity offset bases).
LayoutPtr TextParser::parsePaddedShared(const std::string &what,
                                        unsigned depth) {
  auto layout = std::make_shared<PaddedSharedLayout>();
  if (!expect('[', "to open the interval:+padding list of #ttg.padded_shared"))
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
  ParsedValue dict;
  if (!parseDict(dict, depth + 1))
    return nullptr;
  DictReader r(dict, what, failFn());
  if (r.get("offset") || r.get("block"))
    return buildPaddedSharedBases(r, dict.pos, what, std::move(layout));
  return buildPaddedSharedShape(r, dict.pos, what, std::move(layout));
}

/// #ttg.padded_shared's offset and block bases (not surjective).
LayoutPtr
TextParser::buildPaddedSharedBases(DictReader &r, size_t at,
                                   const std::string &what,
                                   std::shared_ptr<PaddedSharedLayout> layout) {
  if (!r.checkKeys({"offset", "block"}))
    return nullptr;
  unsigned rank = 0;
  BasisList &offset = layout->linear.getOrCreate("offset");
  BasisList &block = layout->linear.getOrCreate("block");
  if (const ParsedValue *v = r.require("offset")) {
    if (!r.basisList(*v, "offset", offset, rank))
      return nullptr;
  } else {
    return nullptr;
  }
  if (const ParsedValue *v = r.require("block")) {
    if (!r.basisList(*v, "block", block, rank))
      return nullptr;
  } else {
    return nullptr;
  }
  if (rank == 0)
    return failAt(at, "empty layout not supported in " + what);
  if (std::string e = checkLinearBases(what, layout->linear, rank,
                                       /*surjective=*/false);
      !e.empty())
    return failAt(at, e);
  layout->rank = rank;
  return layout;
}

/// #ttg.padded_shared's order and shape: identity offset bases.
LayoutPtr
TextParser::buildPaddedSharedShape(DictReader &r, size_t at,
                                   const std::string &what,
                                   std::shared_ptr<PaddedSharedLayout> layout) {
  if (!r.checkKeys({"order", "shape"}))
    return nullptr;
  SmallVector<unsigned> order, shape;
  if (!r.uintArrayField("order", order) || !r.uintArrayField("shape", shape))
    return nullptr;
  if (order.size() != shape.size())
    return failAt(at, "mismatch of shape and order ranks in " + what);
  for (unsigned i = 0; i < order.size(); ++i) {
    if (order[i] >= order.size() || llvm::count(order, order[i]) != 1)
      return failAt(at, "order of " + what + " is not a permutation");
    if (shape[i] == 0 || !llvm::isPowerOf2_32(shape[i]))
      return failAt(at, "shape of " + what + " must be powers of two");
  }
  SmallVector<int64_t> shape64(shape.begin(), shape.end());
  layout->linear.getOrCreate("offset") =
      PaddedSharedLayout::getIdentityOffsetBases(shape64, order);
  layout->linear.getOrCreate("block");
  layout->rank = order.size();
  return layout;
}

/// #ttg.blocked: sizePerThread, threadsPerWarp, warpsPerCTA, order (one rank,
/// powers of two, a permutation), CGALayout.
LayoutPtr TextParser::buildBlocked(DictReader &r, size_t at,
                                   const std::string &what) {
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
    return failAt(at, "sizePerThread, threadsPerWarp, warpsPerCTA and "
                      "order of #ttg.blocked must have the same rank");
  if (std::string e = firstError(
          {checkRank(what, rank),
           checkPowersOfTwo("sizePerThread", what, l->sizePerThread),
           checkPowersOfTwo("threadsPerWarp", what, l->threadsPerWarp),
           checkPowersOfTwo("warpsPerCTA", what, l->warpsPerCTA),
           checkOrder("order", what, l->order)});
      !e.empty())
    return failAt(at, e);
  if (!r.cgaField(l->cga, rank))
    return nullptr;
  return l;
}

/// #ttg.slice: dim below the rank (>= 2) of a distributed parent.
LayoutPtr TextParser::buildSlice(DictReader &r, size_t at,
                                 const std::string &what) {
  auto l = std::make_shared<SliceLayout>();
  if (!r.checkKeys({"dim", "parent"}) || !r.uintField("dim", l->dim) ||
      !r.layoutField("parent", l->parent))
    return nullptr;
  if (!l->parent->isDistributed())
    return failAt(at, "the parent of #ttg.slice must be a distributed "
                      "layout, got #ttg." +
                          l->parent->getMnemonic());
  if (l->parent->getRank() < 2)
    return failAt(at, "the parent of #ttg.slice must have rank 2 or "
                      "more, got rank " +
                          Twine(l->parent->getRank()));
  if (l->dim >= l->parent->getRank())
    return failAt(at, "slice dim=" + Twine(l->dim) +
                          " must be less than the parent rank=" +
                          Twine(l->parent->getRank()));
  return l;
}

/// #ttg.dot_op: opIdx 0 or 1, a distributed parent, kWidth (mandatory for
/// an amd_mfma parent).
LayoutPtr TextParser::buildDotOperand(DictReader &r, size_t at,
                                      const std::string &what) {
  auto l = std::make_shared<DotOperandLayout>();
  if (!r.checkKeys({"opIdx", "parent", "kWidth"}) ||
      !r.uintField("opIdx", l->opIdx) || !r.layoutField("parent", l->parent) ||
      !r.uintField("kWidth", l->kWidth, /*required=*/false))
    return nullptr;
  if (l->opIdx > 1)
    return failAt(at, "opIdx of #ttg.dot_op must be 0 or 1");
  if (!l->parent->isDistributed())
    return failAt(at, "the parent of #ttg.dot_op must be a "
                      "distributed layout, got #ttg." +
                          l->parent->getMnemonic());
  if (l->kWidth == 0 && isa<AMDMfmaLayout>(l->parent.get()))
    return failAt(at, "#ttg.dot_op kWidth is mandatory for an amd_mfma parent");
  return l;
}

/// #ttg.amd_mfma: version <= 4, instrShape (M, N) of the four MFMA shapes,
/// elementBitWidth 32 or 64, positive warpsPerCTA and tilesPerWarp.
LayoutPtr TextParser::buildAMDMfma(DictReader &r, size_t at,
                                   const std::string &what) {
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
    return failAt(at, "version of #ttg.amd_mfma must be in [0, 4]");
  if (l->instrShape.size() < 2 || l->instrShape.size() > 3)
    return failAt(at, "instrShape of #ttg.amd_mfma must be [M, N] or "
                      "[M, N, K]");
  if (l->elementBitWidth != 32 && l->elementBitWidth != 64)
    return failAt(at, "elementBitWidth of #ttg.amd_mfma must be 32 or 64");
  {
    std::pair<unsigned, unsigned> mn{l->instrShape[0], l->instrShape[1]};
    if (mn != std::make_pair(32u, 32u) && mn != std::make_pair(16u, 16u) &&
        mn != std::make_pair(64u, 4u) && mn != std::make_pair(4u, 64u))
      return failAt(at, "instrShape of #ttg.amd_mfma must have (M, N) "
                        "(32, 32), (16, 16), (64, 4) or (4, 64), got " +
                            formatList(l->instrShape));
  }
  if (std::string e =
          firstError({checkRank(what, l->warpsPerCTA.size()),
                      checkPositive("warpsPerCTA", what, l->warpsPerCTA),
                      checkPositive("tilesPerWarp", what, l->tilesPerWarp)});
      !e.empty())
    return failAt(at, e);
  if (!r.cgaField(l->cga, l->warpsPerCTA.size()))
    return nullptr;
  return l;
}

/// #ttg.amd_wmma: version 1-3, the ctaLayout's register and warp bases (the
/// rank from `rank` or the bases), CGALayout.
LayoutPtr TextParser::buildAMDWmma(DictReader &r, size_t at,
                                   const std::string &what) {
  auto l = std::make_shared<AMDWmmaLayout>();
  bool hasRank = r.get("rank") != nullptr;
  if (!r.checkKeys({"version", "rank", "ctaLayout", "isTranspose", "CGALayout",
                    "instrShape"}) ||
      !r.uintField("version", l->version) ||
      !r.uintField("rank", l->rank, /*required=*/false) ||
      !r.boolField("isTranspose", l->isTransposed, /*required=*/false) ||
      !r.uintArrayField("instrShape", l->instrShape, /*required=*/false))
    return nullptr;
  const ParsedValue *cta = r.require("ctaLayout");
  if (!cta)
    return nullptr;
  if (cta->kind != ParsedValue::Kind::Dict)
    return failAt(cta->pos, "expected dictionary value for 'ctaLayout' in "
                            "#ttg.amd_wmma");
  DictReader cr(*cta, "the ctaLayout of #ttg.amd_wmma", failFn());
  if (!cr.checkKeys({"register", "warp"}))
    return nullptr;
  unsigned rank = hasRank ? l->rank : 0;
  BasisList &regs = l->ctaLayout.getOrCreate("register");
  BasisList &warps = l->ctaLayout.getOrCreate("warp");
  if (const ParsedValue *v = cr.get("register"))
    if (!cr.basisList(*v, "register", regs, rank))
      return nullptr;
  const ParsedValue *w = cr.require("warp");
  if (!w || !cr.basisList(*w, "warp", warps, rank))
    return nullptr;
  if (rank != 0)
    l->rank = rank;
  if (!r.cgaField(l->cga, l->rank))
    return nullptr;
  if (l->version < 1 || l->version > 3)
    return failAt(at, "version of #ttg.amd_wmma must be in [1, 3]");
  if (std::string e = checkLinearBases("the ctaLayout of #ttg.amd_wmma",
                                       l->ctaLayout, l->rank,
                                       /*surjective=*/false);
      !e.empty())
    return failAt(at, e);
  return l;
}

/// #ttg.nvidia_mma: versionMajor/Minor, positive warpsPerCTA, instrShape.
LayoutPtr TextParser::buildNvidiaMma(DictReader &r, size_t at,
                                     const std::string &what) {
  auto l = std::make_shared<NvidiaMmaLayout>();
  if (!r.checkKeys({"versionMajor", "versionMinor", "warpsPerCTA", "CGALayout",
                    "instrShape"}) ||
      !r.uintField("versionMajor", l->versionMajor) ||
      !r.uintField("versionMinor", l->versionMinor, /*required=*/false) ||
      !r.uintArrayField("warpsPerCTA", l->warpsPerCTA) ||
      !r.uintArrayField("instrShape", l->instrShape) ||
      !r.cgaField(l->cga, l->warpsPerCTA.size()))
    return nullptr;
  if (std::string e =
          firstError({checkRank(what, l->warpsPerCTA.size()),
                      checkPositive("warpsPerCTA", what, l->warpsPerCTA)});
      !e.empty())
    return failAt(at, e);
  return l;
}

/// #ttg.linear (surjective) and #ttg.generic_linear: register, lane, warp
/// and block bases of one non-zero rank.
LayoutPtr TextParser::buildLinear(LayoutKind kind, DictReader &r, size_t at,
                                  const std::string &what) {
  auto l = std::make_shared<LinearLayout>(kind == LayoutKind::GenericLinear);
  if (!r.checkKeys({"register", "lane", "warp", "block"}))
    return nullptr;
  unsigned rank = 0;
  for (StringRef dim : {"register", "lane", "warp", "block"}) {
    const ParsedValue *v = r.require(dim);
    if (!v)
      return nullptr;
    if (!r.basisList(*v, dim, l->bases.getOrCreate(dim), rank))
      return nullptr;
  }
  if (rank == 0)
    return failAt(at, "empty layout not supported in " + what);
  l->rank = rank;
  if (std::string e =
          checkLinearBases(what, l->bases, rank,
                           /*surjective=*/kind == LayoutKind::Linear);
      !e.empty())
    return failAt(at, e);
  return l;
}

/// #ttg.swizzled_shared and #ttg.amd_rotating_shared: vec, perPhase,
/// maxPhase, an order permutation, CGALayout.
LayoutPtr TextParser::buildSwizzledShared(LayoutKind kind, DictReader &r,
                                          size_t at, const std::string &what) {
  auto l = std::make_shared<SwizzledSharedLayout>(
      kind == LayoutKind::AMDRotatingShared);
  if (!r.checkKeys({"vec", "perPhase", "maxPhase", "order", "CGALayout"}) ||
      !r.uintField("vec", l->vec) || !r.uintField("perPhase", l->perPhase) ||
      !r.uintField("maxPhase", l->maxPhase) ||
      !r.uintArrayField("order", l->order) ||
      !r.cgaField(l->cga, l->order.size()))
    return nullptr;
  if (std::string e = firstError({checkRank(what, l->order.size()),
                                  checkOrder("order", what, l->order)});
      !e.empty())
    return failAt(at, e);
  return l;
}

/// #ttg.shared_linear: surjective offset (and block) bases, then
/// `, alignment = N` (a positive power of two) after the dictionary.
LayoutPtr TextParser::buildSharedLinear(DictReader &r, size_t at,
                                        const std::string &what) {
  auto l = std::make_shared<SharedLinearLayout>();
  if (!r.checkKeys({"offset", "block"}))
    return nullptr;
  unsigned rank = 0;
  const ParsedValue *off = r.require("offset");
  if (!off ||
      !r.basisList(*off, "offset", l->linear.getOrCreate("offset"), rank))
    return nullptr;
  BasisList &block = l->linear.getOrCreate("block");
  if (const ParsedValue *b = r.get("block"))
    if (!r.basisList(*b, "block", block, rank))
      return nullptr;
  if (rank == 0)
    return failAt(at, "empty layout not supported in " + what);
  l->rank = rank;
  if (std::string e =
          checkLinearBases(what, l->linear, rank, /*surjective=*/true);
      !e.empty())
    return failAt(at, e);
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
  return l;
}

/// #ttg.partitioned_shared: positive numPartitions and numGroups,
/// partitionDim below the rank of a shared partitionLayout.
LayoutPtr TextParser::buildPartitionedShared(DictReader &r, size_t at,
                                             const std::string &what) {
  auto l = std::make_shared<PartitionedSharedLayout>();
  if (!r.checkKeys(
          {"numPartitions", "numGroups", "partitionDim", "partitionLayout"}) ||
      !r.uintField("numPartitions", l->numPartitions) ||
      !r.uintField("numGroups", l->numGroups) ||
      !r.uintField("partitionDim", l->partitionDim) ||
      !r.layoutField("partitionLayout", l->partitionLayout))
    return nullptr;
  if (!l->partitionLayout->isShared())
    return failAt(at, "partitionLayout of #ttg.partitioned_shared "
                      "must be a shared layout");
  if (l->numPartitions == 0 || l->numGroups == 0)
    return failAt(at, "numPartitions and numGroups of "
                      "#ttg.partitioned_shared must be positive");
  if (l->partitionDim >= l->partitionLayout->getRank())
    return failAt(at, "partitionDim=" + Twine(l->partitionDim) +
                          " of #ttg.partitioned_shared must be less "
                          "than the rank " +
                          Twine(l->partitionLayout->getRank()));
  return l;
}

/// #ttg.nvmma_shared: swizzlingByteWidth, elementBitWidth, rank (given or
/// from CGALayout).
LayoutPtr TextParser::buildNVMMAShared(DictReader &r, size_t at,
                                       const std::string &what) {
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
  if (const ParsedValue *v = r.get("CGALayout")) {
    if (!r.basisList(*v, "CGALayout", l->cga.block, rank))
      return nullptr;
    if (!hasRank && rank != 0)
      l->rank = rank;
  }
  return l;
}
