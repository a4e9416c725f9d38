//===- LDSAllocation.cpp - LDS offsets as Triton 3.9 assigns them ---------===//
//
// Part 3 of the LDS model (LDSModel.h): where do buffers go? Explicit
// buffers (local_alloc) live over the liveness of every value aliasing them,
// scratch buffers (LDSModel.cpp: converts, reductions) over their op; offsets
// by Triton's first-fit-then-colour scheme; the total is the largest end.
//
// Code: allocateLDS numbers the operations, then collectBuffers (Triton's
// buffer order), setLiveRanges (computeAliases for the values that may alias
// a local_alloc), and over the buffers, larger first: firstFit, then
// colourApart until no two buffers live at once share bytes.
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/GenericIR.h"
#include "TritonMFMA/LDSModel.h"
#include "TritonMFMA/Layouts.h"

#include "mlir/Analysis/Liveness.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

#include <limits>
#include <map>

using namespace mlir;
using namespace mlir::triton_mfma;

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

namespace {

bool isSharedLocalAlloc(Operation *op) {
  if (!isOp(op, opname::LocalAlloc) || op->getNumResults() != 1)
    return false;
  FailureOr<MemDescInfo> md = getMemDescInfo(op->getResult(0).getType());
  return succeeded(md) && md->memorySpace &&
         md->memorySpace->getKind() == LayoutKind::SharedMemory;
}

FailureOr<int64_t> explicitBytes(Operation *alloc, std::string *error) {
  FailureOr<MemDescInfo> md =
      getMemDescInfo(alloc->getResult(0).getType(), error);
  if (failed(md))
    return failure();
  // Bounded so that no product below overflows.
  constexpr int64_t kMaxElems = int64_t(1) << 40;
  int64_t elems = 1;
  for (int64_t s : md->allocShape) {
    if (s < 0 || (s > 0 && elems > kMaxElems / s)) {
      if (error)
        *error = "local_alloc of more than 2^40 elements";
      return failure();
    }
    elems *= s;
  }
  if (auto *padded = dyn_cast_or_null<PaddedSharedLayout>(md->encoding.get())) {
    // Padding after every `interval` elements.
    int64_t extra = 0;
    for (auto [interval, pad] : llvm::zip(padded->intervals, padded->paddings))
      if (interval > 0)
        extra += (elems / interval) * pad;
    // Triton does not pad after the last interval.
    for (auto [interval, pad] : llvm::zip(padded->intervals, padded->paddings))
      if (interval > 0 && elems % interval == 0 && elems >= int64_t(interval))
        extra -= pad;
    elems += extra;
  }
  unsigned bw = md->elementType ? getLDSBitwidth(md->elementType) : 0;
  if (bw == 0) {
    if (error)
      *error = "local_alloc element type without a known width";
    return failure();
  }
  // Explicit buffers use the plain width (i1 is stored as a byte too).
  return elems * bw / 8;
}

/// The `alignment` of a local_alloc (16 if absent); nullopt unless a power
/// of two up to 2^20.
std::optional<int64_t> allocAlignment(Operation *alloc) {
  int64_t a = LocalAllocOp(alloc).getAlignment().value_or(16);
  if (a <= 0 || a > (int64_t(1) << 20) || !llvm::isPowerOf2_64(uint64_t(a)))
    return std::nullopt;
  return a;
}

/// Which local_allocs each value may alias: views of an alloc, and values
/// flowing through scf.for / scf.if / scf.while (matched by name: the scf
/// dialect is unregistered here).
DenseMap<Value, llvm::SmallSetVector<Operation *, 2>>
computeAliases(Operation *func) {
  DenseMap<Value, llvm::SmallSetVector<Operation *, 2>> alias;
  bool changed = true;
  auto merge = [&](Value to, Value from) {
    auto it = alias.find(from);
    if (it == alias.end())
      return;
    auto copy = it->second;
    auto &set = alias[to];
    for (Operation *a : copy)
      changed |= set.insert(a);
  };
  auto yieldOf = [](Region &r) -> Operation * {
    if (r.empty() || r.front().empty())
      return nullptr;
    return &r.front().back();
  };
  while (changed) {
    changed = false;
    func->walk([&](Operation *op) {
      if (isSharedLocalAlloc(op)) {
        changed |= alias[op->getResult(0)].insert(op);
      } else if (isMemDescView(op) && op->getNumOperands() > 0 &&
                 op->getNumResults() == 1) {
        merge(op->getResult(0), op->getOperand(0));
      } else if (ForOp(op) && ForOp(op).isWellFormed()) {
        Block &body = op->getRegion(0).front();
        Operation *yield = yieldOf(op->getRegion(0));
        unsigned n = op->getNumResults();
        for (unsigned i = 0; i < n; ++i) {
          Value init = op->getOperand(3 + i);
          Value arg = body.getArgument(1 + i);
          merge(arg, init);
          merge(op->getResult(i), init);
          if (yield && i < yield->getNumOperands()) {
            merge(arg, yield->getOperand(i));
            merge(op->getResult(i), yield->getOperand(i));
          }
        }
      } else if (isOp(op, opname::If)) {
        for (Region &r : op->getRegions())
          if (Operation *yield = yieldOf(r))
            for (unsigned i = 0;
                 i < op->getNumResults() && i < yield->getNumOperands(); ++i)
              merge(op->getResult(i), yield->getOperand(i));
      } else if (isOp(op, opname::While) && op->getNumRegions() == 2 &&
                 !op->getRegion(0).empty() && !op->getRegion(1).empty()) {
        Block &before = op->getRegion(0).front();
        Block &after = op->getRegion(1).front();
        Operation *cond = yieldOf(op->getRegion(0));
        Operation *yield = yieldOf(op->getRegion(1));
        for (unsigned i = 0; i < before.getNumArguments(); ++i) {
          if (i < op->getNumOperands())
            merge(before.getArgument(i), op->getOperand(i));
          if (yield && i < yield->getNumOperands())
            merge(before.getArgument(i), yield->getOperand(i));
        }
        if (cond)
          for (unsigned i = 1; i < cond->getNumOperands(); ++i) {
            if (i - 1 < after.getNumArguments())
              merge(after.getArgument(i - 1), cond->getOperand(i));
            if (i - 1 < op->getNumResults())
              merge(op->getResult(i - 1), cond->getOperand(i));
          }
      }
    });
  }
  return alias;
}

struct Interval {
  int64_t start = 0, end = std::numeric_limits<int64_t>::max();
  bool intersects(const Interval &o) const {
    return start < o.end && o.start < end;
  }
};

} // namespace

