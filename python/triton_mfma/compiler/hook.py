"""Activation: what is enabled, for whom, and the one hook through which Triton's compiles reach our stages.

    triton_mfma.enable(passes=None, **options)     every compile in the process (threads without a scope of
    triton_mfma.disable()                          their own); disable() ends it
    with triton_mfma.enabled(passes=None, **o):    this thread / asyncio task only, inside the block

Scoping: `enabled()` sets a `contextvars` variable, so two threads (or tasks) in different `with enabled(...)`
blocks each compile with their own passes and options, and neither sees the other's; a thread started inside a
block does not inherit it (start it with `contextvars.copy_context().run` to pass it on). `enable()` sets the
process-wide activation that every thread without a block of its own uses.

Triton's `knobs.runtime.add_stages_inspection_hook` is installed once, when the first activation starts, and
chains a hook that was there before (its cache key is appended; it sees, and may wrap, our stages); it is put
back when no activation is left. Triton calls the hook without arguments for a cache-key suffix — the package
version and a fingerprint of its code (`code_fingerprint`: an install from a newer checkout keeps the version
string, and must not be handed binaries the older code made), the passes and options of the activation *of the
compiling thread*, so changing any of them recompiles — and with
(backend, stages, options, language, capability) to edit the stages (stages.py).

A fallback is never cached: a compile whose ttgir stage fell back to stock Triton (`metadata["triton_mfma_fallback"]`,
stages.py) may owe it to a transient cause (an unwritable `dump=` directory, a full disk), and the key above does not
record it (policy options are not in it). While an activation is installed, Triton's cache manager class
(`knobs.cache.manager_class`, whatever it was: the default file cache or a user's) is wrapped by
`FallbackFreeCache`, which writes every file as before but not the group file of a compile whose metadata records a
fallback; that group file is what makes a later lookup a hit, so the next compile under the key compiles again (and
warns again while the cause lasts). Its other files are left as any failed compile leaves them: unreferenced.
An interrupted compile (KeyboardInterrupt, SystemExit in one of its stages, or while Triton writes a stage's file
between two of them) leaves nothing: the files it put in the cache are removed (`discard`), so no partial entry
stays behind; where the interrupt came elsewhere between two stages, they are removed when the process exits.
"""
from __future__ import annotations

import atexit
import contextlib
import contextvars
import functools
import glob
import hashlib
import json
import os
import shutil
import threading

from .._version import __version__
from ..composition.passes import (BACKENDS, DEFAULT_OPTIONS, DEFAULT_PASSES, POLICY_OPTIONS, REGISTRY, REPLACING_POINTS,
                                  find_option)
from ..ir.bridge import TritonBuildError, probe
from ..trials.threads import reset_pool


@functools.lru_cache(maxsize=4)
def code_fingerprint(root: str | None = None) -> str:
    """sha256 of the package's code (`root`: this package's directory): its Python sources and native
    libraries, read once per process (~6 MB). Part of the cache key, as Triton's own key hashes Triton's sources."""
    root = root or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # triton_mfma/, not compiler/
    h = hashlib.sha256()
    for dirpath, dirnames, files in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(files):
            if name.endswith((".py", ".so", ".dylib", ".dll")):
                path = os.path.join(dirpath, name)
                h.update(os.path.relpath(path, root).encode() + b"\0")
                with open(path, "rb") as f:
                    h.update(f.read())
    return h.hexdigest()


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "0").strip().lower() not in ("", "0", "false", "no", "off")


