"""Random legal games for 2-5 players, invariants checked after every action (RULES.md §1-§9).

Hypothesis draws a seed, the number of players and every choice. Seats are
picked from ``waiting_on`` and actions from ``legal_actions`` (biased toward
``ready`` and ``end_turn`` so games end), with now and then a crate bought by
any seat and a random, probably illegal, action: when the engine refuses it,
the state must be untouched.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from stacking import (
    ALL_CLIENTS,
    ALL_FISH,
    FISH_ID,
    assert_conserved,
    fish_zones,
    own_cards,
    snapshot,
    stacked_game,
    view_strings,
)

from poissonnier_tui.games.poissonnier.rules import cards
from poissonnier_tui.games.poissonnier.rules.actions import (
    Accept,
    Action,
    BuyCrate,
    Decline,
    EndTurn,
    Place,
    Propose,
    Ready,
    Serve,
    TakeBack,
    Unready,
    Withdraw,
)
from poissonnier_tui.games.poissonnier.rules.engine import (
    apply,
    legal_actions,
    new_game,
    waiting_on,
)
from poissonnier_tui.games.poissonnier.rules.errors import IllegalAction
from poissonnier_tui.games.poissonnier.rules.scoring import Score, decide_winner
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for

MAX_STEPS = 4000
"""No game may need more actions than this (R13 bounds a game by the fish deck)."""
ACTIVE_DRAW = {2: 4, 3: 3, 4: 3, 5: 2}
"""§3.1, written out again so that a wrong table in ``cards`` is caught."""
FISH_LIST = sorted(ALL_FISH)
CLIENT_LIST = sorted(ALL_CLIENTS)


# --------------------------------------------------------------------------- invariants


def _stall(state: GameState, seat: int) -> list[list[str]]:
    """The seat's crate fish as the seat itself sees them (its drafts during fill)."""
    s = state.seats[seat]
    crates = s.draft_crates if s.draft_crates is not None else s.crates
    return [list(c.fish) for c in crates]


def _servable_before(state: GameState) -> set[str]:
    """Fish that may legitimately reach the discard pile next: crate fish and bought fish."""
    zones = fish_zones(state)
    return {f for name, zone in zones.items() if name.startswith("crates") for f in zone} | set(
        state.bought
    )


def _check_views(state: GameState) -> None:
    """§9, R15: no view names a card its viewer may not see; the spectator sees no fish id."""
    deck_clients = set(state.client_deck)
    markers = {c.marker for s in state.seats for c in s.crates}
    last_reshuffle = max((i for i, e in enumerate(state.log) if e["t"] == "reshuffle"), default=-1)
    hand_sizes = [len(s.hand) for s in state.seats]
    # R15: everyone sees the committed crates, never a draft in progress.
    public_crates = [
        ["".join(sorted((f[0] for f in c.fish), key="TFMDP".index)) for c in s.crates]
        for s in state.seats
    ]
    for viewer in [None, *range(state.players)]:
        view = view_for(state, viewer)
        allowed = set() if viewer is None else own_cards(state, viewer)
        public = set(view_strings({k: v for k, v in view.items() if k != "log"}))
        logged = set(view_strings(view["log"]))
        everything = public | logged
        leaked = {x for x in everything if FISH_ID.match(x)} - allowed
        assert not leaked, f"view of {viewer} names {leaked}"
        assert not everything & markers
        # Client ids of the deck: never outside the log, and in the log only in
        # events older than the last reshuffle (they were face up then).
        assert not public & deck_clients
        if logged & deck_clients:
            offset = len(state.log) - len(view["log"])
            for i, event in enumerate(view["log"]):
                if set(view_strings(event)) & deck_clients:
                    assert offset + i < last_reshuffle, event
        if view["result"] is None:
            assert "seed" not in everything
        assert [s["hand_size"] for s in view["seats"]] == hand_sizes
        assert [s["crates"] for s in view["seats"]] == public_crates


def _check_state(state: GameState) -> None:
    assert_conserved(state)
    assert len(state.queue) <= cards.QUEUE_MAX
    assert not any(cards.is_inspector(c) for c in state.queue)
    for s in state.seats:
        assert s.coins >= 0
        assert 1 <= len(s.crates) <= cards.MAX_CRATES
        for crates in (s.crates, s.draft_crates or []):
            for crate in crates:
                assert len({f[0] for f in crate.fish}) <= 1  # §3.2 one freshness
                assert not any(cards.is_special(f) for f in crate.fish)  # §1
        assert not any(cards.is_inspector(c) for c in s.clients)
        assert s.stamps == sum(cards.CLIENTS[c].stamps for c in s.clients)
    if state.phase is not Phase.SERVE:
        assert state.bought == [] and state.proposals == []
    if state.phase is Phase.OVER:
        assert waiting_on(state) == frozenset()
    else:
        assert waiting_on(state)
    assert state.last_turn == (not state.fish_deck) or state.phase is Phase.OVER


