"""Trial verdicts remembered within a process, for the repeated specializations of one kernel.

Triton compiles a kernel again for each specialization of its arguments that a launch meets: a pointer 16-byte
aligned or not, an integer a multiple of 16 or not (`tt.divisibility` on the argument). A library kernel launched on
several shapes compiles several times, the same body each time. Where two compiles have the same TTIR up to those
argument attributes, the same options and the same arch, a TTGIR decision whose model could not tell and which
compiled a trial on the first takes that verdict on the next without compiling its variant (evidence
"remembered"): the two builds it chose between are the same choices of the same body.

What is left out, on purpose:
  - an argument specialized to the constant 1 changes the body: another kernel here;
  - the same specialization compiled again (Triton's cache bypassed) decides afresh, as it would by itself;
  - models are not remembered (they cost no compile of the variant, and read this compile's own figures);
  - the llir-stage decisions (waves_per_eu "auto", an explicit one relaxed, the combination at the waves handed on)
    are taken afresh: their candidates share one make_llir, and the registers they weigh follow the specialization;
  - nothing under trial_all, nor where option `remember` is off.
The specialization changes what the loads vectorize to, so a verdict may not carry over; bench/remembered.py
measures how often it does not (the verdicts and the kernels handed on, against a fresh compile of the same
specialization): on held-out seeds 4544-4563, of 17 kernels with a remembered verdict, the verdicts differed on 6,
the kernel handed on was worse than the fresh compile's on 1 and never worse than stock's, at 1.87x stock's CPU
(median) against 3.31x.
"""
from __future__ import annotations

import functools
import hashlib
import re
import threading
from collections import OrderedDict
from ..decisions import Verdict

# the argument attributes a launch's specialization sets without changing the body (with the separator before or
# after them inside the attribute dictionary)
_SPECIALIZATION = re.compile(r"(?:,\s*)?tt\.divisibility = \d+ : i32(?:,\s*)?")
_LIMIT = 4096  # comparisons remembered (least recently used dropped first)
_LOCK = threading.Lock()
_VERDICTS: OrderedDict = OrderedDict()


def _unspecialized(ttir: str) -> str:
    def keep_separator(m: re.Match) -> str:
        text = m.group(0)
        return ", " if text.startswith(",") and text.rstrip().endswith(",") else ""
    return _SPECIALIZATION.sub(keep_separator, ttir)


@functools.lru_cache(maxsize=8)
def _keys(ttir: str, triton_options: str, options: str) -> tuple[str, str]:
    """(the kernel's key: its TTIR without the argument divisibility and its options; this specialization's: the TTIR
    exactly), hashed once per compile."""
    kernel = hashlib.sha256("\0".join((_unspecialized(ttir), triton_options, options)).encode()).hexdigest()
    return kernel, hashlib.sha256(ttir.encode()).hexdigest()


def _keys_of(ctx) -> tuple[str, str] | None:
    if not ctx.ttir:
        return None
    return _keys(ctx.ttir, repr(ctx.triton_options), repr(sorted((k, repr(v)) for k, v in ctx.options.items())))


def kernel_key(ctx) -> str | None:
    """The kernel as the remembered verdicts know it: its TTIR without the argument divisibility, its arch, Triton's
    options that change the code and the activation's options; None where the TTIR is unknown. A verdict is taken
    again for another specialization only: the same one compiles again where Triton's cache is bypassed, and decides
    the same by itself."""
    keys = _keys_of(ctx)
    return None if keys is None else keys[0]


def _entry(ctx, decision, ours, theirs):
    """(the comparison's entry, this specialization's key); None where nothing is remembered for this compile."""
    keys = _keys_of(ctx) if not ctx.trial_all and ctx.setting("remember") else None
    if keys is None:
        return None
    return (keys[0], decision.name, ours.choice, theirs.choice, ctx.w), keys[1]


def recall(ctx, decision, ours, theirs):
    """The verdict a trial of `decision` between these two choices took on an earlier specialization of this
    kernel, for these builds (evidence "remembered"); None where there is none."""
    found = _entry(ctx, decision, ours, theirs)
    if found is None:
        return None
    entry, specialization = found
    with _LOCK:
        got = _VERDICTS.get(entry)
        if got is not None:
            _VERDICTS.move_to_end(entry)
    if got is None or got[3] == specialization:
        return None
    word, reason, kept_ours, _ = got
    why = f"{reason} [remembered: a trial on an earlier specialization of this kernel, whose TTIR differs in its " \
          f"arguments' divisibility only]"
    return Verdict(word, why, "remembered", ours if kept_ours else theirs,
                   remark=why if why.startswith(word) else f"{word}: {why}")


def note(ctx, decision, ours, theirs, verdict) -> None:
    """Remember `verdict` where a trial took it between `ours` and `theirs` (and it chose one of the two without a
    fallback)."""
    if verdict is None or verdict.evidence != "trial" or verdict.fallback is not None or \
            verdict.warning is not None or verdict.chosen not in (ours, theirs):
        return
    found = _entry(ctx, decision, ours, theirs)
    if found is None:
        return
    entry, specialization = found
    with _LOCK:
        _VERDICTS[entry] = (verdict.decision, verdict.reason, verdict.chosen is ours, specialization)
        _VERDICTS.move_to_end(entry)
        while len(_VERDICTS) > _LIMIT:
            _VERDICTS.popitem(last=False)


def forget() -> None:
    """Drop every remembered verdict (a bench's fresh compile, a test)."""
    with _LOCK:
        _VERDICTS.clear()
