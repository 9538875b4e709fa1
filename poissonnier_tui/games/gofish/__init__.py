"""Go Fish (docs/GOFISH.md): pure rules in ``rules/``, bots in ``bots/``, and
:class:`GoFishGame`, its definition for the table server."""

from poissonnier_tui.games.gofish.match import GoFishGame

__all__ = ["GoFishGame"]
