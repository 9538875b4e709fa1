"""Behaviour of the app's screens and widgets, driven by keys and clicks.

These tests run the real :class:`PoissonnierApp` with one thing swapped: the
table it joins, handed in through its public ``connect`` seam.
:class:`OfflineApp`'s table answers moves with the rules engine in process
(``apply_wire`` then ``view_for`` for our seat), exactly the frames a server
sends, so each scenario starts from a stacked deck (``tests/support/stacking.py``)
and runs without sockets or timing. The real network
path is covered by ``test_app_solo.py``.
"""

from __future__ import annotations

import random
from typing import Any

from links import QueueLink
from links import settle as settle_link
from pilot import until
from stacking import fill_and_ready, stacked_game
from textual.content import Content
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Label
from toasts import KeepsToasts

from net.messages import Ack, ErrorReply, ServerMessage, View
from poissonnier_tui.games.poissonnier.rules.actions import Propose, to_wire
from poissonnier_tui.games.poissonnier.rules.engine import apply, apply_wire, legal_actions
from poissonnier_tui.games.poissonnier.rules.errors import IllegalAction
from poissonnier_tui.games.poissonnier.rules.state import GameState, Phase
from poissonnier_tui.games.poissonnier.rules.view import view_for
from poissonnier_tui.games.poissonnier.ui.screens.deal_dialog import DealDialog, NumberInput
from poissonnier_tui.games.poissonnier.ui.screens.results import ResultsScreen
from poissonnier_tui.games.poissonnier.ui.screens.serve_dialog import ServeDialog
from poissonnier_tui.games.poissonnier.ui.screens.table import TableScreen
from poissonnier_tui.games.poissonnier.ui.widgets.hand import HandView
from poissonnier_tui.games.poissonnier.ui.widgets.my_stall import MyStall
from poissonnier_tui.games.poissonnier.ui.widgets.offers import OffersList
from poissonnier_tui.games.poissonnier.ui.widgets.players import PlayersTable
from poissonnier_tui.games.poissonnier.ui.widgets.status_line import StatusLine
from poissonnier_tui.shell.app import PoissonnierApp
from poissonnier_tui.shell.screens.help import HelpScreen
from poissonnier_tui.shell.screens.quit_dialog import QuitDialog
from poissonnier_tui.shell.session import SoloSession

NAMES = ("Ana", "Bot 1", "Bot 2")


class OfflineApp(KeepsToasts, PoissonnierApp):
    """The real app, joined to a table that is the rules engine in process.

    Its link (:class:`links.QueueLink`, handed in through the app's ``connect``
    seam) answers each move with ``apply_wire`` then ``view_for`` for our seat:
    exactly the frames a table server sends.

    Args:
        state: the game; mutated by the moves.
        seat: the seat this app plays.
    """

    def __init__(self, state: GameState, seat: int | None = 0) -> None:
        self.table = QueueLink(seat, answer=self.answer)
        name = NAMES[seat] if seat is not None else "Cy"
        super().__init__(
            SoloSession(bots=state.players - 1, seed=0, name=name, bot_delay=0),
            connect=self.table.connect,
        )
        self.state = state
        self.my_seat = seat
        self.table.lobby(
            [(NAMES[i], "human" if i == seat else "bot") for i in range(state.players)]
        )
        self.publish()

    @property
    def moves(self) -> list[dict[str, Any]]:
        """Every move this app sent, in order."""
        return self.table.sent

    def publish(self) -> None:
        """Send our seat's view, as the server does after every accepted action."""
        self.table.view(view_for(self.state, self.my_seat))

    def answer(self, seq: int, action: dict[str, Any]) -> list[ServerMessage]:
        """Apply our move with the engine: the ack and the new view, or the refusal."""
        assert self.my_seat is not None, "a spectator sends no moves"
        try:
            apply_wire(self.state, self.my_seat, action)
        except IllegalAction as exc:
            return [ErrorReply(exc.code, exc.sentence, seq, exc.wire_params)]
        self.table.rev += 1
        return [Ack(seq), View(self.table.rev, view_for(self.state, self.my_seat))]

    def other(self, seat: int, action: dict[str, Any]) -> None:
        """Another seat moves (a bot, or a friend across the table)."""
        apply_wire(self.state, seat, action)
        self.publish()


