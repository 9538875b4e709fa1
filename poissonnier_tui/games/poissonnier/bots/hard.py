"""HardBot: the search level — Monte Carlo search over its seat's information set.

At each decision that matters it does what OpenSpiel's information-set MCTS
does at its root: it cannot see other hands, crate markers or the decks'
order, so it **samples** full worlds consistent with its view
(:func:`poissonnier_tui.games.poissonnier.rules.determinize.sample_state`, a fresh one per
iteration), plays each candidate move in each sampled world on the pure engine,
finishes the game with a fast default policy for every seat
(:mod:`poissonnier_tui.games.poissonnier.bots.playout`), and keeps the move with the best mean
outcome. The real game state never reaches it: its inputs are the seat's view
and legal actions, like every bot (``tests/test_bots_honesty.py``).

Design (determinized Monte Carlo with one level of tree, on top of the medium
heuristics):

* **Candidates.** Fill step (RULES.md §3.2, §7): the medium heuristic's plan
  first, then its runner-up layouts (the likely clients included) and — when
  a crate can be bought — the best layouts with one more crate; outside its
  own turn only "buy a crate or not" matters. Serve step (§3.4, §6): the best
  distinct serves by the medium heuristic's score. Answers to proposals
  (§4, R8): the deal settled against no deal (the heuristic's counter, if
  any, stands for "no deal yet"; an offer to take its fish for nothing is not
  searched). At most :data:`MAX_CANDIDATES`; a single
  candidate is played without search. The fill plan is searched once per
  fill step and then carried out move by move.
* **Common random numbers.** Every candidate is played in the *same* sampled
  worlds (same hidden hands, same decks), so a comparison measures the move,
  not the luck of the draw.
* **Outcome: a smoothed win (§8).** :func:`win_chance`: the share of
  :data:`NOISE_DRAWS` small random offsets (:data:`SIGMA`) to the final
  tallies under which the seat wins by the winner rules (2 of 3 tallies at 2
  players, the eliminations at 3–5). Narrow wins count less than clear ones,
  which cuts the variance between worlds; measured, it turned a search that
  matched the medium bot (49.5 % of 200 games) into one that beats it.
* **The heuristic keeps the move unless clearly beaten** (:func:`choose`): the
  best candidate replaces the heuristic's only if its gain, world by world,
  exceeds :data:`GATE_Z` standard errors (in 200-game tuning runs of an
  earlier version: 63 % against the medium bot with the gate, 55 % without;
  the published figures are in the README).
* **Racing.** After :data:`RACE_WORLDS` worlds, a candidate trailing the
  heuristic's move by :data:`RACE_Z` standard errors is no longer played
  (:func:`still_racing`). A search stops (:func:`settled`) when every other
  candidate has dropped out, since the gate above would keep the heuristic's
  move anyway, or when the one left leads the heuristic's by :data:`LEAD_Z`
  standard errors. In twin runs (each search run both ways from the same
  generator state, 8 games against medium) 350 of 351 searched decisions came
  out the same at 2 players, with 51 % fewer candidate playouts, and 235 of 238
  at 4 players (hard, medium, easy, easy), with 62 % fewer; about half of the
  saving is in answers to offers (RULES.md §4, R8).
* **Hopeless candidates.** A candidate about level with the heuristic's move
  would be played in every world only for the gate to keep the heuristic's
  move. It is dropped once, even granted :data:`HOPE_Z` standard errors of luck
  in the worlds left, it could not pass the gate at the end
  (:func:`still_hopeful`). In twin runs against the search above (10 games
  each), 452 of 459 searched decisions came out the same at 2 players, with
  30 % fewer candidate playouts, and 274 of 277 at 4 players, with 33 % fewer;
  the few that differ are overrules of the heuristic that the full search
  made and this one does not.
* **Budget.** An iteration budget in simulated seat-turns (:data:`WORK`):
  worlds = work ÷ (candidates × seat-turns left), between :data:`MIN_WORLDS`
  and :data:`MAX_WORLDS`, so a decision costs about the same early and late;
  and a CPU-time cap (:data:`TIME_LIMIT`, this thread only) that stops
  sampling more worlds; all three scale with ``budget``. A wall-clock cap
  (:data:`WALL_LIMIT`) keeps answers within a second when several bots share
  one interpreter (a solo table runs them in threads).
* **The rest** — asking for fish, counter prices, withdrawing a stale
  proposal, ending the turn — is the medium heuristic's.

Measured strength and decision times are in the README's Bots section.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from net.game import Wire
from poissonnier_tui.games.poissonnier.bots.greedy import fill_step
from poissonnier_tui.games.poissonnier.bots.medium import (
    WEIGHTS,
    MediumBot,
    likely_queues,
    points_of,
    rank_layouts,
)
from poissonnier_tui.games.poissonnier.bots.planning import Layout, rotten_cap
from poissonnier_tui.games.poissonnier.bots.playout import play_serve, play_until
from poissonnier_tui.games.poissonnier.bots.seen import Seen
from poissonnier_tui.games.poissonnier.rules import cards
from poissonnier_tui.games.poissonnier.rules.actions import (
    Accept,
    BuyCrate,
    Decline,
    Ready,
    Unready,
    parse_action,
    to_wire,
)
from poissonnier_tui.games.poissonnier.rules.determinize import sample_state
from poissonnier_tui.games.poissonnier.rules.engine import apply
from poissonnier_tui.games.poissonnier.rules.errors import IllegalAction
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase

WORK: Final = 1800
"""Seat-turns simulated per searched decision (≈ 0.07 ms each on one core)."""
MIN_WORLDS: Final = 4
"""Sampled worlds per decision at least (the time cap aside)."""
MAX_WORLDS: Final = 100
"""Sampled worlds per decision at most."""
TIME_LIMIT: Final = 0.25
"""CPU seconds after which a search stops sampling more worlds (p95 target: 0.3 s)."""
WALL_LIMIT: Final = 0.8
"""Wall-clock seconds after which a search stops sampling more worlds, whatever the CPU
time: bots sharing one interpreter (a solo table) still answer within a second."""
MAX_CANDIDATES: Final = 4
"""Moves compared per decision at most."""
SIGMA: Final = (2.0, 1.0, 2.0)
"""Spread of the noise added to final (coins, clients, stamps) in :func:`win_chance`."""
NOISE_DRAWS: Final = 16
"""Noise draws per search for :func:`win_chance`."""
GATE_Z: Final = 1.0
"""Standard errors by which a candidate must beat the heuristic's move (:func:`choose`)."""
RACE_WORLDS: Final = 6
"""Worlds every candidate is played in before :func:`still_racing` may drop one."""
RACE_Z: Final = 2.0
"""Standard errors by which a candidate trailing the heuristic's move is dropped from a
search (:func:`still_racing`); ``math.inf`` never drops one."""
LEAD_Z: Final = 3.0
"""Standard errors by which the one candidate left against the heuristic's move must lead
it for a search to stop early and play it (:func:`settled`); ``math.inf`` never stops."""
HOPE_Z: Final = 2.0
"""Standard errors of luck still granted to a candidate in the worlds it has left before it
is judged unable to pass the gate at the end and dropped (:func:`still_hopeful`);
``math.inf`` never drops one."""


