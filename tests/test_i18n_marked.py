"""No string a person reads escapes the catalogue: a scan of the UI modules.

The scan reads each module's syntax tree and looks at what goes to the
screen: the message and title of ``notify``, the text of ``Static``,
``Label``, ``Button``, ``Markdown``, the description of a ``Binding``, and
what is assigned to ``title``, ``sub_title`` and ``border_title``. A string
literal (or f-string) there must be wrapped in ``_``, ``N_``, ``ngettext`` or
``pgettext``. Literals with no letters (markup, symbols, empty text) and
keyword arguments that are not text (``id``, ``classes``, ``severity``…) are
allowed. Modules still waiting for their strings to be marked are listed in
:data:`NOT_YET`, so that the list can only shrink.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "poissonnier_tui"
UI_DIRS = [PACKAGE / "shell", *sorted(PACKAGE.glob("games/*/ui"))]
UI_MODULES = sorted(p for d in UI_DIRS for p in d.rglob("*.py"))

MARKERS = {"_", "N_", "ngettext", "pgettext"}
SHOWN_CALLS: dict[str, tuple[int, ...] | tuple[int, str, str] | tuple[int, str]] = {
    "notify": (0, "message", "title"),
    "Static": (0, "content"),
    "Label": (0, "content"),
    "Button": (0, "label"),
    "Markdown": (0, "markdown"),
    "Binding": (2, "description"),
}
"""Callables whose text a person reads: the position and keyword names of that text."""
PROPER_NAMES = {"Le Poissonnier", "Poissonnier"}
"""Names that are the same in every language (a game's title, the app's)."""
SHOWN_ATTRIBUTES = {"title", "sub_title", "border_title", "border_subtitle", "TITLE", "SUB_TITLE"}

NOT_YET: dict[str, str] = {
    # module (relative to poissonnier_tui/) -> who marks it
}
"""Modules other branches are changing now; they mark their strings there."""


def _has_letters(text: str) -> bool:
    """Text a person reads: letters left once markup tags and placeholders are removed."""
    bare = re.sub(r"\[[^\]]*\]|\{[^}]*\}", "", text)
    return any(ch.isalpha() for ch in bare)


def _unmarked(node: ast.AST | None) -> Iterator[ast.AST]:
    """The literal text inside ``node`` that is not wrapped in a marker."""
    if node is None:
        return
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKERS:
        return
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == "format":  # _("…{x}").format(x=…): look at the receiver
            yield from _unmarked(node.func.value)
        return
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        if _has_letters(node.value) and node.value not in PROPER_NAMES:
            yield node
    elif isinstance(node, ast.JoinedStr):
        if any(isinstance(v, ast.Constant) and _has_letters(str(v.value)) for v in node.values):
            yield node
    elif isinstance(node, ast.BinOp):
        yield from _unmarked(node.left)
        yield from _unmarked(node.right)
    elif isinstance(node, ast.IfExp):
        yield from _unmarked(node.body)
        yield from _unmarked(node.orelse)


def unmarked_strings(source: str) -> list[tuple[int, str]]:
    """``(line, text)`` of every unmarked string ``source`` shows a person."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        shown: list[ast.AST | None] = []
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in SHOWN_CALLS:
                position, *keywords = SHOWN_CALLS[name]
                assert isinstance(position, int)
                if len(node.args) > position:
                    shown.append(node.args[position])
                shown += [k.value for k in node.keywords if k.arg in keywords]
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                name = (
                    target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
                )
                if name in SHOWN_ATTRIBUTES:
                    shown.append(node.value)
        for value in shown:
            found += [(getattr(n, "lineno", 0), ast.unparse(n)[:70]) for n in _unmarked(value)]
    return found


@pytest.mark.parametrize(
    "path",
    [p for p in UI_MODULES if str(p.relative_to(PACKAGE)) not in NOT_YET],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_every_string_a_ui_module_shows_is_marked(path: Path) -> None:
    assert unmarked_strings(path.read_text(encoding="utf-8")) == []


def test_the_scan_finds_an_unmarked_string_and_accepts_marked_ones() -> None:
    source = """
self.notify("Crate 3 is empty.", title=_("Oops"))
self.notify(_("fine {x}").format(x=1), severity="warning")
yield Static("[dim]—[/]", id="rule")
yield Label(f"Turn {n}")
Binding("s", "serve", N_("Serve"))
Binding("e", "end_turn", "End turn")
self.border_title = "Market"
self.sub_title = "" if x else ngettext("{n} coin", "{n} coins", n)
"""
    assert sorted(line for line, _text in unmarked_strings(source)) == [2, 5, 7, 8]


def test_modules_waiting_for_their_marks_still_exist() -> None:
    assert all((PACKAGE / name).exists() for name in NOT_YET)
