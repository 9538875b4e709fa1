"""The offers pane: the one calm place for deals (RULES.md §4, R8, R25).

Proposals are public (a table is a market), so everyone sees every one. Each
open offer is one entry: who offers what to whom at what price, its time to
answer counting down (the same on every screen, ``net/answers.py``), the
thread of its negotiation this turn when there is one (``#7 Ana 1 coin ✗ →
#8 Bot 1 3 coins → #9 …``, with what each side last said: the price, and a
decline's reason and price when the event carries them), and what this player
can do with it: answer it (``a`` accept, ``x`` decline, ``c`` counter) when it
is made to them, withdraw it (``x``) when it is theirs. The offer the answer
keys act on is marked ``▶``. Negotiations settled this turn are folded into
one line each at the bottom. New offers come here, never as toasts over the
board.

The screen acts on the highlighted proposal; clicking one highlights it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from typing import Any

from textual.markup import escape
from textual.reactive import reactive
from textual.widgets import OptionList
from textual.widgets.option_list import Option, OptionDoesNotExist

from poissonnier_tui.games.poissonnier.ui.describe import proposal_text
from poissonnier_tui.games.poissonnier.ui.reasons import reason_label
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.games.poissonnier.ui.threads import Negotiation, Step, negotiations
from poissonnier_tui.games.poissonnier.ui.widgets.redraw import retitle
from poissonnier_tui.i18n import _, ngettext

THREAD_STEPS = 4
"""Steps of a thread shown before an offer; older ones are elided (``…``)."""
HURRY_SECONDS = 5
"""Seconds left under which an offer's countdown turns to the warning colour."""
SETTLED_ID = "settled"
"""Option id of the folded line of negotiations settled this turn."""


def coins(n: int) -> str:
    """``"1 coin"``, ``"3 coins"`` in the player's language."""
    return ngettext("{n} coin", "{n} coins", n).format(n=n)


def step_text(snap: TableSnapshot, step: Step) -> str:
    """One step of a thread, short: ``#7 Ana 1 coin``, ``✗ Bot 1: too little, 3 coins``."""
    name = escape(snap.who(step.seat)) if step.seat is not None else ""
    if step.kind == "offer":
        return f"#{step.offer} {name} {coins(step.coins)}"
    if step.kind == "decline":
        said = [escape(reason_label(step.reason))] if step.reason else []  # "too cheap"
        if step.price is not None:
            said.append(_("would take {price}").format(price=coins(step.price)))
        why = ", ".join(said)
        if step.seat == snap.me:  # its own sentences: "You" takes another verb form
            return _("✗ You declined: {why}").format(why=why) if said else _("✗ You declined")
        if said:
            return _("✗ {name} declined: {why}").format(name=name, why=why)
        return _("✗ {name} declined").format(name=name)
    if step.kind == "withdraw":
        if step.by_table:
            return _("↩ #{id} withdrawn (no answer in time)").format(id=step.offer)
        return _("↩ #{id} withdrawn").format(id=step.offer)
    if step.kind == "lapse":
        return _("#{id} lapsed").format(id=step.offer)
    return _("✓ deal #{id}").format(id=step.offer)


def thread_text(snap: TableSnapshot, steps: list[Step]) -> str:
    """Steps joined by arrows, the oldest beyond :data:`THREAD_STEPS` elided."""
    shown = [step_text(snap, s) for s in steps[-THREAD_STEPS:]]
    return ("… → " if len(steps) > THREAD_STEPS else "") + " → ".join(shown)


def settled_text(snap: TableSnapshot, talk: Negotiation) -> str:
    """A settled negotiation folded into one line: who with whom, how it ended."""
    offers = sum(1 for s in talk.steps if s.kind == "offer")
    last = talk.steps[-1]
    return _("{buyer} ↔ {seller}: {last} ({offers})").format(
        buyer=escape(snap.who(snap.active)),
        seller=escape(snap.name(talk.seller)),
        last=step_text(snap, last),
        offers=ngettext("{n} offer", "{n} offers", offers).format(n=offers),
    )


