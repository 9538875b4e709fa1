"""At 80×24 nothing of the table is cut off: every key of the footer and the stall's title.

A solo game on a real in-process table (no bot delay, a fixed seed) opens in
the fill step, where the footer is at its longest. Below 100 columns the
footer is compact and leaves out ``b`` (the stall's next slot says "b buys
it"), so that every other key — the app's ``?``, ``k`` and ``ctrl+q`` too —
fits; ``b`` still works. The stall's title says its draft note in short.
Resizing to 120 columns brings ``b`` back.
"""

from __future__ import annotations

from pilot import until
from textual.content import Content

from poissonnier_tui.games.poissonnier.ui.screens.table import TableScreen
from poissonnier_tui.games.poissonnier.ui.widgets.my_stall import MyStall
from poissonnier_tui.shell.app import PoissonnierApp
from poissonnier_tui.shell.screens.footer import KeyBar
from poissonnier_tui.shell.session import SoloSession


def footer(app: PoissonnierApp) -> KeyBar:
    return app.screen.query_one(KeyBar)


def footer_keys(app: PoissonnierApp) -> dict[str, str]:
    """The footer's keys as it shows them (``"?"``, ``"^q"``...) -> their descriptions;
    none while the screen is still being put together (its footer not mounted yet)."""
    bars = app.screen.query(KeyBar).results(KeyBar)
    bar = next(iter(bars), None)
    if bar is None:
        return {}
    return {label: description for _key, label, description, _on in bar.shown(app.screen)}


async def test_the_fill_step_footer_and_stall_title_fit_80_columns() -> None:
    app = PoissonnierApp(SoloSession(bots=1, seed=7, name="Ana", bot_delay=0.0))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(
            pilot,
            lambda: isinstance(app.screen, TableScreen)
            and app.snapshot is not None
            and getattr(app.snapshot, "phase", "") == "fill"
            and bool(footer_keys(app)),
        )
        await pilot.pause()
        keys = footer_keys(app)
        assert {"1–6", "r", "?", "^q", "k"} <= keys.keys()
        assert "b" not in keys  # the stall's slot says it
        line = Content.from_markup(footer(app).text).plain
        assert len(line) <= 80 and line.rstrip().endswith("k Chat")  # the last key shows whole
        assert app.screen.check_action("buy_crate", ()) is True  # and the key still works

        stall = app.screen.query_one(MyStall)
        title = Content.from_markup(str(stall.border_title)).plain
        assert "draft, hidden (R15)" in title
        assert len(title) <= stall.size.width - 4  # the rim shows it whole

        await pilot.resize_terminal(120, 36)
        await pilot.pause()
        await pilot.pause()
        keys = footer_keys(app)
        assert keys.get("b") == "Buy crate"
        assert "until all are ready (R15)" in str(stall.border_title)
