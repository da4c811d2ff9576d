"""What one seat can tell from its view, as card-index bit masks: voids, played and
unseen cards, and per-contract card tables.

Internal: the computer players (:mod:`fivehundred.bots`) and the observation
tensors (:mod:`fivehundred.ai.tensors`) compute with it;
:func:`fivehundred.bots.read_view` gives the same facts in cards.
"""

from __future__ import annotations

from functools import cache
from typing import Final

import attrs

from fivehundred.cards import JOKER_INDEX, indices, mask_of
from fivehundred.rules import Rules
from fivehundred.tricks import Context, context, contract_context
from fivehundred.views import PlayerView

#: The Joker's bit in a card-index mask.
JOKER_BIT: Final = 1 << JOKER_INDEX


# -- card tables ---------------------------------------------------------------


@attrs.frozen
class CardTable:
    """Per-contract lookups by card index: effective suit, higher and lower cards."""

    suit: tuple[int, ...]
    #: Cards of the same effective suit (or trumps) with more power, by card.
    above: tuple[int, ...]
    #: Cards of the same effective suit with less power, by card.
    below: tuple[int, ...]


@cache
def card_table(ctx: Context) -> CardTable:
    size = len(ctx.power)  # either numbering: card indices or deck positions
    suit = tuple(ctx.suit_of(i) for i in range(size))
    above = [0] * size
    below = [0] * size
    for i in range(size):
        if suit[i] < 0:
            continue  # the suitless Joker: nothing above it, and it is in no suit
        for j in indices(ctx.suit_masks[suit[i]]):
            if ctx.power[j] > ctx.power[i]:
                above[i] |= 1 << j
            elif ctx.power[j] < ctx.power[i]:
                below[i] |= 1 << j
    return CardTable(suit, tuple(above), tuple(below))


@cache
def deck_mask(rules: Rules) -> int:
    return mask_of(rules.deck)


def by_power(ctx: Context, mask: int) -> list[int]:
    """The cards of a mask, weakest first."""
    power = ctx.power
    return sorted(indices(mask), key=lambda i: (power[i], i))


# -- what a seat knows ---------------------------------------------------------


@attrs.frozen
class Sight:
    """What one seat knows about where the cards are, as card-index bit masks."""

    seat: int
    #: Card order and effective suits under the contract (No Trumps order before one).
    ctx: Context
    #: The seat's own cards.
    hand: int
    #: Every card played this hand, the trick in progress included.
    played: int
    #: Cards this seat cannot place: the other hands, the kitty, others' discards.
    unseen: int
    #: The exposed open-misère hand (R6.3), or 0.
    exposed: int
    #: The seat whose hand is exposed, or ``None``.
    exposed_seat: int | None
    #: Per seat, the effective suits it is known to lack (bit ``suit``).
    voids: tuple[int, ...]
    #: Seats known not to hold the Joker (bit ``seat``): a void misère player
    #: holding the suitless Joker must play it (R7.3).
    no_joker: int
    #: The seat known to hold the unplayed Joker (the nominating contractor), if any.
    joker_holder: int | None
    #: Seats playing this hand (the misère contractor's partner sits out, R4.2).
    active: tuple[int, ...]
    #: Cards played by each seat this hand.
    played_by: tuple[int, ...]
    #: Per seat, its team as far as this seat knows: its side, with a known
    #: five-player partner counted on the contractor's side (P5).
    team: tuple[int, ...]
    #: Per seat, cards it cannot hold for a reason other than a void: the
    #: five-player contractor never holds the card it called (P5).
    excluded: tuple[int, ...]

    def against(self, seat: int) -> int:
        """Cards that ``seat`` may hold, as far as this seat can tell."""
        if seat == self.exposed_seat:
            return self.exposed  # the open misère hand, face up (R6.3)
        mask = self.unseen & ~self.excluded[seat]
        for suit in range(4):
            if self.voids[seat] >> suit & 1:
                mask &= ~self.ctx.suit_masks[suit]
        if self.no_joker >> seat & 1:
            mask &= ~JOKER_BIT
        if self.joker_holder is not None and self.joker_holder != seat:
            mask &= ~JOKER_BIT
        return mask


def read_sight(view: PlayerView) -> Sight:
    """What ``view.seat`` knows about the hidden cards, as bit masks (:func:`read_view`)."""
    rules = view.rules
    seat = view.seat
    players = rules.players
    contract = view.contract
    contractor = view.contractor
    if contract is not None and contract.is_bid:
        ctx = contract_context(contract, view.joker_suit)
    else:
        ctx = context(None)
    hand = mask_of(view.hand)
    played = 0
    played_by = [0] * players
    voids = [0] * players
    no_joker = 0
    forced_joker = contract is not None and contract.is_misere and ctx.free_joker
    suit_of = card_table(ctx).suit
    rounds = [(t.plays, t.led_suit) for t in view.tricks]
    if view.trick:
        rounds.append((view.trick, view.led_suit))
    for plays, led in rounds:
        for at, (who, card) in enumerate(plays):
            index = card.index
            played |= 1 << index
            played_by[who] |= 1 << index
            if at and led is not None and suit_of[index] != led:
                voids[who] |= 1 << led
                if forced_joker and index != JOKER_INDEX:
                    no_joker |= 1 << who
    exposed = mask_of(view.exposed_hand) if view.exposed_hand is not None else 0
    known = hand | played | exposed
    if view.discards is not None:
        known |= mask_of(view.discards)
    if view.kitty is not None:
        known |= mask_of(view.kitty)
    unseen = deck_mask(rules) & ~known
    holder = None
    if contractor is not None and view.joker_suit is not None and not played & JOKER_BIT:
        holder = contractor  # only a contractor holding the Joker can name its suit (R7.1)
    # Making no nomination is silent (R7.1): it tells nothing about who holds the Joker.
    active = tuple(s for s in range(players) if s not in view.sitting_out)
    team = [rules.side_of(s) for s in range(players)]
    excluded = [0] * players
    if contractor is not None:
        if view.partner is not None:
            team[view.partner] = team[contractor]
        if view.partner_card is not None:
            excluded[contractor] |= 1 << view.partner_card.index
    return Sight(
        seat=seat,
        ctx=ctx,
        hand=hand,
        played=played,
        unseen=unseen,
        exposed=exposed,
        exposed_seat=contractor if view.exposed_hand is not None else None,
        voids=tuple(voids),
        no_joker=no_joker,
        joker_holder=holder,
        active=active,
        played_by=tuple(played_by),
        team=tuple(team),
        excluded=tuple(excluded),
    )
