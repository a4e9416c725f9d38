//===- GenericIR.cpp - reading and writing Triton's generic IR ------------===//
//
// See include/TritonMFMA/GenericIR.h.
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/GenericIR.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

using namespace mlir;
using namespace mlir::triton_mfma;

//===----------------------------------------------------------------------===//
// Matching
//===----------------------------------------------------------------------===//

Attribute mlir::triton_mfma::getInherentOrAttr(Operation *op, StringRef name) {
  if (std::optional<Attribute> a = op->getInherentAttr(name))
    if (*a)
      return *a;
  return op->getAttr(name);
}

DictionaryAttr mlir::triton_mfma::getProperties(Operation *op) {
  return dyn_cast_or_null<DictionaryAttr>(op->getPropertiesAsAttribute());
}

llvm::iterator_range<Block::iterator>
mlir::triton_mfma::opsBeforeTerminator(Block *block) {
  if (block->empty())
    return llvm::make_range(block->end(), block->end());
  return llvm::make_range(block->begin(), std::prev(block->end()));
}

ValueRange mlir::triton_mfma::getTerminatorOperands(Region &r) {
  if (r.empty() || r.front().empty())
    return {};
  return r.front().back().getOperands();
}

std::optional<int64_t> mlir::triton_mfma::getIntegerValue(Attribute attr) {
  auto i = dyn_cast_or_null<IntegerAttr>(attr);
  if (!i)
    return std::nullopt;
  const APInt &v = i.getValue();
  if (i.getType().isUnsignedInteger()) {
    if (v.getActiveBits() > 63)
      return std::nullopt;
    return int64_t(v.getZExtValue());
  }
  if (v.getBitWidth() == 0 || v.getSignificantBits() > 64)
    return std::nullopt;
  return v.getSExtValue();
}

std::optional<int64_t> mlir::triton_mfma::getConstantInt(Value v) {
  Operation *def = v ? v.getDefiningOp() : nullptr;
  if (!isOp(def, opname::Constant))
    return std::nullopt;
  return getIntegerValue(getInherentOrAttr(def, "value"));
}

/// An integer attribute as unsigned: 0 if it does not fit.
static unsigned toUnsignedOrZero(IntegerAttr a) {
  std::optional<int64_t> v = getIntegerValue(a);
  return v && *v >= 0 && *v <= int64_t(std::numeric_limits<unsigned>::max())
             ? unsigned(*v)
             : 0;
}

bool mlir::triton_mfma::mayWriteGlobalMemory(Operation *op) {
  StringRef n = op->getName().getStringRef();
  if (n.starts_with("ttg.local_"))
    return false;
  return n.contains("store") || n.contains("atomic") || n.contains("scatter") ||
         isOp(op, opname::Call);
}

bool mlir::triton_mfma::isStoredValue(OpOperand &use) {
  return isAnyOp(use.getOwner(), opname::Store, opname::AtomicRMW) &&
         use.getOperandNumber() == 1;
}

bool mlir::triton_mfma::isMemDescView(Operation *op) {
  return isAnyOp(op, opname::MemDescIndex, opname::MemDescSubslice,
                 opname::MemDescTrans, opname::MemDescReshape,
                 opname::MemDescReinterpret, opname::MemDescSubview);
}

//===----------------------------------------------------------------------===//
// The module
//===----------------------------------------------------------------------===//

std::optional<unsigned> mlir::triton_mfma::lookupNumWarps(Operation *op) {
  for (Operation *p = op; p; p = p->getParentOp())
    if (auto a = p->getAttrOfType<IntegerAttr>(attrname::NumWarps))
      return toUnsignedOrZero(a);
  return std::nullopt;
}

std::optional<StringRef> mlir::triton_mfma::getTarget(ModuleOp module) {
  if (auto t = module->getAttrOfType<StringAttr>(attrname::Target))
    return t.getValue();
  return std::nullopt;
}

std::optional<unsigned> mlir::triton_mfma::getThreadsPerWarp(ModuleOp module) {
  if (auto a = module->getAttrOfType<IntegerAttr>(attrname::ThreadsPerWarp))
    return toUnsignedOrZero(a);
  return std::nullopt;
}

