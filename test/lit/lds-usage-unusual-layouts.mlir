// RUN: mfma-opt %s -split-input-file -mfma-lds-usage -verify-diagnostics

// Valid layouts in combinations no kernel of the corpus has, from the
// fuzzer's generated inputs (test/fuzz/mfma_fuzz.py): a linear layout with
// a combined register basis and a broadcast lane, and one with lanes over
// both halves of a dimension. The (register, lane) map between them is not a
// permutation; the walk over its cycles that counts register<->lane
// transpositions looped forever (mfma-lds-usage and mfma-split-epilogue-cvt
// hung). It now stops at any node it has seen.

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
  // expected-remark @below {{LDS total 4096 B of 65536 B (hip:gfx90a)}}
  "tt.func"() <{function_type = (tensor<32x256x2xi1, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [8, 4, 1, 2], threadsPerWarp = [1, 16, 2, 2], warpsPerCTA = [1, 1, 1, 1], order = [0, 2, 1, 3]}>}>>) -> (), sym_name = "generated", sym_visibility = "public"}> ({
  ^bb0(%a: tensor<32x256x2xi1, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [8, 4, 1, 2], threadsPerWarp = [1, 16, 2, 2], warpsPerCTA = [1, 1, 1, 1], order = [0, 2, 1, 3]}>}>>):
    // expected-remark @below {{convert_layout: lds, scratch 4096 B (4096 x 8 bit, 4 rounds), live explicit 0 B}}
    %c = "ttg.convert_layout"(%a) : (tensor<32x256x2xi1, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [8, 4, 1, 2], threadsPerWarp = [1, 16, 2, 2], warpsPerCTA = [1, 1, 1, 1], order = [0, 2, 1, 3]}>}>>) -> tensor<32x256x2xi1, #ttg.linear<{register = [[0, 129, 0], [0, 32, 0], [16, 0, 0], [2, 0, 0], [4, 0, 0], [0, 2, 0], [0, 1, 0], [1, 0, 0], [0, 128, 0], [0, 16, 0]], lane = [[0, 0, 0], [0, 8, 0], [0, 64, 0], [0, 0, 1], [0, 4, 0], [8, 0, 0]], warp = [], block = []}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32} {
  // expected-remark @below {{LDS total 512 B of 163840 B (hip:gfx950)}}
  "tt.func"() <{function_type = (tensor<256xbf16, #ttg.linear<{register = [[4], [18], [32]], lane = [[1], [64], [128], [16], [2], [8]], warp = [], block = []}>>) -> (), sym_name = "generated", sym_visibility = "public"}> ({
  ^bb0(%a: tensor<256xbf16, #ttg.linear<{register = [[4], [18], [32]], lane = [[1], [64], [128], [16], [2], [8]], warp = [], block = []}>>):
    // expected-remark @below {{convert_layout: lds, scratch 512 B (256 x 16 bit, 1 round), live explicit 0 B}}
    %c = "ttg.convert_layout"(%a) : (tensor<256xbf16, #ttg.linear<{register = [[4], [18], [32]], lane = [[1], [64], [128], [16], [2], [8]], warp = [], block = []}>>) -> tensor<256xbf16, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}
