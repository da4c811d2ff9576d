"""The compact layout of the integer action encoding: at most 200 ids, one card at a time.

Internal: :mod:`fivehundred.ai.encoding` is the public API, where this layout is
``layout="compact"``. The full layout numbers every *library* action, so a kitty
exchange is one choice among C(13, 3) = 286 discards and the default game has
12,422 ids. This layout splits the exchange into single-card choices instead:
the contractor discards ``kitty_size`` cards one after the other, each its own
decision (:class:`~fivehundred.ai.encoding.DiscardCard`). Every other block is the
same as in the full layout, with the same ids:

1. **calls**: pass, then every bid of the ladder from low to high (then the
   sans-kitty form of each bid, V-SANS-KITTY);
2. **plays**: each card of the deck in card order, then the four Joker leads that
   name a suit (spades, clubs, diamonds, hearts; R7.4);
3. **nominations** (only when the rules allow them, R7.1): the four suits, then none;
4. **partner calls** (five players, P5): each card of the deck but the Joker, or
   each seat with ``partner_by_seat``;
5. **discard one card**: each card of the deck in card order (R4.1).

That is 29 + 47 + 5 + 0 + 43 = 124 ids in the default game, and 196 with five
players (the largest game of the presets).

A discard in progress is not a library state: the cards chosen so far are kept
beside the state as ``pending``, a tuple of cards. Once ``kitty_size`` cards are
chosen, :func:`compact_apply` applies the library's :class:`~fivehundred.Discard`.
The cards are chosen in card order: each one above the one before, and low enough
to leave as many cards above it as are still to choose. So each discard has one
order of ids, and a player's history of ids tells its discards apart (perfect
recall, as OpenSpiel's tabular solvers need).

The OpenSpiel and PettingZoo adapters call these functions directly: the layout is
chosen once, when the game is made, not on every step.

>>> import fivehundred as fh
>>> state = fh.deal(fh.new_game(dealer=3), seed=7)
>>> [compact_decode(i, state.rules) for i in compact_indices(state)][:3]
[Call.parse('pass'), Call.parse('6S'), Call.parse('6C')]
>>> state, pending = compact_apply(state, 0)
>>> pending
()
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, cast

import attrs

from fivehundred._engine.hand import DISCARD, PARTNER, PLAY
from fivehundred._engine.play import play_mask, play_names
from fivehundred._engine.state import GameState, hand_block, hand_of
from fivehundred._engine.table import table as _rules_table
from fivehundred.actions import Action, Discard, Nominate
from fivehundred.ai._full import (
    ActionLayout,
    DiscardCard,
    EncodedAction,
    Layout,
    full_decode,
    full_encode,
    full_layout,
    not_rules,
    the_state,
)
from fivehundred.calls import Call
from fivehundred.cards import Card
from fivehundred.engine import apply, legal_actions
from fivehundred.errors import FiveHundredTypeError, IllegalActionError, Reason
from fivehundred.rules import Rules

__all__ = [
    "compact_apply",
    "compact_decode",
    "compact_encode",
    "compact_ids",
    "compact_indices",
    "compact_layout",
    "compact_mask",
    "compact_size",
]


class _Tables:
    """Lookup tables of the compact encoding for one ``Rules``, built once."""

    __slots__ = (
        "after_partners",
        "after_plays",
        "before_discards",
        "before_partners",
        "before_plays",
        "cache",
        "calls",
        "deck",
        "deck_size",
        "discards",
        "false",
        "joker_bit",
        "layout",
        "nominations",
        "partner_by_seat",
        "partners",
        "plays",
        "position",
        "size",
    )

    def __init__(self, rules: Rules) -> None:
        full = full_layout(rules)
        deck = full.deck
        start = full.partners.stop
        self.layout = attrs.evolve(
            full, discards=range(start, start + len(deck)), kind=Layout.COMPACT
        )
        self.size = self.layout.size
        self.deck = deck
        self.deck_size = len(deck)
        self.position = {card: p for p, card in enumerate(deck)}
        self.false = [False] * self.size
        self.before_plays = (False,) * full.plays.start
        self.after_plays = (False,) * (self.size - full.plays.stop)
        self.before_partners = (False,) * full.partners.start
        self.after_partners = (False,) * (self.size - full.partners.stop)
        self.before_discards = (False,) * start
        self.calls = {call: full.calls.start + i for i, call in enumerate(full.call_list)}
        self.plays = full.plays.start
        self.nominations = full.nominations.start if len(full.nominations) else -1
        self.partners = full.partners.start
        self.partner_by_seat = rules.partner_by_seat
        self.discards = start
        self.joker_bit = _rules_table(rules).joker_bit
        #: Masks of legal-action tuples already met, by the tuple's identity: the core
        #: hands out the same tuples again (the calls over a standing bid, the plays of a
        #: hand). Each entry holds its tuple, so that the id cannot be reused meanwhile.
        self.cache: dict[int, tuple[tuple[Action, ...], tuple[bool, ...]]] = {}


_TABLES: dict[Rules, _Tables] = {}
#: How many legal-action tuples one table remembers before it starts again.
_CACHE_LIMIT: Final = 4096


def _tables(rules: Rules) -> _Tables:
    try:
        found = _TABLES.get(rules)
    except TypeError:  # unhashable junk: refused below as any other non-Rules
        found = None
    if found is None:
        if not isinstance(rules, Rules):
            raise not_rules(rules)
        if len(_TABLES) >= 64:
            _TABLES.clear()
        found = _TABLES[rules] = _Tables(rules)
    return found


def compact_layout(rules: Rules) -> ActionLayout:
    """The block layout of the compact encoding for ``rules``.

    >>> import fivehundred as fh
    >>> compact_layout(fh.Rules()).size
    124

    Raises :class:`~fivehundred.IllegalActionError` (``NOT_AN_ACTION``) when ``rules`` is not a
    :class:`~fivehundred.Rules`.
    """
    return _tables(rules).layout


def compact_size(rules: Rules) -> int:
    """The number of compact ids for ``rules``.

    >>> import fivehundred as fh
    >>> compact_size(fh.Rules(players=5))
    196

    Raises :class:`~fivehundred.IllegalActionError` (``NOT_AN_ACTION``) when ``rules`` is not a
    :class:`~fivehundred.Rules`.
    """
    return _tables(rules).size


def compact_encode(action: EncodedAction, rules: Rules) -> int:
    """The compact id of a library action (not a whole discard), or of one discard card
    (:class:`~fivehundred.ai.encoding.DiscardCard`).

    A whole :class:`~fivehundred.Discard` is several ids: see :func:`compact_ids`.

    >>> import fivehundred as fh
    >>> compact_encode(DiscardCard(fh.JOKER), fh.Rules())
    123

    Raises :class:`~fivehundred.IllegalActionError` (``NOT_AN_ACTION``) for an action these
    rules do not have, or when ``rules`` is not a :class:`~fivehundred.Rules`.
    """
    tables = _tables(rules)
    if type(action) is DiscardCard:
        try:
            return tables.discards + tables.deck.index(action.card)
        except ValueError:
            raise IllegalActionError(
                Reason.NOT_AN_ACTION, f"{action!r} has no id: the card is not in the deck"
            ) from None
    if type(action) is Discard:
        raise IllegalActionError(
            Reason.NOT_AN_ACTION,
            f"{action!r} is {rules.kitty_size} compact ids, one per card: use action_ids",
        )
    return full_encode(action, rules)  # type: ignore[arg-type]  # anything else is refused there


def compact_ids(action: Action, rules: Rules) -> tuple[int, ...]:
    """The compact ids of a library action: one, or one per card of a discard (card order).

    >>> import fivehundred as fh
    >>> compact_ids(fh.Discard(fh.parse_cards("5S 6S 7S")), fh.Rules())
    (81, 82, 83)

    Raises :class:`~fivehundred.IllegalActionError` (``NOT_AN_ACTION``) for an action these
    rules do not have, or when ``rules`` is not a :class:`~fivehundred.Rules`.
    """
    if type(action) is Discard:
        return tuple(sorted(compact_encode(DiscardCard(card), rules) for card in action.cards))
    return (compact_encode(action, rules),)


def compact_decode(index: object, rules: Rules) -> EncodedAction:
    """What a compact id stands for; the inverse of :func:`compact_encode`.

    >>> import fivehundred as fh
    >>> compact_decode(75, fh.Rules()), compact_decode(81, fh.Rules())
    (Play(card=Card.parse('Jo'), suit=Suit.HEARTS), DiscardCard(card=Card.parse('5S')))

    Raises :class:`~fivehundred.IllegalActionError` (``NOT_AN_ACTION``) for an id outside ``0 …
    compact_size(rules) - 1``.
    """
    tables = _tables(rules)
    if type(index) is not int or not 0 <= index < tables.size:
        raise IllegalActionError(
            Reason.NOT_AN_ACTION,
            f"{index!r} is not a compact id: ids are 0 to {tables.size - 1} for these rules",
        )
    if index >= tables.discards:
        return DiscardCard(tables.deck[index - tables.discards])
    return full_decode(index, rules)


#: ``_BYTES[b]``: the eight bits of ``b``, lowest first, as booleans.
_BYTES: Final = tuple(tuple(bool(b >> i & 1) for i in range(8)) for b in range(256))


def _expand(mask: int, size: int) -> tuple[bool, ...]:
    """The lowest ``size`` bits of ``mask`` as booleans, lowest first."""
    out: tuple[bool, ...] = ()
    for shift in range(0, size, 8):
        out += _BYTES[(mask >> shift) & 255]
    return out[:size]


def compact_mask(state: object, pending: object = ()) -> tuple[bool, ...]:
    """For each compact id, whether it is legal now (``pending``: a discard's cards so far).

    All ``False`` while waiting for a deal and when the game is over.

    >>> import fivehundred as fh
    >>> mask = compact_mask(fh.deal(fh.new_game(dealer=3), seed=7))
    >>> len(mask), sum(mask)
    (124, 28)

    Raises :class:`~fivehundred.FiveHundredTypeError` for a non-state.
    """
    s = the_state(state)
    h = hand_block(s)
    tables = _tables(h.t.rules)
    phase = h.phase
    if phase == DISCARD:
        pool = hand_of(s, h.contractor) | h.kitty
        position = tables.position
        chosen = 0
        for card in cast("Iterable[Card]", pending):  # the cards of a discard in progress
            chosen += 1
            at = position[card]
            pool &= ~((2 << at) - 1)  # in card order: only cards above the last chosen
        for _ in range(h.t.kitty_size - chosen - 1):  # each leaves enough above it
            if pool:
                pool &= ~(1 << (pool.bit_length() - 1))
        return tables.before_discards + _expand(pool, tables.deck_size)
    if phase == PLAY:
        mask = play_mask(s)
        joker = tables.joker_bit
        if mask & joker:
            names = play_names(s)
            if names >= 0:
                mask = (mask & ~joker) | (names << tables.deck_size)
        return tables.before_plays + _expand(mask, tables.deck_size + 4) + tables.after_plays
    if phase == PARTNER and not tables.partner_by_seat:
        free = ~(hand_of(s, h.contractor) | tables.joker_bit)
        at = tables.joker_bit.bit_length() - 1
        free = (free & (tables.joker_bit - 1)) | ((free >> (at + 1)) << at)
        return tables.before_partners + _expand(free, tables.deck_size - 1) + tables.after_partners
    legal = legal_actions(s)
    known = tables.cache.get(id(legal))
    if known is not None and known[0] is legal:
        return known[1]
    out = tables.false.copy()
    for index in _indices(legal, tables):
        out[index] = True
    mask_tuple = tuple(out)
    if len(tables.cache) >= _CACHE_LIMIT:
        tables.cache.clear()
    tables.cache[id(legal)] = (legal, mask_tuple)
    return mask_tuple


def _indices(legal: tuple[Action, ...], tables: _Tables) -> list[int]:
    rules = tables.layout.rules
    out = []
    for action in legal:
        if type(action) is Call:
            out.append(tables.calls[action])
        elif type(action) is Nominate and tables.nominations >= 0:
            suit = action.suit
            out.append(tables.nominations + (4 if suit is None else int(suit)))
        else:
            out.append(full_encode(action, rules))
    return out


def compact_indices(state: object, pending: object = ()) -> tuple[int, ...]:
    """The legal compact ids now, ascending (the sparse form of :func:`compact_mask`).

    >>> import fivehundred as fh
    >>> compact_indices(fh.deal(fh.new_game(dealer=3), seed=7))[:3]
    (0, 1, 2)

    Raises :class:`~fivehundred.FiveHundredTypeError` for a non-state.
    """
    mask = compact_mask(state, pending)
    return tuple(i for i, legal in enumerate(mask) if legal)


def compact_apply(
    state: object, index: object, pending: object = ()
) -> tuple[GameState, tuple[Card, ...]]:
    """Take the action with compact id ``index``: the new state and the new ``pending``.

    A discard id adds its card to ``pending``; the last one applies the whole
    :class:`~fivehundred.Discard` (R4.1) and ``pending`` is empty again. Any
    other id applies its action (refused, as by :func:`~fivehundred.apply`, when
    illegal, or with ``Reason.NOT_AN_ACTION`` during a discard in progress).

    >>> import fivehundred as fh
    >>> state = fh.deal(fh.new_game(dealer=3), seed=7)
    >>> compact_apply(state, 1)[0].auction
    ((0, Call.parse('6S')),)

    Raises :class:`~fivehundred.FiveHundredTypeError` for a non-state and
    :class:`~fivehundred.IllegalActionError` for an id that is not legal now.
    """
    s = the_state(state)
    if not isinstance(pending, tuple) or not all(type(card) is Card for card in pending):
        raise FiveHundredTypeError(f"pending is a tuple of Cards, not {pending!r}")
    action = compact_decode(index, s.rules)
    if type(action) is DiscardCard:
        mask = compact_mask(s, pending)
        if not mask[cast("int", index)]:  # compact_decode took it: a valid id
            raise IllegalActionError(
                Reason.NOT_AN_ACTION, f"discarding {action.card} is not legal now (R4.1)"
            )
        chosen = (*pending, action.card)
        if len(chosen) < s.rules.kitty_size:
            return s, chosen
        return apply(s, Discard(chosen)), ()
    if pending:
        raise IllegalActionError(
            Reason.NOT_AN_ACTION,
            f"a discard is in progress ({len(pending)} of {s.rules.kitty_size} cards)",
        )
    assert not isinstance(action, DiscardCard)
    return apply(s, action), ()