std::optional<size_t> LDSAllocation::bufferOf(Operation *op) const {
  for (auto [i, b] : llvm::enumerate(buffers))
    if (b.owner == op)
      return i;
  return std::nullopt;
}

int64_t LDSAllocation::explicitBytesLiveAt(Operation *op) const {
  auto it = opIds.find(op);
  if (it == opIds.end())
    return 0;
  int64_t id = it->second, bytes = 0;
  for (const LDSBuffer &b : buffers)
    if (b.kind == LDSBuffer::Kind::Explicit && b.owner != op &&
        b.liveStart <= id && id < b.liveEnd)
      bytes += b.size;
  return bytes;
}

namespace {

/// The LDS buffers of `func` in Triton's order: explicit ones (local_alloc,
/// pre-order), then scratch (128-byte aligned). Fails, with `err` set, at the
/// first operation whose bytes or alignment the model cannot tell.
LogicalResult collectBuffers(const TargetModel &target, Operation *func,
                             SmallVectorImpl<LDSBuffer> &explicitBufs,
                             SmallVectorImpl<LDSBuffer> &scratchBufs,
                             std::string &err) {
  bool failedOp = false;
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (failedOp || op == func)
      return;
    if (isSharedLocalAlloc(op)) {
      FailureOr<int64_t> bytes = explicitBytes(op, &err);
      std::optional<int64_t> alignment = allocAlignment(op);
      if (failed(bytes) || !alignment) {
        if (!alignment)
          err = "local_alloc alignment is not a power of two up to 2^20";
        failedOp = true;
        return;
      }
      explicitBufs.push_back(
          {LDSBuffer::Kind::Explicit, op, *bytes, *alignment});
      return;
    }
    FailureOr<int64_t> bytes = scratchBytesOf(target, op, &err);
    if (failed(bytes)) {
      err = (op->getName().getStringRef() + ": " + err).str();
      failedOp = true;
      return;
    }
    if (*bytes > 0)
      scratchBufs.push_back({LDSBuffer::Kind::Scratch, op, *bytes, 128});
  });
  return failure(failedOp);
}

