//===- MfmaCostModel.cpp - choosing an MFMA tiling for one dot ------------===//
//
// See MfmaCostModel.h for the model. Validity rules (what Triton's MFMA
// lowering accepts without duplicating data along K):
//  * K must be a multiple of the tile's k * kpack (a smaller K would replicate
//    operand elements across lane groups);
//  * kpack 2 doubles the operand run a lane reads at once (kBase elements,
//    as stored) as long as it stays within 128 bits (the widest ds_read);
//    the model itself only picks it for 8/16-bit elements read 64 bits at a
//    time (then ds_read_b128); CDNA4 has K-doubled instructions instead and
//    Triton 3.9 forces kpack 1 there;
//  * M and N may be smaller than the tile (the layout broadcasts), which is
//    what makes 16x16 usable for M = 1..8 decode GEMMs;
//  * warpsPerCTA is a product of powers of two equal to numWarps.
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/MfmaCostModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::triton_mfma;

namespace {
/// LDS bytes per clock available to one wave when the four SIMDs of a CU
/// load at the same time (128 B/clk per CU on CDNA2/3/4).
constexpr int64_t kLdsBytesPerCycle = 32;
constexpr int64_t kMaxReadBytes = 16; // ds_read_b128

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

bool nonKDimAllows(unsigned nonKDim, const MfmaInstr &i) {
  if (nonKDim == 0)
    return true;
  if (nonKDim == 4)
    return i.isSmallTile();
  return i.m == nonKDim && i.n == nonKDim;
}
} // namespace

void MfmaChoice::print(llvm::raw_ostream &os) const {
  os << instr->mnemonic << " warps=[";
  llvm::interleave(warps, os, ",");
  os << "] kWidth=" << kWidth;
  if (kPack != 1)
    os << " (kpack " << kPack << ")";
  os << ": " << cost.matrixCycles << " matrix / " << cost.ldsCycles
     << " LDS cycles, " << cost.dsReads << " ds_read, " << cost.vgprs
     << " VGPRs";
}

std::string MfmaChoice::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  print(os);
  return s;
}

int64_t mlir::triton_mfma::ldsCycles(int64_t bytes) {
  return ceilDiv(bytes, kLdsBytesPerCycle);
}

int64_t mlir::triton_mfma::ldsRoundTripCycles(int64_t bytes) {
  constexpr int64_t kLdsLatency = 64;
  return 2 * ldsCycles(bytes) + 2 * kLdsLatency;
}

bool mlir::triton_mfma::isCheaper(const MfmaChoice &a, const MfmaChoice &b,
                                  bool registersFirst) {
  auto key = [&](const MfmaChoice &c) {
    return std::make_tuple(registersFirst ? c.cost.vgprs : 0, c.cost.cycles(),
                           c.cost.matrixCycles, c.cost.vgprs, c.cost.dsReads,
                           c.tableIndex, !c.tritonWarps);
  };
  if (key(a) != key(b))
    return key(a) < key(b);
  return a.warps > b.warps; // deterministic: more warps along M first
}

/// Triton 3.9's warpsPerTile for a plain (not chained, rank-2) dot: double
/// the warps along M while M has at least twice as many instruction rows left
/// per warp as N has columns, else along N; swap if N is over-split.
static SmallVector<unsigned> tritonWarpSplit(int64_t m, int64_t n,
                                             unsigned numWarps, unsigned tm,
                                             unsigned tn) {
  SmallVector<unsigned> w = {1, 1};
  while (w[0] * w[1] < numWarps) {
    if (m / (tm * 2) / w[0] >= n / tn / w[1]) {
      if (w[0] < m / tm)
        w[0] *= 2;
      else
        w[1] *= 2;
    } else {
      w[1] *= 2;
    }
  }
  if (int64_t(w[1]) * tn > n)
    return {w[1], w[0]};
  return w;
}

/// Whether kpack `kPack` is valid for `instr` (see the file comment) and, for
/// 2, one the model picks unless the option asks for it.
static bool kPackAllowed(const DotProblem &p, const DotConstraints &c,
                         const MfmaInstr &instr, unsigned kPack,
                         unsigned aBits, unsigned bBits) {
  if (kPack != 2)
    return true;
  unsigned bits = std::max(aBits, bBits);
  if (p.arch == GfxArch::GFX950 || instr.scaled || instr.isSmallTile() ||
      instr.kBase * bits * 2 > 128)
    return false;
  // Chosen by the model only where it turns a 64-bit read of 8/16-bit
  // elements into ds_read_b128: for 32-bit elements (xf32/f32) Triton's LDS
  // layout for the wider run costs more ds_writes and saves no reads
  // (bench/results/accelerate_dot.txt), and a 32-bit read gains little.
  return c.kPack == 2 || (instr.kBase * bits == 64 && bits <= 16);
}

