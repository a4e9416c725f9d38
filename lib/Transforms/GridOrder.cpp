//===- GridOrder.cpp - mfma-grid-order ------------------------------------===//
//
// Remaps program ids so that programs which read the same operand tiles run
// at about the same time (and, on multi-XCD GPUs, on the same XCD), without
// touching the launch grid.
//
// Algorithm, per public tt.func:
//  1. ProgramAxes: the grid dimensions the kernel reads (axes; a row-major
//     split `pid // X`, `pid % X` gives two), and for each loaded tensor the
//     dimensions that move its addresses and its bytes per program.
//  2. Safety: leave the kernel alone if it already permutes its program ids
//     (scalar div/rem beyond the split, select on a program id), if programs
//     may communicate (atomic_cas, atomics whose result is used: reordering
//     could deadlock or change results), or if it calls a function that
//     reads program ids.
//  3. Decision: heavy operands = at least 3/4 of the largest estimated bytes
//     per program. An operand H "suffers" when some dimension that does not
//     move it (its twins differ only there) is slower than one that moves it.
//     If no heavy operand is shared: nothing to gain. If none suffers, the
//     hardware order already is the order the pass would choose (every heavy
//     operand's sharing dimensions vary fastest), in every mode: the kernel
//     is left byte-identical, unless the target has several XCDs and the XCD
//     remap pays (step 6). Otherwise the new order puts H's sharing
//     dimensions X fastest, grouped G at a time, then H's moving dimensions Y.
//  4. Rewrite at the top of the kernel:
//       L   = c0 + s0 * (c1 + s1 * (c2 + ...))      hardware order, axis 0
//                                                    fastest (sizes from
//                                                    tt.get_num_programs;
//                                                    on hip, the implicit
//                                                    argument it reads, so
//                                                    that make_llir links no
//                                                    device library)
//       L   = xcd_chunk(L)                           multi-XCD targets only
//       grp = L / (G*SY); first = grp*G; gsz = min(SX - first, G)
//       r   = L - grp*G*SY; x = first + r % gsz; y = r / gsz
//       x, y decomposed over the X and Y dimensions (mixed radix); every use
//       of the old program ids sees the new ones, and for a split axis the
//       kernel's own `pid // X`, `pid % X` are replaced by the new row and
//       column (hi*X + lo for other uses). Exact for every grid: the last
//       group is gsz wide, the XCD chunks are ceil/floor sized, and programs
//       in the incomplete last row of a split axis keep their ids.
//     The remap sits in an `scf.if` whose else branch yields the old ids:
//     on the launch-wide guard (steps 5, 6) when there is one, and inside it
//     on the complete-rows test of split axes, so that a program that keeps
//     its order runs only the guard before the branch (the row divisions
//     are on the remapped path only). The L2 guard is two nested branches:
//     its launch test (grid size only) first, its bytes test (trip counts
//     from the arguments) inside, so a launch of one wave waits for the
//     fewest instructions before its first load.
//  5. auto mode, single-L2 targets: the new ids are selected at run time only
//     when the model says the stock order misses L2 for H (L2Model.h): the
//     grid needs more than one wave (more than P = programs per CU x CUs
//     programs; in one wave all start together and twins read together),
//     and the twin read is d programs later, d = product of the sizes of the
//     dimensions faster than H's first far sharing dimension, with
//       sum over operands of bytes/program x (distinct tiles among those d
//       programs) > effective L2
//     (whatever runs meanwhile, the machine reads those d programs' bytes
//     between the two reads).
//     Programs per CU are a LOWER BOUND at TTGIR, where registers are not
//     allocated: the least of (a) registers: every wave fits its SIMD
//     whatever its registers, so at least SIMDs x (register file / the most
//     registers a wave may have) waves, over the program's warps (CDNA: 4
//     waves per CU, so 1 program of 4 warps; H100/H200: 8 warps), (b) LDS,
//     exact: the kernel's allocation from the LDS model (LDSModel.h, equal
//     to Triton's), and (c) the workgroup slots. The lower bound is the safe
//     direction: a smaller P can only make the guard remap a grid that in
//     fact runs in one wave, where every program is resident at once and the
//     order among them changes nothing in L2: the cost is the index
//     arithmetic. A larger P would decline launches that need the new order
//     (an MI210 split-K decode kernel with 1 workgroup per CU and 192
//     workgroups: see TargetInfo.cpp). `programs-per-cu` gives the real
//     figure where the caller knows it (a compiled kernel's registers).
//     On cuda:90 P is an UPPER bound instead (registers at their fewest:
//     the warp slots; L2Model.h says why); the compiled check
//     (python/triton_mfma/compiler/stages.py) rebuilds the guard with the real
//     figure from ptxas's registers where that is lower.
//     Trip counts come from the loop bounds when they can be computed at the
//     top of the kernel (cloned pure arith on arguments), else the default.
//  6. Multi-XCD targets (workgroups dealt round-robin to XCDs with separate
//     L2s): the XCD remap (and the new order, if H suffers) pays only when
//     the shared heavy operands' distinct bytes exceed one XCD's effective
//     L2 (L2Model.h, sharedBytesExceedL2): otherwise every XCD reads each of
//     their tiles from beyond its L2 at most once in any order. Decided at
//     compile time where the bytes are constants (an operand no grid
//     dimension moves: every program reads all of it, and then no order
//     changes what each XCD reads at all), else by a run-time guard.
//  A remark states the decision and why. A remapped kernel's tt.func gets
//  `tmfma.grid_order` (what the guard is and the figures it was built with)
//  and the guard's values `tmfma.grid_value` tags, which
//  python/triton_mfma/models/grid.py reads to answer, for a launch, whether the
//  compiled kernel remaps and why.
//
// Code: MFMAGridOrder::runOnKernel (this file) runs these steps in order:
// ProgramAxes (step 1), GridOrderPlanner (GridOrderPlanner.h: checkSafety:
// 2; readTargetFigures and chooseHeavyOperand: 3; decideL2Guard: 5;
// decideXCDGuard: 6), GridRemapper (GridOrderRemapper.h, step 4:
// hoistProgramIds, readGridSizes, computeRowLengths, chooseGuardUnit,
// buildL2LaunchTest + buildL2BytesTest or buildXCDGuard, remapCompleteRows
// -> computeNewIds, redirectUses), then recordDecision (here). The builder
// and the slices cloned to the top are GridOrderSupport.h's. Every decline
// is a remark and a debug line (-debug-only=mfma-grid-order).
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/GenericIR.h"
#include "TritonMFMA/L2Model.h"
#include "TritonMFMA/PassOutcome.h"
#include "TritonMFMA/Passes.h"
#include "TritonMFMA/ProgramAxes.h"

