"""Fast default policy for the hard bot's simulations, played on *sampled* worlds.

The hard bot (:mod:`poissonnier_tui.games.poissonnier.bots.hard`) never sees the real game
state. It samples full worlds consistent with its own seat's view
(:func:`poissonnier_tui.games.poissonnier.rules.determinize.sample_state`) and plays their
futures here, straight on the pure engine, for every seat. This module
receives only such sampled states: nothing in it can reach the table's state
(see ``tests/test_bots_honesty.py``).

The policy is the medium bot's, simplified for speed (no deals; about 0.3 ms
per 2-player turn):

* **Fill (RULES.md §3.2).** Buy a crate when
  :func:`~poissonnier_tui.games.poissonnier.bots.medium.crate_worth` reaches its price (§7, R11),
  then lay the layout of :func:`~poissonnier_tui.games.poissonnier.bots.planning.choose_layout`
  for the clients known to be within reach after the call (§3.3): all fish of
  the chosen freshnesses, rotten fish only for an undecided client when active
  (§5, R10).
* **Serve (§3.4, §6).** Serve the client of best value, cheapest plan first
  (:func:`~poissonnier_tui.games.poissonnier.bots.planning.rollout`'s order), until none is
  servable; then end the turn. Open proposals are declined or withdrawn (§4).
"""

from __future__ import annotations

from functools import lru_cache

from poissonnier_tui.games.poissonnier.bots.medium import CRATE_TURN_VALUE, WEIGHTS, points_of
from poissonnier_tui.games.poissonnier.bots.planning import (
    CODES,
    cached_choice,
    choose_layout,
    queue_after_call,
)
from poissonnier_tui.games.poissonnier.rules import cards
from poissonnier_tui.games.poissonnier.rules.actions import (
    BuyCrate,
    Decline,
    EndTurn,
    Ready,
    Serve,
    Withdraw,
)
from poissonnier_tui.games.poissonnier.rules.engine import apply
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase

__all__ = ["own_turns_left", "play_fill", "play_serve", "play_until"]


def own_turns_left(state: GameState, seat: int) -> float:
    """Expected turns ``seat`` still gets after the current one (RULES.md §3.1, R13)."""
    if state.last_turn:
        return 0.0
    per_turn = cards.ACTIVE_DRAW[state.players] + state.players - 1
    later = (len(state.fish_deck) + per_turn - 1) // per_turn
    return later / state.players


def _pool(hand: list[str], crates: list[list[str]]) -> tuple[int, ...]:
    """Fish by freshness (in :data:`CODES` order) in ``hand`` and ``crates`` together."""
    firsts = [c[0] for c in hand]
    for fish in crates:
        firsts += [f[0] for f in fish]
    return tuple(firsts.count(code) for code in CODES)


@lru_cache(maxsize=1 << 11)
def _layout(
    pool: tuple[int, ...],
    crates: int,
    queue: tuple[str, ...],
    glacons: int,
    arrivages: int,
    players: int,
) -> tuple[tuple[tuple[str, int], ...], float]:
    """The active seat's layout by
    :func:`~poissonnier_tui.games.poissonnier.bots.planning.choose_layout`
    and the points of the serve it plans, cached: the candidates of one search replay the
    same worlds. (A small cache: a large one fills with entries that are never hit again,
    and a full garbage collection then scans them, a pause of 0.1–0.3 s.)"""
    counts = {code: n for code, n in zip(CODES, pool, strict=True) if n}
    value = points_of(WEIGHTS[players])
    layout = choose_layout(counts, crates, queue, glacons, arrivages, True, value_of=value)
    return layout.crates, layout.plan.value


