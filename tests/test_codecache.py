"""The cache of the methods dataclasses compile (poissonnier_tui/codecache.py).

A class made with the cache behaves as one made without it (same signature,
annotations, equality, hash, repr, frozen refusals, slots); a second process
compiles nothing the first one saved; a damaged or foreign file is ignored; and
nothing is written where Python writes no bytecode.
"""

from __future__ import annotations

import dataclasses
import inspect
import marshal
import sys
from collections.abc import Iterator
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from typing import Any

import pytest

from poissonnier_tui import codecache


@pytest.fixture(autouse=True)
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """An empty cache, not installed, before and after each test."""
    codecache.uninstall()
    monkeypatch.setattr(codecache, "_codes", {})
    monkeypatch.setattr(codecache, "_used", set())
    monkeypatch.setattr(codecache, "_new", False)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    yield
    codecache.uninstall()


def make() -> type[Any]:
    """A frozen, slotted dataclass with a default and a factory (every generated method)."""

    @dataclasses.dataclass(frozen=True, slots=True)
    class Point:
        x: int
        y: int = 2
        tags: list[str] = dataclasses.field(default_factory=list, compare=False)

    return Point


def looks(cls: type[Any]) -> tuple[object, ...]:
    """What a class's generated methods say and do."""
    p = cls(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        del p.y
    return (
        str(inspect.signature(cls)),
        {k: str(v) for k, v in cls.__init__.__annotations__.items()},
        repr(p),
        p == cls(1, 2, ["other"]),
        p == cls(2),
        hash(p) == hash(cls(1)),
        cls.__slots__,
        cls.__match_args__,
    )


def test_a_class_made_through_the_cache_is_the_same_class(tmp_path: Path) -> None:
    plain = looks(make())
    cache = tmp_path / "dataclasses.marshal"
    assert codecache.install(cache)
    before = codecache.compiled
    first = looks(make())
    assert codecache.compiled - before >= 5  # __init__, __repr__, __eq__, __setattr__...
    assert codecache.save() and cache.stat().st_size > 0
    assert first == plain

    # A new run: the file read, nothing compiled, the same class.
    codecache.uninstall()
    codecache._codes.clear()
    assert codecache.install(cache)
    before = codecache.compiled
    again = looks(make())
    assert codecache.compiled == before
    assert again == plain
    assert not codecache.save()  # nothing new: nothing written


def test_uninstall_gives_dataclasses_the_builtin_exec_back(tmp_path: Path) -> None:
    assert codecache.install(tmp_path / "c.marshal")
    assert vars(dataclasses)["exec"] is codecache._exec
    codecache.uninstall()
    assert "exec" not in vars(dataclasses)
    before = codecache.compiled
    make()
    assert codecache.compiled == before


@pytest.mark.parametrize(
    "content",
    [b"", b"not a cache", b"\x00\x00\x00\x00" + b"junk", "magic+garbage", "magic+list"],
)
def test_a_damaged_or_foreign_cache_is_ignored(tmp_path: Path, content: bytes | str) -> None:
    if content == "magic+garbage":
        content = MAGIC_NUMBER + b"\xff\xfe"
    elif content == "magic+list":
        content = MAGIC_NUMBER + marshal.dumps(["a", "b"])
    assert isinstance(content, bytes)
    cache = tmp_path / "dataclasses.marshal"
    cache.write_bytes(content)
    assert codecache.install(cache)
    assert codecache._codes == {}
    before = codecache.compiled
    assert looks(make())[2] == "make.<locals>.Point(x=1, y=2, tags=[])"
    assert codecache.compiled > before
    assert codecache.save() and cache.read_bytes().startswith(MAGIC_NUMBER)


def test_nothing_is_written_where_python_writes_no_bytecode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    cache = tmp_path / "dataclasses.marshal"
    assert codecache.install(cache)
    make()
    assert not codecache.save()
    assert not cache.exists()


def test_an_unwritable_place_is_no_error(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file, not a folder")
    assert codecache.install(blocked / "dataclasses.marshal")
    make()
    assert not codecache.save()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_the_cache_lives_beside_the_bytecode() -> None:
    path = codecache.cache_file()
    assert path is not None
    assert path.name == f"dataclasses.{sys.implementation.cache_tag}.marshal"
    if sys.pycache_prefix is None:
        assert path.parent == Path(codecache.__file__).parent / "__pycache__"
