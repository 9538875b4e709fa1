"""The table's log, the serve dialog, the results and the replay in French (Pilot text tests).

A French laptop renders everything from the catalogue: the log's sentences
come from the events' codes and parameters, so the same game reads in French
on one screen and in English on another, and a replay is shown in the
viewer's language. Each test reads the text the screen shows and checks
French sentences are there and the English ones are not.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from logcheck import play_log
from pseudo import screen_lines
from tablekit import TableApp, midgame
from test_snapshots_dialogs import ResultsApp
from textual.pilot import Pilot

from poissonnier_tui import i18n
from poissonnier_tui.games.poissonnier.ui.palette import spell
from poissonnier_tui.games.poissonnier.ui.screens.replay import ReplayScreen
from poissonnier_tui.games.poissonnier.ui.screens.results import ResultsScreen
from poissonnier_tui.games.poissonnier.ui.widgets.game_log import GameLog
from poissonnier_tui.hosting.replay import ALL_HANDS, Replay
from poissonnier_tui.shell.replay_app import ReplayApp

SIZE = (160, 50)
NBSP = "\u00a0"


@pytest.fixture(autouse=True)
def french() -> Iterator[None]:
    i18n.set_language("fr")
    yield
    i18n.set_language("en")


async def settle(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.pause()


def log_lines(log: GameLog) -> list[str]:
    """The log's lines as shown (wrapped to the pane)."""
    return ["".join(segment.text for segment in strip) for strip in log.lines]


def text(lines: list[str]) -> str:
    """Screen lines as one string, no-break spaces as plain ones."""
    return "\n".join(lines).replace(NBSP, " ")


async def test_the_table_log_speaks_french_in_whole_sentences() -> None:
    app = TableApp(midgame())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        log = " ".join(log_lines(app.table.query_one(GameLog))).replace(NBSP, " ")
        assert "Nouvelle partie à 4 joueurs ; vous jouez en premier (R4)." in log, log
        assert "Tour 1 : vous" in log, log
        assert "Bot 1 · difficile a fini de remplir ses caisses." in log, log
        assert "Offre #1 : Bot 1 · difficile vous propose" in log and "pour 2 pièces" in log, log
        for english in ("New game", "declared ready", "offers you", "Turn 1", "coins"):
            assert english not in log, (english, log)


async def test_the_deal_dialog_names_whose_coins_in_french() -> None:
    """Ana asks for fish (she is the buyer): her coins read « vous en avez 7 »; the
    dialog's own keys are in French too."""
    app = TableApp(midgame())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        shown = text(screen_lines(app))
    assert "pièces (vous en avez 7)" in shown, shown
    assert "en a 7" not in shown and "pg.suiv Vendeur suivant" in shown, shown


async def test_the_serve_dialog_speaks_french() -> None:
    app = TableApp(midgame())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("s", "1")  # C16 asks for M M: Ana's M and her arrivage
        await settle(pilot)
        shown = text(screen_lines(app))
        assert app.screen.query_one("#dialog").border_title == "Servir C16"
        assert "C16  M  M  · 2 pièces · 2 tampons" in shown, shown
        assert "Choisissez comment servir (↑↓, Entrée l'envoie) :" in shown, shown
        assert "caisse 3 :  M  ★  en guise de  M " in shown, shown
        assert "Annuler (Échap)" in shown, shown
        for english in ("Serve C16", "coins", "stamps", "crate 3", " as ", "Cancel"):
            assert english not in shown, (english, shown)


async def test_the_results_speak_french_with_each_step_explained() -> None:
    app = ResultsApp(4)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ResultsScreen)
        shown = text(screen_lines(app))
        for french in (
            "Décomptes finaux (RULES.md §8)",
            "Comment le vainqueur a été désigné",
            "Joueur",
            "Pièces",
            "1. le moins de pièces —",
            "2. ne s’applique pas —",
            "3. le moins de clients —",
            "4. le plus de tampons —",
            "graine 4 : la même graine et les mêmes coups rejouent cette partie (R3).",
            "Échap Retour à la table",
        ):
            assert french in shown, (french, shown)
        for english in ("fewest", "most", "seat", "Player", "turns", "Back to the table"):
            assert english not in shown, (english, shown)


async def test_a_replay_shows_the_logged_game_in_the_viewers_language(tmp_path: Path) -> None:
    path = tmp_path / "ana.plog"
    play_log(path, seed=21, players=3, humans=1)
    replay = Replay.load(path)

    async def shown_log(lang: str) -> tuple[list[str], str]:
        i18n.set_language(lang)
        app = ReplayApp(replay)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            screen.pov = ALL_HANDS
            screen.step = replay.turn_start(2) + 2
            await settle(pilot)
            lines = [line.replace(NBSP, " ") for line in log_lines(screen.query_one(GameLog))]
            return lines, text(screen_lines(app))

    english, _ = await shown_log("en")
    french, bar = await shown_log("fr")
    assert len(french) >= 5 and any(" Tour 1 : " in line for line in french), french
    assert any(" Turn 1: " in line for line in english), english
    assert not set(english) & set(french), "the same line in both languages"
    joined = " ".join(french)
    for word in ("Turn", "ready", "served", "drawn", "ended", "joined", "queue", "coins"):
        assert word not in joined, (word, joined)
    assert "Étape " in bar and "point de vue : toutes les mains" in bar, bar


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_freshness_words_stay_french_with_french_plurals(lang: str) -> None:
    i18n.set_language(lang)
    assert spell("TTFMMPPD") == "2 très frais, 1 frais, 2 mangeables, 1 douteux, 2 pourris"
    assert spell("M") == "1 mangeable"
