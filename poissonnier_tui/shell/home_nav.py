"""The home screen's choices, carried out (``poissonnier`` with no arguments).

:class:`~poissonnier_tui.shell.screens.home.HomeScreen` only asks; this job of
the app answers each of its messages: a solo table
(:class:`~poissonnier_tui.shell.session.SoloSession`, the bots' pace from the
settings), a hosted one (:class:`~poissonnier_tui.shell.session.HostSession`
over :class:`~poissonnier_tui.hosting.tables.TableSettings`), the LAN lobby, a
replay, the game's help, the settings (theme and language applied at once),
or leaving. A game started from home comes back to it when left, and the
results screen's "play again" opens the same table anew with a new seed
(:meth:`HomeNavigation.action_rematch`).

Switching tables never lets the old table's last words reach the new one: the
old link is closed and its worker waited for, and the new table is opened
only after the messages already queued (the old table's ``Disconnected``)
were handled while the app knew it was leaving.
"""

from __future__ import annotations

import contextlib
import random
from dataclasses import replace
from typing import TYPE_CHECKING, Final

from net.table import Refused
from poissonnier_tui.hosting.tables import TableSettings
from poissonnier_tui.i18n import _, language, resolve_language, set_language
from poissonnier_tui.settings import Settings, load_settings
from poissonnier_tui.shell.game_ui import load_game_ui
from poissonnier_tui.shell.host_controls import HostControls
from poissonnier_tui.shell.lobby_nav import LobbyNavigation
from poissonnier_tui.shell.screens.fields import translate_bindings
from poissonnier_tui.shell.session import (
    BrowseSession,
    HomeSession,
    HostSession,
    Session,
    SoloSession,
)
from poissonnier_tui.shell.table_rematch import TableRematch

if TYPE_CHECKING:  # the home and settings screens are imported when shown: not in a solo start
    from poissonnier_tui.shell.screens.home import HomeScreen
    from poissonnier_tui.shell.screens.settings_screen import SettingsScreen

SEED_SPAN: Final = 2**31
"""A rematch's new seed is drawn from ``0 .. SEED_SPAN - 1``."""


