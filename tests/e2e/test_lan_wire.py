"""What crosses the wire at a LAN table: no leaks, and a crashed client's seat comes back.

The table runs in the test (``tables.open_table``, advertised with zeroconf
like ``serve``) with a game that lets the test see the real state at every
revision; the four players and the spectator are real ``poissonnier join
--headless`` / ``spectate --headless`` processes that find the table through
discovery and record every view frame they receive. All inside a private
network namespace (``tests/netns.py``). One game serves both checks, which
also puts the reconnect resync itself under the leak check (docs/ARCHITECTURE.md lists
"a reconnect resync that skips redaction" among the failures to avoid):

* Reconnect: one player is SIGKILLed mid-game and started again; it finds
  its saved token, gets its seat back, and its first view is exactly the
  server's view for that seat; then it plays to the end. Reconnect time is
  printed.
* Leak test (RULES.md §9, docs/ARCHITECTURE.md "one door"): over the whole game, with
  deals, no frame to a seat names a fish card hidden from that seat at that
  revision, and the spectator sees no fish card id at all, nor a card of the
  client deck outside the log.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from netns import LOOPBACK, in_netns, poissonnier, wait_for
from test_e2e_tcp import FISH_ID, RecordingGame, hidden_from, strings
from told import revisions_for, told_revisions

from poissonnier_tui.hosting.tables import TableSettings, open_table

PLAYERS = 4
VICTIM = 1
"""The index of the player process that is killed and restarted."""


def frames(path: Path) -> list[dict[str, Any]]:
    """Every view frame a headless client recorded: ``{"rev", "view"}`` maps."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def jsonish(value: Any) -> Any:
    """``value`` as it reads back from the client's JSON record."""
    return json.loads(json.dumps(value))


