"""Crash test: a real ``poissonnier serve`` SIGKILLed at 20 random moments.

A 4-seat table: two seats are players in this test (ordinary TCP clients
whose moves come from a random bot on the views they receive), two are the
server's own bots. At 20 random moments (a random number of moves after each
restart, then a random fraction of a move) the serve process is killed with
SIGKILL, as a crash would, and started again with ``serve --resume LOG
--yes``; the players reconnect with their seat tokens, the bots are seated
again by the server. Checked every time:

* no acknowledged action is missing: each player's acked actions are, in
  order, in the log on disk at the moment of the kill;
* the resumed table continues from exactly the logged state (its first view
  has the logged revision) and the game moves on.

At the end, the final result and each player's final view equal those of an
uninterrupted game with the same seed and the same actions (the log replayed
from the seed on a fresh engine, R3).

Runs in a private network namespace (``serve`` advertises with zeroconf;
``tests/netns.py``).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from netns import LOOPBACK, Proc, in_netns, poissonnier, wait_for

from net.client import JoinError, TableClient
from net.messages import Ack, ErrorReply, View
from net.tablelog import LogDamaged, TableLog, read_log
from poissonnier_tui import __version__
from poissonnier_tui.games.poissonnier.bots import make_bot
from poissonnier_tui.games.poissonnier.match import PoissonnierMatch
from poissonnier_tui.games.poissonnier.rules.determinize import legal_from_view
from poissonnier_tui.games.poissonnier.rules.view import view_for
from poissonnier_tui.hosting.persistence import games_dir, replay_log

PORT = 7391
SEED = 17
KILLS = 20


class Player:
    """One seat played over TCP by a random bot; remembers every action the table acked."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.token: str | None = None
        self.seat: int | None = None
        self.acked: list[dict[str, Any]] = []
        self.rev = -1
        self.first_rev: int | None = None  # the first view's revision on this connection
        self.last_view: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None
        self.rng = random.Random(index)
        self.on_view: Callable[[int], None] | None = None
        """Called with each view's revision as it arrives (the test's kill switch)."""
        self.bot = make_bot("random", 100 + index)

    async def connect(self, timeout: float = 20.0) -> TableClient:
        """Join (again, with the token once we have one), retrying while the server starts."""
        start = time.monotonic()
        while True:
            try:
                client = await TableClient.connect(
                    LOOPBACK, PORT, name=f"Player{self.index}", token=self.token,
                    app_version=__version__, game="poissonnier", timeout=2.0,
                )  # fmt: skip
            except JoinError as exc:
                if exc.code not in ("unreachable", "timeout", "closed"):
                    raise
                if time.monotonic() - start > timeout:
                    raise
                await asyncio.sleep(0.02)
                continue
            if self.token is not None:
                assert (client.seat, client.token) == (self.seat, self.token)  # seat reclaimed
            self.token, self.seat = client.token, client.seat
            return client

    async def play(self) -> None:
        """One connection's life: play until the game ends or the server dies."""
        self.first_rev = None
        client = await self.connect()
        sent: dict[int, dict[str, Any]] = {}

        async def act() -> None:
            view = self.last_view
            if view is None or sent or self.seat not in view["waiting_on"]:
                return
            action = self.bot.act(view, legal_from_view(view, self.rng))
            if action is not None:
                sent[await client.send_action(action)] = action

        try:
            async for msg in client.messages():
                if isinstance(msg, Ack):
                    self.acked.append(sent.pop(msg.seq))
                elif isinstance(msg, ErrorReply) and msg.seq is not None:
                    sent.pop(msg.seq, None)
                    if msg.code == "slow_down":  # over the seat's move rate: wait a little
                        await asyncio.sleep(0.2)
                    await act()  # refused (a stale or unlucky guess): think again
                elif isinstance(msg, View):
                    self.rev = msg.rev
                    if self.on_view is not None:
                        self.on_view(msg.rev)
                    self.first_rev = msg.rev if self.first_rev is None else self.first_rev
                    self.last_view = dict(msg.view)
                    if msg.view["result"] is not None:
                        self.result = dict(msg.view["result"])
                        return
                    await act()
        except (ConnectionError, OSError):
            pass  # the server was killed mid-send: the next connection carries on
        finally:
            await client.close()


TORN: list[str] = []
"""Damage messages of logs a kill left with a torn last record."""


def read_whatever(path: Path) -> TableLog:
    """The log, or its valid prefix if the kill left a torn record."""
    try:
        return read_log(path)
    except LogDamaged as exc:
        assert exc.log is not None, str(exc)
        TORN.append(str(exc))
        return exc.log


