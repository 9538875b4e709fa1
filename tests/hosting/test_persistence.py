"""the table log, resume after a crash, damaged logs, history.

The table log (net/tablelog.py) is written by every table through
net/recorder.py; poissonnier_tui/hosting/persistence.py says where logs live and
rebuilds a table from one. Each test here works in its own data directory
(conftest.py), and every log left there is replayed after the test.
"""

from __future__ import annotations

import asyncio
import json
import os
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from logcheck import kernel_aio_in, play_log, tear

import net.logaio as logaio
import net.recorder as recorder_module
from net.client import TableClient
from net.messages import Bye, View
from net.server import TableServer
from net.tablelog import FORMAT_VERSION, ROOM, ROOM_LOW, LogDamaged, LogWriter, read_log
from poissonnier_tui import __version__
from poissonnier_tui.cli import main
from poissonnier_tui.client.headless import play_seat
from poissonnier_tui.games import game_entry
from poissonnier_tui.games.poissonnier.bots import make_bot
from poissonnier_tui.games.poissonnier.match import PoissonnierGame, PoissonnierMatch
from poissonnier_tui.games.poissonnier.rules.state import GameState
from poissonnier_tui.hosting.persistence import (
    ResumeError,
    data_dir,
    games_dir,
    list_games,
    plan_resume,
    record_table,
    replay_log,
)
from poissonnier_tui.hosting.tables import BotKinds, resume_server


def yes(_question: str) -> bool:
    return True


def no(_question: str) -> bool:
    return False


def state_key(state: GameState) -> tuple[Any, ...]:
    """Everything in a state, the generator's internal state included (R3), comparable."""

    def crates(crates: list[Any] | None) -> list[Any] | None:
        return None if crates is None else [(c.marker, c.fish) for c in crates]

    seats = [
        (s.hand, crates(s.crates), s.coins, s.clients, s.stamps, s.ready, s.draft_hand,
         crates(s.draft_crates))
        for s in state.seats
    ]  # fmt: skip
    return (
        state.rng.getstate(), state.fish_deck, state.client_deck, state.fish_discard,
        state.client_discard, state.queue, seats, state.first_player, state.active, state.turn,
        state.phase, state.bought, [p.copy().__repr__() for p in state.proposals],
        state.next_proposal, state.last_turn, state.log, state.result,
    )  # fmt: skip


def match_of(server: TableServer) -> PoissonnierMatch:
    """The server's match, for the test's eyes only."""
    match = server._table.match
    assert isinstance(match, PoissonnierMatch)
    return match


def replayed_state(path: Path, actions: int) -> GameState:
    """A fresh replay of the first ``actions`` actions of the log at ``path``."""
    log = read_log(path)
    log.actions = log.actions[:actions]
    match = replay_log(log).match
    assert isinstance(match, PoissonnierMatch)
    return match.state


# --- the file ----------------------------------------------------------------------------------


def test_log_records_round_trip_owner_only_and_nothing_after_the_end(tmp_path: Path) -> None:
    path = tmp_path / "games" / "a.plog"
    writer = LogWriter.create(path, {"seed": 7, "seats": [], "game": "g"})
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # tokens inside: owner only
    writer.append(1, {"type": "ready"})
    writer.append(0, {"type": "end_turn"})
    writer.finish({"winners": [1]})
    with pytest.raises(RuntimeError):
        writer.append(0, {"type": "ready"})
    with pytest.raises(FileExistsError):
        LogWriter.create(path, {"seed": 1})  # a log is never overwritten
    log = read_log(path)
    assert log.header["seed"] == 7 and log.header["format"] == FORMAT_VERSION == 2
    assert [(a.seat, a.action) for a in log.actions] == [
        (1, {"type": "ready"}),
        (0, {"type": "end_turn"}),
    ]
    assert log.end == {"winners": [1]}
    assert log.actions[0].offset < log.actions[1].offset < log.valid_bytes == path.stat().st_size
    # reopen() cuts a tail off before appending
    LogWriter.reopen(path, log.actions[1].offset).append(0, {"type": "buy_crate"})
    again = read_log(path)
    assert [a.action["type"] for a in again.actions] == ["ready", "buy_crate"]
    assert again.end is None


