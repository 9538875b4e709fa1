"""Open deal proposals: who offers what to whom, at what price (RULES.md §4).

Proposals are public (a table is a market), so everyone sees every one. Each
line says what this player can do with it: answer it (``a`` accept, ``x``
decline, ``c`` counter) when it is made to them, withdraw it (``x``) when it
is theirs. The screen acts on the highlighted proposal; clicking one
highlights it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textual.markup import escape
from textual.reactive import reactive
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from poissonnier_tui.games.poissonnier.ui.describe import proposal_text
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.games.poissonnier.ui.widgets.redraw import retitle


class OffersList(OptionList):
    """An :class:`OptionList` with one option per open proposal (id = proposal id)."""

    snapshot: reactive[TableSnapshot | None] = reactive(None, repaint=False)
    """The table; proposals are ``view["proposals"]``."""

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
        if snap is not None:
            for p in snap.proposals:
                options.append(Option(self._prompt(snap, p), id=str(p["id"])))
        if not options:
            options.append(
                Option(
                    "[dim]No open offers. The active player deals while serving, and "
                    "anyone may offer them fish: press [b]d[/b] to propose a deal.[/]",
                    id="none",
                    disabled=True,
                )
            )
        listed = [(o.id, str(o.prompt), o.disabled) for o in options]
        if listed != self._listed:  # rebuilding the list lays the screen out: on change only
            self._listed = listed
            self.set_options(options)
        ids = [o.id for o in options]
        if keep in ids:
            self.highlighted = ids.index(keep)
        elif snap is not None and snap.proposals:
            # Prefer a proposal this player must answer, the newest: what they act on.
            mine = snap.offers_for_me()
            self.highlighted = ids.index(str(mine[-1]["id"])) if mine else 0
        retitle(self, f"Offers [dim]({len(snap.proposals) if snap else 0} open)[/]")

    @staticmethod
    def _prompt(snap: TableSnapshot, p: Mapping[str, Any]) -> str:
        """``#3 Bot 1 offers You … for 2 coins`` (``#4 counter to #3 · …`` when it answers
        another offer, R8) plus what this player may do."""
        if snap.me is not None and snap.answerer(p) == snap.me:
            todo = "[b $text-accent]for you: a accept · x decline · c counter[/]"
        elif snap.me is not None and int(p["proposer"]) == snap.me:
            todo = f"[dim]waiting for {escape(snap.name(snap.answerer(p)))} · x withdraw[/]"
        else:
            todo = f"[dim]waiting for {escape(snap.name(snap.answerer(p)))}[/]"
        head = f"[b]#{p['id']}[/b]"
        if p.get("counters") is not None:
            head += f" [$text-warning]counter to #{p['counters']}[/] ·"
        return f"{head} {proposal_text(snap, p)}\n   {todo}"

    @property
    def selected_proposal(self) -> Mapping[str, Any] | None:
        """The highlighted open proposal, if any."""
        option = self.highlighted_option
        if self.snapshot is None or option is None or option.id in (None, "none"):
            return None
        return self.snapshot.proposal(int(str(option.id)))
