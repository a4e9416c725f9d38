//===- MfmaTable.cpp - CDNA matrix-core instructions as data --------------===//
//
// Where the facts come from:
//  * Shapes, operand types and per-lane operand sizes (kBase): the AMD
//    Instinct MI200 (CDNA2), MI300 (CDNA3) and CDNA4 ISA reference guides,
//    chapter "Matrix Arithmetic Instructions", and the operand vector types of
//    the LLVM intrinsics in llvm/include/llvm/IR/IntrinsicsAMDGPU.td (e.g.
//    llvm.amdgcn.mfma.f32.32x32x8f16 takes <4 x half>: kBase 4;
//    llvm.amdgcn.mfma.f32.32x32x16.f16 (gfx950) takes <8 x half>: kBase 8;
//    mfma.i32.32x32x16.i8 (gfx942) takes i64: kBase 8 int8;
//    mfma.scale.f32.32x32x64.f8f6f4 takes <8 x i32>: kBase 32 fp8).
//  * Issue cost in passes (1 pass = 4 cycles): LLVM's scheduling models in
//    llvm/lib/Target/AMDGPU/SISchedule.td: SIDPFullSpeedModel (gfx90a:
//    4x4 = 2 passes, 16x16 = 8, 32x32 = 16) and SIDPGFX940FullSpeedModel
//    (gfx942: 16x16x{8xf32,16,32} = 4, 32x32x{4xf32,8,16} = 8,
//    16x16x{1,4}f32 = 8, 32x32x{1,2}f32 = 16, 4x4 = 2); for gfx950 the
//    resource pressure LLVM reports in llvm/test/tools/llvm-mca/AMDGPU/
//    gfx950.s (16x16x32_f16 = 4, 32x32x16_f16 = 8, 16x16x64_i8 = 4,
//    32x32x32_i8 = 8; the legacy shapes keep their gfx942 cost). For the
//    f8f6f4 instructions with fp8 operands AMD's CDNA3/CDNA4 matrix-core
//    guide (ROCm blog "Matrix Core Programming on AMD CDNA3 and CDNA4",
//    table of MFMA instructions) gives 32 / 64 cycles (16x16x128 /
//    32x32x64): 8 / 16 passes (LLVM's model has a FIXME there and says 4/8).
//    The same table confirms 32x32x8 f16 = 32 cycles and 16x16x16 = 16 on
//    CDNA3/CDNA4, 32x32x2 f32 = 64, 16x16x4 f32 = 32.
//  * The block-scaled family (CDNA4): LLVM's AMDGPU backend defines two,
//    V_MFMA_SCALE_F32_16X16X128_F8F6F4 and V_MFMA_SCALE_F32_32X32X64_F8F6F4
//    (llvm/lib/Target/AMDGPU/VOP3PInstructions.td, one pseudo per operand
//    format pair f8/f6/f4; intrinsics llvm.amdgcn.mfma.scale.f32.
//    {16x16x128,32x32x64}.f8f6f4 in IntrinsicsAMDGPU.td); they issue as the
//    unscaled f8f6f4 instruction of their shape (the scale is applied in the
//    same passes; CDNA4 ISA guide, "Matrix Arithmetic Instructions"). The
//    operand format is not in the mnemonic but in its cbsz/blgp modifiers
//    (0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4): the table gives the fp8 figure,
//    the longest (fp6/fp4 operands issue in half of it: MI355X peaks of
//    10 PFLOP/s FP4/FP6 vs 5 FP8 in the matrix-core guide above), so a
//    stock-vs-ours comparison of the same kernel is unaffected.
//  * Mnemonics: as the AMDGPU backend of Triton 3.9's LLVM prints them
//    (gfx90a keeps the old spellings such as v_mfma_f32_32x32x8f16 and
//    v_mfma_f32_32x32x8bf16_1k; gfx942/gfx950 print v_mfma_f32_32x32x8_f16).
//  * Triton's own choices for reference: third_party/amd/lib/
//    TritonAMDGPUTransforms/MfmaGroup.cpp (same shapes/kBase; it has no cost).
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/MfmaTable.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::triton_mfma;

std::optional<GfxArch> mlir::triton_mfma::parseGfxArch(StringRef text) {
  text.consume_front("hip:");
  StringRef base = text.split(':').first;
  if (base == "gfx90a")
    return GfxArch::GFX90A;
  if (base == "gfx942")
    return GfxArch::GFX942;
  if (base == "gfx950")
    return GfxArch::GFX950;
  return std::nullopt;
}

