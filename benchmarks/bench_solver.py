"""The double-dummy solver's speed: median time to solve from the first lead, and
with five tricks left (four players, random hands bid by the heuristic player,
misère hands left out). Opt-in: ``nox -s bench_solver`` or
``python benchmarks/bench_solver.py --hands 50``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import fivehundred as fh
from fivehundred.bots import HeuristicPlayer
from fivehundred.solver import solve


def first_lead(rng: random.Random) -> tuple[fh.GameState, HeuristicPlayer]:
    while True:
        state = fh.deal(fh.new_game(dealer=rng.randrange(4)), rng=rng)
        player = HeuristicPlayer(rng)
        while state.phase not in (fh.Phase.PLAY, fh.Phase.DEAL):
            assert state.to_act is not None
            state = fh.apply(state, player.choose(fh.observe(state, state.to_act)))
        contract = state.contract
        if state.phase is fh.Phase.PLAY and contract is not None and not contract.is_misere:
            return state, player


def timings(hands: int, left: int, seed: int, actions: bool) -> list[float]:
    rng = random.Random(seed)
    out: list[float] = []
    for _ in range(hands):
        state, player = first_lead(rng)
        while len(state.hand(state.to_act or 0)) > left or state.trick:
            assert state.to_act is not None
            state = fh.apply(state, player.choose(fh.observe(state, state.to_act)))
        start = time.perf_counter()
        solve(state, actions=actions)
        out.append(time.perf_counter() - start)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=50)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--actions", action="store_true", help="value every legal action too")
    args = parser.parse_args()
    print(f"compiled: {fh.COMPILED}; {args.hands} hands; actions={args.actions}")
    for left in (10, 5):
        times = timings(args.hands, left, args.seed, args.actions)
        median = statistics.median(times) * 1000
        print(f"{left:2d} tricks left: median {median:8.2f} ms, max {max(times) * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
