"""Form pieces shared by the home and settings screens: a one-line choice, field checks,
and footer keys in the player's language.

:class:`Choice` picks one of a few values (a game, a bot level, a theme): it
shows ``◂ label ▸``; ←/→ or space step through the values, a click steps on.
The ``parse_*`` functions read one typed field each and raise
:class:`FieldError` with the sentence to show next to it, so a form can check
every field, show every problem at once, and change nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar, Final

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from net.schema import shows
from poissonnier_tui.i18n import N_, _, decimal, ngettext


class FieldError(ValueError):
    """A typed value a form refuses; ``str(exc)`` is the sentence to show next to the field."""


KEY_NAMES: Final[Mapping[str, str]] = {"escape": N_("esc"), "space": N_("space")}
"""Keys whose name the footer shows in words (Textual's English by default) -> their
messages; a binding's own ``key_display`` comes first."""


def translate_bindings(node: DOMNode) -> None:
    """Give ``node``'s key bindings their descriptions in the current language.

    ``BINDINGS`` are class attributes, read once at import; their descriptions
    are marked with ``N_`` and translated here, per screen, whenever the
    screen (re)composes, so a language switched in Settings shows in the footer.
    """
    merged = type(node)._merged_bindings
    if merged is None:
        return
    node._bindings.key_to_bindings = {
        key: [
            replace(
                b,
                description=_(b.description) if b.description else "",
                key_display=_(shown) if (shown := b.key_display or KEY_NAMES.get(key)) else None,
            )
            for b in bindings
        ]
        for key, bindings in merged.key_to_bindings.items()
    }


class Choice(Widget, can_focus=True):
    """One of a few values, shown as ``◂ label ▸``; ←/→, space or a click change it.

    Args:
        options: ``(value, label)`` pairs in order; labels are shown as given
            (already translated).
        value: the value to start at (default the first).
        name / id / classes: as for any widget.

    Raises:
        ValueError: no options.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", N_("Previous"), show=False),
        Binding("right,space", "step(1)", N_("Next"), show=False),
    ]

    DEFAULT_CSS = """
    Choice {
        width: auto;
        height: 1;
        padding: 0 1;
    }
    Choice:focus {
        background: $accent;
        color: $text;
        text-style: bold;
    }
    Choice:hover {
        background: $boost;
    }
    """

    index: reactive[int] = reactive(0)
    """Which option is chosen, ``0 .. len(options) - 1``."""

    @dataclass
    class Changed(Message):
        """The choice moved to ``value``."""

        choice: Choice
        value: str

        @property
        def control(self) -> Choice:
            """The choice that changed (for ``@on(Choice.Changed, "#id")``)."""
            return self.choice

    def __init__(
        self,
        options: Sequence[tuple[str, str]],
        value: str | None = None,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        if not options:
            raise ValueError("a choice needs at least one option")
        super().__init__(name=name, id=id, classes=classes)
        self.options = list(options)
        values = [v for v, _label in self.options]
        self.set_reactive(Choice.index, values.index(value) if value in values else 0)

    @property
    def value(self) -> str:
        """The chosen value."""
        return self.options[self.index][0]

    @value.setter
    def value(self, value: str) -> None:
        values = [v for v, _label in self.options]
        if value in values:
            self.index = values.index(value)

    def render(self) -> Text:
        """``◂ label ▸`` (no arrows when there is nothing else to choose)."""
        label = self.options[self.index][1]
        return Text(f"◂ {label} ▸" if len(self.options) > 1 else f"  {label}  ")

    def watch_index(self, old: int, new: int) -> None:
        """Say that the value changed."""
        if old != new:
            self.post_message(self.Changed(self, self.value))

    def action_step(self, by: int) -> None:
        """Move ``by`` options, round the end."""
        self.index = (self.index + by) % len(self.options)

    def on_click(self, event: events.Click) -> None:
        """A click on the left arrow steps back, anywhere else on."""
        self.focus()
        self.action_step(-1 if event.x <= 2 else 1)


# --- checks of typed fields -----------------------------------------------------------------


def parse_count(text: str, low: int, high: int, what: str) -> int:
    """A whole number ``low .. high`` typed in a field.

    Args:
        text: what was typed.
        low / high: the limits, inclusive.
        what: the error sentence when out of range or not a number, with
            ``{low}`` and ``{high}`` placeholders (already translated).

    Raises:
        FieldError: not digits, or out of range.
    """
    text = text.strip()
    if not text.isdigit() or not low <= int(text) <= high:
        raise FieldError(what.format(low=low, high=high))
    return int(text)


def parse_seed(text: str) -> int | None:
    """A seed: blank for a random deal, else digits only (R3: the same seed, the same deal).

    Raises:
        FieldError: anything but digits.
    """
    text = text.strip()
    if not text:
        return None
    if not text.isdigit() or not text.isascii():
        raise FieldError(
            _("The seed is a whole number (digits only); leave it blank for a random deal.")
        )
    return int(text)


def parse_name(text: str, *, most: int, what: str) -> str:
    """A name to show (a player's or a table's): printable, not blank, at most ``most`` characters.

    Args:
        text: what was typed (spaces at the ends are dropped).
        most: the longest name accepted.
        what: which name, for the error (``_("Your name")``, ``_("The table's name")``).

    Raises:
        FieldError: blank, too long or holding control characters.
    """
    text = text.strip()
    if not shows(text):  # nothing, or only letters that draw nothing (net.schema)
        raise FieldError(_("{what} cannot be blank.").format(what=what))
    if len(text) > most:
        raise FieldError(
            ngettext(
                "{what} is at most {n} character.", "{what} is at most {n} characters.", most
            ).format(what=what, n=most)
        )
    if not text.isprintable():
        raise FieldError(_("{what} holds characters that cannot be shown.").format(what=what))
    return text


def parse_seconds(text: str, *, most: float | None, optional: bool) -> float | None:
    """A number of seconds typed in a field, e.g. ``"0.5"`` (a decimal comma is read too).

    Args:
        text: what was typed.
        most: the most accepted, or ``None`` for no limit.
        optional: a time limit that may be left blank (``None``), and must be
            above 0 when given; otherwise a pace, ``0 .. most``, never blank.

    Raises:
        FieldError: blank when not optional, not a number, or out of range.
    """
    text = text.strip().replace(",", ".")
    if not text:
        if optional:
            return None
        raise FieldError(_("Type a number of seconds."))
    try:
        value = float(text)
    except ValueError:
        raise FieldError(_("Type a number of seconds, e.g. 0.5.")) from None
    too_low = value <= 0 if optional else value < 0
    if value != value or too_low or (most is not None and value > most):
        if most is None:
            raise FieldError(_("Type a number of seconds above 0, or leave it blank."))
        raise FieldError(_("Type 0 to {most} seconds.").format(most=decimal(most)))
    return value
