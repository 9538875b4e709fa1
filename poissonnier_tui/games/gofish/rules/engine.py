"""The rules of Go Fish as a pure, deterministic state machine (docs/GOFISH.md).

No I/O, no clock, no asyncio: :func:`new_game` deals a :class:`GameState` from
a seed; :func:`apply` validates an ask for a seat and carries it out, or raises
:class:`IllegalAction` and leaves the state untouched. The seeded
``state.rng`` is the only randomness (§2, G1). Everything that needs no
choice — handing cards over, drawing, laying books, passing the turn, ending
the game — is done by the engine right after the ask that causes it, in the
order of G8, so the only decision ever waited for is the active seat's ask.

Public events appended to ``state.log`` (all msgpack-able; card ids appear
only in a shown draw, §8)::

    {"t": "deal", "players": n, "hand": k, "stock": n, "first": seat}   # §2, G1
    {"t": "book", "seat": s, "rank": r}                                  # §4, G2
    {"t": "turn", "seat": s, "turn": n}                                  # §3, G13
    {"t": "ask", "seat": s, "target": t, "rank": r, ["suit": x,]
     "answer": "gave" | "go_fish" | "nothing", "count": n}               # §3, §6, §7
    {"t": "draw", "seat": s, "shown": card id | None,
     "why": "go_fish" | "refill"}                                        # §3.3, §6, G6
    {"t": "stock_empty"}
    {"t": "over", "winners": [seat, ...], "shared": bool}                # §5, G3
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from poissonnier_tui.games.gofish.rules import cards
from poissonnier_tui.games.gofish.rules.actions import Action, Ask, AskCard, parse_action
from poissonnier_tui.games.gofish.rules.errors import IllegalAction
from poissonnier_tui.games.gofish.rules.state import Event, GameState, Options

__all__ = [
    "apply",
    "apply_wire",
    "can_be_asked",
    "is_out",
    "legal_actions",
    "new_game",
    "waiting_on",
]

TOTAL_BOOKS = len(cards.RANKS)
"""Books in a whole game (§7: "play on" ends when all thirteen are down)."""


# --------------------------------------------------------------------------- setup


def new_game(
    seed: int,
    players: int,
    options: Options | None = None,
    first_player: int | None = None,
    *,
    deck: Sequence[str] | None = None,
) -> GameState:
    """Shuffle and deal a game (docs/GOFISH.md §2), lay dealt books (G2), start turn 1.

    Args:
        seed: any int; the same seed, players, options and asks give the same game.
        players: 2..6 (§1).
        options: the table options; default: the rank game, no "play on".
        first_player: the seat the host picked to start, or ``None`` for the
            seed to draw one (G1, G11).

    Returns:
        A state waiting for the first player's ask.

    Raises:
        ValueError: ``players`` outside 2..6, ``first_player`` not a seat, or
            ``deck`` not the 52 cards.
    """
    k = cards.hand_size(players)
    if deck is not None and sorted(deck) != sorted(cards.DECK):
        raise ValueError("a stacked deck must hold each of the 52 cards once")
    if first_player is not None and (
        isinstance(first_player, bool) or not 0 <= first_player < players
    ):
        raise ValueError(f"first player must be a seat 0..{players - 1}")
    rng = random.Random(seed)
    if deck is None:
        stock = cards.deck()
        rng.shuffle(stock)
    else:
        stock = list(deck)
    hands: list[list[str]] = [[] for _ in range(players)]
    for _ in range(k):
        for hand in hands:
            hand.append(stock.pop())
    first = rng.randrange(players) if first_player is None else first_player
    state = GameState(
        players=players,
        seed=seed,
        rng=rng,
        options=options or Options(),
        stock=stock,
        hands=hands,
        books=[[] for _ in range(players)],
        first_player=first,
        active=first,
        turn=0,
    )
    _log(state, {"t": "deal", "players": players, "hand": k, "stock": len(stock), "first": first})
    for seat in range(players):  # G2: books dealt are laid before the first turn
        _lay_books(state, seat)
    if not _check_end(state):
        _begin_turn(state, first)
    return state


def _log(state: GameState, event: Event) -> None:
    state.log.append(event)


# --------------------------------------------------------------------------- queries


def waiting_on(state: GameState) -> frozenset[int]:
    """The seat whose ask the game waits for: the active seat, or nobody once over (§3)."""
    return frozenset() if state.over else frozenset({state.active})


def is_out(state: GameState, seat: int) -> bool:
    """True when ``seat`` is out of play: "play on", empty stock, empty hand (G5)."""
    return state.options.play_on and not state.stock and not state.hands[seat]


def can_be_asked(state: GameState, asker: int, target: int) -> bool:
    """Whether ``asker`` may name ``target`` now: another seat holding cards (§3, G5)."""
    return target != asker and 0 <= target < state.players and bool(state.hands[target])


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Every legal ask of ``seat`` now, in the fixed order of G12.

    Targets run from the seat after ``seat`` round the table; ranks A low;
    in the card variant suits C, D, H, S, bluffs (G4) included when allowed.

    Returns:
        :class:`Ask` actions (rank variant) or :class:`AskCard` actions (§6);
        empty when it is not ``seat``'s move or the game is over.
    """
    if state.over or seat != state.active:
        return []
    hand = state.hands[seat]
    ranks = sorted({cards.rank_of(c) for c in hand}, key=cards.RANK_INDEX.__getitem__)
    targets = [
        t
        for t in ((seat + i) % state.players for i in range(1, state.players))
        if can_be_asked(state, seat, t)
    ]
    if state.options.variant == "rank":
        return [Ask(t, r) for t in targets for r in ranks]
    held = set(hand)
    bluff = state.options.bluff
    return [
        AskCard(t, r, s)
        for t in targets
        for r in ranks
        for s in cards.SUITS
        if bluff or cards.card_id(r, s) not in held
    ]


