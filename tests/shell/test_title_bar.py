"""The app's header (shell/screens/title_bar.py) when the app closes as a screen shows."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Header, Static

from poissonnier_tui.shell.screens.title_bar import TitleBar


class Titled(Screen[None]):
    """A screen with nothing but a header of the kind given."""

    def __init__(self, kind: type[Widget]) -> None:
        super().__init__()
        self.kind = kind

    def compose(self) -> ComposeResult:
        yield self.kind()


async def close_as_it_shows(kind: type[Widget]) -> None:
    """Show a screen with a header of ``kind`` in the app's very last instant."""
    app = App[None]()
    async with app.run_test() as pilot:
        await pilot.pause()
        app.push_screen(Titled(kind))


async def test_the_app_closes_cleanly_as_a_titled_screen_shows() -> None:
    await close_as_it_shows(TitleBar)


async def test_textuals_own_header_still_fails_there() -> None:
    """Why TitleBar exists: if this stops failing, Textual fixed its header and the
    project can use it again."""
    with pytest.raises(NoMatches, match="HeaderTitle"):
        await close_as_it_shows(Header)


async def test_the_title_bar_shows_the_titles() -> None:
    app = App[None]()
    app.title, app.sub_title = "Poissonnier", "Turn 1"
    async with app.run_test() as pilot:
        await app.push_screen(Titled(TitleBar))
        await pilot.pause()
        (title,) = app.screen.query("HeaderTitle").results(Static)
        assert "Poissonnier" in str(title.render()) and "Turn 1" in str(title.render())
        app.sub_title = "Turn 2"
        await pilot.pause()
        assert "Turn 2" in str(title.render())
