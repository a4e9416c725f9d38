#include "TritonMFMA/Passes.h"
#define DEBUG_TYPE "mfma-print-layouts"
namespace mlir::triton_mfma {
#define GEN_PASS_DEF_MFMAPRINTLAYOUTS
#include "TritonMFMA/Passes.h.inc"
namespace {
struct MFMAPrintLayouts final : impl::MFMAPrintLayoutsBase<MFMAPrintLayouts> {
  using Base::Base;
  void runOnOperation() override {}
};
} // namespace
} // namespace mlir::triton_mfma
