"""The rules of Five Hundred as data: the one place the rule tables live.

Everything the rule book says in numbers or lists is written here once, as
data: the bid range, where each misère call sits on the ladder, the deck and
the deal of every table, and the sides of every seat layout.
:class:`fivehundred.Rules` builds its ladder, deck, deal packets and sides from
these tables and refuses, when it is made, any option combination they cannot
represent or any deal that does not add up; ``docs/_gen.py`` writes the
documentation tables from them. The score table (R8.1) is
:data:`fivehundred.scoring.SCORE_TABLE`, built from the bid range below.

This module imports nothing of the game but the ranks, so that the modules
that define calls, rules and scores can all read it.

>>> from fivehundred._engine import ruledata as _tables
>>> _tables.BID_TRICKS
(6, 7, 8, 9, 10)
>>> _tables.DECKS[4, False].packets, _tables.TABLES[6].sides[3]
(((3, 1), (4, 1), (3, 1)), ((0, 2, 4), (1, 3, 5)))
"""

from __future__ import annotations

from typing import Final

import attrs

from fivehundred.cards import Rank

__all__ = [
    "BID_TRICKS",
    "DECKS",
    "KITTY_3",
    "KITTY_5",
    "MAX_BID",
    "MAX_PLAYERS",
    "MIN_BID",
    "MIN_PLAYERS",
    "MISERE_PLACES",
    "MORE_DECKS",
    "TABLES",
    "TRICKS_PER_HAND",
    "DeckRow",
    "MiserePlace",
    "TableRow",
    "deck_named",
    "number_word",
]

# -- the bid range (R3.2) ------------------------------------------------------------------

#: The fewest tricks a trick bid names (R3.2).
MIN_BID: Final = 6
#: The most tricks a trick bid names (R3.2).
MAX_BID: Final = 10
#: Every number of tricks a trick bid may name, low to high.
BID_TRICKS: Final = tuple(range(MIN_BID, MAX_BID + 1))
#: Tricks in a hand (R5.5); every hand holds this many cards when play starts.
TRICKS_PER_HAND: Final = 10
#: A whole-number rule option (a target, a score, points a trick) is at most this far from
#: 0: a score needs nothing near it, and a saved game's rules must load again.
MAX_OPTION_VALUE: Final = 10**9

# -- the misère rungs of the ladder (R3.3 and the ladder variants) -------------------------


@attrs.frozen
class MiserePlace:
    """Where one misère call sits on the bid ladder, written as the bid it sits just above.

    The trick bids make the ladder, low to high (``6S`` … ``10NT``, R3.3); each
    misère call is a rung of its own just above the bid named here, and calls
    placed above the same bid share one rung (open and blind misère).
    """

    #: The misère call, in call notation (``M``, ``OM``, ``BM``).
    call: str
    #: The ``Rules`` flags that must all be set for the call to be on the ladder.
    needs: tuple[str, ...]
    #: The rule IDs that take the call off the ladder (the flags above, cleared).
    removed_by: str
    #: The trick bid the call sits just above by default, in call notation (R3.3).
    above: str
    #: The ``Rules`` flag that moves the call.
    moved_by: str
    #: The rule ID of the move.
    moved_rule: str
    #: The trick bid the call sits just above when ``moved_by`` is set.
    moved_above: str


#: Every misère call and its rung under each ladder option (R3.3, V-NO-MISERE,
#: V-BLIND-MISERE, V-MISERE-BY-VALUE, V-OPEN-MISERE-TOP).
MISERE_PLACES: Final[tuple[MiserePlace, ...]] = (
    MiserePlace(
        call="M",
        needs=("misere",),
        removed_by="V-NO-MISERE",
        above="7NT",
        moved_by="misere_by_value",
        moved_rule="V-MISERE-BY-VALUE",
        moved_above="8S",
    ),
    MiserePlace(
        call="OM",
        needs=("misere",),
        removed_by="V-NO-MISERE",
        above="10D",
        moved_by="open_misere_top",
        moved_rule="V-OPEN-MISERE-TOP",
        moved_above="10NT",
    ),
    MiserePlace(
        call="BM",
        needs=("misere", "blind_misere"),
        removed_by="V-NO-MISERE, V-BLIND-MISERE",
        above="10D",
        moved_by="open_misere_top",
        moved_rule="V-OPEN-MISERE-TOP",
        moved_above="10NT",
    ),
)

# -- the decks and the deal (R1.1, R2.2, V-45, P2-P6) --------------------------------------

#: The deal of R2.2 with a kitty of 3: per round, (cards to each hand, cards to the kitty).
KITTY_3: Final = ((3, 1), (4, 1), (3, 1))
#: The deal with the five-card kitty of V-45 (see the docs' rules page for this reading).
KITTY_5: Final = ((3, 2), (4, 1), (3, 2))

_NO_EXTRA: Final[tuple[tuple[Rank, ...], ...]] = ((), (), (), ())