StringRef mlir::triton_mfma::getArchName(GfxArch arch) {
  switch (arch) {
  case GfxArch::GFX90A:
    return "gfx90a";
  case GfxArch::GFX942:
    return "gfx942";
  case GfxArch::GFX950:
    return "gfx950";
  }
  return "";
}

unsigned mlir::triton_mfma::getMfmaVersion(GfxArch arch) {
  switch (arch) {
  case GfxArch::GFX90A:
    return 2;
  case GfxArch::GFX942:
    return 3;
  case GfxArch::GFX950:
    return 4;
  }
  return 0;
}

StringRef mlir::triton_mfma::getElemName(MfmaElem e) {
  switch (e) {
  case MfmaElem::F64:
    return "f64";
  case MfmaElem::F32:
    return "f32";
  case MfmaElem::XF32:
    return "xf32";
  case MfmaElem::F16:
    return "f16";
  case MfmaElem::BF16:
    return "bf16";
  case MfmaElem::I8:
    return "i8";
  case MfmaElem::F8E4M3FNUZ:
    return "f8E4M3FNUZ";
  case MfmaElem::F8E5M2FNUZ:
    return "f8E5M2FNUZ";
  case MfmaElem::F8E4M3FN:
    return "f8E4M3FN";
  case MfmaElem::F8E5M2:
    return "f8E5M2";
  }
  return "";
}

unsigned mlir::triton_mfma::getElemBits(MfmaElem e) {
  switch (e) {
  case MfmaElem::F64:
    return 64;
  case MfmaElem::F32:
  case MfmaElem::XF32:
    return 32;
  case MfmaElem::F16:
  case MfmaElem::BF16:
    return 16;
  default:
    return 8;
  }
}

bool mlir::triton_mfma::isFp8(MfmaElem e) {
  return e == MfmaElem::F8E4M3FNUZ || e == MfmaElem::F8E5M2FNUZ ||
         e == MfmaElem::F8E4M3FN || e == MfmaElem::F8E5M2;
}

std::optional<MfmaElem> mlir::triton_mfma::classifyElementType(Type t,
                                                               bool tf32) {
  if (t.isF64())
    return MfmaElem::F64;
  if (t.isF32())
    return tf32 ? MfmaElem::XF32 : MfmaElem::F32;
  if (t.isF16())
    return MfmaElem::F16;
  if (t.isBF16())
    return MfmaElem::BF16;
  if (t.isInteger(8))
    return MfmaElem::I8;
  if (isa<Float8E4M3FNUZType>(t))
    return MfmaElem::F8E4M3FNUZ;
  if (isa<Float8E5M2FNUZType>(t))
    return MfmaElem::F8E5M2FNUZ;
  if (isa<Float8E4M3FNType>(t))
    return MfmaElem::F8E4M3FN;
  if (isa<Float8E5M2Type>(t))
    return MfmaElem::F8E5M2;
  return std::nullopt;
}

