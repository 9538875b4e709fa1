"""The results screen: who won, the final tallies, and how the winner was found.

RULES.md §8: with 2 players, a strict majority in 2 of coins, clients and
stamps wins (R14 fallback); with 3–5, successive eliminations. The result
records every step with its reason; this screen lists them in order, so the
table can check the verdict. A tie at the last step is a shared victory:
« montez une poissonnerie ensemble ».
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.markup import escape
from textual.widgets import DataTable, Static

from poissonnier_tui.games.poissonnier.rules.scoring import explain
from poissonnier_tui.games.poissonnier.ui.describe import (
    and_list,
    names_list,
    step_name,
    step_reason,
)
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.i18n import N_, _, ngettext
from poissonnier_tui.shell.screens.fields import translate_bindings
from poissonnier_tui.shell.screens.footer import KeyBar
from poissonnier_tui.shell.screens.rematch_panel import RematchPanel, RematchScreen
from poissonnier_tui.shell.screens.title_bar import TitleBar


@dataclass(frozen=True, slots=True)
class StepLine:
    """One line of "How the winner was found": the step's name and reason in the current
    language (escaped markup) and the seat it eliminated, if any."""

    name: str
    eliminated: int | None
    why: str


def numbered_steps(snap: TableSnapshot, result: Mapping[str, Any]) -> list[StepLine]:
    """The result's steps as the screen lists them (RULES.md §8): with 3 to 5 players,
    numbered 1 to 4 without a gap, step 2 saying why it does not apply when the
    result skipped it, and the 2-player rule numbered 2 when it decided.

    The steps are read as codes and parameters (``scoring.explain``) and worded in
    the current language; a result whose steps are not those §8 gives for its
    scores (not one this program wrote) is shown as it was recorded.

    Args:
        snap: the table (player names).
        result: the game's result map (``rules/scoring.py``).
    """
    steps = explain(result)
    if steps is None:
        recorded = [s for s in result.get("steps") or [] if isinstance(s, Mapping)]
        return [
            StepLine(
                escape(str(s.get("step", ""))),
                s["eliminated"] if type(s.get("eliminated")) is int else None,
                escape(str(s.get("why", ""))),
            )
            for s in recorded
        ]
    lines = [StepLine(step_name(s), s.eliminated, step_reason(snap, s.reason)) for s in steps]
    players = len(result.get("scores") or [])
    if players < 3 or steps[0].code != "fewest_coins":
        return lines
    if len(steps) > 1 and steps[1].code == "two_player":
        lines[1] = StepLine(_("2. the 2-player rule"), None, lines[1].why)
        return lines
    if players == 3:
        why = _("nobody was eliminated in step 1, so the three players go on.")
    else:
        why = _("it settles a game of 3 players only; this one has {n}.").format(n=players)
    return [lines[0], StepLine(_("2. does not apply"), None, why), *lines[1:]]


class ResultsScreen(RematchScreen):
    """Winner banner, scores table and elimination steps, from ``view["result"]``."""

    CSS_PATH = "results.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "app.request_quit", N_("Quit"), show=False),  # the footer shows ^q
        Binding("escape", "back", N_("Back to the table"), key_display=N_("esc")),
    ]

    def __init__(self, snapshot: TableSnapshot) -> None:
        """Args: snapshot: a game-over snapshot (its view carries ``result``)."""
        super().__init__()
        self.snapshot = snapshot

    @property
    def result(self) -> dict[str, Any]:
        """The result map (see ``poissonnier_tui.games.poissonnier.rules.scoring``)."""
        return dict(self.snapshot.view.get("result") or {})

    def compose(self) -> ComposeResult:
        """Banner, scores, steps, seed."""
        snap, result = self.snapshot, self.result
        winners = [int(w) for w in result.get("winners", [])]
        translate_bindings(self)  # the footer in the current language
        yield TitleBar()
        with VerticalScroll(id="results"):
            yield Static(self._banner(winners), id="banner")
            yield RematchPanel()
            with Vertical(id="scores-box") as box:
                box.border_title = _("Final tallies (RULES.md §8)")
                yield DataTable[Text](id="scores", cursor_type="none", show_cursor=False)
            with Vertical(id="steps-box") as box:
                box.border_title = _("How the winner was found")
                for step in numbered_steps(snap, result):
                    why = step.why
                    if step.eliminated is not None:
                        why = _("[b]{name}[/b] out: {why}").format(
                            name=escape(snap.name(step.eliminated)), why=why
                        )
                    yield Static(f"[b]{step.name}[/b] — {why}", classes="step")
            seed = result.get("seed")
            turns = result.get("turns", snap.view.get("turn"))
            yield Static(
                "[dim]"
                + ngettext(
                    "{turns} turn · seed {seed}: the same seed and moves replay this game (R3).",
                    "{turns} turns · seed {seed}: the same seed and moves replay this game (R3).",
                    int(turns or 0),
                ).format(turns=turns, seed=seed)
                + "[/]",
                id="seed",
            )
        yield KeyBar()

    def _banner(self, winners: list[int]) -> str:
        """The winner line, or the shared victory in the game's own words (§8)."""
        snap = self.snapshot
        if self.result.get("shared"):
            together = names_list(snap, winners)
            if snap.me in winners:
                others = and_list([escape(snap.name(w)) for w in winners if w != snap.me])
                line = _("You and {names} open a fish shop together.").format(names=others)
            else:
                line = _("{names} open a fish shop together.").format(names=together)
            return _("[b]Shared victory![/b]  « Montez une poissonnerie ensemble ! »") + "\n" + line
        if not winners:
            return "[b]" + _("Nobody won.") + "[/b]"
        if snap.me in winners:
            return _("[b]You won![/b]\nThe best fishmonger on the market.")
        return _("[b]{name} won.[/b]\nThe best fishmonger on the market.").format(
            name=escape(snap.name(winners[0]))
        )

    def on_mount(self) -> None:
        """Fill the scores table, winners first."""
        snap, result = self.snapshot, self.result
        table = self.query_one("#scores", DataTable)
        table.add_columns(_("Player"), _("Coins"), _("Clients"), _("Stamps"), "")
        winners = {int(w) for w in result.get("winners", [])}
        steps = numbered_steps(snap, result)
        out_at = {  # seat -> index of the step that eliminated it
            s.eliminated: i for i, s in enumerate(steps) if s.eliminated is not None
        }
        # Winners first, then the others from the last eliminated to the first.
        scores = sorted(
            result.get("scores", []),
            key=lambda s: (int(s["seat"]) not in winners, -out_at.get(int(s["seat"]), 99)),
        )
        for s in scores:
            seat = int(s["seat"])
            if seat in winners:
                mark = Text(_("winner"), style="bold green")
            elif seat in out_at:
                step = Text.from_markup(steps[out_at[seat]].name).plain
                mark = Text(_("out: {step}").format(step=step), style="dim")
            else:
                mark = Text("", style="dim")
            name = snap.name(seat) + (_(" (you)") if seat == snap.me else "")
            table.add_row(
                Text(name, style="bold" if seat in winners else ""),
                Text(str(s["coins"]), justify="right"),
                Text(str(s["clients"]), justify="right"),
                Text(str(s["stamps"]), justify="right"),
                mark,
            )

    def action_back(self) -> None:
        """Look at the final table again (Enter there comes back here)."""
        self.app.pop_screen()
