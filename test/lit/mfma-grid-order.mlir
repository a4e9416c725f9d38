// RUN: mfma-opt %s -split-input-file -mfma-grid-order -verify-diagnostics | filecheck %s
// RUN: mfma-opt %s -split-input-file -mfma-grid-order=mode=on 2>/dev/null | filecheck %s --check-prefix=ON
// RUN: mfma-opt %s -split-input-file -mfma-grid-order=mode=off 2>/dev/null | filecheck %s --check-prefix=OFF

// Kernels are trimmed generic TTGIR in the shape Triton 3.9 produces for
// python/triton_mfma/examples/kernels.py (splitk_decode_slow/_fast, matmul_1d,
// matmul_1d_grouped, matmul) and for the corpus' elementwise kernels. Tile
// pointers are `splat(base + scalar offset) + dense offsets`: what matters to
// the pass is which program ids reach each load's address.
//
// mode=off: analysis and remarks only, the IR never changes.
// OFF-NOT: {{tt.get_num_programs|llvm.amdgcn.implicitarg.ptr}}

// Split-K decode GEMM in the slow order (N tiles, K splits, M tiles): W is
// moved by axes 0 and 1 and shared by the M tiles on axis 2. New order: M
// tiles fastest (groups of 8), then N, then K; on a single-L2 target it is
// taken at run time when the L2 model says the twin W read misses.
// CHECK-LABEL: sym_name = "splitk_slow"
// CHECK:      %[[N:[0-9]+]] = "tt.get_program_id"() <{axis = 0 : i32}>
// CHECK-NEXT: %[[K:[0-9]+]] = "tt.get_program_id"() <{axis = 1 : i32}>
// CHECK-NEXT: %[[M:[0-9]+]] = "tt.get_program_id"() <{axis = 2 : i32}>
// On hip the grid size is read as tt.get_num_programs is once lowered and
// inlined (make_llir then links no device library): hidden_block_count_x, _y,
// _z, the first three i32 implicit kernel arguments.
// CHECK-NEXT: %[[IA:[0-9]+]] = "llvm.call_intrinsic"() <{intrin = "llvm.amdgcn.implicitarg.ptr"
// CHECK-NEXT: %[[GN0:[0-9]+]] = "llvm.getelementptr"(%[[IA]]) <{elem_type = i32, rawConstantIndices = array<i32: 0>}>
// CHECK-NEXT: %[[N0:[0-9]+]] = "llvm.load"(%[[GN0]]) <{alignment = 4 : i64}>
// CHECK-NEXT: %[[GN1:[0-9]+]] = "llvm.getelementptr"(%[[IA]]) <{elem_type = i32, rawConstantIndices = array<i32: 1>}>
// CHECK-NEXT: %[[N1:[0-9]+]] = "llvm.load"(%[[GN1]]) <{alignment = 4 : i64}>
// CHECK-NEXT: %[[GN2:[0-9]+]] = "llvm.getelementptr"(%[[IA]]) <{elem_type = i32, rawConstantIndices = array<i32: 2>}>
// CHECK-NEXT: %[[N2:[0-9]+]] = "llvm.load"(%[[GN2]]) <{alignment = 4 : i64}>
// CHECK-NOT:  tt.get_num_programs
// CHECK-DAG:  %[[THR:[0-9]+]] = "arith.constant"() <{value = 1536 : i32}>
// CHECK-DAG:  %[[P:[0-9]+]] = "arith.constant"() <{value = 104 : i32}>
// CHECK-DAG:  %[[C8:[0-9]+]] = "arith.constant"() <{value = 8 : i32}>
// Every program evaluates the L2 model's launch test, from the grid size
// alone (and nothing else before the first branch): more than one wave
// (n0*n1*n2 > P = 104 CUs x 1: registers are not known at TTGIR, and at least
// one wave per SIMD, so one program of 4 warps per CU, always fits) and
// twins (the M-tile axis, the twins' dimension, has more than one program).
// CHECK:      %[[TWINS:[0-9]+]] = "arith.cmpi"(%[[N2]], %{{[0-9]+}}) <{predicate = 4 : i64}> {tmfma.grid_value = ["test:twins"]} : (i32, i32) -> i1
// CHECK-NEXT: %[[T01:[0-9]+]] = "arith.muli"(%[[N0]], %[[N1]])
// CHECK-NEXT: %[[TOTAL:[0-9]+]] = "arith.muli"(%[[T01]], %[[N2]]) <{overflowFlags = #arith.overflow<none>}> {tmfma.grid_value = ["total_programs"]}
// CHECK-NEXT: %[[WAVES:[0-9]+]] = "arith.cmpi"(%[[TOTAL]], %[[P]]) <{predicate = 4 : i64}> {tmfma.grid_value = ["test:waves"]} : (i32, i32) -> i1
// CHECK-NEXT: %[[LAUNCH:[0-9]+]] = "arith.andi"(%[[WAVES]], %[[TWINS]])
// Marked expected false: LLVM's block placement puts the remap out of line.
// CHECK-NEXT: %[[NO:[0-9]+]] = "arith.constant"() <{value = false}>
// CHECK-NEXT: %[[UNLIKELY:[0-9]+]] = "llvm.call_intrinsic"(%[[LAUNCH]], %[[NO]]) <{intrin = "llvm.expect.i1"
// CHECK-NEXT: %[[IDS:[0-9]+]]:3 = "scf.if"(%[[UNLIKELY]]) ({
// Only there the bytes test: more bytes streamed between twin reads (n0*n1
// programs; trip count cloned from the loop bound (K + 511) / 512) than
// 8 MiB x 0.75, in 32-bit arithmetic counting bytes in units of 4096 (the
// gcd of the tile sizes): 6 MiB is 1536 units. The values are tagged for
// triton_mfma.grid_order_decision.
// CHECK:      "arith.addi"(%arg3, %{{[0-9]+}})
// CHECK:      %[[STREAMED:[0-9]+]] = "arith.addi"(%{{[0-9]+}}, %{{[0-9]+}}) <{overflowFlags = #arith.overflow<none>}> {tmfma.grid_value = ["streamed_bytes"]}
// CHECK-NEXT: %[[FITS:[0-9]+]] = "arith.cmpi"(%[[STREAMED]], %[[THR]]) <{predicate = 4 : i64}> {tmfma.grid_value = ["test:l2"]} : (i32, i32) -> i1
// Only where both say so: the hardware linear index, axis 0 fastest,
// (m * n1 + k) * n0 + n, decomposed in the new order.
// CHECK-NEXT: %[[NO2:[0-9]+]] = "arith.constant"() <{value = false}>
// CHECK-NEXT: %[[UNLIKELY2:[0-9]+]] = "llvm.call_intrinsic"(%[[FITS]], %[[NO2]]) <{intrin = "llvm.expect.i1"
// CHECK-NEXT: %[[REMAPPED:[0-9]+]]:3 = "scf.if"(%[[UNLIKELY2]]) ({
// CHECK-NEXT: %[[T0:[0-9]+]] = "arith.muli"(%[[M]], %[[N1]])
// CHECK-NEXT: %[[T1:[0-9]+]] = "arith.addi"(%[[T0]], %[[K]])
// CHECK-NEXT: %[[T2:[0-9]+]] = "arith.muli"(%[[T1]], %[[N0]])
// CHECK-NEXT: %[[LIN:[0-9]+]] = "arith.addi"(%[[T2]], %[[N]])
// Groups of 8 M tiles; the last group is min(n2 - first, 8) wide, so any n2 works.
// CHECK-NEXT: %[[SY:[0-9]+]] = "arith.muli"(%[[N0]], %[[N1]])
// CHECK-NEXT: %[[SPAN:[0-9]+]] = "arith.muli"(%[[C8]], %[[SY]])
// CHECK-NEXT: %[[GRP:[0-9]+]] = "arith.divui"(%[[LIN]], %[[SPAN]])
// CHECK-NEXT: %[[FIRST:[0-9]+]] = "arith.muli"(%[[GRP]], %[[C8]])
// CHECK-NEXT: %[[LEFT:[0-9]+]] = "arith.subi"(%[[N2]], %[[FIRST]])
// CHECK-NEXT: %[[WIDTH:[0-9]+]] = "arith.minsi"(%[[LEFT]], %[[C8]])
// CHECK-NEXT: %[[BASE:[0-9]+]] = "arith.muli"(%[[GRP]], %[[SPAN]])
// CHECK-NEXT: %[[R:[0-9]+]] = "arith.subi"(%[[LIN]], %[[BASE]])
// CHECK-NEXT: %[[MR:[0-9]+]] = "arith.remui"(%[[R]], %[[WIDTH]])
// CHECK-NEXT: %[[NEWM:[0-9]+]] = "arith.addi"(%[[FIRST]], %[[MR]])
// CHECK-NEXT: %[[Y:[0-9]+]] = "arith.divui"(%[[R]], %[[WIDTH]])
// CHECK-NEXT: %[[NEWN:[0-9]+]] = "arith.remui"(%[[Y]], %[[N0]])
// CHECK-NEXT: %[[NEWK:[0-9]+]] = "arith.divui"(%[[Y]], %[[N0]])
// CHECK-NEXT: "scf.yield"(%[[NEWN]], %[[NEWK]], %[[NEWM]])
// CHECK-NEXT: }, {
// CHECK-NEXT: "scf.yield"(%[[N]], %[[K]], %[[M]])
// CHECK-NEXT: }) : (i1) -> (i32, i32, i32)
// CHECK-NEXT: "scf.yield"(%[[REMAPPED]]#0, %[[REMAPPED]]#1, %[[REMAPPED]]#2)
// CHECK-NEXT: }, {
// CHECK-NEXT: "scf.yield"(%[[N]], %[[K]], %[[M]])
// CHECK-NEXT: }) : (i1) -> (i32, i32, i32)
// The kernel body computes with the new ids.
// CHECK:      "arith.muli"(%[[IDS]]#2, %{{[0-9]+}})
// CHECK-NEXT: "arith.muli"(%[[IDS]]#0, %{{[0-9]+}})
// CHECK-NEXT: "arith.muli"(%[[IDS]]#1, %{{[0-9]+}})
// CHECK-NOT:  "tt.get_program_id"
// What the guard was built with, for grid_order_decision.
// CHECK:      tmfma.grid_order = {concurrent_programs = 104 : i64, cus = 104 : i64, device = "MI210", dims = ["axis0", "axis1", "axis2"], far_dim = 2 : i64, guard = "l2", guard_unit = 4096 : i64, heavy = "arg1"
// CHECK-SAME: programs_by_lds = 16 : i64, programs_by_registers = 1 : i64, programs_by_slots = 16 : i64, programs_limiter = "registers", programs_per_cu = 1 : i64, programs_source = "lower bound", reorder = true, threshold = 6291456 : i64
// mode=on: the same order with no run-time guard.
// ON-LABEL: sym_name = "splitk_slow"
// ON-NOT:   "scf.if"
// ON:       "arith.minsi"
// ON-NOT:   tmfma.grid_value
// ON:       "tt.load"
// expected-remark @+3 {{grid order of 'splitk_slow': remapped: arg1 (128.0 KiB/program at 16 trips per unknown loop) is moved by {axis0,axis1} and shared by programs that differ in {axis2}; new order {axis2} fastest (groups of 8), then {axis0,axis1}; taken at run time when the grid has more than P = 104 programs (104 CUs x 1; a lower bound: registers allow at least 1 program of 4 warps per CU whatever its registers, LDS (0 B, LDS model) 16, workgroup slots 16) and the bytes streamed between twin reads exceed 6291456 B}}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (!tt.ptr<f16>, !tt.ptr<f16>, !tt.ptr<f32>, i32, i32) -> (), sym_name = "splitk_slow", sym_visibility = "public"}> ({
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


