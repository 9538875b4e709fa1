"""Every message of the protocol: typed records, their schemas, and (de)serialisation.

On the wire a message is a map whose ``"type"`` field names it; the other
fields are listed on each class. :func:`parse_client_message` is the only way
a server turns a decoded frame into something it acts on, and
:func:`parse_server_message` the client's counterpart. Both check the whole
map against a schema first and raise :class:`~net.schema.BadMessage` for
anything off.

Client to server: ``hello``, ``action``, ``start``, ``rematch_answer``, ``chat``,
``draft``, ``ping``, ``pong``, ``bye``. Server to client: ``welcome``, ``lobby``,
``rematch``, ``view``, ``ack``, ``error``, ``said``, ``drafting``, ``ping``, ``pong``,
``bye``. (``chat`` and ``said`` are in :mod:`net.chat`, ``draft`` and
``drafting`` in :mod:`net.drafts`.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal, cast

from net.chat import CHAT_WIRE_MAX, ChatRequest, Said
from net.drafts import Drafting, DraftRequest
from net.frames import MAX_FRAME, SERVER_LIMITS, decode, decode_fields, decode_plain
from net.game import Wire
from net.guard import SECRET_MAX
from net.prices import PriceAsk, PriceAsked, Priced, PriceNamed
from net.schema import (
    BadMessage,
    Bool,
    Int,
    ListOf,
    Nullable,
    OneOf,
    Params,
    Plain,
    Quick,
    Record,
    Spec,
    Str,
)
from net.wording import worded

NAME_MAX: Final = 24
"""Longest player or table name, in characters."""

SEQ_MAX: Final = 2**31 - 1
"""Largest action sequence number a client may use."""

Role = Literal["player", "spectator"]
SeatAnswer = Literal["yes", "no", "waiting", "away", "bot", "open"]
"""Where one seat stands on a proposed rematch (``net/rematch.py``)."""
SeatKind = Literal["human", "bot", "open"]
Phase = Literal["lobby", "playing", "over"]

ACTION_SPEC: Final = Plain(max_depth=8, max_nodes=512, max_str=256)
"""What an action's contents must look like before a game sees them."""

DEAL_SPEC: Final = Plain(max_depth=4, max_nodes=64, max_str=64)
"""What a deal asked about (net/prices.py) must look like before a game sees it."""

# Views come from the server; the frame cap and SERVER_LIMITS already bound
# them, so this only asserts they are plain data.
_VIEW_SPEC: Final = Plain(max_depth=64, max_nodes=1 << 20, max_str=1 << 20)

_NAME: Final = Str(1, NAME_MAX, printable=True)
_TEXT: Final = Str(0, 1024)
_SEAT: Final = Int(0, 255)
_ANSWER_TIME: Final = Record({"id": Int(0), "ms": Int(0)}, open=True)
"""One offer's time left in a view (``View.answers_in_ms``)."""
_SEQ: Final = Int(0, SEQ_MAX)
PARAMS_MAX: Final = 16
"""Most parameters an :class:`ErrorReply` carries."""
_PARAMS: Final = Params(PARAMS_MAX)


# --- client to server ------------------------------------------------------


@dataclass(frozen=True)
class Hello:
    """First message of a client: who it is and what it wants.

    Wire: ``{type: "hello", protocol: int, app: str, game: str, name: str,
    role: "player"|"spectator", token: str|None, code: str|None}``.

    Attributes:
        protocol: The client's :data:`~net.frames.PROTOCOL_VERSION`.
        app: The client's application version, e.g. ``"0.1.0"``.
        game: The game it plays (``GameDefinition.name``).
        name: Display name, 1 to 24 printable characters.
        role: ``"player"`` to take a seat, ``"spectator"`` to watch.
        token: A seat token from an earlier ``welcome``, to reclaim that seat.
        code: The table's join code, if it has one.
    """

    TYPE: ClassVar[str] = "hello"
    protocol: int
    app: str
    game: str
    name: str
    role: Role
    token: str | None = None
    code: str | None = None

    def to_wire(self) -> Wire:
        """The wire map of this message."""
        return {
            "type": self.TYPE,
            "protocol": self.protocol,
            "app": self.app,
            "game": self.game,
            "name": self.name,
            "role": self.role,
            "token": self.token,
            "code": self.code,
        }


