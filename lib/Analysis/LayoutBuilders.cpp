//===- LayoutBuilders.cpp - typed layouts from the parsed value tree ------===//
//
// TextParser::parseLayoutValue (LayoutParser.h): "#ttg.<mnemonic>[<...>]" at
// the current position, one builder per kind. Fields, defaults and checks
// follow Triton 3.9's lib/Dialect/TritonGPU/IR/Dialect.cpp parsers.
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
    ParsedValue dict;
    if (!parseDict(dict, depth + 1))
      return nullptr;
    DictReader r(dict, what, failFn);
    if (r.get("offset") || r.get("block")) {
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
        return failAt(dict.pos, "empty layout not supported in " + what);
      if (std::string e = checkLinearBases(what, layout->linear, rank,
                                           /*surjective=*/false);
          !e.empty())
        return failAt(dict.pos, e);
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
          PaddedSharedLayout::getIdentityOffsetBases(shape64, order);
      layout->linear.getOrCreate("block");
      layout->rank = order.size();
    }
    if (!expect('>', "to close #ttg.padded_shared"))
      return nullptr;
    return layout;
  }

  ParsedValue dict;
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
    if (std::string e = firstError(
            {checkRank(what, rank),
             checkPowersOfTwo("sizePerThread", what, l->sizePerThread),
             checkPowersOfTwo("threadsPerWarp", what, l->threadsPerWarp),
             checkPowersOfTwo("warpsPerCTA", what, l->warpsPerCTA),
             checkOrder("order", what, l->order)});
        !e.empty())
      return failAt(dict.pos, e);
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
    if (l->parent->getRank() < 2)
      return failAt(dict.pos, "the parent of #ttg.slice must have rank 2 or "
                              "more, got rank " +
                                  Twine(l->parent->getRank()));
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
    {
      std::pair<unsigned, unsigned> mn{l->instrShape[0], l->instrShape[1]};
      if (mn != std::make_pair(32u, 32u) && mn != std::make_pair(16u, 16u) &&
          mn != std::make_pair(64u, 4u) && mn != std::make_pair(4u, 64u))
        return failAt(dict.pos, "instrShape of #ttg.amd_mfma must have (M, N) "
                                "(32, 32), (16, 16), (64, 4) or (4, 64), got " +
                                    formatList(l->instrShape));
    }
    if (std::string e =
            firstError({checkRank(what, l->warpsPerCTA.size()),
                        checkPositive("warpsPerCTA", what, l->warpsPerCTA),
                        checkPositive("tilesPerWarp", what, l->tilesPerWarp)});
        !e.empty())
      return failAt(dict.pos, e);
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
    const ParsedValue *cta = r.require("ctaLayout");
    if (!cta)
      return nullptr;
    if (cta->kind != ParsedValue::Kind::Dict)
      return failAt(cta->pos, "expected dictionary value for 'ctaLayout' in "
                              "#ttg.amd_wmma");
    DictReader cr(*cta, "the ctaLayout of #ttg.amd_wmma", failFn);
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
      return failAt(dict.pos, "version of #ttg.amd_wmma must be in [1, 3]");
    if (std::string e = checkLinearBases("the ctaLayout of #ttg.amd_wmma",
                                         l->ctaLayout, l->rank,
                                         /*surjective=*/false);
        !e.empty())
      return failAt(dict.pos, e);
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
    if (std::string e =
            firstError({checkRank(what, l->warpsPerCTA.size()),
                        checkPositive("warpsPerCTA", what, l->warpsPerCTA)});
        !e.empty())
      return failAt(dict.pos, e);
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
      const ParsedValue *v = r.require(dim);
      if (!v)
        return nullptr;
      if (!r.basisList(*v, dim, l->bases.getOrCreate(dim), rank))
        return nullptr;
    }
    if (rank == 0)
      return failAt(dict.pos, "empty layout not supported in " + what);
    l->rank = rank;
    if (std::string e =
            checkLinearBases(what, l->bases, rank,
                             /*surjective=*/*kind == LayoutKind::Linear);
        !e.empty())
      return failAt(dict.pos, e);
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
    if (std::string e = firstError({checkRank(what, l->order.size()),
                                    checkOrder("order", what, l->order)});
        !e.empty())
      return failAt(dict.pos, e);
    if (!expect('>', ("to close " + what).c_str()))
      return nullptr;
    return l;
  }
  case LayoutKind::SharedLinear: {
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
      return failAt(dict.pos, "empty layout not supported in " + what);
    l->rank = rank;
    if (std::string e =
            checkLinearBases(what, l->linear, rank, /*surjective=*/true);
        !e.empty())
      return failAt(dict.pos, e);
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
    if (l->numPartitions == 0 || l->numGroups == 0)
      return failAt(dict.pos, "numPartitions and numGroups of "
                              "#ttg.partitioned_shared must be positive");
    if (l->partitionDim >= l->partitionLayout->getRank())
      return failAt(dict.pos, "partitionDim=" + Twine(l->partitionDim) +
                                  " of #ttg.partitioned_shared must be less "
                                  "than the rank " +
                                  Twine(l->partitionLayout->getRank()));
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
    if (const ParsedValue *v = r.get("CGALayout")) {
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
