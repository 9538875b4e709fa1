"""A saved game, step by step, for the replay viewer (``poissonnier replay LOG``).

:class:`Replay` reads a table log, replays it from the seed (R3) and keeps
the state after every action: step 0 is the deal, step *k* the state after
the *k*-th logged action. No Textual here; the screen
(:mod:`poissonnier_tui.games.poissonnier.ui.screens.replay`) only asks for views.

Who may see what (RULES.md §9, docs/ARCHITECTURE.md "one door"): every view comes from
:func:`~poissonnier_tui.games.poissonnier.rules.view.view_for` for the point of view chosen —
``None`` (the public view, what a spectator saw) or a seat (what that
player saw). A **finished** game may also be shown with every hand
(:data:`ALL_HANDS`, through ``all_hands_view``), from any seat's point of view.
A game **still running** (no end in its log: it crashed, or it is being
played) may be shown only from the public view and from the viewer's own
seat: ``seat=`` given when loading, by default the table's only human seat
(a solo game), else none.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from net.recorder import LogHeader
from net.tablelog import LoggedAction, TableLog
from poissonnier_tui.games.poissonnier.match import PoissonnierGame
from poissonnier_tui.games.poissonnier.rules.engine import apply_wire
from poissonnier_tui.games.poissonnier.rules.errors import IllegalAction
from poissonnier_tui.games.poissonnier.rules.state import GameState
from poissonnier_tui.games.poissonnier.rules.view import all_hands_view, view_for
from poissonnier_tui.hosting.persistence import ResumeError, _read, check_header

ALL_HANDS: Final = "all"
"""The point of view that shows every hand (finished games only)."""

PointOfView = int | None | Literal["all"]
"""A seat, ``None`` for the public view, or :data:`ALL_HANDS`."""


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
        moves: the logged actions that replayed, in order (``moves[k - 1]`` led to step *k*).
        finished: the game reached its end within the log.
        viewer: the seat whose hand a running game may show (``None``: none).
        problem: why the replay stops early (a damaged file, a refused
            action), or ``None``.
    """

    def __init__(
        self,
        path: Path,
        header: LogHeader,
        states: list[GameState],
        moves: list[Move],
        *,
        viewer: int | None,
        problem: str | None,
    ) -> None:
        self.path = path
        self.header = header
        self._states = states
        self.moves = moves
        self.finished = states[-1].result is not None
        self.viewer = None if self.finished else viewer
        self.problem = problem

    @classmethod
    def load(cls, path: Path, *, seat: int | None = None) -> Replay:
        """Read and replay a log.

        Args:
            path: the log file.
            seat: for a game still running, the seat whose hand may be shown
                (the viewer's own); default the only human seat, if there is
                exactly one. Ignored for a finished game.

        Raises:
            ResumeError: unreadable file or header, another rules version, or a
                ``seat`` that is not at the table. A damaged tail or a refused
                action is not an error: the replay stops there (:attr:`problem`).
        """
        log, damaged = _read(path)
        if log is None:
            raise ResumeError(f"{damaged}. There is nothing to replay.")
        header = check_header(log)
        problem = str(damaged) if damaged is not None else None
        states, moves, error = _replay(log, header)
        if error is not None:
            problem = error if problem is None else f"{problem}; {error}"
        humans = [i for i, s in enumerate(header.seats) if s.kind == "human"]
        if seat is not None and not 0 <= seat < len(header.seats):
            raise ResumeError(f"There is no seat {seat + 1} at this table.")
        viewer = seat if seat is not None else (humans[0] if len(humans) == 1 else None)
        return cls(path, header, states, moves, viewer=viewer, problem=problem)

    # --- steps and turns ---------------------------------------------------------------------

    @property
    def steps(self) -> int:
        """The last step: the number of actions replayed."""
        return len(self._states) - 1

    def state(self, step: int) -> GameState:
        """The full state at ``step`` (for tests and this module; never shown as such)."""
        return self._states[self._clamp(step)]

    def turn_at(self, step: int) -> int:
        """The turn number at ``step``."""
        return self.state(step).turn

    @property
    def turns(self) -> int:
        """The last turn reached."""
        return self._states[-1].turn

    def turn_start(self, turn: int) -> int:
        """The first step of ``turn`` (clamped to the turns played)."""
        turn = max(1, min(turn, self.turns))
        return next(k for k, s in enumerate(self._states) if s.turn >= turn)

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
        """What may be shown, in cycling order: public, seats, every hand (if finished)."""
        if self.finished:
            return [None, *range(len(self.header.seats)), ALL_HANDS]
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
                "A game that is not over can be shown only from the public view "
                "and from your own seat (RULES.md §9)."
            )
        state = self.state(step)
        if pov == ALL_HANDS:
            return all_hands_view(state, self._states[-1])
        assert pov is None or isinstance(pov, int)
        return view_for(state, pov)

    def move_text(self, step: int, pov: PointOfView) -> str:
        """Who did what to reach ``step``, as plain text; card ids only where ``pov`` may see them.

        The mover's cards are named only from the mover's own point of view or
        with every hand shown; others read the kind of move (the public log
        tells what everyone saw).
        """
        if step <= 0:
            return "The deal (RULES.md §2)."
        move = self.moves[self._clamp(step) - 1]
        kind = str(move.action.get("type", "?")).replace("_", " ")
        name = self.header.seats[move.seat].name or f"Seat {move.seat + 1}"
        if pov == ALL_HANDS or pov == move.seat:
            details = {k: v for k, v in move.action.items() if k != "type"}
            if details:
                shown = ", ".join(f"{k}={_plain(v)}" for k, v in details.items())
                return f"{name}: {kind} ({shown})"
        return f"{name}: {kind}"


def _plain(value: Any) -> str:
    if isinstance(value, list):
        return "[" + " ".join(_plain(v) for v in value) + "]"
    return str(value)


def _replay(log: TableLog, header: LogHeader) -> tuple[list[GameState], list[Move], str | None]:
    """States after each action, the moves that applied, and why it stopped early."""
    try:
        match = PoissonnierGame().new_match(header.seed, len(header.seats), header.options)
    except ValueError as exc:
        raise ResumeError(f"This log's game cannot be set up: {exc}.") from None
    state = match.state
    states = [state.copy()]
    moves: list[Move] = []
    for index, logged in enumerate(log.actions):
        error = _apply(state, logged)
        if error is not None:
            return states, moves, f"action {index + 1} at byte {logged.offset} is refused: {error}"
        states.append(state.copy())
        moves.append(Move(logged.seat, logged.action, logged.time))
    return states, moves, None


def _apply(state: GameState, logged: LoggedAction) -> str | None:
    """Apply one logged action (R3); the refusal's sentence, or ``None`` if it applied."""
    if not 0 <= logged.seat < state.players:
        return f"seat {logged.seat} is not at this table"
    if state.result is not None:
        return "the game was already over"
    try:
        apply_wire(state, logged.seat, logged.action)
    except IllegalAction as exc:
        return exc.sentence
    except Exception as exc:  # a malformed record the parser did not expect: still just bad
        return f"{type(exc).__name__}: {exc}"
    return None
