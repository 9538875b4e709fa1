"""The lobby of LAN tables: the tables zeroconf finds, live, and a manual address.

Shown by ``poissonnier join`` (and ``spectate``) with no address, and again
whenever a join fails or the host goes away. Tables appear, update (seats
taken, lobby → playing) and vanish as their adverts do (docs/ARCHITECTURE.md
"Discovery"). A table running another version is listed greyed out with
both versions named, and cannot be picked. Enter joins the highlighted
table, ``w`` watches it as a spectator; typing ``HOST:PORT`` in the address
field and Enter joins that one (discovery results are only hints). A join
code, if the table wants one, goes in the code field.

The screen only asks: it posts :class:`BrowseScreen.JoinRequested` and the
app does the joining (one network worker, app-level).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Protocol

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from net.discovery import Browser, TableAd, TableCallback, sort_key
from net.live import LiveBrowser, LiveTable
from net.messages import Role
from poissonnier_tui.games import DEFAULT_GAME as GAME
from poissonnier_tui.hosting.lan import (
    format_address,
    incompatibility,
    parse_address,
    state_word,
)
from poissonnier_tui.i18n import N_, _, ngettext
from poissonnier_tui.shell.screens.fields import translate_bindings
from poissonnier_tui.shell.screens.title_bar import TitleBar


class TableBrowser(Protocol):
    """What the screen needs of :class:`net.discovery.Browser` (tests pass a fake)."""

    async def start(self) -> None:
        """Start browsing; may raise ``OSError``."""

    async def close(self) -> None:
        """Stop browsing."""


BrowserFactory = Callable[[TableCallback, str | None], TableBrowser]
"""``factory(on_change, interface)``: a browser that calls ``on_change(instance, ad | None)``."""


def real_browser(on_change: TableCallback, interface: str | None) -> TableBrowser:
    """A zeroconf :class:`~net.discovery.Browser` for Poissonnier tables."""
    return Browser(GAME, on_change, interface)


LIVENESS: dict[str, tuple[str, str]] = {
    "not_answering": (N_("not answering"), "bold red"),
    "back": (N_("back"), "bold green"),
}
"""How a probed table's state (:mod:`net.live`) is marked on its row: text (translated
when shown) and style."""


def table_line(ad: TableAd, state: str = "live") -> Text:
    """One table as a line (two when it cannot be joined: the reason, naming both versions);
    ``state`` (:class:`net.live.LiveTable`) marks a table that stopped answering or is back."""
    why = incompatibility(ad)
    text = Text()
    if state in LIVENESS:
        word, style = LIVENESS[state]
        text.append(f"[{_(word)}] ", style=style)
    text.append(f"{ad.name[:28]:<28} ", style="bold" if why is None else "")
    text.append(f"{format_address(ad.address, ad.port):<22} ")
    seats = ngettext("{taken}/{seats} seat", "{taken}/{seats} seats", ad.seats)
    text.append(seats.format(taken=ad.taken, seats=ad.seats) + "  ")
    text.append(f"{state_word(ad.state):<8} ")
    text.append(f"v{ad.app}")
    extras = []
    if ad.code:
        extras.append(_("code needed"))
    if not ad.spectators:
        extras.append(_("no spectators"))
    if extras:
        text.append(f"  {', '.join(extras)}", style="dim")
    if why is not None:
        text.append("\n    " + _("cannot join: {why}").format(why=why))
    return text


class BrowseScreen(Screen[None]):
    """Discovered tables (live), a manual ``HOST:PORT`` entry and a join code.

    Args:
        role: what Enter does: join as a player, or watch.
        code: a join code to start with.
        interface: IPv4 address to browse on, or ``None`` for all.
        browser_factory: makes the browser (default: zeroconf, each table probed:
            :class:`net.live.LiveBrowser`; rows of tables not answering are marked).
        message: a sentence to show at once (why we are back here).
        address: text to put in the address field (e.g. the table just lost).
        auto_table: join the table with this name as soon as it shows up.
    """

    CSS_PATH = "browse.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("w", "watch", N_("Watch")),
        Binding("a", "focus_address", N_("Address")),
    ]

    @dataclass
    class JoinRequested(Message):
        """The player picked a table.

        Attributes:
            host / port: where it is.
            role: ``"player"`` or ``"spectator"``.
            table: its advertised name, when picked from the list.
            code: the join code typed (``None`` if the field is empty).
            hosts: every address the table advertised, best first (empty: ``host``).
        """

        host: str
        port: int
        role: Role
        table: str | None
        code: str | None
        hosts: tuple[str, ...] = ()

    tables: reactive[dict[str, TableAd]] = reactive(dict, always_update=True)
    """Tables seen now, by zeroconf instance name."""
    status: reactive[str] = reactive("")
    """What went wrong last, or what to do (markup-free text)."""

    def __init__(
        self,
        *,
        role: Role = "player",
        code: str | None = None,
        interface: str | None = None,
        browser_factory: BrowserFactory | None = None,
        message: str = "",
        address: str = "",
        auto_table: str | None = None,
    ) -> None:
        super().__init__()
        self.role: Role = role
        self._initial_code = code or ""
        self._interface = interface
        self._factory = browser_factory
        self.liveness: dict[str, str] = {}
        """What the probes say of each listed table (``"not_answering"``, ``"back"``...)."""
        self._browser: TableBrowser | None = None
        self._address = address
        self._auto_table = auto_table
        self.set_reactive(BrowseScreen.status, message)

    # --- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Title, the list of tables, the address and code fields, the status line."""
        translate_bindings(self)
        yield TitleBar()
        with Vertical(id="box"):
            title = (
                _("[b]Tables on your network[/b]  Enter: watch   w: watch   a: type an address")
                if self.role == "spectator"
                else _("[b]Tables on your network[/b]  Enter: join   w: watch   a: type an address")
            )
            yield Static(title, id="title")
            yield OptionList(id="tables")
            yield Static(_("Looking for tables…"), id="empty")
            with Horizontal(id="manual"):
                yield Label(_("Address"), classes="label")
                yield Input(self._address, placeholder=_("HOST:PORT"), id="address")
                yield Label(_("Code"), classes="label")
                yield Input(self._initial_code, placeholder=_("if the table has one"), id="code")
            yield Static(id="status")
        yield Footer()

    async def on_mount(self) -> None:
        """Show the status and start browsing (a failure leaves the manual entry)."""
        self.query_one("#status", Static).update(self.status)
        self._show_tables()
        self.query_one(OptionList).focus()
        if self._factory is None:
            self._browser = LiveBrowser(GAME, self._live_changed, self._interface)
        else:
            self._browser = self._factory(self._table_changed, self._interface)
        try:
            await self._browser.start()
        except OSError as exc:
            self._browser = None
            self.query_one("#empty", Static).update(
                _("Cannot look for tables on this network ({why}). Type an address below.").format(
                    why=exc
                )
            )

    async def on_unmount(self) -> None:
        """Stop browsing."""
        browser, self._browser = self._browser, None
        if browser is not None:
            await browser.close()

    # --- tables ----------------------------------------------------------------------------------

    def _live_changed(self, instance: str, table: LiveTable) -> None:
        """A probed table appeared, changed, stopped answering, came back or was dropped."""
        self.liveness[instance] = table.state
        self._table_changed(instance, None if table.state == "gone" else table.ad)

    def _table_changed(self, instance: str, ad: TableAd | None) -> None:
        """A table appeared, changed or (``ad is None``) vanished."""
        tables = dict(self.tables)
        if ad is None:
            tables.pop(instance, None)
        else:
            tables[instance] = ad
        self.tables = tables
        if (
            ad is not None
            and self._auto_table is not None
            and ad.name == self._auto_table
            and incompatibility(ad) is None
        ):
            self._auto_table = None
            self._request(ad, self.role)

    def watch_tables(self) -> None:
        """Redraw the list."""
        self._show_tables()

    def watch_status(self, status: str) -> None:
        """Show the latest sentence."""
        if self._showing:
            self.query_one("#status", Static).update(status)

    def _ordered(self) -> list[tuple[str, TableAd]]:
        by_ad = {id(ad): name for name, ad in self.tables.items()}
        return [(by_ad[id(ad)], ad) for ad in sort_key(list(self.tables.values()))]

    @property
    def _showing(self) -> bool:
        """Mounted, and the app is not exiting (its shutdown removes our widgets first,
        while the browser may still report a table)."""
        return self.is_mounted and self.app.is_running

    def _show_tables(self) -> None:
        if not self._showing:
            return
        options = self.query_one(OptionList)
        keep = options.highlighted_option.id if options.highlighted_option else None
        options.clear_options()
        ordered = self._ordered()
        options.add_options(
            Option(
                table_line(ad, self.liveness.get(name, "live")),
                id=name,
                disabled=incompatibility(ad) is not None,
            )
            for name, ad in ordered
        )
        names = [name for name, _ in ordered]
        if keep in names:
            options.highlighted = names.index(keep)
        elif any(not o.disabled for o in options.options):
            options.highlighted = next(i for i, o in enumerate(options.options) if not o.disabled)
        self.query_one("#empty", Static).display = not ordered

    def highlighted_table(self) -> TableAd | None:
        """The table under the cursor, if any."""
        option = self.query_one(OptionList).highlighted_option
        return self.tables.get(option.id) if option is not None and option.id else None

    # --- picking -------------------------------------------------------------------------

    def _code(self) -> str | None:
        return self.query_one("#code", Input).value.strip() or None

    def _request(self, ad: TableAd, role: Role) -> None:
        if (why := incompatibility(ad)) is not None:
            self.status = _("Cannot join {table}: {why}.").format(table=ad.name, why=why)
            return
        if role == "spectator" and not ad.spectators:
            self.status = _("{table} does not allow spectators.").format(table=ad.name)
            return
        self.post_message(
            self.JoinRequested(ad.address, ad.port, role, ad.name, self._code(), ad.addresses)
        )

    @on(OptionList.OptionSelected, "#tables")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        ad = self.tables.get(event.option.id or "")
        if ad is not None:
            self._request(ad, self.role)

    def action_watch(self) -> None:
        """Watch the highlighted table (or the typed address) as a spectator."""
        ad = self.highlighted_table()
        if ad is not None:
            self._request(ad, "spectator")
        else:
            self._join_typed("spectator")

    def action_focus_address(self) -> None:
        """Move to the address field."""
        self.query_one("#address", Input).focus()

    @on(Input.Submitted)
    def _typed(self, event: Input.Submitted) -> None:
        event.stop()
        self._join_typed(self.role)

    def _join_typed(self, role: Role) -> None:
        text = self.query_one("#address", Input).value.strip()
        if not text:
            self.status = _("Type the table's address (HOST:PORT), or pick a table above.")
            self.action_focus_address()
            return
        try:
            host, port = parse_address(text)
        except ValueError as exc:
            self.status = str(exc)
            return
        self.post_message(self.JoinRequested(host, port, role, None, self._code()))

    def show_problem(self, message: str, *, address: str = "", code_field: bool = False) -> None:
        """Say why we are here; prefill the address; focus the code field if a code is wanted."""
        self.status = message
        if not self.is_mounted:
            return
        if address:
            self.query_one("#address", Input).value = address
        if code_field:
            self.query_one("#code", Input).focus()
