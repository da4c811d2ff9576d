"""The rule options of a game, and the bid ladder, deck, deal and sides they give.

The data behind them (the bid range, the misère rungs, the decks, the deal
packets and the seat layouts) is written once, in ``fivehundred._engine.ruledata``;
this module reads it and refuses, when ``Rules`` is made, anything the tables
cannot represent.

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

from fivehundred._engine import ruledata as _tables
from fivehundred._engine.ruledata import MAX_OPTION_VALUE, TRICKS_PER_HAND
from fivehundred.calls import DEFAULT_LADDER, Ladder
from fivehundred.cards import CARDS, JOKER, RANKS_PER_SUIT, Card, Rank, Suit
from fivehundred.errors import FiveHundredError, FiveHundredTypeError

__all__ = [
    "DEFAULT_LADDER",
    "Ladder",
    "Rules",
    "standard_deck",
]

_PLAIN: Final = (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)


@cache
def _deck_of(row: _tables.DeckRow) -> tuple[Card, ...]:
    """The cards of a deck row, in card order (cached on the row, so a new row is read)."""
    cards = [
        CARDS[suit * RANKS_PER_SUIT + rank - Rank.TWO]
        for suit in Suit
        for rank in (
            *(Rank(r) for r in range(row.lowest[suit], Rank.TEN + 1)),
            *row.extra[suit],
            *_PLAIN,
        )
    ]
    return (*sorted(cards), JOKER)


def _players_problem(players: object) -> str | None:
    if isinstance(players, int) and not isinstance(players, bool) and players in _tables.TABLES:
        return None
    low, high = _tables.MIN_PLAYERS, _tables.MAX_PLAYERS
    return f"players={players!r}: Five Hundred is played by {low} to {high} players"


def _deck_problem(players: int, black_fours: bool) -> str | None:
    """Why there is no deck for this table (a row missing from ``DECKS``), or ``None``."""
    if (players, black_fours) in _tables.DECKS:
        return None
    if black_fours:
        rows = [(n, row) for (n, black), row in _tables.DECKS.items() if black]
        if rows:
            where = " or ".join(f"{_tables.number_word(n)}-player" for n, _ in rows)
            return f"black_fours ({rows[0][1].rule}) is a {where} deck, not for players={players}"
    return f"no deck is written for players={players} with black_fours={black_fours} (DECKS)"


def standard_deck(*, players: int = 4, black_fours: bool = False) -> tuple[Card, ...]:
    """The deck for a table size, in card order (R1.1, V-45, P2–P6), from the deck table.

    >>> " ".join(str(c) for c in standard_deck()[:10])
    '5S 6S 7S 8S 9S 10S JS QS KS AS'
    >>> [len(standard_deck(players=n)) for n in (2, 3, 4, 5, 6)]
    [33, 33, 43, 53, 63]
    >>> len(standard_deck(black_fours=True))
    45
    """
    problem = _players_problem(players) or _deck_problem(players, black_fours)
    if problem is not None:
        raise FiveHundredError(problem)
    return _deck_of(_tables.DECKS[players, black_fours])


def _deal_problem(players: int, black_fours: bool) -> str | None:
    """Why the deal of this table does not add up to its deck (R2.2), or ``None``."""
    row = _tables.DECKS[players, black_fours]
    return _deal_problem_of(row, players, _tables.TABLES[players].dead_hand)


@cache
def _deal_problem_of(row: _tables.DeckRow, players: int, dead_hand: bool) -> str | None:
    """:func:`_deal_problem`, for the rows themselves (cached on them, so a new row is read)."""
    for packet in row.packets:
        if len(packet) != 2 or any(
            not isinstance(n, int) or isinstance(n, bool) or n < 0 for n in packet
        ):
            return (
                f"the deal of the {row.rule} deck needs whole, non-negative packets, "
                f"not {row.packets!r} (R2.2)"
            )
    if not row.packets:
        return f"the deal of the {row.rule} deck has no packets (R2.2)"
    hand, kitty = row.hand_size, row.kitty_size
    hands = players + (1 if dead_hand else 0)
    dealt = hands * hand + kitty
    if hand != TRICKS_PER_HAND:
        return (
            f"the deal of the {row.rule} deck gives hands of {hand} cards, but a hand "
            f"plays {TRICKS_PER_HAND} tricks (R2.2, R5.5)"
        )
    if dealt != row.size:
        dead = " (one of them the dead hand)" if dead_hand else ""
        return (
            f"the {row.rule} deck has {row.size} cards but the deal places {dealt}: "
            f"{hands} hands{dead} of {hand} and a kitty of {kitty} (R2.2)"
        )
    return None


def _sides_problem(players: int, team_size: int) -> str | None:
    """Why the seat layout of this table is not a set of sides (``TABLES``), or ``None``."""
    return _sides_problem_of(players, team_size, _tables.TABLES[players].sides[team_size])


@cache
def _sides_problem_of(
    players: int, team_size: int, sides: tuple[tuple[int, ...], ...]
) -> str | None:
    """:func:`_sides_problem`, for the layout itself (cached on it)."""
    seats = sorted(seat for side in sides for seat in side)
    if seats != list(range(players)) or any(len(side) != team_size for side in sides):
        return (
            f"the seat layout for players={players}, team_size={team_size} is {sides!r}: "
            f"every seat 0 to {players - 1} must be on one side of {team_size} (TABLES)"
        )
    return None


def _check_players(instance: Rules, attribute: attrs.Attribute[int], value: int) -> None:
    problem = _players_problem(value)
    if problem is not None:
        wrong_type = not isinstance(value, int) or isinstance(value, bool)
        raise (FiveHundredTypeError if wrong_type else FiveHundredError)(problem)


def _int_field(instance: Rules, attribute: attrs.Attribute[int], value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise FiveHundredTypeError(f"{attribute.name}={value!r}: a whole number is needed")
    problem = _range_problem(attribute.name, value)
    if problem is not None:
        raise FiveHundredError(problem)


def _range_problem(name: str, value: int) -> str | None:
    """Why a whole-number option is refused: one a saved game's rules could not load with."""
    if abs(value) <= MAX_OPTION_VALUE:
        return None
    shown = f"{value}" if value.bit_length() <= 128 else f"a number of {value.bit_length()} bits"
    return f"{name} is out of range: at most {MAX_OPTION_VALUE:,} either way, not {shown}"


