"""The home screen: what ``poissonnier`` with no arguments opens.

A menu (Solo, Host, Join, Watch, Replay, Rules, Settings, Quit: ↑↓ and Enter,
a letter per entry, or the mouse) beside a pane that shows the highlighted
entry: the Solo and Host forms, or a sentence saying what the entry does.
The game for Solo, Host and Rules is chosen in the forms, from the games
registry (:mod:`poissonnier_tui.games`), never from a list written here.

Each form checks every field when it is sent (and each field as it is typed)
and shows the problem next to the field; nothing is sent while one remains.
The screen only asks: it posts one of its messages (:class:`HomeScreen.SoloChosen`,
:class:`HomeScreen.HostChosen`, :class:`HomeScreen.JoinChosen`,
:class:`HomeScreen.ReplayChosen`, :class:`HomeScreen.RulesChosen`,
:class:`HomeScreen.QuitChosen`) and the app does the rest. Replay first
opens :class:`~poissonnier_tui.shell.screens.saved_games.SavedGamesScreen`
and Settings :class:`~poissonnier_tui.shell.screens.settings_screen.SettingsScreen`
(which posts its own ``Saved`` message).

Every form value lives on the screen, not only in its widgets, so
``await screen.recompose()`` (after a language switch) redraws the screen in
the new language with what was typed kept.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Final

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.markup import escape
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import (
    Button,
    ContentSwitcher,
    Footer,
    Input,
    Label,
    OptionList,
    Static,
)
from textual.widgets.option_list import Option

from net.messages import Role
from poissonnier_tui.games import DEFAULT_GAME, GAME_NAMES, GameEntry, game_entry
from poissonnier_tui.i18n import N_, _
from poissonnier_tui.settings import MAX_NAME, Settings
from poissonnier_tui.shell.screens.fields import (
    Choice,
    FieldError,
    parse_count,
    parse_name,
    parse_seconds,
    parse_seed,
    translate_bindings,
)

MAX_TABLE_NAME: Final = 64
"""Longest table name a table accepts (its LAN advert's cap)."""
MAX_CODE: Final = 64
"""Longest join code a table accepts."""
FORMS: Final = ("solo", "host")
"""The menu entries that open a form (the form's id is the entry's)."""
FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "solo": ("bots", "seed", "name"),
    "host": ("table", "seats", "bots", "code", "fill", "name"),
}
"""Each form's typed fields, in order (their inputs' ids are ``<form>-<field>``)."""
SOLO_BOTS: Final = 3
"""Bots offered first for a solo game (fewer if the game seats fewer)."""
HOST_SEATS: Final = 4
"""Seats offered first for a hosted table (fewer if the game seats fewer)."""


@dataclass(frozen=True)
class Entry:
    """One line of the menu: its id, its key, its name and what it does (marked with ``N_``)."""

    id: str
    key: str
    label: str
    about: str


ENTRIES: Final[tuple[Entry, ...]] = (
    Entry("solo", "s", N_("Solo"), N_("Play against bots on this computer.")),
    Entry(
        "host",
        "h",
        N_("Host"),
        N_("Open a table on your network for friends (and bots), and sit at it."),
    ),
    Entry("join", "j", N_("Join"), N_("Find a table on your network and take a seat at it.")),
    Entry("watch", "w", N_("Watch"), N_("Find a table on your network and watch its game.")),
    Entry("replay", "r", N_("Replay"), N_("Watch a saved game again, step by step.")),
    Entry("rules", "u", N_("Rules"), N_("Read the rules of the game chosen for Solo and Host.")),
    Entry(
        "settings",
        "o",
        N_("Settings"),
        N_("Your name, the bots' pace, the theme and the language."),
    ),
    Entry("quit", "q", N_("Quit"), N_("Leave Poissonnier.")),
)
"""The menu, in order; each key is bound on the screen."""


def bot_range(entry: GameEntry, seats: int | None = None) -> tuple[int, int]:
    """The fewest and most bots a table of ``entry`` takes beside its player(s).

    Solo (``seats=None``): the player and the bots fill the table, so
    ``min_seats - 1 .. max_seats - 1`` bots (at least 1). A hosted table of
    ``seats`` seats: ``0 .. seats - 1`` (seat 1 is the host's; the others may
    wait for friends).
    """
    if seats is None:
        return max(1, entry.min_seats - 1), entry.max_seats - 1
    return 0, max(0, seats - 1)


