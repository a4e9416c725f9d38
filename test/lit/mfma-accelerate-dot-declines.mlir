// Inputs mfma-accelerate-dot declines: dots it does not lower (f64, tt.dot_scaled),
// targets outside its instruction table, waves of 32. The module is left
// unchanged with a remark "mfma-accelerate-dot declined: ..."; in a compile the
// hook then runs Triton's own accelerate_matmul in the pass's place (tested in
// test/python/test_accelerate_dot.py).
// RUN: mfma-opt %s -split-input-file -mfma-accelerate-dot -verify-diagnostics | filecheck %s

// CHECK-LABEL: sym_name = "no_f64"
// CHECK-NOT: amd_mfma
// CHECK: "tt.dot"
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
// expected-remark @below {{mfma-accelerate-dot declined: an f64 dot at}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<64x16xf64, #opA>, tensor<16x64xf64, #opB>, tensor<64x64xf64, #blocked>) -> tensor<64x64xf64, #blocked>, sym_name = "no_f64"}> ({
  ^bb0(%a: tensor<64x16xf64, #opA>, %b: tensor<16x64xf64, #opB>, %c: tensor<64x64xf64, #blocked>):
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x16xf64, #opA>, tensor<16x64xf64, #opB>, tensor<64x64xf64, #blocked>) -> tensor<64x64xf64, #blocked>
    "tt.return"(%d) : (tensor<64x64xf64, #blocked>) -> ()
  }) : () -> ()
}

// -----

// CHECK-LABEL: sym_name = "no_gfx1100"
// CHECK-NOT: amd_mfma
// CHECK: "tt.dot"
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
// expected-remark @below {{mfma-accelerate-dot declined: target hip:gfx1100 (not gfx90a, gfx942 or gfx950)}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1100", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<64x32xf16, #opA>, tensor<32x64xf16, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>, sym_name = "no_gfx1100"}> ({
  ^bb0(%a: tensor<64x32xf16, #opA>, %b: tensor<32x64xf16, #opB>, %c: tensor<64x64xf32, #blocked>):
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x32xf16, #opA>, tensor<32x64xf16, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>
    "tt.return"(%d) : (tensor<64x64xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// CHECK-LABEL: sym_name = "no_gfx908"
// CHECK-NOT: amd_mfma
// CHECK: "tt.dot"
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
// expected-remark @below {{mfma-accelerate-dot declined: target hip:gfx908 (not gfx90a, gfx942 or gfx950)}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx908", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<64x32xf16, #opA>, tensor<32x64xf16, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>, sym_name = "no_gfx908"}> ({
  ^bb0(%a: tensor<64x32xf16, #opA>, %b: tensor<32x64xf16, #opB>, %c: tensor<64x64xf32, #blocked>):
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x32xf16, #opA>, tensor<32x64xf16, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>
    "tt.return"(%d) : (tensor<64x64xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// CHECK-LABEL: sym_name = "no_wave32"
// CHECK-NOT: amd_mfma
// CHECK: "tt.dot"
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
// expected-remark @below {{mfma-accelerate-dot declined: waves of 32 threads (CDNA MFMA needs 64)}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 32 : i32} {
  "tt.func"() <{function_type = (tensor<64x32xf16, #opA>, tensor<32x64xf16, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>, sym_name = "no_wave32"}> ({
  ^bb0(%a: tensor<64x32xf16, #opA>, %b: tensor<32x64xf16, #opB>, %c: tensor<64x64xf32, #blocked>):
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x32xf16, #opA>, tensor<32x64xf16, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>
    "tt.return"(%d) : (tensor<64x64xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// CHECK-LABEL: sym_name = "no_dot_scaled"
// CHECK-NOT: amd_mfma
// CHECK: "tt.dot_scaled"
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
// expected-remark @below {{mfma-accelerate-dot declined: a tt.dot_scaled at}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<64x64xf8E4M3FN, #opA>, tensor<64x64xf8E4M3FN, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>, sym_name = "no_dot_scaled"}> ({
  ^bb0(%a: tensor<64x64xf8E4M3FN, #opA>, %b: tensor<64x64xf8E4M3FN, #opB>, %c: tensor<64x64xf32, #blocked>):
    %d = "tt.dot_scaled"(%a, %b, %c) <{a_elem_type = 0 : i32, b_elem_type = 0 : i32, fastMath = false, lhs_k_pack = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, rhs_k_pack = true}> : (tensor<64x64xf8E4M3FN, #opA>, tensor<64x64xf8E4M3FN, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>
    "tt.return"(%d) : (tensor<64x64xf32, #blocked>) -> ()
  }) : () -> ()
}