// The same kernel already in the fast order (M tiles, N tiles, K splits):
// programs that share a W tile are adjacent. Nothing to do on a single-L2
// target. (A is moved by axes 0 and 2 but reads half W's bytes: not heavy.)
// In every mode: the hardware order is the order the pass would choose
// (W's sharing axis 0 fastest), so even mode=on leaves it byte-identical.
// CHECK-LABEL: sym_name = "no_splitk_fast"
// CHECK-NOT:   {{tt.get_num_programs|llvm.amdgcn.implicitarg.ptr}}
// CHECK:       "tt.return"
// ON-LABEL: sym_name = "no_splitk_fast"
// ON-NOT:   {{tt.get_num_programs|llvm.amdgcn.implicitarg.ptr}}
// ON:       "tt.return"
// expected-remark @+3 {{grid order of 'no_splitk_fast': unchanged: already in the order the pass would choose: arg1 (128.0 KiB/program at 16 trips per unknown loop) is moved by {axis1,axis2} and shared by programs that differ in {axis0}, which vary faster}}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (!tt.ptr<f16>, !tt.ptr<f16>, !tt.ptr<f32>, i32, i32) -> (), sym_name = "no_splitk_fast", sym_visibility = "public"}> ({
  ^bb0(%a_ptr: !tt.ptr<f16>, %w_ptr: !tt.ptr<f16>, %p_ptr: !tt.ptr<f32>, %K: i32, %N: i32):
    %c0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %c1 = "arith.constant"() <{value = 1 : i32}> : () -> i32
    %c32 = "arith.constant"() <{value = 32 : i32}> : () -> i32
    %c64 = "arith.constant"() <{value = 64 : i32}> : () -> i32
    %c511 = "arith.constant"() <{value = 511 : i32}> : () -> i32
    %c512 = "arith.constant"() <{value = 512 : i32}> : () -> i32
    %pid_m = "tt.get_program_id"() <{axis = 0 : i32}> : () -> i32
    %pid_n = "tt.get_program_id"() <{axis = 1 : i32}> : () -> i32
    %pid_k = "tt.get_program_id"() <{axis = 2 : i32}> : () -> i32
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


