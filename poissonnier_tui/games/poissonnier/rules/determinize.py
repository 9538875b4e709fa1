"""A full game state consistent with one seat's view (an information-set sample).

A seat's view (``view_for(state, seat)``) hides other hands, crate markers,
deck order and the ids of fish it does not own. :func:`sample_state` fills
those in at random with the cards the seat has not seen, so that:

* ``legal_actions(sample, seat)`` is exactly the seat's legal actions (they
  depend only on what the seat knows), which lets a client far from the
  server enumerate its options;
* a search bot can simulate futures on worlds it cannot tell apart from the
  real one (determinized / information-set Monte Carlo, issue #4).

Nothing here reads a real :class:`GameState`: the input is the view alone.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from poissonnier_tui.games.poissonnier.rules import cards
from poissonnier_tui.games.poissonnier.rules.actions import to_wire
from poissonnier_tui.games.poissonnier.rules.engine import legal_actions
from poissonnier_tui.games.poissonnier.rules.state import (
    Crate,
    GameState,
    LazyRandom,
    Phase,
    Proposal,
    SeatState,
)

if TYPE_CHECKING:  # the rules import nothing of the network layer at run time
    from net.game import Wire


def _take(pool: list[str], code: str) -> str:
    """Remove and return an unseen card of kind ``code`` from ``pool``.

    Raises:
        ValueError: no such card is left (the view is inconsistent).
    """
    for i in range(len(pool) - 1, -1, -1):
        if pool[i][0] == code:
            return pool.pop(i)
    raise ValueError(f"view inconsistent: no unseen card of kind {code!r} left")


def sample_state(view: Mapping[str, Any], rng: random.Random) -> GameState:
    """A random :class:`GameState` that gives exactly ``view`` to ``view["seat"]``.

    Args:
        view: a seat's view (not a spectator's: ``view["seat"]`` must be a seat).
        rng: randomness for the hidden parts; also seeds the sample's own rng.

    Returns:
        A fresh state; mutate it freely. Its ``seed`` is 0 (unknown).

    Raises:
        ValueError: a spectator view, or a view whose counts do not add up.
    """
    me = view["seat"]
    if me is None or view.get("me") is None:
        raise ValueError("a spectator view has no seat to sample for")
    fill = view["phase"] == Phase.FILL.value
    mine = view["me"]
    # My committed cards: during the fill step my draft is a rearrangement of them.
    my_cards = list(mine["hand"]) + [f for c in mine["crates"] for f in c]
    seen = set(my_cards) | set(mine["bought"])
    pool = [c for c in cards.fish_deck() if c not in seen]
    rng.shuffle(pool)

    seats: list[SeatState] = []
    for i, pub in enumerate(view["seats"]):
        if i == me and not fill:
            crates = [Crate("", list(f)) for f in mine["crates"]]
            hand = list(mine["hand"])
        elif i == me:
            spare = list(my_cards)
            crates = []
            for code in pub["crates"]:
                fish = []
                for ch in code:
                    fish.append(next(c for c in spare if c[0] == ch))
                    spare.remove(fish[-1])
                crates.append(Crate("", fish))
            hand = spare
        else:
            crates = [Crate("", [_take(pool, ch) for ch in code]) for code in pub["crates"]]
            hand = []
        seats.append(
            SeatState(
                hand=hand,
                crates=crates,
                coins=pub["coins"],
                clients=list(pub["clients"]),
                stamps=pub["stamps"],
                ready=pub["ready"],
            )
        )
    bought = (
        list(mine["bought"]) if me == view["active"] else [_take(pool, ch) for ch in view["bought"]]
    )
    discard = [_take(pool, code) for code, n in view["fish_discard"].items() for _ in range(n)]
    # What is left is hidden: other hands, every marker, the deck.
    for i, s in enumerate(seats):
        if i != me:
            s.hand = [pool.pop() for _ in range(view["seats"][i]["hand_size"])]
        for crate in s.crates:
            crate.marker = pool.pop()
    if len(pool) != view["fish_deck"]:
        raise ValueError(
            f"view inconsistent: {len(pool)} unseen cards for a deck of {view['fish_deck']}"
        )
    seen_clients = (
        set(view["queue"])
        | set(view["client_discard"])
        | {c for s in view["seats"] for c in s["clients"]}
    )
    client_deck = [c for c in cards.client_deck() if c not in seen_clients]
    rng.shuffle(client_deck)
    if fill:
        for i, s in enumerate(seats):
            s.draft_hand = list(mine["hand"]) if i == me else list(s.hand)
            s.draft_crates = (
                [Crate(c.marker, list(f)) for c, f in zip(s.crates, mine["crates"], strict=False)]
                if i == me
                else [c.copy() for c in s.crates]
            )
            if i == me and len(mine["crates"]) > len(s.crates):
                raise ValueError("view inconsistent: more draft crates than crates")
    proposals = [
        Proposal(
            p["id"],
            p["proposer"],
            p["seller"],
            [(k, n, code) for k, n, code in p["fish"]],
            p["seller_glacons"],
            p["seller_arrivages"],
            p["coins"],
            p["buyer_glacons"],
            p["buyer_arrivages"],
            p.get("counters"),
        )
        for p in view["proposals"]
    ]
    return GameState(
        players=view["players"],
        seed=0,
        rng=LazyRandom.seeded(rng.getrandbits(64)),  # random.Random(...), set when first used
        fish_deck=pool,
        client_deck=client_deck,
        fish_discard=discard,
        client_discard=list(view["client_discard"]),
        queue=list(view["queue"]),
        seats=seats,
        first_player=view["first_player"],
        active=view["active"],
        turn=view["turn"],
        phase=Phase(view["phase"]),
        bought=bought,
        proposals=proposals,
        next_proposal=max((p.id for p in proposals), default=0) + 1,
        last_turn=view["last_turn"],
        log=[],
        result=None,
    )


def legal_from_view(view: Mapping[str, Any], rng: random.Random | None = None) -> list[Wire]:
    """The seat's exact legal actions, computed from its view alone.

    A client far from the server (an autoplaying TUI, a bot joining over the
    network) gets the same list as ``legal_actions(state, seat)`` on the
    server, because a seat's options depend only on what it may see.

    Args:
        view: a seat's view (not a spectator's).
        rng: fills the hidden parts, which do not change the result; fixed
            when ``None``.

    Raises:
        ValueError: a spectator view or an inconsistent one.
    """
    state = sample_state(view, rng or random.Random(0))
    return [to_wire(a) for a in legal_actions(state, view["seat"])]
