//===- GridOrderPlanner.cpp - mfma-grid-order: the decision ---------------===//
//
// GridOrderPlanner.h: steps 2, 3, 5, 6 of mfma-grid-order.
//
//===----------------------------------------------------------------------===//

#include "GridOrderPlanner.h"

#include "TritonMFMA/GenericIR.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::triton_mfma;
using namespace mlir::triton_mfma::grid_order;

namespace {
// Heavy operand: at least kHeavyNum/kHeavyDen of the largest bytes/program.
constexpr int64_t kHeavyNum = 3, kHeavyDen = 4;
} // namespace

StringRef mlir::triton_mfma::grid_order::guardName(Guard g) {
  return g == Guard::L2 ? "l2" : g == Guard::XCD ? "xcd" : "none";
}

bool GridOrderPlanner::isHeavy(const LoadedOperand &o) const {
  return o.estimateBytes(defTrips) * kHeavyDen >= maxBytes * kHeavyNum;
}

Decline GridOrderPlanner::checkSafety() {
  if (!pa.getOrderHazard().empty())
    return "programs may communicate (" + pa.getOrderHazard() +
           "): reordering them could deadlock or change results";
  if (!pa.getHandSwizzle().empty())
    return "the kernel already permutes its program ids (" +
           pa.getHandSwizzle() + ")";
  if (callsProgramIdReader(module, func))
    return std::string("it calls a function that reads program ids");
  // Results written with atomics (whose values no program reads: else the
  // order hazard above): measured on an H200, the remap the L2 model picks
  // cost 3-11% on such kernels (bench/grid_order_splitk.py) and gained on
  // none; the model has no term for the epilogue's read-modify-writes.
  if (opts.mode == "auto" && !pa.getAtomicWrite().empty())
    return ("its results are written with atomics (" + pa.getAtomicWrite() +
            "): the remap measured slower there; mode=on forces")
        .str();
  if (operands.empty())
    return std::string("no global loads");
  return std::nullopt;
}

void GridOrderPlanner::readTargetFigures() {
  target = getTarget(module).value_or("").str();
  model = getL2Model(target);
  if (opts.l2Bytes > 0)
    model.l2Bytes = opts.l2Bytes;
  if (opts.l2EffectivePercent > 0)
    model.l2Effective = opts.l2EffectivePercent / 100.0;
  if (opts.numCUs > 0)
    model.cus = opts.numCUs;
  if (opts.numXCDs > 0)
    model.xcds = opts.numXCDs;
  plan.numXCDs = std::max(1, model.xcds);
  plan.hip = StringRef(target).starts_with("hip:");
}

Decline GridOrderPlanner::chooseHeavyOperand() {
  for (const LoadedOperand &o : operands)
    maxBytes = std::max(maxBytes, o.estimateBytes(defTrips));
  if (maxBytes == 0)
    return std::string("the loads' sizes are unknown");
  // The largest shared heavy operand, and the largest one that suffers.
  const LoadedOperand *shared = nullptr, *suffering = nullptr;
  for (auto [i, o] : llvm::enumerate(operands)) {
    if (!isHeavy(o) || (all & ~o.moved) == 0)
      continue;
    plan.shared.push_back(i);
    int64_t b = o.estimateBytes(defTrips);
    if (!shared || b > shared->estimateBytes(defTrips))
      shared = &o;
    if (suffers(o) && (!suffering || b > suffering->estimateBytes(defTrips)))
      suffering = &o;
  }
  if (!shared)
    return std::string("no heavy operand is shared between programs (every "
                       "program-id dimension moves each of them)");

  plan.heavy = suffering ? suffering : shared;
  // In every mode: where no heavy operand suffers, the hardware order is
  // the one the pass would choose.
  plan.reorder = suffering != nullptr;
  plan.xMask = all & ~plan.heavy->moved;
  plan.yMask = plan.heavy->moved;
  {
    llvm::raw_string_ostream os(why);
    os << plan.heavy->name << " ("
       << humanBytes(plan.heavy->estimateBytes(defTrips)) << "/program at "
       << defTrips << " trips per unknown loop) is moved by "
       << pa.describeMask(plan.heavy->moved)
       << " and shared by programs that differ in "
       << pa.describeMask(plan.xMask);
  }
  if (plan.reorder)
    for (unsigned r = 0; r < nDims && plan.farDim < 0; ++r)
      if ((plan.xMask & (DimMask(1) << r)) &&
          (plan.yMask & ((DimMask(1) << r) - 1)))
        plan.farDim = r;
  for (unsigned i : plan.shared)
    sharedNames += (sharedNames.empty() ? "" : ", ") + operands[i].name;

  if (plan.numXCDs == 1 && !plan.reorder)
    return "already in the order the pass would choose: " + why +
           ", which vary faster";
  return std::nullopt;
}

Decline GridOrderPlanner::decideL2Guard() {
  if (opts.mode != "auto")
    return std::nullopt;
  if (model.cus == 0 || model.l2Bytes == 0)
    return "no L2 figures for target '" + target +
           "' (set l2-bytes and num-cus, or mode=on)";
  plan.guard = Guard::L2;
  plan.perCU = countPrograms(module, func, model, opts.programsPerCU);
  plan.concurrent = plan.perCU.programs * model.cus;
  plan.threshold = model.effectiveL2Bytes();
  return std::nullopt;
}

