"""A seeded game between random players, printed hand by hand.

Every seat chooses uniformly among its legal actions, on its own view of the
game (:func:`fivehundred.observe`), except that it bids no higher than seven:
fully random players bid ten No Trumps in the first hand and the game is over
at once (``--wild`` lets them, with :class:`fivehundred.bots.RandomPlayer`).
The same seed gives the same game::

    python examples/random_game.py --seed 7
    python examples/random_game.py --seed 7 --players 6 --tricks

``--tricks`` prints every trick; ``--max-hands`` stops a long game.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import TextIO

import fivehundred as fh
from fivehundred.bots import Player, RandomPlayer


class SoberRandomPlayer:
    """A random player that never bids above 7NT."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: fh.PlayerView) -> fh.Action:
        ladder = view.rules.ladder
        top = ladder.position(SEVEN_NO_TRUMPS)
        legal = [
            action
            for action in view.legal_actions
            if not isinstance(action, fh.Call) or ladder.position(action) <= top
        ]
        return self.rng.choice(legal)


SEVEN_NO_TRUMPS = fh.parse_call("7NT")


def play(
    seed: int, players: int, max_hands: int, show_tricks: bool, out: TextIO, *, wild: bool = False
) -> fh.GameState:
    """Play one seeded game, printing each hand; returns the final state."""
    rng = random.Random(seed)
    kind = RandomPlayer if wild else SoberRandomPlayer
    seats: list[Player] = [kind(random.Random(rng.getrandbits(64))) for _ in range(players)]
    state = fh.new_game(fh.Rules(players=players), dealer=rng.randrange(players))
    print(f"A game of Five Hundred between {players} random players (seed {seed})", file=out)
    while not state.is_over and state.hand_number < max_hands:
        state = fh.deal(state, rng=rng)
        calls: list[tuple[int, fh.Call]] = []
        while state.to_act is not None:
            seat = state.to_act
            action = seats[seat].choose(fh.observe(state, seat))
            if isinstance(action, fh.Call):
                calls.append((seat, action))
            state = fh.apply(state, action, seat=seat)
        for line in hand_lines(state, calls, show_tricks):
            print(line, file=out)
    result = state.result
    if result is None:
        print(f"stopped after {state.hand_number} hands; scores {state.scores}", file=out)
    else:
        winners = " and ".join(
            "side " + "&".join(map(str, state.rules.sides[side])) for side in result.winners
        )
        print(f"game over after {state.hand_number} hands: {winners} won", file=out)
    return state


def hand_lines(
    state: fh.GameState, calls: Sequence[tuple[int, fh.Call]], show_tricks: bool
) -> list[str]:
    """Lines about the hand that has just ended in ``state``."""
    result = state.last_hand
    assert result is not None
    auction = " ".join(f"{seat}:{call}" for seat, call in calls)
    lines = [f"hand {result.number}, dealer seat {result.dealer}", f"  auction {auction}"]
    if result.contract is None and not result.all_pass:
        lines.append("  everyone passed: thrown in (R3.9)")
        return lines
    if result.contract is not None:
        lines.append(f"  contract {result.contract} by seat {result.contractor}")
    if show_tricks:
        for number, trick in enumerate(state.tricks, 1):
            plays = " ".join(f"{seat}:{card}" for seat, card in trick.plays)
            lines.append(f"  trick {number:2}: {plays} -> seat {trick.winner}")
    outcome = "made" if result.made else "failed"
    if result.contract is None:
        outcome = "played at No Trumps after all passed (V-ALL-PASS)"
    taken = " ".join(map(str, result.tricks))
    changes = " ".join(f"{change:+d}" for change in result.changes)
    scores = " ".join(map(str, result.scores))
    lines.append(f"  tricks {taken}: {outcome}; changes {changes}; scores {scores}")
    return lines


def main(argv: Sequence[str] | None = None, *, out: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(
        prog="random_game.py", description="A seeded game between random players."
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7), help="2 to 6")
    parser.add_argument("--max-hands", type=int, default=200, help="stop after this many hands")
    parser.add_argument("--tricks", action="store_true", help="print every trick")
    parser.add_argument("--wild", action="store_true", help="let the players bid anything")
    args = parser.parse_args(argv)
    play(args.seed, args.players, args.max_hands, args.tricks, out, wild=args.wild)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
