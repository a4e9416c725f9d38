"""capi_outcomes.py LIB FILE PIPELINE: through the C API of libTritonMFMA.so
(tmfma_run_pipeline_ex), run PIPELINE on each `// -----` chunk of FILE and
print, per chunk, its return code and each pass's outcome line
("<pass>\t<status>\t<reason>", the tab shown as " | ")."""
import ctypes
import sys

lib = ctypes.CDLL(sys.argv[1])
lib.tmfma_run_pipeline_ex.argtypes = [ctypes.c_char_p, ctypes.c_char_p] + [ctypes.POINTER(ctypes.c_void_p)] * 3
lib.tmfma_run_pipeline_ex.restype = ctypes.c_int
lib.tmfma_free.argtypes = [ctypes.c_void_p]


def take(p):
    s = ctypes.string_at(p.value).decode() if p.value else None
    lib.tmfma_free(p)
    return s


for i, chunk in enumerate(open(sys.argv[2]).read().split("\n// -----\n")):
    out, diags, outcomes = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
    rc = lib.tmfma_run_pipeline_ex(chunk.encode(), sys.argv[3].encode(), ctypes.byref(out), ctypes.byref(diags),
                                   ctypes.byref(outcomes))
    take(out)
    take(diags)
    lines = take(outcomes)
    assert lines is not None, "outcomes must never be NULL"
    print(f"chunk {i}: rc={rc}")
    for line in lines.splitlines():
        assert line.count("\t") == 2, line
        print(f"chunk {i}: " + line.replace("\t", " | "))
