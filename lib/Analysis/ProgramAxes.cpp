//===- ProgramAxes.cpp - which program-id axes move which loads -----------===//
//
// See include/TritonMFMA/ProgramAxes.h. Triton's dialects are unregistered in
// our MLIR: operations are matched by name, their inherent attributes read
// from the generic property dictionary.
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/ProgramAxes.h"
#include "TritonMFMA/GenericIR.h"
#include "TritonMFMA/Layouts.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::triton_mfma;

namespace {

bool isScalar(Value v) { return !isa<ShapedType>(v.getType()); }

bool isDivRem(Operation *op) {
  return isAnyOp(op, opname::DivSI, opname::DivUI, opname::RemSI, opname::RemUI,
                 opname::FloorDivSI, opname::CeilDivSI, opname::CeilDivUI);
}

std::string locString(Location loc) {
  return formatFileLocation(loc, LocStyle::BaseNameLine, "?");
}

std::string argName(BlockArgument arg) {
  std::string out = getLocationName(arg.getLoc(), /*nested=*/true);
  return out.empty() ? "arg" + std::to_string(arg.getArgNumber()) : out;
}

} // namespace

//===----------------------------------------------------------------------===//
// Small helpers
//===----------------------------------------------------------------------===//

std::optional<int64_t> mlir::triton_mfma::getConstantTripCount(Operation *op) {
  ForOp forOp(op);
  if (!forOp || op->getNumOperands() < 3)
    return std::nullopt;
  auto lb = getConstantInt(forOp.getLowerBound());
  auto ub = getConstantInt(forOp.getUpperBound());
  auto step = getConstantInt(forOp.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  return std::max<int64_t>(0, (*ub - *lb + *step - 1) / *step);
}

std::string GridDim::name() const {
  std::string s = "axis" + std::to_string(axis);
  if (kind == Kind::Lo)
    s += ".lo";
  else if (kind == Kind::Hi)
    s += ".hi";
  return s;
}

int64_t LoadedOperand::estimateBytes(int64_t defaultTrips) const {
  int64_t total = 0;
  for (const ByteTerm &t : terms) {
    int64_t b = t.bytes;
    for (const TripFactor &f : t.loops)
      b *= f.constant ? *f.constant : defaultTrips;
    total += b;
  }
  return total;
}

//===----------------------------------------------------------------------===//
// ProgramAxes
//===----------------------------------------------------------------------===//

ProgramAxes::ProgramAxes(Operation *func) : func(func) {
  findProgramIds();
  findSplits();
  propagate();
  findHandSwizzle();
  findHazards();
  collectLoads();
}

bool ProgramAxes::readsProgramIds() const {
  return llvm::any_of(pidOps, [](const auto &ops) { return !ops.empty(); });
}

void ProgramAxes::findProgramIds() {
  func->walk([&](Operation *op) {
    ProgramIdOp pid(op);
    if (!pid)
      return;
    std::optional<int> axis = pid.getAxis();
    if (!axis || op->getNumResults() != 1)
      return; // malformed: not treated as a program id (the pass declines)
    pidOps[*axis].push_back(op);
  });
}

// An axis is split when the program id is divided and taken modulo by one
// and the same value X that does not itself depend on program ids (checked
// after propagation: X's mask must be empty).
void ProgramAxes::findSplits() {
  for (int axis = 0; axis < 3; ++axis) {
    if (pidOps[axis].empty())
      continue;
    // divisor -> (div ops, rem ops)
    llvm::MapVector<
        Value, std::pair<SmallVector<Operation *>, SmallVector<Operation *>>>
        byDivisor;
    for (Operation *pid : pidOps[axis])
      for (OpOperand &use : pid->getResult(0).getUses()) {
        Operation *user = use.getOwner();
        if (use.getOperandNumber() != 0 || user->getNumOperands() != 2)
          continue;
        Value x = user->getOperand(1);
        if (isAnyOp(user, opname::DivSI, opname::DivUI))
          byDivisor[x].first.push_back(user);
        else if (isAnyOp(user, opname::RemSI, opname::RemUI))
          byDivisor[x].second.push_back(user);
      }
    Value divisor;
    for (auto &[x, ops] : byDivisor) {
      if (ops.first.empty() || ops.second.empty())
        continue;
      if (divisor) { // two different row-major splits: not a plain split
        divisor = Value();
        break;
      }
      divisor = x;
    }
    if (divisor) {
      // The divisor must come from outside the program-id slice: a crude
      // check here (defined by a pid-free chain is verified in propagate()).
      GridDim lo{axis, GridDim::Kind::Lo, divisor};
      GridDim hi{axis, GridDim::Kind::Hi, divisor};
      unsigned loBit = dims.size();
      dims.push_back(lo);
      dims.push_back(hi);
      for (Operation *op : byDivisor[divisor].first)
        splitOps[op] = DimMask(1) << (loBit + 1);
      for (Operation *op : byDivisor[divisor].second)
        splitOps[op] = DimMask(1) << loBit;
    } else {
      dims.push_back(GridDim{axis, GridDim::Kind::Whole, Value()});
    }
  }
}

SmallVector<std::pair<Operation *, GridDim::Kind>>
ProgramAxes::getSplitOps(int axis) const {
  SmallVector<std::pair<Operation *, GridDim::Kind>> out;
  for (auto [op, mask] : splitOps)
    for (auto [i, d] : llvm::enumerate(dims))
      if (d.axis == axis && (mask & (DimMask(1) << i)))
        out.push_back({op, d.kind});
  // Deterministic order: as the ops appear in the kernel.
  llvm::sort(
      out, [](auto &a, auto &b) { return a.first->isBeforeInBlock(b.first); });
  return out;
}

DimMask ProgramAxes::getAxisMask(int axis) const {
  DimMask m = 0;
  for (auto [i, d] : llvm::enumerate(dims))
    if (d.axis == axis)
      m |= DimMask(1) << i;
  return m;
}

DimMask ProgramAxes::getMask(Value v) const {
  auto it = masks.find(v);
  return it == masks.end() ? 0 : it->second;
}

namespace {

/// One round of propagation over `masks`: what flows into each value is ORed
/// into its mask (reads see this round's updates); `changed` once any grew.
class MaskFlow {
public:
  explicit MaskFlow(llvm::DenseMap<Value, DimMask> &masks) : masks(masks) {}

  bool changed = false;

  void orInto(Value v, DimMask m) {
    if (!m)
      return;
    DimMask &slot = masks[v];
    if ((slot | m) != slot) {
      slot |= m;
      changed = true;
    }
  }

  /// Any operation other than a program id or a split op.
  void flowOp(Operation *op) {
    if (op->getNumRegions() == 0) {
      DimMask m = unionOf(op->getOperands());
      for (Value r : op->getResults())
        orInto(r, m);
      return;
    }
    if (isOp(op, opname::For)) {
      if (!flowFor(op))
        flowGeneric(op);
    } else if (isOp(op, opname::If)) {
      flowIf(op);
    } else if (!isOp(op, opname::While) || !flowWhile(op)) {
      flowGeneric(op);
    }
  }

private:
  llvm::DenseMap<Value, DimMask> &masks;

  DimMask maskOf(Value v) const {
    auto it = masks.find(v);
    return it == masks.end() ? 0 : it->second;
  }

  DimMask unionOf(ValueRange vs) const {
    DimMask m = 0;
    for (Value v : vs)
      m |= maskOf(v);
    return m;
  }

  /// scf.for: the induction variable from the bounds, each iteration
  /// argument and result from its init and its yield. False when the loop
  /// is not shaped so.
  bool flowFor(Operation *op) {
    if (op->getNumOperands() < 3 || op->getRegion(0).empty())
      return false;
    Block &body = op->getRegion(0).front();
    unsigned nIter = op->getNumOperands() - 3;
    if (body.getNumArguments() != nIter + 1 || op->getNumResults() != nIter)
      return false;
    ValueRange yields = getTerminatorOperands(op->getRegion(0));
    orInto(body.getArgument(0),
           maskOf(op->getOperand(0)) | maskOf(op->getOperand(2)));
    for (unsigned i = 0; i < nIter; ++i) {
      DimMask m = maskOf(op->getOperand(3 + i));
      if (i < yields.size())
        m |= maskOf(yields[i]);
      orInto(body.getArgument(i + 1), m);
      orInto(op->getResult(i), m);
    }
    return true;
  }

  /// scf.if: each result from what every region yields for it.
  void flowIf(Operation *op) {
    for (unsigned i = 0; i < op->getNumResults(); ++i) {
      DimMask m = 0;
      for (Region &r : op->getRegions()) {
        ValueRange y = getTerminatorOperands(r);
        if (i < y.size())
          m |= maskOf(y[i]);
      }
      orInto(op->getResult(i), m);
    }
  }

  /// scf.while: the before-arguments from the inits and the after-region's
  /// yield, the after-arguments and results from the condition's values.
  /// False when it lacks its two regions.
  bool flowWhile(Operation *op) {
    if (op->getNumRegions() != 2 || op->getRegion(0).empty() ||
        op->getRegion(1).empty())
      return false;
    Block &before = op->getRegion(0).front();
    Block &after = op->getRegion(1).front();
    ValueRange cond = getTerminatorOperands(op->getRegion(0)); // cond, args
    ValueRange yields = getTerminatorOperands(op->getRegion(1));
    for (unsigned i = 0; i < before.getNumArguments(); ++i) {
      DimMask m = 0;
      if (i < op->getNumOperands())
        m |= maskOf(op->getOperand(i));
      if (i < yields.size())
        m |= maskOf(yields[i]);
      orInto(before.getArgument(i), m);
    }
    for (unsigned j = 0; j + 1 < cond.size(); ++j) {
      DimMask m = maskOf(cond[j + 1]);
      if (j < after.getNumArguments())
        orInto(after.getArgument(j), m);
      if (j < op->getNumResults())
        orInto(op->getResult(j), m);
    }
    return true;
  }

  /// Any other op with regions (tt.reduce, tt.scan, ...): everything it
  /// produces may depend on everything that flows in.
  void flowGeneric(Operation *op) {
    DimMask m = unionOf(op->getOperands());
    DimMask inner = 0;
    for (Region &r : op->getRegions())
      inner |= unionOf(getTerminatorOperands(r));
    for (Value r : op->getResults())
      orInto(r, m | inner);
    for (Region &r : op->getRegions())
      for (Block &b : r)
        for (BlockArgument a : b.getArguments())
          orInto(a, m);
  }
};

} // namespace

void ProgramAxes::propagate() {
  MaskFlow flow(masks);
  do {
    flow.changed = false;
    func->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == func)
        return;
      if (ProgramIdOp pid{op}) {
        if (std::optional<int> axis = pid.getAxis())
          flow.orInto(op->getResult(0), getAxisMask(*axis));
        return;
      }
      if (auto it = splitOps.find(op); it != splitOps.end()) {
        flow.orInto(op->getResult(0), it->second);
        return;
      }
      flow.flowOp(op);
    });
  } while (flow.changed);

  // A split whose divisor depends on program ids is no split: undo it by
  // treating the axis as whole (rerun with the split removed).
  bool undo = false;
  for (auto &d : dims)
    if (d.kind != GridDim::Kind::Whole && getMask(d.divisor) != 0)
      undo = true;
  if (undo) {
    SmallVector<GridDim> whole;
    for (auto &d : dims)
      if (d.kind == GridDim::Kind::Whole || d.kind == GridDim::Kind::Lo)
        whole.push_back(GridDim{d.axis, GridDim::Kind::Whole, Value()});
    dims = std::move(whole);
    splitOps.clear();
    masks.clear();
    propagate();
  }
}