@dataclass(frozen=True)
class ActionRequest:
    """A seat's move. Wire: ``{type: "action", seq: int, action: map}``.

    Attributes:
        seq: Chosen by the client (0 to 2**31-1), echoed in ``ack``/``error``.
        action: The game's action map; its meaning is the game's business.
    """

    TYPE: ClassVar[str] = "action"
    seq: int
    action: Wire

    def to_wire(self) -> Wire:
        """The wire map of this message."""
        return {"type": self.TYPE, "seq": self.seq, "action": self.action}


@dataclass(frozen=True)
class _Bare:
    """A message that is its type alone: ``{type: TYPE}``."""

    TYPE: ClassVar[str]

    def to_wire(self) -> Wire:
        """The wire map of this message."""
        return {"type": self.TYPE}


@dataclass(frozen=True)
class Start(_Bare):
    """The host (seat 0) asks to start the game. Wire: ``{type: "start"}``."""

    TYPE: ClassVar[str] = "start"


@dataclass(frozen=True)
class RematchAnswer:
    """A seated player accepts (``yes``) or declines a proposed rematch (``net/rematch.py``).

    Wire: ``{type: "rematch_answer", yes: bool}``.
    """

    TYPE: ClassVar[str] = "rematch_answer"
    yes: bool

    def to_wire(self) -> Wire:
        """The wire map of this message."""
        return {"type": self.TYPE, "yes": self.yes}


# --- both directions -------------------------------------------------------


@dataclass(frozen=True)
class Ping(_Bare):
    """Keep-alive probe; the other side answers :class:`Pong`. Wire: ``{type: "ping"}``."""

    TYPE: ClassVar[str] = "ping"


@dataclass(frozen=True)
class Pong(_Bare):
    """Answer to :class:`Ping`. Wire: ``{type: "pong"}``."""

    TYPE: ClassVar[str] = "pong"


SEAT_GIVEN: Final = "seat_given"
"""``bye`` reason to a player whose seat the host gave away at a rematch (they declined,
left or did not answer, ``net/rematch.py``): the table plays on without them."""

TABLE_CLOSED: Final = "table_closed"
"""``bye`` reason of a table closed by its host before its game started: nothing of it
remains (no seat kept, no log to resume), unlike ``"closing"`` mid-game."""


@dataclass(frozen=True)
class Bye:
    """The sender is closing the connection. Wire: ``{type: "bye", reason: str|None}``.

    A player's ``bye`` in the lobby gives up the seat; during a game the seat
    is kept for a reconnect with its token.

    Attributes:
        reason: Why, as a short code: ``"closing"``, ``"replaced"``, ``"timeout"``...
    """

    TYPE: ClassVar[str] = "bye"
    reason: str | None = None

    def to_wire(self) -> Wire:
        """The wire map of this message."""
        return {"type": self.TYPE, "reason": self.reason}


# --- server to client ------------------------------------------------------


@dataclass(frozen=True)
class TableInfo:
    """What a table says about itself in ``welcome``.

    Wire: ``{name: str, seats: int, spectators: bool}``.

    Attributes:
        name: Table name shown to players.
        seats: Number of seats, bots included.
        spectators: Whether spectators may join.
    """

    name: str
    seats: int
    spectators: bool

    def to_wire(self) -> Wire:
        """The wire map of this record."""
        return {"name": self.name, "seats": self.seats, "spectators": self.spectators}