# --- damaged logs ------------------------------------------------------------------------------


async def test_truncation_at_every_byte_offset_is_the_error_or_a_resume_of_the_valid_prefix(
    tmp_path: Path,
) -> None:
    original = tmp_path / "small.plog"
    played = play_log(original, seed=11, players=2, actions=12, humans=1)
    sound = read_log(original)
    data = original.read_bytes()[: sound.valid_bytes]  # the records (the room: test_tablelog_room)
    ends = [a.offset for a in sound.actions] + [len(data)]  # record boundaries
    header_end = ends[0]
    assert len(played) == 12 and len(data) < 1200
    target = tmp_path / "cut.plog"
    resumed = errors = 0
    for cut in range(len(data) + 1):
        for leftover in tmp_path.glob("cut.plog.damaged-*"):
            leftover.unlink()
        target.write_bytes(data[:cut])
        complete = sum(1 for end in ends[1:] if end <= cut)  # actions wholly inside the cut
        last = max([0, *(e for e in ends if e <= cut)])  # the end of the last whole record
        # A cut between records is a shorter log, not a damaged one; so is one that leaves
        # only zeros after the last record (the first bytes of a length under 64 KiB): in
        # a log with room, that is its clean end.
        clean = cut >= header_end and data[last:cut] == bytes(cut - last)
        if clean:
            assert len(read_log(target).actions) == complete
        else:
            with pytest.raises(LogDamaged) as damaged:
                read_log(target)
            message = str(damaged.value)
            assert f"damaged at byte {damaged.value.offset}" in message
            assert damaged.value.offset == last
            assert "the last good record is" in message
            assert damaged.value.good_actions == complete
        if cut < header_end:
            with pytest.raises(ResumeError) as refused:
                plan_resume(target, confirm=yes)
            assert "damaged at byte 0" in str(refused.value)
            assert "Nothing can be resumed" in str(refused.value)
            errors += 1
            continue
        if not clean:
            with pytest.raises(ResumeError, match="Not resumed"):
                plan_resume(target, confirm=no)
            assert target.read_bytes() == data[:cut]  # asking changed nothing
        plan = plan_resume(target, confirm=yes)
        assert plan.actions == complete
        server, recorder = resume_server(plan, port=0)
        assert server.rev == complete
        assert state_key(match_of(server).state) == state_key(replayed_state(original, complete))
        after = target.read_bytes()
        assert after[: ends[complete]] == data[: ends[complete]]  # the valid prefix, cut clean,
        assert after[ends[complete] :] == bytes(ROOM)  # then the room made again
        kept = list(tmp_path.glob("cut.plog.damaged-*"))
        assert (len(kept) == 1 and kept[0].read_bytes() == data[:cut]) or clean
        assert recorder.path == target
        resumed += 1
    assert errors == header_end and resumed == len(data) + 1 - header_end


async def test_flipping_any_byte_never_raises_anything_but_the_clear_errors(
    tmp_path: Path,
) -> None:
    original = tmp_path / "small.plog"
    play_log(original, seed=12, players=3, actions=10, humans=2)
    data = original.read_bytes()
    target = tmp_path / "flip.plog"
    outcomes: dict[str, int] = {"refused": 0, "resumable": 0}
    records = read_log(original).valid_bytes
    assert len(data) > records + ROOM_LOW and data[records:] == bytes(len(data) - records)
    # every byte of the records, then the room's first few and its last
    for i in [*range(records + 8), len(data) - 1]:
        target.write_bytes(data[:i] + bytes([data[i] ^ 0xFF]) + data[i + 1 :])
        try:
            plan = plan_resume(target, confirm=yes)
        except ResumeError as exc:
            assert str(exc)  # a sentence, not a traceback
            outcomes["refused"] += 1
            continue
        assert 0 <= plan.actions <= 10
        outcomes["resumable"] += 1
    assert outcomes["refused"] > 0 and outcomes["resumable"] > 0


