"""The table server's listening socket: dual-stack (IPv6 and IPv4) when it listens on all.

``asyncio.start_server(host=None)`` makes one socket per family, each with its
own port when the port is 0; a table has one port for everyone. So "all
addresses" is one IPv6 socket with ``IPV6_V6ONLY`` off (IPv4 clients arrive as
``::ffff:a.b.c.d``), or, on a machine without IPv6, one IPv4 socket.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from typing import Final

ANY: Final = "::"
"""Listen on every address, IPv6 and IPv4 (falls back to IPv4 alone without IPv6)."""


def listening_socket(host: str, port: int, backlog: int = 100) -> socket.socket:
    """A bound, listening, non-blocking TCP socket for a table server.

    Args:
        host: :data:`ANY` (or ``""``) for every address, dual-stack; otherwise one
            address (IPv4 or IPv6) or a host name, listened on alone.
        port: TCP port; 0 picks a free one (read it from ``getsockname()``).
        backlog: the listen queue length.

    Raises:
        OSError: the address cannot be bound (in use, not an address of this machine).
    """
    if host in (ANY, ""):
        if socket.has_ipv6:
            sock = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
            try:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
                return _bind(sock, ("::", port), backlog)
            except OSError:
                sock.close()  # no IPv6 here after all (disabled in the kernel): IPv4 alone
        return _bind(socket.socket(socket.AF_INET, socket.SOCK_STREAM), ("0.0.0.0", port), backlog)
    family = socket.AF_INET
    with contextlib.suppress(ValueError):
        if ipaddress.ip_address(host.split("%")[0]).version == 6:
            family = socket.AF_INET6
    if family == socket.AF_INET6:
        info = socket.getaddrinfo(host, port, socket.AF_INET6, socket.SOCK_STREAM)
        return _bind(socket.socket(socket.AF_INET6, socket.SOCK_STREAM), info[0][4], backlog)
    address = socket.gethostbyname(host)
    return _bind(socket.socket(socket.AF_INET, socket.SOCK_STREAM), (address, port), backlog)


def _bind(sock: socket.socket, address: tuple[object, ...], backlog: int) -> socket.socket:
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(backlog)
        sock.setblocking(False)
    except BaseException:
        sock.close()
        raise
    return sock
