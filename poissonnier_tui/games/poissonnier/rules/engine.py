"""The rules of Le Poissonnier as a pure, deterministic state machine.

No I/O, no clock, no asyncio: :func:`new_game` builds a :class:`GameState`
from a seed, :func:`apply` validates an action for a seat and mutates the
state, or raises :class:`IllegalAction` and leaves it untouched. The seeded
``state.rng`` is the only randomness (R3). :func:`legal_actions` enumerates a
seat's options for bots and tests.

The turn (RULES.md §3) runs itself between decisions: the draw (§3.1) and the
call of clients (§3.3) need no choice, so the engine performs them as soon as
the previous step ends. Decisions are: the fill step (every seat, at once),
then serving and dealing (the active seat, others answering deals), and
buying crates (anyone, any time).

The project's rulings where the source texts are silent (RULES.md §10):

* R16: a seat may take back its ready declaration (``unready``) while the fill
  step is still open; during the step its arrangement is private (R15) and
  others see its crates as they were.
* R17: at most one glaçon per fish in one order (a glaçon makes "one fish" one
  level better); a glaçon on an undecided client is refused as wasted.
* R18: a deal must give the buyer at least one fish or special card; coins may
  be 0. The proposer's own special cards are checked when it proposes; those
  it asks of the other side only when that side accepts, so asking never
  reveals a hand's contents.
* R19: when the queue is full and no client can be drawn, nothing is dropped;
  a call of clients stops when the client deck and its discard hold nothing
  but inspectors, so inspectors cannot cycle forever.
* R21: two crates may hold the same freshness; a crate bought during the fill
  step can be filled in that step (§7 only keeps crates bought later empty).
* R22: a client may be served with special cards alone (specials from the
  hand are allowed by §3.4).
* R23: an inspector reshuffled back (R7) may act again in the same call.

R20 (absent players in the serve step) is ``match.PoissonnierMatch.timeout_action``;
R24 (what views show) is :mod:`poissonnier_tui.games.poissonnier.rules.view`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, Final

from poissonnier_tui.games.poissonnier.rules import cards
from poissonnier_tui.games.poissonnier.rules.actions import (
    DECLINE_REASONS,
    MAX_COUNT,
    Accept,
    Action,
    BuyCrate,
    Decline,
    EndTurn,
    Place,
    Propose,
    Ready,
    Serve,
    TakeBack,
    Unready,
    Withdraw,
    parse_action,
)
from poissonnier_tui.games.poissonnier.rules.cards import CLIENTS, ClientKind
from poissonnier_tui.games.poissonnier.rules.errors import IllegalAction
from poissonnier_tui.games.poissonnier.rules.orders import check_order, plan_caps, serve_plans
from poissonnier_tui.games.poissonnier.rules.scoring import Score, decide_winner
from poissonnier_tui.games.poissonnier.rules.state import (
    Crate,
    Event,
    GameState,
    LazyRandom,
    Phase,
    Proposal,
    SeatState,
)

FILL_MOVES_MAX = 100
"""Places and take-backs one seat may make in one fill step (R6, RULES.md §3.2). A
careful player rearranges a hand of a dozen fish in well under 30 moves; the cap
stops a seat from flooding the table's log with moves that change nothing."""

OPEN_PROPOSALS_MAX = 20
"""Proposals of one seat's own that may be open at once (R26, RULES.md §10); a counter
counts like any other. A table of people keeps a handful open; the cap bounds what
every view carries (each open proposal is named in it, R24), which a seat proposing
without pause would otherwise grow past what the table can send."""

__all__ = [
    "FILL_MOVES_MAX",
    "OPEN_PROPOSALS_MAX",
    "apply",
    "apply_wire",
    "legal_actions",
    "new_game",
    "volunteers",
    "waiting_on",
]


_FILL: Final = Phase.FILL
_SERVE: Final = Phase.SERVE
_OVER: Final = Phase.OVER
"""The phases as module constants: ``Phase.FILL`` looks the member up on the enum's class
at each use (≈ 70 ns on Python 3.11), a module global ≈ 10 ns, and these tests run at
every decision."""

_INSPECTORS: Final = frozenset(
    client_id for client_id, c in CLIENTS.items() if c.kind is ClientKind.INSPECTOR
)
"""The inspector cards' ids (RULES.md §5): :func:`cards.is_inspector` without its lookups."""


# --------------------------------------------------------------------------- setup


def new_game(
    seed: int,
    players: int,
    first_player: int | None = None,
) -> GameState:
    """Set up a game (RULES.md §2) and start turn 1 up to its fill step.

    Args:
        seed: any int; the same seed, players and actions give the same game (R3).
        players: 2..5.
        first_player: the seat the host picked to start, or ``None`` for the
            seed to draw one (R4).

    Returns:
        A state in :attr:`Phase.FILL` of turn 1, after the first draw (§3.1).

    Raises:
        ValueError: ``players`` outside 2..5 or ``first_player`` not a seat.
    """
    if not cards.MIN_PLAYERS <= players <= cards.MAX_PLAYERS:
        raise ValueError(f"Le Poissonnier is for 2 to 5 players, not {players}")
    if first_player is not None and not 0 <= first_player < players:
        raise ValueError(f"first player must be a seat 0..{players - 1}")
    rng = LazyRandom.seeded(seed)  # draws as random.Random(seed); see GameState.copy
    fish_deck = cards.fish_deck()
    client_deck = cards.client_deck()
    rng.shuffle(fish_deck)
    rng.shuffle(client_deck)
    seats = []
    for _ in range(players):
        hand = [fish_deck.pop() for _ in range(cards.HAND_SIZE)]
        seats.append(
            SeatState(hand=hand, crates=[Crate(fish_deck.pop())], coins=cards.STARTING_COINS)
        )
    state = GameState(
        players=players,
        seed=seed,
        rng=rng,
        fish_deck=fish_deck,
        client_deck=client_deck,
        fish_discard=[],
        client_discard=[],
        queue=[],
        seats=seats,
        first_player=0,
        active=0,
    )
    # §2.4: reveal 4 clients; an inspector here is discarded and replaced, no fine.
    while len(state.queue) < cards.QUEUE_START and _can_draw_client(state):
        client = _draw_client(state)
        if client in _INSPECTORS:
            state.client_discard.append(client)
            _log(state, {"t": "inspector_setup", "client": client})
        else:
            state.queue.append(client)
    start = rng.randrange(players) if first_player is None else first_player
    state.first_player = state.active = start
    _log(state, {"t": "setup", "players": players, "first": start})
    _start_turn(state)
    return state


