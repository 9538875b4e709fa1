"""Every key of the table and results screens is in the in-app help, in English and French.

The help a player opens at a table (``?``) is the game's help followed by the
shell's (:class:`~poissonnier_tui.shell.screens.help.HelpScreen`). For each
registered game and language, every binding of the game's table screen (and
the widgets it binds keys on), of its results screen (the play-again keys
included) and of the app must appear in that text, written as the help
writes keys: in bold or code (``**PgUp**``, ``**↑ ↓**``, ``**1 … 6**``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from textual.app import App
from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widget import Widget

from poissonnier_tui.games.gofish.ui import screens as gofish_screens
from poissonnier_tui.games.poissonnier.ui.screens.results import ResultsScreen
from poissonnier_tui.games.poissonnier.ui.screens.table import TableScreen
from poissonnier_tui.games.poissonnier.ui.widgets.hand import HandView
from poissonnier_tui.shell.app import PoissonnierApp
from poissonnier_tui.shell.game_ui import load_game_ui
from poissonnier_tui.shell.screens.help import HelpScreen

SCREENS: dict[str, tuple[type[DOMNode], ...]] = {
    "poissonnier": (TableScreen, HandView, ResultsScreen, PoissonnierApp),
    "gofish": (gofish_screens.TableScreen, gofish_screens.ResultsScreen, PoissonnierApp),
}

WRITTEN: dict[str, dict[str, str]] = {
    "en": {
        "escape": "Esc", "enter": "Enter", "space": "space",
        "up": "↑", "down": "↓", "left": "←", "right": "→",
        "question_mark": "?", "f1": "F1", "f2": "F2", "1–6": "1 … 6", "1–3": "1 … 3",
    },
    "fr": {
        "escape": "Échap", "enter": "Entrée", "space": "espace", "PgUp": "Pg préc.",
        "PgDn": "Pg suiv.", "up": "↑", "down": "↓", "left": "←", "right": "→",
        "question_mark": "?", "f1": "F1", "f2": "F2", "1–6": "1 … 6", "1–3": "1 … 3",
    },
}  # fmt: skip
"""How each help writes a key (the binding's ``key_display``, else its key)."""

GOFISH_WRITTEN = {"Esc": "Escape", "Échap": "Échap", "Entrée": "Entrée", "Enter": "Enter"}


TEXTUAL_OWN = {
    (b.key, b.action)
    for base in (App, Screen, Widget)
    for group in base._merge_bindings().key_to_bindings.values()
    for b in group
}
"""Textual's own bindings (focus with Tab, copy, ctrl+c's hint), not the project's."""


def bindings(cls: type[DOMNode]) -> Iterator[Binding]:
    """Every binding ``cls`` declares or inherits from the project's classes."""
    for group in cls._merge_bindings().key_to_bindings.values():
        yield from (b for b in group if (b.key, b.action) not in TEXTUAL_OWN)


def written_keys(text: str) -> set[str]:
    """Every key the help writes: bold and code spans, whole and word by word."""
    spans = re.findall(r"\*\*(.+?)\*\*|`([^`]+)`", text)
    out: set[str] = set()
    for bold, code in spans:
        span = bold or code
        out.add(span)
        out.update(span.split())
        out.update(part.strip() for part in span.split("/"))
    return out


def how_written(binding: Binding, lang: str) -> list[str]:
    """The ways the help may write ``binding``'s key (one per key of a multi-key binding)."""
    keys = [binding.key_display] if binding.key_display else binding.key.split(",")
    return [WRITTEN[lang].get(key, key) for key in keys]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", sorted(SCREENS))
def test_every_key_of_the_table_and_results_is_in_the_help(game: str, lang: str) -> None:
    text = HelpScreen(load_game_ui(game).help(lang), lang=lang).text
    documented = written_keys(text)
    missing = []
    for cls in SCREENS[game]:
        for binding in bindings(cls):
            for key in how_written(binding, lang):
                alternatives = {key, GOFISH_WRITTEN.get(key, key), key.upper(), key.lower()}
                if not alternatives & documented:
                    missing.append(f"{cls.__name__}: {key} ({binding.action})")
    assert missing == [], "\n".join(missing)


def test_the_check_sees_a_key_missing_from_the_help() -> None:
    """The parser of the help is not blind: a key no help writes is reported missing."""
    text = "| **a** | accept |\n| **PgUp PgDn** | scroll |\n| `Escape` | back |"
    documented = written_keys(text)
    assert {"a", "PgUp", "PgDn", "Escape"} <= documented
    assert "z" not in documented and "accept" not in documented