@in_netns
async def test_killed_client_gets_its_seat_back_and_no_frame_leaks_across_the_game(
    tmp_path: Path,
) -> None:
    hidden: list[list[set[str]]] = []  # per revision: per seat, then the spectator
    client_decks: list[set[str]] = []  # per revision
    views: list[list[Any]] = []  # per revision: every seat's view, then the spectator's, as JSON

    def record() -> None:
        assert game.match is not None
        state = game.match.state
        hidden.append([hidden_from(state, s) for s in range(PLAYERS)] + [hidden_from(state, None)])
        client_decks.append(set(state.client_deck))
        views.append([jsonish(game.match.view(s)) for s in (*range(PLAYERS), None)])

    game = RecordingGame(record)  # records revision 0 when the game is dealt
    settings = TableSettings(
        name="Wire", seats=PLAYERS, interface=LOOPBACK, start_when_full=True, seed=2024,
        port=0, absent_grace=None,  # the table waits for the crashed player: a still state
    )  # fmt: skip
    table = await open_table(settings, game=game)
    saving = table.server.on_action  # the table's own log keeps its hook

    async def on_action(seat: int, action: Mapping[str, Any]) -> None:
        if saving is not None:
            await saving(seat, dict(action))
        record()  # after apply, before anyone hears of it: revision len(hidden) - 1

    table.server.on_action = on_action
    paths = [tmp_path / f"player{i}.jsonl" for i in range(PLAYERS)]
    paths.append(tmp_path / "spectator.jsonl")
    again_path = tmp_path / "player-again.jsonl"
    state_dir = tmp_path / "victim-state"

    def player(i: int, record: Path, label: str) -> Any:
        state = state_dir if i == VICTIM else tmp_path / f"state{i}"
        return poissonnier(
            "join", "--headless", "--interface", LOOPBACK, "--name", f"P{i}",
            "--seed", str(7 + i), "--record", str(record), state=state, label=label,
        )  # fmt: skip

    try:
        watcher = await poissonnier(
            "spectate", "--headless", "--interface", LOOPBACK, "--record", str(paths[PLAYERS]),
            label="spectator",
        )  # fmt: skip
        await wait_for(lambda: watcher.line("Joined") is not None, 15, "the spectator")
        procs = [await player(i, paths[i], f"P{i}") for i in range(PLAYERS)]
        victim = procs[VICTIM]
        await wait_for(lambda: victim.line("Joined") is not None, 15, "the victim to join")
        seat = int(victim.text.split(" in seat ", 1)[1].split()[0]) - 1

        await wait_for(lambda: table.server.rev >= 20, 20, "the game to get going")
        victim.kill()
        assert await victim.wait() == -9
        assert table.server.phase == "playing"
        await wait_for(lambda: not table.server.seats()[seat].connected, 5, "the drop")
        assert table.server.seats()[seat].kind == "human"  # kept for the reconnect
        rev = -1
        while rev != table.server.rev:  # the others play on until the game needs the victim
            rev = table.server.rev
            await asyncio.sleep(0.3)
        saved = json.loads((state_dir / "poissonnier" / "seats.json").read_text())["seats"]
        assert [(s["address"], s["table"], s["seat"]) for s in saved] == [
            (f"{LOOPBACK}:{table.port}", "Wire", seat)
        ]

        again = await player(VICTIM, again_path, "P-again")
        took = await wait_for(
            lambda: again_path.exists() and bool(again_path.read_text()), 15, "a view"
        )
        print(f"\nMEASURE reconnect (restart -> first view, discovery included): {took:.2f} s")
        others = [p for p in [*procs, watcher] if p is not victim]
        assert [await p.wait(60) for p in [*others, again]] == [0] * (PLAYERS + 1)
        final = table.server.result()
    finally:
        await table.close()

    # The seat came back, with exactly the server's view of it, and played to the end.
    joined = again.line("Joined")
    assert joined is not None and f"in seat {seat + 1} (seat reclaimed)" in joined, again.text
    print(f"MEASURE reconnect (TCP connect -> welcome): {joined.rsplit(' in ', 1)[1]}")
    after = frames(again_path)
    told = told_revisions(views)  # what each seat and the spectators are told (R15)
    assert after[0]["rev"] == told[rev][seat] and after[0]["view"] == views[rev][seat]
    assert frames(paths[VICTIM])[-1]["rev"] <= told[rev][seat]  # none reached the killed one
    assert json.loads((state_dir / "poissonnier" / "seats.json").read_text())["seats"] == []

    # Every frame, to every seat (the restarted one too) and the spectator, hides what it must.
    assert final is not None
    recorded = [frames(p) for p in paths] + [after]
    columns = [f[-1]["view"]["seat"] for f in recorded[:PLAYERS]] + [None, seat]
    assert sorted(c for c in columns[:PLAYERS] if c is not None) == list(range(PLAYERS))
    for i, f in enumerate(recorded):
        if i != VICTIM:
            assert f[-1]["view"]["result"] == jsonish(final)
    deals = [e for f in recorded[PLAYERS] for e in f["view"]["log"] if e["t"] == "deal"]
    assert deals, "the game must have deals, so proposals and settlements are checked too"
    checked = 0
    for views_of, column in zip(recorded, columns, strict=True):
        group = PLAYERS if column is None else column
        for frame in views_of:
            # the table revisions this frame stands for: its recipient saw this view at each
            revs = revisions_for(told, group, frame["rev"])
            assert revs and all(frame["view"] == views[r][group] for r in revs)
            found = {s for s in strings(frame["view"]) if FISH_ID.match(s)}
            for r in revs:
                assert not found & hidden[r][group], (column, r, found & hidden[r][group])
                if column is None:
                    assert not found, f"the spectator saw fish ids {found} at rev {r}"
                    public = {k: v for k, v in frame["view"].items() if k != "log"}
                    assert not set(strings(public)) & client_decks[r]
            checked += 1
    assert checked == sum(len(v) for v in recorded) > 200
    print(f"MEASURE leak test: {checked} frames checked over {len(hidden)} revisions")
