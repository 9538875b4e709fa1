"""Le Poissonnier plugged into the game-agnostic table server (`net.game`).

:class:`PoissonnierGame` is the :class:`net.game.GameDefinition`;
:class:`PoissonnierMatch` wraps one
:class:`~poissonnier_tui.games.poissonnier.rules.state.GameState`
and satisfies :class:`net.game.Match`. Every view goes through
:func:`poissonnier_tui.games.poissonnier.rules.view.view_for`, the one door.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from net.game import ActionRejected, Wire
from poissonnier_tui import __version__
from poissonnier_tui.games.poissonnier.rules import cards
from poissonnier_tui.games.poissonnier.rules.actions import wires_of
from poissonnier_tui.games.poissonnier.rules.engine import (
    apply_wire,
    legal_actions,
    new_game,
    volunteers,
    waiting_on,
)
from poissonnier_tui.games.poissonnier.rules.errors import IllegalAction
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for

RULES_VERSION = "1"
"""Bumped whenever a rule change would make old logs replay differently (R3)."""


class PoissonnierMatch:
    """One game of Le Poissonnier as the server sees it (`net.game.Match`)."""

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
        """The view for ``seat`` (``None``: spectator), RULES.md §9."""
        return view_for(self.state, seat)

    def legal_actions(self, seat: int) -> list[Wire]:
        """Legal actions of ``seat`` as wire maps (see ``engine.legal_actions``)."""
        return wires_of(legal_actions(self.state, seat))

    def waiting_on(self) -> frozenset[int]:
        """Seats the game waits for (``engine.waiting_on``)."""
        return waiting_on(self.state)

    def volunteers(self) -> frozenset[int]:
        """Seats that may offer the active player a deal unasked (``engine.volunteers``, §4)."""
        return volunteers(self.state)

    def timeout_action(self, seat: int) -> Wire | None:
        """What a table does for a seat that ran out of time or is away.

        R6 for the fill step: declared ready with its crates as they are. R20
        for the serve step: a seat that must answer a proposal declines it, and
        an absent active seat with nothing to answer ends its turn.
        """
        st = self.state
        if st.phase is Phase.FILL and not st.seats[seat].ready:
            return {"type": "ready"}
        if st.phase is Phase.SERVE:
            for p in st.proposals:
                answerer = st.active if p.proposer == p.seller else p.seller
                if answerer == seat:
                    return {"type": "decline", "proposal": p.id}
            if seat == st.active:
                return {"type": "end_turn"}
        return None

    @property
    def is_over(self) -> bool:
        """True once RULES.md §8 has decided the game."""
        return self.state.phase is Phase.OVER

    def result(self) -> Wire | None:
        """The public result (``scoring.decide_winner`` plus seed and turns)."""
        return dict(self.state.result) if self.state.result else None


class PoissonnierGame:
    """The `net.game.GameDefinition` for Le Poissonnier.

    Options: ``first_player`` (int seat or absent: the seed draws one, R4).
    """

    name = "poissonnier"
    rules_version = RULES_VERSION
    app_version = __version__
    min_seats = cards.MIN_PLAYERS
    max_seats = cards.MAX_PLAYERS

    def new_match(self, seed: int, seats: int, options: Mapping[str, Any]) -> PoissonnierMatch:
        """Deal a new game (RULES.md §2).

        Raises:
            ValueError: ``seats`` outside 2..5 or a bad ``first_player``.
        """
        first = options.get("first_player")
        if first is not None and not isinstance(first, int):
            raise ValueError("first_player must be a seat number")
        return PoissonnierMatch(new_game(seed, seats, first_player=first))
