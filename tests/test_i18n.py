"""The message catalogues, the choice of language and the saved settings.

Every marked message has a French translation with the same placeholders; the
compiled ``.mo`` files match their ``.po`` files and the source (the check of
``scripts/catalog.py``); plurals follow each language's rule; the language is
chosen as ``--lang``, then the setting, then the locale; a damaged settings
file never stops the app.
"""

from __future__ import annotations

import importlib.util
import json
import re
import string
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.pofile import read_po

from poissonnier_tui import i18n
from poissonnier_tui.settings import Settings, load_settings, save_settings, settings_path

ROOT = Path(__file__).resolve().parent.parent
PO_FILES = sorted((ROOT / "poissonnier_tui" / "locale").glob("*/LC_MESSAGES/poissonnier.po"))


def _catalog_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("catalog", ROOT / "scripts" / "catalog.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def french() -> Iterator[None]:
    """Speak French for one test, English again after it."""
    i18n.set_language("fr")
    yield
    i18n.set_language("en")


def _fields(text: str) -> list[str]:
    """The ``{placeholders}`` of a message, sorted (with their format specs)."""
    return sorted(
        f"{name}{'!' + conv if conv else ''}{':' + spec if spec else ''}"
        for _, name, spec, conv in string.Formatter().parse(text)
        if name is not None
    )


def test_every_language_but_english_has_a_catalogue() -> None:
    assert [p.parts[-3] for p in PO_FILES] == [lang for lang in i18n.LANGUAGES if lang != "en"]


def test_the_compiled_catalogues_match_the_source_and_their_po_files() -> None:
    catalog = _catalog_script()
    assert catalog.main(["--check"]) == 0, "run `make catalog` (scripts/catalog.py)"


@pytest.mark.parametrize("po_file", PO_FILES, ids=lambda p: p.parts[-3])
def test_every_message_is_translated_with_the_same_placeholders(po_file: Path) -> None:
    with po_file.open("rb") as f:
        catalog = read_po(f)
    messages = [m for m in catalog if m.id]
    assert messages, "the catalogue is empty"
    for m in messages:
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        assert not m.fuzzy, ids[0]
        assert all(strings), f"untranslated: {ids[0]!r}"
        for translated in strings:
            # Every form of a plural may drop the count ("une carte"), but never
            # invents a placeholder; a singular keeps exactly the source's.
            if len(ids) == 1:
                assert _fields(translated) == _fields(ids[0]), ids[0]
            else:
                assert set(_fields(translated)) <= set(_fields(ids[1])), ids[0]


@pytest.mark.parametrize("po_file", PO_FILES, ids=lambda p: p.parts[-3])
def test_french_typography_puts_a_no_break_space_before_double_punctuation(
    po_file: Path,
) -> None:
    with po_file.open("rb") as f:
        catalog = read_po(f)
    for m in catalog:
        for text in [m.string] if isinstance(m.string, str) else m.string:
            assert not re.search(r" [;:!?]", text), text


def test_french_plurals_make_zero_singular_and_english_does_not(french: None) -> None:
    one = "{path}: ignored {fields} (not a valid value)"
    many = "{path}: ignored {fields} (not valid values)"
    assert i18n.ngettext(one, many, 0).endswith("ignoré (valeur non valable)")
    assert i18n.ngettext(one, many, 1).endswith("ignoré (valeur non valable)")
    assert i18n.ngettext(one, many, 2).endswith("ignorés (valeurs non valables)")
    i18n.set_language("en")
    assert i18n.ngettext(one, many, 0) == many
    assert i18n.ngettext(one, many, 1) == one


def test_switching_language_changes_every_later_lookup() -> None:
    message = "unknown language {lang}; choose from {choices}"
    assert i18n._(message) == message
    i18n.set_language("fr")
    try:
        assert i18n.language() == "fr"
        assert i18n._(message).startswith("langue inconnue")
    finally:
        i18n.set_language("en")
    assert i18n._(message) == message


@pytest.mark.parametrize(
    ("cli", "setting", "environ", "expected"),
    [
        ("fr", "en", {"LANG": "en_US.UTF-8"}, "fr"),  # --lang wins
        (None, "fr", {"LANG": "en_US.UTF-8"}, "fr"),  # then the setting
        (None, "", {"LANG": "fr_FR.UTF-8"}, "fr"),  # then the locale
        (None, None, {"LC_ALL": "fr_CA.UTF-8", "LANG": "en_US"}, "fr"),
        (None, None, {"LC_ALL": "de_DE.UTF-8", "LANG": "fr_FR"}, "en"),  # LC_ALL decides
        (None, None, {"LC_MESSAGES": "fr_BE@euro", "LANG": "en_GB"}, "fr"),
        (None, None, {"LANG": "C.UTF-8"}, "en"),
        (None, None, {}, "en"),
    ],
)
def test_the_language_is_lang_then_setting_then_locale(
    cli: str | None, setting: str | None, environ: dict[str, str], expected: str
) -> None:
    assert i18n.resolve_language(cli, setting, environ) == expected


def test_an_unknown_language_is_refused_naming_ours(french: None) -> None:
    with pytest.raises(ValueError, match=r"langue inconnue 'de'.*en, fr"):
        i18n.resolve_language("de")


def test_settings_are_saved_in_the_config_dir_and_read_back(tmp_path: Path) -> None:
    assert settings_path().parent == tmp_path / "poissonnier-config"  # conftest's folder
    assert load_settings().settings == Settings()
    chosen = Settings(name="Marie", bot_delay=1.5, theme="textual-light", language="fr")
    save_settings(chosen)
    loaded = load_settings()
    assert (loaded.settings, loaded.problem) == (chosen, "")


def test_a_damaged_settings_file_gives_the_defaults_and_says_why() -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xff{not json")
    loaded = load_settings()
    assert loaded.settings == Settings()
    assert "could not be read" in loaded.problem and str(path) in loaded.problem


def test_a_bad_value_is_dropped_alone_and_the_rest_kept() -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text(
        json.dumps({"name": "Ana", "bot_delay": -3, "theme": "neon", "language": "fr"}),
        encoding="utf-8",
    )
    loaded = load_settings()
    assert loaded.settings == Settings(name="Ana", language="fr")
    assert loaded.problem.endswith("ignored bot_delay, theme (not valid values)")


def test_invalid_settings_are_not_saved() -> None:
    with pytest.raises(ValueError, match="bot_delay"):
        save_settings(Settings(bot_delay=99.0))
    assert not settings_path().exists()


def test_lang_on_any_command_puts_its_help_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    from poissonnier_tui.cli import main

    try:
        with pytest.raises(SystemExit):
            main(["host", "--lang", "fr", "--help"])
        out = re.sub(r"[ \n]+", " ", capsys.readouterr().out)  # argparse wraps lines
        assert out.startswith("utilisation\u00a0: poissonnier host")
        assert (
            "votre nom à la table (par défaut\u00a0: celui des Réglages, sinon votre nom de "
            "connexion)"
        ) in out
        with pytest.raises(SystemExit):
            main(["--lang=en", "--help"])
        assert "show this help message and exit" in capsys.readouterr().out
    finally:
        i18n.set_language("en")


def test_the_command_takes_the_locale_when_neither_lang_nor_setting_chooses() -> None:
    from poissonnier_tui.cli import choose_language

    try:
        assert choose_language(["solo"], {"LANG": "fr_FR.UTF-8"}) == "fr"
        assert i18n._("show the version and exit") == "afficher la version et quitter"
        assert choose_language(["--lang", "en", "solo"], {"LANG": "fr_FR.UTF-8"}) == "en"
        assert choose_language(["--lang", "de"], {"LC_ALL": "fr_BE"}) == "fr"  # parser refuses de
        save_settings(Settings(language="fr"))
        assert choose_language([], {"LANG": "en_US.UTF-8"}) == "fr"
    finally:
        i18n.set_language("en")
