"""Fast random playouts for bots: to the end of the hand or of the game.

:func:`playout` plays on from a state with uniformly random legal actions
(or with a policy of yours) and returns the final state. Card play runs on
plain integers and lists inside one function call — no state is built per
card — and nothing mutable ever leaves it. The result is exactly the state
that :func:`~fivehundred.apply` would reach with the same actions: the
actions are in its record.

>>> import random
>>> import fivehundred as fh
>>> state = fh.deal(fh.new_game(dealer=0), seed=3)
>>> final = playout(state, rng=random.Random(1))
>>> final.phase in (fh.Phase.DEAL, fh.Phase.GAME_OVER), final.last_hand.number
(True, 1)
>>> fh.replay(fh.record(final)) == final  # the same actions through apply
True

The loop runs in the compiled ``fivehundred.ai._loop``; this module checks the
arguments first, so a wrong type is the library's own error in both builds.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Literal

from fivehundred._engine.state import GameState
from fivehundred.actions import Action
from fivehundred.ai import _loop
from fivehundred.errors import FiveHundredError, FiveHundredTypeError

__all__ = ["Policy", "playout"]

#: A policy: given a state whose seat is to act, and a random source, pick a legal action.
Policy = Callable[[GameState, random.Random], Action]


def playout(
    state: GameState,
    policy: Policy | None = None,
    rng: random.Random | None = None,
    *,
    until: Literal["hand", "game"] = "hand",
) -> GameState:
    """Play on from ``state`` to the end of the hand (or of the game) and return the end state.

    With no ``policy`` every seat takes a uniformly random legal action (the
    fast path: card play runs on the engine core's own state, with the same
    steps :func:`~fivehundred.apply` takes). A ``policy`` is called with each
    state to act and ``rng``; its actions are checked like any other. With
    ``until="game"`` new hands are dealt from ``rng`` until the game is over.
    ``rng`` defaults to a fresh ``random.Random()``; the global ``random`` is
    never used.

    Raises :class:`~fivehundred.FiveHundredError` (a ``ValueError``) for an unknown
    ``until``, :class:`~fivehundred.FiveHundredTypeError` for arguments of the wrong type and
    :class:`~fivehundred.IllegalActionError` when a policy's action is illegal.
    """
    if until not in ("hand", "game"):
        raise FiveHundredError(f"until={until!r}: 'hand' or 'game'")
    if type(state) is not GameState:
        raise FiveHundredTypeError(f"a fivehundred GameState is needed, not {state!r}")
    if rng is not None and not isinstance(rng, random.Random):
        raise FiveHundredTypeError(f"rng must be a random.Random, not {rng!r}")
    if policy is not None and not callable(policy):
        raise FiveHundredTypeError(f"policy is a function of (state, rng) or None, not {policy!r}")
    return _loop.run(state, policy, rng if rng is not None else random.Random(), until)
