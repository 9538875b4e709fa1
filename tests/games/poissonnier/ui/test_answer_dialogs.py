"""A person's side of haggling (RULES.md §4): decline saying why, name a price when asked.

The real table screen on a stacked game played in process (:mod:`tablekit`):
Bot 1 offers Ana a T for 2 coins.
"""

from __future__ import annotations

from typing import Any

from tablekit import TableApp, midgame
from textual.widgets import Input

from poissonnier_tui.games.poissonnier.ui.screens.answer_dialogs import PriceDialog, ReasonDialog
from poissonnier_tui.games.poissonnier.ui.widgets.game_log import GameLog
from poissonnier_tui.shell.messages import PriceGiven


class AskedTable(TableApp):
    """The table app, keeping the price answers its screen sends."""

    def __init__(self) -> None:
        super().__init__(midgame())
        self.given: list[PriceGiven] = []

    def on_price_given(self, event: PriceGiven) -> None:
        self.given.append(event)


async def test_n_declines_with_a_reason_and_a_price_the_log_says_so() -> None:
    app = AskedTable()
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        snap = app.table.snapshot
        assert snap is not None
        (offer,) = snap.offers_for_me()
        await pilot.press("n")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ReasonDialog)
        assert dialog.reasons == ("too_dear", "no_use", "no_thanks")  # Ana buys (§4)
        await pilot.press("1", "1")  # too dear; the price field: 1 coin
        assert dialog.query_one("#price", Input).value == "1"
        await pilot.press("enter")
        await pilot.pause()
        assert app.moves[-1] == {
            "type": "decline", "proposal": offer["id"], "reason": "too_dear", "price": 1,
        }  # fmt: skip
        assert app.refused == []
        assert app.state.proposals == []
        text = " ".join(t.plain for t in app.table.query_one(GameLog)._texts)
        assert "2 coins is too much — 1 coin and it's a deal" in text


async def test_a_price_field_takes_digits_only() -> None:
    """No sign, no letters: a price is a count of coins (RULES.md §4), never below 0."""
    app = AskedTable()
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        await pilot.press("n", "1", "minus", "x", "2", "plus", "3")
        assert app.screen.query_one("#price", Input).value == "23"


async def test_a_price_that_says_nothing_is_left_out_and_esc_keeps_the_offer() -> None:
    app = AskedTable()
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        await pilot.press("n", "1", "5")  # 5 coins is not fewer than the 2 asked
        await pilot.press("enter")
        await pilot.pause()
        assert app.moves[-1]["reason"] == "too_dear" and "price" not in app.moves[-1]
        assert app.refused == []
    app = AskedTable()
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        await pilot.press("n", "escape")
        await pilot.pause()
        assert app.moves == [] and len(app.state.proposals) == 1


async def test_a_price_question_is_asked_and_answered_once() -> None:
    app = AskedTable()
    deal: dict[str, Any] = {
        "proposer": 1, "seller": 0, "fish": [[1, 1, "F"]], "seller_glacons": 0,
        "seller_arrivages": 0, "buyer_glacons": 0, "buyer_arrivages": 0,
    }  # fmt: skip
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        app.table.price_asked(2, deal)
        await pilot.pause()
        assert isinstance(app.screen, PriceDialog)
        await pilot.press("3", "enter")
        await pilot.pause()
        assert [(g.to, g.deal, g.coins) for g in app.given] == [(2, deal, 3)]
        await pilot.press("y")  # nothing left to answer
        await pilot.pause()
        assert not isinstance(app.screen, PriceDialog)
        app.table.price_asked(2, deal)
        await pilot.pause()
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert app.given[-1].coins is None  # no price
        app.table.price_asked(2, deal)
        await pilot.pause()
        await pilot.press("escape")  # no obligation to answer
        await pilot.pause()
        assert len(app.given) == 2
