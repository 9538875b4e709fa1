"""The LAN side of tables: addresses, who can join what, and the serve log.

No Textual here, and no table building (that is
:mod:`poissonnier_tui.hosting.tables`, which advertises a table on the LAN,
docs/ARCHITECTURE.md "Discovery"). :func:`parse_address` and
:func:`format_address` read and write ``HOST:PORT``; :func:`incompatible`
(:func:`incompatibility` in words) says why an advertised table cannot be
joined (a game this app does not have, another version); :class:`SeatLog`
turns seat changes into the plain lines ``serve`` prints.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from net.discovery import TableAd
from net.frames import PROTOCOL_VERSION
from net.messages import NAME_MAX, SeatInfo
from net.schema import shows
from net.server import TableSummary
from poissonnier_tui import __version__
from poissonnier_tui.games import ENTRY_MODULES
from poissonnier_tui.i18n import N_, _, ngettext

DEFAULT_PORT: Final = 7374
"""TCP port a table listens on unless told otherwise (a busy one falls back to any free port)."""


# --- addresses and compatibility ------------------------------------------------------------


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``"HOST:PORT"``, ``"HOST"`` or ``"[IPv6]:PORT"`` as ``(host, port)``.

    Raises:
        ValueError: empty host, or a port that is not a number in 1..65535
            (the message says what was wrong, for the player).
    """
    text = text.strip()
    host, port_text = text, ""
    if text.startswith("["):
        host, _sep, rest = text[1:].partition("]")
        port_text = rest.removeprefix(":")
    elif text.count(":") == 1:
        host, _sep, port_text = text.partition(":")
    if not host:
        raise ValueError(
            _("No host in {text}: give HOST:PORT, e.g. 192.168.1.20:{port}.").format(
                text=repr(text), port=DEFAULT_PORT
            )
        )
    if not port_text:
        return host, default_port
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(
            _("{text} is not a port number (1-65535).").format(text=repr(port_text))
        )
    return host, int(port_text)


def format_address(host: str, port: int) -> str:
    """``host:port``, with brackets around an IPv6 host."""
    try:
        if ipaddress.ip_address(host).version == 6:
            return f"[{host}]:{port}"
    except ValueError:
        pass
    return f"{host}:{port}"


TABLE_STATES: Final[dict[str, str]] = {
    "lobby": N_("lobby"), "playing": N_("playing"), "over": N_("over"),
}  # fmt: skip
"""An advertised table's state (``TableAd.state``) in words (see :func:`state_word`)."""


def state_word(state: str) -> str:
    """An advertised table's state in the current language (a state we do not know as is)."""
    return _(TABLE_STATES[state]) if state in TABLE_STATES else state


INCOMPATIBLE: Final[Mapping[str, str]] = {
    "other_game": N_("it plays {game}, a game this app does not have ({games})"),
    "other_version": N_(
        "it runs poissonnier {app} (protocol {protocol}); "
        "you have {our_app} (protocol {our_protocol})"
    ),
}
"""Each reason an advertised table cannot be joined (:class:`Incompatible` code) -> its
message; the placeholders are the reason's parameters."""


@dataclass(frozen=True, slots=True)
class Incompatible:
    """Why this app cannot join an advertised table, as data: a code of
    :data:`INCOMPATIBLE` and its parameters (no words), said by :meth:`text`."""

    code: str
    params: Mapping[str, str | int]

    def text(self) -> str:
        """The reason in the current language (the code itself if it is unknown)."""
        message = INCOMPATIBLE.get(self.code)
        return self.code if message is None else _(message).format(**self.params)


def incompatible(ad: TableAd) -> Incompatible | None:
    """Why this app cannot join the advertised table, naming both versions or the game
    (code and parameters); ``None`` if it can (same game registry, protocol and app)."""
    if ad.game not in ENTRY_MODULES:
        return Incompatible(
            "other_game", {"game": repr(ad.game), "games": ", ".join(ENTRY_MODULES)}
        )
    if ad.protocol != PROTOCOL_VERSION or ad.app != __version__:
        return Incompatible(
            "other_version",
            {"app": ad.app, "protocol": ad.protocol, "our_app": __version__,
             "our_protocol": PROTOCOL_VERSION},
        )  # fmt: skip
    return None


