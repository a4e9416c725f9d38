// Inputs mfma-accelerate-dot refuses, with an error (the pass fails; in a
// compile the hook then falls back to stock Triton for the kernel): malformed
// IR (a dot without ttg.num-warps) and bad option values. Never a crash. (What
// it declines instead is in mfma-accelerate-dot-declines.mlir.)
// RUN: mfma-opt %s -split-input-file -mfma-accelerate-dot -verify-diagnostics
// RUN: not mfma-opt %s -split-input-file -mfma-accelerate-dot=matrix-instr-nonkdim=8 2>&1 | filecheck %s --check-prefix=NONKDIM
// RUN: not mfma-opt %s -split-input-file -mfma-accelerate-dot=kpack=4 2>&1 | filecheck %s --check-prefix=KPACK

// NONKDIM: error: matrix-instr-nonkdim must be 0, 4, 16 or 32, not 8
// KPACK: error: kpack must be 0, 1 or 2, not 4



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
