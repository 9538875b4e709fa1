"""Make the SVG screenshots in ``screenshots/`` from the real app (docs/ARCHITECTURE.md "Textual").

Nothing here is drawn by hand: the script runs :class:`PoissonnierApp` headless
(``App.run_test``) at a fixed terminal size, in a real solo game (an
in-process table server, bots, a fixed seed), with ``autoplay`` letting a
bot play the human's seat through the server. It pauses the autoplay at an
interesting moment and saves:

* ``table.svg``: mid-game at a table of hard, medium and easy bots, crates
  filled, and a bot's counter-offer waiting for the player's answer (the
  status line and the offers pane show the haggling);
* ``table-80x24.svg``: the same moment in a default 80×24 terminal (the
  compact layout: one secondary pane beside the hand);
* ``results.svg``: the results screen once the game is over.

Usage::

    python scripts/screenshots.py [--seed N] [--bots N] [--out DIR]
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot

from poissonnier_tui.games.poissonnier.ui.screens.results import ResultsScreen
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.shell.app import PoissonnierApp
from poissonnier_tui.shell.session import SoloSession

SIZE = (160, 50)
"""Terminal size of the screenshots (columns, rows)."""
SMALL = (80, 24)
"""The default terminal's size, for ``table-80x24.svg``."""
DEFAULT_SEED = 14
"""A deal whose game shows a bot haggling with the player mid-game."""
LEVELS = ("hard", "medium", "easy")
"""The bots' levels, one each (with 3 bots)."""


class DemoApp(PoissonnierApp):
    """The app with a brake on autoplay: it holds off while :attr:`hold` says so."""

    hold: Callable[[TableSnapshot], bool] | None = None
    """When it returns True for the current view, autoplay makes no move."""

    def autoplay_step(self) -> None:
        snap = self.snapshot
        if self.hold is not None and snap is not None and self.hold(snap):
            return
        super().autoplay_step()


def offer_for_me(snap: TableSnapshot) -> bool:
    """Mid-game, our crates are filled and a bot's counter-offer waits for our answer (§4, R8)."""
    return (
        snap.phase == "serve"
        and int(snap.view["turn"]) >= 4
        and sum(1 for crate in snap.crates if crate) >= 2
        and any(
            snap.answerer(p) == snap.me and p.get("counters") is not None for p in snap.proposals
        )
    )


def at_the_moment(app: DemoApp) -> bool:
    """Whether the game reached :func:`offer_for_me`.

    Raises:
        TimeoutError: the game ended without reaching it (another seed will do).
    """
    snap = app.snapshot
    if snap is not None and snap.over:
        raise TimeoutError("the game ended before the wanted moment; try another --seed")
    return snap is not None and offer_for_me(snap)


async def until(pilot: Pilot[None], ready: Callable[[], bool], timeout: float) -> None:
    """Run the app until ``ready()``; raise if it takes longer than ``timeout`` seconds."""
    for _ in range(int(timeout / 0.02)):
        if ready():
            return
        await pilot.pause(0.02)
    raise TimeoutError("the game did not reach the wanted moment; try another --seed")


async def shoot(seed: int, bots: int, out: Path) -> None:
    """Play one game and save ``table.svg``, ``table-80x24.svg`` and ``results.svg`` into
    ``out``."""
    session = SoloSession(
        bots=bots, seed=seed, name="Ana", bot_delay=0.0, bot_kinds=LEVELS, autoplay=True
    )
    app = DemoApp(session)
    app.hold = offer_for_me
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await until(pilot, lambda: at_the_moment(app), 60)
        await pilot.pause(0.5)  # let the toast slide in and the widgets settle
        app.save_screenshot("table.svg", path=str(out))
        await pilot.resize_terminal(*SMALL)
        app.clear_notifications()  # the toast says what the offers pane shows
        await pilot.pause(0.5)
        app.save_screenshot("table-80x24.svg", path=str(out))
        await pilot.resize_terminal(*SIZE)
        await pilot.pause(0.2)
        app.hold = None
        app.autoplay_step()  # answer the offer and play on to the end
        await until(pilot, lambda: isinstance(app.screen, ResultsScreen), 120)
        app.clear_notifications()  # leftovers of the autoplayed turns
        await pilot.pause(0.5)
        app.save_screenshot("results.svg", path=str(out))


def main() -> None:
    """Parse the options and take the screenshots."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--bots", type=int, default=3, choices=range(1, 5))
    parser.add_argument("--out", type=Path, default=Path(__file__).parent.parent / "screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    asyncio.run(shoot(args.seed, args.bots, args.out))
    names = ("table.svg", "table-80x24.svg", "results.svg")
    print("wrote " + ", ".join(str(args.out / name) for name in names))


if __name__ == "__main__":
    main()