async def settle(pilot: Pilot[None]) -> None:
    """Let moves go out and every frame of the table come in, then refresh."""
    app = pilot.app
    assert isinstance(app, OfflineApp)
    await settle_link(pilot, app.table)


async def press_deal(app: PoissonnierApp, pilot: Pilot[None]) -> DealDialog:
    """Let the table settle, press ``d`` and return the deal dialog it opens (§4)."""
    await settle(pilot)
    await pilot.press("d")
    await settle(pilot)
    dialog = app.screen
    assert isinstance(dialog, DealDialog)
    return dialog


def table(app: PoissonnierApp) -> TableScreen:
    """The table screen (it is under any dialog)."""
    return next(s for s in app.screen_stack if isinstance(s, TableScreen))


def toasts(app: OfflineApp) -> list[tuple[str, str]]:
    """``(severity, title: message)`` of every notification raised so far (kept: Textual
    forgets one after its timeout, which a loaded machine can pass before the check)."""
    return [(n.severity, n.line) for n in app.toasted]


def plain(widget: Widget) -> str:
    """What a widget shows, without styles."""
    return Content.from_markup(str(widget.render())).plain


def fill_state() -> GameState:
    """3 players, fill step of turn 1; seat 0 holds T T F M and a glaçon."""
    return stacked_game(3, hands=[["T01", "T02", "F01", "M01", "G01"], None, None])


def serve_state() -> GameState:
    """2 players, seat 0 serving: crate 1 holds F F; Bot 1's crate 1 holds a T.

    The queue is C03 (F), C16 (M M), C01 (T), ...
    """
    state = stacked_game(
        2,
        hands=[["F01", "F02", "M01"], ["T01", "D01"]],
        queue=["C03", "C16", "C01", "C02"],
        clients_top=["C04"],
    )
    fill_and_ready(state, {0: [(("F01", "F02"), 0)], 1: [(("T01",), 0)]})
    assert state.phase is Phase.SERVE and state.active == 0
    return state


# --- the fill step (RULES.md §3.2) ------------------------------------------------------


async def test_hand_selection_keys() -> None:
    app = OfflineApp(fill_state())
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        hand = table(app).query_one(HandView)
        assert hand.has_focus
        assert hand.selection == ["T01", "T02"]  # the cursor's whole freshness
        await pilot.press("left")
        assert hand.selection == ["T01"]
        await pilot.press("space")
        assert hand.selection == ["T01", "T02"]
        await pilot.press("space")
        assert hand.selection == []
        await pilot.press("down")
        assert hand.selection == ["F01"]
        await pilot.press("down", "down")  # M, then back to T: specials are not rows
        assert hand.code == "T"
        assert "glaçon" in str(hand.render())
        await pilot.press("escape")
        assert hand.selection == []


async def test_partial_selection_survives_other_players_moves() -> None:
    app = OfflineApp(fill_state())
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        hand = table(app).query_one(HandView)
        await pilot.press("left")
        app.other(1, {"type": "ready"})  # a new view arrives: Bot 1 is ready
        await settle(pilot)
        assert app.snapshot is not None and app.snapshot.seat(1)["ready"]
        assert hand.selection == ["T01"]


async def test_place_then_take_back() -> None:
    app = OfflineApp(fill_state())
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        screen = table(app)
        await pilot.press("1")
        await settle(pilot)
        assert app.moves[-1] == {"type": "place", "cards": ["T01", "T02"], "crate": 0}
        assert screen.query_one(MyStall).crate(0).fish == "TT"
        assert "T01" not in app.snapshot.hand  # type: ignore[union-attr]
        # Others see nothing of the draft until everyone is ready (R15).
        assert view_for(app.state, 1)["seats"][0]["crates"] == [""]
        await pilot.press("t")
        assert "Take back which crate" in str(screen.query_one(StatusLine).render())
        await pilot.press("1")
        await settle(pilot)
        assert app.moves[-1] == {"type": "take_back", "crate": 0}
        assert screen.query_one(MyStall).crate(0).fish == ""
        assert {"T01", "T02"} <= set(app.snapshot.hand)  # type: ignore[union-attr]