def _check_step(before: dict[str, Any], state: GameState, seat: int, action: Action) -> None:
    """Properties of one successful action, comparing with the state before it."""
    new_discards = Counter(state.fish_discard) - Counter(before["discard"])
    assert sum(new_discards.values()) == len(state.fish_discard) - len(before["discard"])
    for card in new_discards:
        if cards.is_special(card):
            assert isinstance(action, Serve) and card in before["hands"][seat]
        else:
            # §3.4: only crate or bought fish are ever served; the inspector takes crate fish.
            assert card in before["servable"], f"{card} reached the discard from a hand"
    if isinstance(action, Serve):
        served = state.seats[seat]
        assert served.clients[-1] == action.client
        assert served.coins == before["coins"][seat] + cards.CLIENTS[action.client].coins
        assert Counter(action.fish) <= new_discards
        assert sum(new_discards.values()) == (
            len(action.fish) + len(action.glacons) + len(action.arrivages)
        )
    elif isinstance(action, BuyCrate):
        # R11: 2 x crates owned; §7: the top fish-deck card is the marker.
        owned = len(before["stalls"][seat])
        assert state.seats[seat].coins == before["coins"][seat] - 2 * owned
        assert len(state.seats[seat].crates) == owned + 1
        assert state.seats[seat].crates[-1].marker == before["deck_top"]
    elif isinstance(action, Accept) and state.log[-1]["t"] == "deal":
        deal = state.log[-1]["proposal"]
        active, seller = before["active"], deal["seller"]
        assert state.seats[active].coins == before["coins"][active] - deal["coins"]
        assert state.seats[seller].coins == before["coins"][seller] + deal["coins"]
        assert len(state.bought) == len(before["bought"]) + sum(n for _, n, _ in deal["fish"])
    if before["phase"] is Phase.SERVE and state.phase is Phase.SERVE:
        # §3.2: outside the fill step crates only lose fish.
        for i, s in enumerate(state.seats):
            for k, crate in enumerate(s.crates):
                old = before["stalls"][i][k] if k < len(before["stalls"][i]) else []
                assert Counter(crate.fish) <= Counter(old)
    if before["phase"] is Phase.FILL and state.phase is Phase.FILL:
        # R15: the public crates do not change during the fill step (new crates are empty).
        for i, s in enumerate(state.seats):
            public = [list(c.fish) for c in s.crates]
            assert public[: len(before["stalls"][i])] == before["stalls"][i]
            assert all(not c for c in public[len(before["stalls"][i]) :])
    if before["phase"] is Phase.FILL and state.phase is not Phase.FILL:
        _check_call(before, state)
    if state.turn != before["turn"] and state.phase is Phase.FILL:
        _check_draw(before, state)
    for i, s in enumerate(state.seats):
        assert len(s.clients) >= len(before["clients"][i])


def _check_call(before: dict[str, Any], state: GameState) -> None:
    """§3.3, §5, R10: the call after the fill step, replayed from the log."""
    events = state.log[before["log_size"] :]
    rotten = [any(f[0] == "P" for c in stall for f in c) for stall in before["drafts"]]
    counts = [sum(f[0] == "P" for c in stall for f in c) for stall in before["drafts"]]
    coins = list(before["coins"])
    for e in (e for e in events if e["t"] == "inspector"):
        expected = []
        for i in range(state.players):
            if rotten[i]:
                paid = 1 if coins[i] > 0 else 0
                expected.append({"seat": i, "fish": counts[i], "paid": paid})
                coins[i] -= paid
                rotten[i] = False
        assert e["fined"] == expected
    assert [s.coins for s in state.seats] == coins
    calls = [e["client"] for e in events if e["t"] == "call"]
    drops = [e["client"] for e in events if e["t"] == "drop"]
    assert state.queue == [c for c in before["queue"] if c not in drops] + calls
    assert len(drops) <= 1 and (not drops or drops[0] == before["queue"][0])


