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
//     (python/triton_mfma/stages.py) rebuilds the guard with the real
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
//  python/triton_mfma/grid.py reads to answer, for a launch, whether the
//  compiled kernel remaps and why.
//
// Code: MFMAGridOrder::runOnKernel runs these steps in order: ProgramAxes
// (step 1), GridOrderPlanner (checkSafety: 2; readTargetFigures and
// chooseHeavyOperand: 3; decideL2Guard: 5; decideXCDGuard: 6), GridRemapper
// (step 4: hoistProgramIds, readGridSizes, computeRowLengths,
// chooseGuardUnit, buildL2LaunchTest + buildL2BytesTest or buildXCDGuard,
// remapCompleteRows -> computeNewIds,
// redirectUses). Every decline is a remark and a debug line
// (-debug-only=mfma-grid-order).
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/GenericIR.h"
#include "TritonMFMA/L2Model.h"
#include "TritonMFMA/LDSModel.h"
#include "TritonMFMA/Layouts.h"
#include "TritonMFMA/PassOutcome.h"
#include "TritonMFMA/Passes.h"
#include "TritonMFMA/ProgramAxes.h"

#include "GridOrderSupport.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <numeric>

#define DEBUG_TYPE "mfma-grid-order"

namespace mlir::triton_mfma {
#define GEN_PASS_DEF_MFMAGRIDORDER
#include "TritonMFMA/Passes.h.inc"
} // namespace mlir::triton_mfma

using namespace mlir;
using namespace mlir::triton_mfma;
using namespace mlir::triton_mfma::grid_order;

namespace {

// Heavy operand: at least kHeavyNum/kHeavyDen of the largest bytes/program.
constexpr int64_t kHeavyNum = 3, kHeavyDen = 4;
// The smallest byte unit for a 32-bit guard: values stay exact below
// 2^31 x 256 B = 512 GiB.
constexpr int64_t kMinGuardUnit = 256;

/// The run-time condition the remap is taken on, launch-wide.
enum class Guard {
  None, ///< always (mode=on, a compile-time verdict)
  L2,   ///< single L2: stockOrderMisses
  XCD,  ///< multi-XCD: sharedBytesExceedL2
};

StringRef guardName(Guard g) {
  return g == Guard::L2 ? "l2" : g == Guard::XCD ? "xcd" : "none";
}

/// The pass options the analysis and the rewrite read.
struct GridOrderOptions {
  std::string mode;
  unsigned groupSize;
  int64_t l2Bytes;
  unsigned l2EffectivePercent, numCUs, numXCDs, defaultTripCount, programsPerCU;
};

/// What the decision (steps 3, 5, 6) hands the rewrite (step 4).
struct Plan {
  const LoadedOperand *heavy = nullptr;
  DimMask xMask = 0, yMask = 0;
  bool reorder = false; ///< false: hardware order kept (XCD chunks only)
  unsigned numXCDs = 1;
  bool hip = false; ///< the grid size is read from the implicit arguments
  Guard guard = Guard::None;
  int farDim = -1; ///< L2 guard: the dimension H's twins differ in
  int64_t concurrent = 0, threshold = 0;
  ProgramsPerCU perCU;
  /// XCD verdict: the shared heavy operands (indices into the operands).
  SmallVector<unsigned> shared;
  std::optional<int64_t> sharedBytes; ///< their distinct bytes, if constant
};

/// Why a kernel is left alone, where it is.
using Decline = std::optional<std::string>;

/// A term that is another term's prologue: its loops are a strict subset of
/// the other's. Triton's NVIDIA software pipeliner issues the first
/// stages-1 iterations' loads before the loop and keeps the loop at its full
/// trip count, its loads masked off in the last stages-1 iterations, so the
/// loop's term times its trip count is already every byte the program reads
/// (2 + 8 - 2 tiles at 8 trips and 3 stages, 1 tile at 1 trip); counting the
/// prologue too overstated a short loop's bytes up to 3x (split-K decode at
/// 1 trip on cuda:90). The AMD stream pipeliner shortens the loop instead
/// (its trip count already leaves the prologue's iterations out): there
/// every term counts.
bool isPrologue(const LoadedOperand &o, const ByteTerm &t, bool hip) {
  auto within = [](const ByteTerm &a, const ByteTerm &b) {
    return a.loops.size() < b.loops.size() &&
           llvm::all_of(a.loops, [&](const TripFactor &f) {
             return llvm::any_of(b.loops, [&](const TripFactor &g) {
               return g.loop == f.loop;
             });
           });
  };
  return !hip && llvm::any_of(o.terms, [&](const ByteTerm &u) {
    return within(t, u);
  });
}

//===----------------------------------------------------------------------===//
// Steps 2, 3, 5, 6: the per-kernel analysis and decision.
//===----------------------------------------------------------------------===//

/// Decides, from a kernel's ProgramAxes (step 1), whether and how to remap
/// its program ids. Each step returns why the kernel is left alone, if it is.
class GridOrderPlanner {
public:
  GridOrderPlanner(const GridOrderOptions &opts, ModuleOp module,
                   Operation *func, const ProgramAxes &pa)
      : opts(opts), module(module), func(func), pa(pa),
        operands(pa.getOperands()), defTrips(opts.defaultTripCount),
        nDims(pa.getDims().size()), all((DimMask(1) << nDims) - 1) {}

