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
from typing import Any, Final

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


_PLAIN: Final = (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)


def _ranks_from(low: Rank) -> tuple[Rank, ...]:
    return (*(Rank(r) for r in range(low, Rank.TEN + 1)), *_PLAIN)


@cache
def standard_deck(*, players: int = 4, black_fours: bool = False) -> tuple[Card, ...]:
    """The deck for a table size, in card order (R1.1, V-45, P2–P6).

    >>> " ".join(str(c) for c in standard_deck()[:10])
    '5S 6S 7S 8S 9S 10S JS QS KS AS'
    >>> [len(standard_deck(players=n)) for n in (2, 3, 4, 5, 6)]
    [33, 33, 43, 53, 63]
    >>> len(standard_deck(black_fours=True))
    45
    """
    ranks: dict[Suit, tuple[Rank, ...]]
    if players in (2, 3):
        ranks = dict.fromkeys(Suit, _ranks_from(Rank.SEVEN))
    elif players == 4:
        black = Rank.FOUR if black_fours else Rank.FIVE
        ranks = {
            Suit.SPADES: _ranks_from(black),
            Suit.CLUBS: _ranks_from(black),
            Suit.DIAMONDS: _ranks_from(Rank.FOUR),
            Suit.HEARTS: _ranks_from(Rank.FOUR),
        }
    elif players == 5:
        ranks = dict.fromkeys(Suit, _ranks_from(Rank.TWO))
    elif players == 6:
        top = {Suit.SPADES: 12, Suit.CLUBS: 12, Suit.DIAMONDS: 13, Suit.HEARTS: 13}
        ranks = {
            suit: (*_ranks_from(Rank.TWO), *(Rank(r) for r in range(11, high + 1)))
            for suit, high in top.items()
        }
    else:
        raise ValueError(f"players={players!r}: Five Hundred is played by 2 to 6 players")
    if black_fours and players != 4:
        raise ValueError("the 45-card deck (V-45) is a four-player deck")
    cards = sorted(
        CARDS[suit * RANKS_PER_SUIT + rank - Rank.TWO] for suit in Suit for rank in ranks[suit]
    )
    return (*cards, JOKER)


