"""Compiled ``regex`` patterns kept on disk between runs, so a small scan does not wait for the compiler.

Compiling the ~170 patterns a scan uses (log facts, normalisation, events, masks, redaction, the
catalogue's recognition vocabulary) costs about 0.1 s of pure Python in the ``regex`` module's
parser on every start; loading their compiled programs costs a few milliseconds. ``compile`` is
``regex.compile`` with that cache in front:

* the cache file holds, per (pattern, flags), the program ``regex`` compiled for it (what ``regex``
  itself pickles a pattern as), and ``regex``'s own constructor rebuilds the pattern from it, so a
  loaded pattern is the pattern ``regex.compile`` gives;
* the file is keyed like the Hyperscan database (``scan/prefilter.py``): its name hashes the
  ``regex`` version, its default version and the Python build, so an upgrade of either starts a
  new file; a file that is damaged (its checksum does not match), unreadable or of another layout
  is ignored and written anew;
* patterns compiled in this process that the file lacked are added to it when the process exits
  (atomically: a concurrent run sees the old file or the new one); patterns with a locale flag or
  named lists are compiled every time, never cached;
* ``FP8TRIAGE_NO_REGEX_CACHE=1`` turns the cache off (every pattern compiled, nothing written).
"""
from __future__ import annotations

import os
import sys

import regex

_FORMAT = b"fp8triage-rx-1\n"
_MAX = 2_000  # more entries than this (catalogues gone by): the file keeps only what the last run used

_store: dict | None = None  # (pattern, flags) -> compiled pattern; loaded on first use
_loaded: dict | None = None  # what the file held: (pattern, flags) -> regex's data for it
_constructor = None  # regex's own constructor of a pattern from its compiled program
_added = False  # a pattern was compiled that the file lacked
_hook = False


def compile(pattern, flags: int = 0, **kwargs):  # noqa: A001 - regex.compile's name on purpose
    """``regex.compile(pattern, flags)``, from the on-disk cache when this program is in it."""
    global _added
    if kwargs or flags & regex.LOCALE or _off():
        return regex.compile(pattern, flags, **kwargs)
    store = _load()
    key = (pattern, int(flags))
    try:
        return store[key]
    except KeyError:
        pass
    state = _loaded.get(key) if _loaded else None
    if state is not None:
        try:
            compiled = store[key] = _rebuild(state)
            return compiled
        except Exception:  # a program this regex build does not take: compile it again
            del _loaded[key]
    compiled = regex.compile(pattern, flags)
    store[key] = compiled
    if not compiled.flags & regex.LOCALE and getattr(compiled, "_pickled_data", None) is not None:
        _added = True
        _register()
    return compiled


def _off() -> bool:
    return bool(os.environ.get("FP8TRIAGE_NO_REGEX_CACHE"))


def path():
    """The cache file for this ``regex`` and Python, or None without a cache directory."""
    import hashlib

    from ..paths import cache_dir

    key = f"{regex.__version__} {regex.DEFAULT_VERSION} {sys.version} {sys.implementation.cache_tag}"
    try:
        return cache_dir() / "regex" / f"rx-{hashlib.sha256(key.encode()).hexdigest()[:24]}.bin"
    except (OSError, RuntimeError):  # no home directory
        return None


def _load() -> dict:
    global _store, _loaded
    if _store is not None:
        return _store
    _store, _loaded = {}, {}
    p = path()
    if p is None:
        return _store
    try:
        data = p.read_bytes()
    except OSError:
        return _store
    entries = _decode(data)
    if entries is not None:
        _loaded = dict(entries)
    return _store


def _rebuild(state: tuple):
    """The pattern ``regex`` compiled into ``state`` (what ``regex`` unpickles a pattern with)."""
    global _constructor
    if _constructor is None:
        import copyreg

        sample = regex.compile("x")
        _constructor = copyreg.dispatch_table[type(sample)](sample)[0]
    return _constructor(*state)


def _decode(data: bytes):
    """The entries of a cache file, or None when it is not one (damaged, truncated, another layout)."""
    import hashlib
    import marshal

    head = len(_FORMAT) + 32
    if not data.startswith(_FORMAT) or len(data) < head:
        return None
    body = data[head:]
    if hashlib.sha256(body).digest() != data[len(_FORMAT):head]:
        return None
    try:
        entries = marshal.loads(body)
    except (EOFError, ValueError, TypeError):
        return None
    if not isinstance(entries, list):
        return None
    out = []
    for item in entries:
        if (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], tuple) and len(item[0]) == 2
                and isinstance(item[0][0], (str, bytes)) and isinstance(item[0][1], int) and isinstance(item[1], tuple)):
            out.append(item)
    return out


def _encode(entries: list) -> bytes:
    import hashlib
    import marshal

    body = marshal.dumps(entries)
    return _FORMAT + hashlib.sha256(body).digest() + body


def _register() -> None:
    global _hook
    if not _hook:
        import atexit

        atexit.register(save)
        _hook = True


def save() -> None:
    """Write the patterns compiled in this process into the cache file (run at exit; a cache that
    cannot be written is no error)."""
    global _added
    if not _added or _store is None or _off():
        return
    _added = False
    p = path()
    if p is None:
        return
    used = {}  # what this process compiled or loaded
    for key, compiled in _store.items():
        state = getattr(compiled, "_pickled_data", None)
        if state is not None and not compiled.flags & regex.LOCALE:
            used[key] = state
    entries = {**(_loaded or {}), **used}
    if len(entries) > _MAX:  # patterns of catalogues gone by: keep what this run used
        entries = used
    try:
        data = _encode(list(entries.items()))
    except ValueError:  # a value marshal cannot write: leave the file as it is
        return
    import tempfile

    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=".rx-")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, p)
        except OSError:
            os.unlink(tmp)
            raise
    except OSError:
        pass
