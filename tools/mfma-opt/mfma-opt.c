/* mfma-opt: MlirOptMain-based driver with the triton-mfma passes registered.
 * Generic TTGIR (unregistered tt/ttg/amdg dialects) is accepted by default. */
#include <signal.h>

#include "TritonMFMA/CAPI.h"

int main(int argc, char **argv) {
  /* A closed pipe (`mfma-opt --help | head`) ends the process quietly, as it does for any Unix filter. A parent
   * that ignores SIGPIPE (Python does, and the `mfma-opt` console script execs this binary) passes that on to
   * us; LLVM then sees EPIPE and reports "IO failure on output stream" as a fatal error. */
  signal(SIGPIPE, SIG_DFL);
  return tmfma_opt_main(argc, argv);
}
