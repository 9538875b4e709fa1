"""The full, hidden-information-bearing state of one Go Fish game (docs/GOFISH.md).

Only the engine mutates it and only :func:`..view.view_for` reads it for
anyone outside the server. The stock is a list whose *end* is its top card
(``pop()`` draws).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

#: A public log event: a msgpack-able map with at least ``"t"`` (its type).
Event = dict[str, Any]

VARIANTS = ("rank", "card")
"""Values of the ``variant`` option: ask for a rank (§3) or a card (§6)."""


@dataclass(frozen=True, slots=True)
class Options:
    """The table options (docs/GOFISH.md §6, §7, G4, G11).

    Attributes:
        variant: ``"rank"`` (§3) or ``"card"`` (§6).
        bluff: in the card variant, a player may name a card of their own hand (G4).
        play_on: the stock running out does not end the game (§7).
    """

    variant: str = "rank"
    bluff: bool = False
    play_on: bool = False

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be 'rank' or 'card', not {self.variant!r} (G11)")
        if not isinstance(self.bluff, bool) or not isinstance(self.play_on, bool):
            raise ValueError("bluff and play_on must be true or false (G11)")
        if self.bluff and self.variant != "card":
            raise ValueError("bluff is an option of the card variant only (G4, G11)")

    def wire(self) -> dict[str, Any]:
        """The options as a wire map."""
        return {"variant": self.variant, "bluff": self.bluff, "play_on": self.play_on}


@dataclass(slots=True)
class GameState:
    """Everything about one game, hidden parts included.

    Attributes:
        players: number of seats, 2..6.
        seed: the table's seed; public only once the game is over.
        rng: the only source of randomness, seeded from ``seed``.
        options: the table options.
        stock: the face-down stock, top card last.
        hands: each seat's cards, in the order they arrived.
        books: each seat's books, as ranks, in the order laid down.
        first_player: the seat that played first (G1).
        active: the seat to ask now.
        turn: turns begun so far (G13).
        over: the game has ended; :attr:`result` is set.
        log: public events, oldest first (the whole history).
        result: the final result (§5, G3) once over.
        drawn: the card of each draw nobody else saw, by the index of its ``draw``
            event in :attr:`log`: private to the drawer (§8), who alone is told it.
    """

    players: int
    seed: int
    rng: random.Random
    options: Options
    stock: list[str]
    hands: list[list[str]]
    books: list[list[str]]
    first_player: int
    active: int
    turn: int = 1
    over: bool = False
    log: list[Event] = field(default_factory=list)
    result: dict[str, Any] | None = None
    drawn: dict[int, str] = field(default_factory=dict)

    def copy(self) -> GameState:
        """An independent copy (the rng state included), for search and tests."""
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        return GameState(
            players=self.players,
            seed=self.seed,
            rng=rng,
            options=self.options,
            stock=list(self.stock),
            hands=[list(h) for h in self.hands],
            books=[list(b) for b in self.books],
            first_player=self.first_player,
            active=self.active,
            turn=self.turn,
            over=self.over,
            log=list(self.log),
            result=self.result,
            drawn=dict(self.drawn),
        )