  /// Step 2: programs that communicate, ids already permuted, a callee
  /// reading program ids; in auto mode, atomic result writes; no loads.
  Decline checkSafety();
  /// The target's L2 figures, with the option overrides.
  void readTargetFigures();
  /// Step 3: the heavy operand H the new order is built for, the sharing
  /// (X) and moving (Y) dimensions; declines where no order gains.
  Decline chooseHeavyOperand();
  /// Step 5 (single-L2 targets): in auto mode, the L2 guard's figures.
  Decline decideL2Guard();
  /// Step 6 (multi-XCD targets): whether the XCD remap pays, at compile
  /// time where the shared bytes are constants, else the XCD guard.
  Decline decideXCDGuard();
  /// The remark's account of the heavy operand and its dimensions.
  const std::string &describeHeavy() const { return why; }
  /// The remark's account of the new order and its guard.
  std::string describeOrder() const;
  /// The pass outcome's account of a remap.
  std::string describeVerdict(StringRef name) const;

  const Plan &getPlan() const { return plan; }
  const TargetL2Model &getModel() const { return model; }

private:
  bool isHeavy(const LoadedOperand &o) const {
    return o.estimateBytes(defTrips) * kHeavyDen >= maxBytes * kHeavyNum;
  }
  /// Some dimension that does not move `o` is slower than one that does.
  bool suffers(const LoadedOperand &o) const {
    DimMask sharing = all & ~o.moved;
    for (unsigned r = 0; r < nDims; ++r)
      if (sharing & (DimMask(1) << r))
        for (unsigned s = 0; s < r; ++s)
          if (o.moved & (DimMask(1) << s))
            return true;
    return false;
  }
  std::optional<int64_t> constantSharedBytes() const;

  const GridOrderOptions &opts;
  ModuleOp module;
  Operation *func;
  const ProgramAxes &pa;
  ArrayRef<LoadedOperand> operands;
  int64_t defTrips;
  unsigned nDims;
  DimMask all;
  std::string target;
  TargetL2Model model;
  int64_t maxBytes = 0;
  Plan plan;
  std::string why;         ///< H, its bytes and its dimensions
  std::string sharedNames; ///< the shared heavy operands, for the remarks
};

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

//===----------------------------------------------------------------------===//
// Step 4: the rewrite.
//===----------------------------------------------------------------------===//

/// Emits the remap of a Plan at the top of the kernel and redirects every
/// use of the program ids. The methods are the rewrite's steps, called in
/// this order by run(); sizes and row counts are built where first needed.
class GridRemapper {
public:
  GridRemapper(const ProgramAxes &pa, const Plan &plan,
               const GridOrderOptions &opts)
      : pa(pa), plan(plan), opts(opts), func(pa.getFunc()),
        entry(FuncOp(func).getEntryBlock()), dims(pa.getDims()),
        nDims(dims.size()), operands(pa.getOperands()), b(func->getContext()),
        size(nDims) {}

