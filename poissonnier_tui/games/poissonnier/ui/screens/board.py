"""The table's layout, shared by the live table screen and the replay viewer.

From the top: the queue of clients, this seat's stall (full width: six crates
need the room), then two columns — on the left the hand (as tall as it needs),
the other stalls and the market; on the right the players, the offers and the
log — and a bar and the footer at the bottom.

The layout follows the terminal's size through Textual's responsive
breakpoints (:data:`HORIZONTAL_BREAKPOINTS`, :data:`VERTICAL_BREAKPOINTS`: the
screen gets a class such as ``-w-narrow`` or ``-h-short`` that ``table.tcss``
styles, and gets it again on every resize):

* 160×50 and up: every pane at once, with room to breathe;
* 100×30 to 159×49: the same two columns, panes drawn more tightly;
* 80×24 to 99 columns: one pane beside the hand at a time — offers, log,
  players, other stalls or market — picked in the :class:`PaneBar` (keys
  ``o l p w m``, or a click); the queue, your stall, your hand and your tallies
  stay in sight;
* below 80×24: a notice asking for a larger window (:class:`TooSmall`).

The widget ids (``queue``, ``others``, ``stall``, ``hand``, ``market``,
``players``, ``offers``, ``log``) are what both screens' ``.tcss`` files style.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widget import Widget

from poissonnier_tui.games.poissonnier.ui.widgets.client_queue import ClientQueue
from poissonnier_tui.games.poissonnier.ui.widgets.game_log import GameLog
from poissonnier_tui.games.poissonnier.ui.widgets.market import MarketInfo
from poissonnier_tui.games.poissonnier.ui.widgets.my_stall import MyStall
from poissonnier_tui.games.poissonnier.ui.widgets.offers import OffersList
from poissonnier_tui.games.poissonnier.ui.widgets.other_stalls import OtherStalls
from poissonnier_tui.games.poissonnier.ui.widgets.panes import PaneBar, TooSmall
from poissonnier_tui.games.poissonnier.ui.widgets.players import PlayersTable
from poissonnier_tui.shell.screens.footer import KeyBar
from poissonnier_tui.shell.screens.title_bar import TitleBar

MIN_SIZE: Final = (80, 24)
"""The smallest terminal (columns, rows) the table is laid out for; below it, a notice."""

HORIZONTAL_BREAKPOINTS: Final = [
    (0, "-w-tiny"),
    (MIN_SIZE[0], "-w-narrow"),
    (100, "-w-medium"),
    (160, "-w-wide"),
]
"""Screen classes by terminal width (columns): set on the screen at every resize."""

VERTICAL_BREAKPOINTS: Final = [
    (0, "-h-tiny"),
    (MIN_SIZE[1], "-h-short"),
    (36, "-h-mid"),
    (50, "-h-tall"),
]
"""Screen classes by terminal height (rows): set on the screen at every resize."""


def size_classes(width: int, height: int) -> dict[str, bool]:
    """Every breakpoint class of this module, on or off, for a terminal of ``width``×``height``
    as Textual chooses them (per direction, the class of the largest breakpoint reached)."""
    classes = {name: False for _at, name in HORIZONTAL_BREAKPOINTS + VERTICAL_BREAKPOINTS}
    for size, points in ((width, HORIZONTAL_BREAKPOINTS), (height, VERTICAL_BREAKPOINTS)):
        reached = max((at, name) for at, name in points if size >= at)
        classes[reached[1]] = True
    return classes


def start_sized(screen: Screen[Any]) -> None:
    """Give ``screen`` (a screen of this module's breakpoints, composing its board) its size
    classes now, as Textual does on the screen's first resize.

    Set then, after the first frame, they would restyle every widget of the board (and
    that first frame would be laid out without them); set before the board is composed,
    each widget is styled with them as it mounts. The screen itself is restyled by
    Textual as it shows it (its resume), so they restyle nothing here.
    """
    screen.update_classes(size_classes(*screen.app.size), update=False)


def compose_board(hand: Widget, bar: Widget, *, below_hand: Iterable[Widget] = ()) -> ComposeResult:
    """Yield the table's widgets for a screen's ``compose`` (``yield from compose_board(...)``).

    The screen should set ``HORIZONTAL_BREAKPOINTS``/``VERTICAL_BREAKPOINTS`` to this
    module's lists so that ``table.tcss`` can lay the panes out for the terminal's size.

    Args:
        hand: the hand widget (id ``hand``): the player's own, or the replay's.
        bar: the line above the footer (a status line, or the replay's position).
        below_hand: widgets placed between the hand and the other stalls (the replay's
            every-hand pane).
    """
    yield TitleBar()
    yield TooSmall(MIN_SIZE, id="too-small")
    yield ClientQueue(id="queue")
    yield MyStall(id="stall")
    yield PaneBar(id="panes")
    with Horizontal(id="main"):
        with Vertical(id="board"):
            yield hand
            yield from below_hand
            yield OtherStalls(id="others")
            yield MarketInfo(id="market")
        with Vertical(id="side"):
            yield PlayersTable(id="players")
            yield OffersList(id="offers")
            yield GameLog(id="log")
    yield bar
    yield KeyBar()
