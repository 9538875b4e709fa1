"""One picture of a Go Fish table as this client knows it: the view plus the lobby's seats.

:class:`GoFishSnapshot` pairs the latest ``view`` (shape:
:mod:`poissonnier_tui.games.gofish.rules.view`) with the lobby's seat labels
and offers typed accessors the screens read (``snap.name(2)``,
``snap.hand_by_rank()``, ``snap.known_ranks(1)``). What the public history
proves about the other hands comes from the bots' own reader,
:class:`poissonnier_tui.games.gofish.bots.memory.Memory`: the view is parsed
once, the same way for the bots and the screens. :func:`describe` turns one
public event into a sentence for the asks log.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from poissonnier_tui.games.gofish.bots.memory import Memory
from poissonnier_tui.games.gofish.rules.cards import (
    RANK_INDEX,
    RANKS,
    SUIT_SYMBOLS,
    rank_of,
    suit_of,
)
from poissonnier_tui.games.gofish.rules.view import legal_from_view
from poissonnier_tui.i18n import _, ngettext, pgettext
from poissonnier_tui.shell.seats import SeatLabel, shown_name

View = Mapping[str, Any]
"""A Go Fish view map as the server sends it."""


def rank_label(rank: str) -> str:
    """A rank as the player's decks print it: the faces ``J Q K`` in English, ``V D R``
    (valet, dame, roi) in French (docs/GLOSSARY.md); the others as they are."""
    faces = {
        "J": pgettext("card rank", "J"),
        "Q": pgettext("card rank", "Q"),
        "K": pgettext("card rank", "K"),
    }
    return faces.get(rank, rank)


def card_text(card: str) -> str:
    """A card id as players read it: ``"10H"`` -> ``"10♥"``, ``"QS"`` -> ``"Q♠"`` (``"D♠"``
    in French)."""
    return rank_label(rank_of(card)) + SUIT_SYMBOLS[suit_of(card)]


def rank_plural(rank: str) -> str:
    """A rank named as a group: ``"7"`` -> ``"7s"``, ``"Q"`` -> ``"Qs"``."""
    return _("{rank}s").format(rank=rank_label(rank))


@dataclass(frozen=True)
class GoFishSnapshot:
    """The latest Go Fish view and seat list (satisfies ``shell.game_ui.GameSnapshot``).

    Attributes:
        view: the view map for this client's seat (or the public one).
        seats: one label per seat, from the latest ``lobby`` frame.
        rev: the view's revision (0 at the deal, +1 per accepted ask).
        deadline: ``time.monotonic()`` at which the step's time limit runs out, or ``None``.

    Raises:
        KeyError, ValueError: on construction, ``view`` is not a Go Fish view.
    """

    view: View
    seats: tuple[SeatLabel, ...] = ()
    rev: int = 0
    deadline: float | None = None

    def __post_init__(self) -> None:
        if self.view.get("game") != "gofish":
            raise ValueError(f"not a Go Fish view: game {self.view.get('game')!r}")
        int(self.view["players"])

    # --- who ---------------------------------------------------------------
    @property
    def me(self) -> int | None:
        """This client's seat, ``None`` for a spectator."""
        seat = self.view.get("seat")
        return seat if isinstance(seat, int) and not isinstance(seat, bool) else None

    @property
    def players(self) -> int:
        """Seats at the table (2..6)."""
        return int(self.view["players"])

    def name(self, seat: int) -> str:
        """The lobby's name for ``seat``, ``"Seat N"`` (1-based) when it has none."""
        label = shown_name(self.seats[seat]) if 0 <= seat < len(self.seats) else ""
        return label or _("Seat {n}").format(n=seat + 1)

    def who(self, seat: int) -> str:
        """``"You"`` for this client's seat, else its name (a sentence's subject)."""
        return _("You") if seat == self.me else self.name(seat)

    def others(self) -> list[int]:
        """Every seat but this client's, round the table from the next one."""
        start = self.me if self.me is not None else -1
        n = self.players
        return [(start + k) % n for k in range(1, n + 1) if (start + k) % n != self.me]

    # --- where the game stands ------------------------------------------------
    @property
    def over(self) -> bool:
        """The game has ended (§5); ``view["result"]`` holds the books and winners."""
        return bool(self.view["over"])

    @property
    def active(self) -> int:
        """The seat to ask now."""
        return int(self.view["active"])

    @property
    def my_turn(self) -> bool:
        """This client is the seat the table waits on."""
        waiting: list[int] = list(self.view["waiting_on"])
        return self.me is not None and not self.over and self.me in waiting

    @property
    def card_variant(self) -> bool:
        """Asks name one card (docs/GOFISH.md §6), not a rank (§3)."""
        return bool(self.view["options"]["variant"] == "card")

    @property
    def stock(self) -> int:
        """Cards left in the stock."""
        return int(self.view["stock"])

    def hand_size(self, seat: int) -> int:
        """Cards in ``seat``'s hand."""
        return int(self.view["hand_sizes"][seat])

    def books(self, seat: int) -> list[str]:
        """Ranks ``seat`` has laid down as books, in order (§4)."""
        return [str(r) for r in self.view["books"][seat]]

    def is_out(self, seat: int) -> bool:
        """``seat`` is out of play (no cards and no stock to refill from, G5)."""
        return bool(self.view["out"][seat])

    @property
    def hand(self) -> list[str]:
        """This client's cards (sorted, A first); empty for a spectator."""
        me = self.view.get("me")
        return list(me["hand"]) if me else []

    def hand_by_rank(self) -> list[tuple[str, list[str]]]:
        """This client's hand grouped by rank, A first: ``[("7", ["7C", "7H"]), ...]``."""
        groups: dict[str, list[str]] = {}
        for card in self.hand:
            groups.setdefault(rank_of(card), []).append(card)
        return sorted(groups.items(), key=lambda g: RANK_INDEX[g[0]])

    @cached_property
    def legal(self) -> list[dict[str, Any]]:
        """This client's legal asks as wire maps (empty unless it is its turn)."""
        return legal_from_view(self.view)

    @cached_property
    def memory(self) -> Memory:
        """What the public history proves about every hand (the bots' reader)."""
        return Memory.from_view(self.view)

    def known_ranks(self, seat: int) -> list[str]:
        """Ranks the public history proves ``seat`` holds now (it asked for them, or was
        handed them and has not lost them since), A first."""
        lo = self.memory.lo[seat]
        return [RANKS[r] for r in range(len(RANKS)) if lo[r] >= 1]

    @property
    def result(self) -> dict[str, Any]:
        """The result map once over (winners, shared, scores, seed, turns), else ``{}``."""
        return dict(self.view.get("result") or {})

    @property
    def winners(self) -> list[int]:
        """The winning seats (several: a shared victory, G3)."""
        return [int(w) for w in self.result.get("winners", [])]

    def log_lines(self, last: int | None = None) -> list[str]:
        """The asks log as sentences, oldest first (the last ``last`` only, if given)."""
        lines = [line for i, e in enumerate(self.view["log"]) if (line := describe(self, e, i))]
        return lines if last is None else lines[-last:]

    @cached_property
    def drawn(self) -> dict[int, str]:
        """This client's own unseen draws: log index -> the card it drew (§8)."""
        me = self.view.get("me") or {}
        return {int(i): str(card) for i, card in me.get("drawn") or ()}


