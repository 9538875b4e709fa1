"""playing solo, a person sees the bots ask, offer and haggle.

The real app plays a solo game (in-process table over TCP, medium bots, no
bot delay). The human seat is played by the app's autoplay (a medium bot
sending moves through the server like a person's keys), so the game moves
on by itself. Every time the offers pane is rebuilt we keep each open
proposal together with the line the pane shows for it, then check that the
pane showed a bot asking *you* for fish (RULES.md §4: the active player
buys), a bot offering *you* fish unasked when you are the buyer ("anyone may
propose"), and a bot's counter-offer (R8), labelled as such.
"""

from __future__ import annotations

from typing import Any

import pytest
from pilot import until

from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.games.poissonnier.ui.widgets.offers import OffersList
from poissonnier_tui.shell.app import PoissonnierApp
from poissonnier_tui.shell.session import SoloSession

Shown = tuple[dict[str, Any], int, int, str]
"""A proposal map, the active seat, this client's seat, and the pane's line for it."""


async def test_the_offers_pane_shows_bots_asking_offering_and_haggling(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shown: list[Shown] = []
    rebuild = OffersList.watch_snapshot

    def spy(self: OffersList, old: TableSnapshot | None, snap: TableSnapshot | None) -> None:
        rebuild(self, old, snap)
        if snap is None or snap.me is None:
            return
        for proposal in snap.proposals:
            option = self.get_option(str(proposal["id"]))
            shown.append((dict(proposal), snap.active, snap.me, str(option.prompt)))

    monkeypatch.setattr(OffersList, "watch_snapshot", spy)

    def asked(s: Shown) -> bool:  # a bot, the buyer, asks you (the seller) for fish
        p, active, me, _ = s
        return p["proposer"] == active != me and p["seller"] == me

    def offered(s: Shown) -> bool:  # a bot, the seller, offers you (the buyer) fish unasked
        p, active, me, _ = s
        return p["proposer"] == p["seller"] != me and active == me and p["counters"] is None

    def haggled(s: Shown) -> bool:  # a bot answers your offer with a counter-offer
        p, active, me, _ = s
        return p["counters"] is not None and p["proposer"] != me and me in (active, p["seller"])

    session = SoloSession(bots=2, seed=11, bot_delay=0.0, bot_kinds=("medium",), autoplay=True)
    app = PoissonnierApp(session)
    async with app.run_test(size=(160, 50)) as pilot:

        def seen_all_or_over() -> bool:
            over = app.snapshot is not None and app.snapshot.over
            return over or all(any(map(kind, shown)) for kind in (asked, offered, haggled))

        await until(pilot, seen_all_or_over, 120)
        await pilot.pause(0.5)
    ask = next(filter(asked, shown))
    offer = next(filter(offered, shown))
    counter = next(filter(haggled, shown))
    assert "asks [b]you[/b] for" in ask[3] and "paying" in ask[3]
    assert "offers [b]you[/b]" in offer[3] and " for " in offer[3]
    assert f"counter to #{counter[0]['counters']}" in counter[3]
    # The bots are named with their level (seats 2 and 3 as people count them).
    assert f"[b]Bot {ask[1] + 1} · medium[/b] asks" in ask[3]
    assert f"[b]Bot {offer[0]['seller'] + 1} · medium[/b] offers" in offer[3]
