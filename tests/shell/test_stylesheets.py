"""Each screen's stylesheet styles that screen only.

Textual loads a screen's ``CSS_PATH`` into the app's one stylesheet, where its rules
stay for every screen after (unlike a screen's inline ``CSS``, which is scoped). An
``#banner`` rule of the home screen (one line high) once squeezed the results
screen's winner banner to nothing. So every rule of a screen's file names its screen
first (``HomeScreen #banner``, ``TableScreen.-w-narrow #panes``).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pytest
from textual.screen import Screen

import poissonnier_tui
from poissonnier_tui.shell.game_ui import screen_css

COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)


def top_level_selectors(text: str) -> list[str]:
    """Every selector of every top-level rule of a stylesheet, comments left out."""
    text = COMMENT.sub("", text)
    selectors: list[str] = []
    depth = 0
    start = 0
    for i, char in enumerate(text):
        if char == "{":
            if depth == 0:
                selectors += [s.strip() for s in text[start:i].split(",") if s.strip()]
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                start = i + 1
    return selectors


def screens_with_stylesheets() -> dict[Path, set[str]]:
    """Each stylesheet of the app's screens -> the names of the screens that load it."""
    for module in pkgutil.walk_packages(poissonnier_tui.__path__, "poissonnier_tui."):
        if not module.name.endswith("__main__"):  # that one runs the app
            importlib.import_module(module.name)
    found: dict[Path, set[str]] = {}
    todo: list[type[Screen[object]]] = list(Screen.__subclasses__())
    while todo:
        screen = todo.pop()
        todo += screen.__subclasses__()
        if screen.__module__.startswith("poissonnier_tui.") and "CSS_PATH" in vars(screen):
            for path in screen_css(screen):
                found.setdefault(Path(path), set()).add(screen.__name__)
    return found


SHEETS = screens_with_stylesheets()


def test_every_screen_stylesheet_is_found() -> None:
    names = {p.name for p in SHEETS}
    assert {"home.tcss", "table.tcss", "results.tcss", "deal_dialog.tcss", "gofish.tcss"} <= names


@pytest.mark.parametrize("path", sorted(SHEETS), ids=lambda p: p.name)
def test_every_rule_names_its_screen_first(path: Path) -> None:
    screens = SHEETS[path]
    selectors = top_level_selectors(path.read_text(encoding="utf-8"))
    assert selectors
    loose = [s for s in selectors if re.match(r"[A-Za-z_]\w*", s) is None
             or re.match(r"[A-Za-z_]\w*", s).group(0) not in screens]  # fmt: skip
    assert not loose, f"{path.name}: rules not scoped to {sorted(screens)}: {loose}"
