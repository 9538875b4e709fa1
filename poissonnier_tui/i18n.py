"""The player's language: message catalogues through the standard ``gettext`` machinery.

Every string a person reads is marked in the source with :func:`_` (or
:func:`ngettext` for a count, :func:`N_` where a string is only marked and
translated later) and looked up in ``poissonnier_tui/locale/<lang>/LC_MESSAGES/
poissonnier.mo``. The catalogues are kept as ``.po`` files beside the compiled
``.mo`` files (``make catalog`` extracts, updates and compiles them with Babel;
a test checks that each ``.mo`` matches its ``.po`` and that every message has
a French translation with the same placeholders).

The language is chosen per laptop (:func:`resolve_language`): ``--lang``, then
the saved setting, then ``LC_ALL`` / ``LC_MESSAGES`` / ``LANG``, English
otherwise. :func:`set_language` switches it for the whole process at once;
screens read strings when they render, so re-rendering shows the new language.

Usage::

    from poissonnier_tui.i18n import _, ngettext

    _("Your turn")
    ngettext("{n} card", "{n} cards", n).format(n=n)
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from importlib.resources import files
from pathlib import Path
from typing import Final

DOMAIN: Final = "poissonnier"
"""The gettext domain: the catalogues are ``<lang>/LC_MESSAGES/poissonnier.mo``."""

LANGUAGES: Final[tuple[str, ...]] = ("en", "fr")
"""The languages the app speaks, the source language (English) first."""

LANGUAGE_NAMES: Final[Mapping[str, str]] = {"en": "English", "fr": "Français"}
"""Each language's name in itself, for the settings screen."""

DEFAULT_LANGUAGE: Final = "en"
"""The language when nothing else chooses one: the source strings."""

ENV_VARIABLES: Final[tuple[str, ...]] = ("LC_ALL", "LC_MESSAGES", "LANG")
"""Where the environment names a locale, in the order POSIX consults them."""


def locale_dir() -> Path:
    """The folder holding ``<lang>/LC_MESSAGES/poissonnier.mo`` (inside the package)."""
    return Path(str(files("poissonnier_tui").joinpath("locale")))


def language_from_locale(value: str | None) -> str | None:
    """The supported language a locale name asks for, e.g. ``"fr_FR.UTF-8"`` -> ``"fr"``.

    Returns:
        One of :data:`LANGUAGES`, or ``None`` for an empty, ``C``/``POSIX`` or
        unsupported locale.
    """
    if not value:
        return None
    code = value.split(".", 1)[0].split("@", 1)[0].split("_", 1)[0].split("-", 1)[0].lower()
    return code if code in LANGUAGES else None


def resolve_language(
    cli: str | None = None,
    setting: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> str:
    """The language to speak: ``--lang``, else the saved setting, else the locale.

    The environment is read as POSIX does: the first of ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG`` that is set decides, even if it names a language
    we do not speak (then English).

    Args:
        cli: the ``--lang`` option, if given.
        setting: the language saved in the settings, if any.
        environ: the environment (``os.environ`` when ``None``).

    Raises:
        ValueError: ``cli`` names a language we do not speak (the message lists ours).
    """
    if cli is not None:
        if cli not in LANGUAGES:
            raise ValueError(
                _("unknown language {lang}; choose from {choices}").format(
                    lang=repr(cli), choices=", ".join(LANGUAGES)
                )
            )
        return cli
    if setting in LANGUAGES:
        assert setting is not None
        return setting
    env = os.environ if environ is None else environ
    for name in ENV_VARIABLES:
        if env.get(name):
            return language_from_locale(env[name]) or DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def translations(lang: str) -> gettext.NullTranslations:
    """The catalogue of ``lang`` (English: the source strings themselves).

    Raises:
        ValueError: ``lang`` is not one of :data:`LANGUAGES`.
        FileNotFoundError: the package lacks the compiled catalogue of ``lang``.
    """
    if lang not in LANGUAGES:
        raise ValueError(
            _("unknown language {lang}; choose from {choices}").format(
                lang=repr(lang), choices=", ".join(LANGUAGES)
            )
        )
    if lang == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=locale_dir(), languages=[lang])


_current: gettext.NullTranslations = gettext.NullTranslations()
_language: str = DEFAULT_LANGUAGE


def set_language(lang: str) -> None:
    """Speak ``lang`` from now on, in the whole process.

    Raises:
        ValueError: ``lang`` is not one of :data:`LANGUAGES`.
    """
    global _current, _language
    _current = translations(lang)
    _language = lang


def language() -> str:
    """The language spoken now, one of :data:`LANGUAGES`."""
    return _language


def _(message: str) -> str:
    """``message`` in the current language (itself if the catalogue lacks it)."""
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted message for ``n`` in the current language.

    French uses the singular for 0 and 1 (``0 carte``, ``1 carte``, ``2 cartes``);
    English for 1 only. Format the count in afterwards, e.g.
    ``ngettext("{n} card", "{n} cards", n).format(n=n)``.
    """
    return _current.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart from the same words elsewhere
    by ``context`` (e.g. ``pgettext("key", "Deal")`` vs. a deal in the log)."""
    return _current.pgettext(context, message)


def decimal(value: float, places: int | None = None) -> str:
    """``value`` written with the current language's decimal separator ("0.25" in
    English, "0,25" in French), with ``places`` digits after it, or as short as it
    reads exactly when ``places`` is ``None`` (``format(value, "g")``: 3 → "3",
    1.5 → "1.5"). No thousands grouping. The separator is the catalogue's own
    translation of "." (context ``decimal separator``)."""
    text = format(value, "g") if places is None else f"{value:.{places}f}"
    return text.replace(".", pgettext("decimal separator", "."))


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it now (for constants
    read at import time: translate them with :func:`_` where they are shown)."""
    return message
