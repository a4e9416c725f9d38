# tmfma_static_llvm(<target> LLVM_LIBS <lib>...)
#
# The MLIR wheels are built with LLVM_LINK_LLVM_DYLIB=ON, so every exported
# MLIR static library lists the shared `LLVM` target (libLLVM.so) in its
# INTERFACE_LINK_LIBRARIES. libTritonMFMA.so must not depend on libLLVM.so:
# a second, dynamically exported LLVM in a process that already holds
# Triton's. This walks the (imported) link interface reachable from <target>
# and replaces `LLVM` with the given static LLVM component archives
# (LLVMSupport, LLVMDemangle, ...), which --exclude-libs,ALL then hides.
function(tmfma_static_llvm target)
  cmake_parse_arguments(ARG "" "" "LLVM_LIBS" ${ARGN})
  get_target_property(_roots ${target} LINK_LIBRARIES)
  set(_todo ${_roots})
  set(_seen "")
  while(_todo)
    list(POP_FRONT _todo _t)
    if(NOT TARGET "${_t}" OR "${_t}" IN_LIST _seen)
      continue()
    endif()
    list(APPEND _seen "${_t}")
    get_target_property(_imported "${_t}" IMPORTED)
    if(NOT _imported)
      continue()
    endif()
    get_target_property(_libs "${_t}" INTERFACE_LINK_LIBRARIES)
    if(NOT _libs)
      continue()
    endif()
    if("LLVM" IN_LIST _libs)
      list(REMOVE_ITEM _libs "LLVM")
      list(APPEND _libs ${ARG_LLVM_LIBS})
      set_target_properties("${_t}" PROPERTIES INTERFACE_LINK_LIBRARIES "${_libs}")
    endif()
    list(APPEND _todo ${_libs})
  endwhile()
endfunction()
