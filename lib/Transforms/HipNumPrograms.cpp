//===- HipNumPrograms.cpp - mfma-hip-num-programs -------------------------===//
//
// Reads the grid size on hip targets from the implicit kernel arguments
// instead of through the device library (see Passes.td).
//
// Algorithm: leave the module unchanged unless its `ttg.target` is hip. For
// every function, collect its `tt.get_num_programs`; if there are any, take
// the implicit-argument pointer once at the function's entry and replace each
// op by an i32 load of hidden_block_count_<axis> at the op's place
// (GenericBuilder::hipNumPrograms), keeping the op's discardable attributes.
// Why it pays: Triton lowers the op to `__ockl_get_num_groups`, whose call
// makes make_llir link and optimise ockl.bc; inlined under code object v5 it
// is exactly this load, so the amdgcn does not change.
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/GenericIR.h"
#include "TritonMFMA/PassOutcome.h"
#include "TritonMFMA/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::triton_mfma {
#define GEN_PASS_DEF_MFMAHIPNUMPROGRAMS
#include "TritonMFMA/Passes.h.inc"
} // namespace mlir::triton_mfma

using namespace mlir;
using namespace mlir::triton_mfma;

namespace {

struct MFMAHipNumPrograms final
    : mlir::triton_mfma::impl::MFMAHipNumProgramsBase<MFMAHipNumPrograms> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    PassOutcomeScope outcome(*this, "no tt.get_num_programs");
    StringRef target = getTarget(module).value_or("");
    if (!target.starts_with("hip:")) {
      std::string why = "not a hip target ('" + target.str() +
                        "'): the grid size is a special register there";
      module.emitRemark() << "mfma-hip-num-programs: " << why
                          << "; IR unchanged";
      outcome.unchanged(why);
      return markAllAnalysesPreserved();
    }
    int replaced = 0;
    for (Operation *func : getFunctions(module)) {
      SmallVector<Operation *> reads;
      func->walk([&](Operation *op) {
        if (NumProgramsOp(op))
          reads.push_back(op);
      });
      if (reads.empty())
        continue;
      for (Operation *op : reads)
        if (!NumProgramsOp(op).getAxis()) {
          op->emitError() << "mfma-hip-num-programs: tt.get_num_programs "
                             "without an axis of 0, 1 or 2";
          return signalPassFailure();
        }
      Block *entry = FuncOp(func).getEntryBlock();
      OpBuilder b(func->getContext());
      b.setInsertionPointToStart(entry);
      Value args = GenericBuilder(b, reads.front()->getLoc()).hipImplicitArgs();
      for (Operation *op : reads) {
        b.setInsertionPoint(op);
        Value count = GenericBuilder(b, op->getLoc())
                          .hipNumPrograms(args, *NumProgramsOp(op).getAxis());
        for (NamedAttribute attr : op->getDiscardableAttrs())
          count.getDefiningOp()->setAttr(attr.getName(), attr.getValue());
        op->getResult(0).replaceAllUsesWith(count);
        op->erase();
      }
      func->emitRemark() << "mfma-hip-num-programs: " << reads.size()
                         << " grid-size read(s) from the implicit kernel "
                            "arguments instead of tt.get_num_programs (the "
                            "same amdgcn; make_llir links no device library "
                            "for them)";
      replaced += reads.size();
    }
    if (replaced)
      outcome.applied(std::to_string(replaced) +
                      " tt.get_num_programs read from the implicit kernel "
                      "arguments");
    else
      markAllAnalysesPreserved();
  }
};

} // namespace