def _log(state: GameState, event: Event) -> None:
    """Append a public event. Events name fish by freshness code, never by card id."""
    event["turn"] = state.turn
    state.log.append(event)


def codes(fish: Iterable[str]) -> str:
    """Freshness codes of fish ids, best first: ``["M03", "T11"] -> "TM"``."""
    if type(fish) is list or type(fish) is tuple:
        if not fish:  # an empty crate (most crates of the seats not active, in a search)
            return ""
        # a crate's fish: one code, no join nor sort
        code: str = fish[0][0]
        for f in fish:
            if f[0] != code:
                break
        else:
            return code * len(fish)
    firsts = "".join([f[0] for f in fish])
    if len(firsts) > 1 and firsts.count(firsts[0]) != len(firsts):  # one crate: one code, no sort
        return "".join(sorted(firsts, key=_CODE_ORDER.__getitem__))
    return firsts


_CODE_ORDER: dict[str, int] = {code: i for i, code in enumerate("TFMDPGA")}
"""Card kind code -> its place in :func:`codes`' order (freshest first, specials last)."""


# --------------------------------------------------------------------------- turn flow


def _start_turn(state: GameState) -> None:
    """§3.1 draw, then open the §3.2 fill step."""
    n = state.players
    _log(state, {"t": "turn", "seat": state.active})
    drawn = []
    for k in range(n):
        seat = (state.active + k) % n
        count = cards.ACTIVE_DRAW[n] if k == 0 else 1
        got = 0
        for _ in range(count):
            if not state.fish_deck:  # R5: a draw from an empty deck is skipped
                break
            state.seats[seat].hand.append(state.fish_deck.pop())
            got += 1
        drawn.append([seat, got])
    _log(state, {"t": "draw", "counts": drawn})
    _note_deck_empty(state)
    state.phase = _FILL
    for s in state.seats:
        s.ready = False
        s.fill_moves = 0
        s.draft_hand = list(s.hand)
        s.draft_crates = [Crate(c.marker, list(c.fish)) for c in s.crates]  # Crate.copy


def _note_deck_empty(state: GameState) -> None:
    if not state.fish_deck and not state.last_turn:
        state.last_turn = True  # R13: this turn is played to its end, then the game ends
        _log(state, {"t": "last_turn"})


def _end_fill(state: GameState) -> None:
    """Every seat is ready: reveal all crates together (R15), call clients (§3.3)."""
    for s in state.seats:
        assert s.draft_hand is not None and s.draft_crates is not None
        s.hand, s.crates = s.draft_hand, s.draft_crates
        s.draft_hand = s.draft_crates = None
    _log(state, {"t": "reveal", "crates": [[codes(c.fish) for c in s.crates] for s in state.seats]})
    _call_clients(state)
    state.phase = _SERVE


def _can_draw_client(state: GameState) -> bool:
    """Some non-inspector client is left in the deck or its discard pile."""
    inspectors = _INSPECTORS
    for pile in (state.client_deck, state.client_discard):
        for c in pile:
            if c not in inspectors:
                return True
    return False


def _draw_client(state: GameState) -> str:
    if not state.client_deck:  # R7: reshuffle the discard into a new deck
        state.client_deck, state.client_discard = state.client_discard, []
        state.rng.shuffle(state.client_deck)
        _log(state, {"t": "reshuffle", "size": len(state.client_deck)})
    return state.client_deck.pop()


def _call_clients(state: GameState) -> None:
    """§3.3: fill the queue to 5 (or drop the front and draw one), inspectors act (§5)."""
    if len(state.queue) >= cards.QUEUE_MAX and _can_draw_client(state):
        dropped = state.queue.pop(0)
        state.client_discard.append(dropped)
        _log(state, {"t": "drop", "client": dropped})
    while len(state.queue) < cards.QUEUE_MAX and _can_draw_client(state):
        client = _draw_client(state)
        if client in _INSPECTORS:
            _inspect(state, client)
            state.client_discard.append(client)
        else:
            state.queue.append(client)
            _log(state, {"t": "call", "client": client})


def _inspect(state: GameState, inspector: str) -> None:
    """§5, R10: discard every rotten fish in crates; pay 1 coin once, if any coin."""
    fined = []
    for seat, s in enumerate(state.seats):
        rotten = [f for c in s.crates for f in c.fish if f[0] == "P"]
        if not rotten:
            continue
        for c in s.crates:
            c.fish = [f for f in c.fish if f[0] != "P"]
        state.fish_discard.extend(rotten)
        paid = 1 if s.coins > 0 else 0
        s.coins -= paid
        fined.append({"seat": seat, "fish": len(rotten), "paid": paid})
    _log(state, {"t": "inspector", "client": inspector, "fined": fined})


def _end_turn(state: GameState) -> None:
    """§3.4 end: bought fish left go to hand (R9), proposals lapse, next seat or end (R13)."""
    active = state.seats[state.active]
    if state.bought:
        active.hand.extend(state.bought)
        _log(state, {"t": "bought_to_hand", "seat": state.active, "count": len(state.bought)})
        state.bought = []
    state.proposals.clear()
    _log(state, {"t": "end_turn", "seat": state.active})
    if state.last_turn:
        _finish(state)
        return
    state.active = (state.active + 1) % state.players
    state.turn += 1
    _start_turn(state)


