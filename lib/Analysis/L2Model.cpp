//===- L2Model.cpp - L2 reuse model for grid ordering ---------------------===//
//
// Figures: shared/BACKGROUND.md ("Hardware figures"; 50 MB L2 for
// H100/H200). MB here is MiB. Keep in sync with python/triton_mfma/l2model.py
// (test/python/test_grid_order.py checks the remarks against it).
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/L2Model.h"

#include <algorithm>

using namespace mlir::triton_mfma;

static constexpr int64_t MiB = 1 << 20;
static constexpr int64_t KiB = 1 << 10;

int64_t TargetL2Model::programsPerCU(int numWarps, int64_t sharedBytes) const {
  int64_t byWarps = residentWarps / std::max(1, numWarps);
  int64_t byShared = maxProgramsPerCU;
  if (sharedBytes > 0) {
    int64_t g = std::max<int64_t>(1, sharedGranule);
    int64_t allocated = (sharedBytes + g - 1) / g * g;
    byShared = sharedPerCU / (allocated + sharedReservedPerProgram);
  }
  return std::max<int64_t>(
      1, std::min<int64_t>({byWarps, byShared, (int64_t)maxProgramsPerCU}));
}

std::optional<TargetL2Model>
mlir::triton_mfma::lookupL2Model(llvm::StringRef target) {
  TargetL2Model m;
  m.target = target.str();
  if (target == "cuda:90") {
    m.device = "H100/H200";
    m.l2Bytes = 50 * MiB;
    m.l2Effective = 0.5;
    m.cus = 132;
    m.xcds = 1;
    m.sharedPerCU = 228 * KiB;
    m.sharedReservedPerProgram = 1 * KiB;
    m.maxProgramsPerCU = 32;
    return m;
  }
  if (target.starts_with("hip:")) { // LDS granule and workgroup slots: occupancy.py
    m.sharedGranule = 512;
    m.maxProgramsPerCU = 16;
  }
  if (target == "hip:gfx90a") {
    m.device = "MI210";
    m.l2Bytes = 8 * MiB;
    m.l2Effective = 0.75;
    m.cus = 104;
    m.sharedPerCU = 64 * KiB;
    return m;
  }
  if (target == "hip:gfx942") {
    m.device = "MI300X";
    m.l2Bytes = 4 * MiB;
    m.l2Effective = 0.75;
    m.cus = 304;
    m.xcds = 8;
    m.sharedPerCU = 64 * KiB;
    return m;
  }
  if (target == "hip:gfx950") {
    m.device = "MI355X";
    m.l2Bytes = 4 * MiB;
    m.l2Effective = 0.75;
    m.cus = 256;
    m.xcds = 8;
    m.sharedPerCU = 160 * KiB;
    return m;
  }
  return std::nullopt;
}
