"""Time to deal over real loopback TCP (net/drafts.py): a person drafting holds the bots.

The toy game "count to N" with cheers, three seats: Ana (seat 0, first to
play), a bot (seat 1) and Bob (seat 2), who may cheer out of turn (a move
nobody must answer, like an offer). Bob drafts during Ana's turn; once Ana
has moved it is the bot's turn, and the bot is not asked while Bob drafts.
The draft ends with Bob's move, a ``draft off`` or its bound; every
connection is told.
"""

from __future__ import annotations

import asyncio
from contextlib import AbstractAsyncContextManager
from typing import Any

from test_net_server import Watch, join, serving

from net.drafts import Drafting, DraftRules
from net.game import Wire
from net.messages import Ack, ErrorReply, Said, ServerMessage, View
from net.server import TableServer


class TurnBot:
    """Adds 1 on its turn; never cheers."""

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        return {"add": 1} if {"add": 1} in legal else None


async def drafting(watch: Watch, on: bool) -> Drafting:
    msg = await watch.until(
        lambda m: isinstance(m, Drafting) and (m.ends_in_ms is not None) == on, timeout=5.0
    )
    assert isinstance(msg, Drafting)
    return msg


def first(seen: list[ServerMessage], test: Any) -> int:
    return next(i for i, m in enumerate(seen) if test(m))


def three_seats(drafts: DraftRules, target: int = 10) -> AbstractAsyncContextManager[TableServer]:
    """Ana (seat 0), a :class:`TurnBot` (seat 1) and Bob (seat 2), who may cheer out of
    turn, counting to ``target``; started as soon as the people sit down."""
    return serving(
        seats=3,
        bots={1: TurnBot()},
        auto_start=True,
        options={"cheers": True, "target": target},
        bot_delay=0.0,
        drafts=drafts,
    )


def bot_moved(m: ServerMessage) -> bool:
    return isinstance(m, View) and m.view["total"] >= 2


def draft_over(m: ServerMessage) -> bool:
    return isinstance(m, Drafting) and m.ends_in_ms is None


async def test_the_bot_waits_while_a_person_drafts_then_answers_after_the_move() -> None:
    async with three_seats(DraftRules(seconds=30.0, per_wait=2)) as server:
        spec, spec_w = await join(server, "Eve", role="spectator")
        ana, ana_w = await join(server, "Ana")
        bob, bob_w = await join(server, "Bob")
        await bob_w.view()
        await bob.draft(True)
        shown = await drafting(spec_w, True)
        assert shown.seat == 2 and 25_000 < (shown.ends_in_ms or 0) <= 30_000
        await drafting(ana_w, True)
        seq = await ana.send_action({"add": 1})  # now it is the bot's turn
        await ana_w.until(lambda m: isinstance(m, Ack) and m.seq == seq)
        await asyncio.sleep(0.5)  # Bob takes his time; unheld, the bot would move in ms
        assert server.rev == 1  # the bot's turn has not moved on
        seq = await bob.send_action({"cheer": 1})
        await bob_w.until(lambda m: isinstance(m, Ack) and m.seq == seq)
        await drafting(spec_w, False)  # Bob's move ends his draft
        await spec_w.until(bot_moved, timeout=5.0)
        seen = spec_w.seen
        cheered = first(seen, lambda m: isinstance(m, View) and m.view["cheers"])
        assert max(cheered, first(seen, draft_over)) < first(seen, bot_moved)
        await spec.draft(True)
        assert (await spec_w.until(lambda m: isinstance(m, ErrorReply))).code == "not_a_player"
        for client in (spec, ana, bob):
            await client.close()


async def test_a_draft_ends_by_its_bound_and_a_seat_drafts_only_so_often() -> None:
    async with three_seats(DraftRules(seconds=0.3, per_wait=1), target=50) as server:
        ana, ana_w = await join(server, "Ana")
        bob, bob_w = await join(server, "Bob")
        await bob_w.view()
        await bob.draft(True)
        await drafting(ana_w, True)
        await ana.send_action({"add": 1})
        await drafting(ana_w, False)  # nobody ended it: its bound did
        await ana_w.until(bot_moved, timeout=5.0)
        assert first(ana_w.seen, draft_over) < first(ana_w.seen, bot_moved)
        # Now it is Bob's turn (a new wait): one draft, then no more.
        await bob.draft(True)
        await drafting(bob_w, True)
        await bob.draft(False)
        await drafting(bob_w, False)
        await bob.draft(True)
        assert (await bob_w.until(lambda m: isinstance(m, ErrorReply))).code == "draft_limit"
        assert server.rev == 2
        for client in (ana, bob):
            await client.close()