@dataclass(frozen=True, slots=True)
class FillPlan:
    """A fill-step decision: buy a crate first or not, then lay out ``layout`` (§3.2, §7)."""

    buy: bool
    layout: Layout


def noisy_winner(tallies: Sequence[tuple[float, float, float]]) -> int:
    """The winner under RULES.md §8 of tallies ``(coins, clients, stamps)`` that never tie.

    2 players: the one ahead in at least 2 of the 3 tallies. 3–5 players:
    the fewest coins is eliminated; with 3 players the 2 left are decided by
    the 2-player rule; otherwise the fewest clients is eliminated next, and
    the most stamps among those left wins. (With real-valued, noisy tallies
    no tie-break is ever needed.)
    """
    left = list(range(len(tallies)))
    if len(left) > 2:
        left.remove(min(left, key=lambda i: tallies[i][0]))
        if len(tallies) > 3:
            left.remove(min(left, key=lambda i: tallies[i][1]))
            return max(left, key=lambda i: tallies[i][2])
    a, b = left
    ahead = sum(1 for t in range(3) if tallies[a][t] > tallies[b][t])
    return a if ahead >= 2 else b


def win_chance(
    state: GameState, seat: int, noise: Sequence[Sequence[tuple[float, float, float]]]
) -> float:
    """Share of ``noise`` draws in which ``seat`` wins a finished world (RULES.md §8).

    Each draw adds a small offset to every seat's final tallies before the
    winner rule (:func:`noisy_winner`) is applied, so a narrow result counts
    less than a clear one: a smooth stand-in for the win, with far less
    variance between sampled worlds. The same draws are used for every
    candidate of a search (common random numbers).
    """
    base = [(s.coins, len(s.clients), s.stamps) for s in state.seats]
    wins = 0
    for draw in noise:
        noisy = [(c + d[0], n + d[1], st + d[2]) for (c, n, st), d in zip(base, draw, strict=False)]
        wins += noisy_winner(noisy) == seat
    return wins / len(noise)


