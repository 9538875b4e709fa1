"""Time to deal (net/drafts.py) in the real app: a person drafts an offer on a bot's turn.

Solo, one medium bot that waits 0.6 s before each move (a bot's serve turn
then lasts a few seconds at most). The app's autoplay plays the person until
the bot serves while the person has fish in a crate; then the person opens
the deal dialog (``d``: offer fish to the active player, RULES.md §4) and
takes their time — several bot moves' worth — before sending. The bot's
turn must not end meanwhile; every screen is told the person is drafting;
the offer reaches the bot, which answers it (accepts, counters with its
price, or declines) within its turn.
"""

from __future__ import annotations

from typing import Any

from pilot import until
from textual.widgets import Input

from poissonnier_tui.games.poissonnier.ui.screens.deal_dialog import DealDialog
from poissonnier_tui.games.poissonnier.ui.widgets.status_line import StatusLine
from poissonnier_tui.shell.app import PoissonnierApp
from poissonnier_tui.shell.session import SoloSession

TAKES = 4.0
"""Seconds the person drafts: more than six of the bot's 0.6 s moves."""


def answer_to(view: dict[str, Any], pid: int) -> str | None:
    """How offer ``pid`` was answered, as the view's log and proposals tell: ``"deal"``,
    ``"decline"``, ``"counter"``, or ``None`` while it is open."""
    for event in view["log"]:
        if event["t"] == "deal" and event["proposal"]["id"] == pid:
            return "deal"
        if event["t"] == "decline" and event["proposal"] == pid:
            return "decline"
    if any(p["counters"] == pid for p in view["proposals"]):
        return "counter"
    return None


async def test_a_person_drafts_an_offer_on_a_bots_turn_and_the_bot_answers_it() -> None:
    session = SoloSession(bots=1, seed=4, bot_delay=0.6, autoplay=True, name="Ana")
    app = PoissonnierApp(session)
    async with app.run_test(size=(160, 50)) as pilot:

        def bot_serving() -> bool:
            snap = app.snapshot
            return (
                snap is not None
                and not snap.over
                and snap.phase == "serve"
                and snap.me is not None
                and snap.active != snap.me
                and any(snap.seat(snap.me)["crates"])
                and not snap.proposals
                and app.screen is app._table
            )

        await until(pilot, bot_serving, 120)
        app.autoplay = False
        snap = app.snapshot
        assert snap is not None and snap.me is not None
        me, bot, turn = snap.me, snap.active, snap.view["turn"]
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, DealDialog))
        await until(pilot, lambda: me in app.drafting)  # the table heard it
        status = app._table.query_one(StatusLine) if app._table else None
        assert status is not None and "You are preparing an offer" in status.draft_note()

        await pilot.pause(TAKES)  # the person takes their time
        now = app.snapshot
        assert now is not None and isinstance(app.screen, DealDialog)
        assert (now.view["turn"], now.active, now.phase) == (turn, bot, "serve")
        assert not any(e["t"] == "end_turn" and e["seat"] == bot for e in now.view["log"][-5:])

        dialog = app.screen
        crate = next(k for k, c in enumerate(now.seat(me)["crates"]) if c)
        dialog.query_one(f"#crate-{crate}", Input).value = "1"
        dialog.query_one("#coins", Input).value = "1"
        await pilot.press("ctrl+s")

        def mine() -> int | None:  # the offer as the log shows it: views may be skipped
            s = app.snapshot
            ids = [
                e["proposal"]["id"]
                for e in (s.view["log"] if s else [])
                if e["t"] == "propose" and e["seat"] == me
            ]
            return ids[-1] if ids else None

        await until(pilot, lambda: mine() is not None, 10)  # the offer arrived
        pid = mine()
        assert pid is not None, app.last_error
        await until(pilot, lambda: app.snapshot is not None
                    and answer_to(app.snapshot.view, pid) is not None, 20)  # fmt: skip
        answered = app.snapshot
        assert answered is not None
        assert answer_to(answered.view, pid) in ("deal", "decline", "counter")
        assert answered.view["turn"] == turn  # answered within the bot's turn
        assert me not in app.drafting  # the offer ended the draft
