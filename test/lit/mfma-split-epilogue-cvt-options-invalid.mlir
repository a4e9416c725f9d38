// An lds-limit below 0 is an error on every input: before the pass reads the
// module (a malformed or missing ttg.target used to make it skip the module
// with a remark, and accept the option).
// RUN: mfma-opt %s -split-input-file -mfma-split-epilogue-cvt=lds-limit=-1 -verify-diagnostics
// RUN: not mfma-opt %s -split-input-file -mfma-split-epilogue-cvt=lds-limit=-1 2>&1 | filecheck %s
// RUN: mfma-opt %s -split-input-file -mfma-split-epilogue-cvt=lds-limit=0 2>&1 >/dev/null | filecheck %s --check-prefix=VALID

// CHECK-COUNT-3: error: mfma-split-epilogue-cvt: lds-limit must be >= 0, not -1
// VALID-NOT: error
// VALID: remark: mfma-split-epilogue-cvt: {{.*}}; IR unchanged

// A target string of no known GPU.
// expected-error @below {{mfma-split-epilogue-cvt: lds-limit must be >= 0, not -1}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx9x9", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "unknown_target"}> ({
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// A target that is not a string.
// expected-error @below {{mfma-split-epilogue-cvt: lds-limit must be >= 0, not -1}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = 942 : i32, "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "integer_target"}> ({
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// No target at all.
// expected-error @below {{mfma-split-epilogue-cvt: lds-limit must be >= 0, not -1}}
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "no_target"}> ({
    "tt.return"() : () -> ()
  }) : () -> ()
}
