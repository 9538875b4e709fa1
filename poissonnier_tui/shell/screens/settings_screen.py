"""The settings screen: your name, the bots' pace, the theme and the language.

Reads and writes :mod:`poissonnier_tui.settings` (the user's config folder).
A damaged settings file is said at the top (what was ignored); every field is
checked before anything is written, and a problem is shown next to its field.
The theme is tried live while choosing (Escape puts the old one back). Enter
or ``ctrl+s`` saves; the screen then posts :class:`SettingsScreen.Saved` (the
app switches the language with :func:`poissonnier_tui.i18n.set_language` and
redraws) and closes with the saved settings; Escape closes with ``None``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, Static

from poissonnier_tui.i18n import LANGUAGE_NAMES, LANGUAGES, N_, _, decimal
from poissonnier_tui.settings import (
    MAX_BOT_DELAY,
    MAX_NAME,
    THEMES,
    Loaded,
    Settings,
    load_settings,
    save_settings,
)
from poissonnier_tui.shell.screens.fields import (
    Choice,
    FieldError,
    parse_name,
    parse_seconds,
    translate_bindings,
)


def theme_choices() -> list[tuple[str, str]]:
    """The offered themes as ``(value, label)``."""
    names = {"textual-dark": _("Dark"), "textual-light": _("Light")}
    return [(theme, names.get(theme, theme)) for theme in THEMES]


def language_choices() -> list[tuple[str, str]]:
    """The languages as ``(value, label)``: the system's first (``""``), then each in itself."""
    return [("", _("As the system")), *((lang, LANGUAGE_NAMES[lang]) for lang in LANGUAGES)]


class SettingsScreen(ModalScreen[Settings | None]):
    """Edit and save the player's settings.

    Args:
        loaded: the settings to start from and the file's problem, if any
            (default: :func:`~poissonnier_tui.settings.load_settings`).
    """

    CSS_PATH = "settings_screen.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Cancel")),
        Binding("ctrl+s", "save", N_("Save"), priority=True),
        Binding("enter", "save", N_("Save"), show=False),
    ]

    @dataclass
    class Saved(Message):
        """The settings were written to the config folder; ``settings`` is what was saved."""

        settings: Settings

    def __init__(self, loaded: Loaded | None = None) -> None:
        super().__init__()
        self.loaded = loaded if loaded is not None else load_settings()
        self._old_theme: str | None = None

    def compose(self) -> ComposeResult:
        """The notice, the four fields with their error lines, the buttons, the footer."""
        translate_bindings(self)
        settings = self.loaded.settings
        with Vertical(id="settings"):
            yield Static(_("Settings"), id="title")
            notice = Static(self.loaded.problem, id="notice")
            notice.display = bool(self.loaded.problem)
            yield notice
            with Horizontal(classes="row"):
                yield Label(_("Your name"), classes="label")
                yield Input(
                    settings.name, placeholder=_("your login name"), id="name", compact=True
                )
            yield Static(id="name-error", classes="error")
            with Horizontal(classes="row"):
                yield Label(_("Bot pace"), classes="label")
                yield Input(decimal(settings.bot_delay), id="bot_delay", compact=True)
                yield Static(
                    _("seconds a move, 0 to {most}").format(most=decimal(MAX_BOT_DELAY)),
                    classes="hint",
                )
            yield Static(id="bot_delay-error", classes="error")
            with Horizontal(classes="row"):
                yield Label(_("Theme"), classes="label")
                yield Choice(theme_choices(), settings.theme, id="theme")
            with Horizontal(classes="row"):
                yield Label(_("Language"), classes="label")
                yield Choice(language_choices(), settings.language, id="language")
            yield Static(id="save-error", classes="error")
            with Horizontal(id="buttons"):
                yield Button(_("Save"), id="save", variant="primary", compact=True)
                yield Button(_("Cancel"), id="cancel", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        """Remember the theme to restore on Escape; start in the name field."""
        self._old_theme = self.app.theme
        self.query_one("#name", Input).focus()

    @on(Choice.Changed, "#theme")
    def _theme(self, event: Choice.Changed) -> None:
        """Show the chosen theme at once."""
        event.stop()
        self.app.theme = event.value

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        self._check(event.input.id or "")

    def _check(self, key: str) -> bool:
        """Show the problem of one field (or none); whether it is fine."""
        error = self.query_one(f"#{key}-error", Static)
        try:
            self._value(key)
        except FieldError as exc:
            error.update(str(exc))
            error.display = True
            return False
        error.display = False
        return True

    def _value(self, key: str) -> str | float:
        """The typed field ``key`` (``name`` or ``bot_delay``) as a setting.

        Raises:
            FieldError: its problem.
        """
        text = self.query_one(f"#{key}", Input).value
        if key == "name":
            # Blank is allowed here: the login name is used.
            return parse_name(text, most=MAX_NAME, what=_("Your name")) if text.strip() else ""
        seconds = parse_seconds(text, most=MAX_BOT_DELAY, optional=False)
        assert seconds is not None
        return seconds

    def current(self) -> Settings:
        """The settings the screen shows now.

        Raises:
            FieldError: a field's problem (the first one).
        """
        name, delay = self._value("name"), self._value("bot_delay")
        assert isinstance(name, str) and isinstance(delay, float)
        return Settings(
            name=name,
            bot_delay=delay,
            theme=self.query_one("#theme", Choice).value,
            language=self.query_one("#language", Choice).value,
        )

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save()

    @on(Button.Pressed, "#save")
    def _save_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_save()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_cancel()

    def action_save(self) -> None:
        """Check every field; write the file, post :class:`Saved` and close, or show why not."""
        bad = [key for key in ("name", "bot_delay") if not self._check(key)]
        if bad:
            self.query_one(f"#{bad[0]}", Input).focus()
            return
        settings = self.current()
        error = self.query_one("#save-error", Static)
        try:
            path = save_settings(settings)
        except (OSError, ValueError) as exc:
            error.update(_("The settings could not be saved: {error}").format(error=exc))
            error.display = True
            return
        self.log.info(f"settings saved to {path}")
        self.post_message(self.Saved(settings))
        self.dismiss(settings)

    def action_cancel(self) -> None:
        """Close without saving; put the old theme back."""
        if self._old_theme is not None:
            self.app.theme = self._old_theme
        self.dismiss(None)
