// Malformed or truncated input: mfma-opt exits non-zero with a diagnostic
// (never a crash or a signal; lit's `not` fails on a signal).
// RUN: not mfma-opt %s -split-input-file 2>&1 | filecheck %s
// RUN: not mfma-opt %s -split-input-file -mfma-print-layouts 2>&1 | filecheck %s

// CHECK: invalid-input.mlir:{{[0-9]+}}:{{[0-9]+}}: error: expected ')' to end operand list
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "no_malformed_operands"}> ({
    %0 = "arith.constant"() <{value = 1 : i32}> : () -> i32
    %1 = "arith.addi"(%0, %0 <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// CHECK: invalid-input.mlir:{{[0-9]+}}:{{[0-9]+}}: error: use of undeclared SSA value name
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "no_undefined_value"}> ({
    %1 = "arith.addi"(%7, %7) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// An unbalanced layout inside a tensor type.
// CHECK: invalid-input.mlir:{{[0-9]+}}:{{[0-9]+}}: error: unbalanced '[' character in pretty dialect name
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "no_unbalanced_layout"}> ({
    %0 = "arith.constant"() <{value = dense<0> : tensor<64xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64}>>}> : () -> tensor<64xi32, #ttg.blocked<{sizePerThread = [1]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// A module cut off in the middle of an operation.
// CHECK: invalid-input.mlir:{{[0-9]+}}:{{[0-9]+}}: error: expected '>' in tensor type
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "no_truncated"}> ({
    %0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<128x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>}> : () -> tensor<128x128xf32, #ttg.amd_mf
