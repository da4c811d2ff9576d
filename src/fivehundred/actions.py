"""The actions a player takes: a call, the kitty discard, the Joker nomination, a card play.

>>> import fivehundred as fh
>>> fh.Play(fh.parse_card("KS"))
Play(card=Card.parse('KS'))
>>> fh.Play(fh.JOKER, suit=fh.Suit.HEARTS)  # leading a suitless Joker names a suit (R7.4)
Play(card=Card.parse('Jo'), suit=Suit.HEARTS)
>>> fh.Discard(fh.parse_cards("4D 5S 6S"))  # stored in card order
Discard(cards=(Card.parse('5S'), Card.parse('6S'), Card.parse('4D')))
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeAlias

import attrs

from fivehundred.calls import Call
from fivehundred.cards import Card, Suit
from fivehundred.errors import FiveHundredTypeError

__all__ = ["DECLINE", "Action", "CallPartner", "Discard", "Nominate", "Play"]


def _sorted_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    try:
        items = tuple(cards)
    except TypeError:
        raise FiveHundredTypeError(f"a discard is a sequence of Cards, not {cards!r}") from None
    for card in items:
        if not isinstance(card, Card):
            raise FiveHundredTypeError(f"a discard is made of Cards, not {card!r}")
    return tuple(sorted(items))


def _seat_number(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise FiveHundredTypeError(f"{attribute.name} must be a seat number, not {value!r}")


def _card(instance: object, attribute: attrs.Attribute[Card], value: object) -> None:
    if not isinstance(value, Card):
        raise FiveHundredTypeError(f"{attribute.name} must be a Card, not {value!r}")


def _optional_card(
    instance: object, attribute: attrs.Attribute[Card | None], value: object
) -> None:
    if value is not None and not isinstance(value, Card):
        raise FiveHundredTypeError(f"{attribute.name} must be a Card or None, not {value!r}")


def _optional_suit(
    instance: object, attribute: attrs.Attribute[Suit | None], value: object
) -> None:
    if value is not None and not isinstance(value, Suit):
        raise FiveHundredTypeError(f"{attribute.name} must be a Suit or None, not {value!r}")


@attrs.frozen(repr=False)
class Play:
    """Play a card. ``suit`` is named only when leading a suitless Joker (R7.4).

    Raises :class:`~fivehundred.FiveHundredTypeError` when ``card`` is not a
    :class:`~fivehundred.Card` or ``suit`` not a :class:`~fivehundred.Suit` or ``None``.
    """

    card: Card = attrs.field(validator=_card)
    suit: Suit | None = attrs.field(default=None, validator=_optional_suit)

    def __repr__(self) -> str:
        if self.suit is None:
            return f"Play(card={self.card!r})"
        return f"Play(card={self.card!r}, suit=Suit.{self.suit.name})"

    def __str__(self) -> str:
        if self.suit is None:
            return str(self.card)
        return f"{self.card}:{self.suit.letter}"


@attrs.frozen
class Discard:
    """The contractor's kitty discard: the cards put face down (R4.1), in card order.

    Raises :class:`~fivehundred.FiveHundredTypeError` when ``cards`` is not a sequence of
    :class:`~fivehundred.Card`.
    """

    cards: tuple[Card, ...] = attrs.field(converter=_sorted_cards)

    def __str__(self) -> str:
        return "discard " + " ".join(str(c) for c in self.cards)


@attrs.frozen(repr=False)
class Nominate:
    """The contractor's Joker nomination (R7.1): a suit, or ``None`` for no nomination.

    Raises :class:`~fivehundred.FiveHundredTypeError` when ``suit`` is not a
    :class:`~fivehundred.Suit` or ``None``.
    """

    suit: Suit | None = attrs.field(validator=_optional_suit)

    def __repr__(self) -> str:
        return f"Nominate(suit={None if self.suit is None else f'Suit.{self.suit.name}'})"

    def __str__(self) -> str:
        return "decline" if self.suit is None else f"nominate {self.suit.letter}"


@attrs.frozen
class CallPartner:
    """The five-player contractor's partner call (P5): a card, or a seat with ``partner_by_seat``.

    >>> import fivehundred as fh
    >>> str(CallPartner(fh.parse_card("AH"))), str(CallPartner(seat=2))
    ('partner AH', 'partner seat 2')

    Raises :class:`~fivehundred.FiveHundredTypeError` when ``card`` is not a
    :class:`~fivehundred.Card`, ``seat`` not a seat number, or both or neither are given.
    """

    card: Card | None = attrs.field(default=None, validator=_optional_card)
    seat: int | None = attrs.field(
        default=None,
        kw_only=True,
        validator=attrs.validators.optional(_seat_number),
    )

    def __attrs_post_init__(self) -> None:
        if (self.card is None) == (self.seat is None):
            raise FiveHundredTypeError("a partner call names a card or a seat, not both or neither")

    def __str__(self) -> str:
        return f"partner seat {self.seat}" if self.card is None else f"partner {self.card}"


#: No nomination (R7.1): the only choice of a No Trumps or misère contractor without the Joker.
DECLINE = Nominate(None)

#: Any action a player can take.
Action: TypeAlias = Call | Discard | Nominate | CallPartner | Play
