"""Play one seat of a table over the network with a bot, no UI.

The bot runs in the client, sees only the views the server sends its seat
(RULES.md §9) and computes its legal actions from them
(``game.determinize.legal_from_view``); every move goes to the server as an
ordinary action. Used by end-to-end tests and by headless joins.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from net.client import TableClient
from net.game import Agent
from net.messages import Lobby, ServerMessage, View
from poissonnier_tui.games.poissonnier.rules.determinize import legal_from_view

#: Called with every message the seat receives (e.g. to record frames).
Observer = Callable[[ServerMessage], None]


async def play_seat(
    client: TableClient,
    agent: Agent,
    *,
    observe: Observer | None = None,
    seed: int = 0,
    on_send: Callable[[int, dict[str, Any]], None] | None = None,
) -> dict[str, Any] | None:
    """Play ``client``'s seat with ``agent`` until the game ends or the link drops.

    The bot is asked after each view in which its seat is waited on; a pass
    (``None``) waits for the next view. A refused move is simply followed by
    the next view (the server's state moved on, or it says why in an error
    frame that ``observe`` sees).

    Args:
        client: a connected player (not a spectator).
        agent: the bot choosing this seat's moves.
        observe: called with every received message, before the bot acts.
        seed: seeds the sampling of hidden cards for legal actions.
        on_send: called with ``(seq, action)`` for every action sent.

    Returns:
        The final result map from the last view, or ``None`` if the
        connection ended before the game did.

    Raises:
        ValueError: ``client`` is a spectator.
    """
    if client.seat is None:
        raise ValueError("a spectator has no seat to play")
    rng = random.Random(seed)
    async for msg in client.messages():
        if observe is not None:
            observe(msg)
        if isinstance(msg, Lobby) and msg.phase == "over":
            break
        if not isinstance(msg, View):
            continue
        view = msg.view
        if view.get("result") is not None:
            return dict(view["result"])
        if client.seat not in view["waiting_on"]:
            continue
        legal = legal_from_view(view, rng)
        action = await asyncio.to_thread(agent.act, view, legal)
        if action is not None:
            seq = await client.send_action(action)
            if on_send is not None:
                on_send(seq, dict(action))
    return None
