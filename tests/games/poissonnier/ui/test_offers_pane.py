"""The offers pane (widgets/offers.py): threads, folded settled talks, countdowns, no toasts.

The table shows :func:`haggled`, a stacked deck (tablekit's midgame) where Ana
(seat 0, active) haggled with Bot 1 over its T — #1 its offer, #2 her counter
at 1 coin, declined with a reason and a price, #3 her new offer, #4 Bot 1's
counter at 2 coins, open for her to answer — and asked Bot 4 for an F (#5),
which it declined: settled. The pane's clock is fixed, so the countdown of #4
reads the same in every run.
"""

from __future__ import annotations

from typing import Any

import pytest
from tablekit import TableApp, midgame
from textual.content import Content
from textual.pilot import Pilot

from poissonnier_tui.games.poissonnier.rules.actions import Decline, Propose, to_wire
from poissonnier_tui.games.poissonnier.rules.engine import apply_wire
from poissonnier_tui.games.poissonnier.rules.state import GameState
from poissonnier_tui.games.poissonnier.ui.threads import negotiations
from poissonnier_tui.games.poissonnier.ui.widgets.offers import OffersList

NOW = 1000.0
"""The pane's fixed clock."""
DUE = {4: NOW + 14.2}
"""When the table withdraws offer #4 (R25), on that clock: 15 s left."""


def haggled() -> GameState:
    """See the module docstring. The decline of #2 carries a ``reason`` and a ``price``
    (optional fields of a decline event, filled by the bots that give reasons)."""
    state = midgame()  # #1: Bot 1 offers Ana its T for 2 coins
    apply_wire(state, 0, to_wire(Propose(seller=1, fish=((0, 1),), coins=1, counter=1)))  # #2
    apply_wire(state, 1, to_wire(Decline(2)))
    state.log[-1].update(reason="1 coin is too little", price=2)
    apply_wire(state, 0, to_wire(Propose(seller=1, fish=((0, 1),), coins=1)))  # #3
    apply_wire(state, 1, to_wire(Propose(seller=1, fish=((0, 1),), coins=2, counter=3)))  # #4
    apply_wire(state, 0, to_wire(Propose(seller=2, fish=((0, 1),), coins=1)))  # #5
    apply_wire(state, 2, to_wire(Decline(5)))
    return state


def timed(app: TableApp) -> None:
    """Fix the pane's clock and hand the screen #4's deadline, as the app does."""
    app.table.offers.clock = lambda: NOW
    app.table.show_answer_times(dict(DUE))


async def settle(pilot: Pilot[None]) -> None:
    timed(pilot.app)  # type: ignore[arg-type]
    await pilot.pause()
    await pilot.pause()


def shown(pane: OffersList) -> list[str]:
    """Each option of the pane as plain text."""
    return [Content.from_markup(str(o.prompt)).plain for o in pane.options]


def test_negotiations_follow_each_seller_through_counters_declines_and_reasons() -> None:
    from poissonnier_tui.games.poissonnier.rules.view import view_for

    talks = negotiations(view_for(haggled(), 0))
    assert [t.seller for t in talks] == [1, 2]
    bot1, bot4 = talks
    assert [(s.kind, s.offer) for s in bot1.steps] == [
        ("offer", 1), ("offer", 2), ("decline", 2), ("offer", 3), ("offer", 4),
    ]  # fmt: skip
    assert (bot1.open, bot1.settled, bot4.open, bot4.settled) == ([4], False, [], True)
    declined = bot1.steps[2]
    assert (declined.seat, declined.reason, declined.price) == (1, "1 coin is too little", 2)
    assert (bot1.steps[1].counter, bot1.steps[4].counter, bot1.steps[4].coins) == (1, 3, 2)
    assert [s.offer for s in bot1.thread_of(3)] == [1, 2, 2, 3]


async def test_the_pane_threads_an_open_offer_folds_the_settled_and_counts_down() -> None:
    app = TableApp(haggled())
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        pane = app.table.offers
        first, folded = shown(pane)
        head, thread, todo = first.split("\n")
        assert head.startswith("▶ #4 counter to #3 ·") and head.endswith("⏱ 15 s")
        assert thread.strip() == (
            "… → #2 You 1 coin → ✗ Bot 1 · hard declined: 1 coin is too little, would take"
            " 2 coins → #3 You 1 coin → #4 Bot 1 · hard 2 coins"
        )
        assert todo.strip() == "for you: a accept · x decline · c counter"
        assert folded.split("\n")[1].strip() == (
            "You ↔ Bot 4 · medium: ✗ Bot 4 · medium declined (1 offer)"
        )
        assert pane.left(4) == 15 and pane.left(5) is None
        pane.clock = lambda: NOW + 11.5  # time passes: the countdown follows, in warning
        pane._tick()
        assert shown(pane)[0].split("\n")[0].endswith("⏱ 3 s")
        assert not app.toasted  # offers never toast


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_offers_pane_thread(snap_compare: Any, size: tuple[int, int]) -> None:
    """At 80×24 ``o`` puts the offers beside the hand; from 100×30 they are always shown."""
    press = ["o"] if size == (80, 24) else []
    assert snap_compare(TableApp(haggled()), terminal_size=size, press=press, run_before=settle)
