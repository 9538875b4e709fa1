"""R15 over the wire: another seat's private move is not even counted.

In the fill step a seat's places and take-backs change only its own view (RULES.md
R15, R16). The others get no frame for them, and the revision their next view carries
(``net/server.py`` ``TableServer.rev_for``) and a chat line's place among the actions
must not count them either, or anyone could tell how often a seat rearranged.
"""

from __future__ import annotations

import pytest
from test_net_server import FAST, join

from net.chat import Said
from net.messages import Ack, Lobby
from net.server import TableServer
from poissonnier_tui import __version__
from poissonnier_tui.games.poissonnier.match import PoissonnierGame
from poissonnier_tui.games.poissonnier.rules import cards


@pytest.mark.parametrize("limit", [None, 30.0])
async def test_the_others_are_not_told_of_a_private_move(limit: float | None) -> None:
    """R15, R16; with and without a time limit for the fill step (R6)."""
    server = TableServer(
        PoissonnierGame(), name="R15", seats=2, seed=5, app_version=__version__,
        auto_start=True, turn_timeout=limit, timing=FAST,
    )  # fmt: skip
    async with server:
        details = {"app_version": __version__, "game": "poissonnier"}
        ana, ana_w = await join(server, "Ana", **details)
        bob, bob_w = await join(server, "Bob", **details)
        eve, eve_w = await join(server, "Eve", role="spectator", **details)
        first = await ana_w.view(0)
        for watch in (bob_w, eve_w):
            await watch.view(0)
        fish = next(c for c in first.view["me"]["hand"] if not cards.is_special(c))

        # Ana arranges her crate and takes it back: two actions only she hears of.
        await ana.send_action({"type": "place", "cards": [fish], "crate": 0})
        await ana.send_action({"type": "take_back", "crate": 0})
        assert sorted((await ana_w.view(2)).view["me"]["hand"]) == sorted(first.view["me"]["hand"])
        assert server.rev == 2
        assert (server.rev_for(0), server.rev_for(1), server.rev_for(None)) == (2, 0, 0)
        await eve.say("Anyone moving?")
        for watch in (ana_w, bob_w, eve_w):
            line = await watch.until(lambda m: isinstance(m, Said))
            assert (line.text, line.after) == ("Anyone moving?", 0)  # no count on the wire
        for watch in (bob_w, eve_w):  # lobby frames as each joined, the deal, the chat
            heard = [type(m).__name__ for m in watch.seen if not isinstance(m, Lobby)]
            assert heard == ["View", "Said"]

        # Bob declares ready, which everyone sees: one more action for each of them.
        await bob.send_action({"type": "ready"})
        assert isinstance(await bob_w.until(lambda m: isinstance(m, Ack)), Ack)
        assert (await bob_w.view()).rev == 1
        assert (await eve_w.view()).rev == 1
        assert (await ana_w.view()).rev == 3
        assert (server.rev, server.rev_for(1), server.rev_for(None)) == (3, 1, 1)
        for client in (ana, bob, eve):
            await client.close()
