// Layouts the model cannot take, or that do not print back identically, are
// errors at the first operation using them (and the pass fails); they never
// crash. The first RUN line checks each error against its expected-error; the
// second checks the full text of the messages (kind, field, offset).
// RUN: mfma-opt %s -split-input-file -mfma-print-layouts -verify-diagnostics
// RUN: not mfma-opt %s -split-input-file -mfma-print-layouts=round-trip-only=true 2>&1 | filecheck %s

// CHECK: mfma-print-layouts-invalid.mlir:{{[0-9]+}}:10: error: cannot parse layout #ttg.fancy_layout<{a = 1}>: unknown layout '#ttg.fancy_layout' (at offset 5)
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "no_unknown_kind"}> ({
    // expected-error @below {{unknown layout '#ttg.fancy_layout'}}
    %0 = "arith.constant"() <{value = dense<0.0> : tensor<4xf32, #ttg.fancy_layout<{a = 1}>>}> : () -> tensor<4xf32, #ttg.fancy_layout<{a = 1}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// CHECK: error: cannot parse layout #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], order = [1, 0]}>: missing 'warpsPerCTA' in #ttg.blocked (at offset 13)
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "no_missing_field"}> ({
    // expected-error @below {{missing 'warpsPerCTA' in #ttg.blocked}}
    %0 = "arith.constant"() <{value = dense<0> : tensor<4x64xi32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], order = [1, 0]}>>}> : () -> tensor<4x64xi32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], order = [1, 0]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// CHECK: error: cannot parse layout {{.*}}: expected true or false for 'isTransposed' in #ttg.amd_mfma
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "no_bad_value"}> ({
    // expected-error @below {{expected true or false for 'isTransposed' in #ttg.amd_mfma}}
    %0 = "arith.constant"() <{value = dense<0.0> : tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = 1}>>}> : () -> tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = 1}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// A truncated layout (brackets balanced, content cut short).
// CHECK: error: cannot parse layout {{.*}}: unexpected character ']' in a value (at offset 98)
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "no_truncated_layout"}> ({
    // expected-error @below {{unexpected character ']' in a value}}
    %0 = "arith.constant"() <{value = dense<0> : tensor<4x64xi32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [1, ]}>>}> : () -> tensor<4x64xi32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [1, ]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// Triton never prints default fields or another field order: such text is
// reported with the canonical form.
// CHECK: error: layout round trip mismatch:
// CHECK-NEXT: input:   #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true, tilesPerWarp = [1, 1]}>
// CHECK-NEXT: printed: #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "no_default_field"}> ({
    // expected-error @below {{layout round trip mismatch}}
    %0 = "arith.constant"() <{value = dense<0.0> : tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true, tilesPerWarp = [1, 1]}>>}> : () -> tensor<64x64xf32, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true, tilesPerWarp = [1, 1]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// CHECK: error: layout round trip mismatch:
// CHECK-NEXT: input:   #ttg.slice<{parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [1, 0]}>, dim = 1}>
// CHECK-NEXT: printed: #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [1, 0]}>}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "no_field_order"}> ({
    // expected-error @below {{layout round trip mismatch}}
    %0 = "tt.make_range"() <{end = 64 : i32, start = 0 : i32}> : () -> tensor<64xi32, #ttg.slice<{parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [1, 0]}>, dim = 1}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// CHECK: error: cannot parse layout {{.*}}: #ttg.dot_op kWidth is mandatory for an amd_mfma parent
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "no_kwidth"}> ({
    // expected-error @below {{kWidth is mandatory for an amd_mfma parent}}
    %0 = "arith.constant"() <{value = dense<0.0> : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>}>>}> : () -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// CHECK: error: cannot parse layout {{.*}}: slice dim=2 must be less than the parent rank=2
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "no_slice_dim"}> ({
    // expected-error @below {{slice dim=2 must be less than the parent rank=2}}
    %0 = "tt.make_range"() <{end = 64 : i32, start = 0 : i32}> : () -> tensor<64xi32, #ttg.slice<{dim = 2, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 64], warpsPerCTA = [4, 1], order = [1, 0]}>}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// CHECK: error: cannot parse layout {{.*}}: basis of 'CGALayout' in #ttg.swizzled_shared has 3 entries, expected rank 2
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "no_cga_rank"}> ({
    // expected-error @below {{basis of 'CGALayout' in #ttg.swizzled_shared has 3 entries, expected rank 2}}
    %0 = "ttg.local_alloc"() : () -> !ttg.memdesc<64x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 16, order = [0, 1], CGALayout = [[0, 1, 0]]}>, #ttg.shared_memory, mutable>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// CHECK: error: cannot parse memdesc type: malformed memdesc
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "no_memory_space"}> ({
    // expected-error @below {{cannot parse memdesc type: malformed memdesc}}
    %0 = "ttg.local_alloc"() : () -> !ttg.memdesc<64x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 16, order = [0, 1]}>>
    "tt.return"() : () -> ()
  }) : () -> ()
}

// -----

// Encodings of other dialects are not TritonGPU layouts: nothing to check.
// CHECK-LABEL: sym_name = "no_foreign_encoding"
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  "tt.func"() <{function_type = () -> (), sym_name = "no_foreign_encoding"}> ({
    %0 = "arith.constant"() <{value = dense<0.0> : tensor<4xf32, #foo.enc<[1, 2]>>}> : () -> tensor<4xf32, #foo.enc<[1, 2]>>
    "tt.return"() : () -> ()
  }) : () -> ()
}
