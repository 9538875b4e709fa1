"""Why a seat said no: a decline's reason and counter-price, in the reader's language.

RULES.md §4 (table talk: "1 coin is too little — 3 and it's yours"). A
``decline`` may carry a reason code (``rules/actions.py:DECLINE_REASONS``) and
the price at which the decliner would deal; the log event then also names the
coins that were offered. This module turns such an event into a sentence,
and names each reason for a person choosing one (the answer dialog).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from textual.markup import escape

from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
from poissonnier_tui.i18n import N_, _, ngettext

REASON_LABELS: Final[Mapping[str, str]] = {
    # i18n: a reason to decline an offer, as a person picks it (short).
    "too_cheap": N_("too cheap"),
    "too_dear": N_("too dear"),
    "not_selling": N_("not for sale"),
    "need_it": N_("I need them"),
    "no_use": N_("no use to me"),
    "no_thanks": N_("no, thanks"),
}
"""Each reason code's short label, marked for the catalogue (English here)."""

SELLER_REASONS: Final = ("too_cheap", "not_selling", "need_it", "no_thanks")
"""The reasons a seller may give, in the order a person is offered them (§4)."""

BUYER_REASONS: Final = ("too_dear", "no_use", "no_thanks")
"""The reasons the buyer (the active seat) may give, in that order (§4)."""


def reason_label(code: str) -> str:
    """The short label of a reason code in the current language (the code itself if unknown)."""
    label = REASON_LABELS.get(code)
    return _(label) if label is not None else code


def _coins(n: int) -> str:
    return ngettext("{n} coin", "{n} coins", n).format(n=n)


def because(reason: str, offered: int, price: int | None) -> str:
    """What the decliner says, e.g. ``"1 coin is too little — 3 and it's yours"``.

    Args:
        reason: a reason code (an unknown one is said as a plain no).
        offered: the coins the declined proposal named.
        price: the decliner's counter-price, or ``None``.
    """
    if reason == "too_cheap":
        said = ngettext("{n} coin is too little", "{n} coins is too little", offered).format(
            n=offered
        )
        if price is not None:
            said = _("{said} — {price} and it's yours").format(said=said, price=_coins(price))
        return said
    if reason == "too_dear":
        said = ngettext("{n} coin is too much", "{n} coins is too much", offered).format(n=offered)
        if price is not None:
            said = _("{said} — {price} and it's a deal").format(said=said, price=_coins(price))
        return said
    if reason == "not_selling":
        return _("not for sale")
    if reason == "need_it":
        return _("I need those fish myself")
    if reason == "no_use":
        return _("I have no use for those")
    return _("no, thanks")


def decline_text(snap: TableSnapshot, event: Mapping[str, Any]) -> str | None:
    """The log sentence of a ``decline`` event that carries a reason, else ``None``.

    E.g. ``Bot 2 declined offer #7: "1 coin is too little — 3 and it's yours"``.
    The name is escaped (a name is data, never markup).
    """
    reason = event.get("reason")
    if not isinstance(reason, str):
        return None
    price = event.get("price")
    said = because(reason, int(event.get("coins", 0)), price if isinstance(price, int) else None)
    seat = int(event.get("seat", -1))
    if seat == snap.me:  # its own sentence: "You" takes another verb form in French
        return _('[b]You[/b] declined offer #{id}: "{said}".').format(
            id=event.get("proposal", "?"), said=said
        )
    return _('{name} declined offer #{id}: "{said}".').format(
        name=f"[b]{escape(snap.name(seat))}[/b]",
        id=event.get("proposal", "?"),
        said=said,
    )
