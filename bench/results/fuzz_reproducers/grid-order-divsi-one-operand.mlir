// mfma-grid-order: an arith.divsi with one operand (not on a program id)
// (ProgramAxes::findHandSwizzle reads operand 1 of every div/rem).
// mfma-opt grid-order-divsi-one-operand.mlir -mfma-grid-order
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (!tt.ptr<f32>, i32) -> (), sym_name = "k", sym_visibility = "public"}> ({
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
