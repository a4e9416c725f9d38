//===- TargetInfo.h - what the models know about each GPU -------*- C++ -*-===//
//
// The one description of the targets triton-mfma models, keyed by Triton's
// module target (`ttg.target`: "hip:gfx90a", "hip:gfx942", "hip:gfx950",
// "cuda:90"). Every figure the passes and the Python models use lives in
// lib/Analysis/TargetInfo.cpp, with its source:
//
//  - the LDS model (LDSModel.h): LDS a workgroup may allocate, banks, the
//    lane tile of 128-bit LDS loads;
//  - the L2 model (L2Model.h, mfma-grid-order): CUs, XCDs, L2 size and the
//    fraction a shared tile can count on, LDS per CU and its granule,
//    workgroup slots, the register file and the most registers a wave may
//    have (waves resident whatever their registers);
//  - python/triton_mfma/models/occupancy.py: register files and granules, waves
//    per SIMD, LDS per CU and granule, workgroup slots, SIMDs (through the C
//    API, tmfma_target_info);
//  - python/triton_mfma/models/l2model.py: the bench's predictions (DRAM and
//    Infinity Cache bandwidth, fp16 peak, achievable fraction).
//
// The MFMA instruction table (MfmaTable.h) is per CDNA target too; it stays
// with the instructions it describes.
//
//===----------------------------------------------------------------------===//
#ifndef TRITONMFMA_TARGETINFO_H
#define TRITONMFMA_TARGETINFO_H

#include "TritonMFMA/MfmaTable.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir::triton_mfma {

struct TargetInfo {
  const char *target = ""; ///< Triton's `ttg.target`, e.g. "hip:gfx942"
  const char *device = ""; ///< what the figures are for, e.g. "MI300X"
  bool isHip = false;      ///< "hip:..." (else "cuda:...")
  /// Part after "hip:"/"cuda:" ("gfx942", "90").
  llvm::StringRef getArch() const {
    return llvm::StringRef(target).split(':').second;
  }

  // Whole device.
  int cus = 0;         ///< CUs (SMs)
  int xcds = 1;        ///< L2 domains workgroups are dealt round-robin to
  int64_t l2Bytes = 0; ///< one L2 (per XCD on multi-XCD parts)
  /// Fraction of one L2 a tile shared by programs can count on.
  double l2Effective = 0.5;

  // Per CU.
  int64_t ldsPerCU = 0;        ///< LDS (shared memory) of one CU (SM)
  int64_t ldsPerWorkgroup = 0; ///< the most one workgroup may allocate
  int64_t ldsGranule = 1;      ///< allocation granule of a workgroup's LDS
  int64_t ldsReservedPerWorkgroup = 0; ///< reserved by the system per block
  int ldsBanks = 32;                   ///< LDS banks of 4 bytes
  /// Lane bits served in the first phase of a 128-bit LDS load
  /// (ds_read_b128), or empty if loads walk lanes in order.
  llvm::ArrayRef<int> loadLaneTile128;
  /// LDS reads that transpose 16-bit and narrower elements across lanes
  /// (ds_read_b64_tr_b16 and kin: CDNA4 ISA), which Triton uses for dot
  /// operands whose K is not the fastest dimension in LDS.
  bool ldsTransposeReads = false;
  int workgroupSlotsPerCU = 0; ///< workgroups (blocks) resident per CU
  int simdsPerCU = 4;          ///< SIMDs (SM sub-partitions)

  // Registers, per SIMD (sub-partition).
  int vgprFile = 0;    ///< VGPRs (+AGPRs) per lane
  /// The most VGPRs (+AGPRs) one wave may allocate per lane: vgprFile / this
  /// (granule-aligned) waves per SIMD fit whatever their registers (the L2
  /// model's lower bound on residency before register allocation).
  int maxVgprsPerWave = 0;
  int vgprGranule = 0; ///< allocation granule of a wave's VGPRs
  int sgprFile = 0;    ///< SGPRs (0: none)
  int sgprGranule = 0;
  int sgprTrapReserve = 0; ///< SGPRs reserved per wave (trap handler)
  int maxWavesPerSIMD = 0;
  int waveSize = 64;

  // Bench predictions only (python/triton_mfma/models/l2model.py), never a
  // pass.
  double dramBandwidth = 0; ///< bytes/s
  int64_t mallBytes = 0;    ///< Infinity Cache (MALL), shared by all XCDs
  double mallBandwidth = 0; ///< bytes/s
  double fp16Flops = 0;     ///< dense fp16 peak, FLOP/s
  double achievable = 0.7;  ///< fraction of the peak a Triton GEMM reaches
};

/// The described targets, in a fixed order.
llvm::ArrayRef<TargetInfo> getTargetInfos();
/// The description of exactly `target` ("hip:gfx942"); nullptr if none.
const TargetInfo *lookupTargetInfo(llvm::StringRef target);
/// The description of a CDNA target of the MFMA table.
const TargetInfo &getTargetInfo(GfxArch arch);
/// Shared memory one block may use on a CUDA GPU of compute capability `cc`
/// (e.g. 90): for targets the table does not describe.
int64_t getCudaSharedPerBlock(int cc);
/// LDS banks of a CUDA GPU (any compute capability).
int getCudaSharedBanks();

/// Figures the L2 model assumes for a target it has no description of (the
/// pass options l2-bytes, num-cus, ... supply the rest).
TargetInfo getUnknownTargetInfo(llvm::StringRef target);

/// Every described target as JSON (tmfma_target_info): an array of objects
/// with the fields above in snake_case.
std::string getTargetInfoJSON();

} // namespace mlir::triton_mfma

#endif // TRITONMFMA_TARGETINFO_H
