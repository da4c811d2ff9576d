"""Narrated games between computer players: ``demo`` (one hand) and ``watch`` (a game)."""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from typing import Final, TextIO

import fivehundred as fh
from fivehundred.bots import Player
from fivehundred.bots.tournament import (
    DEFAULT_BUDGET,
    make_player,
)

# -- demo ------------------------------------------------------------------------------
from fivehundred.cli._render import Narrator, Style, actor, final_scores, use_colour


def demo(seed: int, *, ascii_only: bool = False, out: TextIO | None = None) -> fh.GameState:
    """Play one seeded hand between computer players, narrating it to ``out``.

    The narration is :func:`watch`'s, stopped after the first hand that is played.
    """
    out = out if out is not None else sys.stdout
    print(f"Five Hundred: a seeded demo hand (seed {seed})", file=out)
    return watch(seed, ascii_only=ascii_only, out=out, hands=1, title=False)


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
    hands: int | None = None,
    title: bool = True,
) -> fh.GameState:
    """Computer players play a whole seeded game (or ``hands`` played hands); a transcript
    goes to ``out``."""
    out = out if out is not None else sys.stdout
    rules = rules if rules is not None else fh.Rules()
    style = Style(ascii_only, colour=use_colour(out))
    narrator = Narrator(style, reveal=True)
    rng = random.Random(seed)
    state = fh.new_game(rules, dealer=rng.randrange(rules.players))
    players = _seat_players(rules, bots, rng, budget)
    teams = " v ".join(
        f"{style.side(rules, s)} ({bots[s % len(bots)]})" for s in range(len(rules.sides))
    )
    if title:
        print(f"Five Hundred, {rules.players} players, seed {seed}: {teams}", file=out)
    played = 0
    while not state.is_over:
        if state.phase is fh.Phase.DEAL:
            if state.hand_number >= MAX_HANDS or (hands is not None and played >= hands):
                break
            state = fh.deal(state, rng=rng)
            for line in narrator.deal(state):
                print(line, file=out)
            continue
        seat = actor(state)
        action = players[seat].choose(fh.observe(state, seat))
        after = fh.apply(state, action)
        for line in narrator.step(state, action, after):
            print(line, file=out)
        if after.phase in (fh.Phase.DEAL, fh.Phase.GAME_OVER) and after.last_hand is not None:
            played += after.last_hand.contract is not None or after.last_hand.all_pass
        state = after
    if hands is None and not state.is_over:
        print(f"\nStopped after {MAX_HANDS} hands without a winner.", file=out)
    elif hands is None:
        print(final_scores(style, state), file=out)
    return state
