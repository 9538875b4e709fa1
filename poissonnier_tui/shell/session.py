"""What the app is asked to do when it starts: play solo, or join a table.

The CLI builds one of these and hands it to
:class:`~poissonnier_tui.shell.app.PoissonnierApp`. They are plain frozen
dataclasses so that tests and the screenshot script can build them too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from net.turns import BOT_PATIENCE
from poissonnier_tui.games import DEFAULT_GAME

if TYPE_CHECKING:
    from net.drafts import DraftRules
    from poissonnier_tui.hosting.persistence import ResumePlan
    from poissonnier_tui.hosting.tables import TableSettings

Role = Literal["player", "spectator"]
"""How a client sits at a table: with a seat, or watching without one (RULES.md §9)."""


@dataclass(frozen=True, slots=True)
class SoloSession:
    """A solo game against bots on an in-process, unadvertised table server.

    Attributes:
        bots: how many bots sit with the player (1..4, so 2..5 players, RULES.md §1).
        seed: the table's seed (R3); ``None`` draws one at random.
        name: the human player's display name.
        bot_delay: seconds a bot waits before each move, so that people can
            follow what the bots do (0 in tests).
        bot_kinds: the bots' levels (the game's ``GameEntry.bot_kinds``), handed
            out to the bot seats in turn.
        autoplay: let a bot (the first of ``bot_kinds``) play the human seat too
            (through the server, like any move): for demos, screenshots and
            tests that need a finished game.
        game: the game played (a registry name, ``poissonnier_tui.games``).
        options: the game's table options (``GameEntry.options`` names them), ``None``
            for its defaults.
        bot_patience: seconds a bot waits on the player (an answer to its offer)
            before it may withdraw (``net.turns.BOT_PATIENCE``).
        drafts: time to deal (``net.drafts.DraftRules``), ``None`` for its defaults.
    """

    bots: int = 2
    seed: int | None = None
    name: str = "You"
    bot_delay: float = 0.8
    bot_kinds: tuple[str, ...] = ("medium",)
    autoplay: bool = False
    game: str = DEFAULT_GAME
    options: Mapping[str, Any] | None = None
    bot_patience: float = BOT_PATIENCE
    drafts: DraftRules | None = None


@dataclass(frozen=True, slots=True)
class JoinSession:
    """Join a table served elsewhere (on the LAN, or by ``poissonnier host``).

    Attributes:
        host: the server's address.
        port: the server's TCP port.
        name: the display name asked for.
        role: ``"player"`` to take a seat, ``"spectator"`` to watch (RULES.md §9).
        code: the table's join code, if it has one.
        token: a seat token from an earlier connection, to reclaim that seat.
        autoplay: as in :class:`SoloSession`.
        table: the table's name when known (from discovery), for saving the token.
        hosts: every address the table advertised, best first (``net.dial`` tries them
            all); empty: ``host`` alone.
        game: the game the table plays (a registry name; sent in ``hello``).
    """

    host: str
    port: int
    name: str = "You"
    role: Role = "player"
    code: str | None = None
    token: str | None = None
    autoplay: bool = False
    table: str | None = None
    hosts: tuple[str, ...] = ()
    game: str = DEFAULT_GAME


@dataclass(frozen=True, slots=True)
class HostSession:
    """Host a LAN table in this process and play at it from seat 0 (``poissonnier host``).

    Attributes:
        settings: the table (see :class:`poissonnier_tui.hosting.tables.TableSettings`).
        name: the host's display name.
        autoplay: as in :class:`SoloSession`.
        resume: carry on this saved game (``host --resume``): the host takes
            seat 0 back with its logged token.
    """

    settings: TableSettings
    name: str = "You"
    autoplay: bool = False
    resume: ResumePlan | None = None


@dataclass(frozen=True, slots=True)
class BrowseSession:
    """Start in the lobby of tables found on the LAN (``poissonnier join`` with no address).

    Attributes:
        name: the display name to join with.
        role: join as a player or watch.
        code: a join code to offer (the lobby also asks for one).
        interface: IPv4 address to browse on, or ``None`` for all.
        table: join the table of this name as soon as it is found.
    """

    name: str = "You"
    role: Role = "player"
    code: str | None = None
    interface: str | None = None
    table: str | None = None


@dataclass(frozen=True, slots=True)
class HomeSession:
    """Start on the home screen (``poissonnier`` with no arguments): the player picks
    a solo game, a table to host or join, a replay, the rules or the settings.

    Attributes:
        lang: the ``--lang`` given on the command line, if any (it beats the saved
            language when the settings change).
    """

    lang: str | None = None


Session = SoloSession | JoinSession | HostSession | BrowseSession | HomeSession
"""Every way of starting the app."""
