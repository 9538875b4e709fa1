"""``tournament``: seat-rotated games between bot levels of one game, per entrant.

:func:`tournament` plays a lineup of bots on shared shuffles, each deal in
every seating (:func:`tournament_schedule`), on
:func:`poissonnier_tui.arena.play.play_game`, and reports per entrant
(:class:`TournamentReport`): win rate with a 95 % Wilson interval, the mean of
each numeric field of the result's ``scores`` (Le Poissonnier: coins, clients,
stamps; Go Fish: books), the game's own per-seat tallies (Le Poissonnier:
deals, proposals, counters), decision times and refused actions.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from poissonnier_tui import collector
from poissonnier_tui.arena.play import (
    GameRecord,
    check_lineup,
    entry_of,
    play_game,
    tally_word,
)
from poissonnier_tui.arena.stats import game_seeds, means, percentile, seat_scores, wilson_interval
from poissonnier_tui.games import DEFAULT_GAME, GameEntry
from poissonnier_tui.i18n import _, decimal, ngettext


@dataclass(slots=True)
class EntrantStats:
    """One bot of a tournament lineup, over all its games.

    Attributes:
        label: the kind, numbered when a kind appears more than once (``"easy#2"``).
        kind: the bot level (one of the game's ``bot_kinds``).
        games: finished games played.
        wins: win credits: 1 for a victory, ``1/k`` for a victory shared by k.
        win_rate: ``wins / games``.
        ci_low / ci_high: the 95 % Wilson interval of the win rate.
        scores: the mean of each numeric field of its seat's final score over
            its finished games (Le Poissonnier: ``coins``, ``clients``, ``stamps``,
            RULES.md §8).
        counts: the game's per-seat tallies summed over all its games
            (Le Poissonnier: ``deals`` as buyer or seller, ``proposals`` and
            ``counters`` made, §4, R8).
        decisions: ``act`` calls.
        ms_median / ms_p95 / ms_max: wall time per decision, in milliseconds.
        cpu_ms_median / cpu_ms_p95 / cpu_ms_max: CPU time per decision (one core), in ms.
        illegal: actions the game refused.
    """

    label: str
    kind: str
    games: int = 0
    wins: float = 0.0
    win_rate: float = 0.0
    ci_low: float = 0.0
    ci_high: float = 1.0
    scores: dict[str, float] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    decisions: int = 0
    ms_median: float = 0.0
    ms_p95: float = 0.0
    ms_max: float = 0.0
    cpu_ms_median: float = 0.0
    cpu_ms_p95: float = 0.0
    cpu_ms_max: float = 0.0
    illegal: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready map; rates and means rounded; the score means and the tallies as
        keys of their own (``"coins"``, ``"deals"``...), where the other attributes are."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, dict):
                for k, v in value.items():
                    out[k] = round(v, 4) if isinstance(v, float) else v
            else:
                out[f.name] = round(value, 4) if isinstance(value, float) else value
        return out


@dataclass(slots=True)
class TournamentReport:
    """The outcome of :func:`tournament`.

    Attributes:
        players: seats per game.
        bots: the lineup, one kind per entrant.
        game: the game's registry name.
        seed: the run's seed.
        games: games played.
        deals_played: distinct deals (seeds); each is played in up to ``players`` seatings.
        finished: games that reached their end.
        budget: the hard bot's budget scale (1.0 = its published budget).
        entrants: per entrant statistics, in lineup order.
        shared_victories: games won by several seats.
        stalls: rounds where every waiting seat passed.
        errors: refused actions and stopped games, with their messages.
        seconds: wall time of the run.
    """

    players: int
    bots: list[str]
    seed: int
    game: str = DEFAULT_GAME
    games: int = 0
    deals_played: int = 0
    finished: int = 0
    budget: float = 1.0
    entrants: list[EntrantStats] = field(default_factory=list)
    shared_victories: int = 0
    stalls: int = 0
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """The report as a JSON-ready map."""
        return {
            "game": self.game,
            "players": self.players,
            "bots": list(self.bots),
            "seed": self.seed,
            "games": self.games,
            "deals_played": self.deals_played,
            "finished": self.finished,
            "budget": self.budget,
            "entrants": [e.to_dict() for e in self.entrants],
            "shared_victories": self.shared_victories,
            "stalls": self.stalls,
            "errors": list(self.errors),
            "seconds": round(self.seconds, 3),
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as one JSON object."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    def format_text(self) -> str:
        """A table for a human reader, one row per entrant."""
        head = (
            ngettext(
                "{n} game of {game}, {players} players, seat-rotated "
                "({shuffles}, each in every seating), seed {seed}",
                "{n} games of {game}, {players} players, seat-rotated "
                "({shuffles}, each in every seating), seed {seed}",
                self.games,
            ).format(
                n=self.games, game=self.game, players=self.players, seed=self.seed,
                shuffles=ngettext("{n} shuffle", "{n} shuffles", self.deals_played).format(
                    n=self.deals_played
                ),
            )
            + (
                _(", hard budget ×{budget}").format(budget=decimal(self.budget))
                if self.budget != 1.0
                else ""
            )
            + _("; {seconds} s").format(seconds=decimal(self.seconds, 1))
        )  # fmt: skip
        score_keys = list(dict.fromkeys(k for e in self.entrants for k in e.scores))
        count_keys = list(dict.fromkeys(k for e in self.entrants for k in e.counts))
        rows = [
            (
                _("bot"), _("win rate"), _("95% CI"),
                *(tally_word(self.game, k) for k in [*score_keys, *count_keys]),
                _("ms med"), _("ms p95"), _("cpu p95"), _("illegal"),
            )
        ]  # fmt: skip
        for e in self.entrants:
            rows.append(
                (
                    e.label,
                    _("{percent}%").format(percent=decimal(100 * e.win_rate, 1)),
                    _("{low}–{high}%").format(
                        low=decimal(100 * e.ci_low, 1), high=decimal(100 * e.ci_high, 1)
                    ),
                    *(decimal(e.scores.get(k, 0.0), 1) for k in score_keys),
                    *(str(e.counts.get(k, 0)) for k in count_keys),
                    decimal(e.ms_median, 2),
                    decimal(e.ms_p95, 2),
                    decimal(e.cpu_ms_p95, 2),
                    str(e.illegal),
                )
            )
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines = [head]
        for r in rows:
            lines.append(
                "  "
                + "  ".join(
                    c.ljust(w) if i == 0 else c.rjust(w)
                    for i, (c, w) in enumerate(zip(r, widths, strict=True))
                )
            )
        lines.append(
            "  "
            + _(
                "finished {finished}/{games}; shared victories {shared}; stalls {stalls}; "
                "errors {errors}"
            ).format(
                finished=self.finished, games=self.games, shared=self.shared_victories,
                stalls=self.stalls, errors=len(self.errors),
            )
        )  # fmt: skip
        lines.append(
            "  "
            + _("scores: mean of each final score per game; ")
            + (
                _("{tallies}: the game's tallies, all games; ").format(
                    tallies=", ".join(tally_word(self.game, k) for k in count_keys)
                )
                if count_keys
                else ""
            )
            + _("ms: wall time per decision; cpu: CPU time of the deciding thread (one core)")
        )
        lines += [f"    {e}" for e in self.errors[:10]]
        if len(self.errors) > 10:
            lines.append("    " + _("… and {n} more").format(n=len(self.errors) - 10))
        return "\n".join(lines)


def entrant_labels(bots: Sequence[str]) -> list[str]:
    """Labels for a lineup: the kind, numbered (``easy#1``, ``easy#2``) when repeated."""
    counts: dict[str, int] = {}
    total = {k: bots.count(k) for k in bots}
    labels = []
    for kind in bots:
        counts[kind] = counts.get(kind, 0) + 1
        labels.append(f"{kind}#{counts[kind]}" if total[kind] > 1 else kind)
    return labels


@dataclass(frozen=True, slots=True)
class _Game:
    """One tournament game to play (picklable, for worker processes)."""

    game: str
    seed: int
    seats: tuple[int, ...]  # entrant index at each seat
    kinds: tuple[str, ...]  # kind of each entrant
    bot_seeds: tuple[int, ...]  # seed of each entrant's bot
    budget: float


def _play_scheduled(game: _Game) -> GameRecord:
    """Build the bots of ``game`` and play it (runs in a worker process with ``jobs > 1``)."""
    entry = entry_of(game.game)
    agents = [
        entry.make_bot(game.kinds[e], game.bot_seeds[e], budget=game.budget) for e in game.seats
    ]
    with collector.paused():  # a game makes no cycles (poissonnier_tui/collector.py)
        return play_game(game.seed, agents, game=entry)


def tournament_schedule(
    players: int,
    games: int,
    bots: Sequence[str],
    seed: int,
    budget: float = 1.0,
    *,
    game: str = DEFAULT_GAME,
) -> list[_Game]:
    """The games of a tournament, seat-rotated on shared deals.

    Deal ``d`` (the ``d``-th seed of :func:`game_seeds`) is played ``players``
    times; in its ``r``-th seating, entrant ``j`` sits at seat ``(j + r) mod
    players``, so every entrant plays every seat on the same cards (and the
    seed's first player, R4, falls on each of them in turn). ``games`` need not
    be a multiple of ``players``: the last deal is then played in fewer seatings.
    """
    deals = -(-games // players)
    out: list[_Game] = []
    for deal_seed in game_seeds(seed, deals):
        bot_seeds = tuple(deal_seed * 8 + j for j in range(players))
        for r in range(players):
            if len(out) == games:
                break
            seats = tuple((s - r) % players for s in range(players))
            out.append(_Game(game, deal_seed, seats, tuple(bots), bot_seeds, budget))
    return out


def tournament(
    players: int,
    games: int,
    bots: Sequence[str],
    seed: int,
    *,
    game: GameEntry | str = DEFAULT_GAME,
    jobs: int = 1,
    budget: float = 1.0,
) -> TournamentReport:
    """Play a seat-rotated tournament between bot levels and sum it up per entrant.

    Args:
        players: seats per game, within the game's seat limits.
        games: games to play, ≥ 0.
        bots: the lineup: one level per seat (``len(bots) == players``); a level
            may appear several times (each is a separate entrant).
        seed: the run's seed; the same seed gives the same games (R3), a
            searching bot's time cap aside (it never binds at ``budget`` 1 on an idle core).
        game: the game (its entry or registry name; a worker process finds it
            in the registry by name).
        jobs: worker processes (1: play in this process).
        budget: scales a searching bot's budget (e.g. 0.25 for long legality
            runs); other levels ignore it.

    Returns:
        The :class:`TournamentReport`.

    Raises:
        ValueError: an unknown game, bad ``players``, ``games``, ``jobs``,
            ``budget``, levels or lineup length.
    """
    entry = entry_of(game)
    lineup = list(bots)
    check_lineup(entry, players, lineup)
    if games < 0:
        raise ValueError(_("games must be 0 or more"))
    if jobs < 1:
        raise ValueError(_("jobs must be 1 or more"))
    if not budget > 0:
        raise ValueError(_("budget must be positive"))
    schedule = tournament_schedule(players, games, lineup, seed, budget, game=entry.name)
    start = time.perf_counter()
    if jobs == 1:
        records = [_play_scheduled(g) for g in schedule]
    else:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            records = list(pool.map(_play_scheduled, schedule, chunksize=1))
    report = TournamentReport(
        players=players,
        bots=lineup,
        seed=seed,
        game=entry.name,
        games=len(schedule),
        deals_played=len({g.seed for g in schedule}),
        budget=budget,
        entrants=[
            EntrantStats(label, kind)
            for label, kind in zip(entrant_labels(lineup), lineup, strict=True)
        ],
    )
    seconds: list[list[float]] = [[] for _ in lineup]
    cpu: list[list[float]] = [[] for _ in lineup]
    finals: list[list[dict[str, float]]] = [[] for _ in lineup]
    for scheduled, rec in zip(schedule, records, strict=True):
        report.stalls += rec.stalls
        report.errors += rec.errors
        for seat, e in enumerate(scheduled.seats):
            stats = report.entrants[e]
            seconds[e] += rec.seat_seconds[seat]
            cpu[e] += rec.seat_cpu[seat]
            stats.illegal += rec.seat_errors[seat]
            for k, per_seat in rec.seat_counts.items():
                stats.counts[k] = stats.counts.get(k, 0) + per_seat[seat]
        if not rec.finished or rec.result is None:
            continue
        report.finished += 1
        report.shared_victories += rec.shared
        scores = seat_scores(rec.result)
        for seat, e in enumerate(scheduled.seats):
            stats = report.entrants[e]
            stats.games += 1
            if seat < len(scores):
                finals[e].append(scores[seat])
            if seat in rec.winners:
                stats.wins += 1 / len(rec.winners)
    for e, stats in enumerate(report.entrants):
        if stats.games:
            stats.win_rate = stats.wins / stats.games
            stats.scores = means(finals[e])
        stats.ci_low, stats.ci_high = wilson_interval(stats.wins, stats.games)
        stats.decisions = len(seconds[e])
        stats.ms_median = 1000 * percentile(seconds[e], 50)
        stats.ms_p95 = 1000 * percentile(seconds[e], 95)
        stats.ms_max = 1000 * max(seconds[e], default=0.0)
        stats.cpu_ms_median = 1000 * percentile(cpu[e], 50)
        stats.cpu_ms_p95 = 1000 * percentile(cpu[e], 95)
        stats.cpu_ms_max = 1000 * max(cpu[e], default=0.0)
    report.seconds = time.perf_counter() - start
    return report
