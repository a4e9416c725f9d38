//===- SplitEpilogueCvt.cpp - mfma-split-epilogue-cvt ---------------------===//
//
// Splits convert_layouts whose LDS scratch does not fit a budget into chains
// of converts through intermediate layouts, each step within budget.
//
// Why before Triton's allocation (insertion point llir_begin): Triton sizes
// each convert's scratch and lays all buffers out in AllocateAMDGPUSharedMemory
// at the start of make_llir; what it allocates for is fixed by the converts
// present then. Splitting earlier (in make_ttgir) would be undone by
// remove_layout_conversions; later, the sizes are already decided. Triton 3.9
// has no pass of its own here (OptimizeAMDLDSUsage no longer runs in
// make_llir), so a convert over the limit fails to compile and one under it
// still costs occupancy.
//
// Algorithm, per tt.func:
//  1. Run the LDS model (LDSModel.h): every convert's path and scratch, the
//     explicit buffers live at each convert, the function's total. Within
//     budget: nothing to do. Model failure: remark, IR unchanged.
//  2. For each convert through LDS with scratch + live explicit bytes over
//     the budget (`available` = budget - live explicit bytes), search chains
//     src -> I1 [-> I2] -> dst over candidate layouts: src-like and dst-like
//     (the same layout with each warp factorization) and blocked layouts
//     (sizePerThread up to 8 per dimension, every threadsPerWarp and
//     warpsPerCTA factorization, both orders) no larger than the tensor. A
//     step fits if it needs no LDS (register permutation, warp shuffle) or
//     its scratch <= available. Rank fitting chains by LDS traffic (bytes
//     written + read through LDS over all steps), then by number of steps.
//     Two-step chains over all candidates; three-step chains over the 32
//     cheapest first and last steps.
//  3. Apply every plan to a clone of the function and rerun the model's full
//     allocation there. If the total fits, the clone replaces the function;
//     otherwise (a convert has no fitting chain, explicit buffers alone are
//     over budget, fragmentation) nothing changes and a remark says why.
//
// Code: runOnFunction does step 1; planSplits step 2 (planConvert per convert
// over budget: findPlan over candidateLayouts, and its remark); applyIfItFits
// step 3 (applyPlan on the clone).
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/GenericIR.h"
#include "TritonMFMA/LDSModel.h"
#include "TritonMFMA/Layouts.h"
#include "TritonMFMA/PassOutcome.h"
#include "TritonMFMA/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Debug.h"

#include <algorithm>
#include <limits>
#include <vector>

#define DEBUG_TYPE "mfma-split-epilogue-cvt"

namespace mlir::triton_mfma {
#define GEN_PASS_DEF_MFMASPLITEPILOGUECVT
#include "TritonMFMA/Passes.h.inc"
} // namespace mlir::triton_mfma

using namespace mlir;
using namespace mlir::triton_mfma;

