//===- StreamPipeline.cpp - mfma-stream-pipeline --------------------------===//
//
// LDS + VGPR stream pipelining: one LDS buffer per dot operand (not one per
// stage), the next iteration's tile held in registers while this iteration's
// is read from LDS, so a stage of LDS is traded for registers. Runs at the
// `pipeline` insertion point, instead of Triton's
// schedule_loops + pipeline. A dot operand loaded in the loop reaches the
// pass in one of two shapes:
//
//   (a) Hopper wgmma: the layout is already chosen
//       %x = tt.load %ptr, %mask, %other
//       %y = <register ops: convert_layout, amdg.in_thread_transpose, ...>
//       %d = ttg.local_alloc %y : !ttg.memdesc<..., #nvmma_shared, #smem>
//       ... ttng.warp_group_dot %d ...
//   (b) AMD MFMA, NVIDIA mma v2: the operand is still converted in registers
//       %x = tt.load %ptr, %mask, %other ; %y = <register ops>
//       %o = ttg.convert_layout %y : #blocked -> #ttg.dot_op<...>
//     The shared layout is chosen as Triton's pipeliner does
//     (SwizzledSharedEncodingAttr::get(dotOpEnc, ...): for amd_mfma parents
//     AMDMfmaEncodingAttr::composeSharedLayoutForOperand, for nvidia_mma the
//     NVIDIA builder), and the convert becomes a ttg.local_load.
//
// Algorithm, per innermost scf.for (each decision is a remark):
//  1. Candidates: every tt.load of the body followed, through single-use
//     register ops, to a local_alloc (a) whose memdesc is only read by
//     local_load / warp_group_dot / memdesc views inside the loop, or to a
//     convert to #ttg.dot_op (b); either must reach a dot. The load's
//     address, mask and `other` must be computable by pure ops (arith/math/
//     tt shape and pointer ops) from the induction variable, the iteration
//     arguments and values defined above the loop (slice S); for every
//     iteration argument S uses, the value the body yields for it must be
//     computable the same way (slice T), so that the next iteration's address
//     is known at the top of this iteration. Loops that write global memory,
//     hold another loop, have a non-constant or non-positive step, or run
//     with num_stages <= 1 (the kernel's option, or the loop's own
//     tt.num_stages, which wins) are left alone, with a remark. A module
//     where no loop is pipelined is declined (remark "mfma-stream-pipeline
//     declined: ..."): the hook then runs Triton's own loop pipeliner, which
//     this pass replaces, in its place.
//  2. Buffers and prologue (before the loop): one mutable local_alloc per
//     operand; S cloned with iv = lb and the arguments = their initial
//     values, the loads predicated on lb < ub (trip count 0 touches no
//     memory), the register chain applied, local_store into the buffer.
//  3. Body: (a) the local_alloc is replaced by the buffer (view types become
//     mutable), (b) the convert by a local_load of the buffer; load, chain
//     and now dead slice ops are erased.
//  4. Epilogue: the body is cloned after the loop into scf.if (lb < ub), with
//     iv = lb + ((ub - lb - 1) / step) * step (the last iteration) and the
//     arguments = the loop's results; its results replace the loop's, then
//     ttg.local_dealloc of the buffers.
//  5. Main loop, upper bound ub - step (every iteration has a successor): at
//     the top T computes the next arguments, S (iv + step, next arguments)
//     issues the next iteration's global loads into registers, then a local
//     barrier (the previous store is visible); the iteration's LDS reads and
//     dots follow unchanged; at the bottom the register chain is applied to
//     the prefetched tiles, a local barrier (every LDS read of this
//     iteration is done) and local_store into the buffer. When wgmma reads a
//     buffer (async proxy), a fence_async_shared follows each group of
//     stores, before the barrier that publishes them, as Triton does after a
//     local_alloc.
//
// Triton's Membar analysis sees the explicit barriers and adds none of its
// own for these buffers. Masks and `other` values are those of the original
// loads; loop-carried pointers and offsets come through T. The schedule has
// two stages whatever num_stages >= 2 says.
//
// Code: step 1 is LoopAnalysis (checkLoopShape, checkBodyEffects,
// considerLoad for each load, collectNextSlice), steps 2-5 are LoopTransform
// (emitBuffersAndPrologue; emitPrefetchAtTop and emitStoresAtBottom, built
// before the body rewrite readBuffersInBody / eraseDeadSlices so that
// emitEpilogue's copy of the body leaves them out; shortenMainLoop). Every
// loop or load left alone is a remark and a debug line
// (-debug-only=mfma-stream-pipeline).
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/GenericIR.h"
#include "TritonMFMA/Layouts.h"
#include "TritonMFMA/PassOutcome.h"
#include "TritonMFMA/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "mfma-stream-pipeline"

