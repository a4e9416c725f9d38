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

/// Which of gfx942 and gfx950 have an instruction (a bit set).
enum Cdna34On : unsigned {
  On942 = 1u << unsigned(GfxArch::GFX942),
  On950 = 1u << unsigned(GfxArch::GFX950),
};

/// How one arch spells and costs an instruction; a null mnemonic: not there.
struct Issue {
  const char *mnemonic;
  unsigned passes;
};

/// One matrix-core instruction, for every arch at once. gfx90a (CDNA2) keeps
/// the old spellings and its own costs; gfx942 (CDNA3) and gfx950 (CDNA4)
/// spell and cost every instruction they share alike, so one column serves
/// both and `cdna34On` says which of the two have it.
struct MfmaRow {
  MfmaElem a, b;
  unsigned m, n, k, kBase, kPerInstr;
  Issue cdna2;
  Issue cdna34;
  unsigned cdna34On; ///< On942 | On950, either, or 0
  bool scaled = false;
  bool blockScale = false;
};

constexpr Issue kNone = {nullptr, 0};
constexpr unsigned kBoth = On942 | On950;

// The instructions in preference order among equal-cost choices (an arch's
// list is this table's rows on that arch, in this order): within a type pair,
// larger tiles first, then K-doubled (CDNA4) before legacy. Passes: gfx90a
// SIDPFullSpeedModel, gfx942 SIDPGFX940FullSpeedModel, gfx950 the llvm-mca
// gfx950 model and, for f8f6f4 with fp8 operands, AMD's instruction table
// (see the file header).
// clang-format off
const MfmaRow kMfmaRows[] = {
  // a            b              m   n   k    kBase kPerInstr gfx90a {mnemonic, passes}          gfx942/gfx950 {mnemonic, passes}          gfx942/gfx950 on
  {E::F16,        E::F16,        32, 32, 16,  8,    16,       kNone,                             {"v_mfma_f32_32x32x16_f16", 8},           On950},
  {E::F16,        E::F16,        32, 32, 8,   4,    8,        {"v_mfma_f32_32x32x8f16", 16},     {"v_mfma_f32_32x32x8_f16", 8},            kBoth},
  {E::F16,        E::F16,        16, 16, 32,  8,    32,       kNone,                             {"v_mfma_f32_16x16x32_f16", 4},           On950},
  {E::F16,        E::F16,        16, 16, 16,  4,    16,       {"v_mfma_f32_16x16x16f16", 8},     {"v_mfma_f32_16x16x16_f16", 4},           kBoth},
  {E::F16,        E::F16,        4,  64, 64,  4,    4,        {"v_mfma_f32_4x4x4f16", 2},        {"v_mfma_f32_4x4x4_16b_f16", 2},          kBoth},
  {E::F16,        E::F16,        64, 4,  64,  4,    4,        {"v_mfma_f32_4x4x4f16", 2},        {"v_mfma_f32_4x4x4_16b_f16", 2},          kBoth},
  {E::BF16,       E::BF16,       32, 32, 16,  8,    16,       kNone,                             {"v_mfma_f32_32x32x16_bf16", 8},          On950},
  {E::BF16,       E::BF16,       32, 32, 8,   4,    8,        {"v_mfma_f32_32x32x8bf16_1k", 16}, {"v_mfma_f32_32x32x8_bf16", 8},           kBoth},
  {E::BF16,       E::BF16,       16, 16, 32,  8,    32,       kNone,                             {"v_mfma_f32_16x16x32_bf16", 4},          On950},
  {E::BF16,       E::BF16,       16, 16, 16,  4,    16,       {"v_mfma_f32_16x16x16bf16_1k", 8}, {"v_mfma_f32_16x16x16_bf16", 4},          kBoth},
  {E::BF16,       E::BF16,       4,  64, 64,  4,    4,        {"v_mfma_f32_4x4x4bf16_1k", 2},    {"v_mfma_f32_4x4x4_16b_bf16", 2},         kBoth},
  {E::BF16,       E::BF16,       64, 4,  64,  4,    4,        {"v_mfma_f32_4x4x4bf16_1k", 2},    {"v_mfma_f32_4x4x4_16b_bf16", 2},         kBoth},
  {E::I8,         E::I8,         32, 32, 32,  16,   32,       kNone,                             {"v_mfma_i32_32x32x32_i8", 8},            On950},
  {E::I8,         E::I8,         32, 32, 16,  8,    16,       kNone,                             {"v_mfma_i32_32x32x16_i8", 8},            kBoth},
  {E::I8,         E::I8,         32, 32, 8,   4,    8,        {"v_mfma_i32_32x32x8i8", 16},      kNone,                                    0},
  {E::I8,         E::I8,         16, 16, 64,  16,   64,       kNone,                             {"v_mfma_i32_16x16x64_i8", 4},            On950},
  {E::I8,         E::I8,         16, 16, 32,  8,    32,       kNone,                             {"v_mfma_i32_16x16x32_i8", 4},            kBoth},
  {E::I8,         E::I8,         16, 16, 16,  4,    16,       {"v_mfma_i32_16x16x16i8", 8},      kNone,                                    0},
  {E::I8,         E::I8,         4,  64, 64,  4,    4,        {"v_mfma_i32_4x4x4i8", 2},         {"v_mfma_i32_4x4x4_16b_i8", 2},           kBoth},
  {E::I8,         E::I8,         64, 4,  64,  4,    4,        {"v_mfma_i32_4x4x4i8", 2},         {"v_mfma_i32_4x4x4_16b_i8", 2},           kBoth},
  {E::XF32,       E::XF32,       32, 32, 4,   2,    4,        kNone,                             {"v_mfma_f32_32x32x4_xf32", 8},           On942},
  {E::XF32,       E::XF32,       16, 16, 8,   2,    8,        kNone,                             {"v_mfma_f32_16x16x8_xf32", 4},           On942},
  {E::F32,        E::F32,        32, 32, 2,   1,    2,        {"v_mfma_f32_32x32x2f32", 16},     {"v_mfma_f32_32x32x2_f32", 16},           kBoth},
  {E::F32,        E::F32,        16, 16, 4,   1,    4,        {"v_mfma_f32_16x16x4f32", 8},      {"v_mfma_f32_16x16x4_f32", 8},            kBoth},
  {E::F32,        E::F32,        4,  64, 16,  1,    1,        {"v_mfma_f32_4x4x1f32", 2},        {"v_mfma_f32_4x4x1_16b_f32", 2},          kBoth},
  {E::F32,        E::F32,        64, 4,  16,  1,    1,        {"v_mfma_f32_4x4x1f32", 2},        {"v_mfma_f32_4x4x1_16b_f32", 2},          kBoth},
  // fp8 of CDNA3: the FNUZ encodings.
  {E::F8E4M3FNUZ, E::F8E4M3FNUZ, 32, 32, 16,  8,    16,       kNone,                             {"v_mfma_f32_32x32x16_fp8_fp8", 8},       On942},
  {E::F8E4M3FNUZ, E::F8E5M2FNUZ, 32, 32, 16,  8,    16,       kNone,                             {"v_mfma_f32_32x32x16_fp8_bf8", 8},       On942},
  {E::F8E5M2FNUZ, E::F8E4M3FNUZ, 32, 32, 16,  8,    16,       kNone,                             {"v_mfma_f32_32x32x16_bf8_fp8", 8},       On942},
  {E::F8E5M2FNUZ, E::F8E5M2FNUZ, 32, 32, 16,  8,    16,       kNone,                             {"v_mfma_f32_32x32x16_bf8_bf8", 8},       On942},
  {E::F8E4M3FNUZ, E::F8E4M3FNUZ, 16, 16, 32,  8,    32,       kNone,                             {"v_mfma_f32_16x16x32_fp8_fp8", 4},       On942},
  {E::F8E4M3FNUZ, E::F8E5M2FNUZ, 16, 16, 32,  8,    32,       kNone,                             {"v_mfma_f32_16x16x32_fp8_bf8", 4},       On942},
  {E::F8E5M2FNUZ, E::F8E4M3FNUZ, 16, 16, 32,  8,    32,       kNone,                             {"v_mfma_f32_16x16x32_bf8_fp8", 4},       On942},
  {E::F8E5M2FNUZ, E::F8E5M2FNUZ, 16, 16, 32,  8,    32,       kNone,                             {"v_mfma_f32_16x16x32_bf8_bf8", 4},       On942},
  // fp8 of CDNA4: the OCP encodings; f8f6f4 (scaled: through tt.dot_scaled) first.
  {E::F8E4M3FN,   E::F8E4M3FN,   32, 32, 64,  32,   64,       kNone,                             {"v_mfma_f32_32x32x64_f8f6f4", 16},       On950, /*scaled=*/true},
  {E::F8E4M3FN,   E::F8E5M2,     32, 32, 64,  32,   64,       kNone,                             {"v_mfma_f32_32x32x64_f8f6f4", 16},       On950, /*scaled=*/true},
  {E::F8E5M2,     E::F8E4M3FN,   32, 32, 64,  32,   64,       kNone,                             {"v_mfma_f32_32x32x64_f8f6f4", 16},       On950, /*scaled=*/true},
  {E::F8E5M2,     E::F8E5M2,     32, 32, 64,  32,   64,       kNone,                             {"v_mfma_f32_32x32x64_f8f6f4", 16},       On950, /*scaled=*/true},
  {E::F8E4M3FN,   E::F8E4M3FN,   32, 32, 16,  8,    16,       kNone,                             {"v_mfma_f32_32x32x16_fp8_fp8", 8},       On950},
  {E::F8E4M3FN,   E::F8E5M2,     32, 32, 16,  8,    16,       kNone,                             {"v_mfma_f32_32x32x16_fp8_bf8", 8},       On950},
  {E::F8E5M2,     E::F8E4M3FN,   32, 32, 16,  8,    16,       kNone,                             {"v_mfma_f32_32x32x16_bf8_fp8", 8},       On950},
  {E::F8E5M2,     E::F8E5M2,     32, 32, 16,  8,    16,       kNone,                             {"v_mfma_f32_32x32x16_bf8_bf8", 8},       On950},
  {E::F8E4M3FN,   E::F8E4M3FN,   16, 16, 128, 32,   128,      kNone,                             {"v_mfma_f32_16x16x128_f8f6f4", 8},       On950, /*scaled=*/true},
  {E::F8E4M3FN,   E::F8E5M2,     16, 16, 128, 32,   128,      kNone,                             {"v_mfma_f32_16x16x128_f8f6f4", 8},       On950, /*scaled=*/true},
  {E::F8E5M2,     E::F8E4M3FN,   16, 16, 128, 32,   128,      kNone,                             {"v_mfma_f32_16x16x128_f8f6f4", 8},       On950, /*scaled=*/true},
  {E::F8E5M2,     E::F8E5M2,     16, 16, 128, 32,   128,      kNone,                             {"v_mfma_f32_16x16x128_f8f6f4", 8},       On950, /*scaled=*/true},
  {E::F8E4M3FN,   E::F8E4M3FN,   16, 16, 32,  8,    32,       kNone,                             {"v_mfma_f32_16x16x32_fp8_fp8", 4},       On950},
  {E::F8E4M3FN,   E::F8E5M2,     16, 16, 32,  8,    32,       kNone,                             {"v_mfma_f32_16x16x32_fp8_bf8", 4},       On950},
  {E::F8E5M2,     E::F8E4M3FN,   16, 16, 32,  8,    32,       kNone,                             {"v_mfma_f32_16x16x32_bf8_fp8", 4},       On950},
  {E::F8E5M2,     E::F8E5M2,     16, 16, 32,  8,    32,       kNone,                             {"v_mfma_f32_16x16x32_bf8_bf8", 4},       On950},
  // Block-scaled f8f6f4 (CDNA4): issue figures only, never a tt.dot candidate.
  {E::F8E4M3FN,   E::F8E4M3FN,   32, 32, 64,  32,   64,       kNone,                             {"v_mfma_scale_f32_32x32x64_f8f6f4", 16}, On950, /*scaled=*/true, /*blockScale=*/true},
  {E::F8E4M3FN,   E::F8E4M3FN,   16, 16, 128, 32,   128,      kNone,                             {"v_mfma_scale_f32_16x16x128_f8f6f4", 8}, On950, /*scaled=*/true, /*blockScale=*/true},
};
// clang-format on