// A 2-D tile grid launched on a 1-D axis in row-major order: pid // X and
// pid % X (X = cdiv(N, 128)) split axis 0 into axis0.hi (M tiles, slow) and
// axis0.lo (N tiles, fast). B is shared by the M tiles, whose twins are a
// whole row (X programs) apart: grouped order, 8 M tiles fastest, i.e. the
// hand-written GROUP_M = 8 swizzle. Programs past the last complete row
// (grids that are not a multiple of X) keep their ids: a branch inside the
// guarded one, so a program that keeps its order runs only the L2 guard's
// tests and the kernel's own pid // X, pid % X (no division by X before the
// branches).
// CHECK-LABEL: sym_name = "matmul_1d"
// CHECK:      %[[PID:[0-9]+]] = "tt.get_program_id"() <{axis = 0 : i32}>
// CHECK-NEXT: %[[IA:[0-9]+]] = "llvm.call_intrinsic"() <{intrin = "llvm.amdgcn.implicitarg.ptr"
// CHECK-NEXT: %[[GNP:[0-9]+]] = "llvm.getelementptr"(%[[IA]]) <{elem_type = i32, rawConstantIndices = array<i32: 0>}>
// CHECK-NEXT: %[[NP:[0-9]+]] = "llvm.load"(%[[GNP]]) <{alignment = 4 : i64}>
// CHECK:      %[[C8:[0-9]+]] = "arith.constant"() <{value = 8 : i32}>
// The row length X = (N + 127) / 128, cloned to the top of the kernel.
// CHECK:      %[[X0:[0-9]+]] = "arith.addi"(%arg4, %{{[0-9]+}})
// CHECK:      %[[X1:[0-9]+]] = "arith.divsi"(%[[X0]], %{{[0-9]+}})
// CHECK-NEXT: %[[X:[0-9]+]] = "arith.maxsi"(%[[X1]], %{{[0-9]+}}) {tmfma.grid_value = ["divisor:axis0"]}
// Twins: a grid longer than one row (NP > X), tested without dividing.
// CHECK-NOT:  "arith.divui"(%[[NP]],
// CHECK:      "arith.cmpi"(%[[NP]], %[[X]]) <{predicate = 4 : i64}> {tmfma.grid_value = ["test:twins"]}
// CHECK-NOT:  "arith.divui"(%[[NP]],
// CHECK:      %[[LAUNCH:[0-9]+]] = "arith.andi"
// CHECK:      %[[UL:[0-9]+]] = "llvm.call_intrinsic"(%[[LAUNCH]], %{{[0-9]+}}) <{intrin = "llvm.expect.i1"
// CHECK-NEXT: %[[IDS:[0-9]+]]:3 = "scf.if"(%[[UL]]) ({
// CHECK:      %[[G:[0-9]+]] = "arith.cmpi"({{.*}}{tmfma.grid_value = ["test:l2"]}
// CHECK:      %[[UG:[0-9]+]] = "llvm.call_intrinsic"(%[[G]], %{{[0-9]+}}) <{intrin = "llvm.expect.i1"
// CHECK-NEXT: %[[REMAPPED:[0-9]+]]:3 = "scf.if"(%[[UG]]) ({
// CHECK-NEXT: %[[ROWS:[0-9]+]] = "arith.divui"(%[[NP]], %[[X]])
// CHECK-NEXT: %[[FULL:[0-9]+]] = "arith.muli"(%[[ROWS]], %[[X]])
// CHECK-NEXT: %[[INSUB:[0-9]+]] = "arith.cmpi"(%[[PID]], %[[FULL]]) <{predicate = 2 : i64}>
// Inside the branch the id is the linear index itself (complete rows only).
// CHECK-NEXT: %[[IN:[0-9]+]]:3 = "scf.if"(%[[INSUB]]) ({
// CHECK-NEXT: %[[SHI:[0-9]+]] = "arith.maxsi"(%[[ROWS]], %{{[0-9]+}})
// CHECK-NEXT: %[[SPAN:[0-9]+]] = "arith.muli"(%[[C8]], %[[X]])
// CHECK-NEXT: %[[GRP:[0-9]+]] = "arith.divui"(%[[PID]], %[[SPAN]])
// CHECK-NEXT: %[[FIRST:[0-9]+]] = "arith.muli"(%[[GRP]], %[[C8]])
// CHECK-NEXT: %[[LEFT:[0-9]+]] = "arith.subi"(%[[SHI]], %[[FIRST]])
// CHECK-NEXT: %[[WIDTH:[0-9]+]] = "arith.minsi"(%[[LEFT]], %[[C8]])
// CHECK:      %[[NEWHI:[0-9]+]] = "arith.addi"(%[[FIRST]], %{{[0-9]+}})
// CHECK-NEXT: %[[NEWLO:[0-9]+]] = "arith.divui"(%{{[0-9]+}}, %[[WIDTH]])
// CHECK-NEXT: %[[P0:[0-9]+]] = "arith.muli"(%[[NEWHI]], %[[X]])
// CHECK-NEXT: %[[P1:[0-9]+]] = "arith.addi"(%[[P0]], %[[NEWLO]])
// CHECK-NEXT: "scf.yield"(%[[P1]], %[[NEWHI]], %[[NEWLO]])
// CHECK-NEXT: }, {
// CHECK-NEXT: %[[OLDHI:[0-9]+]] = "arith.divsi"(%[[PID]], %[[X]])
// CHECK-NEXT: %[[OLDLO:[0-9]+]] = "arith.remsi"(%[[PID]], %[[X]])
// CHECK-NEXT: "scf.yield"(%[[PID]], %[[OLDHI]], %[[OLDLO]])
// CHECK-NEXT: })
// CHECK-NEXT: "scf.yield"(%[[IN]]#0, %[[IN]]#1, %[[IN]]#2)
// CHECK-NEXT: }, {
// CHECK-NEXT: %[[OLDHI2:[0-9]+]] = "arith.divsi"(%[[PID]], %[[X]])
// CHECK-NEXT: %[[OLDLO2:[0-9]+]] = "arith.remsi"(%[[PID]], %[[X]])
// CHECK-NEXT: "scf.yield"(%[[PID]], %[[OLDHI2]], %[[OLDLO2]])
// CHECK-NEXT: })
// CHECK-NEXT: "scf.yield"(%[[REMAPPED]]#0, %[[REMAPPED]]#1, %[[REMAPPED]]#2)
// CHECK-NEXT: }, {
// CHECK-NEXT: %[[OLDHI3:[0-9]+]] = "arith.divsi"(%[[PID]], %[[X]])
// CHECK-NEXT: %[[OLDLO3:[0-9]+]] = "arith.remsi"(%[[PID]], %[[X]])
// CHECK-NEXT: "scf.yield"(%[[PID]], %[[OLDHI3]], %[[OLDLO3]])
// The kernel's own pid // X and pid % X are replaced by the new row and
// column: no division left in the kernel body.
// CHECK:      "arith.muli"(%[[IDS]]#1, %{{[0-9]+}})
// CHECK-NEXT: "arith.muli"(%[[IDS]]#2, %{{[0-9]+}})
// CHECK-NOT:  "arith.divsi"(%[[IDS]]#0
// ON-LABEL: sym_name = "matmul_1d"
// ON:       %[[INSUB:[0-9]+]] = "arith.cmpi"
// ON-NOT:   tmfma.grid_value
// ON:       "scf.if"(%[[INSUB]])
// expected-remark @+3 {{grid order of 'matmul_1d': remapped: arg1 (256.0 KiB/program at 16 trips per unknown loop) is moved by {axis0.lo} and shared by programs that differ in {axis0.hi}; new order {axis0.hi} fastest (groups of 8), then {axis0.lo}; taken at run time}}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (!tt.ptr<f16>, !tt.ptr<f16>, !tt.ptr<f32>, i32, i32, i32) -> (), sym_name = "matmul_1d", sym_visibility = "public"}> ({
  ^bb0(%a_ptr: !tt.ptr<f16>, %b_ptr: !tt.ptr<f16>, %c_ptr: !tt.ptr<f32>, %M: i32, %N: i32, %K: i32):
    %c0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %c1 = "arith.constant"() <{value = 1 : i32}> : () -> i32
    %c8 = "arith.constant"() <{value = 8 : i32}> : () -> i32
    %c63 = "arith.constant"() <{value = 63 : i32}> : () -> i32
    %c64 = "arith.constant"() <{value = 64 : i32}> : () -> i32
    %c127 = "arith.constant"() <{value = 127 : i32}> : () -> i32
    %c128 = "arith.constant"() <{value = 128 : i32}> : () -> i32
    %pid = "tt.get_program_id"() <{axis = 0 : i32}> : () -> i32
    %npn0 = "arith.addi"(%N, %c127) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %num_pid_n = "arith.divsi"(%npn0, %c128) : (i32, i32) -> i32
    %pid_m = "arith.divsi"(%pid, %num_pid_n) : (i32, i32) -> i32
    %pid_n = "arith.remsi"(%pid, %num_pid_n) : (i32, i32) -> i32
    %rm = "arith.muli"(%pid_m, %c128) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %rn = "arith.muli"(%pid_n, %c128) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %a_row = "arith.muli"(%rm, %K) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %a_ptrs_b = "tt.addptr"(%a_ptr, %a_row) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %a_ptrs_s = "tt.splat"(%a_ptrs_b) : (!tt.ptr<f16>) -> tensor<128x64x!tt.ptr<f16>, #bl>
    %a_ptrs_o = "arith.constant"() <{value = dense<1> : tensor<128x64xi32, #bl>}> : () -> tensor<128x64xi32, #bl>
    %a_ptrs = "tt.addptr"(%a_ptrs_s, %a_ptrs_o) : (tensor<128x64x!tt.ptr<f16>, #bl>, tensor<128x64xi32, #bl>) -> tensor<128x64x!tt.ptr<f16>, #bl>
    %w_row = "arith.muli"(%rn, %c1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %w_ptrs_b = "tt.addptr"(%b_ptr, %w_row) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %w_ptrs_s = "tt.splat"(%w_ptrs_b) : (!tt.ptr<f16>) -> tensor<64x128x!tt.ptr<f16>, #bl>
    %w_ptrs_o = "arith.constant"() <{value = dense<1> : tensor<64x128xi32, #bl>}> : () -> tensor<64x128xi32, #bl>
    %w_ptrs = "tt.addptr"(%w_ptrs_s, %w_ptrs_o) : (tensor<64x128x!tt.ptr<f16>, #bl>, tensor<64x128xi32, #bl>) -> tensor<64x128x!tt.ptr<f16>, #bl>
    %kt = "arith.addi"(%K, %c63) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %ub = "arith.divsi"(%kt, %c64) : (i32, i32) -> i32
    %step_w = "arith.muli"(%N, %c64) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %acc0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<128x128xf32, #bl>}> : () -> tensor<128x128xf32, #bl>
    %sa = "tt.splat"(%c64) : (i32) -> tensor<128x64xi32, #bl>
    %sw = "tt.splat"(%step_w) : (i32) -> tensor<64x128xi32, #bl>
    %r:3 = "scf.for"(%c0, %ub, %c1, %a_ptrs, %w_ptrs, %acc0) ({
    ^bb0(%k: i32, %ap: tensor<128x64x!tt.ptr<f16>, #bl>, %wp: tensor<64x128x!tt.ptr<f16>, #bl>, %acc: tensor<128x128xf32, #bl>):
      %a = "tt.load"(%ap) <{isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x64x!tt.ptr<f16>, #bl>) -> tensor<128x64xf16, #bl>
      %w = "tt.load"(%wp) <{isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<64x128x!tt.ptr<f16>, #bl>) -> tensor<64x128xf16, #bl>
      %d = "tt.dot"(%a, %w, %acc) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x64xf16, #bl>, tensor<64x128xf16, #bl>, tensor<128x128xf32, #bl>) -> tensor<128x128xf32, #bl>
      %ap2 = "tt.addptr"(%ap, %sa) : (tensor<128x64x!tt.ptr<f16>, #bl>, tensor<128x64xi32, #bl>) -> tensor<128x64x!tt.ptr<f16>, #bl>
      %wp2 = "tt.addptr"(%wp, %sw) : (tensor<64x128x!tt.ptr<f16>, #bl>, tensor<64x128xi32, #bl>) -> tensor<64x128x!tt.ptr<f16>, #bl>
      "scf.yield"(%ap2, %wp2, %d) : (tensor<128x64x!tt.ptr<f16>, #bl>, tensor<64x128x!tt.ptr<f16>, #bl>, tensor<128x128xf32, #bl>) -> ()
    }) : (i32, i32, i32, tensor<128x64x!tt.ptr<f16>, #bl>, tensor<64x128x!tt.ptr<f16>, #bl>, tensor<128x128xf32, #bl>) -> (tensor<128x64x!tt.ptr<f16>, #bl>, tensor<64x128x!tt.ptr<f16>, #bl>, tensor<128x128xf32, #bl>)
    %c_row = "arith.muli"(%rm, %N) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %c_off = "arith.addi"(%c_row, %rn) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %o_b = "tt.addptr"(%c_ptr, %c_off) : (!tt.ptr<f32>, i32) -> !tt.ptr<f32>
    %o_s = "tt.splat"(%o_b) : (!tt.ptr<f32>) -> tensor<128x128x!tt.ptr<f32>, #bl>
    "tt.store"(%o_s, %r#2) <{boundaryCheck = array<i32>, cache = 1 : i32, evict = 1 : i32}> : (tensor<128x128x!tt.ptr<f32>, #bl>, tensor<128x128xf32, #bl>) -> ()
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----


// The same GEMM with the Triton tutorial's GROUP_M swizzle written by hand:
// left alone (pid % num_pid_in_group % group_size_m is not a plain split).
// CHECK-LABEL: sym_name = "no_matmul_1d_grouped"
// CHECK-NOT:   {{tt.get_num_programs|llvm.amdgcn.implicitarg.ptr}}
// CHECK:       "tt.return"
// ON-LABEL: sym_name = "no_matmul_1d_grouped"
// ON-NOT:   {{tt.get_num_programs|llvm.amdgcn.implicitarg.ptr}}
// ON:       "tt.return"
// expected-remark @+3 {{grid order of 'no_matmul_1d_grouped': unchanged: the kernel already permutes its program ids (arith.remsi on program ids at}}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (!tt.ptr<f16>, !tt.ptr<f16>, !tt.ptr<f32>, i32, i32, i32) -> (), sym_name = "no_matmul_1d_grouped", sym_visibility = "public"}> ({
  ^bb0(%a_ptr: !tt.ptr<f16>, %b_ptr: !tt.ptr<f16>, %c_ptr: !tt.ptr<f32>, %M: i32, %N: i32, %K: i32):
    %c0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %c1 = "arith.constant"() <{value = 1 : i32}> : () -> i32
    %c8 = "arith.constant"() <{value = 8 : i32}> : () -> i32
    %c63 = "arith.constant"() <{value = 63 : i32}> : () -> i32
    %c64 = "arith.constant"() <{value = 64 : i32}> : () -> i32
    %c127 = "arith.constant"() <{value = 127 : i32}> : () -> i32
    %c128 = "arith.constant"() <{value = 128 : i32}> : () -> i32
    %pid = "tt.get_program_id"() <{axis = 0 : i32}> : () -> i32
    %npn0 = "arith.addi"(%N, %c127) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %num_pid_n = "arith.divsi"(%npn0, %c128) : (i32, i32) -> i32
    %npm0 = "arith.addi"(%M, %c127) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %num_pid_m = "arith.divsi"(%npm0, %c128) : (i32, i32) -> i32
    %in_group = "arith.muli"(%num_pid_n, %c8) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %group_id = "arith.divsi"(%pid, %in_group) : (i32, i32) -> i32
    %first = "arith.muli"(%group_id, %c8) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %gs0 = "arith.subi"(%num_pid_m, %first) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %gs = "arith.minsi"(%gs0, %c8) : (i32, i32) -> i32
    %r0 = "arith.remsi"(%pid, %in_group) : (i32, i32) -> i32
    %r1 = "arith.remsi"(%r0, %gs) : (i32, i32) -> i32
    %pid_m = "arith.addi"(%first, %r1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %pid_n = "arith.divsi"(%r0, %gs) : (i32, i32) -> i32
    %rm = "arith.muli"(%pid_m, %c128) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %rn = "arith.muli"(%pid_n, %c128) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %a_row = "arith.muli"(%rm, %K) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %a_ptrs_b = "tt.addptr"(%a_ptr, %a_row) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %a_ptrs_s = "tt.splat"(%a_ptrs_b) : (!tt.ptr<f16>) -> tensor<128x64x!tt.ptr<f16>, #bl>
    %a_ptrs_o = "arith.constant"() <{value = dense<1> : tensor<128x64xi32, #bl>}> : () -> tensor<128x64xi32, #bl>
    %a_ptrs = "tt.addptr"(%a_ptrs_s, %a_ptrs_o) : (tensor<128x64x!tt.ptr<f16>, #bl>, tensor<128x64xi32, #bl>) -> tensor<128x64x!tt.ptr<f16>, #bl>
    %w_row = "arith.muli"(%rn, %c1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %w_ptrs_b = "tt.addptr"(%b_ptr, %w_row) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %w_ptrs_s = "tt.splat"(%w_ptrs_b) : (!tt.ptr<f16>) -> tensor<64x128x!tt.ptr<f16>, #bl>
    %w_ptrs_o = "arith.constant"() <{value = dense<1> : tensor<64x128xi32, #bl>}> : () -> tensor<64x128xi32, #bl>
    %w_ptrs = "tt.addptr"(%w_ptrs_s, %w_ptrs_o) : (tensor<64x128x!tt.ptr<f16>, #bl>, tensor<64x128xi32, #bl>) -> tensor<64x128x!tt.ptr<f16>, #bl>
    %kt = "arith.addi"(%K, %c63) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %ub = "arith.divsi"(%kt, %c64) : (i32, i32) -> i32
    %step_w = "arith.muli"(%N, %c64) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %acc0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<128x128xf32, #bl>}> : () -> tensor<128x128xf32, #bl>
    %sa = "tt.splat"(%c64) : (i32) -> tensor<128x64xi32, #bl>
    %sw = "tt.splat"(%step_w) : (i32) -> tensor<64x128xi32, #bl>
    %r:3 = "scf.for"(%c0, %ub, %c1, %a_ptrs, %w_ptrs, %acc0) ({
    ^bb0(%k: i32, %ap: tensor<128x64x!tt.ptr<f16>, #bl>, %wp: tensor<64x128x!tt.ptr<f16>, #bl>, %acc: tensor<128x128xf32, #bl>):
      %a = "tt.load"(%ap) <{isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x64x!tt.ptr<f16>, #bl>) -> tensor<128x64xf16, #bl>
      %w = "tt.load"(%wp) <{isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<64x128x!tt.ptr<f16>, #bl>) -> tensor<64x128xf16, #bl>
      %d = "tt.dot"(%a, %w, %acc) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x64xf16, #bl>, tensor<64x128xf16, #bl>, tensor<128x128xf32, #bl>) -> tensor<128x128xf32, #bl>
      %ap2 = "tt.addptr"(%ap, %sa) : (tensor<128x64x!tt.ptr<f16>, #bl>, tensor<128x64xi32, #bl>) -> tensor<128x64x!tt.ptr<f16>, #bl>
      %wp2 = "tt.addptr"(%wp, %sw) : (tensor<64x128x!tt.ptr<f16>, #bl>, tensor<64x128xi32, #bl>) -> tensor<64x128x!tt.ptr<f16>, #bl>
      "scf.yield"(%ap2, %wp2, %d) : (tensor<128x64x!tt.ptr<f16>, #bl>, tensor<64x128x!tt.ptr<f16>, #bl>, tensor<128x128xf32, #bl>) -> ()
    }) : (i32, i32, i32, tensor<128x64x!tt.ptr<f16>, #bl>, tensor<64x128x!tt.ptr<f16>, #bl>, tensor<128x128xf32, #bl>) -> (tensor<128x64x!tt.ptr<f16>, #bl>, tensor<64x128x!tt.ptr<f16>, #bl>, tensor<128x128xf32, #bl>)
    %c_row = "arith.muli"(%rm, %N) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %c_off = "arith.addi"(%c_row, %rn) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %o_b = "tt.addptr"(%c_ptr, %c_off) : (!tt.ptr<f32>, i32) -> !tt.ptr<f32>
    %o_s = "tt.splat"(%o_b) : (!tt.ptr<f32>) -> tensor<128x128x!tt.ptr<f32>, #bl>
    "tt.store"(%o_s, %r#2) <{boundaryCheck = array<i32>, cache = 1 : i32, evict = 1 : i32}> : (tensor<128x128x!tt.ptr<f32>, #bl>, tensor<128x128xf32, #bl>) -> ()
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----


// 2-D grid GEMM, M tiles on axis 0 (fast), N tiles on axis 1: B's twins are
// adjacent, A's are a whole column of M tiles apart. Grouped: 8 N tiles fastest.
// CHECK-LABEL: sym_name = "matmul_2d"
// CHECK:      %[[PM:[0-9]+]] = "tt.get_program_id"() <{axis = 0 : i32}>
// CHECK-NEXT: %[[PN:[0-9]+]] = "tt.get_program_id"() <{axis = 1 : i32}>
// CHECK-NEXT: %[[IA:[0-9]+]] = "llvm.call_intrinsic"() <{intrin = "llvm.amdgcn.implicitarg.ptr"
// CHECK-NEXT: %[[GNM:[0-9]+]] = "llvm.getelementptr"(%[[IA]]) <{elem_type = i32, rawConstantIndices = array<i32: 0>}>
// CHECK-NEXT: %[[NM:[0-9]+]] = "llvm.load"(%[[GNM]]) <{alignment = 4 : i64}>
// CHECK-NEXT: %[[GNN:[0-9]+]] = "llvm.getelementptr"(%[[IA]]) <{elem_type = i32, rawConstantIndices = array<i32: 1>}>
// CHECK-NEXT: %[[NN:[0-9]+]] = "llvm.load"(%[[GNN]]) <{alignment = 4 : i64}>
// CHECK:      %[[C8:[0-9]+]] = "arith.constant"() <{value = 8 : i32}>
// CHECK:      "scf.if"
// CHECK:      %[[T0:[0-9]+]] = "arith.muli"(%[[PN]], %[[NM]])
// CHECK-NEXT: %[[LIN:[0-9]+]] = "arith.addi"(%[[T0]], %[[PM]])
// CHECK-NEXT: %[[SPAN:[0-9]+]] = "arith.muli"(%[[C8]], %[[NM]])
// CHECK:      %[[LEFT:[0-9]+]] = "arith.subi"(%[[NN]], %{{[0-9]+}})
// CHECK:      "scf.yield"(%[[PM]], %[[PN]])
// expected-remark @+3 {{grid order of 'matmul_2d': remapped: arg0 (256.0 KiB/program at 16 trips per unknown loop) is moved by {axis0} and shared by programs that differ in {axis1}; new order {axis1} fastest (groups of 8), then {axis0}; taken at run time}}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (!tt.ptr<f16>, !tt.ptr<f16>, !tt.ptr<f32>, i32, i32, i32) -> (), sym_name = "matmul_2d", sym_visibility = "public"}> ({
  ^bb0(%a_ptr: !tt.ptr<f16>, %b_ptr: !tt.ptr<f16>, %c_ptr: !tt.ptr<f32>, %M: i32, %N: i32, %K: i32):
    %c0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %c1 = "arith.constant"() <{value = 1 : i32}> : () -> i32
    %c63 = "arith.constant"() <{value = 63 : i32}> : () -> i32
    %c64 = "arith.constant"() <{value = 64 : i32}> : () -> i32
    %c128 = "arith.constant"() <{value = 128 : i32}> : () -> i32
    %pid_m = "tt.get_program_id"() <{axis = 0 : i32}> : () -> i32
    %pid_n = "tt.get_program_id"() <{axis = 1 : i32}> : () -> i32
    %rm = "arith.muli"(%pid_m, %c128) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %rn = "arith.muli"(%pid_n, %c128) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %a_row = "arith.muli"(%rm, %K) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %a_ptrs_b = "tt.addptr"(%a_ptr, %a_row) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %a_ptrs_s = "tt.splat"(%a_ptrs_b) : (!tt.ptr<f16>) -> tensor<128x64x!tt.ptr<f16>, #bl>
    %a_ptrs_o = "arith.constant"() <{value = dense<1> : tensor<128x64xi32, #bl>}> : () -> tensor<128x64xi32, #bl>
    %a_ptrs = "tt.addptr"(%a_ptrs_s, %a_ptrs_o) : (tensor<128x64x!tt.ptr<f16>, #bl>, tensor<128x64xi32, #bl>) -> tensor<128x64x!tt.ptr<f16>, #bl>
    %w_row = "arith.muli"(%rn, %c1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %w_ptrs_b = "tt.addptr"(%b_ptr, %w_row) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %w_ptrs_s = "tt.splat"(%w_ptrs_b) : (!tt.ptr<f16>) -> tensor<64x128x!tt.ptr<f16>, #bl>
    %w_ptrs_o = "arith.constant"() <{value = dense<1> : tensor<64x128xi32, #bl>}> : () -> tensor<64x128xi32, #bl>
    %w_ptrs = "tt.addptr"(%w_ptrs_s, %w_ptrs_o) : (tensor<64x128x!tt.ptr<f16>, #bl>, tensor<64x128xi32, #bl>) -> tensor<64x128x!tt.ptr<f16>, #bl>
    %kt = "arith.addi"(%K, %c63) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %ub = "arith.divsi"(%kt, %c64) : (i32, i32) -> i32
    %step_w = "arith.muli"(%N, %c64) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %acc0 = "arith.constant"() <{value = dense<0.000000e+00> : tensor<128x128xf32, #bl>}> : () -> tensor<128x128xf32, #bl>
    %sa = "tt.splat"(%c64) : (i32) -> tensor<128x64xi32, #bl>
    %sw = "tt.splat"(%step_w) : (i32) -> tensor<64x128xi32, #bl>
    %r:3 = "scf.for"(%c0, %ub, %c1, %a_ptrs, %w_ptrs, %acc0) ({
    ^bb0(%k: i32, %ap: tensor<128x64x!tt.ptr<f16>, #bl>, %wp: tensor<64x128x!tt.ptr<f16>, #bl>, %acc: tensor<128x128xf32, #bl>):
      %a = "tt.load"(%ap) <{isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x64x!tt.ptr<f16>, #bl>) -> tensor<128x64xf16, #bl>
      %w = "tt.load"(%wp) <{isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<64x128x!tt.ptr<f16>, #bl>) -> tensor<64x128xf16, #bl>
      %d = "tt.dot"(%a, %w, %acc) <{inputPrecision = 0 : i32, maxNumImpreciseAcc = 0 : i32}> : (tensor<128x64xf16, #bl>, tensor<64x128xf16, #bl>, tensor<128x128xf32, #bl>) -> tensor<128x128xf32, #bl>
      %ap2 = "tt.addptr"(%ap, %sa) : (tensor<128x64x!tt.ptr<f16>, #bl>, tensor<128x64xi32, #bl>) -> tensor<128x64x!tt.ptr<f16>, #bl>
      %wp2 = "tt.addptr"(%wp, %sw) : (tensor<64x128x!tt.ptr<f16>, #bl>, tensor<64x128xi32, #bl>) -> tensor<64x128x!tt.ptr<f16>, #bl>
      "scf.yield"(%ap2, %wp2, %d) : (tensor<128x64x!tt.ptr<f16>, #bl>, tensor<64x128x!tt.ptr<f16>, #bl>, tensor<128x128xf32, #bl>) -> ()
    }) : (i32, i32, i32, tensor<128x64x!tt.ptr<f16>, #bl>, tensor<64x128x!tt.ptr<f16>, #bl>, tensor<128x128xf32, #bl>) -> (tensor<128x64x!tt.ptr<f16>, #bl>, tensor<64x128x!tt.ptr<f16>, #bl>, tensor<128x128xf32, #bl>)
    %c_row = "arith.muli"(%rm, %N) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %c_off = "arith.addi"(%c_row, %rn) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %o_b = "tt.addptr"(%c_ptr, %c_off) : (!tt.ptr<f32>, i32) -> !tt.ptr<f32>
    %o_s = "tt.splat"(%o_b) : (!tt.ptr<f32>) -> tensor<128x128x!tt.ptr<f32>, #bl>
    "tt.store"(%o_s, %r#2) <{boundaryCheck = array<i32>, cache = 1 : i32, evict = 1 : i32}> : (tensor<128x128x!tt.ptr<f32>, #bl>, tensor<128x128xf32, #bl>) -> ()
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----


// gfx942: workgroups go round-robin to 8 XCDs with separate L2s. The linear
// index is first mapped to contiguous chunks per XCD (ceil(total/8) ids for
// the first total % 8 XCDs, one fewer for the others: exact for any total),
// then grouped as above. In hardware order programs that share a tile are on
// different L2s at any grid size; the remap pays where W's distinct bytes
// (bytes/program x n0 x n1) exceed one XCD's effective L2 (4 MiB x 0.75):
// a run-time guard, with no wave test.
// CHECK-LABEL: sym_name = "splitk_slow_xcd"
// CHECK:      %[[N:[0-9]+]] = "tt.get_program_id"() <{axis = 0 : i32}>
// CHECK:      %[[IA:[0-9]+]] = "llvm.call_intrinsic"() <{intrin = "llvm.amdgcn.implicitarg.ptr"
// CHECK-NEXT: %[[GN0:[0-9]+]] = "llvm.getelementptr"(%[[IA]]) <{elem_type = i32, rawConstantIndices = array<i32: 0>}>
// CHECK-NEXT: %[[N0:[0-9]+]] = "llvm.load"(%[[GN0]]) <{alignment = 4 : i64}>
// CHECK-NEXT: %[[GN1:[0-9]+]] = "llvm.getelementptr"(%[[IA]]) <{elem_type = i32, rawConstantIndices = array<i32: 1>}>
// CHECK-NEXT: %[[N1:[0-9]+]] = "llvm.load"(%[[GN1]]) <{alignment = 4 : i64}>
// CHECK-NEXT: %[[GN2:[0-9]+]] = "llvm.getelementptr"(%[[IA]]) <{elem_type = i32, rawConstantIndices = array<i32: 2>}>
// CHECK-NEXT: %[[N2:[0-9]+]] = "llvm.load"(%[[GN2]]) <{alignment = 4 : i64}>
// CHECK:      %[[C8:[0-9]+]] = "arith.constant"() <{value = 8 : i32}>
// CHECK-NEXT: %[[C7:[0-9]+]] = "arith.constant"() <{value = 7 : i32}>
// CHECK:      %[[D:[0-9]+]] = "arith.muli"({{.*}} {tmfma.grid_value = ["distinct_bytes"]}
// CHECK-NEXT: %[[XG:[0-9]+]] = "arith.cmpi"(%[[D]], %{{[0-9]+}}) <{predicate = 4 : i64}> {tmfma.grid_value = ["test:xcd"]} : (i32, i32) -> i1
// CHECK-NEXT: "arith.constant"() <{value = false}>
// CHECK-NEXT: %[[UXG:[0-9]+]] = "llvm.call_intrinsic"(%[[XG]], %{{[0-9]+}}) <{intrin = "llvm.expect.i1"
// CHECK-NEXT: "scf.if"(%[[UXG]])
// CHECK:      %[[LIN:[0-9]+]] = "arith.addi"(%{{[0-9]+}}, %[[N]])
// CHECK-NEXT: %[[T01:[0-9]+]] = "arith.muli"(%[[N0]], %[[N1]])
// CHECK-NEXT: %[[TOT:[0-9]+]] = "arith.muli"(%[[T01]], %[[N2]])
// CHECK-NEXT: %[[TOT7:[0-9]+]] = "arith.addi"(%[[TOT]], %[[C7]])
// CHECK-NEXT: %[[PER:[0-9]+]] = "arith.divui"(%[[TOT7]], %[[C8]])
// CHECK-NEXT: %[[TALL0:[0-9]+]] = "arith.remui"(%[[TOT]], %[[C8]])
// CHECK-NEXT: %[[Z:[0-9]+]] = "arith.cmpi"(%[[TALL0]], %{{[0-9]+}}) <{predicate = 0 : i64}>
// CHECK-NEXT: %[[TALL:[0-9]+]] = "arith.select"(%[[Z]], %[[C8]], %[[TALL0]])
// CHECK-NEXT: %[[XCD:[0-9]+]] = "arith.remui"(%[[LIN]], %[[C8]])
// CHECK-NEXT: %[[LOCAL:[0-9]+]] = "arith.divui"(%[[LIN]], %[[C8]])
// CHECK:      %[[ISTALL:[0-9]+]] = "arith.cmpi"(%[[XCD]], %[[TALL]]) <{predicate = 2 : i64}>
// CHECK-NEXT: %[[CHUNKED:[0-9]+]] = "arith.select"(%[[ISTALL]], %{{[0-9]+}}, %{{[0-9]+}})
// CHECK:      "arith.divui"(%[[CHUNKED]], %{{[0-9]+}})
// CHECK:      "arith.minsi"
// CHECK-NOT:  tmfma.grid_value
// CHECK:      "tt.load"
// CHECK:      tmfma.grid_order = {device = "MI300X", dims = ["axis0", "axis1", "axis2"], guard = "xcd", guard_unit = 8192 : i64, heavy = "arg1", l2_bytes = 4194304 : i64, l2_effective = 7.500000e-01 : f64, mode = "auto", reorder = true, shared = ["arg1"], threshold = 3145728 : i64, xcds = 8 : i64}
// expected-remark @+3 {{grid order of 'splitk_slow_xcd': remapped: arg1 (128.0 KiB/program at 16 trips per unknown loop) is moved by {axis0,axis1} and shared by programs that differ in {axis2}; new order {axis2} fastest (groups of 8), then {axis0,axis1}; programs in contiguous chunks per XCD (MI300X: workgroups go round-robin to 8 XCDs}}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (!tt.ptr<f16>, !tt.ptr<f16>, !tt.ptr<f32>, i32, i32) -> (), sym_name = "splitk_slow_xcd", sym_visibility = "public"}> ({
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


// gfx942, already fast order: the order is kept, only the XCD chunks are
// added (twins m, m+1 would otherwise run on two XCDs).
// CHECK-LABEL: sym_name = "splitk_fast_xcd"
// CHECK:      "llvm.getelementptr"(%{{[0-9]+}}) <{elem_type = i32, rawConstantIndices = array<i32: 2>}>
// CHECK:      "arith.remui"(%{{[0-9]+}}, %{{[0-9]+}})
// CHECK-NOT:  "arith.minsi"
// CHECK:      "tt.load"
// expected-remark @+3 {{grid order of 'splitk_fast_xcd': remapped: arg1 (128.0 KiB/program at 16 trips per unknown loop) is moved by {axis1,axis2} and shared by programs that differ in {axis0}; hardware order kept; programs in contiguous chunks per XCD}}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (!tt.ptr<f16>, !tt.ptr<f16>, !tt.ptr<f32>, i32, i32) -> (), sym_name = "splitk_fast_xcd", sym_visibility = "public"}> ({
  ^bb0(%a_ptr: !tt.ptr<f16>, %w_ptr: !tt.ptr<f16>, %p_ptr: !tt.ptr<f32>, %K: i32, %N: i32):
    %c0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %c1 = "arith.constant"() <{value = 1 : i32}> : () -> i32
    %c32 = "arith.constant"() <{value = 32 : i32}> : () -> i32
    %c64 = "arith.constant"() <{value = 64 : i32}> : () -> i32
    %c511 = "arith.constant"() <{value = 511 : i32}> : () -> i32
    %c512 = "arith.constant"() <{value = 512 : i32}> : () -> i32
    %pid_m = "tt.get_program_id"() <{axis = 0 : i32}> : () -> i32
    %pid_n = "tt.get_program_id"() <{axis = 1 : i32}> : () -> i32
    %pid_k = "tt.get_program_id"() <{axis = 2 : i32}> : () -> i32
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


// cuda:90 (the pass is not MFMA-specific): H100/H200 figures, 50 MiB L2 of
// which the guard counts all (a miss is certain only above it,
// TargetInfo.cpp), 132 SMs, and P an upper bound (warp slots: L2Model.h).
// CHECK-LABEL: sym_name = "splitk_slow_cuda"
// On cuda the grid size is tt.get_num_programs (a special register).
// CHECK-NOT:  llvm.amdgcn.implicitarg.ptr
// CHECK:      "tt.get_num_programs"() <{axis = 0 : i32}>
// CHECK-DAG:  "arith.constant"() <{value = 12800 : i32}>
// CHECK-DAG:  "arith.constant"() <{value = 2112 : i32}>
// expected-remark @+3 {{taken at run time when the grid has more than P = 2112 programs (132 CUs x 16; an upper bound: warp slots allow at most 16 programs of 4 warps per CU, LDS (0 B, LDS model) 32, workgroup slots 32) and the bytes streamed between twin reads exceed 52428800 B (H100/H200 L2 50.0 MiB x 1.00)}}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  "tt.func"() <{function_type = (!tt.ptr<f16>, !tt.ptr<f16>, !tt.ptr<f32>, i32, i32) -> (), sym_name = "splitk_slow_cuda", sym_visibility = "public"}> ({
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


// Elementwise: every program reads its own block, nothing is shared.
// CHECK-LABEL: sym_name = "no_elementwise"
// CHECK-NOT:   {{tt.get_num_programs|llvm.amdgcn.implicitarg.ptr}}
// ON-LABEL: sym_name = "no_elementwise"
// ON-NOT:   {{tt.get_num_programs|llvm.amdgcn.implicitarg.ptr}}
// expected-remark @+3 {{grid order of 'no_elementwise': unchanged: no heavy operand is shared between programs}}
#bl = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (!tt.ptr<f16>, !tt.ptr<f16>) -> (), sym_name = "no_elementwise", sym_visibility = "public"}> ({
  ^bb0(%x_ptr: !tt.ptr<f16>, %y_ptr: !tt.ptr<f16>):
    %c1024 = "arith.constant"() <{value = 1024 : i32}> : () -> i32
    %pid = "tt.get_program_id"() <{axis = 0 : i32}> : () -> i32
    %off = "arith.muli"(%pid, %c1024) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %x_ptrs_b = "tt.addptr"(%x_ptr, %off) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %x_ptrs_s = "tt.splat"(%x_ptrs_b) : (!tt.ptr<f16>) -> tensor<1024x!tt.ptr<f16>, #bl>
    %x_ptrs_o = "arith.constant"() <{value = dense<1> : tensor<1024xi32, #bl>}> : () -> tensor<1024xi32, #bl>
    %x_ptrs = "tt.addptr"(%x_ptrs_s, %x_ptrs_o) : (tensor<1024x!tt.ptr<f16>, #bl>, tensor<1024xi32, #bl>) -> tensor<1024x!tt.ptr<f16>, #bl>
    %x = "tt.load"(%x_ptrs) <{isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<1024x!tt.ptr<f16>, #bl>) -> tensor<1024xf16, #bl>
    %y_ptrs_b = "tt.addptr"(%y_ptr, %off) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %y_ptrs_s = "tt.splat"(%y_ptrs_b) : (!tt.ptr<f16>) -> tensor<1024x!tt.ptr<f16>, #bl>
    %y_ptrs_o = "arith.constant"() <{value = dense<1> : tensor<1024xi32, #bl>}> : () -> tensor<1024xi32, #bl>
    %y_ptrs = "tt.addptr"(%y_ptrs_s, %y_ptrs_o) : (tensor<1024x!tt.ptr<f16>, #bl>, tensor<1024xi32, #bl>) -> tensor<1024x!tt.ptr<f16>, #bl>
    "tt.store"(%y_ptrs, %x) <{boundaryCheck = array<i32>, cache = 1 : i32, evict = 1 : i32}> : (tensor<1024x!tt.ptr<f16>, #bl>, tensor<1024xf16, #bl>) -> ()
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----


// Programs take tickets from a counter (the atomic's result is used): they
// may wait on each other, and reordering them could deadlock. Left alone.
// CHECK-LABEL: sym_name = "no_ticket"
// CHECK-NOT:   {{tt.get_num_programs|llvm.amdgcn.implicitarg.ptr}}
// ON-LABEL: sym_name = "no_ticket"
// ON-NOT:   {{tt.get_num_programs|llvm.amdgcn.implicitarg.ptr}}
// expected-remark @+3 {{grid order of 'no_ticket': unchanged: programs may communicate (tt.atomic_rmw whose result is used}}
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (!tt.ptr<f16>, !tt.ptr<f16>, !tt.ptr<f32>, i32, i32, !tt.ptr<i32>) -> (), sym_name = "no_ticket", sym_visibility = "public"}> ({
  ^bb0(%a_ptr: !tt.ptr<f16>, %w_ptr: !tt.ptr<f16>, %p_ptr: !tt.ptr<f32>, %K: i32, %N: i32, %cnt_ptr: !tt.ptr<i32>):
    %c0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %c1 = "arith.constant"() <{value = 1 : i32}> : () -> i32
    %c32 = "arith.constant"() <{value = 32 : i32}> : () -> i32
    %c64 = "arith.constant"() <{value = 64 : i32}> : () -> i32
    %c511 = "arith.constant"() <{value = 511 : i32}> : () -> i32
    %c512 = "arith.constant"() <{value = 512 : i32}> : () -> i32
    %ticket = "tt.atomic_rmw"(%cnt_ptr, %c1) <{atomic_rmw_op = 5 : i32, scope = 1 : i32, sem = 4 : i32}> : (!tt.ptr<i32>, i32) -> i32
    %t_off = "arith.muli"(%ticket, %c0) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
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


// amdg.buffer_load (real module, gfx942 with buffer ops): the address is the
// scalar base x_ptr + pid_m * 1024 plus an offsets tensor; the analysis
// follows both. x is shared along axis 0 (fast), w along axis 1 (slow): w's
// sharing axis goes first. Both are shared: the remap is taken when their
// distinct bytes (2 KiB x n0 + 2 KiB x n1) exceed an XCD's 3 MiB.
// CHECK-LABEL: sym_name = "buffer_rows"
// CHECK:      "llvm.getelementptr"(%{{[0-9]+}}) <{elem_type = i32, rawConstantIndices = array<i32: 1>}>
// CHECK:      %[[D:[0-9]+]] = "arith.addi"({{.*}} {tmfma.grid_value = ["distinct_bytes"]}
// CHECK-NEXT: %[[X:[0-9]+]] = "arith.cmpi"(%[[D]], %{{[0-9]+}}) <{predicate = 4 : i64}> {tmfma.grid_value = ["test:xcd"]}
// CHECK-NEXT: "arith.constant"() <{value = false}>
// CHECK-NEXT: %[[UX:[0-9]+]] = "llvm.call_intrinsic"(%[[X]], %{{[0-9]+}}) <{intrin = "llvm.expect.i1"
// CHECK-NEXT: "scf.if"(%[[UX]])
// CHECK:      "arith.minsi"
// CHECK:      "amdg.buffer_load"
// ON-LABEL: sym_name = "buffer_rows"
// ON:       "arith.minsi"
// expected-remark @+3 {{{axis1} fastest (groups of 8), then {axis0}; programs in contiguous chunks per XCD (MI300X: workgroups go round-robin to 8 XCDs with separate 4.0 MiB L2s, so programs sharing tiles are on different L2s in hardware order); taken at run time when the distinct bytes of the shared operands (arg1, arg0: bytes/program x the sizes of the dims that move each) exceed 3145728 B (MI300X L2 4.0 MiB x 0.75) [dims axis0,axis1 (fastest first); loads: arg1: moved by {axis0}, 2048 B; arg0: moved by {axis1}, 2048 B]}}
#bl = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
"builtin.module"() ({
  "tt.func"() <{arg_attrs = [{tt.divisibility = 16 : i32}, {tt.divisibility = 16 : i32}, {tt.divisibility = 16 : i32}, {}], function_type = (!tt.ptr<f16>, !tt.ptr<f16>, !tt.ptr<f16>, i32) -> (), sym_name = "buffer_rows", sym_visibility = "public"}> ({
  ^bb0(%x_ptr: !tt.ptr<f16>, %w_ptr: !tt.ptr<f16>, %y_ptr: !tt.ptr<f16>, %n: i32):
    %0 = "arith.constant"() <{value = 1024 : i32}> : () -> i32
    %pid_n = "tt.get_program_id"() <{axis = 0 : i32}> : () -> i32
    %pid_m = "tt.get_program_id"() <{axis = 1 : i32}> : () -> i32
    %offs = "arith.muli"(%pid_n, %0) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %offs_0 = "tt.make_range"() <{end = 1024 : i32, start = 0 : i32}> : () -> tensor<1024xi32, #bl>
    %offs_1 = "tt.make_range"() <{end = 1024 : i32, start = 0 : i32}> : () -> tensor<1024xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>
    %offs_2 = "tt.splat"(%offs) : (i32) -> tensor<1024xi32, #bl>
    %offs_3 = "tt.splat"(%offs) : (i32) -> tensor<1024xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>
    %offs_4 = "arith.addi"(%offs_2, %offs_0) <{overflowFlags = #arith.overflow<none>}> : (tensor<1024xi32, #bl>, tensor<1024xi32, #bl>) -> tensor<1024xi32, #bl>
    %offs_5 = "arith.addi"(%offs_3, %offs_1) <{overflowFlags = #arith.overflow<none>}> : (tensor<1024xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>, tensor<1024xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>) -> tensor<1024xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>
    %w = "tt.splat"(%w_ptr) : (!tt.ptr<f16>) -> tensor<1024x!tt.ptr<f16>, #bl>
    %w_6 = "tt.addptr"(%w, %offs_4) : (tensor<1024x!tt.ptr<f16>, #bl>, tensor<1024xi32, #bl>) -> tensor<1024x!tt.ptr<f16>, #bl>
    %w_7 = "tt.load"(%w_6) <{isVolatile = false, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<1024x!tt.ptr<f16>, #bl>) -> tensor<1024xf16, #bl>
    %x = "arith.muli"(%pid_m, %0) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %x_8 = "tt.addptr"(%x_ptr, %x) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %x_9 = "amdg.buffer_load"(%x_8, %offs_0) <{contiguity = 4 : i32, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (!tt.ptr<f16>, tensor<1024xi32, #bl>) -> tensor<1024xf16, #bl>
    %1 = "arith.muli"(%pid_m, %n) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %2 = "tt.addptr"(%y_ptr, %1) : (!tt.ptr<f16>, i32) -> !tt.ptr<f16>
    %3 = "tt.splat"(%2) : (!tt.ptr<f16>) -> tensor<1024x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>
    %4 = "tt.addptr"(%3, %offs_5) : (tensor<1024x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>, tensor<1024xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>) -> tensor<1024x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>
    %5 = "arith.mulf"(%x_9, %w_7) <{fastmath = #arith.fastmath<none>}> : (tensor<1024xf16, #bl>, tensor<1024xf16, #bl>) -> tensor<1024xf16, #bl>
    %6 = "ttg.convert_layout"(%5) : (tensor<1024xf16, #bl>) -> tensor<1024xf16, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>
    "tt.store"(%4, %6) : (tensor<1024x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>, tensor<1024xf16, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>>) -> ()
    "tt.return"() : () -> ()
  }) {noinline = false} : () -> ()
}) {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} : () -> ()