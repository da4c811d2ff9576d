"""The computer player protocol, and the player that picks a legal action at random."""

from __future__ import annotations

import random
from typing import Protocol

import attrs

from fivehundred._engine.quoting import expect
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
    """The view's legal actions: every player's ``choose`` starts here.

    Raises :class:`~fivehundred.FiveHundredTypeError` for anything but a view (a player is
    given what its seat sees, :func:`~fivehundred.observe`), and
    :class:`~fivehundred.FiveHundredError` when the seat has nothing to do.
    """
    expect(view, PlayerView, "a PlayerView (fh.observe(state, seat)): a player sees a view")
    legal = view.legal_actions
    if not legal:
        if view.result is not None:
            raise FiveHundredError(f"seat {view.seat} has no action to take: the game is over")
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
