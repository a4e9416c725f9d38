"""capi_roundtrip.py LIB FILE...: through the C API of libTritonMFMA.so, run
the empty pipeline and `mfma-print-layouts{round-trip-only=true}` on each
FILE; both must succeed, print the input back byte for byte, and (for the
round-trip-only pass) emit no diagnostics. Also runs both from 4 threads at
once, and checks the error path (rc != 0, NULL output, diagnostics)."""
import ctypes
import sys
import threading

lib = ctypes.CDLL(sys.argv[1])
lib.tmfma_run_pipeline.argtypes = [ctypes.c_char_p, ctypes.c_char_p,
                                   ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p)]
lib.tmfma_run_pipeline.restype = ctypes.c_int
lib.tmfma_free.argtypes = [ctypes.c_void_p]
lib.tmfma_version.restype = ctypes.c_char_p


def run(text, pipeline):
    out, diags = ctypes.c_void_p(), ctypes.c_void_p()
    rc = lib.tmfma_run_pipeline(text.encode(), pipeline.encode(), ctypes.byref(out), ctypes.byref(diags))
    o = ctypes.string_at(out.value).decode() if out.value else None
    d = ctypes.string_at(diags.value).decode() if diags.value else None
    lib.tmfma_free(out)
    lib.tmfma_free(diags)
    return rc, o, d


print("version:", lib.tmfma_version().decode())
failures = []
texts = {path: open(path).read() for path in sys.argv[2:]}
PIPELINES = ["", "builtin.module(mfma-print-layouts{round-trip-only=true})"]


def check(path, text, pipeline):
    rc, out, diags = run(text, pipeline)
    if rc != 0 or out != text or diags != "":
        failures.append(f"{path} [{pipeline!r}]: rc={rc} same={out == text} diags={diags!r}")


for path, text in texts.items():
    for p in PIPELINES:
        check(path, text, p)
        print(f"checked {path.rsplit('/', 1)[-1]} [{p or 'empty pipeline'}]")

threads = [threading.Thread(target=lambda: [check(p, t, pl) for p, t in texts.items() for pl in PIPELINES])
           for _ in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("threads: done")

rc, out, diags = run('"builtin.module"() ({', "")
if rc == 0 or out is not None or "error: <input>:1:" not in (diags or ""):
    failures.append(f"truncated input: rc={rc} out={out!r} diags={diags!r}")
print("truncated input:", (diags or "").strip())
rc, out, diags = run(next(iter(texts.values())), "no-such-pass")
if rc == 0 or out is not None or "no-such-pass" not in (diags or ""):
    failures.append(f"bad pipeline: rc={rc} diags={diags!r}")
print("bad pipeline:", (diags or "").strip().splitlines()[0])

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
