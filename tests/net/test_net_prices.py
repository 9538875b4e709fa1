"""Prices asked before an offer, over real loopback TCP (net/prices.py, RULES.md §4).

A table of Le Poissonnier: Ana (seat 0, first to play), a medium bot seated as a
table seats it (seat 1, ``haggling.TableBot``), Bob (seat 2) and Eve watching.
In Ana's serve step she asks the bot its price for one fish: the answer
reaches Ana only, and Ana's offer at that price is accepted. Ana asks Bob, a
person: Bob is asked and may answer once; only Ana hears it. Spectators,
questions the rules refuse and floods get an error, and nothing changes.
"""

from __future__ import annotations

from typing import Any

from test_net_server import FAST, Watch, join

from net.messages import ErrorReply, Said, View
from net.prices import PRICE_BURST, PriceAsked, Priced
from net.server import TableServer
from poissonnier_tui.games.poissonnier.bots import make_bot
from poissonnier_tui.games.poissonnier.haggling import TableBot
from poissonnier_tui.games.poissonnier.match import PoissonnierGame

SEED = 3
"""A deal where the bot at seat 1 lays out one mangeable fish in its first crate and
quotes it (checked below, not assumed)."""


def _table() -> TableServer:
    return TableServer(
        PoissonnierGame(), name="Market", seats=3, seed=SEED, app_version="1.0",
        options={"first_player": 0}, bots={1: TableBot(make_bot("medium", 1))},
        bot_delay=0.0, auto_start=True, timing=FAST, clock=lambda: 0.0,
    )  # fmt: skip


async def _market(server: TableServer) -> list[tuple[Any, Watch]]:
    """Ana (seat 0), Bob (seat 2) and Eve (watching) join; Ana and Bob declare ready at
    once (crates empty), the bot fills its own."""
    eve = await join(server, "Eve", role="spectator", game="poissonnier", app_version="1.0")
    ana = await join(server, "Ana", game="poissonnier", app_version="1.0")
    bob = await join(server, "Bob", game="poissonnier", app_version="1.0")
    for client, _watch in (ana, bob):
        await client.send_action({"type": "ready"})
    return [ana, bob, eve]


async def _serving(watch: Watch) -> dict[str, Any]:
    msg = await watch.until(lambda m: isinstance(m, View) and m.view["phase"] == "serve", 10.0)
    assert isinstance(msg, View)
    return msg.view


async def _heard_nothing_more_than(watch: Watch, client: Any, mark: str) -> list[Any]:
    """Everything ``watch`` got up to its own chat echo ``mark``: frames sent to it
    before are all in there (one connection's frames arrive in order)."""
    await client.say(mark)
    await watch.until(lambda m: isinstance(m, Said) and m.text == mark, 5.0)
    return watch.seen


async def test_a_bots_price_reaches_the_asker_only_and_holds() -> None:
    async with _table() as server:
        (ana, ana_w), (bob, bob_w), (eve, eve_w) = await _market(server)
        view = await _serving(ana_w)
        assert view["active"] == 0 and view["seats"][1]["crates"][0] == "M"
        await ana.ask_price(1, {"seller": 1, "fish": [[0, 1]]})
        priced = await ana_w.until(lambda m: isinstance(m, Priced), 10.0)
        deal = {"proposer": 0, "seller": 1, "fish": [[0, 1, "M"]], "seller_glacons": 0,
                "seller_arrivages": 0, "buyer_glacons": 0, "buyer_arrivages": 0}  # fmt: skip
        assert (priced.seat, priced.deal, priced.bot) == (1, deal, True)
        assert priced.coins == 2
        for watch, client in ((bob_w, bob), (eve_w, eve)):
            seen = await _heard_nothing_more_than(watch, client, f"ok {id(client)}")
            assert not [m for m in seen if isinstance(m, Priced | PriceAsked)]
        await ana.send_action({"type": "propose", "seller": 1, "fish": [[0, 1]], "coins": 2})
        dealt = await ana_w.until(
            lambda m: isinstance(m, View) and any(e["t"] == "deal" for e in m.view["log"]), 10.0
        )
        assert dealt.view["seats"][0]["coins"] == 1  # 3 coins less the 2 quoted
        for client in (eve, ana, bob):
            await client.close()


