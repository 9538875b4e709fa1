"""Seat tokens kept between runs, so ``poissonnier join`` again reclaims the seat.

A table gives each seat a secret token in its ``welcome``; presenting it
again gets the same seat back with a fresh view (docs/ARCHITECTURE.md "Wire
protocol"). This store keeps the tokens in the user's state directory
(``platformdirs.user_state_path("poissonnier")``, e.g.
``~/.local/state/poissonnier/seats.json`` on Linux; ``$XDG_STATE_HOME``
moves it), keyed by the table's address and the player's name (so two
people trying a table from one account, ``--name Ana`` and ``--name Ben``,
keep their own seats), and remembering the table's name.

File shape (JSON, written atomically, mode 0600 since tokens are secrets)::

    {"version": 1,
     "seats": [{"address": "192.168.1.20:7374", "table": "Friday", "seat": 2,
                "token": "…", "saved": 1764500000.0, "player": "Ana"}, …]}   # newest first

A damaged or unreadable file counts as empty: losing a token only means
joining as a new player.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

import platformdirs

log = logging.getLogger(__name__)

APP_NAME: Final = "poissonnier"
FILE_NAME: Final = "seats.json"
KEEP: Final = 32
"""Seats remembered at most; the oldest are dropped first."""


@dataclass(frozen=True, slots=True)
class SavedSeat:
    """A seat this user held at a table.

    Attributes:
        address: ``host:port`` the table was reached at.
        table: the table's name as it announced itself.
        seat: the seat number (0-based).
        token: the secret that reclaims it.
        saved: when it was saved, seconds since the epoch.
        player: the name the player joined with.
    """

    address: str
    table: str
    seat: int
    token: str
    saved: float
    player: str = ""


def default_path() -> Path:
    """Where tokens live: ``<user state dir>/poissonnier/seats.json``."""
    return platformdirs.user_state_path(APP_NAME, appauthor=False) / FILE_NAME


class TokenStore:
    """Reads and writes saved seats.

    Args:
        path: the JSON file; default :func:`default_path`.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()

    def all(self) -> list[SavedSeat]:
        """Every saved seat, newest first."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as exc:
            log.warning("Ignoring the seat file %s: %s", self.path, exc)
            return []
        seats: list[SavedSeat] = []
        rows = data.get("seats") if isinstance(data, dict) else None
        for row in rows if isinstance(rows, list) else []:
            seat = _row(row)
            if seat is not None:
                seats.append(seat)
        return sorted(seats, key=lambda s: s.saved, reverse=True)

    def find(
        self, address: str, table: str | None = None, player: str | None = None
    ) -> SavedSeat | None:
        """The seat saved for ``address``; failing that, the newest one at a table named ``table``.

        The name fallback finds a seat again when the host came back on another
        address or port (a resumed table keeps its tokens). With ``player``,
        only that player's seats count.
        """
        seats = [s for s in self.all() if player is None or s.player == player]
        for seat in seats:
            if seat.address == address:
                return seat
        if table:
            for seat in seats:
                if seat.table == table:
                    return seat
        return None

    def save(self, address: str, table: str, seat: int, token: str, player: str = "") -> None:
        """Remember (or replace) ``player``'s seat at ``address``. Errors are logged, not raised."""
        fresh = SavedSeat(address, table, seat, token, time.time(), player)
        kept = [s for s in self.all() if (s.address, s.player) != (address, player)]
        self._write([fresh, *kept][:KEEP])

    def forget(self, address: str, player: str | None = None) -> None:
        """Drop the seat saved for ``address`` (its game is over): ``player``'s, or every one."""
        seats = self.all()
        kept = [
            s for s in seats if s.address != address or (player is not None and s.player != player)
        ]
        if len(kept) != len(seats):
            self._write(kept)

    def _write(self, seats: list[SavedSeat]) -> None:
        body = json.dumps({"version": 1, "seats": [asdict(s) for s in seats]}, indent=1)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".seats-", dir=self.path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as out:
                    out.write(body)
                os.chmod(tmp, 0o600)
                os.replace(tmp, self.path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
        except OSError as exc:
            log.warning("Could not save the seat token in %s: %s", self.path, exc)


def _row(row: Any) -> SavedSeat | None:
    """A :class:`SavedSeat` from one JSON row, or ``None`` if it is malformed."""
    if not isinstance(row, dict):
        return None
    try:
        seat = SavedSeat(
            address=str(row["address"]),
            table=str(row["table"]),
            seat=int(row["seat"]),
            token=str(row["token"]),
            saved=float(row["saved"]),
            player=str(row.get("player", "")),
        )
    except (KeyError, TypeError, ValueError):
        return None
    return seat if seat.token else None
