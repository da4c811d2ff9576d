"""Computer players against each other: one seeded game narrated, then a short match.

Run it from a checkout (``python examples/bot_match.py``) or after installing
the package. The same comparisons at full size::

    python -m fivehundred.bots.tournament heuristic random --games 400 --seed 1 --jobs 2
    python -m fivehundred.bots.tournament search heuristic --games 400 --seed 1 --jobs 2
"""

from __future__ import annotations

import random

from fivehundred.bots import HeuristicPlayer, Player, SearchPlayer
from fivehundred.bots.tournament import format_match, play_game, run_match


def one_game(seed: int) -> None:
    """Search players (seats 0 and 2) against heuristic players (seats 1 and 3)."""
    rng = random.Random(seed)
    players: list[Player] = [
        SearchPlayer(random.Random(seed + seat), samples=8)
        if seat % 2 == 0
        else HeuristicPlayer(random.Random(seed + seat))
        for seat in range(4)
    ]
    state, outcome = play_game(players, rng)
    result = state.result
    assert result is not None
    print(f"game {seed}: {outcome.hands} hands, final scores {state.scores}")
    print(f"  winners: side(s) {result.winners} ({result.outcome.value})")
    for side in range(2):
        print(f"  side {side}: made {outcome.made[side]} of {outcome.contracts[side]} contracts")


def main() -> None:
    one_game(seed=1)
    print()
    print(format_match(run_match("heuristic", "random", games=20, seed=1)))
    print()
    print(format_match(run_match("search", "heuristic", games=4, seed=1, budget=8)))


if __name__ == "__main__":
    main()