namespace {

/// All ways to write `total` (a power of two) as a product of `rank` powers
/// of two, e.g. 4 -> [4,1], [2,2], [1,4].
SmallVector<SmallVector<unsigned>> factorizations(unsigned total,
                                                  unsigned rank) {
  SmallVector<SmallVector<unsigned>> out;
  if (rank == 1) {
    out.push_back({total});
    return out;
  }
  for (unsigned first = 1; first <= total; first *= 2)
    for (SmallVector<unsigned> rest : factorizations(total / first, rank - 1)) {
      rest.insert(rest.begin(), first);
      out.push_back(rest);
    }
  return out;
}

struct Candidate {
  LayoutPtr layout;
  GF2Layout ll;
};

/// Intermediate layouts for a convert of a tensor of `shape` from `src` to
/// `dst` (see the file comment).
std::vector<Candidate> candidateLayouts(const TargetModel &target,
                                        ArrayRef<int64_t> shape,
                                        const Layout &src, const Layout &dst,
                                        unsigned numWarps) {
  unsigned rank = shape.size();
  SmallVector<LayoutPtr> layouts;
  auto warpVariants = [&](const Layout &l) {
    for (const SmallVector<unsigned> &w : factorizations(numWarps, rank)) {
      if (auto *b = dyn_cast<BlockedLayout>(&l)) {
        auto c = std::make_shared<BlockedLayout>(*b);
        c->warpsPerCTA = w;
        layouts.push_back(c);
      } else if (auto *m = dyn_cast<AMDMfmaLayout>(&l)) {
        auto c = std::make_shared<AMDMfmaLayout>(*m);
        c->warpsPerCTA = w;
        layouts.push_back(c);
      }
    }
  };
  warpVariants(src); // src-like
  warpVariants(dst); // dst-like
  SmallVector<unsigned> order(rank);
  for (unsigned i = 0; i < rank; ++i)
    order[i] = rank - 1 - i;
  SmallVector<SmallVector<unsigned>> orders = {order};
  if (rank == 2)
    orders.push_back({0, 1});
  // Blocked candidates for rank 1 and 2 only (epilogue tiles).
  SmallVector<SmallVector<unsigned>> spts;
  for (unsigned a = 1; a <= 8; a *= 2)
    for (unsigned b = 1; b <= 8; b *= 2)
      if (rank == 2)
        spts.push_back({a, b});
      else if (rank == 1 && b == 1)
        spts.push_back({a});
  for (const SmallVector<unsigned> &spt : spts)
    for (const SmallVector<unsigned> &tpw :
         factorizations(target.threadsPerWarp, rank))
      for (const SmallVector<unsigned> &wpc : factorizations(numWarps, rank)) {
        bool fits = true;
        for (unsigned d = 0; d < rank; ++d)
          fits &= int64_t(spt[d]) * tpw[d] * wpc[d] <= shape[d];
        if (!fits)
          continue;
        for (const SmallVector<unsigned> &ord : orders) {
          auto b = std::make_shared<BlockedLayout>();
          b->sizePerThread = spt;
          b->threadsPerWarp = tpw;
          b->warpsPerCTA = wpc;
          b->order = ord;
          layouts.push_back(b);
        }
      }

  FailureOr<GF2Layout> s = toGF2Layout(src, shape, target.threadsPerWarp);
  FailureOr<GF2Layout> d = toGF2Layout(dst, shape, target.threadsPerWarp);
  std::vector<Candidate> out;
  for (const LayoutPtr &l : layouts) {
    FailureOr<GF2Layout> ll = toGF2Layout(*l, shape, target.threadsPerWarp);
    if (failed(ll) || (succeeded(s) && *ll == *s) ||
        (succeeded(d) && *ll == *d))
      continue;
    if (llvm::any_of(out, [&](const Candidate &c) { return c.ll == *ll; }))
      continue; // the same map under another name
    out.push_back({l, *ll});
  }
  return out;
}

/// A chain of converts src -> intermediates... -> dst.
struct Plan {
  SmallVector<LayoutPtr> intermediates;
  SmallVector<int64_t> stepScratch;
  int64_t traffic = 0;
  bool better(const Plan &o) const {
    if (traffic != o.traffic)
      return traffic < o.traffic;
    return intermediates.size() < o.intermediates.size();
  }
};

struct Search {
  const TargetModel &target;
  unsigned bitwidth;
  int64_t available;
  /// Best over-budget step seen, to explain failures.
  int64_t smallestOverBudget = std::numeric_limits<int64_t>::max();

