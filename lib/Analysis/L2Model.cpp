//===- L2Model.cpp - L2 reuse model for grid ordering ---------------------===//
//
// Figures: TargetInfo.cpp. The formula of the run-time guard: L2Model.h
// (stockOrderMisses), evaluated here for the C API.
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/L2Model.h"
#include "TritonMFMA/TargetInfo.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::triton_mfma;

int64_t TargetL2Model::programsPerCU(int numWarps, int64_t sharedBytes) const {
  int64_t byWarps = residentWarps / std::max(1, numWarps);
  int64_t byShared = maxProgramsPerCU;
  if (sharedBytes > 0) {
    int64_t g = std::max<int64_t>(1, sharedGranule);
    int64_t allocated = (sharedBytes + g - 1) / g * g;
    byShared = sharedPerCU / (allocated + sharedReservedPerProgram);
  }
  return std::max<int64_t>(
      1, std::min<int64_t>({byWarps, byShared, (int64_t)maxProgramsPerCU}));
}

static TargetL2Model fromTargetInfo(StringRef target, const TargetInfo &t) {
  TargetL2Model m;
  m.target = target.str();
  m.device = t.device;
  m.l2Bytes = t.l2Bytes;
  m.l2Effective = t.l2Effective;
  m.cus = t.cus;
  m.xcds = t.xcds;
  m.residentWarps =
      t.simdsPerCU *
      std::min(t.maxWavesPerSIMD, t.vgprFile / kAssumedRegistersPerThread);
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
  return stockOrderMisses<IntArith>(
      a, sizes, farDim, operands.size(),
      [&](unsigned o) { return operands[o].bytes; },
      [&](unsigned o) { return operands[o].moved; }, concurrent, threshold);
}

static std::string errorJSON(const llvm::Twine &msg) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(llvm::json::Object{{"error", msg.str()}});
  return text;
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
  auto getInt = [&](StringRef key, int64_t dflt) {
    return req->getInteger(key).value_or(dflt);
  };

  // As mfma-grid-order does: the target's figures, then the option
  // overrides.
  std::optional<TargetL2Model> known = lookupL2Model(*target);
  TargetL2Model m = known ? *known : getL2Model(*target);
  if (int64_t v = getInt("l2_bytes", 0); v > 0)
    m.l2Bytes = v;
  if (int64_t v = getInt("l2_effective_percent", 0); v > 0)
    m.l2Effective = v / 100.0;
  if (int64_t v = getInt("num_cus", 0); v > 0)
    m.cus = int(v);
  if (int64_t v = getInt("num_xcds", 0); v > 0)
    m.xcds = int(v);
  int numWarps = int(getInt("num_warps", 4));
  int64_t sharedBytes = getInt("shared_bytes", 0);
  int64_t concurrent = m.concurrentPrograms(numWarps, sharedBytes);

  llvm::json::Object out{
      {"target", m.target},
      {"device", m.device},
      {"known", known.has_value()},
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
      {"programs_per_cu", m.programsPerCU(numWarps, sharedBytes)},
      {"concurrent_programs", concurrent},
  };
  if (const llvm::json::Object *grid = req->getObject("grid")) {
    const llvm::json::Array *sizesJ = grid->getArray("sizes");
    const llvm::json::Array *opsJ = grid->getArray("operands");
    std::optional<int64_t> farDim = grid->getInteger("far_dim");
    if (!sizesJ || !opsJ || !farDim || *farDim < 0)
      return errorJSON("'grid' needs 'sizes' (fastest first), 'far_dim' and "
                       "'operands' ([{\"bytes\", \"moved\"}])");
    SmallVector<int64_t> sizes;
    for (const llvm::json::Value &s : *sizesJ) {
      std::optional<int64_t> v = s.getAsInteger();
      if (!v)
        return errorJSON("grid sizes must be integers");
      sizes.push_back(*v);
    }
    if (uint64_t(*farDim) > sizes.size() || sizes.size() > 32)
      return errorJSON("far_dim out of range");
    SmallVector<L2Operand> operands;
    for (const llvm::json::Value &o : *opsJ) {
      const llvm::json::Object *obj = o.getAsObject();
      std::optional<int64_t> bytes =
          obj ? obj->getInteger("bytes") : std::nullopt;
      const llvm::json::Array *movedJ = obj ? obj->getArray("moved") : nullptr;
      if (!bytes || !movedJ)
        return errorJSON("an operand is {\"bytes\": int, \"moved\": [dim...]}");
      L2Operand op;
      op.bytes = *bytes;
      for (const llvm::json::Value &d : *movedJ) {
        std::optional<int64_t> dim = d.getAsInteger();
        if (!dim || *dim < 0 || *dim >= 32)
          return errorJSON("'moved' holds dimension indices (0..31)");
        op.moved |= DimMask(1) << *dim;
      }
      operands.push_back(op);
    }
    StockOrderGuard<int64_t> v = evaluateStockOrderMisses(
        sizes, unsigned(*farDim), operands, concurrent, m.effectiveL2Bytes());
    out["total_programs"] = v.totalPrograms;
    out["streamed_bytes"] = v.streamedBytes;
    out["misses"] = v.misses != 0;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(out));
  return text;
}
