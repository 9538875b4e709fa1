"""Le Poissonnier's screens and widgets: they render views received from the server.

The shell reaches them only through :data:`GAME_UI` (its
:class:`~poissonnier_tui.shell.game_ui.GameUI`), found from the registry.
"""

from poissonnier_tui.games.poissonnier.ui.game import GAME_UI

__all__ = ["GAME_UI"]
