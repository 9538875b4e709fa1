"""Time to deal (net/drafts.py) in the real app: a person drafts an offer on a bot's turn.

Solo, one medium bot at its real solo pace (0.8 s before each move), the
default draft bound (20 s). The app's autoplay plays the person until the
bot is asked for the first move of a serve turn while the person has fish
in a crate. That first decision is held by a gate the test owns (a
:class:`net.thinking.Thinker` wrapped around the table's), so the person's
``d`` (offer fish to the active player, RULES.md §4) is pressed while the
bot has not yet acted this turn: no race, no retry. Once the table has
heard the draft the gate opens, and from then on only the draft holds the
bot (``net.turns``: a decision made while someone drafts is dropped, and the
bot waits for the draft to clear). The person takes a real 10 s before
sending: the table has not moved (same turn, same active seat, same
revision); the offer reaches the bot, which answers it within its turn with
a deal, a counter (its price), or a decline with its reason (and a price
where it names one), as the offers pane shows.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from pilot import until
from textual.widgets import Input

from net.drafts import DraftRules
from net.game import Agent, Wire
from net.thinking import Question, Thinker
from poissonnier_tui.games.poissonnier.ui.reasons import reason_label
from poissonnier_tui.games.poissonnier.ui.screens.deal_dialog import DealDialog
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.games.poissonnier.ui.widgets.offers import OffersList
from poissonnier_tui.games.poissonnier.ui.widgets.status_line import StatusLine
from poissonnier_tui.shell.app import PoissonnierApp
from poissonnier_tui.shell.session import SoloSession

TAKES = 10.0
"""The person's time drafting, in seconds (the issue's 10 s, real)."""
DRAFTS = DraftRules()
"""The table's draft bound, the default 20 s: the person sends well within it."""
ME, BOT = 0, 1
"""Solo seats: the person first, then the bot."""


class Gate:
    """Wraps a table's thinker: the bot's first decision of a serve turn on which the
    person has fish in a crate (and no offer is open) waits until the test opens the gate.

    Attributes:
        asked: set once that decision is held: the bot is active and has not acted.
        turn: the turn number of the held decision.
    """

    def __init__(self, inner: Thinker, on_hold: Callable[[], None]) -> None:
        self._inner = inner
        self._on_hold = on_hold
        self.asked = asyncio.Event()
        self.release = asyncio.Event()
        self.turn: int | None = None

    def _holds(self, view: Wire) -> bool:
        return (
            not self.asked.is_set()
            and view["phase"] == "serve"
            and view["active"] == view["seat"] == BOT
            and any(view["seats"][ME]["crates"])
            and not view["proposals"]
        )

    async def think(self, agent: Agent, question: Question) -> Wire | None:
        """Hold the one decision :meth:`_holds` picks, then think as the table would."""
        view, _legal = question.unpack()
        if self._holds(view):
            self.turn = int(view["turn"])
            self._on_hold()  # same loop as the table: before any other move of ours
            self.asked.set()
            await asyncio.wait_for(self.release.wait(), 60)
        return await self._inner.think(agent, question)

    def forget(self, agents: Iterable[Agent]) -> None:
        """As the wrapped thinker."""
        self._inner.forget(agents)


def answer_to(view: dict[str, Any], pid: int) -> tuple[dict[str, Any], bool] | None:
    """The log event answering offer ``pid`` (a ``deal``, a ``decline``, or a counter's
    ``propose``), and whether in the turn it was made in (no turn began, nor ended,
    between the offer and its answer); ``None`` while it is open."""
    log = view["log"]
    made = next(
        (i for i, e in enumerate(log) if e["t"] == "propose" and e["proposal"]["id"] == pid), None
    )
    if made is None:
        return None
    for i, event in enumerate(log[made + 1 :], made + 1):
        if (
            (event["t"] == "deal" and event["proposal"]["id"] == pid)
            or (event["t"] == "decline" and event["proposal"] == pid)
            or (event["t"] == "propose" and event.get("counter") == pid)
        ):
            between = {e["t"] for e in log[made + 1 : i]}
            return event, not between & {"turn", "end_turn"}
    return None


