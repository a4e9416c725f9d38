// RUN: mfma-opt %s -split-input-file -mfma-stream-pipeline -verify-diagnostics | filecheck %s

// Input Triton would reject never crashes the pass: malformed loops (no
// terminator, missing step, empty region) get a remark and stay as they are.

// CHECK-LABEL: sym_name = "no_malformed_loops"
// CHECK-NOT: "ttg.local_alloc"
// expected-remark @below {{mfma-stream-pipeline declined: no loop stream-pipelined; Triton's loop pipeliner runs instead}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (i32) -> (), sym_name = "no_malformed_loops", sym_visibility = "public"}> ({
  ^bb0(%n: i32):
    %c0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %c1 = "arith.constant"() <{value = 1 : i32}> : () -> i32
    // expected-remark @below {{loop not stream-pipelined: malformed scf.for}}
    "scf.for"(%c0, %n, %c1) ({
    ^bb0(%i: i32):
    }) : (i32, i32, i32) -> ()
    // expected-remark @below {{loop not stream-pipelined: malformed scf.for}}
    "scf.for"(%c0, %n) ({
    ^bb0(%i: i32):
      "scf.yield"() : () -> ()
    }) : (i32, i32) -> ()
    // expected-remark @below {{loop not stream-pipelined: malformed scf.for}}
    "scf.for"(%c0, %n, %c1) ({
    }) : (i32, i32, i32) -> ()
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// A tt.load without a pointer, or whose segment sizes do not match its
// operands, is not a candidate.

// CHECK-LABEL: sym_name = "no_malformed_load"
// CHECK-NOT: "ttg.local_alloc"
// expected-remark @below {{mfma-stream-pipeline declined: no loop stream-pipelined; Triton's loop pipeliner runs instead}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<64x64x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>, i32) -> (), sym_name = "no_malformed_load", sym_visibility = "public"}> ({
  ^bb0(%p: tensor<64x64x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>, %n: i32):
    %c0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %c1 = "arith.constant"() <{value = 1 : i32}> : () -> i32
    %z = "arith.constant"() <{value = dense<0.000000e+00> : tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>}> : () -> tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>
    // expected-remark @below {{loop not stream-pipelined: no dot operand is loaded from global memory through LDS in it}}
    %r = "scf.for"(%c0, %n, %c1, %z) ({
    ^bb0(%i: i32, %acc: tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>):
      %a = "tt.load"() : () -> tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %b = "tt.load"(%p) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<64x64x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
      %ad = "ttg.convert_layout"(%a) : (tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>
      %bd = "ttg.convert_layout"(%b) : (tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>
      %d = "tt.dot"(%ad, %bd, %acc) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>, tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>, tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>) -> tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>
      "scf.yield"(%d) : (tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>) -> ()
    }) : (i32, i32, i32, tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>) -> tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}
