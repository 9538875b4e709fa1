"""Read-only maps and lists: plain data handed to many readers at once, never copied.

Views share their log events (:mod:`poissonnier_tui.games.poissonnier.rules.view`) and a
match hands out the same legal-action maps again and again (``match.PoissonnierMatch``):
these refuse every change (``TypeError``), so one reader cannot alter what another
sees. They are a ``dict`` and a ``list`` for everything else: equal to the plain ones
they were made from, and msgpack, JSON, pickle and ``copy`` take them as such.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NoReturn

from poissonnier_tui.games.poissonnier.rules.actions import Action, to_wire

__all__ = ["FrozenList", "FrozenMap", "action_of_shared_wire", "frozen", "shared_wires"]


def _refuse(self: object, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError(f"this {type(self).__name__} is shared and read-only; copy it to change it")


class FrozenMap(dict[str, Any]):
    """A map that refuses every change (see the module docstring)."""

    __slots__ = ()

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenMap, (dict(self),))

    def __copy__(self) -> FrozenMap:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenMap:
        return self


class FrozenList(list[Any]):
    """A list that refuses every change (see the module docstring)."""

    __slots__ = ()

    __setitem__ = __delitem__ = append = extend = insert = pop = remove = _refuse
    clear = sort = reverse = __iadd__ = __imul__ = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenList, (list(self),))

    def __copy__(self) -> FrozenList:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenList:
        return self


_CONTAINERS = (dict, list, tuple)
_SCALARS = frozenset({str, int, bool, float, type(None)})
"""Types kept as they are, told by one set lookup before the containers' isinstance."""


def frozen(value: Any) -> Any:
    """A read-only copy of plain data: every map in ``value`` a :class:`FrozenMap`, every
    list a :class:`FrozenList`, every tuple a tuple of read-only values; the rest as is.

    Args:
        value: a map, list or tuple of plain data (str, int, bool, None, nested maps,
            lists and tuples); not modified.
    """
    if isinstance(value, dict):
        return FrozenMap(
            {
                k: v if type(v) in _SCALARS else (frozen(v) if isinstance(v, _CONTAINERS) else v)
                for k, v in value.items()
            }
        )
    items = [
        v if type(v) in _SCALARS else (frozen(v) if isinstance(v, _CONTAINERS) else v)
        for v in value
    ]
    return FrozenList(items) if isinstance(value, list) else tuple(items)


_WIRE_OF: dict[int, FrozenMap] = {}
"""``id(action)`` -> its read-only wire map. :data:`_ACTIONS` holds each of these actions,
so its id is not reused while it is here: a live object found by its id is that action."""
_ACTIONS: dict[int, tuple[FrozenMap, Action]] = {}
"""``id(wire map)`` -> (that map, its action): the inverse of :data:`_WIRE_OF`."""
_SHARED_MAX = 1 << 14
"""Actions remembered at once; then the tables start over."""


def shared_wires(actions: Iterable[Action]) -> list[dict[str, Any]]:
    """The wire map (``actions.to_wire``) of each action, read-only and shared.

    The engine hands out the same frozen action objects again and again
    (``engine.legal_actions``), so each one's map is made once and then handed
    out as it is, found by identity, no hashing: a new list, no copy.
    :func:`action_of_shared_wire` turns such a map back into its action.

    Args:
        actions: actions (not modified).

    Returns:
        One :class:`FrozenMap` per action, in order.
    """
    if not isinstance(actions, list | tuple):
        actions = list(actions)
    wire_of = _WIRE_OF
    try:  # every action known (the usual case): one lookup each
        return [wire_of[id(action)] for action in actions]
    except KeyError:
        pass
    out: list[dict[str, Any]] = []
    for action in actions:
        wire = wire_of.get(id(action))
        out.append(_share(action) if wire is None else wire)
    return out


def _share(action: Action) -> FrozenMap:
    """Make, remember and return ``action``'s read-only wire map."""
    if len(_WIRE_OF) >= _SHARED_MAX:
        _WIRE_OF.clear()
        _ACTIONS.clear()
    wire: FrozenMap = frozen(to_wire(action))
    _WIRE_OF[id(action)] = wire
    _ACTIONS[id(wire)] = (wire, action)
    return wire


def action_of_shared_wire(wire: Mapping[str, Any]) -> Action | None:
    """The action whose map :func:`shared_wires` handed out as ``wire`` (that very
    object, which cannot have changed since), or ``None`` for any other map (parse
    it with ``actions.parse_action``)."""
    known = _ACTIONS.get(id(wire))
    return known[1] if known is not None and known[0] is wire else None