class HomeNavigation(LobbyNavigation, HostControls, TableRematch):
    """From the home screen to a table (and back), and "play again"."""

    home_started: bool = False
    """The app opened on the home screen: leaving a game comes back to it."""
    cli_lang: str | None = None
    """``--lang`` from the command line (it beats the saved language)."""

    # --- opening ---------------------------------------------------------------------------------

    def open_home(self, session: HomeSession) -> None:
        """Apply the saved theme and language and show the home screen."""
        from poissonnier_tui.shell.screens.home import HomeScreen

        self.home_started = True
        self.cli_lang = session.lang
        settings = load_settings().settings
        self._apply_settings(settings)
        self.push_screen(HomeScreen())

    def _apply_settings(self, settings: Settings) -> None:
        """The theme and the language of ``settings`` (``--lang`` first)."""
        self.theme = settings.theme
        try:
            set_language(resolve_language(self.cli_lang, settings.language))
        except (ValueError, OSError) as exc:  # a catalogue missing from the install
            self.notify(str(exc), severity="warning")
        translate_bindings(self)  # the app's own keys (quit, help...) in the footer

    @property
    def home_screen(self) -> HomeScreen | None:
        """The home screen, if it is on the screen stack."""
        from poissonnier_tui.shell.screens.home import HomeScreen

        return next((s for s in self.screen_stack if isinstance(s, HomeScreen)), None)

    # --- the home screen's messages --------------------------------------------------------------

    def on_home_screen_solo_chosen(self, event: HomeScreen.SoloChosen) -> None:
        """A solo table with the chosen bots and levels, at the saved bots' pace."""
        pace = load_settings().settings.bot_delay
        self.switch_table(
            SoloSession(
                bots=event.bots,
                seed=event.seed,
                name=event.name,
                bot_delay=pace,
                bot_kinds=event.levels or ("medium",),
                game=event.game,
            )
        )

    def on_home_screen_host_chosen(self, event: HomeScreen.HostChosen) -> None:
        """A LAN table of the chosen seats and bots, with the host in seat 1."""
        settings = TableSettings(
            game=event.game,
            name=event.table,
            seats=event.seats,
            bots=event.bots,
            bot_kinds=event.levels or ("medium",),
            code=event.code,
            fill_timeout=event.fill_timeout,
            bot_delay=load_settings().settings.bot_delay,
            host_seat=True,
        )
        problems = settings.problems()
        if problems:
            self.notify(" ".join(problems), title=_("Cannot open the table"), severity="error")
            return
        self.switch_table(HostSession(settings, name=event.name))

    def on_home_screen_join_chosen(self, event: HomeScreen.JoinChosen) -> None:
        """The LAN lobby, to sit at a table or watch one."""
        from poissonnier_tui.commands._table_options import offered_player_name

        self.lobby = BrowseSession(name=offered_player_name(), role=event.role)
        self.push_screen(self._new_lobby())

    def on_home_screen_replay_chosen(self, event: HomeScreen.ReplayChosen) -> None:
        """The saved game on its game's replay screen; a log that cannot be read is said."""
        from poissonnier_tui.hosting.persistence import ResumeError
        from poissonnier_tui.hosting.replay import Replay

        try:
            replay = Replay.load(event.path)
        except (ResumeError, OSError) as exc:
            self.notify(str(exc), title=_("Cannot replay this game"), severity="error")
            return
        if replay.problem:
            self.notify(
                _("The replay stops early: {problem}").format(problem=replay.problem),
                severity="warning",
            )
        self.push_screen(load_game_ui(replay.header.game).replay_screen(replay))

    def on_home_screen_rules_chosen(self, event: HomeScreen.RulesChosen) -> None:
        """The game's help (its rules in short and its keys)."""
        from poissonnier_tui.shell.screens.help import HelpScreen

        lang = language()
        self.push_screen(HelpScreen(load_game_ui(event.game).help(lang), lang=lang))

    def on_home_screen_quit_chosen(self, _event: HomeScreen.QuitChosen) -> None:
        """Leave the app."""
        self.exit()

    async def on_settings_screen_saved(self, event: SettingsScreen.Saved) -> None:
        """Apply the new theme and language; the home screen speaks the new language."""
        before = language()
        self._apply_settings(event.settings)
        home = self.home_screen
        if home is not None and language() != before:
            await home.recompose()

    # --- switching tables ------------------------------------------------------------------------

    def switch_table(self, session: Session | None) -> None:
        """Leave the table we are at (if any) and open ``session``'s; ``None``: back home."""
        self.run_worker(self._switch(session), group="switch", exclusive=True)

    async def _switch(self, session: Session | None) -> None:
        self._leaving = True  # the lost connection that follows is ours
        await self._close_link()
        for worker in [w for w in self.workers if w.group == "table"]:
            with contextlib.suppress(Exception):  # cancelled or failed: over either way
                await worker.wait()
        # After the old table's queued messages (handled while still leaving):
        self.call_later(self._open, session)

    def _open(self, session: Session | None) -> None:
        self._leaving = False
        self._forget_game()
        home = self.home_screen
        while len(self.screen_stack) > 1 and self.screen is not home:
            self.pop_screen()
        if session is None:
            if home is None:
                self.exit()
            self.lobby = None  # home: the next choice says whether a lobby comes back
            return
        self.session = session
        self.push_screen(self._new_connecting_screen())
        self.run_table()

    # --- play again ------------------------------------------------------------------------------

    def can_rematch(self) -> bool:
        """A finished game can be played again: solo (the same bots, a new seed) or at the
        LAN table this app hosts (proposed, then started once everyone answered)."""
        snap = self.snapshot
        over = snap is not None and snap.over
        return over and (isinstance(self.session, SoloSession) or self.hosted is not None)

    async def action_rematch(self) -> None:
        """Play again: solo, a new table with the same game, bots and levels and a new
        seed. Hosting: the first press proposes a rematch to the seated players
        (``net/rematch.py``); once each accepted or had their seat given to a bot or
        opened (``b``/``o``), the next starts it with the same seats and tokens."""
        session = self.session
        if not self.can_rematch():
            return
        hosted = self.hosted
        if hosted is not None:
            try:
                if self.rematch_answers is None:
                    await hosted.server.propose_rematch(by=self.seat)
                else:
                    await hosted.server.start_rematch()
            except Refused as exc:
                self.notify_refused(exc)
            return
        if isinstance(session, SoloSession):
            seed = random.SystemRandom().randrange(SEED_SPAN)
            self.notify(_("A new game, seed {seed}.").format(seed=seed), timeout=4)
            self.switch_table(replace(session, seed=seed))

    def follow_rematch(self) -> None:
        """The table went back to its lobby after the game (the host proposed a rematch):
        leave the last game's screens for the table's lobby, saying what happens next.
        The connection, the seat and its token are kept; the new game's first view
        brings the table screen back."""
        self.snapshot = None
        self.rematch_answers = None
        self._table = None
        self._results = None
        self.autoplayer = None
        self.relay.reset()
        bottom = self.home_screen or self.lobby_screen
        while len(self.screen_stack) > 1 and self.screen is not bottom:
            self.pop_screen()
        self.push_screen(self._new_connecting_screen())
        hosted = self.hosted
        if hosted is not None:
            self._say_host_lobby(hosted)
        elif self.seat is None:
            self._say(_("The table plays again: you will watch the next game when it starts."))
        else:
            self._say(
                _(
                    "The host proposes a rematch: your seat is kept for you. Stay to play "
                    "(the host starts the game); ctrl+q leaves."
                )
            )
        self.notify(_("A rematch at this table."), timeout=5)
