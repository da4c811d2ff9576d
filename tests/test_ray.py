"""Tournaments on a local Ray instance (opt-in: ``nox -s ray``, FIVEHUNDRED_TEST_RAY=1)."""

from __future__ import annotations

import os
import time

import pytest

if os.environ.get("FIVEHUNDRED_TEST_RAY") != "1":
    pytest.skip("opt-in: run with FIVEHUNDRED_TEST_RAY=1 (nox -s ray)", allow_module_level=True)
ray = pytest.importorskip("ray")

from fivehundred.tournament import RayExecutor, play_games, run_match  # noqa: E402


def test_ray_gives_the_same_games_and_a_speed_up(capsys: pytest.CaptureFixture[str]) -> None:
    kinds = ("heuristic", "heuristic")
    games = 200
    start = time.perf_counter()
    alone = list(play_games(kinds, games, seed=3))
    one = time.perf_counter() - start
    executor = RayExecutor(num_cpus=2, include_dashboard=False)
    try:
        list(play_games(kinds, 2, seed=0, executor=executor))  # start the workers
        start = time.perf_counter()
        spread = list(play_games(kinds, games, seed=3, executor=executor, chunk=10))
        two = time.perf_counter() - start
        result = run_match(*kinds, games=4, seed=1, executor=executor)
    finally:
        executor.shutdown()
    assert spread == alone
    assert result.games == 4
    assert not ray.is_initialized()
    with capsys.disabled():
        print(f"\n{games} games: one process {one:.2f} s, Ray (2 CPUs) {two:.2f} s, "
              f"speed-up {one / two:.2f}x")  # fmt: skip