async def test_a_person_is_asked_and_answers_once_to_the_asker_only() -> None:
    async with _table() as server:
        (ana, ana_w), (bob, bob_w), (eve, eve_w) = await _market(server)
        view = await _serving(bob_w)
        bob_crates = view["seats"][2]["crates"]
        assert all(c == "" for c in bob_crates)  # Bob laid out nothing
        # Bob has no fish for sale: a question about fish he lacks is refused, as the
        # same proposal would be (§4).
        await ana.ask_price(2, {"seller": 2, "fish": [[0, 1]]})
        refused = await ana_w.until(lambda m: isinstance(m, ErrorReply), 5.0)
        assert refused.code == "fish_not_in_crate"
        assert refused.params == {"key": "fish_not_in_crate", "rule": "§4"}  # said in any language
        # A deal of special cards only is a question Bob can be asked.
        await ana.ask_price(2, {"seller": 2, "seller_glacons": 1})
        asked = await bob_w.until(lambda m: isinstance(m, PriceAsked), 5.0)
        assert asked.by == 0 and asked.deal["seller_glacons"] == 1
        await bob.name_price(0, asked.deal, 4)
        priced = await ana_w.until(lambda m: isinstance(m, Priced), 5.0)
        assert (priced.seat, priced.coins, priced.bot, priced.deal) == (2, 4, False, asked.deal)
        await bob.name_price(0, asked.deal, 3)  # answered already
        again = await bob_w.until(lambda m: isinstance(m, ErrorReply), 5.0)
        assert again.code == "no_question"
        seen = await _heard_nothing_more_than(eve_w, eve, "watching")
        assert not [m for m in seen if isinstance(m, Priced | PriceAsked)]
        for client in (eve, ana, bob):
            await client.close()


async def test_spectators_wrong_sides_and_floods_are_refused() -> None:
    async with _table() as server:
        (ana, ana_w), (bob, bob_w), (eve, eve_w) = await _market(server)
        await _serving(ana_w)
        rev = server.rev
        await eve.ask_price(1, {"seller": 1, "fish": [[0, 1]]})
        assert (await eve_w.until(lambda m: isinstance(m, ErrorReply))).code == "not_a_player"
        await bob.ask_price(1, {"seller": 1, "fish": [[0, 1]]})  # neither is active (§4)
        assert (await bob_w.until(lambda m: isinstance(m, ErrorReply))).code == "bad_question"
        await ana.ask_price(0, {"seller": 1, "fish": [[0, 1]]})  # oneself
        assert (await ana_w.until(lambda m: isinstance(m, ErrorReply))).code == "bad_question"
        await ana.ask_price(1, {"seller": 1, "fish": [[0, 9]]})
        assert (await ana_w.until(lambda m: isinstance(m, ErrorReply))).code == "fish_not_in_crate"
        # The clock stands still: one question counted (a refused one counts, a
        # question to oneself is not even read), the burst allows the rest.
        for _ in range(PRICE_BURST - 1):
            await ana.ask_price(1, {"seller": 1, "fish": [[0, 1]]})
        await ana.ask_price(1, {"seller": 1, "fish": [[0, 1]]})
        flood = await ana_w.until(lambda m: isinstance(m, ErrorReply), 10.0)
        assert flood.code == "slow_down"
        answers = [m for m in ana_w.seen if isinstance(m, Priced)]
        assert len(answers) == PRICE_BURST - 1 and {m.coins for m in answers} == {2}
        assert server.rev == rev  # asking changed nothing at the table
        for client in (eve, ana, bob):
            await client.close()


async def test_a_bot_answers_the_quick_phrase_that_concerns_it_in_chat() -> None:
    async with _table() as server:
        (ana, ana_w), (bob, bob_w), (eve, _eve_w) = await _market(server)
        await _serving(ana_w)
        await ana.say("Anyone have M?")  # the chat's quick phrase, finished with a fish
        answer = await bob_w.until(lambda m: isinstance(m, Said) and m.seat == 1, 10.0)
        assert answer.name == "Bot 1"  # the bot speaks in its own name
        assert answer.text == "I have M: 2 coins for one."
        heard = await ana_w.until(lambda m: isinstance(m, Said) and m.seat == 1, 10.0)
        assert heard.text == answer.text  # chat is public: everyone hears the bot
        await ana.send_action({"type": "propose", "seller": 1, "fish": [[0, 1]], "coins": 2})
        await ana_w.until(
            lambda m: isinstance(m, View) and any(e["t"] == "deal" for e in m.view["log"]), 10.0
        )
        said = [m for m in ana_w.seen if isinstance(m, Said)]
        assert [m.seat for m in said] == [0, 1]  # one answer to one phrase
        for client in (eve, ana, bob):
            await client.close()
