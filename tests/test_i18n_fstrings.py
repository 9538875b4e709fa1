"""A message written inside an f-string escapes the catalogue's extraction.

``f"{_('not over')}"`` is translated at run time, but the extractor does not
look inside f-strings, so the message never reaches the ``.po`` and a French
player reads it in English (the pseudo-locale, which "translates" any message,
cannot see that). Every ``_("...")`` with a literal must stand outside f-strings.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "poissonnier_tui"
MARKERS = {"_", "N_", "ngettext", "pgettext"}


def literal_messages_in_fstrings(source: str) -> list[str]:
    """Each literal message marked inside an f-string of ``source``, as ``line: text``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.JoinedStr):
            continue
        for call in ast.walk(node):
            if (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Name)
                and call.func.id in MARKERS
                and any(isinstance(a, ast.Constant) for a in call.args)
            ):
                found.append(f"{call.lineno}: {ast.unparse(call)}")
    return found


def test_the_check_finds_a_message_inside_an_f_string() -> None:
    assert literal_messages_in_fstrings("x = f\"[b]{_('not over')}[/]\"") == ["1: _('not over')"]
    assert literal_messages_in_fstrings("m = _('not over')\nx = f'[b]{m}[/]'") == []


def test_no_message_is_marked_inside_an_f_string() -> None:
    found = [
        f"{path.relative_to(PACKAGE)}:{hit}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for hit in literal_messages_in_fstrings(path.read_text(encoding="utf-8"))
    ]
    assert not found, "\n".join(found)
