"""The rules of Le Poissonnier: pure, deterministic, no I/O (RULES.md).

Importable alone::

    from poissonnier_tui.games.poissonnier.rules import (
        apply_wire, legal_actions, new_game, view_for,
    )

    state = new_game(seed=7, players=3)
    view = view_for(state, 0)          # what seat 0 may see
    apply_wire(state, 0, {"type": "ready"})
"""

from poissonnier_tui.games.poissonnier.rules.actions import Action, parse_action, to_wire
from poissonnier_tui.games.poissonnier.rules.engine import (
    apply,
    apply_wire,
    legal_actions,
    new_game,
    volunteers,
    waiting_on,
)
from poissonnier_tui.games.poissonnier.rules.errors import IllegalAction
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for

__all__ = [
    "Action",
    "GameState",
    "IllegalAction",
    "Phase",
    "apply",
    "apply_wire",
    "legal_actions",
    "new_game",
    "parse_action",
    "to_wire",
    "view_for",
    "volunteers",
    "waiting_on",
]
