"""Play again, on a results screen: the keys, and who accepted the host's rematch.

Game-agnostic: each game's results screen is a :class:`RematchScreen` (its
:data:`REMATCH_BINDINGS`, gated by the app) and yields a :class:`RematchPanel`.
The panel follows the app's ``rematch_answers`` and ``seats`` (the shell's
:class:`~poissonnier_tui.shell.table_rematch.TableRematch`): hidden while no
rematch is proposed, then one line per seat (accepted, awaited, declined,
left, given to a bot, opened) and the keys that apply to the reader (the
host starts or gives seats away; a seated player accepts or declines;
spectators follow). The app gates the keys (``check_action``), so the footer
shows only those that apply; an app without a table (a replay) shows none.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Final

from textual.binding import Binding, BindingType
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import Static

from poissonnier_tui.i18n import N_, _
from poissonnier_tui.shell.seats import SeatLabel

REMATCH_BINDINGS: Final[list[BindingType]] = [
    Binding("n", "rematch", N_("Play again")),
    Binding("a", "rematch_answer(True)", N_("Accept the rematch")),
    Binding("x", "rematch_answer(False)", N_("Decline")),
    Binding("b", "rematch_give(True)", N_("Bots for the missing")),
    Binding("o", "rematch_give(False)", N_("Open their seats")),
]
"""The results screen's play-again keys: ``n`` proposes (host) or starts the
rematch once everyone accepted (and plays again, solo); ``a``/``x`` accept or
decline (a seated player); ``b``/``o`` give every seat that declined, left or
has not answered to a bot, or open it (host)."""

REMATCH_ACTIONS: Final = frozenset({"rematch", "rematch_answer", "rematch_give"})
"""The actions of :data:`REMATCH_BINDINGS`, each the app's action of the same name."""

_MARKS: Final[dict[str, tuple[str, str]]] = {
    # i18n: where a seat stands on a proposed rematch, after the player's name.
    "yes": ("✓", N_("accepted")),
    "no": ("✗", N_("declined")),
    "waiting": ("…", N_("awaited")),
    "away": ("⌁", N_("left the table")),
    "bot": ("→", N_("a bot takes the seat")),
    "open": ("○", N_("open seat")),
}


def rematch_text(
    answers: Sequence[str], seats: Sequence[SeatLabel], me: int | None, *, host: bool
) -> str:
    """The panel's text (markup): a title, one line per seat, and the reader's keys.

    Args:
        answers: each seat's answer (``net/rematch.py``: ``"yes"``, ``"no"``,
            ``"waiting"``, ``"away"``, ``"bot"``, ``"open"``).
        seats: the lobby's seat labels (names), in seat order.
        me: the reader's seat, ``None`` for a spectator.
        host: the reader hosts the table (starts it, gives seats away).
    """
    lines = [_("[b]Play again?[/b] The host proposes a rematch at this table.")]
    for seat, answer in enumerate(answers):
        mark, word = _MARKS.get(answer, ("?", answer))
        name = seats[seat].name if seat < len(seats) and seats[seat].name else f"#{seat + 1}"
        you = _(" (you)") if seat == me else ""
        lines.append(f" {mark} {escape(name)}{you} — {_(word)}")
    waiting = [i for i, a in enumerate(answers) if a in ("waiting", "no", "away")]
    if host:
        lines.append(
            _("n starts the rematch.")
            if not waiting
            else _("Waiting for answers… b gives their seats to bots, o opens them.")
        )
    elif me is not None and me < len(answers) and answers[me] == "waiting":
        lines.append(_("a accepts, x declines."))
    elif me is not None and me < len(answers) and answers[me] == "no":
        lines.append(_("You declined: the table plays on without you. ctrl+q leaves."))
    else:
        lines.append(_("Waiting for the host to start the rematch…"))
    return "\n".join(lines)


class RematchPanel(Static):
    """Who accepted the host's rematch and who is awaited; hidden while none is proposed.

    Reads the app's ``rematch_answers``, ``seats``, ``seat`` and ``hosted``
    (any app without them shows nothing).
    """

    DEFAULT_CSS: ClassVar[str] = """
    RematchPanel { border: round $accent; padding: 0 1; height: auto; display: none; }
    RematchPanel.-shown { display: block; }
    """

    def on_mount(self) -> None:
        """Follow the app's answers and seats."""
        app: Any = self.app
        if hasattr(app, "rematch_answers"):
            self.watch(app, "rematch_answers", self._follow)
            self.watch(app, "seats", self._follow, init=False)

    def _follow(self, _value: object = None) -> None:
        app: Any = self.app
        answers: tuple[str, ...] | None = app.rematch_answers
        self.set_class(answers is not None, "-shown")
        if answers is None:
            return
        self.border_title = _("Rematch")
        host = getattr(app, "hosted", None) is not None
        self.update(rematch_text(answers, app.seats, app.seat, host=host))


class RematchScreen(Screen[None]):
    """A results screen with the play-again keys (:data:`REMATCH_BINDINGS`): each runs
    the app's action of the same name, offered only when the app offers it (an app
    with no ``rematch_answers``, e.g. a replay, offers none)."""

    BINDINGS: ClassVar[list[BindingType]] = REMATCH_BINDINGS

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The play-again keys as the app has them; every other key as usual."""
        if action not in REMATCH_ACTIONS:
            return super().check_action(action, parameters)
        if not hasattr(self.app, "rematch_answers"):
            return False
        return self.app.check_action(action, parameters)

    async def action_rematch(self) -> None:
        """``n``: the app's play again (solo), propose or start (host)."""
        await self.app.run_action("rematch")

    async def action_rematch_answer(self, yes: bool) -> None:
        """``a``/``x``: accept or decline the host's rematch."""
        await self.app.run_action(f"rematch_answer({yes})")

    async def action_rematch_give(self, to_bot: bool) -> None:
        """``b``/``o`` (host): the missing players' seats to bots, or opened."""
        await self.app.run_action(f"rematch_give({to_bot})")
