"""The results screen when the host proposes a rematch, for a seated guest and a spectator.

The app joins a table the test plays (``links.QueueLink``): a finished seeded
game brings the results screen; then ``rematch`` frames say who accepted and
who is awaited. The panel lists every seat with its answer, the footer offers
``a``/``x`` only while our answer is awaited, ``a`` sends the answer, and a
spectator sees the list without the keys.
"""

from __future__ import annotations

from links import QueueLink, settle
from pilot import until
from test_snapshots_dialogs import finished
from textual.widgets import Static

from net.messages import RematchState
from poissonnier_tui.games.poissonnier.rules.view import view_for
from poissonnier_tui.games.poissonnier.ui.screens.results import ResultsScreen
from poissonnier_tui.shell.app import PoissonnierApp
from poissonnier_tui.shell.screens.rematch_panel import RematchPanel
from poissonnier_tui.shell.session import JoinSession

NAMES = [("Hana", "human"), ("Ben", "human"), ("Cleo", "human")]


def panel_text(app: PoissonnierApp) -> str:
    panel = app.screen.query_one(RematchPanel)
    return str(panel.render()) if panel.display else ""


def footer_keys(app: PoissonnierApp) -> set[str]:
    """The keys the footer offers now."""
    return {
        binding.key
        for (_node, binding, enabled, _tip) in app.screen.active_bindings.values()
        if enabled and binding.show
    }


async def test_a_guest_sees_the_proposal_answers_with_a_and_sees_who_is_awaited() -> None:
    link = QueueLink(1)
    app = PoissonnierApp(JoinSession("offline", 1, name="Ben"), connect=link.connect)
    state = finished(4, 3)
    async with app.run_test(size=(80, 24)) as pilot:
        link.lobby(NAMES)
        link.view(view_for(state, 1))
        await until(pilot, lambda: isinstance(app.screen, ResultsScreen))
        assert panel_text(app) == ""  # nothing proposed: no panel, no answer keys
        assert {"a", "x"}.isdisjoint(footer_keys(app))

        link.push(RematchState(("yes", "waiting", "waiting")))
        await settle(pilot, link)
        text = panel_text(app)
        assert "Play again?" in text
        assert "✓ Hana — accepted" in text
        assert "… Ben (you) — awaited" in text and "… Cleo — awaited" in text
        assert "a accepts, x declines." in text
        assert {"a", "x"} <= footer_keys(app)
        assert not {"n", "b", "o"} & footer_keys(app)  # the host's keys are not ours

        await pilot.press("a")
        await until(pilot, lambda: link.rematch_answers == [True])
        link.push(RematchState(("yes", "yes", "no")))
        await settle(pilot, link)
        text = panel_text(app)
        assert "✓ Ben (you) — accepted" in text and "✗ Cleo — declined" in text
        assert "Waiting for the host to start the rematch…" in text
        assert {"a", "x"}.isdisjoint(footer_keys(app))  # answered: no second answer
        await pilot.press("x")
        await settle(pilot, link)
        assert link.rematch_answers == [True]

        link.push(RematchState(None))  # withdrawn: the panel goes
        await settle(pilot, link)
        assert panel_text(app) == ""


async def test_a_spectator_sees_who_accepted_without_answer_keys() -> None:
    link = QueueLink(None)
    app = PoissonnierApp(
        JoinSession("offline", 1, name="Sue", role="spectator"), connect=link.connect
    )
    state = finished(4, 3)
    async with app.run_test(size=(80, 24)) as pilot:
        link.lobby(NAMES)
        link.view(view_for(state, None))
        await until(pilot, lambda: isinstance(app.screen, ResultsScreen))
        link.push(RematchState(("yes", "away", "waiting")))
        await settle(pilot, link)
        text = panel_text(app)
        assert "⌁ Ben — left the table" in text and "… Cleo — awaited" in text
        assert "Waiting for the host to start the rematch…" in text
        assert {"a", "x", "n", "b", "o"}.isdisjoint(footer_keys(app))
        assert app.screen.query_one("#banner", Static).region.y < app.screen.query_one(
            RematchPanel
        ).region.y