/// The operands' kWidth: kBase x kpack (half kBase for dot_scaled), or the
/// constraint's where it divides that; none where it cannot.
static std::optional<unsigned> kWidthOf(const DotConstraints &c,
                                        const MfmaInstr &instr,
                                        unsigned kPack) {
  unsigned kWidth = instr.kBase * kPack;
  if (instr.scaled)
    kWidth = instr.kBase / 2; // Triton's dot_scaled operands: 16 fp8 a lane
  if (c.kWidth) {
    if (c.kWidth > kWidth || kWidth % c.kWidth != 0 || kPack != 1)
      return std::nullopt;
    kWidth = c.kWidth;
  }
  return kWidth;
}

/// One wave's figures for `instr` on warps `warps` (see MfmaCostModel.h).
static DotCost waveCost(const DotProblem &p, const MfmaInstr &instr,
                        ArrayRef<unsigned> warps, unsigned kWidth,
                        unsigned aBits, unsigned bBits) {
  unsigned wm = warps[warps.size() - 2], wn = warps.back();
  unsigned wb = warps.size() == 3 ? warps[0] : 1;
  int64_t batchPerWarp = ceilDiv(p.batch, wb);
  int64_t tilesM = ceilDiv(p.m, int64_t(wm) * instr.m);
  int64_t tilesN = ceilDiv(p.n, int64_t(wn) * instr.n);
  int64_t kSteps = p.k / instr.k;
  DotCost cost;
  cost.matrixCycles =
      batchPerWarp * tilesM * tilesN * kSteps * instr.tileCycles();

  // Rows of A / columns of B one wave needs (no more than exist: lanes that
  // map past M or N read the same addresses, an LDS broadcast).
  int64_t rowsA = std::min<int64_t>(tilesM * instr.m, p.m);
  int64_t colsB = std::min<int64_t>(tilesN * instr.n, p.n);
  int64_t aBytes = p.aInRegisters || p.aLoopInvariant
                       ? 0
                       : batchPerWarp * rowsA * p.k * aBits / 8;
  int64_t bBytes =
      p.bLoopInvariant ? 0 : batchPerWarp * colsB * p.k * bBits / 8;
  cost.ldsCycles = ldsCycles(aBytes + bBytes);

  // Per-lane operand elements and the reads that fetch them.
  int64_t aElems = batchPerWarp * tilesM * instr.m * p.k / 64;
  int64_t bElems = batchPerWarp * tilesN * instr.n * p.k / 64;
  // A lane's run along K is one LDS vector when K is contiguous; otherwise
  // gfx90a gathers it element by element, gfx950 reads it transposed 64 bits
  // at a time (ds_read_b64_tr_b*), and on gfx942 Triton's in-thread transpose
  // makes the LDS copy K-contiguous.
  auto vecOf = [&](bool kContiguous, unsigned bits) -> int64_t {
    int64_t full = std::min<int64_t>(kWidth, kMaxReadBytes * 8 / bits);
    if (kContiguous || p.arch == GfxArch::GFX942)
      return full;
    if (p.arch == GfxArch::GFX950)
      return std::min<int64_t>(full, 64 / bits);
    return 1;
  };
  int64_t vecA = vecOf(p.aKContiguous, aBits);
  int64_t vecB = vecOf(p.bKContiguous, bBits);
  cost.dsReads = (aBytes ? ceilDiv(aElems, vecA) : 0) +
                 (bBytes ? ceilDiv(bElems, vecB) : 0);
  // Accumulator tiles plus the operand tiles of the whole K (a dot_op
  // tensor is loaded from LDS whole before its MFMAs).
  cost.vgprs = batchPerWarp * tilesM * tilesN * instr.accVgprs() +
               ceilDiv(aElems * aBits, 32) + ceilDiv(bElems * bBits, 32);
  return cost;
}

