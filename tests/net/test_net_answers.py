"""Time to answer (net/answers.py, RULES.md R25) over real loopback TCP.

A two-player game of Le Poissonnier is rebuilt from its fill step (played by
medium bots offline, then :meth:`TableServer.restore`), and its two people,
Ana (active) and Bob, come back with their tokens, with a spectator, Eve.
Ana asks Bob for fish. Every connection's views carry the offer's time left;
turned into a deadline on the receiver's clock (all three share this
process's monotonic clock), they agree. A later frame carries less time for
the same deadline, and at the deadline the table withdraws the offer for
Ana, which every log shows as the table's move for time.
"""

from __future__ import annotations

import time

from haggling import bobs_fish, market
from test_net_server import Watch

from net.client import TableClient
from net.drafts import Drafting, DraftRules
from net.messages import ServerMessage, View
from poissonnier_tui import __version__

ANSWER = 1.5
"""The table's time to answer, in seconds."""
AGREE = 0.25
"""How far apart, in seconds, the deadlines two receivers compute may be (frames to three
connections leave within one broadcast; the rest is loopback and a loaded machine)."""


class Clocked(Watch):
    """A :class:`Watch` that notes when each message arrived (this process's clock)."""

    def __init__(self, client: TableClient) -> None:
        super().__init__(client)
        self.when: list[float] = []
        self.read = 0  # messages already looked at by :func:`timed_view`

    async def next(self, timeout: float = 2.0) -> ServerMessage:
        msg = await super().next(timeout)
        self.when.append(time.monotonic())
        return msg


async def timed_view(watch: Clocked, offer: int, *, open_: bool = True) -> tuple[View, float]:
    """The next view in which ``offer`` is timed (``open_``) or gone, and when it came."""

    def fits(m: object) -> bool:
        if not isinstance(m, View):
            return False
        timed = any(o == offer for o, _ms in m.answers_in_ms)
        listed = any(p["id"] == offer for p in m.view["proposals"])
        return timed and listed if open_ else not timed and not listed

    while True:
        for i in range(watch.read, len(watch.seen)):
            if fits(watch.seen[i]):
                watch.read = i + 1
                found = watch.seen[i]
                assert isinstance(found, View)
                return found, watch.when[i]
        watch.read = len(watch.seen)
        await watch.next(timeout=10.0)


def deadline(view: View, offer: int, received: float) -> float:
    """``offer``'s deadline on this process's clock, as a receiver reads its frame."""
    return received + dict(view.answers_in_ms)[offer] / 1000


class Market:
    """The restored table (``haggling.market``) and the connections the test opens to it."""

    def __init__(self, drafts: DraftRules) -> None:
        self.server = market(drafts)
        self.clients: list[TableClient] = []

    async def join(self, name: str, **kwargs: object) -> Clocked:
        client = await TableClient.connect(
            "127.0.0.1", self.server.port, name=name, app_version=__version__,
            game="poissonnier", **kwargs,  # type: ignore[arg-type]
        )  # fmt: skip
        self.clients.append(client)
        return Clocked(client)

    async def ask(self, ana: Clocked) -> int:
        """Ana asks Bob for fish; the offer's id."""
        first = await ana.view()
        assert first.answers_in_ms == ()  # nothing awaits an answer yet
        await ana.client.send_action(bobs_fish(first.view))  # Ana asks Bob for a fish
        made = await ana.until(lambda m: isinstance(m, View) and m.view["proposals"])
        return int(made.view["proposals"][0]["id"])

    async def close(self) -> None:
        for client in self.clients:
            await client.close()


def withdrawn_by_table(view: View, offer: int) -> bool:
    """The view's log says the table withdrew ``offer`` for Ana, for time (R25)."""
    withdrawn = [e for e in view.view["log"] if e["t"] == "withdraw"]
    return bool(withdrawn) and (
        withdrawn[-1]["proposal"], withdrawn[-1]["seat"], withdrawn[-1].get("by"),
        withdrawn[-1].get("why"),
    ) == (offer, 0, "table", "time")  # fmt: skip


async def test_every_screen_agrees_on_an_offers_time_and_the_table_withdraws_it_at_zero() -> None:
    market = Market(DraftRules(answer_seconds=ANSWER))
    async with market.server:
        ana = await market.join("Ana", token="tok-ana")
        bob = await market.join("Bob", token="tok-bob")
        eve = await market.join("Eve", role="spectator")
        offer = await market.ask(ana)
        seen = [await timed_view(w, offer) for w in (ana, bob, eve)]
        due = [deadline(v, offer, at) for v, at in seen]
        assert all(0 < dict(v.answers_in_ms)[offer] <= ANSWER * 1000 for v, _at in seen)
        assert max(due) - min(due) < AGREE  # Ana, Bob and Eve count down to the same time

        # A spectator arriving later is told less time, for the same deadline.
        zed = await market.join("Zed", role="spectator")
        late, late_at = await timed_view(zed, offer)
        assert dict(late.answers_in_ms)[offer] < min(dict(v.answers_in_ms)[offer] for v, _ in seen)
        assert abs(deadline(late, offer, late_at) - min(due)) < AGREE

        # At zero the table withdraws it for Ana (R25), and says so in every log.
        for watch in (ana, bob, eve, zed):
            gone, gone_at = await timed_view(watch, offer, open_=False)
            assert gone_at >= min(due) - AGREE  # never before the time everyone was shown
            assert withdrawn_by_table(gone, offer)
        assert market.server.phase == "playing"
        await market.close()


async def test_an_answerer_drafting_a_counter_keeps_the_offer_open_until_the_draft_ends() -> None:
    market = Market(DraftRules(seconds=2.0, answer_seconds=0.5))
    async with market.server:
        ana = await market.join("Ana", token="tok-ana")
        bob = await market.join("Bob", token="tok-bob")
        offer = await market.ask(ana)
        first, first_at = await timed_view(ana, offer)
        await bob.client.draft(True)  # Bob opens the counter dialog
        told = await ana.until(lambda m: isinstance(m, Drafting) and m.ends_in_ms is not None)
        draft_end = ana.when[-1] + told.ends_in_ms / 1000
        moved, moved_at = await timed_view(ana, offer)  # the views are sent again
        assert deadline(moved, offer, moved_at) > deadline(first, offer, first_at) + 1.0
        assert abs(deadline(moved, offer, moved_at) - draft_end) < AGREE
        gone, gone_at = await timed_view(ana, offer, open_=False)
        assert gone_at >= draft_end - AGREE and withdrawn_by_table(gone, offer)
        await market.close()
