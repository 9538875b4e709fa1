"""The game-screen interface: everything the shell asks of a game's screens.

The shell (the app, the replay viewer) is game-agnostic. It never imports a
game's package: it looks the game up in the registry
(:func:`poissonnier_tui.games.game_entry`), imports the module named by
:attr:`~poissonnier_tui.games.GameEntry.ui` and takes its :data:`UI_ATTRIBUTE`
(``GAME_UI``), an object satisfying :class:`GameUI`. Through it the shell
reads each view into the game's snapshot, builds the table, results and
replay screens, shows the game's help, and lets a bot play the seat
(autoplay).

A game's snapshot type is its own (``S``); the shell only needs the few
facts of :class:`GameSnapshot`. Usage::

    ui = load_game_ui(link.game)             # GameUI of that game (default: the registry's)
    snap = ui.read(view, seats, rev)         # the game's snapshot of this view
    screen = ui.table_screen(snap, bot_plays=False)
    app.push_screen(screen)
    ui.show(screen, newer_snap)              # each later view
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar

from net.game import Agent, Wire
from poissonnier_tui.games import DEFAULT_GAME, game_entry
from poissonnier_tui.i18n import _
from poissonnier_tui.shell.seats import SeatLabel

if TYPE_CHECKING:
    from textual.screen import Screen

    from poissonnier_tui.hosting.replay import Replay

UI_ATTRIBUTE: Final = "GAME_UI"
"""The name of the :class:`GameUI` object in a game's UI module."""


class GameSnapshot(Protocol):
    """What the shell reads of a game's snapshot (the game's view plus the lobby's seats).

    Attributes:
        view: the view map the server sent (shape: the game's ``rules/view.py``).
        seats: one label per seat, from the latest ``lobby`` frame.
        rev: the view's revision (0 at the start, +1 per accepted action).
        me: this client's seat, ``None`` for a spectator.
        over: the game has ended and the view carries its result.
    """

    @property
    def view(self) -> Mapping[str, Any]: ...

    @property
    def seats(self) -> tuple[SeatLabel, ...]: ...

    @property
    def rev(self) -> int: ...

    @property
    def me(self) -> int | None: ...

    @property
    def over(self) -> bool: ...


S = TypeVar("S", bound=GameSnapshot)


class GameUI(Protocol[S]):
    """A game's screens as the shell drives them; ``S`` is the game's snapshot type.

    Attributes:
        name: the game's registry name (``GameEntry.name``).
        title: the name players read (shown on the connecting screen).

    Optional (read with ``getattr``): ``table_css``, the paths of the table screen's
    stylesheets (its ``CSS_PATH``, absolute), which the app loads when it starts for a
    table of this game (:func:`stylesheets_ahead`): Textual reads every stylesheet again
    whenever a screen brings one it has not seen, so the table would otherwise cost a
    second reading of them all as it first shows.
    """

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    def read(
        self,
        view: Mapping[str, Any],
        seats: tuple[SeatLabel, ...],
        rev: int,
        deadline: float | None = None,
    ) -> S:
        """The game's snapshot of ``view`` with the lobby's ``seats``; ``deadline``: this
        machine's ``time.monotonic()`` at which the table's time limit for the step
        runs out (R6), ``None`` when none runs.

        Raises:
            KeyError, ValueError: ``view`` is not a view of this game.
        """
        ...

    def table_screen(self, snapshot: S, *, bot_plays: bool = False) -> Screen[None]:
        """A new table screen showing ``snapshot``; ``bot_plays``: a bot plays this seat
        (autoplay), so the screen need not alert a person to what awaits them."""
        ...

    def show(self, screen: Screen[None], snapshot: S) -> None:
        """Hand a newer ``snapshot`` to a screen made by :meth:`table_screen`."""
        ...

    def results_screen(self, snapshot: S) -> Screen[None]:
        """The results of a finished game (``snapshot.over`` is true)."""
        ...

    def replay_screen(self, replay: Replay, *, start: int = 0) -> Screen[None]:
        """The read-only replay of a logged game of this game, opened at step ``start``."""
        ...

    def help(self, lang: str = "en") -> str:
        """The game's help as Markdown (its rules in short and its keys) in language
        ``lang`` (``"en"``, ``"fr"``); English when there is none in that language."""
        ...

    def autoplay_move(self, bot: Agent, snapshot: S) -> Wire | None:
        """The move ``bot`` makes for this client's seat, or ``None`` when the game waits
        for someone else. The bot gets this seat's view and its legal actions only."""
        ...

    def fallback_move(self, snapshot: S) -> Wire | None:
        """A move that is always legal while this seat is waited on (ready, decline, end
        the turn…), for when the server refused the bot's; ``None`` if there is none."""
        ...


def load_game_ui(game: str | None = None) -> GameUI[Any]:
    """The :class:`GameUI` of the registered game ``game`` (``None``: the default game).

    Imports the module named by the game's ``GameEntry.ui`` on first use.

    Raises:
        ValueError: no such game, or its UI module has no :data:`UI_ATTRIBUTE`.
    """
    entry = game_entry(game or DEFAULT_GAME)
    module = importlib.import_module(entry.ui)
    ui: GameUI[Any] | None = getattr(module, UI_ATTRIBUTE, None)
    if ui is None:
        raise ValueError(
            _("{module} has no {attribute}: the game {game} has no screens").format(
                module=entry.ui, attribute=UI_ATTRIBUTE, game=repr(entry.name)
            )
        )
    return ui


def screen_css(screen: type[Screen[Any]]) -> list[Path]:
    """The stylesheets of a screen class (its ``CSS_PATH``), resolved as Textual resolves
    them (next to the class's module), so that Textual knows them again."""
    css = screen.CSS_PATH
    paths = [] if css is None else [css] if isinstance(css, str | PurePath) else list(css)
    base = Path(inspect.getfile(screen)).parent
    return [(base / path).resolve() for path in paths]


def stylesheets_ahead(game: str | None, first: Sequence[Path] = ()) -> list[Path]:
    """The stylesheets an app opening a table of ``game`` will need: ``first`` (those of
    the screens it shows before the table), then the game's table screen's (``table_css``).

    An app that loads them as it starts (its ``css_path``) reads all its styles once;
    loaded as each screen first shows, Textual reads them all again each time. The
    game's paths are resolved as Textual resolves a screen's ``CSS_PATH``. An unknown
    game adds none of its own (joining it fails later, with the reason).
    """
    try:
        ui = load_game_ui(game)
    except ValueError:
        ui = None
    table: Sequence[Path] = getattr(ui, "table_css", ())
    return [*first, *(Path(p).resolve() for p in table)]
