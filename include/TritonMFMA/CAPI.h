//===- CAPI.h - C API of libTritonMFMA.so ------------------------*- C -*-===//
//
// The only symbols libTritonMFMA.so exports. Everything else (our passes and
// the upstream MLIR 22.1.8 they are built on) is hidden, so the library can be
// loaded with ctypes into a process that already holds Triton's own MLIR.
//
// IR is exchanged as *generic* MLIR text: unregistered dialects (tt, ttg,
// amdg, arith, scf, ...) stay generic operations and their attributes/types
// stay OpaqueAttr/OpaqueType.
//
//===----------------------------------------------------------------------===//
#ifndef TRITONMFMA_CAPI_H
#define TRITONMFMA_CAPI_H

#if defined(TMFMA_BUILDING_LIBRARY)
#define TMFMA_EXPORT __attribute__((visibility("default")))
#else
#define TMFMA_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// Runs a textual MLIR pass pipeline on generic MLIR text.
///
/// `pipeline` is e.g. "builtin.module(mfma-print-layouts)"; a pipeline that is
/// not anchored on `builtin.module(...)` or `any(...)` is wrapped in
/// `builtin.module(...)`; "" (or NULL) only parses and prints.
///
/// Returns 0 on success, nonzero on failure (1: parse error, 2: bad pipeline,
/// 3: pass failure, 4: bad arguments / internal error).
/// `*output`: the module printed in generic form with debug locations and
/// local scope (NULL on failure). `*diagnostics`: every diagnostic emitted
/// (errors, warnings, remarks, notes), one per line as
/// "<severity>: <location>: <message>" (may be empty, never NULL unless
/// `diagnostics` itself is NULL). <severity> is error/warning/remark/note;
/// <location> is "file:line:col" of the first file location inside the
/// diagnostic's location (through name/callsite/fused locations; "<input>"
/// for positions in `input` itself), "unknown", or the printed location; a
/// multi-line message is joined with spaces. Both are malloc'ed; free with
/// tmfma_free.
///
/// Each call uses its own MLIRContext; calls from several threads at once are
/// safe.
TMFMA_EXPORT int tmfma_run_pipeline(const char *input, const char *pipeline,
                                    char **output, char **diagnostics);

/// Frees a string returned by tmfma_run_pipeline. NULL is fine.
TMFMA_EXPORT void tmfma_free(char *p);

/// Version string, e.g. "0.1.0 (MLIR 22.1.8)". Static storage; do not free.
TMFMA_EXPORT const char *tmfma_version(void);

/// The MFMA instruction table (lib/Analysis/MfmaTable.cpp), one instruction
/// per line: "<arch> <mnemonic> <cycles>", cycles = issue cycles of one
/// hardware instruction (passes x 4). Malloc'ed; free with tmfma_free. Lets
/// Python read amdgcn with the same figures the cost model uses.
TMFMA_EXPORT char *tmfma_mfma_table(void);

/// MlirOptMain with the triton-mfma passes registered and
/// --allow-unregistered-dialect on by default. Returns the process exit code.
/// Used by the mfma-opt executable.
TMFMA_EXPORT int tmfma_opt_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif // TRITONMFMA_CAPI_H
