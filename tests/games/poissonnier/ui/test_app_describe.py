"""The app's pure helpers, checked against the real engine.

* :func:`describe.event_text` has a sentence for every event a whole game logs;
* :func:`serving.serve_options`, computed from a seat's *view* only, lists
  serves the engine accepts (RULES.md §3.4, §6), and nothing it would refuse
  is offered when the engine has a way;
* :func:`describe.status_text` always says who the game waits for.
"""

from __future__ import annotations

import copy
import random

from stacking import fill_and_ready, stacked_game
from textual.content import Content

from poissonnier_tui.games.poissonnier.rules.actions import Propose, Serve
from poissonnier_tui.games.poissonnier.rules.engine import (
    apply,
    apply_wire,
    legal_actions,
    new_game,
)
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for
from poissonnier_tui.games.poissonnier.ui.autoplay import fallback_move
from poissonnier_tui.games.poissonnier.ui.deals import DealDraft
from poissonnier_tui.games.poissonnier.ui.describe import (
    event_text,
    proposal_text,
    status_text,
)
from poissonnier_tui.games.poissonnier.ui.serving import serve_options, shortfall, suggest_deal
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.shell.seats import SeatLabel

NAMES = (SeatLabel("Ana"), SeatLabel("Bot 1", "bot"), SeatLabel("Bot 2", "bot"))


def snap_of(state: GameState, seat: int | None) -> TableSnapshot:
    """The snapshot the app would hold for ``seat``."""
    return TableSnapshot(view_for(state, seat), NAMES[: state.players])


def plain(markup: str) -> str:
    """Markup without its styles."""
    return Content.from_markup(markup).plain


def play(seed: int, players: int = 3) -> list[GameState]:
    """A whole game with random legal moves (serving preferred); every state after a move."""
    rng = random.Random(seed)
    state = new_game(seed, players)
    states = [copy.deepcopy(state)]
    while state.phase is not Phase.OVER:
        seat = rng.choice(sorted(waiting(state)))
        actions = legal_actions(state, seat)
        serves = [a for a in actions if isinstance(a, Serve)]
        proposes = [a for a in actions if isinstance(a, Propose)]
        rest = [a for a in actions if not isinstance(a, Serve | Propose)]
        pick = serves or (proposes if proposes and rng.random() < 0.1 else rest)
        apply(state, seat, rng.choice(pick))
        states.append(copy.deepcopy(state))
    return states


def waiting(state: GameState) -> set[int]:
    """Seats with a decision to make."""
    view = view_for(state, None)
    return set(view["waiting_on"])


def test_every_logged_event_reads_as_a_sentence() -> None:
    kinds: set[str] = set()
    for seed in (1, 2):
        final = play(seed)[-1]
        snap = snap_of(final, 0)
        for event in final.log:
            text = event_text(snap, event)
            assert text is not None, event
            words = plain(text)
            assert words and "None" not in words and "{" not in words, (event, words)
            kinds.add(event["t"])
    assert {"turn", "draw", "reveal", "call", "serve", "ready", "end_turn", "game_over"} <= kinds


def test_serve_options_from_the_view_are_accepted_by_the_engine() -> None:
    checked = 0
    for state in play(3)[::3]:
        if state.phase is not Phase.SERVE:
            continue
        seat = state.active
        snap = snap_of(state, seat)
        engine_serves = {a.client for a in legal_actions(state, seat) if isinstance(a, Serve)}
        for client in dict.fromkeys(snap.servable):
            options = serve_options(snap, client)
            assert bool(options) == (client in engine_serves), client
            for option in options:
                trial = copy.deepcopy(state)
                apply_wire(trial, seat, option.action)  # raises if the engine refuses it
                assert client in trial.seats[seat].clients
                checked += 1
    assert checked > 5


def test_status_says_who_the_game_waits_for() -> None:
    state = stacked_game(3)
    assert plain(status_text(snap_of(state, 0))).endswith(
        "then press r — waiting for you and 2 other players"
    )
    apply_wire(state, 1, {"type": "ready"})
    assert plain(status_text(snap_of(state, 0))).endswith("waiting for you and 1 other player")
    apply_wire(state, 0, {"type": "ready"})
    assert plain(status_text(snap_of(state, 0))).startswith("You are ready. Fill step: waiting for")
    fill_and_ready(state)
    active = state.active
    mine = plain(status_text(snap_of(state, active)))
    assert mine.startswith("Your turn: serve a client (s)")
    other = (active + 1) % 3
    assert f"{NAMES[active].name} is serving" in plain(status_text(snap_of(state, other)))
    assert plain(status_text(snap_of(state, 0), "Take back which crate?")).startswith(
        "Take back which crate?"
    )


def test_proposals_read_from_each_side() -> None:
    state = stacked_game(2, hands=[["F01"], ["T01", "T02"]])
    fill_and_ready(state, {1: [(("T01", "T02"), 0)]})
    assert state.active == 0
    apply(state, 0, Propose(seller=1, fish=((0, 2),), coins=3))
    p = view_for(state, 0)["proposals"][0]
    buyer, seller = snap_of(state, 0), snap_of(state, 1)
    assert plain(proposal_text(buyer, p)) == "You ask Bot 1 for  T  T  from crate 1, paying 3 coins"
    assert plain(proposal_text(seller, p)) == "Ana asks you for  T  T  from crate 1, paying 3 coins"
    assert "a accept" in plain(status_text(seller))
    draft = DealDraft.from_proposal(p)
    assert draft.counter == p["id"] and draft.to_action()["fish"] == [[0, 2]]


def test_shortfall_and_suggested_deal() -> None:
    state = stacked_game(2, hands=[["F01", "F02"], ["T01", "D01"]], queue=["C01", "C03"])
    fill_and_ready(state, {0: [(("F01", "F02"), 0)], 1: [(("T01",), 0)]})
    snap = snap_of(state, 0)
    assert not serve_options(snap, "C01")
    assert "You lack" in plain(shortfall(snap, "C01"))
    deal = suggest_deal(snap, "C01")
    assert deal is not None and deal.seller == 1 and deal.fish == ((0, 1),)
    apply_wire(state, 0, deal.to_action())  # a proposal the engine takes


def test_autoplay_fallback_is_legal() -> None:
    for state in play(5)[::4]:
        for seat in waiting(state):
            snap = snap_of(state, seat)
            move = fallback_move(snap)
            if move is not None:
                apply_wire(copy.deepcopy(state), seat, move)


def test_shortfall_counts_the_specials_in_hand() -> None:
    """§6: an arrivage stands for a fish. Seat 0 has one F in a crate and an arrivage in
    hand; C21 asks T F F. The order lacks T and F, but one more F suffices (the arrivage
    is the T), so the dialog names one fish and the suggested deal buys only that."""
    state = stacked_game(
        3, hands=[["F01", "A01"], ["F02", "F03"], ["T01"]], queue=["C21", "C03", "C04"],
    )  # fmt: skip
    fill_and_ready(state, {0: [(("F01",), 0)], 1: [(("F02", "F03"), 0)], 2: [(("T01",), 0)]})
    snap = snap_of(state, 0)
    assert state.active == 0 and not serve_options(snap, "C21")
    assert "You lack  F  (1 frais) in your crates" in plain(shortfall(snap, "C21"))
    deal = suggest_deal(snap, "C21")
    assert deal is not None and deal.seller == 1 and deal.fish == ((0, 1),)
