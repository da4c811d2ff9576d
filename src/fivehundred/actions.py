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

__all__ = ["DECLINE", "Action", "Discard", "Nominate", "Play"]


def _sorted_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    items = tuple(cards)
    for card in items:
        if not isinstance(card, Card):
            raise TypeError(f"a discard is made of Cards, not {card!r}")
    return tuple(sorted(items))


@attrs.frozen(repr=False)
class Play:
    """Play a card. ``suit`` is named only when leading a suitless Joker (R7.4)."""

    card: Card
    suit: Suit | None = None

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
    """The contractor's kitty discard: the cards put face down (R4.1), in card order."""

    cards: tuple[Card, ...] = attrs.field(converter=_sorted_cards)

    def __str__(self) -> str:
        return "discard " + " ".join(str(c) for c in self.cards)


@attrs.frozen
class Nominate:
    """The contractor's Joker nomination (R7.1): a suit, or ``None`` to decline."""

    suit: Suit | None

    def __str__(self) -> str:
        return "decline" if self.suit is None else f"nominate {self.suit.letter}"


#: Declining to nominate the Joker.
DECLINE = Nominate(None)

#: Any action a player can take.
Action: TypeAlias = Call | Discard | Nominate | Play
