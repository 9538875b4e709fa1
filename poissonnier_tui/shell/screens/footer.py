"""A footer drawn as one line of text: the keys that apply now, repainted only when they change.

Textual's :class:`~textual.widgets.Footer` recomposes itself on every
``refresh_bindings`` — a new widget per key, their styles, then a layout of
the whole screen — and the app refreshes bindings whenever a reactive with
``bindings=True`` changes, i.e. on every view of the game. :class:`KeyBar`
shows the same keys (the screen's ``active_bindings`` that are shown: the
key, its description, dimmed when disabled) as one line it renders itself:
a change of keys repaints that line, and nothing else; the same keys do
nothing at all. A click on a key presses it, as in Textual's footer.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from typing import Any, ClassVar

from rich.cells import cell_len
from textual import events
from textual.content import Content
from textual.markup import escape
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget


class KeyBar(Widget):
    """The keys that apply now, on one line (see the module's docstring).

    Attributes:
        compact: less space around each key (for narrow terminals).
    """

    DEFAULT_CSS: ClassVar[str] = """
    KeyBar {
        dock: bottom;
        height: 1;
        background: $footer-background;
        color: $footer-foreground;
    }
    """

    compact: reactive[bool] = reactive(False, repaint=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.text = ""
        """The markup drawn now."""
        self._content = Content("")  # self.text parsed, once per change
        self.repaints = 0
        """How many times the keys shown changed (tests count them)."""
        self._spans: list[tuple[int, int, str]] = []  # (first cell, end, key) of each key
        self._key_style: str | None = None  # the keys' markup style in the current theme
        self._due = False  # a look at the keys is queued (_keys_may_have_changed)

    def on_mount(self) -> None:
        """Follow the screen's bindings."""
        self.screen.bindings_updated_signal.subscribe(
            self, self._keys_may_have_changed, immediate=True
        )
        self.app.theme_changed_signal.subscribe(self, self._recolour)
        self.bindings_changed(self.screen)

    def _recolour(self, _theme: object) -> None:
        """The theme changed: draw the keys in its colours."""
        self.text = ""
        self._content = Content("")
        self._key_style = None
        self.bindings_changed(self.screen)

    def on_unmount(self) -> None:
        """Stop following them."""
        self.screen.bindings_updated_signal.unsubscribe(self)
        self.app.theme_changed_signal.unsubscribe(self)

    def watch_compact(self) -> None:
        """Redraw with more or less space."""
        if self.is_attached:
            self.bindings_changed(self.screen)

    def shown(self, screen: Screen[Any]) -> list[tuple[str, str, str, bool]]:
        """``(key, label, description, enabled)`` of each key shown now, one per action
        (the first binding of each, as Textual's footer does)."""
        seen: set[str] = set()
        out = []
        for _node, binding, enabled, _tip in screen.active_bindings.values():
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            label = self.app.get_key_display(binding)
            out.append((binding.key, label, binding.description, enabled))
        return out

    def _keys_may_have_changed(self, _screen: Screen[Any]) -> None:
        """The screen's bindings were refreshed: look at the keys once, after the messages
        already queued here, however many refreshes come meanwhile (a view refreshes them
        several times over; each look asks the screen about all of its ~45 bindings)."""
        if not self._due:
            self._due = True
            self.call_next(self._look)

    def _look(self) -> None:
        self._due = False
        self.bindings_changed(self.screen)

    def bindings_changed(self, screen: Screen[Any]) -> None:
        """Repaint if the keys shown changed."""
        if not self.is_attached or screen is not self.screen:
            return
        text = self.line(self.shown(screen))
        if text != self.text:
            self.text = text
            self._content = Content.from_markup(text)
            self.repaints += 1
            self.refresh()

    def line(self, keys: list[tuple[str, str, str, bool]]) -> str:
        """The markup of ``keys``: each key bold in the theme's footer-key colours, then its
        description; a disabled key dimmed. Keeps where each key lies, for clicks."""
        if self._key_style is None:  # the theme's colours, looked up once per theme
            colours = self.app.get_css_variables()
            ink = colours.get("footer-key-foreground", "")
            paper = colours.get("footer-key-background", "transparent")
            self._key_style = " ".join(
                ["b", ink] + ([f"on {paper}"] if paper not in ("", "transparent") else [])
            ).strip()
        key_style = self._key_style
        parts = []
        self._spans = []
        at = 0
        gap = " " if self.compact else ""
        for key, label, description, enabled in keys:
            shown_key = label if self.compact else f" {label} "
            shown_text = ""
            if description:
                shown_text = f" {description}" if self.compact else f"{description} "
            text = f"[{key_style}]{escape(shown_key)}[/]{escape(shown_text)}"
            parts.append(text if enabled else f"[dim]{text}[/dim]")
            width = cell_len(shown_key) + cell_len(shown_text)
            self._spans.append((at, at + width, key))
            at += width + len(gap)
        return gap.join(parts)

    def render(self) -> Content:
        """The keys' line (:attr:`text`, parsed when it changed, not on every paint)."""
        return self._content

    def on_click(self, event: events.Click) -> None:
        """A click on a key presses it."""
        for start, end, key in self._spans:
            if start <= event.x < end:
                self.app.simulate_key(key)
                return


def fit_keys(screen: Screen[Any], narrow: bool, shown_in_place: Collection[str]) -> None:
    """Fit ``screen``'s key line to the terminal's width.

    When ``narrow``, its :class:`KeyBar` is compact and leaves out the keys of
    ``shown_in_place`` (action names the screen already writes where they act, such
    as a button labelled with its key), so that the others fit in 80 columns; those
    keys all still work. Call it on mount and on every resize.
    """
    keys = screen._bindings.key_to_bindings
    for key, group in keys.items():
        keys[key] = [
            replace(b, show=not narrow) if b.action in shown_in_place else b for b in group
        ]
    for footer in screen.query(KeyBar).results(KeyBar):
        footer.compact = narrow
    screen.refresh_bindings()
