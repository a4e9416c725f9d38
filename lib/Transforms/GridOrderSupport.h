//===- GridOrderSupport.h - mfma-grid-order builder, figures -*- C++ -*-===//
//
// What mfma-grid-order (GridOrder.cpp) builds its run-time guard and remap
// with (Emitter: the arithmetic that stockOrderMisses and
// sharedBytesExceedL2 of L2Model.h are instantiated over), the slices it
// clones to the top of the kernel (loop trip counts, row lengths), and the
// residency figure its L2 guard counts with.
//
//===----------------------------------------------------------------------===//
#ifndef TRITONMFMA_TRANSFORMS_GRIDORDERSUPPORT_H
#define TRITONMFMA_TRANSFORMS_GRIDORDERSUPPORT_H

#include "TritonMFMA/GenericIR.h"
#include "TritonMFMA/L2Model.h"
#include "TritonMFMA/ProgramAxes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>
#include <string>

namespace mlir::triton_mfma::grid_order {

constexpr CmpIPredicate EQ = CmpIPredicate::eq, SLT = CmpIPredicate::slt,
                        SGT = CmpIPredicate::sgt;

/// Builds the remap's generic operations (GenericBuilder), folds the trivial
/// ones, emits each constant once, and remembers what it built.
class Emitter {
public:
  using Value = mlir::Value;
  /// `hip`: the module's target is hip (how the grid size is read).
  Emitter(OpBuilder &b, Location loc, bool hip)
      : b(b), loc(loc), ctx(b.getContext()), g(b, loc, &built), hip(hip) {}
  Type i32() { return b.getI32Type(); }
  Type i64() { return b.getI64Type(); }
  Type i1() { return b.getI1Type(); }
  /// Constants are emitted once each, before everything else we build.
  Value cst(int64_t v, Type t) {
    Value &slot = constants[{v, t.getIntOrFloatBitWidth()}];
    if (!slot) {
      OpBuilder::InsertionGuard guard(b);
      if (constantsEnd)
        b.setInsertionPointAfter(constantsEnd);
      slot = g.constantInt(t, v);
      constantsEnd = slot.getDefiningOp();
    }
    return slot;
  }
  Value c32(int64_t v) { return cst(v, i32()); }
  // The arithmetic stockOrderMisses (L2Model.h) is written over: 64-bit,
  // or 32-bit where the guard counts bytes in units large enough that no
  // realistic launch overflows (`narrow`, see GuardUnit).
  bool narrow = false;
  Value constant(int64_t v) { return narrow ? c32(v) : c64(v); }
  Value widen(Value v) { return narrow ? v : ext64(v); }
  Value greater(Value a, Value c) { return cmp(SGT, a, c); }
  Value both(Value a, Value c) { return andi(a, c); }
  Value c64(int64_t v) { return cst(v, i64()); }
  Value add(Value a, Value c) {
    if (isConst(c, 0))
      return a;
    if (isConst(a, 0))
      return c;
    return g.binary(opname::AddI, a, c);
  }
  Value sub(Value a, Value c) {
    return isConst(c, 0) ? a : g.binary(opname::SubI, a, c);
  }
  Value mul(Value a, Value c) {
    if (isConst(c, 1))
      return a;
    if (isConst(a, 1))
      return c;
    return g.binary(opname::MulI, a, c);
  }
  static bool isConst(Value v, int64_t x) {
    std::optional<int64_t> c = getConstantInt(v);
    return c && *c == x;
  }
  Value div(Value a, Value c) { return g.binary(opname::DivSI, a, c); }
  Value rem(Value a, Value c) { return g.binary(opname::RemSI, a, c); }
  // The remap divides non-negative values only (ids, sizes >= 1): unsigned
  // division is about half the instructions of signed on both vendors.
  Value udiv(Value a, Value c) { return g.binary(opname::DivUI, a, c); }
  Value urem(Value a, Value c) { return g.binary(opname::RemUI, a, c); }
  Value min(Value a, Value c) { return g.binary(opname::MinSI, a, c); }
  Value max(Value a, Value c) { return g.binary(opname::MaxSI, a, c); }
  Value andi(Value a, Value c) { return g.binary(opname::AndI, a, c); }
  Value select(Value c, Value t, Value f) { return g.select(c, t, f); }
  Value cmp(CmpIPredicate p, Value a, Value c) { return g.cmpi(p, a, c); }
  Value ext64(Value a) {
    if (a.getType() == i64())
      return a;
    Value &slot = extended[a];
    if (!slot)
      slot = g.cast(opname::ExtSI, a, i64());
    return slot;
  }
  Operation *yield(ValueRange values) { return g.yield(values); }
  Value numPrograms(int axis) {
    if (!hip)
      return g.numPrograms(axis);
    if (!implicitArgs)
      implicitArgs = g.hipImplicitArgs();
    return g.hipNumPrograms(implicitArgs, axis);
  }
  /// Adds `role` to the `tmfma.grid_value` tags of the op defining `v` (the
  /// values python/triton_mfma/models/grid.py reads from the compiled TTGIR).
  void tag(Value v, StringRef role) {
    Operation *def = v.getDefiningOp();
    if (!def)
      return;
    SmallVector<Attribute> roles;
    if (auto old = def->getAttrOfType<ArrayAttr>(kValueTag))
      roles.assign(old.begin(), old.end());
    roles.push_back(b.getStringAttr(role));
    def->setAttr(kValueTag, b.getArrayAttr(roles));
  }
  static constexpr llvm::StringLiteral kValueTag = "tmfma.grid_value";

