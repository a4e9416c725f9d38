//===- GridOrderSupport.cpp - mfma-grid-order's builder and figures -------===//
//
// See GridOrderSupport.h.
//
//===----------------------------------------------------------------------===//

#include "GridOrderSupport.h"

#include "TritonMFMA/LDSModel.h"
#include "TritonMFMA/Layouts.h"

#include <cstdio>

using namespace mlir;
using namespace mlir::triton_mfma;

namespace mlir::triton_mfma::grid_order {

FailureOr<Value> materialize(Value v, Emitter &e, IRMapping &map,
                             const ProgramAxes &pa, Block *entry,
                             int depth) {
  if (Value m = map.lookupOrNull(v))
    return m;
  if (depth > 64 || pa.getMask(v) != 0)
    return failure();
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getOwner() == entry ? FailureOr<Value>(v)
                                   : FailureOr<Value>(failure());
  Operation *def = v.getDefiningOp();
  if (def->getNumRegions() != 0 || def->getNumResults() != 1 ||
      !(isInDialect(def, dialect::Arith) || isOp(def, opname::GetNumPrograms)))
    return failure();
  for (Value o : def->getOperands())
    if (failed(materialize(o, e, map, pa, entry, depth + 1)))
      return failure();
  Operation *c = e.b.clone(*def, map);
  e.built.insert(c);
  return c->getResult(0);
}

/// Shared memory a program allocates explicitly (sum of ttg.local_alloc).
int64_t getLocalAllocBytes(Operation *func) {
  int64_t total = 0;
  func->walk([&](Operation *op) {
    if (!isOp(op, opname::LocalAlloc) || op->getNumResults() != 1)
      return;
    auto info = getMemDescInfo(op->getResult(0).getType());
    if (failed(info))
      return;
    auto bytes = getElementBytes(info->elementType);
    int64_t n = 1;
    for (int64_t d : info->allocShape)
      n *= d;
    total += n * bytes.value_or(2);
  });
  return total;
}

std::string humanBytes(int64_t b) {
  char buf[64];
  if (b >= (1 << 20))
    snprintf(buf, sizeof buf, "%.1f MiB", b / double(1 << 20));
  else if (b >= (1 << 10))
    snprintf(buf, sizeof buf, "%.1f KiB", b / double(1 << 10));
  else
    snprintf(buf, sizeof buf, "%lld B", (long long)b);
  return buf;
}

/// Whether `func` calls a function that reads program ids.
bool callsProgramIdReader(ModuleOp module, Operation *func) {
  bool found = false;
  func->walk([&](Operation *op) {
    CallOp call(op);
    if (!call)
      return;
    std::optional<StringRef> callee = call.getCallee();
    for (Operation &f : module.getBody()->getOperations()) {
      auto name = f.getInherentAttr("sym_name");
      auto s = name ? dyn_cast_or_null<StringAttr>(*name) : StringAttr();
      if (callee && s && s.getValue() != *callee)
        continue;
      f.walk([&](Operation *inner) {
        if (isAnyOp(inner, opname::GetProgramId, opname::GetNumPrograms))
          found = true;
      });
    }
  });
  return found;
}

/// Programs per CU for the L2 guard: the programs-per-cu option, else the
/// model's lower bound (L2Model.h) with the kernel's exact LDS.
ProgramsPerCU countPrograms(ModuleOp module, Operation *func,
                            const TargetL2Model &model, int64_t programsPerCU) {
  ProgramsPerCU p;
  p.numWarps = int(lookupNumWarps(module).value_or(4));
  std::string error;
  FailureOr<TargetModel> target = TargetModel::fromModule(module, &error);
  FailureOr<LDSAllocation> alloc =
      succeeded(target) ? allocateLDS(*target, func, &error)
                        : FailureOr<LDSAllocation>(failure());
  if (succeeded(alloc)) {
    p.ldsBytes = alloc->totalBytes;
    p.ldsSource = "LDS model";
  } else {
    p.ldsBytes = getLocalAllocBytes(func);
    p.ldsSource = "local_alloc sum; the LDS model: " + error;
  }
  p.atMost = model.wavesAtMost;
  p.bound = p.atMost ? model.programsAtMost(p.numWarps, p.ldsBytes)
                     : model.residency(p.numWarps, p.ldsBytes);
  p.programs = p.bound.programs;
  if (programsPerCU > 0) {
    p.programs = programsPerCU;
    p.given = true;
  }
  return p;
}

std::string describe(const ProgramsPerCU &p) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (p.given) {
    os << "programs-per-cu=" << p.programs << " (the model's "
       << (p.atMost ? "upper" : "lower") << " bound " << p.bound.programs
       << ")";
    return s;
  }
  if (p.atMost) {
    os << "an upper bound: warp slots allow at most " << p.bound.byRegisters
       << (p.bound.byRegisters == 1 ? " program" : " programs") << " of "
       << p.numWarps << " warps per CU, LDS (" << p.ldsBytes << " B, "
       << (p.ldsSource == "LDS model" ? "LDS model" : "local_alloc sum")
       << ") " << p.bound.byShared << ", workgroup slots " << p.bound.bySlots;
    return s;
  }
  os << "a lower bound: registers allow at least " << p.bound.byRegisters
     << (p.bound.byRegisters == 1 ? " program" : " programs") << " of "
     << p.numWarps << " warps per CU whatever "
     << (p.bound.byRegisters == 1 ? "its" : "their") << " registers, LDS ("
     << p.ldsBytes << " B, "
     << (p.ldsSource == "LDS model" ? "LDS model" : "local_alloc sum") << ") "
     << p.bound.byShared << ", workgroup slots " << p.bound.bySlots;
  return s;
}

static Value computeTripCount(const TripFactor &f, Emitter &e,
                              IRMapping &map, const ProgramAxes &pa,
                              Block *entry, int64_t defaultTripCount) {
  if (ForOp loop{f.loop}) {
    FailureOr<Value> lb =
        materialize(loop.getLowerBound(), e, map, pa, entry);
    FailureOr<Value> ub =
        succeeded(lb) ? materialize(loop.getUpperBound(), e, map, pa, entry)
                      : FailureOr<Value>(failure());
    FailureOr<Value> step =
        succeeded(ub) ? materialize(loop.getStep(), e, map, pa, entry)
                      : FailureOr<Value>(failure());
    if (succeeded(step) && (*lb).getType().isInteger(32)) {
      Value range = e.sub(*ub, *lb);
      std::optional<int64_t> s = getConstantInt(loop.getStep());
      Value n = (s && *s == 1)
                    ? range
                    : e.div(e.add(range, e.sub(*step, e.c32(1))), *step);
      // (No clamp at 0: an empty loop's negative count only lowers the
      // streamed bytes, toward keeping the order, and the guard is one
      // dependent op shorter.)
      return e.widen(n);
    }
  }
  return e.constant(defaultTripCount);
}

/// i64 trip count of a loop: from its bounds cloned to the top of the
/// kernel, else its constant, else the default.
Value tripCount(const TripFactor &f, Emitter &e, IRMapping &map,
                const ProgramAxes &pa, Block *entry, int64_t defaultTripCount) {
  if (f.constant)
    return e.constant(*f.constant);
  if (Value cached = e.tripCounts.lookup(f.loop))
    return cached;
  return e.tripCounts[f.loop] =
             computeTripCount(f, e, map, pa, entry, defaultTripCount);
}

} // namespace mlir::triton_mfma::grid_order
