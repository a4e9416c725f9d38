"""Resource figures of a compiled AMD kernel, read from the real amdgcn text and Triton's metadata."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Resources:
    vgpr: int  # architectural VGPRs (NumVgprs)
    agpr: int  # accumulation VGPRs (NumAgprs)
    vgpr_total: int  # .vgpr_count: the unified register count occupancy is computed from
    sgpr: int
    vgpr_spill: int
    sgpr_spill: int
    scratch: int  # private segment bytes per lane
    lds: int  # bytes per workgroup (Triton's metadata.shared)
    occupancy: int  # waves per SIMD, as the AMDGPU backend reports it
    mfma: Counter = field(default_factory=Counter)  # v_mfma_* mnemonic -> count
    ds_read: int = 0
    ds_write: int = 0
    global_loads: Counter = field(default_factory=Counter)  # global_/buffer_ load mnemonic -> count
    loops: int = 0  # loop headers

    @property
    def mfma_count(self) -> int:
        return sum(self.mfma.values())


def _int(pattern: str, text: str, default: int | None = None) -> int:
    m = re.search(pattern, text, re.MULTILINE)
    if m is None:
        if default is None:
            raise ValueError(f"amdgcn has no match for {pattern!r}")
        return default
    return int(m.group(1))


def _count_loops(amdgcn: str) -> int:
    """Loop headers as LLVM's asm printer annotates them (`; =>This Inner Loop Header: Depth=1`)."""
    return sum(1 for ln in amdgcn.splitlines() if "=>This Inner Loop Header:" in ln or "=>This Loop Header:" in ln)


def from_amdgcn(amdgcn: str, lds: int) -> Resources:
    code = [ln.split(";")[0].strip() for ln in amdgcn.splitlines()]
    mnemonics = [ln.split()[0] for ln in code if ln and not ln.startswith((".", "//")) and not ln.endswith(":")]
    loads = Counter(m for m in mnemonics if m.startswith(("global_load", "buffer_load")))
    return Resources(
        vgpr=_int(r"^; NumVgprs: (\d+)", amdgcn),
        agpr=_int(r"^; NumAgprs: (\d+)", amdgcn, 0),
        vgpr_total=_int(r"^\s+\.vgpr_count:\s+(\d+)", amdgcn),
        sgpr=_int(r"^\s+\.sgpr_count:\s+(\d+)", amdgcn),
        vgpr_spill=_int(r"^\s+\.vgpr_spill_count:\s+(\d+)", amdgcn),
        sgpr_spill=_int(r"^\s+\.sgpr_spill_count:\s+(\d+)", amdgcn),
        scratch=_int(r"^; ScratchSize: (\d+)", amdgcn, 0),
        lds=lds,
        occupancy=_int(r"^; Occupancy: (\d+)", amdgcn),
        mfma=Counter(m for m in mnemonics if m.startswith("v_mfma")),
        ds_read=sum(1 for m in mnemonics if m.startswith("ds_read") or m.startswith("ds_load")),
        ds_write=sum(1 for m in mnemonics if m.startswith("ds_write") or m.startswith("ds_store")),
        global_loads=loads,
        loops=_count_loops(amdgcn),
    )


def of_kernel(compiled) -> Resources:
    """Resources of a `triton.compile` result for a hip target."""
    return from_amdgcn(compiled.asm["amdgcn"], compiled.metadata.shared)
