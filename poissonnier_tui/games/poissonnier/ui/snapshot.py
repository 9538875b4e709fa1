"""One immutable picture of the table as this client knows it: view + lobby.

The server sends two kinds of frame the screen needs together: ``view``
(the game as this seat may see it, shape in :mod:`poissonnier_tui.games.poissonnier.rules.view`)
and ``lobby`` (who sits where: the player *names* live there, not in the
view). :class:`TableSnapshot` pairs the latest of each and offers typed
accessors, so that widgets read ``snap.name(2)`` instead of digging in maps.

Widgets hold a snapshot in a reactive and re-render when it changes; they
never mutate it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from poissonnier_tui.games.poissonnier.reader import Offer, SeatView
from poissonnier_tui.games.poissonnier.rules.cards import MAX_CRATES, SERVABLE
from poissonnier_tui.i18n import _
from poissonnier_tui.shell.seats import SeatLabel, shown_name

View = Mapping[str, Any]
"""A view map as received from the server
(see :mod:`poissonnier_tui.games.poissonnier.rules.view`)."""


@dataclass(frozen=True)
class TableSnapshot:
    """The latest view and seat list, with typed accessors.

    Attributes:
        view: the view map for this client's seat (or the public one).
        seats: one :class:`SeatLabel` per seat, from the latest ``lobby`` frame.
        rev: the view's revision: 0 at the start, +1 per accepted action.
        deadline: this machine's ``time.monotonic()`` at which the table's time
            limit on the step in play runs out (R6), or ``None`` for no limit.
    """

    view: View
    seats: tuple[SeatLabel, ...] = ()
    rev: int = 0
    deadline: float | None = None
    _names: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        count = int(self.view.get("players", len(self.seats)))
        names = []
        for i in range(count):
            label = shown_name(self.seats[i]) if i < len(self.seats) else ""
            names.append(label or _("Seat {n}").format(n=i + 1))
        object.__setattr__(self, "_names", tuple(names))

    # --- who -----------------------------------------------------------------

    @property
    def me(self) -> int | None:
        """This client's seat, or ``None`` for a spectator."""
        seat = self.view.get("seat")
        return seat if isinstance(seat, int) else None

    @property
    def players(self) -> int:
        """Number of seats at the table."""
        return int(self.view["players"])

    def name(self, seat: int) -> str:
        """Display name of ``seat`` (``"Seat 3"`` if the lobby has not named it)."""
        if 0 <= seat < len(self._names):
            return self._names[seat]
        return _("Seat {n}").format(n=seat + 1)

    def who(self, seat: int) -> str:
        """``"You"`` for this client's own seat, else the seat's name: sentence subject."""
        return _("You") if seat == self.me else self.name(seat)

    def label(self, seat: int) -> SeatLabel:
        """The lobby facts of ``seat`` (a connected human if the lobby is not known yet)."""
        return self.seats[seat] if seat < len(self.seats) else SeatLabel(self.name(seat))

    def others(self) -> list[int]:
        """Every seat but this client's, in seat order starting left of it (RULES.md §3)."""
        n = self.players
        start = self.me if self.me is not None else -1
        return [(start + k) % n for k in range(1, n + 1) if (start + k) % n != self.me]

    # --- where the game stands ---------------------------------------------------

    @property
    def phase(self) -> str:
        """``"fill"``, ``"serve"`` or ``"over"`` (RULES.md §3)."""
        return str(self.view["phase"])

    @property
    def active(self) -> int:
        """The active seat (RULES.md §3)."""
        return int(self.view["active"])

    @property
    def my_turn(self) -> bool:
        """This client is the active seat."""
        return self.me is not None and self.me == self.active

    @property
    def waiting_on(self) -> list[int]:
        """Seats whose decision the game waits for now."""
        return [int(s) for s in self.view.get("waiting_on", [])]

    def seat(self, seat: int) -> Mapping[str, Any]:
        """The public map of ``seat``: coins, stamps, clients, hand_size, crates, ready, price."""
        row: Mapping[str, Any] = self.view["seats"][seat]
        return row

    @property
    def over(self) -> bool:
        """The game has ended and the view carries its result (RULES.md §8)."""
        return self.phase == "over"

    # --- my private part -----------------------------------------------------------

    @cached_property
    def seen(self) -> SeatView | None:
        """This seat's view read by the game's one reader, shared with the bots
        (:mod:`poissonnier_tui.games.poissonnier.reader`); ``None`` for a spectator."""
        return SeatView.read(self.view) if self.me is not None else None

    @property
    def hand(self) -> list[str]:
        """This seat's hand card ids (the draft hand during the fill step); [] for a spectator."""
        return list(self.seen.hand) if self.seen is not None else []

    @property
    def crates(self) -> list[list[str]]:
        """This seat's crates as card ids (draft crates during the fill step)."""
        return [list(c) for c in self.seen.crates] if self.seen is not None else []

    @property
    def bought(self) -> list[str]:
        """Fish ids this seat bought this turn (only while active, RULES.md §4, R9)."""
        return list(self.seen.bought) if self.seen is not None else []

    def specials(self) -> tuple[int, int]:
        """``(glaçons, arrivages)`` in this seat's hand."""
        return self.seen.specials() if self.seen is not None else (0, 0)

    def usable_fish(self) -> list[str]:
        """Fish ids that could serve now: bought ones first (R9), then crate fish (§3.4)."""
        return self.bought + [f for crate in self.crates for f in crate]

    @property
    def ready(self) -> bool:
        """This seat has declared ready in the current fill step."""
        return self.me is not None and bool(self.seat(self.me)["ready"])

    def can_buy_crate(self) -> bool:
        """Whether the buy-crate key applies now (§7, R11, R12); the server has the last word."""
        if self.me is None or self.over or not self.view.get("fish_deck"):
            return False
        row = self.seat(self.me)
        return len(row["crates"]) < MAX_CRATES and int(row["coins"]) >= int(row["crate_price"])

    # --- the market ---------------------------------------------------------------------

    @property
    def queue(self) -> list[str]:
        """Client ids in the queue, front first."""
        return [str(c) for c in self.view.get("queue", [])]

    @property
    def servable(self) -> list[str]:
        """The first 3 clients of the queue: the only ones that can be served (§3.4)."""
        return self.queue[:SERVABLE]

    @property
    def proposals(self) -> list[Mapping[str, Any]]:
        """Open deal proposals (public, RULES.md §4), oldest first."""
        return list(self.view.get("proposals", []))

    def answerer(self, proposal: Mapping[str, Any]) -> int:
        """The seat that must accept or decline ``proposal`` (R8), as the view says
        (:class:`~poissonnier_tui.games.poissonnier.reader.Offer`)."""
        return Offer.read(proposal).answerer

    def offers_for_me(self, since: TableSnapshot | None = None) -> list[Mapping[str, Any]]:
        """Open proposals this client must answer (RULES.md §4, R8), oldest first; with
        ``since``, only those not open in that earlier snapshot. Empty for a spectator."""
        if self.me is None:
            return []
        before = {int(p["id"]) for p in since.proposals} if since is not None else set()
        return [
            p for p in self.proposals if self.answerer(p) == self.me and int(p["id"]) not in before
        ]

    def proposal(self, pid: int) -> Mapping[str, Any] | None:
        """The open proposal numbered ``pid``, if any."""
        return next((p for p in self.proposals if int(p["id"]) == pid), None)
