"""Le Poissonnier's view, read once: the typed reading its bots and its screens share.

:meth:`SeatView.read` parses the map built by
:func:`poissonnier_tui.games.poissonnier.rules.view.view_for` (its module
docstring gives the VIEW SHAPE) for a seat; :meth:`Offer.read` one of its
open proposals, with the seat that must answer it as the view says. It reads
nothing that the view does not carry, so whoever builds on it sees exactly
what RULES.md §9 lets that seat see: its own cards by id, everybody else's
fish as freshness codes. Pure: no Textual, no network.

Used by the bots (``bots/seen.py`` adds their stock arithmetic) and by the
screens' snapshot (``ui/snapshot.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Self

from poissonnier_tui.games.poissonnier.rules import cards
from poissonnier_tui.games.poissonnier.rules.actions import Decline, EndTurn, Ready, to_wire

if TYPE_CHECKING:
    from net.game import Wire


@dataclass(frozen=True, slots=True)
class Offer:
    """An open deal proposal as the view shows it (``engine.proposal_wire``, RULES.md §4).

    Attributes:
        id: the proposal id, named by ``accept``/``decline``/``withdraw``/``counter``.
        proposer: the seat that proposed it (and so said yes, R8).
        seller: the non-active seat giving fish or specials.
        fish: ``(crate index, count, freshness code)`` per seller crate sold from.
        seller_glacons / seller_arrivages: special cards the seller gives.
        coins: coins the buyer (the active seat) pays.
        buyer_glacons / buyer_arrivages: special cards the buyer gives.
        answerer: the seat whose yes the proposal waits for: the side that did not
            propose (R8; the view says, from ``engine.answerer``).
    """

    id: int
    proposer: int
    seller: int
    fish: tuple[tuple[int, int, str], ...]
    seller_glacons: int
    seller_arrivages: int
    coins: int
    buyer_glacons: int
    buyer_arrivages: int
    answerer: int

    @classmethod
    def read(cls, wire: Mapping[str, Any]) -> Offer:
        """Parse one entry of the view's ``"proposals"``."""
        return cls(
            id=int(wire["id"]),
            proposer=int(wire["proposer"]),
            seller=int(wire["seller"]),
            fish=tuple([(int(k), int(n), str(code)) for k, n, code in wire["fish"]]),
            seller_glacons=int(wire["seller_glacons"]),
            seller_arrivages=int(wire["seller_arrivages"]),
            coins=int(wire["coins"]),
            buyer_glacons=int(wire["buyer_glacons"]),
            buyer_arrivages=int(wire["buyer_arrivages"]),
            answerer=int(wire["answerer"]),
        )

    def codes(self) -> dict[str, int]:
        """The fish sold, ``{freshness code: count}``."""
        out: Counter[str] = Counter()
        for _, n, code in self.fish:
            out[code] += n
        return dict(out)

    def fish_pairs(self) -> tuple[tuple[int, int], ...]:
        """The fish sold as ``Propose.fish``: ``((crate index, count), ...)``."""
        return tuple((k, n) for k, n, _ in self.fish)


