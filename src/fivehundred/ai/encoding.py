"""Actions as integers, for learning agents (no numpy needed): one API, two layouts.

For one :class:`~fivehundred.Rules`, every action a player could ever take has an
id in ``range(num_actions(rules, layout=...))``. The ``layout`` argument of every
function here picks how the ids are laid out (:class:`Layout`; a member or its
value):

- ``"full"`` (the default): one id per library action; a kitty discard is one id
  among every set of ``kitty_size`` cards, so the default game has 12,422 ids and
  the 45-card deck (V-45) over a million;
- ``"compact"``: the contractor discards one card at a time, each a decision of its
  own (a :class:`DiscardCard`), so every game has at most 200 ids (124 by default).
  The cards chosen so far travel beside the state as ``pending``, a tuple of cards,
  and :func:`apply_index` applies the whole :class:`~fivehundred.Discard` with the
  last one. This is the layout of the OpenSpiel and PettingZoo adapters.

Both layouts share their first blocks, with the same ids: the calls (pass, then the
ladder, then its sans-kitty forms with V-SANS-KITTY), the plays (each card of the
deck in card order, then the four Joker leads naming a suit, R7.4), the Joker
nominations (R7.1) and the five-player partner calls (P5). Only the discard block,
last, differs. See ``docs/json-format.md``, "Action encoding".

>>> import fivehundred as fh
>>> from fivehundred.ai.encoding import decode_action, encode_action, legal_action_indices
>>> from fivehundred.ai.encoding import num_actions
>>> num_actions(fh.Rules()), num_actions(fh.Rules(), layout="compact")
(12422, 124)
>>> encode_action(fh.parse_call("7H"), fh.Rules()), decode_action(9, fh.Rules())
(9, Call.parse('7H'))
>>> state = fh.deal(fh.new_game(dealer=3), seed=7)
>>> [decode_action(i, state.rules) for i in legal_action_indices(state)][:3]
[Call.parse('pass'), Call.parse('6S'), Call.parse('6C')]
"""

from __future__ import annotations

from typing import Final, Literal, overload

from fivehundred._engine.state import GameState
from fivehundred.actions import Action
from fivehundred.ai._compact import (
    compact_apply,
    compact_decode,
    compact_encode,
    compact_ids,
    compact_indices,
    compact_layout,
    compact_mask,
    compact_size,
)
from fivehundred.ai._full import (
    ActionLayout,
    DiscardCard,
    EncodedAction,
    Layout,
    full_decode,
    full_encode,
    full_indices,
    full_layout,
    full_mask,
    full_size,
)
from fivehundred.cards import Card
from fivehundred.engine import apply, legal_actions
from fivehundred.errors import FiveHundredTypeError
from fivehundred.rules import Rules

__all__ = [
    "NUM_ACTIONS",
    "ActionLayout",
    "DiscardCard",
    "EncodedAction",
    "Layout",
    "action_ids",
    "action_layout",
    "apply_index",
    "decode_action",
    "encode_action",
    "legal_action_indices",
    "legal_action_mask",
    "num_actions",
]

#: A ``layout`` argument: a :class:`Layout` member or its value.
LayoutName = Layout | Literal["full", "compact"]


def _compact(layout: object) -> bool:
    """Whether ``layout`` names the compact layout; refuses anything that is not a layout."""
    if layout is Layout.FULL:
        return False
    if layout is Layout.COMPACT:
        return True
    if isinstance(layout, str) and layout in ("full", "compact"):
        return layout == "compact"
    raise FiveHundredTypeError(
        f"layout is 'full' or 'compact' (a fivehundred.ai.encoding.Layout), not {layout!r}"
    )


def _no_pending(pending: tuple[Card, ...]) -> None:
    """The full layout has no discard in progress: ``pending`` must be empty."""
    if pending != ():
        raise FiveHundredTypeError(
            f"pending cards belong to the compact layout, not the full one: {pending!r}"
        )


