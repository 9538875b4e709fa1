"""``poissonnier --lang fr``: the command line speaks no English.

Every command's ``--help``, argparse's own errors, the commands' refusals and
a few printouts (``history`` with nothing saved, ``simulate --games 1``,
``tables`` finding no table) are run in French and searched for English
words — words that no French sentence uses. What is the same in both
languages is left out first: option names (``--bots``), metavars
(``HOST:PORT``), command lines quoted in the text and the bots' level names.
The same run in English finds English words, so the search can fail.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from poissonnier_tui import i18n
from poissonnier_tui.cli import main
from poissonnier_tui.commands import MODULES

COMMANDS = ["", *(name.rsplit(".", 1)[1] for name in MODULES)]
"""The bare command and every subcommand."""

ENGLISH_WORDS = re.compile(
    r"\b(the|and|with|is|are|of|your|you|this|from|game|games|seat|seats|player|players|"
    r"default|show|only|must|cannot|which|when|there|will|has|have|what|for|to|at|by|it|its|"
    r"be|not|yes|how|can|each|every|than|then|found|no|number|table's|choose|error|"
    r"usage|invalid|expected|required|seconds)\b",
    re.IGNORECASE,
)
"""Words of English sentences that French ones never use (``table``, ``a``, ``on``... are
French too, and left out)."""

SAME_IN_BOTH = [
    r"--?[\w-]+(=\S+)?",  # options, as typed
    r"\b[A-Z][A-Z_]*(:[A-Z]+|=[A-Z]+)?\b",  # metavars: HOST:PORT, KEY=VALUE, COMMAND
    r"poissonnier( \w+)*",  # the command and its subcommands, quoted in the text
    r"\b(easy|medium|hard|greedy|random|gofish)\b",  # level and game names, as typed
]


def english_words(text: str) -> list[str]:
    """The English words of ``text`` once the words that are the same in both languages
    are removed."""
    for pattern in SAME_IN_BOTH:
        text = re.sub(pattern, " ", text)
    return ENGLISH_WORDS.findall(text)


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """What ``poissonnier ARGS`` prints (stdout and stderr), whatever its exit."""
    with contextlib.suppress(SystemExit):  # --help and argparse's errors exit
        main(args)
    out = capsys.readouterr()
    return out.out + out.err


def printouts(lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    """Each command's help, some refusals and printouts, in ``lang``."""
    said = {
        f"{command or 'poissonnier'} --help": run([*filter(None, [command]), "--lang", lang,
                                                   "--help"], capsys)
        for command in COMMANDS
    }  # fmt: skip
    for args in (
        ["--bots", "x"],  # argparse: an invalid int
        ["frob"],  # argparse: an invalid choice
        ["serve", "--seats", "6"],
        ["join", "nohost:notaport"],
        ["join", "--bot", "genius", "--headless"],
        ["simulate", "--games", "0"],
        ["tournament", "--bots", "hard,easy,medium", "--players", "2"],
        ["history", "--dir", str(tmp_path)],
        ["simulate", "--games", "1", "--players", "2", "--seed", "3"],
    ):
        said[" ".join(args)] = run(["--lang", lang, *args], capsys)
    return said


def test_the_command_line_in_french_has_no_english(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    french = printouts("fr", tmp_path, capsys)
    assert "utilisation" in french["poissonnier --help"]
    assert "erreur\u00a0: argument --bots\u00a0: valeur int non valable\u00a0: 'x'" in (
        french["--bots x"]
    )
    assert "1 partie de poissonnier, 2 joueurs (greedy, greedy), graine 3" in french[
        "simulate --games 1 --players 2 --seed 3"
    ]
    # numbers with a decimal comma: "0,12 s, 8,3 parties/s", "durée moyenne 2,5 ms"...
    simulated = french["simulate --games 1 --players 2 --seed 3"]
    assert re.search(r"\d+,\d\d\u00a0s", simulated) and not re.search(r"\d\.\d", simulated)
    found = {what: english_words(text) for what, text in french.items()}
    assert {what: words for what, words in found.items() if words} == {}


def test_the_same_printouts_in_english_are_found_english(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    english = printouts("en", tmp_path, capsys)
    simulated = english["simulate --games 1 --players 2 --seed 3"]
    assert re.search(r"\d+\.\d\d s", simulated) and not re.search(r"\d,\d", simulated)
    assert all(english_words(text) for text in english.values()), [
        what for what, text in english.items() if not english_words(text)
    ]


def test_no_tables_found_is_said_in_french(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    async def nothing(timeout: float, interface: str | None) -> list[object]:
        return []

    monkeypatch.setattr("poissonnier_tui.commands.tables.discover_all", nothing)
    said = run(["tables", "--lang", "fr", "--timeout", "2.5"], capsys)
    assert said.startswith("Aucune table trouvée en 2,5 s. L'hôte est-il sur ce réseau\u00a0?")
    assert english_words(said) == []
    i18n.set_language("en")
    assert english_words(run(["tables", "--timeout", "2"], capsys))