class SeatView(NamedTuple):
    """What one seat knows, read off its view.

    A named tuple rather than a frozen dataclass: a bot reads a view per decision, and
    a tuple is built in one step where a frozen dataclass sets each of its 23 fields.

    Attributes:
        seat: the viewing seat.
        players: seats at the table.
        turn: the turn number.
        active: the active seat.
        phase: ``"fill"``, ``"serve"`` or ``"over"``.
        last_turn: the fish deck ran out this turn (R13).
        fish_deck: cards left in the fish deck.
        queue: client ids, front first.
        hand: the seat's hand (its draft hand during the fill step).
        crates: the seat's crates as fish ids (its draft crates during the fill step).
        bought: fish ids bought this turn (the active seat only, R9).
        bought_codes: freshness codes of the fish bought this turn (public, §4).
        coins: coins per seat.
        stalls: every seat's committed crates as freshness-code strings.
        crate_price: the price of the seat's next crate (R11).
        ready: per seat, declared ready in the fill step.
        proposals: open proposals.
        stamps: stamps per seat (RULES.md §8 tallies).
        won: client ids won, per seat (their count is the clients tally, §8).
        hand_sizes: cards in each seat's hand (sizes are public, §9).
        client_deck: clients left in the client deck.
        client_discard: the client discard pile (dropped clients and inspectors).
        fish_discard: fish and specials discarded, ``{kind letter: count}``.
    """

    seat: int
    players: int
    turn: int
    active: int
    phase: str
    last_turn: bool
    fish_deck: int
    queue: tuple[str, ...]
    hand: tuple[str, ...]
    crates: tuple[tuple[str, ...], ...]
    bought: tuple[str, ...]
    bought_codes: str
    coins: tuple[int, ...]
    stalls: tuple[tuple[str, ...], ...]
    crate_price: int
    ready: tuple[bool, ...]
    proposals: tuple[Offer, ...]
    stamps: tuple[int, ...] = ()
    won: tuple[tuple[str, ...], ...] = ()
    hand_sizes: tuple[int, ...] = ()
    client_deck: int = 0
    client_discard: tuple[str, ...] = ()
    fish_discard: tuple[tuple[str, int], ...] = ()

    @classmethod
    def read(cls, view: Mapping[str, Any]) -> Self:
        """Parse a seat's view.

        Raises:
            ValueError: the view is a spectator's (no seat, no private part).
        """
        seat = view.get("seat")
        me = view.get("me")
        if seat is None or me is None:
            raise ValueError("a seat's view is needed; this is a spectator's view")
        # One pass over the seats (a bot reads a view per decision: this is on its path).
        coins: list[int] = []
        stalls: list[tuple[str, ...]] = []
        ready: list[bool] = []
        stamps: list[int] = []
        won: list[tuple[str, ...]] = []
        hand_sizes: list[int] = []
        for s in view["seats"]:
            coins.append(int(s["coins"]))
            stalls.append(tuple(s["crates"]))
            ready.append(bool(s["ready"]))
            stamps.append(int(s["stamps"]))
            won.append(tuple(s["clients"]))
            hand_sizes.append(int(s["hand_size"]))
        seat = int(seat)
        proposals = view["proposals"]
        return cls(
            seat=seat,
            players=int(view["players"]),
            turn=int(view["turn"]),
            active=int(view["active"]),
            phase=str(view["phase"]),
            last_turn=bool(view["last_turn"]),
            fish_deck=int(view["fish_deck"]),
            queue=tuple(view["queue"]),
            hand=tuple(me["hand"]),
            crates=tuple([tuple(c) for c in me["crates"]]),
            bought=tuple(me["bought"]),
            bought_codes=str(view["bought"]),
            coins=tuple(coins),
            stalls=tuple(stalls),
            crate_price=int(view["seats"][seat]["crate_price"]),
            ready=tuple(ready),
            proposals=tuple([Offer.read(p) for p in proposals]) if proposals else (),
            stamps=tuple(stamps),
            won=tuple(won),
            hand_sizes=tuple(hand_sizes),
            client_deck=int(view["client_deck"]),
            client_discard=tuple(view["client_discard"]),
            fish_discard=tuple(sorted([(str(k), int(n)) for k, n in view["fish_discard"].items()])),
        )

    @property
    def is_active(self) -> bool:
        """True when this seat is the active one."""
        return self.seat == self.active

    @property
    def my_coins(self) -> int:
        """This seat's coins."""
        return self.coins[self.seat]

    def specials(self) -> tuple[int, int]:
        """``(glaçons, arrivages)`` in hand."""
        kinds = [c[0] for c in self.hand]
        return kinds.count(cards.GLACON), kinds.count(cards.ARRIVAGE)

    def pool(self) -> Counter[str]:
        """Fish this seat can lay out in the fill step: hand plus crates, by code (§3.2)."""
        specials = cards.SPECIAL_KINDS  # cards.is_special, inlined: a bot asks per decision
        out: Counter[str] = Counter([c[0] for c in self.hand if c[0] not in specials])
        out.update([f[0] for crate in self.crates for f in crate])
        return out

    def unseen_clients(self) -> list[str]:
        """Client cards this seat has not seen: those left in the client deck (§1, §9).

        Every client card is in exactly one of: the queue, the discard pile, a
        seat's won clients, or the deck; so the deck holds the others.
        """
        seen = set(self.queue) | set(self.client_discard)
        for won in self.won:
            seen.update(won)
        return [c for c in cards.CLIENTS if c not in seen]

    def cards_per_turn(self) -> int:
        """Fish-deck cards drawn in one turn (RULES.md §3.1)."""
        return cards.ACTIVE_DRAW[self.players] + self.players - 1

    def own_turns_left(self) -> float:
        """Expected turns this seat still gets after the current one (§3.1, R13)."""
        if self.last_turn:
            return 0.0
        later = (self.fish_deck + self.cards_per_turn() - 1) // self.cards_per_turn()
        return later / self.players


def fallback_from_view(view: Mapping[str, Any]) -> Wire | None:
    """A move that is always legal while this seat is waited on, from its view alone:
    ready in the fill step (R6), else decline the first proposal it must answer (R20),
    else end its turn when it is the active seat; ``None`` for a spectator, a finished
    game, or when nothing of these applies.
    """
    me = view.get("seat")
    if not isinstance(me, int) or view.get("result") is not None or view["phase"] == "over":
        return None
    if view["phase"] == "fill":
        return None if view["seats"][me]["ready"] else to_wire(Ready())
    for proposal in view.get("proposals", []):
        if Offer.read(proposal).answerer == me:
            return to_wire(Decline(int(proposal["id"])))
    return to_wire(EndTurn()) if view["active"] == me else None
