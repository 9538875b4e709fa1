"""Keys at the table act on what the screen showed when they were pressed.

The table screen runs on a stacked game played by the rules engine in process
(:mod:`tablekit`): no server, no clock.
"""

from __future__ import annotations

from tablekit import TableApp, midgame

from poissonnier_tui.games.poissonnier.rules.actions import Propose, to_wire
from poissonnier_tui.games.poissonnier.ui.widgets.status_line import StatusLine


async def test_an_offer_arriving_just_before_a_key_does_not_take_the_answer() -> None:
    """§4: Ana is shown Bot 1's offer; Bot 4's arrives a moment before she presses x:
    x declines the offer she was shown, the newer one stays open, and only then does
    the status line move on to it."""
    app = TableApp(midgame())
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        (shown,) = [int(p["id"]) for p in app.table.snapshot.offers_for_me()]  # type: ignore[union-attr]
        assert app.table.query_one(StatusLine).offer == shown
        app.other(2, to_wire(Propose(seller=2, fish=((0, 1),), coins=1)))  # Bot 4 offers
        await pilot.pause()
        snap = app.table.snapshot
        assert snap is not None and len(snap.offers_for_me()) == 2
        newer = int(snap.offers_for_me()[-1]["id"])
        assert app.table.query_one(StatusLine).offer == shown  # still the one she saw
        await pilot.press("x")
        await pilot.pause()
        assert app.moves[-1] == {"type": "decline", "proposal": shown}
        snap = app.table.snapshot
        assert snap is not None and [int(p["id"]) for p in snap.offers_for_me()] == [newer]
        assert app.table.query_one(StatusLine).offer == newer
