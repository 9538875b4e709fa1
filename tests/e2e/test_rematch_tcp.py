"""Play again at a LAN table, over real TCP on 127.0.0.1 (``net/rematch.py``).

A hosted table (``open_table``) of the test race game with three people
seated — the host's own seat, Ana and Ben — and Sue watching. After the game
the host proposes a rematch; everyone, Sue too, sees who accepted and who is
awaited. Ana accepts, Ben declines; the host cannot start while Ben's seat
is unsettled, gives it to a bot, and starts. The new game keeps the seats
and tokens of those who accepted, the bot plays Ben's seat, Ben's connection
is told its seat went to someone else, and Sue follows into the new game.
Bad requests (an answer with no proposal, from the spectator, twice) are
refused with a code and parameters each client says in its own language, and
change nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from net.client import TableClient
from net.messages import SEAT_GIVEN, Bye, ErrorReply, Lobby, RematchState, ServerMessage, View
from net.table import Refused
from poissonnier_tui import __version__, i18n
from poissonnier_tui.hosting.tables import HostedTable, TableSettings, open_table
from poissonnier_tui.refusals import table_refusal_text

WAIT = 10.0


class Reader:
    """Every message a client receives, kept in order; waits for one that fits."""

    def __init__(self, client: TableClient) -> None:
        self.client = client
        self.seen: list[ServerMessage] = []
        self._arrived = asyncio.Event()
        self._task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.client.messages():
            self.seen.append(msg)
            self._arrived.set()
        self._arrived.set()

    async def until(self, fits: Callable[[ServerMessage], bool], after: int = 0) -> Any:
        """The first message from index ``after`` on that ``fits``; waits for it."""
        async with asyncio.timeout(WAIT):
            while True:
                for msg in self.seen[after:]:
                    if fits(msg):
                        return msg
                self._arrived.clear()
                if self._task.done():
                    raise AssertionError(f"the connection ended; seen {self.seen[after:]}")
                await self._arrived.wait()

    def mark(self) -> int:
        """An index to wait from: only messages after this moment."""
        return len(self.seen)

    async def close(self) -> None:
        await self.client.close()
        await asyncio.gather(self._task, return_exceptions=True)


def answers(msg: ServerMessage) -> tuple[str, ...] | None:
    """The answers of a ``rematch`` frame (``()`` for any other message)."""
    return msg.seats if isinstance(msg, RematchState) else ()


@pytest.fixture
def english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


async def join(port: int, name: str, role: str = "player") -> Reader:
    client = await TableClient.connect(
        "127.0.0.1", port, name=name, app_version=__version__, game="toy", role=role  # type: ignore[arg-type]
    )
    return Reader(client)


async def play_out(
    table: HostedTable, seats: list[Reader | None], watcher: Reader, after: int
) -> None:
    """Whoever is to play adds 2 (a bot, ``None``, plays for itself) until the race is
    won; ``watcher``'s views of this game come from index ``after`` on."""
    while True:
        now = table.server.rev
        view = await watcher.until(lambda m, rev=now: isinstance(m, View) and m.rev >= rev, after)
        if view.view["result"] is not None:
            return
        mover = seats[view.view["to_play"]]
        if mover is not None:
            await mover.client.send_action({"add": 2})
        await watcher.until(lambda m, rev=view.rev: isinstance(m, View) and m.rev > rev, after)


async def refusal(reader: Reader, after: int) -> ErrorReply:
    msg = await reader.until(lambda m: isinstance(m, ErrorReply), after)
    assert isinstance(msg, ErrorReply)
    return msg


