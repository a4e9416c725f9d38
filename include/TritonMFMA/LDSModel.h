//===- LDSModel.h - LDS bytes as Triton 3.9 allocates them -------*- C++
//-*-===//
//
// How many bytes of LDS (shared memory) a kernel gets from Triton 3.9's
// allocation on hip targets (`AllocateAMDGPUSharedMemory`, run at the start
// of make_llir), and why:
//
//  - A `ttg.convert_layout` goes through LDS unless the conversion only
//    reorders registers or can be done with warp shuffles; its scratch buffer
//    is laid out by Triton's generic swizzling and holds the tensor (per CTA)
//    divided by the number of "reps": rounds in which the same buffer is
//    reused, one per bit that is a register bit in both layouts and lands in
//    the buffer's segment. Bytes = elements x element width (pointers 8 B,
//    sub-byte types 1 B). The bank count (64 on gfx950, else 32) and the lane
//    tile of 128-bit LDS loads enter the choice of segment bits.
//  - A `tt.reduce` that crosses warps converts its partial results through
//    LDS the same way, round by round; its scratch is the largest round.
//  - `ttg.local_alloc` buffers in shared memory take their full size
//    (allocShape x element width), 16-byte aligned; scratch buffers are
//    128-byte aligned and live only during their operation; explicit buffers
//    live from their definition to the last use of any value aliasing them
//    (views, loop-carried values). Offsets come from Triton's algorithm
//    (first fit over liveness, then graph colouring until no interference),
//    and the kernel total is the largest end offset, so successive converts
//    share space: the budget is their maximum, not their sum.
//
// Everything here is validated against Triton itself (test/python/
// test_lds_model.py): per-convert scratch equals what Triton's allocation
// gives the convert alone, and the total equals `metadata.shared`.
//
//===----------------------------------------------------------------------===//
#ifndef TRITONMFMA_LDSMODEL_H
#define TRITONMFMA_LDSMODEL_H

#include "TritonMFMA/GF2Layout.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::triton_mfma {

/// What the model needs to know about the target (from the module's
/// `ttg.target`, `ttg.threads-per-warp`).
struct TargetModel {
  bool isHip = false;   ///< "hip:gfxNNN"; otherwise "cuda:NN"
  std::string arch;     ///< "gfx942", "90", ...
  int64_t ldsBytes = 0; ///< LDS (shared memory) a workgroup may use
  int numBanks = 32;    ///< LDS banks of 4 bytes
  unsigned threadsPerWarp = 64;
  /// Lane bits served in the first phase of a 128-bit LDS load
  /// (ds_read_b128), or empty if loads walk lanes in order.
  SmallVector<int, 4> loadLaneTile128;

  static FailureOr<TargetModel> fromModule(ModuleOp module,
                                           std::string *error = nullptr);
  static FailureOr<TargetModel> fromTarget(StringRef target,
                                           unsigned threadsPerWarp,
                                           std::string *error = nullptr);
};

/// How a convert_layout is lowered, as far as LDS is concerned.
enum class ConvertPath { Registers, WarpShuffle, LDS };

struct ConvertCost {
  ConvertPath path = ConvertPath::LDS;
  int64_t scratchBytes = 0; ///< 0 unless path == LDS
  int64_t elements = 0;     ///< scratch elements
  int reps = 1;             ///< rounds through the scratch buffer
  unsigned bitwidth = 0;    ///< element width in LDS
  /// Bytes moved through LDS (written once and read once per element of the
  /// tensor per CTA): the traffic the splitter minimises.
  int64_t ldsTraffic = 0;
};

StringRef stringifyConvertPath(ConvertPath path);

/// Element width Triton uses in LDS: pointers 64, others max(width, 8).
unsigned getLDSBitwidth(Type elementType);

/// The cost of converting a tensor of `shape`/`elementType` from `src` to
/// `dst` (both register layouts). Fails (with `error`) if a layout is not
/// modelled.
FailureOr<ConvertCost> analyzeConvert(const TargetModel &target,
                                      ArrayRef<int64_t> shape, Type elementType,
                                      const Layout &src, const Layout &dst,
                                      std::string *error = nullptr);
/// The same on GF(2) layouts (input dims register, lane, warp, block).
FailureOr<ConvertCost> analyzeConvert(const TargetModel &target,
                                      const GF2Layout &src,
                                      const GF2Layout &dst, unsigned bitwidth,
                                      std::string *error = nullptr);

/// For a `ttg.convert_layout` operation.
FailureOr<ConvertCost> analyzeConvertOp(const TargetModel &target,
                                        Operation *op,
                                        std::string *error = nullptr);

/// Scratch bytes of a `tt.reduce` (0 if it stays within warps).
FailureOr<int64_t> reduceScratchBytes(const TargetModel &target,
                                      Operation *reduceOp,
                                      std::string *error = nullptr);

/// Scratch bytes of a `tt.scan` (0 if its axis stays within one warp).
FailureOr<int64_t> scanScratchBytes(Operation *scanOp,
                                    std::string *error = nullptr);

/// One LDS buffer of a function.
struct LDSBuffer {
  enum class Kind { Explicit, Scratch };
  Kind kind;
  Operation *owner; ///< the local_alloc, or the op that owns the scratch
  int64_t size;
  int64_t alignment;
  int64_t offset = 0;
  int64_t liveStart = 0, liveEnd = 0; ///< [start, end) in operation ids
};

/// The allocation of one function (Triton allocates each function; the
/// kernel's total is its entry function's).
struct LDSAllocation {
  SmallVector<LDSBuffer> buffers; ///< in Triton's buffer order
  int64_t totalBytes = 0;
  /// Index into `buffers` of the buffer owned by `op`, if any.
  std::optional<size_t> bufferOf(Operation *op) const;
  /// Bytes of explicit buffers live while `op` runs (without its own).
  int64_t explicitBytesLiveAt(Operation *op) const;
  llvm::DenseMap<Operation *, int64_t> opIds;
};

/// Runs the model over a function (a `tt.func`). Fails with a message naming
/// the operation whose LDS use is not modelled.
FailureOr<LDSAllocation> allocateLDS(const TargetModel &target, Operation *func,
                                     std::string *error = nullptr);

/// Scratch bytes of one operation (0 if it needs none); fails for operations
/// that need scratch the model does not cover.
FailureOr<int64_t> scratchBytesOf(const TargetModel &target, Operation *op,
                                  std::string *error = nullptr);

} // namespace mlir::triton_mfma

#endif // TRITONMFMA_LDSMODEL_H