namespace mlir::triton_mfma {
#define GEN_PASS_DEF_MFMASTREAMPIPELINE
#include "TritonMFMA/Passes.h.inc"
} // namespace mlir::triton_mfma

using namespace mlir;
using namespace mlir::triton_mfma;

namespace {

//===----------------------------------------------------------------------===//
// Analysis
//===----------------------------------------------------------------------===//

/// Pure, cheap operations that may be cloned to compute the address, mask or
/// `other` of a load for another iteration.
bool isClonableAddressOp(Operation *op) {
  if (op->getNumRegions() != 0)
    return false;
  if (isInDialect(op, dialect::Arith) || isInDialect(op, dialect::Math))
    return true;
  return isAnyOp(op, opname::Splat, opname::Broadcast, opname::ExpandDims,
                 opname::AddPtr, opname::MakeRange, opname::Reshape,
                 opname::Trans, opname::Bitcast, opname::IntToPtr,
                 opname::PtrToInt, opname::FpToFp, opname::GetProgramId,
                 opname::GetNumPrograms, opname::Join, opname::Split,
                 opname::ConvertLayout);
}

/// Register-only operations allowed between a load and its local_alloc.
bool isChainOp(Operation *op) {
  return op->getNumOperands() == 1 && op->getNumResults() == 1 &&
         op->getNumRegions() == 0 &&
         (isOp(op, opname::InThreadTranspose) || isClonableAddressOp(op));
}

bool isDot(Operation *op) {
  return isAnyOp(op, opname::Dot, opname::DotScaled, opname::WarpGroupDot);
}

/// Operations that may read the operand's memdesc (views are followed).
bool isMemDescReader(Operation *op) {
  return isAnyOp(op, opname::LocalLoad, opname::WarpGroupDot);
}

/// One pipelined dot operand. Two shapes reach the `pipeline` point:
///  - Hopper (wgmma): tt.load -> chain -> ttg.local_alloc, the layout chosen;
///  - AMD MFMA, NVIDIA mma v2: tt.load -> chain -> ttg.convert_layout to a
///    #ttg.dot_op layout; the shared layout is chosen here the way Triton's
///    pipeliner would, and the convert becomes a ttg.local_load.
struct Operand {
  Operation *load = nullptr;
  SmallVector<Operation *> chain; // load -> ... (register ops), in order
  Operation *alloc = nullptr;     // the local_alloc (Hopper), or
  Operation *convert = nullptr;   // the convert_layout to #ttg.dot_op
  SmallVector<Operation *> views; // memdesc views to retype as mutable
  Type bufferType;
  Value buffer;
  Value prefetched; // the next iteration's load result, in the body
  int64_t bytes = 0;
  std::string name;   // for remarks: the load's name location, or "operand N"
  std::string layout; // the shared layout, for remarks
};

struct LoopPlan {
  Operation *forOp = nullptr;
  Block *body = nullptr;
  SmallVector<Operand> operands;
  llvm::SetVector<Operation *> loadSlice; // S, in body order
  llvm::SetVector<Operation *> nextSlice; // T, in body order
  SmallVector<unsigned> argsUsed;         // iter-arg indices S reads
  Value lb, ub, step;
  bool isHip = false;           // ttg.target = "hip:..."
  bool asyncProxyReads = false; // a buffer is read by ttng.warp_group_dot
};

/// Backward slice of `roots` inside `body` (not through block arguments).
/// Records which body arguments are read. Fails if an op cannot be cloned.
LogicalResult collectSlice(Block *body, ArrayRef<Value> roots,
                           llvm::DenseSet<Operation *> &slice,
                           llvm::SmallDenseSet<unsigned> &argsRead,
                           std::string &why) {
  SmallVector<Value> work(roots.begin(), roots.end());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == body)
        argsRead.insert(arg.getArgNumber());
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (def->getBlock() != body)
      continue; // defined above the loop
    if (!isClonableAddressOp(def)) {
      why = ("its address depends on '" + def->getName().getStringRef() +
             "', which cannot be recomputed for the next iteration")
                .str();
      if (isOp(def, opname::Load))
        why = "its address depends on another load (indirect access)";
      return failure();
    }
    if (slice.insert(def).second)
      llvm::append_range(work, def->getOperands());
  }
  return success();
}

