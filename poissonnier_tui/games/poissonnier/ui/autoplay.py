"""Let a bot play this client's seat, through the server (``autoplay``).

For demos, the screenshot script and end-to-end tests that need a whole game.
The bot is one of the project's own (``poissonnier_tui.games.poissonnier.bots``,
made by the shell from the game's registry entry), but it runs *in the
client*: it sees only this seat's view (RULES.md §9), and every move it picks
goes to the server as an ordinary action, so the game is exactly as real as
one played by hand.

A bot also wants the seat's legal actions, which the client computes
exactly from its own view (``game.determinize.legal_from_view``). If the
server still refuses a move (a race with another seat), the shell falls back on
:func:`fallback_move`, which is always legal when the seat is waited on.
"""

from __future__ import annotations

from net.game import Agent, Wire
from poissonnier_tui.games.poissonnier.reader import fallback_from_view
from poissonnier_tui.games.poissonnier.rules.determinize import legal_from_view
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot


def fallback_move(snap: TableSnapshot) -> Wire | None:
    """A move that is always legal when this seat is waited on: ready, decline, end turn
    (:func:`~poissonnier_tui.games.poissonnier.reader.fallback_from_view`)."""
    return fallback_from_view(snap.view)


def autoplay_move(bot: Agent, snap: TableSnapshot) -> Wire | None:
    """``bot``'s move for this seat's view, or ``None`` when the game waits for someone else.

    The bot gets the view and the seat's legal actions computed from it
    (``rules.determinize.legal_from_view``): nothing more (RULES.md §9).
    """
    me = snap.me
    if me is None or snap.over or me not in snap.waiting_on:
        return None
    move = bot.act(dict(snap.view), legal_from_view(snap.view))
    if move is None and snap.waiting_on == [me]:
        # Nobody else will move: don't let the table wait forever on a passing bot.
        return fallback_move(snap)
    return move