  /// The step's cost if it fits the budget.
  std::optional<ConvertCost> step(const GF2Layout &a, const GF2Layout &b) {
    FailureOr<ConvertCost> c = analyzeConvert(target, a, b, bitwidth);
    if (failed(c))
      return std::nullopt;
    if (c->path == ConvertPath::LDS && c->scratchBytes > available) {
      smallestOverBudget = std::min(smallestOverBudget, c->scratchBytes);
      return std::nullopt;
    }
    return *c;
  }
};

int64_t trafficOf(const ConvertCost &c) {
  return c.path == ConvertPath::LDS ? c.ldsTraffic : 0;
}

std::optional<Plan> findPlan(const TargetModel &target, ArrayRef<int64_t> shape,
                             unsigned bitwidth, const Layout &src,
                             const Layout &dst, unsigned numWarps,
                             int64_t available, unsigned maxSteps,
                             int64_t &smallestOverBudget) {
  if (shape.size() > 4)
    return std::nullopt; // candidate warp splits grow with the rank
  FailureOr<GF2Layout> s = toGF2Layout(src, shape, target.threadsPerWarp);
  FailureOr<GF2Layout> d = toGF2Layout(dst, shape, target.threadsPerWarp);
  if (failed(s) || failed(d))
    return std::nullopt;
  std::vector<Candidate> cands =
      candidateLayouts(target, shape, src, dst, numWarps);
  Search search{target, bitwidth, available};
  std::vector<std::optional<ConvertCost>> first, last;
  for (const Candidate &c : cands) {
    first.push_back(search.step(*s, c.ll));
    last.push_back(search.step(c.ll, *d));
  }
  std::optional<Plan> best;
  auto consider = [&](Plan p) {
    if (!best || p.better(*best))
      best = std::move(p);
  };
  auto scratchOf = [](const ConvertCost &c) {
    return c.path == ConvertPath::LDS ? c.scratchBytes : int64_t(0);
  };
  for (size_t i = 0; i < cands.size(); ++i)
    if (first[i] && last[i])
      consider({{cands[i].layout},
                {scratchOf(*first[i]), scratchOf(*last[i])},
                trafficOf(*first[i]) + trafficOf(*last[i])});
  if (maxSteps >= 3) {
    // Three steps over the cheapest first and last steps.
    SmallVector<size_t> firsts, lasts;
    for (size_t i = 0; i < cands.size(); ++i) {
      if (first[i])
        firsts.push_back(i);
      if (last[i])
        lasts.push_back(i);
    }
    auto byTraffic = [&](std::vector<std::optional<ConvertCost>> &costs) {
      return [&costs](size_t a, size_t b) {
        return trafficOf(*costs[a]) < trafficOf(*costs[b]);
      };
    };
    llvm::stable_sort(firsts, byTraffic(first));
    llvm::stable_sort(lasts, byTraffic(last));
    firsts.resize(std::min<size_t>(firsts.size(), 32));
    lasts.resize(std::min<size_t>(lasts.size(), 32));
    for (size_t i : firsts)
      for (size_t j : lasts) {
        if (i == j)
          continue;
        std::optional<ConvertCost> mid = search.step(cands[i].ll, cands[j].ll);
        if (!mid)
          continue;
        consider(
            {{cands[i].layout, cands[j].layout},
             {scratchOf(*first[i]), scratchOf(*mid), scratchOf(*last[j])},
             trafficOf(*first[i]) + trafficOf(*mid) + trafficOf(*last[j])});
      }
  }
  smallestOverBudget = search.smallestOverBudget;
  return best;
}

/// Replaces `cvt` by converts through `intermediates`.
void applyPlan(Operation *cvt, const Plan &plan) {
  OpBuilder b(cvt);
  Value v = cvt->getOperand(0);
  auto srcType = cast<RankedTensorType>(v.getType());
  auto make = [&](Type resultType) {
    OperationState st(cvt->getLoc(), cvt->getName());
    st.addOperands(v);
    st.addTypes(resultType);
    st.addAttributes(cvt->getAttrs());
    return b.create(st)->getResult(0);
  };
  for (const LayoutPtr &l : plan.intermediates)
    v = make(getTensorTypeWithLayout(srcType, *l));
  v = make(cvt->getResult(0).getType());
  cvt->getResult(0).replaceAllUsesWith(v);
  cvt->erase();
}

SmallVector<Operation *> convertsOf(Operation *func) {
  SmallVector<Operation *> out;
  func->walk([&](Operation *op) {
    if (isOp(op, opname::ConvertLayout))
      out.push_back(op);
  });
  return out;
}

struct MFMASplitEpilogueCvt final
    : mlir::triton_mfma::impl::MFMASplitEpilogueCvtBase<MFMASplitEpilogueCvt> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // A bad option is an error whatever the input: checked before anything
    // the module could make the pass skip.
    if (ldsLimit < 0) {
      module.emitError() << "mfma-split-epilogue-cvt: lds-limit must be >= 0, "
                            "not "
                         << int64_t(ldsLimit);
      return signalPassFailure();
    }
    PassOutcomeScope outcome(*this, "no function");
    std::string error;
    FailureOr<TargetModel> target = TargetModel::fromModule(module, &error);
    if (failed(target)) {
      module.emitRemark() << "mfma-split-epilogue-cvt: " << error
                          << "; IR unchanged";
      outcome.unchanged(error);
      return markAllAnalysesPreserved();
    }
    int64_t budget = ldsLimit > 0 ? int64_t(ldsLimit) : target->ldsBytes;
    unsigned numWarps = lookupNumWarps(module).value_or(4);
    if (!llvm::isPowerOf2_32(numWarps) || numWarps > 64) {
      module.emitRemark() << "mfma-split-epilogue-cvt: " << attrname::NumWarps
                          << " = " << module->getAttr(attrname::NumWarps)
                          << " is not modelled (a power of two up to 64); IR "
                             "unchanged";
      outcome.unchanged("num-warps not modelled");
      return markAllAnalysesPreserved();
    }
    verdicts.clear();
    for (Operation *func : getFunctions(module))
      runOnFunction(*target, func, budget, numWarps);
    std::string reason;
    bool changed = false;
    for (auto &[verdict, split] : verdicts) {
      reason += (reason.empty() ? "" : "; ") + verdict;
      changed |= split;
    }
    if (changed)
      outcome.applied(reason);
    else if (!verdicts.empty())
      outcome.unchanged(reason);
  }

  /// Per function: what happened, and whether it was split.
  SmallVector<std::pair<std::string, bool>> verdicts;

  void addVerdict(Operation *func, bool split, const Twine &what) {
    verdicts.emplace_back(("'" + FuncOp(func).getName() + "': " + what).str(),
                          split);
  }

  /// Step 2 for one convert whose scratch is over `available` (= budget -
  /// `live` explicit bytes): the best chain that fits, with a remark either
  /// way.
  std::optional<Plan> planConvert(const TargetModel &target, Operation *cvt,
                                  const ConvertCost &cost, int64_t live,
                                  int64_t budget, unsigned numWarps) {
    int64_t available = budget - live;
    unsigned steps = std::max(2u, unsigned(maxSteps));
    FailureOr<TensorInfo> src = getTensorInfo(cvt->getOperand(0).getType());
    FailureOr<TensorInfo> dst = getTensorInfo(cvt->getResult(0).getType());
    int64_t smallest = 0;
    std::optional<Plan> plan;
    if (available > 0)
      plan = findPlan(target, src->shape, cost.bitwidth, *src->layout,
                      *dst->layout, numWarps, available, steps, smallest);
    InFlightDiagnostic r = cvt->emitRemark();
    if (!plan) {
      r << "convert_layout needs " << cost.scratchBytes
        << " B of LDS scratch with " << live
        << " B of explicit buffers live, over the budget of " << budget
        << " B; ";
      if (available <= 0)
        r << "the explicit buffers alone use the budget";
      else {
        r << "no chain of at most " << steps
          << " converts through the candidate layouts keeps every step "
             "within "
          << available << " B";
        if (smallest != std::numeric_limits<int64_t>::max())
          r << " (smallest step over it: " << smallest << " B)";
      }
      return std::nullopt;
    }
    r << "split convert_layout (" << cost.scratchBytes << " B scratch + "
      << live << " B live explicit > budget " << budget << " B) into "
      << plan->intermediates.size() + 1 << " converts via";
    for (const LayoutPtr &l : plan->intermediates)
      r << " [" << l->getDescription() << "]";
    r << "; step scratch";
    for (int64_t s : plan->stepScratch)
      r << " " << s;
    r << " B, LDS traffic " << plan->traffic << " B (was " << cost.ldsTraffic
      << " B)";
    return plan;
  }

  /// Step 2 over a function: plans (by convert index) for the converts over
  /// budget; whether any was, and whether every one of them has a plan.
  struct SplitPlans {
    SmallVector<std::pair<size_t, Plan>> plans;
    bool allFit = true, anyOver = false;
  };

  SplitPlans planSplits(const TargetModel &target, Operation *func,
                        const LDSAllocation &alloc, int64_t budget,
                        unsigned numWarps) {
    SplitPlans out;
    std::string error;
    SmallVector<Operation *> converts = convertsOf(func);
    for (auto [idx, cvt] : llvm::enumerate(converts)) {
      FailureOr<ConvertCost> cost = analyzeConvertOp(target, cvt, &error);
      if (failed(cost) || cost->path != ConvertPath::LDS)
        continue;
      int64_t live = alloc.explicitBytesLiveAt(cvt);
      if (cost->scratchBytes <= budget - live)
        continue; // fits: left alone
      out.anyOver = true;
      if (std::optional<Plan> plan =
              planConvert(target, cvt, *cost, live, budget, numWarps))
        out.plans.push_back({idx, std::move(*plan)});
      else
        out.allFit = false;
    }
    return out;
  }

  /// Step 3: the plans applied to a clone of `func`, which replaces it if
  /// the model's whole allocation of the clone is within budget.
  void applyIfItFits(const TargetModel &target, Operation *func,
                     int64_t totalBefore, int64_t budget,
                     ArrayRef<std::pair<size_t, Plan>> plans) {
    Operation *clone = func->clone();
    SmallVector<Operation *> cloneConverts = convertsOf(clone);
    for (auto &[idx, plan] : plans)
      applyPlan(cloneConverts[idx], plan);
    std::string error;
    FailureOr<LDSAllocation> after = allocateLDS(target, clone, &error);
    if (failed(after) || after->totalBytes > budget) {
      func->emitRemark() << "splitting every convert over budget still leaves "
                         << (failed(after) ? int64_t(-1) : after->totalBytes)
                         << " B of LDS, over the budget of " << budget
                         << " B; IR unchanged";
      addVerdict(func, false, "splitting leaves LDS over budget");
      clone->destroy();
      return;
    }
    func->emitRemark() << "LDS total " << totalBefore << " B -> "
                       << after->totalBytes << " B, within budget " << budget
                       << " B (" << plans.size() << " convert_layout split)";
    addVerdict(func, true,
               "LDS " + Twine(totalBefore) + " B -> " +
                   Twine(after->totalBytes) + " B (" + Twine(plans.size()) +
                   " convert_layout split)");
    func->getBlock()->getOperations().insert(Block::iterator(func), clone);
    func->erase();
  }

  void runOnFunction(const TargetModel &target, Operation *func, int64_t budget,
                     unsigned numWarps) {
    std::string error;
    FailureOr<LDSAllocation> alloc = allocateLDS(target, func, &error);
    if (failed(alloc)) {
      func->emitRemark() << "LDS model does not cover this function (" << error
                         << "); IR unchanged";
      addVerdict(func, false,
                 "the LDS model does not cover it (" + error + ")");
      return;
    }
    if (alloc->totalBytes <= budget) {
      func->emitRemark() << "LDS total " << alloc->totalBytes
                         << " B within budget " << budget
                         << " B: no convert_layout to split";
      addVerdict(func, false,
                 "LDS " + Twine(alloc->totalBytes) + " B within budget " +
                     Twine(budget) + " B");
      return;
    }
    SplitPlans split = planSplits(target, func, *alloc, budget, numWarps);
    if (!split.anyOver) {
      func->emitRemark() << "LDS total " << alloc->totalBytes
                         << " B exceeds budget " << budget
                         << " B, but no convert_layout's scratch is over it "
                            "(explicit buffers, or their layout); IR unchanged";
      addVerdict(func, false,
                 "LDS " + Twine(alloc->totalBytes) +
                     " B over budget, but no convert's scratch is");
      return;
    }
    if (!split.allFit) {
      func->emitRemark() << "LDS total " << alloc->totalBytes
                         << " B exceeds budget " << budget
                         << " B and not every convert can be split to fit; "
                            "IR unchanged";
      addVerdict(func, false,
                 "LDS " + Twine(alloc->totalBytes) +
                     " B over budget; not every convert can be split");
      return;
    }
    applyIfItFits(target, func, alloc->totalBytes, budget, split.plans);
  }
};

} // namespace
