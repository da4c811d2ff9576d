"""The strongest player's strength and decision time: ``python -m benchmarks.bench_bots``.

The long seeded matches of issue 37 live here, not in the tests:

- the strongest player (``"strong"``, :func:`fivehundred.bots.tournament.strong_player`)
  against ``HeuristicPlayer`` and against ``SearchPlayer``: games won, with the 95 %
  Wilson interval, against the targets (v heuristic: goal 85 %, must 75 % with the
  interval's low end above 70 %; v search: goal 70 %, must 62 %);
- its decision time over whole hands against heuristic players: median (goal 0.1 s),
  99th percentile (must 1 s), maximum (goal 1 s, must 3 s).

``nox -s bench_bots`` runs it on the compiled wheel; ``--games 2000 --jobs 2`` are
the defaults (the matches then take hours on two cores). A timed player depends on the
machine's speed, so two runs of one seed may differ by a few games.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import fivehundred as fh
from fivehundred.bots import HeuristicPlayer, Player
from fivehundred.bots.tournament import run_match, strong_player, wilson_interval

#: (opponent, goal, must) for the share of games the strongest player wins.
TARGETS = (("heuristic", 0.85, 0.75), ("search", 0.70, 0.62))


def decision_times(hands: int, seed: int) -> list[float]:
    """Seconds of each decision with a choice, of two strongest players against two
    heuristic players, over ``hands`` seeded hands."""
    rng = random.Random(seed)
    players: list[Player] = [
        strong_player(random.Random(rng.getrandbits(64))),
        HeuristicPlayer(random.Random(1)),
        strong_player(random.Random(rng.getrandbits(64))),
        HeuristicPlayer(random.Random(2)),
    ]
    times: list[float] = []
    state = fh.new_game(dealer=0)
    dealt = 0
    while True:
        if state.phase is fh.Phase.GAME_OVER:
            state = fh.new_game(dealer=0)
        if state.phase is fh.Phase.DEAL:
            if dealt == hands:
                return times
            state = fh.deal(state, rng=rng)
            dealt += 1
            continue
        seat = state.to_act
        assert seat is not None
        view = fh.observe(state, seat)
        start = time.perf_counter()
        action = players[seat].choose(view)
        if seat % 2 == 0 and len(view.legal_actions) > 1:
            times.append(time.perf_counter() - start)
        state = fh.apply(state, action)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_bots")
    parser.add_argument("--games", type=int, default=2000, help="games per match")
    parser.add_argument("--seed", type=int, default=1, help="match seed")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--hands", type=int, default=40, help="hands timed")
    args = parser.parse_args(argv)
    print(f"compiled build: {fh.COMPILED}")
    times = sorted(decision_times(args.hands, args.seed))
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    print(
        f"decision time over {len(times)} decisions: median {statistics.median(times):.3f} s"
        f" (goal 0.1), p99 {p99:.3f} s (must 1), max {times[-1]:.3f} s (goal 1, must 3)"
    )
    failed = False
    for opponent, goal, must in TARGETS:
        result = run_match("strong", opponent, games=args.games, seed=args.seed, jobs=args.jobs)
        share = result.wins[0] / result.games
        low, high = wilson_interval(result.wins[0], result.games)
        ok = share >= must and (opponent != "heuristic" or low > 0.70)
        failed |= not ok
        print(
            f"strong v {opponent}: {result.wins[0]:g} of {result.games} games,"
            f" {share:.1%} [{low:.1%}, {high:.1%}] (goal {goal:.0%}, must {must:.0%})"
            f" {'ok' if ok else 'MISSED'}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