/// Views of `memdesc` (recursively) if all users are readers or views inside
/// the loop; failure otherwise.
LogicalResult collectReaders(Operation *forOp, Value memdesc,
                             SmallVectorImpl<Operation *> &views,
                             std::string &why) {
  for (Operation *user : memdesc.getUsers()) {
    if (!forOp->isProperAncestor(user)) {
      why = "its shared-memory tile is used outside the loop";
      return failure();
    }
    if (isMemDescView(user)) {
      views.push_back(user);
      if (failed(collectReaders(forOp, user->getResult(0), views, why)))
        return failure();
      continue;
    }
    if (!isMemDescReader(user)) {
      why = ("its shared-memory tile is used by '" +
             user->getName().getStringRef() + "'")
                .str();
      return failure();
    }
  }
  return success();
}

/// Whether a dot is reached from `op` through def-use chains inside `forOp`.
bool reachesDot(Operation *forOp, Operation *op) {
  SmallVector<Operation *> work{op};
  llvm::DenseSet<Operation *> seen;
  while (!work.empty()) {
    Operation *cur = work.pop_back_val();
    if (!seen.insert(cur).second || seen.size() > 256)
      continue;
    if (isDot(cur))
      return true;
    for (Value r : cur->getResults())
      for (Operation *u : r.getUsers())
        if (forOp->isProperAncestor(u))
          work.push_back(u);
  }
  return false;
}

std::string describeLoad(Operation *load, unsigned index) {
  std::string name = getLocationName(load->getLoc(), /*nested=*/false);
  if (!name.empty())
    return "'" + name + "'";
  return "operand " + std::to_string(index);
}

int64_t memDescBytes(const MemDescInfo &info) {
  int64_t n = 1;
  for (int64_t d : info.shape) {
    if (d < 0 || (d > 0 && n > (int64_t(1) << 40) / d))
      return -1; // not a size (only shown in remarks)
    n *= d;
  }
  unsigned bits = info.elementType && info.elementType.isIntOrFloat()
                      ? info.elementType.getIntOrFloatBitWidth()
                      : 0;
  return n * bits / 8;
}

/// Whether `op` converts to a #ttg.dot_op layout.
const DotOperandLayout *getDotOperandResult(Operation *op, LayoutPtr &keep) {
  if (!isOp(op, opname::ConvertLayout) || op->getNumResults() != 1)
    return nullptr;
  keep = getLayout(op->getResult(0).getType());
  return dyn_cast_or_null<DotOperandLayout>(keep.get());
}

/// Step 1 for one scf.for: whether it can be stream-pipelined, and the
/// LoopPlan (operands, slices S and T) if so. run() calls the methods in
/// order; each failure says why in `why`.
class LoopAnalysis {
public:
  /// `numStages` is the kernel's num_stages option.
  LoopAnalysis(Operation *forOp, unsigned numStages)
      : forOp(forOp), loop(forOp), numStages(numStages) {
    plan.forOp = forOp;
  }

  FailureOr<LoopPlan> run(std::string &why) {
    if (failed(checkLoopShape(why)) || failed(checkBodyEffects(why)))
      return failure();
    for (Operation &load : opsBeforeTerminator(body))
      considerLoad(load);
    if (plan.operands.empty()) {
      why = rejected.empty()
                ? "no dot operand is loaded from global memory through LDS "
                  "in it"
                : "no operand can be pipelined (" + llvm::join(rejected, "; ") +
                      ")";
      return failure();
    }
    if (failed(collectNextSlice(why)))
      return failure();
    orderSlices();
    if (!rejected.empty())
      why = "left in place: " + llvm::join(rejected, "; ");
    return std::move(plan);
  }

private:
  /// Well formed, signed, num_stages >= 2, a positive constant step and an
  /// integer induction variable.
  LogicalResult checkLoopShape(std::string &why);
  /// An innermost loop that writes no global memory.
  LogicalResult checkBodyEffects(std::string &why);
  /// A candidate: `load` followed to a local_alloc or a convert to
  /// #ttg.dot_op that reaches a dot, its buffer, its slice S. A load that is
  /// not one is left in place (and named in the remark where it looks like
  /// one we could not follow).
  void considerLoad(Operation &load);
  /// Follows `cand.load` through single-use register ops of the body (into
  /// cand.chain); the local_alloc or convert it ends at, or null.
  Operation *followChain(Operand &cand, LayoutPtr &dotLayout,
                         bool &severalUsers);
  /// Shape (a): the alloc's memdesc is read only inside the loop.
  LogicalResult planAllocBuffer(Operand &cand, MemDescInfo &info,
                                std::string &reason);
  /// Shape (b): the shared layout Triton's pipeliner would choose.
  LogicalResult planConvertBuffer(Operand &cand, Value tile,
                                  const DotOperandLayout &dotLayout,
                                  MemDescInfo &info, std::string &reason);
  /// S grows by the load's address, mask and `other`.
  LogicalResult extendLoadSlice(Operation &load, std::string &reason);
  /// T: the arguments S reads, and the slice computing their next values.
  LogicalResult collectNextSlice(std::string &why);
  /// S and T in body order.
  void orderSlices();

