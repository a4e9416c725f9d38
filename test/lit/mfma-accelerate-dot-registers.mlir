// RUN: mfma-opt %s -split-input-file -mfma-accelerate-dot -verify-diagnostics | filecheck %s --check-prefix=DEFAULT
// RUN: mfma-opt %s -split-input-file -mfma-accelerate-dot=registers-first=true 2>/dev/null | filecheck %s --check-prefix=REGS
// RUN: mfma-opt %s -split-input-file -mfma-accelerate-dot=registers-first=true 2>&1 >/dev/null | filecheck %s --check-prefix=REGS-REMARK

// registers-first (the variant the engine compiles where a kernel's main loop
// spills): the candidates ranked by registers per lane before cycles, and no
// FMA dot where an MFMA instruction fits.

// A 16x16x16 f32 (ieee) dot on 4 warps: by cycles the FMA estimate (64) beats
// v_mfma_f32_16x16x4_f32 (128); registers-first keeps it on MFMA, whose lanes
// hold K-blocks of the operands instead of their whole tiles.
// DEFAULT-LABEL: sym_name = "small_f32_fma_by_cycles"
// DEFAULT-NOT: amd_mfma
// DEFAULT: "tt.return"
// REGS-LABEL: sym_name = "small_f32_fma_by_cycles"
// REGS: "tt.dot"{{.*}} -> tensor<16x16xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 16, 4], isTransposed = true}>>
// REGS-REMARK: 16x16x16 f32*f32 on gfx942: v_mfma_f32_16x16x4_f32 warps=[4,1] kWidth=1: 128 matrix / 64 LDS cycles, 8 ds_read, 12 VGPRs
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<16x16xf32, #opA>, tensor<16x16xf32, #opB>, tensor<16x16xf32, #blocked>) -> tensor<16x16xf32, #blocked>, sym_name = "small_f32_fma_by_cycles"}> ({
  ^bb0(%a: tensor<16x16xf32, #opA>, %b: tensor<16x16xf32, #opB>, %c: tensor<16x16xf32, #blocked>):
    // expected-remark @below {{left as an FMA dot: FMA estimated at 64 cycles per wave, cheaper than v_mfma_f32_16x16x4_f32 warps=[4,1] kWidth=1}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 2 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<16x16xf32, #opA>, tensor<16x16xf32, #opB>, tensor<16x16xf32, #blocked>) -> tensor<16x16xf32, #blocked>
    "tt.return"(%d) : (tensor<16x16xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// A 128x128x32 f16 GEMM tile: the cheapest candidate by cycles also holds the
// fewest registers (no padding, no warp repeating another's block), so
// registers-first chooses the same layouts: the engine then finds the two
// TTGIRs identical and compiles nothing more.
// DEFAULT-LABEL: sym_name = "gemm_same_either_way"
// DEFAULT: "tt.dot"{{.*}} -> tensor<128x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>
// REGS-LABEL: sym_name = "gemm_same_either_way"
// REGS: "tt.dot"{{.*}} -> tensor<128x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>
// REGS-REMARK: 128x128x32 f16*f16 on gfx942: v_mfma_f32_32x32x8_f16 warps=[2,2] kWidth=8 (kpack 2): 512 matrix / 256 LDS cycles, 8 ds_read, 96 VGPRs
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x32xf16, #opA>, tensor<32x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>, sym_name = "gemm_same_either_way"}> ({
  ^bb0(%a: tensor<128x32xf16, #opA>, %b: tensor<32x128xf16, #opB>, %c: tensor<128x128xf32, #blocked>):
    // expected-remark @below {{128x128x32 f16*f16 on gfx942: v_mfma_f32_32x32x8_f16 warps=[2,2] kWidth=8 (kpack 2): 512 matrix / 256 LDS cycles}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x32xf16, #opA>, tensor<32x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>
    "tt.return"(%d) : (tensor<128x128xf32, #blocked>) -> ()
  }) : () -> ()
}
