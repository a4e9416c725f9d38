// RUN: mfma-opt %s -split-input-file -mfma-print-layouts -verify-diagnostics | filecheck %s

// The pass is an analysis: the IR comes out unchanged, with one remark per
// distinct layout at the first operation that uses it. (The round-trip-only
// option is tested in roundtrip.mlir, the error cases in
// mfma-print-layouts-invalid.mlir.)

// CHECK-LABEL: sym_name = "mfma_v2_gfx90a"
// CHECK: tensor<128x128xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "mfma_v2_gfx90a", sym_visibility = "public"}> ({
    // expected-remark @below {{amd_mfma: version=2 instrShape=32x32x8 warpsPerCTA=[2,2] transposed}}
    %0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<128x128xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>}> : () -> tensor<128x128xf32, #ttg.amd_mfma<{version = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>
    // expected-remark @below {{slice: dim=1 parent=(amd_mfma: version=2 instrShape=32x32x8 warpsPerCTA=[2,2] transposed)}}
    %1 = "tt.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32, #ttg.slice<{dim = 1, parent = #ttg.amd_mfma<{version = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// CHECK-LABEL: sym_name = "mfma_v3_gfx942"
// CHECK: #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 16, 16], isTransposed = true}>, kWidth = 4}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // expected-remark @below {{blocked: sizePerThread=[1,8] threadsPerWarp=[8,8] warpsPerCTA=[4,1] order=[1,0]}}
  "tt.func"() <{function_type = (tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> (), sym_name = "mfma_v3_gfx942", sym_visibility = "public"}> ({
  ^bb0(%a: tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>):
    // expected-remark @below {{swizzled_shared: vec=8 perPhase=2 maxPhase=8 order=[1,0]}}
    // expected-remark @below {{shared_memory}}
    %0 = "ttg.local_alloc"(%a) : (tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> !ttg.memdesc<64x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 8, order = [1, 0]}>, #ttg.shared_memory>
    // expected-remark @below {{dot_op: opIdx=0 kWidth=4 parent=(amd_mfma: version=3 instrShape=16x16x16 warpsPerCTA=[4,1] transposed)}}
    %1 = "ttg.local_load"(%0) : (!ttg.memdesc<64x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 8, order = [1, 0]}>, #ttg.shared_memory>) -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 16, 16], isTransposed = true}>, kWidth = 4}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// CHECK-LABEL: sym_name = "mfma_v4_gfx950"
// CHECK: !ttg.memdesc<64x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 8, order = [0, 1]}>, #ttg.shared_memory, mutable, 2x64x64>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "mfma_v4_gfx950", sym_visibility = "public"}> ({
    // expected-remark @below {{amd_mfma: version=4 instrShape=16x16x32 warpsPerCTA=[1,4] transposed}}
    %0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<64x128xf32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [1, 4], instrShape = [16, 16, 32], isTransposed = true}>>}> : () -> tensor<64x128xf32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [1, 4], instrShape = [16, 16, 32], isTransposed = true}>>
    // expected-remark @below {{amd_mfma: version=4 instrShape=32x32x16 warpsPerCTA=[2,2] not-transposed tilesPerWarp=[2,2] elementBitWidth=64}}
    %1 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<128x128xf64, #ttg.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = false, tilesPerWarp = [2, 2], elementBitWidth = 64}>>}> : () -> tensor<128x128xf64, #ttg.amd_mfma<{version = 4, warpsPerCTA = [2, 2], instrShape = [32, 32, 16], isTransposed = false, tilesPerWarp = [2, 2], elementBitWidth = 64}>>
    // expected-remark @below {{swizzled_shared: vec=8 perPhase=2 maxPhase=8 order=[0,1]}}
    // expected-remark @below {{shared_memory}}
    %2 = "ttg.local_alloc"() : () -> !ttg.memdesc<2x64x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 8, order = [0, 1]}>, #ttg.shared_memory, mutable>
    %3 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %4 = "ttg.memdesc_index"(%2, %3) : (!ttg.memdesc<2x64x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 8, order = [0, 1]}>, #ttg.shared_memory, mutable>, i32) -> !ttg.memdesc<64x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 8, order = [0, 1]}>, #ttg.shared_memory, mutable, 2x64x64>
    // expected-remark @below {{dot_op: opIdx=1 kWidth=8 parent=(amd_mfma: version=4 instrShape=16x16x32 warpsPerCTA=[1,4] transposed)}}
    %5 = "ttg.local_load"(%4) : (!ttg.memdesc<64x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 8, order = [0, 1]}>, #ttg.shared_memory, mutable, 2x64x64>) -> tensor<64x128xf16, #ttg.dot_op<{opIdx = 1, parent = #ttg.amd_mfma<{version = 4, warpsPerCTA = [1, 4], instrShape = [16, 16, 32], isTransposed = true}>, kWidth = 8}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// CHECK-LABEL: sym_name = "linear_and_rotating"
