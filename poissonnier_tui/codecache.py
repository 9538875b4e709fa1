"""Python's bytecode cache, extended to the methods that :mod:`dataclasses` writes.

Python keeps the compiled code of each module (``__pycache__``), but a
``@dataclass`` writes the source of its ``__init__``, ``__repr__``, ``__eq__``,
``__hash__`` (and, when frozen, ``__setattr__`` and ``__delattr__``) each time its
module is imported, and compiles it there. A solo start makes some 170 dataclasses
(ours, Textual's, Rich's): 721 compilations, some 30 ms of CPU time, a tenth of
the start (``scripts/bench.py``, TUI cold start; docs/measurements/bench-tui.txt).

:func:`install` keeps those compilations as Python keeps a module's: the code
compiled from each source text, in one file beside this package's bytecode
(``__pycache__``, or under ``PYTHONPYCACHEPREFIX``), read when the command starts;
:func:`save` adds what was compiled anew, unless Python is told not to write
bytecode (``PYTHONDONTWRITEBYTECODE``, ``-B``). The source text is the key, and a
cached code object is what compiling that text gives, so the classes are exactly
the same, only made sooner.

How: :mod:`dataclasses` compiles through the name ``exec`` (``exec(text, globals,
namespace)``, one call per method); :func:`install` gives that module its own
``exec``, which compiles a text only if the cache does not have it, the way the
built-in ``exec`` would (same file name ``<string>``, no ``__future__`` flags of
ours), then runs the code. Nothing else changes; a missing, stale or damaged
cache file is ignored, and a file from another Python never matches (its magic
number differs). The file is trusted as Python trusts the bytecode beside it.

Only the ``poissonnier`` command installs it (:func:`poissonnier_tui.cli.main`).
"""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import importlib.util
import marshal
import os
import sys
from pathlib import Path
from types import CodeType
from typing import Any, Final

MOST_KEPT: Final = 2_000
"""Entries past which :func:`save` keeps only those this run used (texts of classes
since changed are dropped then). A solo start uses 721 (a file of 0.7 MB)."""

_MAGIC: Final = importlib.util.MAGIC_NUMBER

_codes: dict[str, CodeType] = {}
_used: set[str] = set()
_new = False
_file: Path | None = None

compiled = 0
"""Texts compiled since the process started (not found in the cache): a count for
tests and the curious."""


def cache_file() -> Path | None:
    """Where the cache lives: beside this module's bytecode (``None`` if Python keeps no
    bytecode here, e.g. an implementation without a cache tag)."""
    tag = sys.implementation.cache_tag
    if tag is None:
        return None
    try:
        bytecode = importlib.util.cache_from_source(__file__)
    except (NotImplementedError, ValueError):
        return None
    return Path(bytecode).with_name(f"dataclasses.{tag}.marshal")


def _read(path: Path) -> dict[str, CodeType]:
    """The cache in ``path``; empty if missing, unreadable, damaged or another Python's."""
    try:
        data = path.read_bytes()
    except OSError:
        return {}
    if not data.startswith(_MAGIC):
        return {}
    try:
        codes = marshal.loads(data[len(_MAGIC) :])
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(codes, dict):
        return {}
    return {k: v for k, v in codes.items() if isinstance(k, str) and isinstance(v, CodeType)}


def _exec(
    source: str | CodeType,
    globals_: dict[str, Any] | None = None,
    locals_: dict[str, Any] | None = None,
    /,
) -> None:
    """``exec``, with each source text compiled once for all runs (see the module)."""
    global _new, compiled
    if isinstance(source, str):
        code = _codes.get(source)
        if code is None:
            compiled += 1
            # As the built-in exec compiles a text called from dataclasses, which has no
            # __future__ imports: none of this module's flags (dont_inherit).
            code = compile(source, "<string>", "exec", dont_inherit=True)
            _codes[source] = code
            _new = True
        _used.add(source)
        source = code
    builtins.exec(source, globals_, locals_)


def install(path: Path | None = None) -> bool:
    """Read the cache and let :mod:`dataclasses` compile through it from now on.

    Args:
        path: the cache file; ``None``: :func:`cache_file`.

    Returns:
        Whether it is installed (now or before); not where Python keeps no bytecode.
    """
    global _file
    if _file is not None:
        return True
    path = path or cache_file()
    if path is None:
        return False
    _codes.update(_read(path))
    setattr(dataclasses, "exec", _exec)  # noqa: B010 (shadows the built-in, module-wide)
    _file = path
    return True


def uninstall() -> None:
    """:mod:`dataclasses` compiles with the built-in ``exec`` again (the cache is kept)."""
    global _file
    if vars(dataclasses).get("exec") is _exec:
        delattr(dataclasses, "exec")
    _file = None


def save() -> bool:
    """Write the cache if anything was compiled anew since it was read (atomically: a
    whole file or the old one), as Python writes bytecode: never when told not to,
    and a failure to write is no error.

    Returns:
        Whether the file was written.
    """
    global _new
    path = _file
    if path is None or not _new or sys.dont_write_bytecode:
        return False
    kept = _codes if len(_codes) <= MOST_KEPT else {k: _codes[k] for k in _used if k in _codes}
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(_MAGIC + marshal.dumps(kept))
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
        return False
    _new = False
    return True
