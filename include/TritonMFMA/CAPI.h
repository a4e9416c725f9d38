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

/// tmfma_run_pipeline, and the outcome of each pass run (PassOutcome.h):
/// `*outcomes` (malloc'ed, free with tmfma_free; "" when no pass ran, never
/// NULL unless `outcomes` itself is NULL) holds one line per pass run, in
/// order:
///   "<pass-argument>\t<status>\t<reason>\n"
/// <status> is "applied" (the pass changed the IR), "unchanged" (nothing to
/// do, or it chose not to), or "declined" (the pass refuses the module: the
/// caller must run Triton's own pass in its place); <reason> is one line
/// without tabs. A pass that fails records no line; the lines of the passes
/// before it are still returned (rc 3).
TMFMA_EXPORT int tmfma_run_pipeline_ex(const char *input, const char *pipeline,
                                       char **output, char **diagnostics,
                                       char **outcomes);

/// Frees a string returned by the functions above. NULL is fine.
TMFMA_EXPORT void tmfma_free(char *p);

/// Version string, e.g. "0.1.0 (MLIR 22.1.8)". Static storage; do not free.
TMFMA_EXPORT const char *tmfma_version(void);

/// The MFMA instruction table (lib/Analysis/MfmaTable.cpp), one instruction
/// per line: "<arch> <mnemonic> <cycles> <macs>", cycles = issue cycles of
/// one hardware instruction (passes x 4), macs = its multiply-adds per wave
/// (m x n x K of one instruction). Malloc'ed; free with tmfma_free. Lets
/// Python read amdgcn with the same figures the cost model uses.
TMFMA_EXPORT char *tmfma_mfma_table(void);

/// The target description (lib/Analysis/TargetInfo.cpp) as a JSON array, one
/// object per target: "target" ("hip:gfx942"), "vendor", "arch", "device",
/// "cus", "xcds", "l2_bytes", "l2_effective", "lds_per_cu",
/// "lds_per_workgroup", "lds_granule", "lds_reserved_per_workgroup",
/// "lds_banks", "load_lane_tile_128", "workgroup_slots_per_cu",
/// "simds_per_cu", "vgpr_file", "vgpr_granule", "sgpr_file", "sgpr_granule",
/// "sgpr_trap_reserve", "max_waves_per_simd", "wave_size", and the bench's
/// prediction figures "dram_bandwidth", "mall_bytes", "mall_bandwidth"
/// (bytes/s), "fp16_flops" (FLOP/s), "achievable" (fraction of the peak).
/// Malloc'ed; free with tmfma_free.
TMFMA_EXPORT char *tmfma_target_info(void);

/// The L2 model of mfma-grid-order (lib/Analysis/L2Model.cpp), queried with
/// a JSON object:
///   {"target": "cuda:90",                       required (ttg.target)
///    "num_warps": 4, "shared_bytes": 0,          per program (defaults 4, 0)
///    "l2_bytes", "l2_effective_percent",
///    "num_cus", "num_xcds",                      overrides, as the pass
///    options "grid": {"sizes": [n0, n1, ...],            dimension sizes,
///    fastest first
///             "far_dim": k,                      the dimension twins differ in
///             "operands": [{"bytes": b,          bytes per program
///                           "moved": [dims]}]}}  dimensions that move it
/// Answers a JSON object: the model's figures ("target", "device", "known",
/// "l2_bytes", "l2_effective", "effective_l2_bytes", "cus", "xcds",
/// "resident_warps", "shared_per_cu", "shared_reserved_per_program",
/// "shared_granule", "max_programs_per_cu"), "programs_per_cu" and
/// "concurrent_programs" (P) for the program, and with "grid" the run-time
/// guard's verdict: "total_programs", "streamed_bytes", "misses" (true: the
/// stock order's twin read misses L2, the pass takes its new order). A bad
/// request answers {"error": "..."}. NULL request: {"error": ...}.
/// Also accepts "programs_per_cu" (override) and "xcd": {"sizes": [...],
/// "operands": [{"bytes", "moved"}]} (multi-XCD verdict); answers
/// "programs_by_registers", "programs_by_shared", "programs_by_slots",
/// "programs_limiter" (P's bound, a lower bound at TTGIR) and, with "xcd",
/// "distinct_bytes" and "exceeds" (the XCD remap pays).
/// Malloc'ed; free with tmfma_free.
TMFMA_EXPORT char *tmfma_l2_query(const char *request);

/// MlirOptMain with the triton-mfma passes registered and
/// --allow-unregistered-dialect on by default. Returns the process exit code.
/// Used by the mfma-opt executable.
TMFMA_EXPORT int tmfma_opt_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif // TRITONMFMA_CAPI_H
