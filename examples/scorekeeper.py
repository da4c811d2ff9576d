"""Keep the score for a table playing Five Hundred with real cards.

Each line says what happened in one hand, in the notation ``fivehundred score``
reads (:func:`fivehundred.notation.parse_hand_score`); the program prints each
side's score change and the running totals, and says when the game is won (R9):

    7H by 0 took 8                    seat 0's side bid 7H and took 8 tricks
    M by 3 took 0                     misère by seat 3, who took no trick
    6NT by 1 tricks 2 3 1 4           tricks by seat (needed with more than two sides)
    8S by 0 with 3 tricks 5 1 0 3 1   five players: seat 3 was the partner (P5)
    pass                              everyone passed: the hand is thrown in (R3.9)

Seats are numbered clockwise from 0; with four players seats 0 and 2 are side 0
and seats 1 and 3 side 1. Give the lines as arguments or one per line on
standard input (blank lines and ``#`` comments are skipped)::

    python examples/scorekeeper.py "7H by 0 took 8" "M by 3 took 0"
    python examples/scorekeeper.py --american < hands.txt

Options choose the rules: ``--players``, ``--american``, ``--cap 490``,
``--trick-points 10``, ``--target 500``. A line that cannot be read is reported
on standard error and skipped; the exit status is then 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from typing import TextIO

import fivehundred as fh
from fivehundred.notation import HandScore, parse_hand_score
from fivehundred.scoring import game_result


def read_hand(text: str, rules: fh.Rules) -> HandScore | None:
    """A line as a :class:`~fivehundred.notation.HandScore`; ``None`` for a thrown-in hand.

    The notation is the library's (``fivehundred score`` reads the same): bad
    text raises :class:`~fivehundred.NotationError`, which is a ValueError.
    """
    return parse_hand_score(text, rules)


def side_name(rules: fh.Rules, side: int) -> str:
    seats = rules.sides[side]
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return f"side {side} (seats {' & '.join(map(str, seats))})"


class Scorekeeper:
    """The running totals of one game, hand by hand."""

    def __init__(self, rules: fh.Rules) -> None:
        self.rules = rules
        self.totals: tuple[int, ...] = (0,) * len(rules.sides)
        self.hands = 0
        self.over = False

    def score(self, hand: HandScore | None, out: TextIO) -> None:
        """Score one hand and print the changes, the totals and the end of the game."""
        rules = self.rules
        if hand is None:
            self.hands += 1
            print(f"hand {self.hands}: thrown in, no score (R3.9)", file=out)
            return
        changes = fh.score_hand(
            hand.contract,
            hand.contractor,
            hand.tricks,
            rules=rules,
            scores=self.totals,
            partner=hand.partner,
        )
        self.hands += 1
        self.totals = tuple(t + c for t, c in zip(self.totals, changes, strict=True))
        contracting = [rules.side_of(hand.contractor)]
        if hand.partner is not None and rules.side_of(hand.partner) not in contracting:
            contracting.append(rules.side_of(hand.partner))
        made = changes[contracting[0]] > 0
        verdict = "made" if made else "failed"
        worth = fh.bid_value(hand.contract, rules)
        seat = hand.contractor
        print(
            f"hand {self.hands}: {hand.contract.pretty} ({worth}) by seat {seat} {verdict}",
            file=out,
        )
        for side, (change, total) in enumerate(zip(changes, self.totals, strict=True)):
            print(f"  {side_name(rules, side)}: {change:+d}, total {total}", file=out)
        result = game_result(contracting, made, self.totals, rules)
        if result is not None:
            self.over = True
            winners = " and ".join(side_name(rules, side) for side in result.winners)
            why = {
                fh.Outcome.CONTRACT_MADE: f"made a contract and reached {rules.target}",
                fh.Outcome.OUT_BACKWARDS: f"the contractors fell to {rules.losing_score}",
                fh.Outcome.TARGET_REACHED: f"reached {rules.target}",
            }[result.outcome]
            print(f"game over: {winners} won ({why})", file=out)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="scorekeeper.py",
        description="Running scores for a Five Hundred table playing with real cards.",
    )
    parser.add_argument("hands", nargs="*", metavar="LINE", help='a hand, e.g. "7H by 0 took 8"')
    parser.add_argument("--players", type=int, default=4, help="2 to 6 (default 4)")
    parser.add_argument("--american", action="store_true", help="American 500 rules")
    parser.add_argument("--cap", type=int, default=None, help="defence score cap (V-CAP)")
    parser.add_argument("--trick-points", type=int, default=10, help="defence points a trick")
    parser.add_argument("--target", type=int, default=500, help="the winning score")
    return parser.parse_args(argv)


def lines_of(args: argparse.Namespace, stdin: TextIO) -> Iterable[str]:
    return args.hands if args.hands else stdin


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO = sys.stdin,
    out: TextIO = sys.stdout,
    err: TextIO = sys.stderr,
) -> int:
    """Run the scorekeeper; returns the exit status (1 if a line could not be read)."""
    args = parse_args(argv)
    preset = fh.Rules.american if args.american else fh.Rules.australian
    try:
        rules = preset(
            players=args.players,
            score_cap=args.cap,
            trick_points=args.trick_points,
            target=args.target,
        )
    except ValueError as error:
        print(f"scorekeeper.py: {error}", file=err)
        return 2
    keeper = Scorekeeper(rules)
    status = 0
    for number, line in enumerate(lines_of(args, stdin), 1):
        text = line.partition("#")[0].strip()
        if not text:
            continue
        if keeper.over:
            print(f"line {number}: the game is over; {text!r} is not scored", file=err)
            status = 1
            break
        try:
            hand = read_hand(text, rules)
            keeper.score(hand, out)
        except ValueError as error:
            print(f"line {number}: {error}", file=err)
            status = 1
    return status


if __name__ == "__main__":
    raise SystemExit(main())
