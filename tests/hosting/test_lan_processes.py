"""LAN play with real processes, found through zeroconf, in a private network namespace.

Every test here runs its body under ``unshare`` (see ``tests/netns.py``): the
only interface is ``lo``, zeroconf binds to 127.0.0.1 (``--interface``), and
no packet reaches a real network. Each process is the real command line
(``poissonnier serve``, ``join --headless``, ``spectate --headless``,
``tables --json``); headless clients play with a bot *in the client*, on the
views they receive, and find the table through discovery, not an address.

Measurements are printed (``pytest -s`` shows them): discovery time from
starting ``serve`` to the table being listed by a browser.
"""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from netns import LOOPBACK, Proc, in_netns, poissonnier, wait_for

from net.client import JoinError, TableClient
from net.discovery import Browser, TableAd
from poissonnier_tui import __version__
from poissonnier_tui.client.headless import play_seat
from poissonnier_tui.games import DEFAULT_GAME as GAME
from poissonnier_tui.games.poissonnier.bots import make_bot
from poissonnier_tui.hosting.lan import DEFAULT_PORT

ADDRESS = f"{LOOPBACK}:{DEFAULT_PORT}"


def result_of(proc: Proc) -> dict[str, Any]:
    """The JSON after ``Result: `` in a process's output."""
    line = proc.line("Result: ")
    assert line is not None, f"{proc.label} printed no result:\n{proc.text}"
    parsed: dict[str, Any] = json.loads(line.split("Result: ", 1)[1])
    return parsed


def last_view(path: Path) -> dict[str, Any]:
    """The last view a headless client recorded."""
    view: dict[str, Any] = json.loads(path.read_text().splitlines()[-1])["view"]
    return view


class Watcher:
    """A zeroconf browser in the test, keeping every (time, ad or None) it hears."""

    def __init__(self) -> None:
        self.heard: list[tuple[float, str, TableAd | None]] = []
        self.browser = Browser(GAME, self._changed, LOOPBACK)

    def _changed(self, name: str, ad: TableAd | None) -> None:
        self.heard.append((time.monotonic(), name, ad))

    def ads(self, table: str) -> list[TableAd]:
        return [ad for _, _, ad in self.heard if ad is not None and ad.name == table]

    def current(self, table: str) -> TableAd | None:
        return next((ad for ad in self.browser.tables.values() if ad.name == table), None)


@in_netns
async def test_served_game_found_by_discovery_ends_alike_for_everyone(tmp_path: Path) -> None:
    watcher = Watcher()
    await watcher.browser.start()
    serve = await poissonnier(
        "serve", "--table", "Friday", "--seats", "4", "--bots", "2", "--level", "easy,medium",
        "--bot-delay", "0",
        "--interface", LOOPBACK, "--start-when-full", "--seed", "11", label="serve",
    )  # fmt: skip
    took = await wait_for(lambda: bool(watcher.ads("Friday")), 10, "the table to be listed")
    print(f"\nMEASURE discovery (serve started -> table listed): {took:.2f} s")
    first = watcher.ads("Friday")[0]
    assert (first.address, first.port, first.taken, first.seats) == (LOOPBACK, DEFAULT_PORT, 2, 4)
    assert (first.state, first.app) == ("lobby", __version__)
    assert (first.spectators, first.code) == (True, False)

    records = {who: tmp_path / f"{who}.jsonl" for who in ("ana", "ben", "spectator")}
    spectator = await poissonnier(
        "spectate", "--headless", "--interface", LOOPBACK, "--record", str(records["spectator"]),
        label="spectator",
    )  # fmt: skip
    ana = await poissonnier(
        "join", "--headless", "--interface", LOOPBACK, "--name", "Ana", "--seed", "1",
        "--record", str(records["ana"]), state=tmp_path / "ana-state", label="Ana",
    )  # fmt: skip
    await wait_for(lambda: spectator.line("Joined") is not None, 15, "the spectator to join")
    await wait_for(lambda: ana.line("Joined") is not None, 15, "Ana to join")
    # The advert follows the seats: 3 of 4 taken, still in the lobby.
    await wait_for(
        lambda: (ad := watcher.current("Friday")) is not None and ad.taken == 3, 5, "TXT taken=3"
    )
    ben = await poissonnier(
        "join", "--headless", "--interface", LOOPBACK, "--name", "Ben", "--seed", "2",
        "--record", str(records["ben"]), state=tmp_path / "ben-state", label="Ben",
    )  # fmt: skip

    assert [await p.wait(60) for p in (ana, ben, spectator, serve)] == [0, 0, 0, 0]
    final = result_of(serve)
    assert final["winners"] and len(final["scores"]) == 4
    for proc in (ana, ben, spectator):
        assert result_of(proc) == final, proc.label
    for who, path in records.items():
        assert last_view(path)["result"] == final, who
    # Found through discovery, not given an address; seats in join order, bots last.
    for proc in (ana, ben, spectator):
        assert proc.line(f"Found table 'Friday' at {ADDRESS}") is not None, proc.text
    assert ana.line("in seat 1") and ben.line("in seat 2") and spectator.line("as a spectator")
    assert last_view(records["ana"])["seat"] == 0 and last_view(records["ben"])["seat"] == 1
    # The serve log: joins, the start, the end, the winner by name.
    log = serve.text
    for line in ("Bot 3 · easy (bot) sits in seat 3.", "Ana joined seat 1. (3/4 seats taken)",
                 "Ben joined seat 2. (4/4 seats taken)",
                 "Game started: Ana, Ben, Bot 3 · easy, Bot 4 · medium.",
                 "Game over.", "Table closed."):  # fmt: skip
        assert line in log, (line, log)
    names = ["Ana", "Ben", "Bot 3 · easy", "Bot 4 · medium"]
    assert f"Winner: {' and '.join(names[w] for w in final['winners'])}." in log
    # The record went from lobby to playing (or straight to over), then vanished (goodbye).
    states = [(ad.taken, ad.state) for ad in watcher.ads("Friday")]
    assert (2, "lobby") in states and (3, "lobby") in states
    assert {"playing", "over"} & {state for _, state in states}
    await wait_for(lambda: watcher.heard[-1][2] is None, 5, "the goodbye")
    assert watcher.browser.tables == {}
    await watcher.browser.close()


