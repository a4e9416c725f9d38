//===- GenericIR.h - reading and writing Triton's generic IR ----*- C++ -*-===//
//
// In our MLIR Triton's dialects (tt, ttg, ttng, amdg) and the upstream ones
// Triton uses (arith, math, scf) are unregistered: every operation is a
// generic `Operation` named by its string, inherent attributes live in the
// generic property dictionary, and layouts/memdescs are OpaqueAttr/OpaqueType
// (Layouts.h). This header is the one place that knows those names and
// positions:
//
//  - the names of every operation, dialect and attribute the passes read or
//    build (the only op-name string literals in lib/);
//  - thin typed views over the operations the passes look into (ForOp,
//    LoadOp, DotOp, ...): operands by role, attributes by name, nothing
//    cached, a null view for anything else;
//  - one builder of generic operations (GenericBuilder), spelling properties
//    as Triton prints them;
//  - the shared helpers: memdesc views, num-warps and the module's target,
//    location text for remarks and diagnostics.
//
//===----------------------------------------------------------------------===//
#ifndef TRITONMFMA_GENERICIR_H
#define TRITONMFMA_GENERICIR_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::triton_mfma {

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

/// Dialect namespaces.
namespace dialect {
inline constexpr llvm::StringLiteral Arith = "arith";
inline constexpr llvm::StringLiteral Math = "math";
inline constexpr llvm::StringLiteral Triton = "tt";
inline constexpr llvm::StringLiteral TritonGPU = "ttg";
} // namespace dialect

