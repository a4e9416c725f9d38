//===- OptMain.cpp - tmfma_opt_main (the body of mfma-opt) ----------------===//
//
// MlirOptMain with our passes registered and no dialect registered besides
// builtin: TTGIR arrives in generic form and its dialects stay unregistered.
// Defaults that differ from mlir-opt, each prepended unless the caller passed
// the flag (in any spelling, including `=false`):
//   --allow-unregistered-dialect            TTGIR dialects stay unregistered;
//   --mlir-print-op-on-diagnostic=false     a remark on a tt.func would
//                                           otherwise print the whole kernel.
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/CAPI.h"
#include "TritonMFMA/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/StringRef.h"

#include <vector>

namespace mlir::triton_mfma {
void registerAllOnce();
} // namespace mlir::triton_mfma

extern "C" int tmfma_opt_main(int argc, char **argv) {
  mlir::triton_mfma::registerAllOnce();

  static char allowFlag[] = "--allow-unregistered-dialect";
  static char noOpOnDiagFlag[] = "--mlir-print-op-on-diagnostic=false";
  std::vector<char *> args(argv, argv + argc);
  auto hasFlag = [&](llvm::StringRef name) {
    for (int i = 1; i < argc; ++i) {
      llvm::StringRef arg(argv[i]);
      if (arg == "--")
        break;
      if (arg.ltrim('-').starts_with(name))
        return true;
    }
    return false;
  };
  if (!args.empty()) {
    if (!hasFlag("mlir-print-op-on-diagnostic"))
      args.insert(args.begin() + 1, noOpOnDiagFlag);
    if (!hasFlag("allow-unregistered-dialect"))
      args.insert(args.begin() + 1, allowFlag);
  }
  args.push_back(nullptr);

  mlir::DialectRegistry registry;
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      static_cast<int>(args.size() - 1), args.data(),
      "mfma-opt: triton-mfma passes on generic TritonGPU IR\n", registry));
}
