"""End to end over real TCP on 127.0.0.1: four bot clients and a spectator.

Each seat is an ordinary `TableClient` whose moves come from a bot running
in the client on the views it receives (`headless.play_seat`), so every
action and every view crosses the wire. The test records every frame and,
from the server side, what was hidden at every revision, then proves:

* the game ends and every client's final view carries the server's result;
* no frame to a seat names a fish card that was, at that revision, in
  another hand, in another seat's crates, a crate marker, or the deck
  (RULES.md §9, docs/ARCHITECTURE.md "one door");
* no frame to the spectator names any fish card at all, nor a client card
  that was in the client deck (outside the public log);
* each frame's revision counts only the actions that changed its recipient's
  view (R15: the others' private moves are not even counted).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import msgpack
from told import revisions_for, told_revisions

from net.client import TableClient
from net.messages import ServerMessage, View
from net.server import TableServer
from poissonnier_tui import __version__
from poissonnier_tui.client.headless import play_seat
from poissonnier_tui.games.poissonnier.bots import make_bot
from poissonnier_tui.games.poissonnier.match import PoissonnierGame, PoissonnierMatch
from poissonnier_tui.games.poissonnier.rules.state import GameState
from poissonnier_tui.hosting.persistence import record_table

FISH_ID = re.compile(r"^[TFMDPGA]\d\d$")
PLAYERS = 4


class RecordingGame(PoissonnierGame):
    """The real game definition, keeping a handle on the match for the test's eyes only."""

    def __init__(self, on_new: Callable[[], None]) -> None:
        self.match: PoissonnierMatch | None = None
        self._on_new = on_new

    def new_match(self, seed: int, seats: int, options: Mapping[str, Any]) -> PoissonnierMatch:
        self.match = super().new_match(seed, seats, options)
        self._on_new()  # revision 0: the dealt state
        return self.match


def strings(value: Any) -> Iterator[str]:
    """Every string inside a decoded frame, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield from strings(k)
            yield from strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from strings(v)


def hidden_from(state: GameState, seat: int | None) -> set[str]:
    """Card ids ``seat`` (``None``: a spectator) must not see now (RULES.md §9)."""
    hidden = set(state.fish_deck)
    for i, s in enumerate(state.seats):
        hidden.update(c.marker for c in s.crates)
        if i == seat:
            continue
        hidden.update(s.hand, s.draft_hand or [])
        hidden.update(f for c in s.crates for f in c.fish)
        hidden.update(f for c in s.draft_crates or [] for f in c.fish)
    if seat != state.active:
        hidden.update(state.bought)
    return hidden


async def test_four_bots_and_a_spectator_over_tcp_agree_and_leak_nothing() -> None:
    hidden: list[list[set[str]]] = []  # per revision, per seat (index PLAYERS: spectator)
    client_decks: list[set[str]] = []
    views: list[list[bytes]] = []  # per revision, per seat then the spectator: packed

    def record() -> None:
        assert game.match is not None
        state = game.match.state
        hidden.append([hidden_from(state, s) for s in range(PLAYERS)] + [hidden_from(state, None)])
        client_decks.append(set(state.client_deck))
        views.append([msgpack.packb(game.match.view(s)) for s in (*range(PLAYERS), None)])

    game = RecordingGame(record)

    async def on_action(seat: int, action: Mapping[str, Any]) -> None:
        record()  # after apply, before anyone hears of it: revision len(hidden) - 1

    server = TableServer(
        game, name="e2e", seats=PLAYERS, seed=2024, app_version=__version__,
        auto_start=True, turn_timeout=5.0, on_action=on_action,
    )  # fmt: skip
    recorder = record_table(server)  # the log is replayed after the test (conftest)
    frames: dict[int, list[View]] = {s: [] for s in range(PLAYERS + 1)}

    def keep(index: int) -> Any:
        def observe(msg: ServerMessage) -> None:
            if isinstance(msg, View):
                frames[index].append(msg)

        return observe

    async with server:
        spectator = await TableClient.connect(
            "127.0.0.1", server.port, name="Watcher", role="spectator",
            app_version=__version__, game=game.name,
        )  # fmt: skip
        clients = [
            await TableClient.connect(
                "127.0.0.1",
                server.port,
                name=f"Bot{s}",
                app_version=__version__,
                game=game.name,
            )
            for s in range(PLAYERS)
        ]
        assert [c.seat for c in clients] == list(range(PLAYERS))

        async def watch() -> None:
            observe = keep(PLAYERS)
            async for msg in spectator.messages():
                observe(msg)
                if isinstance(msg, View) and msg.view["result"] is not None:
                    return

        results = await asyncio.wait_for(
            asyncio.gather(
                *(play_seat(c, make_bot("greedy", 7 + i), observe=keep(i))
                  for i, c in enumerate(clients)),
                watch(),
            ),
            timeout=120,
        )  # fmt: skip
        final = await server.wait_over()
        for c in [*clients, spectator]:
            await c.close()

    assert final is not None and final["winners"]
    assert recorder.path is not None and recorder.actions == len(hidden) - 1  # every action
    assert results[:PLAYERS] == [final] * PLAYERS
    assert frames[PLAYERS][-1].view["result"] == final
    deals = [e for f in frames[PLAYERS] for e in f.view["log"] if e["t"] == "deal"]
    assert len(frames[0]) > 50  # a whole game's worth of views reached seat 0

    # Each frame's revision counts only the actions that changed what its recipient
    # sees (R15: the others' private moves are not even counted): it names the table
    # revisions it stands for, at each of which the recipient's view was this one.
    told = told_revisions(views)
    assert all(told[-1][g] < len(views) - 1 for g in range(PLAYERS + 1))  # moves unheard
    checked = 0
    for index, seen in frames.items():
        for frame in seen:
            revs = revisions_for(told, index, frame.rev)
            assert revs and all(msgpack.packb(frame.view) == views[r][index] for r in revs)
            found = {s for s in strings(frame.view) if FISH_ID.match(s)}
            for r in revs:
                forbidden = hidden[r][index]
                assert not found & forbidden, (index, frame.rev, r, found & forbidden)
                if index == PLAYERS:
                    assert not found, f"spectator saw fish ids {found} at rev {frame.rev}"
                    public = {k: v for k, v in frame.view.items() if k != "log"}
                    assert not set(strings(public)) & client_decks[r]
            checked += 1
    assert checked == sum(len(v) for v in frames.values())
    assert deals, "this seed's game has deals, so proposals and settlements were checked too"
