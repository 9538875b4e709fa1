"""A saved game, step by step, for the replay viewer (``poissonnier replay LOG``).

:class:`Replay` reads a table log of any registered game (the header names it:
:func:`poissonnier_tui.hosting.persistence.log_game`), replays it from the seed
(R3) through the game's own match (``new_match``, ``Match.apply``) and keeps
the match after every action: step 0 is the deal, step *k* the match after
the *k*-th logged action. No Textual here; a game's replay screen only asks
for views.

Who may see what (docs/ARCHITECTURE.md "one door"): every view comes from
``Match.view`` for the point of view chosen — ``None`` (the public view, what
a spectator saw) or a seat (what that player saw). A **finished** game may
also be shown with every hand (:data:`ALL_HANDS`) when its match offers
:class:`Omniscient` (Le Poissonnier: ``all_hands_view``, RULES.md §9), from
any seat's point of view. A game **still running** (no end in its log: it
crashed, or it is being played) may be shown only from the public view and
from the viewer's own seat: ``seat=`` given when loading, by default the
table's only human seat (a solo game), else none.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, Protocol, runtime_checkable

from net.game import Match, Wire
from net.recorder import LogHeader, replay
from net.tablelog import LoggedChat, TableLog
from poissonnier_tui.games import GameEntry
from poissonnier_tui.hosting.persistence import (
    ResumeError,
    _read,
    check_header,
    damage_text,
    log_game,
    public_turn,
)
from poissonnier_tui.i18n import _

ALL_HANDS: Final = "all"
"""The point of view that shows every hand (finished games only)."""

PointOfView = int | None | Literal["all"]
"""A seat, ``None`` for the public view, or :data:`ALL_HANDS`."""


@runtime_checkable
class Omniscient(Protocol):
    """A match that can show every hand once its game is over (optional for a game)."""

    def omniscient_view(self, finished: Match) -> Wire:
        """The public view of this match plus every seat's hidden cards.

        Args:
            finished: the same game's match at its end (only a finished game
                may be shown this way).

        Raises:
            ValueError: ``finished`` is not over, or not the same game.
        """
        ...


@runtime_checkable
class Copyable(Protocol):
    """A match that copies itself faster than :func:`copy.deepcopy` (optional)."""

    def copy(self) -> Match:
        """An independent copy."""
        ...


def snapshot(match: Match) -> Match:
    """An independent copy of ``match`` (its own ``copy()`` if it has one)."""
    if isinstance(match, Copyable):
        return match.copy()
    return copy.deepcopy(match)


class NotAllowed(Exception):
    """A point of view this replay may not show (a running game's other seats)."""


@dataclass(frozen=True, slots=True)
class Move:
    """The action that led to a step.

    Attributes:
        seat: who played it.
        action: its wire map (card ids included: show only to who may see them).
        time: when it was recorded, Unix seconds.
    """

    seat: int
    action: dict[str, Any]
    time: float


class Replay:
    """Every state of a logged game, and the views of them each point of view may see.

    Build with :meth:`load`. Attributes:

    Attributes:
        path: the log.
        header: its checked header.
        game: the game played (from the header, through the registry).
        moves: the logged actions that replayed, in order (``moves[k - 1]`` led to step *k*).
        finished: the game reached its end within the log.
        viewer: the seat whose hand a running game may show (``None``: none).
        problem: why the replay stops early (a damaged file, a refused
            action), or ``None``.
        chats: the table's chat, in order (net/chat.py; see :meth:`chat_at`).
    """

    def __init__(
        self,
        path: Path,
        header: LogHeader,
        matches: list[Match],
        moves: list[Move],
        *,
        viewer: int | None,
        problem: str | None,
        chats: Sequence[LoggedChat] = (),
    ) -> None:
        self.path = path
        self.header = header
        self.game: GameEntry = log_game(header)
        self._matches = matches
        self._turns = [public_turn(m) for m in matches]
        self.moves = moves
        self.finished = matches[-1].is_over
        self.viewer = None if self.finished else viewer
        self.problem = problem
        self.chats = list(chats)

    @classmethod
    def load(cls, path: Path, *, seat: int | None = None) -> Replay:
        """Read and replay a log.

        Args:
            path: the log file.
            seat: for a game still running, the seat whose hand may be shown
                (the viewer's own); default the only human seat, if there is
                exactly one. Ignored for a finished game.

        Raises:
            ResumeError: unreadable file or header, a game this app does not
                have, another rules version, or a
                ``seat`` that is not at the table. A damaged tail or a refused
                action is not an error: the replay stops there (:attr:`problem`).
        """
        log, damaged = _read(path)
        if log is None:
            assert damaged is not None
            why = damage_text(damaged)
            raise ResumeError(_("{why}. There is nothing to replay.").format(why=why))
        header = check_header(log)
        problem = damage_text(damaged) if damaged is not None else None
        matches, moves, error = _replay(log, header)
        if error is not None:
            problem = error if problem is None else f"{problem}; {error}"
        humans = [i for i, s in enumerate(header.seats) if s.kind == "human"]
        if seat is not None and not 0 <= seat < len(header.seats):
            raise ResumeError(_("There is no seat {n} at this table.").format(n=seat + 1))
        viewer = seat if seat is not None else (humans[0] if len(humans) == 1 else None)
        return cls(path, header, matches, moves, viewer=viewer, problem=problem, chats=log.chats)

    def chat_at(self, step: int) -> list[LoggedChat]:
        """What had been said at the table by ``step`` (clamped), oldest first."""
        step = self._clamp(step)
        return [c for c in self.chats if c.after <= step]

    # --- steps and turns ---------------------------------------------------------------------

    @property
    def steps(self) -> int:
        """The last step: the number of actions replayed."""
        return len(self._matches) - 1

    def match(self, step: int) -> Match:
        """The match at ``step`` (for tests and this module; only its views are shown)."""
        return self._matches[self._clamp(step)]

    def state(self, step: int) -> Any:
        """The game's own full state at ``step`` (the match adapter's ``state``; for tests)."""
        return getattr(self.match(step), "state", None)

    def turn_at(self, step: int) -> int:
        """The turn number at ``step``: the public view's ``turn``, or the step itself
        for a game whose view shows no turn number."""
        turn = self._turns[self._clamp(step)]
        return self._clamp(step) if turn is None else turn

    @property
    def turns(self) -> int:
        """The last turn reached."""
        return self.turn_at(self.steps)

    def turn_start(self, turn: int) -> int:
        """The first step of ``turn`` (clamped to the turns played)."""
        turn = max(1, min(turn, self.turns))
        return next(k for k in range(self.steps + 1) if self.turn_at(k) >= turn)

    def next_turn(self, step: int) -> int:
        """The first step of the turn after ``step``'s (or the last step)."""
        turn = self.turn_at(step)
        return self.turn_start(turn + 1) if turn < self.turns else self.steps

    def previous_turn(self, step: int) -> int:
        """The start of ``step``'s turn, or of the turn before if ``step`` is that start."""
        start = self.turn_start(self.turn_at(step))
        if step > start:
            return start
        return self.turn_start(self.turn_at(step) - 1) if self.turn_at(step) > 1 else 0

    def _clamp(self, step: int) -> int:
        return max(0, min(step, self.steps))

    # --- points of view ------------------------------------------------------------------------

    def points_of_view(self) -> list[PointOfView]:
        """What may be shown, in cycling order: public, seats, every hand (if finished and
        the game can show them, :class:`Omniscient`)."""
        if self.finished:
            seats: list[PointOfView] = [None, *range(len(self.header.seats))]
            return seats + ([ALL_HANDS] if isinstance(self._matches[-1], Omniscient) else [])
        return [None] if self.viewer is None else [None, self.viewer]

    def allowed(self, pov: PointOfView) -> bool:
        """Whether this replay may show ``pov``."""
        return pov in self.points_of_view()

    def view(self, step: int, pov: PointOfView) -> dict[str, Any]:
        """The view of ``step`` from ``pov`` (module docstring: who may see what).

        Raises:
            NotAllowed: ``pov`` is not in :meth:`points_of_view`.
        """
        if not self.allowed(pov):
            raise NotAllowed(
                _(
                    "A game that is not over can be shown only from the public view "
                    "and from your own seat (RULES.md §9)."
                )
            )
        match = self.match(step)
        if pov == ALL_HANDS:
            assert isinstance(match, Omniscient)
            return match.omniscient_view(self._matches[-1])
        assert pov is None or isinstance(pov, int)
        return match.view(pov)

    def move_text(self, step: int, pov: PointOfView) -> str:
        """Who did what to reach ``step``, as plain text; card ids only where ``pov`` may see them.

        The mover's cards are named only from the mover's own point of view or
        with every hand shown; others read the kind of move (the public log
        tells what everyone saw).
        """
        parts = self.move_parts(step, pov)
        if parts is None:
            return _("The deal.")
        seat, kind, details = parts
        name = self.header.seats[seat].name or _("Seat {n}").format(n=seat + 1)
        words = self.game.actions.get(kind)
        said = _(words) if words else kind.replace("_", " ")
        if details:
            shown = ", ".join(f"{k}={plain_value(v)}" for k, v in details.items())
            return _("{name}: {move} ({details})").format(name=name, move=said, details=shown)
        return _("{name}: {move}").format(name=name, move=said)

    def move_parts(self, step: int, pov: PointOfView) -> tuple[int, str, dict[str, Any]] | None:
        """The move that reached ``step`` as data, for a screen to put in its own words:
        ``(seat, action type, fields)``, the fields (wire keys -> values, no ``type``)
        only where ``pov`` may see the mover's cards (else empty); ``None`` for the deal.
        """
        if step <= 0:
            return None
        move = self.moves[self._clamp(step) - 1]
        kind = str(move.action.get("type", "?"))
        details: dict[str, Any] = {}
        if pov == ALL_HANDS or pov == move.seat:
            details = {k: v for k, v in move.action.items() if k != "type"}
        return move.seat, kind, details


def plain_value(value: Any) -> str:
    """A wire value as plain text: lists as ``[a b c]``, nested lists likewise."""
    if isinstance(value, list):
        return "[" + " ".join(plain_value(v) for v in value) + "]"
    return str(value)


def _replay(log: TableLog, header: LogHeader) -> tuple[list[Match], list[Move], str | None]:
    """The match after each action, the moves that applied, and why it stopped early."""
    matches: list[Match] = []
    moves: list[Move] = []

    def keep(index: int, match: Match) -> None:
        logged = log.actions[index]
        matches.append(snapshot(match))
        moves.append(Move(logged.seat, logged.action, logged.time))

    definition = log_game(header).definition
    try:
        start = definition.new_match(header.seed, len(header.seats), header.options)
    except ValueError as exc:
        raise ResumeError(_("This log's game cannot be set up: {why}.").format(why=exc)) from None
    matches.append(snapshot(start))
    done = replay(definition, header, log.actions, after_each=keep)
    if done.error is None:
        return matches, moves, None
    bad = log.actions[done.applied]
    refused = _("action {n} at byte {offset} is refused: {why}").format(
        n=done.applied + 1, offset=bad.offset, why=done.error
    )
    return matches, moves, refused
