"""The rule options of a game, the bid ladder and the deck, as data.

``Rules()`` is the default game: Australian 500, four players in two
partnerships (RULES.md R1–R9).

>>> import fivehundred as fh
>>> rules = fh.Rules()
>>> rules.players, rules.target, len(rules.deck)
(4, 500, 43)
>>> [str(c) for c in rules.ladder.calls[8:13]]
['7H', '7NT', 'M', '8S', '8C']
"""

from __future__ import annotations

from functools import cache, cached_property
from typing import Final

import attrs

from fivehundred.calls import (
    BLIND_MISERE,
    MISERE,
    OPEN_MISERE,
    Call,
    CallKind,
    Strain,
)
from fivehundred.cards import CARDS, JOKER, RANKS_PER_SUIT, Card, Rank, Suit

__all__ = ["Ladder", "Rules", "standard_deck"]


def _call_key(call: Call) -> tuple[CallKind, int | None, Strain | None]:
    return (call.kind, call.tricks, call.strain)


@attrs.frozen
class Ladder:
    """The bid ladder (R3.3): rungs from low to high; calls on one rung are equal.

    >>> from fivehundred import DEFAULT_LADDER, OPEN_MISERE, BLIND_MISERE
    >>> DEFAULT_LADDER.position(OPEN_MISERE) == DEFAULT_LADDER.position(BLIND_MISERE)
    True
    """

    rungs: tuple[tuple[Call, ...], ...]
    _positions: dict[tuple[CallKind, int | None, Strain | None], int] = attrs.field(
        init=False, eq=False, repr=False
    )

    def __attrs_post_init__(self) -> None:
        positions = {
            _call_key(call): rung for rung, calls in enumerate(self.rungs) for call in calls
        }
        object.__setattr__(self, "_positions", positions)

    @property
    def calls(self) -> tuple[Call, ...]:
        """Every bid on the ladder, low to high (calls sharing a rung side by side)."""
        return tuple(call for rung in self.rungs for call in rung)

    def position(self, call: Call) -> int:
        """The rung of a call; a pass is ``-1``. Sans-kitty bids rank as the plain bid."""
        if call.kind is CallKind.PASS:
            return -1
        try:
            return self._positions[_call_key(call)]
        except KeyError:
            raise ValueError(f"{call} is not on this ladder") from None

    def __contains__(self, call: object) -> bool:
        return isinstance(call, Call) and _call_key(call) in self._positions


def build_ladder(
    *,
    misere: bool = True,
    misere_by_value: bool = False,
    open_misere: bool = True,
    open_misere_top: bool = False,
    blind_misere: bool = True,
) -> Ladder:
    """Build the bid ladder for a set of options (R3.3 and the ladder variants)."""
    rungs: list[tuple[Call, ...]] = []
    top_misere = tuple(
        c for c, on in ((OPEN_MISERE, open_misere), (BLIND_MISERE, blind_misere)) if on
    )
    for tricks in range(6, 11):
        for strain in Strain:
            bid = Call.bid(tricks, strain)
            if misere and misere_by_value and (tricks, strain) == (8, Strain.CLUBS):
                rungs.append((MISERE,))
            if top_misere and not open_misere_top and (tricks, strain) == (10, Strain.HEARTS):
                rungs.append(top_misere)
            rungs.append((bid,))
        if misere and not misere_by_value and tricks == 7:
            rungs.append((MISERE,))
    if top_misere and open_misere_top:
        rungs.append(top_misere)
    return Ladder(tuple(rungs))


#: The default ladder of R3.3.
DEFAULT_LADDER: Final = build_ladder()


@cache
def standard_deck(*, players: int = 4) -> tuple[Card, ...]:
    """The deck for a table size, in card order (R1.1, P2–P6).

    >>> " ".join(str(c) for c in standard_deck()[:10])
    '5S 6S 7S 8S 9S 10S JS QS KS AS'
    """
    if players != 4:
        raise ValueError(f"a {players}-player deck is not supported yet; the default game has 4")
    ranks = (*range(Rank.FOUR, Rank.TEN + 1), Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
    black = (Suit.SPADES, Suit.CLUBS)
    cards = [
        CARDS[suit * RANKS_PER_SUIT + rank - Rank.TWO]
        for suit in Suit
        for rank in ranks
        if not (suit in black and rank == Rank.FOUR)
    ]
    return (*cards, JOKER)


def _positive_seats(instance: Rules, attribute: attrs.Attribute[int], value: int) -> None:
    if value != 4:
        raise ValueError(
            f"players={value!r}: this version plays the four-player game only (RULES.md R1-R9)"
        )


@attrs.frozen(kw_only=True)
class Rules:
    """The options of a game. ``Rules()`` is the default Australian four-player game.

    Every field is keyword-only; invalid values raise ``ValueError`` at
    construction with a sentence naming the option.
    """

    #: Number of players (R1; P2–P6 are planned).
    players: int = attrs.field(default=4, validator=_positive_seats)
    #: Points a side needs, by making a contract, to win (R9.1).
    target: int = 500
    #: Score at or below which a side that failed its contract loses (R9.2).
    losing_score: int = -500
    #: Points defenders score per trick they take (R8.4).
    trick_points: int = 10

    def __attrs_post_init__(self) -> None:
        if self.target <= 0:
            raise ValueError(f"target={self.target}: the target must be positive")
        if self.losing_score >= 0:
            raise ValueError(f"losing_score={self.losing_score}: the losing score must be negative")

    @classmethod
    def australian(cls) -> Rules:
        """The default game: Australian 500 for four players (RULES.md R1–R9)."""
        return cls()

    @cached_property
    def deck(self) -> tuple[Card, ...]:
        """The cards of the deck, in card order."""
        return standard_deck(players=self.players)

    @cached_property
    def ladder(self) -> Ladder:
        """The bid ladder these rules use."""
        return DEFAULT_LADDER

    @property
    def kitty_size(self) -> int:
        """Cards in the kitty (R2.2)."""
        return 3

    @property
    def hand_size(self) -> int:
        """Cards dealt to each hand (R2.2)."""
        return 10

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side (team); four players: seats 0 and 2, 1 and 3."""
        return ((0, 2), (1, 3))

    def side_of(self, seat: int) -> int:
        """The side a seat plays for."""
        return seat % 2

    def partners(self, seat: int) -> tuple[int, ...]:
        """The other seats on a seat's side."""
        return tuple(s for s in self.sides[self.side_of(seat)] if s != seat)
