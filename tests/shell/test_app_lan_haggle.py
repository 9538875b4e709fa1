"""Two people on a LAN haggle in the chat and close the deal in the offers pane.

Over loopback TCP, a two-player table in its serve step (``haggling.market``:
RULES.md §4, Ana active and buying, Bob holding fish). Ana plays in the real
app; Bob is a scripted client. They talk in the table chat both ways
(net/chat.py); Ana, who holds 1 coin, asks Bob for a fish for nothing with
the deal dialog; Bob declines with a reason and the price he would take
(``too_cheap``, 1 coin); Ana tries again for nothing; Bob counters at 1 (R8)
and says why in the chat; Ana
accepts the counter with ``a`` in the offers pane. The deal is in both
players' logs, and Ana's offers pane showed the thread with Bob's reason.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from haggling import TOKENS, bobs_fish, market
from pilot import until
from textual.widgets import Input, Static

from net.client import TableClient
from net.drafts import DraftRules
from net.messages import Said, ServerMessage, View
from poissonnier_tui import __version__
from poissonnier_tui.games.poissonnier.ui.reasons import reason_label
from poissonnier_tui.games.poissonnier.ui.screens.deal_dialog import DealDialog
from poissonnier_tui.games.poissonnier.ui.widgets.game_log import GameLog
from poissonnier_tui.games.poissonnier.ui.widgets.offers import OffersList
from poissonnier_tui.shell.app import PoissonnierApp
from poissonnier_tui.shell.screens.chat import ChatScreen
from poissonnier_tui.shell.session import JoinSession

ANA, BOB = 0, 1


def offers_text(pane: OffersList) -> str:
    """Every line the offers pane shows now."""
    return "\n".join(str(pane.get_option_at_index(i).prompt) for i in range(pane.option_count))


class Heard:
    """Every message a scripted client receives, read in the background."""

    def __init__(self, client: TableClient) -> None:
        self.seen: list[ServerMessage] = []
        self._task = asyncio.create_task(self._read(client))

    async def _read(self, client: TableClient) -> None:
        async for msg in client.messages():
            self.seen.append(msg)

    def last(self, test: Any) -> Any:
        """The last message passing ``test``, or ``None``."""
        return next((m for m in reversed(self.seen) if test(m)), None)

    async def close(self) -> None:
        """Stop reading."""
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


def problem_text(dialog: DealDialog) -> str:
    """What the deal dialog says is wrong with its terms."""
    return str(dialog.query_one("#problem", Static).render())


def open_offer(view: dict[str, Any], proposer: int) -> dict[str, Any] | None:
    """The open proposal made by ``proposer``, if any."""
    return next((p for p in view["proposals"] if p["proposer"] == proposer), None)


async def test_two_people_chat_haggle_and_close_a_deal_over_tcp() -> None:
    server = market(DraftRules())
    async with server:
        name, token = TOKENS[0]
        app = PoissonnierApp(
            JoinSession("127.0.0.1", server.port, name=name, token=token, game="poissonnier")
        )
        async with app.run_test(size=(160, 50)) as pilot:
            await until(pilot, lambda: app.snapshot is not None and app._table is app.screen)
            client = await TableClient.connect(
                "127.0.0.1", server.port, name="Bob", app_version=__version__,
                game="poissonnier", token=TOKENS[1][1],
            )  # fmt: skip
            bob = Heard(client)
            await until(pilot, lambda: bob.last(lambda m: isinstance(m, View)) is not None)
            snap = app.snapshot
            assert snap is not None and (snap.me, snap.active, snap.phase) == (ANA, ANA, "serve")

            # The chat, both ways.
            await pilot.press("k")
            await until(pilot, lambda: isinstance(app.screen, ChatScreen))
            await pilot.press(*"how much?", "enter")
            said = lambda m: isinstance(m, Said) and m.seat == ANA  # noqa: E731
            await until(pilot, lambda: bob.last(said) is not None)
            assert bob.last(said).text == "how much?"
            await until(pilot, lambda: app._table is app.screen)
            await client.say("1 coin!")
            await until(pilot, lambda: any(h.text == "1 coin!" for h in app.heard))
            assert [(h.seat, h.text) for h in app.heard] == [(ANA, "how much?"), (BOB, "1 coin!")]

            # Ana asks Bob for a fish, in the deal dialog.
            crate = bobs_fish(snap.view)["fish"][0][0]

            async def ask(coins: int, after: int = 0) -> int:
                """Ana's offer at ``coins``, made after offer ``after``: its id."""
                await pilot.press("d")
                await until(pilot, lambda: isinstance(app.screen, DealDialog))
                dialog = app.screen
                assert isinstance(dialog, DealDialog) and dialog.draft.seller == BOB
                dialog.query_one(f"#crate-{crate}", Input).value = "1"
                dialog.query_one("#coins", Input).value = "2"  # more than Ana holds
                await until(pilot, lambda: "You have only 1 coin (§4)." in problem_text(dialog))
                dialog.query_one("#coins", Input).value = str(coins)
                await pilot.press("ctrl+s")

                def mine(m: ServerMessage) -> bool:
                    offer = open_offer(m.view, ANA) if isinstance(m, View) else None
                    return offer is not None and offer["coins"] == coins and offer["id"] > after

                await until(pilot, lambda: bob.last(mine) is not None)
                offer = open_offer(bob.last(mine).view, ANA)
                assert offer is not None and offer["coins"] == coins and offer["seller"] == BOB
                return int(offer["id"])

            assert snap.seat(ANA)["coins"] == 1  # all Ana has
            first = await ask(0)
            # Bob: too cheap; he would take 1 (a decline with its reason and price, §4).
            await client.send_action(
                {"type": "decline", "proposal": first, "reason": "too_cheap", "price": 1}
            )
            assert app._table is not None
            pane = app._table.query_one(OffersList)
            await until(pilot, lambda: reason_label("too_cheap") in offers_text(pane))
            assert "would take 1 coin" in offers_text(pane)

            second = await ask(0, after=first)  # Ana tries her luck again
            counter = {**bobs_fish(snap.view, coins=1), "counter": second}
            await client.send_action(counter)  # Bob counters at 1 (R8) ...
            await client.say("nothing is too little, 1 and it's yours")  # ... and says why
            await until(pilot, lambda: app.snapshot is not None
                        and open_offer(app.snapshot.view, BOB) is not None)  # fmt: skip
            now = app.snapshot
            assert now is not None
            third = open_offer(now.view, BOB)
            assert third is not None and (third["coins"], third["counters"]) == (1, second)
            await until(pilot, lambda: pane.answering == third["id"])  # the one `a` answers
            await until(pilot, lambda: any("1 and it's yours" in h.text for h in app.heard))
            shown = offers_text(pane)
            assert f"#{second}" in shown and f"counter to #{second}" in shown, shown
            coins_before = now.seat(ANA)["coins"]

            await pilot.press("a")  # Ana accepts Bob's counter: with his yes it binds (R8)

            def dealt(view: dict[str, Any]) -> bool:
                return any(
                    e["t"] == "deal" and e["proposal"]["id"] == third["id"] for e in view["log"]
                )

            await until(pilot, lambda: app.snapshot is not None and dealt(app.snapshot.view))
            bobs_deal = lambda m: isinstance(m, View) and dealt(m.view)  # noqa: E731
            await until(pilot, lambda: bob.last(bobs_deal) is not None)
            bobs = bob.last(bobs_deal)
            done = app.snapshot
            assert done is not None
            assert done.seat(ANA)["coins"] == coins_before - 1
            assert bobs.view["seats"][ANA]["coins"] == coins_before - 1
            await until(pilot, lambda: f"#{third['id']}" in log_text(app))
            assert app.last_error is None
            await bob.close()
            await client.close()


def log_text(app: PoissonnierApp) -> str:
    """What Ana's log shows."""
    return "\n".join(line.text for line in app.screen.query_one(GameLog).lines)
