"""Refusals travel as a code and parameters; each client says them in its own language.

A LAN table over TCP on 127.0.0.1 with two seats: one laptop speaks French,
the other English. Both make the same illegal move; each gets the same
:class:`~net.messages.ErrorReply` (code, English sentence, parameters) and
the game's rendering function, fed that reply, explains it in the client's
language; the table's own refusals (a chat too long, a message the protocol
does not know, a join after the start) read in each laptop's language too. The wire keeps
old peers working: no ``params`` when there are none,
and a reply without them still reads.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Mapping

import pytest

from net.chat import CHAT_MAX
from net.client import JoinError, TableClient
from net.messages import ErrorReply, View, parse_server_message
from net.schema import BadMessage
from net.server import TableServer
from poissonnier_tui import __version__, i18n
from poissonnier_tui.games.poissonnier.match import PoissonnierGame
from poissonnier_tui.games.poissonnier.rules.engine import apply_wire, new_game
from poissonnier_tui.games.poissonnier.rules.errors import IllegalAction
from poissonnier_tui.games.poissonnier.ui.refusals import REFUSALS, refusal_text
from poissonnier_tui.refusals import refusal_or_message


@pytest.fixture
def english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def said_in(lang: str, reply: ErrorReply) -> str:
    """What a client speaking ``lang`` shows for ``reply``."""
    i18n.set_language(lang)
    return refusal_text(reply.code, reply.params, reply.message)


def two_seat_table() -> TableServer:
    """A two-seat Le Poissonnier table that starts once both seats are taken (seed 7)."""
    return TableServer(
        PoissonnierGame(), name="langues", seats=2, seed=7, app_version=__version__,
        auto_start=True,
    )  # fmt: skip


async def marie_and_john(server: TableServer) -> tuple[TableClient, TableClient]:
    """Marie then John seated at ``server`` over loopback TCP."""
    marie, john = [
        await TableClient.connect(
            "127.0.0.1", server.port, name=name, app_version=__version__, game="poissonnier"
        )
        for name in ("Marie", "John")
    ]
    return marie, john


async def refused(client: TableClient, action: dict[str, object]) -> ErrorReply:
    """Wait for the game to start, send ``action``, and return the table's refusal of it."""
    async with asyncio.timeout(30):
        while not isinstance(await client.receive(), View):
            pass
        seq = await client.send_action(action)
        while True:
            msg = await client.receive()
            if isinstance(msg, ErrorReply) and msg.seq == seq:
                return msg


async def test_a_french_and_an_english_laptop_each_read_a_refusal_in_their_language(
    english_after: None,
) -> None:
    server = two_seat_table()
    async with server:
        marie, john = await marie_and_john(server)
        no_crate = {"type": "take_back", "crate": 7}  # nobody has an eighth crate
        to_marie, to_john = await asyncio.gather(refused(marie, no_crate), refused(john, no_crate))
        for c in (marie, john):
            await c.close()

    assert to_marie == to_john  # the server says the same thing to both
    assert (to_john.code, dict(to_john.params or {})) == (
        "bad_crate", {"crate": 8, "key": "bad_crate", "rule": "§3.2"},
    )  # fmt: skip
    assert to_john.message == "you have no crate 8 (§3.2)"
    assert said_in("fr", to_marie) == "vous n'avez pas de caisse 8 (§3.2)"
    assert said_in("en", to_john) == to_john.message


@pytest.mark.parametrize(
    ("action", "french"),
    [
        ({"type": "unready"}, "vous n'avez pas annoncé «\u00a0prêt\u00a0» (§3.2)"),
        ({"type": "end_turn"}, (
            "le tour ne se termine qu'après le remplissage et l'appel des clients (§3.4)"
        )),
        ({"type": "place", "crate": 0, "cards": ["C01"]}, "C01 n'est pas dans votre main (§3.2)"),
        ({"type": "accept", "proposal": 41}, "il n'y a pas de proposition #41 en cours (§4)"),
    ],
)  # fmt: skip
def test_the_client_says_each_refusal_as_the_engine_does_in_english_and_in_french(
    action: dict[str, object], french: str, english_after: None
) -> None:
    state = new_game(seed=3, players=2)
    with pytest.raises(IllegalAction) as caught:
        apply_wire(state, 0, action)
    exc = caught.value
    reply = parse_server_message(ErrorReply(exc.code, exc.sentence, 4, exc.wire_params).to_wire())
    assert isinstance(reply, ErrorReply)
    assert exc.key in REFUSALS
    assert said_in("en", reply) == exc.sentence
    assert said_in("fr", reply) == french