# --------------------------------------------------------------------------- apply


def apply_wire(state: GameState, seat: int, wire: Mapping[str, Any]) -> None:
    """Parse a wire action and :func:`apply` it.

    Raises:
        IllegalAction: malformed (code ``"bad_action"``) or illegal; state unchanged.
    """
    apply(state, seat, parse_action(wire))


def apply(state: GameState, seat: int, action: Action) -> None:
    """Validate ``action`` for ``seat`` and carry it out with all that follows (§3–§7, G8).

    Args:
        state: mutated in place on success.
        seat: the acting seat, ``0 .. players - 1``.
        action: :class:`Ask` (rank variant) or :class:`AskCard` (§6).

    Raises:
        IllegalAction: the ask breaks a rule (code and rule say which);
            ``state`` is unchanged.
    """
    _check(state, seat, action)
    target, rank = action.target, action.rank
    hand, other = state.hands[seat], state.hands[target]
    event: Event = {"t": "ask", "seat": seat, "target": target, "rank": rank}
    if isinstance(action, AskCard):
        event["suit"] = action.suit
        wanted = cards.card_id(rank, action.suit)
        given = [wanted] if wanted in other else []
    else:
        given = [c for c in other if cards.rank_of(c) == rank]
    if given:  # §3.2 / §6: hand over, the asker asks again
        event["answer"], event["count"] = "gave", len(given)
        _log(state, event)
        for c in given:
            other.remove(c)
            hand.append(c)
        _settle(state, seat, target)
        if not state.over:
            _continue(state, seat)
        return
    if state.stock:  # §3.3 / §6: "Go fish"
        event["answer"], event["count"] = "go_fish", 0
        _log(state, event)
        card = _draw(state, seat)
        if isinstance(action, AskCard):
            shown = card == cards.card_id(rank, action.suit)
        else:
            shown = cards.rank_of(card) == rank
        if not shown:
            state.drawn[len(state.log)] = card  # the drawer alone is told it (§8)
        _log(state, {"t": "draw", "seat": seat, "shown": card if shown else None,
                     "why": "go_fish"})  # fmt: skip
        _note_stock(state)
        _settle(state, seat, None)
        if state.over:
            return
        if shown:
            _continue(state, seat)
        else:  # G7: a miss, even one that took the last card, goes to the next player
            _pass_turn(state, seat + 1)
        return
    event["answer"], event["count"] = "nothing", 0
    _log(state, event)
    if state.options.play_on:  # §7: nobody fishes; the turn goes to the player asked
        _pass_turn(state, target)
    else:  # G7: cannot happen in the base game (§5 ended it); a plain miss
        _pass_turn(state, seat + 1)


