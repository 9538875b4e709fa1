"""No draft holds the fill step (docs/RULES.md R6, R15, §4; net/drafts.py) over real
loopback TCP.

A two-seat table of Le Poissonnier with the table time limit of ``host
--fill-timeout`` (``hosting.tables.time_limit``: R6 runs on the whole fill
step) and a long draft bound. Ana (seat 0) asks for a draft as soon as the fill
step begins and sends nothing else. Drafts prepare deals, made in the serve step:
in the fill step, whose moves the other seats do not see, the table refuses it
(a draft's end, told to everyone, would tell them of her moves), so the bot
(seat 1) is not held. The step ends at its R6 deadline, the one every view
counted down, both seats declared ready; in the serve step her draft is taken.
"""

from __future__ import annotations

from collections.abc import Callable

from haggling import QUICK
from test_net_answers import Clocked

from net.client import TableClient
from net.drafts import Drafting, DraftRules
from net.messages import ErrorReply, View
from net.server import TableServer
from poissonnier_tui import __version__
from poissonnier_tui.games.poissonnier.bots import make_bot
from poissonnier_tui.games.poissonnier.match import PoissonnierGame
from poissonnier_tui.hosting.tables import time_limit

R6 = 1.5
"""The table's fill-step time limit, in seconds."""
DRAFT = 30.0
"""The draft bound, far beyond R6: a step ending near R6 was not held by the draft."""
AGREE = 0.25
"""Slack, in seconds, between the deadline a view shows and when the step ended."""


def in_phase(phase: str) -> Callable[[object], bool]:
    """A test for a view in ``phase``."""
    return lambda m: isinstance(m, View) and m.view["phase"] == phase


async def test_no_draft_in_the_fill_step_and_r6_ends_it() -> None:
    server = TableServer(
        PoissonnierGame(), name="R6", seats=2, seed=3, app_version=__version__,
        bots={1: make_bot("medium", 4)}, auto_start=True, absent_grace=None, bot_delay=0.0,
        turn_timeout=time_limit(R6), drafts=DraftRules(seconds=DRAFT), timing=QUICK,
    )  # fmt: skip
    async with server:
        client = await TableClient.connect(
            "127.0.0.1", server.port, name="Ana", app_version=__version__, game="poissonnier"
        )
        ana = Clocked(client)
        fill = await ana.until(in_phase("fill"))
        assert isinstance(fill, View) and fill.ends_in_ms is not None
        assert 0 < fill.ends_in_ms <= R6 * 1000
        due = ana.when[-1] + fill.ends_in_ms / 1000  # the R6 deadline, as Ana was shown it
        await client.draft(True)
        refused = await ana.until(lambda m: isinstance(m, ErrorReply))
        assert isinstance(refused, ErrorReply)
        assert (refused.code, refused.params) == ("not_now", {"key": "drafts_not_now"})

        serve = await ana.until(in_phase("serve"), timeout=10.0)
        ended = ana.when[-1]
        assert isinstance(serve, View)
        assert due - AGREE <= ended < due + 5.0  # at R6
        assert not any(isinstance(m, Drafting) for m in ana.seen)  # nobody was told of one
        readies = [e["seat"] for e in serve.view["log"] if e["t"] == "ready"]
        assert 0 in readies  # Ana was declared ready by the table (R6)

        await client.draft(True)  # in the serve step, where deals are made, it is taken
        told = await ana.until(lambda m: isinstance(m, Drafting) and m.ends_in_ms is not None)
        assert isinstance(told, Drafting) and told.seat == 0
        await client.close()
