"""A decline with a reason reads like table talk (RULES.md §4), in each viewer's language."""

from __future__ import annotations

from stacking import act, fill_and_ready, stacked_game
from test_app_describe import plain, snap_of

from poissonnier_tui import i18n
from poissonnier_tui.games.poissonnier.rules.actions import Decline, Propose
from poissonnier_tui.games.poissonnier.rules.state import GameState
from poissonnier_tui.games.poissonnier.ui.describe import event_text
from poissonnier_tui.games.poissonnier.ui.reasons import because
from poissonnier_tui.games.poissonnier.ui.threads import negotiations
from poissonnier_tui.games.poissonnier.ui.widgets.offers import step_text


def _declined(decline: Decline, coins: int = 1) -> GameState:
    state = stacked_game(
        3,
        hands=[["G01"], ["G02"], ["A02"]],
        markers=[["D20"], ["D19"], ["D17"]],
        crates=[[["M03"]], [["F01", "F02"]], [["M01"]]],
        coins=[3, 3, 3],
        queue=["C12", "C03", "C11", "C04"],
        clients_top=["C05"],
    )
    fill_and_ready(state)
    act(state, 0, Propose(1, ((0, 1),), coins=coins))
    act(state, 1, decline)
    return state


def test_the_log_says_why_and_at_what_price() -> None:
    state = _declined(Decline(1, "too_cheap", 3))
    line = plain(event_text(snap_of(state, 0), state.log[-1]) or "")
    assert line == 'Bot 1 declined offer #1: "1 coin is too little — 3 coins and it\'s yours".'
    state = _declined(Decline(1, "need_it"), coins=2)
    line = plain(event_text(snap_of(state, 2), state.log[-1]) or "")
    assert line == 'Bot 1 declined offer #1: "I need those fish myself".'


def test_a_plain_decline_reads_as_before() -> None:
    state = _declined(Decline(1))
    assert plain(event_text(snap_of(state, 0), state.log[-1]) or "") == "Bot 1 declined offer #1."


def test_each_reader_hears_it_in_their_language() -> None:
    i18n.set_language("fr")
    try:
        said = because("too_dear", 4, 2)
    finally:
        i18n.set_language("en")
    assert said == "4 pièces, c'est trop — 2 pièces et marché conclu"
    assert because("too_dear", 4, 2) == "4 coins is too much — 2 coins and it's a deal"


def test_the_decliner_reads_it_in_the_second_person_in_each_language() -> None:
    """Seat 1 declined: its own log line and offers thread say "You declined" ("Vous
    avez refusé", not "Vous a refusé"), the others read its name."""
    state = _declined(Decline(1, "too_cheap", 3))
    own, other = snap_of(state, 1), snap_of(state, 0)
    event = state.log[-1]
    assert plain(event_text(own, event) or "").startswith("You declined offer #1: ")
    assert plain(event_text(other, event) or "").startswith("Bot 1 declined offer #1: ")
    i18n.set_language("fr")
    try:
        line = plain(event_text(own, event) or "")
        steps = [step_text(own, s) for n in negotiations(own.view) for s in n.steps]
    finally:
        i18n.set_language("en")
    assert line.startswith("Vous avez refusé l'offre #1\u00a0: «\u00a0"), line
    assert "✗ Vous avez refusé\u00a0: " in " ".join(steps), steps
