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

from net.answers import Awaiting
from net.game import ActionRejected, Match, Wire
from poissonnier_tui import __version__
from poissonnier_tui.games.poissonnier.quotes import DEAL_FIELDS
from poissonnier_tui.games.poissonnier.rules import cards
from poissonnier_tui.games.poissonnier.rules.actions import (
    Decline,
    EndTurn,
    Ready,
    Withdraw,
    to_wire,
)
from poissonnier_tui.games.poissonnier.rules.engine import (
    answerer,
    apply,
    apply_wire,
    legal_actions,
    new_game,
    proposal_wire,
    volunteers,
    waiting_on,
)
from poissonnier_tui.games.poissonnier.rules.errors import IllegalAction
from poissonnier_tui.games.poissonnier.rules.frozen import action_of_shared_wire, shared_wires
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase
from poissonnier_tui.games.poissonnier.rules.view import all_hands_view, view_for

RULES_VERSION = "1"
"""Bumped whenever a rule change would make old logs replay differently (R3)."""


def _mark_table_move(events: list[dict[str, Any]], seat: int, why: str) -> None:
    """Mark ``seat``'s events among those one move just logged as played by the table
    (``"by": "table"``, ``"why"``), up to the next turn's start (which is nobody's
    move). Events are new dicts of this move, so no view has seen them yet."""
    for event in events:
        if event.get("t") == "turn":
            break
        if event.get("seat") == seat:
            event["by"] = "table"
            event["why"] = why


