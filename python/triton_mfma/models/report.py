"""What the compiler produced for one kernel: registers, spills, LDS, occupancy and what limits it,
MFMA instructions, memory instruction mix. `triton_mfma.report(compiled_kernel)`."""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass, fields

from ..composition.llvm_flags import KEY, describe
from . import occupancy as occ_model
from .resources import Resources, from_amdgcn


@dataclass
class KernelReport:
    name: str
    arch: str
    num_warps: int
    waves_per_eu: int
    res: Resources
    occupancy: occ_model.Occupancy
    modelled_register_occupancy: int
    auto_waves: dict | None = None  # the waves_per_eu="auto" decision, when there was one
    accelerate_dot: dict | None = None  # mfma-accelerate-dot's verification decision, when there was one
    decisions: dict | None = None  # what each pass decided for this kernel, and why (metadata.triton_mfma)
    fallback: str | None = None  # why this kernel fell back to stock Triton, when it did
    trials: int | None = None  # make_amdgcn runs the decisions made (the one Triton got included): compile cost
    build: dict | None = None  # the Triton build (make_ttgir.build_record)
    llvm_flags: dict | None = None  # the LLVM flags the compile passed, per backend method (llvm_flags.py)
    waves_per_eu_attr: str | None = None  # the kernel's amdgpu-waves-per-eu attribute in its LLVM IR ("" unset)

    def rows(self) -> list[tuple[str, str]]:
        r, o = self.res, self.occupancy
        mfma = ", ".join(f"{k}×{v}" for k, v in sorted(r.mfma.items())) or "none"
        loads = ", ".join(f"{k}×{v}" for k, v in sorted(r.global_loads.items())) or "none"
        return [
            ("kernel", f"{self.name} ({self.arch}, {self.num_warps} warps, waves_per_eu={self.waves_per_eu})"),
            ("VGPR / AGPR / total", f"{r.vgpr} / {r.agpr} / {r.vgpr_total}"),
            ("SGPR", str(r.sgpr)),
            ("spills VGPR / SGPR", f"{r.vgpr_spill} / {r.sgpr_spill}"),
            ("scratch B/lane", str(r.scratch)),
            ("LDS B/workgroup", f"{r.lds} (allocated {occ_model.lds_bytes_allocated(self.arch, r.lds)})"),
            ("occupancy reported", f"{r.occupancy} waves/SIMD"),
            ("occupancy modelled", f"{self.modelled_register_occupancy} waves/SIMD (registers)"),
            ("effective", str(o)),
            ("MFMA", f"{r.mfma_count}: {mfma}"),
            ("global loads", loads),
            ("ds_read / ds_write", f"{r.ds_read} / {r.ds_write}"),
            ("loops", str(r.loops)),
        ] + self._build_rows() + self._decision_rows()

    def _build_rows(self) -> list[tuple[str, str]]:
        b = self.build
        attr = "unknown (no LLVM IR)" if self.waves_per_eu_attr is None else \
            f'"{self.waves_per_eu_attr}"' if self.waves_per_eu_attr else "not set"
        return ([("Triton build", f"{b.get('triton')}, make_ttgir {b.get('make_ttgir')}: {b.get('pipeline')}")]
                if b else []) + [("backend flags", f"LLVM {describe(self.llvm_flags)}; amdgpu-waves-per-eu {attr}")]

    def _decision_rows(self) -> list[tuple[str, str]]:
        rows = [(name, why) for name, why in (self.decisions or {}).items()]
        if not self.decisions:  # a kernel compiled before decisions had a summary: the two recorded ones
            rows += [("waves_per_eu auto", self.auto_waves["reason"])] if self.auto_waves else []
            rows += [("mfma-accelerate-dot", self.accelerate_dot["reason"])] if self.accelerate_dot else []
        if self.trials:
            rows.append(("trial compiles", f"{self.trials} make_amdgcn (the decisions' compiles, the one handed to "
                                           f"Triton included; stock Triton runs 1)"))
        if self.fallback:
            rows.append(("fell back to stock", self.fallback))
        return rows

    def as_dict(self) -> dict:
        """Every figure, JSON-ready (`triton-mfma report --json`)."""
        r = self.res
        res = {f.name: getattr(r, f.name) for f in fields(r)}  # (asdict would mangle the Counters)
        res = {k: (dict(v) if isinstance(v, dict) else v) for k, v in res.items()}
        res["mfma_count"] = r.mfma_count
        res["lds_allocated"] = occ_model.lds_bytes_allocated(self.arch, r.lds)
        return {"kernel": self.name, "arch": self.arch, "num_warps": self.num_warps,
                "waves_per_eu": self.waves_per_eu, "resources": res, "occupancy": asdict(self.occupancy),
                "modelled_register_occupancy": self.modelled_register_occupancy,
                "waves_per_eu_auto": self.auto_waves, "accelerate_dot": self.accelerate_dot,
                "decisions": self.decisions, "fallback": self.fallback, "trials": self.trials, "build": self.build,
                "llvm_flags": self.llvm_flags, "waves_per_eu_attr": self.waves_per_eu_attr}

    def __str__(self) -> str:
        rows = self.rows()
        w = max(len(k) for k, _ in rows)
        return "\n".join(f"{k.ljust(w)}  {v}" for k, v in rows)