@dataclass(frozen=True)
class Welcome:
    """The server accepted a hello.

    Wire: ``{type: "welcome", protocol: int, app: str, game: str,
    seat: int|None, token: str|None, table: TableInfo}``.

    Attributes:
        protocol: The server's protocol version.
        app: The server's application version.
        game: The game played at this table.
        seat: The client's seat, ``None`` for a spectator.
        token: Secret that reclaims ``seat`` on reconnect; ``None`` for spectators.
        table: The table's description.
    """

    TYPE: ClassVar[str] = "welcome"
    protocol: int
    app: str
    game: str
    seat: int | None
    token: str | None
    table: TableInfo

    def to_wire(self) -> Wire:
        """The wire map of this message."""
        return {
            "type": self.TYPE,
            "protocol": self.protocol,
            "app": self.app,
            "game": self.game,
            "seat": self.seat,
            "token": self.token,
            "table": self.table.to_wire(),
        }


@dataclass(frozen=True)
class SeatInfo:
    """Public facts about one seat: never anything from the game state.

    Wire: ``{name: str, kind: "human"|"bot"|"open", connected: bool,
    away_ms?: int, defaults_in_ms?: int}`` (the last two only while they are
    known; a reader that does not know them ignores them).

    Attributes:
        name: Player or bot name; ``""`` for an open seat.
        kind: ``"human"`` (held by a token), ``"bot"``, or ``"open"`` (free).
        connected: A human is connected now; always true for bots.
        away_ms: A disconnected human: milliseconds since it went away (table's
            clock, when the frame was built); ``None`` when connected.
        defaults_in_ms: Milliseconds until the table plays this seat's default
            move (the absence grace, or the resume grace of a resumed table, or
            the step's time limit, whichever comes first); ``None`` when the
            table is not waiting on the seat or has no limit for it.
    """

    name: str
    kind: SeatKind
    connected: bool
    away_ms: int | None = None
    defaults_in_ms: int | None = None

    def to_wire(self) -> Wire:
        """The wire map of this record."""
        wire: Wire = {"name": self.name, "kind": self.kind, "connected": self.connected}
        if self.away_ms is not None:
            wire["away_ms"] = self.away_ms
        if self.defaults_in_ms is not None:
            wire["defaults_in_ms"] = self.defaults_in_ms
        return wire


@dataclass(frozen=True)
class Lobby:
    """Who sits where, and the table's phase; sent whenever either changes.

    Wire: ``{type: "lobby", seats: [SeatInfo], started: bool,
    phase: "lobby"|"playing"|"over"}``.
    """

    TYPE: ClassVar[str] = "lobby"
    seats: tuple[SeatInfo, ...]
    started: bool
    phase: Phase

    def to_wire(self) -> Wire:
        """The wire map of this message."""
        return {
            "type": self.TYPE,
            "seats": [s.to_wire() for s in self.seats],
            "started": self.started,
            "phase": self.phase,
        }


@dataclass(frozen=True)
class RematchState:
    """Where a proposed rematch stands (``net/rematch.py``); sent to every connection.

    Wire: ``{type: "rematch", seats: [str] | None}``.

    Attributes:
        seats: one :data:`SeatAnswer` per seat, in seat order; ``None``: no
            rematch is proposed (withdrawn, or the new game began).
    """

    TYPE: ClassVar[str] = "rematch"
    seats: tuple[SeatAnswer, ...] | None

    def to_wire(self) -> Wire:
        """The wire map of this message."""
        return {"type": self.TYPE, "seats": None if self.seats is None else list(self.seats)}


