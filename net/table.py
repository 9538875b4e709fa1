"""The authoritative state of one table: seats, tokens, phase, match and revision.

No I/O and no asyncio: the server feeds it requests and sends out what it
says. Every method either does all it says or raises :class:`Refused` having
changed nothing.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from net.game import ActionRejected, Agent, GameDefinition, Match, Wire
from net.messages import Phase, SeatInfo, SeatKind

log = logging.getLogger(__name__)


class Refused(Exception):
    """A request the table turned down; nothing changed.

    Args:
        code: Machine-readable code, e.g. ``"table_full"`` or a game's
            :class:`~net.game.ActionRejected` code.
        message: A plain sentence the requester can act on.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class _Seat:
    kind: SeatKind
    name: str = ""
    token: str | None = None
    agent: Agent | None = None
    connected: bool = False
    absent_since: float | None = None


class Table:
    """Seats and one match of ``game``, through lobby -> playing -> over.

    Args:
        game: The game to play.
        seats: Number of seats, within the game's ``min_seats..max_seats``.
        seed: Seed for :meth:`GameDefinition.new_match`.
        options: Game options for :meth:`GameDefinition.new_match`.
        bots: Seats played by the server: seat -> (name, agent).
        clock: Monotonic clock in seconds (replaceable in tests).

    Raises:
        ValueError: ``seats`` out of the game's range, or a bot seat out of range.
    """

    def __init__(
        self,
        game: GameDefinition,
        *,
        seats: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
        bots: Mapping[int, tuple[str, Agent]] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not game.min_seats <= seats <= game.max_seats:
            raise ValueError(
                f"{game.name} is for {game.min_seats} to {game.max_seats} seats, not {seats}."
            )
        self.game = game
        self.seed = seed
        self.options: Mapping[str, Any] = dict(options or {})
        self._clock = clock
        self._seats = [_Seat("open") for _ in range(seats)]
        for seat, (name, agent) in (bots or {}).items():
            if not 0 <= seat < seats:
                raise ValueError(f"Bot seat {seat} is outside 0..{seats - 1}.")
            self._seats[seat] = _Seat("bot", name=name, agent=agent, connected=True)
        self.phase: Phase = "lobby"
        """``"lobby"`` until :meth:`start`, ``"playing"``, then ``"over"``."""
        self.rev = 0
        """0 at the start of the match, plus one per accepted action."""
        self.match: Match | None = None
        """The match, once started."""
        self._moves = [0] * seats  # accepted actions per seat, whoever sent them

    # --- seats ------------------------------------------------------------

    @property
    def seat_count(self) -> int:
        """Number of seats."""
        return len(self._seats)

    def seat_infos(self) -> tuple[SeatInfo, ...]:
        """Public facts about every seat, in seat order."""
        return tuple(SeatInfo(s.name, s.kind, s.connected) for s in self._seats)

    def bots(self) -> dict[int, Agent]:
        """Seat -> agent for every bot seat."""
        return {i: s.agent for i, s in enumerate(self._seats) if s.agent is not None}

    def is_full(self) -> bool:
        """True when no seat is open."""
        return all(s.kind != "open" for s in self._seats)

    def set_bot(self, seat: int, name: str, agent: Agent | None) -> None:
        """Give an open or bot seat to a bot, or (``agent=None``) open a bot seat up.

        Raises:
            Refused: ``already_started``, ``no_such_seat``, or ``seat_taken`` (a human holds it).
        """
        self._require_lobby()
        target = self._seat(seat)
        if target.kind == "human":
            raise Refused("seat_taken", f"Seat {seat} is held by {target.name}.")
        if agent is None:
            self._seats[seat] = _Seat("open")
        else:
            self._seats[seat] = _Seat("bot", name=name, agent=agent, connected=True)

    def claim(self, name: str, token: str | None) -> tuple[int, str, bool]:
        """Seat a player: reclaim the seat ``token`` holds, or take the first open seat.

        Args:
            name: Display name for a newly taken seat (a reclaimed seat keeps its name).
            token: A token from an earlier claim, or ``None``.

        Returns:
            ``(seat, token, reclaimed)``. The seat is not marked connected:
            call :meth:`set_connected`.

        Raises:
            Refused: ``already_started`` (no new players once started) or
                ``table_full``.
        """
        if token is not None:
            for i, s in enumerate(self._seats):
                # compare_digest: a token is a password; don't leak its prefix by timing.
                if s.token is not None and secrets.compare_digest(s.token, token):
                    return i, s.token, True
        if self.phase != "lobby":
            raise Refused("already_started", "This game has already started.")
        for i, s in enumerate(self._seats):
            if s.kind == "open":
                fresh = secrets.token_urlsafe(16)
                self._seats[i] = _Seat("human", name=name, token=fresh, absent_since=self._clock())
                return i, fresh, False
        raise Refused("table_full", f"All {len(self._seats)} seats at this table are taken.")

    def release(self, seat: int) -> None:
        """Give a human's seat back to the lobby (they left before the start).

        Does nothing once the game has started: the seat stays theirs to reclaim.
        """
        if self.phase == "lobby" and self._seat(seat).kind == "human":
            self._seats[seat] = _Seat("open")

    def set_connected(self, seat: int, connected: bool) -> None:
        """Record whether the human holding ``seat`` has a live connection."""
        s = self._seat(seat)
        if s.kind != "human" or s.connected == connected:
            return
        s.connected = connected
        s.absent_since = None if connected else self._clock()

    def absent_since(self, seat: int) -> float | None:
        """Clock time since which the human at ``seat`` has been disconnected, else ``None``."""
        s = self._seat(seat)
        return s.absent_since if s.kind == "human" and not s.connected else None

    # --- the match --------------------------------------------------------

    def start(self) -> None:
        """Create the match (revision 0).

        Raises:
            Refused: ``already_started``, ``seats_open`` (a seat has no one),
                or ``bad_options`` (the game refused seats or options).
        """
        self._require_lobby()
        open_seats = [i for i, s in enumerate(self._seats) if s.kind == "open"]
        if open_seats:
            raise Refused(
                "seats_open",
                f"Seat {open_seats[0]} is still open; wait for a player or give it to a bot.",
            )
        try:
            match = self.game.new_match(self.seed, len(self._seats), self.options)
        except ValueError as exc:
            raise Refused("bad_options", str(exc)) from exc
        self.match = match
        self.rev = 0
        self.phase = "over" if match.is_over else "playing"

    def apply(self, seat: int, action: Wire) -> None:
        """Apply ``seat``'s action and bump :attr:`rev`.

        Raises:
            Refused: ``not_started``, ``game_over``, ``no_such_seat``, or the
                game's own :class:`~net.game.ActionRejected` code and message.
                A game that raises anything else gets ``internal_error`` (and
                a log entry): a bug in a game must not take the table down.
        """
        match = self._require_match()
        self._seat(seat)
        try:
            match.apply(seat, action)
        except ActionRejected as exc:
            raise Refused(exc.code, exc.message) from exc
        except Exception as exc:
            log.exception("The game failed applying %r for seat %d.", action, seat)
            raise Refused("internal_error", "The server could not apply that action.") from exc
        self.rev += 1
        self._moves[seat] += 1
        if match.is_over:
            self.phase = "over"

    def moves_of(self, seat: int) -> int:
        """How many actions were accepted for ``seat`` (from its player, bot or timeouts)."""
        return self._moves[seat]

    def waiting_on(self) -> frozenset[int]:
        """Seats the match waits for; empty unless playing."""
        if self.phase != "playing" or self.match is None:
            return frozenset()
        return self.match.waiting_on()

    def view(self, seat: int | None) -> Wire:
        """``Match.view(seat)``: the one source of anything sent about the game.

        Raises:
            Refused: ``not_started``.
        """
        if self.match is None:
            raise Refused("not_started", "The game has not started yet.")
        return self.match.view(seat)

    def result(self) -> Wire | None:
        """The match's public result once over, else ``None``."""
        return self.match.result() if self.match is not None and self.phase == "over" else None

    # --- helpers ----------------------------------------------------------

    def _seat(self, seat: int) -> _Seat:
        if not 0 <= seat < len(self._seats):
            raise Refused("no_such_seat", f"There is no seat {seat} at this table.")
        return self._seats[seat]

    def _require_lobby(self) -> None:
        if self.phase != "lobby":
            raise Refused("already_started", "The game has already started.")

    def _require_match(self) -> Match:
        if self.phase == "lobby" or self.match is None:
            raise Refused("not_started", "The game has not started yet.")
        if self.phase == "over":
            raise Refused("game_over", "The game is over.")
        return self.match