def action_layout(rules: Rules, *, layout: LayoutName = Layout.FULL) -> ActionLayout:
    """Where each block of ids starts for ``rules`` in ``layout``, and how many there are.

    >>> import fivehundred as fh
    >>> action_layout(fh.Rules(players=5), layout="compact").size
    196

    Raises :class:`~fivehundred.IllegalActionError` (``NOT_AN_ACTION``) when ``rules`` is
    not a :class:`~fivehundred.Rules`, and :class:`~fivehundred.FiveHundredTypeError` for an
    unknown ``layout``.
    """
    return compact_layout(rules) if _compact(layout) else full_layout(rules)


def num_actions(rules: Rules, *, layout: LayoutName = Layout.FULL) -> int:
    """The number of ids for ``rules`` in ``layout``.

    >>> import fivehundred as fh
    >>> num_actions(fh.Rules(players=5)), num_actions(fh.Rules(players=5), layout="compact")
    (23569, 196)

    Raises :class:`~fivehundred.IllegalActionError` (``NOT_AN_ACTION``) when ``rules`` is
    not a :class:`~fivehundred.Rules`, and :class:`~fivehundred.FiveHundredTypeError` for an
    unknown ``layout``.
    """
    return compact_size(rules) if _compact(layout) else full_size(rules)


#: The number of ids of the default game in the full layout (``num_actions(Rules())``).
NUM_ACTIONS: Final = full_size(Rules())


def encode_action(action: EncodedAction, rules: Rules, *, layout: LayoutName = Layout.FULL) -> int:
    """The id of ``action`` under ``rules`` in ``layout``.

    In the compact layout, a :class:`DiscardCard` has an id and a whole
    :class:`~fivehundred.Discard` has several: use :func:`action_ids`.

    >>> import fivehundred as fh
    >>> encode_action(fh.Play(fh.JOKER, fh.Suit.HEARTS), fh.Rules())
    75
    >>> encode_action(DiscardCard(fh.parse_card("5S")), fh.Rules(), layout="compact")
    81

    Raises :class:`~fivehundred.IllegalActionError` (``NOT_AN_ACTION``) for an action these
    rules can never allow (a card not in the deck, a sans-kitty bid without V-SANS-KITTY,
    anything that is not an action, a :class:`DiscardCard` in the full layout), when
    ``rules`` is not a :class:`~fivehundred.Rules`; and
    :class:`~fivehundred.FiveHundredTypeError` for an unknown ``layout``.
    """
    if _compact(layout):
        return compact_encode(action, rules)
    return full_encode(action, rules)  # type: ignore[arg-type]  # a DiscardCard is refused there


def action_ids(
    action: Action, rules: Rules, *, layout: LayoutName = Layout.FULL
) -> tuple[int, ...]:
    """The ids of a library action: one, or in the compact layout one per card of a discard
    (in card order).

    >>> import fivehundred as fh
    >>> discard = fh.Discard(fh.parse_cards("5S 6S 7S"))
    >>> action_ids(discard, fh.Rules(), layout="compact"), action_ids(discard, fh.Rules())
    ((81, 82, 83), (81,))

    Raises :class:`~fivehundred.IllegalActionError` (``NOT_AN_ACTION``) for an action these
    rules do not have, or when ``rules`` is not a :class:`~fivehundred.Rules`; and
    :class:`~fivehundred.FiveHundredTypeError` for an unknown ``layout``.
    """
    if _compact(layout):
        return compact_ids(action, rules)
    return (full_encode(action, rules),)