def test_an_unknown_key_or_missing_values_fall_back_on_the_servers_sentence(
    english_after: None,
) -> None:
    i18n.set_language("fr")
    assert refusal_text("seat_taken", None, "Seat 2 is held by Ana.") == "Seat 2 is held by Ana."
    assert refusal_text("bad_crate", {"rule": "§3.2"}, "you have no crate 3") == (
        "you have no crate 3"
    )
    assert refusal_text("bad_crate", {"crate": 3}, "x") == "vous n'avez pas de caisse 3"


def test_params_are_left_out_when_empty_and_old_replies_still_read() -> None:
    wire = ErrorReply("busy", "Try again.", None).to_wire()
    assert "params" not in wire
    old = parse_server_message({"type": "error", "code": "x", "message": "m", "seq": 1})
    assert old == ErrorReply("x", "m", 1, None)
    # Values the schema would refuse are dropped before sending, never sent.
    sent = ErrorReply("c", "m", None, {"ok": 1, "flag": True, "": "x", "long": "y" * 300}).to_wire()
    assert sent["params"] == {"ok": 1}


@pytest.mark.parametrize(
    "params",
    [{"k": 1.5}, {"k": True}, {"k": "y" * 257}, {"": 1}, {str(i): i for i in range(17)}, [1]],
)
def test_a_reply_with_bad_params_is_refused_as_a_bad_message(params: object) -> None:
    with pytest.raises(BadMessage):
        parse_server_message(
            {"type": "error", "code": "c", "message": "m", "seq": None, "params": params}
        )


async def refused_anew(client: TableClient) -> ErrorReply:
    """The next refusal ``client`` gets (views and lobbies in between are skipped)."""
    async with asyncio.timeout(30):
        while True:
            msg = await client.receive()
            if isinstance(msg, ErrorReply):
                return msg


def table_said_in(lang: str, params: Mapping[str, object] | None, message: str) -> str:
    """What a client speaking ``lang`` shows for a table-level refusal."""
    i18n.set_language(lang)
    return refusal_or_message(params, message)


async def test_the_tables_own_refusals_read_in_each_laptops_language(
    english_after: None,
) -> None:
    server = two_seat_table()
    async with server:
        marie, john = await marie_and_john(server)
        # A chat too long, from each laptop.
        await marie.say("é" * (CHAT_MAX + 5))
        await john.say("e" * (CHAT_MAX + 5))
        long_fr, long_en = await asyncio.gather(refused_anew(marie), refused_anew(john))
        # A message the protocol does not know.
        marie._conn.send({"type": "dance"})  # the client itself never sends one
        unknown = await refused_anew(marie)
        # A third laptop comes too late: the game has started.
        with pytest.raises(JoinError) as caught:
            await TableClient.connect(
                "127.0.0.1", server.port, name="Zoé", app_version=__version__, game="poissonnier"
            )
        for c in (marie, john):
            await c.close()

    assert (long_fr.code, long_fr.params) == (
        "chat_too_long", {"key": "chat_too_long", "most": CHAT_MAX, "n": CHAT_MAX + 5},
    )  # fmt: skip
    assert table_said_in("fr", long_fr.params, long_fr.message) == (
        f"Un message compte au plus {CHAT_MAX} caractères, pas {CHAT_MAX + 5}\u00a0; "
        "rien n'a été envoyé."
    )
    assert table_said_in("en", long_en.params, long_en.message) == long_en.message == (
        f"A chat message holds at most {CHAT_MAX} characters, not {CHAT_MAX + 5}; "
        "nothing was sent."
    )  # fmt: skip
    assert (unknown.code, (unknown.params or {}).get("key")) == ("bad_message", "unknown_type")
    assert table_said_in("fr", unknown.params, unknown.message).startswith(
        "Type de message inconnu\u00a0: 'dance'\u00a0; attendu\u00a0: "
    )
    late = caught.value
    assert (late.code, late.params) == (
        "already_started", {"key": "already_started", "then": "watch_instead"},
    )  # fmt: skip
    assert table_said_in("fr", late.params, late.message) == (
        "Cette partie a déjà commencé. Rejoignez-la comme spectateur pour regarder."
    )
    assert table_said_in("en", late.params, late.message) == late.message == (
        "This game has already started. Join as a spectator to watch."
    )  # fmt: skip