def incompatibility(ad: TableAd) -> str | None:
    """:func:`incompatible` said in the current language (the client's, when it renders)."""
    why = incompatible(ad)
    return None if why is None else why.text()


# --- the serve log ----------------------------------------------------------------------------


class SeatLog:
    """Turns table changes into plain log lines: joins, leaves, bots, starts, ends.

    Args:
        seats: reads the current seats (``TableServer.seats``).
        emit: called with each line (``print`` for ``serve``).
        clock: wall-clock time for the ``HH:MM:SS`` prefix.

    Wire :meth:`changed` to the server's ``on_change``.
    """

    def __init__(
        self,
        seats: Callable[[], Sequence[SeatInfo]],
        emit: Callable[[str], None],
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._seats = seats
        self._emit = emit
        self._clock = clock
        self._before: tuple[SeatInfo, ...] | None = None
        self._phase = "lobby"

    def say(self, line: str) -> None:
        """Emit one line with a time stamp."""
        self._emit(f"{time.strftime('%H:%M:%S', time.localtime(self._clock()))} {line}")

    def changed(self, summary: TableSummary) -> None:
        """Compare with the last seats and phase seen, and emit a line per change."""
        now = tuple(self._seats())
        before = self._before or tuple(SeatInfo("", "open", False) for _ in now)
        self._before = now
        pairs = list(zip(before, now, strict=False))
        # Several seats may change in one frame: each line counts the seats taken
        # once its own change is made, not after all of them.
        later = [int(n.kind != "open") - int(o.kind != "open") for o, n in pairs]
        for seat, (old, new) in enumerate(pairs):
            taken = summary.taken - sum(later[seat + 1 :])
            for line in seat_changes(seat, old, new, over=self._phase == "over"):
                self.say(
                    ngettext(
                        "{line} ({taken}/{seats} seat taken)",
                        "{line} ({taken}/{seats} seats taken)",
                        summary.seats,
                    ).format(line=line, taken=taken, seats=summary.seats)
                )
        if summary.phase != self._phase:
            self._phase = summary.phase
            if summary.phase == "playing":
                names = ", ".join(s.name for s in now)
                self.say(_("Game started: {names}.").format(names=names))
            elif summary.phase == "over":
                self.say(_("Game over."))


def seat_changes(seat: int, old: SeatInfo, new: SeatInfo, *, over: bool = False) -> list[str]:
    """Sentences for what happened at ``seat`` (numbered from 1 for people).

    ``over``: the game has ended, so a disconnection is just someone leaving.
    """
    n = seat + 1
    if old == new:
        return []
    left = _("{name} left seat {n}.")
    if new.kind == "open":
        return [left.format(name=old.name, n=n)] if old.kind != "open" else []
    if old.kind == "open":
        bot = new.kind == "bot"
        sat = _("{name} (bot) sits in seat {n}.") if bot else _("{name} joined seat {n}.")
        return [sat.format(name=new.name, n=n)]
    if old.kind == "human" and new.kind == "bot":
        away = _("A bot plays seat {n} for {name} while they are away.")
        return [away.format(name=new.name, n=n)]
    if old.kind == "bot" and new.kind == "human":
        back = (
            _("{name} took back seat {n} from the bot.")
            if new.connected
            else _("{name} got back seat {n} from the bot.")
        )
        return [back.format(name=new.name, n=n)]
    if old.kind == new.kind == "human" and old.connected != new.connected:
        if new.connected:
            return [_("{name} reconnected to seat {n}.").format(name=new.name, n=n)]
        if over:
            return [left.format(name=new.name, n=n)]
        gone = _("{name} disconnected from seat {n}; the seat is kept for them.")
        return [gone.format(name=new.name, n=n)]
    if old.kind == new.kind == "bot":
        return [_("{name} (bot) now plays seat {n}.").format(name=new.name, n=n)]
    return []


def clean_name(name: str) -> str:
    """A display name the table accepts: printable, at most 24 characters, showing
    something (:func:`net.schema.shows`); else "Player"."""
    text = "".join(ch for ch in name if ch.isprintable()).strip()[:NAME_MAX]
    return text if shows(text) else _("Player")
