"""Time to deal (net/drafts.py) in the real app: a person drafts an offer on a bot's turn.

Solo, one medium bot. The app's autoplay plays the person until the bot
serves while the person has fish in a crate; then the person opens the deal
dialog (``d``: offer fish to the active player, RULES.md §4) and takes 10 s
before sending. The bot's turn must not end meanwhile; every screen is told
the person is drafting; the offer reaches the bot, which answers it (accepts,
counters with its price, or declines, with its reason when it gives one)
within its turn.

The bot plays :data:`SCALE` times the speed of a real one (its delay before
each move, 0.8 s in solo, is a table option), and the person's 10 s are
scaled alike: still a dozen of the bot's moves. The server's real timers
hold the bot, within the real draft bound (20 s), kept unscaled so that a
loaded machine cannot make the draft run out before the person sends.
"""

from __future__ import annotations

import re
from typing import Any

from pilot import until
from textual.widgets import Input

from net.drafts import DraftRules
from poissonnier_tui.games.poissonnier.ui.screens.deal_dialog import DealDialog
from poissonnier_tui.games.poissonnier.ui.widgets.status_line import StatusLine
from poissonnier_tui.shell.app import PoissonnierApp
from poissonnier_tui.shell.session import SoloSession

SCALE = 0.25
"""How much faster than at a real table the bot plays and the person drafts."""
BOT_DELAY = 0.8 * SCALE
"""The bot's pause before each move (solo: 0.8 s)."""
TAKES = 10.0 * SCALE
"""The person's 10 s of drafting: twelve of the bot's moves' worth."""
DRAFTS = DraftRules()
"""The table's draft bound, the default 20 s: the person sends well within it."""


def answer_to(view: dict[str, Any], pid: int) -> tuple[str, bool] | None:
    """How offer ``pid`` was answered, as the view's log tells (``"deal"``, ``"decline"``,
    ``"counter"``), and whether in the turn it was made in (no turn began, nor ended,
    between the offer and its answer); ``None`` while it is open."""
    log = view["log"]
    made = next(
        (i for i, e in enumerate(log) if e["t"] == "propose" and e["proposal"]["id"] == pid), None
    )
    if made is None:
        return None
    for i, event in enumerate(log[made + 1 :], made + 1):
        said = None
        if event["t"] == "deal" and event["proposal"]["id"] == pid:
            said = "deal"
        elif event["t"] == "decline" and event["proposal"] == pid:
            said = "decline"
        elif event["t"] == "propose" and event.get("counter") == pid:
            said = "counter"
        if said is not None:
            between = {e["t"] for e in log[made + 1 : i]}
            return said, not between & {"turn", "end_turn"}
    return None


async def test_a_person_drafts_an_offer_on_a_bots_turn_and_the_bot_answers_it() -> None:
    session = SoloSession(
        bots=1, seed=4, bot_delay=BOT_DELAY, autoplay=True, name="Ana", drafts=DRAFTS
    )
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

        async def open_dialog_on_a_bots_turn() -> tuple[int, int, int]:
            """Press ``d`` on a bot's serve turn until the table hears the draft while that
            turn still runs (a bot that moves every 0.2 s may end it before the dialog is
            up): ``(me, the bot, the turn)``. At most a few tries."""
            for _try in range(5):
                await until(pilot, bot_serving, 120)
                app.autoplay = False
                snap = app.snapshot
                assert snap is not None and snap.me is not None
                me, bot, turn = snap.me, snap.active, snap.view["turn"]
                await pilot.press("d")
                await until(pilot, lambda: isinstance(app.screen, DealDialog) or not bot_serving())
                if isinstance(app.screen, DealDialog):
                    await until(pilot, lambda me=me: me in app.drafting)  # the table heard it
                    now = app.snapshot
                    if now is not None and (now.view["turn"], now.active) == (turn, bot):
                        return me, bot, turn
                    app.screen.dismiss(None)  # too late: the turn moved on meanwhile
                    await until(pilot, lambda me=me: me not in app.drafting)
                app.autoplay = True
                app.autoplay_step()
            raise AssertionError("never opened the deal dialog on a bot's turn")

        me, bot, turn = await open_dialog_on_a_bots_turn()
        status = app._table.query_one(StatusLine) if app._table else None
        assert status is not None and "You are preparing an offer" in status.draft_note()
        left = re.search(r"preparing an offer… (\d+) s", status.draft_note())
        assert left is not None and 0 < int(left.group(1)) <= DRAFTS.seconds  # the bound, shown

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
        said = answer_to(answered.view, pid)
        assert said is not None and said[0] in ("deal", "decline", "counter")
        assert said[1], said  # answered within the bot's turn
        if said[0] == "counter":  # the bot names its price
            counter = next(
                e["proposal"] for e in answered.view["log"]
                if e["t"] == "propose" and e.get("counter") == pid
            )  # fmt: skip
            assert int(counter["proposer"]) == bot and counter["coins"] >= 0
        assert me not in app.drafting  # the offer ended the draft
