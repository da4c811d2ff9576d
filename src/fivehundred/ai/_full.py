"""The full layout of the integer action encoding: one id per library action.

Internal: :mod:`fivehundred.ai.encoding` is the public API, where this layout is
``layout="full"`` (the default). For one :class:`~fivehundred.Rules`, every
action a player could ever take has an index in ``range(full_size(rules))``,
laid out in blocks (see ``docs/json-format.md``, "Action encoding"):

1. **calls**: pass, then every bid of the ladder from low to high; with
   sans-kitty bids (V-SANS-KITTY) the sans-kitty form of each bid follows, in the
   same order;
2. **plays**: each card of the deck in card order, then the four Joker leads that
   name a suit (spades, clubs, diamonds, hearts; R7.4);
3. **nominations** (only when the rules allow them, R7.1): the four suits, then decline;
4. **partner calls** (five players, P5): each card of the deck but the Joker, or
   each seat with ``partner_by_seat``;
5. **discards**: every set of ``kitty_size`` cards of the deck, numbered by the
   combinatorial number system: for positions ``p1 < p2 < … < pk`` of the cards in
   the deck's card order, the index in the block is ``C(p1, 1) + C(p2, 2) + … + C(pk, k)``.

The discard block is last, so the other indices stay small; it holds
C(43, 3) = 12,341 discards in the default game and C(45, 5) = 1,221,759 with the
45-card deck (V-45): for such large spaces use the sparse indices rather than
the dense mask.

>>> import fivehundred as fh
>>> full_size(fh.Rules()), full_encode(fh.parse_call("7H"), fh.Rules())
(12422, 9)
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache
from math import comb
from typing import Final, NoReturn, TypeAlias

import attrs

from fivehundred._engine import judge
from fivehundred._engine.docs import document_class
from fivehundred._engine.quoting import no_member
from fivehundred._engine.state import GameState
from fivehundred._engine.values import Phase
from fivehundred.actions import DECLINE, Action, CallPartner, Discard, Nominate, Play
from fivehundred.calls import PASS, Call
from fivehundred.cards import INDEX_SPACE, JOKER, Card, Suit
from fivehundred.engine import legal_actions
from fivehundred.errors import IllegalActionError, Reason
from fivehundred.rules import Rules

__all__ = [
    "ActionLayout",
    "DiscardCard",
    "EncodedAction",
    "Layout",
    "full_decode",
    "full_encode",
    "full_indices",
    "full_layout",
    "full_mask",
    "full_size",
    "not_rules",
    "the_state",
]


class Layout(StrEnum):
    """How actions are numbered: which :mod:`fivehundred.ai.encoding` layout to use.

    Every function of :mod:`fivehundred.ai.encoding` takes ``layout=`` as a member or
    as its value (``"full"``, ``"compact"``).

    >>> from fivehundred.ai.encoding import Layout
    >>> [layout.value for layout in Layout]
    ['full', 'compact']
    >>> Layout("compact") is Layout.COMPACT
    True

    ``Layout("dense")`` raises :class:`~fivehundred.FiveHundredError` (a ``ValueError``,
    as for any enum) and ``Layout(3)`` a :class:`~fivehundred.FiveHundredTypeError`;
    the functions of :mod:`fivehundred.ai.encoding` raise
    :class:`~fivehundred.FiveHundredTypeError` for an unknown ``layout``.
    """

    @classmethod
    def _missing_(cls, value: object) -> NoReturn:
        no_member(cls, value)

    #: One id per library action: a kitty discard is one id among every set of
    #: ``kitty_size`` cards (12,422 ids in the default game).
    FULL = "full"
    #: A kitty discard is ``kitty_size`` decisions of one card each
    #: (:class:`DiscardCard`), so every game has at most 200 ids (124 by default).
    COMPACT = "compact"


@attrs.frozen
class DiscardCard:
    """One card of a kitty discard (R4.1): what a discard id of the compact layout stands for.

    >>> import fivehundred as fh
    >>> from fivehundred.ai.encoding import DiscardCard, Layout, encode_action
    >>> encode_action(DiscardCard(fh.JOKER), fh.Rules(), layout=Layout.COMPACT)
    123

    Constructing one checks nothing and raises nothing; encoding it checks the card.
    """

    card: Card


#: What an id stands for: a library action, or (compact layout) one card of a discard.
EncodedAction: TypeAlias = Action | DiscardCard


@attrs.frozen
class ActionLayout:
    """Where each block of an action encoding starts for one set of rules, and its size.

    >>> import fivehundred as fh
    >>> from fivehundred.ai.encoding import action_layout
    >>> layout = action_layout(fh.Rules())
    >>> layout.calls, layout.plays, layout.nominations, layout.partners, layout.discards
    (range(0, 29), range(29, 76), range(76, 81), range(81, 81), range(81, 12422))
    >>> action_layout(fh.Rules(), layout="compact").discards  # one id per card
    range(81, 124)

    Constructing one checks nothing and raises nothing: it is a plain record of values the
    library made.
    """

    rules: Rules = attrs.field(repr=False)
    calls: range
    plays: range
    nominations: range
    partners: range
    discards: range
    #: The calls, by index within the call block.
    call_list: tuple[Call, ...] = attrs.field(repr=False)
    #: The cards of the deck in card order (plays and discards are numbered by it).
    deck: tuple[Card, ...] = attrs.field(repr=False)
    #: The partner calls, by index within the partner block.
    partner_list: tuple[CallPartner, ...] = attrs.field(repr=False)
    #: The layout these blocks belong to.
    kind: Layout = Layout.FULL

    @property
    def size(self) -> int:
        """The number of ids: :func:`~fivehundred.ai.encoding.num_actions`."""
        return self.discards.stop


def the_state(state: object) -> GameState:
    """``state`` itself, or the library's type error for anything but a state.

    The encodings' entry points take ``object`` where a caller may pass anything:
    compiled, a parameter typed ``GameState`` or ``int`` would refuse a wrong
    argument with mypyc's own ``TypeError`` before the library could explain it.
    """
    if isinstance(state, GameState):
        return state
    judge.legal_actions(state)  # raises the library's TypeError for a non-state
    raise AssertionError(f"unreachable: {state!r} was refused")  # pragma: no cover


def not_rules(rules: object) -> IllegalActionError:
    """The error for a ``rules`` argument that is not a :class:`~fivehundred.Rules`."""
    return IllegalActionError(
        Reason.NOT_AN_ACTION, f"rules must be a fivehundred.Rules, not {type(rules).__name__}"
    )


def full_layout(rules: Rules) -> ActionLayout:
    """The block layout of the full encoding for ``rules``.

    Raises :class:`~fivehundred.IllegalActionError` (``NOT_AN_ACTION``) when ``rules``
    is not a :class:`~fivehundred.Rules`.
    """
    if not isinstance(rules, Rules):  # before the cache, which would hash any junk
        raise not_rules(rules)
    return _layout(rules)


@lru_cache(maxsize=64)
def _layout(rules: Rules) -> ActionLayout:
    """:func:`full_layout`, built once per ``Rules``."""
    bids = rules.ladder.calls
    calls: tuple[Call, ...] = (PASS, *bids)
    if rules.sans_kitty:
        calls += tuple(attrs.evolve(call, sans_kitty=True) for call in bids)
    deck = rules.deck
    nominations = 5 if rules.joker_nomination else 0
    partners: tuple[CallPartner, ...] = ()
    if rules.calls_partner:
        if rules.partner_by_seat:
            partners = tuple(CallPartner(seat=seat) for seat in range(rules.players))
        else:
            partners = tuple(CallPartner(card) for card in deck if not card.is_joker)
    start = 0
    blocks: list[range] = []
    for size in (
        len(calls),
        len(deck) + 4,
        nominations,
        len(partners),
        comb(len(deck), rules.kitty_size),
    ):
        blocks.append(range(start, start + size))
        start += size
    return ActionLayout(
        rules,
        calls=blocks[0],
        plays=blocks[1],
        nominations=blocks[2],
        partners=blocks[3],
        discards=blocks[4],
        call_list=calls,
        deck=deck,
        partner_list=partners,
    )


def full_size(rules: Rules) -> int:
    """The number of action indices for ``rules``.

    Raises :class:`~fivehundred.IllegalActionError` (``NOT_AN_ACTION``) when ``rules`` is not a
    :class:`~fivehundred.Rules`.
    """
    return full_layout(rules).size


@lru_cache(maxsize=64)
def _positions(rules: Rules) -> tuple[dict[Call, int], dict[Card, int], dict[CallPartner, int]]:
    layout = full_layout(rules)
    calls = {call: i for i, call in enumerate(layout.call_list)}
    cards = {card: i for i, card in enumerate(layout.deck)}
    partners = {partner: i for i, partner in enumerate(layout.partner_list)}
    return calls, cards, partners


def _not_encoded(action: object, why: str) -> IllegalActionError:
    return IllegalActionError(Reason.NOT_AN_ACTION, f"{action!r} has no index: {why}")


def full_encode(action: Action, rules: Rules) -> int:
    """The index of ``action`` under ``rules``.

    An action these rules can never allow (a card not in the deck, a sans-kitty
    bid without V-SANS-KITTY, anything that is not an action) raises
    :class:`~fivehundred.IllegalActionError` with ``Reason.NOT_AN_ACTION``.

    >>> import fivehundred as fh
    >>> full_encode(fh.Play(fh.JOKER, fh.Suit.HEARTS), fh.Rules())
    75
    """
    layout = full_layout(rules)
    calls, cards, partners = _positions(rules)
    kind = type(action)
    try:
        if kind is Call:
            assert isinstance(action, Call)
            return layout.calls.start + calls[action]
        if kind is Play:
            assert isinstance(action, Play)
            if action.suit is None:
                return layout.plays.start + cards[action.card]
            if not action.card.is_joker or type(action.suit) is not Suit:
                raise _not_encoded(action, "only the Joker is led naming a suit")
            return layout.plays.start + len(layout.deck) + int(action.suit)
        if kind is Nominate and len(layout.nominations):
            assert isinstance(action, Nominate)
            offset = 4 if action.suit is None else int(action.suit)
            return layout.nominations.start + offset
        if kind is CallPartner:
            assert isinstance(action, CallPartner)
            return layout.partners.start + partners[action]
        if kind is Discard:
            assert isinstance(action, Discard)
            return layout.discards.start + _discard_rank(action, cards, rules.kitty_size)
    except (KeyError, TypeError):
        raise _not_encoded(action, f"it is not an action of these rules ({rules!r})") from None
    raise _not_encoded(action, "it is not an action of these rules")


def _discard_rank(action: Discard, cards: dict[Card, int], size: int) -> int:
    positions = sorted({cards[card] for card in action.cards})
    if len(positions) != size or len(action.cards) != size:
        raise _not_encoded(action, f"a discard is {size} different cards")
    return sum(comb(position, k) for k, position in enumerate(positions, 1))


def full_decode(index: object, rules: Rules) -> Action:
    """The action with this index under ``rules``; the inverse of :func:`full_encode`.

    An index outside ``range(full_size(rules))`` raises
    :class:`~fivehundred.IllegalActionError` with ``Reason.NOT_AN_ACTION``.

    >>> import fivehundred as fh
    >>> full_decode(full_size(fh.Rules()) - 1, fh.Rules())
    Discard(cards=(Card.parse('KH'), Card.parse('AH'), Card.parse('Jo')))
    """
    layout = full_layout(rules)
    if type(index) is not int or not 0 <= index < layout.size:
        raise IllegalActionError(
            Reason.NOT_AN_ACTION,
            f"{index!r} is not an action index: indices are 0 to {layout.size - 1} for these rules",
        )
    if index in layout.calls:
        return layout.call_list[index - layout.calls.start]
    if index in layout.plays:
        offset = index - layout.plays.start
        if offset < len(layout.deck):
            return Play(layout.deck[offset])
        return Play(JOKER, Suit(offset - len(layout.deck)))
    if index in layout.nominations:
        offset = index - layout.nominations.start
        return DECLINE if offset == 4 else Nominate(Suit(offset))
    if index in layout.partners:
        return layout.partner_list[index - layout.partners.start]
    return Discard(
        layout.deck[p] for p in _discard_positions(index - layout.discards.start, rules.kitty_size)
    )


def _discard_positions(rank: int, size: int) -> list[int]:
    """The deck positions of the discard with this rank (the combinatorial number system)."""
    positions = []
    for k in range(size, 0, -1):
        # the largest p below 70 with comb(p, k) <= rank, by binary search; comb grows with p
        p, above = k - 1, 70  # comb(k - 1, k) == 0
        while above - p > 1:
            middle = (p + above) // 2
            if comb(middle, k) <= rank:
                p = middle
            else:
                above = middle
        positions.append(p)
        rank -= comb(p, k)
    return positions[::-1]


class _Tables:
    """Lookup tables of one encoding, built once per ``Rules``, for the legal-index fast paths."""

    __slots__ = (
        "by_id",
        "calls",
        "comb_rows",
        "discards",
        "false_tail",
        "joker_leads",
        "kitty_size",
        "nominations",
        "partner_cards",
        "partner_seats",
        "plays",
        "position",
        "size",
    )

    def __init__(self, rules: Rules) -> None:
        layout = full_layout(rules)
        calls, _, _ = _positions(rules)
        deck = layout.deck
        self.size = layout.size
        self.kitty_size = rules.kitty_size
        #: The call indices by value (an Enum-hashing lookup), and by the identity of the
        #: Call objects met so far, each entry holding its object so that the id cannot be
        #: reused while the entry lives: the engine hands out the same few Call objects.
        self.calls = {call: layout.calls.start + i for call, i in calls.items()}
        self.by_id = {id(call): (index, call) for call, index in self.calls.items()}
        #: ``position[card.index]``: the card's place in the deck's card order, -1 if not in it.
        position = [-1] * INDEX_SPACE
        for place, card in enumerate(deck):
            position[card.index] = place
        self.position = position
        self.plays = layout.plays.start
        self.joker_leads = layout.plays.start + len(deck)
        #: The nomination block's start, -1 without nominations (V-NO-NOMINATION).
        self.nominations = layout.nominations.start if len(layout.nominations) else -1
        partner_cards = [-1] * INDEX_SPACE
        partner_seats: dict[int, int] = {}
        for i, partner in enumerate(layout.partner_list):
            if partner.card is not None:
                partner_cards[partner.card.index] = layout.partners.start + i
            elif partner.seat is not None:
                partner_seats[partner.seat] = layout.partners.start + i
        self.partner_cards = partner_cards
        self.partner_seats = partner_seats
        self.discards = layout.discards.start
        #: The mask's all-False discard block, to end the mask of any other phase with;
        #: kept only for spaces of moderate size (V-45 has over a million discards).
        tail = len(layout.discards)
        self.false_tail = (False,) * tail if tail <= _FALSE_TAIL_LIMIT else None
        #: ``comb_rows[j][p] == comb(p, j)``: the discard ranks' terms, by deck position.
        self.comb_rows = tuple(
            tuple(comb(p, j) for p in range(len(deck))) for j in range(self.kitty_size + 1)
        )


#: The largest discard block whose all-False mask part a table keeps.
_FALSE_TAIL_LIMIT: Final = 1 << 16
#: How many Call objects one table remembers by identity before it starts again.
_KNOWN_CALLS_LIMIT: Final = 4096


@lru_cache(maxsize=64)
def _tables(rules: Rules) -> _Tables:
    return _Tables(rules)


def full_indices(state: object) -> tuple[int, ...]:
    """The indices of the legal actions of ``state``, ascending (the sparse form of the mask).

    In the kitty phase the discard indices are computed straight from the contractor's
    cards, without building the discards (C(13, 3) = 286 in the default game, 3,003 with
    V-45).

    >>> import fivehundred as fh
    >>> full_indices(fh.new_game(dealer=0))
    ()

    Raises :class:`~fivehundred.FiveHundredTypeError` for a non-state.
    """
    s = the_state(state)
    if s.phase is Phase.DISCARD:
        return _discard_indices(s, _tables(s.rules))
    actions = legal_actions(s)
    if not actions:
        return ()
    return _indices(actions, s.rules)


def _discard_indices(state: GameState, tables: _Tables) -> tuple[int, ...]:
    """Every kitty-size subset of hand + kitty, ranked, ascending (R4.1).

    In the combinatorial number system a subset's rank is ``sum(comb(p_j, j))`` over its
    sorted deck positions ``p_1 < … < p_k``, and ranks ascend with the largest position
    first, then the next. So, taking the pool's positions in order, the ranks of the
    ``j``-subsets seen so far grow by those that end at the new position ``p``: the
    ``(j - 1)``-subsets before it, each plus ``comb(p, j)``, all larger than the old ones.
    """
    seat = state.contractor
    assert seat is not None
    position = tables.position
    pool = [position[card.index] for card in state.hand(seat)]
    pool += [position[card.index] for card in state.kitty]
    pool.sort()
    size = tables.kitty_size
    rows = tables.comb_rows
    last = len(pool) - 1
    # levels[j]: the ranks (plus the block's start) of the j-subsets of the positions so far
    levels = [[tables.discards]] + [[] for _ in range(size)]
    for m, p in enumerate(pool):
        # only levels that the positions still to come can fill up to ``size`` matter
        for j in range(min(m + 1, size), max(0, size - last + m - 1), -1):
            levels[j].extend(map(rows[j][p].__add__, levels[j - 1]))
    return tuple(levels[size])


def _indices(actions: tuple[Action, ...], rules: Rules) -> tuple[int, ...]:
    """The indices of ``actions`` (legal actions of a state), ascending; table lookups mostly."""
    tables = _tables(rules)
    position = tables.position
    by_id = tables.by_id
    indices = []
    for action in actions:
        kind = type(action)
        index = -1
        if kind is Play:
            assert isinstance(action, Play)
            suit = action.suit
            if suit is None:
                place = position[action.card.index]
                if place >= 0:
                    index = tables.plays + place
            elif action.card.is_joker and type(suit) is Suit:
                index = tables.joker_leads + int(suit)
        elif kind is Call:
            assert isinstance(action, Call)
            known = by_id.get(id(action))
            if known is not None:
                index = known[0]
            else:
                index = tables.calls.get(action, -1)
                if index >= 0:
                    if len(by_id) >= _KNOWN_CALLS_LIMIT:
                        by_id.clear()
                    by_id[id(action)] = (index, action)
        elif kind is Nominate:
            assert isinstance(action, Nominate)
            suit = action.suit
            if tables.nominations >= 0 and (suit is None or type(suit) is Suit):
                index = tables.nominations + (4 if suit is None else int(suit))
        elif kind is CallPartner:
            assert isinstance(action, CallPartner)
            card = action.card
            if card is not None:
                index = tables.partner_cards[card.index]
            elif action.seat is not None:
                index = tables.partner_seats.get(action.seat, -1)
        if index < 0:  # discards (never listed by the engine) and anything unusual
            index = full_encode(action, rules)
        indices.append(index)
    indices.sort()
    return tuple(indices)


def full_mask(state: object) -> tuple[bool, ...]:
    """For each index of ``range(full_size(state.rules))``, whether that action is legal now.

    All ``False`` while waiting for a deal and when the game is over.

    Raises :class:`~fivehundred.FiveHundredTypeError` for a non-state.
    """
    indices = full_indices(state)
    tables = _tables(the_state(state).rules)
    tail = tables.false_tail
    if tail is not None and (not indices or indices[-1] < tables.discards):
        head = [False] * tables.discards  # no discard is legal: only the small blocks vary
        for index in indices:
            head[index] = True
        return tuple(head) + tail
    mask = [False] * tables.size
    for index in indices:
        mask[index] = True
    return tuple(mask)


# Compiled, mypyc leaves these Python classes with a filler docstring: they take theirs,
# and the attrs classes their signatures, from the source (fivehundred._engine.docs).
document_class(Layout)
document_class(DiscardCard)
document_class(ActionLayout)
