"""The computer player protocol, and the player that picks a legal action at random."""

from __future__ import annotations

import random
from typing import Protocol

import attrs

from fivehundred.actions import Action
from fivehundred.errors import FiveHundredError
from fivehundred.views import PlayerView


class Player(Protocol):
    """A computer player: picks one of ``view.legal_actions``.

    A player may raise what it likes for a view that is not its turn; the library's players
    raise :class:`~fivehundred.FiveHundredError`.
    """

    def choose(self, view: PlayerView) -> Action:
        """The action to take; called only when ``view.my_turn``."""
        ...


def require_turn(view: PlayerView) -> tuple[Action, ...]:
    legal = view.legal_actions
    if not legal:
        raise FiveHundredError(f"seat {view.seat} has no action to take: it is not its turn")
    return legal


@attrs.define
class RandomPlayer:
    """Chooses uniformly among the legal actions, from its own random source.

    Its ``choose`` raises :class:`~fivehundred.FiveHundredError` when it is not the view's
    seat's turn (the view has no legal actions).
    """

    rng: random.Random = attrs.field(factory=random.Random)

    def choose(self, view: PlayerView) -> Action:
        """A uniformly random legal action."""
        return self.rng.choice(require_turn(view))
