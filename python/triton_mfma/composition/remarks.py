"""How the project's remarks and warnings reach the user.

Every decision of a pass (what it did to a kernel and why) is a remark. Verbosity, from the `remarks` option or
the environment variable TRITON_MFMA_REMARKS:
  summary  (default) one `MFMARemark` line per compiled kernel (at most SUMMARY_WIDTH characters): each
           decision's outcome
  all      every remark of every pass, then the summary with every reason
  none     no remarks (warnings, e.g. a fallback to stock Triton, are still shown)

Remarks are Python warnings of category `triton_mfma.MFMARemark`; they point at the user's code: a remark a pass
attaches to a kernel line points at that line of the kernel's source, the others at the first frame outside
Triton and triton-mfma (the launch or `triton.compile` call). Filtering works the usual ways:
`warnings.filterwarnings("ignore", category=triton_mfma.MFMARemark)`, `-W "ignore:triton-mfma remark"` (by
message; works from the shell), and `-W ignore::triton_mfma.MFMARemark` / PYTHONWARNINGS with that category
(Python reads -W before site-packages are importable and prints "Invalid -W option ignored"; triton-mfma
applies such options itself when it is imported, so they take effect all the same). Ours print as one line,
`file:line: Category: message` (warnings.formatwarning, for our categories only). Environment values
triton-mfma does not accept (ENVIRONMENT) are one warning each, once per process; the command line refuses them.
"""
from __future__ import annotations

import os
import re
import sys
import warnings

from ..ir import native
from ..ir.native import MFMARemark, MFMAWarning
from .passes import REGISTRY

LEVELS = ("none", "summary", "all")
PREFIX = "triton-mfma remark"

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # triton_mfma/, all its folders
_INTERNAL_DIRS: tuple[str, ...] | None = None


SUMMARY_WIDTH = 160  # the most characters of the one line a kernel's summary takes at the default verbosity

# What triton-mfma's environment variables accept: (the accepted values in words, check of the stripped value).
_FLAG_WORDS = ("", "0", "1", "false", "true", "no", "yes", "off", "on")
ENVIRONMENT = {
    "TRITON_MFMA_REMARKS": ("none, summary or all", lambda v: v.lower() in ("",) + LEVELS),
    "TRITON_MFMA_STRICT": ("0 or 1 (false/true, no/yes, off/on)", lambda v: v.lower() in _FLAG_WORDS),
    "TRITON_MFMA_TRIAL_THREADS": ("a positive integer", lambda v: v == "" or (v.isdigit() and int(v) > 0)),
    "TRITON_CODEGEN_AMD": ("0, 1 or comma-separated pass names (`triton-mfma passes`)", None),
}


def environment_problems() -> list[str]:
    """One line per environment variable of triton-mfma's whose value it does not accept."""
    out = []
    for name, (accepted, check) in ENVIRONMENT.items():
        value = os.environ.get(name)
        if value is None:
            continue
        v = value.strip()
        if check is None:  # TRITON_CODEGEN_AMD: a flag word or known pass names
            if v.lower() in _FLAG_WORDS:
                continue
            bad = [p for p in (x.strip() for x in v.split(",")) if p and p not in REGISTRY]
            if not bad:
                continue
            accepted = f"{accepted}; no pass {', '.join(map(repr, bad))}{_suggestion(bad[0], REGISTRY)}"
        elif check(v):
            continue
        out.append(f"{name}={value!r} is not valid: expected {accepted}")
    return out


def _suggestion(word: str, choices) -> str:
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


_ENV_WARNED = False


def check_environment() -> None:
    """Warn once per process about environment values triton-mfma does not accept (the command line refuses
    them instead: cli.main)."""
    global _ENV_WARNED
    if _ENV_WARNED:
        return
    _ENV_WARNED = True
    for problem in environment_problems():
        warn(f"triton-mfma: {problem}; using the default")


def level(option: str | None = None) -> str:
    """The verbosity in force: the activation's `remarks` option, else TRITON_MFMA_REMARKS, else summary."""
    check_environment()
    value = option or os.environ.get("TRITON_MFMA_REMARKS", "").strip().lower() or "summary"
    return value if value in LEVELS else "summary"


_STATUS = re.compile(r"^(applied|kept|reverted|declined|unchanged|failed|skipped)\b")


def short_summary(kernel: str, decisions: dict, width: int = SUMMARY_WIDTH) -> str:
    """The default remark of one kernel: each decision's name and outcome on one line of at most `width`
    characters with its prefix (`remarks='all'` and the kernel's metadata keep the reasons)."""
    parts = []
    for name, line in decisions.items():
        m = _STATUS.match(line)
        if m:
            parts.append(f"{name.removeprefix('mfma-')} {m.group(1)}")
        else:  # a decision that is not a pass outcome (waves_per_eu auto): its first clause
            parts.append(re.sub(r" \([^)]*\)", "", re.split(r"\. |; ", line, maxsplit=1)[0]))
    tail = " (remarks=all: why)"
    room = width - len(f"{PREFIX} [{kernel}] ") - len(tail)
    text = "; ".join(parts)
    if len(text) > room:
        text = text[:max(room - 3, 0)].rstrip("; ,") + "..."
    return text + tail


def _internal_dirs() -> tuple[str, ...]:
    global _INTERNAL_DIRS
    if _INTERNAL_DIRS is None:
        dirs = [_PACKAGE_DIR, os.path.dirname(warnings.__file__)]  # ours, and the standard library
        try:
            import triton

            dirs.append(os.path.dirname(os.path.abspath(triton.__file__)))
        except ImportError:  # pragma: no cover - triton is a dependency
            pass
        _INTERNAL_DIRS = tuple(d + os.sep for d in dirs)
    return _INTERNAL_DIRS


