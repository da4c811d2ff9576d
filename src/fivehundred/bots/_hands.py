"""How the heuristic player judges a hand: its tricks in each strain, its misère dangers,
and the worth of the cards it keeps. The search players share these judgements."""

from __future__ import annotations

from collections.abc import Iterable

from fivehundred._engine.sight import (
    card_table,
    deck_mask,
)
from fivehundred.calls import Call, Strain
from fivehundred.cards import JOKER_INDEX, Card, indices, mask_of
from fivehundred.errors import FiveHundredTypeError
from fivehundred.rules import Rules
from fivehundred.tricks import context


def mask_tricks(hand: int, strain: Strain, rules: Rules) -> float:
    """:func:`trick_estimate` of a card-index bit mask."""
    deck = deck_mask(rules)
    ctx = context(strain.suit)
    table = card_table(ctx)
    outside = deck & ~hand
    total = 0.0
    trump = -1 if ctx.trump is None else int(ctx.trump)
    trumps = hand & ctx.trump_mask
    length = trumps.bit_count()
    if trump >= 0:
        held = sorted(indices(trumps), key=lambda i: -ctx.power[i])
        for at, index in enumerate(held):
            higher = (table.above[index] & outside).bit_count()
            if higher == 0:
                total += 1.0
            elif length - at > higher:
                total += max(0.45, 0.9 - 0.15 * higher)
            else:
                total += 0.3
        ruffs = 0.0
    elif trumps:  # the suitless Joker in No Trumps: a sure trick
        total += 1.0
    for suit in range(4):
        if suit == trump:
            continue
        cards = hand & ctx.suit_masks[suit]
        count = cards.bit_count()
        if trump >= 0 and count <= 1 and length >= 3:
            ruffs += 0.6 if count == 0 else 0.3
        held = sorted(indices(cards), key=lambda i: -ctx.power[i])
        for at, index in enumerate(held):
            higher = (table.above[index] & outside).bit_count()
            if higher == 0:
                total += (1.0 if trump < 0 else 0.9) - 0.2 * at * (trump >= 0)
            elif higher == 1 and count >= 2 and at <= 1:
                total += 0.45
            elif higher == 2 and count >= 3 and at <= 2 and trump < 0:
                total += 0.25
        if trump < 0 and count >= 5 and held and (table.above[held[0]] & outside) == 0:
            total += 0.6 * (count - 4)
        if trump < 0 and (count == 0 or (table.above[held[0]] & outside).bit_count() > count):
            total -= 0.4  # an unstopped suit in No Trumps
    if trump >= 0:
        total += min(ruffs, max(0.0, 0.5 * (length - 2)))
    return total


def mask_danger(hand: int, rules: Rules, *, slack: int = 1) -> list[int]:
    """:func:`misere_danger` of a card-index bit mask."""
    deck = deck_mask(rules)
    table = card_table(context(None))
    danger = []
    for index in indices(hand):
        if index == JOKER_INDEX:
            danger.append(10)
            continue
        below = table.below[index]
        position = (below & deck).bit_count()
        mine = (below & hand).bit_count()
        danger.append(max(0, position - (2 * mine + slack)))
    return sorted(danger, reverse=True)


def hand_mask(cards: Iterable[Card]) -> int:
    """The bit mask of a user's cards; anything but Cards is a FiveHundredTypeError."""
    try:
        items = tuple(cards)
    except TypeError:
        raise FiveHundredTypeError(f"a hand is an iterable of Cards, not {cards!r}") from None
    for card in items:
        if not isinstance(card, Card):
            raise FiveHundredTypeError(f"a hand is made of Cards, not {card!r}")
    return mask_of(items)


def trick_estimate(hand: Iterable[Card], strain: Strain, rules: Rules) -> float:
    """Tricks a hand should take by itself with ``strain`` as the contract.

    Counts trumps (Joker, bowers, length), side aces and guarded kings, and
    short side suits to ruff in; in No Trumps the suitless Joker, top cards and
    long suits. The partner's share is not included.

    >>> import fivehundred as fh
    >>> hand = fh.parse_cards("Jo JH JD AH KH 10H AS AC 5D 6S")
    >>> round(trick_estimate(hand, fh.Strain.HEARTS, fh.Rules()), 1)
    7.7

    Raises :class:`~fivehundred.FiveHundredTypeError` when ``hand`` is not an iterable of
    :class:`~fivehundred.Card` (a bit mask, for one).
    """
    return mask_tricks(hand_mask(hand), strain, rules)


def misere_danger(hand: Iterable[Card], rules: Rules, *, slack: int = 1) -> list[int]:
    """How hard each card of a hand is to lose in misère, highest first (0: safe).

    The i-th lowest card of a suit is safe when at most ``2 i + slack`` cards of
    that suit rank below it; each card further up adds one. The Joker, which
    must win a trick once played (R7.3), counts 10.

    >>> import fivehundred as fh
    >>> misere_danger(fh.parse_cards("4H 5H 7H 5S 6S 7C 4D AD 9S Jo"), fh.Rules())
    [10, 7, 1, 0, 0, 0, 0, 0, 0, 0]

    Raises :class:`~fivehundred.FiveHundredTypeError` when ``hand`` is not an iterable of
    :class:`~fivehundred.Card` (a bit mask, for one).
    """
    return mask_danger(hand_mask(hand), rules, slack=slack)


def discard_value(keep: Iterable[Card], contract: Call, rules: Rules) -> float:
    """How good the kept cards are for a contract: trick estimate, or misère safety.

    >>> import fivehundred as fh
    >>> keep = fh.parse_cards("Jo JH JD AH KH 10H AS AC 5D 6S")
    >>> discard_value(keep, fh.parse_call("8H"), fh.Rules()) > 7
    True

    Raises :class:`~fivehundred.FiveHundredTypeError` when ``keep`` is not an iterable of
    :class:`~fivehundred.Card` (a bit mask, for one).
    """
    return mask_discard_value(hand_mask(keep), contract, rules)


def misere_fit(hand: int, rules: Rules) -> tuple[bool, bool]:
    """Whether a hand suits misère and open misère (the kitty exchange sheds bad cards).

    Misère: at most two bad cards (one of them may be the Joker). Open misère,
    where the defenders see the hand: one bad card at most, by a stricter count.
    """
    danger = mask_danger(hand, rules)
    misere = sum(danger[2:]) == 0 and sum(danger[:2]) <= 12
    strict = mask_danger(hand, rules, slack=0)
    open_misere = sum(strict[1:]) == 0
    return misere, open_misere


def mask_discard_value(keep: int, contract: Call, rules: Rules) -> float:
    """:func:`discard_value` of a card-index bit mask."""
    if contract.is_misere:
        danger = mask_danger(keep, rules)
        return -float(sum(danger)) - 0.1 * danger[0]
    assert contract.strain is not None
    return mask_tricks(keep, contract.strain, rules)
