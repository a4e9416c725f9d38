// RUN: mfma-opt %s -split-input-file -mfma-lds-usage -verify-diagnostics
// RUN: mfma-opt %s -split-input-file -mfma-split-epilogue-cvt=lds-limit=1024 2>&1 >/dev/null | filecheck %s --check-prefix=SPLIT

// Invalid input never crashes the LDS model. mfma-lds-usage reports what it
// does not model as an error on the function (a wrong number is worse than
// none); mfma-split-epilogue-cvt says so in a remark and leaves the IR alone.
// Each of the first five chunks crashed both passes (an assertion, SIGFPE, or
// memory without bound).

// order = [1, 1024]: was an ArrayRef.h `Index < Length` assertion in identityStandardND.
// SPLIT: remark: LDS model does not cover this function (ttg.convert_layout: cannot parse layout {{.*}}: order of #ttg.blocked must be a permutation of 0..1, got [1, 1024] (at offset 13)); IR unchanged
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // expected-error @below {{LDS use not modelled: ttg.convert_layout: cannot parse layout #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 1024]}>: order of #ttg.blocked must be a permutation of 0..1, got [1, 1024]}}
  "tt.func"() <{function_type = (tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 1024]}>>) -> (), sym_name = "order_out_of_range", sym_visibility = "public"}> ({
  ^bb0(%a: tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 1024]}>>):
    %0 = "ttg.convert_layout"(%a) : (tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 1024]}>>) -> tensor<64x64xf16, #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 4], order = [0, 1]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// threadsPerWarp = [8, 0]: was a SIGFPE in fitToShape.
// SPLIT: remark: LDS model does not cover this function (ttg.convert_layout: cannot parse layout {{.*}}: threadsPerWarp of #ttg.blocked must be powers of two, got [8, 0]
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // expected-error @below {{threadsPerWarp of #ttg.blocked must be powers of two, got [8, 0]}}
  "tt.func"() <{function_type = (tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 0], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> (), sym_name = "threads_zero", sym_visibility = "public"}> ({
  ^bb0(%a: tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 0], warpsPerCTA = [4, 1], order = [1, 0]}>>):
    %0 = "ttg.convert_layout"(%a) : (tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 0], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> tensor<64x64xf16, #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 4], order = [0, 1]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// sizePerThread = [1, 5]: was a SmallVector `idx < size()` assertion in GF2Layout::invertAndCompose.
// SPLIT: remark: LDS model does not cover this function (ttg.convert_layout: cannot parse layout {{.*}}: sizePerThread of #ttg.blocked must be powers of two, got [1, 5]
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // expected-error @below {{sizePerThread of #ttg.blocked must be powers of two, got [1, 5]}}
  "tt.func"() <{function_type = (tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 5], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> (), sym_name = "size_not_pow2", sym_visibility = "public"}> ({
  ^bb0(%a: tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 5], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>):
    %0 = "ttg.convert_layout"(%a) : (tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 5], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// order = [0, 0]: was "not a permutation of the outputs" in GF2Layout::transposeOuts.
// SPLIT: remark: LDS model does not cover this function (ttg.convert_layout: cannot parse layout {{.*}}: order of #ttg.blocked must be a permutation of 0..1, got [0, 0]
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // expected-error @below {{order of #ttg.blocked must be a permutation of 0..1, got [0, 0]}}
  "tt.func"() <{function_type = (tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [0, 0]}>>) -> (), sym_name = "order_repeated", sym_visibility = "public"}> ({
  ^bb0(%a: tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [0, 0]}>>):
    %0 = "ttg.convert_layout"(%a) : (tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [0, 0]}>>) -> tensor<64x64xf16, #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 4], order = [0, 1]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// threadsPerWarp = [2147483647, 1]: memory grew without bound in GF2Layout::identity1D.
// SPLIT: remark: LDS model does not cover this function (ttg.convert_layout: cannot parse layout {{.*}}: threadsPerWarp of #ttg.blocked must be powers of two, got [2147483647, 1]
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // expected-error @below {{threadsPerWarp of #ttg.blocked must be powers of two, got [2147483647, 1]}}
  "tt.func"() <{function_type = (tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2147483647, 1], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> (), sym_name = "threads_huge", sym_visibility = "public"}> ({
  ^bb0(%a: tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2147483647, 1], warpsPerCTA = [4, 1], order = [1, 0]}>>):
    %0 = "ttg.convert_layout"(%a) : (tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2147483647, 1], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> tensor<64x64xf16, #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 4], order = [0, 1]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// A layout Triton accepts but not for this module: 32 lanes in waves of 64.
