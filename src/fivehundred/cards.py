"""Suits, ranks, cards and card notation (rules R1).

Card notation is rank then suit: ``"10H"``, ``"JD"``, ``"AS"``, ``"11C"``, and
``"Jo"`` for the Joker. :func:`~fivehundred.parse_card` (offered by
:mod:`fivehundred.notation` too, with every spelling table) also reads the forms
people type (``"10h"``, ``"TH"``, ``"J♥"``, ``"joker"``).

>>> import fivehundred as fh
>>> fh.parse_card("j♥")
Card.parse('JH')
>>> str(fh.parse_card("th")), fh.parse_card("joker") is fh.JOKER
('10H', True)
>>> fh.parse_cards("10h, JD  Jo")
(Card.parse('10H'), Card.parse('JD'), Card.parse('Jo'))
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from typing import Final, NoReturn

import attrs

from fivehundred._engine.cardtext import (
    CARD_FORMS,
    CARD_SEPARATORS,
    JOKER_TEXT,
    SUIT_LETTERS,
    SUIT_NUMBERS,
    SUIT_SYMBOLS,
)
from fivehundred._engine.quoting import expect, no_member, quote, too_long
from fivehundred.errors import (
    FiveHundredError,
    FiveHundredTypeError,
    NotationError,
    Reason,
)

__all__ = [
    "CARDS",
    "INDEX_SPACE",
    "JOKER",
    "JOKER_INDEX",
    "RANKS_PER_SUIT",
    "Card",
    "Rank",
    "Suit",
    "cards_from_mask",
    "mask_of",
    "parse_card",
    "parse_cards",
]


class Suit(enum.IntEnum):
    """The four suits, in strain order (R1.2): spades < clubs < diamonds < hearts.

    Looking a member up by a value that is none of its members raises
    :class:`~fivehundred.FiveHundredError` (a ``ValueError``, as Python's own lookup), or
    :class:`~fivehundred.FiveHundredTypeError` for a value of the wrong type.
    """

    @classmethod
    def _missing_(cls, value: object) -> NoReturn:
        no_member(cls, value)

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def letter(self) -> str:
        """The notation letter: ``S``, ``C``, ``D`` or ``H``."""
        return SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol: ``♠``, ``♣``, ``♦`` or ``♥``."""
        return SUIT_SYMBOLS[self]

    @property
    def partner(self) -> Suit:
        """The other suit of the same colour (spades/clubs, diamonds/hearts).

        >>> Suit.HEARTS.partner
        <Suit.DIAMONDS: 2>
        """
        return Suit(self ^ 1)

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts."""
        return self >= Suit.DIAMONDS

    def __bool__(self) -> bool:
        """Always true: ``Suit.SPADES`` is 0 as an integer, but a suit is never "no suit".

        >>> bool(Suit.SPADES)
        True
        """
        return True

    def __str__(self) -> str:
        return self.letter


class Rank(enum.IntEnum):
    """Every rank any supported deck uses, ordered as in a plain suit.

    A K Q J 13 12 11 10 9 … 2 from high to low; the 11s, 12s and 13s exist only
    in the six-player deck.

    Looking a member up by a value that is none of its members raises
    :class:`~fivehundred.FiveHundredError` (a ``ValueError``, as Python's own lookup), or
    :class:`~fivehundred.FiveHundredTypeError` for a value of the wrong type.
    """

    @classmethod
    def _missing_(cls, value: object) -> NoReturn:
        no_member(cls, value)

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    ELEVEN = 11
    TWELVE = 12
    THIRTEEN = 13
    JACK = 14
    QUEEN = 15
    KING = 16
    ACE = 17

    @property
    def symbol(self) -> str:
        """The notation of the rank: ``2`` … ``13``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_SYMBOLS[self]

    def __bool__(self) -> bool:
        """Always true, as every public value of the package (ranks are never 0 anyway)."""
        return True

    def __str__(self) -> str:
        return self.symbol


_RANK_SYMBOLS: Final = {
    r: (str(int(r)) if r <= Rank.THIRTEEN else "JQKA"[r - Rank.JACK]) for r in Rank
}

#: Number of card slots per suit in the index space (ranks 2 … A).
RANKS_PER_SUIT: Final = 16
#: Index of the Joker in the card index space.
JOKER_INDEX: Final = 4 * RANKS_PER_SUIT
#: Size of the card index space.
INDEX_SPACE: Final = JOKER_INDEX + 1


@attrs.frozen(eq=False, order=False, repr=False)
class Card:
    """A playing card, or the Joker (both ``rank`` and ``suit`` are ``None``).

    Cards compare equal by value, hash, and sort suit by suit (spades, clubs,
    diamonds, hearts; low rank first), with the Joker last.

    >>> card = Card(Rank.TEN, Suit.HEARTS)
    >>> card, str(card), card == Card.parse("10h")
    (Card.parse('10H'), '10H', True)

    Raises :class:`~fivehundred.FiveHundredError` for a rank without a suit or a suit without a
    rank, and :class:`~fivehundred.FiveHundredTypeError` for a rank or suit of the wrong type.
    """

    rank: Rank | None
    suit: Suit | None
    index: int = attrs.field(init=False)
    """The card's position in the library's internal index space (0–64)."""

    def __attrs_post_init__(self) -> None:
        if self.rank is None and self.suit is None:
            index = JOKER_INDEX
        elif self.rank is None or self.suit is None:
            raise FiveHundredError("a card has both a rank and a suit, or neither (the Joker)")
        else:
            try:
                index = Suit(self.suit) * RANKS_PER_SUIT + Rank(self.rank) - Rank.TWO
            except ValueError:
                kind = FiveHundredError
                if not all(isinstance(v, int) for v in (self.rank, self.suit)):
                    kind = FiveHundredTypeError
                raise kind(
                    f"a card is a Rank and a Suit, not {self.rank!r} and {self.suit!r}"
                ) from None
        object.__setattr__(self, "index", index)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card; the same as :func:`~fivehundred.parse_card`."""
        return parse_card(text)

    @property
    def is_joker(self) -> bool:
        """True for the Joker."""
        return self.index == JOKER_INDEX

    def __str__(self) -> str:
        return _CARD_STR[self.index]

    def __repr__(self) -> str:
        return f"Card.parse('{self}')"

    @property
    def pretty(self) -> str:
        """The card with a Unicode suit symbol, such as ``10♥``; the Joker is ``Jo``."""
        if self.rank is None or self.suit is None:
            return "Jo"
        return f"{self.rank.symbol}{self.suit.symbol}"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index == other.index
        return NotImplemented

    def __hash__(self) -> int:
        return _CARD_HASH[self.index]  # hash(("Card", index)), made once for each card

    def __lt__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self.index < other.index
        return NotImplemented

    def __le__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self.index <= other.index
        return NotImplemented

    def __gt__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self.index > other.index
        return NotImplemented

    def __ge__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self.index >= other.index
        return NotImplemented


def _make_table() -> tuple[Card | None, ...]:
    table: list[Card | None] = [None] * INDEX_SPACE
    for suit in Suit:
        for rank in Rank:
            card = Card(rank, suit)
            table[card.index] = card
    table[JOKER_INDEX] = Card(None, None)
    return tuple(table)


def _card_str(index: int) -> str:
    if index == JOKER_INDEX:
        return "Jo"
    suit, offset = divmod(index, RANKS_PER_SUIT)
    return Rank(offset + Rank.TWO).symbol + Suit(suit).letter


_CARD_STR: Final = tuple(_card_str(i) for i in range(INDEX_SPACE))
_CARD_HASH: Final = tuple(hash(("Card", i)) for i in range(INDEX_SPACE))
_TABLE = _make_table()
#: Every card of the index space, by index (all 64 suit cards and the Joker).
CARDS: Final[tuple[Card, ...]] = tuple(c for c in _TABLE if c is not None)
assert len(CARDS) == INDEX_SPACE

#: The Joker.
JOKER: Final = CARDS[JOKER_INDEX]


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of a collection of cards (bit ``card.index`` set for each)."""
    mask = 0
    try:
        for card in cards:
            mask |= 1 << card.index
    except (AttributeError, TypeError):  # not an iterable of Cards: no cost on the way through
        raise FiveHundredTypeError(f"Cards are needed, not {quote(cards)}") from None
    return mask


def indices(mask: int) -> Iterator[int]:
    """The card indices in a bit mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class _SuitChunks(dict[int, tuple[int, ...]]):
    """The card indices of every 16-bit suit chunk of a mask, built on first sight."""

    def __init__(self, offset: int) -> None:
        super().__init__()
        self.offset = offset

    def __missing__(self, chunk: int) -> tuple[int, ...]:
        found = self[chunk] = tuple(
            self.offset + i for i in range(RANKS_PER_SUIT) if chunk >> i & 1
        )
        return found


_S, _C, _D, _H = (_SuitChunks(suit * RANKS_PER_SUIT) for suit in range(4))
_CHUNK: Final = (1 << RANKS_PER_SUIT) - 1


def index_tuple(mask: int) -> tuple[int, ...]:
    """The card indices in a bit mask, lowest first (a fast table lookup per suit)."""
    found = (
        _S[mask & _CHUNK]
        + _C[mask >> 16 & _CHUNK]
        + _D[mask >> 32 & _CHUNK]
        + _H[mask >> 48 & _CHUNK]
    )
    return (*found, JOKER_INDEX) if mask >> JOKER_INDEX & 1 else found


def cards_from_mask(mask: int) -> tuple[Card, ...]:
    """The cards of a bit mask, in card order."""
    expect(mask, int, "a card mask (an int)")
    return tuple(CARDS[i] for i in index_tuple(mask))


_RANK_TEXT: Final = {r.symbol: r for r in Rank} | {"T": Rank.TEN}
_BY_PARTS: Final[dict[tuple[int, int], Card]] = {
    (card.rank, card.suit): card
    for card in CARDS
    if card.rank is not None and card.suit is not None
}


def parse_card(text: str) -> Card:
    """Read one card from text, tolerantly.

    Accepts upper or lower case, ``T`` for ten, Unicode suit symbols, and
    ``Jo``/``joker`` for the Joker. Bad text raises :class:`~fivehundred.NotationError`.
    :func:`fivehundred.notation.parse_card` is this function.

    >>> parse_card("10h"), parse_card("TH"), parse_card("J♥"), parse_card("jo")
    (Card.parse('10H'), Card.parse('10H'), Card.parse('JH'), Card.parse('Jo'))
    """
    if not isinstance(text, str):
        raise NotationError(
            f"a card is written as text, not {type(text).__name__} {quote(text)}",
            text=quote(text),
            reason=Reason.NOT_TEXT,
        )
    too_long(text, "a card")
    cleaned = text.strip().upper()
    if cleaned in JOKER_TEXT:
        return JOKER
    if len(cleaned) >= 2:
        suit = SUIT_NUMBERS.get(cleaned[-1])
        rank = _RANK_TEXT.get(cleaned[:-1].strip())
        if suit is not None and rank is not None:
            return _BY_PARTS[rank, suit]
    raise NotationError(
        f"{quote(text)} is not a card: write {CARD_FORMS}", text=text, reason=Reason.NOT_A_CARD
    )


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read a list of cards separated by spaces or commas.

    :func:`fivehundred.notation.parse_cards` is this function.

    >>> parse_cards("AS KS, qs")
    (Card.parse('AS'), Card.parse('KS'), Card.parse('QS'))
    >>> parse_cards("")
    ()

    Raises :class:`~fivehundred.NotationError` naming the first card it cannot read.
    """
    if not isinstance(text, str):
        raise NotationError(
            f"cards are written as text, not {type(text).__name__} {quote(text)}",
            text=quote(text),
            reason=Reason.NOT_TEXT,
        )
    too_long(text, "a list of cards")
    return tuple(parse_card(part) for part in CARD_SEPARATORS.split(text.strip()) if part)
