"""A whole Go Fish game over real TCP on 127.0.0.1, every frame checked for leaks.

Two seats are played server-side by bots, two by ordinary `TableClient`s
whose moves come from bots running in the client on the views they receive
(their legal asks computed with ``legal_from_view``), and a spectator
watches. From the server side the test records, at every revision, each
hand, the stock and the cards the table had been told about; then it proves
that no frame to a seat names a card of another hand or of the stock, and no
frame to the spectator names a card of any hand or of the stock, except a
card the whole table was told about (a shown draw, or a card asked for in §6)
— docs/GOFISH.md §8, G10.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from gofish_stacking import named_cards, public_cards

from net.client import TableClient
from net.game import Agent
from net.messages import Lobby, View
from net.server import TableServer
from poissonnier_tui import __version__
from poissonnier_tui.games.gofish.bots import make_bot
from poissonnier_tui.games.gofish.match import GoFishGame, GoFishMatch
from poissonnier_tui.games.gofish.rules.view import legal_from_view

PLAYERS = 4
CLIENT_SEATS = (0, 1)


class RecordingGame(GoFishGame):
    """The real game definition, keeping a handle on the match for the test's eyes only."""

    def __init__(self, on_new: Callable[[], None]) -> None:
        self.match: GoFishMatch | None = None
        self._on_new = on_new

    def new_match(self, seed: int, seats: int, options: Mapping[str, Any]) -> GoFishMatch:
        self.match = super().new_match(seed, seats, options)
        self._on_new()  # revision 0: the dealt state
        return self.match


async def play_client(
    client: TableClient, agent: Agent, frames: list[View]
) -> dict[str, Any] | None:
    """Play ``client``'s seat with ``agent`` on the views it receives; the final result."""
    async for msg in client.messages():
        if isinstance(msg, Lobby) and msg.phase == "over":
            break
        if not isinstance(msg, View):
            continue
        frames.append(msg)
        view = msg.view
        if view["result"] is not None:
            return dict(view["result"])
        if client.seat in view["waiting_on"]:
            action = agent.act(view, legal_from_view(view))
            if action is not None:
                await client.send_action(action)
    return None


@pytest.mark.parametrize(
    "options",
    [{}, {"variant": "card", "bluff": True, "play_on": True}],
    ids=["rank", "card-bluff-play-on"],
)
async def test_two_clients_two_server_bots_and_a_spectator_leak_nothing(
    options: dict[str, Any],
) -> None:
    own: list[list[set[str]]] = []  # per revision, per seat
    hidden: list[set[str]] = []  # per revision: every hand and the stock
    public: list[set[str]] = []  # per revision: cards the table was told about

    def record() -> None:
        assert game.match is not None
        state = game.match.state
        own.append([set(h) for h in state.hands])
        hidden.append({c for h in state.hands for c in h} | set(state.stock))
        public.append(public_cards(state))

    game = RecordingGame(record)

    async def on_action(seat: int, action: Mapping[str, Any]) -> None:
        record()  # after apply, before anyone hears of it: revision len(own) - 1

    server = TableServer(
        game, name="gofish-e2e", seats=PLAYERS, seed=2026, app_version=__version__,
        options=options, bots={2: make_bot("medium", 2), 3: make_bot("hard", 3, budget=0.25)},
        bot_delay=0.0, auto_start=True, turn_timeout=10.0, on_action=on_action,
    )  # fmt: skip
    frames: dict[int | None, list[View]] = {s: [] for s in CLIENT_SEATS}
    frames[None] = []
    async with server:
        spectator = await TableClient.connect(
            "127.0.0.1", server.port, name="Watcher", role="spectator",
            app_version=__version__, game=game.name,
        )  # fmt: skip
        clients = [
            await TableClient.connect(
                "127.0.0.1",
                server.port,
                name=f"Player{s}",
                app_version=__version__,
                game=game.name,
            )
            for s in CLIENT_SEATS
        ]
        assert [c.seat for c in clients] == list(CLIENT_SEATS)

        async def watch() -> None:
            async for msg in spectator.messages():
                if isinstance(msg, View):
                    frames[None].append(msg)
                    if msg.view["result"] is not None:
                        return

        results = await asyncio.wait_for(
            asyncio.gather(
                play_client(clients[0], make_bot("easy", 10), frames[0]),
                play_client(clients[1], make_bot("medium", 11), frames[1]),
                watch(),
            ),
            timeout=120,
        )
        final = await server.wait_over()
        for c in [*clients, spectator]:
            await c.close()

    assert final is not None and final["winners"]
    assert results[:2] == [final, final]
    assert frames[None][-1].view["result"] == final
    assert final["seed"] == 2026
    turns = [e for e in frames[None][-1].view["log"] if e["t"] == "turn"]
    assert len(turns) == final["turns"] > 3  # a whole game crossed the wire
    asked_seats = {e["seat"] for e in frames[None][-1].view["log"] if e["t"] == "ask"}
    assert asked_seats == set(range(PLAYERS))  # clients and server bots all played

    checked = 0
    shown_seen = 0
    for seat, views in frames.items():
        for frame in views:
            named = named_cards(frame.view)
            mine = own[frame.rev][seat] if seat is not None else set()
            leaked = (named & hidden[frame.rev]) - mine - public[frame.rev]
            assert not leaked, (seat, frame.rev, leaked)
            assert named <= mine | public[frame.rev], (seat, frame.rev)  # nor a booked card
            if seat is None:
                assert frame.view["me"] is None
            else:
                assert sorted(frame.view["me"]["hand"]) == sorted(mine)
            shown_seen += bool(named - mine)
            checked += 1
    assert checked == sum(len(v) for v in frames.values()) > 20
    assert shown_seen, "some frame named a public card, so the exception was exercised"
