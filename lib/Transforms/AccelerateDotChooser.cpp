//===- AccelerateDotChooser.cpp - mfma-accelerate-dot: the choice ---------===//
//
// AccelerateDotChooser.h: step 3 of mfma-accelerate-dot.
//
//===----------------------------------------------------------------------===//

#include "AccelerateDotChooser.h"

#include "TritonMFMA/GenericIR.h"
#include "TritonMFMA/Layouts.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::triton_mfma;

namespace mlir::triton_mfma::accelerate_dot {
namespace {

/// Rows of A and columns of B one wave covers in the blocked result layout
/// (the FMA lowering's operand footprint).
std::pair<int64_t, int64_t> fmaWaveCoverage(const BlockedLayout &l,
                                            ArrayRef<int64_t> shape) {
  unsigned r = shape.size();
  auto cover = [&](unsigned d) -> int64_t {
    int64_t perWarp = int64_t(l.sizePerThread[d]) * l.threadsPerWarp[d];
    int64_t perCta = perWarp * l.warpsPerCTA[d];
    if (shape[d] > perCta)
      return shape[d] / l.warpsPerCTA[d];
    return std::min<int64_t>(perWarp, shape[d]);
  };
  return {cover(r - 2), cover(r - 1)};
}

Decision decideFma(DotSite &s, StringRef why) {
  Decision d;
  d.remark = ("left as an FMA dot: " + why).str();
  return d;
}

/// Whether a (head, tail) chain can keep P in registers at all: 2-D dots
/// with MFMA operand types, a 16-bit tail operand A, the same warps.
bool canChain(const DotSite &head, const DotSite &tail, std::string &why) {
  if (head.resTy.getRank() != 2 || tail.resTy.getRank() != 2) {
    why = "batched dots";
    return false;
  }
  if ((!head.typeRemark.empty() && !head.emulateF16) ||
      (!tail.typeRemark.empty() && !tail.emulateF16)) {
    why = "an operand type without an MFMA instruction";
    return false;
  }
  if (getElemBits(tail.problem.aElem) != 16) {
    why = "the tail's operand A is not 16-bit (kWidth 4 is only a register "
          "permutation of the head's result for 16-bit elements)";
    return false;
  }
  if (tail.problem.numWarps != head.problem.numWarps) {
    why = ("different " + attrname::NumWarps).str();
    return false;
  }
  return true;
}

} // namespace

void chooseTransposition(DotSite &s) {
  if (s.head || s.tail) {
    s.transposed = true;
    s.transposeWhy =
        s.tail ? "chain head: lanes hold the tail's K" : "chain tail";
    return;
  }
  SmallVector<LayoutPtr> stores = findStoreLayouts(s.op->getResult(0));
  unsigned rank = s.resTy.getRank();
  bool allColumnMajor = !stores.empty();
  for (const LayoutPtr &l : stores) {
    auto *bl = dyn_cast<BlockedLayout>(l.get());
    if (!bl || bl->order.empty() || bl->order[0] != rank - 2)
      allColumnMajor = false;
  }
  if (allColumnMajor) {
    s.transposed = false;
    s.transposeWhy = "stores contiguous along M";
  }
}

DotConstraints DotChooser::baseConstraints() const {
  DotConstraints c;
  c.nonKDim = matrixInstrNonKDim;
  c.kPack = kPack;
  c.registersFirst = registersFirst;
  if (arch == GfxArch::GFX950 && c.kPack == 2)
    c.kPack = 1; // Triton 3.9 also forces kpack 1 on gfx950
  return c;
}

Decision DotChooser::decideSingle(DotSite &s, const DotConstraints &c) {
  if (!s.typeRemark.empty() && !s.emulateF16)
    return decideFma(s, s.typeRemark + "no MFMA for " + s.shapeText());
  MfmaSearch search = rankMfmaChoices(s.problem, c);
  if (search.ranked.empty())
    return decideFma(s, s.emulateF16
                            ? "no " + getElemName(s.aElem).str() + " x " +
                                  getElemName(s.bElem).str() + " MFMA on " +
                                  getArchName(arch).str() +
                                  ", and as f16: " + search.whyNone
                            : search.whyNone);
  const MfmaChoice &best = search.ranked.front();
  auto *bl = cast<BlockedLayout>(s.resultLayout.get());
  auto [rows, cols] = fmaWaveCoverage(*bl, s.resTy.getShape());
  DotCost fma = estimateFma(s.problem, rows, cols);
  // An FMA dot loads its operand tiles whole: fewer cycles, never fewer
  // registers than an MFMA dot's K-blocks (registers-first keeps MFMA).
  if (!c.nonKDim && !c.registersFirst && fma.cycles() < best.cost.cycles())
    return decideFma(s, llvm::formatv("FMA estimated at {0} cycles per wave, "
                                      "cheaper than {1}",
                                      fma.cycles(), best.str())
                            .str());
  Decision d;
  d.useMfma = true;
  d.choice = best;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << s.typeRemark << s.shapeText() << " on " << getArchName(arch) << ": "
     << best.str();
  if (search.ranked.size() > 1)
    os << "; runner-up " << search.ranked[1].str();
  os << "; FMA " << fma.cycles() << " cycles";
  d.remark = os.str();
  return d;
}

std::optional<std::pair<MfmaChoice, MfmaChoice>>
DotChooser::bestChainPair(const DotSite &head, const DotSite &tail,
                          std::string &why, std::string &runnerUp) {
  unsigned numWarps = head.problem.numWarps;
  DotProblem tp = tail.problem;
  tp.aInRegisters = true;
  std::optional<std::pair<MfmaChoice, MfmaChoice>> best;
  for (unsigned m : {32u, 16u}) {
    DotConstraints hc = baseConstraints(), tc = baseConstraints();
    hc.warps = tc.warps = {numWarps, 1};
    hc.instrM = tc.instrM = m;
    tc.kWidth = 4;
    tc.kPack = 1;
    MfmaSearch hs = rankMfmaChoices(head.problem, hc);
    MfmaSearch ts = rankMfmaChoices(tp, tc);
    if (hs.ranked.empty() || ts.ranked.empty()) {
      if (why.empty())
        why = hs.ranked.empty() ? hs.whyNone : ts.whyNone;
      continue;
    }
    const MfmaChoice &h = hs.ranked.front(), &t = ts.ranked.front();
    int64_t total = h.cost.cycles() + t.cost.cycles();
    auto pairKey = [&](const MfmaChoice &x, const MfmaChoice &y) {
      return std::make_tuple(
          registersFirst ? x.cost.vgprs + y.cost.vgprs : 0,
          x.cost.cycles() + y.cost.cycles(),
          x.cost.matrixCycles + y.cost.matrixCycles);
    };
    if (!best || pairKey(h, t) < pairKey(best->first, best->second)) {
      if (best)
        runnerUp = llvm::formatv("M={0}: {1} cycles", best->first.instr->m,
                                 best->first.cost.cycles() +
                                     best->second.cost.cycles());
      best = std::make_pair(h, t);
    } else {
      runnerUp = llvm::formatv("M={0}: {1} cycles", m, total);
    }
  }
  return best;
}

std::optional<DotChooser::ChainApart>
DotChooser::costApart(const DotSite &head, const DotSite &tail) {
  MfmaSearch ha = rankMfmaChoices(head.problem, baseConstraints());
  MfmaSearch ta = rankMfmaChoices(tail.problem, baseConstraints());
  if (ha.ranked.empty() || ta.ranked.empty())
    return std::nullopt;
  unsigned numWarps = head.problem.numWarps;
  const MfmaChoice &h = ha.ranked.front(), &t = ta.ranked.front();
  const DotProblem &tp0 = tail.problem;
  int64_t pBytes = tp0.m * tp0.k * getElemBits(tp0.aElem) / 8 / numWarps;
  int64_t exchange = ldsRoundTripCycles(pBytes) - ldsCycles(pBytes);
  if (h.warps.back() > 1)
    exchange += 2 * ldsRoundTripCycles(head.problem.m * 4 / numWarps);
  int64_t alone = h.cost.cycles() + t.cost.cycles() + exchange;
  return ChainApart{h, t, exchange, alone};
}

std::string DotChooser::chainRemark(const DotSite &s, const MfmaChoice &c,
                                    StringRef role, const DotSite &other,
                                    int64_t pairCycles, StringRef runnerUp,
                                    StringRef alternative) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << s.typeRemark << "chain " << role << " (with the dot at "
     << describeLoc(other.op->getLoc()) << "): " << s.shapeText() << " on "
     << getArchName(arch) << ": " << c.str()
     << "; result -> operand A in registers (same instruction M, warps "
        "along M, kWidth 4)";
  os << "; pair " << pairCycles << " cycles";
  if (!runnerUp.empty())
    os << ", runner-up " << runnerUp;
  if (!alternative.empty())
    os << ", " << alternative;
  return os.str();
}

