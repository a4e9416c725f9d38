//===- Passes.td - triton-mfma pass definitions ------------*- tablegen -*-===//
//
// One pass, one name in five places: the def below, the flag (mfma-<kebab>),
// lib/Transforms/<Name>.cpp, the Python name, test/lit/<kebab>.mlir. Options
// are declared here only: the build turns this file into the pass registry
// Python reads (_native/passes.json, cmake/passes_json.py).
//
// All passes run on generic TTGIR: tt/ttg/amdg/arith/scf/... are unregistered
// dialects in our MLIR, so operations are matched by name (the names, views
// and builder of TritonMFMA/GenericIR.h) and layouts are read through the
// layout model (TritonMFMA/Layouts.h). Each pass records its outcome per run
// (TritonMFMA/PassOutcome.h): applied, unchanged or declined, with a reason.
//
//===----------------------------------------------------------------------===//

#ifndef TRITONMFMA_PASSES_TD
#define TRITONMFMA_PASSES_TD

include "mlir/Pass/PassBase.td"

def MFMAPrintLayouts : Pass<"mfma-print-layouts", "mlir::ModuleOp"> {
  let summary = "Report every distinct TritonGPU layout in the module";
  let description = [{
    Analysis only: the IR is not changed. Walks every operation, collects the
    `#ttg.*` layout attributes found in the types of results, operands and
    block arguments (tensor encodings, `!ttg.memdesc` encodings and memory
    spaces, nested `parent` layouts) and in attributes, parses each one with
    the layout model and emits one remark per distinct layout, at the first
    operation that uses it, e.g.

    ```mlir
    %7 = "arith.constant"() <{value = dense<0.0> : tensor<128x128xf32,
        #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2],
                       instrShape = [32, 32, 8], isTransposed = true}>>}> : ...
    ```

    gives

    ```
    remark: amd_mfma: version=3 instrShape=32x32x8 warpsPerCTA=[2,2] transposed
    ```

    Every layout is also printed back with the model's printer; if the result
    differs from the text Triton produced, an error is emitted (and the pass
    fails). A layout the model cannot parse (unknown kind, malformed, or a
    field out of range) is an error as well, so this pass doubles as the
    layout model's round-trip check on real TTGIR.
  }];
  let options = [
    Option<"roundTripOnly", "round-trip-only", "bool", /*default=*/"false",
           "Only check print(parse(layout)) == layout; emit no remarks">,
  ];
}