@dataclass(frozen=True)
class View:
    """What the recipient may know of the game now.

    Wire: ``{type: "view", rev: int, view: map, ends_in_ms: int|None,
    answers_in_ms?: [{id: int, ms: int}, ...]}`` (left out when empty).

    Sent only when what the recipient may see changed (its view or the time
    limit): other seats' private moves send nothing.

    Attributes:
        rev: 0 when the match starts, plus one per accepted action that changed
            what the recipient's seat (or the spectators) may see: another seat's
            private move (RULES.md R15) is not counted
            (``net.server.TableServer.rev_for``). So ``rev`` may also stay the
            same when only the time limit changed.
        view: Exactly ``Match.view(seat)`` for the recipient's seat.
        ends_in_ms: Milliseconds, counted from when the frame was sent, until
            the time limit of the step or turn in play runs out (then the
            table plays the default action of every seat still waited on);
            ``None`` when there is no limit now. The same for everyone.
        answers_in_ms: ``(offer id, milliseconds)`` for each offer waiting
            for its answer: the time left, counted from when the frame was
            sent, before the table withdraws it (``net/answers.py``). The
            same for everyone.
    """

    TYPE: ClassVar[str] = "view"
    rev: int
    view: Wire
    ends_in_ms: int | None = None
    answers_in_ms: tuple[tuple[int, int], ...] = ()

    def to_wire(self) -> Wire:
        """The wire map of this message."""
        wire = {
            "type": self.TYPE,
            "rev": self.rev,
            "view": self.view,
            "ends_in_ms": self.ends_in_ms,
        }
        if self.answers_in_ms:
            wire["answers_in_ms"] = [{"id": offer, "ms": ms} for offer, ms in self.answers_in_ms]
        return wire


@dataclass(frozen=True)
class Ack:
    """The action numbered ``seq`` was accepted. Wire: ``{type: "ack", seq: int}``."""

    TYPE: ClassVar[str] = "ack"
    seq: int

    def to_wire(self) -> Wire:
        """The wire map of this message."""
        return {"type": self.TYPE, "seq": self.seq}


@dataclass(frozen=True)
class ErrorReply:
    """Something the client sent was refused; nothing changed.

    Wire: ``{type: "error", code: str, message: str, seq: int|None,
    params?: {str: str|int}}``; ``params`` is left out when there are none, so
    older clients and servers read each other's errors.

    A refusal travels as data: ``code`` and ``params`` let a client that knows
    the game say it in its player's language (e.g. ``{"key": "not_in_hand",
    "card": "T03", "rule": "§3.2"}``); ``message`` is the server's own
    sentence, shown by clients that do not know ``code``.

    Attributes:
        code: Machine-readable, e.g. ``"bad_message"``, ``"not_your_turn"``.
        message: A plain sentence for the player.
        seq: The refused action's ``seq``, or ``None`` if not about an action.
        params: Up to :data:`PARAMS_MAX` named values (keys of 1-32 characters;
            text of at most 256 characters or 64-bit integers), or ``None``.
    """

    TYPE: ClassVar[str] = "error"
    code: str
    message: str
    seq: int | None = None
    params: Mapping[str, str | int] | None = None

    def to_wire(self) -> Wire:
        """The wire map of this message (parameters the schema would refuse are left out)."""
        wire: Wire = {
            "type": self.TYPE,
            "code": self.code,
            "message": self.message,
            "seq": self.seq,
        }
        params = clean_params(self.params or {})
        if params:
            wire["params"] = params
        return wire


def clean_params(params: Mapping[str, object]) -> dict[str, str | int]:
    """The parameters of ``params`` that :class:`ErrorReply`'s schema admits, in order:
    text keys of 1-32 characters whose value is text of at most 256 characters or a
    64-bit integer (never a bool), at most :data:`PARAMS_MAX` of them."""
    out: dict[str, str | int] = {}
    for key, value in params.items():
        if len(out) == PARAMS_MAX:
            break
        if not isinstance(key, str) or not 1 <= len(key) <= 32:
            continue
        text = isinstance(value, str) and len(value) <= 256
        number = isinstance(value, int) and not isinstance(value, bool)
        if text or (number and -(2**63) <= cast(int, value) < 2**63):
            out[key] = cast(str | int, value)
    return out


ClientMessage = (
    Hello | ActionRequest | Start | RematchAnswer | ChatRequest | DraftRequest | PriceAsk
    | PriceNamed | Ping | Pong | Bye
)  # fmt: skip
"""Anything a client may send."""

ServerMessage = (
    Welcome | Lobby | RematchState | View | Ack | ErrorReply | Said | Drafting | PriceAsked
    | Priced | Ping | Pong | Bye
)  # fmt: skip
"""Anything a server may send."""


# --- parsing ---------------------------------------------------------------