class HardBot:
    """The search level; satisfies ``net.game.Agent``.

    Args:
        rng: a ``random.Random`` or a seed; all its sampling is drawn from it (R3).
        budget: scales :data:`WORK`, the world bounds and :data:`TIME_LIMIT`
            (e.g. 0.1 for long legality runs); 1 is the published level.
        work / time_limit / wall_limit / max_worlds / max_candidates / sigma /
            noise_draws / gate_z / race_z / lead_z / race_worlds / hope_z: override the module
            constants. ``time_limit`` and ``wall_limit`` set to ``math.inf`` leave the world count
            (:meth:`worlds_for`) as the only bound: the same view and seed then
            give the same move whatever the machine's load.
        search_deals: check answers to proposals by search (else the medium
            heuristic's answer stands).

    Attributes:
        searches: searched decisions made.
        worlds: worlds sampled, all searches together.
        fallbacks: searches abandoned for the medium heuristic's move (a sampled
            world the engine refused; expected 0).
    """

    def __init__(
        self,
        rng: random.Random | int | None = None,
        *,
        budget: float = 1.0,
        work: float = WORK,
        time_limit: float = TIME_LIMIT,
        wall_limit: float = WALL_LIMIT,
        max_worlds: int = MAX_WORLDS,
        max_candidates: int = MAX_CANDIDATES,
        sigma: tuple[float, float, float] = SIGMA,
        noise_draws: int = NOISE_DRAWS,
        gate_z: float = GATE_Z,
        race_z: float = RACE_Z,
        lead_z: float = LEAD_Z,
        race_worlds: int = RACE_WORLDS,
        hope_z: float = HOPE_Z,
        search_deals: bool = True,
    ) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self.medium = MediumBot(random.Random(self.rng.getrandbits(64)))
        self.work = work * budget
        self.time_limit = time_limit * budget
        self.wall_limit = wall_limit
        self.min_worlds = max(1, round(MIN_WORLDS * min(1.0, budget)))
        self.max_worlds = max(self.min_worlds, round(max_worlds * budget))
        self.max_candidates = max_candidates
        self.sigma = sigma
        self.noise_draws = noise_draws
        self.gate_z = gate_z
        self.race_z = race_z
        self.lead_z = lead_z
        self.race_worlds = race_worlds
        self.hope_z = hope_z
        self.search_deals = search_deals
        self.searches = 0
        self.worlds = 0
        self.fallbacks = 0
        self._plan_turn = -1
        self._plan: FillPlan | None = None
        self._bought = False

    # ------------------------------------------------------------------ entry

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        """Choose an action for the seat whose ``view`` this is.

        Args:
            view: the seat's view (VIEW SHAPE in ``poissonnier_tui.games.poissonnier.rules.view``).
            legal: the seat's legal actions as wire maps.

        Returns:
            A wire action the engine accepts, or ``None`` when there is
            nothing to do now (e.g. ready and waiting for the others).
        """
        if not legal:
            return None
        seen = Seen.read(view)
        types = {a["type"] for a in legal}
        if seen.phase == "fill" and "ready" in types:
            return self._fill(view, seen, legal, types)
        if (
            seen.phase == "serve"
            and seen.is_active
            and not seen.proposals
            and sum(1 for a in legal if a["type"] == "serve") > 0
        ):
            return self._serve(view, seen, legal)
        action = self.medium.act(view, legal)
        if (
            self.search_deals
            and seen.phase == "serve"
            and action is not None
            and action["type"] in ("accept", "decline", "propose")
            and action.get("proposal", action.get("counter")) is not None
        ):
            return self._answer(view, seen, action)
        return action

    # ------------------------------------------------------------------ deals

    def _answer(self, view: Wire, seen: Seen, heuristic: Wire) -> Wire:
        """Answer a proposal made to this seat (RULES.md §4, R8), checked by search.

        The medium heuristic's answer (accept, counter or decline) is compared
        with the other outcome: the deal settled (``accept``) against no deal.
        A counter counts as no deal, since the reply is unknown. The search
        overrules the heuristic only with a clear gain (:func:`choose`). An offer
        that asks this seat to give fish for nothing (no coin, no special card) is
        not searched: giving an opponent fish hardly ever helps, and in a search of
        few worlds noise alone can make it look good.
        """
        pid: int = heuristic["proposal"] if "proposal" in heuristic else heuristic["counter"]
        accept: Wire = to_wire(Accept(pid))
        decline: Wire = to_wire(Decline(pid))
        accepts = heuristic["type"] == "accept"
        me = seen.seat
        offer = next((o for o in seen.proposals if o.id == pid), None)
        if (
            not accepts
            and offer is not None
            and offer.seller == me
            and offer.coins == 0
            and offer.buyer_glacons == offer.buyer_arrivages == 0
        ):
            return heuristic
        candidates = [accept, decline] if accepts else [decline, accept]

        def play(world: GameState, action: Wire) -> None:
            apply(world, me, parse_action(action))
            if world.phase is Phase.SERVE:
                play_serve(world)
            play_until(world)

        best = candidates[self._search(view, seen, candidates, play)]
        if best["type"] == "accept":
            return accept
        return decline if accepts else heuristic

    # ------------------------------------------------------------------ fill step

    def _fill(self, view: Wire, seen: Seen, legal: list[Wire], types: set[str]) -> Wire:
        """Search the fill plan once per fill step, then carry it out (RULES.md §3.2, §7)."""
        if self._plan is None or self._plan_turn != seen.turn:
            self._plan = self._search_fill(view, seen, types)
            self._plan_turn = seen.turn
            self._bought = False
        plan = self._plan
        if plan.buy and not self._bought and "buy_crate" in types:
            self._bought = True
            return to_wire(BuyCrate())
        if len(plan.layout.crates) > len(seen.crates):  # the purchase could not be made
            self._plan = plan = FillPlan(False, self.medium.plan_layouts(seen)[0])
        return fill_step(seen, plan.layout)

    def fill_candidates(self, seen: Seen, can_buy: bool) -> list[FillPlan]:
        """Fill plans worth comparing (RULES.md §3.2, §7), the medium heuristic's first."""
        medium = self.medium
        ranked = medium.plan_layouts(seen)
        out = [FillPlan(False, ranked[0])]
        if seen.is_active:
            out += [FillPlan(False, lay) for lay in ranked[1:3]]
        if can_buy:
            glacons, arrivages = seen.specials()
            queues = likely_queues(seen, self.rng, medium.queue_samples)
            rotten = rotten_cap(queues[0]) if seen.is_active else 0
            more = rank_layouts(
                seen.pool(),
                len(seen.crates) + 1,
                queues,
                glacons,
                arrivages,
                rotten,
                points_of(WEIGHTS[seen.players]),
            )
            buy = [FillPlan(True, lay) for lay in more[: 2 if seen.is_active else 1]]
            if medium.crate_pays(seen):
                out = buy[:1] + out + buy[1:]
            else:
                out += buy
        unique: list[FillPlan] = []
        for plan in out:
            if plan not in unique:
                unique.append(plan)
        return unique[: self.max_candidates]

    def _search_fill(self, view: Wire, seen: Seen, types: set[str]) -> FillPlan:
        can_buy = (
            "buy_crate" in types and seen.fish_deck > 0 and len(seen.crates) < cards.MAX_CRATES
        )
        candidates = self.fill_candidates(seen, can_buy)
        if len(candidates) == 1:
            return candidates[0]
        me = seen.seat

        def play(world: GameState, plan: FillPlan) -> None:
            for seat, s in enumerate(world.seats):
                if seat != me and s.ready:  # their hidden arrangement: let the policy redo it
                    apply(world, seat, Unready())
            if plan.buy:
                apply(world, me, BuyCrate())
            _lay(world, me, plan.layout)
            apply(world, me, Ready())
            play_until(world)

        best = self._search(view, seen, candidates, play)
        return candidates[best]

    # ------------------------------------------------------------------ serve step

    def _serve(self, view: Wire, seen: Seen, legal: list[Wire]) -> Wire:
        serves = [a for a in legal if a["type"] == "serve"]
        scored = self.medium.serve_scores(seen, serves)
        candidates: list[Wire] = []
        keys: set[tuple[Any, ...]] = set()
        for _, action in scored:
            key = (
                action["client"],
                "".join(sorted(f[0] for f in action["fish"])),
                "".join(sorted(g[0] for g in action["glacons"])),
                tuple(action["arrivages"]),
            )
            if key not in keys:
                keys.add(key)
                candidates.append(action)
            if len(candidates) == self.max_candidates:
                break
        if len(candidates) == 1:
            return candidates[0]
        me = seen.seat

        def play(world: GameState, action: Wire) -> None:
            apply(world, me, parse_action(action))
            if world.phase is Phase.SERVE:
                play_serve(world)
            play_until(world)

        return candidates[self._search(view, seen, candidates, play)]

    # ------------------------------------------------------------------ search

    def worlds_for(self, seen: Seen, candidates: int) -> int:
        """Worlds to sample: :data:`WORK` ÷ (candidates × seat-turns left), bounded."""
        per_turn = cards.ACTIVE_DRAW[seen.players] + seen.players - 1
        turns_left = 1 + seen.fish_deck / per_turn
        cost = candidates * turns_left * seen.players
        return max(self.min_worlds, min(self.max_worlds, int(self.work / max(1.0, cost))))

    def _search(
        self,
        view: Wire,
        seen: Seen,
        candidates: Sequence[Any],
        play: Callable[[GameState, Any], None],
    ) -> int:
        """Index of the candidate to play, by :func:`win_chance` over sampled worlds.

        ``play(world, candidate)`` plays the candidate for this seat in a
        world and the rest of the game by the default policy. Every candidate
        is played in the same worlds. On a refused move in a sampled world the
        search stops and the first candidate (the heuristic's) is kept.
        """
        self.searches += 1
        start = time.thread_time()
        wall = time.perf_counter()
        worlds = self.worlds_for(seen, len(candidates))
        sd_coins, sd_clients, sd_stamps = self.sigma
        gauss = self.rng.gauss
        noise = [
            [
                (gauss(0.0, sd_coins), gauss(0.0, sd_clients), gauss(0.0, sd_stamps))
                for _ in range(seen.players)
            ]
            for _ in range(self.noise_draws)
        ]
        scores: list[list[float]] = [[] for _ in candidates]
        racing = list(range(len(candidates)))
        for n in range(worlds):
            if n >= self.min_worlds and (
                time.thread_time() - start > self.time_limit
                or time.perf_counter() - wall > self.wall_limit
            ):
                break
            try:
                world = sample_state(view, self.rng)
                row = []
                last = racing[-1]
                for i in racing:
                    # Each candidate plays a copy of the world; the last one, the world itself.
                    played = world if i == last else world.copy()
                    play(played, candidates[i])
                    row.append(win_chance(played, seen.seat, noise))
            except (IllegalAction, ValueError):
                self.fallbacks += 1
                return 0
            for i, value in zip(racing, row, strict=True):
                scores[i].append(value)
            self.worlds += 1
            if n + 1 >= self.race_worlds and len(racing) > 1:
                racing = still_racing(scores, racing, self.race_z)
                racing = still_hopeful(scores, racing, worlds, self.gate_z, self.hope_z)
                if settled(scores, racing, self.lead_z):
                    break
        return racing[choose([scores[i] for i in racing], self.gate_z)]