def MFMAGridOrder : Pass<"mfma-grid-order", "mlir::ModuleOp"> {
  let summary = "Remap program ids so programs that share operand tiles run "
                "together (L2 reuse), decided by an L2 model";
  let description = [{
    Analysis (TritonMFMA/ProgramAxes.h): follows the `tt.get_program_id`
    use-def chains into the addresses of every global read (`tt.load`,
    `ttg.async_copy_global_to_local`, `amdg.buffer_load[_to_local]`,
    descriptor loads) and finds, per loaded tensor, which program-id
    dimensions move it and how many bytes a program reads of it. An axis split
    row-major by the kernel (`pid // X`, `pid % X`) counts as two dimensions.

    Decision (TritonMFMA/L2Model.h): the heavy operands are those with at
    least 3/4 of the largest bytes per program. If one of them is shared by
    programs that differ in a dimension slower than one that moves it, its
    twin reads are a whole slice of the grid apart; the pass then reorders:
    the dimensions that do not move it vary fastest, grouped `group-size` at a
    time (GROUP_M-like, so the other operand's reuse stays bounded), then the
    others. In `auto` mode the new order is taken at run time (an `scf.if` on
    the model's verdict) only when the model says the twin read misses L2:
    the grid needs more than one wave (P = programs per CU x CUs, programs
    per CU a lower bound at TTGIR: registers bounded by the register file,
    LDS exact from the LDS model; `programs-per-cu` overrides) and the
    bytes streamed between the twin reads exceed the effective L2. On
    multi-XCD targets (gfx942, gfx950) programs are also put in contiguous
    chunks per XCD (workgroups go round-robin to 8 XCDs), so programs that
    share tiles share an L2, where the shared operands' distinct bytes
    exceed one XCD's effective L2 (at compile time where they are
    constants, else at run time). A kernel already in the order the pass
    would choose is left unchanged in every mode. Kernels that already
    swizzle their program ids, communicate between programs (atomic_cas,
    used atomic results) or call functions reading program ids are left
    alone. A remark states every decision and why.

    The launch grid is not changed: each program computes its hardware linear
    index from `tt.get_program_id`/`tt.get_num_programs` (axis 0 fastest) and
    decomposes it in the new order; the map is a bijection for every grid
    size (a split axis's incomplete last row keeps its ids). On hip targets
    the grid size is read as `tt.get_num_programs` is once lowered and
    inlined, from the implicit kernel argument hidden_block_count_{x,y,z}
    (`llvm.call_intrinsic` "llvm.amdgcn.implicitarg.ptr", `llvm.getelementptr`,
    `llvm.load`): the same amdgcn, without the device library
    (`__ockl_get_num_groups`) that make_llir would link and optimise for it.

    ```mlir
    %pid_n = "tt.get_program_id"() <{axis = 0 : i32}> : () -> i32
    %pid_k = "tt.get_program_id"() <{axis = 1 : i32}> : () -> i32
    %pid_m = "tt.get_program_id"() <{axis = 2 : i32}> : () -> i32
    ```

    becomes (split-K decode GEMM whose M tiles, sharing the weights, were on
    the slowest axis)

    ```mlir
    %n0 = "tt.get_num_programs"() <{axis = 0 : i32}> : () -> i32
    ...
    %lin = linear index pid_n + n0 * (pid_k + n1 * pid_m)
    ... groups of 8 along axis 2, then axis 0, then axis 1 ...
    %ids:3 = "scf.if"(%guard) ({ ... "scf.yield"(%new_n, %new_k, %new_m) },
                              { "scf.yield"(%pid_n, %pid_k, %pid_m) })
    ```

    For a split axis the kernel's own `pid // X` and `pid % X` are replaced
    by the new row and column.
  }];
  let options = [
    Option<"mode", "mode", "std::string", /*default=*/"\"auto\"",
           "auto: the L2 model decides (at run time where sizes are only "
           "known then); on: reorder whenever an operand is shared; off: "
           "analysis and remarks only">,
    Option<"groupSize", "group-size", "unsigned", /*default=*/"8",
           "Values of the fast dimension(s) per group (0: no grouping)">,
    Option<"l2Bytes", "l2-bytes", "int64_t", /*default=*/"0",
           "L2 bytes (per XCD); 0: the target's (TargetInfo.h)">,
    Option<"l2EffectivePercent", "l2-effective-percent", "unsigned",
           /*default=*/"0",
           "Percent of L2 a shared tile can count on; 0: the target's">,
    Option<"numCUs", "num-cus", "unsigned", /*default=*/"0",
           "CUs/SMs of the device; 0: the target's">,
    Option<"numXCDs", "num-xcds", "unsigned", /*default=*/"0",
           "L2 domains workgroups go round-robin to; 0: the target's">,
    Option<"defaultTripCount", "default-trip-count", "unsigned",
           /*default=*/"16",
           "Trip count assumed for loops whose bounds cannot be computed at "
           "the top of the kernel">,
    Option<"programsPerCU", "programs-per-cu", "unsigned", /*default=*/"0",
           "Programs resident per CU/SM for the run-time guard's P = "
           "programs per CU x CUs; 0: the model's lower bound (registers "
           "unknown at TTGIR: one wave per SIMD on CDNA; LDS exact)">,
  ];
}

def MFMAStreamPipeline : Pass<"mfma-stream-pipeline", "mlir::ModuleOp"> {
  let summary = "LDS + VGPR stream pipelining: one LDS buffer per dot operand, "
                "the next tile in registers";
  let description = [{
    Replaces Triton's `schedule_loops` + `pipeline` (insertion point
    `pipeline`). For each innermost `scf.for` whose dot operands are loaded
    from global memory (`tt.load` -> register ops -> `ttg.convert_layout` to
    `#ttg.dot_op` on AMD and for mma v2, where the pass picks the shared
    layout Triton's pipeliner would; or -> `ttg.local_alloc` ->
    `ttng.warp_group_dot` on Hopper, whose layout it keeps), the
    loads of iteration i+1 are issued into registers at the top of iteration
    i, before its LDS reads and dots, and written to the operand's single
    LDS buffer at the bottom, after a barrier. A prologue loads iteration 0
    (predicated on a non-empty loop), the loop runs to `ub - step`, and an
    epilogue (`scf.if (lb < ub)`) runs the last iteration from LDS.

    ```mlir
    scf.for %k = %lb to %ub step %c1 iter_args(%p = %p0, %acc = %z) {
      %a = tt.load %p, %mask, %other
      %s = ttg.local_alloc %a : (...) -> !ttg.memdesc<128x32xf16, #shared, #smem>
      %o = ttg.local_load %s
      %acc2 = tt.dot %o, ..., %acc
      %pn = tt.addptr %p, %step
      scf.yield %pn, %acc2
    }
    ```

    becomes

    ```mlir
    %buf = ttg.local_alloc : () -> !ttg.memdesc<128x32xf16, #shared, #smem, mutable>
    %a0 = tt.load %p0, %mask0 & (lb < ub), %other
    ttg.local_store %a0, %buf
    %r:2 = scf.for %k = %lb to %ub - %c1 step %c1 iter_args(%p = %p0, %acc = %z) {
      %pn' = tt.addptr %p, %step            // next iteration's address
      %an = tt.load %pn', %mask(k + 1), %other   // -> registers
      ttg.barrier local
      %o = ttg.local_load %buf
      %acc2 = tt.dot %o, ..., %acc
      %pn = tt.addptr %p, %step
      ttg.barrier local
      ttg.local_store %an, %buf
      scf.yield %pn, %acc2
    }
    %res:2 = scf.if (%lb < %ub) { ttg.barrier local; <body with k = last, %r> }
             else { scf.yield %r }
    ttg.local_dealloc %buf
    ```

    Masks and `other` values are the original loads'; loop-carried pointers
    and offsets are advanced by recomputing the yielded values (pure ops
    only). Loops it cannot handle (indirect loads, global writes in the
    loop, non-constant step, not innermost, num_stages = 1, operands not
    through LDS) are left unchanged with a remark saying why; a remark also
    states every pipelined loop, its operands and their LDS bytes.

    The schedule always has two stages (registers + one LDS buffer): a
    num_stages of 2 or more pipelines, 1 (the kernel's option, or a loop's
    `tt.num_stages`, which wins) leaves the loop alone, as Triton's
    pipeliner does.
  }];
  let options = [
    Option<"numStages", "num-stages", "unsigned", /*default=*/"2",
           "The kernel's num_stages option (the hook passes Triton's); <= 1 "
           "disables pipelining for loops without their own tt.num_stages">,
  ];
}

def MFMALDSUsage : Pass<"mfma-lds-usage", "mlir::ModuleOp"> {
  let summary = "Report the LDS bytes Triton 3.9's allocation gives each buffer and the kernel";
  let description = [{
    Analysis only (the IR is not changed unless `annotate` is set). Runs the
    LDS model (TritonMFMA/LDSModel.h) on every `tt.func`: for each
    `ttg.convert_layout` how it is lowered (register permutation, warp
    shuffles or a round trip through LDS) and the bytes of its scratch
    buffer, for each `ttg.local_alloc` its size, and the function's total as
    Triton's allocation (first fit over liveness, then colouring) lays the
    buffers out. On

    ```mlir
    %1 = ttg.convert_layout %0 : tensor<256x128xf32, #mma> -> tensor<256x128xf32, #blocked>
    ```

    it remarks

    ```
    remark: convert_layout: lds, scratch 65536 B (16384 x 32 bit, 2 rounds), live explicit 0 B
    remark: LDS total 65536 B of 65536 B (hip:gfx942)
    ```

    With `annotate=true` the numbers are also written as attributes
    (`mfma.lds_scratch`, `mfma.lds_offset` on the owning operations,
    `mfma.lds_path` and the layouts' `#ttg.linear` forms `mfma.src_linear` /
    `mfma.dst_linear` on converts, `mfma.lds_total` on the function) for tests
    that compare the model with Triton. An operation whose LDS use is not
    modelled is an error.
  }];
  let options = [
    Option<"annotate", "annotate", "bool", /*default=*/"false",
           "Write the model's numbers as attributes">,
  ];
}

def MFMADotWork : Pass<"mfma-dot-work", "mlir::ModuleOp"> {
  let summary = "Report the MFMA instructions each wave issues for every dot";
  let description = [{
    Analysis only (the IR is not changed). For every `tt.dot` whose result
    has an `#ttg.amd_mfma` layout (and every `tt.dot_scaled` of fp8 operands
    without scale operands, which gfx950 runs on the f8f6f4 MFMA of its
    layout's shape; one with scales is remarked "not mfma (scaled
    operands)"), the instructions one wave issues:
    ceil(M / (warpsM * mM)) * ceil(N / (warpsN * mN)) * ceil(K / mK), a
    batch dimension counted by its warps alone; warps that a tile too small
    for them leaves without a distinct block repeat another's, and still
    issue them. On

    ```mlir
    %d = tt.dot %a, %b, %c : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> * ... -> tensor<32x32xf32, #mma>
    ```

    with `#mma = #ttg.amd_mfma<{version = 2, warpsPerCTA = [8, 1], instrShape = [32, 32, 8], isTransposed = true}>`
    inside one `scf.for`, it remarks

    ```
    remark: dot work: loop 0 depth 1, mfma 32x32x8 f16 x f16, 4 per wave
    ```

    The loop is the innermost enclosing `scf.for` (numbered in pre-order in
    its function, -1 where there is none); the operand element types and the
    instruction shape name the MFMA instruction. A dot with a
    `#ttg.blocked` result runs on FMA: the remark gives the accumulator
    elements each lane holds and K (`fma f32 x f32, 32 elements x 32 per
    lane`), each lane's multiply-adds, from which a caller bounds its FMA
    instructions. Other dots (WMMA, instructions of several 4x4 blocks) are
    remarked "not mfma". Two layout choices of one kernel are compared on
    these figures without compiling either.
  }];
}

def MFMAHipNumPrograms : Pass<"mfma-hip-num-programs", "mlir::ModuleOp"> {
  let summary = "On hip targets, read the grid size from the implicit kernel "
                "arguments instead of calling the device library";
  let description = [{
    Triton lowers `tt.get_num_programs` on AMD to a call of the device
    library (`__ockl_get_num_groups`), so make_llir links ockl.bc into the
    kernel and optimises it, about 20 ms of every make_llir of a kernel that
    reads the grid size (persistent loops, `tl.num_programs`). With the code
    object v5 ABI Triton uses, that function inlines to one load of the
    implicit kernel argument `hidden_block_count_{x,y,z}` (the first three
    u32 of the implicit arguments). This pass writes that load directly:

    ```mlir
    %n = "tt.get_num_programs"() <{axis = 1 : i32}> : () -> i32
    ```

    becomes (the pointer is taken once per function, at its entry)

    ```mlir
    %args = "llvm.call_intrinsic"() <{intrin = "llvm.amdgcn.implicitarg.ptr", ...}> : () -> !llvm.ptr<4>
    %p = "llvm.getelementptr"(%args) <{elem_type = i32, rawConstantIndices = array<i32: 1>}> : (!llvm.ptr<4>) -> !llvm.ptr<4>
    %n = "llvm.load"(%p) <{alignment = 4 : i64}> : (!llvm.ptr<4>) -> i32
    ```

    The kernel's amdgcn is the same; only its compile is shorter. Modules
    whose target is not hip are left unchanged (a remark says why): there
    the grid size is a special register.
  }];
}

def MFMASplitEpilogueCvt : Pass<"mfma-split-epilogue-cvt", "mlir::ModuleOp"> {
  let summary = "Split convert_layouts whose LDS scratch exceeds a budget into "
                "chains through intermediate layouts, each step under budget";
  let description = [{
    Runs at `llir_begin`, i.e. on the TTGIR make_llir receives, before
    Triton's own LDS allocation fixes every buffer's size and offset (that
    allocation, not this pass, decides what the kernel gets; this pass only
    changes which converts it has to allocate for). For every `tt.func` it
    runs the LDS model (TritonMFMA/LDSModel.h): a `ttg.convert_layout`
    through LDS whose scratch plus the explicit buffers live at that point
    exceeds the budget is replaced by a chain of converts through
    intermediate layouts, every step under budget. Candidates: the source's
    layout and the destination's layout with each factorization of the warps
    (src-like, dst-like), and blocked layouts (sizePerThread, threadsPerWarp
    and warpsPerCTA factorizations, both orders) that do not exceed the
    tensor; chains of two steps first, then three. Among the chains that fit,
    the one with the least LDS traffic wins, then the one with fewer steps.
    Successive converts' scratch buffers do not live at the same time, so the
    budget applies to each step, not to their sum.

    ```mlir
    %1 = ttg.convert_layout %0 : tensor<256x128xf32, #mma> -> tensor<256x128xf32, #blocked>
    ```

    with a 32 KiB budget becomes, e.g.,

    ```mlir
    %i = ttg.convert_layout %0 : tensor<256x128xf32, #mma> -> tensor<256x128xf32, #blocked1>
    %1 = ttg.convert_layout %i : tensor<256x128xf32, #blocked1> -> tensor<256x128xf32, #blocked>
    ```

    The plan is checked on a copy of the function with the model's full
    allocation: it is applied only if the kernel's total then fits the budget.
    Otherwise (no chain fits, explicit buffers alone exceed the budget, or the
    model does not cover an operation) the IR is left unchanged and a remark
    says why. Converts that fit are left alone; a remark states each decision.
  }];
  let options = [
    Option<"ldsLimit", "lds-limit", "int64_t", /*default=*/"0",
           "LDS budget in bytes; 0: the target's LDS (64 KiB gfx90a/gfx942, "
           "160 KiB gfx950, the opt-in shared memory on cuda)">,
    Option<"maxSteps", "max-steps", "unsigned", /*default=*/"3",
           "Longest chain considered (2 or 3 converts)">,
  ];
}

def MFMAAccelerateDot : Pass<"mfma-accelerate-dot", "mlir::ModuleOp"> {
  let summary = "Lower tt.dot from blocked layouts to MFMA layouts, chosen by "
                "an instruction table and a cost model";
  let description = [{
    Replaces Triton's `AccelerateAMDMatmul` (`add_accelerate_matmul`) for
    CDNA2/3/4 (gfx90a, gfx942, gfx950). Every `tt.dot` whose result is in a
    `#ttg.blocked` layout (and whose operands are in `#ttg.dot_op` layouts of
    a blocked parent, as Triton's `convert_to_ttgpuir` leaves them) is
    rewritten to an `#ttg.amd_mfma` result and
    `#ttg.dot_op<{opIdx, parent = #mfma, kWidth}>` operands, with
    `ttg.convert_layout`s to and from the old layouts (Triton's
    `remove_layout_conversions`, which runs next, folds them):

    ```mlir
    %a = "ttg.convert_layout"(%x) : (tensor<128x32xf16, #blocked>)
           -> tensor<128x32xf16, #ttg.dot_op<{opIdx = 0, parent = #blocked1}>>
    %d = "tt.dot"(%a, %b, %c) <{...}> : (..., tensor<128x128xf32, #blocked1>)
           -> tensor<128x128xf32, #blocked1>
    ```

    becomes (gfx942, 4 warps)

    ```mlir
    %a2 = "ttg.convert_layout"(%a) : (...) -> tensor<128x32xf16,
            #ttg.dot_op<{opIdx = 0, parent = #mfma, kWidth = 8}>>
    %c2 = "ttg.convert_layout"(%c) : (...) -> tensor<128x128xf32, #mfma>
    %d2 = "tt.dot"(%a2, %b2, %c2) <{...}> : (...) -> tensor<128x128xf32, #mfma>
    %d  = "ttg.convert_layout"(%d2) : (...) -> tensor<128x128xf32, #blocked1>
    #mfma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2],
                           instrShape = [32, 32, 8], isTransposed = true}>
    ```

    Choice: every instruction of the target's table (MfmaTable.h) for the
    operand types, every warp split and kpack 1/2 is costed per wave
    (MfmaCostModel.h: matrix-pipe cycles including padded tiles, LDS bytes,
    ds_read count, registers) and the cheapest wins; a remark states the
    choice, its cost and the runner-up. fp8 types the target has no
    instruction for are computed as f16 (remark). When no instruction fits
    (types, K not a multiple of any tile's K) or the FMA estimate is cheaper,
    the dot stays an FMA dot (operands other than f16/f32 upcast to f32, as
    Triton does) and a remark says why. On gfx950, fp8 x fp8 uses the
    `v_mfma_*_f8f6f4` instructions through `tt.dot_scaled`, as Triton does.

    Chain dots (flash attention): when the A operand of a dot (the tail) is
    computed from another dot's result (the head) by elementwise operations
    of the same shape in the same block, both are chosen together: warps
    along M only (`[numWarps, 1]`, so row reductions stay inside a wave and
    both dots split M alike), the same instruction M, the head transposed and
    the tail's kWidth equal to the 4 consecutive elements a lane holds in the
    head's result. Then the head's result reaches the tail's operand A by a
    register permutation, with no LDS round trip. The pair is costed jointly
    (e.g. BLOCK_N = 16 picks 16x16 for both dots instead of 16x16 + 32x32)
    and against each dot chosen alone plus the LDS round trips that costs
    (P, and the row reductions if the head splits N); the chain is kept only
    when it needs no more matrix cycles (a short M repeats its tiles on every
    wave) and is cheaper (a remark says which and why).

    isTransposed: true (each lane holds consecutive columns, for row-major
    stores) unless every store of the result is contiguous along M.

    Options that Triton also has (`matrix_instr_nonkdim`, `kpack`) come from
    the kernel's Triton options when the user did not set them for
    triton-mfma (see passes.py). `registers-first` ranks by the registers a
    candidate holds per lane before its cycles (the same model's figure), and
    keeps a dot on MFMA wherever an instruction fits: an FMA dot loads its
    operand tiles whole. A kernel whose main loop spills is compiled with it
    as a variant, which the one judge compares. Dots the pass cannot handle
    (`tt.dot_scaled` inputs, f64, targets outside the table) are an error,
    so that the hook falls back to stock Triton for the kernel.
  }];
  let options = [
    Option<"matrixInstrNonKDim", "matrix-instr-nonkdim", "unsigned",
           /*default=*/"0",
           "Force the MFMA tile: 32 (32x32), 16 (16x16), 4 (4x64/64x4); "
           "0 lets the cost model choose">,
    Option<"kPack", "kpack", "unsigned", /*default=*/"0",
           "Operand elements per lane per LDS read = kBase * kpack: 1 or 2; "
           "0 lets the cost model choose (gfx950 always uses 1)">,
    Option<"chainDots", "chain-dots", "bool", /*default=*/"true",
           "Choose the layouts of chained dots jointly (flash attention)">,
    Option<"registersFirst", "registers-first", "bool", /*default=*/"false",
           "Rank the candidates by the registers per lane they hold "
           "(accumulator and operand tiles) before their cycles, and prefer "
           "an MFMA dot to an FMA one: for a kernel whose main loop spills">,
  ];
}

#endif // TRITONMFMA_PASSES_TD
