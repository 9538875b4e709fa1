"""The log a screen rebuilds later reads as the live log did (docs/RULES.md §4).

A client that joins mid-game, a resumed table's client and the replay viewer
all get the events from a view taken *later* than the events happened, when
another player may be active. Each line written from such a view must be the
line the live log wrote when the event was new.
"""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Sequence

from textual.content import Content

from poissonnier_tui.games.poissonnier.rules.actions import Accept, Action, Propose, Serve
from poissonnier_tui.games.poissonnier.rules.engine import apply, legal_actions, new_game
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase
from poissonnier_tui.games.poissonnier.rules.view import LOG_TAIL, view_for
from poissonnier_tui.games.poissonnier.ui.describe import event_text
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.shell.seats import SeatLabel

NAMES = (SeatLabel("Ana"), SeatLabel("Ben"), SeatLabel("Cleo"))


def _dealing_game(seed: int) -> list[GameState]:
    """A whole 3-player game of random moves that proposes and accepts often."""
    rng = random.Random(seed)
    state = new_game(seed, 3)
    states = [copy.deepcopy(state)]
    while state.phase is not Phase.OVER:
        seat = rng.choice(sorted(view_for(state, None)["waiting_on"]))
        actions = legal_actions(state, seat)
        accepts = [a for a in actions if isinstance(a, Accept)]
        proposes = [a for a in actions if isinstance(a, Propose)]
        serves = [a for a in actions if isinstance(a, Serve)]
        pick: Sequence[Action]
        if accepts and rng.random() < 0.7:
            pick = accepts
        elif proposes and rng.random() < 0.3:
            pick = proposes
        else:
            pick = [*serves] or [a for a in actions if not isinstance(a, Propose | Accept)]
        apply(state, seat, rng.choice(pick))
        states.append(copy.deepcopy(state))
    return states


@functools.cache
def _plain(text: str) -> str:
    """``text``'s markup read as the screen reads it, as plain text (a pure function: the
    same line is written from many views, so each distinct one is parsed once)."""
    return Content.from_markup(text).plain


def _lines(state: GameState, seat: int | None) -> dict[int, str]:
    """Log position -> plain line, written from the view ``seat`` gets of ``state``."""
    view = view_for(state, seat)
    snap = TableSnapshot(view, NAMES)
    first = int(view["log_size"]) - len(view["log"])
    out = {}
    for i, event in enumerate(view["log"]):
        text = event_text(snap, event)
        if text is not None:
            out[first + i] = _plain(text)
    return out


def test_a_log_rebuilt_later_reads_as_the_live_log() -> None:
    """Rejoin / resume / replay: every line equals the live one, deals and offers included."""
    for seed in (5, 6):
        states = _dealing_game(seed)
        for seat in (0, 1, None):
            live: dict[int, str] = {}
            for state in states:  # the live log: each event written when it arrives
                for pos, line in _lines(state, seat).items():
                    live.setdefault(pos, line)
            deals = [line for line in live.values() if line.startswith(("Deal #", "Offer #"))]
            assert len(deals) >= 5, seed  # the game really traded
            compared = 0
            for later in states[LOG_TAIL // 2 :: 7]:  # a rejoin at many points of the game
                for pos, line in _lines(later, seat).items():
                    assert line == live[pos], (seed, seat, pos)
                    compared += 1
            assert compared > 500
