"""How fish and special cards look on screen: names, colours and chips.

Freshness runs from fresh green to rotten purple (RULES.md §1: très frais >
frais > mangeable > douteux > pourri), so a glance at a stall tells good fish
from bad. Colours are fixed hex values rather than theme variables because
they carry meaning (freshness), not decoration, and must read the same in
every theme. Each freshness also has a letter, so nothing depends on colour
alone.
"""

from __future__ import annotations

from typing import Final

from poissonnier_tui.games.poissonnier.rules.cards import ARRIVAGE, FRESHNESS_ORDER, GLACON
from poissonnier_tui.i18n import _

KINDS: Final = (*FRESHNESS_ORDER, GLACON, ARRIVAGE)
"""Every fish-deck kind letter in display order: freshness best first, then specials."""

NAMES: Final = {
    "T": "très frais",
    "F": "frais",
    "M": "mangeable",
    "D": "douteux",
    "P": "pourri",
    GLACON: "glaçon",
    ARRIVAGE: "arrivage",
}
"""The French name of each kind, as players say it at the table."""

PLURAL_NAMES: Final = {
    **NAMES,
    "M": "mangeables",
    "P": "pourris",
    GLACON: "glaçons",
    ARRIVAGE: "arrivages",
}
"""Each kind's name for two or more, in French in every language (docs/GLOSSARY.md: *frais*,
*très frais*, *douteux* do not change)."""

COLOURS: Final = {
    "T": "#2fd66b",
    "F": "#a6d63a",
    "M": "#e8c547",
    "D": "#c9823a",
    "P": "#9b59b6",
    GLACON: "#7fd8ff",
    ARRIVAGE: "#ff9ecf",
}
"""Background colour of each kind's chip: green (fresh) to brown and purple (rotten)."""

DARK_TEXT: Final = {
    "T": "#12813a",
    "F": "#5f7d12",
    "M": "#8a6d00",
    "D": "#8a4f16",
    "P": "#6f2f8c",
    GLACON: "#1f6f96",
    ARRIVAGE: "#a8326e",
}
"""Each kind's colour as *text* on a light background: the chip colours darkened to read."""

INK: Final = "#101010"
"""Text colour on a chip: every chip colour above is light enough for dark ink."""

GLYPHS: Final = {GLACON: "❄", ARRIVAGE: "★"}
"""Symbols for the special cards, shown instead of a letter."""


def chip(kind: str, label: str | None = None) -> str:
    """Content markup for one coloured chip, e.g. `` T `` on green.

    Args:
        kind: a kind letter (``T F M D P G A``).
        label: the text inside; defaults to the kind's letter (or glyph).

    Returns:
        Markup usable in a ``Static`` or a ``Content``.
    """
    text = label if label is not None else GLYPHS.get(kind, kind)
    return f"[{INK} on {COLOURS[kind]}] {text} [/]"


def chips(codes: str) -> str:
    """Markup for a run of chips, one per letter of ``codes`` (e.g. ``"TFM"``)."""
    return "".join(chip(code) for code in codes)


def spell(codes: str) -> str:
    """Fish codes in words, best first: ``"TTFMM"`` -> ``"2 très frais, 1 frais, 2 mangeables"``."""
    if not codes:
        return _("nothing")
    counts = {k: codes.count(k) for k in KINDS if k in codes}
    return ", ".join(f"{n} {(NAMES if n == 1 else PLURAL_NAMES)[k]}" for k, n in counts.items())


def text_colour(kind: str, dark: bool) -> str:
    """The colour to write a kind's name in: the chip colour on a dark theme, a darker
    shade of it on a light one (yellow text on white cannot be read)."""
    return COLOURS[kind] if dark else DARK_TEXT[kind]
