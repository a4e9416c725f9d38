//===- Passes.h - triton-mfma passes ----------------------------*- C++ -*-===//
#ifndef TRITONMFMA_PASSES_H
#define TRITONMFMA_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::triton_mfma {

#define GEN_PASS_DECL
#include "TritonMFMA/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "TritonMFMA/Passes.h.inc"

} // namespace mlir::triton_mfma

#endif // TRITONMFMA_PASSES_H