async def test_refused_move_shows_the_servers_reason() -> None:
    app = OfflineApp(fill_state())
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        await pilot.press("1", "down", "1")  # T T in crate 1, then F into the same crate
        await settle(pilot)
        assert app.last_error is not None and app.last_error.code == "mixed_crate"
        assert ("error", "Not allowed: a crate holds fish of one freshness only (§3.2)") in toasts(
            app
        )
        await pilot.press("3")  # a crate we do not own
        await settle(pilot)
        assert app.last_error.code == "bad_crate"
        assert isinstance(app.screen, TableScreen)  # no traceback, no exit


async def test_ready_and_unready() -> None:
    app = OfflineApp(fill_state())
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        screen = table(app)
        assert "r" in screen.active_bindings
        await pilot.press("r")
        await settle(pilot)
        assert app.state.seats[0].ready
        players = screen.query_one(PlayersTable)
        assert str(players.get_cell_at((0, 6))) == "ready ✓"
        assert "You are ready" in str(screen.query_one(StatusLine).render())
        assert screen.active_bindings["r"].binding.action == "unready"
        assert "1" not in screen.active_bindings  # nothing to place once ready
        await pilot.press("r")
        await settle(pilot)
        assert not app.state.seats[0].ready


async def test_click_a_crate_places_the_selection() -> None:
    app = OfflineApp(fill_state())
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        await pilot.click("#crate-1")
        await settle(pilot)
        assert app.moves[-1] == {"type": "place", "cards": ["T01", "T02"], "crate": 0}
        await pilot.press("escape")  # clear the selection (now on the F row)
        await pilot.click("#crate-1")  # with nothing selected, a click takes the fish back
        await settle(pilot)
        assert app.moves[-1] == {"type": "take_back", "crate": 0}


async def test_footer_shows_only_keys_that_apply() -> None:
    app = OfflineApp(serve_state(), seat=1)  # Bot 1's view: not our turn
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        keys = table(app).active_bindings
        assert "s" not in keys and "e" not in keys and "1" not in keys
        assert "d" in keys  # we may offer fish to the active player (§4)
        assert "is serving" in str(table(app).query_one(StatusLine).render())


# --- serving (RULES.md §3.4, §6) ---------------------------------------------------------


async def test_serve_dialog_lists_ways_and_enter_serves() -> None:
    app = OfflineApp(serve_state())
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        await pilot.press("s")
        assert "Serve which client" in str(table(app).query_one(StatusLine).render())
        await pilot.press("1")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ServeDialog) and dialog.client_id == "C03"
        assert [o.action for o in dialog.options] == [
            {"type": "serve", "client": "C03", "fish": ["F01"], "glacons": [], "arrivages": []}
        ]
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        assert app.state.seats[0].clients == ["C03"]
        assert app.state.seats[0].coins == 3 + 2


async def test_unservable_client_suggests_a_deal() -> None:
    app = OfflineApp(serve_state())
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        await pilot.press("s", "3")  # C01 wants a très frais: we have none
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ServeDialog) and not dialog.options
        assert dialog.suggestion is not None and dialog.suggestion.seller == 1
        assert dialog.suggestion.fish == ((0, 1),)
        await pilot.press("d")
        await settle(pilot)
        deal = app.screen
        assert isinstance(deal, DealDialog)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        (proposal,) = app.state.proposals
        assert proposal.seller == 1 and proposal.fish == [(0, 1, "T")]
        assert table(app).query_one(OffersList).option_count == 1


