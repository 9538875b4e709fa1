"""Player actions: typed dataclasses and their wire form (msgpack maps).

Every action has a ``"type"`` key on the wire. :func:`parse_action` checks
shape and types (not legality, which is the engine's job) and raises
:class:`IllegalAction` with code ``"bad_action"`` for anything malformed.

Wire forms (all lists may be empty unless said otherwise):

======================  ==========================================================
``place``               ``{"type": "place", "cards": [id, ...], "crate": i}`` §3.2
``take_back``           ``{"type": "take_back", "crate": i}`` §3.2
``ready`` / ``unready`` ``{"type": "ready"}`` §3.2, R6
``buy_crate``           ``{"type": "buy_crate"}`` §7
``serve``               ``{"type": "serve", "client": id, "fish": [id, ...],
                        "glacons": [fish id, ...], "arrivages": ["T"|"F"|"M"|"D", ...]}`` §3.4, §6
``propose``             ``{"type": "propose", "seller": seat, "fish": [[crate, count], ...],
                        "seller_glacons": n, "seller_arrivages": n, "coins": n,
                        "buyer_glacons": n, "buyer_arrivages": n, "counter": pid|None}`` §4
``accept`` / ``withdraw``  ``{"type": ..., "proposal": pid}`` §4, R8
``decline``             ``{"type": "decline", "proposal": pid, "reason": code, "price": n}``
                        §4; ``reason`` (one of :data:`DECLINE_REASONS`) and ``price``
                        are optional and left out of the map when absent
``end_turn``            ``{"type": "end_turn"}`` §3.4
======================  ==========================================================
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from poissonnier_tui.games.poissonnier.rules.errors import IllegalAction

MAX_LIST = 32
"""Longest id list accepted in one action (more is never legal)."""
MAX_COUNT = 1000
"""Largest count or coin amount accepted in one action."""

DECLINE_REASONS: tuple[str, ...] = (
    "too_cheap",
    "too_dear",
    "not_selling",
    "need_it",
    "no_use",
    "no_thanks",
)
"""Why a seat declines a proposal (RULES.md §4, table talk), a closed set:

* ``too_cheap`` — the seller wants more coins (a ``price`` says how many);
* ``too_dear`` — the buyer pays fewer coins (a ``price`` says how many);
* ``not_selling`` — the seller sells these at no price;
* ``need_it`` — the seller needs these fish itself;
* ``no_use`` — the buyer has no use for them;
* ``no_thanks`` — no reason given beyond a polite no.
"""

REASON_MAX = 16
"""Longest reason code accepted on the wire (the engine then checks the set)."""


@dataclass(frozen=True, slots=True)
class Place:
    """Lay fish from the hand into one crate during the fill step (RULES.md §3.2)."""

    TYPE: ClassVar[str] = "place"
    cards: tuple[str, ...]
    crate: int


@dataclass(frozen=True, slots=True)
class TakeBack:
    """Take every fish of one crate back to the hand during the fill step (§3.2)."""

    TYPE: ClassVar[str] = "take_back"
    crate: int


@dataclass(frozen=True, slots=True)
class Ready:
    """Declare the fill step done for this seat (§3.2)."""

    TYPE: ClassVar[str] = "ready"


@dataclass(frozen=True, slots=True)
class Unready:
    """Take back a ready declaration while the fill step is still open (R16, §3.2)."""

    TYPE: ClassVar[str] = "unready"


@dataclass(frozen=True, slots=True)
class BuyCrate:
    """Buy one more crate (RULES.md §7, R11, R12)."""

    TYPE: ClassVar[str] = "buy_crate"


@dataclass(frozen=True, slots=True)
class Serve:
    """Serve one of the first three clients (RULES.md §3.4, §6).

    Attributes:
        client: the client card id, among the first 3 of the queue.
        fish: fish ids from the server's crates or bought this turn.
        glacons: one entry per glaçon used: the fish id it improves.
        arrivages: one entry per arrivage used: the freshness it stands for.
    """

    TYPE: ClassVar[str] = "serve"
    client: str
    fish: tuple[str, ...] = ()
    glacons: tuple[str, ...] = ()
    arrivages: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Propose:
    """Propose (or counter with) a deal between the active seat and one other (§4)."""

    TYPE: ClassVar[str] = "propose"
    seller: int
    fish: tuple[tuple[int, int], ...] = ()
    seller_glacons: int = 0
    seller_arrivages: int = 0
    coins: int = 0
    buyer_glacons: int = 0
    buyer_arrivages: int = 0
    counter: int | None = None


@dataclass(frozen=True, slots=True)
class Accept:
    """Say yes to a proposal; with the proposer's yes it binds and settles (R8)."""

    TYPE: ClassVar[str] = "accept"
    proposal: int


