"""Deals between the active player and the others: RULES.md §4, R8, R9."""

from __future__ import annotations

from stacking import act, assert_conserved, assert_illegal, fill_and_ready, stacked_game

from poissonnier_tui.games.poissonnier.bots.seen import Seen
from poissonnier_tui.games.poissonnier.match import PoissonnierMatch
from poissonnier_tui.games.poissonnier.reader import Offer
from poissonnier_tui.games.poissonnier.rules.actions import (
    Accept,
    BuyCrate,
    Decline,
    EndTurn,
    Propose,
    Serve,
    Withdraw,
)
from poissonnier_tui.games.poissonnier.rules.engine import (
    OPEN_PROPOSALS_MAX,
    legal_actions,
    volunteers,
    waiting_on,
)
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for
from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot


def _market(coins0: int = 3) -> GameState:
    """3 players, seat 0 active in serve.

    Seat 0: hand G01 A01, crate [M03]. Seat 1: hand G02, crates [F01 F02 F03], [T01].
    Seat 2: hand A02, crates [M01 M02]. Queue C12 (FF), C03 (F), C11 (TM), C04, C05.
    """
    state = stacked_game(
        3,
        hands=[["G01", "A01"], ["G02"], ["A02"]],
        markers=[["D20"], ["D19", "D18"], ["D17"]],
        crates=[[["M03"]], [["F01", "F02", "F03"], ["T01"]], [["M01", "M02"]]],
        coins=[coins0, 3, 3],
        queue=["C12", "C03", "C11", "C04"],
        clients_top=["C05"],
    )
    fill_and_ready(state)
    assert state.phase is Phase.SERVE and state.active == 0
    return state


def test_buyer_proposes_seller_accepts() -> None:
    """§4, R8: the deal binds on both yeses and settles at once; bought fish serve this turn."""
    state = _market()
    act(state, 0, Propose(1, ((0, 2),), coins=2))
    assert waiting_on(state) == frozenset({0, 1})
    public = {
        "id": 1, "proposer": 0, "seller": 1, "fish": [[0, 2, "F"]], "seller_glacons": 0,
        "seller_arrivages": 0, "coins": 2, "buyer_glacons": 0, "buyer_arrivages": 0,
        "counters": None, "answerer": 1,  # the buyer proposed: the seller answers (R8)
    }  # fmt: skip
    for viewer in (None, 0, 1, 2):  # proposals are public
        assert view_for(state, viewer)["proposals"] == [public]
    assert state.seats[1].coins == 3  # nothing moves on one yes
    act(state, 1, Accept(1))
    assert [s.coins for s in state.seats] == [1, 5, 3]
    assert state.bought == ["F02", "F03"]
    assert [c.fish for c in state.seats[1].crates] == [["F01"], ["T01"]]
    assert state.proposals == [] and waiting_on(state) == frozenset({0})
    assert view_for(state, 0)["me"]["bought"] == ["F02", "F03"]
    assert view_for(state, 1)["me"]["bought"] == []
    assert view_for(state, 2)["bought"] == "FF"
    act(state, 0, Serve("C12", ("F02", "F03")))
    assert state.bought == [] and state.seats[0].coins == 1 + 4
    assert state.fish_discard == ["F02", "F03"]
    assert_conserved(state)


def test_seller_proposes_buyer_accepts() -> None:
    """§4, R8: anyone may propose; the active player's yes binds a seller's offer."""
    state = _market()
    act(state, 2, Propose(2, ((0, 1),), coins=1))
    p = state.proposals[0]
    assert (p.proposer, p.seller, p.fish) == (2, 2, [(0, 1, "M")])
    assert waiting_on(state) == frozenset({0})
    assert_illegal(state, 2, Accept(p.id), "not_party", "R8")  # the proposer already said yes
    assert_illegal(state, 1, Accept(p.id), "not_party", "R8")
    act(state, 0, Accept(p.id))
    assert [s.coins for s in state.seats] == [2, 3, 4]
    assert state.bought == ["M02"]
    assert state.seats[2].crates[0].fish == ["M01"]


