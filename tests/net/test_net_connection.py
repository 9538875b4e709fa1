"""A connection writes a frame straight to the socket when nothing waits before it, and
through its writer task otherwise: every frame arrives, in the order sent
(net/connection.py)."""

from __future__ import annotations

import asyncio
import socket
import struct
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import msgpack

from net.connection import FramedConnection
from net.frames import CLIENT_LIMITS, SERVER_LIMITS, encode, read_frame


@asynccontextmanager
async def pair(
    queue_size: int = 256,
) -> AsyncIterator[tuple[FramedConnection, asyncio.StreamReader]]:
    """A sending connection (accepted by a server) and the raw reader of its peer."""
    accepted: asyncio.Queue[FramedConnection] = asyncio.Queue()

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 65536)
        accepted.put_nowait(
            FramedConnection(reader, writer, limits=CLIENT_LIMITS, queue_size=queue_size)
        )

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
    conn = await accepted.get()
    try:
        yield conn, reader
    finally:
        conn.abort("done")
        await conn.wait_closed(1.0)
        writer.close()
        server.close()
        await server.wait_closed()


async def test_a_frame_with_nothing_before_it_goes_without_the_writer_task() -> None:
    async with pair() as (conn, reader):
        sent: list[bytes] = []
        real = conn._writer.transport.write

        def write(data: bytes | bytearray | memoryview) -> None:
            sent.append(bytes(data))
            real(data)

        conn._writer.transport.write = write  # type: ignore[method-assign]
        frame = encode({"type": "ping"})
        assert conn.send_frame(frame)
        assert sent == [frame]  # written before this call returned: no task switch
        assert not conn._busy and conn._queue.empty()
        assert await read_frame(reader, SERVER_LIMITS) == {"type": "ping"}


async def test_a_burst_larger_than_the_socket_arrives_whole_and_in_order() -> None:
    body = "x" * 30_000
    count = 24  # 720 kB: more than the (small) socket buffers and the transport take
    async with pair() as (conn, reader):
        queued = 0
        for n in range(count):
            assert conn.send({"type": "said", "n": n, "text": body})
            queued += conn._busy
        assert queued > 0  # some frames waited in the queue behind unsent bytes
        got = []
        for _ in range(count):
            (size,) = struct.unpack(">I", await reader.readexactly(4))
            got.append(msgpack.unpackb(await reader.readexactly(size))["n"])
        assert got == list(range(count))
        # once the writer task has caught up, frames go straight to the socket again
        async with asyncio.timeout(10):
            while conn._busy:
                await asyncio.sleep(0.01)
        assert conn.send({"type": "said", "n": count, "text": ""})
        assert conn._queue.empty()
        assert (await read_frame(reader, SERVER_LIMITS))["n"] == count


async def test_a_peer_that_never_reads_is_still_dropped_when_the_queue_fills() -> None:
    async with pair(queue_size=4) as (conn, _reader):
        body = "x" * 60_000
        results = [conn.send({"type": "said", "text": body}) for _ in range(400)]
        assert results[0] and not results[-1]  # the first went out; later ones are refused
        assert conn.closing and conn.close_reason == "slow"