/// Operation names (Triton 3.9 and upstream MLIR).
namespace opname {
// arith
inline constexpr llvm::StringLiteral Constant = "arith.constant";
inline constexpr llvm::StringLiteral AddI = "arith.addi";
inline constexpr llvm::StringLiteral SubI = "arith.subi";
inline constexpr llvm::StringLiteral MulI = "arith.muli";
inline constexpr llvm::StringLiteral DivSI = "arith.divsi";
inline constexpr llvm::StringLiteral DivUI = "arith.divui";
inline constexpr llvm::StringLiteral RemSI = "arith.remsi";
inline constexpr llvm::StringLiteral RemUI = "arith.remui";
inline constexpr llvm::StringLiteral FloorDivSI = "arith.floordivsi";
inline constexpr llvm::StringLiteral CeilDivSI = "arith.ceildivsi";
inline constexpr llvm::StringLiteral CeilDivUI = "arith.ceildivui";
inline constexpr llvm::StringLiteral MinSI = "arith.minsi";
inline constexpr llvm::StringLiteral MaxSI = "arith.maxsi";
inline constexpr llvm::StringLiteral AndI = "arith.andi";
inline constexpr llvm::StringLiteral Select = "arith.select";
inline constexpr llvm::StringLiteral CmpI = "arith.cmpi";
inline constexpr llvm::StringLiteral ExtSI = "arith.extsi";
inline constexpr llvm::StringLiteral TruncI = "arith.trunci";
inline constexpr llvm::StringLiteral ExtF = "arith.extf";
inline constexpr llvm::StringLiteral TruncF = "arith.truncf";
// scf
inline constexpr llvm::StringLiteral For = "scf.for";
inline constexpr llvm::StringLiteral If = "scf.if";
inline constexpr llvm::StringLiteral While = "scf.while";
inline constexpr llvm::StringLiteral Yield = "scf.yield";
// tt
inline constexpr llvm::StringLiteral Func = "tt.func";
inline constexpr llvm::StringLiteral Call = "tt.call";
inline constexpr llvm::StringLiteral GetProgramId = "tt.get_program_id";
inline constexpr llvm::StringLiteral GetNumPrograms = "tt.get_num_programs";
inline constexpr llvm::StringLiteral Load = "tt.load";
inline constexpr llvm::StringLiteral Store = "tt.store";
inline constexpr llvm::StringLiteral Dot = "tt.dot";
inline constexpr llvm::StringLiteral DotScaled = "tt.dot_scaled";
inline constexpr llvm::StringLiteral Reduce = "tt.reduce";
inline constexpr llvm::StringLiteral Scan = "tt.scan";
inline constexpr llvm::StringLiteral Gather = "tt.gather";
inline constexpr llvm::StringLiteral Histogram = "tt.histogram";
inline constexpr llvm::StringLiteral AtomicRMW = "tt.atomic_rmw";
inline constexpr llvm::StringLiteral AtomicCAS = "tt.atomic_cas";
inline constexpr llvm::StringLiteral Splat = "tt.splat";
inline constexpr llvm::StringLiteral Broadcast = "tt.broadcast";
inline constexpr llvm::StringLiteral ExpandDims = "tt.expand_dims";
inline constexpr llvm::StringLiteral AddPtr = "tt.addptr";
inline constexpr llvm::StringLiteral MakeRange = "tt.make_range";
inline constexpr llvm::StringLiteral Reshape = "tt.reshape";
inline constexpr llvm::StringLiteral Trans = "tt.trans";
inline constexpr llvm::StringLiteral Bitcast = "tt.bitcast";
inline constexpr llvm::StringLiteral IntToPtr = "tt.int_to_ptr";
inline constexpr llvm::StringLiteral PtrToInt = "tt.ptr_to_int";
inline constexpr llvm::StringLiteral FpToFp = "tt.fp_to_fp";
inline constexpr llvm::StringLiteral Join = "tt.join";
inline constexpr llvm::StringLiteral Split = "tt.split";
inline constexpr llvm::StringLiteral PreciseSqrt = "tt.precise_sqrt";
inline constexpr llvm::StringLiteral PreciseDivF = "tt.precise_divf";
inline constexpr llvm::StringLiteral ClampF = "tt.clampf";
inline constexpr llvm::StringLiteral MulhiUI = "tt.mulhiui";
inline constexpr llvm::StringLiteral ExternElementwise =
    "tt.extern_elementwise";
inline constexpr llvm::StringLiteral DescriptorLoad = "tt.descriptor_load";
inline constexpr llvm::StringLiteral DescriptorGather = "tt.descriptor_gather";
inline constexpr llvm::StringLiteral MakeTensorDescriptor =
    "tt.make_tensor_descriptor";
inline constexpr llvm::StringLiteral Advance = "tt.advance";
// ttg
inline constexpr llvm::StringLiteral ConvertLayout = "ttg.convert_layout";
inline constexpr llvm::StringLiteral LocalAlloc = "ttg.local_alloc";
inline constexpr llvm::StringLiteral LocalLoad = "ttg.local_load";
inline constexpr llvm::StringLiteral LocalStore = "ttg.local_store";
inline constexpr llvm::StringLiteral LocalDealloc = "ttg.local_dealloc";
inline constexpr llvm::StringLiteral LocalAtomicScatterRMW =
    "ttg.local_atomic_scatter_rmw";
inline constexpr llvm::StringLiteral Barrier = "ttg.barrier";
inline constexpr llvm::StringLiteral MemDescIndex = "ttg.memdesc_index";
inline constexpr llvm::StringLiteral MemDescSubslice = "ttg.memdesc_subslice";
inline constexpr llvm::StringLiteral MemDescTrans = "ttg.memdesc_trans";
inline constexpr llvm::StringLiteral MemDescReshape = "ttg.memdesc_reshape";
inline constexpr llvm::StringLiteral MemDescReinterpret =
    "ttg.memdesc_reinterpret";
/// Before Triton 3.4 (memdesc_index + memdesc_subslice replaced it).
inline constexpr llvm::StringLiteral MemDescSubview = "ttg.memdesc_subview";
inline constexpr llvm::StringLiteral AsyncCopyGlobalToLocal =
    "ttg.async_copy_global_to_local";
inline constexpr llvm::StringLiteral WarpSpecialize = "ttg.warp_specialize";
// ttng (NVIDIA)
inline constexpr llvm::StringLiteral WarpGroupDot = "ttng.warp_group_dot";
inline constexpr llvm::StringLiteral FenceAsyncShared =
    "ttng.fence_async_shared";
inline constexpr llvm::StringLiteral AsyncTMACopyGlobalToLocal =
    "ttng.async_tma_copy_global_to_local";
// amdg (AMD)
inline constexpr llvm::StringLiteral InThreadTranspose =
    "amdg.in_thread_transpose";
inline constexpr llvm::StringLiteral BufferLoad = "amdg.buffer_load";
inline constexpr llvm::StringLiteral BufferLoadToLocal =
    "amdg.buffer_load_to_local";
inline constexpr llvm::StringLiteral BufferAtomicRMW = "amdg.buffer_atomic_rmw";
inline constexpr llvm::StringLiteral BufferAtomicCAS = "amdg.buffer_atomic_cas";
// llvm (the grid size on hip targets: GenericBuilder::hipNumPrograms)
inline constexpr llvm::StringLiteral LLVMCallIntrinsic = "llvm.call_intrinsic";
inline constexpr llvm::StringLiteral LLVMGetElementPtr = "llvm.getelementptr";
inline constexpr llvm::StringLiteral LLVMLoad = "llvm.load";
/// The intrinsic giving a hip kernel's implicit arguments (constant memory).
inline constexpr llvm::StringLiteral ImplicitArgPtr =
    "llvm.amdgcn.implicitarg.ptr";
/// A branch condition's expected value (LLVM turns it into branch weights).
inline constexpr llvm::StringLiteral ExpectI1 = "llvm.expect.i1";
} // namespace opname