class PoissonnierMatch:
    """One game of Le Poissonnier as the server sees it (`net.game.Match`)."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._table_move: tuple[int, str] | None = None  # see note_table_move

    def note_table_move(self, seat: int, why: str) -> None:
        """The next :meth:`apply` for ``seat`` is the table's default (``why``:
        ``"away"`` or ``"time"``, see :func:`net.game.note_table_move`): the log
        events of that seat's move will carry ``"by": "table"`` and ``"why"``."""
        self._table_move = (seat, why)

    def apply(self, seat: int, action: Mapping[str, Any]) -> None:
        """Apply a wire action for ``seat``.

        Raises:
            ActionRejected: with the engine's code and its sentence citing the rule.
        """
        mark, self._table_move = self._table_move, None
        before = len(self.state.log)
        try:
            known = action_of_shared_wire(action)
            if known is None:
                apply_wire(self.state, seat, action)
            else:
                apply(self.state, seat, known)
        except IllegalAction as exc:
            raise ActionRejected(exc.code, exc.sentence, exc.wire_params) from None
        if mark is not None and mark[0] == seat:
            _mark_table_move(self.state.log[before:], seat, mark[1])

    def view(self, seat: int | None) -> Wire:
        """The view for ``seat`` (``None``: spectator), RULES.md §9."""
        return view_for(self.state, seat)

    def legal_actions(self, seat: int) -> list[Wire]:
        """Legal actions of ``seat`` as wire maps (see ``engine.legal_actions``).

        A new list of read-only maps (``rules.frozen``) shared with every other
        call that lists the same action: a reader copies one to change it. The
        table's bots get copies anyway (``net.turns``); the arena's bots read them
        as they are, and :meth:`apply` knows them again without parsing.
        """
        return shared_wires(legal_actions(self.state, seat))

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
            return to_wire(Ready())
        if st.phase is Phase.SERVE:
            for p in st.proposals:
                if answerer(p, st.active) == seat:
                    return to_wire(Decline(p.id))
            if seat == st.active:
                return to_wire(EndTurn())
        return None

    def price_question(self, asker: int, seat: int, deal: Mapping[str, Any]) -> Wire:
        """``deal`` in full, as ``seat`` answers it when ``asker`` asks its price
        (``net/prices.py``; RULES.md §4: only the active player deals, with the seller
        it chooses; R18: fish named by crate and count).

        Args:
            asker: the active seat asking a seller, or a seller asking the active seat.
            seat: the seat asked.
            deal: ``{"seller", "fish": [[crate, count], ...]}`` and optionally the
                special cards of a ``propose`` (``seller_glacons``...); no price.

        Returns:
            The deal as a proposal map without id or price (``quotes.DEAL_FIELDS``):
            the proposer is the asker, each fish ``[crate, count, freshness]``.

        Raises:
            ActionRejected: ``bad_question`` (the seat asked is not the other side of
                the deal) or the engine's refusal of the same proposal made now.
        """
        fields = ("seller", "fish", "seller_glacons", "seller_arrivages", "buyer_glacons",
                  "buyer_arrivages")  # fmt: skip
        wire = {"type": "propose", **{k: deal[k] for k in fields if k in deal}}
        active = self.state.active
        seller = wire.get("seller")
        if type(seller) is not int or {asker, seat} != {active, seller}:
            raise ActionRejected(
                "bad_question", "A price is asked between the active player and a seller (§4)."
            )
        trial = self.state.copy()  # the same proposal, made for real in a copy
        before = trial.next_proposal
        try:
            apply_wire(trial, asker, wire)
        except IllegalAction as exc:
            raise ActionRejected(exc.code, exc.sentence, exc.wire_params) from None
        made = next(p for p in trial.proposals if p.id == before)
        full = proposal_wire(made)
        return {k: full[k] for k in DEAL_FIELDS}

    def awaiting_answers(self) -> dict[int, Awaiting]:
        """Open proposals (§4): id -> who made it and who must answer it (R8), for the
        table's time to answer (R25, ``net/answers.py``)."""
        st = self.state
        return {p.id: Awaiting(p.proposer, answerer(p, st.active)) for p in st.proposals}

    def lapse_action(self, offer: int) -> Wire | None:
        """R25: when a proposal's time to answer is up, the table withdraws it for its
        proposer (§4); ``None`` if it is no longer open."""
        if not any(p.id == offer for p in self.state.proposals):
            return None
        return to_wire(Withdraw(offer))

    def copy(self) -> PoissonnierMatch:
        """An independent copy (``GameState.copy``), for the replay's steps."""
        return PoissonnierMatch(self.state.copy())

    def may_draft(self, seat: int) -> bool:
        """Drafts (``net/drafts.py``) prepare deals, made in the serve step only (§4): not
        in the fill step, whose moves the other seats do not see (R15), nor once the game
        is over."""
        return self.state.phase is Phase.SERVE and not self.is_over

    def limited_step(self, seat: int) -> tuple[str, int] | None:
        """R6: a table's time limit runs on the fill step only, counted from the step's
        start (``poissonnier_tui.hosting.tables.TimedSteps``): ``("fill", turn)``."""
        return ("fill", self.state.turn) if self.state.phase is Phase.FILL else None

    def omniscient_view(self, finished: Match) -> Wire:
        """The public view plus every seat's hand, for the replay of a finished game
        (``all_hands_view``, RULES.md §9; ``poissonnier_tui.hosting.replay.Omniscient``).

        Args:
            finished: the same game's match at its end.

        Raises:
            ValueError: ``finished`` is not over, or not this game.
        """
        if not isinstance(finished, PoissonnierMatch):
            raise ValueError("the finished match is not a game of Le Poissonnier")
        return all_hands_view(self.state, finished.state)

    def ask_order(self) -> list[int]:
        """The seats waited on, in the order a table asks them (``poissonnier_tui.arena``):
        in the fill step every seat not ready, in seat order; in the serve step the
        seats that must answer a proposal first, then the active seat."""
        st = self.state
        waiting = waiting_on(st)
        if st.phase is Phase.FILL:
            return sorted(waiting)
        return sorted(waiting - {st.active}) + ([st.active] if st.active in waiting else [])

    def asks_in_rounds(self) -> bool:
        """In the fill step (§3.2) every waiting seat acts once per round; in the serve
        step the first action ends the round (the answerers are asked again first)."""
        return self.state.phase is Phase.FILL

    def play_counts(self) -> dict[str, list[int]]:
        """Per seat, the deals it took part in as buyer or seller (§4, R8), the proposals
        and counter-proposals it made, and the counter-proposals alone (haggling)."""
        st = self.state
        deals = [0] * st.players
        proposals = [0] * st.players
        counters = [0] * st.players
        active = st.first_player
        for event in st.log:
            kind = event["t"]
            if kind == "turn":
                active = event["seat"]
            elif kind == "propose":
                proposals[event["seat"]] += 1
                counters[event["seat"]] += event.get("counter") is not None
            elif kind == "deal":
                deals[active] += 1
                deals[event["proposal"]["seller"]] += 1
        return {"deals": deals, "proposals": proposals, "counters": counters}

    def play_totals(self) -> dict[str, int]:
        """Game-wide counts: clients won by all seats together (§5), deals settled (§4)."""
        st = self.state
        return {
            "clients_served": sum(len(s.clients) for s in st.seats),
            "deals": sum(1 for e in st.log if e["t"] == "deal"),
        }

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
