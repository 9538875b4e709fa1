"""Every address, tried: ranking the host's addresses, happy-eyeballs dialling, dual-stack
listening, and the table closed from its lobby (loopback only, no multicast)."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import ifaddr
import pytest
from netns import has_ipv6_loopback
from test_net_server import APP, HOST, serving

from net.client import JoinError, TableClient
from net.dial import Streams, dial, race_streams
from net.discovery import TableAd, address_note, host_addresses, rank_addresses
from net.listen import ANY, listening_socket
from net.messages import TABLE_CLOSED, Bye
from net.table import Refused


def test_address_notes_mark_containers_and_vpns() -> None:
    assert address_note("192.168.1.20", "wlan0") == ""
    assert address_note("fd00::20", "eth0") == ""
    assert address_note("10.0.0.5", "docker0") == "container bridge"
    assert address_note("10.0.0.5", "br-5f2a") == "container bridge"
    assert address_note("10.0.0.5", "veth12ab") == "container bridge"
    assert address_note("192.168.122.1", "virbr0") == "container bridge"
    assert address_note("10.8.0.2", "tun0") == "VPN"
    assert address_note("10.8.0.2", "wg0") == "VPN"
    assert address_note("10.8.0.2", "utun3") == "VPN"
    assert address_note("10.8.0.2", "tailscale0") == "VPN"
    assert address_note("10.8.0.2", "zt7nnig26") == "VPN"
    # Without the interface's name (a joiner), the address alone.
    assert address_note("172.17.0.1") == "container bridge"
    assert address_note("100.100.1.2") == "VPN"
    assert address_note("172.18.0.1") == ""
    assert address_note("fe80::1") == "link-local"
    assert address_note("not an address") == ""


def test_rank_puts_ordinary_ipv4_then_ipv6_then_container_and_vpn_last() -> None:
    got = rank_addresses(["172.17.0.1", "fd00::20", "100.64.0.7", "192.168.1.20", "192.168.1.20"])
    assert got == ["192.168.1.20", "fd00::20", "100.64.0.7", "172.17.0.1"]
    # Whatever order zeroconf hands them in.
    assert rank_addresses(["10.0.0.9", "10.0.0.2"]) == rank_addresses(["10.0.0.2", "10.0.0.9"])


class _Adapter:
    def __init__(self, name: str, *ips: Any) -> None:
        self.name = self.nice_name = name
        self.ips = [ifaddr.IP(ip, 24, name) for ip in ips]


def test_host_addresses_lists_ipv4_and_ipv6_with_a_likely_flag(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    adapters = [
        _Adapter("lo", "127.0.0.1", ("::1", 0, 0)),
        _Adapter("docker0", "172.17.0.1"),
        _Adapter("wlan0", "192.168.1.20", ("fd00::20", 0, 0), ("fe80::1", 0, 2)),
        _Adapter("wg0", "10.8.0.2"),
    ]
    monkeypatch.setattr(ifaddr, "get_adapters", lambda: adapters)
    got = [(h.address, h.interface, h.likely, h.note) for h in host_addresses()]
    assert got == [
        ("192.168.1.20", "wlan0", True, ""),
        ("fd00::20", "wlan0", True, ""),
        ("172.17.0.1", "docker0", False, "container bridge"),
        ("10.8.0.2", "wg0", False, "VPN"),
    ]
    assert [h.address for h in host_addresses("10.1.2.3")] == ["10.1.2.3"]


def test_table_ad_carries_every_address() -> None:
    ad = TableAd("T", "10.0.0.2", 7374, 1, "1", "g", 1, 4, "lobby", True)
    assert ad.addresses == ("10.0.0.2",)
    both = TableAd("T", "10.0.0.2", 7374, 1, "1", "g", 1, 4, "lobby", True,
                   addresses=("10.0.0.2", "fd00::2"))  # fmt: skip
    assert both.to_json()["addresses"] == ["10.0.0.2", "fd00::2"]


def _ad_from(addresses: list[str]) -> TableAd | None:
    from zeroconf.asyncio import AsyncServiceInfo

    from net.discovery import _ad_from_info

    info = AsyncServiceInfo(
        "_g._tcp.local.", "T._g._tcp.local.", parsed_addresses=addresses, port=7374,
        properties={"name": "T", "proto": "1", "game": "g", "seats": "4", "state": "lobby"},
    )  # fmt: skip
    return _ad_from_info(info)


def test_a_resolved_advert_keeps_ipv4_and_ipv6_ranked() -> None:
    ad = _ad_from(["172.17.0.1", "192.168.1.20", "fd00::20", "fe80::1"])
    assert ad is not None
    assert ad.addresses == ("192.168.1.20", "fd00::20", "172.17.0.1")  # no link-local
    assert ad.address == "192.168.1.20"  # not the Docker bridge


async def test_dial_skips_an_address_that_hangs_and_says_which_worked() -> None:
    cancelled: list[str] = []

    async def opener(host: str, port: int) -> Streams:
        if host == "10.255.0.1":  # a container bridge seen from elsewhere: SYNs go nowhere
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                cancelled.append(host)
                raise
        return await asyncio.open_connection(host, port)

    async with serving() as server:
        dialled = await dial(
            ["10.255.0.1", HOST], server.port, name="Ana", app_version=APP, game="count",
            timeout=60.0, opener=opener,
        )  # fmt: skip
        assert (dialled.host, dialled.client.seat) == (HOST, 0)
        assert dialled.address == f"{HOST}:{server.port}"
        assert cancelled == ["10.255.0.1"]  # cancelled once the other won, not timed out
        assert [s.name for s in server.seats() if s.kind == "human"] == ["Ana"]  # one hello
        await dialled.client.close()


async def test_dial_moves_on_at_once_when_an_address_fails_and_names_them_all() -> None:
    async with serving() as server:
        # Nothing listens on port 1 of 127.0.0.3: refused at once, then the real table.
        refused = listening_socket(HOST, 0)
        port = refused.getsockname()[1]
        refused.close()
        dialled = await dial(
            ["127.0.0.3", HOST], server.port, name="Ana", app_version=APP, game="count"
        )
        assert dialled.host == HOST
        await dialled.client.close()
        with pytest.raises(JoinError) as info:
            await dial([HOST, "127.0.0.3"], port, name="Ana", app_version=APP, game="count")
        assert info.value.code == "unreachable"
        assert f"{HOST}:{port}" in info.value.message and f"127.0.0.3:{port}" in info.value.message


async def test_dial_stops_at_a_refusal_from_the_table() -> None:
    async with serving(code="1234") as server:
        with pytest.raises(JoinError) as info:
            await dial([HOST, HOST], server.port, name="Ana", app_version=APP, game="count")
        assert info.value.code == "bad_code"


async def test_race_closes_streams_that_open_after_the_winner() -> None:
    opened: list[asyncio.StreamWriter] = []

    async def opener(host: str, port: int) -> Streams:
        streams = await asyncio.open_connection(HOST, port)
        opened.append(streams[1])
        return streams

    async with serving() as server:
        host, (_reader, writer) = await race_streams(
            ["a", "b", "c"], server.port, stagger=0.0, opener=opener
        )
        assert host == "a" and writer is opened[0]
        await asyncio.sleep(0)
        assert all(w.is_closing() for w in opened[1:])
        writer.close()


async def test_server_on_any_takes_ipv4_and_ipv6_on_one_port() -> None:
    async with serving(host=ANY) as server:
        four = await TableClient.connect(
            HOST, server.port, name="Ana", app_version=APP, game="count"
        )
        assert four.seat == 0
        if has_ipv6_loopback():
            six = await TableClient.connect(
                "::1", server.port, name="Ben", app_version=APP, game="count"
            )
            assert six.seat == 1
            await six.close()
        await four.close()


def test_listening_socket_on_one_ipv6_address() -> None:
    if not has_ipv6_loopback():
        pytest.skip("this machine has no IPv6 loopback (::1)")
    sock = listening_socket("::1", 0)
    try:
        assert sock.family == socket.AF_INET6 and sock.getsockname()[0] == "::1"
    finally:
        sock.close()


async def test_a_table_closed_from_its_lobby_says_so() -> None:
    async with serving() as server:
        client = await TableClient.connect(
            HOST, server.port, name="Ana", app_version=APP, game="count"
        )
        await server.close()
        seen = [msg async for msg in client.messages()]
        assert isinstance(seen[-1], Bye) and seen[-1].reason == TABLE_CLOSED
        assert client.bye_reason == TABLE_CLOSED
        assert client.lost_reason is not None and "closed the table" in client.lost_reason
        assert "kept" not in client.lost_reason
        await client.close()


async def test_start_refusal_names_the_open_seat_as_people_count() -> None:
    async with serving(seats=4, bots=None) as server:
        clients = [
            await TableClient.connect(HOST, server.port, name=n, app_version=APP, game="count")
            for n in ("A", "B", "C")
        ]
        with pytest.raises(Refused) as info:
            await server.start()
        assert info.value.code == "seats_open"
        assert "Seat 4 is still open" in info.value.message  # the fourth seat (index 3)
        for client in clients:
            await client.close()