def test_the_others_may_offer_unasked_and_nobody_waits_on_them() -> None:
    """§4 "anyone may propose": in the serve step every other seat not answering a
    proposal may offer the active player fish unasked (``volunteers``); the game
    waits only on the active seat and on those who must answer. Their legal list
    holds offers of their own crates, each accepted by the engine."""
    state = _market()
    assert waiting_on(state) == frozenset({0}) and volunteers(state) == frozenset({1, 2})
    offers = [a for a in legal_actions(state, 2) if isinstance(a, Propose)]
    # Seat 2's one crate of 2 M, 1..2 fish, at 0..3 coins (the buyer holds 3).
    assert sorted((a.fish, a.coins) for a in offers) == [
        (((0, n),), c) for n in (1, 2) for c in range(4)
    ]
    assert all(a.seller == 2 for a in offers)
    act(state, 2, offers[-1])  # an unasked offer: the active player must now answer it
    assert waiting_on(state) == frozenset({0}) and volunteers(state) == frozenset({1, 2})
    act(state, 0, Propose(1, ((1, 1),), coins=1))  # the buyer asks seat 1: it must answer
    assert waiting_on(state) == frozenset({0, 1}) and volunteers(state) == frozenset({2})
    fill = stacked_game(3)
    assert volunteers(fill) == frozenset()  # the fill step waits on everyone (§3.2)


def test_gift_at_zero_coins() -> None:
    """§4, R18: coins may be 0 (the active gives coins and/or specials)."""
    state = _market()
    act(state, 1, Propose(1, ((1, 1),), coins=0))
    act(state, 0, Accept(state.proposals[0].id))
    assert state.bought == ["T01"] and [s.coins for s in state.seats] == [3, 3, 3]


def test_counter_replaces_the_proposal() -> None:
    """§4: the other side may counter; the counter replaces the original and needs the first yes."""
    state = _market()
    act(state, 0, Propose(1, ((0, 1),), coins=1))
    act(state, 1, Propose(1, ((0, 1),), coins=2, counter=1))
    assert [(p.id, p.proposer, p.coins) for p in state.proposals] == [(2, 1, 2)]
    # Everyone sees it is a counter to #1 (the haggling is public, like the offers).
    assert [p["counters"] for p in view_for(state, 2)["proposals"]] == [1]
    assert_illegal(state, 1, Accept(2), "not_party", "R8")
    act(state, 0, Accept(2))
    assert [s.coins for s in state.seats] == [1, 5, 3]
    assert state.bought == ["F03"]
    counter_events = [e for e in state.log if e["t"] == "propose"]
    assert [e["counter"] for e in counter_events] == [None, 1]


def test_counter_refusals() -> None:
    """§4: one counters only a proposal made to oneself, about the same seller."""
    state = _market()
    act(state, 0, Propose(1, ((0, 1),), coins=1))
    act(state, 2, Propose(2, ((0, 1),), coins=1))
    assert_illegal(state, 0, Propose(2, ((0, 1),), coins=2, counter=1), "bad_counter", "§4")
    assert_illegal(state, 0, Propose(1, ((0, 1),), coins=2, counter=1), "bad_counter", "§4")
    assert_illegal(state, 1, Propose(1, ((0, 1),), coins=2, counter=2), "bad_counter", "§4")
    assert_illegal(state, 1, Propose(1, ((0, 1),), coins=2, counter=9), "no_proposal", "§4")
    act(state, 0, Propose(2, ((0, 2),), coins=2, counter=2))
    assert [(p.id, p.proposer, p.seller) for p in state.proposals] == [(1, 0, 1), (3, 0, 2)]


def test_specials_change_hands() -> None:
    """§4: the seller may give special cards from the hand; the active may pay with specials."""
    state = _market()
    act(state, 0, Propose(1, ((1, 1),), seller_glacons=1, coins=1, buyer_arrivages=1))
    act(state, 1, Accept(1))
    assert state.seats[0].hand == ["G01", "G02"]
    assert state.seats[1].hand == ["A01"]
    assert [s.coins for s in state.seats] == [2, 4, 3]
    assert state.bought == ["T01"]
    # A deal of special cards only.
    act(state, 2, Propose(2, (), seller_arrivages=1, coins=2))
    act(state, 0, Accept(2))
    assert state.seats[0].hand == ["G01", "G02", "A02"]
    assert state.seats[2].hand == []
    assert [s.coins for s in state.seats] == [0, 4, 5]
    assert_conserved(state)


