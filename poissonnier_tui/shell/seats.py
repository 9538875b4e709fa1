"""Who sits where at a table, as the server's ``lobby`` frames say: names, bots, connections.

Game-agnostic and free of Textual: the shell's screens (connecting, seats)
and every game's screens read these labels; the game's view says nothing of
names (docs/ARCHITECTURE.md, "The one door for hidden information").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class SeatLabel:
    """Public facts about one seat from the server's ``lobby`` frame.

    Attributes:
        name: the player's or bot's display name ("" for an open seat).
        kind: ``"human"``, ``"bot"`` or ``"open"``.
        connected: a human has a live connection (always true for bots).
    """

    name: str
    kind: str = "human"
    connected: bool = True


def seat_names(seats: Sequence[Mapping[str, Any]]) -> tuple[SeatLabel, ...]:
    """Seat labels from a ``lobby`` frame's ``seats`` list (wire maps with ``name``,
    ``kind``, ``connected``; missing keys read as an unnamed, disconnected human)."""
    return tuple(
        SeatLabel(str(s.get("name", "")), str(s.get("kind", "human")), bool(s.get("connected")))
        for s in seats
    )
