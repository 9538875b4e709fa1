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
from typing import Any

from poissonnier_tui.games.poissonnier.rules import cards
from poissonnier_tui.games.poissonnier.rules.engine import (
    answerer,
    codes,
    next_crate_price,
    proposal_wire,
    waiting_on,
)
from poissonnier_tui.games.poissonnier.rules.state import Event, GameState, Phase

LOG_TAIL = 40
"""Events carried in each view; older ones stay on the server."""


def view_for(state: GameState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (or a spectator, for ``None``) may see now (RULES.md §9).

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
    discard = "".join([f[0] for f in state.fish_discard])
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
        "players": state.players,
        "turn": state.turn,
        "active": state.active,
        "first_player": state.first_player,
        "phase": state.phase.value,
        "last_turn": state.last_turn,
        "fish_deck": len(state.fish_deck),
        "client_deck": len(state.client_deck),
        "fish_discard": {k: discard.count(k) for k in cards.FISH_DECK_COUNTS},
        "client_discard": list(state.client_discard),
        "queue": list(state.queue),
        "bought": codes(state.bought),
        "seats": [
            {
                "coins": s.coins,
                "stamps": s.stamps,
                "clients": list(s.clients),
                "hand_size": len(s.hand),
                "crates": [codes(c.fish) for c in s.crates],
                "ready": s.ready,
                "crate_price": next_crate_price(state, i),
            }
            for i, s in enumerate(state.seats)
        ],
        "proposals": [
            {**proposal_wire(p), "answerer": answerer(p, state.active)} for p in state.proposals
        ],
        "waiting_on": sorted(waiting_on(state)),
        # Deep copies: no view may share a mutable part (nested lists in events,
        # the result's scores) with the state or another view, or a consumer could
        # alter the log. Logged events never change, so the tail is serialised once
        # per new event and each view only unpickles its own copy.
        "log": _unpack(_log_tail_blob(state.log)),
        "log_size": len(state.log),
        "me": me,
        "result": _deep_copy(state.result) if state.phase is Phase.OVER and state.result else None,
    }


def _deep_copy(value: Any) -> Any:
    """An independent copy of plain data (dicts, lists, str, int, bool, None)."""
    return _unpack(_pack(value))


def _pack(value: Any) -> bytes:
    """Serialise plain data (pickle: as fast to read back as marshal, measured, in half
    the bytes, and it takes any value, enums included)."""
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def _unpack(blob: bytes) -> Any:
    """A new copy of the value :func:`_pack` serialised."""
    return pickle.loads(blob)


_TAIL_BLOBS: dict[int, tuple[list[Event], int, Event, bytes]] = {}
"""``id(log)`` -> (that log, its length, its last event, the last
:data:`LOG_TAIL` events, packed): the tail's serialised form, for as long as nothing is
appended. Holding the log keeps its id from being reused."""
_TAIL_BLOBS_MAX = 256
"""Logs remembered at once (tables, replays, a bot's sampled worlds); then it starts over."""


def _log_tail_blob(log: list[Event]) -> bytes:
    """The last :data:`LOG_TAIL` events of ``log``, packed by :func:`_pack`.

    Events are appended, never changed (the engine's ``_log``), so the blob of
    a log is reused as long as its length and last event are the same.
    """
    key = id(log)
    cached = _TAIL_BLOBS.get(key)
    if (
        cached is not None
        and cached[0] is log
        and cached[1] == len(log)
        and (not log or cached[2] is log[-1])
    ):
        return cached[3]
    blob = _pack(_with_buyers(log, LOG_TAIL))
    if len(_TAIL_BLOBS) >= _TAIL_BLOBS_MAX:
        _TAIL_BLOBS.clear()
    _TAIL_BLOBS[key] = (log, len(log), log[-1] if log else {}, blob)
    return blob


def _with_buyers(log: list[Event], tail: int) -> list[Event]:
    """The last ``tail`` events of ``log``, each ``propose`` and ``deal`` event copied
    with ``"buyer"``: the seat of the latest ``turn`` event before it (the active
    player then, the buyer of every proposal, RULES.md §4). The log is not changed.

    Readers name a past deal's buyer from this, never from who is active now.
    """
    start = max(0, len(log) - tail)
    buyer: int | None = None
    for event in reversed(log[:start]):
        if event.get("t") == "turn":
            buyer = int(event["seat"])
            break
    out: list[Event] = []
    for event in log[start:]:
        kind = event.get("t")
        if kind == "turn":
            buyer = int(event["seat"])
        if kind in ("propose", "deal") and buyer is not None:
            event = {**event, "buyer": buyer}
        out.append(event)
    return out


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