def test_withdraw_and_decline() -> None:
    """§4: the proposer withdraws; the other side declines; nobody else may."""
    state = _market()
    act(state, 0, Propose(1, ((0, 1),), coins=1), Propose(2, ((0, 1),), coins=1))
    assert_illegal(state, 1, Withdraw(1), "not_proposer", "§4")
    assert_illegal(state, 2, Withdraw(1), "not_proposer", "§4")
    assert_illegal(state, 0, Decline(1), "not_party", "§4")
    assert_illegal(state, 2, Decline(1), "not_party", "§4")
    act(state, 0, Withdraw(1))
    act(state, 2, Decline(2))
    assert state.proposals == []
    assert [s.coins for s in state.seats] == [3, 3, 3]
    assert_illegal(state, 1, Accept(1), "no_proposal", "§4")
    assert [e["t"] for e in state.log[-2:]] == ["withdraw", "decline"]


def test_bought_fish_left_go_to_hand_at_end_of_turn() -> None:
    """R9, §4: fish bought but not served go to the active player's hand when the turn ends."""
    state = _market()
    act(state, 0, Propose(1, ((0, 2),), coins=2))
    act(state, 1, Accept(1))
    act(state, 0, Serve("C03", ("F03",)))
    assert state.bought == ["F02"]
    fifth_from_top = state.fish_deck[-5]  # turn 2: seat 1 draws 3, seat 2 one, seat 0 one
    act(state, 0, EndTurn())
    assert state.bought == []
    assert state.seats[0].hand == ["G01", "A01", "F02", fifth_from_top]
    assert any(e["t"] == "bought_to_hand" and e["count"] == 1 for e in state.log)
    assert state.phase is Phase.FILL and state.active == 1
    assert_conserved(state)


def test_bought_fish_cannot_serve_next_time() -> None:
    """R9, §3.4: once in the hand, a bought fish never serves straight from it."""
    state = stacked_game(
        2,
        hands=[["G01"], ["G02"]],
        crates=[None, [["T01", "T02"]]],
        queue=["C12", "C03", "C11", "C04"],
        clients_top=["C05", "C06", "C01"],
    )
    fill_and_ready(state)
    act(state, 0, Propose(1, ((0, 1),), coins=1))
    act(state, 1, Accept(1))
    act(state, 0, EndTurn())  # T02 to seat 0's hand
    fill_and_ready(state)
    act(state, 1, EndTurn())
    fill_and_ready(state)  # seat 0 does not put T02 in a crate
    assert state.active == 0 and "T02" in state.seats[0].hand
    assert state.queue == ["C11", "C04", "C05", "C06", "C01"]
    assert_illegal(state, 0, Serve("C11", ("T02",)), "fish_not_usable", "§3.4")


def test_proposal_lapses_when_its_fish_moved() -> None:
    """§4: a proposal lapses when it can no longer be carried out (its crate fish are gone)."""
    state = _market()
    act(state, 0, Propose(1, ((0, 2),), coins=0))
    act(state, 0, Propose(1, ((0, 2),), coins=0))
    act(state, 0, Propose(1, ((0, 1),), coins=0))
    act(state, 1, Accept(1))  # crate 0 of seat 1 now holds 1 fish
    assert [p.id for p in state.proposals] == [3]
    assert [e["proposal"] for e in state.log if e["t"] == "lapse"] == [2]
    act(state, 1, Accept(3))
    assert state.bought == ["F02", "F03", "F01"]


def test_proposal_lapses_when_buyer_lacks_coins() -> None:
    """§4: a proposal lapses once the buyer cannot pay it (after another deal or a crate)."""
    state = _market()
    act(state, 0, Propose(1, ((0, 1),), coins=2), Propose(2, ((0, 1),), coins=2))
    act(state, 2, Accept(2))
    assert state.seats[0].coins == 1
    assert state.proposals == []
    state = _market()
    act(state, 1, Propose(1, ((0, 1),), coins=2))
    act(state, 0, BuyCrate())  # 2 coins: 1 left
    assert state.proposals == []
    assert [e["t"] for e in state.log[-2:]] == ["buy_crate", "lapse"]