@dataclass(frozen=True, slots=True)
class Decline:
    """Refuse a proposal made to this seat; it is removed (§4).

    Attributes:
        proposal: the proposal's id.
        reason: why, one of :data:`DECLINE_REASONS`, or ``None`` (no reason given).
        price: the coins at which the decliner would make this deal (only with
            ``too_cheap``: more than offered; ``too_dear``: fewer), or ``None``.
    """

    TYPE: ClassVar[str] = "decline"
    proposal: int
    reason: str | None = None
    price: int | None = None


@dataclass(frozen=True, slots=True)
class Withdraw:
    """Withdraw one's own proposal (§4)."""

    TYPE: ClassVar[str] = "withdraw"
    proposal: int


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the active seat's turn (§3.4)."""

    TYPE: ClassVar[str] = "end_turn"


Action = (
    Place | TakeBack | Ready | Unready | BuyCrate | Serve | Propose | Accept | Decline
    | Withdraw | EndTurn
)  # fmt: skip

_CLASSES: dict[str, type[Any]] = {
    cls.TYPE: cls
    for cls in (Place, TakeBack, Ready, Unready, BuyCrate, Serve, Propose, Accept, Decline,
                Withdraw, EndTurn)
}  # fmt: skip

# Field kinds for parsing: "ids" = list of short str, "int" = bounded int,
# "optint" = bounded int or None, "str" = short str.
_FIELDS: dict[str, dict[str, str]] = {
    "place": {"cards": "ids", "crate": "int"},
    "take_back": {"crate": "int"},
    "ready": {},
    "unready": {},
    "buy_crate": {},
    "serve": {"client": "str", "fish": "ids", "glacons": "ids", "arrivages": "ids"},
    "propose": {
        "seller": "int", "fish": "pairs", "seller_glacons": "int", "seller_arrivages": "int",
        "coins": "int", "buyer_glacons": "int", "buyer_arrivages": "int", "counter": "optint",
    },
    "accept": {"proposal": "int"},
    "decline": {"proposal": "int", "reason": "reason", "price": "optint"},
    "withdraw": {"proposal": "int"},
    "end_turn": {},
}  # fmt: skip
_ALLOWED: dict[str, frozenset[str]] = {
    kind: frozenset({"type", *spec}) for kind, spec in _FIELDS.items()
}
"""Action type -> the keys its wire map may have."""

_FIELD_NAMES: dict[type[Any], tuple[str, ...]] = {
    cls: tuple(f.name for f in fields(cls)) for cls in _CLASSES.values()
}
"""Each action class -> its fields' names, in order (the wire map's key order)."""

_OPTIONAL = {"fish", "glacons", "arrivages", "seller_glacons", "seller_arrivages", "coins",
             "buyer_glacons", "buyer_arrivages", "counter", "reason", "price"}  # fmt: skip
_LEFT_OUT_WHEN_NONE = frozenset({"reason", "price"})
"""Fields absent from the wire map when ``None``: a decline without them reads, logs
and replays exactly as one from before they existed."""


def _bad(message: str) -> IllegalAction:
    return IllegalAction("bad_action", "wire", message)


def _field(kind: str, name: str, value: Any) -> Any:
    if kind == "ids":
        if not isinstance(value, list | tuple) or len(value) > MAX_LIST:
            raise _bad(f"'{name}' must be a list of at most {MAX_LIST} card ids")
        if not all(isinstance(v, str) and 0 < len(v) <= 4 for v in value):
            raise _bad(f"'{name}' must hold card ids such as 'T01'")
        return tuple(value)
    if kind == "pairs":
        if not isinstance(value, list | tuple) or len(value) > MAX_LIST:
            raise _bad(f"'{name}' must be a list of [crate, count] pairs")
        pairs = []
        for pair in value:
            if not isinstance(pair, list | tuple) or len(pair) != 2:
                raise _bad(f"'{name}' must be a list of [crate, count] pairs")
            pairs.append((_field("int", name, pair[0]), _field("int", name, pair[1])))
        return tuple(pairs)
    if kind == "str":
        if not isinstance(value, str) or not 0 < len(value) <= 4:
            raise _bad(f"'{name}' must be a card id such as 'C05'")
        return value
    if kind == "reason":
        if value is None:
            return None
        if not isinstance(value, str) or not 0 < len(value) <= REASON_MAX:
            raise _bad(f"'{name}' must be a reason code such as 'too_cheap'")
        return value
    if kind == "optint" and value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise _bad(f"'{name}' must be a whole number from 0 to {MAX_COUNT}")
    return value