def play_fill(state: GameState, seat: int, *, buy: bool = True) -> None:
    """Lay out ``seat``'s crates by the default policy and declare it ready (RULES.md §3.2).

    Args:
        state: a sampled world in the fill step, ``seat`` not yet ready.
        seat: the seat to play.
        buy: whether a crate may be bought first (§7).
    """
    s = state.seats[seat]
    assert s.draft_hand is not None and s.draft_crates is not None
    active = seat == state.active
    if active:  # what the layout depends on; another seat lays out nothing (below)
        queue = tuple(queue_after_call(state.queue))
        kinds = [c[0] for c in s.draft_hand]
        glacons, arrivages = kinds.count(cards.GLACON), kinds.count(cards.ARRIVAGE)
        pool = _pool(s.draft_hand, [c.fish for c in s.draft_crates])
    owned = len(s.crates)
    if buy and owned < cards.MAX_CRATES and state.fish_deck:
        price = cards.crate_price(owned)
        if s.coins - price >= 1:
            # crate_worth (medium), with the layouts cached.
            worth = CRATE_TURN_VALUE.get(owned + 1, 0.0) * own_turns_left(state, seat)
            if active and sum(1 for n in pool[:4] if n) > owned:
                now = _layout(pool, owned, queue, glacons, arrivages, state.players)[1]
                more = _layout(pool, owned + 1, queue, glacons, arrivages, state.players)[1]
                worth += max(0.0, more - now)
            if worth >= price:
                apply(state, seat, BuyCrate())
    hand = list(s.draft_hand)
    for crate in s.draft_crates:
        hand.extend(crate.fish)
        crate.fish = []
    s.draft_hand = hand
    if not active:
        # Outside its own turn a seat's crates only matter for deals (none here) and
        # inspectors (§5): keeping every fish in hand changes nothing else, costs nothing.
        apply(state, seat, Ready())
        return
    layout, _ = _layout(pool, len(s.draft_crates), queue, glacons, arrivages, state.players)
    # Rebuild the draft directly: every fish is back in hand; lay the chosen ones out.
    for crate, (code, count) in zip(s.draft_crates, layout, strict=False):
        picked = [f for f in hand if f[0] == code][:count]
        for f in picked:
            hand.remove(f)
        crate.fish = picked
    s.draft_hand = hand
    apply(state, seat, Ready())


def _serve_action(state: GameState) -> Serve | None:
    """The best-value serve for the active seat now, cheapest plan first (§3.4, §6)."""
    s = state.seats[state.active]
    held = state.bought + [f for c in s.crates for f in c.fish]
    kinds = [c[0] for c in s.hand]
    arrivages = kinds.count(cards.ARRIVAGE)
    if not held and not arrivages:  # nothing to serve with (the end of most serve steps)
        return None
    firsts = [f[0] for f in held]
    counts = (firsts.count("T"), firsts.count("F"), firsts.count("M"), firsts.count("D"),
              firsts.count("P"))  # fmt: skip
    glacons_held = kinds.count(cards.GLACON)
    value = points_of(WEIGHTS[state.players])
    best: tuple[float, float, str] | None = None
    best_plan_ = None
    for cid in state.queue[: cards.SERVABLE]:
        choice = cached_choice(cid, counts, glacons_held, arrivages)
        if choice is None:
            continue
        key = (value(cid), -choice.cost)
        if best is None or key > best[:2]:
            best = (key[0], key[1], cid)
            best_plan_ = choice.plan
    if best is None or best_plan_ is None:
        return None
    by_code: dict[str, list[str]] = {}  # the fish held by freshness, bought ones first
    for f in held:
        by_code.setdefault(f[0], []).append(f)
    taken: dict[str, int] = {}
    fish: list[str] = []
    glacons: list[str] = []
    for code, n in best_plan_.raw:
        k = taken.get(code, 0)
        fish += by_code[code][k : k + n]
        taken[code] = k + n
    for code, n in best_plan_.iced:
        k = taken.get(code, 0)
        iced = by_code[code][k : k + n]
        taken[code] = k + n
        fish += iced
        glacons += iced
    return Serve(best[2], tuple(fish), tuple(glacons), best_plan_.arrivages)


def play_serve(state: GameState) -> None:
    """Play the active seat's serve step to its end by the default policy (§3.4, §4)."""
    active = state.active
    for p in list(state.proposals):
        if p.proposer == active:
            apply(state, active, Withdraw(p.id))
        else:
            apply(state, active, Decline(p.id))
    while True:
        action = _serve_action(state)
        if action is None:
            break
        apply(state, active, action)
    apply(state, active, EndTurn())


def play_until(state: GameState, turns: int | None = None) -> None:
    """Play every seat by the default policy until the game ends or ``turns`` more turns begin.

    Args:
        state: a sampled world (any phase).
        turns: stop when ``state.turn`` reaches its current value plus ``turns``
            (in that turn's fill step); ``None`` plays to the end (RULES.md §8).
    """
    stop = None if turns is None else state.turn + turns
    while state.phase is not Phase.OVER:
        if stop is not None and state.turn >= stop and state.phase is Phase.FILL:
            return
        if state.phase is Phase.FILL:
            for seat in range(state.players):
                if state.phase is Phase.FILL and not state.seats[seat].ready:
                    play_fill(state, seat)
        else:
            play_serve(state)
