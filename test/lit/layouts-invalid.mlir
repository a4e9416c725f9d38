// RUN: mfma-opt %s -split-input-file -mfma-print-layouts -verify-diagnostics

// The layout model validates what it parses, as Triton's verifiers do, and
// checks each tensor's layout against the tensor and its module: every
// failure is an error naming the attribute (its text, the field) and the
// operation, never a crash. The first five chunks crashed the LDS passes
// (lds-usage-invalid.mlir) and were accepted by mfma-print-layouts.

// order = [1, 1024] (was: ArrayRef.h `Index < Length` in identityStandardND).
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "order_out_of_range", sym_visibility = "public"}> ({
    // expected-error @below {{order of #ttg.blocked must be a permutation of 0..1, got [1, 1024] (at offset 13), on operation 'arith.constant'}}
    %0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<64x64xf32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 1024]}>>}> : () -> tensor<64x64xf32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 1024]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// order = [0, 0] (was: "not a permutation of the outputs" in transposeOuts).
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "order_repeated", sym_visibility = "public"}> ({
    // expected-error @below {{order of #ttg.blocked must be a permutation of 0..1, got [0, 0]}}
    %0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<64x64xf32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [0, 0]}>>}> : () -> tensor<64x64xf32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [0, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// threadsPerWarp = [8, 0] (was: SIGFPE in fitToShape).
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "threads_zero", sym_visibility = "public"}> ({
    // expected-error @below {{threadsPerWarp of #ttg.blocked must be powers of two, got [8, 0]}}
    %0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<64x64xf32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 0], warpsPerCTA = [4, 1], order = [1, 0]}>>}> : () -> tensor<64x64xf32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 0], warpsPerCTA = [4, 1], order = [1, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// sizePerThread = [1, 5] (was: SmallVector `idx < size()` in GF2Layout::invertAndCompose).
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "size_not_pow2", sym_visibility = "public"}> ({
    // expected-error @below {{sizePerThread of #ttg.blocked must be powers of two, got [1, 5]}}
    %0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<64x64xf32, #ttg.blocked<{sizePerThread = [1, 5], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>}> : () -> tensor<64x64xf32, #ttg.blocked<{sizePerThread = [1, 5], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// threadsPerWarp = [2147483647, 1] (was: unbounded memory in GF2Layout::identity1D).
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "threads_huge", sym_visibility = "public"}> ({
    // expected-error @below {{threadsPerWarp of #ttg.blocked must be powers of two, got [2147483647, 1]}}
    %0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<64x64xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2147483647, 1], warpsPerCTA = [4, 1], order = [1, 0]}>>}> : () -> tensor<64x64xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2147483647, 1], warpsPerCTA = [4, 1], order = [1, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// warpsPerCTA = [0, 4].
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "warps_zero", sym_visibility = "public"}> ({
    // expected-error @below {{warpsPerCTA of #ttg.blocked must be powers of two, got [0, 4]}}
    %0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<64x64xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [0, 4], order = [1, 0]}>>}> : () -> tensor<64x64xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [0, 4], order = [1, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// Fields of different ranks.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "ranks_differ", sym_visibility = "public"}> ({
    // expected-error @below {{sizePerThread, threadsPerWarp, warpsPerCTA and order of #ttg.blocked must have the same rank}}
    %0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<64x64xf32, #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>}> : () -> tensor<64x64xf32, #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// The layout's rank is the tensor's.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "tensor_rank", sym_visibility = "public"}> ({
    // expected-remark @below {{blocked: sizePerThread=[1,1] threadsPerWarp=[8,8] warpsPerCTA=[4,1] order=[1,0]}}
    // expected-error @below {{has rank 2, but the tensor it is attached to has rank 3, on operation 'arith.constant'}}
    %0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<4x64x64xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>}> : () -> tensor<4x64x64xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// Warps per CTA are the module's ttg.num-warps.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "warps_context", sym_visibility = "public"}> ({
    // expected-remark @below {{blocked: sizePerThread=[1,1] threadsPerWarp=[8,8] warpsPerCTA=[8,1] order=[1,0]}}
    // expected-error @below {{has a total of 8 warps per CTA, but the context requires 4 warps per CTA}}
    %0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<64x64xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [8, 1], order = [1, 0]}>>}> : () -> tensor<64x64xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 8], warpsPerCTA = [8, 1], order = [1, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// Threads per warp are the module's ttg.threads-per-warp.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "lanes_context", sym_visibility = "public"}> ({
    // expected-remark @below {{blocked: sizePerThread=[1,1] threadsPerWarp=[4,8] warpsPerCTA=[4,1] order=[1,0]}}
    // expected-error @below {{has a total of 32 threads per warp, but the context requires 64 threads per warp}}
    %0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<64x64xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>}> : () -> tensor<64x64xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// amd_mfma instruction shapes are Triton's.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "mfma_shape", sym_visibility = "public"}> ({
    // expected-error @below {{instrShape of #ttg.amd_mfma must have (M, N) (32, 32), (16, 16), (64, 4) or (4, 64), got [8, 8, 4]}}
    %0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [8, 8, 4], isTransposed = true}>>}> : () -> tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [8, 8, 4], isTransposed = true}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// amd_mfma warps are positive.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "mfma_warps_zero", sym_visibility = "public"}> ({
    // expected-error @below {{warpsPerCTA of #ttg.amd_mfma must be positive, got [0, 4]}}
    %0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [0, 4], instrShape = [32, 32, 8], isTransposed = true}>>}> : () -> tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [0, 4], instrShape = [32, 32, 8], isTransposed = true}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// A slice of a rank-1 parent.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "slice_rank1", sym_visibility = "public"}> ({
    // expected-error @below {{the parent of #ttg.slice must have rank 2 or more, got rank 1}}
    %0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<64xf32, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>}>>}> : () -> tensor<64xf32, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// Linear bases are non-negative.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "linear_negative", sym_visibility = "public"}> ({
    // expected-error @below {{'register' of #ttg.linear has a negative basis entry -1}}
    %0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<64x8xf32, #ttg.linear<{register = [[0, -1]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]], warp = [[0, 2], [0, 4]], block = []}>>}> : () -> tensor<64x8xf32, #ttg.linear<{register = [[0, -1]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]], warp = [[0, 2], [0, 4]], block = []}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// A linear layout reaches every element (Triton builds it surjective).
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "linear_not_surjective", sym_visibility = "public"}> ({
    // expected-error @below {{#ttg.linear is not surjective: its bases reach 7 of the 9 bits of its output}}
    %0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<64x8xf32, #ttg.linear<{register = [[0, 4]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]], warp = [[0, 4], [0, 4]], block = []}>>}> : () -> tensor<64x8xf32, #ttg.linear<{register = [[0, 4]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]], warp = [[0, 4], [0, 4]], block = []}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}
