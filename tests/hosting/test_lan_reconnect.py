"""A crashed host brings everyone back by itself (real processes, private namespace).

Two ``join --headless`` clients, found through zeroconf, play a served table
with two bots. The ``serve`` process is SIGKILLed mid-game, then resumed a
few seconds later (``serve --resume last``, same port). The clients are never
restarted: each notices the loss, keeps trying (``net.reconnect``), retakes
its seat with its token, and plays to the end. Checked: both finish with the
table's result; after the resume, every logged move of their seats is one the
client itself sent and saw acknowledged (so no R6 default was played for a
connected seat: the resumed table's longer grace covers the reconnect).

Measured (``pytest -s``): resume started -> every client back in its seat.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from netns import LOOPBACK, Proc, in_netns, poissonnier, wait_for
from test_lan_processes import result_of

from net.tablelog import LogDamaged, read_log
from poissonnier_tui.client.joining import moves_path
from poissonnier_tui.hosting.persistence import games_dir

PORT = 7395


def views(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def acked_moves(record: Path, since_conn: int) -> list[dict[str, Any]]:
    """The moves the table acknowledged to this client on connections ``>= since_conn``."""
    sent: dict[tuple[int, int], dict[str, Any]] = {}
    acked: list[dict[str, Any]] = []
    for line in moves_path(record).read_text().splitlines():
        entry = json.loads(line)
        if "sent" in entry:
            sent[(entry["conn"], entry["seq"])] = entry["sent"]
        elif entry["conn"] >= since_conn:
            acked.append(sent[(entry["conn"], entry["ack"])])
    return acked


@in_netns
async def test_killed_host_resumed_and_both_players_come_back_by_themselves(
    tmp_path: Path,
) -> None:
    serve = await poissonnier(
        "serve", "--table", "Mend", "--seats", "4", "--bots", "2", "--bot-delay", "0.02",
        "--port", str(PORT), "--interface", LOOPBACK, "--start-when-full", "--seed", "5",
        label="serve",
    )  # fmt: skip
    await wait_for(lambda: serve.line("Advertised") is not None, 10, "serve to advertise")
    records = [tmp_path / "ana.jsonl", tmp_path / "ben.jsonl"]
    players: list[Proc] = []
    for i, who in enumerate(("Ana", "Ben")):
        players.append(
            await poissonnier(
                "join", "--headless", "--interface", LOOPBACK, "--table", "Mend", "--name", who,
                "--seed", str(i), "--bot", "greedy", "--record", str(records[i]),
                state=tmp_path / f"{who}-state", label=who,
            )
        )
    # Mid-game: both have seen a dozen views.
    await wait_for(lambda: all(len(views(r)) >= 12 for r in records), 30, "the game to go on")
    serve.kill()
    await serve.wait()
    # Each notices and keeps trying by itself (a failed attempt shows it is in the loop).
    await wait_for(
        lambda: all("failed, next in" in p.text for p in players), 15, "reconnect attempts"
    )
    (path,) = games_dir().glob("*.plog")
    try:
        logged = len(read_log(path).actions)
    except LogDamaged as exc:  # the kill tore the last record: resume cuts it
        assert exc.log is not None
        logged = len(exc.log.actions)
    resumed_at = time.monotonic()
    serve = await poissonnier(
        "serve", "--resume", "last", "--yes", "--interface", LOOPBACK, "--bot-delay", "0.02",
        label="resumed serve",
    )  # fmt: skip
    await wait_for(lambda: all("Back at" in p.text for p in players), 30, "both back")
    back = time.monotonic() - resumed_at
    print(f"\nMEASURE host resume -> every client back in its seat: {back:.2f} s")
    assert [await p.wait(90) for p in players] == [0, 0], [p.text for p in players]
    assert await serve.wait(15) == 0, serve.text
    final = result_of(serve)
    for p in players:
        assert result_of(p) == final
        assert p.line("Lost the table") is not None
        line = p.line("Back at")
        assert line is not None and f"{LOOPBACK}:{PORT}" in line
    seats = [views(r)[-1]["view"]["seat"] for r in records]
    assert sorted(seats) == [0, 1]  # the two human seats; bots sit in 3 and 4
    for p, seat in zip(players, seats, strict=True):
        assert p.line(f"in seat {seat + 1}") is not None
    # After the resume, each player's seat moved only as the player did: every logged
    # move of seats 0 and 1 is one that client sent on its new connection and saw
    # acknowledged, in order (a default played by the table would be missing there).
    log = read_log(path)
    assert log.end == final
    after = log.actions[logged:]
    for seat, record in zip(seats, records, strict=True):
        theirs = [a.action for a in after if a.seat == seat]
        assert theirs, f"seat {seat} made no move after the resume"
        assert theirs == acked_moves(record, since_conn=1), seat