def market3_state() -> GameState:
    """3 players, seat 0 serving with F F; seat 1's crate holds a T, seat 2's an M.

    The queue is C03 (F), C16 (M M), C01 (T), ...
    """
    state = stacked_game(
        3, hands=[["F01", "F02"], ["T01"], ["M01"]], queue=["C03", "C16", "C01", "C02"],
        clients_top=["C04"],
    )  # fmt: skip
    fill_and_ready(state, {0: [(("F01", "F02"), 0)], 1: [(("T01",), 0)], 2: [(("M01",), 0)]})
    assert state.phase is Phase.SERVE and state.active == 0
    return state


async def test_page_keys_pick_the_seller_in_the_deal_dialog() -> None:
    """§4: asking, PgDn/PgUp change the seller without leaving the focused number, whose
    rows then show the new seller's crates; ↑ sets a count; Enter proposes."""
    app = OfflineApp(market3_state())
    async with app.run_test(size=(160, 50)) as pilot:
        dialog = await press_deal(app, pilot)
        assert dialog.draft.seller == 1
        assert "pagedown" in dialog.active_bindings
        await pilot.press("pagedown")
        await settle(pilot)
        assert dialog.draft.seller == 2
        assert "crate 1" in str(dialog.query_one("#crate-label-0", Label).render())
        dialog.action_seller(-1)  # two presses handled before the change message: 2 → 1 → 2
        dialog.action_seller(-1)
        await settle(pilot)
        assert dialog.draft.seller == 2
        await pilot.press("up", "enter")
        await settle(pilot)
        (proposal,) = app.state.proposals
        assert proposal.seller == 2 and proposal.fish == [(0, 1, "M")]


async def test_deal_dialog_numbers_take_digits_only() -> None:
    """A count or price is never below 0 (§4): a typed sign or letter is not taken."""
    app = OfflineApp(market3_state())
    async with app.run_test(size=(160, 50)) as pilot:
        await press_deal(app, pilot)
        field = app.focused
        assert isinstance(field, NumberInput)
        await pilot.press("minus", "x", "2")
        assert field.value.lstrip("0") == "2"


async def test_deal_dialog_at_80x24_shows_the_field_being_edited() -> None:
    """With three players the dialog lists the stalls and a seller; at 80×24 the crate
    row in focus is still in sight, between the seller's list and the docked summary."""
    app = OfflineApp(market3_state())
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await press_deal(app, pilot)
        field = app.focused
        assert isinstance(field, NumberInput) and field.id == "crate-0"
        assert field.region.y > dialog.query_one("#seller").region.bottom - 1
        assert field.region.bottom <= dialog.query_one("#outcome").region.y


async def test_click_on_a_client_opens_the_serve_dialog() -> None:
    app = OfflineApp(serve_state())
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        await pilot.click("#client-1")
        await settle(pilot)
        assert isinstance(app.screen, ServeDialog)
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)


async def test_end_turn() -> None:
    app = OfflineApp(serve_state())
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        assert app.state.active == 1
        assert "e" not in table(app).active_bindings


# --- deals (RULES.md §4) -------------------------------------------------------------------


async def test_several_offers_for_you_the_one_shown_stays_named_until_you_move() -> None:
    """Two unasked offers arrive (§4): the first stays highlighted and named by the status
    line (a newer one never takes the answer keys from the offer shown), which counts
    the other; picking the other one in the list makes the status line follow it, and
    ``a`` answers the one named."""
    app = OfflineApp(market3_state())
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        app.other(1, to_wire(Propose(seller=1, fish=((0, 1),), coins=2)))  # #1: a T
        await settle(pilot)
        app.other(2, to_wire(Propose(seller=2, fish=((0, 1),), coins=1)))  # #2: an M
        await settle(pilot)
        screen = table(app)
        offers = screen.query_one(OffersList)
        assert offers.highlighted_option is not None and offers.highlighted_option.id == "1"
        status = plain(screen.query_one(StatusLine))
        assert "Offer #1 awaits your answer" in status and "1 more for you" in status
        await pilot.press("tab")
        await settle(pilot)
        assert offers.has_focus
        await pilot.press("down")
        await settle(pilot)
        assert offers.highlighted_option is not None and offers.highlighted_option.id == "2"
        assert "Offer #2 awaits your answer" in plain(screen.query_one(StatusLine))
        await pilot.press("up")
        await settle(pilot)
        assert offers.highlighted_option is not None and offers.highlighted_option.id == "1"
        assert "Offer #1 awaits your answer" in plain(screen.query_one(StatusLine))
        await pilot.press("a")
        await settle(pilot)
        assert app.state.bought == ["T01"] and app.state.seats[0].coins == 3 - 2