async def test_the_host_proposes_one_accepts_one_declines_a_bot_takes_the_seat(
    toy: str, english_after: None
) -> None:
    settings = TableSettings(
        name="Again", game=toy, seats=3, host_seat=True, port=0, interface="127.0.0.1",
        advertise=False, bot_delay=0, seed=5, options={"target": 3}, bot_kinds=("hard",),
    )  # fmt: skip
    table = await open_table(settings)
    readers: list[Reader] = []
    try:
        host = await join(table.port, "Host")
        ana = await join(table.port, "Ana")
        ben = await join(table.port, "Ben")
        sue = await join(table.port, "Sue", role="spectator")
        readers = [host, ana, ben, sue]
        assert [r.client.seat for r in readers] == [0, 1, 2, None]
        tokens = [r.client.token for r in (host, ana)]

        # No rematch yet: an answer is refused, and nothing is sent to anyone else.
        at = ana.mark()
        await ana.client.answer_rematch(True)
        early = await refusal(ana, at)
        assert early.code == "no_rematch"
        with pytest.raises(Refused) as not_over:
            await table.server.propose_rematch(by=0)
        assert not_over.value.code == "not_over"

        await table.server.start()
        await play_out(table, [host, ana, ben], sue, 0)
        first_seed = table.server.seed
        for reader in readers:
            await reader.until(lambda m: isinstance(m, View) and m.view["result"] is not None)

        # The host proposes: everyone hears who accepted (the host) and who is awaited.
        at = [r.mark() for r in readers]
        await table.server.propose_rematch(by=0)
        for reader, mark in zip(readers, at, strict=True):
            state = await reader.until(lambda m: isinstance(m, RematchState), mark)
            assert state.seats == ("yes", "waiting", "waiting")

        # The spectator cannot answer; nothing changes.
        at_sue = sue.mark()
        await sue.client.answer_rematch(True)
        assert (await refusal(sue, at_sue)).code == "rematch_not_seated"

        # Ana accepts, Ben declines: everyone, Sue included, sees both answers.
        await ana.client.answer_rematch(True)
        await sue.until(lambda m: answers(m) == ("yes", "yes", "waiting"), at_sue)
        await ben.client.answer_rematch(False)
        await sue.until(lambda m: answers(m) == ("yes", "yes", "no"), at_sue)

        # Ana answering again is refused with a code and parameters, said in French too.
        at_ana = ana.mark()
        await ana.client.answer_rematch(False)
        twice = await refusal(ana, at_ana)
        assert (twice.code, twice.params) == ("already_answered", {"key": "rematch_already"})
        i18n.set_language("fr")
        said = table_refusal_text(twice.params, twice.message)
        assert said == "Vous avez déjà répondu à cette revanche."
        i18n.set_language("en")

        # The host cannot start while Ben's seat is unsettled; it names him.
        with pytest.raises(Refused) as waiting:
            await table.server.start_rematch()
        assert (waiting.value.code, waiting.value.params) == (
            "rematch_waiting",
            {"key": "rematch_waiting", "names": "Ben"},
        )
        assert table.server.phase == "over" and table.server.seed == first_seed  # unchanged

        # The host gives Ben's seat to a bot, and starts.
        await table.give_rematch_seat(2, to_bot=True)
        await sue.until(lambda m: answers(m) == ("yes", "yes", "bot"), at_sue)
        at = [r.mark() for r in readers]
        await table.server.start_rematch()

        gone = await ben.until(lambda m: isinstance(m, Bye), at[2])
        assert gone.reason == SEAT_GIVEN
        kinds = [(s.name, s.kind) for s in table.server.seats()]
        assert kinds == [("Host", "human"), ("Ana", "human"), ("Bot 3 · hard", "bot")]
        assert [r.client.token for r in (host, ana)] == tokens
        assert table.server._table.holds_token(tokens[1])  # Ana's token still holds her seat
        for reader, mark in zip((host, ana, sue), (at[0], at[1], at[3]), strict=True):
            closed = await reader.until(lambda m: answers(m) is None, mark)
            assert isinstance(closed, RematchState)
            view = await reader.until(lambda m: isinstance(m, View) and m.rev == 0, mark)
            assert view.view["total"] == 0 and view.view["result"] is None
        lobby = await sue.until(lambda m: isinstance(m, Lobby) and m.phase == "playing", at[3])
        assert [s.kind for s in lobby.seats] == ["human", "human", "bot"]
        assert "secret" not in (await sue.until(lambda m: isinstance(m, View), at[3])).view

        # The new game is played, the bot in Ben's seat moving for itself.
        await play_out(table, [host, ana, None], sue, at[3])
        assert table.server.phase == "over"
    finally:
        for reader in readers:
            await reader.close()
        await table.close()