def test_a_refused_action_in_the_log_is_reported_and_can_be_cut(tmp_path: Path) -> None:
    path = tmp_path / "bad.plog"
    play_log(path, seed=5, players=2, actions=6, humans=2)
    log = read_log(path)
    good = path.read_bytes()
    # Append an action the rules refuse (seat 1 serving in the fill step).
    LogWriter.reopen(path, log.valid_bytes).append(1, {"type": "end_turn"})
    with pytest.raises(ResumeError, match="Not resumed"):
        plan_resume(path, confirm=no)
    asked: list[str] = []
    plan = plan_resume(path, confirm=lambda q: asked.append(q) or True)
    assert "action 7 (seat 1, end_turn)" in asked[0] and "refused on replay" in asked[0]
    assert plan.actions == 6
    resume_server(plan, port=0)
    assert path.read_bytes() == good[: log.valid_bytes] + bytes(ROOM)  # cut, then room again


def test_resume_refuses_other_rules_finished_games_and_missing_files(tmp_path: Path) -> None:
    finished = tmp_path / "done.plog"
    play_log(finished, seed=3, players=2)
    with pytest.raises(ResumeError, match="is over: nothing to resume"):
        plan_resume(finished, confirm=yes)
    with pytest.raises(ResumeError, match="There is no log at"):
        plan_resume(tmp_path / "nope.plog", confirm=yes)
    other = tmp_path / "other.plog"
    LogWriter.create(
        other,
        {"app": "9.9", "game": "poissonnier", "rules": "99", "seed": 1, "options": {},
         "seats": [{"name": "a", "kind": "human", "token": "t"}, {"name": "b", "kind": "bot"}]},
    )  # fmt: skip
    with pytest.raises(ResumeError, match="rules version 99"):
        plan_resume(other, confirm=yes)


# --- a live table ------------------------------------------------------------------------------


class Watched(PoissonnierGame):
    """The real game, keeping a handle on its match for the test."""

    match: PoissonnierMatch | None = None

    def new_match(self, seed: int, seats: int, options: Mapping[str, Any]) -> PoissonnierMatch:
        self.match = super().new_match(seed, seats, options)
        return self.match


async def test_a_table_resumed_from_its_log_equals_the_table_before_the_crash() -> None:
    game = Watched()
    kinds = BotKinds(game_entry("poissonnier"))  # makes the bots and names their levels
    server = TableServer(
        game, name="Crashy", seats=3, seed=99, app_version=__version__, auto_start=True,
        bots={1: kinds.make("random", 1), 2: kinds.make("greedy", 2)}, bot_delay=0,
    )  # fmt: skip
    recorder = record_table(server, table={"code": None}, bot_kind=kinds)
    await server.open()
    client = await TableClient.connect(
        "127.0.0.1", server.port, name="Ana", app_version=__version__, game="poissonnier"
    )
    token = client.token
    assert client.seat == 0 and token
    seen: list[View] = []

    def keep(msg: object) -> None:
        if isinstance(msg, View):
            seen.append(msg)
            if msg.rev >= 40:
                raise asyncio.CancelledError  # the "crash": stop mid-game

    with pytest.raises(asyncio.CancelledError):
        await play_seat(client, make_bot("random", 0), observe=keep)
    await server.close("crash")
    await client.close()
    assert recorder.path is not None and game.match is not None
    before = game.match.state
    log = read_log(recorder.path)
    assert len(log.actions) == server.rev >= 40 and log.end is None
    header = log.header
    assert header["seed"] == 99 and header["rules"] == "1" and header["app"] == __version__
    assert [(s["name"], s["kind"], s["bot"]) for s in header["seats"]] == [
        ("Ana", "human", None), ("Bot 1", "bot", "random"), ("Bot 2", "bot", "greedy"),
    ]  # fmt: skip
    assert header["seats"][0]["token"] == token and header["table"]["name"] == "Crashy"

    plan = plan_resume(recorder.path, confirm=no)  # a sound log asks nothing
    again, _ = resume_server(plan, port=0, bot_delay=0)
    assert state_key(match_of(again).state) == state_key(before)  # exactly (R3)
    await again.open()
    assert again.phase == "playing" and [s.kind for s in again.seats()] == ["human", "bot", "bot"]
    back = await TableClient.connect(
        "127.0.0.1", again.port, name="Someone", token=token,
        app_version=__version__, game="poissonnier",
    )  # fmt: skip
    assert back.seat == 0 and back.token == token
    result = await asyncio.wait_for(play_seat(back, make_bot("random", 0)), 60)
    final = await again.wait_over()
    await back.close()
    await again.close()
    assert result == final is not None
    log = read_log(recorder.path)
    assert log.end == final and len(log.actions) == again.rev
    assert replay_log(log).match.result() == final