class Activation:
    """An immutable, validated description of what is enabled: the passes, their options, the policies.
    Every bad value is a ValueError here, naming the option, the value and what is allowed."""

    def __init__(self, passes=None, **options):
        explicit = passes is not None
        if isinstance(passes, str):  # "mfma-a,mfma-b" or one name: never iterate its characters
            passes = [p.strip() for p in passes.split(",") if p.strip()]
        names = list(DEFAULT_PASSES if passes is None else passes)
        if passes is None:  # the default set comes with its default options (an explicit value wins)
            options = {**DEFAULT_OPTIONS, **options}
        unknown = [n for n in names if n not in REGISTRY]
        if unknown:
            raise ValueError(f"unknown triton-mfma pass(es) {unknown}; known: {sorted(REGISTRY)}")
        if len(set(names)) != len(names):
            raise ValueError(f"a pass is listed twice: {names}")
        checked = {}
        for key, value in options.items():
            opt, users = find_option(key)
            if users and not set(users) & set(names):
                raise ValueError(f"triton-mfma option {key!r} is used by {users}, which {'is' if len(users) == 1 else 'are'} "
                                 f"not enabled (enabled: {names})")
            if key == "backends":
                value = _check_backends(value)
            elif key == "dump" and value is not None:
                value = _check_dump(value)
            if value is not None:
                opt.check(value)
            checked[key] = value
        by_point: dict[str, list] = {}
        for n in names:
            p = REGISTRY[n]
            if p.point in REPLACING_POINTS and by_point.get(p.point):
                raise ValueError(f"passes {by_point[p.point][0].name} and {n} both replace '{p.point}'")
            by_point.setdefault(p.point, []).append(p)
        by_point = {pt: _ordered(ps) for pt, ps in by_point.items()}
        self.passes = tuple(names)
        self.explicit = explicit
        self.by_point = by_point
        self.options = checked
        # the default set acts on hip only (TRITON_CODEGEN_AMD=1 leaves cuda compiles alone); passes named
        # explicitly act on every target they support; `backends=` decides either way
        self.backends = checked.get("backends") or (BACKENDS if explicit else ("hip",))
        self.strict = bool(checked.get("strict")) or _env_flag("TRITON_MFMA_STRICT")
        self.dump_dir = checked.get("dump") or os.environ.get("TRITON_MFMA_DUMP") or None
        self.remarks = checked.get("remarks")
        # strict enters the key: a kernel cached after a fallback in a non-strict compile is never returned to a
        # strict one (which compiles it again, and raises where the pass fails)
        code_options = {k: v for k, v in sorted(checked.items()) if k not in POLICY_OPTIONS}
        self.key = f"triton_mfma-{__version__}-{code_fingerprint()[:16]}-" + json.dumps(
            {"passes": self.passes, "options": code_options, "strict": self.strict}, sort_keys=True, default=str)
        self.hash = hashlib.sha256(self.key.encode()).hexdigest()

    def with_options(self, **options) -> Activation:
        """This activation with `options` set too: the same passes (listed, or the default set)."""
        return Activation(list(self.passes) if self.explicit else None, **{**self.options, **options})

    def points_for(self, backend: str) -> dict:
        """Insertion point -> the enabled passes placed there that act on `backend`."""
        if backend not in self.backends:
            return {}

        def acts(p):
            return backend in p.targets and (self.explicit or backend not in p.by_name_only)

        return {pt: [p for p in ps if acts(p)] for pt, ps in self.by_point.items() if any(acts(p) for p in ps)}

    def __repr__(self) -> str:
        return f"Activation(passes={list(self.passes)}, options={self.options})"


def _ordered(passes: list) -> list:
    """The passes of one point in the order listed, except that a pass runs after those it names in `after`."""
    out, pending = [], list(passes)
    while pending:
        p = next(p for p in pending if not any(q.name in p.after for q in pending if q is not p))
        out.append(p)
        pending.remove(p)
    return out


def _check_dump(value) -> str:
    if not isinstance(value, (str, os.PathLike)) or isinstance(os.fspath(value), bytes):
        raise ValueError(f"triton-mfma option dump={value!r} is not allowed; allowed: a directory path (str or "
                         "os.PathLike)")
    return os.fspath(value)


def _check_backends(value) -> tuple:
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, (list, tuple)) or not value or any(v not in BACKENDS for v in value):
        raise ValueError(f"triton-mfma option backends={value!r} is not allowed; allowed: a non-empty list of "
                         f"{list(BACKENDS)}")
    return tuple(dict.fromkeys(value))


_UNSET = object()
_scoped: contextvars.ContextVar = contextvars.ContextVar("triton_mfma_activation", default=_UNSET)
_lock = threading.Lock()
_process: Activation | None = None
_scopes = 0  # `enabled()` blocks open in any thread
_previous_hook = None  # the hook that was installed when ours was
_previous_manager = None  # knobs.cache.manager_class as it was when ours was installed


def current() -> Activation | None:
    """The activation in force for the calling thread / task (None: triton-mfma is off there)."""
    value = _scoped.get()
    return _process if value is _UNSET else value


def is_enabled() -> bool:
    return current() is not None


