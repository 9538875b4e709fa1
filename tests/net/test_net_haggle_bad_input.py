"""Haggling's wire messages from a hostile client: refused with a code, nothing changes.

A two-player table of Le Poissonnier in its serve step (``haggling.market``):
Ana (active) has asked Bob for a fish. Bob is a raw connection (``rawwire``)
that says what no client of ours would: drafts, price questions and
answers, declines with a reason and a price, and chat lines of the wrong
type, out of range, too long or nested past the limits (net/messages.py,
net/drafts.py, net/prices.py, net/chat.py; RULES.md §4). Each gets an
``error`` frame with a code; the table does not move; Eve, watching, hears
nothing of it; Ana's offer is still open; and afterwards Bob's well-formed
decline, with its reason and price, is taken. A frame past the wire's
limits closes Bob's connection, and nothing else.
"""

from __future__ import annotations

import asyncio
from typing import Any

from haggling import TOKENS, bobs_fish, market
from rawwire import Wire, hello

from net.client import TableClient
from net.drafts import DraftRules
from net.messages import Drafting, Said, View
from net.prices import PriceAsked, Priced
from poissonnier_tui import __version__


def nested(depth: int) -> Any:
    """A map ``depth`` levels deep."""
    value: Any = 1
    for _ in range(depth):
        value = {"x": value}
    return value


BAD: list[tuple[dict[str, Any], str]] = [
    ({"type": "draft", "on": "yes"}, "bad_message"),
    ({"type": "draft"}, "bad_message"),
    ({"type": "draft", "on": True, "extra": [1] * 100}, "bad_message"),
    ({"type": "ask_price", "to": "0", "deal": {}}, "bad_message"),
    ({"type": "ask_price", "to": 0, "deal": "two fish"}, "bad_message"),
    ({"type": "ask_price", "to": 300, "deal": {}}, "bad_message"),
    ({"type": "ask_price", "to": 0, "deal": nested(10)}, "bad_message"),
    ({"type": "ask_price", "to": 0, "deal": {"fish": "x" * 100}}, "bad_message"),
    ({"type": "name_price", "to": 0, "deal": {}, "coins": -1}, "bad_message"),
    ({"type": "name_price", "to": 0, "deal": {}, "coins": "3"}, "bad_message"),
    ({"type": "name_price", "to": 0, "deal": {}, "coins": 10**12}, "bad_message"),
    ({"type": "chat", "text": "x" * 1000}, "chat_too_long"),
]
"""Messages refused by their shape (or a chat line by its length), before any game
sees them, with the code expected."""

ODD_DEALS: list[dict[str, Any]] = [
    {"seller": [1], "fish": [[0, 1]]},
    {"seller": {"seat": 1}},
    {"seller": True, "fish": [[0, 1]]},
    {"seller": "1"},
]
"""Price questions whose deal is plain data but names its seller with no seat number:
the game refuses them (``bad_question``) as it does any question not between the
active player and a seller, and the connection stays open (a list here once raised
inside the server and dropped the asker)."""


def declines(offer: int) -> list[tuple[dict[str, Any], str]]:
    """Bob's ill-formed or untrue declines of ``offer`` with the code each gets (§4: a
    reason from the right side; a price only with a reason, more than offered for
    ``too_cheap``)."""
    return [
        ({"type": "decline", "proposal": offer, "reason": 5}, "bad_action"),
        ({"type": "decline", "proposal": offer, "reason": "because"}, "bad_reason"),
        ({"type": "decline", "proposal": offer, "reason": "x" * 300}, "bad_message"),
        (
            {"type": "decline", "proposal": offer, "reason": "too_cheap", "price": "many"},
            "bad_action",
        ),
        ({"type": "decline", "proposal": offer, "reason": "too_cheap", "price": -2}, "bad_action"),
        ({"type": "decline", "proposal": offer, "price": 3}, "bad_reason"),  # no reason
        ({"type": "decline", "proposal": offer, "reason": "too_dear"}, "bad_reason"),  # buyer's
    ]


async def test_bad_haggling_messages_are_refused_and_change_nothing() -> None:
    server = market(DraftRules())
    async with server:
        ana = await TableClient.connect(
            "127.0.0.1", server.port, name="Ana", app_version=__version__,
            game="poissonnier", token=TOKENS[0][1],
        )  # fmt: skip
        eve = await TableClient.connect(
            "127.0.0.1", server.port, name="Eve", app_version=__version__,
            game="poissonnier", role="spectator",
        )  # fmt: skip
        bob = await Wire.open(server.port)
        await bob.send(hello("poissonnier", __version__, "Bob", token=TOKENS[1][1]))
        first = await bob.until("view")
        await ana.send_action(bobs_fish(first["view"], coins=0))
        asked = await bob.until("view")
        while not asked["view"]["proposals"]:
            asked = await bob.until("view")
        offer = int(asked["view"]["proposals"][0]["id"])
        rev = server.rev

        codes: list[str] = []
        for msg, _code in BAD:
            reply = await bob.answer(msg)
            assert reply["type"] == "error", (msg, reply)
            codes.append(reply["code"])
        assert codes == [code for _msg, code in BAD]
        for seq, (action, code) in enumerate(declines(offer), 1):
            reply = await bob.answer({"type": "action", "seq": seq, "action": action})
            assert (reply["type"], reply["code"], reply.get("seq")) == ("error", code, seq), action
        assert server.rev == rev  # nothing moved
        # The table still listens to Bob: a decline with its reason and price is taken.
        await bob.send(
            {"type": "action", "seq": 99, "action": {
                "type": "decline", "proposal": offer, "reason": "too_cheap", "price": 2,
            }}
        )  # fmt: skip
        assert (await bob.until("ack"))["seq"] == 99
        for deal in ODD_DEALS:  # after an accepted move: a fresh count of refusals
            reply = await bob.answer({"type": "ask_price", "to": 0, "deal": deal})
            assert (reply["type"], reply["code"]) == ("error", "bad_question"), deal

        # A frame past the wire's limits, or with bytes for text, is not even read: the
        # connection is closed (Bob comes back with his token for the second).
        for bad in ({"fish": "x" * 5000}, {"fish": b"\x00\x01binary"}):
            await bob.send({"type": "ask_price", "to": 0, "deal": bad})
            closing = await bob.rest()
            assert [f.get("code") for f in closing if f["type"] == "error"] == ["bad_frame"]
            bob.writer.close()
            bob = await Wire.open(server.port)
            await bob.send(hello("poissonnier", __version__, "Bob", token=TOKENS[1][1]))
            await bob.until("view")

        heard: list[Any] = []
        async with asyncio.timeout(10):
            async for message in eve.messages():  # up to the view of Bob's decline
                heard.append(message)
                if isinstance(message, View) and message.rev > rev:
                    break
        last = heard[-1]
        assert isinstance(last, View) and last.rev == rev + 1
        assert [e for e in last.view["log"] if e["t"] == "decline"][-1] == {
            "t": "decline", "seat": 1, "proposal": offer, "reason": "too_cheap", "coins": 0,
            "price": 2, "turn": last.view["turn"],
        }  # fmt: skip
        assert not [m for m in heard if isinstance(m, Said | Drafting | PriceAsked | Priced)]
        before = [m for m in heard if isinstance(m, View) and m.rev == rev]
        assert all([p["id"] for p in m.view["proposals"]] == [offer] for m in before)
        bob.writer.close()
        for client in (ana, eve):
            await client.close()