@pytest.mark.parametrize("handoff", ["aio", "pipe", "thread"])
async def test_an_action_that_cannot_be_recorded_closes_the_table_unheard(
    monkeypatch: pytest.MonkeyPatch, handoff: str, tmp_path: Path
) -> None:
    """Every hand-off to the disk (net/recorder.py): the kernel's AIO (net/logaio.py), a
    pipe spliced into the log, or a thread writing it where the platform cannot splice."""
    if handoff == "aio" and not kernel_aio_in(tmp_path):
        pytest.skip("no kernel AIO here")
    if handoff == "pipe" and not hasattr(os, "splice"):
        pytest.skip("no os.splice on this platform")
    if handoff != "aio":
        monkeypatch.setattr(recorder_module, "aio_available", lambda: False)
    if handoff == "thread":
        monkeypatch.delattr(os, "splice", raising=False)
    server = TableServer(
        PoissonnierGame(), name="Full disk", seats=2, seed=4, app_version=__version__,
        auto_start=True, bots={1: make_bot("random", 1)}, bot_delay=30,
    )  # fmt: skip
    recorder = record_table(server)
    await server.open()
    client = await TableClient.connect(
        "127.0.0.1", server.port, name="Ana", app_version=__version__, game="poissonnier"
    )
    messages = client.messages()
    first = await anext(messages)
    while not isinstance(first, View):
        first = await anext(messages)

    def disk_full(self: LogWriter, records: Sequence[bytes]) -> None:
        raise OSError(28, "No space left on device")

    def splice_full(*args: Any, **kwargs: Any) -> int:
        raise OSError(28, "No space left on device")

    if handoff == "thread":
        monkeypatch.setattr(LogWriter, "write", disk_full)
    elif handoff == "pipe":
        monkeypatch.setattr(os, "splice", splice_full)
    else:  # the write completes with the kernel's refusal
        monkeypatch.setattr(logaio._Kernel, "reap", lambda _kernel: -28)
    seq = await client.send_action({"type": "ready"})
    rest = [m async for m in messages]
    await client.close()
    assert seq >= 0
    assert not any(isinstance(m, View) for m in rest)  # nobody heard of the unrecorded action
    assert [m.reason for m in rest if isinstance(m, Bye)] == ["record_failed"]
    assert recorder.path is not None and read_log(recorder.path).actions == []
    await server.close()