def _finish(state: GameState) -> None:
    """§8: the game is over; decide the winner."""
    state.phase = _OVER
    scores = [Score(i, s.coins, len(s.clients), s.stamps) for i, s in enumerate(state.seats)]
    state.result = decide_winner(scores)
    state.result["seed"] = state.seed
    state.result["turns"] = state.turn
    _log(state, {"t": "game_over", "winners": state.result["winners"]})


# --------------------------------------------------------------------------- queries


def waiting_on(state: GameState) -> frozenset[int]:
    """Seats whose decision the game waits for now.

    Fill step: every seat not yet ready. Serve: the active seat, plus every
    seat that must answer a proposal made to it. Over: nobody.
    """
    phase = state.phase
    if phase is _FILL:
        mask = 0
        bit = 1
        for s in state.seats:
            if not s.ready:
                mask |= bit
            bit <<= 1
        return _SEAT_SETS[mask]
    if phase is _SERVE:
        active = state.active
        mask = 1 << active
        for p in state.proposals:
            # answerer(p, active), inlined: the seller answers unless it proposed.
            mask |= 1 << (active if p.proposer == p.seller else p.seller)
        return _SEAT_SETS[mask]
    return _SEAT_SETS[0]


_SEAT_SETS: Final = tuple(
    frozenset(i for i in range(cards.MAX_PLAYERS) if mask >> i & 1)
    for mask in range(1 << cards.MAX_PLAYERS)
)
"""Bit mask of seats (bit ``i`` for seat ``i``) -> those seats: :func:`waiting_on` hands
out these shared sets (frozen, so no caller can change one) instead of building one."""


def volunteers(state: GameState) -> frozenset[int]:
    """Seats the game does not wait for that may still act now, unasked.

    Serve (RULES.md §4, "anyone may propose"): every seat but the active one
    that is not answering a proposal may offer the active player fish from its
    crates. A table gives these seats a chance to act after each change but
    never waits on them, so they have no deadline. Fill step and game over:
    nobody (every seat still filling is waited on; a ready seat could only
    unready or buy a crate, §7, which a table need not prompt).
    """
    if state.phase is not _SERVE:
        return frozenset()
    return frozenset(range(state.players)) - waiting_on(state)


def answerer(p: Proposal, active: int) -> int:
    """The seat that must accept or decline ``p`` (R8): the side that did not propose,
    i.e. the active seat (the buyer) if the seller proposed, else the seller. Views carry
    it with each proposal (``view.view_for``), so no reader computes it again."""
    return active if p.proposer == p.seller else p.seller


def usable_fish(state: GameState, seat: int) -> list[str]:
    """Fish ``seat`` could serve with now: its crates, plus bought fish if active (§3.4)."""
    s = state.seats[seat]
    fish = [f for c in s.crates for f in c.fish]
    if seat == state.active:
        fish += state.bought
    return fish


def next_crate_price(state: GameState, seat: int) -> int:
    """Coins the next crate costs ``seat`` (R11)."""
    return cards.crate_price(len(state.seats[seat].crates))


# --------------------------------------------------------------------------- apply


def apply_wire(state: GameState, seat: int, wire: Mapping[str, Any]) -> None:
    """Parse a wire action and :func:`apply` it.

    Raises:
        IllegalAction: malformed (code ``"bad_action"``) or illegal; state unchanged.
    """
    apply(state, seat, parse_action(wire))


def apply(state: GameState, seat: int, action: Action) -> None:
    """Validate ``action`` for ``seat`` and carry it out.

    Args:
        state: mutated in place on success.
        seat: the acting seat, ``0 .. players - 1``.
        action: one of :mod:`poissonnier_tui.games.poissonnier.rules.actions`.

    Raises:
        IllegalAction: the action breaks a rule (the code and the rule cited
            say which); ``state`` is unchanged.
    """
    if not 0 <= seat < state.players:
        raise IllegalAction("bad_seat", "§3", "there is no seat {seat}", {"seat": seat})
    if state.phase is _OVER:
        raise IllegalAction("game_over", "§8", "the game is over")
    kind = type(action)
    _HANDLERS[kind](state, seat, action)
    if state.proposals and kind not in _MOVE_NOTHING:
        _lapse_proposals(state)


def _fill_seat(state: GameState, seat: int) -> SeatState:
    if state.phase is not _FILL:
        raise IllegalAction("not_fill", "§3.2", "crates can be filled only in the fill step")
    s = state.seats[seat]
    if s.ready:
        raise IllegalAction(
            "already_ready",
            "§3.2",
            "you have declared ready; take it back first to change your crates",
        )
    return s


def _crate_index(crates: list[Crate], index: int) -> Crate:
    if not 0 <= index < len(crates):
        raise IllegalAction("bad_crate", "§3.2", "you have no crate {crate}", {"crate": index + 1})
    return crates[index]


def _rearranging(state: GameState, seat: int) -> SeatState:
    """The seat about to place or take back fish; R6 caps how often per fill step."""
    s = _fill_seat(state, seat)
    if s.fill_moves >= FILL_MOVES_MAX:
        raise IllegalAction(
            "too_many_moves",
            "R6",
            "you have rearranged {n} times this fill step; declare ready",
            {"n": FILL_MOVES_MAX},
        )
    return s


