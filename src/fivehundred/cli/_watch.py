"""Narrated games between computer players: ``demo`` (one hand) and ``watch`` (a game)."""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from typing import Final, TextIO

import fivehundred as fh
from fivehundred.bots import HeuristicPlayer, Player

# -- demo ------------------------------------------------------------------------------
from fivehundred.cli._render import (
    Style,
    actor,
    call_text,
    cards_text,
    describe,
    hand_events,
    side_name,
)
from fivehundred.tournament import (
    DEFAULT_BUDGET,
    make_player,
)


def demo(seed: int, *, ascii_only: bool = False, out: TextIO | None = None) -> fh.GameState:
    """Play one seeded hand between computer players, narrating it to ``out``."""
    out = out if out is not None else sys.stdout
    rng = random.Random(seed)
    players = [HeuristicPlayer(random.Random(rng.getrandbits(32))) for _ in range(4)]
    state = fh.new_game(dealer=rng.randrange(4))
    print(f"Five Hundred: a seeded demo hand (seed {seed})", file=out)
    while True:
        state = fh.deal(state, rng=rng)
        rules = state.rules
        print(f"\nHand {state.hand_number}, dealer: seat {state.dealer}", file=out)
        for seat in range(rules.players):
            print(f"  seat {seat}: {cards_text(state.hand(seat), ascii_only)}", file=out)
        while state.phase is fh.Phase.BIDDING:
            seat = actor(state)
            call = players[seat].choose(fh.observe(state, seat))
            assert isinstance(call, fh.Call)
            print(f"  seat {seat} calls {call_text(call, ascii_only)}", file=out)
            state = fh.apply(state, call)
        if state.phase is fh.Phase.DEAL:
            print(
                "  everyone passed: the hand is thrown in and the deal passes on (R3.9)", file=out
            )
            continue
        break
    contract, contractor = state.contract, state.contractor
    assert contract is not None and contractor is not None
    print(f"\nContract: {call_text(contract, ascii_only)} by seat {contractor}", file=out)
    print(f"  seat {contractor} takes the kitty: {cards_text(state.kitty, ascii_only)}", file=out)
    while state.phase is not fh.Phase.PLAY:
        seat = actor(state)
        action = players[seat].choose(fh.observe(state, seat))
        if isinstance(action, fh.Discard):
            print(f"  and discards {cards_text(action.cards, ascii_only)}", file=out)
        elif action == fh.DECLINE:
            print("  no Joker nomination (R7.1)", file=out)
        else:
            print(f"  Joker: {action}", file=out)
        state = fh.apply(state, action)
    if state.sitting_out:
        print(f"  seat {min(state.sitting_out)} sits out (R4.2)", file=out)
    shown = 0
    while state.phase is fh.Phase.PLAY:
        seat = actor(state)
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
        f"\n{side_name(rules, side)} took {result.tricks[side]} tricks: "
        f"{call_text(contract, ascii_only)} {verdict}",
        file=out,
    )
    for s, (change, score) in enumerate(zip(result.changes, result.scores, strict=True)):
        print(f"  {side_name(rules, s)}: {change:+d}, score {score}", file=out)
    return state


# -- watch -----------------------------------------------------------------------------

#: A game stops after this many hands even if nobody has won.
MAX_HANDS: Final = 300


def _seat_players(
    rules: fh.Rules, kinds: Sequence[str], rng: random.Random, budget: int, skip: int | None = None
) -> dict[int, Player]:
    """Computer players for every seat but ``skip``: side ``k`` plays ``kinds[k]``."""
    players: dict[int, Player] = {}
    for seat in range(rules.players):
        kind = kinds[rules.side_of(seat) % len(kinds)]
        source = random.Random(rng.getrandbits(64))
        if seat != skip:
            players[seat] = make_player(kind, source, budget)
    return players


def watch(
    seed: int,
    *,
    rules: fh.Rules | None = None,
    bots: Sequence[str] = ("heuristic",),
    budget: int = DEFAULT_BUDGET,
    ascii_only: bool = False,
    out: TextIO | None = None,
) -> fh.GameState:
    """Computer players play a whole seeded game; a transcript goes to ``out``."""
    out = out if out is not None else sys.stdout
    rules = rules if rules is not None else fh.Rules()
    style = Style(ascii_only)
    rng = random.Random(seed)
    state = fh.new_game(rules, dealer=rng.randrange(rules.players))
    players = _seat_players(rules, bots, rng, budget)
    teams = " v ".join(
        f"{style.side(rules, s)} ({bots[s % len(bots)]})" for s in range(len(rules.sides))
    )
    print(f"Five Hundred, {rules.players} players, seed {seed}: {teams}", file=out)
    auction: list[str] = []
    while not state.is_over:
        if state.phase is fh.Phase.DEAL:
            if state.hand_number >= MAX_HANDS:
                break
            state = fh.deal(state, rng=rng)
            print(f"\nHand {state.hand_number}: seat {state.dealer} deals", file=out)
            for seat in range(rules.players):
                print(f"  seat {seat}: {style.hand(state.hand(seat), None, None)}", file=out)
            if state.dead_hand:
                print(f"  dead hand: {style.hand(state.dead_hand, None, None)}", file=out)
            print(f"  kitty: {style.cards(state.kitty)}", file=out)
            continue
        seat = actor(state)
        action = players[seat].choose(fh.observe(state, seat))
        after = fh.apply(state, action)
        if isinstance(action, fh.Call):
            auction.append(f"{style.seat(seat)} {style.call(action)}")
            if after.phase is not fh.Phase.BIDDING:
                print("  auction: " + ", ".join(auction), file=out)
                auction = []
        elif not isinstance(action, fh.Play):
            print("  " + describe(style, state, action, watch=True), file=out)
        for line in hand_events(style, state, after):
            print(line, file=out)
        state = after
    if not state.is_over:
        print(f"\nStopped after {MAX_HANDS} hands without a winner.", file=out)
    return state