async def test_a_late_spectator_and_a_returning_player_hear_the_drafts_running() -> None:
    async with three_seats(DraftRules(seconds=30.0, per_wait=3)) as server:
        ana, ana_w = await join(server, "Ana")
        bob, bob_w = await join(server, "Bob")
        await bob_w.view()
        await bob.draft(True)
        told = await drafting(ana_w, True)
        # Eve arrives while Bob drafts: she is told who drafts and for how long.
        eve, eve_w = await join(server, "Eve", role="spectator")
        heard = await drafting(eve_w, True)
        assert heard.seat == 2 and 20_000 < (heard.ends_in_ms or 0) <= (told.ends_in_ms or 0)
        assert any(isinstance(m, View) for m in eve_w.seen)  # after the game, the draft
        # Ana drops and comes back with her seat's token: she hears it again.
        token = ana.token
        await ana.close()
        ana, ana_w = await join(server, "Ana", token=token)
        again = await drafting(ana_w, True)
        assert again.seat == 2 and 20_000 < (again.ends_in_ms or 0) <= (heard.ends_in_ms or 0)
        # Once the draft is over, a newcomer hears of none.
        await bob.draft(False)
        await drafting(ana_w, False)
        zed, zed_w = await join(server, "Zed", role="spectator")
        await zed_w.view()
        await ana.say("hello")  # a frame sent after whatever the join sent
        await zed_w.until(lambda m: isinstance(m, Said))
        assert not any(isinstance(m, Drafting) for m in zed_w.seen)
        for client in (ana, bob, eve, zed):
            await client.close()


async def test_the_count_of_drafts_starts_again_when_the_table_waits_on_someone_else() -> None:
    """Waiting on the same seats again later (the next round) is a new wait: its drafts
    are counted afresh, so a person may draft on every turn of a bot, not 3 times a game."""
    async with three_seats(DraftRules(seconds=30.0, per_wait=1), target=50) as server:
        ana, _ana_w = await join(server, "Ana")
        bob, bob_w = await join(server, "Bob")
        await bob_w.view()
        await bob.draft(True)  # on Ana's turn: the one draft of this wait
        await drafting(bob_w, True)
        await bob.draft(False)
        await drafting(bob_w, False)
        await bob.draft(True)
        assert (await bob_w.until(lambda m: isinstance(m, ErrorReply))).code == "draft_limit"
        await ana.send_action({"add": 1})  # then the bot adds, then Bob's turn
        await bob_w.until(lambda m: isinstance(m, View) and m.view["total"] == 2)
        await bob.send_action({"add": 1})  # Ana's turn again: the same seat waited on
        await bob_w.until(lambda m: isinstance(m, View) and m.view["total"] == 3)
        await bob.draft(True)
        shown = await drafting(bob_w, True)
        assert shown.seat == 2 and server.rev == 3
        for client in (ana, bob):
            await client.close()


async def test_a_draft_started_again_counts_so_a_flood_cannot_hold_the_bots() -> None:
    """``on`` after ``on`` restarts the bound as a new draft, counted (net/drafts.py): a
    client repeating it gets ``draft_limit`` once its drafts are used, the others hear
    only the granted ones, the last ends by its bound and the bot plays on."""
    per_wait, tries = 2, 8
    async with three_seats(DraftRules(seconds=2.0, per_wait=per_wait), target=50) as server:
        ana, ana_w = await join(server, "Ana")
        bob, bob_w = await join(server, "Bob")
        await bob_w.view()
        for _ in range(tries):  # on Ana's turn: one wait
            await bob.draft(True)
        for _ in range(tries - per_wait):
            refused = await bob_w.until(lambda m: isinstance(m, ErrorReply), timeout=5.0)
            assert refused.code == "draft_limit"
        await drafting(ana_w, False)  # the last granted draft ends by its bound
        heard = [m for m in ana_w.seen if isinstance(m, Drafting)]
        assert [m.ends_in_ms is not None for m in heard] == [True] * per_wait + [False]
        assert server.rev == 0  # none of it was a move
        await ana.send_action({"add": 1})
        await ana_w.until(bot_moved, timeout=5.0)  # nothing holds the bot any more
        for client in (ana, bob):
            await client.close()


def test_games_say_when_a_draft_may_start() -> None:
    """``may_draft``: Le Poissonnier takes drafts in the serve step only, where deals are
    made (§4), not in the fill step, whose moves others do not see (R15); Go Fish, which
    has no deals, never; a game that says nothing (the toy game here) always."""
    from net.drafts import may_draft
    from poissonnier_tui.games.gofish.match import GoFishGame
    from poissonnier_tui.games.poissonnier.match import PoissonnierGame

    match = PoissonnierGame().new_match(3, 2, {})
    assert match.view(0)["phase"] == "fill"
    assert not may_draft(match, 0) and not may_draft(match, 1)
    for seat in (0, 1):
        match.apply(seat, {"type": "ready"})
    assert match.view(0)["phase"] == "serve"
    assert may_draft(match, 0) and may_draft(match, 1)
    assert not may_draft(GoFishGame().new_match(3, 2, {}), 0)
    assert may_draft(object(), 0)