def _record(
    required: Mapping[str, Spec], optional: Mapping[str, Spec] | None = None, *, open: bool = False
) -> Record:
    return Record({"type": Str(1, 32), **required}, optional or {}, open=open)


_Parser = tuple[Record, Callable[[Wire], Any]]

_CLIENT: Final[dict[str, _Parser]] = {
    Hello.TYPE: (
        _record(
            {
                "protocol": Int(0, 2**31 - 1),
                "app": Str(1, 32),
                "game": Str(1, 32),
                "name": _NAME,
                "role": OneOf(("player", "spectator")),
            },
            {"token": Nullable(Str(1, SECRET_MAX)), "code": Nullable(Str(0, SECRET_MAX))},
        ),
        lambda m: Hello(
            protocol=m["protocol"],
            app=m["app"],
            game=m["game"],
            name=m["name"],
            role=m["role"],
            token=m.get("token"),
            code=m.get("code"),
        ),
    ),
    ActionRequest.TYPE: (
        _record({"seq": _SEQ, "action": ACTION_SPEC}),
        lambda m: ActionRequest(seq=m["seq"], action=m["action"]),
    ),
    Start.TYPE: (_record({}), lambda m: Start()),
    RematchAnswer.TYPE: (_record({"yes": Bool()}), lambda m: RematchAnswer(m["yes"])),
    DraftRequest.TYPE: (_record({"on": Bool()}), lambda m: DraftRequest(m["on"])),
    PriceAsk.TYPE: (
        _record({"to": _SEAT, "deal": DEAL_SPEC}),
        lambda m: PriceAsk(m["to"], m["deal"]),
    ),
    PriceNamed.TYPE: (
        _record({"to": _SEAT, "deal": DEAL_SPEC, "coins": Nullable(Int(0, 1_000_000))}),
        lambda m: PriceNamed(m["to"], m["deal"], m["coins"]),
    ),
    ChatRequest.TYPE: (
        _record({"text": Str(0, CHAT_WIRE_MAX)}),
        lambda m: ChatRequest(m["text"]),
    ),
    Ping.TYPE: (_record({}), lambda m: Ping()),
    Pong.TYPE: (_record({}), lambda m: Pong()),
    Bye.TYPE: (_record({}, {"reason": Nullable(Str(0, 64))}), lambda m: Bye(m.get("reason"))),
}

_SEAT_ANSWERS: Final = ("yes", "no", "waiting", "away", "bot", "open")

_SEAT_INFO: Final = Record(
    {"name": Str(0, NAME_MAX), "kind": OneOf(("human", "bot", "open")), "connected": Bool()},
    {"away_ms": Nullable(Int(0)), "defaults_in_ms": Nullable(Int(0))},
    open=True,
)

