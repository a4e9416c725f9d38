// RUN: mfma-opt %s -split-input-file -mfma-accelerate-dot -verify-diagnostics

// Malformed dots the fuzzer (test/fuzz/mfma_fuzz.py) found crashing
// mfma-accelerate-dot: each is now an error naming what is wrong (the pass
// fails; in a compile the hook falls back to stock Triton), or, where the
// input means something, the usual decision. Never a crash.

// Operand A of rank 2 for a batched (rank-3) dot (was: ArrayRef.h `Index < Length`).
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x32xf16, #opA>, tensor<2x32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [1, 4, 4], threadsPerWarp = [1, 4, 16], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>}>>, tensor<2x128x128xf32, #ttg.blocked<{sizePerThread = [1, 4, 4], threadsPerWarp = [1, 4, 16], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>>) -> (), sym_name = "rank_mismatch"}> ({
  ^bb0(%a: tensor<128x32xf16, #opA>, %b: tensor<2x32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [1, 4, 4], threadsPerWarp = [1, 4, 16], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>}>>, %c: tensor<2x128x128xf32, #ttg.blocked<{sizePerThread = [1, 4, 4], threadsPerWarp = [1, 4, 16], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>>):
    // expected-error @below {{tt.dot operand shapes do not agree: 128x32 2x32x128 2x128x128 2x128x128}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x32xf16, #opA>, tensor<2x32x128xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [1, 4, 4], threadsPerWarp = [1, 4, 16], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>}>>, tensor<2x128x128xf32, #ttg.blocked<{sizePerThread = [1, 4, 4], threadsPerWarp = [1, 4, 16], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>>) -> tensor<2x128x128xf32, #ttg.blocked<{sizePerThread = [1, 4, 4], threadsPerWarp = [1, 4, 16], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// Operand shapes that do not multiply.
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x64xf16, #opA>, tensor<32x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> (), sym_name = "shape_mismatch"}> ({
  ^bb0(%a: tensor<128x64xf16, #opA>, %b: tensor<32x128xf16, #opB>, %c: tensor<128x128xf32, #blocked>):
    // expected-error @below {{tt.dot operand shapes do not agree: 128x64 32x128 128x128 128x128}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x64xf16, #opA>, tensor<32x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// A dot with two operands.
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x32xf16, #opA>, tensor<32x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> (), sym_name = "two_operands"}> ({
  ^bb0(%a: tensor<128x32xf16, #opA>, %b: tensor<32x128xf16, #opB>, %c: tensor<128x128xf32, #blocked>):
    // expected-error @below {{tt.dot must have three operands and one result}}
    %d = "tt.dot"(%a, %b) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x32xf16, #opA>, tensor<32x128xf16, #opB>) -> tensor<128x128xf32, #blocked>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// A result layout of another rank than the result (was: SmallVector
// `idx < size()` in fmaWaveCoverage).
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x32xf16, #opA>, tensor<32x128xf16, #opB>, tensor<128x128xf32, #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>) -> (), sym_name = "layout_rank"}> ({
  ^bb0(%a: tensor<128x32xf16, #opA>, %b: tensor<32x128xf16, #opB>, %c: tensor<128x128xf32, #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>):
    // expected-error @below {{the blocked layout of the tt.dot result has rank 1, the result 2}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x32xf16, #opA>, tensor<32x128xf16, #opB>, tensor<128x128xf32, #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>) -> tensor<128x128xf32, #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// ttg.num-warps = 2^31 (was: SIGFPE in rankMfmaChoices, the warp splits
// overflowed).
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = -2147483648 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x32xf16, #opA>, tensor<32x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> (), sym_name = "warps_huge"}> ({
  ^bb0(%a: tensor<128x32xf16, #opA>, %b: tensor<32x128xf16, #opB>, %c: tensor<128x128xf32, #blocked>):
    // expected-error @below {{no power-of-two ttg.num-warps for this dot (at most 64)}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x32xf16, #opA>, tensor<32x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// Complex accumulators (was: Types.cpp `only integers and floats have a
// bitwidth`).
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x32xf16, #opA>, tensor<32x128xf16, #opB>, tensor<128x128xcomplex<f32>, #blocked>) -> (), sym_name = "complex_result"}> ({
  ^bb0(%a: tensor<128x32xf16, #opA>, %b: tensor<32x128xf16, #opB>, %c: tensor<128x128xcomplex<f32>, #blocked>):
    // expected-error @below {{tt.dot on 'complex<f32>' elements (integers and floats only)}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x32xf16, #opA>, tensor<32x128xf16, #opB>, tensor<128x128xcomplex<f32>, #blocked>) -> tensor<128x128xcomplex<f32>, #blocked>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// ttg.num-warps written as si32 (was: IntegerAttr::getInt's `must be signless
// integer`): read as 4, the dot is lowered as usual.
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : si32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x32xf16, #opA>, tensor<32x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> (), sym_name = "warps_si32"}> ({
  ^bb0(%a: tensor<128x32xf16, #opA>, %b: tensor<32x128xf16, #opB>, %c: tensor<128x128xf32, #blocked>):
    // expected-remark @below {{128x128x32 f16*f16 on gfx942: v_mfma_f32_32x32x8_f16 warps=[2,2] kWidth=8 (kpack 2)}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x32xf16, #opA>, tensor<32x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// Operand A produced by a ttg.convert_layout without an operand (was:
// MutableArrayRef<OpOperand> `Index < size()`): taken as A's producer.
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<32x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> (), sym_name = "convert_without_operand"}> ({
  ^bb0(%b: tensor<32x128xf16, #opB>, %c: tensor<128x128xf32, #blocked>):
    %a = "ttg.convert_layout"() : () -> tensor<128x32xf16, #opA>
    // expected-remark @below {{128x128x32 f16*f16 on gfx942: v_mfma_f32_32x32x8_f16 warps=[2,2] kWidth=8 (kpack 2)}}
    %d = "tt.dot"(%a, %b, %c) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x32xf16, #opA>, tensor<32x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>
    "tt.return"() : () -> ()
  }) : () -> ()
}