  void reject(const Operand &cand, const std::string &r) {
    LDBG() << "load " << cand.name << " left in place: " << r;
    rejected.push_back(cand.name + ": " + r);
  }

  Operation *forOp;
  ForOp loop;
  unsigned numStages;
  Block *body = nullptr;
  LoopPlan plan;
  SmallVector<std::string> rejected;
  llvm::DenseSet<Operation *> loadSlice, nextSlice;
  llvm::SmallDenseSet<unsigned> argsRead;
};

LogicalResult LoopAnalysis::checkLoopShape(std::string &why) {
  if (!loop.isWellFormed()) {
    why = ("malformed " + opname::For).str();
    return failure();
  }
  body = loop.getBody();
  plan.body = body;
  if (loop.isUnsignedCmp()) {
    why = "it compares its induction variable unsigned";
    return failure();
  }
  // A loop's own tt.num_stages (tl.range(..., num_stages=N)) wins over the
  // kernel's num_stages, as in Triton's pipeliner.
  if (std::optional<int64_t> stages = loop.getNumStages()) {
    if (*stages <= 1) {
      why = "num_stages <= 1 was requested for it";
      return failure();
    }
  } else if (numStages <= 1) {
    why = "the kernel was compiled with num_stages <= 1";
    return failure();
  }
  if (auto module = forOp->getParentOfType<ModuleOp>())
    if (std::optional<StringRef> target = getTarget(module))
      plan.isHip = target->starts_with("hip:");
  plan.lb = loop.getLowerBound();
  plan.ub = loop.getUpperBound();
  plan.step = loop.getStep();
  std::optional<int64_t> step = getConstantInt(plan.step);
  if (!step || *step <= 0) {
    why = "its step is not a positive constant";
    return failure();
  }
  if (!plan.lb.getType().isIntOrIndex()) {
    why = "its induction variable is not an integer";
    return failure();
  }
  return success();
}

LogicalResult LoopAnalysis::checkBodyEffects(std::string &why) {
  Operation *offender = nullptr;
  forOp->getRegion(0).walk([&](Operation *op) {
    if (!offender &&
        (isAnyOp(op, opname::For, opname::While) || mayWriteGlobalMemory(op)))
      offender = op;
  });
  if (!offender)
    return success();
  why =
      isAnyOp(offender, opname::For, opname::While)
          ? "it is not an innermost loop"
          : ("it writes global memory ('" + offender->getName().getStringRef() +
             "'): the next iteration's loads cannot be moved above it")
                .str();
  return failure();
}

void LoopAnalysis::considerLoad(Operation &load) {
  if (!isOp(&load, opname::Load) || load.getNumResults() != 1 ||
      !LoadOp(&load).hasWellFormedOperands())
    return;
  Operand cand;
  cand.load = &load;
  cand.name = describeLoad(&load, plan.operands.size() + rejected.size());
  LayoutPtr dotLayout;
  bool severalUsers = false;
  Operation *end = followChain(cand, dotLayout, severalUsers);
  if (!end) {
    // Not a dot operand through LDS (e.g. a bias): stays where it is. Only
    // say so when it looks like one that we could not follow.
    if (severalUsers && reachesDot(forOp, &load))
      reject(cand, "the loaded tile has several users");
    else
      LDBG() << "load " << cand.name << ": not a dot operand through LDS";
    return;
  }
  if (!isa<RankedTensorType>(load.getOperand(0).getType()))
    return reject(cand, "it is not a load through a tensor of pointers");
  if (!reachesDot(forOp, end))
    return reject(cand, "it does not feed a dot");
  std::string reason;
  MemDescInfo info;
  if (isOp(end, opname::LocalAlloc)) {
    cand.alloc = end;
    if (failed(planAllocBuffer(cand, info, reason)))
      return reject(cand, reason);
  } else {
    cand.convert = end;
    Value tile = cand.chain.empty() ? load.getResult(0)
                                    : cand.chain.back()->getResult(0);
    if (failed(planConvertBuffer(cand, tile,
                                 *cast<DotOperandLayout>(dotLayout.get()), info,
                                 reason)))
      return reject(cand, reason);
  }
  info.mutableMemory = true;
  cand.bufferType = getMemDescType(forOp->getContext(), info);
  cand.bytes = memDescBytes(info);
  cand.layout = info.encoding ? info.encoding->str() : info.encodingText;
  if (failed(extendLoadSlice(load, reason)))
    return reject(cand, reason);
  plan.operands.push_back(std::move(cand));
}