void ProgramAxes::findHandSwizzle() {
  func->walk([&](Operation *op) {
    if (!handSwizzle.empty() || op->getNumResults() != 1 ||
        !isScalar(op->getResult(0)) || splitOps.contains(op))
      return;
    bool flagged = false;
    if (isDivRem(op) && op->getNumOperands() == 2)
      flagged = getMask(op->getOperand(0)) || getMask(op->getOperand(1));
    else if (isOp(op, opname::Select) && op->getNumOperands() == 3)
      flagged = getMask(op->getOperand(0)) != 0;
    if (!flagged)
      return;
    handSwizzleOp = op;
    handSwizzle = (op->getName().getStringRef() + " on program ids at " +
                   locString(op->getLoc()))
                      .str();
  });
}

void ProgramAxes::findHazards() {
  func->walk([&](Operation *op) {
    if (atomicWrite.empty() &&
        isAnyOp(op, opname::AtomicRMW, opname::AtomicCAS,
                opname::BufferAtomicRMW, opname::BufferAtomicCAS))
      atomicWrite = op->getName().getStringRef();
    if (!orderHazard.empty())
      return;
    if (isOp(op, opname::AtomicCAS))
      orderHazard =
          (opname::AtomicCAS + " at " + locString(op->getLoc())).str();
    else if (isOp(op, opname::AtomicRMW) && op->getNumResults() == 1 &&
             !op->getResult(0).use_empty())
      orderHazard = (opname::AtomicRMW + " whose result is used at " +
                     locString(op->getLoc()))
                        .str();
  });
}

