// RUN: mfma-opt %s -split-input-file -mfma-split-epilogue-cvt=lds-limit=16384 -verify-diagnostics | filecheck %s
// RUN: mfma-opt %s -split-input-file -mfma-split-epilogue-cvt=lds-limit=32768 2>/dev/null | filecheck %s --check-prefix=L32
// RUN: mfma-opt %s -split-input-file -mfma-split-epilogue-cvt 2>&1 >/dev/null | filecheck %s --check-prefix=DEFAULT
// RUN: mfma-opt %s -split-input-file -mfma-split-epilogue-cvt="lds-limit=16384 max-steps=2" 2>/dev/null | filecheck %s --check-prefix=STEPS2

// Converts whose LDS scratch (as Triton 3.9 allocates it, LDSModel.h) does
// not fit the budget become chains of converts, each step within budget; the
// budget defaults to the target's LDS. Main run: a 16 KiB budget.

// The epilogue shape: 256x128 f32 from the MFMA layout to a blocked one needs
// 64 KiB of scratch; through the same MFMA layout with warps [1, 4] each step
// needs 16 KiB.
// CHECK-LABEL: sym_name = "split_gfx942"
// CHECK: %[[I:.*]] = "ttg.convert_layout"(%arg0) : (tensor<256x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], {{.*}}>>) -> tensor<256x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 4], instrShape = [32, 32, 8], isTransposed = true}>>
// CHECK-NEXT: %[[O:.*]] = "ttg.convert_layout"(%[[I]]) : ({{.*}}) -> tensor<256x128xf32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
// CHECK-NEXT: "tt.store"(%arg1, %[[O]])
// With 32 KiB the cheapest chain is another: a blocked layout one register
// permutation away from the destination (a step without LDS).
// L32-LABEL: sym_name = "split_gfx942"
// L32: "ttg.convert_layout"(%arg0) : ({{.*}}) -> tensor<256x128xf32, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
// L32-NEXT: "ttg.convert_layout"
// L32-NEXT: "tt.store"
// The default budget is gfx942's 64 KiB: nothing to do.
// DEFAULT: remark: LDS total 65536 B within budget 65536 B: no convert_layout to split
// max-steps=2 gives the same two-step chain here.
// STEPS2-LABEL: sym_name = "split_gfx942"
// STEPS2: "ttg.convert_layout"(%arg0) : ({{.*}}) -> tensor<256x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 4]
// STEPS2-NEXT: "ttg.convert_layout"
// STEPS2-NEXT: "tt.store"
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // expected-remark @below {{LDS total 65536 B -> 16384 B, within budget 16384 B (1 convert_layout split)}}
  "tt.func"() <{function_type = (tensor<256x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>, tensor<256x128x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> (), sym_name = "split_gfx942", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<256x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>, %arg1: tensor<256x128x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>):
    // expected-remark @below {{split convert_layout (65536 B scratch + 0 B live explicit > budget 16384 B) into 2 converts via [amd_mfma: version=3 instrShape=32x32x8 warpsPerCTA=[1,4] transposed]; step scratch 16384 16384 B, LDS traffic 524288 B (was 262144 B)}}
    %0 = "ttg.convert_layout"(%arg0) : (tensor<256x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>) -> tensor<256x128xf32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
    "tt.store"(%arg1, %0) <{boundaryCheck = array<i32>, cache = 1 : i32, evict = 1 : i32}> : (tensor<256x128x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>, tensor<256x128xf32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> ()
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// gfx90a, f16, warps [2, 2]: 32 KiB of scratch, 8 + 16 KiB in two steps.
// CHECK-LABEL: sym_name = "split_gfx90a"
// CHECK: "ttg.convert_layout"(%arg0) : ({{.*}}) -> tensor<256x128xf16, #ttg.amd_mfma<{version = 2, warpsPerCTA = [1, 4], instrShape = [32, 32, 8], isTransposed = true}>>
// CHECK-NEXT: "ttg.convert_layout"({{.*}}) -> tensor<256x128xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [2, 2], order = [1, 0]}>>
// 32 KiB fits a budget of 32 KiB.
// L32-LABEL: sym_name = "split_gfx90a"
// L32: %0 = "ttg.convert_layout"(%arg0)
// L32-NEXT: "tt.return"
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
  // expected-remark @below {{LDS total 32768 B -> 16384 B, within budget 16384 B (1 convert_layout split)}}
  "tt.func"() <{function_type = (tensor<256x128xf16, #ttg.amd_mfma<{version = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>) -> (), sym_name = "split_gfx90a", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<256x128xf16, #ttg.amd_mfma<{version = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>):
    // expected-remark @below {{split convert_layout (32768 B scratch + 0 B live explicit > budget 16384 B) into 2 converts via [amd_mfma: version=2 instrShape=32x32x8 warpsPerCTA=[1,4] transposed]; step scratch 8192 16384 B, LDS traffic 327680 B (was 196608 B)}}
    %0 = "ttg.convert_layout"(%arg0) : (tensor<256x128xf16, #ttg.amd_mfma<{version = 2, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>>) -> tensor<256x128xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [2, 2], order = [1, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// gfx950 (64 banks, 160 KiB).
// CHECK-LABEL: sym_name = "split_gfx950"
// CHECK: "ttg.convert_layout"(%arg0) : ({{.*}}) -> tensor<256x256xf32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [1, 4], instrShape = [32, 32, 16], isTransposed = true}>>
// CHECK-NEXT: "ttg.convert_layout"
// DEFAULT: remark: LDS total 65536 B within budget 163840 B: no convert_layout to split
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32} {
  // expected-remark @below {{LDS total 65536 B -> 16384 B, within budget 16384 B (1 convert_layout split)}}
  "tt.func"() <{function_type = (tensor<256x256xf32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 16], isTransposed = true}>>) -> (), sym_name = "split_gfx950", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<256x256xf32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 16], isTransposed = true}>>):
    // expected-remark @below {{split convert_layout (65536 B scratch + 0 B live explicit > budget 16384 B) into 2 converts via [amd_mfma: version=4 instrShape=32x32x16 warpsPerCTA=[1,4] transposed]; step scratch 16384 16384 B, LDS traffic 1048576 B (was 524288 B)}}
    %0 = "ttg.convert_layout"(%arg0) : (tensor<256x256xf32, #ttg.amd_mfma<{version = 4, warpsPerCTA = [4, 1], instrShape = [32, 32, 16], isTransposed = true}>>) -> tensor<256x256xf32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// A convert that fits is left alone.
// CHECK-LABEL: sym_name = "no_split_fits"
// CHECK: %0 = "ttg.convert_layout"(%arg0)
// CHECK-NEXT: "tt.return"
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // expected-remark @below {{LDS total 8192 B within budget 16384 B: no convert_layout to split}}
  "tt.func"() <{function_type = (tensor<64x64xf16, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>) -> (), sym_name = "no_split_fits", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<64x64xf16, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>):
    %0 = "ttg.convert_layout"(%arg0) : (tensor<64x64xf16, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>) -> tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// 12 KiB of local_alloc buffers live across the convert leave 4 KiB; no
// chain gets every step that low: the IR is left unchanged.
// CHECK-LABEL: sym_name = "no_split_impossible_budget"
// CHECK: %2 = "ttg.convert_layout"(%arg0)
// CHECK-NEXT: "ttg.local_load"
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // expected-remark @below {{LDS total 77824 B exceeds budget 16384 B and not every convert can be split to fit; IR unchanged}}
  "tt.func"() <{function_type = (tensor<256x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>, tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>, tensor<32x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> (), sym_name = "no_split_impossible_budget", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<256x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>, %arg1: tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>, %arg2: tensor<32x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>):
    %a = "ttg.local_alloc"(%arg1) : (tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> !ttg.memdesc<64x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, #ttg.shared_memory>
    %b = "ttg.local_alloc"(%arg2) : (tensor<32x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> !ttg.memdesc<32x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, #ttg.shared_memory>
    // expected-remark @below {{convert_layout needs 65536 B of LDS scratch with 12288 B of explicit buffers live, over the budget of 16384 B; no chain of at most 3 converts through the candidate layouts keeps every step within 4096 B (smallest step over it: 8192 B)}}
    %0 = "ttg.convert_layout"(%arg0) : (tensor<256x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>) -> tensor<256x128xf32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
    %la = "ttg.local_load"(%a) : (!ttg.memdesc<64x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, #ttg.shared_memory>) -> tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
    %lb = "ttg.local_load"(%b) : (!ttg.memdesc<32x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, #ttg.shared_memory>) -> tensor<32x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// The local_alloc buffer alone uses the whole budget.
// CHECK-LABEL: sym_name = "no_split_explicit_buffers"
// CHECK: %1 = "ttg.convert_layout"(%arg0)
// CHECK-NEXT: "ttg.local_load"
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // expected-remark @below {{LDS total 81920 B exceeds budget 16384 B and not every convert can be split to fit; IR unchanged}}
  "tt.func"() <{function_type = (tensor<256x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>, tensor<128x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> (), sym_name = "no_split_explicit_buffers", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<256x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>, %arg1: tensor<128x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>):
    %a = "ttg.local_alloc"(%arg1) : (tensor<128x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> !ttg.memdesc<128x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, #ttg.shared_memory>
    // expected-remark @below {{convert_layout needs 65536 B of LDS scratch with 16384 B of explicit buffers live, over the budget of 16384 B; the explicit buffers alone use the budget}}
    %0 = "ttg.convert_layout"(%arg0) : (tensor<256x128xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [4, 1], instrShape = [32, 32, 8], isTransposed = true}>>) -> tensor<256x128xf32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
    %la = "ttg.local_load"(%a) : (!ttg.memdesc<128x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, #ttg.shared_memory>) -> tensor<128x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// Over budget, but because of a local_alloc: not this pass's business.
// CHECK-LABEL: sym_name = "no_split_no_convert"
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  // expected-remark @below {{LDS total 32768 B exceeds budget 16384 B, but no convert_layout's scratch is over it (explicit buffers, or their layout); IR unchanged}}
  "tt.func"() <{function_type = (tensor<128x128xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> (), sym_name = "no_split_no_convert", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<128x128xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>):
    %a = "ttg.local_alloc"(%arg0) : (tensor<128x128xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> !ttg.memdesc<128x128xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, #ttg.shared_memory>
    %la = "ttg.local_load"(%a) : (!ttg.memdesc<128x128xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, #ttg.shared_memory>) -> tensor<128x128xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}