@attrs.frozen
class DeckRow:
    """The deck of one table and how it is dealt.

    Each suit runs from its lowest rank up to the Ten, then the ``extra`` ranks
    (the 11s, 12s and 13s of the six-player deck), then J, Q, K, A; one Joker
    is added. Suits are in the order spades, clubs, diamonds, hearts.
    """

    #: The rule ID of this deck.
    rule: str
    #: The lowest rank of each suit (spades, clubs, diamonds, hearts).
    lowest: tuple[Rank, Rank, Rank, Rank]
    #: The ranks between the Ten and the Jack of each suit (P6), by suit.
    extra: tuple[tuple[Rank, ...], ...] = _NO_EXTRA
    #: The deal, per round: (cards to each hand, cards to the kitty) (R2.2).
    packets: tuple[tuple[int, int], ...] = KITTY_3
    #: The number of cards, the Joker included (worked out from the ranks).
    size: int = attrs.field(init=False)
    #: Cards to each hand: the hand packets added up.
    hand_size: int = attrs.field(init=False)
    #: Cards to the kitty: the kitty packets added up.
    kitty_size: int = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        plain = sum(Rank.TEN - low + 1 + 4 for low in self.lowest)
        object.__setattr__(self, "size", plain + sum(map(len, self.extra)) + 1)
        object.__setattr__(self, "hand_size", sum(packet[0] for packet in self.packets))
        object.__setattr__(self, "kitty_size", sum(packet[1] for packet in self.packets))


_SEVENS: Final = (Rank.SEVEN,) * 4
_TWOS: Final = (Rank.TWO,) * 4
_P6_EXTRA: Final[tuple[tuple[Rank, ...], ...]] = (
    (Rank.ELEVEN, Rank.TWELVE),
    (Rank.ELEVEN, Rank.TWELVE),
    (Rank.ELEVEN, Rank.TWELVE, Rank.THIRTEEN),
    (Rank.ELEVEN, Rank.TWELVE, Rank.THIRTEEN),
)

#: The deck and the deal of each table: ``(players, black_fours)`` -> :class:`DeckRow`.
#: A combination with no row (the 45-card deck at five players) is refused by ``Rules``.
DECKS: Final[dict[tuple[int, bool], DeckRow]] = {
    (2, False): DeckRow("P2", _SEVENS),
    (3, False): DeckRow("P3", _SEVENS),
    (4, False): DeckRow("R1.1", (Rank.FIVE, Rank.FIVE, Rank.FOUR, Rank.FOUR)),
    (4, True): DeckRow("V-45", (Rank.FOUR,) * 4, packets=KITTY_5),
    (5, False): DeckRow("P5", _TWOS),
    (6, False): DeckRow("P6", _TWOS, extra=_P6_EXTRA),
}
#: Decks a table plays only when its rules name them (``Rules(deck_id=...)``), by rule ID.
#: Any row of ``DECKS`` can be named too. A deck fits a table when its deal adds up
#: (hands of 10 for every player, and the kitty); ``Rules`` checks that.
MORE_DECKS: Final[dict[str, DeckRow]] = {}


def deck_named(rule: str) -> DeckRow | None:
    """The deck row whose rule ID is ``rule``, from ``DECKS`` or ``MORE_DECKS``, or ``None``."""
    for row in DECKS.values():
        if row.rule == rule:
            return row
    return MORE_DECKS.get(rule)


# -- the tables: seats, sides, dead hand, called partner (P2-P6) --------------------------


@attrs.frozen
class TableRow:
    """One table size: its sides for each team size, and what is special about it."""

    #: The rule ID of this table.
    rule: str
    #: Team size -> the seats of each side; the first team size is the default.
    sides: dict[int, tuple[tuple[int, ...], ...]]
    #: A third hand is dealt and never played (P2).
    dead_hand: bool = False
    #: The contractor calls a partner (P5).
    calls_partner: bool = False


#: Every table size: players -> :class:`TableRow`.
TABLES: Final[dict[int, TableRow]] = {
    2: TableRow("P2", {1: ((0,), (1,))}, dead_hand=True),
    3: TableRow("P3", {1: ((0,), (1,), (2,))}),
    4: TableRow("R1.1", {2: ((0, 2), (1, 3))}),
    5: TableRow("P5", {1: ((0,), (1,), (2,), (3,), (4,))}, calls_partner=True),
    6: TableRow("P6", {2: ((0, 3), (1, 4), (2, 5)), 3: ((0, 2, 4), (1, 3, 5))}),
}
#: The fewest players of any table.
MIN_PLAYERS: Final = min(TABLES)
#: The most players of any table.
MAX_PLAYERS: Final = max(TABLES)

_WORDS: Final = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def number_word(n: int) -> str:
    """A small count in words, for the sentences of refused options.

    >>> number_word(4), number_word(12)
    ('four', '12')
    """
    return _WORDS.get(n, str(n))
