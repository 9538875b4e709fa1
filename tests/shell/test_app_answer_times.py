"""Time to answer in the real app (net/answers.py, RULES.md R25): an offer to a person.

Ana plays in the app, joined over TCP to a two-player table in its serve step
(``haggling.market``); Bob, a plain client, offers her a fish (§4: anyone may
offer the active player). Ana's offers pane counts the offer down from the
deadline her view carried, the same deadline Bob's view carried, and at zero
the table withdraws it: the pane and the log say so.
"""

from __future__ import annotations

import re
import time

from haggling import TOKENS, bobs_fish, market
from pilot import until

from net.client import TableClient
from net.drafts import DraftRules
from net.messages import View
from poissonnier_tui import __version__
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.games.poissonnier.ui.widgets.offers import OffersList
from poissonnier_tui.shell.app import PoissonnierApp
from poissonnier_tui.shell.session import JoinSession

ANSWER = 4.0
"""The table's time to answer, in seconds: a countdown of several whole seconds."""
AGREE = 0.5
"""Seconds two screens' deadlines may differ by (views reach the app through its queue)."""


async def test_an_offer_to_a_person_counts_down_on_their_screen_and_is_withdrawn_at_zero() -> None:
    server = market(DraftRules(answer_seconds=ANSWER))
    async with server:
        name, token = TOKENS[0]
        app = PoissonnierApp(
            JoinSession("127.0.0.1", server.port, name=name, token=token, game="poissonnier")
        )
        async with app.run_test(size=(160, 50)) as pilot:
            await until(pilot, lambda: app.snapshot is not None and app._table is not None)
            bob = await TableClient.connect(
                "127.0.0.1", server.port, name="Bob", app_version=__version__,
                game="poissonnier", token=TOKENS[1][1],
            )  # fmt: skip
            snap = app.snapshot
            assert isinstance(snap, TableSnapshot) and snap.me == 0 and snap.active == 0
            await bob.send_action(bobs_fish(snap.view, coins=1))
            bobs_due: list[float] = []
            async for msg in bob.messages():  # Bob's own view of his offer and its time
                if isinstance(msg, View) and msg.answers_in_ms:
                    bobs_due.append(time.monotonic() + msg.answers_in_ms[0][1] / 1000)
                    offer = msg.answers_in_ms[0][0]
                    break
            assert app._table is not None
            pane = app._table.query_one(OffersList)
            await until(pilot, lambda: pane.left(offer) is not None)
            assert abs(app.answer_due[offer] - bobs_due[0]) < AGREE  # the same deadline
            first = pane.left(offer)
            assert first is not None and 0 < first <= ANSWER
            prompt = str(pane.get_option(str(offer)).prompt)
            assert f"⏱ {first} s" in prompt and "for you" in prompt

            def shown() -> int | None:
                """The seconds the pane shows for the offer now (``None``: not shown)."""
                if str(offer) not in [o.id for o in pane.options]:
                    return None
                found = re.search(r"⏱ (\d+) s", str(pane.get_option(str(offer)).prompt))
                return int(found.group(1)) if found else None

            assert shown() == first
            await until(pilot, lambda: (shown() or ANSWER + 1) < first)  # it counts down

            def withdrawn() -> bool:
                s = app.snapshot
                return isinstance(s, TableSnapshot) and s.proposal(offer) is None and any(
                    e["t"] == "withdraw" and e["proposal"] == offer and e.get("by") == "table"
                    for e in s.view["log"]
                )

            await until(pilot, withdrawn, ANSWER + 10)
            assert time.monotonic() >= bobs_due[0] - AGREE  # not before the time shown
            assert str(offer) not in [o.id for o in pane.options]
            assert offer not in app.answer_due
            await bob.close()