class OffersList(OptionList):
    """An :class:`OptionList` with one option per open proposal (id = proposal id), and
    one last, disabled option folding the negotiations settled this turn."""

    snapshot: reactive[TableSnapshot | None] = reactive(None, repaint=False)
    """The table; proposals are ``view["proposals"]``, threads come from its log."""
    due: reactive[dict[int, float]] = reactive(dict)
    """Open offer id -> ``clock()`` time at which the table withdraws it (R25)."""
    answering: reactive[int | None] = reactive(None)
    """The offer made to this player that the answer keys act on (marked ``▶``)."""

    clock: Callable[[], float] = staticmethod(time.monotonic)
    """The clock :attr:`due` is read against (a fixed one in snapshot tests)."""

    def on_mount(self) -> None:
        """Count the offers down once a second."""
        self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        if self.due and self.snapshot is not None:
            self._reprompt()

    def watch_due(self) -> None:
        """New deadlines (a new view): the countdowns follow."""
        self._reprompt()

    def watch_answering(self) -> None:
        """The answer keys moved to another offer: the marker follows."""
        self._reprompt()

    def _reprompt(self) -> None:
        """Redraw the open offers' entries in place (the highlight stays)."""
        snap = self.snapshot
        if snap is None or not self.is_attached:
            return
        talks = negotiations(snap.view)
        prompts = {str(p["id"]): self._prompt(snap, p, talks) for p in snap.proposals}
        for pid, prompt in prompts.items():
            try:
                self.replace_option_prompt(pid, prompt)
            except OptionDoesNotExist:
                continue
        if self._listed is not None:  # what the list shows now, so a same view redraws nothing
            self._listed = [
                (oid, prompts.get(oid, text) if oid is not None else text, disabled)
                for oid, text, disabled in self._listed
            ]

    _listed: list[tuple[str | None, str, bool]] | None = None
    """The options listed now (id, prompt, disabled), to rebuild only when they change."""

    def watch_snapshot(self, old: TableSnapshot | None, snap: TableSnapshot | None) -> None:
        """Rebuild the options. A new offer made to this player is highlighted (it is
        what they will answer); else the same proposal stays highlighted if still open."""
        keep = self.highlighted_option.id if self.highlighted_option is not None else None
        new = snap.offers_for_me(since=old) if snap is not None else []
        if new:
            keep = str(new[-1]["id"])
        options: list[Option] = []
        talks = negotiations(snap.view) if snap is not None else []
        if snap is not None:
            for p in snap.proposals:
                options.append(Option(self._prompt(snap, p, talks), id=str(p["id"])))
            settled = [t for t in talks if t.settled and t.steps]
            if settled:
                lines = [_("Settled this turn:")] + [
                    "  " + settled_text(snap, t) for t in settled[-3:]
                ]
                options.append(Option("[dim]" + "\n".join(lines) + "[/]", SETTLED_ID, True))
        if not snap or not snap.proposals:
            options.insert(
                0,
                Option(
                    "[dim]"
                    + _(
                        "No open offers. The active player deals while serving, and "
                        "anyone may offer them fish: press [b]d[/b] to propose a deal."
                    )
                    + "[/]",
                    id="none",
                    disabled=True,
                ),
            )
        listed = [(o.id, str(o.prompt), o.disabled) for o in options]
        if listed != self._listed:  # rebuilding the list lays the screen out: on change only
            self._listed = listed
            self.set_options(options)
        ids = [o.id for o in options]
        if keep in ids and keep not in ("none", SETTLED_ID):
            self.highlighted = ids.index(keep)
        elif snap is not None and snap.proposals:
            # Prefer a proposal this player must answer, the newest: what they act on.
            mine = snap.offers_for_me()
            self.highlighted = ids.index(str(mine[-1]["id"])) if mine else 0
        count = len(snap.proposals) if snap else 0
        retitle(self, _("Offers") + " [dim](" + _("{n} open").format(n=count) + ")[/]")

    def left(self, offer: int) -> int | None:
        """Whole seconds left before the table withdraws ``offer`` (R25), or ``None``."""
        due = self.due.get(offer)
        return None if due is None else max(0, math.ceil(due - self.clock()))

    def _prompt(
        self, snap: TableSnapshot, p: Mapping[str, Any], talks: list[Negotiation]
    ) -> str:
        """``▶ #9 counter to #8 · Bot 1 offers You … for 2 coins  ⏱ 14 s``, then the thread
        of its negotiation, then what this player may do."""
        pid = int(p["id"])
        if snap.me is not None and snap.answerer(p) == snap.me:
            if pid == self.answering:
                todo = "[b $text-accent]" + _("for you: a accept · x decline · c counter") + "[/]"
            else:
                todo = "[$text-accent]" + _("for you: ↑↓ to pick it, then a · x · c") + "[/]"
        elif snap.me is not None and int(p["proposer"]) == snap.me:
            todo = "[dim]" + _("waiting for {name} · x withdraw").format(
                name=escape(snap.name(snap.answerer(p)))
            ) + "[/]"  # fmt: skip
        else:
            todo = "[dim]" + _("waiting for {name}").format(
                name=escape(snap.name(snap.answerer(p)))
            ) + "[/]"  # fmt: skip
        marker = "[b $text-accent]▶[/] " if pid == self.answering else ""
        head = f"{marker}[b]#{pid}[/b]"
        if p.get("counters") is not None:
            head += " [$text-warning]" + _("counter to #{id}").format(id=p["counters"]) + "[/] ·"
        left = self.left(pid)
        clock = ""
        if left is not None:
            style = "b $text-warning" if left <= HURRY_SECONDS else "b"
            clock = f"  [{style}]⏱ " + _("{seconds} s").format(seconds=left) + "[/]"
        lines = [f"{head} {proposal_text(snap, p)}{clock}"]
        talk = next((t for t in talks if pid in t.open), None)
        steps = talk.thread_of(pid) if talk is not None else []
        made = [s for s in steps if s.kind == "offer" and s.offer == pid]
        if len(made) < len(steps):  # something was said before it: the thread leads to it
            earlier = [s for s in steps if s not in made]
            lines.append("   [dim]" + thread_text(snap, earlier + made) + "[/]")
        lines.append("   " + todo)
        return "\n".join(lines)

    @property
    def selected_proposal(self) -> Mapping[str, Any] | None:
        """The highlighted open proposal, if any."""
        option = self.highlighted_option
        if self.snapshot is None or option is None or option.id in (None, "none", SETTLED_ID):
            return None
        return self.snapshot.proposal(int(str(option.id)))

