//===- L2Model.cpp - L2 reuse model for grid ordering ---------------------===//
//
// Figures: TargetInfo.cpp. The formulas of the run-time guards: L2Model.h
// (stockOrderMisses, sharedBytesExceedL2), evaluated here for the C API.
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/L2Model.h"
#include "TritonMFMA/TargetInfo.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::triton_mfma;

Residency TargetL2Model::residency(int numWarps, int64_t sharedBytes) const {
  Residency r;
  r.byRegisters = std::max<int64_t>(1, residentWarps / std::max(1, numWarps));
  r.bySlots = std::max(1, maxProgramsPerCU);
  r.byShared = r.bySlots;
  if (sharedBytes > 0) {
    int64_t g = std::max<int64_t>(1, sharedGranule);
    int64_t allocated = (sharedBytes + g - 1) / g * g;
    r.byShared = std::max<int64_t>(
        1, sharedPerCU / (allocated + sharedReservedPerProgram));
  }
  r.programs = r.byRegisters;
  r.limiter = "registers";
  if (r.byShared < r.programs) {
    r.programs = r.byShared;
    r.limiter = "LDS";
  }
  if (r.bySlots < r.programs) {
    r.programs = r.bySlots;
    r.limiter = "workgroup slots";
  }
  return r;
}

Residency TargetL2Model::programsAtMost(int numWarps,
                                        int64_t sharedBytes) const {
  Residency r = residency(numWarps, sharedBytes);
  r.byRegisters = std::max<int64_t>(
      1, std::max(maxResidentWarps, residentWarps) / std::max(1, numWarps));
  r.programs = std::min({r.byRegisters, r.byShared, r.bySlots});
  r.limiter = r.programs == r.byRegisters ? "warp slots"
              : r.programs == r.byShared  ? "LDS"
                                          : "workgroup slots";
  return r;
}

static TargetL2Model fromTargetInfo(StringRef target, const TargetInfo &t) {
  TargetL2Model m;
  m.target = target.str();
  m.device = t.device;
  m.l2Bytes = t.l2Bytes;
  m.l2Effective = t.l2Effective;
  m.cus = t.cus;
  m.xcds = t.xcds;
  // Waves per SIMD that fit whatever their registers: the register file over
  // the most a wave may allocate (granule-aligned), at least one.
  int granule = std::max(1, t.vgprGranule);
  int perWave =
      (std::max(1, t.maxVgprsPerWave) + granule - 1) / granule * granule;
  int waves = std::max(1, t.vgprFile / perWave);
  if (t.maxWavesPerSIMD > 0)
    waves = std::min(waves, t.maxWavesPerSIMD);
  m.residentWarps = t.simdsPerCU * waves;
  m.maxResidentWarps =
      t.simdsPerCU * (t.maxWavesPerSIMD > 0 ? t.maxWavesPerSIMD : waves);
  // On an H200 a remap of a launch that fits one wave at the kernel's real
  // residency cost 2% (split-K decode, 512 programs, 4 per SM; issue 38);
  // on the MI210 the published split-K measurement gained with about two
  // workgroups per CU, so CDNA keeps the lower bound.
  m.wavesAtMost = target.starts_with("cuda:");
  m.sharedPerCU = t.ldsPerCU;
  m.sharedReservedPerProgram = t.ldsReservedPerWorkgroup;
  m.sharedGranule = t.ldsGranule;
  m.maxProgramsPerCU = t.workgroupSlotsPerCU;
  return m;
}

std::optional<TargetL2Model>
mlir::triton_mfma::lookupL2Model(StringRef target) {
  const TargetInfo *t = lookupTargetInfo(target);
  if (!t || t->l2Bytes == 0 || t->cus == 0)
    return std::nullopt;
  return fromTargetInfo(target, *t);
}

TargetL2Model mlir::triton_mfma::getL2Model(StringRef target) {
  if (std::optional<TargetL2Model> m = lookupL2Model(target))
    return *m;
  return fromTargetInfo(target, getUnknownTargetInfo(target));
}

namespace {
/// stockOrderMisses on 64-bit integers (wrapping, as the emitted i64 IR).
struct IntArith {
  using Value = int64_t;
  Value constant(int64_t v) { return v; }
  Value widen(Value v) { return v; }
  Value mul(Value a, Value b) { return int64_t(uint64_t(a) * uint64_t(b)); }
  Value add(Value a, Value b) { return int64_t(uint64_t(a) + uint64_t(b)); }
  Value greater(Value a, Value b) { return a > b; }
  Value both(Value a, Value b) { return a && b; }
};
} // namespace

