"""Seeded matches between computer players, with win rates and confidence intervals.

Two player types meet over many games, one type per side. Game ``i`` is dealt
from its own seed (derived from the match seed and ``i``), and the sides swap
seats every other game, so a match is reproducible and fair to both types;
running it on several processes (``jobs``), or on any
:class:`concurrent.futures.Executor` (``executor``: threads, processes, a Ray
cluster through :class:`RayExecutor`), gives the same figures.

>>> result = run_match("heuristic", "random", games=2, seed=1)
>>> result.games, int(result.wins[0] + result.wins[1]) + result.unfinished
(2, 2)
>>> low, high = wilson_interval(380, 400)
>>> round(low, 3), round(high, 3)
(0.924, 0.967)

From the command line::

    python -m fivehundred.tournament heuristic random --games 400 --seed 1 --jobs 2
    python -m fivehundred.tournament heuristic random --games 400 --backend ray --jobs 8

With ``--backend ray`` the games run as Ray tasks (``pip install
fivehundred[ray]``): on a local Ray instance, or on a cluster with ``--address``
(``ray start --head`` there first; every node needs fivehundred installed).
"""

from fivehundred.bots._tournament import (
    BACKENDS,
    DEFAULT_BUDGET,
    MAX_HANDS,
    PLAYER_TYPES,
    GameOutcome,
    MatchResult,
    RayExecutor,
    format_match,
    main,
    make_executor,
    make_player,
    play_game,
    play_games,
    run_match,
    summarize,
    wilson_interval,
)

__all__ = [
    "BACKENDS",
    "DEFAULT_BUDGET",
    "MAX_HANDS",
    "PLAYER_TYPES",
    "GameOutcome",
    "MatchResult",
    "RayExecutor",
    "format_match",
    "main",
    "make_executor",
    "make_player",
    "play_game",
    "play_games",
    "run_match",
    "summarize",
    "wilson_interval",
]

if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