/// The table's rows on `arch`, as that arch spells and costs them.
SmallVector<MfmaInstr, 0> instrsOn(GfxArch arch) {
  SmallVector<MfmaInstr, 0> instrs;
  for (const MfmaRow &r : kMfmaRows) {
    bool cdna2 = arch == GfxArch::GFX90A;
    const Issue &issue = cdna2 ? r.cdna2 : r.cdna34;
    if (!issue.mnemonic || (!cdna2 && !(r.cdna34On & (1u << unsigned(arch)))))
      continue;
    instrs.push_back({arch, issue.mnemonic, r.a, r.b, r.m, r.n, r.k, r.kBase,
                      r.kPerInstr, issue.passes, r.scaled, r.blockScale});
  }
  return instrs;
}
} // namespace

ArrayRef<MfmaInstr> mlir::triton_mfma::getMfmaInstrs(GfxArch arch) {
  static const SmallVector<MfmaInstr, 0> gfx90a = instrsOn(GfxArch::GFX90A);
  static const SmallVector<MfmaInstr, 0> gfx942 = instrsOn(GfxArch::GFX942);
  static const SmallVector<MfmaInstr, 0> gfx950 = instrsOn(GfxArch::GFX950);
  switch (arch) {
  case GfxArch::GFX90A:
    return gfx90a;
  case GfxArch::GFX942:
    return gfx942;
  case GfxArch::GFX950:
    return gfx950;
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
