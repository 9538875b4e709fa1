"""The table's layout, shared by the live table screen and the replay viewer.

Queue on top; on the left the other stalls, this seat's stall, a hand widget
(and whatever the caller adds below it) and the market; on the right the
players, the offers and the log; a bar and the footer below. The widget ids
(``queue``, ``others``, ``stall``, ``hand``, ``market``, ``players``,
``offers``, ``log``) are what both screens' ``.tcss`` files style.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Footer, Header

from poissonnier_tui.games.poissonnier.ui.widgets.client_queue import ClientQueue
from poissonnier_tui.games.poissonnier.ui.widgets.game_log import GameLog
from poissonnier_tui.games.poissonnier.ui.widgets.market import MarketInfo
from poissonnier_tui.games.poissonnier.ui.widgets.my_stall import MyStall
from poissonnier_tui.games.poissonnier.ui.widgets.offers import OffersList
from poissonnier_tui.games.poissonnier.ui.widgets.other_stalls import OtherStalls
from poissonnier_tui.games.poissonnier.ui.widgets.players import PlayersTable


def compose_board(hand: Widget, bar: Widget, *, below_hand: Iterable[Widget] = ()) -> ComposeResult:
    """Yield the table's widgets for a screen's ``compose`` (``yield from compose_board(...)``).

    Args:
        hand: the hand widget (id ``hand``): the player's own, or the replay's.
        bar: the line above the footer (a status line, or the replay's position).
        below_hand: widgets placed between the hand and the market (the replay's
            every-hand pane).
    """
    yield Header()
    yield ClientQueue(id="queue")
    with Horizontal(id="main"):
        with Vertical(id="board"):
            yield OtherStalls(id="others")
            yield MyStall(id="stall")
            yield hand
            yield from below_hand
            yield MarketInfo(id="market")
        with Vertical(id="side"):
            yield PlayersTable(id="players")
            yield OffersList(id="offers")
            yield GameLog(id="log")
    yield bar
    yield Footer()
