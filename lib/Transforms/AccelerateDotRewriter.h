//===- AccelerateDotRewriter.h - mfma-accelerate-dot: rewrite -*- C++ -*-===//
//
// Step 4 of mfma-accelerate-dot (AccelerateDot.cpp's header): a dot rewritten
// as decided (AccelerateDotChooser.h): its operands converted to the MFMA
// layouts and cast to the instruction's element types, the new tt.dot or
// tt.dot_scaled, its result converted back; or an FMA dot's operands upcast.
// Apart because it is the only part of the pass that changes IR.
//
//===----------------------------------------------------------------------===//
#ifndef TRITONMFMA_TRANSFORMS_ACCELERATEDOTREWRITER_H
#define TRITONMFMA_TRANSFORMS_ACCELERATEDOTREWRITER_H

#include "AccelerateDotChooser.h"

namespace mlir::triton_mfma::accelerate_dot {

/// MFMA dot: replaces `s.op` with a dot in the layouts `d` chose on `arch`.
void rewriteMfma(DotSite &s, const Decision &d, GfxArch arch);

/// FMA dot: Triton's FMA lowering wants f16 or f32 operands; others are
/// upcast to f32 in their current layout (as Triton's pass does).
/// Operands of different float types are both upcast.
/// Returns whether it cast an operand.
bool rewriteFma(DotSite &s);

} // namespace mlir::triton_mfma::accelerate_dot

#endif // TRITONMFMA_TRANSFORMS_ACCELERATEDOTREWRITER_H
