"""Go Fish actions: typed dataclasses and their wire form (msgpack maps).

======================  ==================================================================
``ask``                 ``{"type": "ask", "target": seat, "rank": "Q"}`` (§3)
``ask_card``            ``{"type": "ask_card", "target": seat, "rank": "Q", "suit": "H"}`` (§6)
======================  ==================================================================

:func:`parse_action` checks shape and types only (legality is the engine's
job) and raises :class:`IllegalAction` with code ``"bad_action"`` and rule
``"wire"`` for anything malformed: an unknown type, a missing, unknown or
mistyped field, a rank or suit that does not exist.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from poissonnier_tui.games.gofish.rules.cards import MAX_PLAYERS, RANKS, SUITS
from poissonnier_tui.games.gofish.rules.errors import IllegalAction


@dataclass(frozen=True, slots=True)
class Ask:
    """Ask ``target`` for every card of ``rank`` (docs/GOFISH.md §3)."""

    TYPE: ClassVar[str] = "ask"
    target: int
    rank: str


@dataclass(frozen=True, slots=True)
class AskCard:
    """Ask ``target`` for the one card ``rank`` of ``suit`` (docs/GOFISH.md §6)."""

    TYPE: ClassVar[str] = "ask_card"
    target: int
    rank: str
    suit: str


Action = Ask | AskCard

_FIELDS: dict[str, tuple[str, ...]] = {
    "ask": ("target", "rank"),
    "ask_card": ("target", "rank", "suit"),
}


def _bad(message: str) -> IllegalAction:
    return IllegalAction("bad_action", "wire", message)


def parse_action(wire: Mapping[str, Any]) -> Action:
    """Build an :data:`Action` from its wire map.

    Args:
        wire: a map with ``"type"`` and exactly the fields of that type (see
            the module docstring); unknown keys are refused.

    Returns:
        The typed action.

    Raises:
        IllegalAction: code ``"bad_action"``, rule ``"wire"``.
    """
    if not isinstance(wire, Mapping):
        raise _bad("an action must be a map with a 'type'")
    kind = wire.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise _bad(f"unknown action type {kind!r}; expected one of {', '.join(_FIELDS)}")
    names = _FIELDS[kind]
    extra = set(wire) - set(names) - {"type"}
    if extra:
        raise _bad(f"unexpected field(s) {', '.join(sorted(map(str, extra)))} in '{kind}'")
    missing = [n for n in names if n not in wire]
    if missing:
        raise _bad(f"'{kind}' needs the field '{missing[0]}'")
    target = wire["target"]
    if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < MAX_PLAYERS:
        raise _bad(f"'target' must be a seat number from 0 to {MAX_PLAYERS - 1}")
    rank = wire["rank"]
    if not isinstance(rank, str) or rank not in RANKS:
        raise _bad(f"'rank' must be one of {' '.join(RANKS)}")
    if kind == "ask":
        return Ask(target, rank)
    suit = wire["suit"]
    if not isinstance(suit, str) or suit not in SUITS:
        raise _bad(f"'suit' must be one of {' '.join(SUITS)}")
    return AskCard(target, rank, suit)


def to_wire(action: Action) -> dict[str, Any]:
    """The wire map of ``action`` (inverse of :func:`parse_action`)."""
    if isinstance(action, Ask):
        return {"type": Ask.TYPE, "target": action.target, "rank": action.rank}
    return {
        "type": AskCard.TYPE,
        "target": action.target,
        "rank": action.rank,
        "suit": action.suit,
    }