/// Discardable attributes Triton puts on modules and operations.
namespace attrname {
inline constexpr llvm::StringLiteral Target = "ttg.target";
inline constexpr llvm::StringLiteral NumWarps = "ttg.num-warps";
inline constexpr llvm::StringLiteral ThreadsPerWarp = "ttg.threads-per-warp";
/// A loop's own num_stages (tl.range(..., num_stages=N)).
inline constexpr llvm::StringLiteral NumStages = "tt.num_stages";
/// AMD's pipeliner marks prologue loads with it (move_up_prologue_loads).
inline constexpr llvm::StringLiteral PipelinerPart = "amd.pipeliner_part";
} // namespace attrname

//===----------------------------------------------------------------------===//
// Matching
//===----------------------------------------------------------------------===//

inline bool isOp(Operation *op, StringRef name) {
  return op && op->getName().getStringRef() == name;
}
template <typename... Names> bool isAnyOp(Operation *op, Names... names) {
  return (isOp(op, names) || ...);
}
/// Whether `op` belongs to `dialect` ("arith", ...).
inline bool isInDialect(Operation *op, StringRef dialect) {
  return op && op->getName().getDialectNamespace() == dialect;
}

/// An inherent attribute (property) of a generic operation, else the
/// discardable attribute of that name; null if neither.
Attribute getInherentOrAttr(Operation *op, StringRef name);
/// The generic property dictionary of `op` (null if it has none).
DictionaryAttr getProperties(Operation *op);

/// The operations of a block but its last one (the terminator); empty for an
/// empty block. (Block::without_terminator keeps an unregistered terminator.)
llvm::iterator_range<Block::iterator> opsBeforeTerminator(Block *block);
/// Operands of the terminator of the first block of `r` (empty if none).
ValueRange getTerminatorOperands(Region &r);

/// The value of an integer attribute (signless and signed sign-extended,
/// unsigned zero-extended); nullopt for anything else or a value that does
/// not fit in int64 (never asserts, whatever the attribute's type).
std::optional<int64_t> getIntegerValue(Attribute attr);

/// The integer value of an `arith.constant` (scalar) defining `v`.
std::optional<int64_t> getConstantInt(Value v);

/// Operations that may write global memory (or call something that could):
/// stores, atomics, scatters (other than the ttg.local_* shared-memory ops)
/// and calls.
bool mayWriteGlobalMemory(Operation *op);

/// Whether `use` is the value a `tt.store` or `tt.atomic_rmw` writes
/// (operands: pointer, value, ...).
bool isStoredValue(OpOperand &use);

/// Views of shared memory that alias their operand (Triton's
/// MemDescViewTrait ops: memdesc_index, memdesc_subslice, memdesc_trans,
/// memdesc_reshape, memdesc_reinterpret; and the older memdesc_subview).
bool isMemDescView(Operation *op);

//===----------------------------------------------------------------------===//
// The module
//===----------------------------------------------------------------------===//

/// `ttg.num-warps` of `op` or its closest ancestor that has it (the module,
/// or a warp-specialized partition); nullopt if none, 0 if its value is not
/// a 32-bit unsigned integer.
std::optional<unsigned> lookupNumWarps(Operation *op);
/// `ttg.target` of the module ("hip:gfx942", "cuda:90"), if any.
std::optional<StringRef> getTarget(ModuleOp module);
/// `ttg.threads-per-warp` of the module, if any (0 if its value is not a
/// 32-bit unsigned integer).
std::optional<unsigned> getThreadsPerWarp(ModuleOp module);
/// Every `tt.func` of the module, in walk (post-)order.
SmallVector<Operation *> getFunctions(ModuleOp module);

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

/// Base of the views: an operation of one name, or null.
class OpView {
public:
  explicit operator bool() const { return op != nullptr; }
  Operation *getOperation() const { return op; }
  Operation *operator->() const { return op; }
  Location getLoc() const { return op->getLoc(); }

protected:
  OpView(Operation *op, StringRef name) : op(isOp(op, name) ? op : nullptr) {}
  Operation *op;
};

