"""The ``poissonnier`` command.

``poissonnier``                     the home screen: solo, host, join, watch, replay,
                                    rules, settings
``poissonnier --bots 2 ...``        with solo options: a solo game straight away
``poissonnier <command> ...``       see ``poissonnier --help``; each command
                                    lives in ``poissonnier_tui/commands/``
``poissonnier --version``           print the version

Every command takes ``--lang fr|en``; the language is chosen before any text is
built (help included): ``--lang``, then the saved setting, then ``LC_ALL`` /
``LC_MESSAGES`` / ``LANG`` (:func:`poissonnier_tui.i18n.resolve_language`).
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

if __name__ == "__main__":
    # Ctrl-C while the command loads ends it quietly; main() restores KeyboardInterrupt.
    signal.signal(signal.SIGINT, signal.SIG_DFL)

from poissonnier_tui import __version__, codecache, collector, i18n
from poissonnier_tui.commands import MODULES
from poissonnier_tui.commands import solo as solo_command
from poissonnier_tui.commands.solo import add_solo_options
from poissonnier_tui.i18n import N_, _

ARGPARSE_MESSAGES: Final = (
    # i18n: argparse's own messages (its gettext domain); keep the %(name)s and %s fields.
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("show program's version number and exit"),
)
"""The messages argparse builds itself (errors, mostly), in our catalogue: argparse looks
them up through its module's ``_``, which :func:`localize_argparse` points at ours."""


def lang_option(argv: Sequence[str]) -> str | None:
    """The value of the last ``--lang X`` / ``--lang=X`` in ``argv`` (``None`` if absent).

    Read before the parser is built, since the help texts are built in the
    chosen language; the parser checks the value itself afterwards.
    """
    found: str | None = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            found = argv[i + 1]
        elif arg.startswith("--lang="):
            found = arg.partition("=")[2]
    return found


def choose_language(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> str:
    """Speak, from now on, the language ``argv``, the settings and the locale choose.

    ``--lang`` first (ignored here if it names no language of ours: the parser
    then refuses it), then the saved setting, then the environment.

    Returns:
        The language now spoken, one of :data:`poissonnier_tui.i18n.LANGUAGES`.
    """
    from poissonnier_tui.settings import load_settings

    cli = lang_option(argv)
    if cli not in i18n.LANGUAGES:
        cli = None
    lang = i18n.resolve_language(cli, load_settings().settings.language, environ)
    i18n.set_language(lang)
    return lang


def add_lang_option(p: argparse.ArgumentParser) -> None:
    """``--lang fr|en``: the language of every text (help, messages, screens)."""
    p.add_argument(
        "--lang", choices=i18n.LANGUAGES, default=None, metavar="LANG",
        help=_("language of the texts: {choices} (default: the saved setting, "
               "then LC_ALL/LC_MESSAGES/LANG)").format(choices=", ".join(i18n.LANGUAGES)),
    )  # fmt: skip


class Formatter(argparse.HelpFormatter):
    """argparse's help layout, its ``usage:`` heading in the current language."""

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        """As argparse does, with ``usage:`` translated."""
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)


def localize_argparse() -> None:
    """Have argparse say its own messages (``error: argument --bots: invalid int value``...)
    in the current language.

    argparse looks its messages up, when it builds one, through the ``_`` and
    ``ngettext`` of its module (the standard ``gettext`` functions, domain
    ``argparse``, which no catalogue of ours fills); they now read our catalogue,
    where :data:`ARGPARSE_MESSAGES` are translated (English: argparse's own words).
    """
    setattr(argparse, "_", _)  # noqa: B010 (argparse's stubs do not declare its gettext)
    setattr(argparse, "ngettext", i18n.ngettext)  # noqa: B010


def localize(parser: argparse.ArgumentParser) -> None:
    """Put argparse's own words in ``parser`` (headings, ``-h``'s help) in the current language."""
    parser.formatter_class = Formatter
    parser._positionals.title = _("positional arguments")
    parser._optionals.title = _("options")
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            action.help = _("show this help message and exit")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser: solo options at the top level, then every subcommand."""
    localize_argparse()
    parser = argparse.ArgumentParser(
        prog="poissonnier",
        description=_(
            "Fish card games in your terminal: Le Poissonnier, the fish-market game, and "
            "more. With no command: the home screen (solo, host, join, watch, replay, rules, "
            "settings); with solo options and no command: a solo game, as 'poissonnier solo'."
        ),
    )
    parser.add_argument(
        "--version", action="version", version=f"poissonnier {__version__}",
        help=_("show the version and exit"),
    )  # fmt: skip
    add_lang_option(parser)
    add_solo_options(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in MODULES:
        importlib.import_module(name).register(sub)
    for command in sub.choices.values():
        add_lang_option(command)
        localize(command)
    localize(parser)
    return parser


def run_solo(args: argparse.Namespace) -> int:
    """A solo game in the TUI (``poissonnier solo``, and the bare command)."""
    from poissonnier_tui.commands.solo import run

    return run(args)


def run_home(args: argparse.Namespace) -> int:
    """The home screen in the TUI (the bare ``poissonnier``)."""
    from poissonnier_tui.shell.app import PoissonnierApp
    from poissonnier_tui.shell.session import HomeSession

    app = PoissonnierApp(HomeSession(lang=getattr(args, "lang", None)))
    app.run()
    return int(app.return_code or 0)


def solo_options_given(parser: argparse.ArgumentParser, args: argparse.Namespace) -> bool:
    """Whether the bare command was given a solo option (``--bots 2``...): then it starts
    a solo game as ``poissonnier solo`` does, else it opens the home screen."""
    solo = argparse.ArgumentParser(add_help=False)
    add_solo_options(solo)
    return any(
        getattr(args, action.dest, None) != parser.get_default(action.dest)
        for action in solo._actions
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``poissonnier`` console script.

    Returns:
        The process exit code: 0 on success, 1 when a command failed (e.g. a
        simulation saw errors), 2 on bad arguments, 130 after a Ctrl-C that no
        command handled itself.
    """
    # The TUI starts faster without the cyclic collector walking what it builds
    # (poissonnier_tui/collector.py): the app gives it back once its first screen is
    # drawn; every other command gets it back before it runs.
    collector.hold()
    # The methods dataclasses write at import, compiled once for all runs like the
    # modules' bytecode (poissonnier_tui/codecache.py); saved when the command ends.
    codecache.install()
    try:
        if signal.getsignal(signal.SIGINT) is signal.SIG_DFL:  # the guard while loading
            signal.signal(signal.SIGINT, signal.default_int_handler)
        choose_language(sys.argv[1:] if argv is None else argv)
        parser = build_parser()
        args = parser.parse_args(argv)
        run = getattr(args, "run", None)
        if run is not None:
            if run is not solo_command.run:
                collector.release()
            return int(run(args))
        return run_solo(args) if solo_options_given(parser, args) else run_home(args)
    except KeyboardInterrupt:  # Ctrl-C before a command set up its own handling
        return 130
    finally:
        collector.release()
        codecache.save()
        codecache.uninstall()


if __name__ == "__main__":
    sys.exit(main())
