// Structured pass outcomes through the C API (tmfma_run_pipeline_ex): one line
// per pass run, "<pass>\t<applied|unchanged|declined>\t<reason>" (shown with
// " | "); declined = the hook runs Triton's own pass instead.

// RUN: %python %S/Inputs/capi_outcomes.py %tmfma_lib %S/mfma-accelerate-dot-declines.mlir "mfma-accelerate-dot" | filecheck %s --check-prefix=DECLINES
// DECLINES: chunk 0: rc=0
// DECLINES-NEXT: chunk 0: mfma-accelerate-dot | declined | an f64 dot at <input>:{{[0-9]+}}
// DECLINES: chunk 1: mfma-accelerate-dot | declined | target hip:gfx1100 (not gfx90a, gfx942 or gfx950)
// DECLINES: chunk 3: mfma-accelerate-dot | declined | waves of 32 threads (CDNA MFMA needs 64)
// DECLINES: chunk 4: mfma-accelerate-dot | declined | a tt.dot_scaled at <input>:{{[0-9]+}}

// RUN: %python %S/Inputs/capi_outcomes.py %tmfma_lib %S/mfma-accelerate-dot.mlir "mfma-accelerate-dot,mfma-stream-pipeline" | filecheck %s --check-prefix=DOT
// DOT: chunk 0: rc=0
// DOT-NEXT: chunk 0: mfma-accelerate-dot | applied | 1 dot(s) to MFMA layouts, 0 left as FMA dots
// DOT-NEXT: chunk 0: mfma-stream-pipeline | declined | no scf.for in the module

// RUN: %python %S/Inputs/capi_outcomes.py %tmfma_lib %S/Inputs/gemm-gfx90a.mlir "mfma-accelerate-dot,mfma-stream-pipeline,mfma-grid-order,mfma-split-epilogue-cvt,mfma-lds-usage,mfma-print-layouts" | filecheck %s --check-prefix=GEMM
// GEMM: chunk 0: rc=0
// GEMM-NEXT: chunk 0: mfma-accelerate-dot | unchanged | no tt.dot with a blocked result layout
// GEMM-NEXT: chunk 0: mfma-stream-pipeline | applied | 1 of 1 loop(s) stream-pipelined
// GEMM-NEXT: chunk 0: mfma-grid-order | applied | 'matmul': remapped
// GEMM-NEXT: chunk 0: mfma-split-epilogue-cvt | unchanged | 'matmul': LDS {{[0-9]+}} B within budget 65536 B
// GEMM-NEXT: chunk 0: mfma-lds-usage | unchanged | analysis only (remarks)
// GEMM-NEXT: chunk 0: mfma-print-layouts | unchanged | analysis only (remarks)

// RUN: %python %S/Inputs/capi_outcomes.py %tmfma_lib %S/Inputs/gemm-gfx90a.mlir "mfma-stream-pipeline{num-stages=1},mfma-grid-order{mode=off},mfma-lds-usage{annotate=true}" | filecheck %s --check-prefix=GEMM-OFF
// GEMM-OFF: chunk 0: rc=0
// GEMM-OFF-NEXT: chunk 0: mfma-stream-pipeline | declined | no loop stream-pipelined (first: the kernel was compiled with num_stages <= 1)
// GEMM-OFF-NEXT: chunk 0: mfma-grid-order | unchanged | 'matmul': unchanged: mode=off
// GEMM-OFF-NEXT: chunk 0: mfma-lds-usage | applied | annotated LDS figures as attributes

// A failing pass records no line; those before it do (rc 3: pass failure).
// RUN: %python %S/Inputs/capi_outcomes.py %tmfma_lib %S/Inputs/gemm-gfx90a.mlir "mfma-stream-pipeline,mfma-grid-order{mode=sometimes}" | filecheck %s --check-prefix=FAIL
// FAIL: chunk 0: rc=3
// FAIL-NEXT: chunk 0: mfma-stream-pipeline | applied | 1 of 1 loop(s) stream-pipelined
// FAIL-NOT: mfma-grid-order