async def test_a_new_fill_step_gives_the_keys_back_to_the_hand() -> None:
    """Left on the offers list during a serve, the focus returns to the hand when the next
    fill step begins, so ↑↓ and the crate numbers pick fish again (§3.2)."""
    app = OfflineApp(serve_state())
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        await pilot.press("tab")
        await settle(pilot)
        screen = table(app)
        assert screen.query_one(OffersList).has_focus
        await pilot.press("e")  # end the turn: the next turn opens with its fill step
        await settle(pilot)
        assert app.state.phase is Phase.FILL and app.state.active == 1
        assert screen.query_one(HandView).has_focus


def offers_pane(app: PoissonnierApp) -> str:
    """The offers pane's text, one option after another."""
    options = table(app).query_one(OffersList).options
    return "\n".join(Content.from_markup(str(o.prompt)).plain for o in options)


async def test_accept_an_offer_made_to_you() -> None:
    app = OfflineApp(serve_state())
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        app.other(1, to_wire(Propose(seller=1, fish=((0, 1),), coins=2)))
        await until(pilot, lambda: "▶ #1" in offers_pane(app))  # the view has been shown
        assert not any("Offer #" in message for _, message in toasts(app))  # no toast
        assert "for you: a accept · x decline · c counter" in offers_pane(app)
        assert "awaits your answer" in str(table(app).query_one(StatusLine).render())
        await pilot.press("a")
        await until(pilot, lambda: table(app).query_one("#bought").display)  # shown once bought
        assert app.state.bought == ["T01"] and app.state.seats[0].coins == 1
        assert "Bought this turn" in str(table(app).query_one("#bought").render())


async def open_counter(app: OfflineApp, pilot: Pilot[None]) -> DealDialog:
    """Bot 1 offers its T for 3 coins (offer #1); we press ``c`` to counter it."""
    await settle(pilot)
    app.other(1, to_wire(Propose(seller=1, fish=((0, 1),), coins=3)))
    await settle(pilot)
    await pilot.press("c")
    await settle(pilot)
    dialog = app.screen
    assert isinstance(dialog, DealDialog) and dialog.mode == "counter"
    return dialog


async def test_counter_an_offer_with_edited_terms() -> None:
    app = OfflineApp(serve_state())
    async with app.run_test(size=(160, 50)) as pilot:
        dialog = await open_counter(app, pilot)
        assert dialog.query_one("#coins").has_focus  # a counter haggles over the price
        await pilot.press("down")  # ↓ takes one coin off: 2
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        (proposal,) = app.state.proposals
        assert proposal.proposer == 0 and proposal.coins == 2


async def test_a_counter_dialog_closes_when_the_offer_is_withdrawn() -> None:
    """R8: Bot 1 withdraws its offer while we write our counter: the dialog closes and says
    why, instead of sending a counter the table would refuse."""
    app = OfflineApp(serve_state())
    async with app.run_test(size=(160, 50)) as pilot:
        await open_counter(app, pilot)
        app.other(1, {"type": "withdraw", "proposal": 1})
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        assert (
            "warning",
            "Dialog closed: Offer #1 is no longer open (withdrawn or answered).",
        ) in (toasts(app))
        assert app.moves == []  # nothing was sent


