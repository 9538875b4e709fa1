"""The seats in French: the host's lobby, the waiting screen, the F2 seats list, bots' levels.

A table names its bots in English as data (``"Bot 3 · hard"``); each client
shows the level in its own language (docs/GLOSSARY.md), and the words around
the names (open seat, disconnected, connected…) come from the catalogue.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pilot import until
from textual.app import App
from textual.widgets import Static

from poissonnier_tui import i18n
from poissonnier_tui.hosting.tables import TableSettings
from poissonnier_tui.shell.app import HostSession, PoissonnierApp
from poissonnier_tui.shell.screens.connecting import ConnectingScreen
from poissonnier_tui.shell.screens.seats_dialog import seat_line
from poissonnier_tui.shell.seats import SeatLabel, shown_name

SEATS = (
    SeatLabel("Ana"),
    SeatLabel("Bot 2 · hard", "bot"),
    SeatLabel("Léo", "human", connected=False),
    SeatLabel("", "open"),
)


@pytest.fixture
def french() -> Iterator[None]:
    i18n.set_language("fr")
    yield
    i18n.set_language("en")


def test_a_bots_level_is_said_in_the_players_language(french: None) -> None:
    assert shown_name(SeatLabel("Bot 2 · hard", "bot")) == "Bot 2 · difficile"
    assert shown_name(SeatLabel("Bot 5 · easy", "bot")) == "Bot 5 · facile"
    assert shown_name(SeatLabel("Bot 2 · greedy", "bot")) == "Bot 2 · greedy"  # not a level
    assert shown_name(SeatLabel("Bot 2 · hard", "human")) == "Bot 2 · hard"  # a person's name
    i18n.set_language("en")
    assert shown_name(SeatLabel("Bot 2 · hard", "bot")) == "Bot 2 · hard"


def test_the_seats_list_speaks_french(french: None) -> None:
    lines = [seat_line(i, label, stand_in=i == 1)[0].plain for i, label in enumerate(SEATS)]
    assert lines == [
        "1. Ana  connecté",
        "2. Bot 2 · difficile  jouée par un bot — Entrée\u00a0: la rendre à son joueur",
        "3. Léo  déconnecté — Entrée\u00a0: un bot joue à sa place",
        "4. libre",
    ]


class Waiting(App[None]):
    """The waiting screen with a lobby."""

    def on_mount(self) -> None:
        screen = ConnectingScreen("Le Poissonnier")
        self.push_screen(screen)
        screen.seats = SEATS


async def test_the_waiting_screen_lists_the_seats_in_french(french: None) -> None:
    app = Waiting()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.pause()
        seats = str(app.screen.query_one("#seats", Static).render())
        assert "2. Bot 2 · difficile (bot)" in seats, seats
        assert "3. Léo (déconnecté)" in seats, seats
        assert "4. place libre — en attente d'un joueur" in seats, seats
        assert str(app.screen.query_one("#message", Static).render()) == "Préparation…"


async def test_the_hosts_lobby_speaks_french_with_the_bot_level(french: None) -> None:
    settings = TableSettings(
        name="Chez Ana", seats=3, bots=0, bot_delay=0.0, port=0, interface="127.0.0.1",
        advertise=False, seed=3, host_seat=True, absent_grace=None,
    )  # fmt: skip
    app = PoissonnierApp(HostSession(settings, name="Ana"))
    async with app.run_test(size=(160, 50)) as pilot:
        await until(pilot, lambda: app.hosted is not None and len(app.seats) == 3)
        hosted = app.hosted
        assert hosted is not None
        screen = app.screen
        assert isinstance(screen, ConnectingScreen)
        said = screen.message.replace("\u00a0", " ")
        assert f"Votre table « Chez Ana » est ouverte sur {hosted.address}." in said, said
        assert "Elle n'est pas annoncée sur le réseau local ; vos amis tapent :" in said, said
        assert f"poissonnier join {hosted.address}" in said, said
        assert "b ajoute un bot moyen (l change le niveau)" in said, said
        await pilot.press("l")  # medium -> hard
        assert "b ajoute un bot difficile" in screen.message
