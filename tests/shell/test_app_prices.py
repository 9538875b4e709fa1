"""Prices you can read, in the real app (net/prices.py, RULES.md §4).

Solo against one easy bot: autoplay plays the person until it is their
serve step and the bot has fish in a crate. The person opens the deal dialog
(``d``: ask for fish) and asks for one fish: the dialog lists the stalls, asks
the bot its price by itself and shows it. Offered at that very price, the
bot takes it: the deal is made.
"""

from __future__ import annotations

from pilot import until
from textual.widgets import Input, Static

from poissonnier_tui.games.poissonnier.ui.screens.deal_dialog import DealDialog
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.shell.app import PoissonnierApp
from poissonnier_tui.shell.session import SoloSession


def my_market(snap: object) -> bool:
    """Our serve step, nothing proposed, and the bot has fish in a crate."""
    return (
        isinstance(snap, TableSnapshot)
        and not snap.over
        and snap.phase == "serve"
        and snap.me is not None
        and snap.active == snap.me
        and any(snap.seat(1 - snap.me)["crates"])
        and not snap.proposals
    )


class StopsAtItsMarket(PoissonnierApp):
    """The app, whose autoplay stops on the first view of such a moment."""

    def autoplay_step(self) -> None:
        if self.autoplay and my_market(self.snapshot):
            self.autoplay = False
            return
        super().autoplay_step()


async def test_the_deal_dialog_shows_a_bot_sellers_price_and_the_bot_takes_it() -> None:
    session = SoloSession(
        bots=1, bot_kinds=("easy",), seed=2, bot_delay=0.0, autoplay=True, name="Ana"
    )
    app = StopsAtItsMarket(session)
    async with app.run_test(size=(160, 50)) as pilot:
        await until(pilot, lambda: not app.autoplay and app.screen is app._table, 120)
        snap = app.snapshot
        assert isinstance(snap, TableSnapshot) and my_market(snap) and snap.me is not None
        bot = 1 - snap.me
        crates = [str(c) for c in snap.seat(bot)["crates"]]
        crate = next(k for k, c in enumerate(crates) if c)
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, DealDialog))
        dialog = app.screen
        assert isinstance(dialog, DealDialog) and dialog.draft.seller == bot
        stalls = str(dialog.query_one("#stalls", Static).render())
        assert stalls.startswith("Stalls") and snap.name(bot) in stalls
        dialog.query_one(f"#crate-{crate}", Input).value = "1"
        await until(pilot, lambda: (bot, dialog.draft.fish) != (bot, ()), 5)

        def priced() -> bool:
            return any(seat == bot for seat, _key in dialog.prices)

        await until(pilot, priced, 20)
        ((coins, by_bot),) = dialog.prices.values()
        shown = str(dialog.query_one("#price", Static).render())
        assert coins is not None, shown  # this deal's easy bot sells (seed 2: 3 coins)
        assert by_bot and f"would sell this for {coins} coin" in shown
        assert coins <= int(snap.seat(snap.me)["coins"])
        dialog.query_one("#coins", Input).value = str(coins)
        await pilot.press("ctrl+s")

        def dealt() -> bool:
            s = app.snapshot
            return s is not None and any(
                e["t"] == "deal" and e["proposal"]["coins"] == coins for e in s.view["log"]
            )

        await until(pilot, dealt, 20)