StockOrderGuard<int64_t> mlir::triton_mfma::evaluateStockOrderMisses(
    ArrayRef<int64_t> sizes, unsigned farDim, ArrayRef<L2Operand> operands,
    int64_t concurrent, int64_t threshold) {
  IntArith a;
  int64_t total = 1;
  for (int64_t size : sizes)
    total = a.mul(total, size);
  return stockOrderMisses<IntArith>(
      a, total, sizes, farDim, operands.size(),
      [&](unsigned o) { return operands[o].bytes; },
      [&](unsigned o) { return operands[o].moved; }, concurrent, threshold,
      a.greater(sizes[farDim], 1));
}

SharedFootprint<int64_t> mlir::triton_mfma::evaluateSharedBytesExceedL2(
    ArrayRef<int64_t> sizes, ArrayRef<L2Operand> operands, int64_t threshold) {
  IntArith a;
  return sharedBytesExceedL2<IntArith>(
      a, sizes, operands.size(), [&](unsigned o) { return operands[o].bytes; },
      [&](unsigned o) { return operands[o].moved; }, threshold);
}

static std::string errorJSON(const llvm::Twine &msg) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(llvm::json::Object{{"error", msg.str()}});
  return text;
}

/// "sizes" and "operands" of a grid request; an error message on failure.
static std::string parseGrid(const llvm::json::Object &grid,
                             SmallVectorImpl<int64_t> &sizes,
                             SmallVectorImpl<L2Operand> &operands) {
  const llvm::json::Array *sizesJ = grid.getArray("sizes");
  const llvm::json::Array *opsJ = grid.getArray("operands");
  if (!sizesJ || !opsJ)
    return "needs 'sizes' (fastest first) and 'operands' ([{\"bytes\", "
           "\"moved\"}])";
  for (const llvm::json::Value &s : *sizesJ) {
    std::optional<int64_t> v = s.getAsInteger();
    if (!v)
      return "sizes must be integers";
    sizes.push_back(*v);
  }
  if (sizes.size() > 32)
    return "at most 32 dimensions";
  for (const llvm::json::Value &o : *opsJ) {
    const llvm::json::Object *obj = o.getAsObject();
    std::optional<int64_t> bytes =
        obj ? obj->getInteger("bytes") : std::nullopt;
    const llvm::json::Array *movedJ = obj ? obj->getArray("moved") : nullptr;
    if (!bytes || !movedJ)
      return "an operand is {\"bytes\": int, \"moved\": [dim...]}";
    L2Operand op;
    op.bytes = *bytes;
    for (const llvm::json::Value &d : *movedJ) {
      std::optional<int64_t> dim = d.getAsInteger();
      if (!dim || *dim < 0 || *dim >= 32)
        return "'moved' holds dimension indices (0..31)";
      op.moved |= DimMask(1) << *dim;
    }
    operands.push_back(op);
  }
  return "";
}

static int64_t intOr(const llvm::json::Object &req, StringRef key,
                     int64_t dflt) {
  return req.getInteger(key).value_or(dflt);
}

/// As mfma-grid-order does: the target's figures, then the request's
/// overrides; `known` whether the target is one of TargetInfo's.
static TargetL2Model requestedModel(const llvm::json::Object &req,
                                    StringRef target, bool &known) {
  std::optional<TargetL2Model> figures = lookupL2Model(target);
  known = figures.has_value();
  TargetL2Model m = figures ? *figures : getL2Model(target);
  if (int64_t v = intOr(req, "l2_bytes", 0); v > 0)
    m.l2Bytes = v;
  if (int64_t v = intOr(req, "l2_effective_percent", 0); v > 0)
    m.l2Effective = v / 100.0;
  if (int64_t v = intOr(req, "num_cus", 0); v > 0)
    m.cus = int(v);
  if (int64_t v = intOr(req, "num_xcds", 0); v > 0)
    m.xcds = int(v);
  return m;
}

