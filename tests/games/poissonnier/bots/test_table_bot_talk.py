"""A seated bot answers the chat's quick phrases that concern it (RULES.md §4, talk.py).

At serve steps of a seeded game (seat 0 active, seat 1 a bot with fish): "Anyone
have X?" from the active player, with X in one of the bot's crates, gets the
bot's price for one, and that price is then accepted; from anyone else, or
for a fish it lacks, no answer. "How much?" is answered only when it names
the bot.
"""

from __future__ import annotations

import pytest
from test_table_bot_reasons import MOMENTS, _ask, _bot

from poissonnier_tui import i18n
from poissonnier_tui.games.poissonnier.rules.engine import apply_wire
from poissonnier_tui.games.poissonnier.rules.view import view_for
from poissonnier_tui.games.poissonnier.talk import Phrase, names_me, read_phrase

NAMES = ("Ana", "Bot 2 · medium", "Bob")


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("Anyone have M?", Phrase("anyone_have", "M")),
        ("anyone have  f", Phrase("anyone_have", "F")),
        ("Quelqu'un a du mangeable\u00a0?", Phrase("anyone_have", "M")),
        ("Quelqu'un a T ?", Phrase("anyone_have", "T")),
        ("Anyone have fish?", None),  # no freshness named
        ("How much?", Phrase("how_much")),
        ("Bot 2, combien ?", Phrase("how_much")),
        ("Deal!", None),
    ],
)
def test_quick_phrases_are_read_in_every_language(text: str, phrase: Phrase | None) -> None:
    assert read_phrase(text) == phrase


def test_a_bot_is_named_by_its_name_or_its_name_without_level() -> None:
    assert names_me("Bot 2, how much?", NAMES[1])
    assert names_me("how much, bot 2 · medium?", NAMES[1])
    assert not names_me("Bot 21, how much?", NAMES[1])
    assert not names_me("How much?", NAMES[1])


def test_anyone_have_gets_the_bots_price_and_the_price_holds() -> None:
    answered = 0
    for n, moment in enumerate(MOMENTS):
        state = moment.copy()
        bot = _bot("medium", n)
        crates = [c.fish for c in state.seats[1].crates]
        have = next(c[0][0] for c in crates if c)
        lacks = next(code for code in "TFMDP" if all(not c or c[0][0] != code for c in crates))
        view = view_for(state, 1)
        assert bot.chat_reply(view, 0, f"Anyone have {lacks}?", NAMES) is None
        assert bot.chat_reply(view, 2, f"Anyone have {have}?", NAMES) is None  # not active
        assert bot.chat_reply(view, None, f"Anyone have {have}?", NAMES) is None
        said = bot.chat_reply(view, 0, f"Anyone have {have}?", NAMES)
        assert said is not None and said.startswith(f"I have {have}")
        if "not for sale" in said:
            continue
        answered += 1
        price = int(said.split(": ")[1].split(" ")[0])
        crate = next(k for k, c in enumerate(crates) if c and c[0][0] == have)
        apply_wire(state, 0, {"type": "propose", "seller": 1, "fish": [[crate, 1]],
                              "coins": price})  # fmt: skip
        assert _ask(state, bot, 1) == {"type": "accept", "proposal": state.proposals[-1].id}
    assert answered >= 1


def test_how_much_is_answered_when_it_names_the_bot_in_the_tables_language() -> None:
    state = MOMENTS[0]
    bot = _bot("medium", 0)
    view = view_for(state, 1)
    assert bot.chat_reply(view, 0, "How much?", NAMES) is None
    said = bot.chat_reply(view, 0, "Bot 2, how much?", NAMES)
    crates = [c.fish[0][0] for c in state.seats[1].crates if c.fish]
    assert said is not None and said.startswith("My prices — ")
    assert said.count("one ") == len(crates)
    i18n.set_language("fr")
    try:
        french = bot.chat_reply(view, 0, "Bot 2, combien ?", NAMES)
    finally:
        i18n.set_language("en")
    assert french is not None and french.startswith("Mes prix — ")
