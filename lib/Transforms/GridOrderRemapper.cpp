//===- GridOrderRemapper.cpp - mfma-grid-order: the rewrite ---------------===//
//
// GridOrderRemapper.h: step 4 of mfma-grid-order.
//
//===----------------------------------------------------------------------===//

#include "GridOrderRemapper.h"

#include "TritonMFMA/GenericIR.h"

#include "llvm/Support/Debug.h"
#include "llvm/Support/DebugLog.h"

#include <numeric>

#define DEBUG_TYPE "mfma-grid-order"

using namespace mlir;
using namespace mlir::triton_mfma;
using namespace mlir::triton_mfma::grid_order;

namespace {

// The smallest byte unit for a 32-bit guard: values stay exact below
// 2^31 x 256 B = 512 GiB.
constexpr int64_t kMinGuardUnit = 256;

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

} // namespace

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
