"""The double-dummy solver's cost by tricks left: positions searched and time, median and
worst, over seeded hands (four players, random hands bid by the heuristic player and
played by it to a trick boundary, misère hands left out). Opt-in: ``nox -s bench_solver``
or ``python benchmarks/bench_solver.py --hands 50``; ``--left 10 5`` for some rows only.
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


def costs(hands: int, left: int, seed: int, actions: bool) -> list[tuple[float, int]]:
    """Seconds and positions searched to solve ``hands`` seeded hands with ``left`` tricks
    left (the same hands for every ``left``: each is dealt from ``seed``)."""
    rng = random.Random(seed)
    out: list[tuple[float, int]] = []
    for _ in range(hands):
        state, player = first_lead(rng)
        while len(state.hand(state.to_act or 0)) > left or state.trick:
            assert state.to_act is not None
            state = fh.apply(state, player.choose(fh.observe(state, state.to_act)))
        start = time.perf_counter()
        result = solve(state, actions=actions)
        out.append((time.perf_counter() - start, result.nodes))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=50)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--actions", action="store_true", help="value every legal action too")
    parser.add_argument(
        "--left", type=int, nargs="+", default=list(range(10, 0, -1)), help="tricks left"
    )
    args = parser.parse_args()
    print(f"compiled: {fh.COMPILED}; {args.hands} hands; actions={args.actions}")
    print("| tricks left | positions, median | positions, max | ms, median | ms, max |")
    print("|---|---|---|---|---|")
    for left in args.left:
        found = costs(args.hands, left, args.seed, args.actions)
        ms = [seconds * 1000 for seconds, _ in found]
        nodes = [count for _, count in found]
        print(
            f"| {left} | {statistics.median(nodes):,.0f} | {max(nodes):,} "
            f"| {statistics.median(ms):.2f} | {max(ms):.1f} |"
        )


if __name__ == "__main__":
    main()