@overload
def decode_action(
    index: int, rules: Rules, *, layout: Literal[Layout.FULL, "full"] = ...
) -> Action: ...
@overload
def decode_action(index: int, rules: Rules, *, layout: LayoutName) -> EncodedAction: ...
def decode_action(index: int, rules: Rules, *, layout: LayoutName = Layout.FULL) -> EncodedAction:
    """What the id ``index`` stands for under ``rules``; the inverse of :func:`encode_action`.

    A library action, or in the compact layout a :class:`DiscardCard` for a discard id.

    >>> import fivehundred as fh
    >>> decode_action(num_actions(fh.Rules()) - 1, fh.Rules())
    Discard(cards=(Card.parse('KH'), Card.parse('AH'), Card.parse('Jo')))
    >>> decode_action(81, fh.Rules(), layout="compact")
    DiscardCard(card=Card.parse('5S'))

    Raises :class:`~fivehundred.IllegalActionError` (``NOT_AN_ACTION``) for an id outside
    ``range(num_actions(rules, layout=layout))``, and
    :class:`~fivehundred.FiveHundredTypeError` for an unknown ``layout``.
    """
    if _compact(layout):
        return compact_decode(index, rules)
    return full_decode(index, rules)


def legal_action_indices(
    state: GameState, *, layout: LayoutName = Layout.FULL, pending: tuple[Card, ...] = ()
) -> tuple[int, ...]:
    """The ids of the legal actions of ``state``, ascending (the sparse form of the mask).

    ``pending`` (compact layout only) holds the cards of a discard in progress: the next
    card's ids leave them out. In the full layout's kitty phase the discard ids are computed
    straight from the contractor's cards, without building the discards.

    >>> import fivehundred as fh
    >>> legal_action_indices(fh.new_game(dealer=0))
    ()
    >>> legal_action_indices(fh.deal(fh.new_game(dealer=3), seed=7), layout="compact")[:3]
    (0, 1, 2)

    Raises :class:`~fivehundred.FiveHundredTypeError` for a non-state, an unknown ``layout``
    or ``pending`` cards in the full layout.
    """
    if _compact(layout):
        return compact_indices(state, pending)
    _no_pending(pending)
    return full_indices(state)


def legal_action_mask(
    state: GameState, *, layout: LayoutName = Layout.FULL, pending: tuple[Card, ...] = ()
) -> tuple[bool, ...]:
    """For each id of ``range(num_actions(state.rules, layout=layout))``, whether it is legal.

    All ``False`` while waiting for a deal and when the game is over; ``pending`` as in
    :func:`legal_action_indices`.

    >>> import fivehundred as fh
    >>> mask = legal_action_mask(fh.deal(fh.new_game(dealer=3), seed=7), layout="compact")
    >>> len(mask), sum(mask)
    (124, 28)

    Raises :class:`~fivehundred.FiveHundredTypeError` for a non-state, an unknown ``layout``
    or ``pending`` cards in the full layout.
    """
    if _compact(layout):
        return compact_mask(state, pending)
    _no_pending(pending)
    return full_mask(state)


def apply_index(
    state: GameState,
    index: int,
    *,
    layout: LayoutName = Layout.FULL,
    pending: tuple[Card, ...] = (),
) -> tuple[GameState, tuple[Card, ...]]:
    """Take the action with id ``index``: the new state and the new ``pending``.

    In the compact layout a discard id adds its card to ``pending``, and the last one
    applies the whole :class:`~fivehundred.Discard` (R4.1), leaving ``pending`` empty.
    Any other id applies its action as :func:`~fivehundred.apply` does; in the full
    layout ``pending`` is always ``()``.

    >>> import fivehundred as fh
    >>> state = fh.deal(fh.new_game(dealer=3), seed=7)
    >>> after, pending = apply_index(state, 1)
    >>> after.auction, pending
    (((0, Call.parse('6S')),), ())

    Raises :class:`~fivehundred.FiveHundredTypeError` for a non-state, an unknown
    ``layout`` or bad ``pending`` cards, and :class:`~fivehundred.IllegalActionError` for an
    id that is not legal now (``Reason.NOT_AN_ACTION`` during a discard in progress).
    """
    if _compact(layout):
        return compact_apply(state, index, pending)
    _no_pending(pending)
    if type(state) is not GameState:
        legal_actions(state)  # raises the library's type error
    return apply(state, full_decode(index, state.rules)), ()
