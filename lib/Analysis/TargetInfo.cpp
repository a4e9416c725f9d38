//===- TargetInfo.cpp - what the models know about each GPU ---------------===//
//
// Sources (MB/GB read as MiB/GiB for cache and memory sizes):
//  - AMD Instinct MI210 (gfx90a, CDNA2; one GCD of an MI250), MI300X (gfx942,
//    CDNA3) and MI355X (gfx950, CDNA4) data sheets and the CDNA3/CDNA4 ISA
//    guides: CUs, XCDs, L2 per XCD (gfx90a: per die), LDS per CU (64 KiB;
//    160 KiB on CDNA4), Infinity Cache, HBM bandwidth, matrix-core rates
//    (fp16 FLOP/clk/CU: 1024 CDNA2, 2048 CDNA3, 4096 CDNA4, at the peak
//    engine clock: 1.7, 2.1, 2.4 GHz).
//  - LDS allocation: 512-byte granules per workgroup, 16 workgroups per CU,
//    4 SIMDs per CU; registers: 512 VGPRs+AGPRs per lane per SIMD allocated
//    in granules of 8 (a wave may have all 512: 256 VGPRs + 256 AGPRs), 800
//    SGPRs per SIMD in granules of 16 plus 16 for the trap handler, at most 8
//    waves per SIMD (LLVM AMDGPUBaseInfo: the
//    occupancy the backend prints as `; Occupancy:`, checked equal on every
//    bundled kernel, test/python/test_occupancy.py). LDS banks: 32, 64 on
//    gfx950; the lane order of ds_read_b128 as Triton 3.9's LDS swizzling
//    assumes it (checked against Triton's allocation, test_lds_model.py).
//    LDS transpose reads (ds_read_b64_tr_b16 and kin): gfx950 only (AMD
//    Instinct CDNA4 ISA reference guide, "LDS transpose loads").
//  - NVIDIA H100/H200 SXM (cuda:90): 132 SMs, 50 MiB L2 in two partitions,
//    228 KiB shared memory per SM of which a block may opt in to 227 KiB and
//    1 KiB is reserved per block, 32 blocks and 64 warps per SM, 64K 32-bit
//    registers per SM in 4 sub-partitions, at most 255 per thread (CUDA C++
//    Programming Guide, "Compute Capabilities"); H200: 4.8 TB/s HBM3e, 989
//    TFLOP/s dense fp16.
//  - Effective L2 fractions (model parameters, not data-sheet figures): on
//    the H100/H200 1.0, the whole 50 MiB. Under LRU a tile's second read
//    misses iff the distinct bytes read between its two reads exceed the
//    cache (Mattson et al., "Evaluation techniques for storage
//    hierarchies", IBM Systems Journal 9(2), 1970), which is what the guard
//    counts. The L2 is two partitions, "each L2 partition localizes and
//    caches data for memory accesses from SMs in the GPCs directly connected
//    to the partition" (NVIDIA A100 Tensor Core GPU Architecture
//    whitepaper, 2020; the H100 keeps it), so a tile read from SMs of both
//    may be held twice and the capacity a shared tile finds lies between
//    25 and 50 MiB: the model remaps only above the whole L2, where a miss
//    is certain, and keeps the order in between, where the model has no
//    term for what else decides (a GEMM's compute, the remap's code). (The
//    0.1 before was fitted to a bench; on an H200 it remapped split-K
//    launches of W = 2.8-9.4 MB and 2-D GEMMs of 33.6 MB at 0.92-0.98x of
//    stock: issue 38; at 0.5 the 2-D GEMM 128x256x32 at 4096^3 still
//    remaps, bench/results/grid_order_wide.md.) AMD 0.75 of one L2 (other
//    traffic, set conflicts). On the MI210 (8 MiB L2, so 6 MiB) this is
//    consistent with a published split-K decode measurement (M = 64 in
//    2 M tiles of 32, BLOCK_N = 64, 192 workgroups, one per CU): putting the
//    M tiles fastest gained 6-12% at W = 6.3-12.6 MB, where the bytes
//    streamed between the two reads of a W tile (about W) exceed 6 MiB;
//    mfma-grid-order takes the new order on exactly those launches
//    (test_grid_order.py).
//    Infinity Cache bandwidth: AMD's 17 TB/s peak figure.
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/TargetInfo.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::triton_mfma;

