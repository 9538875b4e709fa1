"""One headless game between agents, on any registered game's match (no network).

:func:`play_game` drives a :class:`net.game.Match` the way a table drives its
bot seats, so a game played here is the game a table would play. Each agent
is handed only what a table hands a bot seat: ``match.view(seat)`` and the
seat's ``match.legal_actions(seat)`` (docs/ARCHITECTURE.md "one door"), never
the match.

The loop follows ``waiting_on``:

* first, each seat the game does not wait on (``volunteers``) gets one chance
  per state to act unasked (Le Poissonnier: offer a deal, RULES.md §4); the
  first to act wins the round; unasked chances keep nobody waiting, so they
  are timed only when the seat acts; an agent that says it never acts unasked
  (:func:`acts_unasked`) is not given them, which changes nothing but the time
  spent building views it would pass on;
* then the waiting seats are asked in the game's order (:class:`AskOrder`,
  default: seat order); the first action ends the round, unless the game asks
  in rounds (every waiting seat once, e.g. Le Poissonnier's fill step, §3.2).

An action the game refuses counts as an error (its message is recorded) and
the seat is then given the table's default (``Match.timeout_action``). When
no waiting seat acts at all (every bot passes), the first one asked gets that
default too and the game counts a *stall*. A game reaching
:data:`MAX_ACTIONS` actions is stopped and counts as an error.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from net.game import ActionRejected, Agent, Match, Wire
from poissonnier_tui.games import DEFAULT_GAME, GameEntry, game_entry
from poissonnier_tui.i18n import _, ngettext

MAX_ACTIONS = 5000
"""Actions one game may take before it is stopped as an error (a bot gone round in circles)."""


@runtime_checkable
class AskOrder(Protocol):
    """How a table asks the seats it waits on (optional for a game's match)."""

    def ask_order(self) -> list[int]:
        """The seats waited on, in the order to ask them."""
        ...

    def asks_in_rounds(self) -> bool:
        """``True``: every waiting seat acts once per round; ``False``: the first
        action ends the round (the order is worked out again)."""
        ...


@runtime_checkable
class PlayCounts(Protocol):
    """A game's own tallies of a finished (or stopped) match (optional for a game)."""

    def play_counts(self) -> dict[str, list[int]]:
        """Per seat, counts of the game's notable moves (e.g. ``{"deals": [2, 1, 1]}``)."""
        ...

    def play_totals(self) -> dict[str, int]:
        """Game-wide counts (e.g. ``{"deals": 2, "clients_served": 27}``)."""
        ...


def tally_word(game: str, key: str) -> str:
    """The words for the tally ``key`` of ``game`` (a score or play count, e.g.
    ``"clients_served"``) in the current language, from its entry's ``tallies``;
    the key itself, underscores as spaces, when the game does not name it."""
    try:
        words = game_entry(game).tallies.get(key)
    except ValueError:  # a game this app does not have
        words = None
    return _(words) if words else key.replace("_", " ")


def check_lineup(entry: GameEntry, players: int, kinds: Sequence[str]) -> None:
    """Check a lineup of bot levels for ``players`` seats of ``entry``'s game.

    Raises:
        ValueError: ``players`` outside the game's seat limits, not one level
            per seat, or a level the game does not have (each names the game).
    """
    if not entry.min_seats <= players <= entry.max_seats:
        raise ValueError(
            _("{game} is for {low} to {high} players, not {n}").format(
                game=entry.title, low=entry.min_seats, high=entry.max_seats, n=players
            )
        )
    if len(kinds) != players:
        raise ValueError(
            ngettext(
                "{kinds} bot kinds given for {n} seat",
                "{kinds} bot kinds given for {n} seats",
                players,
            ).format(kinds=len(kinds), n=players)
        )
    for kind in kinds:
        if kind not in entry.bot_kinds:
            raise ValueError(
                _("unknown bot kind {kind} for {game}; choose from {kinds}").format(
                    kind=repr(kind), game=entry.title, kinds=", ".join(entry.bot_kinds)
                )
            )


def entry_of(game: GameEntry | str) -> GameEntry:
    """The registry entry for ``game`` (an entry, or a registered game's name).

    Raises:
        ValueError: no such game.
    """
    return game_entry(game) if isinstance(game, str) else game


@dataclass(slots=True)
class GameRecord:
    """The outcome of one headless game.

    Attributes:
        seed: the game's seed (R3).
        finished: the game reached its end.
        turns: the turn number its public view shows at the end (0 if none).
        winners: winning seats (several for a shared victory); empty if unfinished.
        shared: a shared victory.
        stalls: rounds where no waiting seat acted and the default was applied.
        actions: actions applied, defaults included.
        errors: one message per refused action (or the action cap).
        decision_seconds: wall time spent in each ``act`` call.
        result: the match's result map (with ``winners`` and ``scores`` when the
            game gives them).
        seat_seconds: per seat, the wall time of each of its ``act`` calls.
        seat_cpu: per seat, the CPU time (this thread, one core) of each of its ``act`` calls.
        seat_errors: per seat, actions refused by the game.
        seat_counts: per seat, the game's own tallies (:class:`PlayCounts`), e.g.
            ``{"deals": [...], "proposals": [...]}``; empty for a game without them.
        totals: the game's game-wide tallies (:class:`PlayCounts`), e.g.
            ``{"clients_served": 27, "deals": 3}``.
    """

    seed: int
    finished: bool = False
    turns: int = 0
    winners: list[int] = field(default_factory=list)
    shared: bool = False
    stalls: int = 0
    actions: int = 0
    errors: list[str] = field(default_factory=list)
    decision_seconds: list[float] = field(default_factory=list)
    result: dict[str, Any] | None = None
    seat_seconds: list[list[float]] = field(default_factory=list)
    seat_cpu: list[list[float]] = field(default_factory=list)
    seat_errors: list[int] = field(default_factory=list)
    seat_counts: dict[str, list[int]] = field(default_factory=dict)
    totals: dict[str, int] = field(default_factory=dict)


def acts_unasked(agent: Agent) -> bool:
    """Whether ``agent`` may act when the game does not wait on it (an unasked offer).

    Its ``acts_unasked`` attribute when it has one: an agent setting it to
    ``False`` promises to pass whenever it is not waited on, and to change no
    state of its own by such a call, so :func:`play_game` need not ask it then.
    ``True`` for an agent without the attribute.
    """
    return getattr(agent, "acts_unasked", True) is not False


def winners_of(result: dict[str, Any]) -> list[int]:
    """The winning seats of a result map: its ``winners`` list, or its single ``winner``."""
    winners = result.get("winners")
    if isinstance(winners, list):
        return [w for w in winners if isinstance(w, int)]
    winner = result.get("winner")
    return [winner] if isinstance(winner, int) and not isinstance(winner, bool) else []


def _turn(match: Match) -> int:
    """The public view's turn number (0 when the game shows none)."""
    turn = match.view(None).get("turn")
    return turn if isinstance(turn, int) and not isinstance(turn, bool) else 0


def play_game(
    seed: int,
    agents: Sequence[Agent],
    *,
    game: GameEntry | str = DEFAULT_GAME,
    options: dict[str, Any] | None = None,
    max_actions: int = MAX_ACTIONS,
) -> GameRecord:
    """Play one game between ``agents`` (seat i is ``agents[i]``) on the game's match.

    Args:
        seed: the game's seed (R3).
        agents: one per seat, within the game's seat limits; each is handed
            only its seat's view and legal actions.
        game: the game (its entry or registry name).
        options: the game's table options (``new_match``).
        max_actions: the safety cap; a game reaching it is stopped and
            records an error.

    Returns:
        The :class:`GameRecord`.

    Raises:
        ValueError: an unknown game, or seats or options the game refuses.
    """
    entry = entry_of(game)
    match = entry.definition.new_match(seed, len(agents), options or {})
    n = len(agents)
    record = GameRecord(
        seed=seed,
        seat_seconds=[[] for _ in range(n)],
        seat_cpu=[[] for _ in range(n)],
        seat_errors=[0] * n,
    )
    pacing = match if isinstance(match, AskOrder) else None
    unasked = [acts_unasked(agent) for agent in agents]
    any_unasked = any(unasked)

    def default(seat: int, why: str) -> None:
        wire = match.timeout_action(seat)
        if wire is None:
            record.errors.append(f"seed {seed} turn {_turn(match)} seat {seat}: no default ({why})")
            return
        match.apply(seat, wire)
        record.actions += 1

    def ask(seat: int, *, waited: bool) -> Wire | None:
        """The seat's agent's choice; timed when the table waits on it."""
        view = match.view(seat)
        legal = match.legal_actions(seat)
        start = time.perf_counter()
        cpu = time.thread_time()
        wire = agents[seat].act(view, legal)
        if waited or wire is not None:
            record.seat_cpu[seat].append(time.thread_time() - cpu)
            elapsed = time.perf_counter() - start
            record.decision_seconds.append(elapsed)
            record.seat_seconds[seat].append(elapsed)
        return wire

    def play(seat: int, wire: Wire) -> bool:
        """Apply ``wire`` for ``seat``; an illegal action is recorded. True if applied."""
        try:
            match.apply(seat, wire)
            record.actions += 1
            return True
        except ActionRejected as exc:
            record.seat_errors[seat] += 1
            record.errors.append(
                f"seed {seed} turn {_turn(match)} seat {seat} "
                f"({type(agents[seat]).__name__}): {exc.message} — action {wire!r}"
            )
            return False

    offered_at: dict[int, int] = {}  # seat -> actions count when last given the chance
    while not match.is_over:
        if record.actions >= max_actions:
            record.errors.append(f"seed {seed}: stopped after {max_actions} actions (safety cap)")
            break
        # Unasked moves first: each seat the game does not wait on gets one chance
        # per state, as a live table asks its idle bots after each change.
        offered = False
        for seat in sorted(match.volunteers()) if any_unasked else ():
            if not unasked[seat] or offered_at.get(seat) == record.actions:
                continue
            offered_at[seat] = record.actions
            wire = ask(seat, waited=False)
            if wire is not None:
                play(seat, wire)  # refused: recorded, and nobody waits on this seat
                offered = True
                break
        if offered:
            continue
        order = pacing.ask_order() if pacing is not None else sorted(match.waiting_on())
        acted = False
        for seat in order:
            if match.is_over or seat not in match.waiting_on():
                break
            wire = ask(seat, waited=True)
            if wire is None:
                continue
            acted = True
            if not play(seat, wire):
                default(seat, "after an illegal action")
            if pacing is None or not pacing.asks_in_rounds():
                break  # re-plan: the order may have changed
        if not acted and not match.is_over and order:
            record.stalls += 1
            default(order[0], "every waiting seat passed")
    result = match.result()
    if match.is_over and result is not None:
        record.finished = True
        record.result = dict(result)
        record.winners = winners_of(record.result)
        record.shared = bool(record.result.get("shared", len(record.winners) > 1))
    record.turns = _turn(match)
    if isinstance(match, PlayCounts):
        record.seat_counts = match.play_counts()
        record.totals = match.play_totals()
    return record
