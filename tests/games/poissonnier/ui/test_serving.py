"""The serve dialog's suggested deal completes the order, or the dialog says why none can.

RULES.md §3.4 (serve from the crates and fish bought this turn), §4 (a deal buys
from one stall), §6 (specials). Stacked decks: the stalls hold exactly the fish
each test names.
"""

from __future__ import annotations

from stacking import fill_and_ready, stacked_game
from test_app_describe import apply_wire, plain, snap_of

from poissonnier_tui.games.poissonnier.rules.view import view_for
from poissonnier_tui.games.poissonnier.ui.serving import nobody_sells, serve_options, suggest_deal


def test_no_suggestion_that_leaves_the_order_short_and_the_missing_fish_named() -> None:
    """C24 needs F F M; seat 0 has one F, a stall sells F F, nobody holds an M: buying
    only F cannot complete it, so no deal is suggested and the dialog names the M."""
    state = stacked_game(3, hands=[["F01"], ["F02", "F03"], ["T01"]], queue=["C24", "C03", "C04"])
    fill_and_ready(state, {0: [(("F01",), 0)], 1: [(("F02", "F03"), 0)], 2: [(("T01",), 0)]})
    snap = snap_of(state, 0)
    assert state.active == 0 and not serve_options(snap, "C24")
    assert suggest_deal(snap, "C24") is None
    why = plain(nobody_sells(snap, "C24"))
    assert why.startswith("Nobody can sell you  M  (1 mangeable)")


def test_no_single_stall_is_said_when_the_missing_fish_are_split() -> None:
    state = stacked_game(3, hands=[["F01"], ["F02"], ["M01"]], queue=["C24", "C03", "C04"])
    fill_and_ready(state, {0: [(("F01",), 0)], 1: [(("F02",), 0)], 2: [(("M01",), 0)]})
    snap = snap_of(state, 0)
    assert suggest_deal(snap, "C24") is None
    assert "No single stall sells all that is missing" in plain(nobody_sells(snap, "C24"))


def test_the_suggested_deal_once_accepted_lets_the_order_be_served() -> None:
    """Seat 2 holds F and M in two crates: the deal buys one of each, and once the
    seller accepts, the serve dialog has a way to serve C24."""
    state = stacked_game(
        3, hands=[["F01"], ["T01"], ["F02", "M01"]], markers=[None, None, ["D02", "D03"]],
        queue=["C24", "C03", "C04"],
    )  # fmt: skip
    fill_and_ready(
        state, {0: [(("F01",), 0)], 1: [(("T01",), 0)], 2: [(("F02",), 0), (("M01",), 1)]}
    )
    snap = snap_of(state, 0)
    deal = suggest_deal(snap, "C24")
    assert deal is not None and deal.seller == 2 and deal.fish == ((0, 1), (1, 1))
    assert nobody_sells(snap, "C24") == ""
    apply_wire(state, 0, deal.to_action())
    proposal = view_for(state, 2)["proposals"][-1]
    apply_wire(state, 2, {"type": "accept", "proposal": proposal["id"]})
    assert serve_options(snap_of(state, 0), "C24")
