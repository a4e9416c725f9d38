//===- PrintLayouts.cpp - mfma-print-layouts ------------------------------===//
//
// Analysis pass: reports every distinct TritonGPU layout of a module and
// checks the layout model's round trip on it.
//
// Algorithm:
//  1. Walk all operations in pre-order. For each operation visit the types of
//     its results and of the arguments of its blocks, and its attribute
//     dictionary (which reaches the types inside TypeAttrs, e.g. a tt.func's
//     function_type, and inside dense constants). MLIR's attribute/type
//     walker recurses into sub-elements, so a tensor's encoding is reached as
//     an OpaqueAttr of dialect "ttg". `!ttg.memdesc<...>` is an OpaqueType
//     whose parameters are only text: it is parsed with parseMemDesc and its
//     encoding and memory space are taken from there.
//  2. Each layout text (the exact characters Triton printed) is processed
//     once, at the first operation where it appears: parse it into a
//     typed value, print the value back, and compare. A parse failure
//     (unknown kind, malformed text) or a difference is an error at that
//     operation; otherwise a remark with the layout's description.
//  3. Nested layouts (slice/dot_op parents, a partitioned layout's inner
//     layout) are checked as part of their outer layout.
//  4. The parser is a verifier (Triton 3.9's rules: orders are permutations,
//     sizes powers of two where Triton requires them, ranks agree, sizes
//     bounded); each tensor type is then checked against its context as
//     Triton's tensor-layout verifier does: the layout's rank is the
//     tensor's, its warps are the `ttg.num-warps` around the operation and
//     its lanes the module's `ttg.threads-per-warp`. Every error names the
//     attribute (its text and field) and the operation.
//  The IR is never modified; the pass fails iff an error was emitted.
//
// Code: LayoutChecker::visitOp per operation (step 1), checkLayoutText
// (step 2), visitType for memdescs, visitAttr, visitTensor (step 4).
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/GenericIR.h"
#include "TritonMFMA/Layouts.h"
#include "TritonMFMA/PassOutcome.h"
#include "TritonMFMA/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "mfma-print-layouts"

namespace mlir::triton_mfma {
#define GEN_PASS_DEF_MFMAPRINTLAYOUTS
#include "TritonMFMA/Passes.h.inc"
} // namespace mlir::triton_mfma

using namespace mlir;
using namespace mlir::triton_mfma;

namespace {

/// ", on operation 'op'": the operation an error is about.
std::string inOp(Operation *op) {
  return (", on operation '" + op->getName().getStringRef() + "'").str();
}

/// Steps 1-4 over one module: every layout text, memdesc and tensor type
/// checked once; `hadError` once any check emitted an error.
class LayoutChecker {
public:
  LayoutChecker(std::optional<unsigned> threadsPerWarp, bool roundTripOnly)
      : threadsPerWarp(threadsPerWarp), roundTripOnly(roundTripOnly) {}

  bool hadError = false;

  /// The types of `op`'s results and block arguments, and its attribute
  /// dictionary, through MLIR's sub-element walker.
  void visitOp(Operation *op) {
    for (Type t : op->getResultTypes())
      walkType(op, t);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          walkType(op, arg.getType());
    op->getAttrDictionary().walk([&](Attribute a) { visitAttr(op, a); },
                                 [&](Type t) {
                                   visitType(op, t);
                                   visitTensor(op, t);
                                 });
  }

private:
  std::optional<unsigned> threadsPerWarp;
  bool roundTripOnly;
  llvm::StringSet<> seenLayouts;
  llvm::StringSet<> seenMemDescs;
  llvm::DenseSet<std::pair<Type, unsigned>> seenTensors;

  void walkType(Operation *op, Type type) {
    type.walk([&](Attribute a) { visitAttr(op, a); },
              [&](Type t) {
                visitType(op, t);
                visitTensor(op, t);
              });
  }

