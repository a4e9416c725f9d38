// RUN: mfma-opt %s -split-input-file -mfma-grid-order 2>&1 | filecheck %s
// Malformed IR reaches the grid-order analysis without a crash (found by test/fuzz/mfma_fuzz.py): the pass
// leaves it alone and says why.

// CHECK-LABEL: grid order of 'no_divsi_one_operand'
// CHECK-SAME: : unchanged
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (!tt.ptr<f32>, i32) -> (), sym_name = "no_divsi_one_operand", sym_visibility = "public"}> ({
  ^bb0(%p: !tt.ptr<f32>, %n: i32):
    %pid = "tt.get_program_id"() <{axis = 0 : i32}> : () -> i32
    %q = "arith.divsi"(%n) : (i32) -> i32
    %o = "arith.addi"(%pid, %q) : (i32, i32) -> i32
    %a = "tt.addptr"(%p, %o) : (!tt.ptr<f32>, i32) -> !tt.ptr<f32>
    %v = "tt.load"(%a) : (!tt.ptr<f32>) -> f32
    "tt.store"(%a, %v) : (!tt.ptr<f32>, f32) -> ()
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// CHECK-LABEL: grid order of 'no_load_without_operands'
// CHECK-SAME: : unchanged: no global loads
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (!tt.ptr<f32>) -> (), sym_name = "no_load_without_operands", sym_visibility = "public"}> ({
  ^bb0(%p: !tt.ptr<f32>):
    %pid = "tt.get_program_id"() <{axis = 0 : i32}> : () -> i32
    %v = "tt.load"() : () -> f32
    %a = "tt.addptr"(%p, %pid) : (!tt.ptr<f32>, i32) -> !tt.ptr<f32>
    "tt.store"(%a, %v) : (!tt.ptr<f32>, f32) -> ()
    "tt.return"() : () -> ()
  }) : () -> ()
}
