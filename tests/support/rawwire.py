"""A hostile client of the tests' own, written against the wire: a socket, 4-byte lengths, msgpack.

It uses nothing of ``net``: what it sends is exactly the bytes it is given,
so it can say what no well-behaved client would (wrong types, bad UTF-8,
floods, half frames) and read what the server answers.
"""

from __future__ import annotations

import asyncio
import struct
from typing import Any

import msgpack

from net.frames import PROTOCOL_VERSION


def frame(msg: Any) -> bytes:
    """``msg`` packed as msgpack behind its 4-byte big-endian length."""
    body: bytes = msgpack.packb(msg, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


def hello(game: str, app: str, name: str = "Raw", **fields: Any) -> dict[str, Any]:
    """A hello map; ``fields`` override or add (``role``, ``token``, ``code``...)."""
    return {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "app": app,
        "game": game,
        "name": name,
        "role": "player",
        **fields,
    }


class Wire:
    """One raw TCP connection to a table on 127.0.0.1."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.frames: list[dict[str, Any]] = []  # everything read so far

    @classmethod
    async def open(cls, port: int, source: str | None = None) -> Wire:
        """Connect to ``127.0.0.1:port``, from ``source`` if given (any 127.x.y.z:
        Linux routes the whole of 127.0.0.0/8 to the loopback, so one test can be
        a stranger with many addresses)."""
        local = None if source is None else (source, 0)
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=local)
        return cls(reader, writer)

    async def send(self, msg: Any) -> None:
        """Send one message as a frame."""
        await self.send_bytes(frame(msg))

    async def send_bytes(self, data: bytes) -> None:
        """Send raw bytes."""
        self.writer.write(data)
        await self.writer.drain()

    async def read(self, timeout: float = 3.0) -> dict[str, Any]:
        """The next frame, decoded (raises ``asyncio.IncompleteReadError`` at EOF)."""
        async with asyncio.timeout(timeout):
            header = await self.reader.readexactly(4)
            body = await self.reader.readexactly(struct.unpack(">I", header)[0])
        msg: dict[str, Any] = msgpack.unpackb(body, raw=False)
        self.frames.append(msg)
        return msg

    async def until(self, kind: str, timeout: float = 3.0) -> dict[str, Any]:
        """Read up to the first frame of type ``kind``; return it."""
        async with asyncio.timeout(timeout):
            while True:
                msg = await self.read(timeout)
                if msg.get("type") == kind:
                    return msg

    async def answer(self, msg: Any, timeout: float = 3.0) -> dict[str, Any]:
        """Send ``msg`` and return the first frame that is not a lobby, ping or view."""
        await self.send(msg)
        async with asyncio.timeout(timeout):
            while True:
                got = await self.read(timeout)
                if got.get("type") not in ("lobby", "ping", "view"):
                    return got

    async def rest(self, timeout: float = 3.0) -> list[dict[str, Any]]:
        """Every frame until the server closes the connection."""
        out: list[dict[str, Any]] = []
        async with asyncio.timeout(timeout):
            while True:
                try:
                    out.append(await self.read(timeout))
                except (asyncio.IncompleteReadError, ConnectionError):
                    return out

    async def quiet_until_pong(self, timeout: float = 3.0) -> list[dict[str, Any]]:
        """Send a ping; return every frame that came before its pong (none if quiet)."""
        await self.send({"type": "ping"})
        out: list[dict[str, Any]] = []
        async with asyncio.timeout(timeout):
            while (msg := await self.read(timeout)).get("type") != "pong":
                if msg.get("type") != "ping":
                    out.append(msg)
        return out

    def close(self) -> None:
        """Close the socket (idempotent)."""
        self.writer.close()
