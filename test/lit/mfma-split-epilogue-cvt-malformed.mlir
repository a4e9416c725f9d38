// RUN: mfma-opt %s -split-input-file -mfma-split-epilogue-cvt=lds-limit=4096 -verify-diagnostics

// Inputs the fuzzer (test/fuzz/mfma_fuzz.py) found crashing
// mfma-split-epilogue-cvt; each now gets a remark and the IR stays as it is.

// ttg.num-warps = -1 (was: SIGFPE, the candidate warp splits of 2^32 - 1
// warps overflowed).
// expected-remark @below {{mfma-split-epilogue-cvt: ttg.num-warps = -1 : i32 is not modelled (a power of two up to 64); IR unchanged}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = -1 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (tensor<256x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>, tensor<256x128x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> (), sym_name = "split_warps"}> ({
  ^bb0(%arg0: tensor<256x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>, %arg1: tensor<256x128x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>):
    %0 = "ttg.convert_layout"(%arg0) : (tensor<256x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>) -> tensor<256x128xf32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
    "tt.store"(%arg1, %0) <{boundaryCheck = array<i32>, cache = 1 : i32, evict = 1 : i32}> : (tensor<256x128x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>, tensor<256x128xf32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> ()
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// A rank-3 convert over budget (was: SmallVector `idx < size()`, blocked
// candidates are built for rank 1 and 2 only).
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // expected-remark @below {{LDS total 32768 B exceeds budget 4096 B and not every convert can be split to fit; IR unchanged}}
  "tt.func"() <{function_type = (tensor<2x64x64xf32, #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 16, 4], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>>) -> (), sym_name = "split_rank3"}> ({
  ^bb0(%arg0: tensor<2x64x64xf32, #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 16, 4], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>>):
    // expected-remark @below {{convert_layout needs 32768 B of LDS scratch with 0 B of explicit buffers live, over the budget of 4096 B}}
    %0 = "ttg.convert_layout"(%arg0) : (tensor<2x64x64xf32, #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 16, 4], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>>) -> tensor<2x64x64xf32, #ttg.blocked<{sizePerThread = [1, 4, 1], threadsPerWarp = [1, 4, 16], warpsPerCTA = [1, 1, 4], order = [1, 2, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}