def test_proposal_lapses_when_proposer_spent_its_special() -> None:
    """§4, R18: the buyer promised a glaçon, then served with it: accepting finds it lapsed."""
    state = _market()
    act(state, 0, Propose(1, ((0, 1),), buyer_glacons=1))
    act(state, 0, Serve("C03", ("M03",), glacons=("M03",)))
    hands = [list(s.hand) for s in state.seats]
    act(state, 1, Accept(1))
    assert state.proposals == [] and state.bought == []
    assert [list(s.hand) for s in state.seats] == hands
    assert state.seats[1].crates[0].fish == ["F01", "F02", "F03"]
    assert state.log[-1]["t"] == "lapse"


def test_accepting_without_the_specials_asked_is_refused() -> None:
    """§4, R18: the accepting side must hold the specials the deal asks of it."""
    state = _market()
    act(state, 0, Propose(2, ((0, 1),), seller_glacons=1))  # seat 2 holds no glaçon
    assert_illegal(state, 2, Accept(1), "no_special", "§4")
    act(state, 1, Propose(1, ((1, 1),), buyer_arrivages=2))  # seat 1 holds none to offer; asks 2
    assert_illegal(state, 0, Accept(2), "no_special", "§4")


def test_active_never_pays_more_than_held() -> None:
    """§4: neither side may propose a price above the buyer's coins."""
    state = _market(coins0=3)
    assert_illegal(state, 0, Propose(1, ((0, 1),), coins=4), "no_coins", "§4")
    assert_illegal(state, 1, Propose(1, ((0, 1),), coins=4), "no_coins", "§4")
    act(state, 0, Propose(1, ((0, 1),), coins=3))
    act(state, 1, Accept(1))
    assert state.seats[0].coins == 0


def test_no_deal_outside_serve() -> None:
    """§4: deals only while the active player serves."""
    state = stacked_game(2, crates=[None, [["F01"]]], clients_top=["C05"])
    assert_illegal(state, 0, Propose(1, ((0, 1),)), "not_serve", "§4")
    assert_illegal(state, 1, Propose(1, ((0, 1),)), "not_serve", "§4")
    fill_and_ready(state)
    act(state, 0, Propose(1, ((0, 1),), coins=1))
    act(state, 0, EndTurn())  # proposals lapse with the turn
    assert state.proposals == []
    assert_illegal(state, 1, Accept(1), "no_proposal", "§4")


def test_only_the_active_deals() -> None:
    """§4: non-active seats cannot deal with each other; the seller is never the active."""
    state = _market()
    assert_illegal(state, 1, Propose(2, ((0, 1),)), "not_party", "§4")
    assert_illegal(state, 2, Propose(1, ((0, 1),)), "not_party", "§4")
    assert_illegal(state, 0, Propose(0, ((0, 1),)), "bad_seller", "§4")
    assert_illegal(state, 0, Propose(3, ((0, 1),)), "bad_seller", "§4")


def test_proposal_shape_refusals() -> None:
    """§4, R18: only crate fish, within what a crate holds; at least one card; specials held."""
    state = _market()
    assert_illegal(state, 0, Propose(1, (), coins=1), "empty_deal", "§4")
    assert_illegal(state, 0, Propose(1, ((0, 4),)), "fish_not_in_crate", "§4")
    assert_illegal(state, 0, Propose(1, ((0, 0),)), "fish_not_in_crate", "§4")
    assert_illegal(state, 0, Propose(1, ((2, 1),)), "fish_not_in_crate", "§4")
    assert_illegal(state, 0, Propose(1, ((0, 1), (0, 1))), "bad_deal", "§4")
    assert_illegal(state, 0, Propose(1, ((0, 1),), buyer_glacons=2), "no_special", "§4")
    assert_illegal(state, 1, Propose(1, ((0, 1),), seller_arrivages=1), "no_special", "§4")
    # Several crates at once are fine.
    act(state, 0, Propose(1, ((0, 1), (1, 1)), coins=2))
    act(state, 1, Accept(1))
    assert state.bought == ["F03", "T01"]


