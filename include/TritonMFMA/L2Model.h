//===- L2Model.h - L2 reuse model for grid ordering -------------*- C++ -*-===//
//
// The model mfma-grid-order decides with (lib/Analysis/L2Model.cpp; the same
// figures and formulas in python/triton_mfma/l2model.py for predictions).
//
// Programs are dispatched in linear order and about P = (programs per CU) x
// CUs of them run at once. A tile read by two programs is served from L2 the
// second time iff the two run at once (distance <= P) or the bytes the
// programs between them stream through L2 fit in the part of L2 a shared tile
// can count on: L2 x effective fraction. NVIDIA H100/H200: 50 MiB in two
// partitions that each cache what their SMs read, so a tile shared by
// arbitrary SMs can count on about half (0.5). AMD: one L2 per XCD (gfx90a:
// per die), 0.75 of it (other traffic, set conflicts). On multi-XCD parts
// (gfx942, gfx950) consecutive workgroups go round-robin to the XCDs, so two
// programs only share an L2 when their ids are congruent modulo the XCD count.
//
// Programs per CU at TTGIR (registers are not allocated yet): warps resident
// per CU assuming 128 registers per thread (NVIDIA: 65536 / (128 x 32) = 16
// warps; AMD: 4 SIMDs x 4 waves at <= 128 VGPRs = 16 waves), then limited by
// shared memory / LDS (the sum of the kernel's ttg.local_alloc buffers).
//
//===----------------------------------------------------------------------===//
#ifndef TRITONMFMA_L2MODEL_H
#define TRITONMFMA_L2MODEL_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::triton_mfma {

struct TargetL2Model {
  std::string target;       ///< "cuda:90", "hip:gfx942", ...
  std::string device;       ///< what the figures are for
  int64_t l2Bytes = 0;      ///< one L2 (per XCD on multi-XCD parts)
  double l2Effective = 0.5; ///< fraction a shared tile can count on
  int cus = 0;              ///< CUs / SMs of the whole device
  int xcds = 1;             ///< L2 domains workgroups are spread over
  int residentWarps = 16;   ///< warps per CU under the register assumption
  int64_t sharedPerCU = 0;  ///< shared memory / LDS per CU
  int64_t sharedReservedPerProgram = 0;
  /// Allocation granule of a program's shared memory (AMD: LDS in 512-byte
  /// blocks, as python/triton_mfma/occupancy.py models it).
  int64_t sharedGranule = 1;
  int maxProgramsPerCU = 32; ///< hardware workgroup / block slots per CU

  int64_t effectiveL2Bytes() const {
    return static_cast<int64_t>(static_cast<double>(l2Bytes) * l2Effective);
  }
  /// Programs of `numWarps` warps using `sharedBytes` that fit on one CU.
  int64_t programsPerCU(int numWarps, int64_t sharedBytes) const;
  /// P: programs running at once on the whole device.
  int64_t concurrentPrograms(int numWarps, int64_t sharedBytes) const {
    return programsPerCU(numWarps, sharedBytes) * cus;
  }
};

/// Figures for a `ttg.target` string ("cuda:90", "hip:gfx942", ...), from
/// shared/BACKGROUND.md; nullopt for targets without figures.
std::optional<TargetL2Model> lookupL2Model(llvm::StringRef target);

} // namespace mlir::triton_mfma

#endif // TRITONMFMA_L2MODEL_H
