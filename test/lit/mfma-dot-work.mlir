// RUN: mfma-opt %s -split-input-file -mfma-dot-work -verify-diagnostics | filecheck %s

// MFMA instructions per wave of every tt.dot, with its innermost loop. The
// pass is an analysis: the IR is unchanged.

// 8 warps along M over a 32-row tile with 32x32x8 instructions: every warp
// repeats the one block row, 1 x 1 x (32 / 8) = 4 per wave (Triton's layout of
// generated seed 851 on gfx90a); 4 x 2 warps with 16x16x16: 1 x 1 x 2.
// CHECK-LABEL: sym_name = "in_loop"
// CHECK-NOT: mfma.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 2, warpsPerCTA = [8, 1], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>, tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 2, warpsPerCTA = [8, 1], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>, tensor<32x32xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [8, 1], instrShape = [32, 32, 8], isTransposed = true}>>, tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 16, 16], isTransposed = true}>, kWidth = 4}>>, tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 16, 16], isTransposed = true}>, kWidth = 4}>>, tensor<32x16xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 16, 16], isTransposed = true}>>, i32) -> (), sym_name = "in_loop", sym_visibility = "public"}> ({
  ^bb0(%a: tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 2, warpsPerCTA = [8, 1], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>, %b: tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 2, warpsPerCTA = [8, 1], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>, %c: tensor<32x32xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [8, 1], instrShape = [32, 32, 8], isTransposed = true}>>, %a2: tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 16, 16], isTransposed = true}>, kWidth = 4}>>, %b2: tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 16, 16], isTransposed = true}>, kWidth = 4}>>, %c2: tensor<32x16xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 16, 16], isTransposed = true}>>, %n: i32):
    %lb = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %st = "arith.constant"() <{value = 1 : i32}> : () -> i32
    %r = "scf.for"(%lb, %n, %st, %c) ({
    ^bb1(%i: i32, %acc: tensor<32x32xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [8, 1], instrShape = [32, 32, 8], isTransposed = true}>>):
      // expected-remark @below {{dot work: loop 0 depth 1, mfma 32x32x8 f16 x f16, 4 per wave}}
      %d = "tt.dot"(%a, %b, %acc) <{inputPrecision = 2 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 2, warpsPerCTA = [8, 1], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>, tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 2, warpsPerCTA = [8, 1], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>, tensor<32x32xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [8, 1], instrShape = [32, 32, 8], isTransposed = true}>>) -> tensor<32x32xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [8, 1], instrShape = [32, 32, 8], isTransposed = true}>>
      "scf.yield"(%d) : (tensor<32x32xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [8, 1], instrShape = [32, 32, 8], isTransposed = true}>>) -> ()
    }) : (i32, i32, i32, tensor<32x32xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [8, 1], instrShape = [32, 32, 8], isTransposed = true}>>) -> tensor<32x32xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [8, 1], instrShape = [32, 32, 8], isTransposed = true}>>
    // expected-remark @below {{dot work: loop -1 depth 0, mfma 16x16x16 f16 x f16, 2 per wave}}
    %e = "tt.dot"(%a2, %b2, %c2) <{inputPrecision = 2 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 16, 16], isTransposed = true}>, kWidth = 4}>>, tensor<32x16xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 16, 16], isTransposed = true}>, kWidth = 4}>>, tensor<32x16xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 16, 16], isTransposed = true}>>) -> tensor<32x16xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 2], instrShape = [16, 16, 16], isTransposed = true}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// A tile larger than the warps cover: 128x64 over 2x2 warps of 32x32x16 fp8
// (gfx942) is 2 x 1 blocks per wave, times 64 / 16 K-steps: 8 per wave.
// CHECK-LABEL: sym_name = "large_tile"
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x64xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = true}>, kWidth = 8}>>, tensor<64x64xf8E5M2FNUZ, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = true}>, kWidth = 8}>>, tensor<128x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = true}>>) -> (), sym_name = "large_tile", sym_visibility = "public"}> ({
  ^bb0(%a: tensor<128x64xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = true}>, kWidth = 8}>>, %b: tensor<64x64xf8E5M2FNUZ, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = true}>, kWidth = 8}>>, %c: tensor<128x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = true}>>):
    // expected-remark @below {{dot work: loop -1 depth 0, mfma 32x32x16 f8E4M3FNUZ x f8E5M2FNUZ, 8 per wave}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 2 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x64xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = true}>, kWidth = 8}>>, tensor<64x64xf8E5M2FNUZ, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = true}>, kWidth = 8}>>, tensor<128x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = true}>>) -> tensor<128x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = true}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// An FMA dot (blocked result): the accumulator elements each lane holds, and