async def test_a_person_drafts_an_offer_on_a_bots_turn_and_the_bot_answers_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    panes: list[str] = []  # every text the offers pane showed, as it was rebuilt
    rebuild = OffersList.watch_snapshot

    def spy(self: OffersList, old: TableSnapshot | None, snap: TableSnapshot | None) -> None:
        rebuild(self, old, snap)
        panes.append(" ".join(str(self.get_option_at_index(i).prompt)
                              for i in range(self.option_count)))  # fmt: skip

    monkeypatch.setattr(OffersList, "watch_snapshot", spy)
    session = SoloSession(bots=1, seed=4, autoplay=True, name="Ana", drafts=DRAFTS)
    app = PoissonnierApp(session)
    async with app.run_test(size=(160, 50)) as pilot:
        await until(pilot, lambda: app.link is not None and app.link.server is not None, 30)
        assert app.link is not None and app.link.server is not None
        server = app.link.server
        keeper = server._keeper  # the table's own hook: where its bots think

        def stop_autoplay() -> None:
            app.autoplay = False

        gate = Gate(keeper._thinker, stop_autoplay)
        keeper._thinker = gate
        await until(pilot, gate.asked.is_set, 180)  # a bot's serve turn, before its first move

        await until(pilot, lambda: app.snapshot is not None
                    and app.snapshot.view["turn"] == gate.turn
                    and app.snapshot.active == BOT and app.screen is app._table)  # fmt: skip
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, DealDialog) and ME in app.drafting)
        snap = app.snapshot
        assert snap is not None and snap.me == ME
        turn = snap.view["turn"]
        assert (turn, snap.active, snap.phase) == (gate.turn, BOT, "serve")
        rev = server.rev
        status = app._table.query_one(StatusLine) if app._table else None
        assert status is not None and "You are preparing an offer" in status.draft_note()
        gate.release.set()  # from now on only the draft holds the bot

        await pilot.pause(TAKES)  # the person takes their time (the one fixed wait)
        now = app.snapshot
        assert now is not None and isinstance(app.screen, DealDialog)
        assert ME in app.drafting  # still within the 20 s bound
        assert (now.view["turn"], now.active, now.phase) == (turn, BOT, "serve")
        assert server.rev == rev  # the bot made no move: its turn has not ended

        dialog = app.screen
        crate = next(k for k, c in enumerate(now.seat(ME)["crates"]) if c)
        dialog.query_one(f"#crate-{crate}", Input).value = "1"
        dialog.query_one("#coins", Input).value = "1"
        await pilot.press("ctrl+s")

        def mine() -> int | None:  # the offer as the log shows it: views may be skipped
            s = app.snapshot
            ids = [
                e["proposal"]["id"]
                for e in (s.view["log"] if s else [])
                if e["t"] == "propose" and e["seat"] == ME
            ]
            return ids[-1] if ids else None

        await until(pilot, lambda: mine() is not None, 10)  # the offer arrived
        pid = mine()
        assert pid is not None, app.last_error
        made = app.snapshot
        assert made is not None and made.view["turn"] == turn
        await until(pilot, lambda: app.snapshot is not None
                    and answer_to(app.snapshot.view, pid) is not None, 20)  # fmt: skip
        answered = app.snapshot
        assert answered is not None
        said = answer_to(answered.view, pid)
        assert said is not None
        event, in_turn = said
        assert in_turn, event  # answered within the bot's turn
        assert event["seat"] == BOT

        expected: list[str] = []  # what the offers pane must have shown of the answer
        if event["t"] == "decline":  # a bot's no always says why (ui/reasons.py)
            assert event.get("reason") is not None, event
            expected.append(reason_label(event["reason"]))
            if event.get("price") is not None:
                expected.append(f"would take {event['price']} coin")
        elif event["t"] == "propose":  # a counter: the bot names its price
            assert int(event["proposal"]["proposer"]) == BOT and event["proposal"]["coins"] >= 0
            expected.append(f"counter to #{pid}")
        else:
            assert event["t"] == "deal"
            expected.append(f"deal #{pid}")
        # Shown at some rebuild of the pane (the bot may have moved on since).
        await until(pilot, lambda: all(any(t in pane for pane in panes) for t in expected))
        assert ME not in app.drafting  # the offer ended the draft
