"""A table link for app tests: no socket, the test plays the table.

:class:`QueueLink` satisfies ``poissonnier_tui.shell.worker.Link``: the app's
network worker reads the frames the test :meth:`~QueueLink.push`-es, and every
action the app sends goes to ``answer`` (the test's table: e.g. the rules
engine in process), whose frames are pushed in turn. Hand it to the app with
``PoissonnierApp(session, connect=link.connect)``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

from textual.pilot import Pilot

from net.messages import Lobby, SeatInfo, ServerMessage, View

Answer = Callable[[int, dict[str, Any]], list[ServerMessage]]
"""The table's frames in answer to the action numbered ``seq``."""


class QueueLink:
    """A joined table whose frames the test writes.

    Args:
        seat: our seat (``None``: a spectator).
        game: the game the table plays (a registry name).
        answer: the table's answer to each action (default: none).
    """

    def __init__(
        self, seat: int | None = 0, *, game: str = "poissonnier", answer: Answer | None = None
    ) -> None:
        self.seat = seat
        self.token: str | None = "token" if seat is not None else None
        self.table_name = "Offline"
        self.address = "offline"
        self.game = game
        self.lost_reason: str | None = None
        self.hosted = None
        self.answer = answer
        self.sent: list[dict[str, Any]] = []
        """Every action the app sent, in order."""
        self.rematch_answers: list[bool] = []
        """Every answer to a rematch the app sent, in order."""
        self.closed = False
        self.rev = 0
        self._seq = 0
        self._inbox: asyncio.Queue[ServerMessage | None] = asyncio.Queue()

    async def connect(
        self, session: object, *, say: Callable[[str], None] | None = None
    ) -> QueueLink:
        """The ``connect`` callable for the app: this link, already joined."""
        return self

    def push(self, msg: ServerMessage) -> None:
        """A frame from the table."""
        self._inbox.put_nowait(msg)

    def lobby(self, names: list[tuple[str, str]], *, started: bool = True) -> None:
        """A ``lobby`` frame: ``(name, kind)`` per seat, everybody connected."""
        seats = tuple(SeatInfo(name, kind, True) for name, kind in names)  # type: ignore[arg-type]
        self.push(Lobby(seats, started, "playing" if started else "lobby"))

    def view(self, view: Mapping[str, Any]) -> None:
        """A ``view`` frame, one revision on."""
        self.rev += 1
        self.push(View(self.rev, dict(view)))

    @property
    def idle(self) -> bool:
        """Every pushed frame has been read."""
        return self._inbox.empty()

    async def messages(self) -> AsyncIterator[ServerMessage]:
        """The pushed frames, until :meth:`close`."""
        while (msg := await self._inbox.get()) is not None:
            yield msg

    async def send_action(self, action: Mapping[str, Any]) -> int:
        """Record ``action`` and push the table's answer."""
        self._seq += 1
        self.sent.append(dict(action))
        if self.answer is not None:
            for msg in self.answer(self._seq, dict(action)):
                self.push(msg)
        return self._seq

    async def answer_rematch(self, yes: bool) -> None:
        """Record an answer to the proposed rematch."""
        self.rematch_answers.append(yes)

    async def start(self) -> None:
        """Nothing to start."""

    async def close(self) -> None:
        """End the frames."""
        if not self.closed:
            self.closed = True
            self._inbox.put_nowait(None)


async def settle(pilot: Pilot[Any], link: QueueLink, rounds: int = 50) -> None:
    """Let the app send what it queued and read every frame the link has, then refresh."""
    relay = pilot.app.relay  # type: ignore[attr-defined]
    for _ in range(rounds):
        await pilot.pause()
        if link.idle and relay.queued == 0:
            break
    await pilot.pause()
    await pilot.pause()