def _place(state: GameState, seat: int, action: Place) -> None:
    s = _rearranging(state, seat)
    hand = s.draft_hand
    assert hand is not None and s.draft_crates is not None
    crate = _crate_index(s.draft_crates, action.crate)
    placed = action.cards
    if not placed:
        raise IllegalAction("bad_place", "§3.2", "choose at least one fish to place")
    if len(placed) > 1 and len(set(placed)) != len(placed):
        raise IllegalAction("bad_place", "§3.2", "a card is named twice", key="card_twice")
    for card in placed:
        if card not in hand:
            raise IllegalAction("not_in_hand", "§3.2", "{card} is not in your hand", {"card": card})
        if card[0] in cards.SPECIAL_KINDS:
            raise IllegalAction(
                "special_in_crate", "§1", "special cards stay in the hand; they never go in a crate"
            )
    code = placed[0][0]
    fish = crate.fish
    for card in (*placed, *fish):
        if card[0] != code:
            raise IllegalAction("mixed_crate", "§3.2", "a crate holds fish of one freshness only")
    for card in placed:
        hand.remove(card)
        fish.append(card)
    s.fill_moves += 1


def _take_back(state: GameState, seat: int, action: TakeBack) -> None:
    s = _rearranging(state, seat)
    assert s.draft_hand is not None and s.draft_crates is not None
    crate = _crate_index(s.draft_crates, action.crate)
    if not crate.fish:
        raise IllegalAction(
            "empty_crate", "§3.2", "crate {crate} is already empty", {"crate": action.crate + 1}
        )
    s.draft_hand.extend(crate.fish)
    crate.fish = []
    s.fill_moves += 1


def _ready(state: GameState, seat: int, action: Ready) -> None:
    s = _fill_seat(state, seat)
    s.ready = True
    _log(state, {"t": "ready", "seat": seat})
    for x in state.seats:  # all(...) without a generator
        if not x.ready:
            return
    _end_fill(state)


def _unready(state: GameState, seat: int, action: Unready) -> None:
    if state.phase is not _FILL:
        raise IllegalAction("not_fill", "§3.2", "the fill step is over", key="fill_over")
    s = state.seats[seat]
    if not s.ready:
        raise IllegalAction("not_ready", "§3.2", "you have not declared ready")
    s.ready = False
    _log(state, {"t": "unready", "seat": seat})


def _buy_crate(state: GameState, seat: int, action: BuyCrate) -> None:
    s = state.seats[seat]
    if len(s.crates) >= cards.MAX_CRATES:
        raise IllegalAction(
            "max_crates", "R12", "a stall has at most {n} crates", {"n": cards.MAX_CRATES}
        )
    if not state.fish_deck:
        raise IllegalAction(
            "deck_empty", "§7", "no crate can be bought once the fish deck is empty"
        )
    price = cards.crate_price(len(s.crates))
    if s.coins < price:
        raise IllegalAction(
            "no_coins",
            "R11",
            "the next crate costs {price} coins; you have {coins}",
            {"price": price, "coins": s.coins},
            key="crate_price",
        )
    s.coins -= price
    crate = Crate(state.fish_deck.pop())
    s.crates.append(crate)
    if s.draft_crates is not None:
        s.draft_crates.append(Crate(crate.marker))
    _log(state, {"t": "buy_crate", "seat": seat, "price": price, "crates": len(s.crates)})
    _note_deck_empty(state)


def _serve_phase(state: GameState, seat: int, what: str) -> None:
    """Refuse ``what`` (``"serve"`` or ``"end the turn"``) outside the active player's serve."""
    if state.phase is not _SERVE:
        raise IllegalAction(
            "not_serve",
            "§3.4",
            "{what} only after the fill step and the call",
            {"what": what},
            key=f"not_serve_{what.replace(' ', '_')}",
        )
    if seat != state.active:
        raise IllegalAction(
            "not_active",
            "§3.4",
            "only the active player can {what}",
            {"what": what},
            key=f"not_active_{what.replace(' ', '_')}",
        )


def _serve(state: GameState, seat: int, action: Serve) -> None:
    _serve_phase(state, seat, "serve")
    if action.client not in state.queue[: cards.SERVABLE]:
        raise IllegalAction(
            "not_servable",
            "§3.4",
            "{client} is not among the first 3 clients of the queue",
            {"client": action.client},
        )
    client = CLIENTS[action.client]
    s = state.seats[seat]
    if len(set(action.fish)) != len(action.fish):
        raise IllegalAction("bad_order", "§6", "a fish is named twice", key="fish_twice")
    usable = set(usable_fish(state, seat))
    for f in action.fish:
        if f not in usable:
            in_hand = f in s.hand
            raise IllegalAction(
                "fish_not_usable",
                "§3.4",
                "{fish} is in your hand: only crate or bought fish can serve"
                if in_hand
                else "{fish} is in neither your crates nor bought this turn: "
                "only crate or bought fish can serve",
                {"fish": f},
                key="fish_in_hand" if in_hand else "fish_not_usable",
            )
    hand_kinds = [c[0] for c in s.hand]
    if len(action.glacons) > hand_kinds.count(cards.GLACON):
        raise IllegalAction(
            "no_special", "§3.4", "you do not hold that many glaçons", key="few_glacons"
        )
    if len(action.arrivages) > hand_kinds.count(cards.ARRIVAGE):
        raise IllegalAction(
            "no_special", "§3.4", "you do not hold that many arrivages", key="few_arrivages"
        )
    check_order(client, action.fish, action.glacons, action.arrivages)
    # Valid: carry it out.
    for f in action.fish:
        if f in state.bought:
            state.bought.remove(f)
        else:
            for c in s.crates:
                if f in c.fish:
                    c.fish.remove(f)
                    break
    used = _take_specials(s.hand, len(action.glacons), len(action.arrivages))
    state.fish_discard.extend(action.fish)
    state.fish_discard.extend(used)
    state.queue.remove(action.client)
    s.clients.append(action.client)
    s.coins += client.coins
    s.stamps += client.stamps
    _log(
        state,
        {
            "t": "serve",
            "seat": seat,
            "client": action.client,
            "fish": codes(action.fish),
            "glacons": len(action.glacons),
            "arrivages": "".join(action.arrivages),
            "coins": client.coins,
            "stamps": client.stamps,
        },
    )