/// Live ranges in operation ids: an explicit buffer over the liveness of
/// every value that may alias it, visited in operation order (operands, then
/// results) as Triton does; a scratch buffer over its own op.
void setLiveRanges(Operation *func,
                   const DenseMap<Operation *, int64_t> &opIds,
                   MutableArrayRef<LDSBuffer> explicitBufs,
                   MutableArrayRef<LDSBuffer> scratchBufs) {
  Liveness liveness(func);
  auto rangeOf = [&](Value v) {
    Interval r{std::numeric_limits<int64_t>::max(),
               std::numeric_limits<int64_t>::min()};
    for (Operation *live : liveness.resolveLiveness(v)) {
      int64_t id = opIds.lookup(live);
      r.start = std::min(r.start, id);
      r.end = std::max(r.end, id + 1);
    }
    return r;
  };
  auto aliases = computeAliases(func);
  for (LDSBuffer &b : explicitBufs) {
    Interval r = rangeOf(b.owner->getResult(0));
    b.liveStart = r.start;
    b.liveEnd = r.end;
  }
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    auto extend = [&](Value v) {
      auto it = aliases.find(v);
      if (it == aliases.end())
        return;
      Interval r = rangeOf(v);
      for (Operation *a : it->second)
        for (LDSBuffer &b : explicitBufs)
          if (b.owner == a) {
            b.liveStart = std::min(b.liveStart, r.start);
            b.liveEnd = std::max(b.liveEnd, r.end);
          }
    };
    for (Value v : op->getOperands())
      extend(v);
    for (Value v : op->getResults())
      extend(v);
  });
  for (LDSBuffer &b : scratchBufs) {
    b.liveStart = opIds.lookup(b.owner);
    b.liveEnd = b.liveStart + 1;
  }
}

Interval liveRange(const LDSBuffer &b) {
  return Interval{b.liveStart, b.liveEnd};
}

/// Puts `b` at `offset` rounded up to its alignment; returns where it went.
int64_t placeAligned(LDSBuffer &b, int64_t offset) {
  int64_t a = std::max<int64_t>(1, b.alignment);
  b.offset = (offset + a - 1) / a * a;
  return b.offset;
}

/// Step 1, first fit over liveness, in `order`: slots (offset -> live range
/// still free there), the lowest first; each slot takes the first buffer
/// live in its range and in no other slot's.
void firstFit(MutableArrayRef<LDSBuffer> bufs, ArrayRef<size_t> order) {
  std::multimap<int64_t, Interval> slots;
  slots.insert({0, Interval{}});
  SmallVector<size_t> todo(order);
  while (!todo.empty() && !slots.empty()) {
    auto slotIt = slots.begin();
    int64_t offset = slotIt->first;
    Interval range = slotIt->second;
    slots.erase(slotIt);
    auto pick = llvm::find_if(todo, [&](size_t i) {
      Interval x = liveRange(bufs[i]);
      if (!x.intersects(range))
        return false;
      for (auto &s : slots)
        if (s.second.intersects(x))
          return false;
      return true;
    });
    if (pick == todo.end())
      continue;
    size_t i = *pick;
    Interval x = liveRange(bufs[i]);
    int64_t at = placeAligned(bufs[i], offset);
    slots.insert({at + bufs[i].size, Interval{std::max(range.start, x.start),
                                              std::min(range.end, x.end)}});
    if (range.start < x.start)
      slots.insert({offset, Interval{range.start, x.end}});
    if (x.end < range.end)
      slots.insert({offset, Interval{x.start, range.end}});
    todo.erase(pick);
  }
}

