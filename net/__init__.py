"""Game-agnostic table server and client: asyncio TCP, msgpack frames, zeroconf discovery.

The pieces, each in its own module:

- :mod:`net.game`: the contract a game implements (``GameDefinition``, ``Match``, ``Agent``).
- :mod:`net.frames`: length-prefixed msgpack frames.
- :mod:`net.schema` and :mod:`net.messages`: every message, typed and checked.
- :mod:`net.connection`: one framed connection with a bounded send queue.
- :mod:`net.table`: seats, tokens, phase and the match; no I/O.
- :mod:`net.turns`: bots and timeout defaults.
- :mod:`net.server` and :mod:`net.client`: ``TableServer`` and ``TableClient``.
"""

from net.client import JoinError, TableClient
from net.frames import MAX_FRAME, PROTOCOL_VERSION, ConnectionLost, FrameError
from net.game import ActionRejected, Agent, GameDefinition, Match, Wire
from net.messages import (
    Ack,
    Bye,
    ErrorReply,
    Lobby,
    SeatInfo,
    ServerMessage,
    TableInfo,
    View,
)
from net.schema import BadMessage
from net.server import TableServer, TableSummary, Timing
from net.table import Refused

__all__ = [
    "MAX_FRAME",
    "PROTOCOL_VERSION",
    "Ack",
    "ActionRejected",
    "Agent",
    "BadMessage",
    "Bye",
    "ConnectionLost",
    "ErrorReply",
    "FrameError",
    "GameDefinition",
    "JoinError",
    "Lobby",
    "Match",
    "Refused",
    "SeatInfo",
    "ServerMessage",
    "TableClient",
    "TableInfo",
    "TableServer",
    "TableSummary",
    "Timing",
    "View",
    "Wire",
]