_SERVER: Final[dict[str, _Parser]] = {
    Welcome.TYPE: (
        _record(
            {
                "protocol": Int(0, 2**31 - 1),
                "app": Str(1, 32),
                "game": Str(1, 32),
                "seat": Nullable(_SEAT),
                "token": Nullable(Str(1, 64)),
                "table": Record(
                    {"name": Str(0, 64), "seats": Int(1, 256)},
                    {"spectators": Bool()},
                    open=True,
                ),
            },
            open=True,
        ),
        lambda m: Welcome(
            protocol=m["protocol"],
            app=m["app"],
            game=m["game"],
            seat=m["seat"],
            token=m["token"],
            table=TableInfo(
                name=m["table"]["name"],
                seats=m["table"]["seats"],
                spectators=m["table"].get("spectators", False),
            ),
        ),
    ),
    Lobby.TYPE: (
        _record(
            {
                "seats": ListOf(_SEAT_INFO, hi=256),
                "started": Bool(),
                "phase": OneOf(("lobby", "playing", "over")),
            },
            open=True,
        ),
        lambda m: Lobby(
            seats=tuple(
                SeatInfo(
                    s["name"],
                    s["kind"],
                    s["connected"],
                    s.get("away_ms"),
                    s.get("defaults_in_ms"),
                )
                for s in m["seats"]
            ),
            started=m["started"],
            phase=m["phase"],
        ),
    ),
    RematchState.TYPE: (
        _record({"seats": Nullable(ListOf(OneOf(_SEAT_ANSWERS), hi=256))}, open=True),
        lambda m: RematchState(None if m["seats"] is None else tuple(m["seats"])),
    ),
    View.TYPE: (
        _record(
            {"rev": Int(0), "view": _VIEW_SPEC},
            {"ends_in_ms": Nullable(Int(0)), "answers_in_ms": ListOf(_ANSWER_TIME, hi=256)},
            open=True,
        ),
        lambda m: View(
            m["rev"], m["view"], m.get("ends_in_ms"), _answer_times(m.get("answers_in_ms"))
        ),
    ),
    Ack.TYPE: (_record({"seq": _SEQ}, open=True), lambda m: Ack(m["seq"])),
    Drafting.TYPE: (
        _record({"seat": _SEAT, "ends_in_ms": Nullable(Int(0))}, open=True),
        lambda m: Drafting(m["seat"], m["ends_in_ms"]),
    ),
    PriceAsked.TYPE: (
        _record({"by": _SEAT, "deal": DEAL_SPEC}, open=True),
        lambda m: PriceAsked(m["by"], m["deal"]),
    ),
    Priced.TYPE: (
        _record(
            {"seat": _SEAT, "deal": DEAL_SPEC, "coins": Nullable(Int(0)), "bot": Bool()},
            open=True,
        ),
        lambda m: Priced(m["seat"], m["deal"], m["coins"], m["bot"]),
    ),
    Said.TYPE: (
        _record(
            {"seat": Nullable(_SEAT), "name": Str(0, NAME_MAX), "text": Str(1, 1024)},
            {"after": Int(0)},
            open=True,
        ),
        lambda m: Said(seat=m["seat"], name=m["name"], text=m["text"], after=m.get("after", 0)),
    ),
    ErrorReply.TYPE: (
        _record(
            {"code": Str(1, 64), "message": _TEXT},
            {"seq": Nullable(_SEQ), "params": _PARAMS},
            open=True,
        ),
        lambda m: ErrorReply(
            code=m["code"], message=m["message"], seq=m.get("seq"), params=m.get("params")
        ),
    ),
    Ping.TYPE: (_record({}, open=True), lambda m: Ping()),
    Pong.TYPE: (_record({}, open=True), lambda m: Pong()),
    Bye.TYPE: (
        _record({}, {"reason": Nullable(Str(0, 64))}, open=True),
        lambda m: Bye(m.get("reason")),
    ),
}


def _answer_times(wire: list[Wire] | None) -> tuple[tuple[int, int], ...]:
    """:attr:`View.answers_in_ms` from its checked wire list (absent: none)."""
    return tuple((a["id"], a["ms"]) for a in wire) if wire else ()


def _parse(raw: Wire, table: Mapping[str, _Parser]) -> Any:
    kind = raw.get("type")
    if not isinstance(kind, str):
        raise BadMessage("bad_message", *worded("no_type"))
    parser = table.get(kind)
    if parser is None:
        known = ", ".join(sorted(table))
        raise BadMessage(
            "bad_message", *worded("unknown_type", type=repr(kind[:32]), expected=known)
        )
    spec, build = parser
    spec.check(raw, kind)
    return build(raw)


def parse_client_message(raw: Wire) -> ClientMessage:
    """Check a decoded frame from a client and return it as a typed message.

    A frame its message's quick test passes (:meth:`net.schema.Spec.quick`: True only
    for what the check accepts) is built at once (an action: ≈ 1.6 µs against ≈ 2.9);
    anything else, every refusal included, is decided by the check, which words it.

    Args:
        raw: The map :func:`net.frames.read_frame` returned.

    Returns:
        One of :data:`ClientMessage`.

    Raises:
        BadMessage: Unknown type, missing or unknown field, wrong type or range.
    """
    kind = raw.get("type")
    quick = _CLIENT_QUICK.get(kind) if type(kind) is str else None
    if quick is not None and quick[0](raw):
        return cast(ClientMessage, quick[1](raw))
    return cast(ClientMessage, _parse(raw, _CLIENT))