  /// The rewrite; the byte unit of the guard it built (1 where none or a
  /// 64-bit one), or failure with an error on the kernel.
  FailureOr<int64_t> run() {
    hoistProgramIds();
    readGridSizes();
    if (failed(computeRowLengths()))
      return failure();
    chooseGuardUnit();
    SmallVector<Value> ids;
    // The guards' conditions are marked expected false: block placement
    // then lays the remap out of line, after the path of a launch that keeps
    // its order (the remap code it branched over cost short programs 1-2%).
    auto unlikely = [&](Value cond) { return e->g.expectFalse(cond); };
    if (plan.guard == Guard::L2)
      ids = branch(unlikely(buildL2LaunchTest()), [&] {
        return branch(unlikely(buildL2BytesTest()),
                      [&] { return remapCompleteRows(); });
      });
    else if (plan.guard == Guard::XCD)
      ids = branch(unlikely(buildXCDGuard()),
                   [&] { return remapCompleteRows(); });
    else
      ids = remapCompleteRows();
    redirectUses(ids);
    return unit;
  }

private:
  /// One program-id op per axis, moved to the top in axis order; the
  /// builder after them.
  void hoistProgramIds();
  /// tt.get_num_programs (on hip, the implicit argument) per axis read.
  void readGridSizes();
  /// Phase A, run by every program: the row lengths of split axes (both
  /// branches need them). Nothing here reads a program id.
  LogicalResult computeRowLengths();
  /// The unit the guard counts bytes in, and so its width.
  void chooseGuardUnit();
  /// Step 5: the L2 guard's launch test (more than one wave, twins: the
  /// grid size only), in front of the first branch ...
  Value buildL2LaunchTest();
  /// ... and its bytes test (the arguments' trip counts), in front of the
  /// second, inside the first.
  Value buildL2BytesTest();
  /// Step 6: the XCD guard.
  Value buildXCDGuard();
  /// Phase B, only where the new order is taken: programs past the last
  /// complete row of a split axis keep their ids (a nested branch: the row
  /// divisions are on the remapped path only).
  SmallVector<Value> remapCompleteRows();
  /// The new ids: hardware linear index, XCD chunks, new order, new ids.
  SmallVector<Value> computeNewIds();
  /// L, axis 0 fastest (a split axis counts its complete rows, rows * X
  /// programs, where hi * X + lo is the id itself).
  Value linearIndex();
  /// xcd_chunk(L): contiguous chunks per XCD, ceil/floor sized.
  Value chunkPerXCD(Value lin);
  /// The new coordinates: X fastest grouped G at a time, then Y (or the
  /// hardware order when the plan keeps it).
  SmallVector<Value> reorderCoordinates(Value lin);
  /// Per axis: the id and, for a split axis, hi * X + lo, hi, lo.
  SmallVector<Value> programIdsFrom(ArrayRef<Value> coord);
  /// Every use of the old ids, outside what we built, sees the new ones;
  /// the kernel's own `pid // X`, `pid % X` are replaced.
  void redirectUses(ArrayRef<Value> ids);

  /// scf.if (cond) { then() } else { old ids }, at the insertion point.
  SmallVector<Value> branch(Value cond,
                            function_ref<SmallVector<Value>()> then);
  /// The ids the kernel body reads, per axis: the id and, for a split axis,
  /// `pid // X` and `pid % X`.
  SmallVector<Value> oldIds();
  /// Bytes per program of operand `o` (in units), trip counts computed at
  /// the top.
  Value operandBytes(unsigned o);
  Value getRows(int axis) {
    if (!rows[axis])
      rows[axis] = e->udiv(nprog[axis], divisor[axis]);
    return rows[axis];
  }
  Value getSize(unsigned i) {
    if (size[i])
      return size[i];
    const GridDim &d = dims[i];
    if (d.kind == GridDim::Kind::Whole)
      size[i] = nprog[d.axis];
    else if (d.kind == GridDim::Kind::Lo)
      size[i] = divisor[d.axis];
    else
      size[i] = e->max(getRows(d.axis), one);
    return size[i];
  }
  /// Product of the sizes of the dimensions in `mask` (1 if none).
  Value product(DimMask mask) {
    Value p;
    for (unsigned i = 0; i < nDims; ++i)
      if (mask & (DimMask(1) << i))
        p = p ? e->mul(p, getSize(i)) : getSize(i);
    return p ? p : one;
  }
  /// Mixed-radix decomposition of `v` over the dimensions in `mask`.
  void decompose(Value v, DimMask mask, SmallVectorImpl<Value> &coord) {
    SmallVector<unsigned> idx;
    for (unsigned i = 0; i < nDims; ++i)
      if (mask & (DimMask(1) << i))
        idx.push_back(i);
    for (auto [k, i] : llvm::enumerate(idx)) {
      if (k + 1 == idx.size()) {
        coord[i] = v;
      } else {
        coord[i] = e->urem(v, getSize(i));
        v = e->udiv(v, getSize(i));
      }
    }
  }

