"""The loop of :func:`fivehundred.playout.playout`, compiled by mypyc in the compiled build.

Internal: :mod:`fivehundred.playout` checks the arguments (a compiled function
answers a wrong type with a bare ``TypeError``) and calls :func:`run`.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from fivehundred import _core
from fivehundred.actions import Action
from fivehundred.engine import apply
from fivehundred.state import GameState


def run(
    state: GameState,
    policy: Callable[[GameState, random.Random], Action] | None,
    source: random.Random,
    until: str,
) -> GameState:
    """Play on from ``state`` until the hand (``until="hand"``) or the game is over."""
    played = False  # has a hand been under way?
    while not state.is_over:
        phase = _core.hand_block(state).phase
        if phase == _core.DEAL:
            if until == "hand" and played:
                break
            state = _core.deal_from(state, source)
            continue
        played = True
        if policy is not None:
            state = apply(state, policy(state, source))
        elif phase == _core.PLAY:
            state = _core.random_play_hand(state, source)
        else:
            state = _core.random_step(state, source)
    return state
