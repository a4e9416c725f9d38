"""bench/compile_time.py with one of the engine's compiles beside another turned off: which of them costs the CPU.

    PYTHONPATH=python python bench/speculation_ab.py no-aside --arch gfx942 --reps 1 --skip-trial-all
    PYTHONPATH=python python bench/speculation_ab.py no-prefetch --arch gfx942 --reps 1 --skip-trial-all
    PYTHONPATH=python python bench/speculation_ab.py no-prefetch --script bench/corpus/run.py --arch gfx942 ...

no-aside: `Engine.aside` does nothing (the variant a decision compares with is not built beside ours; prefetches and
concurrent trials stay). no-prefetch: `Engine.prefetch` does nothing (no compile starts ahead of the decision that
needs it; aside builds and concurrent trials stay). With neither, `TRITON_MFMA_TRIAL_THREADS=1` turns all of them off.
The rest of the arguments are the script's (`--script`, default bench/compile_time.py); it runs in this process, so
the replaced method is the one used.
Recorded: bench/results/compile_time_fdd6116_threads.txt.
"""
import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VARIANTS = ("no-aside", "no-prefetch")


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in VARIANTS:
        sys.exit(f"usage: speculation_ab.py {{{','.join(VARIANTS)}}} [compile_time.py's arguments]")
    which = sys.argv.pop(1)
    from triton_mfma.trials import engine

    if which == "no-aside":
        engine.Engine.aside = lambda self, *args, **kwargs: None
    else:
        engine.Engine.prefetch = lambda self, jobs, gated=False: None
    script = os.path.join(HERE, "compile_time.py")
    if len(sys.argv) > 2 and sys.argv[1] == "--script":
        script = os.path.abspath(sys.argv[2])
        del sys.argv[1:3]
    sys.argv[0] = script
    sys.path.insert(0, os.path.dirname(script))
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
