"""What a decision reads of the compile it decides for: the kernel's options, the variants (TTGIR builds) and their
compiled figures. Asking for a build's figures compiles it (once: memoised by the engine); where and beside what
that compile runs is the engine's policy, not the decision's."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..composition.passes import setting


@dataclass
class Waves:
    """A kernel's waves_per_eu through one compile, kept in this one place: what the compile asks (`asked`: the
    kernel's, or an int the activation forces; 0 for none and under "auto"), what every TTGIR decision compares at
    (`compared`: `asked`, or the waves the TTGIR's LDS admits where an explicit one cannot run), and what the compile
    hands to Triton's later stages and its metadata (`handed`: the llir-stage decision's choice, else `compared`)."""
    asked: int
    auto: bool  # "auto": the llir stage chooses
    compared: int | None = None
    handed: int | None = None

    def __post_init__(self):
        self.compared = self.asked if self.compared is None else self.compared
        self.handed = self.asked if self.handed is None else self.handed

    @classmethod
    def of(cls, kernel_w, wanted) -> "Waves":
        """From the kernel's options (`kernel_w`: an int, or "auto") and the activation's option (`wanted`: None,
        an int, or "auto"): an explicit waves_per_eu of the kernel's wins over a global "auto"; a global int forces."""
        auto = kernel_w == "auto" or (wanted == "auto" and kernel_w == 0)
        if auto:
            return cls(0, True)
        if isinstance(wanted, int):
            return cls(wanted, False)
        return cls(kernel_w if isinstance(kernel_w, int) else 0, False)

    def hand_on(self, w: int, metadata: dict) -> None:
        """`w` is what the compile hands on: Triton's later stages and the kernel's metadata read it."""
        self.handed = w
        metadata["waves_per_eu"] = w

    def reset(self, metadata: dict) -> None:
        """A fallback to Triton's stages: the compile hands on what it asked."""
        self.compared = self.asked
        self.hand_on(self.asked, metadata)


@dataclass
class TargetContext:
    """What a decision on another backend's compile reads (cuda: grid order's check on the cubin): the activation's
    options and Triton's."""
    options: dict
    triton_options: object = field(repr=False)
    strict: bool = False

    def setting(self, name: str):
        return setting(self.options, name)


@dataclass
class CubinTrials:
    """What grid order's check on a cuda compile may compile beside the remapped kernel (the stage's lowering)."""
    without_remap: Callable  # () -> (the TTGIR module without the remap, resources.CubinResources of its cubin)


@dataclass
class CompiledTrials:
    """What a decision on a compiled kernel (stage "llir" or "amdgcn": `Decision.decide`) may compile and read
    beside the compile it decides on: the engine's compiles, through the policy, which alone schedules them."""
    at_waves: Callable  # ([w, ...]) -> [variants.Compiled]: the base's TTGIR at other waves_per_eu (one make_llir)
    # (limit_s or None) -> a context manager: the make_amdgcn compiles made inside it run in a child process, stopped
    # together at limit_s CPU seconds (decisions.backend_limit; ir.bounded.OverLimit in place of one past it)
    bounded: Callable
    # (key, [value, ...]) -> [variants.Compiled | Exception]: the base's LLVM IR with a function attribute
    with_attr: Callable
    figures: Callable  # (variants.Compiled, its TTGIR text or None) -> dot_figures.Figures at its waves
    tritons_build: Callable  # () -> variants.Build of Triton's kernel (no interior choice, no remap)
    # (variants.Build, w) -> that build compiled at waves w (the policy schedules it), or the exception it raised
    build_at: Callable
    chosen: object = None  # the variants.Build handed on (None: Triton's module, compiled in place)
    compared_w: int = 0  # the waves_per_eu the TTGIR decisions compared at


@dataclass
class Context:
    options: dict  # the activation's options (triton_mfma.enabled)
    triton_options: object = field(repr=False)  # Triton's HIPOptions, waves_per_eu `waves.asked`
    waves: Waves  # the kernel's waves_per_eu: asked, compared at, handed on
    strict: bool
    points: dict = field(repr=False)  # insertion point -> the activation's passes there
    variant: Callable = field(repr=False)  # (choice) -> variants.Build
    figures: Callable = field(repr=False)  # (build) -> dot_figures.Figures at w, or the exception compiling it raised
    printed: Callable = field(repr=False)  # (build) -> resources.Printed at w (no instruction read), or the exception
    compiled: Callable = field(repr=False)  # (build, w) -> variants.Compiled already made, or None
    note: Callable = field(repr=False)  # (name, line): a remark beside a decision's verdict
    # (variants.Compiled, w) -> its dot_figures.Figures read at waves w (the policy reads each amdgcn once)
    figures_of: Callable = field(repr=False)
    has_dot: bool = False  # the kernel's TTIR has a tt.dot
    ttir: str = field(default="", repr=False)  # the kernel's TTIR (generic text), what every build starts from
    # () -> the CPU seconds of this kernel's longest compile where above decisions.LONG_COMPILE_S, else None
    long_compile: Callable = field(default=lambda: None, repr=False)
    # () -> the make_amdgcn compiles of this kernel so far (the engine's), what option max_compiles caps
    compiles: Callable = field(default=lambda: 0, repr=False)
    # () -> (CPU s of the kernel's first compile, of all its compiles so far, of the longest): decisions.budget_spent
    cpu: Callable = field(default=lambda: (0.0, 0.0, 0.0), repr=False)
    # () -> CPU s of the kernel's longest make_amdgcn alone (0: none timed): what a candidate that shares an LLVM IR
    # already made costs (waves_per_eu candidates, scheduling strategies): decisions.budget_spent's `same_llir`
    backend_cpu: Callable = field(default=lambda: 0.0, repr=False)
    # () -> CPU s of a compile of Triton's kernel at the waves the kernel asks (what stock compiles), where the policy
    # made one (0: none): decisions.cpu_cap scales with it where it is below the first compile's
    stock_cpu: Callable = field(default=lambda: 0.0, repr=False)
    # () -> "spills" / "no spill": whether the kernel's first compile has spill traffic the judge ranks (None: not
    # compiled yet); decisions.STAKES_CPU scales the CPU budget with it
    stakes: Callable = field(default=lambda: None, repr=False)
    # the choices a decision took back after others were decided with them in place (policy.Policy.decide)
    reverted: set = field(default_factory=set)
    # (the winner's choice, the loser's choice, the waves compared at) of every comparison a decision decided between
    # two builds: ours kept against its variant, or the variant chosen against ours (policy.Policy.decide)
    kept_against: set = field(default_factory=set)

    @property
    def arch(self) -> str:
        return self.triton_options.arch

    @property
    def num_warps(self) -> int:
        return self.triton_options.num_warps

    @property
    def w(self) -> int:
        """The waves_per_eu every decision compares at (0 under "auto": the llir stage chooses)."""
        return self.waves.compared

    @w.setter
    def w(self, value: int) -> None:
        self.waves.compared = value

    @property
    def auto(self) -> bool:
        return self.waves.auto

    @property
    def asked_w(self) -> int:
        """The waves_per_eu the kernel's compile asks (0: none, or "auto"), where `w` may be the compared waves."""
        return self.waves.asked

    @property
    def trial_all(self) -> bool:
        return bool(self.options.get("trial_all"))

    def setting(self, name: str):
        return setting(self.options, name)

    def runs(self, pass_name: str, point: str = "ttgir_end") -> bool:
        return any(p.name == pass_name for p in self.points.get(point, ()))