Decline GridOrderPlanner::decideXCDGuard() {
  // What the XCD remap can save is the shared operands' reads into each
  // XCD's L2.
  if (llvm::all_of(plan.shared,
                   [&](unsigned i) { return operands[i].moved == 0; })) {
    int64_t bytes = 0;
    for (unsigned i : plan.shared)
      bytes += operands[i].estimateBytes(defTrips);
    return "every program reads all of " + sharedNames + " (" +
           humanBytes(bytes) +
           "; no grid dimension moves them): no order changes "
           "what each XCD reads";
  }
  if (opts.mode != "auto")
    return std::nullopt;
  if (model.l2Bytes == 0)
    return "no L2 figures for target '" + target +
           "' (set l2-bytes, or mode=on)";
  plan.threshold = model.effectiveL2Bytes();
  plan.sharedBytes = constantSharedBytes();
  if (plan.sharedBytes && *plan.sharedBytes <= plan.threshold)
    return "the shared operands (" + sharedNames + ": " +
           humanBytes(*plan.sharedBytes) +
           " distinct) fit every XCD's effective L2 (" +
           humanBytes(model.l2Bytes) + " x " +
           llvm::formatv("{0:F2}", model.l2Effective).str() +
           "): each XCD reads them from beyond its L2 at most once in "
           "any order";
  if (!plan.sharedBytes)
    plan.guard = Guard::XCD;
  return std::nullopt;
}

/// The shared heavy operands' distinct bytes where they are compile-time
/// constants: constant trip counts, and every dimension that moves them a
/// constant size (only the row length of a split axis can be).
std::optional<int64_t> GridOrderPlanner::constantSharedBytes() const {
  ArrayRef<GridDim> dims = pa.getDims();
  SmallVector<int64_t> sizes(dims.size(), 0);
  SmallVector<L2Operand> ops;
  for (unsigned i : plan.shared) {
    const LoadedOperand &o = operands[i];
    for (const ByteTerm &t : o.terms)
      for (const TripFactor &f : t.loops)
        if (!f.constant)
          return std::nullopt;
    for (auto [d, dim] : llvm::enumerate(dims)) {
      if (!(o.moved & (DimMask(1) << d)))
        continue;
      std::optional<int64_t> x = dim.kind == GridDim::Kind::Lo
                                     ? getConstantInt(dim.divisor)
                                     : std::nullopt;
      if (!x)
        return std::nullopt;
      sizes[d] = std::max<int64_t>(*x, 1);
    }
    ops.push_back({o.estimateBytes(defTrips), o.moved});
  }
  return evaluateSharedBytesExceedL2(sizes, ops, plan.threshold).distinctBytes;
}

std::string GridOrderPlanner::describeOrder() const {
  std::string how;
  llvm::raw_string_ostream os(how);
  if (plan.reorder) {
    os << "new order " << pa.describeMask(plan.xMask) << " fastest";
    if (opts.groupSize > 0)
      os << " (groups of " << opts.groupSize << ")";
    os << ", then " << pa.describeMask(plan.yMask);
  } else {
    os << "hardware order kept";
  }
  if (plan.numXCDs > 1) {
    os << "; programs in contiguous chunks per XCD (" << model.device
       << ": workgroups go round-robin to " << plan.numXCDs
       << " XCDs with separate " << humanBytes(model.l2Bytes)
       << " L2s, so programs sharing tiles are on different L2s in "
          "hardware order)";
    if (plan.guard == Guard::XCD)
      os << "; taken at run time when the distinct bytes of the shared "
            "operands ("
         << sharedNames << ": bytes/program x the sizes of the dims that "
         << "move each) exceed " << plan.threshold << " B (" << model.device
         << " L2 " << humanBytes(model.l2Bytes) << " x "
         << llvm::format("%.2f", model.l2Effective) << ")";
    else if (plan.sharedBytes)
      os << "; always: the shared operands (" << sharedNames << ") have "
         << *plan.sharedBytes << " distinct bytes > " << plan.threshold << " B";
  }
  if (plan.guard == Guard::L2)
    os << "; taken at run time when the grid has more than P = "
       << plan.concurrent << " programs (" << model.cus << " CUs x "
       << plan.perCU.programs << "; " << describe(plan.perCU)
       << ") and the bytes streamed between twin reads exceed "
       << plan.threshold << " B (" << model.device << " L2 "
       << humanBytes(model.l2Bytes) << " x "
       << llvm::format("%.2f", model.l2Effective)
       << "): distance = product of the sizes of dims faster than "
       << pa.getDims()[plan.farDim].name();
  else if (opts.mode == "on")
    os << "; forced (mode=on)";
  return how;
}

std::string GridOrderPlanner::describeVerdict(StringRef name) const {
  std::string verdict = "'" + name.str() + "': remapped";
  if (plan.guard == Guard::L2)
    verdict +=
        " at run time (more than P = " + std::to_string(plan.concurrent) +
        " programs and the bytes between twin reads > " +
        std::to_string(plan.threshold) + " B)";
  else if (plan.guard == Guard::XCD)
    verdict += " at run time (shared operands' distinct bytes > " +
               std::to_string(plan.threshold) + " B)";
  return verdict;
}
