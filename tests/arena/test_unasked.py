"""Agents that never act unasked are not asked then (``arena.play.acts_unasked``), and the
games they play are the very same games (RULES.md §4: anyone may offer, nobody must)."""

from __future__ import annotations

from net.game import Agent, Wire
from poissonnier_tui.arena.play import GameRecord, acts_unasked, play_game
from poissonnier_tui.games.poissonnier.bots import make_bot
from poissonnier_tui.games.poissonnier.bots.seen import Seen


class Asked:
    """Wraps a bot: records each call, whether the game waited on the seat then (read from
    the view: the active seat, or the answerer of an open proposal), and the answer."""

    def __init__(self, inner: Agent, *, unasked: bool) -> None:
        self.inner = inner
        self.acts_unasked = unasked
        self.calls: list[tuple[bool, Wire | None]] = []

    def act(self, view: Wire, legal: list[Wire]) -> Wire | None:
        seen = Seen.read(view)
        waited = (
            seen.phase != "serve"
            or seen.is_active
            or any(p.answerer == seen.seat for p in seen.proposals)
        )
        wire = self.inner.act(view, legal)
        self.calls.append((waited, wire))
        return wire


def _game(seed: int, kinds: tuple[str, ...], *, ask_all: bool) -> tuple[GameRecord, list[Asked]]:
    """A game of wrapped bots, each saying it acts unasked (``ask_all``) or saying what its
    bot says."""
    bots = [make_bot(k, seed * 8 + i) for i, k in enumerate(kinds)]
    agents = [Asked(b, unasked=ask_all or acts_unasked(b)) for b in bots]
    return play_game(seed, agents), agents


def test_which_agents_act_unasked() -> None:
    """Greedy passes when not waited on; the levels that offer unasked (easy, medium) and
    agents that say nothing are asked."""
    assert acts_unasked(make_bot("greedy", 1)) is False
    assert acts_unasked(make_bot("medium", 1)) is True
    assert acts_unasked(make_bot("easy", 1)) is True
    assert acts_unasked(make_bot("random", 1)) is True  # no attribute: asked


def test_greedy_passes_every_unasked_chance() -> None:
    """Asked at every chance, the greedy bot never acts unasked: the promise its
    ``acts_unasked`` makes holds in whole games."""
    for seed in (3, 4):
        record, agents = _game(seed, ("greedy", "greedy", "greedy", "greedy"), ask_all=True)
        assert record.finished and record.errors == []
        unasked = [wire for a in agents for waited, wire in a.calls if not waited]
        assert len(unasked) > 50  # the chances were given
        assert unasked == [None] * len(unasked)


def test_skipping_unasked_chances_plays_the_same_game() -> None:
    """Not asking agents that promise to pass gives the same actions, outcome and
    tallies, and asks them only when the game waits on them."""
    kinds = ("greedy", "medium", "greedy", "random")
    asked, asked_agents = _game(9, kinds, ask_all=True)
    skipped, skipped_agents = _game(9, kinds, ask_all=False)
    assert skipped.finished and skipped.errors == []
    same = ("winners", "turns", "actions", "stalls", "result", "seat_counts", "totals")
    assert [getattr(skipped, f) for f in same] == [getattr(asked, f) for f in same]
    for a, s in zip(asked_agents, skipped_agents, strict=True):
        if s.acts_unasked:  # medium and random: asked at every chance in both games
            assert s.calls == a.calls
        else:  # greedy: the waited-on calls alone
            assert s.calls == [c for c in a.calls if c[0]]
            assert len(s.calls) < len(a.calls)