def _take_specials(hand: list[str], glacons: int, arrivages: int) -> list[str]:
    """Remove that many specials from ``hand`` (caller checked they exist)."""
    if not glacons and not arrivages:
        return []
    taken = []
    for kind, n in ((cards.GLACON, glacons), (cards.ARRIVAGE, arrivages)):
        for card in [c for c in hand if c[0] == kind][:n]:
            hand.remove(card)
            taken.append(card)
    return taken


def _has_specials(hand: Iterable[str], glacons: int, arrivages: int) -> bool:
    if not glacons and not arrivages:
        return True
    kinds = "".join([c[0] for c in hand])
    return kinds.count(cards.GLACON) >= glacons and kinds.count(cards.ARRIVAGE) >= arrivages


def _propose(state: GameState, seat: int, action: Propose) -> None:
    if state.phase is not _SERVE:
        raise IllegalAction(
            "not_serve",
            "§4",
            "deals are made only while the active player serves",
            key="deal_not_serve",
        )
    active = state.active
    seller = action.seller
    if seat != active and seller != seat:
        raise IllegalAction(
            "not_party",
            "§4",
            "you can only deal with the active player, as seller",
            key="deal_party",
        )
    if not 0 <= seller < state.players or seller == active:
        raise IllegalAction(
            "bad_seller", "§4", "the seller must be another player than the active one"
        )
    if sum([p.proposer == seat for p in state.proposals]) >= OPEN_PROPOSALS_MAX:
        raise IllegalAction(
            "too_many_proposals",
            "R26",
            "you have {n} proposals open; wait for answers or withdraw one",
            {"n": OPEN_PROPOSALS_MAX},
        )
    sold = action.fish
    if not sold and not action.seller_glacons and not action.seller_arrivages:
        raise IllegalAction("empty_deal", "§4", "a deal gives the buyer at least one fish or card")
    seats = state.seats
    crates = seats[seller].crates
    if len(sold) > 1 and len({k for k, _ in sold}) != len(sold):
        raise IllegalAction("bad_deal", "§4", "a crate is named twice")
    for k, n in sold:
        if not 0 <= k < len(crates) or not 1 <= n <= len(crates[k].fish):
            raise IllegalAction(
                "fish_not_in_crate",
                "§4",
                "the seller's crate does not hold that many fish; only crate fish are sold",
            )
    buyer = seats[active]
    if action.coins > buyer.coins:
        raise IllegalAction(
            "no_coins",
            "§4",
            "the buyer holds only {coins} coins",
            {"coins": buyer.coins},
            key="buyer_coins",
        )
    own_g, own_a = (
        (action.seller_glacons, action.seller_arrivages)
        if seat == seller
        else (action.buyer_glacons, action.buyer_arrivages)
    )
    if (own_g or own_a) and not _has_specials(seats[seat].hand, own_g, own_a):
        raise IllegalAction(
            "no_special", "§4", "you do not hold the special cards you offer", key="offer_specials"
        )
    if action.counter is not None:
        old = _find_proposal(state, action.counter)
        if old.seller != seller or answerer(old, active) != seat:
            raise IllegalAction("bad_counter", "§4", "you can counter only a proposal made to you")
        _close_proposal(state, old)
    p = Proposal(  # positional, in the field order: id, proposer, seller, fish, ...
        state.next_proposal,
        seat,
        seller,
        [(k, n, crates[k].fish[0][0]) for k, n in sold],
        action.seller_glacons,
        action.seller_arrivages,
        action.coins,
        action.buyer_glacons,
        action.buyer_arrivages,
        action.counter,
    )
    state.next_proposal += 1
    state.proposals.append(p)
    state.log.append(  # _log, inlined: "turn" last
        {
            "t": "propose",
            "seat": seat,
            "proposal": proposal_wire(p),
            "counter": action.counter,
            "turn": state.turn,
        }
    )


def proposal_wire(p: Proposal) -> dict[str, Any]:
    """The public wire map of a proposal (RULES.md §4: proposals are public).

    ``"fish"`` is a list of ``[crate index, count, freshness code]``;
    ``"counters"`` the id of the proposal it replaced as a counter-offer, or ``None``.
    """
    fish = p.fish
    return {
        "id": p.id,
        "proposer": p.proposer,
        "seller": p.seller,
        "fish": [list(fish[0])] if len(fish) == 1 else [[k, n, code] for k, n, code in fish],
        "seller_glacons": p.seller_glacons,
        "seller_arrivages": p.seller_arrivages,
        "coins": p.coins,
        "buyer_glacons": p.buyer_glacons,
        "buyer_arrivages": p.buyer_arrivages,
        "counters": p.counters,
    }


def _close_proposal(state: GameState, p: Proposal) -> None:
    """Remove the open proposal ``p`` (§4), found by identity: ``list.remove`` would
    compare it field by field with every proposal before it (ids are unique, so the
    same one goes)."""
    proposals = state.proposals
    for i, q in enumerate(proposals):
        if q is p:
            del proposals[i]
            return


def _find_proposal(state: GameState, pid: int) -> Proposal:
    for p in state.proposals:
        if p.id == pid:
            return p
    raise IllegalAction(
        "no_proposal", "§4", "there is no open proposal #{proposal}", {"proposal": pid}
    )


