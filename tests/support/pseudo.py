"""A pseudo-locale for screen tests: every translated message comes out in look-alike letters.

:class:`PseudoTranslations` turns each message the catalogue would translate
into accented look-alikes of its letters (``"Serve"`` -> ``"Šéŕʋé"``), leaving
``{placeholders}`` and ``[markup]`` as they are, so the screens still format
and style their text. A screen rendered with it shows plain ASCII words only
where a string escaped the catalogue (or where the text is data: player names,
card codes, the game's French terms). :func:`english_words` finds those words
in what a screen shows (:func:`screen_lines`, read from the real rendering).

Unlike a scan of the source, this sees strings built anywhere: f-strings
returned by helpers, words glued to translated text, names of steps or moves.
"""

from __future__ import annotations

import gettext
import html
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from textual.app import App

from poissonnier_tui import i18n

LOOK_ALIKES = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçđéƒĝĥíĵķĺɱñóƥʠŕšţúʋŵẋýžÁƁÇĐÉƑĜĤÍĴĶĹṀÑÓƤǪŔŠŢÚṼŴẊÝŽ",
)
"""Each ASCII letter -> one single-width accented look-alike (the layout keeps its widths)."""

_KEEP = re.compile(r"(\{[^{}]*\}|\[[^\[\]]*\])")
"""Placeholders and markup tags: left untouched, so formatting and styles still work."""


def pseudo(message: str) -> str:
    """``message`` with every letter outside ``{…}`` and ``[…]`` replaced by a look-alike."""
    parts = _KEEP.split(message)
    return "".join(p if i % 2 else p.translate(LOOK_ALIKES) for i, p in enumerate(parts))


class PseudoTranslations(gettext.NullTranslations):
    """A catalogue that "translates" every message, even one missing from the ``.po``."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)


@contextmanager
def pseudo_locale() -> Iterator[None]:
    """Speak the pseudo-locale inside the block, English again after it."""
    saved = i18n._current
    i18n._current = PseudoTranslations()
    try:
        yield
    finally:
        i18n._current = saved


def screen_lines(app: App[object]) -> list[str]:
    """The text on ``app``'s screen now, one string per terminal row (from the same
    rendering as a screenshot: what a person sees, toasts and footer included)."""
    svg = app.export_screenshot()
    rows: dict[float, list[tuple[float, str]]] = {}
    for x, y, text in re.findall(r'<text class="terminal-[^"]*" x="([\d.]+)" y="([\d.]+)"[^>]*>'
                                 r"([^<]*)</text>", svg):  # fmt: skip
        rows.setdefault(float(y), []).append((float(x), html.unescape(text).replace("\xa0", " ")))
    return ["".join(t for _x, t in sorted(cells)) for _y, cells in sorted(rows.items())]


def english_words(lines: Iterable[str], allowed: Iterable[str]) -> list[str]:
    """The words of two or more ASCII letters in ``lines`` that ``allowed`` does not list
    (compared case-insensitively; a word cut short with ``…`` may be the start of one):
    text that did not go through the catalogue."""
    ok = {w.lower() for w in allowed}
    found = []
    for line in lines:
        for match in re.finditer(r"(?<![^\W\d_])[A-Za-z]{2,}(?![^\W\d_])", line):
            word = match.group().lower()
            cut = line[match.end() : match.end() + 1] == "…"
            if word in ok or (cut and any(w.startswith(word) for w in ok)):
                continue
            found.append(match.group())
    return found


def english_on_screen(app: App[object], allowed: Iterable[str]) -> list[str]:
    """Each English word on ``app``'s screen now, with its line (``"'word' in '…'"``), for
    an assertion message that shows where it is."""
    return [
        f"{word!r} in {line.strip()!r}"
        for line in screen_lines(app)
        for word in english_words([line], allowed)
    ]