def test_each_proposal_in_the_view_names_its_answerer_read_alike_everywhere() -> None:
    """R8: the side that did not propose answers. The view carries it (engine.answerer);
    the bots' and the screens' reader, and the table's timeout, read that one answer."""
    state = _market()
    act(state, 0, Propose(1, ((0, 1),), coins=1))  # the buyer (active seat 0) asks seat 1
    act(state, 2, Propose(2, ((0, 1),), coins=1))  # seat 2 offers to the buyer
    for viewer in (None, 0, 1, 2):
        assert [p["answerer"] for p in view_for(state, viewer)["proposals"]] == [1, 0]
    view = view_for(state, 1)
    assert [Offer.read(p).answerer for p in view["proposals"]] == [1, 0]
    assert Seen.read(view).proposals[0].answerer == 1
    snap = TableSnapshot(view)
    assert [int(p["id"]) for p in snap.offers_for_me()] == [1]  # seat 1 answers #1 only
    # The readers take the view's word for it: they compute nothing themselves.
    forged = {**view["proposals"][0], "answerer": 2}
    assert Offer.read(forged).answerer == 2 and snap.answerer(forged) == 2
    # An absent answerer declines when its time runs out (the active seat answers #2).
    match = PoissonnierMatch(state)
    assert match.timeout_action(1) == {"type": "decline", "proposal": 1}
    assert match.timeout_action(0) == {"type": "decline", "proposal": 2}
    assert match.timeout_action(2) is None


def test_open_proposals_are_capped_per_seat() -> None:
    """R26 (RULES.md §10): a seat keeps at most OPEN_PROPOSALS_MAX proposals of its own
    open; one more is refused and changes nothing, legal_actions lists no propose for
    it, the others may still propose, and a withdrawal makes room again."""
    state = _market()
    ask = Propose(1, ((0, 1),), coins=1)
    for _ in range(OPEN_PROPOSALS_MAX):
        act(state, 0, ask)  # the same terms again are no error: each is its own offer
    assert len(state.proposals) == OPEN_PROPOSALS_MAX == 20
    assert_illegal(state, 0, ask, "too_many_proposals", "R26")
    assert_illegal(state, 0, Propose(2, ((0, 1),)), "too_many_proposals", "R26")
    kinds = {type(a) for a in legal_actions(state, 0)}
    assert Propose not in kinds and {EndTurn, Withdraw} <= kinds
    offers = [a for a in legal_actions(state, 2) if isinstance(a, Propose)]
    assert offers  # seat 2's own count is 0: it may still offer to the active player
    act(state, 2, offers[0])
    first = state.proposals[0].id
    act(state, 0, Withdraw(first))
    act(state, 0, ask)
    assert sum(p.proposer == 0 for p in state.proposals) == OPEN_PROPOSALS_MAX
    assert_conserved(state)


def test_a_counter_counts_against_the_cap() -> None:
    """R26: a counter-offer is a proposal of the seat that makes it; at the cap it is
    refused too, and the proposal it would have answered stays open."""
    state = _market()
    for _ in range(OPEN_PROPOSALS_MAX):
        act(state, 1, Propose(1, ((1, 1),), coins=0))  # seat 1 offers its crate 2
    act(state, 0, Propose(1, ((0, 1),), coins=1))
    asked = state.proposals[-1].id
    counter = Propose(1, ((0, 1),), coins=2, counter=asked)
    assert_illegal(state, 1, counter, "too_many_proposals", "R26")
    assert state.proposals[-1].id == asked


def test_no_yes_is_listed_without_the_special_cards_asked() -> None:
    """R18: a seller may ask the buyer for special cards it lacks (asking reveals
    nothing); the buyer's yes is then refused, so legal_actions lists its no alone."""
    state = _market()  # seat 0, the buyer, holds one glaçon
    act(state, 2, Propose(2, ((0, 1),), coins=0, buyer_glacons=2))
    offer = state.proposals[0].id
    answers = [a for a in legal_actions(state, 0) if isinstance(a, Accept | Decline)]
    assert answers == [Decline(offer)]
    assert_illegal(state, 0, Accept(offer), "no_special", "§4")
    act(state, 2, Propose(2, ((0, 1),), coins=0, buyer_glacons=1))  # one it holds
    assert Accept(state.proposals[-1].id) in legal_actions(state, 0)
