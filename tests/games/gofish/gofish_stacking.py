"""Stacked-deck Go Fish games and state checks for the Go Fish tests.

:func:`stacked_game` builds a game in the middle of play with the hands,
books and stock a scenario needs, so it can assert exact values;
:func:`stacked_deal` orders the deck that :func:`new_game` deals from, to test
the deal itself (§2, G2). :func:`assert_conserved` checks that the 52 cards
are each in exactly one place; :func:`assert_illegal` that an action is
refused with a code and rule and changes nothing.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

import pytest
from stacking import view_strings

from poissonnier_tui.games.gofish.rules import cards
from poissonnier_tui.games.gofish.rules.actions import Action, to_wire
from poissonnier_tui.games.gofish.rules.engine import apply, legal_actions, new_game
from poissonnier_tui.games.gofish.rules.errors import IllegalAction
from poissonnier_tui.games.gofish.rules.state import GameState, Options
from poissonnier_tui.games.gofish.rules.view import view_for

CARD_ID = re.compile(r"^(A|[2-9]|10|J|Q|K)[CDHS]$")
"""A Go Fish card id, e.g. ``"10H"`` (docs/GOFISH.md §1)."""

BOT_OPTIONS = [
    Options(),
    Options(play_on=True),
    Options(variant="card"),
    Options(variant="card", bluff=True, play_on=True),
]
"""Table options the bot tests play under: both variants (§3, §6), play on (§7), bluffs (G4)."""


def rank_cards(rank: str) -> list[str]:
    """The four cards of ``rank``."""
    return [cards.card_id(rank, s) for s in cards.SUITS]


def stacked_game(
    hands: Sequence[Sequence[str]],
    *,
    books: Sequence[Sequence[str]] | None = None,
    stock_top: Sequence[str] = (),
    stock: Sequence[str] | None = None,
    active: int = 0,
    options: Options | None = None,
    seed: int = 1,
) -> GameState:
    """A game waiting for ``active``'s ask with the cards where the test wants them.

    Args:
        hands: each seat's exact hand (the number of seats is ``len(hands)``).
        books: per seat, ranks already laid down (their cards leave play).
        stock_top: the next cards of the stock, ``stock_top[0]`` drawn first;
            every card nobody named goes below them in deck order.
        stock: instead, the exact stock, first drawn first; then every card
            must be named somewhere.
        active: the seat to ask (also recorded as the first player).
        options: the table options.
        seed: seed of the underlying :func:`new_game`.

    Raises:
        ValueError: a card named twice, an unknown card, or (with ``stock``)
            a card named nowhere.
    """
    players = len(hands)
    book_l = [list(b) for b in books] if books is not None else [[] for _ in range(players)]
    named = [c for h in hands for c in h] + [c for b in book_l for r in b for c in rank_cards(r)]
    named += list(stock if stock is not None else stock_top)
    unknown = [c for c in named if c not in cards.CARD_INDEX]
    twice = [c for c, k in Counter(named).items() if k > 1]
    if unknown or twice:
        raise ValueError(f"unknown cards {unknown}, named twice {twice}")
    rest = [c for c in cards.DECK if c not in set(named)]
    if stock is not None and rest:
        raise ValueError(f"cards named nowhere: {rest}")
    draw_order = list(stock) if stock is not None else list(stock_top) + rest
    state = new_game(seed, players, options, first_player=active)
    state.hands = [list(h) for h in hands]
    state.books = book_l
    state.stock = list(reversed(draw_order))
    state.log = [e for e in state.log if e["t"] in ("deal", "turn")]
    assert_conserved(state)
    return state


def stacked_deal(players: int, hands: Sequence[Sequence[str]]) -> list[str]:
    """A deck (top card last) from which :func:`new_game` deals exactly ``hands``.

    The engine deals one card at a time round the table (§2); unnamed cards
    form the stock in deck order.
    """
    k = cards.hand_size(players)
    assert len(hands) == players and all(len(h) == k for h in hands)
    order = [hands[seat][i] for i in range(k) for seat in range(players)]
    rest = [c for c in cards.DECK if c not in set(order)]
    return list(reversed(order + rest))


def assert_conserved(state: GameState) -> None:
    """The 52 cards are each in exactly one place (hands, stock, books) and each
    book is a distinct rank (docs/GOFISH.md §1, §4)."""
    places = [c for h in state.hands for c in h] + list(state.stock)
    booked = [r for b in state.books for r in b]
    assert len(booked) == len(set(booked)), f"a rank booked twice: {booked}"
    places += [c for r in booked for c in rank_cards(r)]
    seen = Counter(places)
    assert len(places) == 52 and set(seen) == set(cards.DECK), seen
    for hand in state.hands:
        for rank, k in Counter(cards.rank_of(c) for c in hand).items():
            assert k < 4, f"four {rank} left in a hand: §4 lays them down at once"
            assert rank not in booked


def snapshot(state: GameState) -> dict[str, Any]:
    """A comparable deep copy of the whole state, the rng's internal state and the views."""
    out = {f.name: copy.deepcopy(getattr(state, f.name)) for f in fields(state) if f.name != "rng"}
    out["rng"] = state.rng.getstate()
    out["views"] = [view_for(state, seat) for seat in [None, *range(state.players)]]
    return out


def assert_illegal(
    state: GameState, seat: int, action: Action, code: str, rule: str
) -> IllegalAction:
    """``action`` by ``seat`` raises IllegalAction(code, rule) and changes nothing."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as info:
        apply(state, seat, action)
    assert (info.value.code, info.value.rule) == (code, rule), info.value.message
    assert snapshot(state) == before
    return info.value


def events(state: GameState, kind: str) -> list[dict[str, Any]]:
    """The public events of one type."""
    return [e for e in state.log if e["t"] == kind]


def named_cards(view: Any) -> set[str]:
    """Every card a view names: as an id anywhere, or as an asked card (rank and suit)."""
    found = {s for s in view_strings(view) if CARD_ID.match(s)}
    if isinstance(view, Mapping):
        for e in view.get("log", []):
            if e.get("t") == "ask" and "suit" in e:
                found.add(cards.card_id(e["rank"], e["suit"]))
    return found


def public_cards(state: GameState) -> set[str]:
    """Cards whose place the whole table was told (§8, G10): shown draws and asked cards
    (§6), so far."""
    out: set[str] = set()
    for e in state.log:
        if e["t"] == "draw" and e["shown"] is not None:
            out.add(e["shown"])
        elif e["t"] == "ask" and "suit" in e:
            out.add(cards.card_id(e["rank"], e["suit"]))
    return out


def legal_wires(state: GameState, seat: int) -> list[dict[str, Any]]:
    """``seat``'s legal actions as wire maps: what a table hands a bot."""
    return [to_wire(a) for a in legal_actions(state, seat)]
