"""The fish games this app hosts: a registry from a game's name to its parts.

Each game is one package under ``poissonnier_tui/games/<name>/`` holding its
rules (``rules/``: pure, deterministic, importable alone), its bots
(``bots/``), its screens (``ui/``) and its adapter to the table server
(``match.py``, a :class:`net.game.GameDefinition`). Its ``entry.py``
defines ``ENTRY``, a :class:`GameEntry`; this module names the entry modules
and imports one only when it is asked for, so importing a game's rules imports
nothing else. Nothing here imports Textual: a game's screens are loaded only
by the shell, from :attr:`GameEntry.ui`.

To add a game: write its package (see ``docs/ARCHITECTURE.md``), give it an
``entry.py`` with ``ENTRY`` and add it to :data:`ENTRY_MODULES` below.

Usage::

    from poissonnier_tui.games import game_entry

    entry = game_entry("poissonnier")
    table_game = entry.definition           # for net.server.TableServer
    bot = entry.make_bot("medium", seed=7)  # act(view, legal) -> action | None
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Protocol

if TYPE_CHECKING:  # importing a game's rules must not import the network layer
    from net.game import Agent, GameDefinition, Wire


class BotFactory(Protocol):
    """Builds a bot of ``kind`` seeded by ``seed`` (R3: the same seed plays the same game).

    ``budget`` scales a searching bot's work (1.0: the published level); other
    kinds ignore it.

    Raises:
        ValueError: unknown ``kind`` (the message lists the known ones) or a
            budget that is not positive.
    """

    def __call__(self, kind: str, seed: int, *, budget: float = 1.0) -> Agent: ...


@dataclass(frozen=True)
class GameEntry:
    """Everything the app needs to know of one game, without importing its screens.

    Attributes:
        name: short name, e.g. ``"poissonnier"``; advertised in the LAN record
            and checked on hello (the same as ``definition.name``).
        title: the name players read, e.g. ``"Le Poissonnier"``.
        definition: the table server's factory of matches (seat limits, rules
            version, options).
        levels: the bot levels offered to players, weakest first.
        default_level: the level seated when none is asked for.
        bot_kinds: every kind :attr:`make_bot` knows (levels and baselines).
        make_bot: the bot factory.
        legal_from_view: a seat's legal actions computed from its view alone
            (for clients that play a seat far from the server).
        ui: dotted name of the module holding the game's screens, imported
            only by the shell.
        options: the table options the game accepts, name -> default.
        summary: one line saying what the game is, for the home screen, marked
            with ``N_`` (the shell shows it through ``_``); ``""`` if none.
        fallback_from_view: a move always legal while the seat is waited on
            (e.g. ready, decline, end the turn), from its view alone, or ``None``;
            a headless seat plays it when the table keeps refusing its bot's
            moves. ``None`` here: the seat then plays its first legal action.
        tallies: the words for the game's final scores and play counts in the
            arena's reports (their keys, e.g. ``"clients_served"``), marked with
            ``N_`` (reports show them through ``_``); a key missing here is shown
            as it is.
        actions: the words for each action type of the game (the ``"type"`` of its
            wire actions, e.g. ``"end_turn"``), lower case, marked with ``N_``, for
            the replay's line of who did what; a type missing here is shown as it is.
        seat_bot: wraps a bot seated at a table (``hosting/tables.py``), e.g. so it
            gives reasons and quotes (Le Poissonnier: ``haggling.TableBot``); the
            arena's bots are left bare. ``None``: seated as made.
    """

    name: str
    title: str
    definition: GameDefinition
    levels: tuple[str, ...]
    default_level: str
    bot_kinds: tuple[str, ...]
    make_bot: BotFactory
    legal_from_view: Callable[[Mapping[str, Any]], list[Wire]]
    ui: str
    options: Mapping[str, Any]
    summary: str = ""
    fallback_from_view: Callable[[Mapping[str, Any]], Wire | None] | None = None
    tallies: Mapping[str, str] = field(default_factory=dict)
    actions: Mapping[str, str] = field(default_factory=dict)
    seat_bot: Callable[[Agent], Agent] | None = None

    def seated_bot(self, kind: str, seed: int) -> Agent:
        """A bot of ``kind`` seeded by ``seed`` as it plays a seat of a real table (a
        hosted table's or a ``join --bot`` client's): :attr:`make_bot`, then wrapped by
        :attr:`seat_bot`.

        Raises:
            ValueError: an unknown kind for this game.
        """
        agent = self.make_bot(kind, seed)
        return agent if self.seat_bot is None else self.seat_bot(agent)

    @property
    def min_seats(self) -> int:
        """Fewest seats a table of this game may have."""
        return self.definition.min_seats

    @property
    def max_seats(self) -> int:
        """Most seats a table of this game may have."""
        return self.definition.max_seats


ENTRY_MODULES: Final[dict[str, str]] = {
    "poissonnier": "poissonnier_tui.games.poissonnier.entry",
    "gofish": "poissonnier_tui.games.gofish.entry",
}
"""Every registered game's name -> the module defining its ``ENTRY``, the default first."""

GAME_NAMES: Final[tuple[str, ...]] = tuple(ENTRY_MODULES)
"""The registered games' names, e.g. for a CLI ``--game`` choice."""

DEFAULT_GAME: Final = "poissonnier"
"""The game started when none is named."""


def game_entry(name: str) -> GameEntry:
    """The registered game called ``name`` (its entry module is imported on first use).

    Raises:
        ValueError: no such game (the message lists the known ones).
    """
    try:
        module = ENTRY_MODULES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; choose from {', '.join(game_names())}") from None
    entry = importlib.import_module(module).ENTRY
    assert isinstance(entry, GameEntry) and entry.name == name, module
    return entry


def game_names() -> tuple[str, ...]:
    """The registered games' names, the default first, as :data:`ENTRY_MODULES` holds them now
    (a CLI ``--game`` choice, the LAN browser; tests may register a game of their own)."""
    return tuple(ENTRY_MODULES)


def all_games() -> list[GameEntry]:
    """Every registered game's entry, the default first."""
    return [game_entry(name) for name in game_names()]
