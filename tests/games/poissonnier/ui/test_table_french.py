"""The table in French (Pilot text tests): status line, footer keys, sub-title, a refusal.

The screen reads its strings when it renders, so switching the process's
language (as Settings does) shows French on the next render; the refusal is
rendered from the code and parameters the server sends, as a French laptop
would show it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tablekit import TableApp, midgame
from textual.pilot import Pilot

from poissonnier_tui import i18n
from poissonnier_tui.games.poissonnier.rules.engine import apply_wire
from poissonnier_tui.games.poissonnier.rules.errors import IllegalAction
from poissonnier_tui.games.poissonnier.ui.refusals import refusal_text
from poissonnier_tui.games.poissonnier.ui.screens.table import TableScreen
from poissonnier_tui.games.poissonnier.ui.widgets.market import MarketInfo
from poissonnier_tui.games.poissonnier.ui.widgets.status_line import StatusLine


@pytest.fixture(autouse=True)
def french() -> Iterator[None]:
    i18n.set_language("fr")
    yield
    i18n.set_language("en")


class FrenchTable(TableApp):
    """The table app, able to show a refused move as the shell does: a toast."""

    def say_refusal(self, exc: IllegalAction) -> None:
        """What the shell shows for a refusal (the reply's code, params and sentence)."""
        self.notify(refusal_text(exc.code, exc.wire_params, exc.sentence), severity="error")


async def settle(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.pause()


def footer_descriptions(screen: TableScreen) -> set[str]:
    return {b.binding.description for b in screen.active_bindings.values() if b.binding.show}


async def test_the_table_speaks_french_from_status_line_to_footer() -> None:
    app = FrenchTable(midgame())
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        screen = app.table
        status = str(screen.query_one(StatusLine).render())
        assert "VOTRE TOUR" in status and "YOUR TURN" not in status, status
        keys = footer_descriptions(screen)
        assert {"Servir", "Finir le tour", "Acheter une caisse", "Accepter"} <= keys, keys
        assert not keys & {"Serve", "End turn", "Buy crate", "Accept"}
        sub_title = str(screen.sub_title)
        assert sub_title.startswith("Tour 1 · ") and "pioche Poisson" in sub_title, sub_title
        market = str(screen.query_one(MarketInfo).render())
        assert "Pioche Poisson" in market and "Défausse Poisson" in market, market
        await pilot.press("s")
        await settle(pilot)
        assert "Servir quel client\u00a0? Appuyez sur 1, 2 ou 3" in str(
            screen.query_one(StatusLine).render()
        )


async def test_a_refused_move_is_explained_in_french() -> None:
    app = FrenchTable(midgame())
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        try:
            apply_wire(app.state, 1, {"type": "end_turn"})  # Bot 1 is not the active player
        except IllegalAction as exc:
            app.say_refusal(exc)
        await settle(pilot)
        shown = [n.message for n in app.toasted]
        assert "seul le joueur actif peut terminer le tour (§3.4)" in shown, shown
