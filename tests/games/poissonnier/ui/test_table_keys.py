"""Keys at the table act on what the screen showed when they were pressed.

The table screen runs on a stacked game played by the rules engine in process
(:mod:`tablekit`): no server, no clock.
"""

from __future__ import annotations

import copy
import random

from stacking import fill_and_ready, stacked_game
from tablekit import TableApp, midgame

from poissonnier_tui.games.poissonnier.rules.actions import Propose, to_wire
from poissonnier_tui.games.poissonnier.rules.engine import apply, legal_actions, new_game
from poissonnier_tui.games.poissonnier.rules.state import Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for
from poissonnier_tui.games.poissonnier.ui.widgets.crate_box import CrateBox
from poissonnier_tui.games.poissonnier.ui.widgets.game_log import GameLog
from poissonnier_tui.games.poissonnier.ui.widgets.hand import HandView
from poissonnier_tui.games.poissonnier.ui.widgets.status_line import StatusLine


async def test_an_offer_arriving_just_before_a_key_does_not_take_the_answer() -> None:
    """§4: Ana is shown Bot 1's offer; Bot 4's arrives a moment before she presses x:
    x declines the offer she was shown, the newer one stays open, and only then does
    the status line move on to it."""
    app = TableApp(midgame())
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        (shown,) = [int(p["id"]) for p in app.table.snapshot.offers_for_me()]  # type: ignore[union-attr]
        assert app.table.query_one(StatusLine).offer == shown
        app.other(2, to_wire(Propose(seller=2, fish=((0, 1),), coins=1)))  # Bot 4 offers
        await pilot.pause()
        snap = app.table.snapshot
        assert snap is not None and len(snap.offers_for_me()) == 2
        newer = int(snap.offers_for_me()[-1]["id"])
        assert app.table.query_one(StatusLine).offer == shown  # still the one she saw
        await pilot.press("x")
        await pilot.pause()
        assert app.moves[-1] == {"type": "decline", "proposal": shown}
        snap = app.table.snapshot
        assert snap is not None and [int(p["id"]) for p in snap.offers_for_me()] == [newer]
        assert app.table.query_one(StatusLine).offer == newer


async def test_b_with_an_empty_fish_deck_says_why_and_is_not_offered() -> None:
    """§7: no crate can be bought once the fish deck is empty. The footer does not
    offer b, the stall does not say "b buys it", and pressing b says the rule."""
    state = stacked_game(2, hands=[["T01"], ["F01"]], fish_deck_size=0, coins=[9, 3])
    fill_and_ready(state, {0: [(("T01",), 0)], 1: [(("F01",), 0)]})
    assert state.phase is Phase.SERVE and state.active == 0 and not state.fish_deck
    app = TableApp(state)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        screen = app.table
        assert "b" not in screen.active_bindings
        assert "buys it" not in str(screen.query_one("#crate-2", CrateBox).render())
        await pilot.press("b")
        await pilot.pause()
        assert app.moves == []
        said = [n.message for n in app.toasted]
        assert any("fish deck is empty (§7)" in m for m in said)


async def test_serving_keys_out_of_turn_say_why() -> None:
    """§3.4: s and e belong to the active player; pressed by another, they say so."""
    app = TableApp(midgame(), seat=1)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.press("e")
        await pilot.pause()
        said = [n.message for n in app.toasted]
        assert sum("Only the active player serves" in m for m in said) == 2
        assert app.moves == []


async def test_after_a_crate_is_filled_the_cursor_is_on_the_next_freshness() -> None:
    """§3.2: rows T F M D; with the cursor on F, all the F go to crate 1; the cursor
    lands on M (the row after F), not on D."""
    state = stacked_game(
        2, hands=[["T01", "F01", "F02", "M01", "D01"], None],
        markers=[["T10", "T11"], None],
    )  # fmt: skip
    app = TableApp(state)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        hand = app.table.query_one(HandView)
        assert hand.fish_rows == ["T", "F", "M", "D"]
        await pilot.press("down")
        assert hand.code == "F"
        await pilot.press("1")
        await pilot.pause()
        await pilot.pause()
        assert app.moves[-1]["type"] == "place"
        assert hand.fish_rows == ["T", "M", "D"] and hand.code == "M"


async def test_the_log_scrolls_from_the_keyboard() -> None:
    """PgUp/PgDn scroll the log a page (at 80×24 the log pane comes up first)."""
    rng = random.Random(2)
    state = new_game(2, 3)
    for _ in range(400):  # a long game so far: more log than fits
        seat = rng.choice(sorted(view_for(state, None)["waiting_on"]))
        trial = copy.deepcopy(state)
        apply(trial, seat, rng.choice(legal_actions(state, seat)))
        if trial.phase is Phase.OVER:
            break
        state = trial
    app = TableApp(state)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        log = app.table.query_one(GameLog)
        await pilot.press("pageup")
        await pilot.pause()
        assert log.display and log.max_scroll_y > 0
        bottom = log.max_scroll_y
        assert log.scroll_y < bottom
        up = log.scroll_y
        await pilot.press("pagedown")
        await pilot.pause()
        assert log.scroll_y > up
