"""Table chat: what a player or spectator says, checked, rate-limited and relayed.

Game-agnostic: the server never reads a message's meaning. A client sends
``{type: "chat", text: str}``; the server checks it (:func:`clean_chat`),
takes a token from the sender's own chat budget (:class:`ChatRoom`), and
relays ``{type: "said", seat: int|None, name: str, text: str, after: int}``
to every connection the table's :class:`ChatPolicy` lets hear it. Refused
messages get an ``error`` frame and reach nobody.

Chat is not game state: it never reaches a match, and a table log records it
in records of their own that replaying skips (``net/tablelog.py``).
"""

from __future__ import annotations

import re
import unicodedata
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, Protocol, runtime_checkable

from net.game import Wire
from net.guard import TokenBucket
from net.schema import BLANK_LETTERS, BadMessage
from net.wording import worded

CHAT_MAX: Final = 200
"""Longest chat message, in characters, after cleaning."""

CHAT_WIRE_MAX: Final = 4096
"""Longest ``text`` the schema lets through to :func:`clean_chat` (which then
refuses anything over :data:`CHAT_MAX` with a clear reason)."""

CHAT_RATE: Final = 0.5
"""Chat messages a second one connection may send over time: a person types
one every few seconds at most."""

CHAT_BURST: Final = 5
"""Chat messages one connection may send at once (quick phrases in a row)."""

_SPACES: Final = frozenset("\t\n\r\v\f\x85\u2028\u2029" + BLANK_LETTERS)
_RUNS: Final = re.compile(" {2,}")
_REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


@dataclass(frozen=True)
class ChatRequest:
    """A client says something at the table. Wire: ``{type: "chat", text: str}``.

    Attributes:
        text: What was typed; :func:`clean_chat` decides whether it passes.
    """

    TYPE: ClassVar[str] = "chat"
    text: str

    def to_wire(self) -> Wire:
        """The wire map of this message."""
        return {"type": self.TYPE, "text": self.text}


@dataclass(frozen=True)
class Said:
    """A chat message the server relays.

    Wire: ``{type: "said", seat: int|None, name: str, text: str, after: int}``.

    Attributes:
        seat: The speaker's seat; ``None`` for a spectator.
        name: The speaker's name as the table shows it.
        text: The cleaned message (1 to :data:`CHAT_MAX` characters, no
            control characters).
        after: How many actions the match had taken when it was said (0 in the
            lobby), so a replay of the log shows it at its step. Relayed as 0: a
            listener told it would count moves it may not hear of (R15).
    """

    TYPE: ClassVar[str] = "said"
    seat: int | None
    name: str
    text: str
    after: int = 0

    @property
    def spectator(self) -> bool:
        """Whether a spectator said it."""
        return self.seat is None

    def to_wire(self) -> Wire:
        """The wire map of this message."""
        return {
            "type": self.TYPE,
            "seat": self.seat,
            "name": self.name,
            "text": self.text,
            "after": self.after,
        }


@dataclass(frozen=True)
class ChatPolicy:
    """A table's chat options.

    Attributes:
        spectators_to_players: Whether players hear what spectators say
            (spectators always hear everyone). ``False`` keeps onlookers from
            coaching or spoiling a game.
        rate: See :data:`CHAT_RATE` (messages a second).
        burst: See :data:`CHAT_BURST`.
    """

    spectators_to_players: bool = True
    rate: float = CHAT_RATE
    burst: int = CHAT_BURST


@runtime_checkable
class Talking(Protocol):
    """A bot that may answer what people say at the table (optional).

    The table asks each such bot once per message a person (or spectator)
    says, with its own seat's view; what it answers is said in its name like
    any message (checked and rate-limited per bot). Bots never answer bots.
    """

    def chat_reply(
        self, view: Wire, speaker: int | None, text: str, names: Sequence[str]
    ) -> str | None:
        """What to say back to ``text`` from ``speaker`` (``None``: a spectator), or
        ``None``; ``names`` are the seats' names in seat order."""
        ...


class Voice:
    """The chat budget's key for one bot seat (budgets are kept per sender)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat


def clean_chat(text: str) -> str:
    """The message as relayed: line breaks, tabs and letters that draw nothing
    (:data:`net.schema.BLANK_LETTERS`) become spaces, runs of spaces one, no space at
    either end.

    Raises:
        BadMessage: ``bad_chat`` if it holds any other control or format
            character (terminal escapes, bidirectional overrides...) or
            nothing once cleaned; ``chat_too_long`` beyond :data:`CHAT_MAX`
            characters. Nothing is relayed then.
    """
    kept: list[str] = []
    for char in text:
        if char in _SPACES:
            kept.append(" ")
        elif unicodedata.category(char) in _REFUSED_CATEGORIES:
            raise BadMessage("bad_chat", *worded("chat_control"))
        else:
            kept.append(char)
    cleaned = _RUNS.sub(" ", "".join(kept)).strip(" ")  # no-break spaces stay
    if not cleaned:
        raise BadMessage("bad_chat", *worded("chat_empty"))
    if len(cleaned) > CHAT_MAX:
        raise BadMessage("chat_too_long", *worded("chat_too_long", most=CHAT_MAX, n=len(cleaned)))
    return cleaned


class ChatRoom:
    """Checks and rate-limits what each connection says, and who hears it.

    Args:
        policy: The table's chat options.
        clock: Monotonic clock in seconds (the server's).

    The budgets are kept per connection object, weakly: a connection that
    goes away takes its budget with it.
    """

    def __init__(self, policy: ChatPolicy, clock: Callable[[], float]) -> None:
        self.policy = policy
        self._clock = clock
        self._buckets: weakref.WeakKeyDictionary[object, TokenBucket] = (
            weakref.WeakKeyDictionary()
        )

    def say(self, sender: object, seat: int | None, name: str, text: str, after: int) -> Said:
        """Check ``text`` from ``sender`` (a connection) and return what to relay.

        The budget is spent only by messages that pass the checks, so a
        refused message costs the sender a strike, not a later message.

        Raises:
            BadMessage: see :func:`clean_chat`; ``slow_down`` over the budget
                (:data:`CHAT_RATE`, :data:`CHAT_BURST`).
        """
        cleaned = clean_chat(text)
        bucket = self._buckets.get(sender)
        if bucket is None:
            bucket = TokenBucket(self.policy.rate, self.policy.burst)
            self._buckets[sender] = bucket
        if not bucket.take(self._clock()):
            raise BadMessage("slow_down", *worded("chat_fast"))
        return Said(seat=seat, name=name, text=cleaned, after=after)

    def reaches(self, said: Said, seat: int | None) -> bool:
        """Whether the connection at ``seat`` (``None``: a spectator) hears ``said``."""
        return seat is None or not said.spectator or self.policy.spectators_to_players
