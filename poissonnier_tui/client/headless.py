"""Play one seat of a table over the network with a bot, no UI.

The bot runs in the client, sees only the views the server sends its seat
(RULES.md §9) and computes its legal actions from them through the game's
``legal_from_view`` (:class:`poissonnier_tui.games.GameEntry`); every move goes
to the server as an ordinary action. Used by end-to-end tests and by headless
joins, for any registered game.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

from net.client import TableClient
from net.game import Agent, Wire
from net.messages import ErrorReply, Lobby, ServerMessage, View
from poissonnier_tui.games import DEFAULT_GAME, GameEntry, game_entry
from poissonnier_tui.i18n import _

#: Called with every message the seat receives (e.g. to record frames).
Observer = Callable[[ServerMessage], None]


RETRIES = 3
"""Times the bot is asked again on one view after its move was refused."""

RETRY_PAUSE = 0.1
"""Seconds before the first new try after a refusal, growing by as much each time,
so a refused bot never runs into the table's rate limit (10 moves a second)."""


async def play_seat(
    client: TableClient,
    agent: Agent,
    *,
    observe: Observer | None = None,
    game: GameEntry | str = DEFAULT_GAME,
    on_send: Callable[[int, dict[str, Any]], None] | None = None,
) -> dict[str, Any] | None:
    """Play ``client``'s seat with ``agent`` until the game ends or the link drops.

    The bot is asked after each view in which its seat is waited on; a pass
    (``None``) waits for the next view. A refused move (the bot judged from a
    partial view, or the table said ``slow_down``) is followed by asking the
    bot again on the same view after a pause, :data:`RETRIES` times, then by
    the game's always-legal fallback (``GameEntry.fallback_from_view``: ready,
    decline, end the turn...; its first legal action if it has none): a table
    sends a view only when this seat's view changed, so no new view may come
    to unstick it.

    Args:
        client: a connected player (not a spectator).
        agent: the bot choosing this seat's moves (made by the game's ``make_bot``).
        observe: called with every received message, before the bot acts.
        game: the game played at the table (its entry or registry name): its
            ``legal_from_view`` gives the bot its legal actions.
        on_send: called with ``(seq, action)`` for every action sent.

    Returns:
        The final result map from the last view, or ``None`` if the
        connection ended before the game did.

    Raises:
        ValueError: ``client`` is a spectator, or an unknown game.
    """
    if client.seat is None:
        raise ValueError(_("a spectator has no seat to play"))
    entry = game_entry(game) if isinstance(game, str) else game
    last: View | None = None  # the view the last move was chosen on
    sent: int | None = None  # that move's seq
    refused = 0  # refusals in a row on that view
    async for msg in client.messages():
        if observe is not None:
            observe(msg)
        if isinstance(msg, Lobby) and msg.phase == "over":
            break
        if isinstance(msg, ErrorReply) and last is not None and msg.seq == sent:
            refused += 1
            await asyncio.sleep(RETRY_PAUSE * refused)
            if refused > RETRIES:
                fallback = _fallback(entry, last.view)
                sent = None if fallback is None else await client.send_action(fallback)
                if on_send is not None and sent is not None and fallback is not None:
                    on_send(sent, dict(fallback))
                continue
            msg = last
        if not isinstance(msg, View):
            continue
        if msg is not last:
            refused = 0
        view = msg.view
        if view.get("result") is not None:
            return dict(view["result"])
        if client.seat not in view["waiting_on"]:
            continue
        legal = entry.legal_from_view(view)
        action = await asyncio.to_thread(agent.act, view, legal)
        last, sent = msg, None
        if action is not None:
            sent = await client.send_action(action)
            if on_send is not None:
                on_send(sent, dict(action))
    return None


def _fallback(entry: GameEntry, view: Mapping[str, Any]) -> Wire | None:
    """The move a seat makes when its bot's keep being refused on ``view``."""
    if entry.fallback_from_view is not None:
        return entry.fallback_from_view(view)
    legal = entry.legal_from_view(view)
    return legal[0] if legal else None
