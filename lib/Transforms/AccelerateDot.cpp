//===- AccelerateDot.cpp - mfma-accelerate-dot ----------------------------===//
//
// Lowers `tt.dot` from blocked layouts to MFMA layouts (replaces Triton's
// AccelerateAMDMatmul for gfx90a/gfx942/gfx950), including chain dots.
//
// Algorithm:
//  1. Read the target (`ttg.target` = "hip:gfxNNN"), the wave size (must be
//     64) and, per dot, the number of warps (`ttg.num-warps` on the closest
//     ancestor). Collect every `tt.dot` whose result layout is
//     `#ttg.blocked`. A module with a `tt.dot_scaled` to lower, an f64 or
//     rank > 3 dot, a target outside the table or waves of 32 is declined:
//     IR unchanged and a remark "mfma-accelerate-dot declined: ...", on which
//     the hook runs Triton's own accelerate_matmul in the pass's place.
//     Malformed input (no ranked tensors, no num-warps) is an error.
//  2. Chains: for each dot, walk backwards from its A operand through
//     same-shape elementwise operations (arith, math, tt.fp_to_fp,
//     ttg.convert_layout, ...) in the same block. Reaching another dot's
//     result makes the pair (head, tail).
//  3. Choice (MfmaCostModel.h). A single dot: the cheapest (instruction,
//     warpsPerCTA, kpack) of the table for its operand types; fp8 types the
//     target lacks are computed as f16; if nothing fits or the FMA estimate
//     is cheaper, it stays an FMA dot. With registers-first (a kernel whose
//     main loop spills), the registers per lane rank first and a dot stays
//     on MFMA wherever an instruction fits. A chain: for each instruction M
//     (32, 16), the best head with warps [numWarps, 1] and the best tail with
//     the same M, warps [numWarps, 1] and kWidth 4 (the run of consecutive
//     columns a lane holds in the head's transposed result, so the tail's
//     operand A is a register permutation of the head's result); the M with
//     the lowest total wins, if it needs no more matrix cycles than both dots
//     chosen alone (short M repeats the chain's tiles on every wave) and
//     beats them plus the LDS round trips that would cost (P; row max and sum
//     when the head's warps split N). isTransposed is true unless every store
//     of the result is contiguous along M (then a lane's run along M gives
//     wider stores); chain heads are always transposed.
//  4. Rewrite: convert_layout A and B to `#ttg.dot_op<{opIdx, parent =
//     #mfma, kWidth}>` (then cast to the instruction's element type if
//     emulated), C to `#mfma` (cast to f32/i32 if needed), a new `tt.dot`
//     (or `tt.dot_scaled` for gfx950's f8f6f4 instructions), and convert the
//     result back to the old layout and type. Triton's
//     remove_layout_conversions, which follows, folds the conversions.
//     Every decision is a remark with its cost and the runner-up.
//
// Code: runOnOperation (this file) checks the options (checkOptions), then
// step 1 is collectDots and readArch (here) and analyze per dot
// (AccelerateDotAnalysis.h); step 2 linkChains (here; findChainHead,
// AccelerateDotAnalysis.h); step 3 decideAll (here) with a DotChooser
// (AccelerateDotChooser.h): decideChain (canChain, bestChainPair, costApart
// against it, chainRemark) for each chain, decideSingle for the rest; step 4
// rewriteAll (here): chooseTransposition (AccelerateDotChooser.h), then
// rewriteMfma or rewriteFma (AccelerateDotRewriter.h).
//
// Differences from Triton 3.9's AccelerateAMDMatmul (same result otherwise,
// e.g. 32x32x8 / 32x32x16 with warps [2, 2] for a 128x128 GEMM tile, 16x16
// with warps [1, 4] for M = 16, [4, 1] transposed chains for BLOCK_M = 128
// flash attention):
//  * kpack: Triton uses the kernel's kpack (default 1); the model takes 2
//    when it turns 64-bit LDS reads of 8/16-bit operands into ds_read_b128
//    (half the ds_reads, gfx90a/gfx942).
//  * small M: Triton computes M = 4 with a 4x64 tile that every wave repeats
//    and leaves M = 1 to FMA; the model finds 16x16 with warps along N about
//    half the matrix cycles and a quarter of the LDS reads per wave.
//  * warps: Triton's warpsPerTile is a fixed doubling rule; here every split
//    is costed (e.g. 32x32 GEMM tiles with 4 warps: 16x16 on [2, 2] instead
//    of 32x32 repeated by every wave).
//  * chains: Triton fixes the head to [numWarps, 1] and picks each dot's
//    instruction alone, so BLOCK_N = 16 (16x16 head, 32x32 tail) or 8 warps
//    with BLOCK_M = 64 ([8, 1] head, [2, 4] tail) send P through LDS; here
//    the pair shares instruction M and warps, or, where repeating rows across
//    waves costs more than the exchange (BLOCK_M 16/32 decode attention),
//    the dots are chosen alone on purpose.
//  * fp8 without an instruction on gfx90a: f16 MFMA instead of FMA.
//  * isTransposed follows the stores (non-transposed when every store of the
//    result is contiguous along M); Triton always transposes.
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/GenericIR.h"
#include "TritonMFMA/Layouts.h"
#include "TritonMFMA/MfmaTable.h"
#include "TritonMFMA/PassOutcome.h"
#include "TritonMFMA/Passes.h"

