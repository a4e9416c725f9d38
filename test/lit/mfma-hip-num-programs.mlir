// RUN: mfma-opt %s -split-input-file -mfma-hip-num-programs -verify-diagnostics | filecheck %s

// On hip, tt.get_num_programs becomes the load of hidden_block_count_<axis>
// that __ockl_get_num_groups inlines to (code object v5): the implicit
// argument pointer once per function, at its entry; each read where the op
// was, with its discardable attributes.

// A persistent loop over row blocks (the shape of liger's rms_norm backward):
// the grid size is the loop step.
// CHECK-LABEL: sym_name = "persistent_rows"
// CHECK:      ^bb0(
// CHECK-NEXT: %[[ARGS:[0-9]+]] = "llvm.call_intrinsic"() <{intrin = "llvm.amdgcn.implicitarg.ptr", op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 0, 0>}> : () -> !llvm.ptr<4>
// CHECK:      %[[PID:[0-9]+]] = "tt.get_program_id"() <{axis = 0 : i32}>
// CHECK-NEXT: %[[P0:[0-9]+]] = "llvm.getelementptr"(%[[ARGS]]) <{elem_type = i32, rawConstantIndices = array<i32: 0>}> : (!llvm.ptr<4>) -> !llvm.ptr<4>
// CHECK-NEXT: %[[N0:[0-9]+]] = "llvm.load"(%[[P0]]) <{alignment = 4 : i64}> {test.keep = 7 : i32} : (!llvm.ptr<4>) -> i32
// CHECK:      "scf.for"(%[[PID]], %{{.*}}, %[[N0]])
// CHECK-NOT:  tt.get_num_programs
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
// expected-remark @+1 {{mfma-hip-num-programs: 1 grid-size read(s) from the implicit kernel arguments instead of tt.get_num_programs}}
"tt.func"() <{function_type = (!tt.ptr<f32>, i32) -> (), sym_name = "persistent_rows", sym_visibility = "public"}> ({
^bb0(%x: !tt.ptr<f32>, %rows: i32):
  %pid = "tt.get_program_id"() <{axis = 0 : i32}> : () -> i32
  %n = "tt.get_num_programs"() <{axis = 0 : i32}> {test.keep = 7 : i32} : () -> i32
  "scf.for"(%pid, %rows, %n) ({
  ^bb1(%i: i32):
    %p = "tt.addptr"(%x, %i) : (!tt.ptr<f32>, i32) -> !tt.ptr<f32>
    %v = "tt.load"(%p) <{cache = 1 : i32, evict = 1 : i32, isVolatile = false}> : (!tt.ptr<f32>) -> f32
    "tt.store"(%p, %v) <{cache = 1 : i32, evict = 1 : i32}> : (!tt.ptr<f32>, f32) -> ()
    "scf.yield"() : () -> ()
  }) : (i32, i32, i32) -> ()
  "tt.return"() : () -> ()
}) : () -> ()
}

// -----

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
// Three axes, one of them read twice and one inside a branch: one pointer for
// the function, one load per read.
// CHECK-LABEL: sym_name = "three_axes"
// CHECK:      ^bb0(
// CHECK-NEXT: %[[ARGS:[0-9]+]] = "llvm.call_intrinsic"() <{intrin = "llvm.amdgcn.implicitarg.ptr"
// CHECK-NOT:  llvm.call_intrinsic
// CHECK:      "llvm.getelementptr"(%[[ARGS]]) <{elem_type = i32, rawConstantIndices = array<i32: 2>}>
// CHECK:      "llvm.getelementptr"(%[[ARGS]]) <{elem_type = i32, rawConstantIndices = array<i32: 1>}>
// CHECK:      "scf.if"
// CHECK:      "llvm.getelementptr"(%[[ARGS]]) <{elem_type = i32, rawConstantIndices = array<i32: 2>}>
// CHECK-NOT:  tt.get_num_programs
// expected-remark @+1 {{mfma-hip-num-programs: 3 grid-size read(s)}}
"tt.func"() <{function_type = (!tt.ptr<i32>) -> (), sym_name = "three_axes", sym_visibility = "public"}> ({
^bb0(%out: !tt.ptr<i32>):
  %z = "tt.get_num_programs"() <{axis = 2 : i32}> : () -> i32
  %y = "tt.get_num_programs"() <{axis = 1 : i32}> : () -> i32
  %c1 = "arith.constant"() <{value = 1 : i32}> : () -> i32
  %big = "arith.cmpi"(%y, %c1) <{predicate = 4 : i64}> : (i32, i32) -> i1
  %r = "scf.if"(%big) ({
    %z2 = "tt.get_num_programs"() <{axis = 2 : i32}> : () -> i32
    %s = "arith.addi"(%z2, %y) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    "scf.yield"(%s) : (i32) -> ()
  }, {
    "scf.yield"(%z) : (i32) -> ()
  }) : (i1) -> i32
  "tt.store"(%out, %r) <{cache = 1 : i32, evict = 1 : i32}> : (!tt.ptr<i32>, i32) -> ()
  "tt.return"() : () -> ()
}) : () -> ()
// A function that does not read the grid size is left as it is.
// CHECK-LABEL: sym_name = "no_reads"
// CHECK-NOT:   llvm.
// CHECK:       "tt.return"
"tt.func"() <{function_type = (!tt.ptr<i32>) -> (), sym_name = "no_reads", sym_visibility = "public"}> ({
^bb0(%out: !tt.ptr<i32>):
  %pid = "tt.get_program_id"() <{axis = 0 : i32}> : () -> i32
  "tt.store"(%out, %pid) <{cache = 1 : i32, evict = 1 : i32}> : (!tt.ptr<i32>, i32) -> ()
  "tt.return"() : () -> ()
}) : () -> ()
}

// -----

// cuda: the grid size is a special register (%nctaid); unchanged.
// CHECK-LABEL: sym_name = "on_cuda"
// CHECK:       "tt.get_num_programs"() <{axis = 0 : i32}>
// CHECK-NOT:   llvm.amdgcn.implicitarg.ptr
// expected-remark @+1 {{mfma-hip-num-programs: not a hip target ('cuda:90'): the grid size is a special register there; IR unchanged}}
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
"tt.func"() <{function_type = (!tt.ptr<i32>) -> (), sym_name = "on_cuda", sym_visibility = "public"}> ({
^bb0(%out: !tt.ptr<i32>):
  %n = "tt.get_num_programs"() <{axis = 0 : i32}> : () -> i32
  "tt.store"(%out, %n) <{cache = 1 : i32, evict = 1 : i32}> : (!tt.ptr<i32>, i32) -> ()
  "tt.return"() : () -> ()
}) : () -> ()
}

// -----

// A malformed read is an error (the hook then falls back to stock Triton).
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx90a", "ttg.threads-per-warp" = 64 : i32} {
"tt.func"() <{function_type = (!tt.ptr<i32>) -> (), sym_name = "bad_axis", sym_visibility = "public"}> ({
^bb0(%out: !tt.ptr<i32>):
  // expected-error @+1 {{mfma-hip-num-programs: tt.get_num_programs without an axis of 0, 1 or 2}}
  %n = "tt.get_num_programs"() <{axis = 3 : i32}> : () -> i32
  "tt.store"(%out, %n) <{cache = 1 : i32, evict = 1 : i32}> : (!tt.ptr<i32>, i32) -> ()
  "tt.return"() : () -> ()
}) : () -> ()
}
