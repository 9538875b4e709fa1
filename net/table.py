"""The authoritative state of one table: seats, tokens, phase, match and revision.

No I/O and no asyncio: the server feeds it requests and sends out what it
says. Every method either does all it says or raises :class:`Refused` having
changed nothing.
"""

from __future__ import annotations

import logging
import secrets
import time
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from net.game import (
    ActionRejected,
    Agent,
    GameDefinition,
    Match,
    TableMoveReason,
    Wire,
    note_table_move,
)
from net.guard import same_secret
from net.messages import NAME_MAX, Phase, SeatInfo, SeatKind
from net.schema import BLANK_LETTERS
from net.wording import worded

log = logging.getLogger(__name__)


_NOT_DRAWN: Final = str.maketrans("", "", " " + BLANK_LETTERS)


def _look(name: str) -> str:
    """How a name looks, to compare seats' names: its compatibility form (NFKC: full-width
    and styled letters as plain ones), without case, spaces or letters that draw nothing
    (:data:`net.schema.BLANK_LETTERS`). ``"Alice"`` and ``"ａｌｉｃｅ\u3164"`` look alike."""
    return unicodedata.normalize("NFKC", name).translate(_NOT_DRAWN).casefold()


class Refused(Exception):
    """A request the table turned down; nothing changed.

    Args:
        code: Machine-readable code, e.g. ``"table_full"`` or a game's
            :class:`~net.game.ActionRejected` code.
        message: A plain sentence the requester can act on.
        params: The values a client needs to say it in its own language
            (a game's :attr:`~net.game.ActionRejected.params`); none by default.
    """

    def __init__(
        self, code: str, message: str, params: Mapping[str, str | int] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: dict[str, str | int] = dict(params or {})


@dataclass(frozen=True)
class SeatRecord:
    """Who held a seat when the game started, as a table log records it.

    Attributes:
        name: display name.
        kind: ``"human"`` or ``"bot"`` (never ``"open"`` once started).
        token: a human's reconnect token (a password: it stays on the host's
            disk), ``None`` for a bot.
        agent: the bot object, for the recorder to name its kind; in-process
            only, never written.
    """

    name: str
    kind: SeatKind
    token: str | None
    agent: Agent | None = None


@dataclass
class _Seat:
    kind: SeatKind
    name: str = ""
    token: str | None = None  # a human's token; kept by a bot standing in for them
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

    def seat_records(self) -> tuple[SeatRecord, ...]:
        """Name, kind, token and agent of every seat, for the table log's header."""
        return tuple(SeatRecord(s.name, s.kind, s.token, s.agent) for s in self._seats)

    def bots(self) -> dict[int, Agent]:
        """Seat -> agent for every bot seat."""
        return {i: s.agent for i, s in enumerate(self._seats) if s.agent is not None}

    def is_full(self) -> bool:
        """True when no seat is open."""
        return all(s.kind != "open" for s in self._seats)

    def set_bot(self, seat: int, name: str, agent: Agent | None) -> None:
        """Give a seat to a bot, or take a bot off it.

        In the lobby: an open or bot seat goes to ``agent``, or (``agent=None``)
        is opened up. During the game: the seat of a *disconnected* human, or a
        bot seat, goes to ``agent``; a bot standing in for a human keeps that
        human's name and token, so the human takes the seat back by claiming
        it with the token (:meth:`claim`), and ``agent=None`` hands it back to
        them at once (absent until they reconnect). ``name`` is ignored for a
        stand-in: the seat keeps its player's name, so the log and results
        still read right.

        Raises:
            Refused: ``no_such_seat``; ``game_over``; ``seat_taken`` (a connected
                human holds it; in the lobby, any human); ``already_started``
                (``agent=None`` during the game on a seat no human held: seats
                cannot be opened once the game has started).
        """
        target = self._seat(seat)
        if self.phase == "over":
            raise Refused("game_over", *worded("game_over"))
        if self.phase == "lobby":
            if target.kind == "human":
                raise Refused("seat_taken", *worded("seat_held", seat=seat, name=target.name))
            if agent is None:
                self._seats[seat] = _Seat("open")
            else:
                self._seats[seat] = _Seat("bot", name=name, agent=agent, connected=True)
            return
        if agent is None:
            if target.kind != "bot" or target.token is None:
                raise Refused("already_started", *worded("seat_not_opened"))
            self._seats[seat] = _Seat(
                "human", name=target.name, token=target.token, absent_since=self._clock()
            )
            return
        if target.kind == "human" and target.connected:
            raise Refused(
                "seat_taken", *worded("seat_held_connected", seat=seat, name=target.name)
            )
        keep_name = target.name if target.token is not None else name
        self._seats[seat] = _Seat(
            "bot", name=keep_name, token=target.token, agent=agent, connected=True
        )

    def stand_in(self, seat: int) -> bool:
        """True if a bot plays ``seat`` for a human who can take it back with their token."""
        s = self._seat(seat)
        return s.kind == "bot" and s.token is not None

    def agent(self, seat: int) -> Agent | None:
        """The bot playing ``seat`` now, or ``None`` for a human or open seat."""
        return self._seat(seat).agent

    def holds_token(self, token: str | None) -> bool:
        """Whether ``token`` is the token of a seat here (compared as secrets)."""
        return self._seat_of_token(token) is not None

    def _seat_of_token(self, token: str | None) -> int | None:
        if token is None:
            return None
        found = None
        for i, s in enumerate(self._seats):
            # same_secret: a token is a password; don't leak its prefix by timing.
            if s.token is not None and same_secret(token, s.token):
                found = i
        return found

    def distinct_name(self, name: str) -> str:
        """``name``, or ``"name (2)"``, ``"name (3)"``... if a seat already has it.

        Names are compared as they look (:func:`_look`: compatibility forms, case,
        spaces and letters that draw nothing aside), so players can always tell
        seats apart; the result fits in :data:`~net.messages.NAME_MAX`.
        """
        taken = {_look(s.name) for s in self._seats if s.kind != "open"}
        if _look(name) not in taken:
            return name
        for n in range(2, len(self._seats) + 2):
            suffix = f" ({n})"
            candidate = name[: NAME_MAX - len(suffix)].rstrip() + suffix
            if _look(candidate) not in taken:
                return candidate
        return name  # unreachable: more candidates than seats

    def claim(self, name: str, token: str | None) -> tuple[int, str, bool]:
        """Seat a player: reclaim the seat ``token`` holds, or take the first open seat.

        Reclaiming a seat a bot stands in for (see :meth:`set_bot`) takes it
        back from the bot.

        Args:
            name: Display name for a newly taken seat (a reclaimed seat keeps its
                name); made distinct from the other seats' (:meth:`distinct_name`).
            token: A token from an earlier claim, or ``None``.

        Returns:
            ``(seat, token, reclaimed)``. The seat is not marked connected:
            call :meth:`set_connected`.

        Raises:
            Refused: ``already_started`` (no new players once started) or
                ``table_full``.
        """
        i = self._seat_of_token(token)
        if i is not None:
            s = self._seats[i]
            assert s.token is not None
            if s.kind == "bot":  # a bot stood in while they were away: it steps down
                self._seats[i] = _Seat(
                    "human", name=s.name, token=s.token, absent_since=self._clock()
                )
            return i, s.token, True
        if self.phase != "lobby":
            raise Refused("already_started", *worded("already_started"))
        for i, s in enumerate(self._seats):
            if s.kind == "open":
                fresh = secrets.token_urlsafe(16)
                name = self.distinct_name(name)
                self._seats[i] = _Seat("human", name=name, token=fresh, absent_since=self._clock())
                return i, fresh, False
        raise Refused("table_full", *worded("table_full", seats=len(self._seats)))

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
            raise Refused("seats_open", *worded("seat_open", seat=open_seats[0] + 1))
        try:
            match = self.game.new_match(self.seed, len(self._seats), self.options)
        except ValueError as exc:
            raise Refused("bad_options", str(exc)) from exc
        self.match = match
        self.rev = 0
        self.phase = "over" if match.is_over else "playing"

    def rematch(
        self, seed: int, given: Mapping[int, tuple[str, Agent] | None] | None = None
    ) -> None:
        """After the game: back to the lobby for a new match with ``seed``, the same seats.

        Connected players keep their seats and tokens; bots keep theirs (a bot
        that stood in for an absent player becomes a plain bot); an absent
        player's seat opens, for a newcomer or a bot (the host's choice,
        :meth:`set_bot`). The host then starts the new match (:meth:`start`).

        Args:
            seed: the new match's seed.
            given: seats the host gave away (their players declined, left or did
                not answer, ``net/rematch.py``): seat -> ``(name, agent)`` for a
                bot, ``None`` to open it. Their tokens are void from then on.

        Raises:
            Refused: ``not_over`` (no game has ended here yet); ``no_such_seat``.
        """
        if self.phase != "over":
            raise Refused("not_over", *worded("not_over"))
        given = dict(given or {})
        for seat in given:
            self._seat(seat)
        for i, s in enumerate(self._seats):
            if i in given:
                bot = given[i]
                self._seats[i] = (
                    _Seat("open")
                    if bot is None
                    else _Seat("bot", name=bot[0], agent=bot[1], connected=True)
                )
            elif s.kind == "human" and not s.connected:
                self._seats[i] = _Seat("open")
            elif s.kind == "bot" and s.token is not None:
                self._seats[i] = _Seat("bot", name=s.name, agent=s.agent, connected=True)
        self.seed = seed
        self.match = None
        self.rev = 0
        self._moves = [0] * len(self._seats)
        self.phase = "lobby"

    def restore(
        self,
        humans: Mapping[int, tuple[str, str]],
        actions: Iterable[tuple[int, Wire] | tuple[int, Wire, str | None]],
    ) -> None:
        """Rebuild a table that was playing from its log (resume after a crash).

        Seats each human of ``humans`` (seat -> (name, token)) as away, to
        reclaim the seat with its token (:meth:`claim`); bot seats come from
        the constructor. Then starts the match and applies every action in
        order, as the first run did: the same seed, seats, options and
        actions give the same state (R3). An action may come with the reason
        the table played it itself (``(seat, action, why)``, see :meth:`apply`).

        Raises:
            ValueError: a seat of ``humans`` is out of range, a bot's, or has an empty token.
            Refused: ``already_started``, ``seats_open``, ``bad_options``, or
                ``bad_record`` naming the action (counted from 1) that was refused;
                the table is then half rebuilt and must be discarded.
        """
        self._require_lobby()
        for seat, (name, token) in humans.items():
            if not 0 <= seat < len(self._seats) or self._seats[seat].kind == "bot" or not token:
                raise ValueError(f"Seat {seat} cannot be restored for a player.")
            self._seats[seat] = _Seat("human", name=name, token=token, absent_since=self._clock())
        self.start()
        for index, item in enumerate(actions):
            seat, action = item[0], item[1]
            try:
                self.apply(seat, action, item[2] if len(item) > 2 else None)
            except Refused as exc:
                raise Refused(
                    "bad_record",
                    f"Logged action {index + 1} (seat {seat}) was refused: {exc.message}",
                ) from exc

    def apply(self, seat: int, action: Wire, why: TableMoveReason | None = None) -> None:
        """Apply ``seat``'s action and bump :attr:`rev`; ``why``: the table plays it
        itself for that reason (see :func:`net.game.note_table_move`), ``None``: the
        seat's player or bot does.

        Raises:
            Refused: ``not_started``, ``game_over``, ``no_such_seat``, or the
                game's own :class:`~net.game.ActionRejected` code and message.
                A game that raises anything else gets ``internal_error`` (and
                a log entry): a bug in a game must not take the table down.
        """
        match = self._require_match()
        self._seat(seat)
        try:
            if why is not None:
                note_table_move(match, seat, why)
            match.apply(seat, action)
        except ActionRejected as exc:
            raise Refused(exc.code, exc.message, exc.params) from exc
        except Exception as exc:
            log.exception("The game failed applying %r for seat %d.", action, seat)
            raise Refused("internal_error", *worded("internal_error")) from exc
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

    def volunteers(self) -> frozenset[int]:
        """Seats the match lets act unasked (``Match.volunteers``); empty unless playing."""
        if self.phase != "playing" or self.match is None:
            return frozenset()
        return self.match.volunteers()

    def view(self, seat: int | None) -> Wire:
        """``Match.view(seat)``: the one source of anything sent about the game.

        Raises:
            Refused: ``not_started``.
        """
        if self.match is None:
            raise Refused("not_started", *worded("not_started"))
        return self.match.view(seat)

    def result(self) -> Wire | None:
        """The match's public result once over, else ``None``."""
        return self.match.result() if self.match is not None and self.phase == "over" else None

    # --- helpers ----------------------------------------------------------

    def _seat(self, seat: int) -> _Seat:
        if not 0 <= seat < len(self._seats):
            raise Refused("no_such_seat", *worded("no_such_seat", seat=seat))
        return self._seats[seat]

    def _require_lobby(self) -> None:
        if self.phase != "lobby":
            raise Refused("already_started", *worded("started"))

    def _require_match(self) -> Match:
        if self.phase == "lobby" or self.match is None:
            raise Refused("not_started", *worded("not_started"))
        if self.phase == "over":
            raise Refused("game_over", *worded("game_over"))
        return self.match