std::optional<MfmaChoice> mlir::triton_mfma::evaluateMfma(
    const DotProblem &p, const DotConstraints &c, const MfmaInstr &instr,
    ArrayRef<unsigned> warps, unsigned kPack, unsigned tableIndex) {
  if (!nonKDimAllows(c.nonKDim, instr))
    return std::nullopt;
  if (c.instrM && instr.m != c.instrM)
    return std::nullopt;
  unsigned aBits = p.aStorageBits ? p.aStorageBits : getElemBits(instr.a);
  unsigned bBits = p.bStorageBits ? p.bStorageBits : getElemBits(instr.b);
  if (!kPackAllowed(p, c, instr, kPack, aBits, bBits))
    return std::nullopt;
  if (p.k % (int64_t(instr.k) * kPack) != 0)
    return std::nullopt;
  std::optional<unsigned> kWidth = kWidthOf(c, instr, kPack);
  if (!kWidth)
    return std::nullopt;

  MfmaChoice ch;
  ch.instr = &instr;
  ch.warps.assign(warps.begin(), warps.end());
  ch.kPack = kPack;
  ch.kWidth = *kWidth;
  ch.tableIndex = tableIndex;
  ch.cost = waveCost(p, instr, warps, *kWidth, aBits, bBits);
  return ch;
}

MfmaSearch mlir::triton_mfma::rankMfmaChoices(const DotProblem &p,
                                              const DotConstraints &c) {
  MfmaSearch s;
  SmallVector<const MfmaInstr *> instrs = lookupMfma(p.arch, p.aElem, p.bElem);
  if (instrs.empty()) {
    s.whyNone = ("no MFMA instruction takes " + getElemName(p.aElem) + " x " +
                 getElemName(p.bElem) + " on " + getArchName(p.arch))
                    .str();
    return s;
  }
  ArrayRef<MfmaInstr> table = getMfmaInstrs(p.arch);
  SmallVector<SmallVector<unsigned>> warpSplits;
  bool batched = p.batch > 1;
  if (!c.warps.empty()) {
    warpSplits.push_back(c.warps);
  } else if (batched) {
    // Batched dots: warps along the batch, as Triton does.
    warpSplits.push_back({p.numWarps, 1, 1});
  } else {
    for (unsigned wm = 1; wm <= p.numWarps; wm *= 2)
      warpSplits.push_back({wm, p.numWarps / wm});
  }
  SmallVector<unsigned> kPacks =
      c.kPack ? SmallVector<unsigned>{c.kPack} : SmallVector<unsigned>{1, 2};
  for (const MfmaInstr *i : instrs) {
    unsigned index = i - table.data();
    SmallVector<unsigned> triton =
        batched ? SmallVector<unsigned>{p.numWarps, 1, 1}
                : tritonWarpSplit(p.m, p.n, p.numWarps, i->m, i->n);
    for (ArrayRef<unsigned> w : warpSplits)
      for (unsigned kp : kPacks)
        if (auto ch = evaluateMfma(p, c, *i, w, kp, index)) {
          ch->tritonWarps = ArrayRef<unsigned>(ch->warps) == ArrayRef(triton);
          s.ranked.push_back(std::move(*ch));
        }
  }
  if (s.ranked.empty()) {
    std::string why;
    llvm::raw_string_ostream os(why);
    os << "no " << getElemName(p.aElem) << " MFMA tile of "
       << getArchName(p.arch) << " divides K = " << p.k;
    if (c.nonKDim)
      os << " with matrix-instr-nonkdim = " << c.nonKDim;
    if (c.kPack)
      os << " and kpack = " << c.kPack;
    if (c.instrM)
      os << " with instruction M = " << c.instrM;
    if (c.kWidth)
      os << " and kWidth = " << c.kWidth;
    s.whyNone = os.str();
    return s;
  }
  llvm::stable_sort(s.ranked, [&](const MfmaChoice &a, const MfmaChoice &b) {
    return isCheaper(a, b, c.registersFirst);
  });
  return s;
}

DotCost mlir::triton_mfma::estimateFma(const DotProblem &p, int64_t warpRows,
                                       int64_t warpCols) {
  DotCost cost;
  // One v_fma per multiply-add and lane; a wave64 VALU op issues in 4 clocks.
  int64_t fmasPerLane =
      ceilDiv(p.batch * p.m * p.n * p.k, int64_t(64) * p.numWarps);
  cost.matrixCycles = fmasPerLane * 4;
  unsigned aBits = p.aStorageBits ? p.aStorageBits : getElemBits(p.aElem);
  unsigned bBits = p.bStorageBits ? p.bStorageBits : getElemBits(p.bElem);
  int64_t bytes =
      (p.aInRegisters || p.aLoopInvariant
           ? 0
           : std::min(warpRows, p.m) * p.k * aBits / 8) +
      (p.bLoopInvariant ? 0 : std::min(warpCols, p.n) * p.k * bBits / 8);
  cost.ldsCycles = ldsCycles(bytes * p.batch);
  return cost;
}