def _accept(state: GameState, seat: int, action: Accept) -> None:
    p = _find_proposal(state, action.proposal)
    active = state.active
    if seat != answerer(p, active):
        raise IllegalAction(
            "not_party", "R8", "only the other side of a proposal can accept it", key="accept_party"
        )
    seller, buyer = state.seats[p.seller], state.seats[active]
    mine_g, mine_a = (
        (p.seller_glacons, p.seller_arrivages)
        if seat == p.seller
        else (p.buyer_glacons, p.buyer_arrivages)
    )
    if not _has_specials(state.seats[seat].hand, mine_g, mine_a):
        raise IllegalAction(
            "no_special",
            "§4",
            "you do not hold the special cards this deal asks of you",
            key="asked_specials",
        )
    theirs = (
        (seller.hand, p.seller_glacons, p.seller_arrivages)
        if seat != p.seller
        else (buyer.hand, p.buyer_glacons, p.buyer_arrivages)
    )
    if not _has_specials(*theirs):
        _close_proposal(state, p)  # §4: it can no longer be carried out
        _log(state, {"t": "lapse", "proposal": p.id})
        return
    # R8: both sides said yes; settle at once.
    for k, n, _ in p.fish:
        crate = seller.crates[k]
        state.bought.extend(crate.fish[-n:])
        del crate.fish[-n:]
    buyer.coins -= p.coins
    seller.coins += p.coins
    seller.hand.extend(_take_specials(buyer.hand, p.buyer_glacons, p.buyer_arrivages))
    buyer.hand.extend(_take_specials(seller.hand, p.seller_glacons, p.seller_arrivages))
    _close_proposal(state, p)
    _log(state, {"t": "deal", "seat": seat, "proposal": proposal_wire(p)})


def _decline(state: GameState, seat: int, action: Decline) -> None:
    p = _find_proposal(state, action.proposal)
    if seat != answerer(p, state.active):
        raise IllegalAction(
            "not_party",
            "§4",
            "only the other side of a proposal can decline it",
            key="decline_party",
        )
    _check_reason(p, seat, action)
    _close_proposal(state, p)
    event: Event = {"t": "decline", "seat": seat, "proposal": p.id}
    if action.reason is not None:  # absent otherwise: older logs read the same
        event.update(reason=action.reason, coins=p.coins)
        if action.price is not None:
            event["price"] = action.price
    _log(state, event)


_SELLER_REASONS: Final = frozenset({"too_cheap", "not_selling", "need_it"})
"""Reasons only the seller of a proposal can give (§4)."""
_BUYER_REASONS: Final = frozenset({"too_dear", "no_use"})
"""Reasons only the buyer (the active seat) can give (§4)."""


def _check_reason(p: Proposal, seat: int, action: Decline) -> None:
    """A decline's reason and price must say something true of the proposal (§4).

    The reason is one of ``DECLINE_REASONS`` fitting the decliner's side; a
    price goes only with ``too_cheap`` (more coins than offered) or
    ``too_dear`` (fewer), at most ``MAX_COUNT``.

    Raises:
        IllegalAction: ``bad_reason``; nothing changes.
    """
    reason, price = action.reason, action.price
    if reason is None:
        if price is not None:
            raise IllegalAction(
                "bad_reason", "§4", "a counter-price needs a reason", key="reason_price_alone"
            )
        return
    if reason not in DECLINE_REASONS:
        raise IllegalAction(
            "bad_reason", "§4", "{reason} is not a reason to decline", {"reason": reason[:16]},
            key="reason_unknown",
        )  # fmt: skip
    side = _SELLER_REASONS if seat == p.seller else _BUYER_REASONS
    if reason in _SELLER_REASONS | _BUYER_REASONS and reason not in side:
        raise IllegalAction(
            "bad_reason", "§4", "{reason} is not a reason for your side of this deal",
            {"reason": reason}, key="reason_side",
        )  # fmt: skip
    if price is None:
        return
    if reason == "too_cheap" and p.coins < price <= MAX_COUNT:
        return
    if reason == "too_dear" and 0 <= price < p.coins:
        return
    raise IllegalAction(
        "bad_reason", "§4",
        "a counter-price goes with too_cheap (more than the {coins} offered) "
        "or too_dear (fewer)", {"coins": p.coins}, key="reason_price",
    )  # fmt: skip


def _withdraw(state: GameState, seat: int, action: Withdraw) -> None:
    p = _find_proposal(state, action.proposal)
    if seat != p.proposer:
        raise IllegalAction("not_proposer", "§4", "only the proposer can withdraw a proposal")
    _close_proposal(state, p)
    _log(state, {"t": "withdraw", "seat": seat, "proposal": p.id})


def _end_turn_action(state: GameState, seat: int, action: EndTurn) -> None:
    _serve_phase(state, seat, "end the turn")
    _end_turn(state)


def _lapse_proposals(state: GameState) -> None:
    """§4: a proposal lapses once a fish it names has moved or the buyer lacks the coins."""
    if not state.proposals:
        return
    seats = state.seats
    buyer_coins = seats[state.active].coins
    keep = []
    for p in state.proposals:
        lapsed = p.coins > buyer_coins
        if not lapsed:
            crates = seats[p.seller].crates
            for k, n, _ in p.fish:
                if len(crates[k].fish) < n:
                    lapsed = True
                    break
        if lapsed:
            _log(state, {"t": "lapse", "proposal": p.id})
        else:
            keep.append(p)
    if len(keep) != len(state.proposals):
        state.proposals = keep


_MOVE_NOTHING: Final = frozenset({Propose, Decline, Withdraw})
"""Actions that move no fish and no coins, so no open proposal can lapse by them (§4):
:func:`apply` skips :func:`_lapse_proposals` after them. (A new proposal is checked
against the crates and the buyer's coins before it is opened; the others only remove one.)"""

_HANDLERS: dict[type[Any], Any] = {
    Place: _place,
    TakeBack: _take_back,
    Ready: _ready,
    Unready: _unready,
    BuyCrate: _buy_crate,
    Serve: _serve,
    Propose: _propose,
    Accept: _accept,
    Decline: _decline,
    Withdraw: _withdraw,
    EndTurn: _end_turn_action,
}


# --------------------------------------------------------------------------- legal actions