Operation *LoopAnalysis::followChain(Operand &cand, LayoutPtr &dotLayout,
                                     bool &severalUsers) {
  Value v = cand.load->getResult(0);
  while (true) {
    if (!v.hasOneUse()) {
      severalUsers = !v.use_empty();
      return nullptr;
    }
    Operation *user = *v.getUsers().begin();
    if (user->getBlock() != body)
      return nullptr;
    if ((isOp(user, opname::LocalAlloc) && user->getNumOperands() == 1) ||
        getDotOperandResult(user, dotLayout))
      return user;
    if (!isChainOp(user))
      return nullptr;
    cand.chain.push_back(user);
    v = user->getResult(0);
  }
}

LogicalResult LoopAnalysis::planAllocBuffer(Operand &cand, MemDescInfo &info,
                                            std::string &reason) {
  Value memdesc = cand.alloc->getResult(0);
  if (failed(collectReaders(forOp, memdesc, cand.views, reason)))
    return failure();
  FailureOr<MemDescInfo> allocInfo = getMemDescInfo(memdesc.getType(), &reason);
  if (failed(allocInfo)) {
    reason = "unreadable memdesc type: " + reason;
    return failure();
  }
  info = *allocInfo;
  for (Operation *user : memdesc.getUsers())
    plan.asyncProxyReads |= isOp(user, opname::WarpGroupDot);
  for (Operation *view : cand.views)
    for (Operation *user : view->getResult(0).getUsers())
      plan.asyncProxyReads |= isOp(user, opname::WarpGroupDot);
  return success();
}

LogicalResult LoopAnalysis::planConvertBuffer(Operand &cand, Value tile,
                                              const DotOperandLayout &dotLayout,
                                              MemDescInfo &info,
                                              std::string &reason) {
  auto type = cast<RankedTensorType>(tile.getType());
  auto *blocked = dyn_cast_or_null<BlockedLayout>(getLayout(type).get());
  if (!blocked) {
    reason = "the tile to store is not in a blocked layout";
    return failure();
  }
  unsigned bits = type.getElementType().isIntOrFloat()
                      ? type.getElementType().getIntOrFloatBitWidth()
                      : 0;
  FailureOr<SwizzledSharedLayout> shared = chooseDotOperandSharedLayout(
      type.getShape(), bits, *blocked, dotLayout, reason);
  if (failed(shared))
    return failure();
  info.shape.assign(type.getShape().begin(), type.getShape().end());
  info.allocShape = info.shape;
  llvm::raw_string_ostream(info.elementTypeText) << type.getElementType();
  info.elementType = type.getElementType();
  info.encoding = std::make_shared<SwizzledSharedLayout>(*shared);
  info.encodingText = info.encoding->str();
  info.memorySpace = std::make_shared<SharedMemorySpace>();
  info.memorySpaceText = info.memorySpace->str();
  return success();
}

LogicalResult LoopAnalysis::extendLoadSlice(Operation &load,
                                            std::string &reason) {
  llvm::DenseSet<Operation *> slice = loadSlice;
  llvm::SmallDenseSet<unsigned> args = argsRead;
  if (failed(collectSlice(body, llvm::to_vector(load.getOperands()), slice,
                          args, reason)))
    return failure();
  loadSlice = std::move(slice);
  argsRead = std::move(args);
  return success();
}

LogicalResult LoopAnalysis::collectNextSlice(std::string &why) {
  Operation *yield = body->getTerminator();
  SmallVector<Value> nextRoots;
  for (unsigned argNo : argsRead) {
    if (argNo == 0)
      continue; // the induction variable: iv + step
    plan.argsUsed.push_back(argNo - 1);
    nextRoots.push_back(yield->getOperand(argNo - 1));
  }
  llvm::sort(plan.argsUsed);
  llvm::SmallDenseSet<unsigned> nextArgsRead;
  std::string reason;
  if (failed(collectSlice(body, nextRoots, nextSlice, nextArgsRead, reason))) {
    why = "the next iteration's addresses are not computable at the top of an "
          "iteration: " +
          reason;
    return failure();
  }
  return success();
}

void LoopAnalysis::orderSlices() {
  for (Operation &op : opsBeforeTerminator(body)) {
    if (loadSlice.contains(&op))
      plan.loadSlice.insert(&op);
    if (nextSlice.contains(&op))
      plan.nextSlice.insert(&op);
  }
}

//===----------------------------------------------------------------------===//
// Transformation
//===----------------------------------------------------------------------===//

