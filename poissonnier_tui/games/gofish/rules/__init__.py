"""The rules of Go Fish: pure, deterministic, no I/O (docs/GOFISH.md).

Importable alone::

    from poissonnier_tui.games.gofish.rules import new_game, apply_wire, view_for

    state = new_game(seed=7, players=3)
    view = view_for(state, 0)          # what seat 0 may see
"""

from poissonnier_tui.games.gofish.rules.actions import Ask, AskCard, parse_action, to_wire
from poissonnier_tui.games.gofish.rules.engine import (
    apply,
    apply_wire,
    legal_actions,
    new_game,
    waiting_on,
)
from poissonnier_tui.games.gofish.rules.errors import IllegalAction
from poissonnier_tui.games.gofish.rules.state import GameState, Options
from poissonnier_tui.games.gofish.rules.view import legal_from_view, view_for

__all__ = [
    "Ask",
    "AskCard",
    "GameState",
    "IllegalAction",
    "Options",
    "apply",
    "apply_wire",
    "legal_actions",
    "legal_from_view",
    "new_game",
    "parse_action",
    "to_wire",
    "view_for",
    "waiting_on",
]
