"""The contract between the table server and any turn-based game it hosts.

`net` never imports a particular game. A game plugs in by providing a
:class:`GameDefinition` (a factory) whose matches satisfy :class:`Match`.
Everything sent to a seat or a spectator is built by :meth:`Match.view`: it is
the one door through which hidden information could leave the server, so the
server never serialises anything else that comes from game state.

Actions and views are plain msgpack-able values: ``dict`` with ``str`` keys,
``list``, ``str``, ``int``, ``bool`` and ``None``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

#: A msgpack-able map, as sent on the wire (an action, a view, a result).
Wire = dict[str, Any]


class ActionRejected(Exception):
    """An action the game refused; nothing changed.

    Args:
        code: A short machine-readable code, e.g. ``"not_your_turn"``.
        message: A plain sentence a player can act on, naming the rule broken
            (in the server's language: clients that know the game say it in
            theirs from ``code`` and ``params``).
        params: What the game's clients need to say the refusal themselves
            (text keys, text or whole-number values; see
            :class:`net.messages.ErrorReply`); none by default.
    """

    def __init__(
        self, code: str, message: str, params: Mapping[str, str | int] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: dict[str, str | int] = dict(params or {})


class Match(Protocol):
    """One game in progress, seen by the server.

    Seats are ``0 .. seats - 1``. ``None`` as a seat means a spectator, who
    sees only public information.
    """

    def apply(self, seat: int, action: Mapping[str, Any]) -> None:
        """Validate and apply ``action`` for ``seat``.

        Raises:
            ActionRejected: the action is malformed or illegal; the match is unchanged.
        """
        ...

    def view(self, seat: int | None) -> Wire:
        """Everything ``seat`` (or a spectator, for ``None``) may know, as a wire map."""
        ...

    def legal_actions(self, seat: int) -> list[Wire]:
        """A finite list of legal actions for ``seat`` (may be empty)."""
        ...

    def waiting_on(self) -> frozenset[int]:
        """Seats whose decision the game is waiting for now."""
        ...

    def volunteers(self) -> frozenset[int]:
        """Seats not waited on that may still act now, unasked (e.g. offer a deal).

        A table asks its bots on these seats once after each change and never
        times them out; an empty set when the game has no such moves.
        """
        ...

    def timeout_action(self, seat: int) -> Wire | None:
        """The action to apply for ``seat`` when its time runs out or it is absent.

        ``None`` when the game has no default for that seat now (the table then
        simply waits).
        """
        ...

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        ...

    def result(self) -> Wire | None:
        """The public final result once the game is over, else ``None``."""
        ...


TableMoveReason = str
"""Why the table played a seat's move itself: ``"away"`` (its player was
disconnected past the absence grace) or ``"time"`` (the seat's time limit ran
out, e.g. RULES.md R6)."""

TABLE_MOVE_REASONS: frozenset[str] = frozenset({"away", "time"})
"""Every :data:`TableMoveReason`."""


def note_table_move(match: Match, seat: int, why: TableMoveReason) -> None:
    """Tell ``match`` that its next :meth:`Match.apply` for ``seat`` is the table's
    default move, not the player's, so its public log can say so.

    Optional for a game: a match with a ``note_table_move(seat, why)`` method
    gets the call; any other match is left alone (its log then cannot tell).
    The server calls it for live defaults, and the recorder's replay and the
    table's restore call it again for logged ones, so every log reads the same.
    """
    hook = getattr(match, "note_table_move", None)
    if callable(hook):
        hook(seat, why)


class GameDefinition(Protocol):
    """A game the server can host: its name, version and a match factory."""

    name: str
    """Short name, e.g. ``"poissonnier"``; advertised and checked on hello."""
    rules_version: str
    """Version of the rules implementation, recorded in logs."""
    min_seats: int
    max_seats: int

    def new_match(self, seed: int, seats: int, options: Mapping[str, Any]) -> Match:
        """Start a match with ``seats`` players, deterministic from ``seed``.

        Raises:
            ValueError: ``seats`` out of range or bad options.
        """
        ...


class Agent(Protocol):
    """A seat played by the server itself (a bot).

    It is handed only what :meth:`Match.view` gives its seat and the seat's
    legal actions: never the match.
    """

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        """Choose an action, or ``None`` to pass for now."""
        ...