#: Highest price enumerated per proposal by :func:`legal_actions` (any price is legal).
ENUMERATED_MAX_PRICE = 6


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """A finite list of legal actions for ``seat`` now.

    Exhaustive for every action kind except two families with too many
    members, which are sampled: ``place`` is listed one card per
    (freshness, crate) pair, and ``propose`` one crate's fish of one freshness
    (1..all of them) at each price 0..min(the buyer's coins, 6), with no
    special cards: the active seat asking any other seat's crates, and in the
    serve step every other seat offering its own crates unasked (§4); no
    ``propose`` for a seat with :data:`OPEN_PROPOSALS_MAX` of its own open (R26).
    Every listed action is accepted by :func:`apply`.

    Returns:
        Actions; empty when the seat has nothing to decide (e.g. game over).
    """
    phase = state.phase
    if phase is _OVER:
        return []
    s = state.seats[seat]
    owned = len(s.crates)
    out: list[Action] = (
        [_BUY_CRATE]
        if owned < cards.MAX_CRATES and state.fish_deck and s.coins >= _CRATE_PRICES[owned]
        else []
    )
    if phase is _FILL:
        if s.ready:
            out.append(_UNREADY)
            return out
        assert s.draft_hand is not None and s.draft_crates is not None
        out.append(_READY)
        if s.fill_moves >= FILL_MOVES_MAX:
            return out  # R6: no more places or take-backs this fill step
        first_of: dict[str, str] = {}  # freshness code -> first such fish in hand
        for card in s.draft_hand:
            code = card[0]
            if code not in first_of:
                first_of[code] = card
        first_of.pop(cards.GLACON, None)  # special cards never go in a crate (§1)
        first_of.pop(cards.ARRIVAGE, None)
        rows: list[tuple[Place, ...]] | None = None  # the first fish's places, by crate
        for i, crate in enumerate(s.draft_crates):
            fish = crate.fish
            if fish:
                out.append(_TAKE_BACKS[i])
                same = first_of.get(fish[0][0])
                if same is not None:
                    out.append(_PLACES[same][i])
            elif first_of:
                if rows is None:
                    rows = [_PLACES[card] for card in first_of.values()]
                out += [row[i] for row in rows]
        return out
    # Serve phase.
    active = state.active
    own = 0  # the seat's own open proposals (R26)
    for p in state.proposals:
        proposer = p.proposer
        # answerer(p, active), inlined: the seller answers unless it proposed.
        if seat == (active if proposer == p.seller else p.seller):
            asked = (
                (p.seller_glacons, p.seller_arrivages)
                if seat == p.seller
                else (p.buyer_glacons, p.buyer_arrivages)
            )
            if _has_specials(s.hand, *asked):
                out += _ANSWERS[p.id]
            else:  # R18: a yes without the special cards asked is refused; a no is not
                out.append(_ANSWERS[p.id][1])
        if seat == proposer:
            out.append(_WITHDRAWALS[p.id])
            own += 1
    may_propose = own < OPEN_PROPOSALS_MAX
    if seat != active:
        if not may_propose:
            return out
        # Unasked offers to the active player (§4): sampled like the buyer's family.
        buyer_coins = state.seats[active].coins
        out += _proposals(
            seat,
            tuple([len(c.fish) for c in s.crates]),
            buyer_coins if buyer_coins < ENUMERATED_MAX_PRICE else ENUMERATED_MAX_PRICE,
        )
        return out
    out.append(_END_TURN)
    out += _serve_actions(state, seat)
    if not may_propose:
        return out
    coins = s.coins
    price_cap = coins if coins < ENUMERATED_MAX_PRICE else ENUMERATED_MAX_PRICE
    for other, o in enumerate(state.seats):
        if other != active:
            out += _proposals(other, tuple([len(c.fish) for c in o.crates]), price_cap)
    return out


# Actions are frozen, so legal_actions hands out the same objects again and again:
# fewer allocations, and a consumer may key a cache on them (actions.wires_of).
_BUY_CRATE: Final = BuyCrate()
_READY: Final = Ready()
_UNREADY: Final = Unready()
_END_TURN: Final = EndTurn()


_CRATE_PRICES: Final = tuple(cards.crate_price(owned) for owned in range(cards.MAX_CRATES))
"""Owned crates -> the next one's price (R11), for every count that may still buy."""

_TAKE_BACKS: Final = tuple(TakeBack(crate) for crate in range(cards.MAX_CRATES))
"""Crate index -> its take-back (R12: at most ``MAX_CRATES`` crates)."""


class _PlaceRows(dict[str, tuple[Place, ...]]):
    """Card id -> the one-card :class:`Place` of that card into each crate, by crate
    index: made on first use, then found by one lookup (the fill step lists them for
    every seat at every decision)."""

    def __missing__(self, card: str) -> tuple[Place, ...]:
        row = tuple(Place((card,), crate) for crate in range(cards.MAX_CRATES))
        self[card] = row
        return row


_PLACES: Final = _PlaceRows()


class _Answers(dict[int, tuple[Accept, Decline]]):
    """Proposal id -> its accept and its decline (no reason): made on first use, then
    found by one lookup. Ids count up from 1 in each game, so the table stays small."""

    def __missing__(self, proposal: int) -> tuple[Accept, Decline]:
        answers = self[proposal] = (Accept(proposal), Decline(proposal))
        return answers


class _Withdrawals(dict[int, Withdraw]):
    """Proposal id -> its withdrawal, made on first use (see :class:`_Answers`)."""

    def __missing__(self, proposal: int) -> Withdraw:
        withdraw = self[proposal] = Withdraw(proposal)
        return withdraw


_ANSWERS: Final = _Answers()
_WITHDRAWALS: Final = _Withdrawals()


@lru_cache(maxsize=1 << 14)
def _proposals(seller: int, sizes: tuple[int, ...], price_cap: int) -> tuple[Propose, ...]:
    """The sampled ``propose`` family of :func:`legal_actions` for one seller's crates.

    One crate's fish (1..all of them) at each price 0..``price_cap``, crate by
    crate. ``sizes`` are the crates' fish counts. Actions are frozen, so the
    same tuple serves every call with the same crates and cap.
    """
    return tuple(
        _propose_action(seller, k, n, price)
        for k, size in enumerate(sizes)
        for n in range(1, size + 1)
        for price in range(price_cap + 1)
    )


