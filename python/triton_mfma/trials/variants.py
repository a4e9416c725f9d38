"""A kernel's TTGIR variants as the engine keeps them: what one build made (`Build`), one compile of it
(`Compiled`), the choices that name them (insertion points where our pass runs instead of Triton's) and how two
choices relate (the points where they first differ, the steps they share before a point), equality of two TTGIRs up
to names and locations, and the board on which builds on different threads publish what they returned at each point.
"""
from __future__ import annotations

import functools
import re
import threading
from dataclasses import dataclass, field
from typing import NamedTuple

from ..composition.points import POINT_ORDER, STAGES, variant_point, variants_at
from ..ir.bridge import export_generic, strip_locations


@dataclass
class Compiled:
    """One variant compiled to amdgcn."""
    waves_per_eu: int
    llir: str = field(repr=False)
    amdgcn: str = field(repr=False)
    metadata: dict = field(repr=False)  # after make_amdgcn
    cpu_s: float = 0.0  # CPU time of its make_llir (where its own) and make_amdgcn, on their threads


# Generic text up to what does not change the code: locations (debug info only) and SSA value names (Triton names
# values after the source variables their location carries, so the same op built by another pass prints as
# %acc_106 instead of %a_106). Names are replaced by their order of first appearance, which keeps every def-use
# edge: two texts equal after this are the same module.
_SSA_NAME = re.compile(r"%[\w$.-]+")


@functools.lru_cache(maxsize=32)  # a build's text is compared with several others
def _canonical(text: str) -> str:
    names: dict[str, str] = {}
    return _SSA_NAME.sub(lambda m: names.setdefault(m.group(0), f"%{len(names)}"), strip_locations(text))


def same_code(a: str, b: str) -> bool:
    """Whether two TTGIRs (generic text) are the same module up to locations and value names."""
    return a == b or _canonical(a) == _canonical(b)


class Made(NamedTuple):
    """What the stage's make_ttgir callback returns for one variant (fields as in `Build`; `text`: the module's
    generic text where the last step printed it, else "")."""
    module: object
    declined: set
    outcomes: list
    text: str
    before: dict
    after: dict
    spare: dict


@dataclass
class Build:
    """One TTGIR variant: the module (handed to Triton if chosen), its generic text, what our passes said."""
    choice: frozenset  # insertion points where our pass ran instead of Triton's
    module: object = field(repr=False)
    text: str = field(repr=False)
    metadata: dict = field(repr=False)  # after make_ttgir
    declined: set = field(default_factory=set)  # points whose pass declined (Triton's step ran there)
    outcomes: list = field(default_factory=list)  # runner.Outcome of every pass that ran
    before: dict = field(default_factory=dict, repr=False)  # point -> generic text of the module our passes got there
    after: dict = field(default_factory=dict, repr=False)  # point -> generic text of what our passes returned there
    # point -> the module our passes got there, where they returned a new one (the build went on with that): the
    # very module a build differing from here on would have, use-list order included (a parsed copy would not
    # have it, and Triton's passes then pick other locations for the ops they merge); taken by one resumed build
    spare: dict = field(default_factory=dict, repr=False)

    @classmethod
    def made(cls, choice: frozenset, metadata: dict, made: "Made") -> "Build":
        """The Build of what make_ttgir made. The library's output is the module's generic text (Triton prints it
        back identically: test_bridge.py), so a TTGIR that ends with our passes is not printed again."""
        return cls(choice, made.module, made.text or export_generic(made.module), metadata, set(made.declined),
                   list(made.outcomes), made.before, made.after, made.spare)

    def same_code(self, other: "Build") -> bool:
        return same_code(self.text, other.text)

    def declined_reason(self, pass_name: str) -> str:
        """Why `pass_name` declined this module (its structured outcome), or "" if it did not."""
        return next((o.reason for o in self.outcomes if o.pass_name == pass_name and o.status == "declined"), "")


# POINT_ORDER: the insertion points of a hip TTGIR build, in pipeline order; a build's choice says, at each, whether
# our pass runs there (the interior points), with which options (points.VARIANT_OPTIONS), or which of the passes
# there are left out ("skip:<pass>", at ttgir_end).
# COMPARE_AFTER: replacing points where a build that resumes there with Triton's step compares its module right
# after that step with what our pass returned there in other builds: mfma-accelerate-dot builds its ops in the order Triton's
# accelerate_matmul does, so where both choose the same layouts the modules are equal there (measured: every
# "identical" comparison of the bench suite), and the rest of Triton's variant need not be built. The stream
# pipeliner's output is rarely Triton's, so the export that comparison needs is not paid there (points.py).


