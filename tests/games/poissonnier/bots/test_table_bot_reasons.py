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

from typing import Any

import pytest

from poissonnier_tui.games.poissonnier.bots import LEVELS, make_bot
from poissonnier_tui.games.poissonnier.haggling import TableBot
from poissonnier_tui.games.poissonnier.rules.actions import to_wire
from poissonnier_tui.games.poissonnier.rules.engine import (
    apply_wire,
    legal_actions,
    new_game,
    waiting_on,
)
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for

ROUNDS = 8
"""Offers a person makes at most before the bot has said a plain no (bots haggle 1-2 times)."""


def _moments(seed: int, wanted: int) -> list[GameState]:
    """Serve steps where seat 0 is active with nothing proposed and seats 0, 1 hold fish."""
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
        action = agents[s].act(view_for(state, s), [to_wire(a) for a in legal_actions(state, s)])
        apply_wire(state, s, action or {"type": "ready" if state.phase is Phase.FILL
                                        else "end_turn"})  # fmt: skip
    return found


MOMENTS = _moments(seed=31, wanted=3)


def _ask(state: GameState, bot: TableBot, seat: int) -> dict[str, Any] | None:
    legal = [to_wire(a) for a in legal_actions(state, seat)]
    return bot.act(view_for(state, seat), legal)


def _haggle(state: GameState, bot: TableBot, bot_seat: int, person: int, coins: int
            ) -> dict[str, Any] | None:  # fmt: skip
    """The person offers one fish of seat 1 at ``coins`` until the bot declines: the
    decline, or ``None`` if the bot accepted (a deal needs no reason)."""
    crate = next(k for k, c in enumerate(state.seats[1].crates) if c.fish)
    for _ in range(ROUNDS):
        apply_wire(state, person, {"type": "propose", "seller": 1, "fish": [[crate, 1]],
                                   "coins": coins})  # fmt: skip
        answer = _ask(state, bot, bot_seat)
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
    return TableBot(make_bot(kind, seed, budget=0.2) if kind == "hard" else make_bot(kind, seed))


@pytest.mark.parametrize("kind", LEVELS)
def test_a_seller_bot_says_its_price_and_takes_it(kind: str) -> None:
    priced = 0
    for n, moment in enumerate(MOMENTS):
        state = moment.copy()
        bot = _bot(kind, n)
        decline = _haggle(state, bot, 1, 0, 0)
        assert decline is not None  # nobody gives fish away for nothing here
        assert decline["reason"] in ("too_cheap", "not_selling", "no_thanks")
        if "price" not in decline:
            continue
        assert decline["reason"] == "too_cheap" and decline["price"] > 0
        priced += 1
        crate = next(k for k, c in enumerate(state.seats[1].crates) if c.fish)
        apply_wire(state, 0, {"type": "propose", "seller": 1, "fish": [[crate, 1]],
                              "coins": decline["price"]})  # fmt: skip
        answer = _ask(state, bot, 1)
        assert answer == {"type": "accept", "proposal": state.proposals[-1].id}, (kind, answer)
    assert priced >= 2, kind


@pytest.mark.parametrize("kind", LEVELS)
def test_a_buyer_bot_says_its_price_and_pays_it(kind: str) -> None:
    declined = 0
    for n, moment in enumerate(MOMENTS):
        state = moment.copy()
        bot = _bot(kind, n)
        most = state.seats[0].coins
        decline = _haggle(state, bot, 0, 1, most)
        if decline is None:
            continue  # it pays all it holds: nothing to explain
        assert decline["reason"] in ("too_dear", "no_use", "no_thanks")
        declined += 1
        if "price" not in decline:
            continue
        assert decline["reason"] == "too_dear" and 0 <= decline["price"] < most
        crate = next(k for k, c in enumerate(state.seats[1].crates) if c.fish)
        apply_wire(state, 1, {"type": "propose", "seller": 1, "fish": [[crate, 1]],
                              "coins": decline["price"]})  # fmt: skip
        answer = _ask(state, bot, 0)
        assert answer == {"type": "accept", "proposal": state.proposals[-1].id}, (kind, answer)
    assert declined >= (0 if kind == "easy" else 1), kind  # the easy bot pays any price


def test_one_coin_below_the_named_price_is_not_accepted() -> None:
    priced = [(m, d) for m in MOMENTS
              if (d := _haggle(m.copy(), _bot("medium", 0), 1, 0, 0)) and "price" in d]  # fmt: skip
    assert priced
    moment, decline = priced[0]
    state = moment.copy()
    bot = _bot("medium", 0)
    assert _haggle(state, bot, 1, 0, 0) == decline  # the same haggle, the same words
    crate = next(k for k, c in enumerate(state.seats[1].crates) if c.fish)
    apply_wire(state, 0, {"type": "propose", "seller": 1, "fish": [[crate, 1]],
                          "coins": decline["price"] - 1})  # fmt: skip
    answer = _ask(state, bot, 1)
    assert answer is not None and answer["type"] != "accept"