@lru_cache(maxsize=1 << 12)
def _propose_action(seller: int, crate: int, count: int, price: int) -> Propose:
    return Propose(seller, ((crate, count),), coins=price)


def _serve_actions(state: GameState, seat: int) -> tuple[Serve, ...]:
    """One concrete :class:`Serve` per distinct plan per servable client."""
    s = state.seats[seat]
    fish = list(state.bought)  # bought fish first: they would otherwise go back to the hand (R9)
    for c in s.crates:
        fish += c.fish
    # The hand as it is, not its special cards counted: cheaper to key on, and in the
    # serve step it changes only when special cards move (§4, §6) or the turn ends.
    return _serve_options(tuple(state.queue[: cards.SERVABLE]), tuple(fish), tuple(s.hand))


@lru_cache(maxsize=1 << 12)
def _serve_options(
    servable: tuple[str, ...], fish: tuple[str, ...], hand: tuple[str, ...]
) -> tuple[Serve, ...]:
    """:func:`_serve_actions` for the servable clients, the usable fish in order and the
    hand (its special cards): a pure function, cached (a seat is asked again and again
    between changes).

    Each plan of :func:`orders.serve_plans` takes the first fish of each freshness in
    ``fish`` order, so the plans, as slices of those runs (:func:`_recipes`), are
    cached by fish counts alone; only the cards are picked here.
    """
    glacons = arrivages = 0
    for card in hand:  # one pass: str.count parses its arguments at each call
        kind = card[0]
        if kind == cards.GLACON:
            glacons += 1
        elif kind == cards.ARRIVAGE:
            arrivages += 1
    by_code: dict[str, list[str]] = {}  # freshness code -> its fish, in order
    for fish_id in fish:
        run = by_code.get(fish_id[0])
        if run is None:
            by_code[fish_id[0]] = [fish_id]
        else:
            run.append(fish_id)
    get = by_code.get
    n_t, n_f, n_m, n_d, n_p = (
        len(get("T", ())),
        len(get("F", ())),
        len(get("M", ())),
        len(get("D", ())),
        len(get("P", ())),
    )
    out = []
    for client_id in dict.fromkeys(servable):
        caps = _CLIENT_CAPS.get(client_id)
        if caps is None:  # an inspector: never served
            continue
        t, f, m, d, p, g, a = caps
        recipes = _recipes(
            client_id,
            n_t if n_t < t else t,
            n_f if n_f < f else f,
            n_m if n_m < m else m,
            n_d if n_d < d else d,
            n_p if n_p < p else p,
            glacons if glacons < g else g,
            arrivages if arrivages < a else a,
        )
        for raw, iced, plan_arrivages in recipes:
            chosen: list[str] = []
            for code, start, stop in raw:
                chosen += by_code[code][start:stop]
            iced_fish: list[str] = []
            for code, start, stop in iced:
                iced_fish += by_code[code][start:stop]
            key = (client_id, (*chosen, *iced_fish), tuple(iced_fish), plan_arrivages)
            serve = _SERVES.get(key)
            if serve is None:
                if len(_SERVES) >= _SERVES_MAX:
                    _SERVES.clear()
                serve = _SERVES[key] = Serve(*key)
            out.append(serve)
    return tuple(out)


_SERVES: dict[tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...]], Serve] = {}
"""(client, fish, glacons, arrivages) -> that :class:`Serve`: the same fish configuration
comes back with other fish beside it (another key of :func:`_serve_options`), and a
frozen dataclass costs more to make (≈ 1 µs) than to find."""
_SERVES_MAX = 1 << 14
"""Serve actions remembered at once; then the table starts over."""


_CLIENT_CAPS: Final = {
    client_id: plan_caps(c.order, c.size, c.kind is ClientKind.UNDECIDED)
    for client_id, c in CLIENTS.items()
    if c.kind is not ClientKind.INSPECTOR
}
"""Client id -> :func:`orders.plan_caps` of each client that can be served."""

_Slices = tuple[tuple[str, int, int], ...]
"""``(freshness code, start, stop)``: fish ``start:stop`` of that freshness, in order."""


@lru_cache(maxsize=1 << 14)
def _recipes(
    client_id: str, t: int, f: int, m: int, d: int, p: int, glacons: int, arrivages: int
) -> tuple[tuple[_Slices, _Slices, tuple[str, ...]], ...]:
    """The plans of :func:`orders.serve_plans` for one client, as slices of the runs of
    fish of each freshness: ``(raw slices, iced slices, arrivages)`` per plan, in order.

    ``t`` .. ``p`` are the usable fish of each freshness, and all the resources no more
    than :func:`orders.plan_caps` (more would change no plan: the cache stays small). A
    plan's raw fish come first in each run, then its iced ones, so the cards picked are
    those :func:`_serve_options` always picked. Empty when the client has more places
    than there are fish and arrivages (§6: no plan).
    """
    client = CLIENTS[client_id]
    if client.size > t + f + m + d + p + arrivages:  # fewer cards than the order has places
        return ()
    have = {"T": t, "F": f, "M": m, "D": d, "P": p}
    out = []
    for plan in serve_plans(client, have, glacons, arrivages):
        taken: dict[str, int] = {}
        raw = []
        for code, n in plan.raw:
            start = taken.get(code, 0)
            raw.append((code, start, start + n))
            taken[code] = start + n
        iced = []
        for code, n in plan.iced:
            start = taken.get(code, 0)
            iced.append((code, start, start + n))
            taken[code] = start + n
        out.append((tuple(raw), tuple(iced), plan.arrivages))
    return tuple(out)


def is_undecided(client: str) -> bool:
    """True for a Client indécis card (RULES.md §5)."""
    return CLIENTS[client].kind is ClientKind.UNDECIDED
