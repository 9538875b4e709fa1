"""The one error the Go Fish engine raises for a refused action."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules refuse; the game state is unchanged.

    Args:
        code: machine-readable reason, e.g. ``"not_your_turn"``, ``"rank_not_held"``.
        rule: the docs/GOFISH.md clause or ruling broken, e.g. ``"§3"`` or ``"G5"``;
            ``"wire"`` for a malformed action.
        message: a plain sentence a player can act on.
    """

    def __init__(self, code: str, rule: str, message: str) -> None:
        super().__init__(f"{message} ({rule})" if rule != "wire" else message)
        self.code = code
        self.rule = rule
        self.message = message

    @property
    def sentence(self) -> str:
        """The message with the rule cited, as shown to a player."""
        return str(self)