bool DotChooser::decideChain(DotSite &head, DotSite &tail, Decision &dh,
                             Decision &dt, std::string &why) {
  if (!canChain(head, tail, why))
    return false;
  std::string runnerUp;
  std::optional<std::pair<MfmaChoice, MfmaChoice>> best =
      bestChainPair(head, tail, why, runnerUp);
  if (!best)
    return false;
  int64_t pairCycles = best->first.cost.cycles() + best->second.cost.cycles();
  int64_t pairMatrix =
      best->first.cost.matrixCycles + best->second.cost.matrixCycles;
  std::string alternative;
  if (std::optional<ChainApart> apart = costApart(head, tail)) {
    // Fewer matrix cycles apart first: the chain's warps along M repeat a
    // tile on every wave where M is short (decode attention, BLOCK_H 16 on
    // 4 warps), work the matrix pipe does four times over and the one judge
    // ranks first among the loop's costs (dot cycles, before LDS ops).
    int64_t apartMatrix =
        apart->head.cost.matrixCycles + apart->tail.cost.matrixCycles;
    if (apartMatrix < pairMatrix ||
        (apartMatrix == pairMatrix && apart->cycles < pairCycles)) {
      why = llvm::formatv(
          "in registers the pair costs {0} cycles per wave ({1} + {2}), "
          "{7} on the matrix pipe; each dot alone with P through LDS {3} "
          "({4} + {5} + {6} for the LDS exchanges), {8} on the matrix pipe",
          pairCycles, best->first.str(), best->second.str(), apart->cycles,
          apart->head.str(), apart->tail.str(), apart->exchange, pairMatrix,
          apartMatrix);
      return false;
    }
    alternative = llvm::formatv(
        "{0} cycles with each dot alone and P through LDS", apart->cycles);
  }
  dh.useMfma = dt.useMfma = true;
  dh.choice = best->first;
  dt.choice = best->second;
  dh.remark = chainRemark(head, dh.choice, "head", tail, pairCycles, runnerUp,
                          alternative);
  dt.remark = chainRemark(tail, dt.choice, "tail", head, pairCycles, runnerUp,
                          alternative);
  return true;
}

} // namespace mlir::triton_mfma::accelerate_dot
