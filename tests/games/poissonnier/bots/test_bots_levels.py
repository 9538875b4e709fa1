"""Bot levels (easy, medium, hard): legal play, strength, speed, heuristics and negotiation.

Strength margins below come from measured runs (see the README's Bots section
for the full tournaments): each test asks for clearly less than was measured,
so a pass is not luck and a failure means a real regression.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest
from stacking import decide, fill_and_ready, fill_until_ready, stacked_game

from net.game import Agent
from poissonnier_tui.arena.play import play_game
from poissonnier_tui.arena.tournament import tournament
from poissonnier_tui.games.poissonnier.bots import (
    BOT_KINDS,
    LEVELS,
    EasyBot,
    GreedyBot,
    HardBot,
    MediumBot,
    make_bot,
)
from poissonnier_tui.games.poissonnier.bots.hard import (
    RACE_WORLDS,
    choose,
    noisy_winner,
    settled,
    still_hopeful,
    still_racing,
)
from poissonnier_tui.games.poissonnier.bots.medium import inspector_chance, likely_queues
from poissonnier_tui.games.poissonnier.bots.seen import Seen
from poissonnier_tui.games.poissonnier.rules import cards
from poissonnier_tui.games.poissonnier.rules.actions import Propose, parse_action, to_wire
from poissonnier_tui.games.poissonnier.rules.engine import apply_wire
from poissonnier_tui.games.poissonnier.rules.scoring import Score, decide_winner
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for

# --------------------------------------------------------------------------- registry


def test_levels_are_bot_kinds() -> None:
    """`easy`, `medium`, `hard` are kinds; `random` and `greedy` still work."""
    assert LEVELS == ("easy", "medium", "hard")
    assert set(LEVELS) | {"random", "greedy"} == set(BOT_KINDS)
    assert isinstance(make_bot("easy", 1), EasyBot)
    assert isinstance(make_bot("medium", 1), MediumBot)
    assert isinstance(make_bot("greedy", 1), GreedyBot)
    hard = make_bot("hard", 1, budget=0.5)
    assert isinstance(hard, HardBot) and hard.work == pytest.approx(HardBot(1).work / 2)
    with pytest.raises(ValueError, match="budget"):
        make_bot("hard", 1, budget=0)


# --------------------------------------------------------------------------- legality


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_level_plays_only_legal_actions(players: int) -> None:
    """Every level at every table size: no refused action, no stall, every game ends.
    (The 2,000-game runs behind the README's table check the same at scale.)"""
    lineup = [("hard", "medium", "easy")[i % 3] for i in range(players)]
    report = tournament(players, players, lineup, seed=200 + players, budget=0.05)
    assert report.errors == [] and report.stalls == 0
    assert report.finished == report.games == players
    assert all(e.illegal == 0 for e in report.entrants)


def test_easy_slips_stay_legal() -> None:
    """An easy bot that always slips still plays only legal actions (§3–§7)."""
    for game in range(3):
        seats: list[Agent] = [EasyBot(game, slip=1.0), EasyBot(game + 9, slip=1.0)]
        record = play_game(60 + game, seats)
        assert record.finished and record.errors == [] and record.stalls == 0


# --------------------------------------------------------------------------- strength


def test_medium_beats_easy_clearly() -> None:
    """40 seat-swapped 2-player games. Measured: medium won 95 % of 40 here and 400-game
    runs (README); we ask for 75 %."""
    report = tournament(2, 40, ["medium", "easy"], seed=31)
    assert report.errors == []
    assert report.entrants[0].wins >= 30, report.format_text()


# --------------------------------------------------------------------------- hard bot parts


def test_hard_searches_and_never_falls_back() -> None:
    """The first 150 actions of a game against medium: the hard bot searches its sampled
    worlds at the decisions that matter, and every sample of its view succeeds (no
    fallback to the heuristic). Its speed is measured by ``scripts/bot_targets.py``."""
    hard = make_bot("hard", 3)
    record = play_game(78, [hard, make_bot("medium", 4)], max_actions=150)
    assert record.errors == ["seed 78: stopped after 150 actions (safety cap)"]
    assert isinstance(hard, HardBot) and hard.searches > 5
    assert hard.fallbacks == 0


def test_noisy_winner_follows_the_winner_rules() -> None:
    """:func:`noisy_winner` agrees with ``scoring.decide_winner`` (RULES.md §8) whenever
    the tallies have no ties (the only case it meets)."""
    rng = random.Random(3)
    checked = 0
    for _ in range(3000):
        n = rng.randint(2, 5)
        tallies = [(rng.randint(0, 30), rng.randint(0, 12), rng.randint(0, 25)) for _ in range(n)]
        if any(len({t[k] for t in tallies}) < n for k in range(3)):
            continue  # ties need the tie-breaks, never met with noisy tallies
        result = decide_winner([Score(i, *t) for i, t in enumerate(tallies)])
        assert result["winners"] == [noisy_winner(tallies)], tallies
        checked += 1
    assert checked > 300


def test_choose_keeps_the_heuristic_unless_clearly_beaten() -> None:
    """A candidate replaces the heuristic's move (index 0) only with a clear gain."""
    assert choose([[0.5, 0.5, 0.5, 0.5], [0.6, 0.4, 0.6, 0.4]], 1.0) == 0  # noise
    assert choose([[0.5, 0.5, 0.5, 0.5], [0.7, 0.6, 0.7, 0.6]], 1.0) == 1  # clear
    assert choose([[0.5, 0.5], [0.6, 0.5]], 0.0) == 1  # no gate: the best mean
    assert choose([[0.5, 0.5], [0.6, 0.4]], 0.0) == 0  # ties: the first
    assert choose([[], []], 1.0) == 0


def test_still_racing_drops_only_candidates_clearly_behind_the_heuristic() -> None:
    """A search stops playing a candidate whose gain over the heuristic's move (index 0)
    is at or below -z standard errors; the heuristic's move always stays."""
    heuristic = [0.5, 0.6, 0.4, 0.5, 0.7, 0.5]
    behind = [0.1, 0.3, 0.0, 0.2, 0.3, 0.1]  # 0.35 lower in every world
    noisy = [0.6, 0.5, 0.5, 0.4, 0.6, 0.6]  # ahead in some worlds, behind in others
    same = list(heuristic)  # never differs: no reason to play it further
    scores = [heuristic, behind, noisy, same]
    assert still_racing(scores, [0, 1, 2, 3], 2.0) == [0, 2]
    assert still_racing(scores, [0, 2], 2.0) == [0, 2]
    assert still_racing(scores, [0, 1, 2, 3], math.inf) == [0, 1, 2, 3]
    assert still_racing([[0.5], [0.0]], [0, 1], 2.0) == [0, 1]  # one world: too early
    # Behind by less than 2 standard errors: still played.
    close = [h - 0.05 + (0.1 if k % 2 else -0.1) for k, h in enumerate(heuristic)]
    assert still_racing([heuristic, close], [0, 1], 2.0) == [0, 1]
    assert still_racing([heuristic, close], [0, 1], 0.5) == [0]


def _around(centre: float, n: int) -> list[float]:
    """``n`` outcomes ``centre ± 0.1``, alternately."""
    return [centre + (0.1 if k % 2 else -0.1) for k in range(n)]


def test_still_hopeful_drops_a_candidate_that_could_no_longer_pass_the_gate() -> None:
    """A candidate about level with the heuristic's move stays while many of the search's
    worlds are left (it might yet pass the gate) and is dropped when too few are; one
    clearly ahead stays; in the last world the test is the gate's own (choose)."""
    level6, level30 = _around(0.5, 6), _around(0.5, 30)  # mean gain 0
    assert still_hopeful([[0.5] * 6, level6], [0, 1], 40, 1.0, 2.0) == [0, 1]  # 34 to go
    assert still_hopeful([[0.5] * 30, level30], [0, 1], 40, 1.0, 2.0) == [0]  # 10 to go
    assert still_hopeful([[0.5] * 30, level30], [0, 1], 40, 1.0, math.inf) == [0, 1]
    ahead30 = _around(0.6, 30)  # mean gain 0.1, about 5 standard errors
    assert still_hopeful([[0.5] * 30, level30, ahead30], [0, 1, 2], 40, 1.0, 2.0) == [0, 2]
    behind6 = _around(0.43, 6)  # 0.07 behind after 6 of 40: dropped already
    assert still_hopeful([[0.5] * 6, behind6], [0, 1], 40, 1.0, 2.0) == [0]
    assert still_racing([[0.5] * 6, behind6], [0, 1], 2.0) == [0, 1]  # racing keeps it
    assert still_hopeful([[0.5], [0.4]], [0, 1], 40, 1.0, 2.0) == [0, 1]  # one world: too early
    # The last world: kept exactly when the gate would play it.
    slightly = _around(0.51, 30)  # mean gain 0.01, under one standard error
    for candidate in (level30, slightly, ahead30):
        kept = still_hopeful([[0.5] * 30, candidate], [0, 1], 30, 1.0, 2.0) == [0, 1]
        assert kept == (choose([[0.5] * 30, candidate], 1.0) == 1)
    assert choose([[0.5] * 30, ahead30], 1.0) == 1 and choose([[0.5] * 30, slightly], 1.0) == 0


def test_a_search_is_settled_when_one_move_is_left_or_one_leads_clearly() -> None:
    """A search stops once only the heuristic's move is raced, or once the one other
    candidate left leads it by z standard errors; not while two others are left."""
    heuristic = [0.5, 0.6, 0.4, 0.5, 0.7, 0.5]
    ahead = [0.8, 0.8, 0.8, 0.7, 0.9, 0.8]  # 0.25 higher, give or take 0.05
    mixed = [0.6, 0.5, 0.5, 0.4, 0.6, 0.6]
    assert settled([heuristic, ahead], [0], 3.0)
    assert settled([heuristic, ahead], [0, 1], 3.0)
    assert not settled([heuristic, ahead], [0, 1], math.inf)
    assert not settled([heuristic, mixed], [0, 1], 3.0)
    assert not settled([heuristic, ahead, ahead], [0, 1, 2], 3.0)
    assert not settled([heuristic[:1], ahead[:1]], [0, 1], 3.0)  # one world: too early
    # The search then plays the leader: choose's gate (1 standard error) is lower.
    assert choose([heuristic, ahead], 1.0) == 1


def test_racing_keeps_the_answer_and_samples_fewer_worlds() -> None:
    """With racing, the hard bot answers a proposal (R8: a search of accept against
    decline) as it does without, from the same first worlds, but stops sampling once
    accepting is clearly worse: here an offer of 1 coin for a fresh fish, which it
    counters (no deal yet, for the search)."""
    state = _serve_table(3, [[["F01"]], [["T01"]], [[]]], ["C09", "C16", "C18"], coins=[9, 3, 3])
    apply_wire(state, 0, to_wire(Propose(1, ((0, 1),), coins=1)))
    full = HardBot(
        5,
        time_limit=math.inf,
        wall_limit=math.inf,
        race_z=math.inf,
        lead_z=math.inf,
        hope_z=math.inf,
    )
    raced = HardBot(5, time_limit=math.inf, wall_limit=math.inf)
    answer = decide(full, state, 1)
    assert answer is not None and answer["type"] == "propose" and answer["counter"] == 1
    assert decide(raced, state, 1) == answer
    assert full.searches == raced.searches == 1
    assert RACE_WORLDS <= raced.worlds < full.worlds, (raced.worlds, full.worlds)


def test_hard_never_searches_a_gift_of_its_fish() -> None:
    """§4: asked to give a fish for nothing, the hard bot keeps the heuristic's answer
    without a search (in a search of few worlds, noise alone could make giving look
    good); offered one coin, it searches."""
    for seed in range(6):
        state = _serve_table(3, [[["F01"]], [["T01"]], [[]]], ["C09", "C16", "C18"])
        apply_wire(state, 0, to_wire(Propose(1, ((0, 1),), coins=0)))
        hard = HardBot(seed, budget=0.2, time_limit=math.inf, wall_limit=math.inf)
        answer = decide(hard, state, 1)
        assert answer is not None and answer["type"] in ("decline", "propose"), answer
        assert hard.searches == 0
    state = _serve_table(3, [[["F01"]], [["T01"]], [[]]], ["C09", "C16", "C18"])
    apply_wire(state, 0, to_wire(Propose(1, ((0, 1),), coins=1)))
    assert decide(hard, state, 1) is not None
    assert hard.searches == 1


def test_hard_answers_a_proposal() -> None:
    """§4: a hard bot asked to sell answers: accept, counter or decline (its answer time is
    measured by ``scripts/bot_targets.py``)."""
    state = _serve_table(3, [[["F01"]], [["T01"]], [[]]], ["C09", "C16", "C18"], coins=[9, 3, 3])
    apply_wire(state, 0, to_wire(Propose(1, ((0, 1),), coins=1)))
    answer = decide(make_bot("hard", 1), state, 1)
    assert answer is not None and answer["type"] in ("accept", "decline", "propose")


# --------------------------------------------------------------------------- medium heuristics


def _serve_table(
    players: int,
    crates: Sequence[Sequence[Sequence[str]]],
    queue: list[str],
    coins: list[int] | None = None,
) -> GameState:
    """Seat 0 active in the serve step of turn 1 with the crates given; the queue then
    reads ``queue`` + C32, C31 (see ``test_bots._serve_table``)."""
    spare = iter(f"D{n:02d}" for n in range(20, 10, -1))
    markers = [[next(spare) for _ in c] for c in crates]
    state = stacked_game(
        players,
        hands=[[] for _ in range(players)],
        markers=markers,
        crates=[[list(f) for f in c] for c in crates],
        queue=["C33", *queue, "C32"],
        clients_top=["C31"],
        coins=coins,
    )
    fill_and_ready(state)
    assert state.phase is Phase.SERVE and state.active == 0
    return state


def _rotten_table(inspectors_ahead: bool) -> GameState:
    """Seat 0 active, an undecided client (U1) in reach, rotten fish in hand; the client
    deck holds 4 cards, 3 of them inspectors when ``inspectors_ahead``."""
    top = ["I1", "I2", "I3", "C05"] if inspectors_ahead else ["C05", "C06", "C07", "C03"]
    return stacked_game(
        2,
        hands=[["P01", "P02", "T01"], ["M01"]],
        markers=[["D01", "D02"], ["D03"]],
        queue=["U1", "C01", "C16"],
        clients_top=top,
        client_deck_size=4,
    )


def test_medium_weighs_the_inspector_risk_for_rotten_fish() -> None:
    """§5, R10: rotten fish go out for an undecided client within reach — unless the
    call is likely to reveal an inspector (here 3 of the 4 unseen client cards)."""
    calm = _rotten_table(inspectors_ahead=False)
    assert inspector_chance(Seen.read(view_for(calm, 0))) == 0.0
    fill_until_ready(MediumBot(0), calm, 0)
    assert any(f[0] == "P" for c in calm.seats[0].draft_crates or [] for f in c.fish)

    risky = _rotten_table(inspectors_ahead=True)
    assert inspector_chance(Seen.read(view_for(risky, 0))) > 0.7
    fill_until_ready(MediumBot(0), risky, 0)
    assert not any(f[0] == "P" for c in risky.seats[0].draft_crates or [] for f in c.fish)


def test_likely_queues_complete_the_queue_from_unseen_clients() -> None:
    """§3.3: the call fills the queue to 5 from the deck; the completions drawn for a
    layout use only clients this seat has not seen, never an inspector."""
    state = stacked_game(2, queue=["C01", "C02"], clients_top=["C03"])
    seen = Seen.read(view_for(state, 0))
    queues = likely_queues(seen, random.Random(1), 4)
    assert queues[0] == ["C01", "C02"] and len(queues) == 5
    unseen = set(seen.unseen_clients())
    for q in queues[1:]:
        assert q[:2] == ["C01", "C02"] and len(q) == cards.QUEUE_MAX
        assert set(q[2:]) <= unseen and not any(cards.is_inspector(c) for c in q)


def test_medium_buys_a_crate_when_it_pays_not_at_the_end() -> None:
    """§7, R11: with fish of three freshnesses, a second crate pays over the turns to come
    early in the game; with one turn left and no client it helps now, it is not bought."""
    early = stacked_game(
        2, hands=[["T01", "F01", "M01", "M02"], ["D01"]], queue=["C16", "C18", "C07"],
        coins=[5, 3],
    )  # fmt: skip
    assert decide(MediumBot(0), early, 0) == {"type": "buy_crate"}
    late = stacked_game(
        2, hands=[["T01", "F01", "M01", "M02"], ["D01"]], queue=["C16", "C18", "C07"],
        coins=[5, 3], fish_deck_size=1,
    )  # fmt: skip
    assert decide(MediumBot(0), late, 0) != {"type": "buy_crate"}


# --------------------------------------------------------------------------- negotiation


def test_medium_asks_for_the_missing_fish_below_the_reward() -> None:
    """§4: lacking a T for a TF client (5 coins), it offers to buy the seller's T for less."""
    state = _serve_table(3, [[["F01"]], [["M01"], ["T01"]], [["D01"]]], ["C09", "C16", "C18"])
    action = decide(MediumBot(0), state, 0)
    assert action is not None and action["type"] == "propose"
    assert action["seller"] == 1 and action["fish"] == [[1, 1]]
    assert 1 <= action["coins"] < cards.CLIENTS["C09"].coins


def test_medium_buyer_counters_half_way_then_accepts() -> None:
    """§4, R8: a seller asking more than the fish earn the buyer gets a counter between
    the buyer's opening and the ask; a price within the buyer's limit is accepted."""
    state = _serve_table(3, [[["F01"]], [["T01"]], [[]]], ["C09", "C16", "C18"], coins=[5, 3, 3])
    buyer = MediumBot(0)
    apply_wire(state, 1, to_wire(Propose(1, ((0, 1),), coins=5)))  # the seller asks 5
    counter = decide(buyer, state, 0)
    assert counter is not None and counter["type"] == "propose"
    assert counter["counter"] == state.proposals[0].id and 1 <= counter["coins"] < 5
    apply_wire(state, 0, counter)
    apply_wire(state, 1, {"type": "decline", "proposal": state.proposals[0].id})
    apply_wire(state, 1, to_wire(Propose(1, ((0, 1),), coins=counter["coins"])))
    assert decide(buyer, state, 0) == {"type": "accept", "proposal": state.proposals[0].id}


def test_medium_seller_concedes_toward_its_floor_never_below() -> None:
    """§4: the seller counters at its ask, then half-way toward the buyer's offers, and
    never sells a fish below its worth plus one coin."""
    state = _serve_table(4, [[["F01"]], [["T01"]], [[]], [[]]], ["C09", "C16", "C18"],
                         coins=[9, 3, 3, 3])  # fmt: skip
    seller = MediumBot(1)
    prices = []
    offer = 1
    for _ in range(4):
        apply_wire(state, 0, to_wire(Propose(1, ((0, 1),), coins=offer)))
        answer = decide(seller, state, 1)
        assert answer is not None
        if answer["type"] != "propose":
            break
        prices.append(answer["coins"])
        apply_wire(state, 1, answer)
        apply_wire(state, 0, {"type": "decline", "proposal": state.proposals[0].id})
    assert prices and prices == sorted(prices, reverse=True)  # concessions only
    assert min(prices) >= 3 + 1  # a T is worth 3 coins (§1)


def test_two_medium_bots_strike_a_deal_or_stop() -> None:
    """Buyer and seller haggle through the engine; the exchange ends (deal or no deal)
    within a few rounds, never looping."""
    state = _serve_table(4, [[["F01"]], [["T01"]], [[]], [[]]], ["C09", "C16", "C18"],
                         coins=[9, 3, 3, 3])  # fmt: skip
    bots = {0: MediumBot(0), 1: MediumBot(1)}
    for _ in range(20):
        pending = [p for p in state.proposals]
        seat = (1 if pending[0].proposer == 0 else 0) if pending else 0
        action = decide(bots[seat], state, seat)
        assert action is not None
        if action["type"] in ("end_turn", "serve"):
            break
        apply_wire(state, seat, action)
    else:
        raise AssertionError("the negotiation did not end")
    deals = [e for e in state.log if e["t"] == "deal"]
    if deals:
        assert state.bought and 4 <= deals[0]["proposal"]["coins"] < 5


def test_easy_buyer_accepts_below_the_clients_coins() -> None:
    """The easy bot's naive deal: any price below the coins the fish earn it (§4)."""
    state = _serve_table(3, [[["F01"]], [["T01"]], [[]]], ["C09", "C16", "C18"], coins=[5, 3, 3])
    apply_wire(state, 1, to_wire(Propose(1, ((0, 1),), coins=4)))
    assert decide(EasyBot(0), state, 0) == {"type": "accept", "proposal": 1}


def _cheap_client_table(players: int) -> GameState:
    """Seat 0 active with an F; seat 1 has an M in its crate; within reach: C33 (MMDD),
    C05 (one M: 1 coin, 2 stamps) and C16 (MM). Only C05 can be completed, by seat 1's M."""
    crates: list[list[list[str]]] = [[["F01"]], [["M01"]]] + [[[]] for _ in range(players - 2)]
    return _serve_table(players, crates, ["C05", "C16", "C18"], coins=[9] + [3] * (players - 1))


def test_medium_pays_for_a_cheap_clients_stamps() -> None:
    """§4, §8: a 1-coin client with 2 stamps is worth buying a fish for. Medium opens at a
    coin (not 0, which a 1-coin client's coins alone would allow) and accepts a seller's
    price up to its points' worth less one: 0.5 + 1 + 2 × 1.5 − 1 → 3 coins."""
    state = _cheap_client_table(3)
    buyer = MediumBot(0)
    ask = decide(buyer, state, 0)
    assert ask is not None and parse_action(ask) == Propose(1, ((0, 1),), coins=1)
    apply_wire(state, 0, ask)
    apply_wire(state, 0, {"type": "withdraw", "proposal": state.proposals[0].id})
    apply_wire(state, 1, to_wire(Propose(1, ((0, 1),), coins=3)))
    assert decide(buyer, state, 0) == {"type": "accept", "proposal": state.proposals[0].id}
    apply_wire(state, 0, {"type": "decline", "proposal": state.proposals[0].id})
    apply_wire(state, 1, to_wire(Propose(1, ((0, 1),), coins=4)))
    answer = decide(buyer, state, 0)
    assert answer is not None and answer["type"] != "accept"  # 4 is above its limit


def test_medium_offers_unasked_what_the_active_player_lacks() -> None:
    """§4 "anyone may propose": on seat 0's turn, seat 1 sees that its M completes C05
    for seat 0 and offers it unasked at its ask: the M's worth (1) plus a third of the
    buyer's visible gain (4.5 points at 4 players) → 3 coins, within that gain less one.
    The buyer accepts; the deal settles. One unasked offer a turn."""
    state = _cheap_client_table(4)
    seller, buyer = MediumBot(1), MediumBot(0)
    assert decide(MediumBot(2), state, 2) is None  # nothing in its crates to offer
    offer = decide(seller, state, 1)
    assert offer is not None and parse_action(offer) == Propose(1, ((0, 1),), coins=3)
    apply_wire(state, 1, offer)
    assert decide(buyer, state, 0) == {"type": "accept", "proposal": state.proposals[0].id}
    apply_wire(state, 0, {"type": "decline", "proposal": state.proposals[0].id})
    assert decide(seller, state, 1) is None  # declined: it does not offer again this turn
    fresh = _cheap_client_table(4)
    apply_wire(fresh, 1, decide(MediumBot(1), fresh, 1) or {})
    apply_wire(fresh, 0, decide(MediumBot(0), fresh, 0) or {})
    assert [s.coins for s in fresh.seats] == [6, 6, 3, 3] and fresh.bought == ["M01"]


def test_medium_offers_nothing_unasked_to_its_only_rival() -> None:
    """At two players the ask is the buyer's whole gain (RIVAL_SHARE 1), always above what
    the buyer would pay: medium keeps quiet (it still answers when asked)."""
    state = _cheap_client_table(2)
    assert decide(MediumBot(1), state, 1) is None


def test_easy_offers_unasked_at_worth_plus_one() -> None:
    """The easy bot's naive unasked offer: the fish the buyer lacks at their worth plus one
    coin, whoever the buyer is (§4), once a turn."""
    state = _cheap_client_table(2)
    seller = EasyBot(1)
    offer = decide(seller, state, 1)
    assert offer is not None and parse_action(offer) == Propose(1, ((0, 1),), coins=2)
    apply_wire(state, 1, offer)
    apply_wire(state, 0, {"type": "decline", "proposal": state.proposals[0].id})
    assert decide(seller, state, 1) is None