/// tt.func: a symbol with one region.
class FuncOp : public OpView {
public:
  explicit FuncOp(Operation *op) : OpView(op, opname::Func) {}
  /// sym_name, or "" if missing.
  StringRef getName() const;
  /// Public (or no visibility given), with a body: a kernel.
  bool isPublicDefinition() const;
  /// Null if it has no body.
  Block *getEntryBlock() const {
    return op->getNumRegions() && !op->getRegion(0).empty()
               ? &op->getRegion(0).front()
               : nullptr;
  }
};

/// tt.call.
class CallOp : public OpView {
public:
  explicit CallOp(Operation *op) : OpView(op, opname::Call) {}
  /// The callee's name, or nullopt.
  std::optional<StringRef> getCallee() const;
};

/// scf.for: operands lower bound, upper bound, step, initial values; one
/// block with the induction variable and the iteration arguments; scf.yield.
class ForOp : public OpView {
public:
  explicit ForOp(Operation *op) : OpView(op, opname::For) {}
  /// One block whose arguments, results and yield match the operands.
  bool isWellFormed() const;
  Value getLowerBound() const { return op->getOperand(0); }
  Value getUpperBound() const { return op->getOperand(1); }
  Value getStep() const { return op->getOperand(2); }
  unsigned getNumIterArgs() const { return op->getNumOperands() - 3; }
  Value getInit(unsigned k) const { return op->getOperand(3 + k); }
  OpOperand &getUpperBoundOperand() const { return op->getOpOperand(1); }
  Block *getBody() const { return &op->getRegion(0).front(); }
  BlockArgument getInductionVar() const { return getBody()->getArgument(0); }
  BlockArgument getIterArg(unsigned k) const {
    return getBody()->getArgument(k + 1);
  }
  Operation *getYield() const { return getBody()->getTerminator(); }
  /// Compares its induction variable unsigned (`unsignedCmp`).
  bool isUnsignedCmp() const;
  /// The loop's own `tt.num_stages`, if set.
  std::optional<int64_t> getNumStages() const;
};

/// tt.load: ptr[, mask[, other]] (operandSegmentSizes when printed).
class LoadOp : public OpView {
public:
  explicit LoadOp(Operation *op) : OpView(op, opname::Load) {}
  /// At most ptr, mask and other, with consistent segment sizes.
  bool hasWellFormedOperands() const;
  /// Segment sizes (ptr, mask, other), from the property or the count (the
  /// count when the property is malformed).
  SmallVector<int32_t, 3> getSegments() const;
  Value getPtr() const { return op->getOperand(0); }
  /// Null if absent (or if the segments name an operand that is missing).
  Value getMask() const;
  Value getOther() const;
};

/// tt.dot: a, b, c.
class DotOp : public OpView {
public:
  explicit DotOp(Operation *op) : OpView(op, opname::Dot) {}
  Value getA() const { return op->getOperand(0); }
  Value getB() const { return op->getOperand(1); }
  Value getC() const { return op->getOperand(2); }
  /// inputPrecision is TF32 (Triton's InputPrecision::TF32 = 0).
  bool isTF32() const;
};

/// ttg.convert_layout.
class ConvertLayoutOp : public OpView {
public:
  explicit ConvertLayoutOp(Operation *op) : OpView(op, opname::ConvertLayout) {}
  Value getSrc() const { return op->getOperand(0); }
  Value getResult() const { return op->getResult(0); }
};

/// ttg.local_alloc[ %src].
class LocalAllocOp : public OpView {
public:
  explicit LocalAllocOp(Operation *op) : OpView(op, opname::LocalAlloc) {}
  /// Null for an uninitialised buffer.
  Value getSrc() const {
    return op->getNumOperands() ? op->getOperand(0) : Value();
  }
  /// The `alignment` attribute, if any.
  std::optional<int64_t> getAlignment() const;
};

/// tt.get_program_id.
class ProgramIdOp : public OpView {
public:
  explicit ProgramIdOp(Operation *op) : OpView(op, opname::GetProgramId) {}
  /// 0, 1 or 2; nullopt if missing or out of range.
  std::optional<int> getAxis() const;
};

/// tt.get_num_programs.
class NumProgramsOp : public OpView {
public:
  explicit NumProgramsOp(Operation *op)
      : OpView(op, opname::GetNumPrograms) {}
  /// 0, 1 or 2; nullopt if missing or out of range.
  std::optional<int> getAxis() const;
};