/// The model's figures and the programs resident per CU at the request's
/// num_warps and shared_bytes (or its programs_per_cu); `concurrent` the
/// programs resident on the whole device.
static llvm::json::Object residencyFigures(const llvm::json::Object &req,
                                           const TargetL2Model &m, bool known,
                                           int64_t &concurrent) {
  int numWarps = int(intOr(req, "num_warps", 4));
  int64_t sharedBytes = intOr(req, "shared_bytes", 0);
  Residency r = m.wavesAtMost ? m.programsAtMost(numWarps, sharedBytes)
                              : m.residency(numWarps, sharedBytes);
  int64_t perCU = r.programs;
  std::string limiter = r.limiter;
  if (int64_t v = intOr(req, "programs_per_cu", 0); v > 0) {
    perCU = v;
    limiter = "given";
  }
  concurrent = perCU * m.cus;
  return llvm::json::Object{
      {"target", m.target},
      {"device", m.device},
      {"known", known},
      {"l2_bytes", m.l2Bytes},
      {"l2_effective", m.l2Effective},
      {"effective_l2_bytes", m.effectiveL2Bytes()},
      {"cus", m.cus},
      {"xcds", m.xcds},
      {"resident_warps", m.residentWarps},
      {"shared_per_cu", m.sharedPerCU},
      {"shared_reserved_per_program", m.sharedReservedPerProgram},
      {"shared_granule", m.sharedGranule},
      {"max_programs_per_cu", m.maxProgramsPerCU},
      {"num_warps", numWarps},
      {"shared_bytes", sharedBytes},
      {"programs_by_registers", r.byRegisters},
      {"programs_by_shared", r.byShared},
      {"programs_by_slots", r.bySlots},
      {"programs_limiter", limiter},
      {"programs_per_cu", perCU},
      {"concurrent_programs", concurrent},
  };
}

/// The request's "grid": the stock order's guard (stockOrderMisses) into
/// `out`; an error message on failure.
static std::string addGridFigures(const llvm::json::Object &grid,
                                  const TargetL2Model &m, int64_t concurrent,
                                  llvm::json::Object &out) {
  SmallVector<int64_t> sizes;
  SmallVector<L2Operand> operands;
  std::optional<int64_t> farDim = grid.getInteger("far_dim");
  std::string err = parseGrid(grid, sizes, operands);
  if (err.empty() &&
      (!farDim || *farDim < 0 || uint64_t(*farDim) > sizes.size()))
    err = "needs 'far_dim' (the dimension twins differ in) in range";
  if (!err.empty())
    return err;
  StockOrderGuard<int64_t> v = evaluateStockOrderMisses(
      sizes, unsigned(*farDim), operands, concurrent, m.effectiveL2Bytes());
  out["total_programs"] = v.totalPrograms;
  out["streamed_bytes"] = v.streamedBytes;
  out["misses"] = v.misses != 0;
  return "";
}

/// The request's "xcd": sharedBytesExceedL2 into `out`; an error message on
/// failure.
static std::string addXcdFigures(const llvm::json::Object &xcd,
                                 const TargetL2Model &m,
                                 llvm::json::Object &out) {
  SmallVector<int64_t> sizes;
  SmallVector<L2Operand> operands;
  if (std::string err = parseGrid(xcd, sizes, operands); !err.empty())
    return err;
  SharedFootprint<int64_t> v =
      evaluateSharedBytesExceedL2(sizes, operands, m.effectiveL2Bytes());
  out["distinct_bytes"] = v.distinctBytes;
  out["exceeds"] = v.exceeds != 0;
  return "";
}

std::string mlir::triton_mfma::queryL2Model(StringRef requestJSON) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(requestJSON);
  if (!parsed)
    return errorJSON("bad JSON: " + llvm::toString(parsed.takeError()));
  const llvm::json::Object *req = parsed->getAsObject();
  if (!req)
    return errorJSON("the request must be a JSON object");
  std::optional<StringRef> target = req->getString("target");
  if (!target)
    return errorJSON("'target' (a module's target string, e.g. \"hip:gfx942\") "
                     "is required");
  bool known = false;
  TargetL2Model m = requestedModel(*req, *target, known);
  int64_t concurrent = 0;
  llvm::json::Object out = residencyFigures(*req, m, known, concurrent);
  if (const llvm::json::Object *grid = req->getObject("grid"))
    if (std::string err = addGridFigures(*grid, m, concurrent, out);
        !err.empty())
      return errorJSON("'grid' " + err);
  if (const llvm::json::Object *xcd = req->getObject("xcd"))
    if (std::string err = addXcdFigures(*xcd, m, out); !err.empty())
      return errorJSON("'xcd' " + err);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(out));
  return text;
}
