"""Go Fish plugged into the game-agnostic table server (`net.game`).

:class:`GoFishGame` is the :class:`net.game.GameDefinition`; :class:`GoFishMatch`
wraps one :class:`~.rules.state.GameState` and satisfies :class:`net.game.Match`.
Every view goes through :func:`.rules.view.view_for`, the one door (docs/GOFISH.md §8).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from net.game import ActionRejected, Wire
from poissonnier_tui import __version__
from poissonnier_tui.games.gofish.rules import cards
from poissonnier_tui.games.gofish.rules.actions import AskCard, to_wire
from poissonnier_tui.games.gofish.rules.engine import (
    apply_wire,
    legal_actions,
    new_game,
    waiting_on,
)
from poissonnier_tui.games.gofish.rules.errors import IllegalAction
from poissonnier_tui.games.gofish.rules.state import GameState, Options
from poissonnier_tui.games.gofish.rules.view import GAME_NAME, view_for

RULES_VERSION = "1"
"""Bumped whenever a rule change would make old logs replay differently."""

OPTION_KEYS = frozenset({"variant", "bluff", "play_on", "first_player"})
"""The table options a Go Fish table accepts (G11)."""


def parse_options(options: Mapping[str, Any]) -> tuple[Options, int | None]:
    """Read table options (docs/GOFISH.md G11): ``variant``, ``bluff``, ``play_on``,
    ``first_player``.

    Returns:
        The :class:`Options` and the host's first player (``None``: the seed draws, G1).

    Raises:
        ValueError: an unknown option, or a value of the wrong kind.
    """
    unknown = set(options) - OPTION_KEYS
    if unknown:
        raise ValueError(
            f"unknown Go Fish option(s) {', '.join(sorted(map(str, unknown)))}; "
            f"known: {', '.join(sorted(OPTION_KEYS))}"
        )
    variant = options.get("variant", "rank")
    bluff = options.get("bluff", False)
    play_on = options.get("play_on", False)
    if not isinstance(variant, str):
        raise ValueError("variant must be 'rank' or 'card' (G11)")
    first = options.get("first_player")
    if first is not None and (isinstance(first, bool) or not isinstance(first, int)):
        raise ValueError("first_player must be a seat number")
    return Options(variant=variant, bluff=bluff, play_on=play_on), first


def known_misses(log: list[dict[str, Any]]) -> set[tuple[int, str, str | None]]:
    """Asks the public history shows would fail now (G12).

    ``(seat, rank, None)``: ``seat`` answered it had no card of ``rank`` (or gave
    them all away) and has received no card since; ``(seat, rank, suit)``: the
    same for one card (§6). Any card reaching a seat (a give or a draw) clears
    what was known of it.
    """
    misses: set[tuple[int, str, str | None]] = set()
    for e in log:
        kind = e["t"]
        if kind == "ask":
            target, rank = e["target"], e["rank"]
            suit = e.get("suit")
            if e["answer"] == "gave":
                misses = {m for m in misses if m[0] != e["seat"]}
                if suit is None:
                    misses.add((target, rank, None))
            else:
                misses.add((target, rank, suit))
        elif kind == "draw":
            misses = {m for m in misses if m[0] != e["seat"]}
    return misses


class GoFishMatch:
    """One game of Go Fish as the server sees it (`net.game.Match`)."""

    def __init__(self, state: GameState) -> None:
        self.state = state

    def apply(self, seat: int, action: Mapping[str, Any]) -> None:
        """Apply a wire action for ``seat``.

        Raises:
            ActionRejected: with the engine's code and its sentence citing the rule.
        """
        try:
            apply_wire(self.state, seat, action)
        except IllegalAction as exc:
            raise ActionRejected(exc.code, exc.sentence) from None

    def view(self, seat: int | None) -> Wire:
        """The view for ``seat`` (``None``: spectator), docs/GOFISH.md §8."""
        return view_for(self.state, seat)

    def legal_actions(self, seat: int) -> list[Wire]:
        """Legal asks of ``seat`` as wire maps (``engine.legal_actions``)."""
        return [to_wire(a) for a in legal_actions(self.state, seat)]

    def waiting_on(self) -> frozenset[int]:
        """The active seat, or nobody once over (``engine.waiting_on``)."""
        return waiting_on(self.state)

    def may_draft(self, seat: int) -> bool:
        """Go Fish has no deals to prepare (``net/drafts.py``): never."""
        return False

    def volunteers(self) -> frozenset[int]:
        """Nobody: Go Fish has no moves out of turn."""
        return frozenset()

    def timeout_action(self, seat: int) -> Wire | None:
        """The ask made for an absent or timed-out active seat (G12); ``None`` for any
        other seat.

        The first legal ask, in the fixed order of ``engine.legal_actions``, that is
        not a bluff and that the public history does not already show to fail;
        the first non-bluff ask when every one is known to fail. It uses only what
        the seat itself could see (its hand and the public events).
        """
        if not 0 <= seat < self.state.players:
            return None
        hand = set(self.state.hands[seat])
        honest = [
            a
            for a in legal_actions(self.state, seat)
            if not (isinstance(a, AskCard) and cards.card_id(a.rank, a.suit) in hand)
        ]
        if not honest:
            return None
        misses = known_misses(self.state.log)
        for action in honest:
            suit = action.suit if isinstance(action, AskCard) else None
            if (action.target, action.rank, suit) not in misses:
                return to_wire(action)
        return to_wire(honest[0])

    @property
    def is_over(self) -> bool:
        """True once §5 (or §7 with "play on") has ended the game."""
        return self.state.over

    def result(self) -> Wire | None:
        """The public result (winners, shared, scores, seed, turns) once over."""
        return dict(self.state.result) if self.state.over and self.state.result else None


class GoFishGame:
    """The `net.game.GameDefinition` of Go Fish (docs/GOFISH.md).

    Options (G11): ``variant`` ``"rank"``/``"card"``, ``bluff`` (card only),
    ``play_on``, ``first_player``.
    """

    name = GAME_NAME
    rules_version = RULES_VERSION
    app_version = __version__
    min_seats = cards.MIN_PLAYERS
    max_seats = cards.MAX_PLAYERS

    def new_match(self, seed: int, seats: int, options: Mapping[str, Any]) -> GoFishMatch:
        """Deal a new game (docs/GOFISH.md §2).

        Raises:
            ValueError: ``seats`` outside 2..6 or bad options (G11).
        """
        opts, first = parse_options(options)
        return GoFishMatch(new_game(seed, seats, opts, first_player=first))