/// Clones `load` with `mapping`; if `pred` (i1) is given, the load is
/// predicated on it (and-ed into its mask, or as its mask).
Operation *cloneLoad(OpBuilder &b, Operation *load, IRMapping &mapping,
                     Value pred) {
  if (!pred)
    return b.clone(*load, mapping);
  LoadOp view(load);
  DictionaryAttr props = getProperties(load);
  // (hasWellFormedOperands checked the segments.)
  GenericBuilder g(b, load->getLoc());
  Value ptr = mapping.lookupOrDefault(view.getPtr());
  auto ptrType = cast<RankedTensorType>(ptr.getType());
  auto maskType = RankedTensorType::get(ptrType.getShape(), b.getI1Type(),
                                        ptrType.getEncoding());
  Value mask = g.splat(pred, maskType);
  if (Value oldMask = view.getMask())
    mask = g.binary(opname::AndI, mapping.lookupOrDefault(oldMask), mask);
  SmallVector<Value> operands{ptr, mask};
  Value other = view.getOther();
  if (other)
    operands.push_back(mapping.lookupOrDefault(other));
  NamedAttrList newProps(props ? props : DictionaryAttr::get(b.getContext()));
  newProps.set("operandSegmentSizes",
               b.getDenseI32ArrayAttr({1, 1, other ? 1 : 0}));
  OperationState state(load->getLoc(), load->getName());
  state.addOperands(operands);
  state.addTypes(load->getResultTypes());
  state.propertiesAttr = newProps.getDictionary(b.getContext());
  state.addAttributes(llvm::to_vector(load->getDiscardableAttrs()));
  Operation *newLoad = b.create(state);
  mapping.map(load->getResult(0), newLoad->getResult(0));
  return newLoad;
}

/// Applies the operand's register chain (load -> ... -> alloc) to `loaded`.
Value applyChain(OpBuilder &b, Operand &op, Value loaded) {
  IRMapping mapping;
  mapping.map(op.load->getResult(0), loaded);
  Value v = loaded;
  for (Operation *c : op.chain)
    v = b.clone(*c, mapping)->getResult(0);
  return v;
}

void storeToBuffer(OpBuilder &b, Operand &op, Value value) {
  GenericBuilder(b, op.load->getLoc()).localStore(value, op.buffer);
}

/// Steps 2-5 for a LoopPlan. run() calls the methods in the order they build
/// IR: the main loop's additions (5) before the body rewrite (3), so that the
/// epilogue's copy of the body (4) leaves them out; the bound last.
class LoopTransform {
public:
  explicit LoopTransform(LoopPlan &plan)
      : plan(plan), forOp(plan.forOp), loop(plan.forOp), body(plan.body),
        yield(body->getTerminator()), loc(forOp->getLoc()), b(forOp), g(b, loc),
        iv(body->getArgument(0)) {}

  void run() {
    emitBuffersAndPrologue();
    emitLastIterationBounds();
    emitPrefetchAtTop();
    emitStoresAtBottom();
    readBuffersInBody();
    eraseDeadSlices();
    emitEpilogue();
    shortenMainLoop();
  }

private:
  /// Step 2: one mutable local_alloc per operand; S at iv = lb, the loads
  /// predicated on lb < ub, the chain, local_store into the buffer.
  void emitBuffersAndPrologue();
  /// The last iteration's induction variable, lb + ((ub - lb - 1) / step) *
  /// step (meaningful only when lb < ub), and the main loop's bound ub - step.
  void emitLastIterationBounds();
  /// Step 5, top of the body: T at this iteration, S at iv + step and the
  /// next arguments, the next iteration's loads, a local barrier.
  void emitPrefetchAtTop();
  /// Step 5, bottom of the body: the chain on the prefetched tiles, a local
  /// barrier, the stores (and the async-proxy fence).
  void emitStoresAtBottom();
  /// Step 3: the body reads the buffers; the in-loop load, chain and alloc
  /// (or convert, which becomes a local_load) go away.
  void readBuffersInBody();
  /// Step 3: the slice ops of the original body nothing reads any more.
  void eraseDeadSlices();
  /// Step 4: the last iteration after the loop, if there was one, and the
  /// buffers' deallocation.
  void emitEpilogue();
  /// Step 5: every iteration of the main loop has a successor.
  void shortenMainLoop() { loop.getUpperBoundOperand().set(mainUb); }

  LoopPlan &plan;
  Operation *forOp;
  ForOp loop;
  Block *body;
  Operation *yield;
  Location loc;
  OpBuilder b;
  GenericBuilder g;
  Value iv;
  Value hasFirst; ///< lb < ub
  SmallVector<Value> lastIvChain;
  Value lastIv, mainUb;
  /// What step 5 added to the body (not copied into the epilogue).
  llvm::DenseSet<Operation *> added;
};

