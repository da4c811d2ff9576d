"""How suits and cards are written: the spelling tables, on plain suit numbers.

The one table of every way to write a suit (:data:`SUIT_NUMBERS`), the letters,
symbols and names of the suits, and what a card may look like. This module
imports nothing of the game, so that :mod:`fivehundred.cards` builds its values
on it and reads card notation itself (``Card.parse``), and
:mod:`fivehundred.notation`, above both, offers the tables with the values
(``notation.SUIT_TEXT`` maps each text to its :class:`~fivehundred.Suit`).

>>> from fivehundred._engine import cardtext as _cardtext
>>> _cardtext.SUIT_NUMBERS["♡"], _cardtext.SUIT_NUMBERS["SPADES"], _cardtext.SUIT_LETTERS
(3, 0, 'SCDH')
"""

from __future__ import annotations

import re
from typing import Final

__all__ = [
    "CARD_FORMS",
    "CARD_SEPARATORS",
    "JOKER_TEXT",
    "SUIT_FORMS",
    "SUIT_LETTERS",
    "SUIT_NAMES",
    "SUIT_NUMBERS",
    "SUIT_SYMBOLS",
]

#: The notation letter of each suit, by suit number (spades, clubs, diamonds, hearts).
SUIT_LETTERS: Final = "SCDH"
#: The Unicode symbol of each suit, by suit number.
SUIT_SYMBOLS: Final = "♠♣♦♥"
#: The name of each suit, by suit number (``SUIT_NAMES[3]`` is ``"hearts"``).
SUIT_NAMES: Final = ("spades", "clubs", "diamonds", "hearts")
_HOLLOW_SYMBOLS: Final = ("♤", "♧", "♢", "♡")

#: Every way to write a suit, in upper case, to its suit number: the letter, the
#: symbol (filled or hollow) and the name, singular or plural.
SUIT_NUMBERS: Final[dict[str, int]] = {
    text: suit
    for suit in range(len(SUIT_LETTERS))
    for text in (
        SUIT_LETTERS[suit],
        SUIT_SYMBOLS[suit],
        _HOLLOW_SYMBOLS[suit],
        SUIT_NAMES[suit].upper(),
        SUIT_NAMES[suit][:-1].upper(),
    )
}
#: What a suit may look like, for messages.
SUIT_FORMS: Final = "S, C, D, H (or ♠ ♣ ♦ ♥, or spades, clubs, diamonds, hearts)"

#: Every way to write the Joker, in upper case.
JOKER_TEXT: Final = frozenset({"JO", "JOKER", "JK", "JKR", "🃏", "★"})
#: What a card may look like, for messages.
CARD_FORMS: Final = (
    "a rank (2-10, 11, 12, 13, J, Q, K, A; T for 10) followed by a suit (S, C, D, H or "
    "♠ ♣ ♦ ♥), such as 10H, JD, AS, or Jo/joker for the Joker"
)
#: What separates the cards of a list.
CARD_SEPARATORS: Final = re.compile(r"[\s,;]+")
