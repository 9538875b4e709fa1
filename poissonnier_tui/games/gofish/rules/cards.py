"""The 52-card deck of Go Fish (docs/GOFISH.md §1).

A card id is its rank then its suit letter: ``"AC"``, ``"10H"``, ``"QS"``.
Ranks run ``A 2 … 10 J Q K`` (A low, the order used to sort hands and
legal actions); suits ``C D H S`` (clubs, diamonds, hearts, spades).
"""

from __future__ import annotations

from typing import Final

RANKS: Final[tuple[str, ...]] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The thirteen ranks, A low (§1)."""
SUITS: Final[tuple[str, ...]] = ("C", "D", "H", "S")
"""The four suits: clubs, diamonds, hearts, spades (§1)."""
SUIT_NAMES: Final[dict[str, str]] = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_SYMBOLS: Final[dict[str, str]] = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

RANK_INDEX: Final[dict[str, int]] = {r: i for i, r in enumerate(RANKS)}

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
BOOK_SIZE: Final = 4
"""Cards of one rank that make a book (§4)."""


def card_id(rank: str, suit: str) -> str:
    """The id of the card of ``rank`` and ``suit``, e.g. ``("10", "H") -> "10H"``."""
    return rank + suit


def rank_of(card: str) -> str:
    """The rank of a card id: ``"10H" -> "10"``."""
    return card[:-1]


def suit_of(card: str) -> str:
    """The suit letter of a card id: ``"10H" -> "H"``."""
    return card[-1]


DECK: Final[tuple[str, ...]] = tuple(card_id(r, s) for r in RANKS for s in SUITS)
"""All 52 card ids in a fixed order: by rank (A first), then suit (§1)."""
CARD_INDEX: Final[dict[str, int]] = {c: i for i, c in enumerate(DECK)}


def deck() -> list[str]:
    """A new unshuffled list of the 52 card ids (§1)."""
    return list(DECK)


def hand_size(players: int) -> int:
    """Cards dealt to each player (§2): 7 with two players, 5 with three to six.

    Raises:
        ValueError: ``players`` outside 2..6.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Go Fish is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    return 7 if players == 2 else 5


def sort_cards(cards: list[str]) -> list[str]:
    """``cards`` sorted by rank (A first), then suit."""
    return sorted(cards, key=CARD_INDEX.__getitem__)


def label(card: str) -> str:
    """A card as players read it: ``"10H" -> "10♥"``."""
    return rank_of(card) + SUIT_SYMBOLS[suit_of(card)]
