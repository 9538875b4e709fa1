"""The one door for hidden information in Go Fish (docs/GOFISH.md §8).

:func:`view_for` builds every byte that leaves the server about a game:
snapshots, the event history, the result, bot inputs. It names by id only
the viewer's own cards (its own unseen draws included), plus a drawn card that
was shown (§8) — which the whole table saw. Other hands appear as sizes, the
stock as a size; the seed only in the result, once the game is over.

View shape (all msgpack-able)::

    {
      "game": "gofish",
      "seat": int | None,              # the viewer; None for a spectator
      "players": int,
      "options": {"variant": "rank" | "card", "bluff": bool, "play_on": bool},
      "active": int, "turn": int, "first_player": int,
      "stock": int,                    # cards left in the stock
      "hand_sizes": [int, ...],        # per seat
      "books": [[rank, ...], ...],     # per seat, in the order laid down
      "out": [bool, ...],              # per seat: out of play (G5)
      "waiting_on": [seat, ...],
      "over": bool,
      "log": [event, ...],             # the whole public history (engine docstring)
      "me": None | {"hand": [card id, ...],    # sorted, A first
                    "drawn": [[log index, card id], ...]},  # its unseen draws still held
      "result": None | result map,     # once over (engine._finish)
    }

:func:`legal_from_view` lists the viewer's legal asks from a view alone, for
clients that have nothing else (the same list as ``engine.legal_actions``).
"""

from __future__ import annotations

import pickle
from collections.abc import Mapping
from typing import Any

from poissonnier_tui.games.gofish.rules import cards
from poissonnier_tui.games.gofish.rules.engine import is_out, waiting_on
from poissonnier_tui.games.gofish.rules.state import GameState

GAME_NAME = "gofish"


def view_for(state: GameState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (or a spectator, for ``None``) may see now (docs/GOFISH.md §8).

    Args:
        state: the full game state (not modified).
        seat: a seat index, or ``None`` for the public view.

    Returns:
        The view map described in the module docstring; it shares no mutable
        part with ``state``.

    Raises:
        ValueError: ``seat`` is not ``None`` and not a seat of this game.
    """
    if seat is not None and (isinstance(seat, bool) or not 0 <= seat < state.players):
        raise ValueError(f"there is no seat {seat}")
    me = None
    if seat is not None:
        hand = state.hands[seat]
        # Its own unseen draws, while the card is still in its hand: a view names no
        # card that left it (handed over, or laid down in a book, which names a rank).
        drawn = [
            [i, c] for i, c in state.drawn.items() if state.log[i]["seat"] == seat and c in hand
        ]
        me = {"hand": cards.sort_cards(hand), "drawn": drawn}
    return {
        "game": GAME_NAME,
        "seat": seat,
        "players": state.players,
        "options": state.options.wire(),
        "active": state.active,
        "turn": state.turn,
        "first_player": state.first_player,
        "stock": len(state.stock),
        "hand_sizes": [len(h) for h in state.hands],
        "books": [list(b) for b in state.books],
        "out": [is_out(state, s) for s in range(state.players)],
        "waiting_on": sorted(waiting_on(state)),
        "over": state.over,
        "log": _deep_copy(state.log),
        "me": me,
        "result": _deep_copy(state.result) if state.over else None,
    }


def _deep_copy(value: Any) -> Any:
    """An independent copy of plain data (dicts, lists, str, int, bool, None)."""
    return pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def legal_from_view(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The viewer's legal asks as wire maps, computed from its view alone (§3, §6, G5, G12).

    The same list, in the same order, as ``engine.legal_actions`` for that
    seat converted with ``actions.to_wire``: targets round the table from
    the next seat, those holding cards; ranks held, A first; in §6 every
    suit of those ranks, minus cards held unless bluffs are allowed (G4).

    Returns:
        Wire maps; empty for a spectator, when the game is over, or when it is
        not the viewer's move.
    """
    seat = view.get("seat")
    if seat is None or view.get("over") or view.get("active") != seat or not view.get("me"):
        return []
    players: int = view["players"]
    hand: list[str] = list(view["me"]["hand"])
    sizes: list[int] = view["hand_sizes"]
    ranks = sorted({cards.rank_of(c) for c in hand}, key=cards.RANK_INDEX.__getitem__)
    targets = [t for t in ((seat + i) % players for i in range(1, players)) if sizes[t] > 0]
    options = view["options"]
    if options["variant"] == "rank":
        return [{"type": "ask", "target": t, "rank": r} for t in targets for r in ranks]
    held = set(hand)
    return [
        {"type": "ask_card", "target": t, "rank": r, "suit": s}
        for t in targets
        for r in ranks
        for s in cards.SUITS
        if options["bluff"] or cards.card_id(r, s) not in held
    ]