def _check_draw(before: dict[str, Any], state: GameState) -> None:
    """§3.1, R5, R9: the draw that opened a new turn."""
    n = state.players
    assert state.active == (before["active"] + 1) % n
    draw = [e for e in state.log[before["log_size"] :] if e["t"] == "draw"][-1]
    deck = len(before["deck"])
    expected = []
    for k in range(n):
        want = ACTIVE_DRAW[n] if k == 0 else 1
        got = min(want, deck)
        deck -= got
        expected.append([(state.active + k) % n, got])
    assert draw["counts"] == expected
    assert len(state.fish_deck) == deck
    drawn = list(reversed(before["deck"]))
    for seat, got in expected:
        returned = before["bought"] if seat == before["active"] else []
        assert state.seats[seat].hand == before["hands"][seat] + returned + drawn[:got]
        del drawn[:got]


def _before(state: GameState) -> dict[str, Any]:
    return {
        "discard": list(state.fish_discard),
        "servable": _servable_before(state),
        "hands": [list(s.hand) for s in state.seats],
        "coins": [s.coins for s in state.seats],
        "clients": [list(s.clients) for s in state.seats],
        "phase": state.phase,
        "turn": state.turn,
        "active": state.active,
        "stalls": [[list(c.fish) for c in s.crates] for s in state.seats],
        "drafts": [_stall(state, i) for i in range(state.players)],
        "deck": list(state.fish_deck),
        "deck_top": state.fish_deck[-1] if state.fish_deck else None,
        "bought": list(state.bought),
        "queue": list(state.queue),
        "log_size": len(state.log),
    }


# --------------------------------------------------------------------------- choices


def _choose(data: st.DataObject, actions: list[Action]) -> Action:
    """Biased pick: mostly ready / end turn, often serving, sometimes anything."""
    ready = [a for a in actions if isinstance(a, Ready | EndTurn)]
    serves = [a for a in actions if isinstance(a, Serve)]
    answers = [a for a in actions if isinstance(a, Accept | Decline | Withdraw)]
    roll = data.draw(st.integers(0, 99), label="roll")
    if serves and roll < 45:
        return data.draw(st.sampled_from(serves), label="serve")
    if answers and roll < 70:
        return data.draw(st.sampled_from(answers), label="answer")
    if ready and roll < 72:
        return ready[0]
    if roll < 88 or not ready:
        return data.draw(st.sampled_from(actions), label="any")
    return ready[0]


def _random_action(rng: random.Random, state: GameState) -> Action:
    """Any action, built from random (often wrong) ids, seats and counts."""
    hand = state.seats[state.active].hand
    pool = FISH_LIST + hand * 3
    kind = rng.randrange(10)
    if kind == 0:
        return Place(tuple(rng.sample(pool, rng.randrange(1, 3))), rng.randrange(-1, 4))
    if kind == 1:
        return TakeBack(rng.randrange(-1, 4))
    if kind == 2:
        queue = state.queue or CLIENT_LIST
        fish = tuple(rng.sample(pool, rng.randrange(0, 4)))
        glacons = tuple(rng.sample(fish, rng.randrange(0, len(fish) + 1)))
        arrivages = tuple(rng.choice("TFMDP") for _ in range(rng.randrange(0, 2)))
        client = rng.choice(queue + CLIENT_LIST[:2])
        return Serve(client, fish, glacons, arrivages)
    if kind == 3:
        return Propose(
            rng.randrange(0, state.players + 1),
            tuple((rng.randrange(0, 3), rng.randrange(0, 3)) for _ in range(rng.randrange(0, 3))),
            seller_glacons=rng.randrange(0, 2),
            seller_arrivages=rng.randrange(0, 2),
            coins=rng.randrange(0, 6),
            buyer_glacons=rng.randrange(0, 2),
            buyer_arrivages=rng.randrange(0, 2),
            counter=rng.choice([None, *range(1, state.next_proposal + 1)]),
        )
    if kind in (4, 5):
        pid = rng.randrange(0, state.next_proposal + 1)
        answers: list[Action] = [Accept(pid), Decline(pid), Withdraw(pid)]
        return rng.choice(answers)
    simple: list[Action] = [Ready(), Unready(), EndTurn(), BuyCrate()]
    return rng.choice(simple)


def _hand_serve(rng: random.Random, state: GameState) -> Action | None:
    """A serve that matches a client's order using at least one fish from the hand (§3.4)."""
    s = state.seats[state.active]
    hand = [f for f in s.hand if not cards.is_special(f)]
    if state.phase is not Phase.SERVE or not hand or not state.queue:
        return None
    client = cards.CLIENTS[rng.choice(state.queue[: cards.SERVABLE])]
    others = [f for c in s.crates for f in c.fish] + state.bought
    picked: list[str] = []
    if client.kind is cards.ClientKind.UNDECIDED:
        pool = hand + others
        if len(pool) < client.size:
            return None
        picked = [hand[0], *rng.sample(pool[1:], client.size - 1)]
    else:
        for code in client.order:
            choice = [f for f in hand if f[0] == code and f not in picked]
            choice = choice or [f for f in others if f[0] == code and f not in picked]
            if not choice:
                return None
            picked.append(choice[0])
        if not set(picked) & set(hand):
            return None
    return Serve(client.id, tuple(picked))


