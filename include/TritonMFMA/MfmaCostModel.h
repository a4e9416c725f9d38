//===- MfmaCostModel.h - choosing an MFMA tiling for one dot ----*- C++ -*-===//
//
// A small, explainable cost model for lowering one `tt.dot` (C[MxN] +=
// A[MxK] * B[KxN], one workgroup of `numWarps` waves) to MFMA instructions.
// For a candidate (instruction, warpsPerCTA, kpack) it estimates, per wave and
// per execution of the dot:
//
//   matrix cycles  tilesM * tilesN * (K / k) * cycles(tile)
//                  (tilesM = ceil(M / (warpsM * m)): a wave whose share is
//                  smaller than a tile still pays for a whole tile)
//   LDS cycles     bytes of A and B the wave reads from LDS / 32
//                  (LDS serves 128 B/clk per CU, shared by the 4 SIMDs);
//                  operands that stay in registers (the A of a chain tail, a
//                  loop-invariant operand hoisted out of the loop) cost 0
//   ds_reads       LDS read instructions: per-lane operand elements over the
//                  vector width kWidth (at most 16 bytes); an operand whose
//                  K is not contiguous in LDS is read one element at a time
//                  on gfx90a, 64 bits at a time on gfx950 (ds_read_b64_tr),
//                  in full vectors on gfx942 (Triton transposes in threads)
//   registers      32-bit registers per lane for the accumulator and one
//                  K-block of A and B
//
// and ranks candidates by (max(matrix, LDS) cycles, matrix cycles, ds_reads,
// registers, table order, Triton's warp split), or, for a kernel that spills
// (DotConstraints::registersFirst), by registers first. The dot runs at the
// slower of the matrix pipe and the LDS pipe; a freer matrix pipe (other
// waves share it), fewer LDS instructions and registers break ties; table
// order prefers larger tiles and the K-doubled CDNA4 shapes. The FMA estimate
// (for the fallback decision) is VALU cycles of M*N*K/(64*numWarps) fused
// multiply-adds per lane plus the LDS bytes of the blocked operand layout. A
// chain pair is also compared with its dots chosen alone plus the LDS round
// trips that costs (ldsRoundTripCycles).
//
//===----------------------------------------------------------------------===//
#ifndef TRITONMFMA_MFMACOSTMODEL_H
#define TRITONMFMA_MFMACOSTMODEL_H

#include "TritonMFMA/MfmaTable.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace mlir::triton_mfma {

/// What the cost model knows about one dot.
struct DotProblem {
  GfxArch arch;
  MfmaElem aElem, bElem; ///< element kinds the instruction takes
  /// Bits of the elements as stored (in LDS and in the operand registers);
  /// 0 = those of aElem/bElem. They differ when fp8 is computed as f16.
  unsigned aStorageBits = 0, bStorageBits = 0;
  int64_t batch = 1; ///< product of leading dims of a rank-3 dot
  int64_t m = 0, n = 0, k = 0;
  unsigned numWarps = 4;
  bool aInRegisters = false; ///< A is produced in registers (chain tail)
  bool aLoopInvariant = false, bLoopInvariant = false;
  /// Whether K is the contiguous dimension of the operand as loaded (the
  /// order of its blocked layout). A lane's run along K is then one vector
  /// in LDS; otherwise it is gathered (see evaluateMfma).
  bool aKContiguous = true, bKContiguous = true;
};

/// Restrictions on the search: user overrides and chain-dot requirements.
struct DotConstraints {
  unsigned nonKDim = 0; ///< 0 = any; 32/16 = that square tile; 4 = 4x64/64x4
  unsigned kPack = 0;   ///< 0 = choose; 1 or 2 = that
  /// Required instruction M (a chain tail must use its head's).
  unsigned instrM = 0;
  /// Required warpsPerCTA (rank 2), e.g. [numWarps, 1] for a chain.
  SmallVector<unsigned> warps;
  /// Required kWidth (a chain tail: the run each lane of the head holds).
  unsigned kWidth = 0;
  /// Rank by registers per lane before cycles (a kernel that spills).
  bool registersFirst = false;
};

struct DotCost {
  int64_t matrixCycles = 0, ldsCycles = 0, dsReads = 0, vgprs = 0;
  int64_t cycles() const { return std::max(matrixCycles, ldsCycles); }
};

struct MfmaChoice {
  const MfmaInstr *instr = nullptr;
  SmallVector<unsigned> warps; ///< warpsPerCTA, rank of the dot
  unsigned kPack = 1;
  unsigned kWidth = 0;
  DotCost cost;
  unsigned tableIndex = 0;
  /// The warp split Triton's warpsPerTile would give for this instruction
  /// (the last tie-breaker: on equal cost, no surprise).
  bool tritonWarps = false;
  /// Prints e.g. "v_mfma_f32_32x32x8_f16 warps=[2,2] kWidth=8 (kpack 2):
  /// 512 matrix / 256 LDS cycles, 16 ds_read, 96 VGPRs".
  void print(llvm::raw_ostream &os) const;
  std::string str() const;
};

/// Why no MFMA candidate exists (empty when there is one).
struct MfmaSearch {
  SmallVector<MfmaChoice> ranked; ///< best first
  std::string whyNone;
};

/// All valid candidates for `p` under `c`, best first.
MfmaSearch rankMfmaChoices(const DotProblem &p, const DotConstraints &c);

/// Cost of one candidate (exposed so that chains can sum head + tail).
std::optional<MfmaChoice> evaluateMfma(const DotProblem &p,
                                       const DotConstraints &c,
                                       const MfmaInstr &instr,
                                       ArrayRef<unsigned> warps, unsigned kPack,
                                       unsigned tableIndex);

/// Cost of leaving the dot to Triton's FMA lowering. `warpRows`/`warpCols`
/// are the rows of A / columns of B one wave covers in the blocked layout of
/// the dot's result.
DotCost estimateFma(const DotProblem &p, int64_t warpRows, int64_t warpCols);

/// LDS cycles for one wave to move `bytes` through LDS (write or read).
int64_t ldsCycles(int64_t bytes);
/// One exchange between waves through LDS inside a loop (a convert_layout
/// or a cross-wave reduction): write `bytes`, barrier, read them back. Beyond
/// the bandwidth, every wave waits for the slowest at the barrier and pays
/// two LDS latencies (about 64 clocks each on CDNA2/3/4): 128 cycles.
int64_t ldsRoundTripCycles(int64_t bytes);

/// Strict weak order on candidates used for ranking; `registersFirst` puts
/// the registers per lane before the cycles.
bool isCheaper(const MfmaChoice &a, const MfmaChoice &b,
               bool registersFirst = false);

} // namespace mlir::triton_mfma

#endif // TRITONMFMA_MFMACOSTMODEL_H