def parse_server_message(raw: Wire) -> ServerMessage:
    """Check a decoded frame from a server and return it as a typed message.

    Server messages are read tolerantly: unknown extra fields are ignored.

    Args:
        raw: The map :func:`net.frames.read_frame` returned.

    Returns:
        One of :data:`ServerMessage`.

    Raises:
        BadMessage: Unknown type, missing field, wrong type or range.
    """
    return cast(ServerMessage, _parse(raw, _SERVER))


_QuickParser = tuple[Quick, Callable[[Wire], Any]]

_CLIENT_QUICK: Final[dict[str, _QuickParser]] = {
    kind: (spec.quick(), build) for kind, (spec, build) in _CLIENT.items()
}
""":data:`_CLIENT` as quick tests (:meth:`~net.schema.Record.quick`) and the messages' builders."""


def _quick(parser: _Parser, given: Callable[[Plain], Spec]) -> _QuickParser:
    """``parser`` as a quick test (:meth:`~net.schema.Record.quick`) and the message's
    builder, each :class:`~net.schema.Plain` field of its record made ``given(field)``:
    the spec for what the frame's origin already proves (for instance
    :meth:`~net.schema.Plain.given_plain_tokens`)."""
    spec, build = parser

    def given_each(fields: Mapping[str, Spec]) -> dict[str, Spec]:
        return {
            name: given(field) if isinstance(field, Plain) else field
            for name, field in fields.items()
        }

    record = Record(given_each(spec.required), given_each(spec.optional), open=spec.open)
    return record.quick(), build


_SHALLOW: Final = _VIEW_SPEC.max_depth
"""A frame with at most this many maps and lists nests no view deeper than allowed."""

_SERVER_PLAIN_TOKENS: Final = {
    kind: _quick(p, lambda plain: plain.given_plain_tokens(MAX_FRAME))
    for kind, p in _SERVER.items()
}
""":data:`_SERVER` for frames of plain tokens only (:func:`net.frames.decode_plain`)."""

_SERVER_SHALLOW: Final = {
    kind: _quick(p, lambda plain: plain.given_plain_tokens(MAX_FRAME, _SHALLOW))
    for kind, p in _SERVER.items()
}
""":data:`_SERVER_PLAIN_TOKENS` for frames of at most :data:`_SHALLOW` maps and lists."""

_SERVER_DECODED: Final = {kind: _quick(p, Plain.given_decoded) for kind, p in _SERVER.items()}
""":data:`_SERVER` for any frame :func:`net.frames.decode` read, free-form data read
encoded again (:meth:`~net.schema.Plain.given_decoded`)."""


_PLAIN_FIELDS: Final = frozenset(
    name
    for record, _ in _SERVER.values()
    for name, field in (*record.required.items(), *record.optional.items())
    if isinstance(field, Plain)
)
"""The names of the server messages' free-form fields (``view``, ``deal``): the ones
whose bytes :func:`net.frames.decode_fields` reads."""


def _fields_table(scans: Mapping[str, int | None]) -> Mapping[str, _QuickParser]:
    """The quick tests for a map :func:`net.frames.decode_fields` read, given its
    free-form fields' ``scans``.

    A field whose scan is a count is proven plain as a whole frame of plain
    tokens is (:func:`net.frames.decode_plain`): only exact plain types, no more
    values than its bytes and no longer string; and with ``c`` of its bytes that
    could begin a map or a list, a value at depth ``d`` inside it has
    ``d - 1 <= c`` containers above it. So when every scan is a count below
    :data:`_SHALLOW`, the tables made for frames of at most :data:`_SHALLOW` maps
    and lists hold (one more: the frame's own map); with a larger count, those
    for plain tokens; with any field proven nothing, the free-form data is read
    encoded again, as for any frame. Fields of other names are checked by exact
    types and are never free-form.
    """
    table = _SERVER_SHALLOW
    for containers in scans.values():
        if containers is None:
            return _SERVER_DECODED
        if containers >= _SHALLOW:
            table = _SERVER_PLAIN_TOKENS
    return table


