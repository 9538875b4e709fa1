"""The full, hidden-information-bearing state of one game (RULES.md §1–§9).

Only the engine (:mod:`poissonnier_tui.games.poissonnier.rules.engine`) mutates it and only
:func:`poissonnier_tui.games.poissonnier.rules.view.view_for` reads it for anyone outside the
server. Decks are lists whose *end* is the top card (``pop()`` draws).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

#: A public log event: a msgpack-able map with at least ``"t"`` (its type).
Event = dict[str, Any]


class LazyRandom(random.Random):
    """A ``random.Random`` that takes its seed or saved state only when first used.

    Setting a Mersenne Twister's state costs microseconds (624 words), and most
    copies of a game never draw from theirs (only a reshuffle of the client deck
    does, R7): a search that copies a state per candidate would pay for nothing.
    Until its first draw this generator only holds what to start from, and a
    copy of it (:meth:`copy_of`) shares that; a generator that has not drawn
    since its state was last read hands out that same state again. Otherwise it
    draws exactly as a ``random.Random`` seeded or set the same way.
    """

    _pending: tuple[str, Any] | None = None
    """``("seed", int)`` or ``("state", getstate() tuple)`` until the first draw."""
    _saved: tuple[Any, ...] | None = None
    """The state :meth:`getstate` last returned, while nothing has been drawn since."""

    @classmethod
    def seeded(cls, seed: int) -> LazyRandom:
        """A generator that draws as ``random.Random(seed)`` would."""
        rng = random.Random.__new__(cls)
        rng._pending = ("seed", seed)
        return rng

    @classmethod
    def copy_of(cls, rng: random.Random) -> LazyRandom:
        """An independent generator in ``rng``'s state (``rng`` draws nothing)."""
        copy = random.Random.__new__(cls)
        pending = rng._pending if isinstance(rng, LazyRandom) else None
        copy._pending = pending if pending is not None else ("state", rng.getstate())
        return copy

    def _wake(self) -> None:
        """Take the pending seed or state; forget the saved state (a draw follows)."""
        self._saved = None
        pending = self._pending
        if pending is None:
            return
        self._pending = None
        if pending[0] == "seed":
            super().seed(pending[1])
        else:
            super().setstate(pending[1])

    def random(self) -> float:
        """See ``random.Random.random``."""
        self._wake()
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        """See ``random.Random.getrandbits``."""
        self._wake()
        return super().getrandbits(k)

    def randbytes(self, n: int) -> bytes:
        """See ``random.Random.randbytes``."""
        self._wake()
        return super().randbytes(n)

    def gauss(self, mu: float = 0.0, sigma: float = 1.0) -> float:
        """See ``random.Random.gauss`` (it keeps a value of its own in the state)."""
        self._wake()
        return super().gauss(mu, sigma)

    def getstate(self) -> tuple[Any, ...]:
        """See ``random.Random.getstate``."""
        pending = self._pending
        if pending is not None and pending[0] == "state":
            state: tuple[Any, ...] = pending[1]
            return state
        if self._saved is None:
            if pending is not None:
                self._wake()
            self._saved = super().getstate()
        return self._saved

    def setstate(self, state: tuple[Any, ...]) -> None:
        """See ``random.Random.setstate``."""
        self._pending = self._saved = None
        super().setstate(state)

    def seed(self, a: Any = None, version: int = 2) -> None:
        """See ``random.Random.seed``."""
        self._pending = self._saved = None
        super().seed(a, version)


class Phase(StrEnum):
    """Where the current turn stands (RULES.md §3)."""

    FILL = "fill"
    """§3.2: every seat arranges its crates, then declares ready."""
    SERVE = "serve"
    """§3.4 and §4: the active seat serves clients and deals."""
    OVER = "over"
    """§8: the game has ended; :attr:`GameState.result` is set."""


@dataclass(slots=True)
class Crate:
    """One crate (caisse): a hidden marker card and face-up fish of one freshness.

    Attributes:
        marker: the fish-deck card id under the crate; never shown, never back in play.
        fish: fish card ids in the crate, all of one freshness (may be empty).
    """

    marker: str
    fish: list[str] = field(default_factory=list)

    def copy(self) -> Crate:
        """An independent copy."""
        return Crate(self.marker, list(self.fish))


