"""What a player chose once and the app remembers: name, bot pace, theme, language.

Saved as JSON in the user's config folder (``platformdirs.user_config_path
("poissonnier")/settings.json``; ``$POISSONNIER_CONFIG_DIR`` moves it, e.g. for
tests). A missing, unreadable or damaged file never stops the app: it starts
with the defaults and says what it ignored (:attr:`Loaded.problem`); a value
of the wrong type or out of range is dropped alone, the rest is kept.

Usage::

    loaded = load_settings()
    settings = loaded.settings
    save_settings(replace(settings, language="fr"))
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Final

import platformdirs

from poissonnier_tui.i18n import LANGUAGES, _, ngettext

APP_NAME: Final = "poissonnier"
FILE_NAME: Final = "settings.json"
CONFIG_DIR_ENV: Final = "POISSONNIER_CONFIG_DIR"
"""Environment variable naming the folder of ``settings.json`` (overrides platformdirs)."""

MAX_NAME: Final = 24
"""Longest player name kept, in characters (the table's own cap)."""

MAX_BOT_DELAY: Final = 5.0
"""Slowest bot pace offered, seconds per move."""

THEMES: Final[tuple[str, ...]] = ("textual-dark", "textual-light")
"""The themes offered: Textual's own dark and light themes."""


@dataclass(frozen=True, slots=True)
class Settings:
    """A player's saved choices.

    Attributes:
        name: the name to sit at tables with ("" asks the system's user name).
        bot_delay: seconds a bot waits before each move, ``0 .. MAX_BOT_DELAY``,
            so that people can follow their moves.
        theme: one of :data:`THEMES`.
        language: ``"en"``, ``"fr"``, or ``""`` to follow the system's locale.
    """

    name: str = ""
    bot_delay: float = 0.5
    theme: str = "textual-dark"
    language: str = ""


@dataclass(frozen=True, slots=True)
class Loaded:
    """What :func:`load_settings` found.

    Attributes:
        settings: the settings to use (defaults where the file had nothing usable).
        problem: a sentence saying what was ignored and why, or ``""``.
    """

    settings: Settings
    problem: str = ""


def settings_path() -> Path:
    """Where the settings live: ``$POISSONNIER_CONFIG_DIR/settings.json`` if set, else
    ``<user config dir>/poissonnier/settings.json``."""
    override = os.environ.get(CONFIG_DIR_ENV)
    if override:
        return Path(override) / FILE_NAME
    return platformdirs.user_config_path(APP_NAME, appauthor=False) / FILE_NAME


def _valid(name: str, value: Any) -> bool:
    """Whether ``value`` is acceptable for the field ``name``."""
    if name == "name":
        return isinstance(value, str) and len(value) <= MAX_NAME and value.isprintable()
    if name == "bot_delay":
        return (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and 0 <= value <= MAX_BOT_DELAY
        )
    if name == "theme":
        return value in THEMES
    if name == "language":
        return value == "" or value in LANGUAGES
    return False


def load_settings(path: Path | None = None) -> Loaded:
    """Read the saved settings; never raises for a bad file.

    Args:
        path: the JSON file (default :func:`settings_path`).

    Returns:
        The settings, with defaults for what is missing or unusable, and a
        sentence naming what was ignored.
    """
    path = path or settings_path()
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Loaded(Settings())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return Loaded(
            Settings(),
            _("{path} could not be read ({error}); using the defaults").format(
                path=path, error=exc
            ),
        )
    if not isinstance(raw, dict):
        return Loaded(
            Settings(), _("{path} does not hold settings; using the defaults").format(path=path)
        )
    kept: dict[str, Any] = {}
    dropped: list[str] = []
    for field in fields(Settings):
        if field.name in raw:
            if _valid(field.name, raw[field.name]):
                value = raw[field.name]
                kept[field.name] = float(value) if field.name == "bot_delay" else value
            else:
                dropped.append(field.name)
    problem = (
        ngettext(
            "{path}: ignored {fields} (not a valid value)",
            "{path}: ignored {fields} (not valid values)",
            len(dropped),
        ).format(path=path, fields=", ".join(dropped))
        if dropped
        else ""
    )
    return Loaded(Settings(**kept), problem)


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write ``settings`` atomically (a temporary file renamed over the old one).

    Returns:
        The path written.

    Raises:
        ValueError: a field holds a value :func:`load_settings` would reject.
        OSError: the folder cannot be created or written.
    """
    values = asdict(settings)
    bad = [name for name, value in values.items() if not _valid(name, value)]
    if bad:
        raise ValueError(_("invalid settings: {fields}").format(fields=", ".join(bad)))
    path = path or settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".settings-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(values, out, indent=2, ensure_ascii=False)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path
