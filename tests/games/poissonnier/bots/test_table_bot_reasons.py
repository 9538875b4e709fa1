"""A bot at a table says why it declines and at what price it would deal, and keeps it.

RULES.md §4 (table talk), R8, §9. At serve steps of a seeded medium-bot game,
for every level, a person haggles with a seated bot (``haggling.TableBot``)
through the engine: they offer the bot's worst price, turn down its counters
and offer that price again until the bot declines. The decline carries a
reason; where it names a price, the person's offer at that price is accepted.
Both sides: the bot selling (the person active asks for fish) and the bot
buying (the person offers the active bot fish).
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from test_bot_quotes import MOMENTS  # serve steps: seat 0 active, seats 0 and 1 hold fish

from poissonnier_tui.games.poissonnier.bots import LEVELS, make_bot
from poissonnier_tui.games.poissonnier.bots.hard import HardBot
from poissonnier_tui.games.poissonnier.haggling import TableBot
from poissonnier_tui.games.poissonnier.rules.actions import to_wire
from poissonnier_tui.games.poissonnier.rules.engine import (
    apply_wire,
    legal_actions,
)
from poissonnier_tui.games.poissonnier.rules.state import GameState
from poissonnier_tui.games.poissonnier.rules.view import view_for

ROUNDS = 8
"""Offers a person makes at most before the bot has said a plain no (bots haggle 1-2 times)."""


def _ask(state: GameState, bot: TableBot, seat: int) -> dict[str, Any] | None:
    legal = [to_wire(a) for a in legal_actions(state, seat)]
    return bot.act(view_for(state, seat), legal)


def _offer(state: GameState, bot: TableBot, bot_seat: int, person: int, coins: int,
           crate: int | None = None) -> dict[str, Any] | None:  # fmt: skip
    """The person proposes one fish of seat 1's ``crate`` (default: its first with fish)
    at ``coins``; the bot's answer."""
    if crate is None:
        crate = next(k for k, c in enumerate(state.seats[1].crates) if c.fish)
    apply_wire(state, person, {"type": "propose", "seller": 1, "fish": [[crate, 1]],
                               "coins": coins})  # fmt: skip
    return _ask(state, bot, bot_seat)


def _haggle(state: GameState, bot: TableBot, bot_seat: int, person: int, coins: int,
            crate: int | None = None) -> dict[str, Any] | None:  # fmt: skip
    """The person offers one fish of seat 1 at ``coins`` until the bot declines: the
    decline, or ``None`` if the bot accepted (a deal needs no reason)."""
    for _ in range(ROUNDS):
        answer = _offer(state, bot, bot_seat, person, coins, crate)
        assert answer is not None
        if answer["type"] == "propose":  # a counter: the person turns it down, offers again
            apply_wire(state, bot_seat, answer)
            apply_wire(state, person, {"type": "decline", "proposal": state.proposals[-1].id})
            continue
        if answer["type"] == "accept":
            return None
        assert answer["type"] == "decline", answer
        apply_wire(state, bot_seat, answer)  # the engine takes the reason and price
        return answer
    raise AssertionError(f"no decline in {ROUNDS} offers")


def _bot(kind: str, seed: int) -> TableBot:
    if kind == "hard":  # a fixed work budget (no clock limits): the same moves under any load
        return TableBot(HardBot(seed, budget=0.2, time_limit=math.inf, wall_limit=math.inf))
    return TableBot(make_bot(kind, seed))


SIDES = {
    # side: (bot seat, person seat, the person's first price, the bot's reasons)
    "seller": (1, 0, lambda state: 0, ("too_cheap", "not_selling", "no_thanks")),
    "buyer": (0, 1, lambda state: state.seats[0].coins, ("too_dear", "no_use", "no_thanks")),
}


@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize("kind", LEVELS)
def test_a_bot_says_its_price_and_keeps_it(kind: str, side: str) -> None:
    bot_seat, person, first_price, reasons = SIDES[side]
    declined = priced = 0
    for n, moment in enumerate(MOMENTS):
        state = moment.copy()
        bot = _bot(kind, n)
        offered = first_price(state)
        decline = _haggle(state, bot, bot_seat, person, offered)
        if decline is None:
            assert side == "buyer"  # it pays all it holds; nobody gives fish for nothing
            continue
        declined += 1
        assert decline["reason"] in reasons
        if "price" not in decline:
            continue
        priced += 1
        assert decline["reason"] == reasons[0]
        assert decline["price"] > offered if side == "seller" else decline["price"] < offered
        answer = _offer(state, bot, bot_seat, person, decline["price"])
        assert answer == {"type": "accept", "proposal": state.proposals[-1].id}, (kind, answer)
    # Each level names a price it keeps; as buyer the easy bot pays any price it holds.
    assert priced >= (2 if side == "seller" else 0), (kind, priced)
    assert declined >= (0 if (kind, side) == ("easy", "buyer") else 1), kind


@pytest.mark.parametrize("kind", LEVELS)
def test_an_active_bot_offered_fish_too_dear_names_what_it_pays_and_pays_it(kind: str) -> None:
    """MOMENTS[2]: the active bot would pay for seat 1's F (crate 2); offered it at all
    the bot holds, it haggles, then declines "too dear" with its price, and pays it."""
    state = MOMENTS[2].copy()
    assert state.seats[1].crates[1].fish[0][0] == "F"
    bot = _bot(kind, 2)
    most = state.seats[0].coins
    decline = _haggle(state, bot, 0, 1, most, crate=1)
    assert decline is not None and decline["reason"] == "too_dear"
    assert 0 < decline["price"] < most
    answer = _offer(state, bot, 0, 1, decline["price"], crate=1)
    assert answer == {"type": "accept", "proposal": state.proposals[-1].id}, (kind, answer)


def test_one_coin_below_the_named_price_is_not_accepted() -> None:
    priced = [(m, d) for m in MOMENTS
              if (d := _haggle(m.copy(), _bot("medium", 0), 1, 0, 0)) and "price" in d]  # fmt: skip
    assert priced
    moment, decline = priced[0]
    state = moment.copy()
    bot = _bot("medium", 0)
    assert _haggle(state, bot, 1, 0, 0) == decline  # the same haggle, the same words
    answer = _offer(state, bot, 1, 0, decline["price"] - 1)
    assert answer is not None and answer["type"] != "accept"