def describe(snap: GoFishSnapshot, event: Mapping[str, Any], index: int = -1) -> str:
    """One public event as a sentence, or ``""`` for events not worth a line.

    ``{"t": "ask", "seat": 0, "target": 1, "rank": "7", "answer": "gave", "count": 2}``
    reads "Ana asked Ben for 7s: 2 handed over." (names from the lobby). ``index``: the
    event's place in the log, by which a draw of this client's own, which no one else
    saw, names its card ("You drew 4♠.", §8); -1: not known.
    """
    kind = event.get("t")
    if kind == "ask":
        seat, to = int(event["seat"]), int(event["target"])
        suit = event.get("suit")
        rank = str(event["rank"])
        wanted = card_text(rank + str(suit)) if suit else rank_plural(rank)
        if seat == snap.me:
            asked = _("You asked {target} for {wanted}").format(target=snap.name(to), wanted=wanted)
        elif to == snap.me:
            asked = _("{asker} asked you for {wanted}").format(asker=snap.name(seat), wanted=wanted)
        else:
            asked = _("{asker} asked {target} for {wanted}").format(
                asker=snap.name(seat), target=snap.name(to), wanted=wanted
            )
        answer = event.get("answer")
        if answer == "gave":
            count = int(event.get("count", 1))
            given = ngettext("{n} handed over", "{n} handed over", count).format(n=count)
            return _("{asked}: {given}.").format(asked=asked, given=given)
        if answer == "go_fish":
            return _("{asked}: Go fish!").format(asked=asked)
        return _("{asked}: none, and the stock is empty.").format(asked=asked)
    if kind == "draw":
        shown = event.get("shown")
        seat = int(event["seat"])
        mine = seat == snap.me
        if shown:
            card = card_text(str(shown))
            if mine:
                return _("You fished the card asked for, {card}: another ask.").format(card=card)
            return _("{who} fished the card asked for, {card}: another ask.").format(
                who=snap.name(seat), card=card
            )
        drew = snap.drawn.get(index) if mine else None  # told to the drawer alone
        if event.get("why") == "refill":
            if drew is not None:
                return _("You drew {card} from the stock (empty hand).").format(
                    card=card_text(drew)
                )
            if mine:
                return _("You drew a card from the stock (empty hand).")
            return _("{who} drew a card from the stock (empty hand).").format(who=snap.name(seat))
        if drew is not None:  # after "Go fish!": which card, for the drawer
            return _("You drew {card}.").format(card=card_text(drew))
        return ""  # another's hidden draw after "Go fish!": the ask's line already says it
    if kind == "book":
        seat, rank = int(event["seat"]), str(event["rank"])
        if seat == snap.me:
            return _("You laid down a book of {rank}s.").format(rank=rank_label(rank))
        return _("{who} laid down a book of {rank}s.").format(
            who=snap.name(seat), rank=rank_label(rank)
        )
    if kind == "stock_empty":
        return _("The stock is empty.")
    if kind == "over":
        return _("The game is over.")
    if kind == "deal":
        return _("The cards are dealt.")
    return ""