// CHECK: #ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "linear_and_rotating", sym_visibility = "public"}> ({
    // expected-remark @below {{linear: rank=2 registers=16 lanes=64 warps=4 blocks=1}}
    %0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<32x128xf16, #ttg.linear<{register = [[1, 0], [2, 0], [8, 0], [16, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], warp = [[0, 64], [4, 0]], block = []}>>}> : () -> tensor<32x128xf16, #ttg.linear<{register = [[1, 0], [2, 0], [8, 0], [16, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], warp = [[0, 64], [4, 0]], block = []}>>
    // expected-remark @below {{amd_rotating_shared: vec=4 perPhase=2 maxPhase=8 order=[0,1]}}
    // expected-remark @below {{shared_memory}}
    %1 = "ttg.local_alloc"(%0) : (tensor<32x128xf16, #ttg.linear<{register = [[1, 0], [2, 0], [8, 0], [16, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], warp = [[0, 64], [4, 0]], block = []}>>) -> !ttg.memdesc<32x128xf16, #ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [0, 1]}>, #ttg.shared_memory>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// CHECK-LABEL: sym_name = "padded_and_shared_linear"
// CHECK: #ttg.padded_shared<[32:+4] {order = [1, 0], shape = [64, 64]}>
// CHECK: #ttg.padded_shared<[32:+4, 64:+8] {offset = [[0, 2], [0, 1], [1, 0]], block = []}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "padded_and_shared_linear", sym_visibility = "public"}> ({
    // expected-remark @below {{padded_shared: padding=[32:+4] order=[1,0] shape=[64,64]}}
    // expected-remark @below {{shared_memory}}
    %0 = "ttg.local_alloc"() : () -> !ttg.memdesc<64x64xf16, #ttg.padded_shared<[32:+4] {order = [1, 0], shape = [64, 64]}>, #ttg.shared_memory, mutable>
    // expected-remark @below {{padded_shared: padding=[32:+4,64:+8] order=[1,0] shape=[2,4] non-identity}}
    %1 = "ttg.local_alloc"() : () -> !ttg.memdesc<2x4xf16, #ttg.padded_shared<[32:+4, 64:+8] {offset = [[0, 2], [0, 1], [1, 0]], block = []}>, #ttg.shared_memory, mutable>
    // expected-remark @below {{shared_linear: rank=2 offsets=8 blocks=1 alignment=16}}
    %2 = "ttg.local_alloc"() : () -> !ttg.memdesc<2x4xf16, #ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0]]}, alignment = 16>, #ttg.shared_memory, mutable>
    // expected-remark @below {{partitioned_shared: numPartitions=2 numGroups=1 partitionDim=0 partitionLayout=(swizzled_shared: vec=8 perPhase=1 maxPhase=16 order=[0,1])}}
    %3 = "ttg.local_alloc"() : () -> !ttg.memdesc<64x64xf16, #ttg.partitioned_shared<{numPartitions = 2, numGroups = 1, partitionDim = 0, partitionLayout = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 16, order = [0, 1]}>}>, #ttg.shared_memory, mutable>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// CHECK-LABEL: sym_name = "wmma_gfx1200"
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1200", "ttg.threads-per-warp" = 32 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "wmma_gfx1200", sym_visibility = "public"}> ({
    // expected-remark @below {{amd_wmma: version=2 instrShape=16x16x16 warps=4 not-transposed}}
    %0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<64x64xf32, #ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = {warp = [[0, 1], [1, 0]]}}>>}> : () -> tensor<64x64xf32, #ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = {warp = [[0, 1], [1, 0]]}}>>
    // expected-remark @below {{amd_wmma: version=3 instrShape=16x16x32 warps=4 transposed CGALayout=[[0,1]]}}
    %1 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<64x64xf32, #ttg.amd_wmma<{version = 3, isTranspose = true, ctaLayout = {register = [[1, 0]], warp = [[0, 1], [2, 0]]}, CGALayout = [[0, 1]], instrShape = [16, 16, 32]}>>}> : () -> tensor<64x64xf32, #ttg.amd_wmma<{version = 3, isTranspose = true, ctaLayout = {register = [[1, 0]], warp = [[0, 1], [2, 0]]}, CGALayout = [[0, 1]], instrShape = [16, 16, 32]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// Passes also run on CUDA targets.
// CHECK-LABEL: sym_name = "cuda_sm90"
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "cuda_sm90", sym_visibility = "public"}> ({
    // expected-remark @below {{nvidia_mma: version=3.0 instrShape=16x128x16 warpsPerCTA=[4,1]}}
    %0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<64x128xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>>}> : () -> tensor<64x128xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>>
    // expected-remark @below {{nvmma_shared: swizzlingByteWidth=128 elementBitWidth=16 rank=2}}
    // expected-remark @below {{shared_memory}}
    %1 = "ttg.local_alloc"() : () -> !ttg.memdesc<3x64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>
    // expected-remark @below {{generic_linear: rank=2 registers=2 lanes=4 warps=1 blocks=1}}
    %2 = "arith.constant"() <{value = dense<0> : tensor<4x2xi32, #ttg.generic_linear<{register = [[0, 1]], lane = [[1, 0], [2, 0]], warp = [], block = []}>>}> : () -> tensor<4x2xi32, #ttg.generic_linear<{register = [[0, 1]], lane = [[1, 0], [2, 0]], warp = [], block = []}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// Multi-CTA layouts keep their CGALayout.
// CHECK-LABEL: sym_name = "cga_layouts"
// CHECK: CGALayout = {{\[\[}}1, 0]]
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "cga_layouts", sym_visibility = "public"}> ({
    // expected-remark @below {{blocked: sizePerThread=[1,1] threadsPerWarp=[1,32] warpsPerCTA=[2,2] order=[1,0] CGALayout=[[1,0]]}}
    %0 = "arith.constant"() <{value = dense<0> : tensor<64x64xi32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0], CGALayout = [[1, 0]]}>>}> : () -> tensor<64x64xi32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0], CGALayout = [[1, 0]]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// A module without TritonGPU layouts: nothing to report.
// CHECK-LABEL: sym_name = "no_layouts"
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (!tt.ptr<f32>, i32) -> (), sym_name = "no_layouts", sym_visibility = "public"}> ({
  ^bb0(%p: !tt.ptr<f32>, %n: i32):
    %0 = "arith.addi"(%n, %n) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    "tt.return"() : () -> ()
  }) : () -> ()
}
