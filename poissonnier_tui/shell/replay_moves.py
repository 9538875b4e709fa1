"""The move a replay step shows, in the viewer's language.

A table log keeps each move as its wire map (codes and parameters), so a
replay says it in the language chosen now: each game names its action types
and fields in the catalogue (marked with ``N_``), and :func:`move_words` puts
:meth:`~poissonnier_tui.hosting.replay.Replay.move_parts` into a sentence. Which
fields show is the replay's business (a mover's cards only from the mover's
point of view or with every hand, RULES.md §9).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from poissonnier_tui.hosting.replay import PointOfView, Replay, plain_value
from poissonnier_tui.i18n import _


def move_words(
    replay: Replay,
    step: int,
    pov: PointOfView,
    kinds: Mapping[str, str],
    fields: Mapping[str, str],
    value: Callable[[str, Any], str] | None = None,
) -> str:
    """``"Ana: serve (client C03, fish [T01 F02])"`` in the current language, plain text.

    Args:
        replay: the loaded game.
        step: the step shown (0: the deal).
        pov: the point of view shown.
        kinds: wire action type -> its message (``N_``-marked; translated here).
        fields: wire field name -> its message (``N_``-marked; translated here).
        value: how to show a field's value (``(field, value) -> text``); by default
            lists as ``[a b]`` and the rest as they are.
    """
    parts = replay.move_parts(step, pov)
    if parts is None:
        return _("The deal.")
    seat, kind, details = parts
    name = replay.header.seats[seat].name or _("Seat {n}").format(n=seat + 1)
    move = _(kinds[kind]) if kind in kinds else kind.replace("_", " ")
    shown = [
        _("{field} {value}").format(
            field=_(fields[key]) if key in fields else key,
            value=value(key, v) if value is not None else plain_value(v),
        )
        for key, v in details.items()
        if v is not None and v != []  # an empty list says nothing ("glaçons []")
    ]
    if shown:
        return _("{name}: {move} ({details})").format(
            name=name, move=move, details=", ".join(shown)
        )
    return _("{name}: {move}").format(name=name, move=move)