void LoopTransform::emitBuffersAndPrologue() {
  hasFirst = g.cmpi(CmpIPredicate::slt, plan.lb, plan.ub);
  for (Operand &op : plan.operands)
    op.buffer = GenericBuilder(b, op.load->getLoc()).localAlloc(op.bufferType);
  IRMapping first;
  first.map(iv, plan.lb);
  for (unsigned k : plan.argsUsed)
    first.map(loop.getIterArg(k), loop.getInit(k));
  for (Operation *op : plan.loadSlice)
    b.clone(*op, first);
  for (Operand &op : plan.operands) {
    Operation *load = cloneLoad(b, op.load, first, hasFirst);
    if (plan.isHip) // lets AMD's move_up_prologue_loads hoist it
      load->setAttr(attrname::PipelinerPart, b.getStringAttr("prologue"));
    storeToBuffer(b, op, applyChain(b, op, load->getResult(0)));
  }
  if (plan.asyncProxyReads)
    g.fenceAsyncShared();
}

void LoopTransform::emitLastIterationBounds() {
  Type ivType = iv.getType();
  lastIvChain.push_back(g.constantInt(ivType, 1));
  lastIvChain.push_back(g.binary(opname::SubI, plan.ub, plan.lb));
  lastIvChain.push_back(
      g.binary(opname::SubI, lastIvChain.back(), lastIvChain.front()));
  lastIvChain.push_back(g.binary(opname::DivSI, lastIvChain.back(), plan.step));
  lastIvChain.push_back(g.binary(opname::MulI, lastIvChain.back(), plan.step));
  lastIvChain.push_back(g.binary(opname::AddI, plan.lb, lastIvChain.back()));
  lastIv = lastIvChain.back();
  mainUb = g.binary(opname::SubI, plan.ub, plan.step);
}

void LoopTransform::emitPrefetchAtTop() {
  Operation *firstOriginal = &body->front();
  b.setInsertionPointToStart(body);
  {
    GenericBuilder top(b, loc);
    IRMapping next;
    next.map(iv, top.binary(opname::AddI, iv, plan.step));
    IRMapping current; // T at this iteration (duplicates are CSE'd later)
    for (Operation *op : plan.nextSlice)
      b.clone(*op, current);
    for (unsigned k : plan.argsUsed)
      next.map(loop.getIterArg(k),
               current.lookupOrDefault(yield->getOperand(k)));
    for (Operation *op : plan.loadSlice)
      b.clone(*op, next);
    for (Operand &op : plan.operands)
      op.prefetched = b.clone(*op.load, next)->getResult(0);
    top.barrierLocal(); // the previous store is visible to every thread
  }
  for (Operation *op = &body->front(); op != firstOriginal;
       op = op->getNextNode())
    added.insert(op);
}

void LoopTransform::emitStoresAtBottom() {
  Operation *lastOriginal = yield->getPrevNode();
  b.setInsertionPoint(yield);
  SmallVector<Value> values;
  for (Operand &op : plan.operands)
    values.push_back(applyChain(b, op, op.prefetched));
  GenericBuilder(b, loc).barrierLocal(); // every LDS read of this iteration
  for (auto [op, value] : llvm::zip(plan.operands, values))
    storeToBuffer(b, op, value);
  if (plan.asyncProxyReads)
    GenericBuilder(b, loc).fenceAsyncShared();
  for (Operation *op = lastOriginal->getNextNode(); op != yield;
       op = op->getNextNode())
    added.insert(op);
}

void LoopTransform::readBuffersInBody() {
  for (Operand &op : plan.operands) {
    if (op.alloc) {
      op.alloc->getResult(0).replaceAllUsesWith(op.buffer);
      for (Operation *view : op.views) {
        FailureOr<MemDescInfo> info =
            getMemDescInfo(view->getResult(0).getType());
        if (succeeded(info) && !info->mutableMemory) {
          info->mutableMemory = true;
          view->getResult(0).setType(getMemDescType(b.getContext(), *info));
        }
      }
      op.alloc->erase();
    } else {
      OpBuilder at(op.convert);
      Value read =
          GenericBuilder(at, op.convert->getLoc())
              .localLoad(op.buffer, op.convert->getResult(0).getType());
      op.convert->getResult(0).replaceAllUsesWith(read);
      op.convert->erase();
    }
    for (Operation *c : llvm::reverse(op.chain))
      c->erase();
    op.load->erase();
    op.alloc = op.convert = op.load = nullptr;
    op.chain.clear();
  }
}

