"""Go Fish's view reader (ui/reader.py) and its entry in the registry (entry.py)."""

from __future__ import annotations

import pytest
from gofish_stacking import stacked_game
from gofish_tablekit import SEATS, snapshot, stacked_midgame

from poissonnier_tui.games import game_entry, game_names
from poissonnier_tui.games.gofish.bots.memory import Memory
from poissonnier_tui.games.gofish.rules.actions import to_wire
from poissonnier_tui.games.gofish.rules.engine import legal_actions
from poissonnier_tui.games.gofish.rules.state import Options
from poissonnier_tui.games.gofish.rules.view import view_for
from poissonnier_tui.games.gofish.ui import GAME_UI
from poissonnier_tui.games.gofish.ui.reader import GoFishSnapshot
from poissonnier_tui.shell.game_ui import load_game_ui


def test_hand_grouped_by_rank_and_what_the_asks_prove() -> None:
    state = stacked_midgame()
    ana = snapshot(state, 0)
    assert ana.me == 0 and ana.active == 2 and not ana.my_turn
    assert ana.hand_by_rank() == [
        ("2", ["2D"]), ("7", ["7C", "7D", "7H"]), ("9", ["9S"]), ("Q", ["QH"]), ("K", ["KC"]),
    ]  # fmt: skip
    assert [ana.hand_size(s) for s in range(4)] == [7, 3, 3, 5]
    assert ana.books(1) == ["5"] and ana.stock == 30
    # Ben asked for 3s and was handed one: he holds 3s; Ana asked for 7s and Qs.
    assert ana.known_ranks(1) == ["3"]
    assert ana.known_ranks(0) == ["7", "Q"]
    assert ana.known_ranks(2) == []
    # The screens read the same memory the bots do.
    assert ana.memory.lo == Memory.from_view(ana.view).lo


def test_asks_log_sentences_from_each_point_of_view() -> None:
    state = stacked_midgame()
    assert snapshot(state, 0).log_lines() == [
        "The cards are dealt.",
        "You asked Ben for 7s: 2 handed over.",
        "You asked Dom for Qs: Go fish!",
        "Ben asked Cleo for 5s: 1 handed over.",
        "Ben laid down a book of 5s.",
        "Ben asked you for 3s: 1 handed over.",
        "Ben asked Dom for 3s: Go fish!",
    ]
    public = snapshot(state, None)
    assert public.me is None and public.hand == [] and public.legal == []
    assert public.log_lines(2) == ["Ben asked Ana for 3s: 1 handed over.",
                                   "Ben asked Dom for 3s: Go fish!"]  # fmt: skip


def test_the_drawer_alone_reads_which_card_it_fished() -> None:
    """§8: after "Go fish!" Ben drew 8♣ unseen: his log says so, nobody else's names
    it, and a view names no drawn card once it left the hand (Ana's 3♦, handed over)."""
    state = stacked_midgame()
    ben = snapshot(state, 1)
    assert ben.log_lines(2) == ["You asked Dom for 3s: Go fish!", "You drew 8♣."]
    last_draw = max(i for i, e in enumerate(state.log) if e["t"] == "draw")
    assert view_for(state, 1)["me"]["drawn"] == [[last_draw, "8C"]]
    for seat in (0, 2, 3, None):
        lines = snapshot(state, seat).log_lines()
        assert not [line for line in lines if "drew" in line or "8♣" in line], (seat, lines)
    assert view_for(state, 0)["me"]["drawn"] == []  # 3♦ went to Ben


def test_legal_asks_are_the_engines() -> None:
    state = stacked_midgame()
    cleo = snapshot(state, 2)
    assert cleo.my_turn
    assert cleo.legal == [to_wire(a) for a in legal_actions(state, 2)]
    assert {a["rank"] for a in cleo.legal} == {"A", "J"}


def test_card_variant_and_a_shown_draw_read_as_sentences() -> None:
    state = stacked_game(
        [["QH", "2D"], ["7D", "3C"]], stock_top=["QS"], options=Options(variant="card")
    )
    from poissonnier_tui.games.gofish.rules.actions import AskCard
    from poissonnier_tui.games.gofish.rules.engine import apply

    apply(state, 0, AskCard(1, "Q", "S"))  # Go fish, and the very card asked is drawn
    snap = GAME_UI.read(view_for(state, 0), SEATS[:2], 1)
    assert snap.card_variant
    assert snap.log_lines()[-2:] == [
        "You asked Ben for Q♠: Go fish!",
        "You fished the card asked for, Q♠: another ask.",
    ]


def test_a_view_of_another_game_is_refused() -> None:
    with pytest.raises(ValueError, match="not a Go Fish view"):
        GoFishSnapshot({"game": "poissonnier", "players": 2})
    with pytest.raises(KeyError):
        GoFishSnapshot({"game": "gofish"})


def test_registry_entry() -> None:
    entry = game_entry("gofish")
    assert "gofish" in game_names()
    assert (entry.min_seats, entry.max_seats) == (2, 6)
    assert entry.levels == ("easy", "medium", "hard") and entry.default_level in entry.levels
    assert dict(entry.options) == {"variant": "rank", "bluff": False, "play_on": False}
    assert load_game_ui("gofish") is GAME_UI
    state = stacked_midgame()
    assert entry.fallback_from_view is not None
    assert entry.fallback_from_view(view_for(state, 2)) == to_wire(legal_actions(state, 2)[0])
    assert entry.fallback_from_view(view_for(state, 0)) is None  # not Ana's turn
    match = entry.definition.new_match(1, 3, {"variant": "card"})
    assert match.view(0)["options"]["variant"] == "card"
    assert "# Go Fish" in GAME_UI.help("en") and "Touches" in GAME_UI.help("fr")
