"""The strongest player's bench (benchmarks/bench_bots.py): its timing of decisions, on one
short seeded hand (the 2,000-game matches are the bench's, not the tests')."""

from __future__ import annotations

from benchmarks import bench_bots


def test_decision_times_are_one_a_choice_of_the_strongest_players() -> None:
    times = bench_bots.decision_times(1, seed=3)
    assert times and all(t >= 0 for t in times)
    assert bench_bots.TARGETS[0][0] == "heuristic" and bench_bots.TARGETS[1][0] == "search"
    assert all(0 < must < goal < 1 for _, goal, must in bench_bots.TARGETS)
