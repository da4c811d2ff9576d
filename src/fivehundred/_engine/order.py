"""The card order under every contract (R1.3, R1.4, R5.2, R7).

Each card's effective suit, whether it is a trump, and its power (higher wins
among the cards that may win a trick, R5.4) under a trump suit, No Trumps or
misère, with or without a nominated Joker. Internal; compiled by mypyc.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, final

from fivehundred.cards import JOKER_INDEX, RANKS_PER_SUIT, Rank, Suit
from fivehundred.errors import FiveHundredError

#: Power of a trump above every plain card.
TRUMP_BASE: Final = 100


@final
class Ctx:
    """How cards behave under one contract: effective suits, trumps and card power.

    One class serves two numberings: the library's card index space (``Card.index``;
    :func:`context`) and a table's deck positions (:func:`positions_context`). A
    context is built once and cached; compare contexts by identity.
    """

    def __init__(
        self,
        trump: Suit | None,
        joker_suit: Suit | None,
        suit_masks: tuple[int, int, int, int],
        trump_mask: int,
        power: tuple[int, ...],
        suits: tuple[int, ...],
        joker: int,
    ) -> None:
        #: The trump suit, or ``None`` for the No Trumps family (R1.4).
        self.trump = trump
        #: The suit the Joker was nominated into (R7.1), or ``None``.
        self.joker_suit = joker_suit
        #: Bit mask of the cards whose effective suit is each suit, by suit.
        self.suit_masks = suit_masks
        #: Bit mask of the cards that are trumps.
        self.trump_mask = trump_mask
        #: Ordering value of each card: higher wins among eligible cards.
        self.power = power
        #: Effective suit of each card, ``-1`` for a suitless Joker (R5.2).
        self.suits = suits
        #: The Joker's number in this numbering, and its bit.
        self.joker = joker
        self.joker_bit = 1 << joker
        #: True when the Joker has no suit (No Trumps family, not nominated; R7.2).
        self.free_joker = trump is None and joker_suit is None

    def suit_of(self, card: int) -> int:
        """The effective suit of a card, or ``-1`` for a suitless Joker (R5.2)."""
        return self.suits[card]

    def winner(self, cards: Sequence[int], led: int) -> int:
        """The position in ``cards`` of the winning card (R5.4); ``led`` is the led suit or -1."""
        packed = len(cards)
        for at in range(len(cards)):
            packed |= cards[at] << (3 + 7 * at)
        return self.best(packed, led)

    def led_suit(self, card: int, named: int) -> int:
        """The suit a card leads to a trick (R5.2, R7.4): the suit a Joker lead names
        (``named``, or -1), else the card's effective suit; -1 for a suitless lead (R7.5)."""
        return named if named >= 0 else self.suits[card]

    def eligible(self, led: int) -> int:
        """The cards that can win a trick led in ``led`` (R5.4): the trumps and the led suit."""
        return self.trump_mask | (self.suit_masks[led] if led >= 0 else 0)

    def best(self, trick: int, led: int) -> int:
        """:meth:`winner` of a packed trick: three bits of count, then seven bits a card.

        The one place R5.4 is decided: the highest trump wins; without one, the
        highest card of the led suit; other suits never win.
        """
        eligible = self.eligible(led)
        power = self.power
        best = -1
        best_at = 0
        for at in range(trick & 7):
            card = (trick >> (3 + 7 * at)) & 127
            if (eligible >> card) & 1 and power[card] > best:
                best = power[card]
                best_at = at
        return best_at

    def __repr__(self) -> str:
        trump = "NT" if self.trump is None else self.trump.letter
        joker = "" if self.joker_suit is None else f", Joker in {self.joker_suit.letter}"
        return f"<Ctx {trump}{joker}>"


def _jack(suit: int) -> int:
    return suit * RANKS_PER_SUIT + Rank.JACK - Rank.TWO


_CONTEXTS: Final[dict[int, Ctx]] = {}


def context(trump: Suit | None, joker_suit: Suit | None = None) -> Ctx:
    """The card order of a contract in the card index space (R1.3, R1.4, R7.1, R7.2).

    ``trump`` is the trump suit, or ``None`` for No Trumps and misère;
    ``joker_suit`` the nominated suit of the Joker in those contracts.
    """
    key = (-1 if trump is None else int(trump)) * 8 + (
        -1 if joker_suit is None else int(joker_suit)
    )
    found = _CONTEXTS.get(key)
    if found is not None:
        return found
    if trump is not None and joker_suit is not None:
        raise FiveHundredError(
            "the Joker is nominated only in No Trumps and misère contracts (R7.1)"
        )
    chunk = (1 << RANKS_PER_SUIT) - 1
    masks = [chunk << (s * RANKS_PER_SUIT) for s in range(4)]
    joker_bit = 1 << JOKER_INDEX
    power = [0] * (JOKER_INDEX + 1)
    for s in range(4):
        for offset in range(RANKS_PER_SUIT):
            power[s * RANKS_PER_SUIT + offset] = offset + Rank.TWO
    if trump is not None:
        t = int(trump)
        left = _jack(t ^ 1)
        right = _jack(t)
        masks[t ^ 1] &= ~(1 << left)
        masks[t] |= (1 << left) | joker_bit
        trump_mask = masks[t]
        for index in range(JOKER_INDEX):
            if (trump_mask >> index) & 1:
                power[index] += TRUMP_BASE
        power[left] = TRUMP_BASE + 50
        power[right] = TRUMP_BASE + 51
        power[JOKER_INDEX] = TRUMP_BASE + 52
    elif joker_suit is not None:
        masks[int(joker_suit)] |= joker_bit
        trump_mask = 0
        power[JOKER_INDEX] = Rank.ACE + 1
    else:
        trump_mask = joker_bit
        power[JOKER_INDEX] = TRUMP_BASE + 52
    suits = [-1] * (JOKER_INDEX + 1)
    for s in range(4):
        for index in range(JOKER_INDEX + 1):
            if (masks[s] >> index) & 1:
                suits[index] = s
    ctx = Ctx(
        trump,
        joker_suit,
        (masks[0], masks[1], masks[2], masks[3]),
        trump_mask,
        tuple(power),
        tuple(suits),
        JOKER_INDEX,
    )
    _CONTEXTS[key] = ctx
    return ctx