namespace {

enum class LoadKind {
  None,
  TensorOrScalar,
  AsyncCopy,
  Buffer,
  BufferToLocal,
  Descriptor,
  TMACopy
};

LoadKind classifyLoad(StringRef n) {
  return llvm::StringSwitch<LoadKind>(n)
      .Case(opname::Load, LoadKind::TensorOrScalar)
      .Case(opname::AsyncCopyGlobalToLocal, LoadKind::AsyncCopy)
      .Case(opname::BufferLoad, LoadKind::Buffer)
      .Case(opname::BufferLoadToLocal, LoadKind::BufferToLocal)
      .Case(opname::DescriptorLoad, LoadKind::Descriptor)
      .Case(opname::DescriptorGather, LoadKind::Descriptor)
      .Case(opname::AsyncTMACopyGlobalToLocal, LoadKind::TMACopy)
      .Default(LoadKind::None);
}

bool isPtrType(Type t) {
  if (auto s = dyn_cast<ShapedType>(t))
    t = s.getElementType();
  return isTritonPointerType(t);
}

int64_t numElements(Type t) {
  if (auto s = dyn_cast<ShapedType>(t); s && s.hasStaticShape())
    return s.getNumElements();
  if (isMemDescType(t))
    if (auto shape = getShape(t); succeeded(shape)) {
      int64_t n = 1;
      for (int64_t d : *shape)
        n *= d;
      return n;
    }
  return 1;
}

/// The operands that make up the address of a load.
SmallVector<Value> addressOperands(Operation *op, LoadKind kind) {
  SmallVector<Value> out;
  switch (kind) {
  case LoadKind::TensorOrScalar:
  case LoadKind::AsyncCopy:
    if (op->getNumOperands() >= 1) // malformed input: no address, no sharing
      out.push_back(op->getOperand(0));
    break;
  case LoadKind::Buffer:
  case LoadKind::BufferToLocal:
    // base pointer (scalar !tt.ptr) and the integer offsets tensor; masks
    // (i1), `other`, the destination buffer and the scalar stride are not
    // part of which bytes are read.
    for (Value v : op->getOperands()) {
      Type t = v.getType();
      if (isPtrType(t))
        out.push_back(v);
      else if (auto s = dyn_cast<ShapedType>(t);
               s && s.getElementType().isInteger() &&
               !s.getElementType().isInteger(1))
        out.push_back(v);
    }
    break;
  case LoadKind::Descriptor:
  case LoadKind::TMACopy:
    for (Value v : op->getOperands())
      if (!isMemDescType(v.getType()))
        out.push_back(v);
    break;
  case LoadKind::None:
    break;
  }
  return out;
}

std::optional<int64_t> loadBytes(Operation *op, LoadKind kind) {
  switch (kind) {
  case LoadKind::TensorOrScalar:
  case LoadKind::Buffer:
  case LoadKind::Descriptor:
    if (op->getNumResults() != 1)
      return std::nullopt;
    if (auto b = getElementBytes(op->getResult(0).getType()))
      return *b * numElements(op->getResult(0).getType());
    return std::nullopt;
  case LoadKind::AsyncCopy: {
    if (op->getNumOperands() < 1)
      return std::nullopt;
    Type src = op->getOperand(0).getType();
    if (auto b = getElementBytes(src))
      return *b * numElements(src);
    return std::nullopt;
  }
  case LoadKind::BufferToLocal: {
    std::optional<int64_t> elem;
    int64_t n = 0;
    for (Value v : op->getOperands()) {
      if (isPtrType(v.getType()) && !isa<ShapedType>(v.getType()))
        elem = getElementBytes(v.getType());
      else if (auto s = dyn_cast<ShapedType>(v.getType());
               s && s.getElementType().isInteger(32))
        n = numElements(s);
    }
    if (!elem || !n)
      return std::nullopt;
    return *elem * n;
  }
  case LoadKind::TMACopy:
    for (Value v : op->getOperands())
      if (isMemDescType(v.getType()))
        if (auto info = getMemDescInfo(v.getType()); succeeded(info))
          if (auto b = getElementBytes(info->elementType))
            return *b * numElements(v.getType());
    return std::nullopt;
  case LoadKind::None:
    break;
  }
  return std::nullopt;
}

/// The kernel argument an address derives from, or null.
BlockArgument findRoot(Value v, Operation *func) {
  Block *entry = &func->getRegion(0).front();
  for (int guard = 0; guard < 256 && v; ++guard) {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      Block *b = arg.getOwner();
      if (b == entry)
        return arg;
      Operation *parent = b->getParentOp();
      if (isOp(parent, opname::For) && arg.getArgNumber() >= 1 &&
          parent->getNumOperands() >= 3 + arg.getArgNumber()) {
        v = parent->getOperand(3 + arg.getArgNumber() - 1);
        continue;
      }
      if (isOp(parent, opname::While) && b == &parent->getRegion(0).front() &&
          arg.getArgNumber() < parent->getNumOperands()) {
        v = parent->getOperand(arg.getArgNumber());
        continue;
      }
      return BlockArgument();
    }
    Operation *def = v.getDefiningOp();
    if (isOp(def, opname::For)) {
      unsigned i = cast<OpResult>(v).getResultNumber();
      if (def->getNumOperands() < 3 + i + 1)
        return BlockArgument();
      v = def->getOperand(3 + i);
      continue;
    }
    if (isOp(def, opname::Select) && def->getNumOperands() == 3) {
      BlockArgument a = findRoot(def->getOperand(1), func);
      BlockArgument b = findRoot(def->getOperand(2), func);
      return a == b ? a : BlockArgument();
    }
    // Pointer arithmetic and reshaping keep the base: tt.addptr, tt.splat,
    // tt.broadcast, tt.expand_dims, tt.reshape, tt.trans, ttg.convert_layout,
    // tt.make_tensor_ptr, tt.advance, tt.make_tensor_descriptor, ...
    if (def->getNumOperands() >= 1 &&
        (isPtrType(def->getOperand(0).getType()) ||
         isAnyOp(def, opname::MakeTensorDescriptor, opname::ConvertLayout,
                 opname::Advance))) {
      v = def->getOperand(0);
      continue;
    }
    return BlockArgument();
  }
  return BlockArgument();
}

} // namespace

