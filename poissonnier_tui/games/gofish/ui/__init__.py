"""Go Fish's screens: they render views received from the server.

The shell reaches them only through :data:`GAME_UI`, found from the registry.
"""

from poissonnier_tui.games.gofish.ui.game import GAME_UI

__all__ = ["GAME_UI"]