def kernel_arch(metadata) -> str:
    """The gfx architecture of a compiled hip kernel's metadata."""
    return metadata.arch if hasattr(metadata, "arch") else metadata.target.arch


class NotAnAMDKernel(ValueError):
    """`report` was given a kernel compiled for another target than an AMD GPU."""


def _target_text(md) -> str:
    t = getattr(md, "target", None)
    return f"{getattr(t, 'backend', '?')}:{getattr(t, 'arch', '?')}" if t is not None else "an unknown target"


def report(compiled) -> KernelReport:
    """Report of a `triton.compile` result (or a launched kernel's compiled object) for a hip target.

    Raises NotAnAMDKernel (a ValueError) for a kernel compiled for another target (cuda, ...): the report
    reads AMD amdgcn."""
    md = compiled.metadata
    backend = getattr(getattr(md, "target", None), "backend", None)
    asm = getattr(compiled, "asm", {}) or {}
    if backend != "hip" or "amdgcn" not in asm:
        name = getattr(md, "name", "?")
        raise NotAnAMDKernel(f"triton_mfma.report reads AMD amdgcn (gfx90a, gfx942, gfx950); kernel '{name}' was "
                             f"compiled for {_target_text(md)} (it has {', '.join(sorted(asm)) or 'no assembly'})")
    arch = kernel_arch(md)
    wpe = int(getattr(md, "waves_per_eu", 0) or 0)
    res = from_amdgcn(compiled.asm["amdgcn"], md.shared)
    eff = occ_model.occupancy(arch, md.num_warps, res.vgpr_total, res.sgpr, res.lds, wpe)
    modelled = occ_model.register_occupancy(arch, res.vgpr_total, res.sgpr, wpe)
    auto = getattr(md, "triton_mfma_waves_per_eu", None)
    dot = getattr(md, "triton_mfma_accelerate_dot", None)
    return KernelReport(md.name, arch, md.num_warps, wpe, res, eff, modelled, auto, dot,
                        getattr(md, "triton_mfma", None), getattr(md, "triton_mfma_fallback", None),
                        getattr(md, "triton_mfma_trials", None), _build(md, arch), _llvm_flags(md),
                        _waves_attr(asm.get("llir")))


def _llvm_flags(md) -> dict | None:
    """What the compile's metadata noted of the LLVM flags passed (a dict once read back from Triton's cache)."""
    noted = getattr(md, KEY, None)
    if noted is not None and not isinstance(noted, dict):  # a namedtuple, as Triton makes nested metadata
        noted = noted._asdict() if hasattr(noted, "_asdict") else None
    return {k: list(v) for k, v in noted.items()} if noted else None


_WAVES_ATTR = re.compile(r'"amdgpu-waves-per-eu"="([^"]*)"')


def _waves_attr(llir) -> str | None:
    """The amdgpu-waves-per-eu value of the kernel's LLVM IR ("": none; None: no LLVM IR kept)."""
    if not isinstance(llir, str):
        return None
    m = _WAVES_ATTR.search(llir)
    return m.group(1) if m else ""


def _build(md, arch: str) -> dict | None:
    """The build the kernel's metadata names; for a stock compile (no such record), the installed one."""
    recorded = getattr(md, "triton_mfma_build", None)
    if recorded:
        return dict(recorded)
    try:
        from ..composition.make_ttgir import build_record

        return build_record("hip", arch)
    except Exception:  # noqa: BLE001 - the report's figures do not depend on it
        return None
