"""Stacked-deck games and state checks for the rules tests.

:func:`stacked_game` builds a game whose hands, crates, fish deck and client
queue/deck are chosen by the test, so a scenario can assert exact values. It
starts from :func:`~poissonnier_tui.games.poissonnier.rules.new_game` (so every other field is what
the engine would have built) and then rearranges the cards. Every one of the
105 fish-deck cards and 40 client cards stays in exactly one zone; cards the
test does not place go, in a fixed order, to the unspecified hands, then the
decks (below the stacked top cards), then — when a deck size is imposed — the
discard piles. :func:`assert_conserved` checks that property on any state.

The returned state is in the fill step (RULES.md §3.2) of turn 1: the §3.1
draw is considered done, so ``hands`` are the hands *after* that draw. Its
log keeps only the ``setup`` and ``turn`` events of the engine's deal.

Also here: :func:`snapshot` (a comparable deep copy of everything, the rng
state included), :func:`assert_illegal` (an action is refused with a given code
and rule and the state is left unchanged), and small drivers
(:func:`fill_and_ready`, :func:`act`).
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import fields
from typing import Any

import pytest

from poissonnier_tui.games.poissonnier.rules import cards
from poissonnier_tui.games.poissonnier.rules.actions import Action, Place, Ready, to_wire
from poissonnier_tui.games.poissonnier.rules.engine import (
    apply,
    apply_wire,
    legal_actions,
    new_game,
)
from poissonnier_tui.games.poissonnier.rules.errors import IllegalAction
from poissonnier_tui.games.poissonnier.rules.state import Crate, GameState, Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for

ALL_FISH: frozenset[str] = frozenset(cards.fish_deck())
"""The 105 fish-deck ids (RULES.md §1, R1)."""
ALL_CLIENTS: frozenset[str] = frozenset(cards.client_deck())
"""The 40 client ids (RULES.md §1)."""


def stacked_game(
    players: int,
    hands: Sequence[Sequence[str] | None] | None = None,
    markers: Sequence[Sequence[str] | None] | None = None,
    crates: Sequence[Sequence[Sequence[str]] | None] | None = None,
    fish_deck_top: Sequence[str] = (),
    fish_deck_size: int | None = None,
    queue: Sequence[str] | None = None,
    clients_top: Sequence[str] = (),
    client_deck_size: int | None = None,
    first_player: int = 0,
    coins: Sequence[int] | None = None,
    seed: int = 1,
) -> GameState:
    """A game in the fill step of turn 1 with the cards where the test wants them.

    Args:
        players: 2..5.
        hands: per seat, the exact hand (after the turn-1 draw), or ``None``
            for "anything": that seat then gets as many cards as the engine
            dealt it, taken from the cards nobody named.
        markers: per seat, the crate markers, one per crate (so their number
            is the number of crates), or ``None`` for one unnamed marker.
        crates: per seat, the fish already in each committed crate (same
            length as that seat's markers), or ``None`` for empty crates. Use
            this to start a scenario with fish on the stall; the fill step
            still opens with these as the drafts.
        fish_deck_top: the next fish-deck cards, ``fish_deck_top[0]`` drawn first.
        fish_deck_size: if given, the fish deck holds exactly this many cards
            (the stacked top ones first); the rest go to the fish discard pile.
        queue: the client queue, front first; ``None`` keeps a queue of 4
            regular or undecided clients nobody named.
        clients_top: the next client cards, ``clients_top[0]`` drawn first.
        client_deck_size: if given, the client deck holds exactly this many
            cards; the rest go to the client discard pile.
        first_player: the first and active seat (R4, host's pick).
        coins: per seat coins; default 3 each (R2).
        seed: seed of the underlying :func:`new_game` (the rng drives R7 reshuffles).

    Returns:
        The state; :func:`assert_conserved` holds for it.

    Raises:
        ValueError: a card named twice, an unknown id, or too few cards left.
    """
    state = new_game(seed, players, first_player=first_player)
    n = players
    hands_l = list(hands) if hands is not None else [None] * n
    markers_l = list(markers) if markers is not None else [None] * n
    crates_l = list(crates) if crates is not None else [None] * n
    if not len(hands_l) == len(markers_l) == len(crates_l) == n:
        raise ValueError("hands, markers and crates need one entry per seat")

    named_fish: list[str] = list(fish_deck_top)
    for seat in range(n):
        named_fish += list(hands_l[seat] or [])
        named_fish += list(markers_l[seat] or [])
        for crate_fish in crates_l[seat] or []:
            named_fish += list(crate_fish)
    _check_named(named_fish, ALL_FISH, "fish")
    named_clients = list(queue or []) + list(clients_top)
    _check_named(named_clients, ALL_CLIENTS, "client")

    # Unnamed fish, in a fixed order: the engine's deal order (hands, markers,
    # then the deck from the top), minus the named cards.
    engine_order = [c for s in state.seats for c in s.hand]
    engine_order += [c.marker for s in state.seats for c in s.crates]
    engine_order += list(reversed(state.fish_deck))
    named = set(named_fish)
    pool = [c for c in engine_order if c not in named]

    def take(k: int) -> list[str]:
        if k > len(pool):
            raise ValueError("not enough fish-deck cards left to deal")
        out = pool[:k]
        del pool[:k]
        return out

    for seat, s in enumerate(state.seats):
        hand = hands_l[seat]
        s.hand = list(hand) if hand is not None else take(len(s.hand))
    for seat, s in enumerate(state.seats):
        seat_markers = markers_l[seat]
        marks = list(seat_markers) if seat_markers is not None else take(1)
        contents = crates_l[seat]
        if contents is not None and len(contents) != len(marks):
            raise ValueError(f"seat {seat}: one fish list per crate marker")
        s.crates = [
            Crate(m, list(contents[i]) if contents is not None else []) for i, m in enumerate(marks)
        ]
        s.coins = cards.STARTING_COINS if coins is None else coins[seat]
        s.ready = False
        s.draft_hand = list(s.hand)
        s.draft_crates = [c.copy() for c in s.crates]
    draw_order = list(fish_deck_top) + pool
    if fish_deck_size is not None:
        if fish_deck_size < len(fish_deck_top):
            raise ValueError("fish_deck_size is smaller than the stacked top")
        state.fish_discard = draw_order[fish_deck_size:]
        draw_order = draw_order[:fish_deck_size]
    else:
        state.fish_discard = []
    state.fish_deck = list(reversed(draw_order))
    state.last_turn = not state.fish_deck

    # Clients: the engine's order (queue, discard, deck from the top), minus the named.
    c_order = list(state.queue) + list(state.client_discard) + list(reversed(state.client_deck))
    c_pool = [c for c in c_order if c not in set(named_clients)]
    if queue is None:
        q = [c for c in c_pool if not cards.is_inspector(c)][: cards.QUEUE_START]
        c_pool = [c for c in c_pool if c not in q]
    else:
        q = list(queue)
    state.queue = q
    c_draw = list(clients_top) + c_pool
    if client_deck_size is not None:
        if client_deck_size < len(clients_top):
            raise ValueError("client_deck_size is smaller than the stacked top")
        state.client_discard = c_draw[client_deck_size:]
        c_draw = c_draw[:client_deck_size]
    else:
        state.client_discard = []
    state.client_deck = list(reversed(c_draw))
    state.phase = Phase.FILL
    # Events of the engine's own deal would describe cards that may have moved
    # (e.g. a setup inspector now in the client deck): keep only setup and turn.
    state.log = [e for e in state.log if e["t"] in ("setup", "turn")]
    assert_conserved(state)
    return state


def _check_named(named: list[str], universe: frozenset[str], what: str) -> None:
    unknown = [c for c in named if c not in universe]
    if unknown:
        raise ValueError(f"unknown {what} ids {unknown}")
    twice = [c for c, k in Counter(named).items() if k > 1]
    if twice:
        raise ValueError(f"{what} ids named twice: {twice}")


# --------------------------------------------------------------------------- conservation


def fish_zones(state: GameState) -> dict[str, list[str]]:
    """Every zone that can hold a fish-deck card, by name.

    During the fill step the hands and crate fish are the seats' drafts (R15:
    the committed ones are the old, public view of the same cards). Crate
    markers are the committed ones; during the fill step the drafts must
    carry the same markers (checked by :func:`assert_conserved`).
    """
    zones: dict[str, list[str]] = {
        "fish_deck": list(state.fish_deck),
        "fish_discard": list(state.fish_discard),
        "bought": list(state.bought),
    }
    for i, s in enumerate(state.seats):
        in_fill = s.draft_hand is not None and s.draft_crates is not None
        hand = s.draft_hand if in_fill and s.draft_hand is not None else s.hand
        stall = s.draft_crates if in_fill and s.draft_crates is not None else s.crates
        zones[f"hand{i}"] = list(hand)
        zones[f"markers{i}"] = [c.marker for c in s.crates]
        zones[f"crates{i}"] = [f for c in stall for f in c.fish]
    return zones


def client_zones(state: GameState) -> dict[str, list[str]]:
    """Every zone that can hold a client card, by name."""
    zones: dict[str, list[str]] = {
        "client_deck": list(state.client_deck),
        "queue": list(state.queue),
        "client_discard": list(state.client_discard),
    }
    for i, s in enumerate(state.seats):
        zones[f"won{i}"] = list(s.clients)
    return zones


def assert_conserved(state: GameState) -> None:
    """All 105 fish-deck ids and all 40 client ids are each in exactly one zone.

    Also: during the fill step each seat's draft crates carry the committed
    markers in the same order, and the committed hand plus committed crate
    fish are the same cards as the draft ones (only rearranged).
    """
    for zones, universe in ((fish_zones(state), ALL_FISH), (client_zones(state), ALL_CLIENTS)):
        seen = Counter(c for zone in zones.values() for c in zone)
        twice = {c: k for c, k in seen.items() if k > 1}
        assert not twice, f"cards in two places: {twice}"
        assert set(seen) == universe, (
            f"missing {sorted(universe - set(seen))}, unknown {sorted(set(seen) - universe)}"
        )
    for s in state.seats:
        if s.draft_crates is not None:
            assert s.draft_hand is not None
            assert [c.marker for c in s.draft_crates] == [c.marker for c in s.crates]
            committed = Counter(s.hand) + Counter(f for c in s.crates for f in c.fish)
            draft = Counter(s.draft_hand) + Counter(f for c in s.draft_crates for f in c.fish)
            assert committed == draft


# --------------------------------------------------------------------------- snapshots


def snapshot(state: GameState) -> dict[str, Any]:
    """A comparable deep copy of the whole state, the rng's internal state included."""
    out = {f.name: copy.deepcopy(getattr(state, f.name)) for f in fields(state) if f.name != "rng"}
    out["rng"] = state.rng.getstate()
    out["views"] = [view_for(state, seat) for seat in [None, *range(state.players)]]
    return out


def assert_illegal(
    state: GameState, seat: int, action: Action, code: str, rule: str
) -> IllegalAction:
    """``action`` by ``seat`` raises IllegalAction(code, rule) and changes nothing.

    Returns:
        The exception, for further checks on its message.
    """
    before = snapshot(state)
    with pytest.raises(IllegalAction) as info:
        apply(state, seat, action)
    assert (info.value.code, info.value.rule) == (code, rule), info.value.message
    assert snapshot(state) == before
    return info.value


# --------------------------------------------------------------------------- drivers


def act(state: GameState, seat: int, *actions: Action) -> None:
    """Apply ``actions`` for ``seat`` in order (each must be legal)."""
    for action in actions:
        apply(state, seat, action)


def fill_and_ready(
    state: GameState, placements: Mapping[int, Iterable[tuple[Sequence[str], int]]] | None = None
) -> None:
    """Run the fill step: each seat places ``(cards, crate)`` pairs, then all declare ready.

    Seats declare ready in seat order; the last ``ready`` ends the step, which
    calls clients (RULES.md §3.3) and opens the serve step.
    """
    assert state.phase is Phase.FILL
    for seat, pairs in (placements or {}).items():
        for cards_, crate in pairs:
            apply(state, seat, Place(tuple(cards_), crate))
    for seat in range(state.players):
        if not state.seats[seat].ready:
            apply(state, seat, Ready())
    assert state.phase is not Phase.FILL


# --------------------------------------------------------------------------- views

FISH_ID = re.compile(r"^[TFMDPGA]\d\d$")
"""A fish-deck card id, e.g. ``"T07"`` or ``"G02"`` (client ids start with C, U or I)."""


def view_strings(obj: object) -> list[str]:
    """Every string in a view, keys included, recursively."""
    out: list[str] = []
    stack = [obj]
    while stack:
        x = stack.pop()
        if type(x) is str:
            out.append(x)
        elif type(x) is dict:
            stack.extend(x)
            stack.extend(x.values())
        elif type(x) is list or type(x) is tuple:
            stack.extend(x)
        elif isinstance(x, Mapping):
            stack.extend(x)
            stack.extend(x.values())
        elif isinstance(x, str):
            out.append(x)
    return out


def fish_ids_in(view: object) -> set[str]:
    """The fish-deck card ids a view names."""
    return {s for s in view_strings(view) if FISH_ID.match(s)}


def own_cards(state: GameState, seat: int) -> set[str]:
    """Fish-deck ids ``seat`` may see by id: its hand, crate fish (drafts too), bought fish."""
    s = state.seats[seat]
    mine = set(s.hand) | {f for c in s.crates for f in c.fish}
    if s.draft_hand is not None:
        mine |= set(s.draft_hand)
    if s.draft_crates is not None:
        mine |= {f for c in s.draft_crates for f in c.fish}
    if seat == state.active:
        mine |= set(state.bought)
    return mine


def legal_wires(state: GameState, seat: int) -> list[dict[str, Any]]:
    """``seat``'s legal actions as wire maps: what a table hands a bot (RULES.md §9)."""
    return [to_wire(a) for a in legal_actions(state, seat)]


def decide(bot: Any, state: GameState, seat: int) -> dict[str, Any] | None:
    """What ``bot`` (a ``net.game.Agent``) plays for ``seat``, handed only that seat's view
    and legal actions, as at a table."""
    action: dict[str, Any] | None = bot.act(view_for(state, seat), legal_wires(state, seat))
    return action


def fill_until_ready(bot: Any, state: GameState, seat: int) -> list[dict[str, Any]]:
    """Let ``bot`` play ``seat``'s fill step (RULES.md §3.2) until it declares ready;
    return its actions, ``ready`` last. Fails after 30 actions without one."""
    done: list[dict[str, Any]] = []
    for _ in range(30):
        action = decide(bot, state, seat)
        assert action is not None
        apply_wire(state, seat, action)
        done.append(action)
        if action["type"] == "ready":
            return done
    raise AssertionError(f"no ready after {done}")
