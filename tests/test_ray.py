"""Tournaments on a local Ray instance (opt-in: ``nox -s ray``, FIVEHUNDRED_TEST_RAY=1)."""

from __future__ import annotations

import os
import time
from typing import NoReturn

import attrs
import pytest

if os.environ.get("FIVEHUNDRED_TEST_RAY") != "1":
    pytest.skip("opt-in: run with FIVEHUNDRED_TEST_RAY=1 (nox -s ray)", allow_module_level=True)
ray = pytest.importorskip("ray")

import fivehundred as fh  # noqa: E402
import own_players  # noqa: E402
from fivehundred.bots import RandomPlayer  # noqa: E402
from fivehundred.bots.tournament import PlayerSpec, RayExecutor, play_games, run_match  # noqa: E402


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


@attrs.define
class LocalOnlyPlayer:
    """A player that copies here but cannot be pickled, as one holding a local handle."""

    def choose(self, view: fh.PlayerView) -> fh.Action:
        return view.legal_actions[0]

    def __deepcopy__(self, memo: object) -> LocalOnlyPlayer:
        return LocalOnlyPlayer()

    def __reduce__(self) -> NoReturn:
        raise TypeError("a LocalOnlyPlayer holds a local handle")


def test_your_own_players_play_the_same_games_on_ray() -> None:
    kinds: tuple[PlayerSpec, ...] = (own_players.FirstChoicePlayer(), own_players.seeded_random)
    alone = list(play_games(kinds, 4, seed=2))
    # cloudpickle sends what pickle cannot: a function defined here
    local: tuple[PlayerSpec, ...] = (own_players.FIRST, lambda rng: RandomPlayer(rng=rng))
    local_alone = list(play_games(local, 4, seed=2))
    executor = RayExecutor(num_cpus=2, include_dashboard=False)
    try:
        assert list(play_games(kinds, 4, seed=2, executor=executor, chunk=2)) == alone
        named = ("own_players:FIRST", "own_players:seeded_random")
        assert list(play_games(named, 4, seed=2, executor=executor)) == alone
        assert list(play_games(local, 4, seed=2, executor=executor)) == local_alone
        with pytest.raises(fh.FiveHundredError, match="cannot be sent to another process"):
            list(play_games((LocalOnlyPlayer(), "random"), 2, seed=1, executor=executor))
    finally:
        executor.shutdown()
    assert not ray.is_initialized()
