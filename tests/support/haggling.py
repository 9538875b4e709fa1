"""A two-player table of Le Poissonnier in its serve step, for tests of haggling over TCP.

:func:`market` builds a :class:`TableServer` rebuilt (``restore``) from the fill
step of seed :data:`SEED` as medium bots play it offline, so the serve step
starts at once with Ana (seat 0) active and Bob (seat 1) holding fish in a
crate; both seats are people who come back with the tokens
:data:`TOKENS` names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from net.drafts import DraftRules
from net.game import Wire
from net.server import TableServer, Timing
from poissonnier_tui import __version__
from poissonnier_tui.games.poissonnier.bots import make_bot
from poissonnier_tui.games.poissonnier.match import PoissonnierGame
from poissonnier_tui.games.poissonnier.rules.state import Phase

SEED = 1
"""A deal whose first player (seat 0) can ask seat 1 for fish once the fill step is over."""
TOKENS = {0: ("Ana", "tok-ana"), 1: ("Bob", "tok-bob")}
"""Seat -> (name, token) of the two people."""
QUICK = Timing(ping_interval=5.0, idle_timeout=10.0, hello_timeout=2.0, close_timeout=0.5)
"""Network timings for tests (as ``test_net_server.FAST``)."""


def fill_step(seed: int = SEED) -> list[tuple[int, Wire]]:
    """The fill step of a two-player deal as medium bots play it (RULES.md §3.2)."""
    match = PoissonnierGame().new_match(seed, 2, {})
    bots = [make_bot("medium", seed + i) for i in range(2)]
    moves: list[tuple[int, Wire]] = []
    while match.state.phase is Phase.FILL:
        for seat in sorted(match.waiting_on()):
            action = bots[seat].act(match.view(seat), match.legal_actions(seat))
            assert action is not None
            match.apply(seat, action)
            moves.append((seat, action))
    assert match.state.phase is Phase.SERVE and match.state.active == 0
    return moves


def market(drafts: DraftRules, **kwargs: Any) -> TableServer:
    """The restored table (not yet open); ``kwargs`` go to :class:`TableServer`."""
    kwargs.setdefault("timing", QUICK)
    server = TableServer(
        PoissonnierGame(), name="Market", seats=2, seed=SEED, app_version=__version__,
        absent_grace=None, bot_delay=0.0, drafts=drafts, **kwargs,
    )  # fmt: skip
    server.restore(TOKENS, fill_step(SEED))
    return server


def bobs_fish(view: Mapping[str, Any], coins: int = 0) -> Wire:
    """A proposal for one fish of Bob's first filled crate at ``coins`` (§4, R18); made by
    Ana it asks Bob for it, made by Bob it offers it to Ana."""
    crate = next(k for k, codes in enumerate(view["seats"][1]["crates"]) if codes)
    return {
        "type": "propose", "seller": 1, "fish": [[crate, 1]], "seller_glacons": 0,
        "seller_arrivages": 0, "coins": coins, "buyer_glacons": 0, "buyer_arrivages": 0,
        "counter": None,
    }  # fmt: skip
