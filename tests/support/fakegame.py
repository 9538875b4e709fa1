"""A second game for shell tests, "fakefish": a registry entry and a UI module in one.

Register it with ``monkeypatch.setitem(poissonnier_tui.games.ENTRY_MODULES,
"fakefish", "fakegame")``. Its view is ``{"seat", "players", "taps", "over"}``;
its one action ``{"type": "tap"}`` adds one tap, and the game is over at
:data:`TAPS_TO_WIN`. The shell must show its screens only through
:data:`GAME_UI` (``poissonnier_tui.shell.game_ui.GameUI``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

from net.game import ActionRejected, Agent, Wire
from poissonnier_tui.games import GameEntry
from poissonnier_tui.shell.messages import MoveChosen
from poissonnier_tui.shell.seats import SeatLabel

NAME = "fakefish"
TAPS_TO_WIN = 3
TAP: Wire = {"type": "tap"}


@dataclass(frozen=True)
class FakeSnapshot:
    """The fake game's snapshot (it satisfies ``GameSnapshot``)."""

    view: Mapping[str, Any]
    seats: tuple[SeatLabel, ...]
    rev: int

    @property
    def me(self) -> int | None:
        seat = self.view.get("seat")
        return seat if isinstance(seat, int) else None

    @property
    def over(self) -> bool:
        return bool(self.view["over"])


class FakeTable(Screen[None]):
    """Shows the taps; ``t`` taps."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("t", "tap", "Tap")]

    def __init__(self, snapshot: FakeSnapshot) -> None:
        super().__init__()
        self.snapshot = snapshot

    def compose(self) -> ComposeResult:
        yield Static(self.text(), id="taps")

    def text(self) -> str:
        names = ", ".join(label.name for label in self.snapshot.seats)
        return f"{self.snapshot.view['taps']} taps at {names}"

    def show(self, snapshot: FakeSnapshot) -> None:
        self.snapshot = snapshot
        if self.is_mounted:
            self.query_one("#taps", Static).update(self.text())

    def action_tap(self) -> None:
        self.post_message(MoveChosen(dict(TAP)))


class FakeResults(Screen[None]):
    """The end of a fake game."""

    def __init__(self, snapshot: FakeSnapshot) -> None:
        super().__init__()
        self.snapshot = snapshot

    def compose(self) -> ComposeResult:
        yield Static(f"Over after {self.snapshot.view['taps']} taps")


class FakeUI:
    """The fake game's ``GameUI``."""

    name = NAME
    title = "Fake Fish"
    help_asked: ClassVar[list[str]] = []

    def read(
        self,
        view: Mapping[str, Any],
        seats: tuple[SeatLabel, ...],
        rev: int,
        deadline: float | None = None,
    ) -> FakeSnapshot:
        return FakeSnapshot(view, seats, rev)

    def table_screen(self, snapshot: FakeSnapshot, *, bot_plays: bool = False) -> Screen[None]:
        return FakeTable(snapshot)

    def show(self, screen: Screen[None], snapshot: FakeSnapshot) -> None:
        assert isinstance(screen, FakeTable)
        screen.show(snapshot)

    def results_screen(self, snapshot: FakeSnapshot) -> Screen[None]:
        return FakeResults(snapshot)

    def replay_screen(self, replay: Any, *, start: int = 0) -> Screen[None]:
        raise NotImplementedError("fakefish keeps no logs")

    def help(self, lang: str = "en") -> str:
        self.help_asked.append(lang)
        return "# Fake Fish\n\nTap **t** three times."

    def autoplay_move(self, bot: Agent, snapshot: FakeSnapshot) -> Wire | None:
        if snapshot.me is None or snapshot.over:
            return None
        return bot.act(dict(snapshot.view), [dict(TAP)])

    def fallback_move(self, snapshot: FakeSnapshot) -> Wire | None:
        return None if snapshot.over else dict(TAP)


GAME_UI = FakeUI()


def view(seat: int | None, taps: int, players: int = 2) -> Wire:
    """The fake game's view for ``seat`` after ``taps`` taps."""
    return {"seat": seat, "players": players, "taps": taps, "over": taps >= TAPS_TO_WIN}


class FakeMatch:
    """A fake match for the table server (``net.game.Match``): anyone taps."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.taps = 0

    def apply(self, seat: int, action: Mapping[str, Any]) -> None:
        if dict(action) != TAP or self.is_over:
            raise ActionRejected("bad_action", "Only taps, and only until the third.")
        self.taps += 1

    def view(self, seat: int | None) -> Wire:
        return view(seat, self.taps, self.seats)

    def legal_actions(self, seat: int) -> list[Wire]:
        return [] if self.is_over else [dict(TAP)]

    def waiting_on(self) -> frozenset[int]:
        return frozenset() if self.is_over else frozenset(range(self.seats))

    def volunteers(self) -> frozenset[int]:
        return frozenset()

    def timeout_action(self, seat: int) -> Wire | None:
        return None

    @property
    def is_over(self) -> bool:
        return self.taps >= TAPS_TO_WIN

    def result(self) -> Wire | None:
        return {"taps": self.taps} if self.is_over else None


class FakeGame:
    """The fake game's definition (``net.game.GameDefinition``)."""

    name = NAME
    rules_version = "1"
    app_version = "test"
    min_seats = 2
    max_seats = 3

    def new_match(self, seed: int, seats: int, options: Mapping[str, Any]) -> FakeMatch:
        return FakeMatch(seats)


class TapBot:
    """Always taps."""

    def act(self, view: Mapping[str, Any], legal: list[Wire]) -> Wire | None:
        return legal[0] if legal else None


def make_bot(kind: str, seed: int, *, budget: float = 1.0) -> TapBot:
    if kind != "tapper":
        raise ValueError(f"unknown bot kind {kind!r}; choose from tapper")
    return TapBot()


ENTRY = GameEntry(
    name=NAME,
    title="Fake Fish",
    definition=FakeGame(),  # type: ignore[arg-type]
    levels=("tapper",),
    default_level="tapper",
    bot_kinds=("tapper",),
    make_bot=make_bot,  # type: ignore[arg-type]
    legal_from_view=lambda v: [] if v["over"] else [dict(TAP)],
    ui=__name__,
    options={},
)