class FallbackFreeCache:
    """Triton's cache manager (the class that was configured: `inner_class`), except that the group file of a
    compile that fell back to stock is not written (module docstring). Built by Triton as `cls(key, **kw)`."""

    inner_class = None  # set on install: the manager class Triton used before (None: its FileCacheManager)
    # (thread, key) -> paths put there by a compile that has not written its group yet (one compile runs on one
    # thread: its puts, its stages and its put_group)
    _ungrouped: dict = {}

    def __init__(self, key, **kwargs):
        from triton.runtime.cache import FileCacheManager

        self.key = key
        self.inner = (type(self).inner_class or FileCacheManager)(key, **kwargs)
        self._ours = not kwargs  # the compile cache itself, not Triton's dump / override managers

    def __getattr__(self, name):  # cache_dir, has_file, ... of the manager wrapped
        if name == "inner":  # not built (its __init__ raised)
            raise AttributeError(name)
        return getattr(self.inner, name)

    def get_file(self, filename):
        return self.inner.get_file(filename)

    def put(self, data, filename, binary=True):
        try:
            path = self.inner.put(data, filename, binary=binary)
        except BaseException as e:  # an interrupt while Triton writes a stage's file, between two stages
            if self._ours and not isinstance(e, Exception):
                _remove(self._ungrouped.pop((threading.get_ident(), self.key), []),
                        str(getattr(self.inner, "cache_dir", "")), filename, temporaries=True)
            raise
        if self._ours and isinstance(path, (str, os.PathLike)):
            self._ungrouped.setdefault((threading.get_ident(), self.key), []).append(path)
        return path

    def get_group(self, filename):
        return self.inner.get_group(filename)

    def put_group(self, filename, group):
        self._ungrouped.pop((threading.get_ident(), self.key), None)
        if fell_back(group.get(filename)):
            return None
        return self.inner.put_group(filename, group)

    @classmethod
    def discard(cls, compile_hash, remove: bool = True) -> None:
        """Remove what the compile of `compile_hash` (metadata["hash"]) on this thread put in the cache so far
        (`remove=False`: only forget it, as for a compile that failed: Triton leaves its files)."""
        from triton.runtime.cache import _base32

        if not isinstance(compile_hash, str):
            return
        paths = cls._ungrouped.pop((threading.get_ident(), _base32(compile_hash)), [])
        if remove:
            _remove(paths)


@atexit.register
def _remove_ungrouped() -> None:
    """At exit: what compiles that never wrote their group put in the cache (an interrupt that came between two
    stages, outside the ones the guard wraps), with this process's temporary files in those entries."""
    for paths in list(FallbackFreeCache._ungrouped.values()):
        _remove(paths, temporaries=True)


def _remove(paths, entry: str = "", filename: str | None = None, temporaries: bool = False) -> None:
    """Remove the files one compile put in a cache entry (`paths`), and the entry's directory where nothing else is in
    it. `entry`: that directory (default: the paths'); `filename`: a file of it renamed into place while the
    interrupt came (Triton's put writes in a temporary directory first); `temporaries`: this process's temporary
    directories in it too."""
    entry = entry or (os.path.dirname(str(paths[0])) if paths else "")
    if not entry:
        return
    if temporaries:
        for tmp in glob.glob(os.path.join(entry, f"tmp.pid_{os.getpid()}_*")):
            shutil.rmtree(tmp, ignore_errors=True)
    for path in list(paths) + ([os.path.join(entry, filename)] if filename else []):
        with contextlib.suppress(OSError):
            os.remove(path)
    with contextlib.suppress(OSError):
        os.rmdir(entry)


def fell_back(metadata_path) -> bool:
    """Whether the metadata file a compile wrote records a triton-mfma fallback."""
    if not isinstance(metadata_path, (str, os.PathLike)) or not str(metadata_path).endswith(".json"):
        return False
    try:
        with open(metadata_path) as f:
            return "triton_mfma_fallback" in json.load(f)
    except (OSError, ValueError):
        return False


def _install_locked() -> None:
    from triton import knobs

    global _previous_hook, _previous_manager
    if knobs.runtime.add_stages_inspection_hook is not _stages_hook:
        _previous_hook = knobs.runtime.add_stages_inspection_hook
        knobs.runtime.add_stages_inspection_hook = _stages_hook
    if knobs.cache.manager_class is not FallbackFreeCache:
        # ("set", class) where the knob was set in Python, else None: the environment's (or Triton's default)
        _previous_manager = ("set", knobs.cache.__dict__["manager_class"]) \
            if "manager_class" in knobs.cache.__dict__ else None
        FallbackFreeCache.inner_class = knobs.cache.manager_class
        knobs.cache.manager_class = FallbackFreeCache


def _uninstall_if_unused_locked() -> None:
    from triton import knobs

    global _previous_hook, _previous_manager
    if _process is None and _scopes == 0:
        if knobs.runtime.add_stages_inspection_hook is _stages_hook:
            knobs.runtime.add_stages_inspection_hook = _previous_hook
        _previous_hook = None
        if knobs.cache.manager_class is FallbackFreeCache:
            if _previous_manager is None:
                del knobs.cache.manager_class
            else:
                knobs.cache.manager_class = _previous_manager[1]
        _previous_manager = None


