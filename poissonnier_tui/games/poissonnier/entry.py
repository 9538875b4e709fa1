"""Le Poissonnier's entry in the games registry (:mod:`poissonnier_tui.games`)."""

from __future__ import annotations

from typing import Final

from poissonnier_tui.games import GameEntry
from poissonnier_tui.games.poissonnier.bots import BOT_KINDS, DEFAULT_LEVEL, LEVELS, make_bot
from poissonnier_tui.games.poissonnier.haggling import seat_bot
from poissonnier_tui.games.poissonnier.match import PoissonnierGame
from poissonnier_tui.games.poissonnier.reader import fallback_from_view
from poissonnier_tui.games.poissonnier.rules.determinize import legal_from_view
from poissonnier_tui.i18n import N_

ENTRY: Final = GameEntry(
    name=PoissonnierGame.name,
    title="Le Poissonnier",
    definition=PoissonnierGame(),
    levels=LEVELS,
    default_level=DEFAULT_LEVEL,
    bot_kinds=BOT_KINDS,
    make_bot=make_bot,
    legal_from_view=legal_from_view,
    ui="poissonnier_tui.games.poissonnier.ui",
    options={},
    fallback_from_view=fallback_from_view,
    tallies={
        # i18n: column headings of the simulate and tournament reports.
        "coins": N_("coins"),
        "clients": N_("clients"),
        "stamps": N_("stamps"),
        "deals": N_("deals"),
        "proposals": N_("proposals"),
        "counters": N_("counter-offers"),
        "clients_served": N_("clients served"),
    },
    actions={
        # i18n: a move in the replay's line "Ana: end the turn" (RULES.md §3, §4, §7).
        "place": N_("place fish"),
        "take_back": N_("take back a crate"),
        "ready": N_("ready"),
        "unready": N_("not ready"),
        "buy_crate": N_("buy a crate"),
        "serve": N_("serve"),
        "propose": N_("propose a deal"),
        "accept": N_("accept"),
        "decline": N_("decline"),
        "withdraw": N_("withdraw"),
        "end_turn": N_("end the turn"),
    },
    seat_bot=seat_bot,
    summary=N_(
        "Fishmongers at a market: buy fish, keep it fresh in your crates and serve the "
        "clients' orders for coins and loyalty stamps."
    ),
)
"""Le Poissonnier in the games registry (:mod:`poissonnier_tui.games`)."""
