"""The insertion points of the composed make_ttgir: where in Triton's pipeline the project's passes run.

The one table of them. A point is defined by the Triton pass-adding calls it replaces (`replaces`, per backend, in
the order make_ttgir adds them): make_ttgir.py finds those calls in the installed make_ttgir, runs our passes just
before the first, and adds each of Triton's only where ours is inactive or declined the module (Triton's steps
then run as if the point were not there). `ttgir_end` replaces nothing: it follows make_ttgir's last pass-manager
run, and is the TTGIR make_llir receives (before Triton's LDS allocation). No Triton import here: the command
line lists points without loading Triton.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Point:
    name: str
    doc: str
    replaces: dict = field(default_factory=dict)  # backend -> the Triton `add_<pass>` calls it replaces, in order
    compare_after: bool = False  # the variant engine compares the module after Triton's step here with ours'

    @property
    def interior(self) -> bool:
        """Inside make_ttgir (replaces Triton steps), as opposed to after it."""
        return bool(self.replaces)


POINT_TABLE = (
    Point("accelerate_matmul", "make_ttgir, replaces Triton's accelerate_matmul",
          {"hip": ("add_accelerate_matmul",), "cuda": ("add_accelerate_matmul",)}, compare_after=True),
    # on cuda 10.x Triton's warp_specialize sits between schedule_loops and pipeline: it is kept, after ours
    Point("pipeline", "make_ttgir, replaces Triton's loop pipeliner (schedule_loops + pipeline)",
          {"hip": ("add_schedule_loops", "add_pipeline"),
           "cuda": ("add_assign_latencies", "add_schedule_loops", "add_pipeline")}),
    Point("ttgir_end", "end of make_ttgir: the TTGIR make_llir receives (before Triton's LDS allocation)"),
)
POINTS = {p.name: p for p in POINT_TABLE}
POINT_ORDER = tuple(p.name for p in POINT_TABLE)  # the order a build meets them
INTERIOR_POINTS = tuple(p.name for p in POINT_TABLE if p.interior)
REPLACING_POINTS = frozenset(INTERIOR_POINTS)
COMPARE_AFTER = tuple(p.name for p in POINT_TABLE if p.compare_after)
POINT_DOCS = {p.name: p.doc for p in POINT_TABLE}
# A build's choice holds the interior points where ours runs, "skip:<pass>" for a pass at ttgir_end left out,
# STAGES + N for a build with num_stages N (Triton reads num_stages from `pipeline` on only), and "<point>:<name>"
# for our pass at that point run with other options (VARIANT_OPTIONS; beside the point itself).
STAGES = "stages:"
# the pass options each such variant runs its point's passes with (over the user's)
VARIANT_OPTIONS = {
    "accelerate_matmul:registers": {"dot_registers_first": True},  # decisions/dot_registers.py
}


def variant_point(tag: str) -> str | None:
    """The point a choice's option variant ("<point>:<name>") belongs to; None for any other element."""
    return tag.split(":", 1)[0] if tag in VARIANT_OPTIONS else None


def variants_at(choice, point: str) -> frozenset:
    """The option variants of `choice` at `point`, where our pass runs there (the options of a pass that does not
    run change nothing)."""
    return frozenset(c for c in choice if variant_point(c) == point) if point in choice else frozenset()


def variant_options(choice) -> dict:
    """The pass options the option variants of `choice` add to the user's."""
    out: dict = {}
    for c in sorted(choice):
        out.update(VARIANT_OPTIONS.get(c, {}))
    return out
