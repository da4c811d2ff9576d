"""The loop of :func:`fivehundred.ai.playout.playout`, compiled by mypyc in the compiled build.

Internal: :mod:`fivehundred.ai.playout` checks the arguments (a compiled function
answers a wrong type with a bare ``TypeError``) and calls :func:`run`.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from fivehundred._engine.deal import deal_from
from fivehundred._engine.hand import DEAL, PLAY
from fivehundred._engine.simulate import random_play_hand, random_step
from fivehundred._engine.state import GameState, hand_block
from fivehundred.actions import Action
from fivehundred.engine import apply


def run(
    state: GameState,
    policy: Callable[[GameState, random.Random], Action] | None,
    source: random.Random,
    until: str,
) -> GameState:
    """Play on from ``state`` until the hand (``until="hand"``) or the game is over."""
    played = False  # has a hand been under way?
    while not state.is_over:
        phase = hand_block(state).phase
        if phase == DEAL:
            if until == "hand" and played:
                break
            state = deal_from(state, source)
            continue
        played = True
        if policy is not None:
            state = apply(state, policy(state, source))
        elif phase == PLAY:
            state = random_play_hand(state, source)
        else:
            state = random_step(state, source)
    return state
