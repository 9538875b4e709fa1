"""Finding tables on the LAN with zeroconf (mDNS/DNS-SD), docs/ARCHITECTURE.md "Discovery".

A table is advertised as ``<table name>._<game>._tcp.local.`` with a small
TXT record (all values strings):

=========  ==============================================
``proto``  wire protocol version
``app``    app version of the server
``game``   game name, e.g. ``poissonnier``
``name``   table name as typed by the host
``taken``  seats taken (humans and bots)
``seats``  seats in all
``state``  ``lobby``, ``playing`` or ``over``
``spect``  ``1`` if spectators are allowed, else ``0``
``code``   ``1`` if a join code is required, else ``0``
=========  ==============================================

Discovery results are hints: a client confirms with a TCP hello. This module
knows nothing of any particular game.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import math
import re
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:  # imported where used: a table that is not on the LAN never loads zeroconf
    from zeroconf import ServiceStateChange, Zeroconf
    from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

RESOLVE_TIMEOUT_MS = 3000
"""How long to wait for a table's address and TXT record, in milliseconds."""
GOODBYE_GRACE = 1.5
"""Seconds after a table's goodbye during which a new sighting of it is resolved only
once the goodbye's records have left zeroconf's cache (they linger one second): a stray
"added" right after a goodbye is otherwise answered from that cache and lists the table
again (python-zeroconf issues #34, #178)."""


def service_type(game: str) -> str:
    """The DNS-SD service type for ``game``: ``"_poissonnier._tcp.local."``."""
    return f"_{game}._tcp.local."


@dataclass(frozen=True, slots=True)
class TableAd:
    """What a table says about itself on the LAN.

    Attributes:
        name: the table name.
        address: the best-ranked of ``addresses`` (:func:`rank_addresses`), e.g.
            ``"192.168.1.20"``; what a one-address tool shows.
        port: TCP port of the table server.
        protocol: wire protocol version.
        app: app version of the server.
        game: game name.
        taken / seats: seats taken and seats in all.
        state: ``"lobby"``, ``"playing"`` or ``"over"``.
        spectators: spectators allowed.
        code: a join code is required.
        addresses: every address the table advertised, IPv4 and IPv6, best first
            (likely container/VPN ones last); ``(address,)`` when built from one.
            A joiner tries them all (:func:`net.dial.dial`).
    """

    name: str
    address: str
    port: int
    protocol: int
    app: str
    game: str
    taken: int
    seats: int
    state: str
    spectators: bool
    code: bool = False
    addresses: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.addresses and self.address:
            object.__setattr__(self, "addresses", (self.address,))

    def txt(self) -> dict[str, str]:
        """The TXT record advertised for this table."""
        return {
            "proto": str(self.protocol),
            "app": self.app,
            "game": self.game,
            "name": self.name,
            "taken": str(self.taken),
            "seats": str(self.seats),
            "state": self.state,
            "spect": "1" if self.spectators else "0",
            "code": "1" if self.code else "0",
        }

    def to_json(self) -> dict[str, Any]:
        """A JSON-able map of every field."""
        return {
            "name": self.name, "address": self.address, "port": self.port,
            "protocol": self.protocol, "app": self.app, "game": self.game,
            "taken": self.taken, "seats": self.seats, "state": self.state,
            "spectators": self.spectators, "code": self.code,
            "addresses": list(self.addresses),
        }  # fmt: skip


def _instance_label(name: str) -> str:
    """A DNS-SD instance label from a table name (printable, at most 63 bytes)."""
    label = re.sub(r"[^\w \-']", "", name, flags=re.UNICODE).strip() or "table"
    return label.encode()[:50].decode(errors="ignore")


def _zeroconf_kwargs(interface: str | None) -> dict[str, Any]:
    from zeroconf import IPVersion

    if interface is None:
        return {"ip_version": IPVersion.V4Only}
    return {"interfaces": [interface], "ip_version": IPVersion.V4Only}


