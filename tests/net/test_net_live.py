"""LiveBrowser's states, driven by hand: a fake probe and a fake clock, no multicast."""

from __future__ import annotations

import asyncio

from net.discovery import TableAd
from net.live import LiveBrowser, LiveTable, probe_table
from net.server import TableServer

AD = TableAd("Friday", "127.0.0.1", 1, 1, "1", "count", 1, 4, "lobby", True)


class Harness:
    def __init__(self) -> None:
        self.now = 100.0
        self.answers = True
        self.seen: list[tuple[str, str]] = []
        self.live = LiveBrowser(
            "count", self._changed, probe=self._probe, interval=1.5, misses=2, drop_after=10.0,
            clock=lambda: self.now,
        )  # fmt: skip

    def _changed(self, name: str, table: LiveTable) -> None:
        self.seen.append((name, table.state))

    async def _probe(self, ad: TableAd) -> bool:
        return self.answers

    async def tick(self, seconds: float = 1.5) -> None:
        """One probe round, ``seconds`` after the previous one."""
        self.now += seconds
        for name in [*self.live.tables, *self.live._gone]:
            await self.live._check(name)


async def test_a_silent_table_is_marked_then_dropped_then_back() -> None:
    h = Harness()
    h.live._heard("F", AD)
    assert h.seen == [("F", "live")]
    await h.tick()
    assert h.live.tables["F"].state == "live" and h.seen == [("F", "live")]  # no news
    h.answers = False  # SIGKILL
    await h.tick()
    assert h.live.tables["F"].state == "live"  # one miss is not enough
    await h.tick()
    assert h.live.tables["F"].state == "not_answering"  # two in a row: about 3 s
    for _ in range(4):
        await h.tick()
    assert "F" in h.live.tables  # 7.5 s silent: still listed, marked
    await h.tick()
    await h.tick()  # 10.5 s without an answer
    assert "F" not in h.live.tables
    assert h.seen == [("F", "live"), ("F", "not_answering"), ("F", "gone")]
    h.answers = True  # resumed: same name
    await h.tick()
    assert h.live.tables["F"].state == "back" and h.seen[-1] == ("F", "back")
    await h.tick()
    assert h.live.tables["F"].state == "live"


async def test_a_goodbye_drops_at_once_and_a_new_sighting_is_back() -> None:
    h = Harness()
    h.live._heard("F", AD)
    h.live._heard("F", None)
    assert "F" not in h.live.tables and h.seen[-1] == ("F", "gone")
    h.live._heard("F", AD)
    assert h.live.tables["F"].state == "back"
    changed = TableAd("Friday", "127.0.0.1", 1, 1, "1", "count", 2, 4, "lobby", True)
    h.live._heard("F", changed)
    assert h.live.tables["F"].ad.taken == 2


async def test_the_probe_gets_an_answer_from_a_table_without_sitting_down() -> None:
    from test_net_toygame import CountGame

    server = TableServer(CountGame(), name="T", seats=2, seed=1, app_version="1.0")
    async with server:
        ad = TableAd("T", "127.0.0.1", server.port, 1, "1", "count", 0, 2, "lobby", True)
        assert await probe_table(ad) is True
        await asyncio.sleep(0.05)
        assert [s.kind for s in server.seats()] == ["open", "open"]
        assert server._clients == []  # not even a spectator
    assert await probe_table(ad, timeout=1.0) is False  # closed: refused at once
