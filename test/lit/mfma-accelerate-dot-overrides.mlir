// RUN: mfma-opt %s -split-input-file -mfma-accelerate-dot 2>/dev/null | filecheck %s --check-prefix=AUTO
// RUN: mfma-opt %s -split-input-file -mfma-accelerate-dot=matrix-instr-nonkdim=16 2>/dev/null | filecheck %s --check-prefix=NK16
// RUN: mfma-opt %s -split-input-file -mfma-accelerate-dot=matrix-instr-nonkdim=32 2>/dev/null | filecheck %s --check-prefix=NK32
// RUN: mfma-opt %s -split-input-file -mfma-accelerate-dot=matrix-instr-nonkdim=4 2>/dev/null | filecheck %s --check-prefix=NK4
// RUN: mfma-opt %s -split-input-file -mfma-accelerate-dot=matrix-instr-nonkdim=4 2>&1 >/dev/null | filecheck %s --check-prefix=NK4-REMARK
// RUN: mfma-opt %s -split-input-file -mfma-accelerate-dot=kpack=1 2>/dev/null | filecheck %s --check-prefix=KP1
// RUN: mfma-opt %s -split-input-file -mfma-accelerate-dot=kpack=2 2>/dev/null | filecheck %s --check-prefix=KP2

// User overrides (Triton's matrix_instr_nonkdim and kpack, arch-independent):
// the same three dots under each setting. AUTO is the cost model's choice.
// nonkdim 4 selects the 4x64 / 64x4 tiles (16-block v_mfma_*_4x4x4_16b_*);
// kpack 2 on gfx950 is taken as 1, as Triton 3.9 does.

// gfx942, 128x128x32 f16. nonkdim 4 cannot tile K = 32 (a 4x64 tile takes K = 64):
// FMA, with the reason.
// AUTO-LABEL: sym_name = "gemm_128x128x32"
// AUTO: tensor<128x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>
// AUTO: kWidth = 8
// NK16-LABEL: sym_name = "gemm_128x128x32"
// NK16: "tt.dot"{{.*}} -> tensor<128x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16, 16], isTransposed = true}>>
// NK32-LABEL: sym_name = "gemm_128x128x32"
// NK32: "tt.dot"{{.*}} -> tensor<128x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>
// NK4-LABEL: sym_name = "gemm_128x128x32"
// NK4: "tt.dot"(%arg0, %arg1, %arg2){{.*}} -> tensor<128x128xf32, #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
// NK4-REMARK: left as an FMA dot: no f16 MFMA tile of gfx942 divides K = 32 with matrix-instr-nonkdim = 4
// KP1-LABEL: sym_name = "gemm_128x128x32"
// KP1: tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>
// KP2-LABEL: sym_name = "gemm_128x128x32"
// KP2: tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 8}>>
// CHECK-LABEL: sym_name = "gemm_128x128x32"
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x32xf16, #opA>, tensor<32x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>, sym_name = "gemm_128x128x32"}> ({
  ^bb0(%a: tensor<128x32xf16, #opA>, %b: tensor<32x128xf16, #opB>, %c: tensor<128x128xf32, #blocked>):
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x32xf16, #opA>, tensor<32x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>
    "tt.return"(%d) : (tensor<128x128xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// Decode GEMM, M = 4, gfx942: 16x16 by default; nonkdim 4 gives the 4x64 tile
// (Triton's default here; every warp split costs the same, each wave computing
// the whole 4x64 tile, and ties go to Triton's split), nonkdim 32 pads M to 32.
// AUTO-LABEL: sym_name = "decode_m4"
// AUTO: tensor<4x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 4], instrShape = [16, 16, 16], isTransposed = true}>>
// NK16-LABEL: sym_name = "decode_m4"
// NK16: "tt.dot"{{.*}} -> tensor<4x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 4], instrShape = [16, 16, 16], isTransposed = true}>>
// NK32-LABEL: sym_name = "decode_m4"
// NK32: "tt.dot"{{.*}} -> tensor<4x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>
// NK4-LABEL: sym_name = "decode_m4"
// NK4: tensor<4x64xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [4, 64, 64], isTransposed = true}>, kWidth = 4}>>
// NK4: "tt.dot"{{.*}} -> tensor<4x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [4, 64, 64], isTransposed = true}>>
// NK4-REMARK: 4x64x64 f16*f16 on gfx942: v_mfma_f32_4x4x4_16b_f16 warps=[4,1] kWidth=4: 128 matrix
// CHECK-LABEL: sym_name = "decode_m4"
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<4x64xf16, #opA>, tensor<64x64xf16, #opB>, tensor<4x64xf32, #blocked>) -> tensor<4x64xf32, #blocked>, sym_name = "decode_m4"}> ({
  ^bb0(%a: tensor<4x64xf16, #opA>, %b: tensor<64x64xf16, #opB>, %c: tensor<4x64xf32, #blocked>):
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<4x64xf16, #opA>, tensor<64x64xf16, #opB>, tensor<4x64xf32, #blocked>) -> tensor<4x64xf32, #blocked>
    "tt.return"(%d) : (tensor<4x64xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// N = 4 (a GEMV-like tile), gfx950: 16x16x32 along M by default; nonkdim 4
// gives the 64x4 tile; kpack 2 is ignored on gfx950 (kWidth stays kBase = 8).
// AUTO-LABEL: sym_name = "tall_n4_gfx950"
// AUTO: tensor<64x4xf32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [16, 16, 32], isTransposed = true}>>
// NK4-LABEL: sym_name = "tall_n4_gfx950"
// NK4: "tt.dot"{{.*}} -> tensor<64x4xf32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [64, 4, 64], isTransposed = true}>>
// NK4-REMARK: 64x4x64 f16*f16 on gfx950: v_mfma_f32_4x4x4_16b_f16 warps=[4,1] kWidth=4
// KP2-LABEL: sym_name = "tall_n4_gfx950"
// KP2: kWidth = 8
// KP2: tensor<64x4xf32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [16, 16, 32], isTransposed = true}>>
// CHECK-LABEL: sym_name = "tall_n4_gfx950"
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<64x64xf16, #opA>, tensor<64x4xf16, #opB>, tensor<64x4xf32, #blocked>) -> tensor<64x4xf32, #blocked>, sym_name = "tall_n4_gfx950"}> ({
  ^bb0(%a: tensor<64x64xf16, #opA>, %b: tensor<64x4xf16, #opB>, %c: tensor<64x4xf32, #blocked>):
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x64xf16, #opA>, tensor<64x4xf16, #opB>, tensor<64x4xf32, #blocked>) -> tensor<64x4xf32, #blocked>
    "tt.return"(%d) : (tensor<64x4xf32, #blocked>) -> ()
  }) : () -> ()
}
