"""Autoplay sends again a move the table refused as too fast, instead of stalling.

A table refuses a seat's actions beyond its rate (``slow_down``, net/server.py).
A bot playing the seat at full speed (autoplay, no delay) meets that refusal
once the game is quick to draw; its move must come again a moment later —
before, the seat stopped for good, waited on by a table that waited on it.
The test's table (``links.QueueLink``) refuses the first move as too fast
and accepts the second.
"""

from __future__ import annotations

from typing import Any

from links import QueueLink
from pilot import until
from tablekit import SEATS, midgame

from net.messages import Ack, ErrorReply, ServerMessage
from poissonnier_tui.games.poissonnier.rules.view import view_for
from poissonnier_tui.shell.app import PoissonnierApp
from poissonnier_tui.shell.session import JoinSession


async def test_a_move_refused_as_too_fast_is_sent_again() -> None:
    def answer(seq: int, action: dict[str, Any]) -> list[ServerMessage]:
        if seq == 1:
            return [ErrorReply("slow_down", "Too many moves; slow down.", seq)]
        return [Ack(seq)]

    link = QueueLink(0, answer=answer)
    app = PoissonnierApp(
        JoinSession("offline", 1, name="Ana", autoplay=True), connect=link.connect
    )
    async with app.run_test(size=(160, 50)) as pilot:
        link.lobby([(label.name, label.kind) for label in SEATS[:4]])
        link.view(view_for(midgame(), 0))  # an offer awaits Ana's answer: the bot answers
        await until(pilot, lambda: len(link.sent) >= 2)
        assert link.sent[1] == link.sent[0]  # the same move, again
        assert app.last_error is not None and app.last_error.code == "slow_down"
