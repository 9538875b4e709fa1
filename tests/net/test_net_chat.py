"""Table chat over real loopback TCP (net/chat.py): relayed, checked, rate-limited, logged."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_net_server import Watch, join, serving

from net.chat import CHAT_BURST, CHAT_MAX, ChatPolicy, Said, clean_chat
from net.messages import ErrorReply
from net.recorder import TableRecorder
from net.schema import BadMessage
from net.tablelog import read_log


async def said(watch: Watch, text: str) -> list[Said]:
    """Every ``said`` ``watch`` receives up to and including the one saying ``text``."""
    heard: list[Said] = []
    while True:
        msg = await watch.until(lambda m: isinstance(m, Said))
        heard.append(msg)
        if msg.text == text:
            return heard


async def refused(watch: Watch) -> ErrorReply:
    msg = await watch.until(lambda m: isinstance(m, ErrorReply))
    assert isinstance(msg, ErrorReply)
    return msg


def test_clean_chat_keeps_text_and_refuses_controls() -> None:
    assert clean_chat("  how much\tfor\nthe  bass ?  ") == "how much for the bass ?"
    assert clean_chat("Combien\u00a0?") == "Combien\u00a0?"
    assert clean_chat("a\u2800b\u3164 c") == "a b c"  # letters that draw nothing: spaces
    for bad in ("\x1b[2Jgone", "a\u202eb", "\x00", "   ", "\n", "\u3164", "\u2800 \u2800"):
        with pytest.raises(BadMessage) as info:
            clean_chat(bad)
        assert info.value.code == "bad_chat"
    with pytest.raises(BadMessage) as info:
        clean_chat("x" * (CHAT_MAX + 1))
    assert info.value.code == "chat_too_long"
    assert clean_chat("x" * CHAT_MAX) == "x" * CHAT_MAX


async def test_two_players_and_a_spectator_chat_and_bad_senders_change_nothing(
    tmp_path: Path,
) -> None:
    now = [0.0]
    recorder = TableRecorder(lambda: tmp_path / "chat.plog")
    async with serving(auto_start=True, clock=lambda: now[0]) as server:
        recorder.attach(server)
        spec, spec_w = await join(server, "Eve", role="spectator")
        ana, ana_w = await join(server, "Ana")
        bob, bob_w = await join(server, "Bob")
        for watch in (ana_w, bob_w, spec_w):
            await watch.view()
        await ana.say("How much for the bass?")
        await bob.say("3 coins!")
        await spec.say("Too expensive!")
        for watch in (ana_w, bob_w, spec_w):
            heard = await said(watch, "Too expensive!")
            assert [(s.seat, s.name, s.text) for s in heard] == [
                (0, "Ana", "How much for the bass?"),
                (1, "Bob", "3 coins!"),
                (None, "Eve", "Too expensive!"),
            ]

        # Bob sends every kind of bad message: each gets an error, none is relayed.
        await bob.say("x" * (CHAT_MAX + 1))
        assert (await refused(bob_w)).code == "chat_too_long"
        await bob.say("\x1b[2J\x07ring")
        assert (await refused(bob_w)).code == "bad_chat"
        now[0] += 10.0  # Bob's budget is full again: CHAT_BURST messages pass at once
        for k in range(CHAT_BURST):
            await bob.say(f"flood {k}")
        await bob.say("one too many")
        assert (await refused(bob_w)).code == "slow_down"
        now[0] += 10.0  # the budget refills
        await ana.say("Deal!")
        for watch in (ana_w, spec_w):
            heard = await said(watch, "Deal!")
            assert [s.text for s in heard] == [f"flood {k}" for k in range(CHAT_BURST)] + ["Deal!"]
        # Binary where text belongs: the frame is refused and the sender dropped.
        bob._send({"type": "chat", "text": b"\x00\xff binary"})
        assert (await refused(bob_w)).code == "bad_frame"
        await ana.say("Still here")
        assert [s.text for s in await said(spec_w, "Still here")] == ["Still here"]
        assert not any(isinstance(m, ErrorReply) for m in ana_w.seen + spec_w.seen)
        rev = server.rev
        for client in (spec, ana, bob):
            await client.close()
    log = read_log(tmp_path / "chat.plog")
    assert [(c.seat, c.name, c.text) for c in log.chats] == [
        (0, "Ana", "How much for the bass?"),
        (1, "Bob", "3 coins!"),
        (None, "Eve", "Too expensive!"),
        *[(1, "Bob", f"flood {k}") for k in range(CHAT_BURST)],
        (0, "Ana", "Deal!"),
        (0, "Ana", "Still here"),
    ]
    assert all(c.after == rev for c in log.chats)
    assert log.actions == []  # the chat is not game state


async def test_players_need_not_hear_spectators() -> None:
    async with serving(auto_start=True, chat=ChatPolicy(spectators_to_players=False)) as server:
        spec, spec_w = await join(server, "Eve", role="spectator")
        ana, ana_w = await join(server, "Ana")
        bob, _ = await join(server, "Bob")
        await spec.say("Bob has the bass!")
        await ana.say("Hello")
        assert [s.text for s in await said(ana_w, "Hello")] == ["Hello"]
        assert [s.text for s in await said(spec_w, "Hello")] == ["Bob has the bass!", "Hello"]
        for client in (spec, ana, bob):
            await client.close()
