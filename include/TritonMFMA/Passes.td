//===- Passes.td - triton-mfma pass definitions ------------*- tablegen -*-===//
//
// One pass, one name in five places: the def below, the flag (mfma-<kebab>),
// lib/Transforms/<Name>.cpp, the Python name, test/lit/<kebab>.mlir.
//
// All passes run on generic TTGIR: tt/ttg/amdg/arith/scf/... are unregistered
// dialects in our MLIR, so operations are matched by name and layouts are read
// through the layout model (TritonMFMA/Layouts.h).
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

#endif // TRITONMFMA_PASSES_TD