def parse_server_frame(payload: bytes) -> ServerMessage:
    """Decode one frame's payload from a server, check it, and return it as a typed message.

    The same answer as ``parse_server_message(decode(payload, SERVER_LIMITS))``,
    the same message or the same error, sooner. The rule: a frame is accepted
    here only where its message's own schema, as quick tests
    (:meth:`net.schema.Spec.quick`: exact types, nothing worded), passes it;
    anything else, every refusal included, is decided by that reference, which
    words the error. The free-form data of a view is not walked:

    * when the bytes hold no float, bin, ext or uint 64 token, msgpack decoding
      with the reference's own options builds only exact plain types within
      every size bound (:func:`net.frames.decode_plain`), so only the depth is
      left, and not even that when the frame holds at most 64 maps and lists (a
      1.3 kB view of the bench: 55-60): ≈ 15 µs for such a view, against ≈ 35 µs
      for the reference (its unpacking alone: ≈ 12). A byte that could begin one
      of those tokens is no doubt where the next bytes rule it out (0xc4-0xc9
      followed by a length that is not zero: a bin or an ext with data, which
      the options refuse; 0xcf followed by a byte below 0x80; 0xd4-0xd8
      always): ``rev`` 196-201 and 212-216, ``log_size`` 199 in the view...
      (:func:`net.frames.decoded_containers`);
    * otherwise (0xca or 0xcb, a float's head, as in ``rev`` 202; 0xcf then
      0x80 or more; 134 of the bench's 7,218 frames), the map is read one field
      at a time, with the reference's own options and limits, so that each
      field's bytes are known (:func:`net.frames.decode_fields`), and the same
      holds of the free-form fields' own bytes (:func:`_fields_table`), where a
      doubt that is not about an empty bin is settled by the value's types,
      read in C; other fields are checked by exact types, and unknown ones are
      not checked, as by the reference: ≈ 18 µs for a bench view with ``rev``
      202, ≈ 25 µs with 202 in the view (≈ 24 and 44 µs before);
    * when a free-form field's own bytes may hold an empty bin, its data is
      encoded again and its tokens read (:class:`net.schema.PlainDecoded`).

    Args:
        payload: One frame's payload, without its length prefix (at most
            :data:`~net.frames.MAX_FRAME` bytes, as :func:`net.frames.read_payload` gives).

    Returns:
        One of :data:`ServerMessage`.

    Raises:
        FrameError: :func:`net.frames.decode` refuses the bytes.
        BadMessage: as :func:`parse_server_message`.
    """
    plain = decode_plain(payload)
    if plain is not None:
        raw, containers = plain
        table = _SERVER_SHALLOW if containers <= _SHALLOW else _SERVER_PLAIN_TOKENS
        message = _quick_read(raw, table)
        if message is not None:
            return message
    elif (fields := decode_fields(payload, _PLAIN_FIELDS)) is not None:
        raw, scans = fields
        message = _quick_read(raw, _fields_table(scans))
        if message is not None:
            return message
    raw = decode(payload, SERVER_LIMITS)  # the reference's own decoding, and its errors
    message = _quick_read(raw, _SERVER_DECODED)
    return parse_server_message(raw) if message is None else message


def _quick_read(raw: Wire, table: Mapping[str, _QuickParser]) -> ServerMessage | None:
    """The message ``raw`` holds if its type's quick test in ``table`` passes it, else ``None``."""
    kind = raw.get("type")
    parser = table.get(kind) if type(kind) is str else None
    if parser is not None and parser[0](raw):
        return cast(ServerMessage, parser[1](raw))
    return None


def check_action(action: object) -> Wire:
    """Check an action map from any source (client or bot) against :data:`ACTION_SPEC`.

    Returns:
        ``action`` itself, typed as a wire map.

    Raises:
        BadMessage: Not a plain map within bounds.
    """
    ACTION_SPEC.check(action, "action")
    return cast(Wire, action)
