"""Winner determination: RULES.md §8 and R14 (``scoring.decide_winner``).

Scores are written ``(coins, clients, stamps)`` per seat, seat 0 first.
"""

from __future__ import annotations

from typing import Any

import pytest

from poissonnier_tui.games.poissonnier.rules.scoring import Score, decide_winner, explain


def decide(*tallies: tuple[int, int, int]) -> dict[str, Any]:
    """``decide_winner`` for seats 0.. with (coins, clients, stamps) each."""
    return decide_winner([Score(i, *t) for i, t in enumerate(tallies)])


def steps(result: dict[str, Any]) -> list[tuple[str, int | None]]:
    """(step name, eliminated seat) for each recorded step."""
    return [(s["step"], s["eliminated"]) for s in result["steps"]]


TWO = "2-player rule"
FALLBACK = "2-player fallback (R14)"
STEP1, STEP3, STEP4 = "1. fewest coins", "3. fewest clients", "4. most stamps"


# --------------------------------------------------------------------------- 2 players


def test_result_shape() -> None:
    """§8: the result lists winners, shared, every score and every step with its reason."""
    result = decide((5, 3, 2), (4, 4, 1))
    assert set(result) == {"winners", "shared", "scores", "steps"}
    assert result["scores"] == [
        {"seat": 0, "coins": 5, "clients": 3, "stamps": 2},
        {"seat": 1, "coins": 4, "clients": 4, "stamps": 1},
    ]
    assert all(isinstance(s["why"], str) and s["why"] for s in result["steps"])


@pytest.mark.parametrize(
    ("a", "b", "winner"),
    [
        ((5, 3, 2), (4, 4, 1), 0),  # coins and stamps
        ((4, 4, 1), (5, 3, 2), 1),
        ((5, 4, 1), (4, 3, 2), 0),  # coins and clients
        ((4, 4, 3), (5, 3, 2), 0),  # clients and stamps
        ((9, 9, 9), (1, 1, 1), 0),  # all three
    ],
)
def test_two_players_majority_in_two_of_three(
    a: tuple[int, int, int], b: tuple[int, int, int], winner: int
) -> None:
    """§8: a strict majority in at least 2 of coins, clients, stamps wins."""
    result = decide(a, b)
    assert result["winners"] == [winner] and result["shared"] is False
    assert steps(result) == [(TWO, None)]


def test_two_players_fallback_by_stamps() -> None:
    """R14: one category each (the third tied): the final step decides, most stamps first."""
    result = decide((9, 2, 1), (1, 2, 3))
    assert result["winners"] == [1]
    assert steps(result) == [(TWO, None), (FALLBACK, None)]
    assert "stamps" in result["steps"][1]["why"]


def test_two_players_fallback_by_clients() -> None:
    """R14: stamps tied in the fallback: most clients."""
    result = decide((9, 2, 4), (1, 3, 4))
    assert result["winners"] == [1]
    assert steps(result) == [(TWO, None), (FALLBACK, None)]
    assert "clients" in result["steps"][1]["why"]


def test_two_players_fallback_by_coins() -> None:
    """R14: only coins differ (1 of 3 is no majority): the fallback's last criterion, coins."""
    result = decide((7, 2, 4), (6, 2, 4))
    assert result["winners"] == [0] and result["shared"] is False
    assert steps(result) == [(TWO, None), (FALLBACK, None)]
    assert "coins" in result["steps"][1]["why"]


def test_two_players_shared() -> None:
    """R14, §8 step 4: everything equal: a shared victory."""
    result = decide((4, 2, 3), (4, 2, 3))
    assert result["winners"] == [0, 1] and result["shared"] is True
    assert steps(result) == [(TWO, None), (FALLBACK, None)]


# --------------------------------------------------------------------------- 3 players


def test_three_players_step1_then_two_player_rule() -> None:
    """§8 steps 1-2: fewest coins is eliminated; the 2 left use the 2-player rule."""
    # Seat 2 would win step 4 (most stamps) but seat 1 leads seat 2 in coins and clients.
    result = decide((1, 9, 9), (6, 5, 1), (5, 4, 8))
    assert steps(result) == [(STEP1, 0), (TWO, None)]
    assert result["winners"] == [1]


