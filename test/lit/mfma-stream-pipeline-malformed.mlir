// RUN: mfma-opt %s -split-input-file -mfma-stream-pipeline -verify-diagnostics

// Loop attributes the fuzzer (test/fuzz/mfma_fuzz.py) found crashing
// mfma-stream-pipeline, read now whatever their integer type: a step of
// 2^70 (was: APInt `Too many bits for int64_t`) is not a positive constant
// the pass takes, and tt.num_stages written as si32 (was: IntegerAttr
// `must be signless integer`) is read.

// expected-remark @below {{mfma-stream-pipeline declined: no loop stream-pipelined}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = (i128) -> (), sym_name = "wide_step", sym_visibility = "public"}> ({
  ^bb0(%n: i128):
    %c0 = "arith.constant"() <{value = 0 : i128}> : () -> i128
    %big = "arith.constant"() <{value = 1180591620717411303424 : i128}> : () -> i128
    // expected-remark @below {{loop not stream-pipelined: its step is not a positive constant}}
    "scf.for"(%c0, %n, %big) ({
    ^bb0(%i: i128):
      "scf.yield"() : () -> ()
    }) : (i128, i128, i128) -> ()
    // expected-remark @below {{loop not stream-pipelined: num_stages <= 1 was requested for it}}
    "scf.for"(%c0, %n, %c0) ({
    ^bb0(%i: i128):
      "scf.yield"() : () -> ()
    }) {tt.num_stages = 1 : si32} : (i128, i128, i128) -> ()
    "tt.return"() : () -> ()
  }) : () -> ()
}
