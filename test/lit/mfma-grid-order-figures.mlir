// RUN: mfma-opt %s -split-input-file -mfma-grid-order -verify-diagnostics | filecheck %s
// RUN: mfma-opt %s -split-input-file -mfma-grid-order=programs-per-cu=3 2>/dev/null | filecheck %s --check-prefix=GIVEN
// RUN: mfma-opt %s -split-input-file -mfma-grid-order=mode=on 2>/dev/null | filecheck %s --check-prefix=ON

// mfma-grid-order's figures: programs per CU in the run-time guard (a lower
// bound at TTGIR: registers bounded by the register file, LDS exact from the
// LDS model, workgroup slots; `programs-per-cu` gives the real figure), and
// the multi-XCD verdict (the remap only where the shared operands' distinct
// bytes exceed an XCD's effective L2). Kernels: the split-K decode kernel of
// mfma-grid-order.mlir (W shared by the M tiles on the slowest axis) and a
// 1-D grid split by a constant row length.

// One warp per program: registers allow at least 4 programs per CU (one wave
// per SIMD), but the LDS model counts the kernel's 85x128xf16 buffer (21760
// B, 22016 in 512-byte granules): 64 KiB holds 2. P = 104 x 2.
// CHECK-LABEL: sym_name = "splitk_lds_bound"
// CHECK:      "arith.constant"() <{value = 208 : i32}>
// CHECK:      {tmfma.grid_value = ["test:waves"]}
// CHECK:      tmfma.grid_order = {{.*}}lds_bytes = 21760 : i64, lds_source = "LDS model"{{.*}}num_warps = 1 : i64{{.*}}programs_by_lds = 2 : i64, programs_by_registers = 4 : i64, programs_by_slots = 16 : i64, programs_limiter = "LDS", programs_per_cu = 2 : i64, programs_source = "lower bound"
// programs-per-cu=3 (a caller that knows the compiled kernel's residency):
// P = 104 x 3, whatever the bound.
// GIVEN-LABEL: sym_name = "splitk_lds_bound"
// GIVEN:       "arith.constant"() <{value = 312 : i32}>
// GIVEN:       programs_per_cu = 3 : i64, programs_source = "programs-per-cu option"
// expected-remark @+3 {{more than P = 208 programs (104 CUs x 2; a lower bound: registers allow at least 4 programs of 1 warps per CU whatever their registers, LDS (21760 B, LDS model) 2, workgroup slots 16)}}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 1 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (!tt.ptr<f16>, !tt.ptr<f16>, !tt.ptr<f32>, i32, i32) -> (), sym_name = "splitk_lds_bound", sym_visibility = "public"}> ({
  ^bb0(%a_ptr: !tt.ptr<f16>, %w_ptr: !tt.ptr<f16>, %p_ptr: !tt.ptr<f32>, %K: i32, %N: i32):
    %c0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %c1 = "arith.constant"() <{value = 1 : i32}> : () -> i32
    %c32 = "arith.constant"() <{value = 32 : i32}> : () -> i32
    %c64 = "arith.constant"() <{value = 64 : i32}> : () -> i32
    %c511 = "arith.constant"() <{value = 511 : i32}> : () -> i32
    %c512 = "arith.constant"() <{value = 512 : i32}> : () -> i32
    %pid_n = "tt.get_program_id"() <{axis = 0 : i32}> : () -> i32
    %pid_k = "tt.get_program_id"() <{axis = 1 : i32}> : () -> i32
    %pid_m = "tt.get_program_id"() <{axis = 2 : i32}> : () -> i32
    %lds = "ttg.local_alloc"() : () -> !ttg.memdesc<85x128xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, #ttg.shared_memory, mutable>
    %rm = "arith.muli"(%pid_m, %c32) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %rn = "arith.muli"(%pid_n, %c64) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %rk = "arith.muli"(%pid_k, %c64) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %a_row = "arith.muli"(%rm, %K) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %a_off = "arith.addi"(%a_row, %rk) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %a_ptrs_b = "tt.addptr"(%a_ptr, %a_off) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %a_ptrs_s = "tt.splat"(%a_ptrs_b) : (!tt.ptr<f16>) -> tensor<32x64x!tt.ptr<f16>, #bl>
    %a_ptrs_o = "arith.constant"() <{value = dense<1> : tensor<32x64xi32, #bl>}> : () -> tensor<32x64xi32, #bl>
    %a_ptrs = "tt.addptr"(%a_ptrs_s, %a_ptrs_o) : (tensor<32x64x!tt.ptr<f16>, #bl>, tensor<32x64xi32, #bl>) -> tensor<32x64x!tt.ptr<f16>, #bl>
    %w_row = "arith.muli"(%rk, %N) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %w_off = "arith.addi"(%w_row, %rn) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %w_ptrs_b = "tt.addptr"(%w_ptr, %w_off) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %w_ptrs_s = "tt.splat"(%w_ptrs_b) : (!tt.ptr<f16>) -> tensor<64x64x!tt.ptr<f16>, #bl>
    %w_ptrs_o = "arith.constant"() <{value = dense<1> : tensor<64x64xi32, #bl>}> : () -> tensor<64x64xi32, #bl>
    %w_ptrs = "tt.addptr"(%w_ptrs_s, %w_ptrs_o) : (tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>) -> tensor<64x64x!tt.ptr<f16>, #bl>
    %kt = "arith.addi"(%K, %c511) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %ub = "arith.divsi"(%kt, %c512) : (i32, i32) -> i32
    %step_w = "arith.muli"(%N, %c512) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %acc0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<32x64xf32, #bl>}> : () -> tensor<32x64xf32, #bl>
    %sa = "tt.splat"(%c512) : (i32) -> tensor<32x64xi32, #bl>
    %sw = "tt.splat"(%step_w) : (i32) -> tensor<64x64xi32, #bl>
    %r:3 = "scf.for"(%c0, %ub, %c1, %a_ptrs, %w_ptrs, %acc0) ({
    ^bb0(%k: i32, %ap: tensor<32x64x!tt.ptr<f16>, #bl>, %wp: tensor<64x64x!tt.ptr<f16>, #bl>, %acc: tensor<32x64xf32, #bl>):
      %a = "tt.load"(%ap) <{isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<32x64x!tt.ptr<f16>, #bl>) -> tensor<32x64xf16, #bl>
      %w = "tt.load"(%wp) <{isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<64x64x!tt.ptr<f16>, #bl>) -> tensor<64x64xf16, #bl>
      %d = "tt.dot"(%a, %w, %acc) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<32x64xf16, #bl>, tensor<64x64xf16, #bl>, tensor<32x64xf32, #bl>) -> tensor<32x64xf32, #bl>
      %ap2 = "tt.addptr"(%ap, %sa) : (tensor<32x64x!tt.ptr<f16>, #bl>, tensor<32x64xi32, #bl>) -> tensor<32x64x!tt.ptr<f16>, #bl>
      %wp2 = "tt.addptr"(%wp, %sw) : (tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>) -> tensor<64x64x!tt.ptr<f16>, #bl>
      "scf.yield"(%ap2, %wp2, %d) : (tensor<32x64x!tt.ptr<f16>, #bl>, tensor<64x64x!tt.ptr<f16>, #bl>, tensor<32x64xf32, #bl>) -> ()
    }) : (i32, i32, i32, tensor<32x64x!tt.ptr<f16>, #bl>, tensor<64x64x!tt.ptr<f16>, #bl>, tensor<32x64xf32, #bl>) -> (tensor<32x64x!tt.ptr<f16>, #bl>, tensor<64x64x!tt.ptr<f16>, #bl>, tensor<32x64xf32, #bl>)
    %p_k = "arith.muli"(%pid_k, %N) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %p_off0 = "arith.addi"(%p_k, %rm) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %p_off = "arith.addi"(%p_off0, %rn) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %o_b = "tt.addptr"(%p_ptr, %p_off) : (!tt.ptr<f32>, i32) -> !tt.ptr<f32>
    %o_s = "tt.splat"(%o_b) : (!tt.ptr<f32>) -> tensor<32x64x!tt.ptr<f32>, #bl>
    "tt.store"(%o_s, %r#2) <{boundaryCheck = array<i32>, cache = 1 : i32, evict = 1 : i32}> : (tensor<32x64x!tt.ptr<f32>, #bl>, tensor<32x64xf32, #bl>) -> ()
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// Eight warps per program on gfx90a: two waves per SIMD, which fit only if
// each has at most 256 registers; the bound is still one program per CU.
// CHECK-LABEL: sym_name = "splitk_8_warps"
// CHECK:      "arith.constant"() <{value = 104 : i32}>
// expected-remark @+3 {{more than P = 104 programs (104 CUs x 1; a lower bound: registers allow at least 1 program of 8 warps per CU whatever its registers}}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (!tt.ptr<f16>, !tt.ptr<f16>, !tt.ptr<f32>, i32, i32) -> (), sym_name = "splitk_8_warps", sym_visibility = "public"}> ({
  ^bb0(%a_ptr: !tt.ptr<f16>, %w_ptr: !tt.ptr<f16>, %p_ptr: !tt.ptr<f32>, %K: i32, %N: i32):
    %c0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %c1 = "arith.constant"() <{value = 1 : i32}> : () -> i32
    %c32 = "arith.constant"() <{value = 32 : i32}> : () -> i32
    %c64 = "arith.constant"() <{value = 64 : i32}> : () -> i32
    %c511 = "arith.constant"() <{value = 511 : i32}> : () -> i32
    %c512 = "arith.constant"() <{value = 512 : i32}> : () -> i32
    %pid_n = "tt.get_program_id"() <{axis = 0 : i32}> : () -> i32
    %pid_k = "tt.get_program_id"() <{axis = 1 : i32}> : () -> i32
    %pid_m = "tt.get_program_id"() <{axis = 2 : i32}> : () -> i32
    %rm = "arith.muli"(%pid_m, %c32) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %rn = "arith.muli"(%pid_n, %c64) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %rk = "arith.muli"(%pid_k, %c64) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %a_row = "arith.muli"(%rm, %K) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %a_off = "arith.addi"(%a_row, %rk) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %a_ptrs_b = "tt.addptr"(%a_ptr, %a_off) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %a_ptrs_s = "tt.splat"(%a_ptrs_b) : (!tt.ptr<f16>) -> tensor<32x64x!tt.ptr<f16>, #bl>
    %a_ptrs_o = "arith.constant"() <{value = dense<1> : tensor<32x64xi32, #bl>}> : () -> tensor<32x64xi32, #bl>
    %a_ptrs = "tt.addptr"(%a_ptrs_s, %a_ptrs_o) : (tensor<32x64x!tt.ptr<f16>, #bl>, tensor<32x64xi32, #bl>) -> tensor<32x64x!tt.ptr<f16>, #bl>
    %w_row = "arith.muli"(%rk, %N) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %w_off = "arith.addi"(%w_row, %rn) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %w_ptrs_b = "tt.addptr"(%w_ptr, %w_off) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %w_ptrs_s = "tt.splat"(%w_ptrs_b) : (!tt.ptr<f16>) -> tensor<64x64x!tt.ptr<f16>, #bl>
    %w_ptrs_o = "arith.constant"() <{value = dense<1> : tensor<64x64xi32, #bl>}> : () -> tensor<64x64xi32, #bl>
    %w_ptrs = "tt.addptr"(%w_ptrs_s, %w_ptrs_o) : (tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>) -> tensor<64x64x!tt.ptr<f16>, #bl>
    %kt = "arith.addi"(%K, %c511) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %ub = "arith.divsi"(%kt, %c512) : (i32, i32) -> i32
    %step_w = "arith.muli"(%N, %c512) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %acc0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<32x64xf32, #bl>}> : () -> tensor<32x64xf32, #bl>
    %sa = "tt.splat"(%c512) : (i32) -> tensor<32x64xi32, #bl>
    %sw = "tt.splat"(%step_w) : (i32) -> tensor<64x64xi32, #bl>
    %r:3 = "scf.for"(%c0, %ub, %c1, %a_ptrs, %w_ptrs, %acc0) ({
    ^bb0(%k: i32, %ap: tensor<32x64x!tt.ptr<f16>, #bl>, %wp: tensor<64x64x!tt.ptr<f16>, #bl>, %acc: tensor<32x64xf32, #bl>):
      %a = "tt.load"(%ap) <{isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<32x64x!tt.ptr<f16>, #bl>) -> tensor<32x64xf16, #bl>
      %w = "tt.load"(%wp) <{isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<64x64x!tt.ptr<f16>, #bl>) -> tensor<64x64xf16, #bl>
      %d = "tt.dot"(%a, %w, %acc) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<32x64xf16, #bl>, tensor<64x64xf16, #bl>, tensor<32x64xf32, #bl>) -> tensor<32x64xf32, #bl>
      %ap2 = "tt.addptr"(%ap, %sa) : (tensor<32x64x!tt.ptr<f16>, #bl>, tensor<32x64xi32, #bl>) -> tensor<32x64x!tt.ptr<f16>, #bl>
      %wp2 = "tt.addptr"(%wp, %sw) : (tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>) -> tensor<64x64x!tt.ptr<f16>, #bl>
      "scf.yield"(%ap2, %wp2, %d) : (tensor<32x64x!tt.ptr<f16>, #bl>, tensor<64x64x!tt.ptr<f16>, #bl>, tensor<32x64xf32, #bl>) -> ()
    }) : (i32, i32, i32, tensor<32x64x!tt.ptr<f16>, #bl>, tensor<64x64x!tt.ptr<f16>, #bl>, tensor<32x64xf32, #bl>) -> (tensor<32x64x!tt.ptr<f16>, #bl>, tensor<64x64x!tt.ptr<f16>, #bl>, tensor<32x64xf32, #bl>)
    %p_k = "arith.muli"(%pid_k, %N) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %p_off0 = "arith.addi"(%p_k, %rm) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %p_off = "arith.addi"(%p_off0, %rn) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %o_b = "tt.addptr"(%p_ptr, %p_off) : (!tt.ptr<f32>, i32) -> !tt.ptr<f32>
    %o_s = "tt.splat"(%o_b) : (!tt.ptr<f32>) -> tensor<32x64x!tt.ptr<f32>, #bl>
    "tt.store"(%o_s, %r#2) <{boundaryCheck = array<i32>, cache = 1 : i32, evict = 1 : i32}> : (tensor<32x64x!tt.ptr<f32>, #bl>, tensor<32x64xf32, #bl>) -> ()
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// gfx950 (MI355X: 256 CUs, 8 XCDs of 4 MiB L2): W's distinct bytes depend on
// the grid (bytes/program x n0 x n1): the XCD remap at run time, with no
// wave test.
// CHECK-LABEL: sym_name = "splitk_slow_gfx950"
// CHECK-NOT:  "test:waves"
// CHECK:      {tmfma.grid_value = ["test:xcd"]}
// CHECK:      "scf.if"
// expected-remark @+3 {{programs in contiguous chunks per XCD (MI355X: workgroups go round-robin to 8 XCDs with separate 4.0 MiB L2s, so programs sharing tiles are on different L2s in hardware order); taken at run time when the distinct bytes of the shared operands (arg1: bytes/program x the sizes of the dims that move each) exceed 3145728 B (MI355X L2 4.0 MiB x 0.75)}}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx950", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (!tt.ptr<f16>, !tt.ptr<f16>, !tt.ptr<f32>, i32, i32) -> (), sym_name = "splitk_slow_gfx950", sym_visibility = "public"}> ({
  ^bb0(%a_ptr: !tt.ptr<f16>, %w_ptr: !tt.ptr<f16>, %p_ptr: !tt.ptr<f32>, %K: i32, %N: i32):
    %c0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %c1 = "arith.constant"() <{value = 1 : i32}> : () -> i32
    %c32 = "arith.constant"() <{value = 32 : i32}> : () -> i32
    %c64 = "arith.constant"() <{value = 64 : i32}> : () -> i32
    %c511 = "arith.constant"() <{value = 511 : i32}> : () -> i32
    %c512 = "arith.constant"() <{value = 512 : i32}> : () -> i32
    %pid_n = "tt.get_program_id"() <{axis = 0 : i32}> : () -> i32
    %pid_k = "tt.get_program_id"() <{axis = 1 : i32}> : () -> i32
    %pid_m = "tt.get_program_id"() <{axis = 2 : i32}> : () -> i32
    %rm = "arith.muli"(%pid_m, %c32) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %rn = "arith.muli"(%pid_n, %c64) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %rk = "arith.muli"(%pid_k, %c64) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %a_row = "arith.muli"(%rm, %K) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %a_off = "arith.addi"(%a_row, %rk) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %a_ptrs_b = "tt.addptr"(%a_ptr, %a_off) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %a_ptrs_s = "tt.splat"(%a_ptrs_b) : (!tt.ptr<f16>) -> tensor<32x64x!tt.ptr<f16>, #bl>
    %a_ptrs_o = "arith.constant"() <{value = dense<1> : tensor<32x64xi32, #bl>}> : () -> tensor<32x64xi32, #bl>
    %a_ptrs = "tt.addptr"(%a_ptrs_s, %a_ptrs_o) : (tensor<32x64x!tt.ptr<f16>, #bl>, tensor<32x64xi32, #bl>) -> tensor<32x64x!tt.ptr<f16>, #bl>
    %w_row = "arith.muli"(%rk, %N) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %w_off = "arith.addi"(%w_row, %rn) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %w_ptrs_b = "tt.addptr"(%w_ptr, %w_off) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %w_ptrs_s = "tt.splat"(%w_ptrs_b) : (!tt.ptr<f16>) -> tensor<64x64x!tt.ptr<f16>, #bl>
    %w_ptrs_o = "arith.constant"() <{value = dense<1> : tensor<64x64xi32, #bl>}> : () -> tensor<64x64xi32, #bl>
    %w_ptrs = "tt.addptr"(%w_ptrs_s, %w_ptrs_o) : (tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>) -> tensor<64x64x!tt.ptr<f16>, #bl>
    %kt = "arith.addi"(%K, %c511) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %ub = "arith.divsi"(%kt, %c512) : (i32, i32) -> i32
    %step_w = "arith.muli"(%N, %c512) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %acc0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<32x64xf32, #bl>}> : () -> tensor<32x64xf32, #bl>
    %sa = "tt.splat"(%c512) : (i32) -> tensor<32x64xi32, #bl>
    %sw = "tt.splat"(%step_w) : (i32) -> tensor<64x64xi32, #bl>
    %r:3 = "scf.for"(%c0, %ub, %c1, %a_ptrs, %w_ptrs, %acc0) ({
    ^bb0(%k: i32, %ap: tensor<32x64x!tt.ptr<f16>, #bl>, %wp: tensor<64x64x!tt.ptr<f16>, #bl>, %acc: tensor<32x64xf32, #bl>):
      %a = "tt.load"(%ap) <{isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<32x64x!tt.ptr<f16>, #bl>) -> tensor<32x64xf16, #bl>
      %w = "tt.load"(%wp) <{isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<64x64x!tt.ptr<f16>, #bl>) -> tensor<64x64xf16, #bl>
      %d = "tt.dot"(%a, %w, %acc) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<32x64xf16, #bl>, tensor<64x64xf16, #bl>, tensor<32x64xf32, #bl>) -> tensor<32x64xf32, #bl>
      %ap2 = "tt.addptr"(%ap, %sa) : (tensor<32x64x!tt.ptr<f16>, #bl>, tensor<32x64xi32, #bl>) -> tensor<32x64x!tt.ptr<f16>, #bl>
      %wp2 = "tt.addptr"(%wp, %sw) : (tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, #bl>) -> tensor<64x64x!tt.ptr<f16>, #bl>
      "scf.yield"(%ap2, %wp2, %d) : (tensor<32x64x!tt.ptr<f16>, #bl>, tensor<64x64x!tt.ptr<f16>, #bl>, tensor<32x64xf32, #bl>) -> ()
    }) : (i32, i32, i32, tensor<32x64x!tt.ptr<f16>, #bl>, tensor<64x64x!tt.ptr<f16>, #bl>, tensor<32x64xf32, #bl>) -> (tensor<32x64x!tt.ptr<f16>, #bl>, tensor<64x64x!tt.ptr<f16>, #bl>, tensor<32x64xf32, #bl>)
    %p_k = "arith.muli"(%pid_k, %N) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %p_off0 = "arith.addi"(%p_k, %rm) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %p_off = "arith.addi"(%p_off0, %rn) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %o_b = "tt.addptr"(%p_ptr, %p_off) : (!tt.ptr<f32>, i32) -> !tt.ptr<f32>
    %o_s = "tt.splat"(%o_b) : (!tt.ptr<f32>) -> tensor<32x64x!tt.ptr<f32>, #bl>
    "tt.store"(%o_s, %r#2) <{boundaryCheck = array<i32>, cache = 1 : i32, evict = 1 : i32}> : (tensor<32x64x!tt.ptr<f32>, #bl>, tensor<32x64xf32, #bl>) -> ()
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// gfx942, a 1-D grid split by the constant 4: w is read per column (4
// distinct 2 KiB tiles, 8 KiB) and shared by the rows. Known at compile
// time: it fits every XCD's effective L2 (4 MiB x 0.75), so each XCD reads
// it from beyond its L2 at most once in any order. Unchanged; mode=on
// forces the XCD remap anyway.
// CHECK-LABEL: sym_name = "no_xcd_fits"
// CHECK-NOT:   {{tt.get_num_programs|llvm.amdgcn.implicitarg.ptr}}
// CHECK:       "tt.return"
// ON-LABEL:    sym_name = "no_xcd_fits"
// ON:          "llvm.call_intrinsic"() <{intrin = "llvm.amdgcn.implicitarg.ptr"
// ON:          tmfma.grid_order = {{.*}}guard = "none"{{.*}}mode = "on"
// expected-remark @+3 {{grid order of 'no_xcd_fits': unchanged: the shared operands (arg1: 8.0 KiB distinct) fit every XCD's effective L2 (4.0 MiB x 0.75): each XCD reads them from beyond its L2 at most once in any order}}
#bl = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (!tt.ptr<f16>, !tt.ptr<f16>, !tt.ptr<f16>) -> (), sym_name = "no_xcd_fits", sym_visibility = "public"}> ({
  ^bb0(%x_ptr: !tt.ptr<f16>, %w_ptr: !tt.ptr<f16>, %y_ptr: !tt.ptr<f16>):
    %c0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %cx = "arith.constant"() <{value = 4 : i32}> : () -> i32
    %c1024 = "arith.constant"() <{value = 1024 : i32}> : () -> i32
    %pid = "tt.get_program_id"() <{axis = 0 : i32}> : () -> i32
    %hi = "arith.divsi"(%pid, %cx) : (i32, i32) -> i32
    %lo = "arith.remsi"(%pid, %cx) : (i32, i32) -> i32
    %offs = "tt.make_range"() <{end = 1024 : i32, start = 0 : i32}> : () -> tensor<1024xi32, #bl>
    %w_off = "arith.muli"(%lo, %c1024) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %w_b = "tt.addptr"(%w_ptr, %w_off) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %w_s = "tt.splat"(%w_b) : (!tt.ptr<f16>) -> tensor<1024x!tt.ptr<f16>, #bl>
    %w_p = "tt.addptr"(%w_s, %offs) : (tensor<1024x!tt.ptr<f16>, #bl>, tensor<1024xi32, #bl>) -> tensor<1024x!tt.ptr<f16>, #bl>
    %w = "tt.load"(%w_p) <{isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<1024x!tt.ptr<f16>, #bl>) -> tensor<1024xf16, #bl>
    %x_off = "arith.muli"(%pid, %c1024) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %x_b = "tt.addptr"(%x_ptr, %x_off) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %x_s = "tt.splat"(%x_b) : (!tt.ptr<f16>) -> tensor<1024x!tt.ptr<f16>, #bl>
    %x_p = "tt.addptr"(%x_s, %offs) : (tensor<1024x!tt.ptr<f16>, #bl>, tensor<1024xi32, #bl>) -> tensor<1024x!tt.ptr<f16>, #bl>
    %xv = "tt.load"(%x_p) <{isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<1024x!tt.ptr<f16>, #bl>) -> tensor<1024xf16, #bl>
    %yv = "arith.mulf"(%xv, %w) <{fastmath = #arith.fastmath<none>}> : (tensor<1024xf16, #bl>, tensor<1024xf16, #bl>) -> tensor<1024xf16, #bl>
    %hx = "arith.muli"(%hi, %cx) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %y_i = "arith.addi"(%hx, %lo) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %y_off = "arith.muli"(%y_i, %c1024) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %y_b = "tt.addptr"(%y_ptr, %y_off) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %y_s = "tt.splat"(%y_b) : (!tt.ptr<f16>) -> tensor<1024x!tt.ptr<f16>, #bl>
    %y_p = "tt.addptr"(%y_s, %offs) : (tensor<1024x!tt.ptr<f16>, #bl>, tensor<1024xi32, #bl>) -> tensor<1024x!tt.ptr<f16>, #bl>
    "tt.store"(%y_p, %yv) <{boundaryCheck = array<i32>, cache = 1 : i32, evict = 1 : i32}> : (tensor<1024x!tt.ptr<f16>, #bl>, tensor<1024xf16, #bl>) -> ()
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// The same with 4096 columns: 8 MiB of w, more than an XCD's 3 MiB, known at
// compile time: the remap (rows fastest in groups of 8, then XCD chunks)
// with no launch-wide test; programs past the last complete row keep their
// ids (an scf.if on that test only).
// CHECK-LABEL: sym_name = "xcd_exceeds"
// CHECK-NOT:  tmfma.grid_value = ["test
// CHECK:      "scf.if"
// CHECK:      tmfma.grid_order = {{.*}}guard = "none"{{.*}}shared_bytes = 8388608 : i64
// expected-remark @+3 {{new order {axis0.hi} fastest (groups of 8), then {axis0.lo}; programs in contiguous chunks per XCD (MI300X: workgroups go round-robin to 8 XCDs with separate 4.0 MiB L2s, so programs sharing tiles are on different L2s in hardware order); always: the shared operands (arg1) have 8388608 distinct bytes > 3145728 B}}
#bl = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (!tt.ptr<f16>, !tt.ptr<f16>, !tt.ptr<f16>) -> (), sym_name = "xcd_exceeds", sym_visibility = "public"}> ({
  ^bb0(%x_ptr: !tt.ptr<f16>, %w_ptr: !tt.ptr<f16>, %y_ptr: !tt.ptr<f16>):
    %c0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %cx = "arith.constant"() <{value = 4096 : i32}> : () -> i32
    %c1024 = "arith.constant"() <{value = 1024 : i32}> : () -> i32
    %pid = "tt.get_program_id"() <{axis = 0 : i32}> : () -> i32
    %hi = "arith.divsi"(%pid, %cx) : (i32, i32) -> i32
    %lo = "arith.remsi"(%pid, %cx) : (i32, i32) -> i32
    %offs = "tt.make_range"() <{end = 1024 : i32, start = 0 : i32}> : () -> tensor<1024xi32, #bl>
    %w_off = "arith.muli"(%lo, %c1024) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %w_b = "tt.addptr"(%w_ptr, %w_off) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %w_s = "tt.splat"(%w_b) : (!tt.ptr<f16>) -> tensor<1024x!tt.ptr<f16>, #bl>
    %w_p = "tt.addptr"(%w_s, %offs) : (tensor<1024x!tt.ptr<f16>, #bl>, tensor<1024xi32, #bl>) -> tensor<1024x!tt.ptr<f16>, #bl>
    %w = "tt.load"(%w_p) <{isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<1024x!tt.ptr<f16>, #bl>) -> tensor<1024xf16, #bl>
    %x_off = "arith.muli"(%pid, %c1024) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %x_b = "tt.addptr"(%x_ptr, %x_off) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %x_s = "tt.splat"(%x_b) : (!tt.ptr<f16>) -> tensor<1024x!tt.ptr<f16>, #bl>
    %x_p = "tt.addptr"(%x_s, %offs) : (tensor<1024x!tt.ptr<f16>, #bl>, tensor<1024xi32, #bl>) -> tensor<1024x!tt.ptr<f16>, #bl>
    %xv = "tt.load"(%x_p) <{isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<1024x!tt.ptr<f16>, #bl>) -> tensor<1024xf16, #bl>
    %yv = "arith.mulf"(%xv, %w) <{fastmath = #arith.fastmath<none>}> : (tensor<1024xf16, #bl>, tensor<1024xf16, #bl>) -> tensor<1024xf16, #bl>
    %hx = "arith.muli"(%hi, %cx) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %y_i = "arith.addi"(%hx, %lo) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %y_off = "arith.muli"(%y_i, %c1024) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %y_b = "tt.addptr"(%y_ptr, %y_off) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %y_s = "tt.splat"(%y_b) : (!tt.ptr<f16>) -> tensor<1024x!tt.ptr<f16>, #bl>
    %y_p = "tt.addptr"(%y_s, %offs) : (tensor<1024x!tt.ptr<f16>, #bl>, tensor<1024xi32, #bl>) -> tensor<1024x!tt.ptr<f16>, #bl>
    "tt.store"(%y_p, %yv) <{boundaryCheck = array<i32>, cache = 1 : i32, evict = 1 : i32}> : (tensor<1024x!tt.ptr<f16>, #bl>, tensor<1024xf16, #bl>) -> ()
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// A layernorm-like kernel: w is read whole by every program (no grid
// dimension moves it). No order changes what each XCD reads: unchanged in
// every mode (the corpus layernorm's amdgcn stays byte-identical to stock).
// CHECK-LABEL: sym_name = "no_xcd_all_read"
// CHECK-NOT:   {{tt.get_num_programs|llvm.amdgcn.implicitarg.ptr}}
// ON-LABEL:    sym_name = "no_xcd_all_read"
// ON-NOT:      {{tt.get_num_programs|llvm.amdgcn.implicitarg.ptr}}
// expected-remark @+3 {{grid order of 'no_xcd_all_read': unchanged: every program reads all of arg1 (2.0 KiB; no grid dimension moves them): no order changes what each XCD reads}}
#bl = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (!tt.ptr<f16>, !tt.ptr<f16>, !tt.ptr<f16>) -> (), sym_name = "no_xcd_all_read", sym_visibility = "public"}> ({
  ^bb0(%x_ptr: !tt.ptr<f16>, %w_ptr: !tt.ptr<f16>, %y_ptr: !tt.ptr<f16>):
    %c0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %cx = "arith.constant"() <{value = 4 : i32}> : () -> i32
    %c1024 = "arith.constant"() <{value = 1024 : i32}> : () -> i32
    %pid = "tt.get_program_id"() <{axis = 0 : i32}> : () -> i32
    %hi = "arith.divsi"(%pid, %cx) : (i32, i32) -> i32
    %lo = "arith.remsi"(%pid, %cx) : (i32, i32) -> i32
    %offs = "tt.make_range"() <{end = 1024 : i32, start = 0 : i32}> : () -> tensor<1024xi32, #bl>
    %w_off = "arith.muli"(%c0, %c1024) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %w_b = "tt.addptr"(%w_ptr, %w_off) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %w_s = "tt.splat"(%w_b) : (!tt.ptr<f16>) -> tensor<1024x!tt.ptr<f16>, #bl>
    %w_p = "tt.addptr"(%w_s, %offs) : (tensor<1024x!tt.ptr<f16>, #bl>, tensor<1024xi32, #bl>) -> tensor<1024x!tt.ptr<f16>, #bl>
    %w = "tt.load"(%w_p) <{isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<1024x!tt.ptr<f16>, #bl>) -> tensor<1024xf16, #bl>
    %x_off = "arith.muli"(%pid, %c1024) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %x_b = "tt.addptr"(%x_ptr, %x_off) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %x_s = "tt.splat"(%x_b) : (!tt.ptr<f16>) -> tensor<1024x!tt.ptr<f16>, #bl>
    %x_p = "tt.addptr"(%x_s, %offs) : (tensor<1024x!tt.ptr<f16>, #bl>, tensor<1024xi32, #bl>) -> tensor<1024x!tt.ptr<f16>, #bl>
    %xv = "tt.load"(%x_p) <{isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<1024x!tt.ptr<f16>, #bl>) -> tensor<1024xf16, #bl>
    %yv = "arith.mulf"(%xv, %w) <{fastmath = #arith.fastmath<none>}> : (tensor<1024xf16, #bl>, tensor<1024xf16, #bl>) -> tensor<1024xf16, #bl>
    %hx = "arith.muli"(%hi, %cx) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %y_i = "arith.addi"(%hx, %lo) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %y_off = "arith.muli"(%y_i, %c1024) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %y_b = "tt.addptr"(%y_ptr, %y_off) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %y_s = "tt.splat"(%y_b) : (!tt.ptr<f16>) -> tensor<1024x!tt.ptr<f16>, #bl>
    %y_p = "tt.addptr"(%y_s, %offs) : (tensor<1024x!tt.ptr<f16>, #bl>, tensor<1024xi32, #bl>) -> tensor<1024x!tt.ptr<f16>, #bl>
    "tt.store"(%y_p, %yv) <{boundaryCheck = array<i32>, cache = 1 : i32, evict = 1 : i32}> : (tensor<1024x!tt.ptr<f16>, #bl>, tensor<1024xf16, #bl>) -> ()
    "tt.return"() : () -> ()
  }) : () -> ()
}
