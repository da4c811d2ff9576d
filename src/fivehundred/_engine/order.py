"""The card order under every contract (R1.3, R1.4, R5.2, R7).

Each card's effective suit, whether it is a trump, and its power (higher wins
among the cards that may win a trick, R5.4) under a trump suit, No Trumps or
misère, with or without a nominated Joker. Internal; compiled by mypyc.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeAlias, final

from fivehundred.cards import JOKER_INDEX, RANKS_PER_SUIT, Rank, Suit
from fivehundred.errors import FiveHundredError

#: Power of a trump above every plain card.
TRUMP_BASE: Final = 100
#: Power of the first card above a row's ranks (a bower, the Joker): above the Ace.
TOP_BASE: Final = Rank.ACE + 1


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
        #: Bit mask of the cards whose effective suit is each suit, by suit. (A tuple of
        #: any length to mypyc: a fixed-length one is stored as four unboxed ints, and
        #: indexing it by a variable suit would box all four into a new tuple first.)
        self.suit_masks: tuple[int, ...] = suit_masks
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


#: Stand-ins for the cards whose place depends on the contract, in the order rows below.
LEFT_BOWER: Final = -1
RIGHT_BOWER: Final = -2
THE_JOKER: Final = -3
#: The trump suit above its own ranks, lowest first (R1.3): the left bower (the Jack of
#: the other suit of the trump colour), the right bower (the Jack of trumps), the Joker.
#: Both Jacks leave their own place in their suit.
TRUMP_TOP: Final = (LEFT_BOWER, RIGHT_BOWER, THE_JOKER)
#: A suit the Joker is nominated into, above its own ranks (R7.1): the Joker.
NOMINATED_TOP: Final = (THE_JOKER,)
#: The trumps of a contract without a trump suit and with the Joker not nominated (No
#: Trumps, misère; R1.4, R7.2): the Joker alone, which beats every card.
FREE_JOKER_TRUMPS: Final = (THE_JOKER,)


def _jack(suit: int) -> int:
    return suit * RANKS_PER_SUIT + Rank.JACK - Rank.TWO


def _resolve(place: int, trump: int) -> int:
    """The card index of a place in an order row: a card index, or a stand-in."""
    if place == THE_JOKER:
        return JOKER_INDEX
    if place == RIGHT_BOWER:
        return _jack(trump)
    if place == LEFT_BOWER:
        return _jack(trump ^ 1)  # the other suit of the same colour (suits pair 0-1, 2-3)
    return place


#: One row of a contract's card order: the cards in their rank order, then the cards
#: placed above every rank (a trump suit's bowers and Joker, a nominated Joker).
Row: TypeAlias = tuple[tuple[int, ...], tuple[int, ...]]


def order_rows(trump: int, joker_suit: int) -> tuple[Row, ...]:
    """The card order of a contract as rows, lowest card first (R1.3, R1.4, R7.1, R7.2).

    Row ``s`` (0-3) holds the cards whose effective suit is ``s``; row 4 the trumps
    with no suit of their own (the free Joker of No Trumps and misère). Each row is
    its cards in rank order (R1.2), then its top: :data:`TRUMP_TOP` for the trump
    suit, :data:`NOMINATED_TOP` for the suit the Joker is nominated into. ``trump``
    and ``joker_suit`` are suit numbers, or -1. Every card index is placed once.
    """
    moved = (_jack(trump), _jack(trump ^ 1)) if trump >= 0 else ()
    rows: list[Row] = []
    for suit in range(4):
        ranks = tuple(
            card
            for card in range(suit * RANKS_PER_SUIT, (suit + 1) * RANKS_PER_SUIT)
            if card not in moved
        )
        top: tuple[int, ...] = ()
        if suit == trump:
            top = TRUMP_TOP
        elif suit == joker_suit:
            top = NOMINATED_TOP
        rows.append((ranks, tuple(_resolve(place, trump) for place in top)))
    free = () if trump >= 0 or joker_suit >= 0 else FREE_JOKER_TRUMPS
    rows.append(((), tuple(_resolve(place, trump) for place in free)))
    return tuple(rows)


_CONTEXTS: Final[dict[int, Ctx]] = {}


def context(trump: Suit | None, joker_suit: Suit | None = None) -> Ctx:
    """The card order of a contract in the card index space, built from :func:`order_rows`.

    ``trump`` is the trump suit, or ``None`` for No Trumps and misère;
    ``joker_suit`` the nominated suit of the Joker in those contracts (R7.1).
    A card's power is its rank, or its place above the ranks for a row's top; the
    trumps' rows are above every other row.
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
    t = -1 if trump is None else int(trump)
    rows = order_rows(t, -1 if joker_suit is None else int(joker_suit))
    masks = [0, 0, 0, 0, 0]
    power = [0] * (JOKER_INDEX + 1)
    suits = [-1] * (JOKER_INDEX + 1)
    for row_at in range(len(rows)):
        ranks, top = rows[row_at]
        base = TRUMP_BASE if row_at in {t, 4} else 0
        for card in ranks:
            power[card] = base + card % RANKS_PER_SUIT + Rank.TWO  # the card's rank (R1.2)
        for place in range(len(top)):
            power[top[place]] = base + TOP_BASE + place
        for card in (*ranks, *top):
            masks[row_at] |= 1 << card
            if row_at < 4:
                suits[card] = row_at
    trump_mask = masks[4] | (masks[t] if t >= 0 else 0)
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
