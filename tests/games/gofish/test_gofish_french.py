"""Go Fish in French: the faces read V, D, R (valet, dame, roi) and their keys follow them.

docs/GLOSSARY.md: French decks print A, V, D, R where English ones print A, J,
Q, K. The hand, the log and the prompts show the labels of the player's
language, and the key that asks for a rank is its label, so a French player
presses ``v`` for the jacks and an English one ``j``; the move sent is the same.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from gofish_stacking import stacked_game
from gofish_tablekit import GoFishTableApp, stacked_midgame
from textual.pilot import Pilot
from textual.widgets import Static

from poissonnier_tui import i18n
from poissonnier_tui.games.gofish.rules.state import Options
from poissonnier_tui.games.gofish.ui.reader import card_text, rank_label
from poissonnier_tui.shell.messages import MoveChosen


class AskingApp(GoFishTableApp):
    """Cleo's table (she holds A♠ J♦ J♥); keeps the asks her keys send."""

    def __init__(self) -> None:
        super().__init__(stacked_midgame(), 2)
        self.sent: list[dict[str, Any]] = []

    def on_move_chosen(self, event: MoveChosen) -> None:
        self.sent.append(event.action)


@pytest.fixture
def lang(request: pytest.FixtureRequest) -> Iterator[str]:
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


async def settle(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.pause()


@pytest.mark.parametrize(
    ("lang", "face", "key"), [("fr", "V", "v"), ("en", "J", "j")], indirect=["lang"]
)
async def test_the_jacks_read_and_are_asked_for_in_the_players_language(
    lang: str, face: str, key: str
) -> None:
    app = AskingApp()
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        hand = str(app.screen.query_one("#gf-hand", Static).render())
        assert f"[{key}] {face}♦ {face}♥" in hand, hand
        await pilot.press("4")  # Dom
        await settle(pilot)
        status = str(app.screen.query_one("#gf-status", Static).render())
        assert f" 0 {key} " in status, status  # the prompt lists the face keys
        await pilot.press("q" if lang == "fr" else "d")  # the other language's key: nothing
        await pilot.press(key)
        await settle(pilot)
        assert app.sent == [{"type": "ask", "target": 3, "rank": "J"}]


@pytest.mark.parametrize("lang", ["fr"], indirect=True)
def test_french_faces_are_valet_dame_roi(lang: str) -> None:
    assert [rank_label(r) for r in ("A", "10", "J", "Q", "K")] == ["A", "10", "V", "D", "R"]
    assert card_text("QH") == "D♥" and card_text("10S") == "10♠"


class CardAskingApp(GoFishTableApp):
    """Ana's turn in the card variant (§6); she holds 5♣ and 9♠, keeps the asks sent."""

    def __init__(self) -> None:
        state = stacked_game(
            [["5C", "9S", "2D"], ["5D", "5H", "KC"]], options=Options(variant="card")
        )
        super().__init__(state, 0)
        self.sent: list[dict[str, Any]] = []

    def on_move_chosen(self, event: MoveChosen) -> None:
        self.sent.append(event.action)


@pytest.mark.parametrize(
    ("lang", "hearts", "other"), [("fr", "c", "h"), ("en", "h", "p")], indirect=["lang"]
)
async def test_suit_keys_follow_the_players_language(lang: str, hearts: str, other: str) -> None:
    """§6: the suit key is the suit's initial in the player's language — ``c`` for cœur in
    French (``t`` ``k`` ``c`` ``p``), ``h`` for hearts in English; the prompt lists them."""
    app = CardAskingApp()
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        await pilot.press("5")  # one opponent: the rank key comes first
        await settle(pilot)
        status = str(app.screen.query_one("#gf-status", Static).render())
        assert f"{hearts} ♥" in status, status
        await pilot.press(other)  # the other language's hearts (or a key of neither): nothing
        await settle(pilot)
        assert app.sent == []
        await pilot.press(hearts)
        await settle(pilot)
        assert app.sent == [{"type": "ask_card", "target": 1, "rank": "5", "suit": "H"}]


@pytest.mark.parametrize("lang", ["fr"], indirect=True)
def test_the_results_put_a_space_before_each_colon_in_french(lang: str) -> None:
    """French typography: a (no-break) space before a colon, as in the rest of the app."""
    from gofish_tablekit import snapshot

    from poissonnier_tui.games.gofish.match import GoFishGame
    from poissonnier_tui.games.gofish.ui.screens import results_text

    match = GoFishGame().new_match(4, 2, {})
    for _ in range(500):  # a game ends in far fewer asks
        if match.is_over:
            break
        seat = next(iter(match.waiting_on()))
        match.apply(seat, match.legal_actions(seat)[0])
    assert match.is_over
    text = results_text(snapshot(match.state, 0))
    assert "[/b]\u00a0: " in text and "[/b]: " not in text, text