void ProgramAxes::collectLoads() {
  func->walk([&](Operation *op) {
    LoadKind kind = classifyLoad(op->getName().getStringRef());
    if (kind == LoadKind::None || op->getNumOperands() == 0)
      return;
    DimMask moved = 0;
    BlockArgument root;
    for (Value a : addressOperands(op, kind)) {
      moved |= getMask(a);
      if (!root)
        root = findRoot(a, func);
    }
    ByteTerm term;
    term.bytes = loadBytes(op, kind).value_or(0);
    for (Operation *p = op->getParentOp(); p && p != func;
         p = p->getParentOp()) {
      if (isOp(p, opname::For))
        term.loops.push_back(TripFactor{p, getConstantTripCount(p)});
      else if (isOp(p, opname::While))
        term.loops.push_back(TripFactor{p, std::nullopt});
    }
    LoadedOperand *operand = nullptr;
    if (root)
      for (LoadedOperand &o : operands)
        if (o.argIndex == (int)root.getArgNumber())
          operand = &o;
    if (!operand) {
      operands.emplace_back();
      operand = &operands.back();
      if (root) {
        operand->argIndex = root.getArgNumber();
        operand->name = argName(root);
      } else {
        operand->name = "load@" + locString(op->getLoc());
      }
    }
    operand->moved |= moved;
    operand->loads.push_back(op);
    operand->terms.push_back(std::move(term));
  });
}