def _check(state: GameState, seat: int, action: Action) -> None:
    """Raise :class:`IllegalAction` unless ``seat`` may make ``action`` now."""
    if isinstance(seat, bool) or not 0 <= seat < state.players:
        raise IllegalAction("no_such_seat", "§1", f"there is no seat {seat}")
    if state.over:
        raise IllegalAction("game_over", "§5", "the game is over")
    if seat != state.active:
        raise IllegalAction(
            "not_your_turn", "§3", f"it is seat {state.active}'s turn to ask, not seat {seat}'s"
        )
    card_game = state.options.variant == "card"
    if card_game and not isinstance(action, AskCard):
        raise IllegalAction(
            "wrong_variant", "§6", "at this table you ask for a card, rank and suit"
        )
    if not card_game and not isinstance(action, Ask):
        raise IllegalAction("wrong_variant", "§3", "at this table you ask for a rank, not a card")
    target = action.target
    if target == seat:
        raise IllegalAction("ask_self", "§3", "ask another player, not yourself")
    if not 0 <= target < state.players:
        raise IllegalAction("no_such_seat", "§1", f"there is no seat {target} at this table")
    hand = state.hands[seat]
    if not any(cards.rank_of(c) == action.rank for c in hand):
        rule = "§6" if card_game else "§3"
        raise IllegalAction(
            "rank_not_held", rule, f"ask only for a rank you hold; you hold no {action.rank}"
        )
    if not state.hands[target]:
        raise IllegalAction("target_out", "G5", f"seat {target} has no cards and cannot be asked")
    if isinstance(action, AskCard) and not state.options.bluff:
        card = cards.card_id(action.rank, action.suit)
        if card in hand:
            raise IllegalAction(
                "own_card", "G4", f"{cards.label(card)} is in your hand; this table forbids bluffs"
            )


# --------------------------------------------------------------------------- flow


def _draw(state: GameState, seat: int) -> str:
    """Move the top card of the stock to ``seat``'s hand (the caller logs the draw)."""
    card = state.stock.pop()
    state.hands[seat].append(card)
    return card


def _note_stock(state: GameState) -> None:
    """Log the stock running out, right after the draw that took its last card."""
    if not state.stock:
        _log(state, {"t": "stock_empty"})


def _lay_books(state: GameState, seat: int) -> None:
    """§4: every rank ``seat`` holds all four cards of goes down as a book."""
    hand = state.hands[seat]
    counts = Counter(cards.rank_of(c) for c in hand)
    for rank in cards.RANKS:
        if counts[rank] == cards.BOOK_SIZE:
            state.hands[seat] = hand = [c for c in hand if cards.rank_of(c) != rank]
            state.books[seat].append(rank)
            _log(state, {"t": "book", "seat": seat, "rank": rank})


def _settle(state: GameState, seat: int, target: int | None) -> None:
    """After cards moved: books (§4), "play on" refills (G6), then the end check (§5, G8)."""
    _lay_books(state, seat)
    if state.options.play_on:
        for s in (seat, target):
            if s is not None and not state.hands[s] and state.stock:
                _refill(state, s)
    _check_end(state)


def _refill(state: GameState, seat: int) -> None:
    """G6: an empty hand takes the top card of the stock at once, unseen by others."""
    state.drawn[len(state.log)] = _draw(state, seat)  # the drawer alone is told it (§8)
    _log(state, {"t": "draw", "seat": seat, "shown": None, "why": "refill"})
    _note_stock(state)


def _continue(state: GameState, seat: int) -> None:
    """The asker asks again (§3.2, §3.3, §6), unless out of play (G5)."""
    if is_out(state, seat):
        _pass_turn(state, seat + 1)


def _pass_turn(state: GameState, start: int) -> None:
    """Give the turn to the first seat from ``start`` round the table not out of play (G5)."""
    for i in range(state.players):
        seat = (start + i) % state.players
        if not is_out(state, seat):
            _begin_turn(state, seat)
            return
    raise AssertionError("every seat is out of play but the game is not over")  # §7 ends first


def _begin_turn(state: GameState, seat: int) -> None:
    state.active = seat
    state.turn += 1
    _log(state, {"t": "turn", "seat": seat, "turn": state.turn})


def _check_end(state: GameState) -> bool:
    """§5 (or §7 with "play on"): end the game if it is over; return whether it is."""
    if state.options.play_on:
        done = sum(len(b) for b in state.books) == TOTAL_BOOKS
    else:
        done = not state.stock or any(not h for h in state.hands)
    if done:
        _finish(state)
    return done


def _finish(state: GameState) -> None:
    """§5, G3: most books wins; ties on the most share the victory."""
    best = max(len(b) for b in state.books)
    winners = [s for s, b in enumerate(state.books) if len(b) == best]
    state.over = True
    state.result = {
        "winners": winners,
        "shared": len(winners) > 1,
        "scores": [
            {"seat": s, "books": len(b), "ranks": list(b)} for s, b in enumerate(state.books)
        ],
        "seed": state.seed,
        "turns": state.turn,
    }
    _log(state, {"t": "over", "winners": list(winners), "shared": len(winners) > 1})
