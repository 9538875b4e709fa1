"""The one door for hidden information: what a seat or a spectator may see (RULES.md §9, R24).

:func:`view_for` builds every byte that leaves the server about a game:
snapshots, the event log, the result, bot inputs. Its output names no fish
card by id except the viewing seat's own cards (hand, crates, fish bought
this turn); everybody else's fish appear as freshness codes, and client cards
appear by id only once face up. Crate markers, deck order and (until the end)
the seed never appear.

:func:`all_hands_view` is the one exception, and only for showing a game
that is over again (the replay viewer): see its docstring.

View shape (all msgpack-able)::

    {
      "seat": int | None,            # the viewer; None for a spectator
      "players": int, "turn": int, "active": int, "first_player": int,
      "phase": "fill" | "serve" | "over",
      "last_turn": bool,             # R13: the fish deck ran out this turn
      "fish_deck": int, "client_deck": int,          # sizes only
      "fish_discard": {"T": n, "F": n, "M": n, "D": n, "P": n, "G": n, "A": n},
      "client_discard": [client id, ...],
      "queue": [client id, ...],     # front first; the first 3 can be served
      "bought": str,                 # codes of fish bought this turn, beside the active seat
      "seats": [{
          "coins": int, "stamps": int, "clients": [client id, ...],
          "hand_size": int, "crates": [codes str, ...],   # committed crates (R15)
          "ready": bool, "crate_price": int,
      }, ...],
      "proposals": [proposal map, ...],    # engine.proposal_wire plus "answerer":
                                           # the seat that must accept or decline it (R8)
      "waiting_on": [seat, ...],
      "log": [event, ...],           # the last LOG_TAIL public events; "propose" and
                                     # "deal" events also carry "buyer": the seat that
                                     # was active (the buyer, §4) when they happened
      "log_size": int,               # events so far
      "me": None | {                 # the viewer's private part
          "hand": [card id, ...],    # draft hand during the fill step
          "crates": [[card id, ...], ...],   # draft crates during the fill step
          "bought": [card id, ...],  # fish bought this turn (if active)
      },
      "result": None | result map,   # scoring.decide_winner plus "seed", "turns"
    }
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import Any

from poissonnier_tui.games.poissonnier.rules import cards
from poissonnier_tui.games.poissonnier.rules.engine import (
    answerer,
    codes,
    proposal_wire,
    waiting_on,
)
from poissonnier_tui.games.poissonnier.rules.frozen import frozen
from poissonnier_tui.games.poissonnier.rules.state import Event, GameState, Phase, Proposal

LOG_TAIL = 40
"""Events carried in each view; older ones stay on the server."""


def view_for(state: GameState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (or a spectator, for ``None``) may see now (RULES.md §9).

    The part every viewer sees alike is worked out once per revision of the
    state and shared by the views of that revision; the viewer's own part
    (``"me"``) is worked out on every call and never kept. A revision is
    told by the log: every change anyone else may see logs an event (only
    the fill step's private arrangement, R15, does not, and it shows in
    ``"me"`` alone). Code that changes a state by hand, not through the
    engine, calls :func:`clear_view_cache` before viewing it again.

    Each view is a new map with new lists and maps, except the log's events:
    those are shared by every view of the game and refuse any change
    (``TypeError``), so no consumer of one view can alter what another sees.

    Args:
        state: the full game state (not modified).
        seat: a seat index, or ``None`` for the public view.

    Returns:
        The view map described in the module docstring.

    Raises:
        ValueError: ``seat`` is not ``None`` and not a seat of this game.
    """
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"there is no seat {seat}")
    public = _public(state)
    me: dict[str, Any] | None = None
    if seat is not None:
        s = state.seats[seat]
        hand = s.draft_hand if s.draft_hand is not None else s.hand
        crates = s.draft_crates if s.draft_crates is not None else s.crates
        me = {
            "hand": list(hand),
            "crates": [list(c.fish) for c in crates],
            "bought": list(state.bought) if seat == state.active else [],
        }
    return {
        "seat": seat,
        **public.head,
        "fish_discard": dict(public.fish_discard),
        "client_discard": list(public.client_discard),
        "queue": list(public.queue),
        "bought": public.bought,
        "seats": [
            {**row, "clients": list(clients), "crates": list(crates)}
            for row, clients, crates in public.seats
        ],
        "proposals": [
            {**p, "fish": [list(fish[0])] if len(fish) == 1 else [list(f) for f in fish]}
            for p, fish in public.proposals
        ],
        "waiting_on": list(public.waiting_on),
        "log": list(public.log),
        "log_size": public.log_size,
        "me": me,
        "result": None if public.result is None else pickle.loads(public.result),
    }


