"""The held-aside hand-written set (issue 53), stock Triton vs triton-mfma's defaults, by the corpus runner.

    PYTHONPATH=python python bench/heldout/run.py [--arch gfx942 ...] [--lib aiter] [--only SUBSTR] [--quick] [--reps N]
                                                  [--json OUT.json] [--out OUT.txt]

The configurations are this folder's (LIBS below); everything else, the compiles, figures, verdicts, report and
its options, is bench/corpus/run.py's main() unchanged (its report's first line names that script: the command
that ran is the line printed before it). Never tune on this set: see README.md.
"""
from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "corpus"))  # harness, _shim, run (the corpus runner)

import importlib.util  # noqa: E402

_spec = importlib.util.spec_from_file_location("corpus_run", os.path.join(os.path.dirname(HERE), "corpus", "run.py"))
corpus_run = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(corpus_run)

LIBS = {  # library key -> (configuration module in this folder, distribution whose version is reported)
    "aiter": ("aiter_cfg", "amd-aiter"),
    "flash_attn": ("flash_attn_cfg", "flash-attn"),  # not installed: its sdist is fetched (flash_attn_cfg.fetch)
}


def main(argv=None):
    print("# held-aside set: PYTHONPATH=python python bench/heldout/run.py "
          + " ".join(sys.argv[1:] if argv is None else argv), flush=True)
    print("# flash-attn: 2.8.3.post2's sdist, fetched by pip into the cache (flash_attn_cfg.py), not installed: "
          "the corpus runner's version line says absent", flush=True)
    corpus_run.LIBS = LIBS
    return corpus_run.main(argv)


if __name__ == "__main__":
    sys.exit(main())