def _check_players(instance: Rules, attribute: attrs.Attribute[int], value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not 2 <= value <= 6:
        raise ValueError(f"players={value!r}: Five Hundred is played by 2 to 6 players")


def _int_field(instance: Rules, attribute: attrs.Attribute[int], value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{attribute.name}={value!r}: a whole number is needed")


def _bool_field(instance: Rules, attribute: attrs.Attribute[bool], value: bool) -> None:
    if not isinstance(value, bool):
        raise ValueError(f"{attribute.name}={value!r}: True or False is needed")


def _flag(default: bool) -> bool:
    return attrs.field(default=default, validator=_bool_field)


@attrs.frozen(kw_only=True, cache_hash=True)
class Rules:
    """The options of a game. ``Rules()`` is the default Australian four-player game.

    Every field is keyword-only and stands for one variant of the rule book
    (its ``V-…`` or ``P…`` ID is in the field's description). Impossible
    combinations raise ``ValueError`` at construction with a sentence naming
    the options.

    >>> Rules(players=6, team_size=3).sides
    ((0, 2, 4), (1, 3, 5))
    >>> Rules(score_cap=500)
    Traceback (most recent call last):
    ...
    ValueError: score_cap=500 must be below target=500 (V-CAP)
    """

    #: Number of players, 2 to 6 (P2–P6; 4 is the default game).
    players: int = attrs.field(default=4, validator=_check_players)
    #: Players per team: 2 with four players; 2 (three teams) or 3 (two teams) with six;
    #: 1 (each for themselves) with 2, 3 or 5. ``None`` picks the default for the count (P6).
    team_size: int | None = None
    #: P5 option: the contractor names a partner seat instead of calling a card.
    partner_by_seat: bool = _flag(False)
    #: V-45: the 45-card deck (black 4s kept) and a kitty of 5.
    black_fours: bool = _flag(False)
    #: ``False`` is V-NO-MISERE: no misère, open misère or blind misère bids.
    misere: bool = _flag(True)
    #: ``False`` is V-MISERE-ANYTIME: misère needs no standing seven.
    misere_needs_seven: bool = _flag(True)
    #: V-MISERE-BY-VALUE: misère ranks between 8♠ and 8♣.
    misere_by_value: bool = _flag(False)
    #: V-OPEN-MISERE-TOP: open (and blind) misère is the top bid.
    open_misere_top: bool = _flag(False)
    #: ``False`` is V-BLIND-MISERE: no blind misère.
    blind_misere: bool = _flag(True)
    #: V-SANS-KITTY: any bid may be declared without the kitty.
    sans_kitty: bool = _flag(False)
    #: V-AMERICAN: one call per player, ending with the dealer.
    single_round: bool = _flag(False)
    #: V-SELF-RAISE: the last bidder may raise once after all others pass.
    self_raise: bool = _flag(False)
    #: V-REBID: players who passed may call again.
    rebid: bool = _flag(False)
    #: V-ALL-PASS: when all pass, the hand is played at No Trumps without the kitty.
    all_pass_no_trumps: bool = _flag(False)
    #: V-JOKER-LEAD-LAST: a suitless Joker may be led only to the last trick.
    joker_lead_last: bool = _flag(False)
    #: V-JOKER-NAME-ANY: a Joker lead may name any suit.
    joker_name_any: bool = _flag(False)
    #: ``False`` is V-NO-NOMINATION: the contractor may not nominate the Joker.
    joker_nomination: bool = _flag(True)
    #: V-OPEN-BEFORE-LEAD: the open-misère hand is exposed before the first lead.
    open_before_lead: bool = _flag(False)
    #: V-ELDEST-LEADS: the player left of the dealer leads the first trick.
    eldest_leads: bool = _flag(False)
    #: ``False`` is V-NO-SLAM: no slam bonus.
    slam_bonus: bool = _flag(True)
    #: V-TRICK-POINTS: points defenders score per trick (R8.4), any whole number.
    trick_points: int = attrs.field(default=10, validator=_int_field)
    #: V-CAP: defence points cannot lift a score above this (490 or 480); ``None``: no cap.
    score_cap: int | None = None
    #: V-DEFENCE-WINS: reaching the target by any means wins.
    defence_wins: bool = _flag(False)
    #: V-TARGET: the score that wins (R9.1).
    target: int = attrs.field(default=500, validator=_int_field)
    #: V-TARGET: the score at or below which a side that failed its contract loses (R9.2).
    losing_score: int = attrs.field(default=-500, validator=_int_field)
    #: V-MISERE-PLAYOUT: misère hands are played to the last trick.
    misere_playout: bool = _flag(False)
    #: V-SAME-DEALER: after a throw-in the same dealer deals again.
    same_dealer: bool = _flag(False)

    def __attrs_post_init__(self) -> None:
        problems = []
        n = self.players
        allowed = {2: (1,), 3: (1,), 4: (2,), 5: (1,), 6: (2, 3)}[n]
        if self.team_size is None:
            object.__setattr__(self, "team_size", allowed[0])
        elif self.team_size not in allowed or isinstance(self.team_size, bool):
            sizes = " or ".join(map(str, allowed))
            problems.append(
                f"team_size={self.team_size!r} does not fit players={n}: teams of {sizes}"
            )
        if self.partner_by_seat and n != 5:
            problems.append(f"partner_by_seat is a five-player option (P5), not for players={n}")
        if self.black_fours and n != 4:
            problems.append(f"black_fours (V-45) is a four-player deck, not for players={n}")
        if self.target <= 0:
            problems.append(f"target={self.target} must be positive (V-TARGET)")
        if self.losing_score >= 0:
            problems.append(f"losing_score={self.losing_score} must be negative (V-TARGET)")
        cap = self.score_cap
        if cap is not None:
            if not isinstance(cap, int) or isinstance(cap, bool):
                problems.append(f"score_cap={cap!r}: a whole number or None is needed (V-CAP)")
            elif cap >= self.target:
                problems.append(f"score_cap={cap} must be below target={self.target} (V-CAP)")
        if self.single_round and (self.self_raise or self.rebid):
            which = "self_raise" if self.self_raise else "rebid"
            problems.append(
                f"single_round (V-AMERICAN) gives each player one call, so {which} cannot apply"
            )
        if problems:
            raise ValueError("; ".join(problems))

    # -- presets ---------------------------------------------------------

    @classmethod
    def australian(cls, **changes: Any) -> Rules:
        """The default game: Australian 500 for four players (R1–R9)."""
        return cls(**changes)

    @classmethod
    def american(cls, **changes: Any) -> Rules:
        """American 500: one round of bidding ending with the dealer (V-AMERICAN), misère
        ranked by value between 8♠ and 8♣ (V-MISERE-BY-VALUE), and reaching the target by
        any means wins (V-DEFENCE-WINS)."""
        options: dict[str, Any] = {
            "single_round": True,
            "misere_by_value": True,
            "defence_wins": True,
        }
        return cls(**(options | changes))

    @classmethod
    def for_players(cls, players: int, **changes: Any) -> Rules:
        """The default game for a table of ``players`` (2–6; P2–P6)."""
        return cls(players=players, **changes)

    @classmethod
    def two_players(cls, **changes: Any) -> Rules:
        """P2: two players, 33 cards and a dead hand; each plays for themselves."""
        return cls(players=2, **changes)

    @classmethod
    def three_players(cls, **changes: Any) -> Rules:
        """P3: three players, 33 cards; each scores alone."""
        return cls(players=3, **changes)

    @classmethod
    def five_players(cls, **changes: Any) -> Rules:
        """P5: five players, 53 cards; the contractor calls a card for a secret partner."""
        return cls(players=5, **changes)

    @classmethod
    def six_players(cls, **changes: Any) -> Rules:
        """P6: six players, 63 cards; three teams of two (``team_size=3``: two of three)."""
        return cls(players=6, **changes)

    # -- derived data ----------------------------------------------------

    @cached_property
    def deck(self) -> tuple[Card, ...]:
        """The cards of the deck, in card order."""
        return standard_deck(players=self.players, black_fours=self.black_fours)

    @cached_property
    def ladder(self) -> Ladder:
        """The bid ladder these rules use."""
        return build_ladder(
            misere=self.misere,
            misere_by_value=self.misere_by_value,
            open_misere=self.misere,
            open_misere_top=self.open_misere_top,
            blind_misere=self.misere and self.blind_misere,
        )

    @property
    def kitty_size(self) -> int:
        """Cards in the kitty (R2.2; 5 with V-45)."""
        return 5 if self.black_fours else 3

    @property
    def hand_size(self) -> int:
        """Cards dealt to each hand (R2.2)."""
        return 10

    @cached_property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side (team), by side; one seat a side when playing alone.

        Four players: seats 0 and 2 against 1 and 3. Six: partners opposite
        (``i`` and ``i + 3``), or alternate seats in teams of three.
        """
        n = self.players
        count = n // (self.team_size or 1)
        return tuple(tuple(range(first, n, count)) for first in range(count))

    def side_of(self, seat: int) -> int:
        """The side a seat plays for."""
        return seat % len(self.sides)

    def partners(self, seat: int) -> tuple[int, ...]:
        """The other seats on a seat's side."""
        return tuple(s for s in self.sides[self.side_of(seat)] if s != seat)

    @property
    def has_dead_hand(self) -> bool:
        """True in the two-player game (P2): a third hand is dealt and never played."""
        return self.players == 2

    @property
    def calls_partner(self) -> bool:
        """True in the five-player game (P5): the contractor calls a partner."""
        return self.players == 5
