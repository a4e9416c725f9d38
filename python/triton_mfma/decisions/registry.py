"""The decisions, in the order they decide (`REGISTRY`). The list is apart from the protocol they share
(decisions/__init__.py), which each decision's module imports: the package itself imports no decision."""
from __future__ import annotations

from . import Decision
from .accelerate_dot import AccelerateDot
from .combination import Combination, CombinationAtWaves
from .dot_registers import DotRegisters
from .grid_order import GridOrderCheck, GridOrderCudaCheck
from .num_stages import NumStages
from .relax_waves_per_eu import RelaxWavesPerEu
from .sched_strategy import SchedStrategy
from .stream_pipeline import StreamPipeline
from .waves_per_eu import WavesPerEu

# In the order they decide: each compares the variant the ones before chose (the MFMA layouts ranked by registers
# where the main loop still spills after a pipeline stage less). waves_per_eu "auto" and the relaxation
# of an explicit waves_per_eu decide in the llir stage on the chosen TTGIR (their candidates share its make_llir);
# the combination check at the waves the relaxation hands on, after it; LLVM's scheduling strategy on the compile
# handed on, last.
REGISTRY: tuple[Decision, ...] = (StreamPipeline(), AccelerateDot(), NumStages(), DotRegisters(), Combination(),
                                  GridOrderCheck(), WavesPerEu(), RelaxWavesPerEu(), CombinationAtWaves(),
                                  SchedStrategy())

# Decisions on other backends' compiles (no TTGIR variants there: the stage compiles what they compare).
CUDA_REGISTRY: tuple[Decision, ...] = (GridOrderCudaCheck(),)