@in_netns
async def test_tables_json_lists_a_running_table_then_drops_it() -> None:
    serve = await poissonnier(
        "serve", "--table", "Kitchen", "--seats", "3", "--bots", "1", "--interface", LOOPBACK,
        label="serve",
    )  # fmt: skip
    await wait_for(lambda: serve.line("Advertised") is not None, 10, "serve to advertise")

    async def tables() -> list[dict[str, Any]]:
        listing = await poissonnier("tables", "--json", "--interface", LOOPBACK, "--timeout", "2")
        assert await listing.wait(20) == 0, listing.text
        rows: list[dict[str, Any]] = json.loads(listing.text)
        return rows

    rows = await tables()
    assert [(r["name"], r["address"], r["port"]) for r in rows] == [
        ("Kitchen", LOOPBACK, DEFAULT_PORT)
    ]
    assert (rows[0]["taken"], rows[0]["seats"], rows[0]["state"]) == (1, 3, "lobby")
    assert (rows[0]["joinable"], rows[0]["why_not"], rows[0]["app"]) == (True, None, __version__)
    player = await TableClient.connect(
        LOOPBACK, DEFAULT_PORT, name="Ana", app_version=__version__, game=GAME
    )
    await wait_for(lambda: "Ana joined seat 1. (2/3 seats taken)" in serve.text, 5, "the join")
    await player.close()
    await wait_for(lambda: "Ana left seat 1. (1/3 seats taken)" in serve.text, 5, "the leave")

    serve.proc.send_signal(signal.SIGTERM)
    assert await serve.wait(10) == 0
    assert "Table closed." in serve.text
    assert await tables() == []


@in_netns
async def test_wrong_code_full_table_old_version_and_late_joiner_get_clear_errors(
    tmp_path: Path,
) -> None:
    serve = await poissonnier(
        "serve", "--table", "Secret", "--seats", "3", "--bots", "1", "--code", "sesame",
        "--interface", LOOPBACK, "--bot-delay", "0.01", "--seed", "3", label="serve",
    )  # fmt: skip
    await wait_for(lambda: serve.line("Advertised") is not None, 10, "serve to advertise")

    # A wrong code.
    wrong = await poissonnier("join", "--headless", ADDRESS, "--code", "nope", "--name", "Eve")
    assert await wrong.wait() == 1
    assert "This table's join code is wrong; ask the host for it." in wrong.text
    assert f"poissonnier join {ADDRESS} --code CODE" in wrong.text

    # Another version: both versions are named.
    with pytest.raises(JoinError) as info:
        await TableClient.connect(
            LOOPBACK, DEFAULT_PORT, name="Old", app_version="0.0.9", game=GAME, code="sesame"
        )
    assert info.value.code == "version_mismatch"
    assert f"(app {__version__})" in info.value.message and "(app 0.0.9)" in info.value.message

    # Two players and a spectator; then a fourth person finds the table full.
    ana = await TableClient.connect(
        LOOPBACK, DEFAULT_PORT, name="Ana", app_version=__version__, game=GAME, code="sesame"
    )
    assert ana.seat == 0
    ben = await poissonnier(
        "join", "--headless", ADDRESS, "--code", "sesame", "--name", "Ben", "--seed", "4",
        state=tmp_path / "ben", label="Ben",
    )  # fmt: skip
    spectator = await poissonnier(
        "spectate", "--headless", ADDRESS, "--code", "sesame", label="spectator"
    )
    await wait_for(lambda: bool(ben.line("Joined") and spectator.line("Joined")), 15, "joins")
    full = await poissonnier("join", "--headless", ADDRESS, "--code", "sesame", "--name", "Cy")
    assert await full.wait() == 1
    assert "All 3 seats at this table are taken. Join as a spectator to watch." in full.text
    assert f"To watch instead: poissonnier spectate {ADDRESS}" in full.text

    # The first seat starts; a late joiner is told so, and offered to watch.
    await ana.start()
    await wait_for(lambda: "Game started" in serve.text, 5, "the start")
    late = await poissonnier("join", "--headless", ADDRESS, "--code", "sesame", "--name", "Dee")
    assert await late.wait() == 1
    assert "This game has already started. Join as a spectator to watch." in late.text
    assert f"To watch instead: poissonnier spectate {ADDRESS}" in late.text

    # The table carried on for everyone else: the game ends alike for all.
    final = await play_seat(ana, make_bot("greedy", 5))
    await ana.close()
    assert [await p.wait(60) for p in (ben, spectator, serve)] == [0, 0, 0]
    assert final is not None and final == result_of(serve)
    assert result_of(ben) == final and result_of(spectator) == final
    started = "Game started: Ana, Ben, Bot 3 · medium."
    for line in ("Ana joined seat 1.", "Ben joined seat 2.", started):
        assert line in serve.text
    for name in ("Eve", "Cy", "Dee", "Old"):
        assert name not in serve.text  # refused people never sat down