def enable(passes=None, **options) -> None:
    """Activate triton-mfma for every later compile in this process (replaces a previous enable)."""
    global _process
    from ..composition import make_ttgir  # noqa: F401 - refuses a Triton older than 3.8, clearly

    act = Activation(passes, **options)
    with _lock:
        _install_locked()
        _process = act


def disable() -> None:
    """End the process-wide activation (scoped `enabled()` blocks keep theirs)."""
    global _process
    with _lock:
        _process = None
        _uninstall_if_unused_locked()


@contextlib.contextmanager
def enabled(passes=None, **options):
    """`with triton_mfma.enabled(passes=[...], lds_limit=...):` — active for this thread / task inside the block."""
    global _scopes
    from ..composition import make_ttgir  # noqa: F401 - refuses an unsupported Triton, clearly

    act = Activation(passes, **options)
    with _lock:
        _install_locked()
        _scopes += 1
    token = _scoped.set(act)
    try:
        yield act
    finally:
        _scoped.reset(token)
        with _lock:
            _scopes -= 1
            _uninstall_if_unused_locked()


@contextlib.contextmanager
def disabled():
    """Inside the block this thread / task compiles with stock Triton, whatever is enabled elsewhere."""
    token = _scoped.set(None)
    try:
        yield
    finally:
        _scoped.reset(token)


def _stages_hook(*args):
    act, prev = current(), _previous_hook
    if not args:  # Triton asks for the cache-key suffix
        key, h = (act.key, act.hash) if act is not None else ("", "")
        if prev is not None:
            pk, ph = prev()
            key, h = key + pk, hashlib.sha256((h + str(ph)).encode()).hexdigest()
        return key, h
    if act is not None and _build_usable(act):
        _wrap_guarded(act, args)
    else:
        act = None
    if prev is not None:
        prev(*args)
    if act is not None:
        stages = args[1]
        for name, stage in list(stages.items()):
            stages[name] = _InterruptGuard(stage)


_warned_builds: set = set()  # libtriton paths whose TritonBuildError was shown


def _build_usable(act) -> bool:
    """Whether the installed Triton build has every symbol and binding the project calls (bridge.probe). Where it
    lacks one, the compile is stock Triton's, with one warning per build; strict mode raises TritonBuildError."""
    try:
        probe()
        return True
    except TritonBuildError as e:
        if act.strict:
            raise
        with _lock:
            first = e.library not in _warned_builds
            _warned_builds.add(e.library)
        if first:
            from ..composition import remarks

            remarks.warn(str(e))
        return False


def _wrap_guarded(act, args) -> None:
    """stages.wrap_stages inside the fallback guard: where it fails, Triton's stages stay as they were, with a
    warning, and the compile's metadata records the fallback (kept out of the cache); strict mode raises."""
    stages = args[1]
    stock = dict(stages)
    try:
        from .stages import wrap_stages

        wrap_stages(act, *args)
        if getattr(getattr(args[0], "target", None), "backend", "") == "hip":
            from ..composition.llvm_flags import collect_on

            collect_on(args[0])  # the LLVM flags each compile passes, for the report
    except Exception as e:  # noqa: BLE001 - any failure of ours leaves the compile to stock Triton
        if act.strict:
            raise
        stages.clear()
        stages.update(stock)
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        why = f"setting up the stages: {type(e).__name__}: {first}"
        if "ttgir" in stages:
            stages["ttgir"] = functools.partial(_marked_stock, stages["ttgir"], why)
        from ..composition import remarks

        remarks.warn(f"triton-mfma failed {why}; using stock Triton for this kernel")


def _marked_stock(stage, why, src, metadata):
    """Triton's own stage, with the fallback recorded in the compile's metadata."""
    metadata["triton_mfma_fallback"] = why
    return stage(src, metadata)


class _InterruptGuard:
    """`stage`, except that an interrupt in it also removes what its compile put in Triton's cache so far, and
    lets the trial compiles' threads end (threads.reset_pool). Equal to `stage`: it is still that stage (stages.py
    asks whether the llir stage is still its own)."""

    def __init__(self, stage):
        self.stage = stage
        functools.update_wrapper(self, stage)

    def __call__(self, src, metadata):
        try:
            return self.stage(src, metadata)
        except BaseException as e:  # an interrupt (KeyboardInterrupt, SystemExit) leaves nothing behind
            interrupted = not isinstance(e, Exception)
            FallbackFreeCache.discard(metadata.get("hash"), remove=interrupted)
            if interrupted:
                reset_pool()
            raise

    def __eq__(self, other):
        return self.stage == (other.stage if isinstance(other, _InterruptGuard) else other)

    def __hash__(self):
        return hash(self.stage)
