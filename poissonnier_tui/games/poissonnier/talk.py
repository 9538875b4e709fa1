"""Market talk a bot understands: the chat's quick phrases that concern it.

RULES.md §4 (table talk). The chat's quick phrases (``shell/screens/chat.py``)
are sent as their words in the speaker's language; a bot reads them back in
any language of the catalogue (:data:`poissonnier_tui.i18n.LANGUAGES`):

* "How much?" naming the bot (its name, or the part before " · ", e.g.
  "Bot 2, how much?");
* "Anyone have M?" (a freshness code T F M D P, or its French name).

Pure functions of the text: no game state, no Textual.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from poissonnier_tui.i18n import LANGUAGES, N_, translations

HOW_MUCH: Final = N_("How much?")
"""The chat's quick phrase (the same message as ``shell/screens/chat.py``)."""

ANYONE_HAVE: Final = N_("Anyone have …?")
"""The chat's quick phrase to finish with a fish (the same message as the chat's)."""

FISH_WORDS: Final = (
    ("très frais", "T"), ("tres frais", "T"), ("frais", "F"), ("mangeable", "M"),
    ("douteux", "D"), ("pourri", "P"),
)  # fmt: skip
"""The French names of the freshnesses, longest first where one holds another."""


@dataclass(frozen=True)
class Phrase:
    """A quick phrase read from a chat message.

    Attributes:
        kind: ``"how_much"`` or ``"anyone_have"``.
        fish: the freshness code asked for (``"anyone_have"``), else ``None``.
    """

    kind: Literal["how_much", "anyone_have"]
    fish: str | None = None


def _plain(text: str) -> str:
    """Case and spacing folded (no-break spaces too), for comparing phrases."""
    text = unicodedata.normalize("NFC", text).replace("\u00a0", " ").replace("\u202f", " ")
    return re.sub(r"\s+", " ", text.casefold()).strip()


@lru_cache(maxsize=1)
def _phrases() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Every language's "how much" words and "anyone have" openings, folded."""
    how, have = set(), set()
    for lang in LANGUAGES:
        said = translations(lang)
        how.add(_plain(said.gettext(HOW_MUCH)).rstrip("?! ").strip())
        opening = said.gettext(ANYONE_HAVE).split("…")[0]
        have.add(_plain(opening))
    return tuple(sorted(how)), tuple(sorted(have, key=len, reverse=True))


def fish_named(words: str) -> str | None:
    """The freshness code ``words`` names: a code (``"M"``, ``"m"``) or a French name."""
    rest = _plain(words).strip(" ?!.,;:")
    rest = re.sub(r"^(du|de la|des|de|d'|some|any)\s*", "", rest).strip()
    if len(rest) == 1 and rest.upper() in "TFMDP":
        return rest.upper()
    for name, code in FISH_WORDS:
        if rest == name or rest.startswith(name + " "):
            return code
    return None


def read_phrase(text: str) -> Phrase | None:
    """The quick phrase ``text`` says, or ``None``.

    "Anyone have M?" needs a fish it can read; "How much?" may sit in a longer
    line ("Bot 2, how much?").
    """
    plain = _plain(text)
    how, have = _phrases()
    for opening in have:
        if opening and plain.startswith(opening):
            fish = fish_named(plain[len(opening) :])
            return Phrase("anyone_have", fish) if fish is not None else None
    if any(words and words in plain for words in how):
        return Phrase("how_much")
    return None


def names_me(text: str, name: str) -> bool:
    """Whether ``text`` names the seat called ``name`` (or its part before " · ")."""
    plain = _plain(text)
    for called in {name, name.split(" · ")[0]}:
        words = _plain(called)
        if words and re.search(rf"(?<!\w){re.escape(words)}(?!\w)", plain):
            return True
    return False