def test_three_players_step1_tie_broken_by_clients() -> None:
    """§8 step 1: tied on fewest coins, the one with fewer clients is eliminated."""
    result = decide((2, 5, 1), (2, 4, 9), (3, 1, 1))
    # Seat 0 vs seat 2: seat 0 leads clients only, seat 2 coins only, stamps tied -> R14.
    assert steps(result) == [(STEP1, 1), (TWO, None), (FALLBACK, None)]
    assert result["winners"] == [0]  # stamps tied, most clients
    assert result["steps"][0]["why"] == "tied on fewest coins (2) with seat 0; fewest clients (4)"


def test_three_players_step1_two_player_rule_fallback() -> None:
    """§8 step 2 with R14: no majority between the 2 left: the final step decides."""
    result = decide((0, 0, 0), (5, 3, 1), (4, 3, 2))
    assert steps(result) == [(STEP1, 0), (TWO, None), (FALLBACK, None)]
    assert result["winners"] == [2]


def test_three_players_nobody_out_in_step1_then_step3() -> None:
    """§8 steps 1, 3, 4: a full tie in step 1 eliminates nobody; step 3 takes fewest clients."""
    result = decide((2, 3, 1), (2, 3, 5), (6, 1, 9))
    assert steps(result) == [(STEP1, None), (STEP3, 2), (STEP4, None)]
    assert result["winners"] == [1]  # most stamps among seats 0 and 1
    assert result["steps"][-1]["why"] == "seat 1 has the most stamps (5)"


def test_three_players_step3_tie_broken_by_stamps() -> None:
    """§8 step 3: tied on fewest clients, the one with fewer stamps is eliminated."""
    result = decide((2, 2, 4), (2, 2, 4), (5, 2, 3))
    assert steps(result) == [(STEP1, None), (STEP3, 2), (STEP4, None)]
    assert result["winners"] == [0, 1] and result["shared"] is True


def test_three_players_nobody_eliminated_then_step4_chain() -> None:
    """§8 steps 3-4: step 3 fully tied; step 4 goes most stamps, clients, coins, then shared."""
    # Stamps decide.
    r = decide((3, 2, 3), (3, 2, 3), (3, 4, 5))
    assert steps(r) == [(STEP1, None), (STEP3, None), (STEP4, None)]
    assert r["winners"] == [2] and "stamps" in r["steps"][2]["why"]
    # Stamps tied: clients decide.
    r = decide((3, 2, 5), (3, 2, 5), (4, 3, 5))
    assert steps(r) == [(STEP1, None), (STEP3, None), (STEP4, None)]
    assert r["winners"] == [2] and "clients" in r["steps"][2]["why"]
    # Stamps and clients tied: coins decide.
    r = decide((3, 2, 5), (3, 2, 5), (4, 2, 5))
    assert steps(r) == [(STEP1, None), (STEP3, None), (STEP4, None)]
    assert r["winners"] == [2] and "coins" in r["steps"][2]["why"]
    # Everything tied: shared victory among all three.
    r = decide((3, 2, 5), (3, 2, 5), (3, 2, 5))
    assert r["winners"] == [0, 1, 2] and r["shared"] is True


def test_three_players_step3_is_not_the_two_player_rule() -> None:
    """§8 step 2 applies only after an elimination in step 1; step 4 decides the 2 left."""
    # Seats 0 and 1 after step 3: seat 0 leads coins and clients, seat 1 leads stamps.
    r = decide((5, 5, 1), (3, 2, 6), (3, 2, 5))
    assert steps(r) == [(STEP1, None), (STEP3, 2), (STEP4, None)]
    assert r["winners"] == [1]


# --------------------------------------------------------------------------- 4 and 5 players


def test_four_players_two_eliminations_then_step4() -> None:
    """§8: steps 1 and 3 each eliminate one; step 4 (not the 2-player rule) decides the rest."""
    # Left: seat 0 (10, 5, 3) and seat 1 (9, 4, 4): 2-player rule would pick 0, step 4 picks 1.
    r = decide((10, 5, 3), (9, 4, 4), (1, 9, 9), (8, 2, 9))
    assert steps(r) == [(STEP1, 2), (STEP3, 3), (STEP4, None)]
    assert r["winners"] == [1]


def test_four_players_step1_tie_broken_by_clients() -> None:
    """§8 step 1 with 4 players: fewest coins tied, fewer clients out."""
    r = decide((1, 3, 0), (1, 2, 7), (5, 4, 2), (5, 5, 2))
    assert steps(r) == [(STEP1, 1), (STEP3, 0), (STEP4, None)]
    assert r["winners"] == [3]  # stamps tied 2-2, most clients


