"""Redraw a widget only when what it draws changed, and lay it out only when its size may.

Every view of the game hands a new snapshot to every widget of the table.
Most views change a few things (a bot declared ready, a log line); a widget
that repaints — or worse, asks for a layout of the screen — on each one
wastes the frame. A widget that draws its text with ``render()`` keeps a
:class:`Drawn` and calls :meth:`Drawn.show` with its new text instead of
``refresh()``: nothing happens when the text is the same; a repaint when it
differs; and a layout only when the widget sizes itself to its text (``auto``
width or height) and the new text needs another size.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any, Final

from textual.content import Content
from textual.reactive import Reactive
from textual.widget import Widget

CUT: Final = "\x1f"
"""Between two pieces of a line of markup that are each whole (every tag opened in a
piece is closed in it): :func:`parse_pieces` parses each piece once and keeps it."""


@lru_cache(maxsize=2048)
def _piece(markup: str) -> Content:
    return Content.from_markup(markup)


def parse_pieces(text: str) -> Content:
    """``text`` parsed as markup, piece by piece (pieces cut with :data:`CUT`, lines with
    ``\n``), each piece's parse kept: a hand of fish chips says the same few chips again
    and again, and parsing a whole hand's markup takes milliseconds (its ``@click``
    chips are the dear part). The same as parsing ``text`` without the cuts, as long
    as every piece is whole markup."""
    return Content("\n").join(
        Content("").join(_piece(piece) for piece in line.split(CUT)) for line in text.split("\n")
    )


class Drawn:
    """The text a widget last drew (see the module's docstring), and its parsed markup:
    a widget's ``render`` may return :meth:`content` of its text, so that the markup is
    parsed once per change rather than for the comparison and again to paint."""

    def __init__(self, parse: Callable[[str], Content] = Content.from_markup) -> None:
        """Args: parse: how the text is parsed (:func:`parse_pieces` for text cut in
        pieces)."""
        self._parse = parse
        self.text: str | None = None
        self.repaints = 0
        """How many times :meth:`show` repainted (tests count them)."""
        self.layouts = 0
        """How many of those also asked for a layout."""
        self._parsed: dict[str, Content] = {}  # the last two texts parsed

    def content(self, text: str) -> Content:
        """``text`` parsed as markup (the last two parses are kept)."""
        parsed = self._parsed.get(text)
        if parsed is None:
            parsed = self._parse(text)
            self._parsed = {k: v for k, v in self._parsed.items() if k == self.text}
            self._parsed[text] = parsed
        return parsed

    def show(self, widget: Widget, text: str) -> bool:
        """Repaint ``widget`` if ``text`` differs from what it drew; lay it out too when
        the text's size (at the widget's width) differs. Returns whether it repainted."""
        if text == self.text:
            return False
        old, self.text = self.text, text
        layout = old is None or size_of(widget, self.content(old)) != size_of(
            widget, self.content(text)
        )
        self.repaints += 1
        self.layouts += layout
        widget.refresh(layout=layout)
        return True


def size_of(widget: Widget, content: Content) -> tuple[int, int]:
    """What of ``content`` sizes ``widget``: its height in lines at the widget's width when
    the height is ``auto``, its widest line when the width is; ``(0, 0)`` for a widget
    whose size does not follow its content."""
    styles: Any = widget.styles  # what Textual hands Content.get_height itself
    width_auto = styles.width is not None and styles.width.is_auto
    height_auto = styles.height is not None and styles.height.is_auto
    if not (width_auto or height_auto):
        return (0, 0)
    widest = max((line.cell_length for line in content.split()), default=0)
    height = content.get_height(styles, widget.content_size.width or widest) if height_auto else 0
    return (height, widest if width_auto else 0)


def retitle(widget: Widget, title: str) -> None:
    """Set ``widget``'s border title to ``title`` only if it changed: Textual repaints a
    widget on every set of its title, even to the same text."""
    if widget.__dict__.get("_shown_title") != title:
        widget.__dict__["_shown_title"] = title
        widget.border_title = title


def set_quietly(widget: Widget, values: Mapping[Reactive[Any], object]) -> bool:
    """Set several reactives of ``widget`` (``{Class.attribute: value}``) without their
    watchers: a widget whose watchers each restyle it takes all the values, then
    restyles and repaints once itself. Returns whether any value changed (nothing is set
    then)."""
    if all(getattr(widget, reactive.name) == value for reactive, value in values.items()):
        return False
    for reactive, value in values.items():
        widget.set_reactive(reactive, value)
    return True