def level_choices(entry: GameEntry) -> list[tuple[str, str]]:
    """The game's bot levels as ``(value, label)`` for a :class:`Choice`."""
    names = {"easy": _("easy"), "medium": _("medium"), "hard": _("hard")}
    return [(level, names.get(level, level)) for level in entry.levels]


@dataclass
class FormValues:
    """What a form holds, kept across a recompose: each field's text and the bots' levels."""

    texts: dict[str, str]
    levels: list[str] = field(default_factory=list)


class HomeHelp(ModalScreen[None]):
    """The home screen's keys; Escape, ``q``, ``?`` or F1 close it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "close", N_("Close"), priority=True),
    ]

    DEFAULT_CSS = """
    HomeHelp { align: center middle; }
    HomeHelp > VerticalScroll {
        width: 76; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; background: $panel; padding: 0 1;
    }
    """

    def compose(self) -> ComposeResult:
        """The keys as a Markdown list."""
        from textual.widgets import Markdown  # markdown-it and Pygments: only once help is asked

        translate_bindings(self)
        colon = _(": ")  # French: " : " (a no-break space first)
        keys = "\n".join(f"- `{e.key}` {_(e.label)}{colon}{_(e.about)}" for e in ENTRIES)
        text = _(
            "## Home\n\n{keys}\n\n"
            "- `↑` `↓` and `Enter`: choose in the menu; the mouse works too.\n"
            "- In a form: `Tab` to the next field, `←` `→` or `Space` to change a choice, "
            "`Enter` to start, `Esc` back to the menu.\n"
            "- `?`: this help."
        ).format(keys=keys)
        with VerticalScroll():
            yield Markdown(text)
        yield Footer()

    def action_close(self) -> None:
        """Back to the home screen."""
        self.dismiss(None)


class HomeScreen(Screen[None]):
    """The first screen: a menu of what to do and the Solo and Host forms.

    Args:
        game: the game chosen at first (default the registry's default).
        name: the player's name to offer (default the saved one, else the
            login name).
        table: the table name to offer for Host (default ``"<user>'s table"``).
    """

    CSS_PATH = "home.tcss"
    VERTICAL_BREAKPOINTS = [(0, "-short"), (36, "-tall")]  # noqa: RUF012 (a ClassVar in Screen)
    """Tall terminals (36 rows and more) get room between the fields (``home.tcss``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "start", N_("Go"), key_display="⏎"),
        Binding("escape", "menu", N_("Menu")),
        Binding("question_mark,f1", "help", N_("Help"), key_display="?"),
        *(Binding(e.key, f"entry('{e.id}')", e.label, show=e.id == "quit") for e in ENTRIES),
    ]

    @dataclass
    class SoloChosen(Message):
        """Start a solo game.

        Attributes:
            game: the registry name of the game, e.g. ``"poissonnier"``.
            bots: how many bots sit with the player (within the game's seats).
            levels: one level per bot, in seat order (``len(levels) == bots``).
            seed: the deal's seed (R3), ``None`` for a random one.
            name: the player's name (printable, not blank, at most 24 characters).
        """

        game: str
        bots: int
        levels: tuple[str, ...]
        seed: int | None
        name: str

    @dataclass
    class HostChosen(Message):
        """Host a LAN table and sit at seat 1.

        Attributes:
            game: the registry name of the game.
            table: the table's name (1 to 64 printable characters).
            seats: seats at the table, within the game's limits (the host's included).
            bots: bots seated from the start, in the last seats (``0 .. seats - 1``).
            levels: one level per bot (``len(levels) == bots``).
            code: the join code players must give, or ``None``.
            fill_timeout: the fill step's time limit in seconds (R6), or ``None``.
            name: the host's name at the table.
        """

        game: str
        table: str
        seats: int
        bots: int
        levels: tuple[str, ...]
        code: str | None
        fill_timeout: float | None
        name: str

    @dataclass
    class JoinChosen(Message):
        """Open the LAN lobby, to take a seat (``"player"``) or watch (``"spectator"``)."""

        role: Role

    @dataclass
    class ReplayChosen(Message):
        """Replay the saved game logged at ``path``."""

        path: Path

    @dataclass
    class RulesChosen(Message):
        """Show the rules of ``game`` (a registry name)."""

        game: str

    class QuitChosen(Message):
        """Leave the app."""

    def __init__(
        self, *, game: str | None = None, name: str | None = None, table: str | None = None
    ) -> None:
        super().__init__()
        self.game = game if game in GAME_NAMES else DEFAULT_GAME
        """The game for Solo, Host and Rules (a registry name)."""
        if self.game not in GAME_NAMES:
            self.game = GAME_NAMES[0]
        entry = game_entry(self.game)
        from poissonnier_tui.commands._table_options import (
            default_table_name,
            offered_player_name,
        )

        self.offered_name = offered_player_name() if name is None else name
        """The player's name as offered (replaced by a newly saved one if untouched)."""
        low, high = bot_range(entry)
        seats = max(entry.min_seats, min(HOST_SEATS, entry.max_seats))
        bots = max(low, min(SOLO_BOTS, high))
        self.solo = FormValues(
            {"bots": str(bots), "seed": "", "name": self.offered_name},
            [entry.default_level] * bots,
        )
        self.host = FormValues(
            {
                "table": default_table_name(self.offered_name) if table is None else table,
                "seats": str(seats), "bots": "0", "code": "", "fill": "",
                "name": self.offered_name,
            },
        )  # fmt: skip
        self.highlighted = "solo"
        """The menu entry under the cursor (its id)."""

    # --- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """The banner, the menu, the pane and the footer."""
        translate_bindings(self)
        with Vertical(id="home"):
            yield Static(self._banner(), id="banner")
            yield Static(self._summary(), id="summary")
            with Horizontal(id="main"):
                yield OptionList(*self._menu(), id="menu")
                with ContentSwitcher(initial=self._pane_for(self.highlighted), id="pane"):
                    yield from self._solo_form()
                    yield from self._host_form()
                    with Vertical(id="about"):
                        yield Static(id="about-text")
        yield Footer()

    @staticmethod
    def _banner() -> str:
        tagline = escape(_("fish card games in your terminal"))
        return f"[b $accent]><((°>[/]  [b]Poissonnier[/]  [dim]· {tagline}[/]"

    def _summary(self) -> Text:
        entry = game_entry(self.game)
        text = Text()
        text.append(_(entry.title), style="bold")
        if entry.summary:
            text.append(_(": ") + _(entry.summary))  # French: " : " (a no-break space first)
        return text

    @staticmethod
    def _menu() -> list[Option]:
        options = []
        for e in ENTRIES:
            line = Text()
            line.append(f" {e.key} ", style="bold reverse")
            line.append(f" {_(e.label)}")
            options.append(Option(line, id=e.id))
        return options

    @staticmethod
    def _pane_for(entry_id: str) -> str:
        return {"solo": "solo", "host": "host"}.get(entry_id, "about")

    def _games(self, form: str) -> Choice:
        options = [(name, _(game_entry(name).title)) for name in GAME_NAMES]
        return Choice(options, self.game, id=f"{form}-game")

    @staticmethod
    def _row(form: str, key: str, label: str, widget: Widget, hint: str = "") -> ComposeResult:
        """One field: its label, the widget, a hint, and the error line below (hidden if none)."""
        with Horizontal(classes="row"):
            yield Label(label, classes="label")
            yield widget
            if hint:
                yield Static(hint, id=f"{form}-{key}-hint", classes="hint")
        yield Static(id=f"{form}-{key}-error", classes="error")

    def _input(self, form: str, key: str, placeholder: str = "") -> Input:
        text = self._values(form).texts[key]
        width = {
            "bots": "short",
            "seats": "short",
            "fill": "fill",
            "seed": "medium",
            "code": "medium",
        }.get(key)
        return Input(text, placeholder=placeholder, id=f"{form}-{key}", compact=True, classes=width)

    def _solo_form(self) -> ComposeResult:
        with VerticalScroll(id="solo", classes="form"):
            yield Static(_("Solo game against bots"), classes="form-title")
            yield from self._row("solo", "game", _("Game"), self._games("solo"))
            yield from self._row(
                "solo", "bots", _("Bots"), self._input("solo", "bots"), self._bots_hint("solo")
            )
            yield from self._row("solo", "levels", _("Levels"), self._levels_box("solo"))
            yield from self._row(
                "solo", "seed", _("Seed"), self._input("solo", "seed", _("blank: random")),
                _("same seed, same deal"),
            )  # fmt: skip
            yield from self._row("solo", "name", _("Your name"), self._input("solo", "name"))
            yield Button(_("Start the game"), id="solo-start", variant="primary", compact=True)

    def _host_form(self) -> ComposeResult:
        with VerticalScroll(id="host", classes="form"):
            yield Static(_("Host a table on your network"), classes="form-title")
            yield from self._row("host", "game", _("Game"), self._games("host"))
            yield from self._row("host", "table", _("Table name"), self._input("host", "table"))
            yield from self._row(
                "host", "seats", _("Seats"), self._input("host", "seats"), self._seats_hint()
            )
            yield from self._row(
                "host", "bots", _("Bots"), self._input("host", "bots"), self._bots_hint("host")
            )
            yield from self._row("host", "levels", _("Levels"), self._levels_box("host"))
            yield from self._row(
                "host", "code", _("Join code"), self._input("host", "code", _("none")),
                _("players type it to sit"),
            )  # fmt: skip
            yield from self._row(
                "host", "fill", _("Fill time"), self._input("host", "fill", _("no limit")),
                _("seconds for the fill step"),
            )  # fmt: skip
            yield from self._row("host", "name", _("Your name"), self._input("host", "name"))
            yield Button(_("Open the table"), id="host-start", variant="primary", compact=True)

    def on_mount(self) -> None:
        """Highlight the entry shown and focus the menu."""
        self._settle()

    async def recompose(self) -> None:
        """Compose the screen again (e.g. in a newly chosen language), keeping what the
        forms hold and the entry shown."""
        await super().recompose()
        self._settle()

    def _settle(self) -> None:
        menu = self.query_one("#menu", OptionList)
        menu.highlighted = [e.id for e in ENTRIES].index(self.highlighted)
        self._show_about()
        menu.focus()

    # --- the menu -------------------------------------------------------------------------------

    @on(OptionList.OptionHighlighted, "#menu")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show(event.option.id or "solo")

    def _show(self, entry_id: str) -> None:
        self.highlighted = entry_id
        self.query_one("#pane", ContentSwitcher).current = self._pane_for(entry_id)
        self._show_about()

    def _show_about(self) -> None:
        entry = next(e for e in ENTRIES if e.id == self.highlighted)
        if self._pane_for(entry.id) == "about":
            text = Text(_(entry.about) + "\n\n", style="bold")
            text.append(_("Enter or {key}: go.").format(key=entry.key), style="dim")
            self.query_one("#about-text", Static).update(text)

    @on(OptionList.OptionSelected, "#menu")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_entry(event.option.id or "")

    def action_entry(self, entry_id: str) -> None:
        """Do what the menu entry ``entry_id`` says (its letter, Enter or a click)."""
        ids = [e.id for e in ENTRIES]
        if entry_id not in ids:
            return
        menu = self.query_one("#menu", OptionList)
        if menu.highlighted != ids.index(entry_id):
            menu.highlighted = ids.index(entry_id)
        self._show(entry_id)
        if entry_id in FORMS:
            # At once, not after the queued keys (Widget.focus waits its turn): an Enter
            # typed in the same instant as the letter belongs to the form.
            self.set_focus(self.query_one(f"#{entry_id}-game", Choice))
        elif entry_id in ("join", "watch"):
            self.post_message(self.JoinChosen("spectator" if entry_id == "watch" else "player"))
        elif entry_id == "replay":
            from poissonnier_tui.shell.screens.saved_games import SavedGamesScreen

            self.app.push_screen(SavedGamesScreen(), self._replay_picked)
        elif entry_id == "rules":
            self.post_message(self.RulesChosen(self.game))
        elif entry_id == "settings":
            from poissonnier_tui.shell.screens.settings_screen import SettingsScreen

            self.app.push_screen(SettingsScreen(), self._settings_closed)
        elif entry_id == "quit":
            self.post_message(self.QuitChosen())

    def _replay_picked(self, path: Path | None) -> None:
        if path is not None:
            self.post_message(self.ReplayChosen(path))

    def _settings_closed(self, settings: Settings | None) -> None:
        """Offer a newly saved name in the forms whose name field was left as offered."""
        if settings is None or not settings.name or settings.name == self.offered_name:
            return
        for form in FORMS:
            name_field = self.query_one(f"#{form}-name", Input)
            if name_field.value == self.offered_name:
                name_field.value = settings.name
        self.offered_name = settings.name

    def action_menu(self) -> None:
        """Back to the menu (Escape in a form)."""
        self.query_one("#menu", OptionList).focus()

    def action_help(self) -> None:
        """Show the keys."""
        self.app.push_screen(HomeHelp())

    def _values(self, form: str) -> FormValues:
        return self.host if form == "host" else self.solo

    # --- checking the forms ---------------------------------------------------------------------

    def _bots_hint(self, form: str) -> str:
        entry = game_entry(self.game)
        seats = None
        if form == "host":
            try:
                seats = self._seats()
            except FieldError:
                seats = entry.max_seats
        low, high = bot_range(entry, seats)
        return _("{low} to {high}").format(low=low, high=high)

    def _seats_hint(self) -> str:
        entry = game_entry(self.game)
        return _("{low} to {high}, yours included").format(
            low=entry.min_seats, high=entry.max_seats
        )

    def _seats(self) -> int:
        """The Host form's seats.

        Raises:
            FieldError: not a number, or not within the game's seats.
        """
        entry = game_entry(self.game)
        return parse_count(
            self.host.texts["seats"], entry.min_seats, entry.max_seats,
            _("{title} is played with {{low}} to {{high}} seats.").format(title=_(entry.title)),
        )  # fmt: skip

    def _bots(self, form: str) -> int:
        """The form's number of bots.

        Raises:
            FieldError: not a number, or more (or fewer) than the game seats.
        """
        entry = game_entry(self.game)
        if form == "host":
            try:
                seats = self._seats()
            except FieldError:  # said next to the seats; count up to the game's most
                seats = entry.max_seats
            low, high = bot_range(entry, seats)
            what = _("With {seats} seats, one of them yours: {{low}} to {{high}} bots.").format(
                seats=seats
            )
        else:
            low, high = bot_range(entry)
            what = _("{title} seats {{low}} to {{high}} bots beside you.").format(
                title=_(entry.title)
            )
        return parse_count(self._values(form).texts["bots"], low, high, what)

    def _player_name(self, form: str) -> str:
        return parse_name(self._values(form).texts["name"], most=MAX_NAME, what=_("Your name"))

    def _table(self) -> str:
        return parse_name(self.host.texts["table"], most=MAX_TABLE_NAME, what=_("The table's name"))

    def _code(self) -> str | None:
        code = self.host.texts["code"].strip()
        if len(code) > MAX_CODE:
            raise FieldError(_("A join code is at most {n} characters.").format(n=MAX_CODE))
        return code or None

    def _fill(self) -> float | None:
        return parse_seconds(self.host.texts["fill"], most=None, optional=True)

    def _seed(self) -> int | None:
        return parse_seed(self.solo.texts["seed"])

    def _show_error(self, form: str, key: str) -> bool:
        """Check one field and show its problem (or none); whether it is fine."""
        checks: dict[str, Callable[[], object]] = {
            "bots": lambda: self._bots(form),
            "seats": self._seats,
            "seed": self._seed,
            "name": lambda: self._player_name(form),
            "table": self._table,
            "code": self._code,
            "fill": self._fill,
        }
        error = self.query_one(f"#{form}-{key}-error", Static)
        try:
            checks[key]()
        except FieldError as exc:
            error.update(str(exc))
            error.display = True
            return False
        error.update("")
        error.display = False
        return True

    @on(Input.Changed)
    async def _typed(self, event: Input.Changed) -> None:
        form, _sep, key = (event.input.id or "").partition("-")
        if form not in FORMS or key not in FIELDS[form]:
            return
        self._values(form).texts[key] = event.value
        self._show_error(form, key)
        if form == "host" and key == "seats":
            self._show_error(form, "bots")
            self.query_one("#host-bots-hint", Static).update(self._bots_hint("host"))
        if key in ("seats", "bots"):
            await self._layout_levels(form)

    @on(Choice.Changed)
    async def _chose(self, event: Choice.Changed) -> None:
        event.stop()
        form, _sep, key = (event.choice.id or event.choice.name or "").partition("-")
        if form not in FORMS:
            return
        if key == "game":
            if event.value == self.game:
                return
            self.game = event.value
            self.query_one("#summary", Static).update(self._summary())
            self.query_one("#host-seats-hint", Static).update(self._seats_hint())
            for each in FORMS:
                self.query_one(f"#{each}-game", Choice).value = self.game
                self.query_one(f"#{each}-bots-hint", Static).update(self._bots_hint(each))
                for key_ in ("seats", "bots") if each == "host" else ("bots",):
                    if self._values(each).texts[key_].strip():
                        self._show_error(each, key_)
                await self._layout_levels(each, game_changed=True)
        elif key.startswith("level"):
            levels = self._values(form).levels
            index = int(key.removeprefix("level"))
            if index < len(levels):
                levels[index] = event.value

    async def _layout_levels(self, form: str, *, game_changed: bool = False) -> None:
        """One level choice per bot (as many as the bots field says, when it is valid);
        the choices are made again when the game changed (its levels may differ)."""
        values = self._values(form)
        entry = game_entry(self.game)
        try:
            count = self._bots(form)
        except FieldError:
            count = min(len(values.levels), bot_range(entry)[1])
        old = values.levels
        levels = [lv if lv in entry.levels else entry.default_level for lv in old[:count]]
        values.levels = levels + [entry.default_level] * (count - len(levels))
        box = self.query_one(f"#{form}-levels", Horizontal)
        shown = [c.value for c in box.query(Choice)]
        if not game_changed and shown == values.levels and (values.levels or box.children):
            return
        await box.remove_children()
        await box.mount_all(self._level_widgets(form))

    def _levels_box(self, form: str) -> Horizontal:
        return Horizontal(*self._level_widgets(form), id=f"{form}-levels")

    def _level_widgets(self, form: str) -> list[Widget]:
        """A level choice per bot of the form (or a word saying there is none)."""
        levels = self._values(form).levels
        if not levels:
            return [Static(_("no bots"), classes="hint")]
        choices = level_choices(game_entry(self.game))
        return [Choice(choices, level, name=f"{form}-level{i}") for i, level in enumerate(levels)]

    # --- sending --------------------------------------------------------------------------------

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_start()

    @on(Button.Pressed, "#solo-start, #host-start")
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_start((event.button.id or "solo").partition("-")[0])

    def action_start(self, form: str | None = None) -> None:
        """Check the shown form; post :class:`SoloChosen` or :class:`HostChosen` if every
        field is fine, else show each problem and focus the first bad field."""
        form = form or self._pane_for(self.highlighted)
        if form not in FORMS:
            return
        bad = [key for key in FIELDS[form] if not self._show_error(form, key)]
        if bad:
            self.query_one(f"#{form}-{bad[0]}", Input).focus()
            return
        levels = tuple(self._values(form).levels)
        if form == "solo":
            self.post_message(
                self.SoloChosen(
                    game=self.game, bots=self._bots(form), levels=levels, seed=self._seed(),
                    name=self._player_name(form),
                )
            )  # fmt: skip
        else:
            self.post_message(
                self.HostChosen(
                    game=self.game, table=self._table(), seats=self._seats(),
                    bots=self._bots(form), levels=levels, code=self._code(),
                    fill_timeout=self._fill(), name=self._player_name(form),
                )
            )  # fmt: skip
