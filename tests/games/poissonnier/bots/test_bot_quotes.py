"""A bot's quote (games/poissonnier/quotes.py): the price it names is the price it takes.

RULES.md §4, R8. At serve steps of a seeded medium-bot game, for every bot
level: the active seat (a person) asks the bot at seat 1 for one fish, and
the bot at the active seat is offered one fish by seat 1. The quote is asked
first; then the proposal is made for real at that price (the engine makes
it) and the bot, handed its view and legal actions as a table hands them,
accepts. One coin worse for the bot (less as seller, more as buyer), a copy
of it does not accept. Asking for a quote changes nothing in the bot, and
reads only its view: a world redrawn behind the same view gets the same quote.
"""

from __future__ import annotations

import copy
import math
import random
from typing import Any

import pytest

from net.game import Agent
from poissonnier_tui.games.poissonnier.bots import LEVELS, make_bot
from poissonnier_tui.games.poissonnier.bots.hard import HardBot
from poissonnier_tui.games.poissonnier.quotes import quote, says_yes
from poissonnier_tui.games.poissonnier.rules.actions import to_wire
from poissonnier_tui.games.poissonnier.rules.determinize import sample_state
from poissonnier_tui.games.poissonnier.rules.engine import (
    apply_wire,
    legal_actions,
    new_game,
    waiting_on,
)
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for


def _bot(kind: str) -> Agent:
    # The hard bot on a fixed work budget (no clock limits): the same moves under any load.
    if kind == "hard":
        return HardBot(3, budget=0.2, time_limit=math.inf, wall_limit=math.inf)
    return make_bot(kind, 3)


def _market_moments(seed: int, wanted: int) -> list[GameState]:
    """Serve steps of a 3-seat medium-bot game where seat 0 is active, has not bought
    yet, nothing is proposed, and seats 0 and 1 both have fish in a crate."""
    state = new_game(seed, 3)
    agents = [make_bot("medium", s) for s in range(3)]
    found: list[GameState] = []
    last_turn = -1
    while state.phase is not Phase.OVER and len(found) < wanted:
        if (
            state.phase is Phase.SERVE
            and state.active == 0
            and state.turn != last_turn
            and not state.proposals
            and all(any(c.fish for c in state.seats[s].crates) for s in (0, 1))
        ):
            found.append(state.copy())
            last_turn = state.turn
        waiting = waiting_on(state)
        s = min(waiting - {state.active}) if waiting - {state.active} else state.active
        legal = [to_wire(a) for a in legal_actions(state, s)]
        action = agents[s].act(view_for(state, s), legal)
        apply_wire(state, s, action or {"type": "ready" if state.phase is Phase.FILL
                                        else "end_turn"})  # fmt: skip
    return found


def _one_fish(state: GameState, seller: int, proposer: int) -> dict[str, Any]:
    k, crate = next((k, c) for k, c in enumerate(state.seats[seller].crates) if c.fish)
    return {
        "proposer": proposer,
        "seller": seller,
        "fish": [[k, 1, crate.fish[0][0]]],
        "seller_glacons": 0,
        "seller_arrivages": 0,
        "buyer_glacons": 0,
        "buyer_arrivages": 0,
    }


def _answer_for_real(state: GameState, bot: Agent, seat: int, deal: dict[str, Any], coins: int
                     ) -> dict[str, Any] | None:  # fmt: skip
    """Make the proposal at ``coins`` through the engine; the bot's answer to it."""
    world = state.copy()
    apply_wire(world, deal["proposer"], {
        "type": "propose", "seller": deal["seller"], "fish": [f[:2] for f in deal["fish"]],
        "coins": coins,
    })  # fmt: skip
    legal = [to_wire(a) for a in legal_actions(world, seat)]
    return bot.act(view_for(world, seat), legal)


MOMENTS = _market_moments(seed=31, wanted=3)


@pytest.mark.parametrize("kind", LEVELS)
def test_the_price_a_bot_quotes_is_the_price_it_accepts(kind: str) -> None:
    assert len(MOMENTS) == 3
    quoted = 0
    for state in MOMENTS:
        for seat, deal in ((1, _one_fish(state, 1, 0)), (0, _one_fish(state, 1, 1))):
            bot = _bot(kind)
            view = view_for(state, seat)
            price = quote(bot, view, deal)
            if price is None:
                continue
            quoted += 1
            answer = _answer_for_real(state, bot, seat, deal, price)
            assert answer is not None and answer["type"] == "accept", (kind, seat, price, answer)
            worse = price - 1 if seat == deal["seller"] else price + 1
            if 0 <= worse <= state.seats[0].coins and kind != "hard":
                assert not says_yes(_bot(kind), view, deal, worse), (kind, seat, worse)
    assert quoted >= 2  # the bots name a price for some of these deals


def test_a_quote_reads_only_the_view_and_leaves_the_bot_as_it_was() -> None:
    state = MOMENTS[0]
    deal = _one_fish(state, 1, 0)
    view = view_for(state, 1)
    before = copy.deepcopy(view)
    bot, twin = _bot("medium"), _bot("medium")
    price = quote(bot, view, deal)
    assert view == before  # not written to
    other = sample_state(view, random.Random(8))  # every hidden card redrawn
    other.log = list(state.log)
    assert view_for(other, 1) == view
    assert [s.hand for s in other.seats[::2]] != [s.hand for s in state.seats[::2]]
    assert quote(_bot("medium"), view_for(other, 1), deal) == price
    # The bot that quoted answers the real proposal as one that never did.
    assert _answer_for_real(state, bot, 1, deal, 0) == _answer_for_real(state, twin, 1, deal, 0)
    with pytest.raises(ValueError, match="does not answer"):
        quote(bot, view_for(state, 2), deal)
