/* mfma-opt: MlirOptMain-based driver with the triton-mfma passes registered.
 * Generic TTGIR (unregistered tt/ttg/amdg dialects) is accepted by default. */
#include "TritonMFMA/CAPI.h"

int main(int argc, char **argv) { return tmfma_opt_main(argc, argv); }