  OpBuilder &b;
  Location loc;
  MLIRContext *ctx;
  llvm::SmallPtrSet<Operation *, 32> built;
  GenericBuilder g;
  std::map<std::pair<int64_t, unsigned>, Value> constants;
  Operation *constantsEnd = nullptr;
  llvm::DenseMap<Value, Value> extended;
  llvm::DenseMap<Operation *, Value> tripCounts;
  bool hip;
  Value implicitArgs; ///< hip: the implicit arguments' pointer, once built
};

/// Clones the pid-free pure slice defining `v` to the builder's insertion
/// point (kernel arguments are used as they are). Fails on anything else.
FailureOr<Value> materialize(Value v, Emitter &e, IRMapping &map,
                             const ProgramAxes &pa, Block *entry,
                             int depth = 0);

/// i64 (in a narrow guard, i32) trip count of a loop: from its bounds cloned
/// to the top of the kernel, else its constant, else `defaultTripCount`;
/// computed once per loop.
Value tripCount(const TripFactor &f, Emitter &e, IRMapping &map,
                const ProgramAxes &pa, Block *entry, int64_t defaultTripCount);

/// Shared memory a program allocates explicitly (sum of ttg.local_alloc).
int64_t getLocalAllocBytes(Operation *func);

/// "1.5 MiB", "128.0 KiB", "512 B".
std::string humanBytes(int64_t b);

/// Programs per CU the L2 guard counts with, and where the figure comes from.
struct ProgramsPerCU {
  Residency bound;      ///< the model's bound (lower, or upper: atMost)
  bool atMost = false;  ///< an upper bound (TargetL2Model::wavesAtMost)
  int64_t programs = 0; ///< what the guard uses
  bool given = false;   ///< from the programs-per-cu option
  int numWarps = 4;
  int64_t ldsBytes = 0;
  std::string ldsSource; ///< "LDS model" or why the local_alloc sum
};

/// Whether `func` calls a function that reads program ids.
bool callsProgramIdReader(ModuleOp module, Operation *func);

/// Programs per CU for the L2 guard: `programsPerCU` where positive (the
/// pass option), else the model's lower bound (L2Model.h) with the kernel's
/// exact LDS.
ProgramsPerCU countPrograms(ModuleOp module, Operation *func,
                            const TargetL2Model &model, int64_t programsPerCU);

/// How the figure was obtained, for the remark.
std::string describe(const ProgramsPerCU &p);

} // namespace mlir::triton_mfma::grid_order

#endif // TRITONMFMA_TRANSFORMS_GRIDORDERSUPPORT_H