def _gain(ahead: Sequence[float], behind: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``ahead - behind``, world by world (same worlds; n ≥ 2)."""
    diffs = [a - b for a, b in zip(ahead, behind, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def still_racing(scores: Sequence[Sequence[float]], racing: Sequence[int], z: float) -> list[int]:
    """The candidates of ``racing`` worth more worlds (index 0, the heuristic's, always stays).

    A search keeps the heuristic's move unless another beats it by :data:`GATE_Z`
    standard errors at the end (:func:`choose`). A candidate whose mean gain over
    it is still at or below ``-z`` standard errors after the worlds played so far
    (at least two) is dropped: its later worlds are not played, which is most of a
    search's work when the heuristic's move is clearly best (an answer to an offer
    that only helps its proposer, RULES.md §4). With ``z = math.inf`` none is dropped.

    Args:
        scores: per candidate, its outcomes in the worlds played so far (the ones
            in ``racing`` all have the same length).
        racing: indices of the candidates still played, ``0`` first.
        z: standard errors below zero at which a candidate is dropped.
    """
    if len(scores[0]) < 2 or math.isinf(z):
        return list(racing)
    out = [0]
    for i in racing[1:]:
        mean, se = _gain(scores[i], scores[0])
        if mean + z * se > 0:
            out.append(i)
    return out


def still_hopeful(
    scores: Sequence[Sequence[float]],
    racing: Sequence[int],
    worlds: int,
    gate_z: float,
    z: float,
) -> list[int]:
    """The candidates of ``racing`` that could still pass the gate of :func:`choose` (index
    0, the heuristic's, always stays).

    After ``n`` of the search's ``worlds`` worlds, a candidate with mean gain ``m``
    over the heuristic's move (standard error ``se``) is projected to end with
    ``m + z * se * (worlds - n) / worlds``: as if its later worlds were ``z`` standard
    errors luckier than its first. It is dropped if even that falls short of the gate,
    ``gate_z`` times the standard error that ``worlds`` worlds would give
    (``se * sqrt(n / worlds)``). A candidate about as good as the heuristic's move
    (an answer to an offer that neither helps nor hurts, RULES.md §4) would otherwise
    be played in every world only for the gate to keep the heuristic's move. In the
    last world the test is the gate's own. With ``z = math.inf`` none is dropped.

    Args:
        scores: per candidate, its outcomes in the worlds played so far (the ones
            in ``racing`` all have the same length, ``n`` ≥ 2 to judge).
        racing: indices of the candidates still played, ``0`` first.
        worlds: worlds the search means to play in all (:meth:`HardBot.worlds_for`).
        gate_z: the gate of :func:`choose`, in standard errors.
        z: standard errors of luck granted to the worlds left.
    """
    n = len(scores[0])
    if n < 2 or math.isinf(z) or len(racing) < 2:
        return list(racing)
    out = [0]
    left = max(0, worlds - n) / max(worlds, n)
    shrink = math.sqrt(n / max(worlds, n))
    for i in racing[1:]:
        mean, se = _gain(scores[i], scores[0])
        if mean + z * se * left > gate_z * se * shrink:
            out.append(i)
    return out


def settled(scores: Sequence[Sequence[float]], racing: Sequence[int], z: float) -> bool:
    """Whether a search can stop now: more worlds would very likely not change its choice.

    It can when only the heuristic's move (index 0) is still raced
    (:func:`still_racing`), or when one other candidate is left and its mean gain
    over the heuristic's move exceeds ``z`` standard errors (at least two worlds,
    and a gain that varies): :func:`choose`, whose gate is lower, then plays it.

    Args:
        scores: per candidate, its outcomes in the worlds played so far.
        racing: indices of the candidates still played, ``0`` first.
        z: standard errors of lead that settle a search; ``math.inf``: never.
    """
    if len(racing) == 1:
        return True
    if len(racing) > 2 or len(scores[0]) < 2 or math.isinf(z):
        return False
    mean, se = _gain(scores[racing[1]], scores[0])
    return se > 0 and mean > z * se


def choose(scores: Sequence[Sequence[float]], z: float) -> int:
    """The candidate to play given its outcomes in the same worlds (index 0: the heuristic's).

    The candidate with the best mean is chosen only if its mean gain over
    candidate 0, world by world, exceeds ``z`` standard errors; otherwise
    candidate 0 is kept, so noise alone never overrules the heuristic.
    """
    n = len(scores[0])
    if n == 0:
        return 0
    means = [sum(s) / n for s in scores]
    best = max(range(len(scores)), key=lambda i: (means[i], -i))
    if best == 0 or z <= 0:
        return best
    if n < 2:
        return best if means[best] > means[0] else 0
    mean, se = _gain(scores[best], scores[0])
    return best if mean > z * se else 0


def _lay(world: GameState, seat: int, layout: Layout) -> None:
    """Set ``seat``'s draft crates in a sampled world to ``layout`` (RULES.md §3.2)."""
    s = world.seats[seat]
    assert s.draft_hand is not None and s.draft_crates is not None
    hand = list(s.draft_hand)
    for crate in s.draft_crates:
        hand.extend(crate.fish)
        crate.fish = []
    for crate, (code, count) in zip(s.draft_crates, layout.crates, strict=False):
        picked = [f for f in hand if f[0] == code][:count]
        for f in picked:
            hand.remove(f)
        crate.fish = picked
    s.draft_hand = hand
