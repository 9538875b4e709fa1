"""Real laptops' networks, in private namespaces: a host with an address its friends cannot
reach, IPv6, and lobbies that notice a dead table (``tables --watch``).

Each test runs inside the namespace ``tests/support/netns.py`` makes; the first
also makes a second namespace for the joiner, joined to the host's by a veth
pair, so the joiner really cannot reach one of the host's addresses.

Measured (``pytest -s``): dead table -> marked / gone in an open lobby.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from netns import (
    ENV,
    LOOPBACK,
    ROOT,
    Proc,
    has_ipv6_loopback,
    in_netns,
    poissonnier,
    wait_for,
)
from test_lan_processes import result_of

from poissonnier_tui.hosting.lan import DEFAULT_PORT


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


def own_netns(pid: int) -> bool:
    """Whether process ``pid`` is in a network namespace other than this process's."""
    try:
        return os.readlink(f"/proc/{pid}/ns/net") != os.readlink("/proc/self/ns/net")
    except OSError:  # not started yet, or already gone
        return False


UNREACHABLE = "10.1.1.1"
"""On the host's side; the joiner's route to it leads to a gateway that never answers
(like a Docker bridge or a VPN address seen from a friend's laptop: SYNs go nowhere)."""
REACHABLE = "100.64.2.1"
"""Also the host's, on the link the joiner shares. In 100.64.0.0/10 on purpose: ranked
after the other (likely a VPN), so the unreachable one is tried first."""

JOINER_SCRIPT = """
for i in $(seq 1 200); do ip link show lan1 >/dev/null 2>&1 && break; sleep 0.05; done
ip link set lo up && ip link set lo multicast on
ip addr add 100.64.2.2/24 dev lan1 && ip link set lan1 up
ip route add 10.1.1.0/24 via 100.64.2.99
exec "$0" -m poissonnier_tui.cli "$@"
"""


@in_netns
async def test_first_advertised_address_unreachable_discovery_and_join_still_work(
    tmp_path: Path,
) -> None:
    ip("link", "add", "lan0", "type", "veth", "peer", "name", "lan1")
    try:
        ip("addr", "add", f"{UNREACHABLE}/24", "dev", "lan0")
        ip("addr", "add", f"{REACHABLE}/24", "dev", "lan0")
        ip("link", "set", "lan0", "up")
        serve = await poissonnier(
            "serve", "--table", "Veth", "--seats", "2", "--bots", "1", "--bot-delay", "0",
            "--start-when-full", "--seed", "4", label="serve",
        )  # fmt: skip
        await wait_for(lambda: serve.line("Advertised") is not None, 10, "serve to advertise")
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "XDG_STATE_HOME": str(tmp_path / "s")}
        env.pop(ENV, None)
        proc = await asyncio.create_subprocess_exec(
            "unshare", "-n", "sh", "-c", JOINER_SCRIPT, sys.executable,
            "join", "--headless", "--table", "Veth", "--name", "Ana", "--find-timeout", "20",
            cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
        joiner = Proc(proc, "joiner")
        # Move lan1 only once `unshare` has made the joiner's namespace: moved before
        # that, it would land in ours again and the joiner would never see it.
        await wait_for(lambda: own_netns(proc.pid), 10, "the joiner's network namespace")
        ip("link", "set", "lan1", "netns", str(proc.pid))
        assert await joiner.wait(60) == 0, joiner.text
        assert await serve.wait(15) == 0, serve.text
        # Discovery handed over both addresses, the unreachable one first; the join
        # went through the other.
        found = joiner.line("Found table 'Veth' at")
        assert found is not None and f"{UNREACHABLE}:{DEFAULT_PORT}" in found, joiner.text
        joined = joiner.line("Joined 'Veth' (Le Poissonnier) at")
        assert joined is not None and f"{REACHABLE}:{DEFAULT_PORT}" in joined, joiner.text
        assert result_of(joiner) == result_of(serve)
    finally:
        subprocess.run(["ip", "link", "del", "lan0"], capture_output=True, timeout=10)


@in_netns
async def test_join_by_ipv6_address_plays_a_served_game(tmp_path: Path) -> None:
    if not has_ipv6_loopback():
        pytest.skip("no IPv6 loopback (::1) in this namespace: IPv6 is disabled here")
    serve = await poissonnier(
        "serve", "--table", "Six", "--seats", "2", "--bots", "1", "--bot-delay", "0",
        "--start-when-full", "--seed", "6", "--port", "7396", label="serve",
    )  # fmt: skip
    await wait_for(lambda: serve.line("Advertised") is not None, 10, "serve to listen")
    joiner = await poissonnier(
        "join", "--headless", "[::1]:7396", "--name", "Ana", state=tmp_path / "s", label="Ana"
    )
    assert await joiner.wait(60) == 0, joiner.text
    assert await serve.wait(15) == 0, serve.text
    joined = joiner.line("Joined 'Six' (Le Poissonnier) at [::1]:7396 in seat 1")
    assert joined is not None, joiner.text
    assert result_of(joiner) == result_of(serve)


@in_netns
async def test_tables_watch_marks_a_killed_table_then_drops_it() -> None:
    serve = await poissonnier(
        "serve", "--table", "Gone", "--seats", "3", "--interface", LOOPBACK, label="serve"
    )
    await wait_for(lambda: serve.line("Advertised") is not None, 10, "serve to advertise")
    # A short --timeout still hears the table (it listens long enough, and says so).
    listing = await poissonnier("tables", "--json", "--interface", LOOPBACK, "--timeout", "1")
    assert await listing.wait(20) == 0, listing.text
    assert "Listening 2 s rather than 1 s" in listing.text
    rows = json.loads(next(line for line in listing.lines if line.startswith("[")))
    assert [r["name"] for r in rows] == ["Gone"]

    watch = await poissonnier(
        "tables", "--watch", "--json", "--interface", LOOPBACK, "--timeout", "60", label="watch"
    )

    def events(kind: str) -> list[dict[str, Any]]:
        found = [json.loads(line) for line in watch.lines if line.startswith("{")]
        return [e for e in found if e["event"] == kind and e["name"] == "Gone"]

    await wait_for(lambda: bool(events("listed")), 15, "the table to be listed")
    serve.kill()  # no goodbye: zeroconf would keep the record for its TTL
    killed = time.monotonic()
    await serve.wait()
    marked = await wait_for(lambda: bool(events("not answering")), 5, "the row to be marked")
    await wait_for(lambda: bool(events("gone")), 15 - (time.monotonic() - killed), "gone")
    gone = time.monotonic() - killed
    print(f"\nMEASURE dead table -> marked not answering: {marked:.2f} s, gone: {gone:.2f} s")
    watch.proc.send_signal(signal.SIGINT)
    assert await watch.wait(10) == 0, watch.text