@dataclass(slots=True)
class SeatState:
    """One player's holdings.

    Attributes:
        hand: private card ids (fish and specials).
        crates: the stall, as committed (what everyone sees).
        coins: coins held, never negative.
        clients: client card ids won (inspectors never).
        stamps: loyalty stamps earned.
        ready: declared ready in the current fill step (RULES.md §3.2).
        draft_hand / draft_crates: during the fill step, the seat's private
            arrangement in progress; committed for everyone when the step ends
            (R15). ``None`` outside the fill step.
        fill_moves: places and take-backs in the current fill step (R6 caps them).
    """

    hand: list[str]
    crates: list[Crate]
    coins: int
    clients: list[str] = field(default_factory=list)
    stamps: int = 0
    ready: bool = False
    draft_hand: list[str] | None = None
    draft_crates: list[Crate] | None = None
    fill_moves: int = 0

    def copy(self) -> SeatState:
        """An independent copy."""
        drafts = self.draft_crates
        return SeatState(  # positional: the fields' order (a copy is made often in searches)
            list(self.hand),
            [Crate(c.marker, list(c.fish)) for c in self.crates],
            self.coins,
            list(self.clients),
            self.stamps,
            self.ready,
            None if self.draft_hand is None else list(self.draft_hand),
            None if drafts is None else [Crate(c.marker, list(c.fish)) for c in drafts],
            self.fill_moves,
        )


@dataclass(slots=True)
class Proposal:
    """An open deal proposal (RULES.md §4): public to everyone.

    The buyer is always the active seat. Special cards are named by count, not
    by card id, so a proposal never reveals which card of a hand is meant.

    Attributes:
        id: unique within the game.
        proposer: the seat that proposed (buyer or seller); it has said yes.
        seller: the non-active seat giving fish/specials.
        fish: ``(crate index, count, freshness code)`` per seller crate sold
            from; fish are named by crate, never by card id, so no id of a
            fish that may later return to a hand is ever published.
        seller_glacons / seller_arrivages: special cards from the seller's hand.
        coins: coins the buyer pays.
        buyer_glacons / buyer_arrivages: special cards from the buyer's hand.
        counters: the id of the proposal this one answered as a counter-offer
            (R8), which it replaced; ``None`` for a first offer. Lets a table show
            the haggling.
    """

    id: int
    proposer: int
    seller: int
    fish: list[tuple[int, int, str]]
    seller_glacons: int = 0
    seller_arrivages: int = 0
    coins: int = 0
    buyer_glacons: int = 0
    buyer_arrivages: int = 0
    counters: int | None = None

    def copy(self) -> Proposal:
        """An independent copy."""
        return Proposal(
            self.id,
            self.proposer,
            self.seller,
            list(self.fish),
            self.seller_glacons,
            self.seller_arrivages,
            self.coins,
            self.buyer_glacons,
            self.buyer_arrivages,
            self.counters,
        )


@dataclass(slots=True)
class GameState:
    """Everything about one game, hidden parts included.

    Attributes:
        players: number of seats, 2..5.
        seed: the table's seed (R3); public only once the game is over.
        rng: the only source of randomness, seeded from ``seed``.
        fish_deck / client_deck: draw piles, top card last.
        fish_discard / client_discard: face-up discard piles.
        queue: client ids, front first (RULES.md §3.3).
        seats: one :class:`SeatState` per seat.
        first_player: seat that played turn 1 (R4).
        active: the active seat.
        turn: 1-based turn number.
        phase: see :class:`Phase`.
        bought: fish bought this turn, waiting beside the active seat (R9).
        proposals: open deal proposals.
        next_proposal: id for the next proposal.
        last_turn: the fish deck ran out this turn (R13).
        log: public events, oldest first.
        result: the final result (RULES.md §8) once over.
    """

    players: int
    seed: int
    rng: random.Random
    fish_deck: list[str]
    client_deck: list[str]
    fish_discard: list[str]
    client_discard: list[str]
    queue: list[str]
    seats: list[SeatState]
    first_player: int
    active: int
    turn: int = 1
    phase: Phase = Phase.FILL
    bought: list[str] = field(default_factory=list)
    proposals: list[Proposal] = field(default_factory=list)
    next_proposal: int = 1
    last_turn: bool = False
    log: list[Event] = field(default_factory=list)
    result: dict[str, Any] | None = None

    def copy(self) -> GameState:
        """An independent deep copy (the rng state included), for search and tests.

        The copy's generator takes the state only when it first draws
        (:class:`LazyRandom`); log events are shared, as they never change.
        """
        return GameState(
            players=self.players,
            seed=self.seed,
            rng=LazyRandom.copy_of(self.rng),
            fish_deck=list(self.fish_deck),
            client_deck=list(self.client_deck),
            fish_discard=list(self.fish_discard),
            client_discard=list(self.client_discard),
            queue=list(self.queue),
            seats=[s.copy() for s in self.seats],
            first_player=self.first_player,
            active=self.active,
            turn=self.turn,
            phase=self.phase,
            bought=list(self.bought),
            proposals=[p.copy() for p in self.proposals],
            next_proposal=self.next_proposal,
            last_turn=self.last_turn,
            log=list(self.log),
            result=self.result,
        )