async def test_a_table_whose_log_cannot_be_created_still_plays(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the games directory should be")
    server = TableServer(
        PoissonnierGame(), name="No disk", seats=2, seed=8, app_version=__version__,
        auto_start=True, bots={0: make_bot("random", 0), 1: make_bot("random", 1)}, bot_delay=0,
    )  # fmt: skip
    recorder = record_table(server, directory=blocker / "games")
    async with server:
        result = await asyncio.wait_for(server.wait_over(), 60)
    assert result is not None and result["winners"]
    assert recorder.path is None and recorder.error is not None
    assert "not being saved" in recorder.error


# --- where, and history -------------------------------------------------------------------


def test_the_data_directory_follows_the_environment(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert games_dir() == data_dir / "games"
    monkeypatch.delenv("POISSONNIER_DATA_DIR")
    real = globals()["data_dir"]()
    assert real.name == "poissonnier" and str(data_dir) not in str(real)


def test_history_lists_date_players_winner_and_length(
    capsys: pytest.CaptureFixture[str], data_dir: Path
) -> None:
    folder = games_dir()
    folder.mkdir(parents=True)
    play_log(folder / "2026-01-01_100000_seed3_aaaa.plog", seed=3, players=3, humans=1)
    play_log(folder / "2026-01-02_100000_seed4_bbbb.plog", seed=4, players=2, actions=9)
    damaged = folder / "2026-01-03_100000_seed5_cccc.plog"
    play_log(damaged, seed=5, players=2, actions=5)
    tear(damaged, 3)
    games = list_games()
    assert len(games) == 3
    done = next(g for g in games if g.finished)
    assert done.players == ("P0", "Bot 1 (bot)", "Bot 2 (bot)")
    assert done.winners and set(done.winners) <= {"P0", "Bot 1", "Bot 2"}
    assert done.turns and done.turns > 1 and done.actions > 20
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert "winner: " in out and "not over" in out and "damaged at byte" in out
    assert "P0, Bot 1 (bot), Bot 2 (bot)" in out
    assert main(["history", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["finished"] for r in rows} == {True, False}
    assert [r["actions"] for r in rows if r["path"].endswith("bbbb.plog")] == [9]
    assert [r["actions"] for r in rows if r["path"].endswith("cccc.plog")] == [4]
    damaged.unlink()  # (conftest replays every log left behind; this one is damaged on purpose)


def test_history_leaves_out_files_that_are_not_logs_and_starts_with_no_move(
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = games_dir()
    folder.mkdir(parents=True)
    play_log(folder / "2026-01-01_100000_seed3_aaaa.plog", seed=3, players=2)
    play_log(folder / "2026-01-02_100000_seed4_bbbb.plog", seed=4, players=2, actions=7)
    play_log(folder / "2026-01-03_100000_seed5_cccc.plog", seed=5, players=2, actions=0)
    not_logs = [folder / "2026-01-04_100000_seed6_dddd.plog", folder / "2026-01-05_7_eeee.plog"]
    not_logs[0].write_text("not a table log\n")
    not_logs[1].write_bytes(b"")
    games = list_games()
    assert [g.path.name[-9:-5] for g in games] == ["bbbb", "aaaa"]
    assert [(g.finished, g.resumable) for g in games] == [(False, True), (True, False)]
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert "bbbb" in out and "aaaa" in out
    assert not any(name in out for name in ("cccc", "dddd", "eeee"))
    for path in not_logs:  # (conftest replays every log left behind)
        path.unlink()


def test_replay_with_no_log_opens_the_newest_finished_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from poissonnier_tui.hosting.persistence import replay_order
    from poissonnier_tui.shell.replay_app import ReplayApp

    opened: list[Path] = []
    monkeypatch.setattr(ReplayApp, "run", lambda self: opened.append(self.replay.path))
    folder = games_dir()
    folder.mkdir(parents=True)
    finished = [
        folder / "2026-01-01_100000_seed3_aaaa.plog",
        folder / "2026-01-02_100000_seed4_bbbb.plog",
    ]
    play_log(finished[0], seed=3, players=2)
    play_log(finished[1], seed=4, players=2)
    play_log(folder / "2026-01-03_100000_seed5_cccc.plog", seed=5, players=2, actions=13)
    assert [g.path.name[-9:-5] for g in replay_order(list_games())] == ["bbbb", "aaaa", "cccc"]
    assert main(["replay"]) == 0
    assert [p.name[-9:-5] for p in opened] == ["bbbb"]
    for path in finished:
        path.unlink()
    assert main(["replay"]) == 0  # no finished game: the newest one not over
    assert [p.name[-9:-5] for p in opened] == ["bbbb", "cccc"]


def test_serve_resume_says_why_it_cannot(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["serve", "--resume", str(tmp_path / "missing.plog")]) == 1
    assert "There is no log at" in capsys.readouterr().err
    damaged = tmp_path / "d.plog"
    play_log(damaged, seed=5, players=2, actions=5)
    tear(damaged, 3)
    before = damaged.read_bytes()
    monkeypatch.setattr("builtins.input", lambda: "n")
    assert main(["serve", "--resume", str(damaged), "--port", "0"]) == 1
    err = capsys.readouterr().err
    assert "damaged at byte" in err and "Not resumed" in err
    assert damaged.read_bytes() == before
    finished = tmp_path / "f.plog"
    play_log(finished, seed=6, players=2)
    assert main(["serve", "--resume", str(finished)]) == 1
    assert "nothing to resume" in capsys.readouterr().err
    assert main(["serve", "--resume", "last"]) == 1
    assert "no saved game is waiting" in capsys.readouterr().err
    assert os.environ["POISSONNIER_DATA_DIR"] == str(data_dir())


async def test_host_resume_takes_seat_one_back_with_its_logged_token(tmp_path: Path) -> None:
    from pilot import mounted, until

    from poissonnier_tui.games.poissonnier.ui.screens.table import TableScreen
    from poissonnier_tui.hosting.tables import TableSettings, resumed_settings
    from poissonnier_tui.shell.app import HostSession, PoissonnierApp

    path = tmp_path / "hosted.plog"
    play_log(path, seed=31, players=3, actions=25, humans=2)  # the host, a friend, a bot
    plan = plan_resume(path, confirm=no)
    given = TableSettings(
        name="ignored", port=0, interface="127.0.0.1", advertise=False, bot_delay=0.0,
        host_seat=True, absent_grace=None,
    )  # fmt: skip
    settings = resumed_settings(plan, given, name_given=False)
    assert (settings.name, settings.seats, settings.bots, settings.seed, settings.port) == (
        "Test table", 3, 1, 31, 0,
    )  # fmt: skip
    app = PoissonnierApp(HostSession(settings, name="Whoever", resume=plan))
    async with app.run_test(size=(160, 50)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.snapshot is not None)
        snap = app.snapshot
        assert snap is not None and app.seat == 0
        assert snap.rev >= 25 and snap.name(0) == "P0"  # the logged name, not the new one
        expected = replayed_state(path, snap.rev).seats[0]
        assert sorted(snap.hand) == sorted(expected.draft_hand or expected.hand)
        assert [s.kind for s in app.seats] == ["human", "human", "bot"]
        assert not app.seats[1].connected  # the friend has yet to come back
        await until(pilot, lambda: mounted(app.screen))  # before the app exits


def test_yes_continues_from_the_valid_prefix_without_asking(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import argparse

    from poissonnier_tui.commands._resume import load_plan

    damaged = tmp_path / "d.plog"
    play_log(damaged, seed=9, players=2, actions=7)
    tear(damaged, 4)

    def no_terminal() -> str:
        raise AssertionError("--yes must not ask")

    monkeypatch.setattr("builtins.input", no_terminal)
    plan = load_plan(argparse.Namespace(resume=damaged, yes=True))
    assert plan is not None and plan.actions == 6 and plan.damage is not None
    err = capsys.readouterr().err
    assert "damaged at byte" in err and "last good record is action 6" in err
    assert "Yes (--yes)" in err
