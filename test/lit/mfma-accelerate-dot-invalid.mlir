// Inputs mfma-accelerate-dot refuses, with an error (the pass fails; in a
// compile the hook then falls back to stock Triton for the kernel): dots it
// does not handle (f64, tt.dot_scaled), targets outside the instruction table,
// waves of 32, and bad option values. Never a crash.
// RUN: mfma-opt %s -split-input-file -mfma-accelerate-dot -verify-diagnostics
// RUN: not mfma-opt %s -split-input-file -mfma-accelerate-dot=matrix-instr-nonkdim=8 2>&1 | filecheck %s --check-prefix=NONKDIM
// RUN: not mfma-opt %s -split-input-file -mfma-accelerate-dot=kpack=4 2>&1 | filecheck %s --check-prefix=KPACK

// NONKDIM: error: matrix-instr-nonkdim must be 0, 4, 16 or 32, not 8
// KPACK: error: kpack must be 0, 1 or 2, not 4

// CHECK-LABEL: sym_name = "no_f64"
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<64x16xf64, #opA>, tensor<16x64xf64, #opB>, tensor<64x64xf64, #blocked>) -> tensor<64x64xf64, #blocked>, sym_name = "no_f64"}> ({
  ^bb0(%a: tensor<64x16xf64, #opA>, %b: tensor<16x64xf64, #opB>, %c: tensor<64x64xf64, #blocked>):
    // expected-error @below {{f64 dots are not handled by mfma-accelerate-dot; use Triton's accelerate_matmul}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x16xf64, #opA>, tensor<16x64xf64, #opB>, tensor<64x64xf64, #blocked>) -> tensor<64x64xf64, #blocked>
    "tt.return"(%d) : (tensor<64x64xf64, #blocked>) -> ()
  }) : () -> ()
}

// -----

// CHECK-LABEL: sym_name = "no_gfx1100"
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
// expected-error @below {{target hip:gfx1100 is not gfx90a, gfx942 or gfx950}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1100", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<64x32xf16, #opA>, tensor<32x64xf16, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>, sym_name = "no_gfx1100"}> ({
  ^bb0(%a: tensor<64x32xf16, #opA>, %b: tensor<32x64xf16, #opB>, %c: tensor<64x64xf32, #blocked>):
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x32xf16, #opA>, tensor<32x64xf16, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>
    "tt.return"(%d) : (tensor<64x64xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// CHECK-LABEL: sym_name = "no_gfx908"
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
// expected-error @below {{target hip:gfx908 is not gfx90a, gfx942 or gfx950}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx908", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<64x32xf16, #opA>, tensor<32x64xf16, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>, sym_name = "no_gfx908"}> ({
  ^bb0(%a: tensor<64x32xf16, #opA>, %b: tensor<32x64xf16, #opB>, %c: tensor<64x64xf32, #blocked>):
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x32xf16, #opA>, tensor<32x64xf16, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>
    "tt.return"(%d) : (tensor<64x64xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// CHECK-LABEL: sym_name = "no_wave32"
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
// expected-error @below {{mfma-accelerate-dot needs "ttg.threads-per-warp" = 64}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 32 : i32} {
  "tt.func"() <{function_type = (tensor<64x32xf16, #opA>, tensor<32x64xf16, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>, sym_name = "no_wave32"}> ({
  ^bb0(%a: tensor<64x32xf16, #opA>, %b: tensor<32x64xf16, #opB>, %c: tensor<64x64xf32, #blocked>):
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x32xf16, #opA>, tensor<32x64xf16, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>
    "tt.return"(%d) : (tensor<64x64xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// CHECK-LABEL: sym_name = "no_dot_scaled"
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<64x64xf8E4M3FN, #opA>, tensor<64x64xf8E4M3FN, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>, sym_name = "no_dot_scaled"}> ({
  ^bb0(%a: tensor<64x64xf8E4M3FN, #opA>, %b: tensor<64x64xf8E4M3FN, #opB>, %c: tensor<64x64xf32, #blocked>):
    // expected-error @below {{tt.dot_scaled is not handled by mfma-accelerate-dot; use Triton's accelerate_matmul}}
    %d = "tt.dot_scaled"(%a, %b, %c) <{a_elem_type = 0 : i32, b_elem_type = 0 : i32, fastMath = false, lhs_k_pack = true, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, rhs_k_pack = true}> : (tensor<64x64xf8E4M3FN, #opA>, tensor<64x64xf8E4M3FN, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>
    "tt.return"(%d) : (tensor<64x64xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// CHECK-LABEL: sym_name = "no_num_warps"
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<64x32xf16, #opA>, tensor<32x64xf16, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>, sym_name = "no_num_warps"}> ({
  ^bb0(%a: tensor<64x32xf16, #opA>, %b: tensor<32x64xf16, #opB>, %c: tensor<64x64xf32, #blocked>):
    // expected-error @below {{no power-of-two ttg.num-warps for this dot}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x32xf16, #opA>, tensor<32x64xf16, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>
    "tt.return"(%d) : (tensor<64x64xf32, #blocked>) -> ()
  }) : () -> ()
}