@dataclass(slots=True)
class _Public:
    """What every viewer of one revision of a state sees, kept in immutable parts.

    ``seats`` and ``proposals`` pair a map of plain values with the tuples a
    view turns into its own lists; ``result`` is the pickled result, unpickled
    into each view (a game's end comes once).
    """

    state: GameState
    log_size: int
    last: Event | None
    head: dict[str, Any]
    fish_discard: dict[str, int]
    client_discard: tuple[str, ...]
    queue: tuple[str, ...]
    bought: str
    seats: tuple[tuple[dict[str, Any], tuple[str, ...], tuple[str, ...]], ...]
    proposals: tuple[tuple[dict[str, Any], tuple[tuple[Any, ...], ...]], ...]
    offers: tuple[Proposal, ...]
    waiting_on: tuple[int, ...]
    log: tuple[Event, ...]
    result: bytes | None


_PUBLIC: dict[int, _Public] = {}
"""``id(state)`` -> its public part at its latest viewed revision. Holding the state
keeps its id from being reused while it is here."""
_PUBLIC_MAX = 128
"""States remembered at once (tables, replays); then it starts over."""


def clear_view_cache() -> None:
    """Forget every state's shared public part (and log tail): for code that changed a
    state by hand, outside the engine, so its next view is worked out afresh."""
    _PUBLIC.clear()
    _TAILS.clear()


def _proposal_rows(
    state: GameState, before: _Public | None
) -> tuple[tuple[dict[str, Any], tuple[tuple[Any, ...], ...]], ...]:
    """:attr:`_Public.proposals` for ``state``: taken over from ``before`` (the same
    state's previous revision) when the open proposals are the same objects and the
    same seat is active (proposals are never changed once made, RULES.md §4); when some
    are, only the others' rows are made (a proposal opened, or some closed)."""
    proposals = state.proposals
    if not proposals:
        return ()
    active = state.active
    if before is None or before.state is not state or before.head["active"] != active:
        return tuple(
            ({**proposal_wire(p), "answerer": answerer(p, active)}, tuple(p.fish))
            for p in proposals
        )
    offers = before.offers
    if len(offers) == len(proposals) and all(
        a is b for a, b in zip(offers, proposals, strict=True)
    ):
        return before.proposals
    # id -> row of the previous revision's proposals (alive in ``before``, so ids hold)
    known = {id(p): row for p, row in zip(offers, before.proposals, strict=True)}
    rows = []
    for p in proposals:
        row = known.get(id(p))
        if row is None:
            row = ({**proposal_wire(p), "answerer": answerer(p, active)}, tuple(p.fish))
        rows.append(row)
    return tuple(rows)


