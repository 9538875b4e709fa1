"""``--resume LOG`` and ``--yes`` for ``serve`` and ``host`` (a helper module, not a command)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from poissonnier_tui.i18n import _

if TYPE_CHECKING:
    from poissonnier_tui.hosting.persistence import ResumePlan


def add_resume_options(p: argparse.ArgumentParser) -> None:
    """Add ``--resume LOG`` and ``--yes``."""
    p.add_argument(
        "--resume",
        type=Path,
        metavar="LOG",
        default=None,
        help=_(
            "carry on the game saved in LOG after a crash ('last': the most recent game "
            "not over); seats, bots and seed come from the log, players take their seats "
            "back by joining again ('poissonnier history' lists saved games)"
        ),
    )
    p.add_argument(
        "--yes",
        action="store_true",
        help=_("with --resume: if the log is damaged, continue from its valid part without asking"),
    )


def load_plan(args: argparse.Namespace) -> ResumePlan | None:
    """The resume plan for ``args.resume``, asking about damage unless ``--yes``.

    Prints the reason to stderr and returns ``None`` when the log cannot be
    resumed (the command then exits 1).
    """
    from poissonnier_tui.hosting.persistence import ResumeError, ask_yes_no, list_games, plan_resume

    def confirm(question: str) -> bool:
        if args.yes:
            print(
                "poissonnier: " + _("{question} Yes (--yes).").format(question=question),
                file=sys.stderr,
            )
            return True
        return ask_yes_no(question)

    path: Path = args.resume
    if str(path) == "last" and not path.exists():
        running = [g for g in list_games() if not g.finished and g.started is not None]
        if not running:
            print("poissonnier: " + _("no saved game is waiting to be resumed."), file=sys.stderr)
            return None
        path = running[0].path
        print("poissonnier: " + _("resuming {path}").format(path=path), file=sys.stderr)
    try:
        return plan_resume(path, confirm=confirm)
    except ResumeError as exc:
        print(f"poissonnier: {exc}", file=sys.stderr)
        return None