// K. 32x32 over sizePerThread [1, 4] x threadsPerWarp [8, 8] x warps [4, 1]
// (a 32x32 tile): 1 x 4 elements. Not counted: a 4x4 instruction of several
// blocks.
// CHECK-LABEL: sym_name = "not_mfma"
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<32x32xf32, #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>, tensor<32x32xf32, #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>, tensor<32x32xf32, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>, tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 1], instrShape = [64, 4, 4], isTransposed = true}>, kWidth = 4}>>, tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 1], instrShape = [64, 4, 4], isTransposed = true}>, kWidth = 4}>>, tensor<64x16xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 1], instrShape = [64, 4, 4], isTransposed = true}>>) -> (), sym_name = "not_mfma", sym_visibility = "public"}> ({
  ^bb0(%a: tensor<32x32xf32, #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>, %b: tensor<32x32xf32, #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>, %c: tensor<32x32xf32, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>, %a4: tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 1], instrShape = [64, 4, 4], isTransposed = true}>, kWidth = 4}>>, %b4: tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 1], instrShape = [64, 4, 4], isTransposed = true}>, kWidth = 4}>>, %c4: tensor<64x16xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 1], instrShape = [64, 4, 4], isTransposed = true}>>):
    // expected-remark @below {{dot work: loop -1 depth 0, fma f32 x f32, 4 elements x 32 per lane}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 2 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<32x32xf32, #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>, tensor<32x32xf32, #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>, tensor<32x32xf32, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> tensor<32x32xf32, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
    // expected-remark @below {{dot work: loop -1 depth 0, not mfma (instructions of several blocks (4x4) not modelled)}}
    %e = "tt.dot"(%a4, %b4, %c4) <{inputPrecision = 2 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x16xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 1], instrShape = [64, 4, 4], isTransposed = true}>, kWidth = 4}>>, tensor<16x16xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 1], instrShape = [64, 4, 4], isTransposed = true}>, kWidth = 4}>>, tensor<64x16xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 1], instrShape = [64, 4, 4], isTransposed = true}>>) -> tensor<64x16xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [4, 1], instrShape = [64, 4, 4], isTransposed = true}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// The FMA dot's elements per lane over a shape other than the layout's tile
// (4x4 per thread, 8x8 lanes, 4x1 warps: a 128x32 tile). 64x64: along M the
// tile's lanes and warps repeat (4 elements), along N the registers (4 x 2):
// 32 elements (Triton's layout of generated seed 4106 on gfx90a, whose loop
// the compile ran in 1024 FMA instructions). 2x2: fewer rows and columns than
// a lane holds keep only those: 2 x 2.
// CHECK-LABEL: sym_name = "fma_elements"
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>, tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>, tensor<64x64xf32, #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>, tensor<2x16xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>, tensor<16x2xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>, tensor<2x2xf32, #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> (), sym_name = "fma_elements", sym_visibility = "public"}> ({
  ^bb0(%a: tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>, %b: tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>, %c: tensor<64x64xf32, #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>, %a2: tensor<2x16xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>, %b2: tensor<16x2xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>, %c2: tensor<2x2xf32, #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>):
    // expected-remark @below {{dot work: loop -1 depth 0, fma f32 x f32, 32 elements x 32 per lane}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 2 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x32xf32, #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>, tensor<32x64xf32, #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>, tensor<64x64xf32, #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> tensor<64x64xf32, #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
    // expected-remark @below {{dot work: loop -1 depth 0, fma f16 x f16, 4 elements x 16 per lane}}
    %e = "tt.dot"(%a2, %b2, %c2) <{inputPrecision = 2 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<2x16xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>, tensor<16x2xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>, tensor<2x2xf32, #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> tensor<2x2xf32, #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// A tt.dot_scaled of fp8 operands without scales runs on the f8f6f4 MFMA of
// its layout's shape (gfx950): 64x64 over 4 x 1 warps of 32x32x64 is 1 x 2
// blocks per wave, one K-step. With scale operands it is not counted.
// CHECK-LABEL: sym_name = "scaled"
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 64], isTransposed = true}>, kWidth = 16}>>, tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 64], isTransposed = true}>, kWidth = 16}>>, tensor<64x64xf32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 64], isTransposed = true}>>, tensor<64x2xi8, #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [64, 1], warpsPerCTA = [4, 1], order = [1, 0]}>>, tensor<64x2xi8, #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [64, 1], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> (), sym_name = "scaled", sym_visibility = "public"}> ({
  ^bb0(%a: tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 64], isTransposed = true}>, kWidth = 16}>>, %b: tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 64], isTransposed = true}>, kWidth = 16}>>, %c: tensor<64x64xf32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 64], isTransposed = true}>>, %sa: tensor<64x2xi8, #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [64, 1], warpsPerCTA = [4, 1], order = [1, 0]}>>, %sb: tensor<64x2xi8, #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [64, 1], warpsPerCTA = [4, 1], order = [1, 0]}>>):
    // expected-remark @below {{dot work: loop -1 depth 0, mfma 32x32x64 f8E5M2 x f8E5M2, 2 per wave}}
    %d = "tt.dot_scaled"(%a, %b, %c) <{a_elem_type = 1 : i32, b_elem_type = 1 : i32, fastMath = false, lhs_k_pack = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, rhs_k_pack = true}> : (tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 64], isTransposed = true}>, kWidth = 16}>>, tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 64], isTransposed = true}>, kWidth = 16}>>, tensor<64x64xf32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 64], isTransposed = true}>>) -> tensor<64x64xf32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 64], isTransposed = true}>>
    // expected-remark @below {{dot work: loop -1 depth 0, not mfma (scaled operands)}}
    %e = "tt.dot_scaled"(%a, %b, %c, %sa, %sb) <{a_elem_type = 1 : i32, b_elem_type = 1 : i32, fastMath = false, lhs_k_pack = true, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>, rhs_k_pack = true}> : (tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 64], isTransposed = true}>, kWidth = 16}>>, tensor<64x64xf8E5M2, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 64], isTransposed = true}>, kWidth = 16}>>, tensor<64x64xf32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 64], isTransposed = true}>>, tensor<64x2xi8, #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [64, 1], warpsPerCTA = [4, 1], order = [1, 0]}>>, tensor<64x2xi8, #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [64, 1], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> tensor<64x64xf32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 64], isTransposed = true}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}