namespace {
using E = MfmaElem;
using A = GfxArch;

// {arch, mnemonic, a, b, m, n, k, kBase, kPerInstr, passes, scaled}
// Within an arch and a type pair: larger tiles first, then K-doubled before
// legacy (the order breaks cost ties).

// CDNA2 (gfx90a). Passes: SIDPFullSpeedModel.
const MfmaInstr kGfx90a[] = {
    {A::GFX90A, "v_mfma_f32_32x32x8f16", E::F16, E::F16, 32, 32, 8, 4, 8, 16},
    {A::GFX90A, "v_mfma_f32_16x16x16f16", E::F16, E::F16, 16, 16, 16, 4, 16, 8},
    {A::GFX90A, "v_mfma_f32_4x4x4f16", E::F16, E::F16, 4, 64, 64, 4, 4, 2},
    {A::GFX90A, "v_mfma_f32_4x4x4f16", E::F16, E::F16, 64, 4, 64, 4, 4, 2},
    {A::GFX90A, "v_mfma_f32_32x32x8bf16_1k", E::BF16, E::BF16, 32, 32, 8, 4, 8,
     16},
    {A::GFX90A, "v_mfma_f32_16x16x16bf16_1k", E::BF16, E::BF16, 16, 16, 16, 4,
     16, 8},
    {A::GFX90A, "v_mfma_f32_4x4x4bf16_1k", E::BF16, E::BF16, 4, 64, 64, 4, 4,
     2},
    {A::GFX90A, "v_mfma_f32_4x4x4bf16_1k", E::BF16, E::BF16, 64, 4, 64, 4, 4,
     2},
    {A::GFX90A, "v_mfma_i32_32x32x8i8", E::I8, E::I8, 32, 32, 8, 4, 8, 16},
    {A::GFX90A, "v_mfma_i32_16x16x16i8", E::I8, E::I8, 16, 16, 16, 4, 16, 8},
    {A::GFX90A, "v_mfma_i32_4x4x4i8", E::I8, E::I8, 4, 64, 64, 4, 4, 2},
    {A::GFX90A, "v_mfma_i32_4x4x4i8", E::I8, E::I8, 64, 4, 64, 4, 4, 2},
    {A::GFX90A, "v_mfma_f32_32x32x2f32", E::F32, E::F32, 32, 32, 2, 1, 2, 16},
    {A::GFX90A, "v_mfma_f32_16x16x4f32", E::F32, E::F32, 16, 16, 4, 1, 4, 8},
    {A::GFX90A, "v_mfma_f32_4x4x1f32", E::F32, E::F32, 4, 64, 16, 1, 1, 2},
    {A::GFX90A, "v_mfma_f32_4x4x1f32", E::F32, E::F32, 64, 4, 16, 1, 1, 2},
};

// CDNA3 (gfx942). Passes: SIDPGFX940FullSpeedModel.
#define FP8_942(m, n, k, pa, pb, ea, eb, passes)                               \
  {A::GFX942, "v_mfma_f32_" #m "x" #n "x" #k "_" pa "_" pb,                    \
   ea,        eb,                                                              \
   m,         n,                                                               \
   k,         8,                                                               \
   k,         passes}
const MfmaInstr kGfx942[] = {
    {A::GFX942, "v_mfma_f32_32x32x8_f16", E::F16, E::F16, 32, 32, 8, 4, 8, 8},
    {A::GFX942, "v_mfma_f32_16x16x16_f16", E::F16, E::F16, 16, 16, 16, 4, 16,
     4},
    {A::GFX942, "v_mfma_f32_4x4x4_16b_f16", E::F16, E::F16, 4, 64, 64, 4, 4, 2},
    {A::GFX942, "v_mfma_f32_4x4x4_16b_f16", E::F16, E::F16, 64, 4, 64, 4, 4, 2},
    {A::GFX942, "v_mfma_f32_32x32x8_bf16", E::BF16, E::BF16, 32, 32, 8, 4, 8,
     8},
    {A::GFX942, "v_mfma_f32_16x16x16_bf16", E::BF16, E::BF16, 16, 16, 16, 4, 16,
     4},
    {A::GFX942, "v_mfma_f32_4x4x4_16b_bf16", E::BF16, E::BF16, 4, 64, 64, 4, 4,
     2},
    {A::GFX942, "v_mfma_f32_4x4x4_16b_bf16", E::BF16, E::BF16, 64, 4, 64, 4, 4,
     2},
    {A::GFX942, "v_mfma_i32_32x32x16_i8", E::I8, E::I8, 32, 32, 16, 8, 16, 8},
    {A::GFX942, "v_mfma_i32_16x16x32_i8", E::I8, E::I8, 16, 16, 32, 8, 32, 4},
    {A::GFX942, "v_mfma_i32_4x4x4_16b_i8", E::I8, E::I8, 4, 64, 64, 4, 4, 2},
    {A::GFX942, "v_mfma_i32_4x4x4_16b_i8", E::I8, E::I8, 64, 4, 64, 4, 4, 2},
    {A::GFX942, "v_mfma_f32_32x32x4_xf32", E::XF32, E::XF32, 32, 32, 4, 2, 4,
     8},
    {A::GFX942, "v_mfma_f32_16x16x8_xf32", E::XF32, E::XF32, 16, 16, 8, 2, 8,
     4},
    {A::GFX942, "v_mfma_f32_32x32x2_f32", E::F32, E::F32, 32, 32, 2, 1, 2, 16},
    {A::GFX942, "v_mfma_f32_16x16x4_f32", E::F32, E::F32, 16, 16, 4, 1, 4, 8},
    {A::GFX942, "v_mfma_f32_4x4x1_16b_f32", E::F32, E::F32, 4, 64, 16, 1, 1, 2},
    {A::GFX942, "v_mfma_f32_4x4x1_16b_f32", E::F32, E::F32, 64, 4, 16, 1, 1, 2},
    FP8_942(32, 32, 16, "fp8", "fp8", E::F8E4M3FNUZ, E::F8E4M3FNUZ, 8),
    FP8_942(32, 32, 16, "fp8", "bf8", E::F8E4M3FNUZ, E::F8E5M2FNUZ, 8),
    FP8_942(32, 32, 16, "bf8", "fp8", E::F8E5M2FNUZ, E::F8E4M3FNUZ, 8),
    FP8_942(32, 32, 16, "bf8", "bf8", E::F8E5M2FNUZ, E::F8E5M2FNUZ, 8),
    FP8_942(16, 16, 32, "fp8", "fp8", E::F8E4M3FNUZ, E::F8E4M3FNUZ, 4),
    FP8_942(16, 16, 32, "fp8", "bf8", E::F8E4M3FNUZ, E::F8E5M2FNUZ, 4),
    FP8_942(16, 16, 32, "bf8", "fp8", E::F8E5M2FNUZ, E::F8E4M3FNUZ, 4),
    FP8_942(16, 16, 32, "bf8", "bf8", E::F8E5M2FNUZ, E::F8E5M2FNUZ, 4),
};
#undef FP8_942

// CDNA4 (gfx950). Passes: llvm-mca gfx950 model; f8f6f4 with fp8 operands
// from AMD's instruction table (see the file header).
#define FP8_950(m, n, k, pa, pb, ea, eb, passes)                               \
  {A::GFX950, "v_mfma_f32_" #m "x" #n "x" #k "_" pa "_" pb,                    \
   ea,        eb,                                                              \
   m,         n,                                                               \
   k,         8,                                                               \
   k,         passes}
#define F8F6F4_950(m, n, k, ea, eb, passes)                                    \
  {A::GFX950,                                                                  \
   "v_mfma_f32_" #m "x" #n "x" #k "_f8f6f4",                                   \
   ea,                                                                         \
   eb,                                                                         \
   m,                                                                          \
   n,                                                                          \
   k,                                                                          \
   32,                                                                         \
   k,                                                                          \
   passes,                                                                     \
   /*scaled=*/true}
#define SCALE_950(m, n, k, passes)                                             \
  {A::GFX950,                                                                  \
   "v_mfma_scale_f32_" #m "x" #n "x" #k "_f8f6f4",                             \
   E::F8E4M3FN,                                                                \
   E::F8E4M3FN,                                                                \
   m,                                                                          \
   n,                                                                          \
   k,                                                                          \
   32,                                                                         \
   k,                                                                          \
   passes,                                                                     \
   /*scaled=*/true,                                                            \
   /*blockScale=*/true}
const MfmaInstr kGfx950[] = {
    {A::GFX950, "v_mfma_f32_32x32x16_f16", E::F16, E::F16, 32, 32, 16, 8, 16,
     8},
    {A::GFX950, "v_mfma_f32_32x32x8_f16", E::F16, E::F16, 32, 32, 8, 4, 8, 8},
    {A::GFX950, "v_mfma_f32_16x16x32_f16", E::F16, E::F16, 16, 16, 32, 8, 32,
     4},
    {A::GFX950, "v_mfma_f32_16x16x16_f16", E::F16, E::F16, 16, 16, 16, 4, 16,
     4},
    {A::GFX950, "v_mfma_f32_4x4x4_16b_f16", E::F16, E::F16, 4, 64, 64, 4, 4, 2},
    {A::GFX950, "v_mfma_f32_4x4x4_16b_f16", E::F16, E::F16, 64, 4, 64, 4, 4, 2},
    {A::GFX950, "v_mfma_f32_32x32x16_bf16", E::BF16, E::BF16, 32, 32, 16, 8, 16,
     8},
    {A::GFX950, "v_mfma_f32_32x32x8_bf16", E::BF16, E::BF16, 32, 32, 8, 4, 8,
     8},
    {A::GFX950, "v_mfma_f32_16x16x32_bf16", E::BF16, E::BF16, 16, 16, 32, 8, 32,
     4},
    {A::GFX950, "v_mfma_f32_16x16x16_bf16", E::BF16, E::BF16, 16, 16, 16, 4, 16,
     4},
    {A::GFX950, "v_mfma_f32_4x4x4_16b_bf16", E::BF16, E::BF16, 4, 64, 64, 4, 4,
     2},
    {A::GFX950, "v_mfma_f32_4x4x4_16b_bf16", E::BF16, E::BF16, 64, 4, 64, 4, 4,
     2},
    {A::GFX950, "v_mfma_i32_32x32x32_i8", E::I8, E::I8, 32, 32, 32, 16, 32, 8},
    {A::GFX950, "v_mfma_i32_32x32x16_i8", E::I8, E::I8, 32, 32, 16, 8, 16, 8},
    {A::GFX950, "v_mfma_i32_16x16x64_i8", E::I8, E::I8, 16, 16, 64, 16, 64, 4},
    {A::GFX950, "v_mfma_i32_16x16x32_i8", E::I8, E::I8, 16, 16, 32, 8, 32, 4},
    {A::GFX950, "v_mfma_i32_4x4x4_16b_i8", E::I8, E::I8, 4, 64, 64, 4, 4, 2},
    {A::GFX950, "v_mfma_i32_4x4x4_16b_i8", E::I8, E::I8, 64, 4, 64, 4, 4, 2},
    {A::GFX950, "v_mfma_f32_32x32x2_f32", E::F32, E::F32, 32, 32, 2, 1, 2, 16},
    {A::GFX950, "v_mfma_f32_16x16x4_f32", E::F32, E::F32, 16, 16, 4, 1, 4, 8},
    {A::GFX950, "v_mfma_f32_4x4x1_16b_f32", E::F32, E::F32, 4, 64, 16, 1, 1, 2},
    {A::GFX950, "v_mfma_f32_4x4x1_16b_f32", E::F32, E::F32, 64, 4, 16, 1, 1, 2},
    F8F6F4_950(32, 32, 64, E::F8E4M3FN, E::F8E4M3FN, 16),
    F8F6F4_950(32, 32, 64, E::F8E4M3FN, E::F8E5M2, 16),
    F8F6F4_950(32, 32, 64, E::F8E5M2, E::F8E4M3FN, 16),
    F8F6F4_950(32, 32, 64, E::F8E5M2, E::F8E5M2, 16),
    FP8_950(32, 32, 16, "fp8", "fp8", E::F8E4M3FN, E::F8E4M3FN, 8),
    FP8_950(32, 32, 16, "fp8", "bf8", E::F8E4M3FN, E::F8E5M2, 8),
    FP8_950(32, 32, 16, "bf8", "fp8", E::F8E5M2, E::F8E4M3FN, 8),
    FP8_950(32, 32, 16, "bf8", "bf8", E::F8E5M2, E::F8E5M2, 8),
    F8F6F4_950(16, 16, 128, E::F8E4M3FN, E::F8E4M3FN, 8),
    F8F6F4_950(16, 16, 128, E::F8E4M3FN, E::F8E5M2, 8),
    F8F6F4_950(16, 16, 128, E::F8E5M2, E::F8E4M3FN, 8),
    F8F6F4_950(16, 16, 128, E::F8E5M2, E::F8E5M2, 8),
    FP8_950(16, 16, 32, "fp8", "fp8", E::F8E4M3FN, E::F8E4M3FN, 4),
    FP8_950(16, 16, 32, "fp8", "bf8", E::F8E4M3FN, E::F8E5M2, 4),
    FP8_950(16, 16, 32, "bf8", "fp8", E::F8E5M2, E::F8E4M3FN, 4),
    FP8_950(16, 16, 32, "bf8", "bf8", E::F8E5M2, E::F8E5M2, 4),
    SCALE_950(32, 32, 64, 16),
    SCALE_950(16, 16, 128, 8),
};
#undef SCALE_950
#undef FP8_950
#undef F8F6F4_950
} // namespace

ArrayRef<MfmaInstr> mlir::triton_mfma::getMfmaInstrs(GfxArch arch) {
  switch (arch) {
  case GfxArch::GFX90A:
    return kGfx90a;
  case GfxArch::GFX942:
    return kGfx942;
  case GfxArch::GFX950:
    return kGfx950;
  }
  return {};
}

SmallVector<const MfmaInstr *>
mlir::triton_mfma::lookupMfma(GfxArch arch, MfmaElem a, MfmaElem b) {
  SmallVector<const MfmaInstr *> found;
  for (const MfmaInstr &i : getMfmaInstrs(arch))
    if (i.a == a && i.b == b && !i.blockScale)
      found.push_back(&i);
  return found;
}
