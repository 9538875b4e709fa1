"""Table logs in tests: replaying one to check it (after every test, ``conftest.py``),
and writing a real one from random legal moves."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import net.logaio as logaio
from net.tablelog import LogWriter, read_log
from poissonnier_tui import __version__
from poissonnier_tui.games.poissonnier.match import RULES_VERSION, PoissonnierGame
from poissonnier_tui.games.poissonnier.rules.actions import to_wire
from poissonnier_tui.games.poissonnier.rules.engine import (
    apply_wire,
    legal_actions,
    new_game,
    waiting_on,
)
from poissonnier_tui.games.poissonnier.rules.state import Phase
from poissonnier_tui.hosting.persistence import replay_log


def check_log(path: Path) -> bool:
    """Replay ``path`` from its seed (R3) and check it against itself.

    A finished game (an ``end`` record) must reach exactly the logged result;
    a running one must apply every logged action. The log must be sound.

    Returns:
        ``True`` for a finished game, ``False`` for one still running.

    Raises:
        AssertionError: with the file and what differs.
    """
    log = read_log(path)  # LogDamaged: a test game left a damaged log
    done = replay_log(log)
    assert done.error is None, f"{path}: action {done.applied + 1} refused: {done.error}"
    assert done.applied == len(log.actions)
    if log.end is None:
        assert not done.match.is_over, f"{path}: the game ended but its end was not recorded"
        return False
    assert done.match.is_over, f"{path}: the log says the game ended; the replay does not"
    assert done.match.result() == log.end, f"{path}: the replay's result differs from the log's"
    return True


def tear(path: Path, lost: int) -> None:
    """Cut the last ``lost`` bytes of the log's last record off, as a crash mid-append
    would (the room after it, if any, goes too: a torn record *in* the room ends in
    zeros instead, see test_tablelog_room.py).

    Raises:
        net.tablelog.LogDamaged: the log was damaged already.
    """
    end = read_log(path).valid_bytes
    path.write_bytes(path.read_bytes()[: end - lost])


def play_log(
    path: Path,
    *,
    seed: int,
    players: int = 2,
    actions: int | None = None,
    humans: int = 1,
    rng_seed: int = 0,
) -> list[tuple[int, dict[str, Any]]]:
    """Write a real table log: random legal moves on the engine, header as a table writes it.

    Args:
        path: the file to create.
        seed: the game's seed (R3).
        players: seats.
        actions: stop after this many actions; ``None`` plays to the end (and
            writes the ``end`` record).
        humans: the first ``humans`` seats are players with tokens, the rest bots.
        rng_seed: seeds the choice of moves.

    Returns:
        The ``(seat, action)`` pairs logged, in order.
    """
    rng = random.Random(rng_seed)
    state = new_game(seed, players)
    header = {
        "app": __version__,
        "game": PoissonnierGame.name,
        "rules": RULES_VERSION,
        "seed": seed,
        "seats": [
            {"name": f"P{i}", "kind": "human", "token": f"token-{i}", "bot": None}
            if i < humans
            else {"name": f"Bot {i}", "kind": "bot", "token": None, "bot": "random"}
            for i in range(players)
        ],
        "options": {},
        "table": {"name": "Test table", "port": 0},
    }
    writer = LogWriter.create(path, header)
    played: list[tuple[int, dict[str, Any]]] = []
    while state.phase is not Phase.OVER and (actions is None or len(played) < actions):
        seat = rng.choice(sorted(waiting_on(state)))
        legal = legal_actions(state, seat)
        # Keep games short: end the turn or get ready more often than not.
        quick = [a for a in legal if a.TYPE in ("ready", "end_turn")]
        action = to_wire(rng.choice(quick if quick and rng.random() < 0.6 else legal))
        apply_wire(state, seat, action)
        writer.append(seat, action)
        played.append((seat, action))
    if state.phase is Phase.OVER and state.result is not None:
        writer.finish(state.result)
    return played


def kernel_aio_in(folder: Path) -> bool:
    """Whether a log in ``folder`` can be written by the kernel's AIO (net/logaio.py):
    Linux AIO here and a file system that takes ``O_DIRECT``. Tests of that hand-off
    skip where it cannot be had (the pipe's tests cover those machines)."""
    if not logaio.aio_available():
        return False
    probe = folder / "aio-probe"
    probe.write_bytes(bytes(logaio.BLOCK))
    try:
        logaio._Kernel().close()
        os.close(os.open(probe, os.O_WRONLY | os.O_DIRECT))
    except OSError:
        return False
    finally:
        probe.unlink()
    return True