def _public(state: GameState) -> _Public:
    """The public part of ``state``'s views at its current revision (see :func:`view_for`)."""
    log = state.log
    last = log[-1] if log else None
    cached = _PUBLIC.get(id(state))
    if (
        cached is not None
        and cached.state is state
        and cached.log_size == len(log)
        and cached.last is last
    ):
        return cached
    result = state.result if state.phase is Phase.OVER and state.result else None
    public = _Public(
        state=state,
        log_size=len(log),
        last=last,
        head={
            "players": state.players,
            "turn": state.turn,
            "active": state.active,
            "first_player": state.first_player,
            "phase": state.phase.value,
            "last_turn": state.last_turn,
            "fish_deck": len(state.fish_deck),
            "client_deck": len(state.client_deck),
        },
        fish_discard=_discard_counts(tuple(state.fish_discard)),
        client_discard=tuple(state.client_discard),
        queue=tuple(state.queue),
        bought=codes(state.bought),
        seats=tuple(
            [
                _seat_row(
                    s.coins,
                    s.stamps,
                    len(s.hand),
                    s.ready,
                    tuple(s.clients),
                    tuple([tuple(c.fish) for c in s.crates]),
                )
                for s in state.seats
            ]
        ),
        proposals=_proposal_rows(state, cached),
        offers=tuple(state.proposals),
        waiting_on=_sorted_seats(waiting_on(state)),
        log=_log_tail(log),
        result=None if result is None else pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL),
    )
    if len(_PUBLIC) >= _PUBLIC_MAX:
        _PUBLIC.clear()
    _PUBLIC[id(state)] = public
    return public


_SeatRow = tuple[dict[str, Any], tuple[str, ...], tuple[str, ...]]
_SEAT_ROWS: dict[tuple[Any, ...], _SeatRow] = {}
"""What :func:`_seat_row` made, by its arguments (a seat's public part mostly stays the
same from one revision to the next: found by content, not made again)."""
_ROWS_MAX = 1 << 12
"""Rows (and discard counts) remembered at once; then the table starts over."""


def _seat_row(
    coins: int,
    stamps: int,
    hand_size: int,
    ready: bool,
    clients: tuple[str, ...],
    crates: tuple[tuple[str, ...], ...],
) -> _SeatRow:
    """A seat's entry of :attr:`_Public.seats`: its map of plain values (``"clients"`` and
    ``"crates"`` left to each view), its clients won and its crates' codes (R15: the
    committed crates, ``crates`` holding each one's fish ids). Shared and never handed
    out: each view copies it."""
    key = (coins, stamps, hand_size, ready, clients, crates)
    row = _SEAT_ROWS.get(key)
    if row is None:
        if len(_SEAT_ROWS) >= _ROWS_MAX:
            _SEAT_ROWS.clear()
        row = _SEAT_ROWS[key] = (
            {
                "coins": coins,
                "stamps": stamps,
                "clients": None,
                "hand_size": hand_size,
                "crates": None,
                "ready": ready,
                "crate_price": cards.crate_price(len(crates)),  # engine.next_crate_price
            },
            clients,
            tuple([codes(fish) for fish in crates]),
        )
    return row


_DISCARDS: dict[tuple[str, ...], dict[str, int]] = {}
"""What :func:`_discard_counts` made, by its argument."""


def _discard_counts(discard: tuple[str, ...]) -> dict[str, int]:
    """Cards of each kind (``cards.FISH_DECK_COUNTS`` order) in the fish discard pile
    ``discard``: shared and never handed out (each view copies it). The pile changes
    rarely (serves, inspectors), so the counts are found by its content."""
    counts = _DISCARDS.get(discard)
    if counts is None:
        if len(_DISCARDS) >= _ROWS_MAX:
            _DISCARDS.clear()
        firsts = "".join([f[0] for f in discard])
        counts = _DISCARDS[discard] = {k: firsts.count(k) for k in cards.FISH_DECK_COUNTS}
    return counts


def _sorted_seats(seats: frozenset[int]) -> tuple[int, ...]:
    """``tuple(sorted(seats))``; ``engine.waiting_on`` hands out a few shared sets."""
    got = _SORTED.get(seats)
    if got is None:
        got = _SORTED[seats] = tuple(sorted(seats))
    return got


_SORTED: dict[frozenset[int], tuple[int, ...]] = {}
"""What :func:`_sorted_seats` made (at most one per set of seats: 2^5)."""


@dataclass(slots=True)
class _Tail:
    """A log's last :data:`LOG_TAIL` events as views carry them, for as long as the log
    only grows: its length and last event then, the seat of the latest ``turn`` event
    (the buyer of any deal that follows, RULES.md §4) and the frozen events."""

    log: list[Event]
    size: int
    last: Event | None
    buyer: int | None
    events: tuple[Event, ...]