namespace {

constexpr int64_t KiB = 1 << 10;
constexpr int64_t MiB = 1 << 20;

// Lane bits of the first phase of ds_read_b128.
constexpr int kLaneTileCDNA23[] = {0, 1, 4};
constexpr int kLaneTileCDNA4[] = {0, 1, 3, 4};

/// What differs between the described CDNA parts.
struct CDNAPart {
  const char *target, *device;
  int cus, xcds;
  int64_t l2Bytes, ldsPerCU;
  int ldsBanks;
  llvm::ArrayRef<int> loadLaneTile128;
  bool ldsTransposeReads;
  double dramBandwidth;
  int64_t mallBytes;
  double mallBandwidth, fp16Flops;
};

// clang-format off
const CDNAPart kCDNAParts[] = {
  // target      device    CUs XCDs L2       LDS/CU     banks lane tile       tr    DRAM B/s MALL       MALL B/s fp16 FLOP/s
  {"hip:gfx90a", "MI210",  104, 1,  8 * MiB, 64 * KiB,  32,   kLaneTileCDNA23, false, 1.6e12,  0,         0,       104 * 1024 * 1.7e9},
  {"hip:gfx942", "MI300X", 304, 8,  4 * MiB, 64 * KiB,  32,   kLaneTileCDNA23, false, 5.3e12,  256 * MiB, 17e12,   304 * 2048 * 2.1e9},
  {"hip:gfx950", "MI355X", 256, 8,  4 * MiB, 160 * KiB, 64,   kLaneTileCDNA4,  true,  8e12,    256 * MiB, 17e12,   256 * 4096 * 2.4e9},
};
// clang-format on

/// A CDNA2/3/4 part: its figures, and the CU structure and register files
/// they share.
TargetInfo cdna(const CDNAPart &p) {
  TargetInfo t;
  t.target = p.target;
  t.device = p.device;
  t.isHip = true;
  t.cus = p.cus;
  t.xcds = p.xcds;
  t.l2Bytes = p.l2Bytes;
  t.l2Effective = 0.75;
  t.ldsPerCU = t.ldsPerWorkgroup = p.ldsPerCU;
  t.ldsGranule = 512;
  t.ldsBanks = p.ldsBanks;
  t.loadLaneTile128 = p.loadLaneTile128;
  t.ldsTransposeReads = p.ldsTransposeReads;
  t.workgroupSlotsPerCU = 16;
  t.simdsPerCU = 4;
  t.vgprFile = 512;
  t.vgprGranule = 8;
  t.maxVgprsPerWave = 512;
  t.sgprFile = 800;
  t.sgprGranule = 16;
  t.sgprTrapReserve = 16;
  t.maxWavesPerSIMD = 8;
  t.waveSize = 64;
  t.dramBandwidth = p.dramBandwidth;
  t.mallBytes = p.mallBytes;
  t.mallBandwidth = p.mallBandwidth;
  t.fp16Flops = p.fp16Flops;
  return t;
}

/// What every CUDA GPU the models see shares.
TargetInfo cudaCommon(const char *target, const char *device) {
  TargetInfo t;
  t.target = target;
  t.device = device;
  t.isHip = false;
  t.ldsBanks = 32;
  t.waveSize = 32;
  t.simdsPerCU = 4;
  return t;
}

std::vector<TargetInfo> buildTargets() {
  std::vector<TargetInfo> all;
  for (const CDNAPart &p : kCDNAParts)
    all.push_back(cdna(p));

  TargetInfo h100 = cudaCommon("cuda:90", "H100/H200");
  h100.cus = 132;
  h100.xcds = 1;
  h100.l2Bytes = 50 * MiB;
  h100.l2Effective = 1.0;
  h100.ldsPerCU = 228 * KiB;
  h100.ldsPerWorkgroup = getCudaSharedPerBlock(90);
  h100.ldsReservedPerWorkgroup = 1 * KiB;
  h100.workgroupSlotsPerCU = 32;
  h100.vgprFile = 512;       // 16384 registers per sub-partition / 32 lanes
  h100.vgprGranule = 8;      // 256 registers per warp
  h100.maxVgprsPerWave = 255;
  h100.maxWavesPerSIMD = 16; // 64 warps per SM
  h100.dramBandwidth = 4.8e12;
  h100.fp16Flops = 989e12;
  all.push_back(h100);
  return all;
}

} // namespace

