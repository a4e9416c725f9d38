"""Resource figures of a compiled kernel: on AMD read from the real amdgcn text and Triton's metadata, on CUDA
from the cubin (`cuobjdump -res-usage`, the copy Triton ships)."""
from __future__ import annotations

import functools
import os
import re
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass, field


# LDS read / write mnemonic prefixes (the gfx9 names and gfx12's)
LDS_READ, LDS_WRITE = ("ds_read", "ds_load"), ("ds_write", "ds_store")

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


_FIGURES = {name: re.compile(pattern, re.MULTILINE) for name, pattern in (
    ("vgpr", r"^; NumVgprs: (\d+)"), ("agpr", r"^; NumAgprs: (\d+)"), ("vgpr_total", r"^\s+\.vgpr_count:\s+(\d+)"),
    ("sgpr", r"^\s+\.sgpr_count:\s+(\d+)"), ("vgpr_spill", r"^\s+\.vgpr_spill_count:\s+(\d+)"),
    ("sgpr_spill", r"^\s+\.sgpr_spill_count:\s+(\d+)"), ("scratch", r"^; ScratchSize: (\d+)"),
    ("occupancy", r"^; Occupancy: (\d+)"))}
_OPTIONAL = {"agpr", "scratch"}  # absent on targets / kernels without them: 0


def _figure(name: str, text: str) -> int:
    m = _FIGURES[name].search(text)
    if m is None:
        if name not in _OPTIONAL:
            raise ValueError(f"amdgcn has no match for {_FIGURES[name].pattern!r}")
        return 0
    return int(m.group(1))


@dataclass(frozen=True)
class Printed:
    """What the asm printer reports of a compiled kernel, and whether its code names the instructions of the spill
    classes the judge ranks, found by a text search: no instruction is parsed (a tenth of a small kernel's
    compile is spent parsing them)."""
    vgpr_total: int
    sgpr: int
    vgpr_spill: int
    sgpr_spill: int
    scratch: int
    lds: int
    acc_copies: bool  # some v_accvgpr_read / write / mov (AGPR <-> VGPR copies), anywhere
    lane_ops: bool  # some v_writelane / v_readlane, anywhere, where the compile reports SGPR spills

    @property
    def spill_free(self) -> bool:
        """No scratch, no lane spill and no AGPR copy anywhere: no spill class the judge ranks can be non-zero."""
        return not (self.scratch or self.vgpr_spill or self.sgpr_spill or self.acc_copies or self.lane_ops)


def printed(amdgcn: str, lds: int) -> Printed:
    code, tail = code_and_tail(amdgcn)
    figures = [_figure(n, tail) for n in ("vgpr_total", "sgpr", "vgpr_spill", "sgpr_spill", "scratch")]
    # lane reads and writes are SGPR spills only where the compile reports some (dot_figures.LANE_SPILL)
    lanes = figures[3] > 0 and ("v_writelane_" in code or "v_readlane_" in code)
    return Printed(*figures, lds, "v_accvgpr_" in code, lanes)


def _count_loops(code: str) -> int:
    """Loop headers as LLVM's asm printer annotates them (`; =>This Inner Loop Header: Depth=1`)."""
    return code.count("=>This Inner Loop Header:") + code.count("=>This Loop Header:")


def code_and_tail(amdgcn: str) -> tuple[str, str]:
    """(the functions' instructions, what follows them): the asm printer's figures (comments, HSA metadata) come
    after the first function's end label, then the debug sections; each is read only where it is."""
    end = amdgcn.find(".Lfunc_end")
    return (amdgcn[:amdgcn.rfind(".Lfunc_end")], amdgcn[end:]) if end >= 0 else (amdgcn, amdgcn)


@functools.lru_cache(maxsize=8)  # one compile's amdgcn is read by several decisions (figures, waves plan, auto)
def from_amdgcn(amdgcn: str, lds: int) -> Resources:
    """The figures of one compiled kernel; shared between callers: read, never modified."""
    code, tail = code_and_tail(amdgcn)
    lines = (ln.split(";")[0].strip() for ln in code.splitlines())
    mnemonics = [ln.split()[0] for ln in lines if ln and not ln.startswith((".", "//")) and not ln.endswith(":")]
    loads = Counter(m for m in mnemonics if m.startswith(("global_load", "buffer_load")))
    return Resources(
        **{name: _figure(name, tail) for name in _FIGURES},
        lds=lds,
        mfma=Counter(m for m in mnemonics if m.startswith("v_mfma")),
        ds_read=sum(1 for m in mnemonics if m.startswith(LDS_READ)),
        ds_write=sum(1 for m in mnemonics if m.startswith(LDS_WRITE)),
        global_loads=loads,
        loops=_count_loops(code),
    )


def of_kernel(compiled) -> Resources:
    """Resources of a `triton.compile` result for a hip target."""
    return from_amdgcn(compiled.asm["amdgcn"], compiled.metadata.shared)


@dataclass(frozen=True)
class CubinResources:
    """What ptxas gave one kernel of a cubin: registers per thread and bytes per thread of stack, of local memory
    and of static shared memory; `frame`: the bytes of that stack the PTX itself declared (its local depot: a
    `tl.device_print`'s argument buffer), so that `spills` is what ptxas added, register spills."""
    regs: int
    stack: int
    local: int
    shared: int
    frame: int = 0

    @property
    def spills(self) -> int:
        return max(0, self.stack - self.frame)


_CUBIN_FIGURES = re.compile(r"REG:(\d+) STACK:(\d+) SHARED:(\d+) LOCAL:(\d+)")


_PTX_ENTRY = re.compile(r"^\.visible \.entry ", re.MULTILINE)
_PTX_DEPOT = re.compile(r"^\s*\.local \.align \d+ \.b8\s+__local_depot\d+\[(\d+)\];", re.MULTILINE)


def ptx_frame(ptx: str) -> int:
    """Bytes per thread of local memory the PTX's kernel entry declares (`__local_depot`: allocas, e.g. printf's
    argument buffer); 0 where it declares none."""
    start = _PTX_ENTRY.search(ptx)
    if start is None:
        return 0
    end = ptx.find("\n.func", start.end())  # the functions after the entry have depots of their own
    m = _PTX_DEPOT.search(ptx, start.end(), len(ptx) if end < 0 else end)
    return int(m.group(1)) if m else 0


def from_cubin(cubin: bytes, ptx: str = "") -> CubinResources:
    """The figures of the (first) kernel of a cubin, from Triton's own cuobjdump (ValueError if it cannot be
    read: no tool, or no figures in its output); `ptx`, the PTX it was assembled from, gives `frame`."""
    import triton

    tool = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "cuobjdump")
    with tempfile.NamedTemporaryFile(suffix=".cubin", delete=False) as f:
        f.write(cubin)
        path = f.name
    try:
        out = subprocess.run([tool, "-res-usage", path], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError) as e:
        raise ValueError(f"cuobjdump -res-usage failed: {e}") from e
    finally:
        os.unlink(path)
    m = _CUBIN_FIGURES.search(out)
    if m is None:
        raise ValueError("cuobjdump -res-usage printed no REG/STACK figures")
    regs, stack, shared, local = (int(x) for x in m.groups())
    return CubinResources(regs, stack, local, shared, ptx_frame(ptx))