def parse_action(wire: Mapping[str, Any]) -> Action:
    """Build an :data:`Action` from its wire map.

    Args:
        wire: a map with ``"type"`` and the fields listed in the module docstring.
            Unknown keys are refused so that typos are not silently ignored.

    Returns:
        The typed action.

    Raises:
        IllegalAction: code ``"bad_action"`` for an unknown type, a missing,
            unknown or mistyped field.
    """
    if type(wire) is not dict and not isinstance(wire, Mapping):
        raise _bad("an action must be a map with a 'type'")
    kind = wire.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise _bad(f"unknown action type {kind!r}; expected one of {', '.join(_FIELDS)}")
    spec = _FIELDS[kind]
    if not wire.keys() <= _ALLOWED[kind]:
        extra = set(wire) - set(spec) - {"type"}
        raise _bad(f"unexpected field(s) {', '.join(sorted(map(str, extra)))} in '{kind}'")
    values: dict[str, Any] = {}
    for name, field_kind in spec.items():
        if name not in wire:
            if name in _OPTIONAL:
                continue
            raise _bad(f"'{kind}' needs the field '{name}'")
        value = wire[name]
        if field_kind == "int" and type(value) is int and 0 <= value <= MAX_COUNT:
            values[name] = value  # _field's answer, without the call (the usual field)
        else:
            values[name] = _field(field_kind, name, value)
    action: Action = _CLASSES[kind](**values)
    return action


def to_wire(action: Action) -> dict[str, Any]:
    """The wire map of ``action`` (inverse of :func:`parse_action`)."""
    wire: dict[str, Any] = {"type": action.TYPE}
    # Field names + getattr rather than asdict(): asdict deep-copies recursively
    # and dominated bot simulations, which convert thousands of actions; the names
    # are looked up once per class (fields() filters the class's fields at each call).
    names = _FIELD_NAMES.get(type(action))
    if names is None:
        names = tuple(f.name for f in fields(action))
    for name in names:
        value = getattr(action, name)
        if value is None and name in _LEFT_OUT_WHEN_NONE:
            continue
        if isinstance(value, tuple):
            value = [list(v) if isinstance(v, tuple) else v for v in value]
        wire[name] = value
    return wire


def wires_of(actions: Iterable[Action]) -> list[dict[str, Any]]:
    """:func:`to_wire` of each action, every map a fresh copy the caller may keep or change.

    Faster than calling :func:`to_wire` for long legal-action lists: the engine
    hands out the same frozen action objects again and again, so each one's
    map is made once and then only copied (found by identity, no hashing).
    """
    out = []
    for action in actions:
        known = _WIRES.get(id(action))
        if known is None or known[0] is not action:
            known = _remember_wire(action)
        _, wire, deep, flat = known
        if deep or flat:
            copy = wire.copy()
            for key in deep:
                copy[key] = [list(x) for x in wire[key]]
            for key in flat:
                copy[key] = list(wire[key])
            out.append(copy)
        else:
            out.append(wire.copy())
    return out


_Known = tuple[Action, dict[str, Any], tuple[str, ...], tuple[str, ...]]
"""An action, its wire map, its keys holding lists of lists, its keys holding other lists."""

_WIRES: dict[int, _Known] = {}
"""``id(action)`` -> what :func:`wires_of` needs to copy its wire map. Holding the
action keeps its id from being reused while it is here."""
_WIRES_MAX = 1 << 14
"""Actions remembered at once; then the table starts over."""


def _remember_wire(action: Action) -> _Known:
    """Add ``action`` to :data:`_WIRES` (wire maps nest lists at most two deep)."""
    if len(_WIRES) >= _WIRES_MAX:
        _WIRES.clear()
    wire = to_wire(action)
    lists = [k for k, v in wire.items() if isinstance(v, list)]
    deep = tuple(k for k in lists if any(isinstance(x, list) for x in wire[k]))
    known = (action, wire, deep, tuple(k for k in lists if k not in deep))
    _WIRES[id(action)] = known
    return known