async def test_a_serve_dialog_closes_when_the_turn_ends() -> None:
    """§3.4: only the active player serves; a serve dialog open when the turn passes (a
    table time limit, R6) closes and says why."""
    app = OfflineApp(serve_state())
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        await pilot.press("s", "1")
        await until(pilot, lambda: isinstance(app.screen, ServeDialog))
        apply_wire(app.state, 0, {"type": "end_turn"})  # as the table's timeout would
        app.publish()
        await until(pilot, lambda: isinstance(app.screen, TableScreen))  # the view came
        assert any(
            message.startswith("Dialog closed: Your turn is over") for _, message in (toasts(app))
        )


async def test_deal_dialog_refuses_impossible_terms() -> None:
    app = OfflineApp(serve_state())
    async with app.run_test(size=(160, 50)) as pilot:
        dialog = await press_deal(app, pilot)
        await pilot.press("enter")  # nothing asked yet
        await settle(pilot)
        assert isinstance(app.screen, DealDialog)
        await pilot.press("5")  # 05: more fish than the crate holds
        await settle(pilot)
        assert dialog.problem(dialog.draft) == "Crate 1 holds only 1 fish."
        assert dialog.query_one("#propose").disabled
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen) and not app.state.proposals


# --- help, quit, results -------------------------------------------------------------------------


async def test_help_and_quit_confirmation() -> None:
    app = OfflineApp(fill_state())
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("f1")
        assert isinstance(app.screen, TableScreen)
        await pilot.press("ctrl+q")
        await settle(pilot)
        assert isinstance(app.screen, QuitDialog)
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, TableScreen) and app.is_running
        await pilot.press("ctrl+q", "y")
        await settle(pilot)
    assert not app.is_running


def finished_game(seed: int = 4) -> GameState:
    """A whole 3-player game played with the engine's legal moves (serve when possible)."""
    state = stacked_game(3, seed=seed, fish_deck_size=12)
    rng = random.Random(seed)
    while state.phase is not Phase.OVER:
        for seat in [*sorted(set(range(3)) - {state.active}), state.active]:
            actions = legal_actions(state, seat)
            kinds = {type(a).__name__: a for a in actions}
            for kind in ("Place", "Serve", "Ready", "Decline", "EndTurn"):
                if kind in kinds:
                    move = rng.choice([a for a in actions if type(a).__name__ == kind])
                    apply(state, seat, move)
                    break
            if state.phase is Phase.OVER:
                break
    return state


async def test_results_screen_lists_winners_and_steps() -> None:
    state = finished_game()
    app = OfflineApp(state)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ResultsScreen)
        result = state.result
        assert result is not None
        banner = str(screen.query_one("#banner").render())
        if result["shared"]:
            assert "poissonnerie ensemble" in banner
        else:
            assert NAMES[result["winners"][0]].replace("Ana", "You") in banner
        steps = screen.query(".step")
        assert len(steps) == len(result["steps"])
        assert screen.query_one("#scores").row_count == 3
        await pilot.press("escape")  # back to the final table; Enter returns
        assert isinstance(app.screen, TableScreen)
        assert "Game over" in str(app.screen.query_one(StatusLine).render())
        await pilot.press("enter")
        assert isinstance(app.screen, ResultsScreen)


async def test_offer_fish_to_the_active_player_then_withdraw() -> None:
    app = OfflineApp(serve_state(), seat=1)  # Bot 1's seat, while seat 0 serves
    async with app.run_test(size=(160, 50)) as pilot:
        dialog = await press_deal(app, pilot)
        assert dialog.mode == "offer"
        assert dialog.draft.seller == 1
        await pilot.press("1", "tab", "tab", "tab", "4")  # 1 fish from crate 1, for 4 coins
        await settle(pilot)
        assert dialog.draft.fish == ((0, 1),)
        assert dialog.problem(dialog.draft) == "Ana has only 3 coins (§4)."
        dialog.query_one("#coins").focus()
        await pilot.press("down")
        await pilot.press("enter")
        await settle(pilot)
        (proposal,) = app.state.proposals
        assert (proposal.proposer, proposal.seller, proposal.coins) == (1, 1, 3)
        offers = table(app).query_one(OffersList)
        assert "x withdraw" in str(offers.get_option_at_index(0).prompt)
        assert table(app).active_bindings["x"].binding.action == "withdraw"
        await pilot.press("x")
        await settle(pilot)
        assert not app.state.proposals


