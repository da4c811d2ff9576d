"""Card order under a contract, effective suits and the winner of a trick (R1.3, R1.4, R5, R7).

The engine works on small integers: a card is its ``Card.index`` and a set of
cards is a bit mask. A :class:`Context` holds, for one contract and Joker
nomination, the mask of each effective suit, the trump mask, and the power of
every card; it is built once and cached.

>>> import fivehundred as fh
>>> fh.effective_suit(fh.parse_card("JD"), fh.parse_call("7H"))
<Suit.HEARTS: 3>
>>> fh.effective_suit(fh.JOKER, fh.parse_call("7NT")) is None
True
>>> fh.trick_winner(fh.parse_cards("AH JD 10H KS"), fh.parse_call("6H"))
1
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final, TypeAlias

import attrs

from fivehundred.calls import Call, Strain
from fivehundred.cards import JOKER_INDEX, RANKS_PER_SUIT, Card, Rank, Suit

__all__ = [
    "ContractLike",
    "Context",
    "context",
    "contract_context",
    "effective_suit",
    "trick_winner",
]

_JOKER_BIT: Final = 1 << JOKER_INDEX
_SUIT_MASK: Final = (1 << RANKS_PER_SUIT) - 1
#: Power of a trump above every plain card.
_TRUMP_BASE: Final = 100


def _jack(suit: int) -> int:
    return suit * RANKS_PER_SUIT + Rank.JACK - Rank.TWO


@attrs.frozen
class Context:
    """How cards behave under one contract: effective suits, trumps and card power.

    ``trump`` is the trump suit, or ``None`` for the No Trumps family (No Trumps
    and every misère contract). ``joker_suit`` is the suit the Joker was
    nominated into in the No Trumps family (R7.1), or ``None``.
    """

    trump: Suit | None
    joker_suit: Suit | None
    #: Bit mask of the cards whose effective suit is each suit, by suit.
    suit_masks: tuple[int, int, int, int]
    #: Bit mask of the cards that are trumps.
    trump_mask: int
    #: Ordering value of each card index: higher wins among eligible cards.
    power: tuple[int, ...]

    @property
    def free_joker(self) -> bool:
        """True when the Joker has no suit (No Trumps family, not nominated; R7.2)."""
        return self.trump is None and self.joker_suit is None

    def suit_of(self, index: int) -> int:
        """The effective suit of a card index, or ``-1`` for a suitless Joker."""
        bit = 1 << index
        for suit, mask in enumerate(self.suit_masks):
            if bit & mask:
                return suit
        return -1

    def winner(self, cards: Sequence[int], led: int) -> int:
        """The position in ``cards`` of the winning card; ``led`` is the led suit or ``-1``."""
        eligible = self.trump_mask | (self.suit_masks[led] if led >= 0 else 0)
        power = self.power
        best = -1
        best_at = 0
        for at, index in enumerate(cards):
            if (1 << index) & eligible and power[index] > best:
                best = power[index]
                best_at = at
        return best_at


@cache
def context(trump: Suit | None, joker_suit: Suit | None = None) -> Context:
    """The :class:`Context` of a trump suit (or ``None`` for No Trumps/misère)."""
    if trump is not None and joker_suit is not None:
        raise ValueError("the Joker is nominated only in No Trumps and misère contracts (R7.1)")
    suit_masks = [_SUIT_MASK << (s * RANKS_PER_SUIT) for s in range(4)]
    power = [0] * (JOKER_INDEX + 1)
    for s in range(4):
        for offset in range(RANKS_PER_SUIT):
            power[s * RANKS_PER_SUIT + offset] = offset + Rank.TWO
    if trump is not None:
        left = _jack(trump ^ 1)
        right = _jack(trump)
        suit_masks[trump ^ 1] &= ~(1 << left)
        suit_masks[trump] |= (1 << left) | _JOKER_BIT
        trump_mask = suit_masks[trump]
        for index in range(JOKER_INDEX):
            if (1 << index) & trump_mask:
                power[index] += _TRUMP_BASE
        power[left] = _TRUMP_BASE + 50
        power[right] = _TRUMP_BASE + 51
        power[JOKER_INDEX] = _TRUMP_BASE + 52
    elif joker_suit is not None:
        suit_masks[joker_suit] |= _JOKER_BIT
        trump_mask = 0
        power[JOKER_INDEX] = Rank.ACE + 1
    else:
        trump_mask = _JOKER_BIT
        power[JOKER_INDEX] = _TRUMP_BASE + 52
    masks = (suit_masks[0], suit_masks[1], suit_masks[2], suit_masks[3])
    return Context(trump, joker_suit, masks, trump_mask, tuple(power))


#: How the pure rule functions take a contract: a bid (:class:`Call`), a :class:`Strain`,
#: a trump :class:`Suit`, or ``None`` for No Trumps.
ContractLike: TypeAlias = Call | Strain | Suit | None


def contract_context(contract: ContractLike, joker_suit: Suit | None = None) -> Context:
    """The :class:`Context` of a contract: a :class:`Call` (misère is of the No Trumps
    family), a :class:`Strain`, a trump :class:`Suit`, or ``None`` for No Trumps."""
    if isinstance(contract, Call):
        if not contract.is_bid:
            raise ValueError("a pass is not a contract")
        trump = contract.trump
    elif isinstance(contract, Strain):
        trump = contract.suit
    elif contract is None or isinstance(contract, Suit):
        trump = contract
    else:
        raise TypeError(f"a contract is a Call, a Strain, a Suit or None, not {contract!r}")
    return context(trump, joker_suit)


def effective_suit(
    card: Card, contract: ContractLike, *, joker_suit: Suit | None = None
) -> Suit | None:
    """The suit a card counts as under a contract (R5.2).

    In a trump contract the Joker and the left bower are of the trump suit. In
    No Trumps and misère the Joker has no suit (``None``) unless it was
    nominated into ``joker_suit`` (R7.1).

    >>> import fivehundred as fh
    >>> effective_suit(fh.parse_card("JC"), fh.Strain.SPADES)
    <Suit.SPADES: 0>
    >>> effective_suit(fh.parse_card("JC"), fh.Strain.NO_TRUMPS)
    <Suit.CLUBS: 1>
    >>> effective_suit(fh.JOKER, fh.MISERE, joker_suit=fh.Suit.HEARTS)
    <Suit.HEARTS: 3>
    """
    suit = contract_context(contract, joker_suit).suit_of(card.index)
    return None if suit < 0 else Suit(suit)


def trick_winner(
    cards: Sequence[Card],
    contract: ContractLike,
    *,
    joker_suit: Suit | None = None,
    led_suit: Suit | None = None,
) -> int:
    """The position (0-based, in play order) of the card that wins a trick (R5.4, R7).

    ``led_suit`` is needed only when a suitless Joker was led (R7.4): it is the
    suit the leader named; when it is ``None`` the led suit is the effective
    suit of the first card.

    >>> import fivehundred as fh
    >>> trick_winner(fh.parse_cards("KS AS JC Jo"), fh.Strain.SPADES)
    3
    >>> trick_winner(fh.parse_cards("KS AS JC 10S"), fh.Strain.SPADES)
    2
    >>> trick_winner(fh.parse_cards("Jo 10H AH"), fh.Strain.NO_TRUMPS, led_suit=fh.Suit.HEARTS)
    0
    >>> trick_winner(fh.parse_cards("KD Jo AD"), fh.Strain.NO_TRUMPS, joker_suit=fh.Suit.HEARTS)
    2
    """
    if not cards:
        raise ValueError("a trick has at least one card")
    ctx = contract_context(contract, joker_suit)
    indices = [card.index for card in cards]
    led = int(led_suit) if led_suit is not None else ctx.suit_of(indices[0])
    return ctx.winner(indices, led)
