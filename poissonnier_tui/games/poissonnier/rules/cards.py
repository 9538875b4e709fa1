"""Card data of Le Poissonnier: the fish deck and the client deck (RULES.md §1).

This module is the single home of the game's component tables. Cards are
identified by short strings that are stable across games:

* fish-deck cards: ``"T01".."T16"`` (très frais), ``"F01".."F20"`` (frais),
  ``"M01".."M23"`` (mangeable), ``"D01".."D20"`` (douteux), ``"P01".."P16"``
  (pourri), ``"G01".."G05"`` (glaçon) and ``"A01".."A05"`` (arrivage);
* client cards: ``"C01".."C33"`` (regular), ``"U1".."U4"`` (undecided),
  ``"I1".."I3"`` (inspectors).

The first letter of a fish-deck id is its kind, so a freshness is read off an
id without a lookup table.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class Freshness(StrEnum):
    """A fish's freshness (fraîcheur), best first; the value is its one-letter code."""

    TRES_FRAIS = "T"
    FRAIS = "F"
    MANGEABLE = "M"
    DOUTEUX = "D"
    POURRI = "P"

    @property
    def level(self) -> int:
        """Numeric level: pourri 0, douteux 1, mangeable 2, frais 3, très frais 4."""
        return _LEVEL[self.value]

    @property
    def french(self) -> str:
        """The French name players see, e.g. ``"très frais"``."""
        return _FRENCH[self.value]

    def better(self) -> Freshness:
        """One level fresher (a `GLACON`'s effect, RULES.md §1).

        Raises:
            ValueError: for ``POURRI`` (cannot be iced) and ``TRES_FRAIS`` (already best).
        """
        if self in (Freshness.POURRI, Freshness.TRES_FRAIS):
            raise ValueError(f"{self.french} cannot be made fresher")
        return _BY_LEVEL[self.level + 1]


_LEVEL: Final = {"P": 0, "D": 1, "M": 2, "F": 3, "T": 4}
_FRENCH: Final = {
    "T": "très frais",
    "F": "frais",
    "M": "mangeable",
    "D": "douteux",
    "P": "pourri",
}
_BY_LEVEL: Final = {f.level: f for f in Freshness}

#: Freshness codes best first, as shown to players.
FRESHNESS_ORDER: Final = ("T", "F", "M", "D", "P")

GLACON: Final = "G"
"""Kind letter of the glaçon special card (RULES.md §1)."""
ARRIVAGE: Final = "A"
"""Kind letter of the arrivage-du-jour special card (RULES.md §1)."""
SPECIAL_KINDS: Final = (GLACON, ARRIVAGE)

#: Fish-deck composition, RULES.md §1 and R1: kind letter -> number of copies.
FISH_DECK_COUNTS: Final = {"T": 16, "F": 20, "M": 23, "D": 20, "P": 16, GLACON: 5, ARRIVAGE: 5}


def fish_deck() -> list[str]:
    """All 105 fish-deck card ids in a fixed (unshuffled) order (RULES.md §1, R1)."""
    return [
        f"{kind}{n:02d}" for kind, count in FISH_DECK_COUNTS.items() for n in range(1, count + 1)
    ]


def kind_of(card: str) -> str:
    """The kind letter of a fish-deck card: a freshness code or ``"G"``/``"A"``."""
    return card[0]


def is_special(card: str) -> bool:
    """True for a glaçon or arrivage card (they never go in a crate, RULES.md §1)."""
    return card[0] in SPECIAL_KINDS


def freshness_of(card: str) -> Freshness:
    """The freshness of a fish card.

    Raises:
        ValueError: ``card`` is a special card or not a fish-deck id.
    """
    return Freshness(card[0])


class ClientKind(StrEnum):
    """The three sorts of client card (RULES.md §1, §5)."""

    REGULAR = "regular"
    UNDECIDED = "undecided"
    INSPECTOR = "inspector"