#include "AccelerateDotAnalysis.h"
#include "AccelerateDotChooser.h"
#include "AccelerateDotRewriter.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "mfma-accelerate-dot"

namespace mlir::triton_mfma {
#define GEN_PASS_DEF_MFMAACCELERATEDOT
#include "TritonMFMA/Passes.h.inc"
} // namespace mlir::triton_mfma

using namespace mlir;
using namespace mlir::triton_mfma;
using namespace mlir::triton_mfma::accelerate_dot;

namespace {

struct MFMAAccelerateDot final
    : mlir::triton_mfma::impl::MFMAAccelerateDotBase<MFMAAccelerateDot> {
  using Base::Base;

  GfxArch arch = GfxArch::GFX942;

  /// The pass options: matrix-instr-nonkdim 0/4/16/32, kpack up to 2.
  LogicalResult checkOptions(ModuleOp module) {
    if (matrixInstrNonKDim != 0 && matrixInstrNonKDim != 4 &&
        matrixInstrNonKDim != 16 && matrixInstrNonKDim != 32) {
      module.emitError("matrix-instr-nonkdim must be 0, 4, 16 or 32, not ")
          << static_cast<unsigned>(matrixInstrNonKDim);
      return failure();
    }
    if (kPack > 2) {
      module.emitError("kpack must be 0, 1 or 2, not ")
          << static_cast<unsigned>(kPack);
      return failure();
    }
    return success();
  }

  /// Step 1: the dots with a blocked result layout; `declined` says why
  /// Triton's accelerate_matmul should run instead (the first dot it cannot
  /// lower: a tt.dot_scaled, rank other than 2 or 3, f64).
  SmallVector<Operation *> collectDots(ModuleOp module, std::string &declined) {
    SmallVector<Operation *> dots;
    auto decline = [&](Operation *op, const Twine &why) {
      if (declined.empty())
        declined = (why + " at " + describeLoc(op->getLoc())).str();
    };
    module.walk([&](Operation *op) {
      if (!isAnyOp(op, opname::Dot, opname::DotScaled))
        return;
      auto res = op->getNumResults() == 1 ? tensorTypeOf(op->getResult(0))
                                          : RankedTensorType();
      LayoutPtr l = res ? getLayout(res) : nullptr;
      if (!l || !isa<BlockedLayout>(l.get()))
        return; // already lowered (or not a TritonGPU dot)
      if (isOp(op, opname::DotScaled))
        return decline(op, "a " + opname::DotScaled);
      if (res.getRank() != 2 && res.getRank() != 3)
        return decline(op, "a dot of rank " + Twine(res.getRank()));
      for (unsigned i = 0; i < 2 && i < op->getNumOperands(); ++i)
        if (auto t = tensorTypeOf(op->getOperand(i)))
          if (t.getElementType().isF64())
            return decline(op, "an f64 dot");
      dots.push_back(op);
    });
    return dots;
  }

  /// Step 1: the module's arch; none, with `declined` set, for a target
  /// outside the table or waves other than 64.
  std::optional<GfxArch> readArch(ModuleOp module, std::string &declined) {
    std::optional<StringRef> target = getTarget(module);
    std::optional<GfxArch> parsed =
        target ? parseGfxArch(*target) : std::nullopt;
    std::optional<unsigned> tpw = getThreadsPerWarp(module);
    if (!parsed)
      declined = ("target " + target.value_or("<none>") +
                  " (not gfx90a, gfx942 or gfx950)")
                     .str();
    else if (!tpw || *tpw != 64)
      declined = "waves of " + (tpw ? std::to_string(*tpw) : std::string("?")) +
                 " threads (CDNA MFMA needs 64)";
    return parsed;
  }

  /// Step 2: pairs each dot with the chain head that feeds its operand A (a
  /// head takes one tail).
  void linkChains(MutableArrayRef<DotSite> sites,
                  const llvm::DenseMap<Operation *, DotSite *> &siteOf) {
    for (DotSite &s : sites) {
      Operation *h = findChainHead(s.op);
      auto it = h ? siteOf.find(h) : siteOf.end();
      if (it == siteOf.end() || it->second->tail || it->second == &s)
        continue;
      s.head = it->second;
      it->second->tail = &s;
    }
  }

  /// Step 3: the chains kept in registers decided together (a chain that is
  /// not is unlinked, with a remark), then every other dot alone.
  llvm::DenseMap<DotSite *, Decision>
  decideAll(MutableArrayRef<DotSite> sites) {
    llvm::DenseMap<DotSite *, Decision> decisions;
    DotChooser chooser(arch, matrixInstrNonKDim, kPack, registersFirst);
    for (DotSite &s : sites) {
      if (decisions.count(&s))
        continue;
      if (s.tail) {
        Decision dh, dt;
        std::string why;
        if (chooser.decideChain(s, *s.tail, dh, dt, why)) {
          decisions[&s] = dh;
          decisions[s.tail] = dt;
          continue;
        }
        s.op->emitRemark() << "chain with the dot at "
                           << describeLoc(s.tail->op->getLoc())
                           << " not kept in registers: " << why;
        s.tail->head = nullptr;
        s.tail = nullptr;
      }
      if (s.head && !decisions.count(&s))
        continue; // decided with its head
    }
    for (DotSite &s : sites)
      if (!decisions.count(&s))
        decisions[&s] = chooser.decideSingle(s, chooser.baseConstraints());
    return decisions;
  }

  /// Step 4: each dot rewritten as decided, with its remark; reports the
  /// pass outcome.
  void rewriteAll(MutableArrayRef<DotSite> sites,
                  llvm::DenseMap<DotSite *, Decision> &decisions,
                  PassOutcomeScope &outcome) {
    unsigned numMfma = 0, numFma = 0;
    bool changed = false;
    for (DotSite &s : sites) {
      Decision &d = decisions[&s];
      if (d.useMfma) {
        ++numMfma;
        changed = true;
        chooseTransposition(s);
        std::string text = d.remark;
        text += s.transposed ? "; transposed (" : "; not transposed (";
        text += s.transposeWhy + ")";
        LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << text << "\n");
        s.op->emitRemark() << text;
        rewriteMfma(s, d, arch);
      } else {
        ++numFma;
        s.op->emitRemark() << d.remark;
        changed |= rewriteFma(s);
      }
    }
    std::string summary = (Twine(numMfma) + " dot(s) to MFMA layouts, " +
                           Twine(numFma) + " left as FMA dots")
                              .str();
    if (changed)
      outcome.applied(summary);
    else
      outcome.unchanged(summary);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    PassOutcomeScope outcome(*this, Twine("no ") + opname::Dot +
                                        " with a blocked result layout");
    if (failed(checkOptions(module)))
      return signalPassFailure();

    std::string declined; // why Triton's accelerate_matmul should run instead
    SmallVector<Operation *> dots = collectDots(module, declined);
    if (dots.empty() && declined.empty())
      return markAllAnalysesPreserved();
    std::optional<GfxArch> parsed = readArch(module, declined);
    if (!declined.empty()) {
      // The whole module, so that one pass lowers all of its dots.
      module.emitRemark() << "mfma-accelerate-dot declined: " << declined
                          << "; Triton's accelerate_matmul lowers this "
                             "module's dots";
      outcome.declined(declined);
      return markAllAnalysesPreserved();
    }
    arch = *parsed;

    std::vector<DotSite> sites(dots.size());
    llvm::DenseMap<Operation *, DotSite *> siteOf;
    for (auto [i, op] : llvm::enumerate(dots)) {
      sites[i].resultLayout = getLayout(op->getResult(0).getType());
      if (failed(analyze(op, sites[i], arch)))
        return signalPassFailure();
      siteOf[op] = &sites[i];
    }
    if (chainDots)
      linkChains(sites, siteOf);
    llvm::DenseMap<DotSite *, Decision> decisions = decideAll(sites);
    rewriteAll(sites, decisions, outcome);
  }
};

} // namespace