std::string ProgramAxes::describeMask(DimMask mask) const {
  std::string s = "{";
  bool first = true;
  for (auto [i, d] : llvm::enumerate(dims))
    if (mask & (DimMask(1) << i)) {
      s += (first ? "" : ",") + d.name();
      first = false;
    }
  return s + "}";
}

std::string ProgramAxes::describe(const LoadedOperand &o) const {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << o.name << ": moved by " << describeMask(o.moved) << ", ";
  // Merge terms with the same loops for readability.
  SmallVector<std::pair<SmallVector<TripFactor>, int64_t>> merged;
  for (const ByteTerm &t : o.terms) {
    auto it = llvm::find_if(merged, [&](auto &m) {
      if (m.first.size() != t.loops.size())
        return false;
      for (auto [a, b] : llvm::zip(m.first, t.loops))
        if (a.loop != b.loop)
          return false;
      return true;
    });
    if (it == merged.end())
      merged.push_back({t.loops, t.bytes});
    else
      it->second += t.bytes;
  }
  llvm::interleave(
      merged, os,
      [&](auto &m) {
        os << m.second << " B";
        for (const TripFactor &f : m.first) {
          if (f.constant)
            os << " x " << *f.constant;
          else
            os << " x trips(" << f.loop->getName().getStringRef() << " @ "
               << locString(f.loop->getLoc()) << ")";
        }
      },
      " + ");
  return s;
}
