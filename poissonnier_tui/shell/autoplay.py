"""Autoplay: one of the game's bots plays this client's seat, through the server.

For demos, screenshots and tests that need whole games. The shell decides
*when* to move (at most one move per view revision, none while a move is in
flight); the game's UI decides *what* (:meth:`GameUI.autoplay_move` with the
bot, and :meth:`GameUI.fallback_move` when the server refused the bot's move,
e.g. after a race with another seat). No Textual here.
"""

from __future__ import annotations

import logging
from typing import Any

from net.game import Agent, Wire
from poissonnier_tui.shell.game_ui import GameSnapshot, GameUI

log = logging.getLogger(__name__)


class Autoplay:
    """Plays one seat with ``bot`` through the game's UI.

    Args:
        ui: the game's screens (they know its moves).
        bot: the bot, built from the game's registry entry (``GameEntry.make_bot``).
    """

    def __init__(self, ui: GameUI[Any], bot: Agent) -> None:
        self.ui = ui
        self.bot = bot
        self.busy = False
        """A move is in flight (sent, not yet acknowledged or refused)."""
        self._rev = -1

    def step(self, snap: GameSnapshot) -> Wire | None:
        """The move to send now for ``snap``, or ``None`` (in flight, already moved at this
        revision, or the game waits for someone else). A returned move is in flight."""
        if self.busy or snap.rev == self._rev:
            return None
        move = self.ui.autoplay_move(self.bot, snap)
        if move is None:
            return None
        self._rev = snap.rev
        self.busy = True
        return move

    def acked(self) -> None:
        """The server accepted our move."""
        self.busy = False

    def refused(self, snap: GameSnapshot, action: Wire | None, why: str) -> Wire | None:
        """The server refused ``action`` (``why``): the safe move to send instead, if any.

        The bot misjudged from its partial view or lost a race with another seat;
        nobody needs a toast for that.
        """
        log.info("Autoplay move %r refused: %s", action, why)
        move = self.ui.fallback_move(snap)
        if move is None or move == action:
            self.busy = False
            return None
        return move
