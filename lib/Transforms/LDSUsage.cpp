//===- LDSUsage.cpp - mfma-lds-usage --------------------------------------===//
//
// Analysis pass over the LDS model (TritonMFMA/LDSModel.h).
//
// Algorithm: read the target from the module (`ttg.target`,
// `ttg.threads-per-warp`); for every `tt.func`, run the model's allocation
// (buffer sizes, liveness, offsets); then remark, in program order, each
// convert_layout's lowering path and scratch bytes together with the bytes
// of explicit buffers live at that point, each local_alloc's size, and the
// function's total against the target's LDS. With `annotate`, the same
// numbers become attributes for tests. A function whose LDS use the model
// does not cover gets an error and the pass fails: a wrong number is worse
// than none.
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/GenericIR.h"
#include "TritonMFMA/LDSModel.h"
#include "TritonMFMA/Layouts.h"
#include "TritonMFMA/PassOutcome.h"
#include "TritonMFMA/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "mfma-lds-usage"

namespace mlir::triton_mfma {
#define GEN_PASS_DEF_MFMALDSUSAGE
#include "TritonMFMA/Passes.h.inc"
} // namespace mlir::triton_mfma

using namespace mlir;
using namespace mlir::triton_mfma;

namespace {

/// `#ttg.linear` text of a tensor's layout, or "" if not modelled.
std::string linearText(const TargetModel &target, Type type) {
  FailureOr<TensorInfo> info = getTensorInfo(type);
  if (failed(info) || !info->layout)
    return "";
  FailureOr<GF2Layout> ll =
      toGF2Layout(*info->layout, info->shape, target.threadsPerWarp);
  return failed(ll) ? "" : ll->toLinearAttrText();
}

struct MFMALDSUsage final
    : mlir::triton_mfma::impl::MFMALDSUsageBase<MFMALDSUsage> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    PassOutcomeScope outcome(*this, "analysis only (remarks)");
    if (annotate)
      outcome.applied("annotated LDS figures as attributes");
    std::string error;
    FailureOr<TargetModel> target = TargetModel::fromModule(module, &error);
    if (failed(target)) {
      module.emitError() << "mfma-lds-usage: " << error;
      return signalPassFailure();
    }
    Builder b(module.getContext());
    bool hadError = false;
    for (Operation *func : getFunctions(module)) {
      FailureOr<LDSAllocation> alloc = allocateLDS(*target, func, &error);
      if (failed(alloc)) {
        func->emitError() << "LDS use not modelled: " << error;
        hadError = true;
        continue;
      }
      func->walk([&](Operation *op) {
        std::optional<size_t> idx = alloc->bufferOf(op);
        bool isConvert = isOp(op, opname::ConvertLayout);
        if (isConvert) {
          FailureOr<ConvertCost> c = analyzeConvertOp(*target, op, &error);
          if (failed(c))
            return; // allocateLDS already succeeded, so this cannot fail
          if (c->path == ConvertPath::LDS)
            op->emitRemark()
                << "convert_layout: lds, scratch " << c->scratchBytes << " B ("
                << c->elements << " x " << c->bitwidth << " bit, " << c->reps
                << (c->reps == 1 ? " round" : " rounds") << "), live explicit "
                << alloc->explicitBytesLiveAt(op) << " B";
          else
            op->emitRemark()
                << "convert_layout: " << stringifyConvertPath(c->path)
                << ", no LDS";
          if (annotate) {
            op->setAttr("mfma.lds_path",
                        b.getStringAttr(stringifyConvertPath(c->path)));
            op->setAttr("mfma.src_linear",
                        b.getStringAttr(
                            linearText(*target, op->getOperand(0).getType())));
            op->setAttr("mfma.dst_linear",
                        b.getStringAttr(
                            linearText(*target, op->getResult(0).getType())));
          }
        } else if (idx && isOp(op, opname::LocalAlloc)) {
          op->emitRemark() << "local_alloc: " << alloc->buffers[*idx].size
                           << " B";
        }
        if (idx && annotate) {
          const LDSBuffer &buf = alloc->buffers[*idx];
          op->setAttr("mfma.lds_scratch", b.getI64IntegerAttr(buf.size));
          op->setAttr("mfma.lds_offset", b.getI64IntegerAttr(buf.offset));
        } else if (annotate && isConvert) {
          op->setAttr("mfma.lds_scratch", b.getI64IntegerAttr(0));
        }
      });
      func->emitRemark() << "LDS total " << alloc->totalBytes << " B of "
                         << target->ldsBytes << " B ("
                         << (target->isHip ? "hip:" : "cuda:") << target->arch
                         << ")";
      if (annotate)
        func->setAttr("mfma.lds_total", b.getI64IntegerAttr(alloc->totalBytes));
    }
    if (hadError)
      signalPassFailure();
    if (!annotate)
      markAllAnalysesPreserved();
  }
};

} // namespace