CONTAINER_PREFIXES: Final = ("docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "lxc", "cni")
"""Interface name prefixes of container and VM bridges: friends cannot reach them."""
VPN_PREFIXES: Final = ("tun", "tap", "wg", "utun", "tailscale", "zt", "ppp", "ipsec")
"""Interface name prefixes of VPN tunnels: friends on the LAN usually cannot reach them."""
_DOCKER_NET: Final = ipaddress.ip_network("172.17.0.0/16")
_CGNAT_NET: Final = ipaddress.ip_network("100.64.0.0/10")


@dataclass(frozen=True, slots=True)
class HostAddress:
    """One address of this machine, as the host screen lists it.

    Attributes:
        address: the address as text, ``"192.168.1.20"`` or ``"fd00::20"``.
        interface: the interface's name, e.g. ``"wlan0"`` (``""`` if unknown).
        likely: friends on the LAN can likely reach it; ``False`` for a likely
            container bridge or VPN address (see ``note``).
        note: why it is unlikely, e.g. ``"container bridge"``, ``"VPN"``; ``""`` if likely.
    """

    address: str
    interface: str
    likely: bool
    note: str = ""


def address_note(address: str, interface: str = "") -> str:
    """Why ``address`` (on ``interface``) is unlikely to reach friends: ``"container bridge"``,
    ``"VPN"``, ``"link-local"``, or ``""`` when it looks like an ordinary LAN address.

    Judged from the interface's name when known (docker0, br-*, veth*, virbr*: container;
    tun*, tap*, wg*, utun*, tailscale*, zt*: VPN) and from the address: 172.17.0.0/16 is
    Docker's default bridge, 100.64.0.0/10 (carrier-grade NAT) is what Tailscale-like
    VPNs use. Raises nothing: a string that is not an address gives ``""``.
    """
    name = interface.lower()
    if name.startswith(CONTAINER_PREFIXES):
        return "container bridge"
    if name.startswith(VPN_PREFIXES):
        return "VPN"
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return ""
    if ip in _DOCKER_NET:
        return "container bridge"
    if ip in _CGNAT_NET:
        return "VPN"
    if ip.is_link_local:
        return "link-local"
    return ""


def rank_addresses(addresses: Sequence[str]) -> list[str]:
    """``addresses`` without duplicates, best first: ordinary IPv4, ordinary IPv6, then the
    likely container/VPN ones (:func:`address_note`); by address within each group, so
    the same set always comes out in the same order (zeroconf does not keep the
    advertised order)."""

    def key(address: str) -> tuple[bool, bool, bytes]:
        try:
            packed = ipaddress.ip_address(address.split("%")[0]).packed
        except ValueError:
            packed = address.encode()
        return (address_note(address) != "", ":" in address, packed)

    return sorted(set(addresses), key=key)


def host_addresses(interface: str | None = None) -> list[HostAddress]:
    """This machine's usable addresses, IPv4 and IPv6, ranked for friends to use.

    Loopback and IPv6 link-local addresses are left out (a link-local address means
    nothing on another machine without its zone). Ordinary addresses come first
    (IPv4, then IPv6), likely container/VPN ones last (``likely=False``, with a ``note``).

    Args:
        interface: an address of this machine: only that one (as given).

    Returns:
        At least one entry: ``127.0.0.1`` when there is nothing else.
    """
    if interface is not None:
        note = address_note(interface)
        return [HostAddress(interface, "", note == "", note)]
    import ifaddr

    found: list[HostAddress] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            text = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            try:
                parsed = ipaddress.ip_address(text.split("%")[0])
            except ValueError:
                continue
            if parsed.is_loopback or (parsed.version == 6 and parsed.is_link_local):
                continue
            note = address_note(text, adapter.nice_name or adapter.name)
            found.append(HostAddress(text, adapter.nice_name or adapter.name, note == "", note))
    found.sort(key=lambda h: (not h.likely, ":" in h.address))
    return found or [HostAddress("127.0.0.1", "lo", True)]


def advertised_addresses(interface: str | None) -> list[str]:
    """Addresses to advertise, IPv4 and IPv6, best first (:func:`host_addresses`).

    ``interface`` given: just that one. Falls back to ``127.0.0.1`` when the
    machine has no other address.
    """
    return [h.address for h in host_addresses(interface)]


def _packed(address: str) -> bytes:
    """The packed bytes of an IPv4 or IPv6 address (for zeroconf's records)."""
    return ipaddress.ip_address(address).packed


class Advertiser:
    """Registers one table on the LAN, updates its TXT record, unregisters on close.

    Args:
        ad: the table's advertisement (``address`` is ignored; see ``interface``).
        interface: IPv4 address of the interface to use, or ``None`` for all.
    """

    def __init__(self, ad: TableAd, interface: str | None = None) -> None:
        self._ad = ad
        self._interface = interface
        self._zc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None

    def _make_info(self, ad: TableAd) -> AsyncServiceInfo:
        from zeroconf.asyncio import AsyncServiceInfo

        stype = service_type(ad.game)
        host = socket.gethostname().split(".")[0] or "poissonnier"
        return AsyncServiceInfo(
            stype,
            f"{_instance_label(ad.name)}.{stype}",
            addresses=[_packed(a) for a in advertised_addresses(self._interface)],
            port=ad.port,
            properties=ad.txt(),
            server=f"{host}.local.",
        )

    async def start(self) -> None:
        """Register the table; a name clash on the LAN gets a numbered name.

        Raises:
            OSError: no usable network interface.
        """
        from zeroconf.asyncio import AsyncZeroconf

        self._zc = AsyncZeroconf(**_zeroconf_kwargs(self._interface))
        self._info = self._make_info(self._ad)
        await self._zc.async_register_service(self._info, allow_name_change=True)

    async def update(self, **changes: Any) -> None:
        """Change some fields (e.g. ``taken=3, state="playing"``) and re-announce."""
        from zeroconf.asyncio import AsyncServiceInfo

        new = replace(self._ad, **changes)
        if new == self._ad or self._zc is None or self._info is None:
            self._ad = new
            return
        self._ad = new
        info = self._make_info(new)
        # Keep the (possibly renamed) registered instance name.
        info = AsyncServiceInfo(
            info.type, self._info.name, addresses=info.addresses, port=info.port,
            properties=new.txt(), server=info.server,
        )  # fmt: skip
        self._info = info
        await self._zc.async_update_service(info)

    async def close(self) -> None:
        """Unregister (goodbye packets) and close the sockets."""
        if self._zc is None:
            return
        zc, self._zc = self._zc, None
        try:
            if self._info is not None:
                await zc.async_unregister_all_services()
        finally:
            await zc.async_close()


def _ad_from_info(info: AsyncServiceInfo) -> TableAd | None:
    """A :class:`TableAd` from a resolved service, or ``None`` if it is not one of ours."""
    from zeroconf import IPVersion

    props = {
        k.decode(errors="replace"): (v or b"").decode(errors="replace")
        for k, v in (info.properties or {}).items()
    }
    addresses = rank_addresses(
        [a for a in info.parsed_addresses(IPVersion.All) if not a.lower().startswith("fe80")]
    )
    if not addresses or info.port is None:
        return None
    try:
        return TableAd(
            name=props.get("name", info.name.split(".")[0]),
            address=addresses[0],
            addresses=tuple(addresses),
            port=info.port,
            protocol=int(props.get("proto", "0")),
            app=props.get("app", "?"),
            game=props.get("game", "?"),
            taken=int(props.get("taken", "0")),
            seats=int(props.get("seats", "0")),
            state=props.get("state", "?"),
            spectators=props.get("spect", "0") == "1",
            code=props.get("code", "0") == "1",
        )
    except ValueError:
        return None


#: Callback of :class:`Browser`: (instance name, ad or None when the table vanished).
TableCallback = Callable[[str, TableAd | None], None]


class Browser:
    """Watches the LAN for tables of one game, live.

    Args:
        game: game name (service type ``_<game>._tcp.local.``).
        on_change: called in the event loop with ``(instance, ad)`` when a table
            appears or changes, and ``(instance, None)`` when it vanishes.
        interface: IPv4 address of the interface to use, or ``None`` for all.
    """

    def __init__(self, game: str, on_change: TableCallback | None = None,
                 interface: str | None = None) -> None:  # fmt: skip
        self._type = service_type(game)
        self._on_change = on_change
        self._interface = interface
        self._zc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.tables: dict[str, TableAd] = {}
        """Tables seen now, by instance name."""
        self._goodbyes: dict[str, float] = {}
        """Instance name -> when (``time.monotonic()``) it last said goodbye."""

    async def start(self) -> None:
        """Start browsing.

        Raises:
            OSError: no usable network interface.
        """
        from zeroconf.asyncio import AsyncServiceBrowser, AsyncZeroconf

        self._zc = AsyncZeroconf(**_zeroconf_kwargs(self._interface))
        self._browser = AsyncServiceBrowser(
            self._zc.zeroconf, [self._type], handlers=[self._handler]
        )

    def _handler(self, zeroconf: Zeroconf, service_type: str, name: str,
                 state_change: ServiceStateChange) -> None:  # fmt: skip
        from zeroconf import ServiceStateChange

        now = time.monotonic()
        if state_change is ServiceStateChange.Removed:
            self._goodbyes[name] = now
            if self.tables.pop(name, None) is not None and self._on_change:
                self._on_change(name, None)
            return
        since = now - self._goodbyes.get(name, -GOODBYE_GRACE)
        delay = max(0.0, GOODBYE_GRACE - since)
        task = asyncio.ensure_future(self._resolve(zeroconf, service_type, name, now, delay))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(
        self, zeroconf: Zeroconf, service_type: str, name: str, seen: float, delay: float = 0.0
    ) -> None:
        """Resolve ``name`` (after ``delay`` seconds) and list it, unless it said goodbye
        after it was ``seen`` (``time.monotonic()`` of the sighting; :data:`GOODBYE_GRACE`)."""
        from zeroconf.asyncio import AsyncServiceInfo

        if delay:
            await asyncio.sleep(delay)
        info = AsyncServiceInfo(service_type, name)
        if not await info.async_request(zeroconf, RESOLVE_TIMEOUT_MS):
            return
        if self._goodbyes.get(name, -math.inf) >= seen:
            return
        ad = _ad_from_info(info)
        if ad is None or self.tables.get(name) == ad:
            return
        self.tables[name] = ad
        if self._on_change:
            self._on_change(name, ad)

    async def close(self) -> None:
        """Stop browsing and close the sockets."""
        for task in list(self._tasks):
            task.cancel()
        if self._browser is not None:
            await self._browser.async_cancel()
            self._browser = None
        if self._zc is not None:
            await self._zc.async_close()
            self._zc = None


async def discover(game: str, timeout: float = 3.0, interface: str | None = None,
                   want: int | None = None) -> list[TableAd]:  # fmt: skip
    """Browse for ``timeout`` seconds and return the tables found, sorted by name.

    Args:
        game: game name.
        timeout: seconds to listen.
        interface: IPv4 address of the interface to use, or ``None`` for all.
        want: return as soon as this many tables are known.

    Raises:
        OSError: no usable network interface.
    """
    enough = asyncio.Event()
    browser: Browser

    def changed(_: str, __: TableAd | None) -> None:
        if want is not None and len(browser.tables) >= want:
            enough.set()

    browser = Browser(game, changed, interface)
    await browser.start()
    try:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(enough.wait(), timeout)
        return sorted(browser.tables.values(), key=lambda t: (t.name, t.address, t.port))
    finally:
        await browser.close()


def sort_key(ads: Sequence[TableAd]) -> list[TableAd]:
    """Tables in display order: joinable lobbies first, then by name."""
    return sorted(ads, key=lambda t: (t.state != "lobby", t.name.lower(), t.address, t.port))