def test_four_players_step1_and_step3_tied() -> None:
    """§8: nobody out in steps 1 and 3; step 4 over all four, down to coins."""
    r = decide((2, 2, 2), (2, 2, 2), (3, 2, 2), (3, 3, 1))
    assert steps(r) == [(STEP1, None), (STEP3, None), (STEP4, None)]
    assert r["winners"] == [2]  # stamps 2,2,2 tie; clients 2,2,2 tie; coins 3 > 2


def test_four_players_step3_tie_by_stamps_then_shared() -> None:
    """§8: step 3 tie broken by stamps; then step 4 fully tied: a shared victory."""
    r = decide((1, 6, 6), (4, 2, 1), (4, 2, 5), (4, 6, 6))
    assert steps(r) == [(STEP1, 0), (STEP3, 1), (STEP4, None)]
    assert r["winners"] == [3]  # stamps 5 vs 6
    r = decide((1, 6, 6), (4, 2, 1), (4, 6, 6), (4, 6, 6))
    assert steps(r) == [(STEP1, 0), (STEP3, 1), (STEP4, None)]
    assert r["winners"] == [2, 3] and r["shared"] is True


def test_five_players_full_chain() -> None:
    """§8 with 5 players: one out in step 1, one in step 3, step 4 among 3."""
    r = decide((3, 4, 4), (2, 9, 9), (6, 1, 9), (6, 4, 5), (6, 5, 4))
    assert steps(r) == [(STEP1, 1), (STEP3, 2), (STEP4, None)]
    assert r["winners"] == [3]


def test_five_players_ties_everywhere() -> None:
    """§8 with 5 players: nobody out in steps 1 and 3, step 4 shared by three."""
    r = decide((2, 1, 1), (2, 1, 1), (5, 3, 4), (5, 3, 4), (5, 3, 4))
    assert steps(r) == [(STEP1, None), (STEP3, None), (STEP4, None)]
    assert r["winners"] == [2, 3, 4] and r["shared"] is True


def test_five_players_step1_clients_tiebreak_and_step4_clients() -> None:
    """§8 with 5 players: step 1 broken by clients; step 3 by stamps; step 4 by clients."""
    r = decide((1, 2, 5), (1, 3, 5), (4, 3, 4), (4, 5, 6), (4, 6, 6))
    assert steps(r) == [(STEP1, 0), (STEP3, 2), (STEP4, None)]
    assert r["winners"] == [4]


@pytest.mark.parametrize("n", [0, 1, 6])
def test_bad_number_of_scores(n: int) -> None:
    """§8 is for 2 to 5 players."""
    with pytest.raises(ValueError):
        decide_winner([Score(i, 0, 0, 0) for i in range(n)])


# --------------------------------------------------------------------------- as data


@pytest.mark.parametrize(
    "tallies",
    [
        [(5, 3, 2), (4, 4, 1)],
        [(9, 2, 4), (9, 2, 4)],
        [(3, 1, 2), (3, 1, 2), (5, 2, 1)],
        [(2, 1, 3), (2, 3, 1), (6, 3, 2)],
        [(5, 2, 3), (2, 1, 1), (6, 3, 2), (4, 4, 4)],
        [(4, 2, 3), (4, 2, 3), (4, 2, 3), (4, 2, 3), (4, 2, 3)],
    ],
)
def test_explain_gives_the_recorded_steps_as_codes(tallies: list[tuple[int, int, int]]) -> None:
    """§8: the steps the result records are, as codes and parameters, found again from its
    scores, and each one's English is the recorded text."""
    result = decide(*tallies)
    steps = explain(result)
    assert steps is not None
    assert [s.as_map() for s in steps] == result["steps"]
    assert all(
        s.reason.code in {"fewest", "fewest_then", "all_tied", "leads", "no_lead", "most", "shared"}
        for s in steps
    )


def test_explain_refuses_a_result_it_did_not_write() -> None:
    """A changed reason, a bad score or too few seats: ``None``, never another verdict."""
    result = decide((5, 3, 2), (4, 4, 1))
    changed = {**result, "steps": [{**result["steps"][0], "why": "other"}]}
    assert explain(changed) is None
    bad = {**result, "scores": [{**result["scores"][0], "coins": "5"}, result["scores"][1]]}
    assert explain(bad) is None
    assert explain({**result, "scores": result["scores"][:1]}) is None
    assert explain({}) is None
