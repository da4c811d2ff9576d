"""Card order under a contract, effective suits and the winner of a trick (R1.3, R1.4, R5, R7).

A :class:`Context` holds, for one contract and Joker nomination, the mask of
each effective suit, the trump mask and the power of every card (by
``Card.index``); it is built once and cached, and the engine core plays by the
same data projected onto the deck.

>>> import fivehundred as fh
>>> fh.effective_suit(fh.parse_card("JD"), fh.parse_call("7H"))
<Suit.HEARTS: 3>
>>> fh.effective_suit(fh.JOKER, fh.parse_call("7NT")) is None
True
>>> fh.trick_winner(fh.parse_cards("AH JD 10H KS"), fh.parse_call("6H"))
1
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, TypeAlias

from fivehundred._engine import order
from fivehundred._engine.docs import document_class
from fivehundred._engine.quoting import expect
from fivehundred.calls import Call, Strain
from fivehundred.cards import Card, Suit
from fivehundred.errors import FiveHundredError, FiveHundredTypeError

if TYPE_CHECKING:  # for annotations only: the views and the state import this module
    from fivehundred._engine.state import GameState
    from fivehundred.views import PlayerView

#: The most cards a trick can hold: one a player at the largest table (P6).
MAX_TRICK = 6

__all__ = [
    "Context",
    "ContractLike",
    "context",
    "contract_context",
    "display_groups",
    "effective_suit",
    "is_trump",
    "trick_winner",
    "winning_play",
]

#: How cards behave under one contract (the rule data of R1.3, R1.4, R5.2 and R7).
Context = order.Ctx
document_class(Context)  # compiled, its docstring and signature come from its source


def context(trump: Suit | None, joker_suit: Suit | None = None) -> Context:
    """The :class:`Context` of a trump suit (or ``None`` for No Trumps/misère), cached.

    ``joker_suit`` is the suit the Joker was nominated into, in a No Trumps or
    misère contract (R7.1). Raises :class:`~fivehundred.FiveHundredTypeError`
    for anything but a :class:`~fivehundred.Suit` or ``None``, and
    :class:`~fivehundred.FiveHundredError` for a nominated Joker under trumps.
    """
    expect(trump, (Suit, type(None)), "a trump Suit, or None for No Trumps")
    expect(joker_suit, (Suit, type(None)), "the Joker's nominated Suit, or None")
    return order.context(trump, joker_suit)


#: How the pure rule functions take a contract: a bid (:class:`Call`), a :class:`Strain`,
#: a trump :class:`Suit`, or ``None`` for No Trumps.
ContractLike: TypeAlias = Call | Strain | Suit | None


def contract_context(contract: ContractLike, joker_suit: Suit | None = None) -> Context:
    """The :class:`Context` of a contract: a :class:`Call` (misère is of the No Trumps
    family), a :class:`Strain`, a trump :class:`Suit`, or ``None`` for No Trumps."""
    if isinstance(contract, Call):
        if not contract.is_bid:
            raise FiveHundredError("a pass is not a contract")
        trump = contract.trump
    elif isinstance(contract, Strain):
        trump = contract.suit
    elif contract is None or isinstance(contract, Suit):
        trump = contract
    else:
        raise FiveHundredTypeError(
            f"a contract is a Call, a Strain, a Suit or None, not {contract!r}"
        )
    if joker_suit is not None and not isinstance(joker_suit, Suit):
        raise FiveHundredTypeError(f"joker_suit is a Suit or None, not {joker_suit!r}")
    return context(trump, joker_suit)


def effective_suit(
    card: Card, contract: ContractLike, *, joker_suit: Suit | None = None
) -> Suit | None:
    """The suit a card counts as under a contract (R5.2).

    In a trump contract the Joker and the left bower are of the trump suit. In
    No Trumps and misère the Joker has no suit (``None``) unless it was
    nominated into ``joker_suit`` (R7.1).

    >>> import fivehundred as fh
    >>> effective_suit(fh.parse_card("JC"), fh.Strain.SPADES)
    <Suit.SPADES: 0>
    >>> effective_suit(fh.parse_card("JC"), fh.Strain.NO_TRUMPS)
    <Suit.CLUBS: 1>
    >>> effective_suit(fh.JOKER, fh.MISERE, joker_suit=fh.Suit.HEARTS)
    <Suit.HEARTS: 3>

    Raises :class:`~fivehundred.FiveHundredTypeError` for a non-card, or a contract that is not
    a :class:`~fivehundred.Call`, :class:`~fivehundred.Strain`, :class:`~fivehundred.Suit` or
    ``None``.
    """
    if not isinstance(card, Card):
        raise FiveHundredTypeError(f"a Card is needed, not {card!r}")
    suit = contract_context(contract, joker_suit).suit_of(card.index)
    return None if suit < 0 else Suit(suit)


def trick_winner(
    cards: Sequence[Card],
    contract: ContractLike,
    *,
    joker_suit: Suit | None = None,
    led_suit: Suit | None = None,
) -> int:
    """The position (0-based, in play order) of the card that wins a trick (R5.4, R7).

    ``led_suit`` is needed only when a suitless Joker was led (R7.4): it is the
    suit the leader named; when it is ``None`` the led suit is the effective
    suit of the first card.

    >>> import fivehundred as fh
    >>> trick_winner(fh.parse_cards("KS AS JC Jo"), fh.Strain.SPADES)
    3
    >>> trick_winner(fh.parse_cards("KS AS JC 10S"), fh.Strain.SPADES)
    2
    >>> trick_winner(fh.parse_cards("Jo 10H AH"), fh.Strain.NO_TRUMPS, led_suit=fh.Suit.HEARTS)
    0
    >>> trick_winner(fh.parse_cards("KD Jo AD"), fh.Strain.NO_TRUMPS, joker_suit=fh.Suit.HEARTS)
    2

    Raises :class:`~fivehundred.FiveHundredError` for a trick of no cards, more cards than
    players or a card twice, and for a ``led_suit`` that is not the suit of a first card
    that has one; :class:`~fivehundred.FiveHundredTypeError` for arguments of the wrong type.
    """
    if not isinstance(cards, Sequence) or not all(isinstance(card, Card) for card in cards):
        raise FiveHundredTypeError(f"a trick is a sequence of Cards, not {cards!r}")
    if led_suit is not None and not isinstance(led_suit, Suit):
        raise FiveHundredTypeError(f"led_suit is a Suit or None, not {led_suit!r}")
    if not cards or len(cards) > MAX_TRICK:
        raise FiveHundredError(
            f"a trick has 1 to {MAX_TRICK} cards (one a player), not {len(cards)}"
        )
    twice = [card for n, card in enumerate(cards) if card in cards[:n]]
    if twice:
        raise FiveHundredError(f"a trick holds each card once: {twice[0]} is there twice (R1.1)")
    ctx = contract_context(contract, joker_suit)
    indices = [card.index for card in cards]
    first = ctx.suit_of(indices[0])
    if led_suit is not None and 0 <= first != int(led_suit):
        raise FiveHundredError(
            f"{cards[0]} leads {Suit(first).name.lower()}, not {led_suit.name.lower()}: "
            "led_suit is the suit a suitless Joker's leader names (R7.4)"
        )
    led = int(led_suit) if led_suit is not None else first
    return ctx.winner(indices, led)


def winning_play(state: GameState | PlayerView) -> tuple[int, Card] | None:
    """The ``(seat, card)`` winning the trick in progress so far; ``None`` before its first card.

    The trick's cards go to :func:`trick_winner` under the hand's contract, the
    Joker's nomination and the suit led (a Joker lead's named suit, R7.4), so the
    seat shown winning is the seat that takes the trick if nobody beats it (R5.4).
    A :class:`~fivehundred.PlayerView` answers alike: a client can show it.

    >>> import fivehundred as fh
    >>> state = fh.deal(fh.new_game(dealer=3), seed=7)
    >>> for text in ("7H", "pass", "pass", "pass", "discard 5S 7S 4D"):
    ...     state = fh.play(state, state.to_act, text)
    >>> winning_play(state) is None
    True
    >>> for text in ("9C", "AC", "KC"):
    ...     state = fh.play(state, state.to_act, text)
    >>> winning_play(state)
    (1, Card.parse('AC'))
    >>> state = fh.play(state, 3, "JH")  # no club: seat 3 trumps with the right bower
    >>> winning_play(state) is None, state.tricks[-1].winner  # the trick is complete
    (True, 3)

    Raises :class:`~fivehundred.FiveHundredTypeError` for anything but a state or a view.
    """
    from fivehundred._engine.state import GameState
    from fivehundred.views import PlayerView

    if not isinstance(state, (GameState, PlayerView)):
        raise FiveHundredTypeError(f"a GameState or PlayerView is needed, not {state!r}")
    trick = state.trick
    if not trick:
        return None
    contract = state.contract
    assert contract is not None  # a trick is played under a contract
    cards = [card for _, card in trick]
    at = trick_winner(cards, contract, joker_suit=state.joker_suit, led_suit=state.led_suit)
    return trick[at]


def is_trump(card: Card, contract: ContractLike, *, joker_suit: Suit | None = None) -> bool:
    """Whether a card is a trump under a contract (R1.3, R1.4, R7.1).

    In a trump contract the trumps are the cards of the trump suit, the left
    bower and the Joker. In No Trumps and misère the only trump is the Joker,
    and only while it is not nominated into ``joker_suit``.

    >>> import fivehundred as fh
    >>> is_trump(fh.parse_card("JD"), fh.parse_call("7H"))  # the left bower
    True
    >>> is_trump(fh.parse_card("AS"), fh.Suit.HEARTS)
    False
    >>> is_trump(fh.JOKER, fh.MISERE), is_trump(fh.JOKER, fh.MISERE, joker_suit=fh.Suit.CLUBS)
    (True, False)

    Raises :class:`~fivehundred.FiveHundredTypeError` for a non-card, or a contract that is not
    a :class:`~fivehundred.Call`, :class:`~fivehundred.Strain`, :class:`~fivehundred.Suit` or
    ``None``.
    """
    if not isinstance(card, Card):
        raise FiveHundredTypeError(f"a Card is needed, not {card!r}")
    return bool(contract_context(contract, joker_suit).trump_mask >> card.index & 1)


def display_groups(
    cards: Iterable[Card], contract: ContractLike, *, joker_suit: Suit | None = None
) -> tuple[tuple[Card, ...], ...]:
    """Cards as a player sorts them in hand under a contract, in groups (R1.2-R1.4, R5.2, R7).

    The trumps come first, then each effective suit in strain order (spades,
    clubs, diamonds, hearts; R1.2); a suit the cards do not hold has no group.
    Each group runs from its highest card to its lowest in the contract's card
    order, the one the engine plays by: the Joker and both bowers head the
    trumps (R1.3); in No Trumps and misère the jacks sit between the queens and
    the tens, the un-nominated Joker is the one trump (R1.4), and a nominated
    Joker heads its suit (R7.1). Concatenated, the groups are the display order.

    >>> import fivehundred as fh
    >>> hand = fh.parse_cards("AS JD 9C Jo 10H JH QD")
    >>> [" ".join(map(str, group)) for group in display_groups(hand, fh.parse_call("7H"))]
    ['Jo JH JD 10H', 'AS', '9C', 'QD']
    >>> [" ".join(map(str, group)) for group in display_groups(hand, fh.MISERE)]
    ['Jo', 'AS', '9C', 'QD JD', 'JH 10H']
    >>> display_groups(hand, None, joker_suit=fh.Suit.CLUBS)[1]
    (Card.parse('Jo'), Card.parse('9C'))

    Raises :class:`~fivehundred.FiveHundredTypeError` for anything but an iterable of cards,
    or a contract that is not a :class:`~fivehundred.Call`, :class:`~fivehundred.Strain`,
    :class:`~fivehundred.Suit` or ``None``.
    """
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise FiveHundredTypeError(f"cards are an iterable of Cards, not {cards!r}")
    hand = tuple(cards)
    if not all(isinstance(card, Card) for card in hand):
        raise FiveHundredTypeError(f"cards are an iterable of Cards, not {hand!r}")
    ctx = contract_context(contract, joker_suit)
    groups: list[list[Card]] = [[] for _ in range(5)]  # the trumps, then S C D H
    for card in hand:
        index = card.index
        groups[0 if ctx.trump_mask >> index & 1 else 1 + ctx.suits[index]].append(card)
    power = ctx.power
    return tuple(
        tuple(sorted(group, key=lambda card: -power[card.index])) for group in groups if group
    )
