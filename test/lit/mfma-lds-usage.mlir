// RUN: mfma-opt %s -split-input-file -mfma-lds-usage -verify-diagnostics | filecheck %s
// RUN: mfma-opt %s -split-input-file -mfma-lds-usage=annotate=true -verify-diagnostics | filecheck %s --check-prefix=ANNOT

// The LDS model as Triton 3.9's allocation computes it (every number below
// is what Triton's AllocateAMDGPUSharedMemory gives the same module). The
// pass is an analysis: without `annotate` the IR is unchanged.

// An epilogue-shaped convert: the swizzled scratch holds 1/8 of the tensor
// (8 rounds through the same buffer).
// CHECK-LABEL: sym_name = "epilogue_gfx942"
// CHECK-NOT: mfma.lds
// ANNOT-LABEL: sym_name = "epilogue_gfx942"
// ANNOT: "ttg.convert_layout"(%arg0) {mfma.dst_linear = "#ttg.linear<{register = {{.*}}", mfma.lds_offset = 0 : i64, mfma.lds_path = "lds", mfma.lds_scratch = 16384 : i64, mfma.src_linear = "#ttg.linear<{register = [[0, 1], [0, 2], [0, 8], [0, 16], [0, 32], [0, 64], [128, 0]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]], warp = [[32, 0], [64, 0]], block = []}>"}
// ANNOT: mfma.lds_total = 16384 : i64
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // expected-remark @below {{LDS total 16384 B of 65536 B (hip:gfx942)}}
  "tt.func"() <{function_type = (tensor<256x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>) -> (), sym_name = "epilogue_gfx942", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<256x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>):
    // expected-remark @below {{convert_layout: lds, scratch 16384 B (4096 x 32 bit, 8 rounds), live explicit 0 B}}
    %0 = "ttg.convert_layout"(%arg0) : (tensor<256x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>) -> tensor<256x128xf32, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// gfx950: 64 banks, its own ds_read_b128 lane tile, 160 KiB of LDS.
// ANNOT-LABEL: sym_name = "epilogue_gfx950"
// ANNOT: mfma.lds_scratch = 16384 : i64
// ANNOT: mfma.lds_total = 16384 : i64
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32} {
  // expected-remark @below {{LDS total 16384 B of 163840 B (hip:gfx950)}}
  "tt.func"() <{function_type = (tensor<256x128xf32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 16], isTransposed = true}>>) -> (), sym_name = "epilogue_gfx950", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<256x128xf32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 16], isTransposed = true}>>):
    // expected-remark @below {{convert_layout: lds, scratch 16384 B (4096 x 32 bit, 8 rounds), live explicit 0 B}}
    %0 = "ttg.convert_layout"(%arg0) : (tensor<256x128xf32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 16], isTransposed = true}>>) -> tensor<256x128xf32, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// Liveness: the first convert runs while the local_alloc buffer is live
// (16384 + 32768 B), the second after its last use, so it reuses space.
// ANNOT-LABEL: sym_name = "liveness_gfx90a"
// ANNOT: "ttg.local_alloc"(%arg1) {mfma.lds_offset = 32768 : i64, mfma.lds_scratch = 16384 : i64}
// ANNOT: mfma.lds_offset = 0 : i64, mfma.lds_path = "lds", mfma.lds_scratch = 32768 : i64
// ANNOT: mfma.lds_offset = 0 : i64, mfma.lds_path = "lds", mfma.lds_scratch = 16384 : i64
// ANNOT: mfma.lds_total = 49152 : i64
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
  // expected-remark @below {{LDS total 49152 B of 65536 B (hip:gfx90a)}}
  "tt.func"() <{function_type = (tensor<128x128xf16, #ttg.amd_mfma<{version = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>, tensor<128x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [2, 2], order = [1, 0]}>>) -> (), sym_name = "liveness_gfx90a", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<128x128xf16, #ttg.amd_mfma<{version = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>, %arg1: tensor<128x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [2, 2], order = [1, 0]}>>):
    // expected-remark @below {{local_alloc: 16384 B}}
    %0 = "ttg.local_alloc"(%arg1) : (tensor<128x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [2, 2], order = [1, 0]}>>) -> !ttg.memdesc<128x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, #ttg.shared_memory>
    // expected-remark @below {{convert_layout: lds, scratch 32768 B (16384 x 16 bit, 1 round), live explicit 16384 B}}
    %1 = "ttg.convert_layout"(%arg0) : (tensor<128x128xf16, #ttg.amd_mfma<{version = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>) -> tensor<128x128xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [2, 2], order = [1, 0]}>>
    %2 = "ttg.local_load"(%0) : (!ttg.memdesc<128x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, #ttg.shared_memory>) -> tensor<128x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [2, 2], order = [1, 0]}>>
    // expected-remark @below {{convert_layout: lds, scratch 16384 B (8192 x 16 bit, 2 rounds), live explicit 0 B}}
    %3 = "ttg.convert_layout"(%arg0) : (tensor<128x128xf16, #ttg.amd_mfma<{version = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>) -> tensor<128x128xf16, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// The flash-attention P -> dot operand convert only renames registers.
// ANNOT-LABEL: sym_name = "no_lds_registers"
// ANNOT: mfma.lds_path = "registers", mfma.lds_scratch = 0 : i64
// ANNOT: mfma.lds_total = 0 : i64
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // expected-remark @below {{LDS total 0 B of 65536 B (hip:gfx942)}}
  "tt.func"() <{function_type = (tensor<256x32xf16, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>) -> (), sym_name = "no_lds_registers", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<256x32xf16, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>):
    // expected-remark @below {{convert_layout: registers, no LDS}}
    %0 = "ttg.convert_layout"(%arg0) : (tensor<256x32xf16, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>) -> tensor<256x32xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>, kWidth = 4}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// A scan whose axis spans 4 warps exchanges one f32 per warp and lane group
// through LDS: 4 B x 4 warps (Triton's ScanLoweringHelper).
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // expected-remark @below {{LDS total 16 B of 65536 B (hip:gfx942)}}
  "tt.func"() <{function_type = (tensor<256xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>) -> (), sym_name = "scan", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<256xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>):
    %0 = "tt.scan"(%arg0) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
      %s = "arith.addf"(%a, %b) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
      "tt.scan.return"(%s) : (f32) -> ()
    }) : (tensor<256xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>) -> tensor<256xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// Scratch the model does not cover is an error, never a guess.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // expected-error @below {{LDS use not modelled: tt.histogram: LDS scratch of 'tt.histogram' is not modelled}}
  "tt.func"() <{function_type = (tensor<256xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>) -> (), sym_name = "no_histogram", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<256xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>):
    %0 = "tt.histogram"(%arg0) : (tensor<256xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>) -> tensor<64xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// expected-error @below {{mfma-lds-usage: no LDS model for hip target 'gfx1100'}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx1100", "ttg.threads-per-warp" = 32 : i32} {
}
