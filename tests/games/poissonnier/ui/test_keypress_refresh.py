"""A keypress that the table answers refreshes only the widgets whose data changed.

The real :class:`PoissonnierApp` joins a table that is the rules engine in
process (a :class:`links.QueueLink` answering each move with ``apply_wire`` then
``view_for``, the frames a server sends). In the fill step (RULES.md §3.2) the
player puts the selected fish in crate 1, then takes them back with ``t`` then
``1``. The test records every widget that asked to be refreshed between the key
and the answer drawn, and checks:

* the screen is never repainted as a whole (a repaint of the screen renders all
  of its 8,000 cells again: the answer's frame would wait for it);
* the widgets refreshed are the ones whose data changed (crate 1, the hand and
  its title, the players' hand counts, the status line, the footer's keys), and
  not the others: the other crates, the queue of clients, the other stalls,
  the market, the offers, the log.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from links import QueueLink
from links import settle as settle_link
from pilot import until
from stacking import stacked_game
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget

from net.messages import Ack, ErrorReply, ServerMessage, View
from poissonnier_tui.games.poissonnier.rules.engine import apply_wire
from poissonnier_tui.games.poissonnier.rules.errors import IllegalAction
from poissonnier_tui.games.poissonnier.rules.state import GameState
from poissonnier_tui.games.poissonnier.rules.view import view_for
from poissonnier_tui.games.poissonnier.ui.screens.table import TableScreen
from poissonnier_tui.games.poissonnier.ui.widgets.crate_box import CrateBox
from poissonnier_tui.games.poissonnier.ui.widgets.hand import HandView
from poissonnier_tui.shell import frames
from poissonnier_tui.shell.app import PoissonnierApp
from poissonnier_tui.shell.session import SoloSession

UNCHANGED = (
    "ClientQueue",
    "ClientCard",
    "OtherStalls",
    "MarketInfo",
    "OffersList",
    "GameLog",
)
"""Widgets whose data a move in one's own crates does not change (R15: the draft is
seen by nobody else, and nothing is logged until everyone is ready)."""


class EngineApp(PoissonnierApp):
    """The real app at a table that is the rules engine in process (seat 0)."""

    def __init__(self, state: GameState) -> None:
        self.table = QueueLink(0, answer=self.answer)
        super().__init__(
            SoloSession(bots=state.players - 1, seed=0, name="Ana", bot_delay=0),
            connect=self.table.connect,
        )
        self.state = state
        self.table.lobby([("Ana", "human")] + [(f"Bot {i}", "bot") for i in range(1, 3)])
        self.table.view(view_for(state, 0))

    def answer(self, seq: int, action: dict[str, Any]) -> list[ServerMessage]:
        """The ack and the new view, or the refusal."""
        try:
            apply_wire(self.state, 0, action)
        except IllegalAction as exc:
            return [ErrorReply(exc.code, exc.sentence, seq, exc.wire_params)]
        self.table.rev += 1
        return [Ack(seq), View(self.table.rev, view_for(self.state, 0))]


@contextmanager
def refreshes() -> Iterator[Counter[str]]:
    """Count ``Widget.refresh`` calls by widget (``Class#id``); the screen as ``SCREEN``,
    only when it is asked to repaint (a layout alone does not render anything)."""
    seen: Counter[str] = Counter()
    real = Widget.refresh

    def counted(self: Widget, *regions: Any, **kwargs: Any) -> Widget:
        if isinstance(self, Screen):
            if kwargs.get("repaint", True) and not regions:
                seen["SCREEN"] += 1
        else:
            seen[f"{type(self).__name__}#{self.id}"] += 1
        return real(self, *regions, **kwargs)

    Widget.refresh = counted  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        Widget.refresh = real  # type: ignore[method-assign]


def names(seen: Counter[str]) -> set[str]:
    """The widget classes that were refreshed."""
    return {key.split("#")[0] for key in seen}


async def settle(pilot: Pilot[None], app: EngineApp) -> None:
    await settle_link(pilot, app.table)


def fill_step() -> EngineApp:
    """The app at 3 players' fill step of turn 1; seat 0 holds T T F M and a glaçon."""
    return EngineApp(stacked_game(3, hands=[["T01", "T02", "F01", "M01", "G01"], None, None]))


async def at_the_table(pilot: Pilot[None], app: EngineApp) -> TableScreen:
    """The table screen, once the hand has its selection (the cursor's whole kind)."""
    await until(pilot, lambda: isinstance(app.screen, TableScreen))
    screen = app.screen
    assert isinstance(screen, TableScreen)
    await until(pilot, lambda: bool(screen.query_one(HandView).selection))
    return screen


async def prompting_take_back(pilot: Pilot[None], app: EngineApp) -> TableScreen:
    """At the table, crate 1 filled, then ``t``: the status line asks which crate."""
    screen = await at_the_table(pilot, app)
    await pilot.press("1")
    await settle(pilot, app)
    await pilot.press("t")
    await settle(pilot, app)
    assert screen.status.prompt is not None and not app.answer_frame.held
    return screen


def frames_drawn(app: EngineApp, screen: TableScreen) -> list[tuple[str | None, str]]:
    """From now on, for each frame the app draws: the status line's prompt and crate 1's
    fish then."""
    drawn: list[tuple[str | None, str]] = []
    display = app._display
    crate = screen.query_one("#crate-1", CrateBox)

    def counted(screen_: Any, update: Any) -> None:
        if update is not None:
            drawn.append((screen.status.prompt, crate.fish))
        display(screen_, update)

    app._display = counted  # type: ignore[method-assign]
    return drawn


async def test_placing_and_taking_back_refresh_only_what_changed() -> None:
    app = fill_step()
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await at_the_table(pilot, app)
        await settle(pilot, app)

        with refreshes() as seen:
            await pilot.press("1")  # the selected fish go into crate 1 (§3.2)
            await settle(pilot, app)
        assert app.snapshot is not None and sorted(app.snapshot.crates[0]) == ["T01", "T02"]
        assert "SCREEN" not in seen
        assert seen["CrateBox#crate-1"] >= 1
        assert not [k for k in seen if k.startswith("CrateBox#") and k != "CrateBox#crate-1"]
        assert "HandView" in names(seen)
        assert not names(seen) & set(UNCHANGED), seen

        with refreshes() as seen:
            await pilot.press("t")  # a prompt in the status line, the keys in the footer
            await settle(pilot, app)
        assert screen.pending == "take"
        assert "SCREEN" not in seen
        assert names(seen) <= {"StatusLine", "KeyBar", "HandView"}, seen

        with refreshes() as seen:
            await pilot.press("1")  # crate 1 goes back to the hand
            await settle(pilot, app)
        assert app.snapshot is not None and app.snapshot.crates[0] == []
        assert screen.pending is None
        assert "SCREEN" not in seen
        assert seen["CrateBox#crate-1"] >= 1
        assert not [k for k in seen if k.startswith("CrateBox#") and k != "CrateBox#crate-1"]
        assert not names(seen) & set(UNCHANGED), seen
        assert screen.query_one("#crate-1", CrateBox).fish == ""


async def test_a_keys_own_change_is_drawn_with_the_tables_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``t`` then ``1``: the prompt's going and the emptied crate are one frame. While the
    table has not answered, nothing is drawn (here the table answers only when the test
    says, and the wait is long); the answer's frame shows both."""
    monkeypatch.setattr(frames, "ANSWER_WAIT", 60.0)
    app = fill_step()
    held: list[list[ServerMessage]] = []
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await prompting_take_back(pilot, app)
        drawn = frames_drawn(app, screen)

        def later(seq: int, action: dict[str, Any]) -> list[ServerMessage]:
            held.append(app.answer(seq, action))  # kept until the test hands it over
            return []

        app.table.answer = later
        await pilot.press("1")
        await until(pilot, lambda: bool(held))
        for _ in range(10):
            await pilot.pause()
        assert screen.status.prompt is None
        assert drawn == []  # the prompt went, but not on the screen yet
        assert app.answer_frame.held
        assert app.snapshot is not None and app.snapshot.crates[0]  # not answered yet

        for msg in held.pop():
            app.table.push(msg)
        await until(pilot, lambda: bool(drawn))
        assert drawn[0] == (None, "")  # one frame: no prompt, crate 1 empty
        assert not app.answer_frame.held
        assert app.snapshot.crates[0] == []


async def test_a_refusal_ends_the_wait_for_an_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """A refused move is an answer too: the drawing goes on at once (the error toast)."""
    monkeypatch.setattr(frames, "ANSWER_WAIT", 60.0)
    app = fill_step()
    async with app.run_test(size=(160, 50)) as pilot:
        await at_the_table(pilot, app)
        app.table.answer = lambda seq, action: [ErrorReply("bad", "Not now.", seq)]
        await pilot.press("1")
        await settle(pilot, app)
        assert app.answer_frame.holds == 1
        assert not app.answer_frame.held
        assert app.last_error is not None and app.last_error.code == "bad"


async def test_no_answer_holds_the_drawing_only_for_a_while(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A table that never answers: the key's own change is drawn all the same once the
    wait is over (the screen is never left frozen)."""
    monkeypatch.setattr(frames, "ANSWER_WAIT", 0.05)
    app = fill_step()
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await prompting_take_back(pilot, app)
        app.table.answer = lambda seq, action: []  # silence
        drawn = frames_drawn(app, screen)
        await pilot.press("1")
        await until(pilot, lambda: app.answer_frame.holds == 2 and not app.answer_frame.held)
        await until(pilot, lambda: bool(drawn))
        assert drawn[0] == (None, "TT")  # the prompt's going, drawn; the crate as it was
        assert app.snapshot is not None and app.snapshot.crates[0]  # no answer: still full