/// Buffer -> the buffers live at the same time that overlap it in memory.
DenseMap<size_t, SmallVector<size_t>>
interference(ArrayRef<LDSBuffer> bufs, ArrayRef<size_t> order) {
  DenseMap<size_t, SmallVector<size_t>> g;
  for (size_t x : order)
    for (size_t y : order) {
      if (x == y)
        continue;
      Interval xs{bufs[x].offset, bufs[x].offset + bufs[x].size};
      Interval ys{bufs[y].offset, bufs[y].offset + bufs[y].size};
      if (liveRange(bufs[x]).intersects(liveRange(bufs[y])) &&
          xs.intersects(ys))
        g[x].push_back(y);
    }
  return g;
}

/// Step 2, colouring until no two live-overlapping buffers overlap in
/// memory (at most 64 rounds): a buffer of colour > 0 moves past the end of
/// those it interferes with. Returns the largest end.
int64_t colourApart(MutableArrayRef<LDSBuffer> bufs, ArrayRef<size_t> order) {
  int64_t totalBytes = 0;
  DenseMap<size_t, SmallVector<size_t>> graph = interference(bufs, order);
  int guard = 0;
  do {
    totalBytes = 0;
    DenseMap<size_t, int> colors;
    for (size_t x : order)
      colors[x] = x == order.front() ? 0 : -1;
    for (size_t x : order) {
      SmallVector<bool> available(order.size(), true);
      for (size_t y : graph.lookup(x))
        if (colors[y] >= 0)
          available[colors[y]] = false;
      colors[x] = int(llvm::find(available, true) - available.begin());
    }
    for (size_t x : order) {
      int64_t newOffset = 0;
      for (size_t y : graph.lookup(x))
        newOffset = std::max(newOffset, bufs[y].offset + bufs[y].size);
      if (colors[x] != 0)
        placeAligned(bufs[x], newOffset);
      totalBytes = std::max(totalBytes, bufs[x].offset + bufs[x].size);
    }
    graph = interference(bufs, order);
  } while (!graph.empty() && ++guard < 64);
  return order.empty() ? 0 : totalBytes;
}

} // namespace

FailureOr<LDSAllocation>
mlir::triton_mfma::allocateLDS(const TargetModel &target, Operation *func,
                               std::string *error) {
  LDSAllocation alloc;
  // Operation ids in post-order: a parent after everything it contains.
  func->walk<WalkOrder::PostOrder>(
      [&](Operation *op) { alloc.opIds[op] = int64_t(alloc.opIds.size()); });

  SmallVector<LDSBuffer> explicitBufs, scratchBufs;
  std::string err;
  if (failed(collectBuffers(target, func, explicitBufs, scratchBufs, err))) {
    if (error)
      *error = err;
    return failure();
  }
  setLiveRanges(func, alloc.opIds, explicitBufs, scratchBufs);

  SmallVector<LDSBuffer> &bufs = alloc.buffers;
  bufs.append(explicitBufs.begin(), explicitBufs.end());
  bufs.append(scratchBufs.begin(), scratchBufs.end());
  // Larger buffers first (stable).
  SmallVector<size_t> order(bufs.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return bufs[a].size > bufs[b].size;
  });
  firstFit(bufs, order);
  alloc.totalBytes = colourApart(bufs, order);
  return alloc;
}
