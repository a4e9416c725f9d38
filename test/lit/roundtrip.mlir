// Parse/print contract: what Triton 3.9 prints (generic form, debug locations,
// local scope, NameLoc result names) comes back byte for byte from our MLIR.
//
// Full real modules (gfx90a / gfx942 / gfx950), through mfma-opt and through
// the C API (several threads at once):
// RUN: mfma-opt %S/Inputs/gemm-gfx90a.mlir --mlir-print-op-generic --mlir-print-debuginfo --mlir-print-local-scope --mlir-use-nameloc-as-prefix -o %t.gemm-gfx90a.mlir
// RUN: %python %S/Inputs/same_text.py %S/Inputs/gemm-gfx90a.mlir %t.gemm-gfx90a.mlir
// RUN: mfma-opt %S/Inputs/attn_fwd_d64_causal-gfx942.mlir --mlir-print-op-generic --mlir-print-debuginfo --mlir-print-local-scope --mlir-use-nameloc-as-prefix -o %t.attn-gfx942.mlir
// RUN: %python %S/Inputs/same_text.py %S/Inputs/attn_fwd_d64_causal-gfx942.mlir %t.attn-gfx942.mlir
// RUN: mfma-opt %S/Inputs/splitk_gemm-gfx950.mlir --mlir-print-op-generic --mlir-print-debuginfo --mlir-print-local-scope --mlir-use-nameloc-as-prefix -o %t.splitk-gfx950.mlir
// RUN: %python %S/Inputs/same_text.py %S/Inputs/splitk_gemm-gfx950.mlir %t.splitk-gfx950.mlir
// RUN: %python %S/Inputs/capi_roundtrip.py %tmfma_lib %S/Inputs/gemm-gfx90a.mlir %S/Inputs/attn_fwd_d64_causal-gfx942.mlir %S/Inputs/splitk_gemm-gfx950.mlir | filecheck %s --check-prefix=CAPI
// CAPI: version: 0.1.0 (MLIR 22.1.8)
// CAPI: checked gemm-gfx90a.mlir [empty pipeline]
// CAPI: checked splitk_gemm-gfx950.mlir [builtin.module(mfma-print-layouts{round-trip-only=true})]
// CAPI: threads: done
// CAPI: truncated input: error: <input>:1:{{[0-9]+}}:
// CAPI: bad pipeline: error: unknown: invalid pass pipeline 'no-such-pass'
//
// The hand-written cases below: empty pipeline, and the layout round-trip
// check, which must report nothing on Triton-printed layouts.
// RUN: mfma-opt %s -split-input-file | filecheck %s
// RUN: mfma-opt %s -split-input-file -mfma-print-layouts=round-trip-only=true -verify-diagnostics | filecheck %s

// CHECK-LABEL: sym_name = "roundtrip_gemm_gfx942"
// CHECK: tensor<32x128xf16, #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [1, 64], warpsPerCTA = [2, 2], order = [1, 0]}>>
// CHECK: tensor<128xi32, #ttg.slice<{dim = 1, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>}>>
// CHECK: !ttg.memdesc<128x32xf16, #ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [1, 0]}>, #ttg.shared_memory>
// CHECK: tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>
// CHECK: tensor<32x128xf16, #ttg.linear<{register = {{\[\[}}1, 0], [2, 0], [8, 0], [16, 0]], lane = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], warp = {{\[\[}}0, 64], [4, 0]], block = []}>>
// CHECK: !ttg.memdesc<32x128xf16, #ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [0, 1]}>, #ttg.shared_memory>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<32x128xf16, #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [1, 64], warpsPerCTA = [2, 2], order = [1, 0]}>>, tensor<128x32xf16, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 32], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> (), sym_name = "roundtrip_gemm_gfx942", sym_visibility = "public"}> ({
  ^bb0(%b: tensor<32x128xf16, #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [1, 64], warpsPerCTA = [2, 2], order = [1, 0]}>>, %a: tensor<128x32xf16, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 32], warpsPerCTA = [4, 1], order = [1, 0]}>>):
    %0 = "tt.make_range"() <{end = 128 : i32, start = 0 : i32}> : () -> tensor<128xi32, #ttg.slice<{dim = 1, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>}>>
    %1 = "ttg.local_alloc"(%a) : (tensor<128x32xf16, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 32], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> !ttg.memdesc<128x32xf16, #ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [1, 0]}>, #ttg.shared_memory>
    %2 = "ttg.local_load"(%1) : (!ttg.memdesc<128x32xf16, #ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [1, 0]}>, #ttg.shared_memory>) -> tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>
    %3 = "amdg.in_thread_transpose"(%b) : (tensor<32x128xf16, #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [1, 64], warpsPerCTA = [2, 2], order = [1, 0]}>>) -> tensor<32x128xf16, #ttg.linear<{register = [[1, 0], [2, 0], [8, 0], [16, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], warp = [[0, 64], [4, 0]], block = []}>>
    %4 = "ttg.local_alloc"(%3) : (tensor<32x128xf16, #ttg.linear<{register = [[1, 0], [2, 0], [8, 0], [16, 0]], lane = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], warp = [[0, 64], [4, 0]], block = []}>>) -> !ttg.memdesc<32x128xf16, #ttg.amd_rotating_shared<{vec = 4, perPhase = 2, maxPhase = 8, order = [0, 1]}>, #ttg.shared_memory>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// CHECK-LABEL: sym_name = "roundtrip_other_kinds"
// CHECK: #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true, CGALayout = {{\[\[}}1, 0]], tilesPerWarp = [2, 1], elementBitWidth = 64}>
// CHECK: #ttg.padded_shared<[32:+4, 64:+8] {order = [0, 1], shape = [64, 32]}>
// CHECK: #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [1, 0]], block = {{\[\[}}2, 0]]}, alignment = 16>
// CHECK: #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8, fp4Padded = true, CGALayout = {{\[\[}}0, 1]]}>
// CHECK: #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16, rank = 3}>
// CHECK: #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 64], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>}>}>>
module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "roundtrip_other_kinds", sym_visibility = "public"}> ({
    %0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<128x128xf64, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true, CGALayout = [[1, 0]], tilesPerWarp = [2, 1], elementBitWidth = 64}>>}> : () -> tensor<128x128xf64, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true, CGALayout = [[1, 0]], tilesPerWarp = [2, 1], elementBitWidth = 64}>>
    %1 = "ttg.local_alloc"() : () -> !ttg.memdesc<64x32xf16, #ttg.padded_shared<[32:+4, 64:+8] {order = [0, 1], shape = [64, 32]}>, #ttg.shared_memory, mutable>
    %2 = "ttg.local_alloc"() : () -> !ttg.memdesc<4x4xf16, #ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0]], block = [[2, 0]]}, alignment = 16>, #ttg.shared_memory, mutable>
    %3 = "ttg.local_alloc"() : () -> !ttg.memdesc<64x64xf8E4M3FN, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8, fp4Padded = true, CGALayout = [[0, 1]]}>, #ttg.shared_memory, mutable>
    %4 = "ttg.local_alloc"() : () -> !ttg.memdesc<2x64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16, rank = 3}>, #ttg.shared_memory, mutable>
    %5 = "tt.make_range"() <{end = 64 : i32, start = 0 : i32}> : () -> tensor<64xi32, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 64], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>}>}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}
