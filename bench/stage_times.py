"""Where one compile's time goes: Triton's hip stages (make_llir, make_amdgcn) timed per call, with the thread that
ran them, for stock Triton and the default passes, on configurations of the bench suite.

    PYTHONPATH=python python bench/stage_times.py "gemm f16 256x128x32" gfx90a [--reps 2]

Stock: the time of each stage (make_llir against make_amdgcn tells what a trial compile sharing make_llir would
save). Ours: the timeline of every make_llir / make_amdgcn the decisions ran (start-end in seconds from the
compile's start, the thread, the waves_per_eu of each make_amdgcn), and each pass's decision line. Fresh cache per
compile; the last of `--reps` compiles is shown (the first warms Python and LLVM up).
"""
from __future__ import annotations

import argparse
import re
import threading
import time
import warnings

from suite import ARCHS, configs

import triton_mfma
from triton_mfma.compiler.compile import always_compile, compile_kernel

_WAVES = re.compile(r'"amdgpu-waves-per-eu"="(\d+)')


class StageClock:
    """Wraps HIPBackend's make_llir / make_amdgcn: (start, end, thread, stage, waves_per_eu) per call."""

    STAGES = ("make_llir", "make_amdgcn")

    def __init__(self):
        from triton.backends.amd.compiler import HIPBackend

        self.backend, self.calls, self.t0 = HIPBackend, [], 0.0
        self.real = {name: getattr(HIPBackend, name) for name in self.STAGES}
        for name, real in self.real.items():
            setattr(HIPBackend, name, staticmethod(self._timed(name, real)))

    def _timed(self, name, real):
        def stage(*args):
            start = time.perf_counter()
            out = real(*args)
            w = ""
            if name == "make_amdgcn" and isinstance(args[0], str):
                m = _WAVES.search(args[0])
                w = m.group(1) if m else "0"
            self.calls.append((start - self.t0, time.perf_counter() - self.t0, threading.current_thread().name, name,
                               w))
            return out
        return stage

    def restore(self):
        for name, real in self.real.items():
            setattr(self.backend, name, staticmethod(real))

    def run(self, fn):
        self.calls.clear()
        self.t0 = time.perf_counter()
        out = fn()
        return out, time.perf_counter() - self.t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("config", help="a configuration name of bench/suite.py, e.g. 'gemm f16 256x128x32'")
    ap.add_argument("arch", choices=ARCHS)
    ap.add_argument("--reps", type=int, default=2)
    a = ap.parse_args()
    config = next((c for c in configs() if c.name == a.config), None)
    if config is None:
        ap.error(f"no configuration {a.config!r}; one of: {', '.join(c.name for c in configs())}")
    clock = StageClock()
    try:
        for mode in ("stock", "ours"):
            for _ in range(max(1, a.reps)):
                ctx = triton_mfma.disabled() if mode == "stock" else triton_mfma.enabled()
                with always_compile(), ctx, warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    k, total = clock.run(lambda: compile_kernel(config.fn, config.signature, config.constexprs,
                                                                a.arch, dict(config.options)))
            per_stage = {s: sum(c[1] - c[0] for c in clock.calls if c[3] == s) for s in clock.STAGES}
            print(f"{mode}: {config.name} {a.arch}: {total:.3f} s; "
                  + ", ".join(f"{s} {t:.3f} s ({sum(c[3] == s for c in clock.calls)} calls)"
                              for s, t in per_stage.items()))
            if mode == "ours":
                for start, end, thread, stage, w in sorted(clock.calls):
                    print(f"  {start:6.3f}-{end:6.3f}  {thread:<22} {stage}{f' w={w}' if w else ''}")
                for pass_name, line in (getattr(k.metadata, "triton_mfma", None) or {}).items():
                    print(f"  {pass_name}: {line[:160]}{'...' if len(line) > 160 else ''}")
    finally:
        clock.restore()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
