"""The table's first build restyles no widget twice.

Textual styles each widget as it mounts; every CSS class that changes afterwards
styles that widget again (and a class of the screen restyles every widget on
it). A table that opens with its first view should not pay for that: the
client cards and crates start with the classes of their first look and take a
view's changes in one batch, the screen starts with the pane bar's first pane,
and the header's icon is disabled before it is styled. The test counts, per
widget, the restyles Textual makes after mounting it (``App.update_styles``)
while the table screen opens with a game on it.
"""

from __future__ import annotations

from collections import Counter

import pytest
from pilot import until
from tablekit import TableApp, midgame
from textual.dom import DOMNode

from poissonnier_tui.games.poissonnier.ui.screens.board import size_classes
from poissonnier_tui.games.poissonnier.ui.screens.table import TableScreen
from poissonnier_tui.games.poissonnier.ui.widgets.client_card import ClientCard
from poissonnier_tui.games.poissonnier.ui.widgets.crate_box import CrateBox


async def test_the_first_build_restyles_each_widget_once_at_most() -> None:
    app = TableApp(midgame())
    restyled: Counter[DOMNode] = Counter()
    screen_restyles: list[int] = []  # per restyle of the table screen: the nodes it styled
    update_styles = app.update_styles

    def counted(node: DOMNode, animate: bool = True) -> None:
        restyled[node] += 1
        if node is app.table:
            screen_restyles.append(len(list(node.walk_children(with_self=True))))
        update_styles(node, animate=animate)

    app.update_styles = counted  # type: ignore[method-assign]
    async with app.run_test(size=(160, 50)) as pilot:
        await until(pilot, lambda: app.table.is_current and app.table.snapshot is not None)
        for _ in range(4):
            await pilot.pause()
        cards = list(app.table.query(ClientCard))
        crates = list(app.table.query(CrateBox))
        assert len(cards) == 5 and len(crates) == 6
        assert any(card.client_id for card in cards)  # the view did reach the cards
        assert any(crate.state == "owned" for crate in crates)
        # The screen with its board on it is restyled as Textual shows it (its resume) and
        # as the status line marks this player's serving turn (midgame: their turn); its
        # size classes came before the board was composed (the screen alone).
        assert app.table.has_class("-my-turn", "-w-wide", "-h-tall", "-pane-offers")
        whole = [nodes for nodes in screen_restyles if nodes > 1]
        assert len(whole) == 2 and min(whole) > 30, screen_restyles
        assert isinstance(app.table, TableScreen) and "-pane-offers" in app.table.classes
        assert max(restyled[card] for card in cards) <= 1, [restyled[c] for c in cards]
        assert max(restyled[crate] for crate in crates) <= 1, [restyled[c] for c in crates]
        icon = app.table.query_one("HeaderIcon")  # Textual's, in the title bar
        assert icon.disabled and restyled[icon] == 0


@pytest.mark.parametrize("size", [(160, 50), (100, 30), (80, 24), (79, 40)])
async def test_the_size_classes_it_starts_with_are_textuals(size: tuple[int, int]) -> None:
    """The classes the screen composes with are those Textual gives it when it is sized:
    the same, so Textual's changes nothing (no restyle after the first frame)."""
    app = TableApp(midgame())
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: app.table.is_current and app.table.snapshot is not None)
        for _ in range(4):
            await pilot.pause()
        on = {name for name, there in size_classes(*size).items() if there}
        assert len(on) == 2
        every = set(size_classes(*size))
        assert set(app.table.classes) & every == on
