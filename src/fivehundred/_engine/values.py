"""Small public value types the rule engine returns or takes: :class:`Phase`, :class:`Trick`
and :data:`ANY_SEAT`.

They live apart from the compiled engine (``fivehundred._engine``) because they are
attrs and enum classes, which stay plain Python in both builds.
"""

from __future__ import annotations

import enum
from typing import Final, Literal, NoReturn, TypeAlias

import attrs

from fivehundred._engine.quoting import no_member
from fivehundred.cards import Card, Suit

__all__ = ["ANY_SEAT", "AnySeat", "Phase", "Trick"]


class Phase(enum.Enum):
    """Where a game is.

    Looking a member up by a value that is none of its members raises
    :class:`~fivehundred.FiveHundredError` (a ``ValueError``, as Python's own lookup), or
    :class:`~fivehundred.FiveHundredTypeError` for a value of the wrong type.
    """

    @classmethod
    def _missing_(cls, value: object) -> NoReturn:
        no_member(cls, value)

    #: Waiting for a deal: before the first hand, after a hand, after a throw-in.
    DEAL = "deal"
    #: The auction (R3).
    BIDDING = "bidding"
    #: The contractor exchanges with the kitty (R4.1).
    DISCARD = "discard"
    #: The No-Trumps or misère contractor may nominate the Joker's suit (R4.3, R7.1).
    NOMINATE = "nominate"
    #: Five players: the contractor calls a partner (P5).
    PARTNER = "partner"
    #: Card play (R5).
    PLAY = "play"
    #: The game is over (R9).
    GAME_OVER = "game_over"


@attrs.frozen
class Trick:
    """A completed trick: who led, the cards in play order, the winner and the led suit.

    Constructing one checks nothing and raises nothing: it is a plain record of values the
    library made.
    """

    leader: int
    #: ``(seat, card)`` pairs in play order.
    plays: tuple[tuple[int, Card], ...]
    winner: int
    #: The led suit, or ``None`` when a suitless Joker was led to the last trick (R7.5).
    led_suit: Suit | None

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards in play order."""
        return tuple(card for _, card in self.plays)


class _AnySeat(enum.Enum):
    """The type of :data:`ANY_SEAT`: one member, so that a type checker tells it from a seat."""

    ANY_SEAT = "ANY_SEAT"

    def __repr__(self) -> str:
        return "fivehundred.ANY_SEAT"


#: "Whichever seat is to act": the default ``seat`` of :func:`~fivehundred.apply`,
#: :func:`~fivehundred.check_action` and :func:`~fivehundred.is_legal`, for a
#: trusted caller (a bot, a replay, a test) that skips the turn check. It is a
#: value of its own, not ``None``: ``seat=None`` (a client's JSON ``null``) is not
#: a seat and is refused, so an app cannot skip the turn check by passing one through.
ANY_SEAT: Final = _AnySeat.ANY_SEAT
#: The type of :data:`ANY_SEAT`, for annotations: ``seat: int | AnySeat``.
AnySeat: TypeAlias = Literal[_AnySeat.ANY_SEAT]