#include "GridOrderPlanner.h"
#include "GridOrderRemapper.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "mfma-grid-order"

namespace mlir::triton_mfma {
#define GEN_PASS_DEF_MFMAGRIDORDER
#include "TritonMFMA/Passes.h.inc"
} // namespace mlir::triton_mfma

using namespace mlir;
using namespace mlir::triton_mfma;
using namespace mlir::triton_mfma::grid_order;

namespace {

/// `tmfma.grid_order` on the remapped kernel: what its guard is and the
/// figures it was built with (python/triton_mfma/models/grid.py).
void recordDecision(const ProgramAxes &pa, const Plan &plan,
                    const TargetL2Model &model, StringRef mode,
                    int64_t guardUnit) {
  Operation *func = pa.getFunc();
  Builder b(func->getContext());
  SmallVector<NamedAttribute> a;
  auto add = [&](StringRef key, Attribute v) { a.push_back({key, v}); };
  auto i64 = [&](int64_t v) { return b.getI64IntegerAttr(v); };
  add("mode", b.getStringAttr(mode));
  add("guard", b.getStringAttr(guardName(plan.guard)));
  add("reorder", b.getBoolAttr(plan.reorder));
  add("heavy", b.getStringAttr(plan.heavy->name));
  SmallVector<Attribute> dims;
  for (const GridDim &d : pa.getDims())
    dims.push_back(b.getStringAttr(d.name()));
  add("dims", b.getArrayAttr(dims));
  add("device", b.getStringAttr(model.device));
  add("xcds", i64(plan.numXCDs));
  add("l2_bytes", i64(model.l2Bytes));
  add("l2_effective", b.getF64FloatAttr(model.l2Effective));
  add("threshold", i64(plan.threshold));
  if (plan.guard != Guard::None)
    add("guard_unit", i64(guardUnit));
  if (plan.guard == Guard::L2) {
    const ProgramsPerCU &p = plan.perCU;
    add("far_dim", i64(plan.farDim));
    add("cus", i64(model.cus));
    add("num_warps", i64(p.numWarps));
    add("programs_per_cu", i64(p.programs));
    add("programs_source",
        b.getStringAttr(p.given    ? "programs-per-cu option"
                        : p.atMost ? "upper bound"
                                   : "lower bound"));
    add("programs_limiter", b.getStringAttr(p.bound.limiter));
    add("programs_by_registers", i64(p.bound.byRegisters));
    add("programs_by_lds", i64(p.bound.byShared));
    add("programs_by_slots", i64(p.bound.bySlots));
    add("lds_bytes", i64(p.ldsBytes));
    add("lds_source", b.getStringAttr(p.ldsSource));
    add("concurrent_programs", i64(plan.concurrent));
  }
  if (plan.numXCDs > 1) {
    SmallVector<Attribute> names;
    for (unsigned i : plan.shared)
      names.push_back(b.getStringAttr(pa.getOperands()[i].name));
    add("shared", b.getArrayAttr(names));
    if (plan.sharedBytes)
      add("shared_bytes", i64(*plan.sharedBytes));
  }
  func->setAttr("tmfma.grid_order", b.getDictionaryAttr(a));
}

/// "dims ... (fastest first); loads: ...": what step 1 found, for every
/// remark.
std::string summarize(const ProgramAxes &pa) {
  std::string summary;
  llvm::raw_string_ostream os(summary);
  os << "dims ";
  llvm::interleave(
      pa.getDims(), os, [&](const GridDim &d) { os << d.name(); }, ",");
  os << " (fastest first); loads: ";
  llvm::interleave(
      pa.getOperands(), os,
      [&](const LoadedOperand &o) { os << pa.describe(o); }, "; ");
  return summary;
}

struct MFMAGridOrder final
    : mlir::triton_mfma::impl::MFMAGridOrderBase<MFMAGridOrder> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (StringRef(mode) != "auto" && StringRef(mode) != "on" &&
        StringRef(mode) != "off") {
      LDBG() << "invalid mode '" << mode << "'";
      module.emitError() << "mfma-grid-order: mode must be auto, on or off, "
                            "not '"
                         << mode << "'";
      return signalPassFailure();
    }
    PassOutcomeScope outcome(*this, "no kernel");
    SmallVector<Operation *> kernels;
    for (Operation &op : module.getBody()->getOperations())
      if (FuncOp func{&op}; func && func.isPublicDefinition())
        kernels.push_back(&op);
    verdicts.clear();
    bool remapped = false;
    for (Operation *k : kernels) {
      if (failed(runOnKernel(module, k)))
        return signalPassFailure();
      remapped |= verdicts.back().second;
    }
    std::string reason;
    for (auto &[verdict, changed] : verdicts)
      reason += (reason.empty() ? "" : "; ") + verdict;
    if (remapped)
      outcome.applied(reason);
    else if (!verdicts.empty())
      outcome.unchanged(reason);
  }

  /// Per kernel: "'name': remapped ..." or "'name': unchanged: why", and
  /// whether it was remapped.
  SmallVector<std::pair<std::string, bool>> verdicts;

  GridOrderOptions options() const {
    return {mode,   groupSize, l2Bytes,          l2EffectivePercent,
            numCUs, numXCDs,   defaultTripCount, programsPerCU};
  }

  /// The header's steps for one public tt.func.
  LogicalResult runOnKernel(ModuleOp module, Operation *func) {
    StringRef fname = FuncOp(func).getName();
    std::string name = fname.empty() ? "?" : fname.str();
    auto remark = [&](const Twine &msg) {
      func->emitRemark() << "grid order of '" << name << "': " << msg;
    };
    // 1. ProgramAxes.
    ProgramAxes pa(func);
    if (!pa.readsProgramIds()) {
      LDBG() << "'" << name << "' unchanged: the kernel reads no program id";
      remark("unchanged: the kernel reads no program id");
      verdicts.push_back(
          {"'" + name + "': unchanged: the kernel reads no program id", false});
      return success();
    }
    std::string summary = summarize(pa);
    auto decline = [&](const Twine &why) {
      LDBG() << "'" << name << "' unchanged: " << why;
      remark("unchanged: " + why + " [" + summary + "]");
      verdicts.push_back({("'" + name + "': unchanged: " + why).str(), false});
      return success();
    };
    GridOrderOptions opts = options();
    if (opts.mode == "off")
      return decline("mode=off");
    GridOrderPlanner planner(opts, module, func, pa);
    // 2. Safety.
    if (Decline why = planner.checkSafety())
      return decline(*why);
    // 3. Decision.
    planner.readTargetFigures();
    if (Decline why = planner.chooseHeavyOperand())
      return decline(*why);
    // 5. (single L2) or 6. (multi-XCD): whether, or on what run-time
    // guard, the remap pays.
    const Plan &plan = planner.getPlan();
    if (Decline why = plan.numXCDs == 1 ? planner.decideL2Guard()
                                        : planner.decideXCDGuard())
      return decline(*why);
    std::string how = planner.describeOrder();
    // 4. Rewrite (with the guard of 5 or 6).
    FailureOr<int64_t> guardUnit = GridRemapper(pa, plan, opts).run();
    if (failed(guardUnit)) {
      LDBG() << "'" << name << "': the rewrite failed";
      return failure();
    }
    recordDecision(pa, plan, planner.getModel(), opts.mode, *guardUnit);
    remark("remapped: " + planner.describeHeavy() + "; " + how + " [" +
           summary + "]");
    verdicts.push_back({planner.describeVerdict(name), true});
    return success();
  }
};

} // namespace