def _play(data: st.DataObject, state: GameState, rng: random.Random) -> GameState:
    """Play ``state`` to its end with drawn choices, checking every invariant after each action."""
    _check_state(state)
    _check_views(state)
    turns_seen = {state.turn}
    for _step in range(MAX_STEPS):
        if state.phase is Phase.OVER:
            break
        roll = rng.random()
        if roll < 0.1:
            # A random or hand-serving action by some seat: if refused, nothing changed.
            hand_serve = _hand_serve(rng, state) if roll < 0.05 else None
            seat = state.active if hand_serve else rng.randrange(state.players)
            action = hand_serve or _random_action(rng, state)
            snap = snapshot(state)
            before = _before(state)
            try:
                apply(state, seat, action)
            except IllegalAction as exc:
                assert exc.code and exc.rule and exc.message
                if hand_serve:
                    assert exc.code == "fish_not_usable"
                assert snapshot(state) == snap
                continue
        else:
            if roll < 0.13:
                seat = rng.randrange(state.players)  # anyone may buy a crate, any time (§7)
                options: list[Action] = [
                    a for a in legal_actions(state, seat) if isinstance(a, BuyCrate)
                ]
                if not options:
                    continue
            else:
                seat = data.draw(st.sampled_from(sorted(waiting_on(state))), label="seat")
                options = legal_actions(state, seat)
            assert options, f"seat {seat} is waited on but has no legal action"
            action = _choose(data, options)
            before = _before(state)
            apply(state, seat, action)
        _check_state(state)
        _check_step(before, state, seat, action)
        _check_views(state)
        turns_seen.add(state.turn)
    else:
        raise AssertionError("the game did not end")
    assert state.result is not None
    winners = state.result["winners"]
    assert winners and state.result["shared"] == (len(winners) > 1)
    scores = [Score(i, s.coins, len(s.clients), s.stamps) for i, s in enumerate(state.seats)]
    assert {k: state.result[k] for k in ("winners", "shared", "scores", "steps")} == (
        decide_winner(scores)
    )
    assert state.result["seed"] == state.seed and state.result["turns"] == state.turn
    assert state.fish_deck == [] and state.last_turn
    assert turns_seen == set(range(1, state.turn + 1))
    for kind in sorted({e["t"] for e in state.log}):
        event(f"log: {kind}")  # shown by --hypothesis-show-statistics
    return state


SETTINGS = settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@SETTINGS
@given(
    data=st.data(),
    players=st.integers(2, 5),
    seed=st.integers(0, 2**32 - 1),
    chaos=st.integers(0, 2**32 - 1),
)
def test_random_legal_games(data: st.DataObject, players: int, seed: int, chaos: int) -> None:
    """All of RULES.md, as invariants: conservation, coins >= 0, queue <= 5, one freshness
    per crate, at most 6 crates, nothing served from a hand, no leak in any view (§9,
    R15), and every game ends (R13) with a winner or a shared victory (§8)."""
    first = data.draw(st.none() | st.integers(0, players - 1), label="first")
    _play(data, new_game(seed, players, first_player=first), random.Random(chaos))


@SETTINGS
@given(
    data=st.data(),
    players=st.integers(2, 5),
    seed=st.integers(0, 2**32 - 1),
    chaos=st.integers(0, 2**32 - 1),
    fish_left=st.integers(0, 40),
    clients_left=st.integers(0, 6),
    coins=st.lists(st.integers(0, 12), min_size=5, max_size=5),
)
def test_random_games_from_short_decks(
    data: st.DataObject,
    players: int,
    seed: int,
    chaos: int,
    fish_left: int,
    clients_left: int,
    coins: list[int],
) -> None:
    """The same invariants from stacked states with short fish and client decks, so that the
    last turn (R13), empty-deck draws (R5), client reshuffles (R7) and inspectors recycled
    from the discard (§5, R23) come up often."""
    state = stacked_game(
        players,
        fish_deck_size=fish_left,
        client_deck_size=clients_left,
        coins=coins[:players],
        seed=seed,
        first_player=seed % players,
    )
    _play(data, state, random.Random(chaos))