llvm::ArrayRef<TargetInfo> mlir::triton_mfma::getTargetInfos() {
  static const std::vector<TargetInfo> targets = buildTargets();
  return targets;
}

const TargetInfo *mlir::triton_mfma::lookupTargetInfo(llvm::StringRef target) {
  for (const TargetInfo &t : getTargetInfos())
    if (target == t.target)
      return &t;
  return nullptr;
}

const TargetInfo &mlir::triton_mfma::getTargetInfo(GfxArch arch) {
  const TargetInfo *t = lookupTargetInfo(("hip:" + getArchName(arch)).str());
  assert(t && "every GfxArch is described");
  return *t;
}

int64_t mlir::triton_mfma::getCudaSharedPerBlock(int cc) {
  // Opt-in shared memory per block (CUDA C++ Programming Guide).
  return cc >= 90 ? 227 * KiB : cc >= 80 ? 163 * KiB : 99 * KiB;
}

int mlir::triton_mfma::getCudaSharedBanks() {
  return cudaCommon("cuda", "").ldsBanks;
}

TargetInfo mlir::triton_mfma::getUnknownTargetInfo(llvm::StringRef target) {
  // No L2 or CU figures; a CU like the smallest described one (64 KiB of
  // shared memory, byte granules, 32 workgroup slots, a register file one
  // wave per SIMD may fill).
  TargetInfo t;
  t.target = "";
  t.device = "unknown";
  t.isHip = target.starts_with("hip:");
  t.l2Effective = 0.5;
  t.ldsPerCU = t.ldsPerWorkgroup = 64 * KiB;
  t.ldsGranule = 1;
  t.workgroupSlotsPerCU = 32;
  t.simdsPerCU = 4;
  t.vgprFile = 512;
  t.maxVgprsPerWave = 512;
  t.maxWavesPerSIMD = 8;
  return t;
}

std::string mlir::triton_mfma::getTargetInfoJSON() {
  llvm::json::Array out;
  for (const TargetInfo &t : getTargetInfos()) {
    llvm::json::Array tile;
    for (int b : t.loadLaneTile128)
      tile.push_back(b);
    out.push_back(llvm::json::Object{
        {"target", t.target},
        {"vendor", t.isHip ? "hip" : "cuda"},
        {"arch", t.getArch()},
        {"device", t.device},
        {"cus", t.cus},
        {"xcds", t.xcds},
        {"l2_bytes", t.l2Bytes},
        {"l2_effective", t.l2Effective},
        {"lds_per_cu", t.ldsPerCU},
        {"lds_per_workgroup", t.ldsPerWorkgroup},
        {"lds_granule", t.ldsGranule},
        {"lds_reserved_per_workgroup", t.ldsReservedPerWorkgroup},
        {"lds_banks", t.ldsBanks},
        {"load_lane_tile_128", std::move(tile)},
        {"lds_transpose_reads", t.ldsTransposeReads},
        {"workgroup_slots_per_cu", t.workgroupSlotsPerCU},
        {"simds_per_cu", t.simdsPerCU},
        {"vgpr_file", t.vgprFile},
        {"vgpr_granule", t.vgprGranule},
        {"max_vgprs_per_wave", t.maxVgprsPerWave},
        {"sgpr_file", t.sgprFile},
        {"sgpr_granule", t.sgprGranule},
        {"sgpr_trap_reserve", t.sgprTrapReserve},
        {"max_waves_per_simd", t.maxWavesPerSIMD},
        {"wave_size", t.waveSize},
        {"dram_bandwidth", t.dramBandwidth},
        {"mall_bytes", t.mallBytes},
        {"mall_bandwidth", t.mallBandwidth},
        {"fp16_flops", t.fp16Flops},
        {"achievable", t.achievable},
    });
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(out));
  return text;
}