void LoopTransform::eraseDeadSlices() {
  SmallVector<Operation *> bodyOps;
  for (Operation &op : opsBeforeTerminator(body))
    bodyOps.push_back(&op);
  for (Operation *op : llvm::reverse(bodyOps))
    if (!added.contains(op) &&
        (plan.loadSlice.contains(op) || plan.nextSlice.contains(op)) &&
        op->use_empty())
      op->erase();
}

void LoopTransform::emitEpilogue() {
  b.setInsertionPointAfter(forOp);
  Operation *ifOp = g.ifOp(hasFirst, forOp->getResultTypes());
  b.createBlock(&ifOp->getRegion(0));
  g.barrierLocal();
  IRMapping last;
  last.map(iv, lastIv);
  for (unsigned k = 0; k < loop.getNumIterArgs(); ++k)
    last.map(loop.getIterArg(k), forOp->getResult(k));
  for (Operation &op : opsBeforeTerminator(body))
    if (!added.contains(&op))
      b.clone(op, last);
  SmallVector<Value> results;
  for (Value v : yield->getOperands())
    results.push_back(last.lookupOrDefault(v));
  GenericBuilder(b, yield->getLoc()).yield(results);
  b.createBlock(&ifOp->getRegion(1));
  GenericBuilder(b, yield->getLoc()).yield(forOp->getResults());
  for (unsigned i = 0; i < forOp->getNumResults(); ++i)
    forOp->getResult(i).replaceUsesWithIf(
        ifOp->getResult(i),
        [&](OpOperand &use) { return !ifOp->isAncestor(use.getOwner()); });
  // The epilogue reads the induction variable only if something but the
  // loads did.
  for (Value v : llvm::reverse(lastIvChain))
    if (v.use_empty())
      v.getDefiningOp()->erase();
  b.setInsertionPointAfter(ifOp);
  for (Operand &op : llvm::reverse(plan.operands))
    g.localDealloc(op.buffer);
}

struct MFMAStreamPipeline final
    : mlir::triton_mfma::impl::MFMAStreamPipelineBase<MFMAStreamPipeline> {
  using Base::Base;

  /// Per innermost scf.for: step 1 (LoopAnalysis), then steps 2-5
  /// (LoopTransform); a module where none is pipelined is declined.
  void runOnOperation() override {
    PassOutcomeScope outcome(*this, "");
    SmallVector<Operation *> loops;
    getOperation()->walk([&](Operation *op) {
      if (isOp(op, opname::For))
        loops.push_back(op);
    });
    unsigned pipelined = 0;
    std::string firstWhy;
    for (Operation *forOp : loops) {
      std::string why;
      FailureOr<LoopPlan> plan = LoopAnalysis(forOp, numStages).run(why);
      if (failed(plan)) {
        LDBG() << "loop at " << forOp->getLoc()
               << " not stream-pipelined: " << why;
        forOp->emitRemark() << "loop not stream-pipelined: " << why;
        if (firstWhy.empty())
          firstWhy = why;
        continue;
      }
      ++pipelined;
      remarkPipelined(*plan, why);
      LDBG() << "pipelining " << *forOp;
      LoopTransform(*plan).run();
    }
    // Nothing pipelined: Triton's own loop pipeliner, which this pass
    // replaces, runs instead (the hook reads this remark).
    if (pipelined == 0) {
      LDBG() << "declined: no loop stream-pipelined";
      getOperation()->emitRemark()
          << "mfma-stream-pipeline declined: no loop stream-pipelined; "
             "Triton's loop pipeliner runs instead";
      if (loops.empty())
        outcome.declined("no " + opname::For + " in the module");
      else
        outcome.declined("no loop stream-pipelined (first: " + firstWhy + ")");
    } else {
      outcome.applied(Twine(pipelined) + " of " + Twine(loops.size()) +
                      " loop(s) stream-pipelined");
    }
  }

  /// "stream-pipelined N dot operand(s) (...)", and the loads left in place.
  static void remarkPipelined(const LoopPlan &plan, StringRef leftInPlace) {
    int64_t bytes = 0;
    std::string names;
    for (const Operand &op : plan.operands) {
      bytes += op.bytes;
      names += (names.empty() ? "" : ", ") + op.name;
    }
    InFlightDiagnostic remark = plan.forOp->emitRemark();
    remark << "stream-pipelined " << plan.operands.size() << " dot operand(s) ("
           << names << ") through one LDS buffer each (" << bytes
           << " bytes): the next iteration's global loads are "
           << "issued before this iteration's LDS reads and dots";
    if (!leftInPlace.empty())
      remark << "; " << leftInPlace;
  }
};

} // namespace