def assert_acked_in_log(players: list[Player], log: TableLog) -> None:
    """Every acknowledged action of each player is in the log, in order, for its seat."""
    for p in players:
        mine = iter(a.action for a in log.actions if a.seat == p.seat)
        for action in p.acked:
            assert any(logged == action for logged in mine), (
                f"seat {p.seat}: acknowledged {action} is missing from the log"
            )


async def start_serve(*args: str) -> Proc:
    return await poissonnier(*args, "--interface", LOOPBACK, "--bot-delay", "0", label="serve")


@in_netns
async def test_serve_killed_at_20_random_moments_plays_on_to_the_same_result() -> None:
    began = time.monotonic()
    rng = random.Random(2025)
    serve = await start_serve(
        "serve", "--table", "Crash", "--seats", "4", "--bots", "2", "--bot", "random",
        "--port", str(PORT), "--start-when-full", "--seed", str(SEED),
    )  # fmt: skip
    players = [Player(0), Player(1)]
    resume_times: list[float] = []
    at_kill: list[int] = []  # actions in the log at each kill
    logged = 0  # actions in the log when the table last (re)started
    path: Path | None = None
    for kill in range(KILLS):
        # A random moment: a few moves after the (re)start, then part of a move. The
        # kill is fired from the players' message loop (armed before they connect), so
        # the game cannot run far past it even with bots that move instantly.
        target = logged + rng.randint(1, 6)
        delay = rng.uniform(0, 0.003)
        killed = asyncio.Event()

        def kill_at(rev: int, target: int = target, delay: float = delay,
                    proc: Proc = serve, killed: asyncio.Event = killed) -> None:  # fmt: skip
            back = all(p.first_rev is not None for p in players)  # both players rejoined
            if rev >= target and back and not killed.is_set():
                killed.set()
                asyncio.get_running_loop().call_later(delay, proc.kill)

        for p in players:
            p.on_view = kill_at
            p.first_rev = None
        restart = time.monotonic()
        tasks = [asyncio.ensure_future(p.play()) for p in players]
        if kill > 0:
            await wait_for(
                lambda: all(p.first_rev is not None for p in players), 30, "the players to rejoin"
            )
            resume_times.append(time.monotonic() - restart)
            assert all((p.first_rev or 0) >= logged for p in players)
        await wait_for(killed.is_set, 30, "the moment to kill")
        await serve.wait()
        if kill > 0:  # the resumed table started exactly where the log ended
            assert f"from its {logged} logged moves" in serve.text, serve.text
        await asyncio.gather(*tasks)  # the players notice the table is gone
        assert not any(p.result for p in players), f"the game ended after only {kill} kills"
        if path is None:
            (path,) = games_dir().glob("*.plog")
        log = read_whatever(path)
        assert_acked_in_log(players, log)
        assert log.end is None and len(log.actions) >= logged  # nothing logged was lost
        logged = len(log.actions)
        at_kill.append(logged)
        serve = await start_serve("serve", "--resume", str(path), "--yes", "--start-when-full")
    for p in players:
        p.on_view = None
    assert path is not None
    tasks = [asyncio.ensure_future(p.play()) for p in players]
    await asyncio.wait_for(asyncio.gather(*tasks), 60)
    assert await serve.wait() == 0
    final = players[0].result
    assert final is not None and players[1].result == final
    assert "Result: " in serve.text

    log = read_log(path)  # sound: no torn tail is left after the resumes
    assert log.end == final
    assert_acked_in_log(players, log)
    # The uninterrupted game: same seed, same actions, on a fresh engine.
    uninterrupted = replay_log(log)
    assert uninterrupted.error is None and uninterrupted.applied == len(log.actions)
    match = uninterrupted.match
    assert isinstance(match, PoissonnierMatch)
    assert match.result() == final
    for p in players:
        assert p.seat is not None and p.last_view == view_for(match.state, p.seat)
    assert all(len(p.acked) >= 20 for p in players)  # the players really played
    took = time.monotonic() - began
    print(
        f"\nMEASURE crash test: {KILLS} SIGKILLs, {len(log.actions)} actions, {took:.1f} s; "
        f"kill -> players back in their seats: median {sorted(resume_times)[KILLS // 2]:.2f} s, "
        f"max {max(resume_times):.2f} s; {len(TORN)} kills left a torn last record; "
        f"killed at actions {at_kill}"
    )