/// tt.reduce.
class ReduceOp : public OpView {
public:
  explicit ReduceOp(Operation *op) : OpView(op, opname::Reduce) {}
  std::optional<unsigned> getAxis() const;
};

/// tt.scan.
class ScanOp : public OpView {
public:
  explicit ScanOp(Operation *op) : OpView(op, opname::Scan) {}
  std::optional<unsigned> getAxis() const;
};

//===----------------------------------------------------------------------===//
// Building
//===----------------------------------------------------------------------===//

/// arith.cmpi predicates (MLIR's arith::CmpIPredicate values).
enum class CmpIPredicate : int64_t { eq = 0, slt = 2, sgt = 4 };

/// Builds generic operations the way Triton prints them. Every operation it
/// creates is also added to `track` when given.
class GenericBuilder {
public:
  GenericBuilder(OpBuilder &b, Location loc,
                 llvm::SmallPtrSetImpl<Operation *> *track = nullptr)
      : b(b), loc(loc), track(track) {}

  /// `properties`: the inherent attributes (a DictionaryAttr) or null.
  Operation *create(StringRef name, ValueRange operands, TypeRange results,
                    Attribute properties = {}, unsigned numRegions = 0);
  Operation *create(StringRef name, ValueRange operands, TypeRange results,
                    ArrayRef<NamedAttribute> properties,
                    unsigned numRegions = 0);

  // arith
  Value constantInt(Type type, int64_t value);
  /// An arith op on two operands of the first one's type; addi, subi and
  /// muli carry `overflowFlags = #arith.overflow<none>`, as Triton prints.
  Value binary(StringRef name, Value lhs, Value rhs);
  Value cmpi(CmpIPredicate predicate, Value lhs, Value rhs);
  Value select(Value cond, Value ifTrue, Value ifFalse);
  /// An element-type cast (`name` is the cast op) to `type`.
  Value cast(StringRef name, Value v, Type type);

  // scf
  Operation *yield(ValueRange values);
  /// scf.if with two empty regions.
  Operation *ifOp(Value cond, TypeRange results);

  // tt / ttg / ttng
  Value numPrograms(int axis);
  /// On a hip target, the pointer to the kernel's implicit arguments
  /// (`llvm.amdgcn.implicitarg.ptr`), for hipNumPrograms.
  Value hipImplicitArgs();
  /// The number of programs along `axis` on a hip target, read the way
  /// tt.get_num_programs is once lowered and inlined: the i32 implicit
  /// argument hidden_block_count_{x,y,z} (`implicitArgs`: hipImplicitArgs).
  /// Triton lowers tt.get_num_programs to a call of the device library
  /// (__ockl_get_num_groups), so make_llir links and optimises ockl.bc for
  /// it (about 20 ms per make_llir); this compiles to the same amdgcn.
  Value hipNumPrograms(Value implicitArgs, int axis);
  /// `cond` marked as expected to be false (`llvm.expect.i1`): LLVM gives the
  /// branch on it weights, and block placement moves the taken side out of
  /// the straight-line path.
  Value expectFalse(Value cond);
  Value splat(Value v, Type type);
  Value convertLayout(Value v, Type type);
  Value localAlloc(Type memdesc);
  Value localLoad(Value buffer, Type type);
  void localStore(Value v, Value buffer);
  void localDealloc(Value buffer);
  /// ttg.barrier over local memory (addrSpace = 1).
  void barrierLocal();
  /// Hopper: orders this thread's generic-proxy shared-memory writes before
  /// later async-proxy (wgmma) reads.
  void fenceAsyncShared();

  OpBuilder &b;
  Location loc;

private:
  llvm::SmallPtrSetImpl<Operation *> *track;
};

//===----------------------------------------------------------------------===//
// Locations
//===----------------------------------------------------------------------===//

enum class LocStyle {
  FileLineCol,  ///< "file:line:col"
  FileLine,     ///< "file:line"
  BaseNameLine, ///< "file.py:line" (directories dropped)
};
/// The first file location in `loc` (through name, call-site and fused
/// locations) in `style`, or `fallback` if there is none.
std::string formatFileLocation(Location loc, LocStyle style,
                               StringRef fallback);
/// For diagnostics: "file:line:col" of the first file location, "unknown"
/// for an unknown location, else the printed location.
std::string formatDiagnosticLocation(Location loc);
/// The name of `loc` if it is a NameLoc (`nested`: the first NameLoc
/// inside it); "" otherwise.
std::string getLocationName(Location loc, bool nested);

} // namespace mlir::triton_mfma

#endif // TRITONMFMA_GENERICIR_H
