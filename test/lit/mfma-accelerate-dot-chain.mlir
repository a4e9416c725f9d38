// RUN: mfma-opt %s -split-input-file -mfma-accelerate-dot -verify-diagnostics | filecheck %s
// RUN: mfma-opt %s -split-input-file -mfma-accelerate-dot=chain-dots=false 2>/dev/null | filecheck %s --check-prefix=NOCHAIN

// Chain dots (the flash-attention pattern S = Q K^T; P = exp2(S - rowmax S);
// O = P V): the first dot's result reaches the second dot's operand A through
// elementwise ops and a row reduction. mfma-accelerate-dot chooses both
// together: warps along M only, the same instruction M, the head transposed and
// the tail's kWidth 4, so that P goes from the head's MFMA layout to the tail's
// operand layout inside each lane's registers (no LDS round trip). The second
// RUN line chooses each dot alone (chain-dots=false) for comparison.

// FA forward, BLOCK_M 128, BLOCK_N 64, D 64, gfx942: both 32x32x8 with warps
// [4, 1]; the head reads Q/K with kpack 2, the tail takes P with kWidth 4.
// (Triton's choice is the same except kpack: its kpack is 1 by default.)
// CHECK-LABEL: sym_name = "fa_d64_gfx942"
// CHECK: %[[S:.+]] = "tt.dot"{{.*}} -> tensor<128x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>
// CHECK: "ttg.convert_layout"(%[[S]]) : ({{.*}}) -> tensor<128x64xf32, #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
// CHECK: "tt.dot"{{.*}} : (tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>, tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>, tensor<128x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>) -> tensor<128x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>
// NOCHAIN-LABEL: sym_name = "fa_d64_gfx942"
// NOCHAIN: "tt.dot"{{.*}} -> tensor<128x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>
// NOCHAIN: "tt.dot"{{.*}} -> tensor<128x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x64xf16, #opA>, tensor<64x64xf16, #opB>, tensor<64x64xf16, #opB>, tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked>, sym_name = "fa_d64_gfx942"}> ({
  ^bb0(%q: tensor<128x64xf16, #opA>, %kt: tensor<64x64xf16, #opB>, %v: tensor<64x64xf16, #opB>, %acc: tensor<128x64xf32, #blocked>):
    %zero = "arith.constant"() <{value = dense<0.000000e+00> : tensor<128x64xf32, #blocked>}> : () -> tensor<128x64xf32, #blocked>
    // expected-remark @below {{chain head (with the dot at}}
    %s = "tt.dot"(%q, %kt, %zero) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x64xf16, #opA>, tensor<64x64xf16, #opB>, tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked>
    %m = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb1(%x: f32, %y: f32):
      %mx = "arith.maxnumf"(%x, %y) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
      "tt.reduce.return"(%mx) : (f32) -> ()
    }) : (tensor<128x64xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
    %m1 = "tt.expand_dims"(%m) <{axis = 1 : i32}> : (tensor<128xf32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>) -> tensor<128x1xf32, #blocked>
    %mb = "tt.broadcast"(%m1) : (tensor<128x1xf32, #blocked>) -> tensor<128x64xf32, #blocked>
    %sub = "arith.subf"(%s, %mb) <{fastmath = #arith.fastmath<none>}> : (tensor<128x64xf32, #blocked>, tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked>
    %p = "math.exp2"(%sub) <{fastmath = #arith.fastmath<none>}> : (tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked>
    %ph = "arith.truncf"(%p) : (tensor<128x64xf32, #blocked>) -> tensor<128x64xf16, #blocked>
    %pa = "ttg.convert_layout"(%ph) : (tensor<128x64xf16, #blocked>) -> tensor<128x64xf16, #opA>
    // expected-remark @below {{; pair 1024 cycles, runner-up M=16: 1024 cycles, 1552 cycles with each dot alone and P through LDS}}
    %o = "tt.dot"(%pa, %v, %acc) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x64xf16, #opA>, tensor<64x64xf16, #opB>, tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked>
    "tt.return"(%o) : (tensor<128x64xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// gfx950: the K-doubled 32x32x16 for both; the head's operands use kWidth 8
// (kBase), the tail's P kWidth 4 (each 32x32x16 takes two runs of 4 from a
// lane, at k and k + 8, the same positions the head's result holds).
// CHECK-LABEL: sym_name = "fa_d128_gfx950"
// CHECK: "tt.dot"{{.*}} : (tensor<128x128xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 16], isTransposed = true}>, kWidth = 8}>>
// CHECK: "tt.dot"{{.*}} : (tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 16], isTransposed = true}>, kWidth = 4}>>, tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 16], isTransposed = true}>, kWidth = 4}>>
// NOCHAIN-LABEL: sym_name = "fa_d128_gfx950"
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x128xf16, #opA>, tensor<128x64xf16, #opB>, tensor<64x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>, sym_name = "fa_d128_gfx950"}> ({
  ^bb0(%q: tensor<128x128xf16, #opA>, %kt: tensor<128x64xf16, #opB>, %v: tensor<64x128xf16, #opB>, %acc: tensor<128x128xf32, #blocked>):
    %zero = "arith.constant"() <{value = dense<0.000000e+00> : tensor<128x64xf32, #blocked>}> : () -> tensor<128x64xf32, #blocked>
    // expected-remark @below {{v_mfma_f32_32x32x16_f16 warps=[4,1] kWidth=8}}
    %s = "tt.dot"(%q, %kt, %zero) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x128xf16, #opA>, tensor<128x64xf16, #opB>, tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked>
    %m = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb1(%x: f32, %y: f32):
      %mx = "arith.maxnumf"(%x, %y) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
      "tt.reduce.return"(%mx) : (f32) -> ()
    }) : (tensor<128x64xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
    %m1 = "tt.expand_dims"(%m) <{axis = 1 : i32}> : (tensor<128xf32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>) -> tensor<128x1xf32, #blocked>
    %mb = "tt.broadcast"(%m1) : (tensor<128x1xf32, #blocked>) -> tensor<128x64xf32, #blocked>
    %sub = "arith.subf"(%s, %mb) <{fastmath = #arith.fastmath<none>}> : (tensor<128x64xf32, #blocked>, tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked>
    %p = "math.exp2"(%sub) <{fastmath = #arith.fastmath<none>}> : (tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked>
    %ph = "arith.truncf"(%p) : (tensor<128x64xf32, #blocked>) -> tensor<128x64xf16, #blocked>
    %pa = "ttg.convert_layout"(%ph) : (tensor<128x64xf16, #blocked>) -> tensor<128x64xf16, #opA>
    // expected-remark @below {{v_mfma_f32_32x32x16_f16 warps=[4,1] kWidth=4}}
    %o = "tt.dot"(%pa, %v, %acc) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x64xf16, #opA>, tensor<64x128xf16, #opB>, tensor<128x128xf32, #blocked>) -> tensor<128x128xf32, #blocked>
    "tt.return"(%o) : (tensor<128x128xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// BLOCK_N 16: alone, the head would take 16x16 (its N is 16) and the tail 32x32
// (its M and N are >= 32), so P would change instruction M: an LDS round trip
// (Triton 3.9 does exactly that). Jointly, 16x16 for both costs 320 cycles
// against 384 for the best pair with 32x32 (Q is an argument here, so its LDS
// reads count).
// CHECK-LABEL: sym_name = "fa_bn16_gfx942"
// CHECK: "tt.dot"{{.*}} -> tensor<128x16xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 16, 16], isTransposed = true}>>
// CHECK: "tt.dot"{{.*}} : (tensor<128x16xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 16, 16], isTransposed = true}>, kWidth = 4}>>
// NOCHAIN-LABEL: sym_name = "fa_bn16_gfx942"
// NOCHAIN: "tt.dot"{{.*}} -> tensor<128x16xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 16, 16]
// NOCHAIN: "tt.dot"{{.*}} -> tensor<128x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8]
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x64xf16, #opA>, tensor<64x16xf16, #opB>, tensor<16x64xf16, #opB>, tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked>, sym_name = "fa_bn16_gfx942"}> ({
  ^bb0(%q: tensor<128x64xf16, #opA>, %kt: tensor<64x16xf16, #opB>, %v: tensor<16x64xf16, #opB>, %acc: tensor<128x64xf32, #blocked>):
    %zero = "arith.constant"() <{value = dense<0.000000e+00> : tensor<128x16xf32, #blocked>}> : () -> tensor<128x16xf32, #blocked>
    // expected-remark @below {{chain head (with the dot at}}
    %s = "tt.dot"(%q, %kt, %zero) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x64xf16, #opA>, tensor<64x16xf16, #opB>, tensor<128x16xf32, #blocked>) -> tensor<128x16xf32, #blocked>
    %m = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb1(%x: f32, %y: f32):
      %mx = "arith.maxnumf"(%x, %y) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
      "tt.reduce.return"(%mx) : (f32) -> ()
    }) : (tensor<128x16xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
    %m1 = "tt.expand_dims"(%m) <{axis = 1 : i32}> : (tensor<128xf32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>) -> tensor<128x1xf32, #blocked>
    %mb = "tt.broadcast"(%m1) : (tensor<128x1xf32, #blocked>) -> tensor<128x16xf32, #blocked>
    %sub = "arith.subf"(%s, %mb) <{fastmath = #arith.fastmath<none>}> : (tensor<128x16xf32, #blocked>, tensor<128x16xf32, #blocked>) -> tensor<128x16xf32, #blocked>
    %p = "math.exp2"(%sub) <{fastmath = #arith.fastmath<none>}> : (tensor<128x16xf32, #blocked>) -> tensor<128x16xf32, #blocked>
    %ph = "arith.truncf"(%p) : (tensor<128x16xf32, #blocked>) -> tensor<128x16xf16, #blocked>
    %pa = "ttg.convert_layout"(%ph) : (tensor<128x16xf16, #blocked>) -> tensor<128x16xf16, #opA>
    // expected-remark @below {{pair 320 cycles, runner-up M=32: 384 cycles}}
    %o = "tt.dot"(%pa, %v, %acc) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x16xf16, #opA>, tensor<16x64xf16, #opB>, tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked>
    "tt.return"(%o) : (tensor<128x64xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// BLOCK_M 64 with 8 warps: in registers, warps along M must be 8 for both
// dots, so even 16-row tiles leave every row block computed by two waves
// (512 matrix cycles for the pair); each dot alone on warps [2, 4] needs half
// (256), which the matrix pipe and the one judge's dot cycles rank first, so
// the chain is not kept (P and the row reductions go through LDS).
// CHECK-LABEL: sym_name = "fa_m64_8warps_gfx942"
// CHECK: "tt.dot"{{.*}} -> tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [16, 16, 16], isTransposed = true}>>
// CHECK: "tt.dot"{{.*}} -> tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [16, 16, 16], isTransposed = true}>>
// NOCHAIN-LABEL: sym_name = "fa_m64_8warps_gfx942"
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [8, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [8, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<64x64xf16, #opA>, tensor<64x64xf16, #opB>, tensor<64x64xf16, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>, sym_name = "fa_m64_8warps_gfx942"}> ({
  ^bb0(%q: tensor<64x64xf16, #opA>, %kt: tensor<64x64xf16, #opB>, %v: tensor<64x64xf16, #opB>, %acc: tensor<64x64xf32, #blocked>):
    %zero = "arith.constant"() <{value = dense<0.000000e+00> : tensor<64x64xf32, #blocked>}> : () -> tensor<64x64xf32, #blocked>
    // expected-remark-re @below {{not kept in registers: in registers the pair costs 576 cycles per wave {{.*}}, 512 on the matrix pipe; each dot alone with P through LDS 804 {{.*}}, 256 on the matrix pipe}}
    // expected-remark @below {{v_mfma_f32_16x16x16_f16 warps=[2,4]}}
    %s = "tt.dot"(%q, %kt, %zero) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x64xf16, #opA>, tensor<64x64xf16, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>
    %m = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb1(%x: f32, %y: f32):
      %mx = "arith.maxnumf"(%x, %y) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
      "tt.reduce.return"(%mx) : (f32) -> ()
    }) : (tensor<64x64xf32, #blocked>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [8, 1], order = [1, 0]}>}>>
    %m1 = "tt.expand_dims"(%m) <{axis = 1 : i32}> : (tensor<64xf32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [8, 1], order = [1, 0]}>}>>) -> tensor<64x1xf32, #blocked>
    %mb = "tt.broadcast"(%m1) : (tensor<64x1xf32, #blocked>) -> tensor<64x64xf32, #blocked>
    %sub = "arith.subf"(%s, %mb) <{fastmath = #arith.fastmath<none>}> : (tensor<64x64xf32, #blocked>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>
    %p = "math.exp2"(%sub) <{fastmath = #arith.fastmath<none>}> : (tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>
    %ph = "arith.truncf"(%p) : (tensor<64x64xf32, #blocked>) -> tensor<64x64xf16, #blocked>
    %pa = "ttg.convert_layout"(%ph) : (tensor<64x64xf16, #blocked>) -> tensor<64x64xf16, #opA>
    // expected-remark @below {{v_mfma_f32_16x16x16_f16 warps=[2,4]}}
    %o = "tt.dot"(%pa, %v, %acc) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<64x64xf16, #opA>, tensor<64x64xf16, #opB>, tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked>
    "tt.return"(%o) : (tensor<64x64xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// The head's result reaches the tail through tt.trans (not elementwise): no
// chain; each dot is chosen alone.
// CHECK-LABEL: sym_name = "no_chain_through_trans"
// CHECK: "tt.dot"{{.*}} -> tensor<128x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>
// NOCHAIN-LABEL: sym_name = "no_chain_through_trans"
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x64xf16, #opA>, tensor<64x64xf16, #opB>, tensor<64x64xf16, #opB>, tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked>, sym_name = "no_chain_through_trans"}> ({
  ^bb0(%q: tensor<128x64xf16, #opA>, %kt: tensor<64x64xf16, #opB>, %v: tensor<64x64xf16, #opB>, %acc: tensor<128x64xf32, #blocked>):
    %zero = "arith.constant"() <{value = dense<0.000000e+00> : tensor<128x64xf32, #blocked>}> : () -> tensor<128x64xf32, #blocked>
    // expected-remark @below {{128x64x64 f16*f16 on gfx942: v_mfma_f32_32x32x8_f16 warps=[2,2]}}
    %s = "tt.dot"(%q, %kt, %zero) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x64xf16, #opA>, tensor<64x64xf16, #opB>, tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked>
    %st = "tt.trans"(%s) <{order = array<i32: 1, 0>}> : (tensor<128x64xf32, #blocked>) -> tensor<64x128xf32, #blocked>
    %ph0 = "arith.truncf"(%st) : (tensor<64x128xf32, #blocked>) -> tensor<64x128xf16, #blocked>
    %ph = "tt.trans"(%ph0) <{order = array<i32: 1, 0>}> : (tensor<64x128xf16, #blocked>) -> tensor<128x64xf16, #blocked>
    %pa = "ttg.convert_layout"(%ph) : (tensor<128x64xf16, #blocked>) -> tensor<128x64xf16, #opA>
    // expected-remark @below {{128x64x64 f16*f16 on gfx942: v_mfma_f32_32x32x8_f16 warps=[2,2]}}
    %o = "tt.dot"(%pa, %v, %acc) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x64xf16, #opA>, tensor<64x64xf16, #opB>, tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked>
    "tt.return"(%o) : (tensor<128x64xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// P in fp8 (an 8-bit operand A): kWidth 4 is not a register permutation of the
// head's result for 8-bit elements, so the chain is not kept in registers
// (remark) and each dot is chosen alone.
// CHECK-LABEL: sym_name = "no_chain_fp8_tail"
// CHECK: "tt.dot"{{.*}} -> tensor<128x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>
// NOCHAIN-LABEL: sym_name = "no_chain_fp8_tail"
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<128x64xf16, #opA>, tensor<64x64xf16, #opB>, tensor<64x64xf8E4M3FNUZ, #opB>, tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked>, sym_name = "no_chain_fp8_tail"}> ({
  ^bb0(%q: tensor<128x64xf16, #opA>, %kt: tensor<64x64xf16, #opB>, %v: tensor<64x64xf8E4M3FNUZ, #opB>, %acc: tensor<128x64xf32, #blocked>):
    %zero = "arith.constant"() <{value = dense<0.000000e+00> : tensor<128x64xf32, #blocked>}> : () -> tensor<128x64xf32, #blocked>
    // expected-remark @below {{not kept in registers: the tail's operand A is not 16-bit}}
    // expected-remark @below {{128x64x64 f16*f16 on gfx942: v_mfma_f32_32x32x8_f16 warps=[2,2]}}
    %s = "tt.dot"(%q, %kt, %zero) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x64xf16, #opA>, tensor<64x64xf16, #opB>, tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked>
    %m = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb1(%x: f32, %y: f32):
      %mx = "arith.maxnumf"(%x, %y) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
      "tt.reduce.return"(%mx) : (f32) -> ()
    }) : (tensor<128x64xf32, #blocked>) -> tensor<128xf32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
    %m1 = "tt.expand_dims"(%m) <{axis = 1 : i32}> : (tensor<128xf32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>) -> tensor<128x1xf32, #blocked>
    %mb = "tt.broadcast"(%m1) : (tensor<128x1xf32, #blocked>) -> tensor<128x64xf32, #blocked>
    %sub = "arith.subf"(%s, %mb) <{fastmath = #arith.fastmath<none>}> : (tensor<128x64xf32, #blocked>, tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked>
    %p = "math.exp2"(%sub) <{fastmath = #arith.fastmath<none>}> : (tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked>
    %ph = "tt.fp_to_fp"(%p) <{rounding = 1 : i32}> : (tensor<128x64xf32, #blocked>) -> tensor<128x64xf8E4M3FNUZ, #blocked>
    %pa = "ttg.convert_layout"(%ph) : (tensor<128x64xf8E4M3FNUZ, #blocked>) -> tensor<128x64xf8E4M3FNUZ, #opA>
    // expected-remark @below {{128x64x64 f8E4M3FNUZ*f8E4M3FNUZ on gfx942: v_mfma_f32_32x32x16_fp8_fp8}}
    %o = "tt.dot"(%pa, %v, %acc) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x64xf8E4M3FNUZ, #opA>, tensor<64x64xf8E4M3FNUZ, #opB>, tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked>
    "tt.return"(%o) : (tensor<128x64xf32, #blocked>) -> ()
  }) : () -> ()
}

// -----

// Decode-like attention, BLOCK_M 16 with 4 warps: warps along M would make
// all four waves compute the same 16 rows of both dots (1152 cycles per wave, 852 alone);
// each dot alone with its warps along N, plus the LDS round trips for P and the
// two row reductions, is estimated cheaper, so the chain is not forced.
// CHECK-LABEL: sym_name = "no_chain_m16_decode"
// CHECK: "tt.dot"{{.*}} -> tensor<16x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 4], instrShape = [16, 16, 16], isTransposed = true}>>
// NOCHAIN-LABEL: sym_name = "no_chain_m16_decode"
#blocked = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#opA = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
#opB = #ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<16x128xf16, #opA>, tensor<128x64xf16, #opB>, tensor<64x128xf16, #opB>, tensor<16x128xf32, #blocked>) -> tensor<16x128xf32, #blocked>, sym_name = "no_chain_m16_decode"}> ({
  ^bb0(%q: tensor<16x128xf16, #opA>, %kt: tensor<128x64xf16, #opB>, %v: tensor<64x128xf16, #opB>, %acc: tensor<16x128xf32, #blocked>):
    %zero = "arith.constant"() <{value = dense<0.000000e+00> : tensor<16x64xf32, #blocked>}> : () -> tensor<16x64xf32, #blocked>
    // expected-remark @below {{not kept in registers: in registers the pair costs 1152 cycles per wave}}
    // expected-remark @below {{16x64x128 f16*f16 on gfx942: v_mfma_f32_16x16x16_f16 warps=[1,4]}}
    %s = "tt.dot"(%q, %kt, %zero) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<16x128xf16, #opA>, tensor<128x64xf16, #opB>, tensor<16x64xf32, #blocked>) -> tensor<16x64xf32, #blocked>
    %m = "tt.reduce"(%s) <{axis = 1 : i32}> ({
    ^bb1(%x: f32, %y: f32):
      %mx = "arith.maxnumf"(%x, %y) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
      "tt.reduce.return"(%mx) : (f32) -> ()
    }) : (tensor<16x64xf32, #blocked>) -> tensor<16xf32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
    %m1 = "tt.expand_dims"(%m) <{axis = 1 : i32}> : (tensor<16xf32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>) -> tensor<16x1xf32, #blocked>
    %mb = "tt.broadcast"(%m1) : (tensor<16x1xf32, #blocked>) -> tensor<16x64xf32, #blocked>
    %sub = "arith.subf"(%s, %mb) <{fastmath = #arith.fastmath<none>}> : (tensor<16x64xf32, #blocked>, tensor<16x64xf32, #blocked>) -> tensor<16x64xf32, #blocked>
    %p = "math.exp2"(%sub) <{fastmath = #arith.fastmath<none>}> : (tensor<16x64xf32, #blocked>) -> tensor<16x64xf32, #blocked>
    %ph = "arith.truncf"(%p) : (tensor<16x64xf32, #blocked>) -> tensor<16x64xf16, #blocked>
    %pa = "ttg.convert_layout"(%ph) : (tensor<16x64xf16, #blocked>) -> tensor<16x64xf16, #opA>
    // expected-remark @below {{16x128x64 f16*f16 on gfx942: v_mfma_f32_16x16x16_f16 warps=[1,4]}}
    %o = "tt.dot"(%pa, %v, %acc) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<16x64xf16, #opA>, tensor<64x128xf16, #opB>, tensor<16x128xf32, #blocked>) -> tensor<16x128xf32, #blocked>
    "tt.return"(%o) : (tensor<16x128xf32, #blocked>) -> ()
  }) : () -> ()
}
