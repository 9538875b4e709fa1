"""Who sits where at a table, as the server's ``lobby`` frames say: names, bots, connections.

Game-agnostic and free of Textual: the shell's screens (connecting, seats)
and every game's screens read these labels; the game's view says nothing of
names (docs/ARCHITECTURE.md, "The one door for hidden information").
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from poissonnier_tui.botnames import shown_bot_name


@dataclass(frozen=True, slots=True)
class SeatLabel:
    """Public facts about one seat from the server's ``lobby`` frame.

    Attributes:
        name: the player's or bot's display name ("" for an open seat).
        kind: ``"human"``, ``"bot"`` or ``"open"``.
        connected: a human has a live connection (always true for bots).
        away_since: a disconnected human: this machine's ``time.monotonic()``
            when it went away (from the frame's ``away_ms``), else ``None``.
        defaults_at: this machine's ``time.monotonic()`` at which the table
            plays the seat's default move (from ``defaults_in_ms``: the
            absence grace, RULES.md R6), or ``None`` when nothing is due.
    """

    name: str
    kind: str = "human"
    connected: bool = True
    away_since: float | None = None
    defaults_at: float | None = None

    def away_for(self, now: float | None = None) -> int | None:
        """Whole seconds this seat has been away at ``now`` (default: now), or ``None``."""
        if self.away_since is None:
            return None
        return max(0, int((time.monotonic() if now is None else now) - self.away_since))

    def defaults_in(self, now: float | None = None) -> int | None:
        """Whole seconds (rounded up) before the table plays for this seat, or ``None``."""
        if self.defaults_at is None:
            return None
        left = self.defaults_at - (time.monotonic() if now is None else now)
        return max(0, math.ceil(left))


def seat_names(
    seats: Sequence[Mapping[str, Any]], now: float | None = None
) -> tuple[SeatLabel, ...]:
    """Seat labels from a ``lobby`` frame's ``seats`` list (wire maps with ``name``,
    ``kind``, ``connected`` and, for an absent human, ``away_ms`` and
    ``defaults_in_ms``; missing keys read as an unnamed, disconnected human).

    ``now``: this machine's ``time.monotonic()`` when the frame arrived (default:
    now); the relative times become times on this machine's clock.
    """
    at = time.monotonic() if now is None else now

    def since(ms: object, sign: int) -> float | None:
        return at + sign * ms / 1000 if isinstance(ms, int) and not isinstance(ms, bool) else None

    return tuple(
        SeatLabel(
            str(s.get("name", "")),
            str(s.get("kind", "human")),
            bool(s.get("connected")),
            since(s.get("away_ms"), -1),
            since(s.get("defaults_in_ms"), 1),
        )
        for s in seats
    )


def shown_name(label: SeatLabel) -> str:
    """The name of a seat as this client shows it: a bot's level in the player's language
    (``"Bot 3 · hard"`` -> ``"Bot 3 · difficile"`` in French, docs/GLOSSARY.md); the
    table names its bots in English, as data; any other name as it is."""
    return shown_bot_name(label.name) if label.kind == "bot" else label.name