// SPLIT: remark: LDS model does not cover this function (ttg.convert_layout: layout #ttg.blocked<{{.*}}>: blocked: threadsPerWarp [4, 8] has 32 threads, the module's warps 64)
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // expected-error @below {{blocked: threadsPerWarp [4, 8] has 32 threads, the module's warps 64}}
  "tt.func"() <{function_type = (tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> (), sym_name = "lanes_not_module", sym_visibility = "public"}> ({
  ^bb0(%a: tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>):
    %0 = "ttg.convert_layout"(%a) : (tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> tensor<64x64xf16, #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 4], order = [0, 1]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// A tensor of 2^31 elements: beyond the model's bounds.
// SPLIT: remark: LDS model does not cover this function (ttg.convert_layout: layout {{.*}}: tensors of more than 2^30 elements are not modelled)
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // expected-error @below {{tensors of more than 2^30 elements are not modelled}}
  "tt.func"() <{function_type = (tensor<65536x32768xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> (), sym_name = "tensor_too_large", sym_visibility = "public"}> ({
  ^bb0(%a: tensor<65536x32768xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>):
    %0 = "ttg.convert_layout"(%a) : (tensor<65536x32768xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> tensor<65536x32768xf16, #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 4], order = [0, 1]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// A CTA tile along dim0 of 2^30 elements on a 32768x32768 tensor: 45 input
// bits (was: an assertion in the GF(2) solver, which holds 64 columns).
// SPLIT: remark: LDS model does not cover this function (ttg.convert_layout: layout {{.*}}: layout of 2^45 hardware positions (more than 2^32) is not modelled)
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // expected-error @below {{layout of 2^45 hardware positions (more than 2^32) is not modelled}}
  "tt.func"() <{function_type = (tensor<32768x32768xf16, #ttg.blocked<{sizePerThread = [4194304, 1], threadsPerWarp = [64, 1], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> (), sym_name = "too_many_input_bits", sym_visibility = "public"}> ({
  ^bb0(%a: tensor<32768x32768xf16, #ttg.blocked<{sizePerThread = [4194304, 1], threadsPerWarp = [64, 1], warpsPerCTA = [4, 1], order = [1, 0]}>>):
    %0 = "ttg.convert_layout"(%a) : (tensor<32768x32768xf16, #ttg.blocked<{sizePerThread = [4194304, 1], threadsPerWarp = [64, 1], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> tensor<32768x32768xf16, #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 4], order = [0, 1]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// An scf.for whose region has no block (chunk 0 of
// mfma-stream-pipeline-invalid.mlir): was an ilist sentinel assertion in
// computeAliases. Malformed loops alias nothing.
// SPLIT: remark: LDS total 0 B within budget 1024 B: no convert_layout to split
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // expected-remark @below {{LDS total 0 B of 65536 B (hip:gfx942)}}
  "tt.func"() <{function_type = (i32) -> (), sym_name = "loop_without_block", sym_visibility = "public"}> ({
  ^bb0(%n: i32):
    %c0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %c1 = "arith.constant"() <{value = 1 : i32}> : () -> i32
    "scf.for"(%c0, %n, %c1) ({
    }) : (i32, i32, i32) -> ()
    "scf.for"(%c0, %n, %c1) ({
    ^bb0(%i: i32):
    }) : (i32, i32, i32) -> ()
    "scf.while"(%c0) ({
    }, {
    }) : (i32) -> ()
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// local_alloc sizes and alignments the model takes: at most 2^40 elements,
// alignment a power of two up to 2^20.
// SPLIT: remark: LDS model does not cover this function (local_alloc alignment is not a power of two up to 2^20); IR unchanged
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // expected-error @below {{LDS use not modelled: local_alloc alignment is not a power of two up to 2^20}}
  "tt.func"() <{function_type = () -> (), sym_name = "alloc_alignment", sym_visibility = "public"}> ({
    %0 = "ttg.local_alloc"() {alignment = 3 : i32} : () -> !ttg.memdesc<64x64xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, #ttg.shared_memory, mutable>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// SPLIT: remark: LDS model does not cover this function (local_alloc of more than 2^40 elements); IR unchanged
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // expected-error @below {{LDS use not modelled: local_alloc of more than 2^40 elements}}
  "tt.func"() <{function_type = () -> (), sym_name = "alloc_too_large", sym_visibility = "public"}> ({
    %0 = "ttg.local_alloc"() : () -> !ttg.memdesc<4294967296x4294967296xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, #ttg.shared_memory, mutable>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// A wave size the model does not take.
// SPLIT: remark: mfma-split-epilogue-cvt: ttg.threads-per-warp = 0 is not modelled (a power of two up to 64); IR unchanged
// expected-error @below {{mfma-lds-usage: ttg.threads-per-warp = 0 is not modelled (a power of two up to 64)}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 0 : i32} {
}
