//===- AccelerateDotChooser.h - mfma-accelerate-dot: the choice -*- C++ -*-===//
//
// Step 3 of mfma-accelerate-dot (AccelerateDot.cpp's header): how each dot is
// computed, read from the cost model's ranking of the MFMA candidates
// (MfmaCostModel.h): the instruction, warpsPerCTA, kpack and kWidth of a dot
// alone or of a chain (head, tail) kept in registers, or an FMA dot, each
// with the remark that says why; and isTransposed. Apart from the pass and
// the rewrite because it is the model's side: it reads DotSites and changes
// no IR.
//
//===----------------------------------------------------------------------===//
#ifndef TRITONMFMA_TRANSFORMS_ACCELERATEDOTCHOOSER_H
#define TRITONMFMA_TRANSFORMS_ACCELERATEDOTCHOOSER_H

#include "AccelerateDotAnalysis.h"

#include "TritonMFMA/MfmaCostModel.h"

#include <optional>
#include <string>
#include <utility>

namespace mlir::triton_mfma::accelerate_dot {

struct Decision {
  bool useMfma = false;
  MfmaChoice choice;
  std::string remark; ///< full text of the remark
};

/// isTransposed of a dot rewritten to MFMA: true for a chain's dots, else
/// unless every store of its result is contiguous along M.
void chooseTransposition(DotSite &s);

/// The choice for the module's dots on one arch, with the pass options
/// matrix-instr-nonkdim and kpack.
class DotChooser {
public:
  DotChooser(GfxArch arch, unsigned matrixInstrNonKDim, unsigned kPack,
             bool registersFirst = false)
      : arch(arch), matrixInstrNonKDim(matrixInstrNonKDim), kPack(kPack),
        registersFirst(registersFirst) {}

  /// The options' constraints on every dot (registers-first included).
  DotConstraints baseConstraints() const;

  /// A dot alone: the cheapest MFMA choice under `c`, or an FMA dot.
  Decision decideSingle(DotSite &s, const DotConstraints &c);

  /// Joint choice for a (head, tail) chain. Returns false (with `why`) when
  /// the pair cannot be kept in registers; both are then decided alone.
  bool decideChain(DotSite &head, DotSite &tail, Decision &dh, Decision &dt,
                   std::string &why);

private:
  /// The cheapest (head, tail) pair sharing instruction M (32, 16), warps
  /// [numWarps, 1] and the tail's kWidth 4; `runnerUp` describes the other
  /// M. None (with `why`) when no M has both.
  std::optional<std::pair<MfmaChoice, MfmaChoice>>
  bestChainPair(const DotSite &head, const DotSite &tail, std::string &why,
                std::string &runnerUp);

  /// Each dot of a chain chosen alone, with P exchanged through LDS.
  struct ChainApart {
    MfmaChoice head, tail;
    int64_t exchange; ///< cycles of the LDS exchanges
    int64_t cycles;   ///< both dots and the exchanges
  };

  /// The alternative to a chain in registers: each dot alone and P exchanged
  /// through LDS (a round trip; the tail's read of P from LDS is already in
  /// its LDS cycles), plus two more round trips (row max, row sum) when the
  /// head splits N across waves. None if either dot has no MFMA choice.
  std::optional<ChainApart> costApart(const DotSite &head, const DotSite &tail);

  /// The remark of one dot of a chain kept in registers.
  std::string chainRemark(const DotSite &s, const MfmaChoice &c, StringRef role,
                          const DotSite &other, int64_t pairCycles,
                          StringRef runnerUp, StringRef alternative);

  GfxArch arch;
  unsigned matrixInstrNonKDim, kPack;
  /// Registers per lane rank first, and no FMA dot where an MFMA fits (the
  /// pass option registers-first).
  bool registersFirst;
};

} // namespace mlir::triton_mfma::accelerate_dot

#endif // TRITONMFMA_TRANSFORMS_ACCELERATEDOTCHOOSER_H
