//===- MfmaTable.h - CDNA matrix-core instructions as data ------*- C++ -*-===//
//
// The MFMA (matrix fused multiply-add) instructions of CDNA2 (gfx90a), CDNA3
// (gfx942) and CDNA4 (gfx950) that a `tt.dot` can be lowered to, with what a
// layout/instruction choice needs to know about each: the tile it computes
// (M x N x K, as Triton's `#ttg.amd_mfma` instrShape spells it), the number of
// A/B elements a lane feeds per instruction (kBase), its issue cost in cycles,
// and the registers it occupies. Sources are cited in MfmaTable.cpp.
//
// Shapes follow Triton's convention: a tile is what one `#ttg.amd_mfma`
// instrShape describes. For the 4x64 / 64x4 tiles Triton issues the
// 16-block `v_mfma_*_4x4x4_16b_*` instruction K/kPerInstr times per tile
// (kPerInstr = K of one hardware instruction), so a tile's cost is that
// many instructions.
//
//===----------------------------------------------------------------------===//
#ifndef TRITONMFMA_MFMATABLE_H
#define TRITONMFMA_MFMATABLE_H

#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::triton_mfma {

/// The CDNA targets the table covers.
enum class GfxArch { GFX90A, GFX942, GFX950 };

/// "gfx942" or Triton's module target "hip:gfx942" (a feature suffix such as
/// ":sramecc+" is ignored). nullopt for anything else (gfx908, RDNA, cuda).
std::optional<GfxArch> parseGfxArch(StringRef text);
StringRef getArchName(GfxArch arch);
/// `version` of `#ttg.amd_mfma` for the target: 2 (CDNA2), 3, 4.
unsigned getMfmaVersion(GfxArch arch);

/// Input element kinds of the matrix cores. The fp8 kinds are distinct per
/// encoding: CDNA3 takes the FNUZ variants, CDNA4 the OCP ones.
enum class MfmaElem {
  F64,
  F32,
  XF32, ///< f32 inputs with TF32 input precision (CDNA3 only)
  F16,
  BF16,
  I8,
  F8E4M3FNUZ, ///< Triton fp8e4b8
  F8E5M2FNUZ, ///< Triton fp8e5b16
  F8E4M3FN,   ///< Triton fp8e4nv (OCP)
  F8E5M2,     ///< Triton fp8e5 (OCP)
};
StringRef getElemName(MfmaElem elem);
unsigned getElemBits(MfmaElem elem);
bool isFp8(MfmaElem elem);
/// Classifies an element type of our MLIR (f16, bf16, f32, i8, f8E4M3FNUZ...).
/// `tf32` selects XF32 for f32 (the dot's inputPrecision is tf32).
std::optional<MfmaElem> classifyElementType(Type type, bool tf32 = false);

struct MfmaInstr {
  GfxArch arch;
  const char *mnemonic; ///< as the AMDGPU backend prints it in amdgcn
  MfmaElem a, b;
  unsigned m, n, k;   ///< tile (Triton instrShape)
  unsigned kBase;     ///< A (and B) elements per lane per hardware instruction
  unsigned kPerInstr; ///< K of one hardware instruction (== k except 4x64/64x4)
  unsigned passes;    ///< issue cost of one hardware instruction; 4 cycles each
  /// v_mfma_*_f8f6f4 (CDNA4): Triton emits it through `tt.dot_scaled`.
  bool scaled = false;
  /// v_mfma_scale_*_f8f6f4 (CDNA4): the f8f6f4 instruction with E8M0 block
  /// scales, what Triton's lowering emits for a `tt.dot_scaled` that has
  /// scales (mxfp4/mxfp8). Issue figures only: never a candidate for a
  /// `tt.dot` (lookupMfma leaves it out).
  bool blockScale = false;

  unsigned instrsPerTile() const { return k / kPerInstr; }
  /// Matrix-pipe cycles of one tile (all its hardware instructions).
  unsigned tileCycles() const { return instrsPerTile() * passes * 4; }
  /// Multiply-adds per matrix-pipe cycle (the throughput figure the cost
  /// model compares).
  double macsPerCycle() const {
    return double(m) * n * k / double(tileCycles());
  }
  bool isIntAcc() const { return a == MfmaElem::I8; }
  bool isF64() const { return a == MfmaElem::F64; }
  /// 32-bit registers per lane for the A (or B) operand of one hardware
  /// instruction.
  unsigned operandVgprs() const {
    return std::max(1u, kBase * getElemBits(a) / 32);
  }
  /// 32-bit registers per lane of the accumulator tile.
  unsigned accVgprs() const { return m * n / 64 * (isF64() ? 2 : 1); }
  bool isSmallTile() const { return m == 4 || n == 4; }
};

/// Every instruction the table has for `arch`, in preference order among
/// equal-cost choices: larger tiles first, K-doubled (CDNA4) before legacy.
ArrayRef<MfmaInstr> getMfmaInstrs(GfxArch arch);
/// Instructions of `arch` for inputs (a, b), any shape, without the
/// block-scaled ones (a `tt.dot` cannot use them).
SmallVector<const MfmaInstr *> lookupMfma(GfxArch arch, MfmaElem a, MfmaElem b);

} // namespace mlir::triton_mfma

#endif // TRITONMFMA_MFMATABLE_H
