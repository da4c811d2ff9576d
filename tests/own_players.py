"""Players as a bot author writes them, for the match tests to name as ``module:attr``
(``own_players:FirstChoicePlayer``): importable by name on other processes too."""

from __future__ import annotations

import random

import attrs

import fivehundred as fh
from fivehundred.bots import RandomPlayer


@attrs.define
class FirstChoicePlayer:
    """Takes the first legal action, and counts its decisions (state a copy must not
    share). Made from nothing: its class is a factory that takes no random source."""

    decisions: int = attrs.field(default=0, kw_only=True)

    def choose(self, view: fh.PlayerView) -> fh.Action:
        self.decisions += 1
        return view.legal_actions[0]


def seeded_random(rng: random.Random) -> RandomPlayer:
    """A factory: the built-in ``"random"`` type, from the seat's random source."""
    return RandomPlayer(rng)


def not_a_factory(rng: random.Random) -> str:
    return "a string is not a player"


#: A player object to name as ``own_players:FIRST``.
FIRST = FirstChoicePlayer()
#: Neither a player nor a factory.
NOT_A_PLAYER = 42
