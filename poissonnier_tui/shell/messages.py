"""Messages between the network worker, the screens and the app.

The network worker (:class:`~poissonnier_tui.shell.worker.TableRelay`) turns each server frame
into one of these and posts it to the app; the handlers set reactives, so no
widget ever awaits the network. Screens ask for a move with
:class:`MoveChosen`, which bubbles up to the app that owns the connection.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from textual.message import Message

from poissonnier_tui.shell.seats import SeatLabel


@dataclass
class Connected(Message):
    """The table welcomed us.

    Attributes:
        seat: our seat, ``None`` as a spectator.
        token: the seat's reconnect token.
        table: the table's name.
        address: ``host:port`` of the table.
        game: the game the table plays (a registry name); ``None``: the default game.
    """

    seat: int | None
    token: str | None
    table: str
    address: str
    game: str | None = None


@dataclass
class Progress(Message):
    """A step of connecting, in words ("Joining the table on 127.0.0.1:40123…")."""

    text: str


@dataclass
class ConnectFailed(Message):
    """The table could not be joined: its code and a sentence for the player."""

    code: str
    message: str


@dataclass
class LobbyChanged(Message):
    """Who sits where changed (names, bots, connections) or the table's phase did."""

    seats: tuple[SeatLabel, ...]
    started: bool
    phase: str


@dataclass
class ViewReceived(Message):
    """A new view of the game for our seat (shape: the game's ``rules/view.py``)."""

    rev: int
    view: dict[str, Any]
    ends_in_ms: int | None = None
    """Milliseconds left, when the frame left the table, before the time limit of the
    step in play runs out (``net.messages.View``); ``None``: no limit now."""
    answers_in_ms: tuple[tuple[int, int], ...] = ()
    """``(offer id, milliseconds left)`` before the table withdraws each offer waiting
    for its answer (``net/answers.py``, ``net.messages.View``)."""

    def can_replace(self, message: Message) -> bool:
        """A newer view supersedes a queued older one: each view is complete.

        (Log lines are not lost: every view carries the last 40 events.)
        """
        return isinstance(message, ViewReceived)


@dataclass
class ActionAcked(Message):
    """The action numbered ``seq`` was accepted."""

    seq: int


@dataclass
class ActionRefused(Message):
    """The server refused something we sent; nothing changed.

    Attributes:
        code: machine-readable (``"mixed_crate"``, ``"not_active"``…).
        message: the server's sentence, naming the rule broken.
        seq: the refused action's number, if it was an action.
        action: the action we had sent, if known.
        params: the refusal's parameters (``ErrorReply.params``), with which a
            game's UI says it in the player's language (``GameUI`` ``refusal``).
    """

    code: str
    message: str
    seq: int | None
    action: dict[str, Any] | None = None
    params: Mapping[str, str | int] | None = None


@dataclass
class Disconnected(Message):
    """The connection to the table ended (table closed, network lost, said goodbye).

    ``table_closed``: the host closed the table before its game began; nothing of it
    remains (no seat kept). ``goodbye``: the table said goodbye (any ``bye``); without
    one it vanished (a crash, the network), and may come back.
    """

    reason: str
    table_closed: bool = False
    goodbye: bool = False
    bye: str | None = None
    """The reason code of the table's ``bye`` (e.g. ``net.messages.SEAT_GIVEN``), if any."""


@dataclass
class MoveChosen(Message):
    """A screen chose a game action to send (an action wire map)."""

    action: dict[str, Any]


@dataclass
class ChatHeard(Message):
    """Someone said something at the table (``net.chat.Said``).

    Attributes:
        seat: the speaker's seat, ``None`` for a spectator.
        name: the speaker's name as the table shows it.
        text: the message (the table cleaned it; shown as plain text, never markup).
    """

    seat: int | None
    name: str
    text: str


@dataclass
class DraftChosen(Message):
    """A screen opened (``on``) or closed a dialog composing a move others answer (an
    offer): the table's bots wait meanwhile, within its bounds (``net.drafts``)."""

    on: bool


@dataclass
class DraftHeard(Message):
    """A seat drafts a move, or stopped (``net.drafts.Drafting``).

    Attributes:
        seat: the drafting seat.
        ends_in_ms: milliseconds until the draft stops holding the table, when the
            frame left it; ``None``: the draft ended.
    """

    seat: int
    ends_in_ms: int | None


@dataclass
class PriceWanted(Message):
    """A screen asks ``seat`` its price on ``deal`` (``net.prices``: the game's deal map,
    without price); the answer comes back as :class:`PriceHeard`, to this client only."""

    seat: int
    deal: dict[str, Any]


@dataclass
class PriceHeard(Message):
    """A seat named its price (``net.prices.Priced``).

    Attributes:
        seat: who named it.
        deal: the deal as the game said it in full.
        coins: the price; ``None``: no price.
        bot: a bot named it.
    """

    seat: int
    deal: dict[str, Any]
    coins: int | None
    bot: bool


@dataclass
class PriceQuestion(Message):
    """Seat ``by`` asks our player their price on ``deal`` (``net.prices.PriceAsked``)."""

    by: int
    deal: dict[str, Any]


@dataclass
class PriceGiven(Message):
    """Our player answers seat ``to``'s price question about ``deal`` (``coins`` ``None``:
    no price); only that seat hears it."""

    to: int
    deal: dict[str, Any]
    coins: int | None


@dataclass
class RematchHeard(Message):
    """Where a proposed rematch stands (``net.messages.RematchState``).

    Attributes:
        answers: one of ``"yes"``, ``"no"``, ``"waiting"``, ``"away"``, ``"bot"``,
            ``"open"`` per seat (``net/rematch.py``); ``None``: no rematch is
            proposed (withdrawn, or the new game began).
    """

    answers: tuple[str, ...] | None
