"""The largest view a Poissonnier table can have to send fits in one frame (R26).

Each open proposal is named in every view and in the time left on it (R24, R25), and
a view that outgrew :data:`net.frames.MAX_FRAME` could not be sent to anyone: the
table would go on without a word to its players. R26 caps the proposals a seat keeps
open; here every seat of a 5-player table is at that cap with the longest proposals
the engine takes, and each view still fits with room to spare, and the clients take it.
"""

from __future__ import annotations

from stacking import act, fill_and_ready, stacked_game

from net.frames import MAX_FRAME, encode
from net.messages import View, parse_server_frame
from poissonnier_tui.games.poissonnier.rules import cards
from poissonnier_tui.games.poissonnier.rules.actions import Propose
from poissonnier_tui.games.poissonnier.rules.engine import OPEN_PROPOSALS_MAX
from poissonnier_tui.games.poissonnier.rules.state import Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for


def test_the_fullest_market_fits_in_a_frame() -> None:
    """R26, R24: 5 seats with 6 crates of 2 fish each, every seat with OPEN_PROPOSALS_MAX
    proposals naming all 6 crates of its seller and special cards: every viewer's view
    frame (with a time left on each of the 100 offers) is under half the frame cap."""
    fish = [c for c in cards.fish_deck() if not cards.is_special(c)]
    markers = [[fish.pop() for _ in range(6)] for _ in range(5)]
    crates = [[[fish.pop(), fish.pop()] for _ in range(6)] for _ in range(5)]
    hands = [[f"G{i + 1:02}", f"A{i + 1:02}"] for i in range(5)]
    state = stacked_game(
        5, hands=hands, markers=markers, crates=crates, fish_deck_size=0, coins=[500] * 5
    )
    fill_and_ready(state)
    assert state.phase is Phase.SERVE and state.active == 0
    every_crate = tuple((k, 2) for k in range(6))
    for seat in range(5):
        for n in range(OPEN_PROPOSALS_MAX):
            seller = 1 + n % 4 if seat == 0 else seat
            act(
                state,
                seat,
                Propose(
                    seller,
                    every_crate,
                    seller_glacons=1 if seat == seller else 10**6,
                    seller_arrivages=1 if seat == seller else 10**6,
                    coins=500,
                    buyer_glacons=1 if seat == 0 else 10**6,
                    buyer_arrivages=1 if seat == 0 else 10**6,
                ),
            )
    assert len(state.proposals) == 5 * OPEN_PROPOSALS_MAX == 100
    answers = tuple((p.id, 3_600_000) for p in state.proposals)
    sizes = []
    for viewer in (None, 0, 1, 2, 3, 4):
        frame = encode(View(10**6, view_for(state, viewer), 3_600_000, answers).to_wire())
        sizes.append(len(frame))
        message = parse_server_frame(frame[4:])  # what every client checks: it takes it
        assert isinstance(message, View) and len(message.answers_in_ms) == 100
    assert max(sizes) < MAX_FRAME // 2, sizes
