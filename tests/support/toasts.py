"""Every toast an app under test raised, kept for the test to read.

Textual forgets a notification once its timeout has passed on the wall clock
(5 s by default: ``App._notifications`` drops it when read, its toast removes
itself), so a test that reads the app's notifications fails whenever a loaded
machine takes longer than that between the toast and the check. An app that
mixes in :class:`KeepsToasts` (before its ``App`` class) records each one as
it is raised, for good, in order.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.notifications import SeverityLevel


@dataclass(frozen=True)
class Toasted:
    """One notification: ``severity`` (``"information"``, ``"warning"``, ``"error"``),
    its ``title`` (``""`` for none) and ``message``."""

    severity: SeverityLevel
    title: str
    message: str

    @property
    def line(self) -> str:
        """``title: message``, as the toast reads."""
        return f"{self.title}: {self.message}"


class KeepsToasts:
    """Mix into a Textual ``App`` subclass, before the ``App`` class: ``toasted`` lists
    every notification raised (by the app or any of its screens and widgets), oldest
    first, whether or not it is still on screen."""

    @property
    def toasted(self) -> list[Toasted]:
        """Every notification raised so far, oldest first."""
        kept: list[Toasted] = self.__dict__.setdefault("_toasted", [])
        return kept

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Record the notification, then raise it as the app always does."""
        self.toasted.append(Toasted(severity, title, message))
        raise_it = super().notify  # type: ignore[misc]  # the App's, after this mixin
        raise_it(message, title=title, severity=severity, timeout=timeout, markup=markup)