_TAILS: dict[int, _Tail] = {}
"""``id(log)`` -> its :class:`_Tail`. Holding the log keeps its id from being reused."""


def _log_tail(log: list[Event]) -> tuple[Event, ...]:
    """The last :data:`LOG_TAIL` events of ``log`` as views carry them: read-only
    copies (``frozen``), each ``propose`` and ``deal`` event with ``"buyer"``: the seat
    of the latest ``turn`` event before it (the active player then, the buyer of
    every proposal, RULES.md §4), so readers never take it from who is active now.

    Events are appended, never changed (the engine's ``_log``), so only the events
    logged since the last call are copied; a log that did not just grow (its event
    at the remembered length is another) is copied whole again.
    """
    cached = _TAILS.get(id(log))
    if (
        cached is not None
        and cached.log is log
        and cached.size <= len(log)
        and (cached.size == 0 or log[cached.size - 1] is cached.last)
    ):
        if cached.size == len(log):
            return cached.events
        start, buyer, kept = cached.size, cached.buyer, cached.events
    else:
        start, buyer, kept = 0, None, ()
    if start < len(log) - LOG_TAIL:  # none of the kept events stays in the tail
        start = len(log) - LOG_TAIL
        buyer, kept = _buyer_before(log, start), ()
    fresh: list[Event] = []
    for event in log[start:]:
        kind = event.get("t")
        if kind == "turn":
            buyer = int(event["seat"])
        if kind in ("propose", "deal") and buyer is not None:
            event = {**event, "buyer": buyer}
        fresh.append(frozen(event))
    events = (*kept, *fresh)[-LOG_TAIL:]
    if len(_TAILS) >= _PUBLIC_MAX:
        _TAILS.clear()
    _TAILS[id(log)] = _Tail(log, len(log), log[-1] if log else None, buyer, events)
    return events


def _buyer_before(log: list[Event], end: int) -> int | None:
    """The seat of the latest ``turn`` event among ``log[:end]`` (``None`` if none)."""
    for event in reversed(log[:end]):
        if event.get("t") == "turn":
            return int(event["seat"])
    return None


def all_hands_view(state: GameState, finished: GameState) -> dict[str, Any]:
    """The public view of ``state`` plus every seat's hand: for a FINISHED game's replay only.

    RULES.md §9 keeps each hand secret from everyone else while the game is
    on; once it is over the seed is shown "for replay", and the seed gives
    away every card anyway. So the replay viewer may show every hand at any
    point of a game, but only when that game has ended: ``finished`` must be
    the same game's final state. Live play, bots and the wire never call this;
    :func:`view_for` stays the one door for anything sent during a game.

    Args:
        state: the state to show (any point of the game; not modified).
        finished: the game's final state.

    Returns:
        ``view_for(state, None)`` plus ``"hands"``: one map per seat,
        ``{"hand": [card id, ...], "crates": [[card id, ...], ...],
        "bought": [card id, ...]}`` (draft hand and crates during the fill
        step, as the seat itself saw them; ``bought`` for the active seat only).

    Raises:
        ValueError: ``finished`` is not over, or not the same game (seed, players).
    """
    if finished.phase is not Phase.OVER:
        raise ValueError("every hand may be shown only once the game is over (RULES.md §9)")
    if finished.seed != state.seed or finished.players != state.players:
        raise ValueError("the finished state is not of the same game")
    view = view_for(state, None)
    hands = []
    for i, s in enumerate(state.seats):
        hand = s.draft_hand if s.draft_hand is not None else s.hand
        crates = s.draft_crates if s.draft_crates is not None else s.crates
        hands.append(
            {
                "hand": list(hand),
                "crates": [list(c.fish) for c in crates],
                "bought": list(state.bought) if i == state.active else [],
            }
        )
    view["hands"] = hands
    return view