def stages_of(choice: frozenset) -> int | None:
    """The num_stages a choice builds with (None: the kernel's own)."""
    return next((int(c[len(STAGES):]) for c in choice if c.startswith(STAGES)), None)


def at_point(choice: frozenset, point: str):
    if point == "ttgir_end":
        return frozenset(c for c in choice if c.startswith("skip:"))
    if point == "pipeline":
        return point in choice, stages_of(choice), variants_at(choice, point)
    return point in choice, variants_at(choice, point)


def steps_before(choice: frozenset, point: str) -> frozenset:
    """What of `choice` decides a build's module before `point`: its choices at earlier points and its num_stages
    (the options every step is built with); not `point` and later points, nor the passes left out at ttgir_end."""
    later = set(POINT_ORDER[POINT_ORDER.index(point):])
    return frozenset(c for c in choice if c not in later and variant_point(c) not in later and
                     not c.startswith("skip:"))


def first_difference(a: frozenset, b: frozenset) -> int | None:
    """Index in POINT_ORDER of the first point where two choices differ (None: they agree everywhere)."""
    return next((i for i, p in enumerate(POINT_ORDER) if at_point(a, p) != at_point(b, p)), None)


@dataclass
class Resume:
    """Where a new build starts from an earlier one: the steps before `point` are the same in both, so the new
    build continues from the module `base` had there (its spare); at each later point in `compare`, a module
    equal to an earlier build's there, whose choice agrees with the new one from that point on, means the rest is
    that build's too (`SameAsBuild`)."""
    point: str
    module: object = field(repr=False)
    base: Build = field(repr=False)
    compare: dict = field(default_factory=dict, repr=False)  # point -> [earlier Build with its text there]
    # earlier Builds whose module right after our passes at `point` the new build's module right after Triton's
    # step there is compared with (their choices agree with the new one after `point`)
    compare_after: list = field(default_factory=list, repr=False)


class Cancelled(Exception):
    """A speculative compile dropped before its make_amdgcn (`Engine.cancel`)."""


class SameAsBuild(Exception):
    """Raised by a resumed build at `point` when its module there is `build`'s (up to names and locations):
    before the steps at `point`, or (`after`) right after them."""

    def __init__(self, point: str, build: Build, after: bool = False):
        super().__init__(point)
        self.point, self.build, self.after = point, build, after


class SameAsOurs(Exception):
    """Raised by an aside build right after Triton's step at the point where it diverges from ours, where its module
    there is what ours' passes returned (or ours' pass declined and Triton's step ran in ours too): from there on the
    two are one build, so the aside stops (the variant is then resumed on the adopting thread, which finds the same
    at once)."""


class PointBoard:
    """What each build returned at each insertion point, published as its build passes there, for an aside build
    of a variant that diverges at that point to compare with (builds run on different threads)."""

    DECLINED = object()  # the pass declined there: Triton's step ran

    def __init__(self):
        self._cond = threading.Condition()
        self._texts: dict[tuple[frozenset, str], object] = {}
        self._done: set[frozenset] = set()
        self._closed = False

    def publish(self, choice: frozenset, point: str, text) -> None:
        with self._cond:
            self._texts[choice, point] = text
            self._cond.notify_all()

    def finish(self, choice: frozenset) -> None:
        """The build of `choice` ended (built or failed): nothing more is published for it."""
        with self._cond:
            self._done.add(choice)
            self._cond.notify_all()

    def close(self) -> None:
        """The compile is settled or interrupted: no waiter waits any longer (an interrupt may come before the
        build waited for starts; the aside must then end, not hold the process's exit)."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def wait(self, choice: frozenset, point: str):
        """What the build of `choice` returned at `point` (text, or DECLINED); None where it ended without, or
        the board was closed first."""
        with self._cond:
            self._cond.wait_for(lambda: (choice, point) in self._texts or choice in self._done or self._closed)
            return self._texts.get((choice, point))
