"""The ``fivehundred`` command line.

``fivehundred demo [--seed N] [--ascii]`` deals a seeded hand and shows computer
players bidding, exchanging with the kitty, playing and scoring it.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import TextIO

import fivehundred as fh
from fivehundred.bots import HeuristicPlayer

__all__ = ["main"]


def _cards(cards: Sequence[fh.Card], ascii_only: bool) -> str:
    return " ".join(str(c) if ascii_only else c.pretty for c in cards)


def _call(call: fh.Call, ascii_only: bool) -> str:
    return str(call) if ascii_only else call.pretty


def _actor(state: fh.GameState) -> int:
    seat = state.to_act
    if seat is None:
        raise fh.InvalidStateError(["no seat is to act"])
    return seat


def _side_name(rules: fh.Rules, side: int) -> str:
    return "seats " + " & ".join(str(s) for s in rules.sides[side])


def demo(seed: int, *, ascii_only: bool = False, out: TextIO = sys.stdout) -> fh.GameState:
    """Play one seeded hand between computer players, narrating it to ``out``."""
    rng = random.Random(seed)
    players = [HeuristicPlayer(random.Random(rng.getrandbits(32))) for _ in range(4)]
    state = fh.new_game(dealer=rng.randrange(4))
    print(f"Five Hundred: a seeded demo hand (seed {seed})", file=out)
    while True:
        state = fh.deal(state, rng=rng)
        rules = state.rules
        print(f"\nHand {state.hand_number}, dealer: seat {state.dealer}", file=out)
        for seat in range(rules.players):
            print(f"  seat {seat}: {_cards(state.hand(seat), ascii_only)}", file=out)
        while state.phase is fh.Phase.BIDDING:
            seat = _actor(state)
            call = players[seat].choose(fh.observe(state, seat))
            assert isinstance(call, fh.Call)
            print(f"  seat {seat} calls {_call(call, ascii_only)}", file=out)
            state = fh.apply(state, call)
        if state.phase is fh.Phase.DEAL:
            print(
                "  everyone passed: the hand is thrown in and the deal passes on (R3.9)", file=out
            )
            continue
        break
    contract, contractor = state.contract, state.contractor
    assert contract is not None and contractor is not None
    print(f"\nContract: {_call(contract, ascii_only)} by seat {contractor}", file=out)
    print(f"  seat {contractor} takes the kitty: {_cards(state.kitty, ascii_only)}", file=out)
    while state.phase is not fh.Phase.PLAY:
        seat = _actor(state)
        action = players[seat].choose(fh.observe(state, seat))
        if isinstance(action, fh.Discard):
            print(f"  and discards {_cards(action.cards, ascii_only)}", file=out)
        else:
            print(f"  Joker: {action}", file=out)
        state = fh.apply(state, action)
    if state.sitting_out:
        print(f"  seat {min(state.sitting_out)} sits out (R4.2)", file=out)
    shown = 0
    while state.phase is fh.Phase.PLAY:
        seat = _actor(state)
        state = fh.apply(state, players[seat].choose(fh.observe(state, seat)))
        if len(state.tricks) > shown:
            trick = state.tricks[shown]
            shown += 1
            plays = ", ".join(
                f"{s}:{card if ascii_only else card.pretty}" for s, card in trick.plays
            )
            print(f"  trick {shown:2}: {plays}  -> seat {trick.winner}", file=out)
    result = state.last_hand
    assert result is not None
    side = rules.side_of(contractor)
    verdict = "made" if result.made else "failed"
    print(
        f"\n{_side_name(rules, side)} took {result.tricks[side]} tricks: "
        f"{_call(contract, ascii_only)} {verdict}",
        file=out,
    )
    for s, (change, score) in enumerate(zip(result.changes, result.scores, strict=True)):
        print(f"  {_side_name(rules, s)}: {change:+d}, score {score}", file=out)
    return state


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fivehundred", description="Five Hundred (500), the card game."
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    show = commands.add_parser("demo", help="deal, bid, play and score one seeded hand")
    show.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    show.add_argument("--ascii", action="store_true", help="plain letters instead of suit symbols")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["demo", *(argv or [])])
    if args.command == "demo":
        demo(args.seed, ascii_only=args.ascii)
    return 0