@dataclass(frozen=True, slots=True)
class ClientCard:
    """One client card (RULES.md §1).

    Attributes:
        id: ``"C01"``…, ``"U1"``…, ``"I1"``….
        kind: regular, undecided or inspector.
        order: for a regular client, the freshness codes asked, e.g. ``"TFM"``;
            empty for the others.
        size: number of fish the client takes (0 for an inspector).
        coins: coins paid when served.
        stamps: loyalty stamps printed on the card.
    """

    id: str
    kind: ClientKind
    order: str
    size: int
    coins: int
    stamps: int


# (order, coins, stamps) for C01..C33, RULES.md §1. Coins follow T=3, F=2, M=1, D=1.
_REGULAR: Final = [
    ("T", 3, 1), ("T", 3, 1), ("F", 2, 1), ("F", 2, 1), ("M", 1, 2), ("M", 1, 2),
    ("D", 1, 2), ("TT", 6, 1), ("TF", 5, 1), ("TF", 5, 2), ("TM", 4, 2), ("FF", 4, 1),
    ("FD", 3, 2), ("FM", 3, 2), ("FD", 3, 2), ("MM", 2, 2), ("MD", 2, 3), ("DD", 2, 3),
    ("TD", 4, 1), ("TTF", 8, 2), ("TFF", 7, 2), ("MMM", 3, 3), ("TFM", 6, 3),
    ("FFM", 5, 2), ("FMM", 4, 3), ("MMD", 3, 3), ("MDD", 3, 3), ("FMD", 4, 3),
    ("TTFF", 10, 2), ("TFFM", 8, 3), ("FMMD", 5, 3), ("TFMD", 7, 3), ("MMDD", 4, 3),
]  # fmt: skip

#: Every client card by id (RULES.md §1): 33 regular, 4 undecided, 3 inspectors.
CLIENTS: Final[dict[str, ClientCard]] = {
    **{
        f"C{i:02d}": ClientCard(f"C{i:02d}", ClientKind.REGULAR, order, len(order), coins, stamps)
        for i, (order, coins, stamps) in enumerate(_REGULAR, start=1)
    },
    "U1": ClientCard("U1", ClientKind.UNDECIDED, "", 2, 1, 1),
    "U2": ClientCard("U2", ClientKind.UNDECIDED, "", 2, 1, 1),
    "U3": ClientCard("U3", ClientKind.UNDECIDED, "", 3, 2, 1),
    "U4": ClientCard("U4", ClientKind.UNDECIDED, "", 3, 2, 2),
    "I1": ClientCard("I1", ClientKind.INSPECTOR, "", 0, 0, 0),
    "I2": ClientCard("I2", ClientKind.INSPECTOR, "", 0, 0, 0),
    "I3": ClientCard("I3", ClientKind.INSPECTOR, "", 0, 0, 0),
}


def client_deck() -> list[str]:
    """All 40 client card ids in a fixed (unshuffled) order (RULES.md §1)."""
    return list(CLIENTS)


def is_inspector(client: str) -> bool:
    """True for a Contrôleur sanitaire card (RULES.md §5)."""
    return CLIENTS[client].kind is ClientKind.INSPECTOR


#: Cards the active player draws in §3.1, by number of players.
ACTIVE_DRAW: Final = {2: 4, 3: 3, 4: 3, 5: 2}
HAND_SIZE: Final = 5
"""Cards dealt to each hand at setup (RULES.md §2)."""
STARTING_COINS: Final = 3
"""Coins each player starts with (R2)."""
QUEUE_MAX: Final = 5
"""Clients the queue holds after a call (RULES.md §3.3)."""
SERVABLE: Final = 3
"""Only the first 3 clients of the queue can be served (RULES.md §3.4)."""
QUEUE_START: Final = 4
"""Clients revealed at setup (RULES.md §2)."""
MAX_CRATES: Final = 6
"""Most crates a player can own (R12)."""
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5


def crate_price(owned: int) -> int:
    """Coins to buy the next crate when ``owned`` crates are held (R11): 2 × owned."""
    return 2 * owned
