# -*- Python -*-
# lit configuration for triton-mfma.
#
#   lit -v test/lit
#
# mfma-opt is found, in order: $MFMA_OPT; the source tree's
# python/triton_mfma/_native/mfma-opt (cmake/ninja or `pip install -e .`);
# the installed triton_mfma package's _native/mfma-opt.
# FileCheck is the PyPI `filecheck` (Python port); `FileCheck` is substituted
# with it too. `not` is implemented here (no LLVM test tools needed).

import os
import shutil
import subprocess
import sys

import lit.formats

config.name = "triton-mfma"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, "Output")

repo_root = os.path.abspath(os.path.join(config.test_source_root, "..", ".."))


def find_mfma_opt():
    env = os.environ.get("MFMA_OPT")
    if env:
        return env
    local = os.path.join(repo_root, "python", "triton_mfma", "_native", "mfma-opt")
    if os.path.isfile(local):
        return local
    try:
        out = subprocess.run(
            [sys.executable, "-c",
             "import importlib.util, os; s = importlib.util.find_spec('triton_mfma'); "
             "print(os.path.join(os.path.dirname(s.origin), '_native', 'mfma-opt'))"],
            capture_output=True, text=True, check=True, cwd="/").stdout.strip()
        if os.path.isfile(out):
            return out
    except Exception:
        pass
    lit_config.fatal("mfma-opt not found: build it (ninja -C build, pip install -e .) "
                     "or set MFMA_OPT")


def find_filecheck():
    exe = shutil.which("filecheck")
    if exe:
        return exe
    cand = os.path.join(os.path.dirname(sys.executable), "filecheck")
    if os.path.isfile(cand):
        return cand
    lit_config.fatal("filecheck not found: pip install filecheck")


mfma_opt = find_mfma_opt()
filecheck = find_filecheck()
lit_config.note(f"mfma-opt: {mfma_opt}")
lit_config.note(f"filecheck: {filecheck}")


def tool(name):
    # lit substitution keys are regexes and are applied one after the other:
    # only replace the bare tool name, never inside a path or a longer flag.
    return r"(?<![\w/.-])" + name + r"(?![\w/.-])"


config.substitutions.append((tool("mfma-opt"), mfma_opt))
config.substitutions.append((tool("FileCheck"), filecheck))
config.substitutions.append((tool("filecheck"), filecheck))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(
    ("%tmfma_lib", os.path.join(os.path.dirname(mfma_opt), "libTritonMFMA.so")))

config.environment["FILECHECK_OPTS"] = os.environ.get("FILECHECK_OPTS", "")