async def test_click_a_crate_of_another_stall_asks_for_its_fish() -> None:
    app = OfflineApp(serve_state())
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        stalls = table(app).query_one("#others")
        text = Content.from_markup(str(stalls.render())).plain
        # Crates drawn as boxes: Bot 1's crate 1 is the first box, its chips on the 2nd line.
        row, line = next((i, ln) for i, ln in enumerate(text.splitlines()) if "│" in ln)
        x = line.index("│") + 1  # the chips of Bot 1's crate 1
        await pilot.click("#others", offset=(x + 2, row + 1))  # + border and padding
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, DealDialog) and dialog.mode == "ask"
        assert dialog.draft.seller == 1 and dialog.draft.fish == ((0, 1),)


async def test_click_a_chip_selects_that_many() -> None:
    app = OfflineApp(stacked_game(3, hands=[["M01", "M02", "M03", "D01"], None, None]))
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        hand = table(app).query_one(HandView)
        assert hand.selection == ["M01", "M02", "M03"]
        # Row 0 reads "▶ mangeable   M   M   M": chips start after 1 + 1 + 11 + 1 cells.
        await pilot.click(HandView, offset=(2 + 14 + 4 + 1, 1))  # the 2nd chip
        assert hand.selection == ["M01", "M02"]


async def test_spectator_sees_no_hand_and_no_keys_to_play() -> None:
    state = serve_state()
    app = OfflineApp(state, seat=None)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        screen = table(app)
        assert not screen.query_one(HandView).display
        assert not screen.query_one(MyStall).display
        keys = screen.active_bindings
        assert not {"s", "d", "e", "r", "a"} & set(keys)
        assert "Ana is serving…" in plain(screen.query_one(StatusLine))


async def test_the_log_wraps_again_when_the_window_narrows() -> None:
    """A log line wrapped at 160 columns is wrapped again at 120: nothing is cut off."""
    from poissonnier_tui.games.poissonnier.ui.widgets.game_log import GameLog

    app = OfflineApp(serve_state())
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        app.other(1, to_wire(Propose(seller=1, fish=((0, 1),), coins=2)))  # a long sentence
        await settle(pilot)
        log = table(app).query_one(GameLog)
        wide = "".join(strip.text for strip in log.lines)
        await pilot.resize_terminal(120, 36)
        await settle(pilot)
        width = log.scrollable_content_region.width
        assert width < 60 and all(strip.cell_length <= width for strip in log.lines)
        narrow = "".join(strip.text for strip in log.lines)
        assert narrow.replace(" ", "") == wide.replace(" ", "")  # the same words, rewrapped


def test_status_line_counts_down_the_step_time_limit() -> None:
    """R6: the time left of a table's fill-step limit shows beside the status, for all."""
    import time

    from poissonnier_tui.games.poissonnier.rules.engine import new_game
    from poissonnier_tui.games.poissonnier.ui.snapshot import TableSnapshot
    from poissonnier_tui.games.poissonnier.ui.widgets.status_line import StatusLine

    state = new_game(3, 2)
    line = StatusLine()
    line.snapshot = TableSnapshot(view_for(state, None), (), 0, time.monotonic() + 11.5)
    assert line.countdown() == "  [b]⏱ 12 s left[/b]"
    line.snapshot = TableSnapshot(view_for(state, None), (), 0, time.monotonic() - 3.0)
    assert line.countdown() == "  [b]⏱ 0 s left[/b]"
    line.snapshot = TableSnapshot(view_for(state, 0), (), 0)  # no limit at this table
    assert line.countdown() == ""