def _bool_field(instance: Rules, attribute: attrs.Attribute[bool], value: bool) -> None:
    if not isinstance(value, bool):
        raise FiveHundredTypeError(f"{attribute.name}={value!r}: True or False is needed")


def _flag(default: bool) -> bool:
    return attrs.field(default=default, validator=_bool_field)


@attrs.frozen(kw_only=True, cache_hash=True)
class Rules:
    """The options of a game. ``Rules()`` is the default Australian four-player game.

    Every field is keyword-only and stands for one variant of the rule book
    (its ``V-…`` or ``P…`` ID is in the field's description). Impossible
    combinations raise :class:`~fivehundred.FiveHundredError` (a ``ValueError``)
    at construction with a sentence naming the options; so does a combination
    the rule tables cannot represent, or a deal that does not add up to the deck.

    >>> Rules(players=6, team_size=3).sides
    ((0, 2, 4), (1, 3, 5))
    >>> Rules(score_cap=500)
    Traceback (most recent call last):
    ...
    fivehundred.errors.FiveHundredError: score_cap=500 must be below target=500 (V-CAP)
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
    #: The rule ID of the deck to play, a row of the deck table (``"R1.1"``, ``"V-45"``,
    #: ``"P6"``, ...); ``None``: the table's own deck (R1.1, V-45 with ``black_fours``,
    #: P2–P6). The deal of the deck must add up for the table (R2.2).
    deck_id: str | None = None
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
        problems: list[str | None] = []
        n = self.players
        table = _tables.TABLES[n]
        allowed = tuple(table.sides)
        team_size = self.team_size
        if team_size is None:
            team_size = allowed[0]
            object.__setattr__(self, "team_size", team_size)
        if team_size not in allowed or isinstance(team_size, bool):
            sizes = " or ".join(map(str, allowed))
            problems.append(f"team_size={team_size!r} does not fit players={n}: teams of {sizes}")
        else:
            problems.append(_sides_problem(n, team_size))
        if self.partner_by_seat and not table.calls_partner:
            where = " or ".join(
                f"{_tables.number_word(k)}-player"
                for k, t in _tables.TABLES.items()
                if t.calls_partner
            )
            problems.append(f"partner_by_seat is a {where} option (P5), not for players={n}")
        problems.append(self._deck_problem())
        try:
            Ladder.of_options(self._ladder_options())
        except FiveHundredError as err:
            problems.extend(err.problems)
        if self.target <= 0:
            problems.append(f"target={self.target} must be positive (V-TARGET)")
        if self.losing_score >= 0:
            problems.append(f"losing_score={self.losing_score} must be negative (V-TARGET)")
        cap = self.score_cap
        if cap is not None:
            if not isinstance(cap, int) or isinstance(cap, bool):
                problems.append(f"score_cap={cap!r}: a whole number or None is needed (V-CAP)")
            elif abs(cap) > MAX_OPTION_VALUE:
                problems.append(_range_problem("score_cap", cap))
            elif cap >= self.target:
                problems.append(f"score_cap={cap} must be below target={self.target} (V-CAP)")
        if self.single_round and (self.self_raise or self.rebid):
            which = "self_raise" if self.self_raise else "rebid"
            problems.append(
                f"single_round (V-AMERICAN) gives each player one call, so {which} cannot apply"
            )
        found = [problem for problem in problems if problem is not None]
        if found:
            raise FiveHundredError(problems=found)

    def _deck_problem(self) -> str | None:
        """Why these rules have no deck, or a deck whose deal does not add up (R2.2)."""
        n = self.players
        if self.deck_id is None:
            problem = _deck_problem(n, self.black_fours)
            return problem if problem is not None else _deal_problem(n, self.black_fours)
        if not isinstance(self.deck_id, str):
            return f"deck_id={self.deck_id!r}: the rule ID of a deck (a str) or None is needed"
        if self.black_fours:
            return "black_fours (V-45) chooses the deck: leave deck_id out, or black_fours"
        row = _tables.deck_named(self.deck_id)
        if row is None:
            known = sorted({r.rule for r in _tables.DECKS.values()} | set(_tables.MORE_DECKS))
            return f"deck_id={self.deck_id!r} is no deck of the deck table ({', '.join(known)})"
        return _deal_problem_of(row, n, _tables.TABLES[n].dead_hand)

    @cached_property
    def _deck_row(self) -> _tables.DeckRow:
        """The row of the deck table these rules play (checked at construction)."""
        if self.deck_id is None:
            return _tables.DECKS[self.players, self.black_fours]
        row = _tables.deck_named(self.deck_id)
        assert row is not None
        return row

    def _ladder_options(self) -> dict[str, object]:
        """The values of the options, by name: the misère table names those of the ladder."""
        return attrs.asdict(self, recurse=False)

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

    # -- derived data: read from the rule tables (fivehundred._engine.ruledata) ------

    @cached_property
    def deck(self) -> tuple[Card, ...]:
        """The cards of the deck, in card order (R1.1, V-45, P2–P6)."""
        return _deck_of(self._deck_row)

    @cached_property
    def ladder(self) -> Ladder:
        """The bid ladder these rules use (R3.3 and the ladder variants)."""
        return Ladder.of_options(self._ladder_options())

    @cached_property
    def deal_packets(self) -> tuple[tuple[int, int], ...]:
        """The deal (R2.2), per round: (cards to each hand, cards to the kitty).

        ``((3, 1), (4, 1), (3, 1))`` by default; ``((3, 2), (4, 1), (3, 2))``
        with the five-card kitty of V-45. Every hand, and the dead hand of the
        two-player game (P2), takes its packet from the dealer's left, then the
        kitty takes its own.
        """
        return self._deck_row.packets

    @cached_property
    def kitty_size(self) -> int:
        """Cards in the kitty (R2.2; 5 with V-45): the kitty packets of the deal added up."""
        return self._deck_row.kitty_size

    @cached_property
    def hand_size(self) -> int:
        """Cards dealt to each hand (R2.2): the hand packets of the deal added up."""
        return self._deck_row.hand_size

    @cached_property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side (team), by side; one seat a side when playing alone.

        Four players: seats 0 and 2 against 1 and 3. Six: partners opposite
        (``i`` and ``i + 3``), or alternate seats in teams of three.
        """
        assert self.team_size is not None
        return _tables.TABLES[self.players].sides[self.team_size]

    @cached_property
    def _side_of_seat(self) -> tuple[int, ...]:
        side_of = [0] * self.players
        for side, seats in enumerate(self.sides):
            for seat in seats:
                side_of[seat] = side
        return tuple(side_of)

    def side_of(self, seat: int) -> int:
        """The side a seat plays for."""
        return self._side_of_seat[seat]

    def partners(self, seat: int) -> tuple[int, ...]:
        """The other seats on a seat's side."""
        return tuple(s for s in self.sides[self.side_of(seat)] if s != seat)

    @property
    def has_dead_hand(self) -> bool:
        """True in the two-player game (P2): a third hand is dealt and never played."""
        return _tables.TABLES[self.players].dead_hand

    @property
    def calls_partner(self) -> bool:
        """True in the five-player game (P5): the contractor calls a partner."""
        return _tables.TABLES[self.players].calls_partner