SmallVector<Operation *> mlir::triton_mfma::getFunctions(ModuleOp module) {
  SmallVector<Operation *> funcs;
  module.walk([&](Operation *op) {
    if (isOp(op, opname::Func))
      funcs.push_back(op);
  });
  return funcs;
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

static StringAttr getInherentString(Operation *op, StringRef name) {
  std::optional<Attribute> a = op->getInherentAttr(name);
  return a ? dyn_cast_or_null<StringAttr>(*a) : StringAttr();
}

StringRef FuncOp::getName() const {
  StringAttr s = getInherentString(op, "sym_name");
  return s ? s.getValue() : StringRef();
}

bool FuncOp::isPublicDefinition() const {
  if (op->getNumRegions() != 1 || op->getRegion(0).empty())
    return false;
  StringAttr vis = getInherentString(op, "sym_visibility");
  return !vis || vis.getValue() == "public";
}

std::optional<StringRef> CallOp::getCallee() const {
  std::optional<Attribute> a = op->getInherentAttr("callee");
  if (auto sym =
          a ? dyn_cast_or_null<FlatSymbolRefAttr>(*a) : FlatSymbolRefAttr())
    return sym.getValue();
  return std::nullopt;
}

bool ForOp::isWellFormed() const {
  if (op->getNumRegions() != 1 || !op->getRegion(0).hasOneBlock() ||
      op->getNumOperands() < 3)
    return false;
  Block *body = getBody();
  unsigned numIter = getNumIterArgs();
  return !body->empty() && body->getNumArguments() == numIter + 1 &&
         op->getNumResults() == numIter && isOp(&body->back(), opname::Yield) &&
         body->back().getNumOperands() == numIter;
}

bool ForOp::isUnsignedCmp() const {
  DictionaryAttr props = getProperties(op);
  return props && props.get("unsignedCmp");
}

std::optional<int64_t> ForOp::getNumStages() const {
  return getIntegerValue(op->getAttr(attrname::NumStages));
}

static DenseI32ArrayAttr getSegmentSizes(Operation *op) {
  DictionaryAttr props = getProperties(op);
  return props ? dyn_cast_or_null<DenseI32ArrayAttr>(
                     props.get("operandSegmentSizes"))
               : DenseI32ArrayAttr();
}

bool LoadOp::hasWellFormedOperands() const {
  unsigned n = op->getNumOperands();
  if (n < 1 || n > 3)
    return false;
  DenseI32ArrayAttr seg = getSegmentSizes(op);
  if (!seg)
    return true;
  ArrayRef<int32_t> s = seg.asArrayRef();
  return s.size() == 3 && s[0] == 1 && s[1] >= 0 && s[1] <= 1 && s[2] >= 0 &&
         s[2] <= 1 && unsigned(s[0] + s[1] + s[2]) == n;
}

SmallVector<int32_t, 3> LoadOp::getSegments() const {
  // Without printed segment sizes the operands are ptr[, mask[, other]].
  unsigned n = op->getNumOperands();
  SmallVector<int32_t, 3> segments{1, n > 1 ? 1 : 0, n > 2 ? 1 : 0};
  if (DenseI32ArrayAttr seg = getSegmentSizes(op)) {
    ArrayRef<int32_t> s = seg.asArrayRef();
    if (s.size() == 3 && llvm::all_of(s, [](int32_t x) { return x >= 0; }))
      segments.assign(s.begin(), s.end());
  }
  return segments;
}

Value LoadOp::getMask() const {
  SmallVector<int32_t, 3> s = getSegments();
  unsigned at = s[0];
  return s[1] && at < op->getNumOperands() ? op->getOperand(at) : Value();
}

Value LoadOp::getOther() const {
  SmallVector<int32_t, 3> s = getSegments();
  unsigned at = unsigned(s[0]) + unsigned(s[1]);
  return s[2] && at < op->getNumOperands() ? op->getOperand(at) : Value();
}

bool DotOp::isTF32() const {
  if (DictionaryAttr dict = getProperties(op))
    return getIntegerValue(dict.get("inputPrecision")) == int64_t(0);
  return false;
}

std::optional<int64_t> LocalAllocOp::getAlignment() const {
  return getIntegerValue(op->getAttr("alignment"));
}

/// The `axis` of tt.get_program_id / tt.get_num_programs: 0, 1 or 2.
static std::optional<int> getGridAxis(Operation *op) {
  std::optional<int64_t> axis = getIntegerValue(getInherentOrAttr(op, "axis"));
  if (!axis || *axis < 0 || *axis > 2)
    return std::nullopt;
  return int(*axis);
}

std::optional<int> ProgramIdOp::getAxis() const { return getGridAxis(op); }

std::optional<int> NumProgramsOp::getAxis() const { return getGridAxis(op); }

static std::optional<unsigned> axisAttr(Operation *op) {
  std::optional<int64_t> axis = getIntegerValue(op->getAttr("axis"));
  if (!axis || *axis < 0 || *axis > int64_t(1) << 30)
    return std::nullopt;
  return unsigned(*axis);
}

std::optional<unsigned> ReduceOp::getAxis() const { return axisAttr(op); }

std::optional<unsigned> ScanOp::getAxis() const { return axisAttr(op); }

//===----------------------------------------------------------------------===//
// Building
//===----------------------------------------------------------------------===//

Operation *GenericBuilder::create(StringRef name, ValueRange operands,
                                  TypeRange results, Attribute properties,
                                  unsigned numRegions) {
  OperationState state(loc, name);
  state.addOperands(operands);
  state.addTypes(results);
  if (properties)
    state.propertiesAttr = properties;
  for (unsigned i = 0; i < numRegions; ++i)
    state.addRegion();
  Operation *op = b.create(state);
  if (track)
    track->insert(op);
  return op;
}

Operation *GenericBuilder::create(StringRef name, ValueRange operands,
                                  TypeRange results,
                                  ArrayRef<NamedAttribute> properties,
                                  unsigned numRegions) {
  return create(name, operands, results,
                properties.empty()
                    ? Attribute()
                    : DictionaryAttr::get(b.getContext(), properties),
                numRegions);
}

Value GenericBuilder::constantInt(Type type, int64_t value) {
  return create(opname::Constant, {}, type,
                {b.getNamedAttr("value", b.getIntegerAttr(type, value))})
      ->getResult(0);
}

Value GenericBuilder::binary(StringRef name, Value lhs, Value rhs) {
  SmallVector<NamedAttribute, 1> props;
  if (name == opname::AddI || name == opname::SubI || name == opname::MulI) {
    MLIRContext *ctx = b.getContext();
    props.push_back(
        b.getNamedAttr("overflowFlags",
                       OpaqueAttr::get(StringAttr::get(ctx, dialect::Arith),
                                       "overflow<none>", NoneType::get(ctx))));
  }
  return create(name, {lhs, rhs}, lhs.getType(), props)->getResult(0);
}

Value GenericBuilder::cmpi(CmpIPredicate predicate, Value lhs, Value rhs) {
  return create(opname::CmpI, {lhs, rhs}, b.getI1Type(),
                {b.getNamedAttr(
                    "predicate",
                    b.getIntegerAttr(b.getI64Type(), int64_t(predicate)))})
      ->getResult(0);
}

Value GenericBuilder::select(Value cond, Value ifTrue, Value ifFalse) {
  return create(opname::Select, {cond, ifTrue, ifFalse}, ifTrue.getType())
      ->getResult(0);
}

Value GenericBuilder::cast(StringRef name, Value v, Type type) {
  return create(name, v, type)->getResult(0);
}

Operation *GenericBuilder::yield(ValueRange values) {
  return create(opname::Yield, values, {});
}

Operation *GenericBuilder::ifOp(Value cond, TypeRange results) {
  return create(opname::If, cond, results, Attribute(), /*numRegions=*/2);
}

Value GenericBuilder::numPrograms(int axis) {
  return create(opname::GetNumPrograms, {}, b.getI32Type(),
                {b.getNamedAttr("axis", b.getI32IntegerAttr(axis))})
      ->getResult(0);
}

/// `!llvm.ptr<4>`: a pointer to constant memory (the implicit arguments).
static Type llvmConstantPtr(MLIRContext *ctx) {
  return OpaqueType::get(StringAttr::get(ctx, "llvm"), "ptr<4>");
}

Value GenericBuilder::hipImplicitArgs() {
  return create(opname::LLVMCallIntrinsic, {}, llvmConstantPtr(b.getContext()),
                {b.getNamedAttr("intrin",
                                b.getStringAttr(opname::ImplicitArgPtr)),
                 b.getNamedAttr("op_bundle_sizes", b.getDenseI32ArrayAttr({})),
                 b.getNamedAttr("operandSegmentSizes",
                                b.getDenseI32ArrayAttr({0, 0}))})
      ->getResult(0);
}

Value GenericBuilder::expectFalse(Value cond) {
  Value no = constantInt(b.getI1Type(), 0);
  return create(opname::LLVMCallIntrinsic, {cond, no}, b.getI1Type(),
                {b.getNamedAttr("intrin", b.getStringAttr(opname::ExpectI1)),
                 b.getNamedAttr("op_bundle_sizes", b.getDenseI32ArrayAttr({})),
                 b.getNamedAttr("operandSegmentSizes",
                                b.getDenseI32ArrayAttr({2, 0}))})
      ->getResult(0);
}

// Code object v5 (Triton sets ABI version 500 on every hip module): the
// implicit kernel arguments start with hidden_block_count_x, _y, _z, three
// u32 at offsets 0, 4, 8 (AMDGPUUsage, "Code Object V5 Metadata";
// AMDGPULowerKernelAttributes reads them there too): element `axis` of i32.
Value GenericBuilder::hipNumPrograms(Value implicitArgs, int axis) {
  Value field =
      create(opname::LLVMGetElementPtr, implicitArgs,
             llvmConstantPtr(b.getContext()),
             {b.getNamedAttr("elem_type", TypeAttr::get(b.getI32Type())),
              b.getNamedAttr("rawConstantIndices",
                             b.getDenseI32ArrayAttr({axis}))})
          ->getResult(0);
  return create(opname::LLVMLoad, field, b.getI32Type(),
                {b.getNamedAttr("alignment", b.getI64IntegerAttr(4))})
      ->getResult(0);
}

Value GenericBuilder::splat(Value v, Type type) {
  return create(opname::Splat, v, type)->getResult(0);
}

Value GenericBuilder::convertLayout(Value v, Type type) {
  return create(opname::ConvertLayout, v, type)->getResult(0);
}

Value GenericBuilder::localAlloc(Type memdesc) {
  return create(opname::LocalAlloc, {}, memdesc)->getResult(0);
}

Value GenericBuilder::localLoad(Value buffer, Type type) {
  return create(opname::LocalLoad, buffer, type)->getResult(0);
}

void GenericBuilder::localStore(Value v, Value buffer) {
  create(opname::LocalStore, {v, buffer}, {});
}

void GenericBuilder::localDealloc(Value buffer) {
  create(opname::LocalDealloc, buffer, {});
}

void GenericBuilder::barrierLocal() {
  create(opname::Barrier, {}, {},
         {b.getNamedAttr("addrSpace", b.getI32IntegerAttr(1))});
}

void GenericBuilder::fenceAsyncShared() {
  create(opname::FenceAsyncShared, {}, {},
         {b.getNamedAttr("bCluster", b.getBoolAttr(false))});
}

//===----------------------------------------------------------------------===//
// Locations
//===----------------------------------------------------------------------===//

static FileLineColLoc findFileLineCol(Location loc) {
  FileLineColLoc found;
  loc->walk([&](Location l) {
    if (auto flc = dyn_cast<FileLineColLoc>(l)) {
      found = flc;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

std::string mlir::triton_mfma::formatFileLocation(Location loc, LocStyle style,
                                                  StringRef fallback) {
  FileLineColLoc flc = findFileLineCol(loc);
  if (!flc)
    return fallback.str();
  StringRef file = flc.getFilename().getValue();
  if (style == LocStyle::BaseNameLine && !file.rsplit('/').second.empty())
    file = file.rsplit('/').second;
  std::string out;
  llvm::raw_string_ostream os(out);
  os << file << ":" << flc.getLine();
  if (style == LocStyle::FileLineCol)
    os << ":" << flc.getColumn();
  return out;
}

std::string mlir::triton_mfma::formatDiagnosticLocation(Location loc) {
  if (findFileLineCol(loc))
    return formatFileLocation(loc, LocStyle::FileLineCol, "");
  if (isa<UnknownLoc>(loc))
    return "unknown";
  std::string out;
  llvm::raw_string_ostream os(out);
  loc.print(os);
  return out;
}

std::string mlir::triton_mfma::getLocationName(Location loc, bool nested) {
  if (!nested) {
    if (auto name = dyn_cast<NameLoc>(loc))
      return name.getName().str();
    return "";
  }
  std::string out;
  loc->walk([&](Location l) {
    if (auto n = dyn_cast<NameLoc>(l)) {
      out = n.getName().str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return out;
}
