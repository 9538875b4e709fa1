"""Play again at a table: the host proposes a rematch, each seated player answers.

Game-agnostic. After a game (phase ``"over"``) the host proposes a rematch
(:meth:`net.server.TableServer.propose_rematch`); the proposer's seat and
every bot accept at once. Each seated person answers from their results
screen with ``{type: "rematch_answer", yes: bool}``, once. Every connection,
spectators included, hears where the answers stand in
``{type: "rematch", seats: [str] | None}``: one state per seat (below), or
``None`` once no proposal is open (withdrawn, or the new game began).

Seat states (:data:`SeatAnswer`): ``"yes"`` (accepted; the host and bots at
once), ``"no"`` (declined), ``"waiting"`` (a connected person who has not
answered), ``"away"`` (a person who left or lost the connection; when they
come back with their token they are ``"waiting"`` again, or keep their
answer), ``"bot"`` / ``"open"`` (the host gave the seat of someone who
declined, left or has not answered to a bot, or opened it for a newcomer).

The wire messages are :class:`net.messages.RematchAnswer` and
:class:`net.messages.RematchState`.

The host starts the rematch once no seat is ``"waiting"``, ``"no"`` or
``"away"`` (:meth:`RematchVote.unsettled` is empty); the new game then keeps
every seat and token of those who accepted. There is no answer timeout: the
host is a person at the table who sees who is awaited, and decides how long
to wait before handing the seat to a bot or opening it (the awaited player's
connection then closes with ``bye`` reason :data:`net.messages.SEAT_GIVEN`).

Refusals (``error`` frames; nothing changes): ``no_rematch`` (no proposal is
open), ``rematch_not_seated`` (a spectator answered), ``already_answered``
(``params``: ``answer`` = ``"yes"``/``"no"``), ``seat_settled`` (the host
already gave the seat away), and, to the host, ``rematch_proposed``,
``not_over``, ``rematch_waiting`` (``params``: ``names``, the awaited seats'
names joined by ", ") and ``rematch_answered`` (a seat that accepted cannot
be given away).
"""

from __future__ import annotations

from collections.abc import Sequence

from net.messages import SeatAnswer, SeatInfo
from net.table import Refused
from net.wording import worded


class RematchVote:
    """The answers to one rematch proposal; pure (no I/O, no clock).

    Args:
        proposer: the seat of the host who proposed (it accepts at once), or
            ``None`` for a host without a seat.
    """

    def __init__(self, proposer: int | None) -> None:
        self._answers: dict[int, bool] = {} if proposer is None else {proposer: True}
        self._given: dict[int, bool] = {}  # seat -> True: to a bot, False: opened

    def states(self, seats: Sequence[SeatInfo]) -> tuple[SeatAnswer, ...]:
        """Each seat's :data:`SeatAnswer`, from the answers and the seats now."""
        return tuple(self._state(i, s) for i, s in enumerate(seats))

    def _state(self, seat: int, info: SeatInfo) -> SeatAnswer:
        given = self._given.get(seat)
        if given is not None:
            return "bot" if given else "open"
        if info.kind == "bot":
            return "yes"
        if info.kind == "open":
            return "open"
        if not info.connected:
            return "away"
        answer = self._answers.get(seat)
        return "waiting" if answer is None else "yes" if answer else "no"

    def answer(self, seat: int, yes: bool) -> None:
        """Record ``seat``'s answer.

        Raises:
            Refused: ``already_answered`` or ``seat_settled``.
        """
        if seat in self._given:
            raise Refused("seat_settled", *worded("seat_settled"))
        said = self._answers.get(seat)
        if said is not None:
            raise Refused("already_answered", *worded("rematch_already"))
        self._answers[seat] = yes

    def give(self, seat: int, to_bot: bool, seats: Sequence[SeatInfo]) -> None:
        """The host gives ``seat`` (declined, away or still awaited) to a bot or opens it.

        Raises:
            Refused: ``no_such_seat``; ``rematch_answered`` (the seat accepted, or
                is a bot).
        """
        if not 0 <= seat < len(seats):
            raise Refused("no_such_seat", *worded("no_such_seat", seat=seat))
        if self._state(seat, seats[seat]) == "yes":
            raise Refused("rematch_answered", *worded("rematch_answered", name=seats[seat].name))
        self._given[seat] = to_bot

    def unsettled(self, seats: Sequence[SeatInfo]) -> list[int]:
        """Seats the host must wait for or give away before starting: ``"waiting"``,
        ``"no"`` or ``"away"``."""
        return [
            i for i, state in enumerate(self.states(seats)) if state in ("waiting", "no", "away")
        ]

    def given(self) -> dict[int, bool]:
        """Seats the host gave away: seat -> ``True`` (a bot) or ``False`` (opened)."""
        return dict(self._given)