  const ProgramAxes &pa;
  const Plan &plan;
  const GridOrderOptions &opts;
  Operation *func;
  Block *entry;
  ArrayRef<GridDim> dims;
  unsigned nDims;
  ArrayRef<LoadedOperand> operands;
  OpBuilder b;
  std::optional<Emitter> e;
  IRMapping map;
  Value pid[3], nprog[3], divisor[3], rows[3];
  SmallVector<Value> size;
  Value one;
  SmallVector<Type> idTypes;
  int64_t unit = 0;
  Operation *outermostIf = nullptr;
};

void GridRemapper::hoistProgramIds() {
  for (int a = 0; a < 3; ++a) {
    ArrayRef<Operation *> ops = pa.getProgramIdOps(a);
    if (ops.empty())
      continue;
    ops.front()->moveBefore(entry, entry->begin());
    pid[a] = ops.front()->getResult(0);
    for (Operation *other : ops.drop_front()) {
      other->getResult(0).replaceAllUsesWith(pid[a]);
      other->erase();
    }
  }
  Operation *firstPid = nullptr;
  for (int a = 0; a < 3 && !firstPid; ++a)
    if (pid[a])
      firstPid = pid[a].getDefiningOp();
  for (int a = 2; a >= 0; --a) // axis order at the top: 0, 1, 2
    if (pid[a])
      pid[a].getDefiningOp()->moveBefore(entry, entry->begin());
  Operation *lastPid = nullptr;
  for (int a = 0; a < 3; ++a)
    if (pid[a])
      lastPid = pid[a].getDefiningOp();
  b.setInsertionPointAfter(lastPid);
  e.emplace(b, firstPid->getLoc(), plan.hip);
}

void GridRemapper::readGridSizes() {
  for (int a = 0; a < 3; ++a)
    if (pid[a])
      nprog[a] = e->numPrograms(a);
  e->constantsEnd = b.getInsertionPoint()->getPrevNode();
}

LogicalResult GridRemapper::computeRowLengths() {
  one = e->c32(1);
  for (const GridDim &d : dims) {
    if (d.kind == GridDim::Kind::Whole || divisor[d.axis])
      continue;
    FailureOr<Value> x = materialize(d.divisor, *e, map, pa, entry);
    if (failed(x)) {
      LDBG() << "cannot compute the row length of split axis " << d.axis;
      func->emitError() << "mfma-grid-order: cannot compute the row "
                           "length of split axis "
                        << d.axis << " at the top of the kernel";
      return failure();
    }
    divisor[d.axis] = e->max(*x, one);
    e->tag(divisor[d.axis], "divisor:axis" + std::to_string(d.axis));
  }
  for (int a = 0; a < 3; ++a)
    if (pid[a])
      idTypes.append(divisor[a] ? 3 : 1, pid[a].getType());
  return success();
}

// The guard counts bytes in units of `unit` (the gcd of the byte counts it
// adds up) and computes in 32 bits where that unit is large enough: every
// value stays exact below 2^31 units (>= 2^31 x kMinGuardUnit bytes
// streamed, far beyond any launch), and the guard, which every program runs
// before its first load, is half the instructions of the 64-bit one. Else
// 64 bits, in bytes.
void GridRemapper::chooseGuardUnit() {
  auto addUnit = [&](unsigned o) {
    for (const ByteTerm &t : operands[o].terms)
      if (t.bytes > 0 && !isPrologue(operands[o], t, plan.hip))
        unit = std::gcd(unit, t.bytes);
  };
  if (plan.guard == Guard::L2)
    for (unsigned o = 0; o < operands.size(); ++o)
      addUnit(o);
  else
    for (unsigned o : plan.shared)
      addUnit(o);
  if (unit < kMinGuardUnit)
    unit = 1;
  e->narrow = unit > 1;
}

Value GridRemapper::operandBytes(unsigned o) {
  Value bytes = e->constant(0);
  for (const ByteTerm &t : operands[o].terms) {
    if (isPrologue(operands[o], t, plan.hip))
      continue;
    Value term = e->constant(t.bytes / unit);
    for (const TripFactor &f : t.loops)
      term =
          e->mul(term, tripCount(f, *e, map, pa, entry, opts.defaultTripCount));
    bytes = e->add(bytes, term);
  }
  return bytes;
}

Value GridRemapper::buildL2LaunchTest() {
  // Twins exist where more than one program lies along the far dimension;
  // for the slow part of a split axis that is a grid longer than one row (a
  // partial second row shares too), tested without the division the branch
  // keeps behind it.
  const GridDim &far = dims[plan.farDim];
  Value twins =
      far.kind == GridDim::Kind::Hi
          ? e->greater(e->widen(nprog[far.axis]), e->widen(divisor[far.axis]))
          : e->greater(e->widen(getSize(plan.farDim)), e->constant(1));
  // The whole grid (the remap itself covers the complete rows of split
  // axes; counting the last row too is what "more than one wave" means).
  Value total = e->constant(1);
  for (int a = 0; a < 3; ++a)
    if (pid[a])
      total = e->mul(total, e->widen(nprog[a]));
  Value waves;
  Value launch =
      stockOrderLaunchTest<Emitter>(*e, total, plan.concurrent, twins, &waves);
  e->tag(total, "total_programs");
  e->tag(twins, "test:twins");
  e->tag(waves, "test:waves");
  return launch;
}

Value GridRemapper::buildL2BytesTest() {
  SmallVector<Value> sizes(nDims);
  for (int i = 0; i < plan.farDim; ++i)
    sizes[i] = getSize(i);
  auto [streamed, exceeds] = stockOrderBytesTest<Emitter>(
      *e, sizes, plan.farDim, operands.size(),
      [&](unsigned o) { return operandBytes(o); },
      [&](unsigned o) { return operands[o].moved; }, plan.threshold / unit);
  e->tag(streamed, "streamed_bytes");
  e->tag(exceeds, "test:l2");
  return exceeds;
}

Value GridRemapper::buildXCDGuard() {
  SmallVector<Value> sizes(nDims);
  for (unsigned o : plan.shared)
    for (unsigned i = 0; i < nDims; ++i)
      if (operands[o].moved & (DimMask(1) << i))
        sizes[i] = getSize(i);
  SharedFootprint<Value> f = sharedBytesExceedL2<Emitter>(
      *e, sizes, plan.shared.size(),
      [&](unsigned k) { return operandBytes(plan.shared[k]); },
      [&](unsigned k) { return operands[plan.shared[k]].moved; },
      plan.threshold / unit);
  e->tag(f.distinctBytes, "distinct_bytes");
  e->tag(f.exceeds, "test:xcd");
  return f.exceeds;
}

SmallVector<Value> GridRemapper::remapCompleteRows() {
  Value inSub;
  for (int a = 0; a < 3; ++a) {
    if (!divisor[a])
      continue;
    Value full = e->mul(getRows(a), divisor[a]);
    Value in = e->cmp(SLT, pid[a], full);
    inSub = inSub ? e->andi(inSub, in) : in;
  }
  return inSub ? branch(inSub, [&] { return computeNewIds(); })
               : computeNewIds();
}

SmallVector<Value> GridRemapper::computeNewIds() {
  Value lin = linearIndex();
  if (plan.numXCDs > 1)
    lin = chunkPerXCD(lin);
  SmallVector<Value> coord = reorderCoordinates(lin);
  return programIdsFrom(coord);
}

Value GridRemapper::linearIndex() {
  Value lin;
  for (int a = 2; a >= 0; --a) {
    if (!pid[a])
      continue;
    if (!lin) {
      lin = pid[a];
      continue;
    }
    Value axisSize = nprog[a];
    if (divisor[a])
      for (unsigned i = 0; i < nDims; ++i)
        if (dims[i].axis == a && dims[i].kind == GridDim::Kind::Hi)
          axisSize = e->mul(getSize(i), divisor[a]);
    lin = e->add(e->mul(lin, axisSize), pid[a]);
  }
  return lin;
}

Value GridRemapper::chunkPerXCD(Value lin) {
  Value total = getSize(0);
  for (unsigned i = 1; i < nDims; ++i)
    total = e->mul(total, getSize(i));
  Value nx = e->c32(plan.numXCDs);
  Value perXcd = e->udiv(e->add(total, e->c32(plan.numXCDs - 1)), nx);
  Value tall = e->urem(total, nx);
  tall = e->select(e->cmp(EQ, tall, e->c32(0)), nx, tall);
  Value xcd = e->urem(lin, nx);
  Value local = e->udiv(lin, nx);
  Value inTall = e->add(e->mul(xcd, perXcd), local);
  // (Operands are built one statement at a time: C++ leaves the order of
  // argument evaluation open, and the IR should not depend on it.)
  Value tallEnd = e->mul(tall, perXcd);
  Value shortIdx = e->sub(xcd, tall);
  Value shortLen = e->sub(perXcd, one);
  Value shortStart = e->add(tallEnd, e->mul(shortIdx, shortLen));
  Value inShort = e->add(shortStart, local);
  return e->select(e->cmp(SLT, xcd, tall), inTall, inShort);
}

SmallVector<Value> GridRemapper::reorderCoordinates(Value lin) {
  SmallVector<Value> coord(nDims);
  if (!plan.reorder) {
    decompose(lin, (DimMask(1) << nDims) - 1, coord);
    return coord;
  }
  Value sx = product(plan.xMask), sy = product(plan.yMask);
  Value x, y;
  if (opts.groupSize > 0) {
    // grp = L / (G*SY); first = grp*G; gsz = min(SX - first, G);
    // r = L - grp*G*SY; x = first + r % gsz; y = r / gsz.
    Value g = e->c32(opts.groupSize);
    Value span = e->mul(g, sy);
    Value group = e->udiv(lin, span);
    Value first = e->mul(group, g);
    Value width = e->min(e->sub(sx, first), g);
    Value r = e->sub(lin, e->mul(group, span));
    x = e->add(first, e->urem(r, width));
    y = e->udiv(r, width);
  } else {
    x = e->urem(lin, sx);
    y = e->udiv(lin, sx);
  }
  decompose(x, plan.xMask, coord);
  decompose(y, plan.yMask, coord);
  return coord;
}

SmallVector<Value> GridRemapper::programIdsFrom(ArrayRef<Value> coord) {
  SmallVector<Value> ids;
  for (int a = 0; a < 3; ++a) {
    if (!pid[a])
      continue;
    Value lo, hi, whole;
    for (unsigned i = 0; i < nDims; ++i) {
      if (dims[i].axis != a)
        continue;
      if (dims[i].kind == GridDim::Kind::Whole)
        whole = coord[i];
      else if (dims[i].kind == GridDim::Kind::Lo)
        lo = coord[i];
      else
        hi = coord[i];
    }
    if (whole) {
      ids.push_back(whole);
    } else {
      Value hiX = e->mul(hi, divisor[a]);
      ids.push_back(e->add(hiX, lo));
      ids.push_back(hi);
      ids.push_back(lo);
    }
  }
  return ids;
}

void GridRemapper::redirectUses(ArrayRef<Value> ids) {
  auto notOurs = [&](OpOperand &use) {
    Operation *owner = use.getOwner();
    return !e->built.contains(owner) &&
           !(outermostIf && outermostIf->isProperAncestor(owner));
  };
  unsigned k = 0;
  for (int a = 0; a < 3; ++a) {
    if (!pid[a])
      continue;
    Value id = ids[k++];
    if (divisor[a]) {
      Value hi = ids[k++], lo = ids[k++];
      for (auto [op, kind] : pa.getSplitOps(a)) {
        op->getResult(0).replaceAllUsesWith(kind == GridDim::Kind::Hi ? hi
                                                                      : lo);
        op->erase();
      }
    }
    pid[a].replaceUsesWithIf(id, notOurs);
  }
}

SmallVector<Value>
GridRemapper::branch(Value cond, function_ref<SmallVector<Value>()> then) {
  Operation *ifOp = e->g.ifOp(cond, idTypes);
  if (!outermostIf)
    outermostIf = ifOp;
  Block *thenBlock = new Block();
  ifOp->getRegion(0).push_back(thenBlock);
  Block *elseBlock = new Block();
  ifOp->getRegion(1).push_back(elseBlock);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(thenBlock);
  e->built.insert(e->yield(then()));
  b.setInsertionPointToEnd(elseBlock);
  e->built.insert(e->yield(oldIds()));
  return SmallVector<Value>(ifOp->result_begin(), ifOp->result_end());
}

SmallVector<Value> GridRemapper::oldIds() {
  SmallVector<Value> ids;
  for (int a = 0; a < 3; ++a) {
    if (!pid[a])
      continue;
    ids.push_back(pid[a]);
    if (divisor[a]) {
      ids.push_back(e->div(pid[a], divisor[a]));
      ids.push_back(e->rem(pid[a], divisor[a]));
    }
  }
  return ids;
}

/// `tmfma.grid_order` on the remapped kernel: what its guard is and the
/// figures it was built with (python/triton_mfma/grid.py).
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
