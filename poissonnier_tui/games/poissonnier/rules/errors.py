"""The one error the rules engine raises for a refused action."""

from __future__ import annotations

from collections.abc import Mapping

Param = str | int
"""A refusal's parameter: text (a card id, a freshness) or a whole number."""


class IllegalAction(Exception):
    """An action the rules refuse; the game state is unchanged.

    A refusal travels as data, so that each client says it in its own
    language: ``key`` names the sentence and ``params`` fill it in
    (``poissonnier_tui.games.poissonnier.ui.refusals`` holds the sentences);
    ``message`` is the English sentence, kept for logs, bots and clients that
    do not know ``key``.

    Args:
        code: machine-readable reason, e.g. ``"not_active"``, ``"bad_order"``.
        rule: the RULES.md section or ruling broken, e.g. ``"§3.4"`` or ``"R12"``;
            ``"wire"`` for a malformed action.
        message: a plain sentence a player can act on, with ``{name}``
            placeholders for ``params``.
        params: the values of the placeholders (none by default).
        key: which sentence this is, when a code has several (default ``code``).
    """

    def __init__(
        self,
        code: str,
        rule: str,
        message: str,
        params: Mapping[str, Param] | None = None,
        key: str | None = None,
    ) -> None:
        self.params: dict[str, Param] = dict(params or {})
        message = message.format(**self.params) if self.params else message
        super().__init__(f"{message} ({rule})" if rule != "wire" else message)
        self.code = code
        self.rule = rule
        self.message = message
        self.key = key or code

    @property
    def sentence(self) -> str:
        """The message with the rule cited, as shown to a player."""
        return str(self)

    @property
    def wire_params(self) -> dict[str, Param]:
        """What a client needs to say this refusal itself: ``params`` with
        ``key`` and ``rule`` (a malformed action: no rule)."""
        extra: dict[str, Param] = {"key": self.key}
        if self.rule != "wire":
            extra["rule"] = self.rule
        return {**self.params, **extra}
