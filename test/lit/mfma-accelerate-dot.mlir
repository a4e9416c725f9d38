// RUN: mfma-opt %s -split-input-file -mfma-accelerate-dot -verify-diagnostics | filecheck %s

// mfma-accelerate-dot on single dots: the instruction, warps and kWidth each
// target's table and cost model give (remarks state the cost and runner-up),
// the rewrite (converts around a new tt.dot), element types without a native
// instruction, and FMA fallbacks (no_* cases). Chains are in
// mfma-accelerate-dot-chain.mlir, user overrides in
// mfma-accelerate-dot-overrides.mlir, errors in -invalid.mlir.

// gfx942, 128x128x32 f16: 32x32x8 on a 2x2 warp grid (the square split reads the
// least from LDS), kpack 2 (ds_read_b128). The whole rewrite: C converted to the
// MFMA layout, A and B to dot_op layouts of the MFMA parent (in Triton's order),
// a new tt.dot with the old properties, its result converted back for the old
// users.
// CHECK-LABEL: sym_name = "gemm_f16_gfx942"
// CHECK: %[[C:.+]] = "ttg.convert_layout"(%arg2) : ({{.*}}) -> tensor<128x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>
// CHECK: %[[A:.+]] = "ttg.convert_layout"(%arg0) : ({{.*}}) -> tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 8}>>
// CHECK: %[[B:.+]] = "ttg.convert_layout"(%arg1) : ({{.*}}) -> tensor<32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 8}>>
// CHECK: %[[D:.+]] = "tt.dot"(%[[A]], %[[B]], %[[C]]) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : ({{.*}}) -> tensor<128x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>
// CHECK: %[[R:.+]] = "ttg.convert_layout"(%[[D]]) : ({{.*}}) -> tensor<128x128xf32, #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
// CHECK: "tt.return"(%[[R]])
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x32xf16, #opA>, tensor<32x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>, sym_name = "gemm_f16_gfx942"}> ({
  ^bb0(%a: tensor<128x32xf16, #opA>, %b: tensor<32x128xf16, #opB>, %c: tensor<128x128xf32, #blocked>):
    // expected-remark @below {{128x128x32 f16*f16 on gfx942: v_mfma_f32_32x32x8_f16 warps=[2,2] kWidth=8 (kpack 2): 512 matrix / 256 LDS cycles}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x32xf16, #opA>, tensor<32x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>
    "tt.return"(%d) : (tensor<128x128xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// gfx90a: same tile, MFMA version 2, v_mfma_f32_32x32x8f16 at 64 cycles.
// CHECK-LABEL: sym_name = "gemm_f16_gfx90a"
// CHECK: "tt.dot"{{.*}} -> tensor<128x128xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x32xf16, #opA>, tensor<32x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>, sym_name = "gemm_f16_gfx90a"}> ({
  ^bb0(%a: tensor<128x32xf16, #opA>, %b: tensor<32x128xf16, #opB>, %c: tensor<128x128xf32, #blocked>):
    // expected-remark @below {{v_mfma_f32_32x32x8f16 warps=[2,2] kWidth=8 (kpack 2): 1024 matrix / 256 LDS cycles}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x32xf16, #opA>, tensor<32x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>
    "tt.return"(%d) : (tensor<128x128xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// gfx950: the K-doubled 32x32x16 (twice the work of 32x32x8 in the same 32
// cycles), kBase 8 so kWidth 8 without kpack.
// CHECK-LABEL: sym_name = "gemm_f16_gfx950"
// CHECK: tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = true}>, kWidth = 8}>>
// CHECK: "tt.dot"{{.*}} -> tensor<128x128xf32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = true}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x32xf16, #opA>, tensor<32x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>, sym_name = "gemm_f16_gfx950"}> ({
  ^bb0(%a: tensor<128x32xf16, #opA>, %b: tensor<32x128xf16, #opB>, %c: tensor<128x128xf32, #blocked>):
    // expected-remark @below {{v_mfma_f32_32x32x16_f16 warps=[2,2] kWidth=8: 256 matrix / 256 LDS cycles}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x32xf16, #opA>, tensor<32x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>
    "tt.return"(%d) : (tensor<128x128xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// gfx950 with K = 8: no K-doubled tile divides K, the legacy 32x32x8 does.
// CHECK-LABEL: sym_name = "gemm_f16_k8_gfx950"
// CHECK: "tt.dot"{{.*}} -> tensor<128x128xf32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x8xf16, #opA>, tensor<8x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>, sym_name = "gemm_f16_k8_gfx950"}> ({
  ^bb0(%a: tensor<128x8xf16, #opA>, %b: tensor<8x128xf16, #opB>, %c: tensor<128x128xf32, #blocked>):
    // expected-remark @below {{v_mfma_f32_32x32x8_f16 warps=[2,2] kWidth=4}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x8xf16, #opA>, tensor<8x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>
    "tt.return"(%d) : (tensor<128x128xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// gfx950 bf16: v_mfma_f32_32x32x16_bf16.
// CHECK-LABEL: sym_name = "gemm_bf16_gfx950"
// CHECK: "tt.dot"{{.*}} -> tensor<128x128xf32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = true}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x64xbf16, #opA>, tensor<64x128xbf16, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>, sym_name = "gemm_bf16_gfx950"}> ({
  ^bb0(%a: tensor<128x64xbf16, #opA>, %b: tensor<64x128xbf16, #opB>, %c: tensor<128x128xf32, #blocked>):
    // expected-remark @below {{v_mfma_f32_32x32x16_bf16 warps=[2,2] kWidth=8}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x64xbf16, #opA>, tensor<64x128xbf16, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>
    "tt.return"(%d) : (tensor<128x128xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// gfx90a bf16: the _1k instruction (4 bf16 a lane).
// CHECK-LABEL: sym_name = "gemm_bf16_gfx90a"
// CHECK: "tt.dot"{{.*}} -> tensor<128x128xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x32xbf16, #opA>, tensor<32x128xbf16, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>, sym_name = "gemm_bf16_gfx90a"}> ({
  ^bb0(%a: tensor<128x32xbf16, #opA>, %b: tensor<32x128xbf16, #opB>, %c: tensor<128x128xf32, #blocked>):
    // expected-remark @below {{v_mfma_f32_32x32x8bf16_1k warps=[2,2] kWidth=8 (kpack 2)}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x32xbf16, #opA>, tensor<32x128xbf16, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>
    "tt.return"(%d) : (tensor<128x128xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// A 256x16 tile: 16x16 (a 32-wide tile would be half idle along N), all
// warps along M.
// CHECK-LABEL: sym_name = "gemm_bn16_gfx942"
// CHECK: "tt.dot"{{.*}} -> tensor<256x16xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 16, 16], isTransposed = true}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<256x64xf16, #opA>, tensor<64x16xf16, #opB>, tensor<256x16xf32, #blocked>) -> tensor<256x16xf32, #blocked>, sym_name = "gemm_bn16_gfx942"}> ({
  ^bb0(%a: tensor<256x64xf16, #opA>, %b: tensor<64x16xf16, #opB>, %c: tensor<256x16xf32, #blocked>):
    // expected-remark @below {{v_mfma_f32_16x16x16_f16 warps=[4,1] kWidth=8 (kpack 2): 256 matrix / 320 LDS cycles}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<256x64xf16, #opA>, tensor<64x16xf16, #opB>, tensor<256x16xf32, #blocked>) -> tensor<256x16xf32, #blocked>
    "tt.return"(%d) : (tensor<256x16xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// Decode GEMM, M = 16: 16x16, warps along N.
// CHECK-LABEL: sym_name = "decode_m16_gfx942"
// CHECK: "tt.dot"{{.*}} -> tensor<16x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 4], instrShape = [16, 16, 16], isTransposed = true}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<16x64xf16, #opA>, tensor<64x64xf16, #opB>, tensor<16x64xf32, #blocked>) -> tensor<16x64xf32, #blocked>, sym_name = "decode_m16_gfx942"}> ({
  ^bb0(%a: tensor<16x64xf16, #opA>, %b: tensor<64x64xf16, #opB>, %c: tensor<16x64xf32, #blocked>):
    // expected-remark @below {{v_mfma_f32_16x16x16_f16 warps=[1,4] kWidth=8 (kpack 2): 64 matrix / 128 LDS cycles}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<16x64xf16, #opA>, tensor<64x64xf16, #opB>, tensor<16x64xf32, #blocked>) -> tensor<16x64xf32, #blocked>
    "tt.return"(%d) : (tensor<16x64xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// Decode GEMM, M = 4. Triton picks 4x64 with warps [4, 1]: each wave computes
// the whole 4x64 tile (16 v_mfma_f32_4x4x4_16b, 128 cycles) and reads all of B.
// A 16x16 tile with warps along N costs 4 MFMAs (64 cycles) and a quarter of B
// per wave, the rows past M = 4 being broadcast.
// CHECK-LABEL: sym_name = "decode_m4_gfx942"
// CHECK: "tt.dot"{{.*}} -> tensor<4x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 4], instrShape = [16, 16, 16], isTransposed = true}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<4x64xf16, #opA>, tensor<64x64xf16, #opB>, tensor<4x64xf32, #blocked>) -> tensor<4x64xf32, #blocked>, sym_name = "decode_m4_gfx942"}> ({
  ^bb0(%a: tensor<4x64xf16, #opA>, %b: tensor<64x64xf16, #opB>, %c: tensor<4x64xf32, #blocked>):
    // expected-remark @below {{v_mfma_f32_16x16x16_f16 warps=[1,4] kWidth=8 (kpack 2): 64 matrix / 80 LDS cycles}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<4x64xf16, #opA>, tensor<64x64xf16, #opB>, tensor<4x64xf32, #blocked>) -> tensor<4x64xf32, #blocked>
    "tt.return"(%d) : (tensor<4x64xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// Decode GEMM, M = 1 on gfx90a: Triton leaves it to FMA; the model prefers
// 16x16 (128 cycles and 68 LDS cycles per wave against 260 for FMA, whose
// blocked layout makes every wave read all of B).
// CHECK-LABEL: sym_name = "decode_m1_gfx90a"
// CHECK: "tt.dot"{{.*}} -> tensor<1x64xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [1, 4], instrShape = [16, 16, 16], isTransposed = true}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<1x64xf16, #opA>, tensor<64x64xf16, #opB>, tensor<1x64xf32, #blocked>) -> tensor<1x64xf32, #blocked>, sym_name = "decode_m1_gfx90a"}> ({
  ^bb0(%a: tensor<1x64xf16, #opA>, %b: tensor<64x64xf16, #opB>, %c: tensor<1x64xf32, #blocked>):
    // expected-remark-re @below {{v_mfma_f32_16x16x16f16 warps=[1,4] kWidth=8 (kpack 2): 128 matrix / 68 LDS cycles{{.*}}; FMA 260 cycles; transposed}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<1x64xf16, #opA>, tensor<64x64xf16, #opB>, tensor<1x64xf32, #blocked>) -> tensor<1x64xf32, #blocked>
    "tt.return"(%d) : (tensor<1x64xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// int8: i32 accumulator; gfx942 v_mfma_i32_32x32x16_i8 (kBase 8, kpack 2 = 16
// bytes a read).
// CHECK-LABEL: sym_name = "gemm_i8_gfx942"
// CHECK: "tt.dot"{{.*}} -> tensor<128x128xi32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = true}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x64xi8, #opA>, tensor<64x128xi8, #opB>, tensor<128x128xi32, #blocked>) -> tensor<128x128xi32, #blocked>, sym_name = "gemm_i8_gfx942"}> ({
  ^bb0(%a: tensor<128x64xi8, #opA>, %b: tensor<64x128xi8, #opB>, %c: tensor<128x128xi32, #blocked>):
    // expected-remark @below {{v_mfma_i32_32x32x16_i8 warps=[2,2] kWidth=16 (kpack 2)}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x64xi8, #opA>, tensor<64x128xi8, #opB>, tensor<128x128xi32, #blocked>) -> tensor<128x128xi32, #blocked>
    "tt.return"(%d) : (tensor<128x128xi32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// int8 on gfx950: the K-doubled v_mfma_i32_32x32x32_i8.
// CHECK-LABEL: sym_name = "gemm_i8_gfx950"
// CHECK: "tt.dot"{{.*}} -> tensor<128x128xi32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [32, 32, 32], isTransposed = true}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x64xi8, #opA>, tensor<64x128xi8, #opB>, tensor<128x128xi32, #blocked>) -> tensor<128x128xi32, #blocked>, sym_name = "gemm_i8_gfx950"}> ({
  ^bb0(%a: tensor<128x64xi8, #opA>, %b: tensor<64x128xi8, #opB>, %c: tensor<128x128xi32, #blocked>):
    // expected-remark @below {{v_mfma_i32_32x32x32_i8 warps=[2,2] kWidth=16:}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x64xi8, #opA>, tensor<64x128xi8, #opB>, tensor<128x128xi32, #blocked>) -> tensor<128x128xi32, #blocked>
    "tt.return"(%d) : (tensor<128x128xi32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// f32 with TF32 input precision (inputPrecision = 0) on gfx942: xf32; no kpack
// for 32-bit elements (measured: more ds_writes, no fewer reads).
// CHECK-LABEL: sym_name = "gemm_xf32_gfx942"
// CHECK: "tt.dot"{{.*}} -> tensor<128x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 4], isTransposed = true}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x32xf32, #opA>, tensor<32x128xf32, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>, sym_name = "gemm_xf32_gfx942"}> ({
  ^bb0(%a: tensor<128x32xf32, #opA>, %b: tensor<32x128xf32, #opB>, %c: tensor<128x128xf32, #blocked>):
    // expected-remark @below {{128x128x32 xf32*xf32 on gfx942: v_mfma_f32_32x32x4_xf32 warps=[2,2] kWidth=2:}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x32xf32, #opA>, tensor<32x128xf32, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>
    "tt.return"(%d) : (tensor<128x128xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// f32 with IEEE precision (inputPrecision = 2): the f32 instructions.
// CHECK-LABEL: sym_name = "gemm_f32_ieee_gfx942"
// CHECK: "tt.dot"{{.*}} -> tensor<128x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 2], isTransposed = true}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x32xf32, #opA>, tensor<32x128xf32, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>, sym_name = "gemm_f32_ieee_gfx942"}> ({
  ^bb0(%a: tensor<128x32xf32, #opA>, %b: tensor<32x128xf32, #opB>, %c: tensor<128x128xf32, #blocked>):
    // expected-remark @below {{128x128x32 f32*f32 on gfx942: v_mfma_f32_32x32x2_f32}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 2 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x32xf32, #opA>, tensor<32x128xf32, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>
    "tt.return"(%d) : (tensor<128x128xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// fp8 on gfx942 (FNUZ encodings): v_mfma_f32_32x32x16_fp8_fp8.
// CHECK-LABEL: sym_name = "fp8_gfx942"
// CHECK: tensor<128x64xf8E4M3FNUZ, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = true}>, kWidth = 16}>>
// CHECK: "tt.dot"{{.*}} -> tensor<128x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = true}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x64xf8E4M3FNUZ, #opA>, tensor<64x128xf8E4M3FNUZ, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>, sym_name = "fp8_gfx942"}> ({
  ^bb0(%a: tensor<128x64xf8E4M3FNUZ, #opA>, %b: tensor<64x128xf8E4M3FNUZ, #opB>, %c: tensor<128x128xf32, #blocked>):
    // expected-remark @below {{v_mfma_f32_32x32x16_fp8_fp8 warps=[2,2] kWidth=16 (kpack 2)}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x64xf8E4M3FNUZ, #opA>, tensor<64x128xf8E4M3FNUZ, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>
    "tt.return"(%d) : (tensor<128x128xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// fp8 x bf8 on gfx942: the mixed instruction.
// CHECK-LABEL: sym_name = "fp8_bf8_gfx942"
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x64xf8E4M3FNUZ, #opA>, tensor<64x128xf8E5M2FNUZ, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>, sym_name = "fp8_bf8_gfx942"}> ({
  ^bb0(%a: tensor<128x64xf8E4M3FNUZ, #opA>, %b: tensor<64x128xf8E5M2FNUZ, #opB>, %c: tensor<128x128xf32, #blocked>):
    // expected-remark @below {{v_mfma_f32_32x32x16_fp8_bf8}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x64xf8E4M3FNUZ, #opA>, tensor<64x128xf8E5M2FNUZ, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>
    "tt.return"(%d) : (tensor<128x128xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// fp8 on gfx950 (OCP encodings): v_mfma_f32_32x32x64_f8f6f4 (twice the
// throughput of 32x32x16_fp8_fp8), issued by Triton for tt.dot_scaled without
// scales; 16 fp8 a lane (kWidth 16).
// CHECK-LABEL: sym_name = "fp8_gfx950"
// CHECK: tensor<128x64xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [32, 32, 64], isTransposed = true}>, kWidth = 16}>>
// CHECK: "tt.dot_scaled"(%{{.*}}, %{{.*}}, %{{.*}}) <{a_elem_type = 0 : i32, b_elem_type = 0 : i32, fastMath = false, lhs_k_pack = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, rhs_k_pack = true}>
// CHECK: -> tensor<128x128xf32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [32, 32, 64], isTransposed = true}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x64xf8E4M3FN, #opA>, tensor<64x128xf8E4M3FN, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>, sym_name = "fp8_gfx950"}> ({
  ^bb0(%a: tensor<128x64xf8E4M3FN, #opA>, %b: tensor<64x128xf8E4M3FN, #opB>, %c: tensor<128x128xf32, #blocked>):
    // expected-remark @below {{v_mfma_f32_32x32x64_f8f6f4 warps=[2,2] kWidth=16: 256 matrix}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x64xf8E4M3FN, #opA>, tensor<64x128xf8E4M3FN, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>
    "tt.return"(%d) : (tensor<128x128xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// bf8 x fp8 on gfx950: element type codes E5M2 = 1, E4M3 = 0.
// CHECK-LABEL: sym_name = "bf8_fp8_gfx950"
// CHECK: "tt.dot_scaled"{{.*}}<{a_elem_type = 1 : i32, b_elem_type = 0 : i32
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x64xf8E5M2, #opA>, tensor<64x128xf8E4M3FN, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>, sym_name = "bf8_fp8_gfx950"}> ({
  ^bb0(%a: tensor<128x64xf8E5M2, #opA>, %b: tensor<64x128xf8E4M3FN, #opB>, %c: tensor<128x128xf32, #blocked>):
    // expected-remark @below {{v_mfma_f32_32x32x64_f8f6f4}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x64xf8E5M2, #opA>, tensor<64x128xf8E4M3FN, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>
    "tt.return"(%d) : (tensor<128x128xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// OCP fp8 on gfx942 has no instruction: converted to f16 (exact) in the
// operand layout and computed with the f16 instruction, as Triton does. No
// kpack: the stored run (4 fp8) is a 32-bit read either way.
// CHECK-LABEL: sym_name = "fp8_ocp_gfx942"
// CHECK: %[[A:.+]] = "ttg.convert_layout"(%arg0) : ({{.*}}) -> tensor<128x64xf8E4M3FN, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>
// CHECK: %[[A16:.+]] = "tt.fp_to_fp"(%[[A]]) : ({{.*}}) -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>
// CHECK: "tt.dot"(%[[A16]],
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x64xf8E4M3FN, #opA>, tensor<64x128xf8E4M3FN, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>, sym_name = "fp8_ocp_gfx942"}> ({
  ^bb0(%a: tensor<128x64xf8E4M3FN, #opA>, %b: tensor<64x128xf8E4M3FN, #opB>, %c: tensor<128x128xf32, #blocked>):
    // expected-remark @below {{no f8E4M3FN x f8E4M3FN MFMA on gfx942: computed as f16 (exact conversion); 128x128x64 f8E4M3FN*f8E4M3FN on gfx942: v_mfma_f32_32x32x8_f16}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x64xf8E4M3FN, #opA>, tensor<64x128xf8E4M3FN, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>
    "tt.return"(%d) : (tensor<128x128xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// An f16 accumulator: the MFMA accumulates in f32 (extf before, truncf after).
// CHECK-LABEL: sym_name = "f16_acc_gfx942"
// CHECK: %[[C:.+]] = "ttg.convert_layout"(%arg2) : ({{.*}}) -> tensor<64x64xf16, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>
// CHECK: %[[C32:.+]] = "arith.extf"(%[[C]]) : ({{.*}}) -> tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>
// CHECK: %[[D:.+]] = "tt.dot"({{.*}}, %[[C32]])
// CHECK: %[[D16:.+]] = "arith.truncf"(%[[D]]) : ({{.*}}) -> tensor<64x64xf16, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>
// CHECK: "ttg.convert_layout"(%[[D16]])
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<64x32xf16, #opA>, tensor<32x64xf16, #opB>, tensor<64x64xf16, #blocked>) -> tensor<64x64xf16, #blocked>, sym_name = "f16_acc_gfx942"}> ({
  ^bb0(%a: tensor<64x32xf16, #opA>, %b: tensor<32x64xf16, #opB>, %c: tensor<64x64xf16, #blocked>):
    // expected-remark @below {{v_mfma_f32_32x32x8_f16}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x32xf16, #opA>, tensor<32x64xf16, #opB>, tensor<64x64xf16, #blocked>) -> tensor<64x64xf16, #blocked>
    "tt.return"(%d) : (tensor<64x64xf16, #blocked>) -> ()
  }) : () -> ()
}

// -----

// B as loaded is N-major (order [1, 0]): its runs along K are not contiguous in
// LDS, and gfx90a reads them an element at a time. Warps [1, 4] give each wave
// a quarter of B's columns (and all of A's rows): 48 ds_read per wave against 72
// for [2, 2], the same matrix cycles. (Triton's warp rule picks [1, 4] too.)
// CHECK-LABEL: sym_name = "b_n_major_gfx90a"
// CHECK: "tt.dot"{{.*}} -> tensor<64x128xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [1, 4], instrShape = [32, 32, 8], isTransposed = true}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<64x64xf16, #opA>, tensor<64x128xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>, tensor<64x128xf32, #blocked>) -> tensor<64x128xf32, #blocked>, sym_name = "b_n_major_gfx90a"}> ({
  ^bb0(%a: tensor<64x64xf16, #opA>, %bl: tensor<64x128xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>, %c: tensor<64x128xf32, #blocked>):
    %b = "ttg.convert_layout"(%bl) : (tensor<64x128xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> tensor<64x128xf16, #opB>
    // expected-remark @below {{warps=[1,4] kWidth=8 (kpack 2): 1024 matrix / 384 LDS cycles, 40 ds_read}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x64xf16, #opA>, tensor<64x128xf16, #opB>, tensor<64x128xf32, #blocked>) -> tensor<64x128xf32, #blocked>
    "tt.return"(%d) : (tensor<64x128xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// The same on gfx942, where Triton transposes N-major operands in threads
// before LDS: B reads are full vectors, [1, 4] and [2, 2] cost the same, and the
// tie goes to Triton's split.
// CHECK-LABEL: sym_name = "b_n_major_gfx942"
// CHECK: "tt.dot"{{.*}} -> tensor<64x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 4], instrShape = [32, 32, 8], isTransposed = true}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<64x64xf16, #opA>, tensor<64x128xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>, tensor<64x128xf32, #blocked>) -> tensor<64x128xf32, #blocked>, sym_name = "b_n_major_gfx942"}> ({
  ^bb0(%a: tensor<64x64xf16, #opA>, %bl: tensor<64x128xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>, %c: tensor<64x128xf32, #blocked>):
    %b = "ttg.convert_layout"(%bl) : (tensor<64x128xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> tensor<64x128xf16, #opB>
    // expected-remark @below {{warps=[1,4] kWidth=8 (kpack 2): 512 matrix / 384 LDS cycles, 12 ds_read, 80 VGPRs; runner-up v_mfma_f32_32x32x8_f16 warps=[2,2] kWidth=8 (kpack 2): 512 matrix / 384 LDS cycles, 12 ds_read}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x64xf16, #opA>, tensor<64x128xf16, #opB>, tensor<64x128xf32, #blocked>) -> tensor<64x128xf32, #blocked>
    "tt.return"(%d) : (tensor<64x128xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// Every store of the result is contiguous along M (order = [0, 1]): the
// non-transposed layout, whose lanes hold runs along M, gives vector stores.
// CHECK-LABEL: sym_name = "store_column_major"
// CHECK: "tt.dot"{{.*}} -> tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = false}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<64x64xf16, #opA>, tensor<64x64xf16, #opB>, tensor<64x64xf32, #blocked>, tensor<64x64x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 4], warpsPerCTA = [1, 4], order = [0, 1]}>>) -> (), sym_name = "store_column_major"}> ({
  ^bb0(%a: tensor<64x64xf16, #opA>, %b: tensor<64x64xf16, #opB>, %c: tensor<64x64xf32, #blocked>, %p: tensor<64x64x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 4], warpsPerCTA = [1, 4], order = [0, 1]}>>):
    // expected-remark @below {{not transposed (stores contiguous along M)}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x64xf16, #opA>, tensor<64x64xf16, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>
    %e = "ttg.convert_layout"(%d) : (tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 4], warpsPerCTA = [1, 4], order = [0, 1]}>>
    "tt.store"(%p, %e) <{boundaryCheck = array<i32>, cache = 1 : i32, evict = 1 : i32}> : (tensor<64x64x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 4], warpsPerCTA = [1, 4], order = [0, 1]}>>, tensor<64x64xf32, #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 4], warpsPerCTA = [1, 4], order = [0, 1]}>>) -> ()
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// Batched (rank-3) dot: warps along the batch, as Triton does.
// CHECK-LABEL: sym_name = "batched_gfx942"
// CHECK: "tt.dot"{{.*}} -> tensor<4x64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1, 1], instrShape = [32, 32, 8], isTransposed = true}>>
#blocked = #ttg.blocked<{sizePerThread = [1, 4, 4], threadsPerWarp = [1, 4, 16], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1, 4, 4], threadsPerWarp = [1, 4, 16], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [1, 4, 4], threadsPerWarp = [1, 4, 16], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<4x64x32xf16, #opA>, tensor<4x32x64xf16, #opB>, tensor<4x64x64xf32, #blocked>) -> tensor<4x64x64xf32, #blocked>, sym_name = "batched_gfx942"}> ({
  ^bb0(%a: tensor<4x64x32xf16, #opA>, %b: tensor<4x32x64xf16, #opB>, %c: tensor<4x64x64xf32, #blocked>):
    // expected-remark @below {{4x64x64x32 f16*f16 on gfx942: v_mfma_f32_32x32x8_f16 warps=[4,1,1]}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<4x64x32xf16, #opA>, tensor<4x32x64xf16, #opB>, tensor<4x64x64xf32, #blocked>) -> tensor<4x64x64xf32, #blocked>
    "tt.return"(%d) : (tensor<4x64x64xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// No f16 tile has K <= 4: the dot stays an FMA dot, with the reason.
// CHECK-LABEL: sym_name = "no_mfma_k4_f16"
// CHECK: "tt.dot"(%arg0, %arg1, %arg2){{.*}} -> tensor<64x64xf32, #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<64x4xf16, #opA>, tensor<4x64xf16, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>, sym_name = "no_mfma_k4_f16"}> ({
  ^bb0(%a: tensor<64x4xf16, #opA>, %b: tensor<4x64xf16, #opB>, %c: tensor<64x64xf32, #blocked>):
    // expected-remark @below {{left as an FMA dot: no f16 MFMA tile of gfx942 divides K = 4}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x4xf16, #opA>, tensor<4x64xf16, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>
    "tt.return"(%d) : (tensor<64x64xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// f16 x bf16: no instruction; FMA with both operands upcast to f32.
// CHECK-LABEL: sym_name = "no_mfma_f16_x_bf16"
// CHECK: %[[A:.+]] = "arith.extf"(%arg0)
// CHECK: %[[B:.+]] = "arith.extf"(%arg1)
// CHECK: "tt.dot"(%[[A]], %[[B]], %arg2){{.*}} -> tensor<64x64xf32, #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<64x32xf16, #opA>, tensor<32x64xbf16, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>, sym_name = "no_mfma_f16_x_bf16"}> ({
  ^bb0(%a: tensor<64x32xf16, #opA>, %b: tensor<32x64xbf16, #opB>, %c: tensor<64x64xf32, #blocked>):
    // expected-remark @below {{left as an FMA dot: no MFMA instruction takes f16 x bf16 on gfx942}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x32xf16, #opA>, tensor<32x64xbf16, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>
    "tt.return"(%d) : (tensor<64x64xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// fp8 on gfx90a with K = 4: no fp8 instruction and no f16 tile fits; FMA with
// the operands upcast to f32 (Triton's FMA lowering takes f16/f32).
// CHECK-LABEL: sym_name = "no_mfma_fp8_k4_gfx90a"
// CHECK: %[[A:.+]] = "tt.fp_to_fp"(%arg0)
// CHECK: %[[B:.+]] = "tt.fp_to_fp"(%arg1)
// CHECK: "tt.dot"(%[[A]], %[[B]], %arg2)
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<64x4xf8E4M3FNUZ, #opA>, tensor<4x64xf8E4M3FNUZ, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>, sym_name = "no_mfma_fp8_k4_gfx90a"}> ({
  ^bb0(%a: tensor<64x4xf8E4M3FNUZ, #opA>, %b: tensor<4x64xf8E4M3FNUZ, #opB>, %c: tensor<64x64xf32, #blocked>):
    // expected-remark @below {{left as an FMA dot: no f8E4M3FNUZ x f8E4M3FNUZ MFMA on gfx90a, and as f16: no f16 MFMA tile of gfx90a divides K = 4}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x4xf8E4M3FNUZ, #opA>, tensor<4x64xf8E4M3FNUZ, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>
    "tt.return"(%d) : (tensor<64x64xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// A dot already in an MFMA layout is left alone (no remark).
// CHECK-LABEL: sym_name = "no_change_mfma_already"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: "tt.dot"(%arg0, %arg1, %arg2)
// CHECK-NEXT: "tt.return"
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>, tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>, tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>) -> tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>, sym_name = "no_change_mfma_already"}> ({
  ^bb0(%a: tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>, %b: tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>, %c: tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>):
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>, tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>, tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>) -> tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>
    "tt.return"(%d) : (tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>) -> ()
  }) : () -> ()
}