  /// Step 2: the layout if `text` is new and round-trips, else null (an
  /// error where it does not).
  LayoutPtr checkLayoutText(Operation *op, StringRef text) {
    if (!seenLayouts.insert(text).second)
      return nullptr;
    std::string error;
    LayoutPtr layout = parseLayout(text, &error);
    if (!layout) {
      op->emitError() << "cannot parse layout " << text << ": " << error
                      << inOp(op);
      hadError = true;
      return nullptr;
    }
    std::string printed = layout->str();
    if (printed != text) {
      op->emitError() << "layout round trip mismatch:\n  input:   " << text
                      << "\n  printed: " << printed;
      hadError = true;
      return nullptr;
    }
    LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] " << text << "\n");
    if (!roundTripOnly)
      op->emitRemark() << layout->getDescription();
    return layout;
  }

  /// A `!ttg.memdesc`: parsed, its encoding and memory space checked, and
  /// printed and rebuilt back to the same type.
  void visitType(Operation *op, Type type) {
    if (!isMemDescType(type))
      return;
    auto opaque = cast<OpaqueType>(type);
    if (!seenMemDescs.insert(opaque.getTypeData()).second)
      return;
    std::string error;
    FailureOr<MemDescInfo> info = getMemDescInfo(type, &error);
    if (failed(info)) {
      if (StringRef(error).starts_with("cannot parse layout"))
        op->emitError() << error << inOp(op);
      else
        op->emitError() << "cannot parse memdesc type: " << error << inOp(op);
      hadError = true;
      return;
    }
    if (info->encoding)
      checkLayoutText(op, info->encodingText);
    if (info->memorySpace)
      checkLayoutText(op, info->memorySpaceText);
    std::string printed = info->str();
    std::string original = ("!ttg." + opaque.getTypeData()).str();
    if (printed != original) {
      op->emitError() << "memdesc round trip mismatch:\n  input:   "
                      << original << "\n  printed: " << printed;
      hadError = true;
    } else if (getMemDescType(op->getContext(), *info) != type) {
      op->emitError() << "rebuilt memdesc type differs from the parsed one: "
                      << original;
      hadError = true;
    }
  }

  void visitAttr(Operation *op, Attribute attr) {
    if (!isTTGAttr(attr))
      return;
    // The attribute built from the value must be the very attribute the
    // parser made from Triton's text (what passes rely on when they write
    // layouts back).
    if (LayoutPtr layout = checkLayoutText(op, getTTGAttrText(attr))) {
      if (getLayoutAttr(op->getContext(), *layout) != attr) {
        op->emitError() << "rebuilt attribute differs from the parsed one "
                           "for layout "
                        << layout->str();
        hadError = true;
      }
    }
  }

  /// Step 4: a tensor's layout against the tensor and the operation's
  /// context.
  void visitTensor(Operation *op, Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !isTTGAttr(tensor.getEncoding()))
      return;
    std::optional<unsigned> numWarps = lookupNumWarps(op);
    if (!seenTensors.insert({type, numWarps.value_or(~0u)}).second)
      return;
    LayoutPtr layout = parseLayout(tensor.getEncoding());
    if (!layout)
      return; // reported by visitAttr
    std::string why = verifyTensorLayout(*layout, tensor.getShape(), numWarps,
                                         threadsPerWarp);
    if (!why.empty()) {
      op->emitError() << why << inOp(op);
      hadError = true;
    }
  }
};

struct MFMAPrintLayouts final
    : mlir::triton_mfma::impl::MFMAPrintLayoutsBase<MFMAPrintLayouts> {
  using Base::Base;

  void runOnOperation() override {
    PassOutcomeScope outcome(*this, "analysis only (remarks)");
    LayoutChecker checker(getThreadsPerWarp(getOperation()), roundTripOnly);
    getOperation()->walk<WalkOrder::PreOrder>(
        [&](Operation *op) { checker.visitOp(op); });
    if (checker.hadError)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