def _user_stacklevel() -> int:
    """The `stacklevel` for warnings.warn (called from here) that names the first frame outside Triton, this
    package and the standard library; the outermost frame when every frame is internal."""
    internal = _internal_dirs()
    frame, lvl = sys._getframe(1), 1
    while frame.f_back is not None and os.path.abspath(frame.f_code.co_filename).startswith(internal):
        frame, lvl = frame.f_back, lvl + 1
    return lvl


_LOC = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+)$")


def emit(message: str, *, kernel: str = "", location: str = "", category=MFMARemark) -> None:
    """Show one remark (or warning). A `location` "file:line:col" of an existing file is where it points."""
    text = f"{PREFIX} [{kernel}] {message}" if category is MFMARemark else message
    m = _LOC.match(location or "")
    if m and os.path.isfile(m["file"]):
        registry = sys.modules[__name__].__dict__.setdefault("__warningregistry__", {})
        warnings.warn_explicit(text, category, m["file"], int(m["line"]), registry=registry)
        return
    warnings.warn(text, category, stacklevel=_user_stacklevel())


def body(text: str) -> str:
    """A remark's message without the "triton-mfma remark [kernel] " prefix emit() puts before it."""
    if text.startswith(PREFIX + " ["):
        return text.split("] ", 1)[1] if "] " in text else text
    return text


def _format_warning(message, category, filename, lineno, line=None):
    """Ours on one line: `file:line: Category: message` (no source line under it); the others as Python
    formats them."""
    if isinstance(category, type) and issubclass(category, (MFMARemark, MFMAWarning)):
        return f"{os.path.basename(filename)}:{lineno}: {category.__name__}: {message}\n"
    return _python_format(message, category, filename, lineno, line)


_python_format = warnings.formatwarning
warnings.formatwarning = _format_warning


def warn(message: str) -> None:
    """An MFMAWarning (a fallback, a problem): shown at every verbosity, pointing at the user's code."""
    warnings.warn(message, MFMAWarning, stacklevel=_user_stacklevel())


class KernelRemarks:
    """Collects what the passes said about one kernel's compile and shows it at the chosen verbosity: pass
    remarks as they come (at `all`), and one summary line per kernel at the end (`summary`, `all`)."""

    def __init__(self, kernel: str, verbosity: str):
        self.kernel = kernel
        self.verbosity = verbosity
        self.decisions: dict[str, str] = {}  # pass / decision name -> one line: what and why
        self._seen: set[tuple[str, str]] = set()

    def diagnostic(self, d) -> None:
        """A diagnostic of one of our passes (native.Diagnostic): warnings always, remarks at `all`, once each
        (a variant compiled twice repeats its remarks)."""
        key = (d.location, d.message)
        if key in self._seen:
            return
        self._seen.add(key)
        if d.severity == "warning":
            emit(f"[{self.kernel}] {d}", category=MFMAWarning)
        elif d.severity == "remark" and self.verbosity == "all":
            emit(d.message, kernel=self.kernel, location=d.location)

    def decide(self, name: str, line: str) -> None:
        self.decisions[name] = line

    def silenced(self) -> KernelRemarks:
        """For passes run again on a module they already spoke about: no remarks, no summary, and a warning
        this kernel's compile already gave is not repeated."""
        quiet = KernelRemarks(self.kernel, "none")
        quiet._seen = self._seen
        return quiet

    def summary(self) -> str:
        return "; ".join(f"{name}: {line}" for name, line in self.decisions.items())

    def flush(self) -> None:
        if self.decisions and self.verbosity != "none":
            emit(self.summary() if self.verbosity == "all" else short_summary(self.kernel, self.decisions),
                 kernel=self.kernel)
        self.decisions = {}


class RemarkBuffer:
    """What a variant built on another thread said (engine.Engine.aside), kept until it is adopted: warnings
    are only emitted, and decisions recorded, on the thread that compiles the kernel."""

    def __init__(self):
        self.decisions: dict[str, str] = {}
        self._diagnostics: list = []

    def diagnostic(self, d) -> None:
        self._diagnostics.append(d)

    def decide(self, name: str, line: str) -> None:
        self.decisions[name] = line

    silenced = KernelRemarks.silenced  # reads only .kernel and ._seen, which a buffer has too

    def replay(self, into: KernelRemarks) -> None:
        """Into the kernel's remarks, as if built there after what is already there (its decisions do not
        replace earlier ones)."""
        for d in self._diagnostics:
            into.diagnostic(d)
        for name, line in self.decisions.items():
            into.decisions.setdefault(name, line)


def apply_warnoptions() -> None:
    """Apply -W / PYTHONWARNINGS entries whose category is one of ours: Python could not import this package
    when it read them at start-up, so it ignored them."""
    ours = {"triton_mfma.MFMARemark": MFMARemark, "triton_mfma.MFMAWarning": MFMAWarning,
            "triton_mfma.ir.native.MFMARemark": native.MFMARemark,
            "triton_mfma.ir.native.MFMAWarning": native.MFMAWarning}
    for opt in sys.warnoptions:
        parts = [p.strip() for p in opt.split(":")]
        if len(parts) < 3 or parts[2] not in ours:
            continue
        action, msg, _, module, lineno = (parts + ["", ""])[:5]
        actions = {"error", "ignore", "always", "default", "module", "once"}
        action = next((a for a in actions if a.startswith(action.lower())), None) if action else "default"
        if action is None:
            continue
        try:
            warnings.filterwarnings(action, message=re.escape(msg), category=ours[parts[2]],
                                    module=re.escape(module) + r"\Z" if module else "",
                                    lineno=int(lineno) if lineno else 0)
        except (ValueError, re.error):  # a malformed option: Python's own handling already warned
            continue
