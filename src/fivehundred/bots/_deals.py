"""Uniform draws of the hidden cards of one seat's view: counted once, drawn many times.

Internal; compiled by mypyc. :func:`fivehundred.bots.sample_deal` and
:func:`fivehundred.bots.sample_deals` draw through :class:`ViewDeals`, which
holds what every draw for one view shares:

- :class:`DealCount`: the number of deals of the unseen cards that respect who
  may hold what, for every way the cards dealt so far can have filled the
  holders. Cards that the same holders may hold form a *group*; a deal hands
  out the groups in turn, and a group's split among its holders is drawn with
  weight (ways to split the group that way) x (ways to deal the groups after
  it). Each table of weights is worked out the first time a draw needs it and
  kept, so later draws for the same view only pick from them.
- :class:`Replay`: the hand's public actions, to replay on a drawn deal.

A draw calls only ``rng.randrange`` and shuffles (:func:`shuffle`, which draws as
``rng.shuffle`` does), in the same order in the pure and the compiled build, so
both give the same deals for the same seed.
"""

from __future__ import annotations

import math
import random
from typing import Final, final

from fivehundred._engine.deal import deal as deal_positions_of
from fivehundred._engine.deal import new_game as new_game_of
from fivehundred._engine.deal import redeal, with_scores
from fivehundred._engine.sight import Sight
from fivehundred._engine.state import GameState
from fivehundred._engine.table import table
from fivehundred._engine.values import Phase
from fivehundred.actions import Action, CallPartner, Discard, Nominate, Play
from fivehundred.calls import Call
from fivehundred.cards import CARDS, JOKER_INDEX, Card, indices, mask_of
from fivehundred.engine import apply, deal, new_game
from fivehundred.errors import FiveHundredError
from fivehundred.rules import Rules
from fivehundred.scoring import HandResult
from fivehundred.views import PlayerView

__all__ = ["DealCount", "Replay", "ViewDeals", "deal_count", "deal_positions", "shuffle"]

#: Bits a holder takes in a packed room (a holder never has room for 64 cards).
_BITS: Final = 6
_FIELD: Final = (1 << _BITS) - 1
#: A table's key: the packed room, then the group in the lowest bits.
_GROUP_BITS: Final = 7
#: How many counts (one per sampling problem) are kept before the cache starts again.
_COUNTS_KEPT: Final = 256

#: The phases of the kitty exchange, replayed on a drawn deal.
_EXCHANGE: Final = frozenset({Phase.DISCARD, Phase.PARTNER, Phase.NOMINATE})


@final
class _Table:
    """The splits of one group for one room: each split, the room after it, and the
    running total of their weights (the last is the number of deals from here)."""

    def __init__(self) -> None:
        #: Each split, packed: the cards of each of the group's holders, ``_BITS`` each.
        self.splits: list[int] = []
        self.rooms: list[int] = []
        self.totals: list[int] = []


@final
class DealCount:
    """The deals of ``cards`` among holders, holder ``h`` taking exactly ``capacity[h]``
    of them, each among ``allowed[h]`` (card-index masks).

    Constructing one checks nothing: :func:`deal_count` makes them.
    """

    def __init__(
        self, allowed: tuple[int, ...], capacity: tuple[int, ...], cards: tuple[int, ...]
    ) -> None:
        count = len(capacity)
        by_pattern: dict[int, list[int]] = {}
        for card in cards:
            pattern = 0
            for h in range(count):
                if allowed[h] >> card & 1:
                    pattern |= 1 << h
            if pattern not in by_pattern:
                by_pattern[pattern] = []
            by_pattern[pattern].append(card)
        keys = sorted(by_pattern, key=lambda p: (len(by_pattern[p]), p))
        #: The holders to fill.
        self.count = count
        #: Each group's cards, ascending, and the holders that may hold them.
        self.groups: list[list[int]] = [by_pattern[p] for p in keys]
        self.masks: list[int] = [_mask(by_pattern[p]) for p in keys]
        self.holders: list[list[int]] = [[h for h in range(count) if p >> h & 1] for p in keys]
        room = 0
        for h in range(count):
            room |= capacity[h] << (_BITS * h)
        #: The room of every holder before the first group, packed.
        self.start = room
        self.tables: dict[int, _Table] = {}

    def total(self) -> int:
        """The number of deals."""
        return self._ways(0, self.start)

    def _ways(self, g: int, room: int) -> int:
        if g == len(self.groups):
            return 1 if room == 0 else 0
        totals = self._table(g, room).totals
        return totals[len(totals) - 1] if totals else 0

    def _table(self, g: int, room: int) -> _Table:
        key = (room << _GROUP_BITS) | g
        found = self.tables.get(key)
        if found is None:
            found = _Table()
            self._split(found, g, 0, len(self.groups[g]), room=room, split=0, ways=1)
            self.tables[key] = found
        return found

    def _split(
        self, out: _Table, g: int, at: int, left: int, *, room: int, split: int, ways: int
    ) -> None:
        """Add to ``out`` every split of the group's last ``left`` cards among its holders
        from ``at`` on (``split`` and ``room`` so far, ``ways`` to choose the cards so far)."""
        holders = self.holders[g]
        last = len(holders) - 1
        h = holders[at]
        shift = _BITS * h
        free = (room >> shift) & _FIELD
        if at == last:
            if left <= free:
                after = room - (left << shift)
                weight = ways * self._ways(g + 1, after)
                if weight:
                    totals = out.totals
                    out.splits.append(split | (left << (_BITS * at)))
                    out.rooms.append(after)
                    totals.append((totals[len(totals) - 1] if totals else 0) + weight)
            return
        rest = 0
        for other in holders[at + 1 :]:
            rest += (room >> (_BITS * other)) & _FIELD
        for k in range(max(0, left - rest), min(left, free) + 1):
            self._split(
                out,
                g,
                at + 1,
                left - k,
                room=room - (k << shift),
                split=split | (k << (_BITS * at)),
                ways=ways * math.comb(left, k),
            )

    def draw(self, rng: random.Random) -> list[int]:
        """One deal, uniformly: each holder's cards as a card-index mask."""
        out = [0] * self.count
        room = self.start
        for g in range(len(self.groups)):
            table = self._table(g, room)
            totals = table.totals
            n = len(totals)
            if n == 0:  # pragma: no cover - the real deal always fits
                raise FiveHundredError("no deal of the unseen cards fits what this seat has seen")
            at = 0
            if n > 1:
                pick = rng.randrange(totals[n - 1])
                low = 0
                high = n - 1
                while low < high:  # the first running total above the pick
                    mid = (low + high) // 2
                    if totals[mid] > pick:
                        high = mid
                    else:
                        low = mid + 1
                at = low
            split = table.splits[at]
            room = table.rooms[at]
            holders = self.holders[g]
            size = len(self.groups[g])
            whole = -1
            for i in range(len(holders)):
                if (split >> (_BITS * i)) & _FIELD == size:
                    whole = holders[i]
            if whole >= 0:  # the whole group to one holder: no shuffle needed
                out[whole] |= self.masks[g]
                continue
            cards = list(self.groups[g])
            shuffle(cards, rng)
            start = 0
            for i in range(len(holders)):
                k = (split >> (_BITS * i)) & _FIELD
                out[holders[i]] |= _mask(cards[start : start + k])
                start += k
        return out


def shuffle(items: list[int], rng: random.Random) -> None:
    """``rng.shuffle(items)``: for a plain ``random.Random`` done here, draw for draw as the
    standard library does it (``_randbelow`` by ``getrandbits``), so a seed gives the same
    order in both builds, only faster when compiled; other sources shuffle themselves."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    draw = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = draw(k)
        while j >= n:
            j = draw(k)
        items[i], items[j] = items[j], items[i]


def _bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _positions(mask: int, pos_of: tuple[int, ...]) -> int:
    """A card-index mask as a mask of deck positions."""
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << pos_of[low.bit_length() - 1]
        mask ^= low
    return out


def _mask(cards: list[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


_COUNTS: dict[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], DealCount] = {}


def deal_count(
    allowed: tuple[int, ...], capacity: tuple[int, ...], cards: tuple[int, ...]
) -> DealCount:
    """The :class:`DealCount` of a sampling problem, kept for the next view that has it."""
    key = (allowed, capacity, cards)
    found = _COUNTS.get(key)
    if found is None:
        if len(_COUNTS) >= _COUNTS_KEPT:
            _COUNTS.clear()
        found = _COUNTS[key] = DealCount(allowed, capacity, cards)
    return found


_POSITIONS: dict[tuple[Rules, int], tuple[int, ...]] = {}


def deal_positions(rules: Rules, dealer: int) -> tuple[int, ...]:
    """For each position of a deck order, where it is dealt: a seat, the kitty
    (``players``) or the dead hand (``players + 1``, P2)."""
    key = (rules, dealer)
    found = _POSITIONS.get(key)
    if found is not None:
        return found
    deck = rules.deck
    state = deal(new_game(rules, dealer=dealer), cards=deck)
    owner: dict[Card, int] = {}
    for card in state.kitty:
        owner[card] = rules.players
    for card in state.dead_hand:
        owner[card] = rules.players + 1
    for seat in range(rules.players):
        for card in state.hand(seat):
            owner[card] = seat
    found = tuple([owner[card] for card in deck])
    if len(_POSITIONS) >= _COUNTS_KEPT:
        _POSITIONS.clear()
    _POSITIONS[key] = found
    return found


@final
class Replay:
    """A view's hand as a recipe: a drawn deal in, a full state of the hand out, with the
    hand's public actions replayed on it."""

    def __init__(self, view: PlayerView, know: Sight) -> None:
        rules = view.rules
        assert view.dealer is not None
        self.rules = rules
        self.dealer = view.dealer
        self.players = rules.players
        self.seat = view.seat
        self.phase = view.phase
        self.kitty_size = rules.kitty_size
        self.played_by = know.played_by
        #: The seat's own cards as dealt, when it holds the kitty now (-1 otherwise).
        self.own = know.hand if view.contractor == view.seat and view.kitty is not None else -1
        #: The kitty as this seat knows it (its own discards stand in), or -1.
        self.kitty = -1
        if view.kitty is not None:
            self.kitty = mask_of(view.kitty)
        elif view.discards is not None:
            self.kitty = mask_of(view.discards)
        self.positions = deal_positions(rules, view.dealer)
        #: The deck position of each card, by card index.
        self.pos_of = table(rules).pos_of
        #: The new game every replay deals from (a state is immutable: one will do).
        self.start = new_game_of(rules, view.dealer)
        self.calls: list[Call] = [call for _, call in view.auction]
        self.calls.reverse()
        free = know.ctx.free_joker
        plays: list[Play] = []
        rounds = [(t.plays, t.led_suit) for t in view.tricks]
        rounds.append((view.trick, view.led_suit))
        for trick_plays, led in rounds:
            for at, (_, card) in enumerate(trick_plays):
                named = led if at == 0 and card.index == JOKER_INDEX and free else None
                plays.append(Play(card, named))
        plays.reverse()
        self.plays = plays
        self.partner_card = view.partner_card
        self.partner = view.partner
        self.joker_suit = view.joker_suit
        #: Whether another seat's kitty exchange is behind: its discard is part of the draw.
        self.exchanged = view.contractor not in (None, view.seat) and view.phase not in (
            Phase.BIDDING,
            Phase.DISCARD,
        )
        #: The first state drawn for the view: later draws re-deal it (see :meth:`drawn`).
        self.template: GameState | None = None
        self.scores = view.scores
        self.hand_number = view.hand_number
        self.last_hand: HandResult | None = view.last_hand

    def _order(
        self, hands: tuple[int, ...], pile: int, rng: random.Random
    ) -> tuple[list[int], int, int]:
        """The deck order (positions) that deals ``hands`` and ``pile``; the kitty and the
        dead hand (card-index masks)."""
        order = _bits(pile)
        shuffle(order, rng)
        kitty = self.kitty
        if kitty < 0:
            kitty = 0
            for index in order[: self.kitty_size]:
                kitty |= 1 << index
        dead = pile & ~kitty
        piles: list[list[int]] = []
        for s in range(self.players):
            piles.append(_bits(hands[s] | self.played_by[s]))
        if self.own >= 0:
            piles[self.seat] = _bits(self.own)
        piles.append(_bits(kitty))
        piles.append(_bits(dead))
        pos_of = self.pos_of
        return [pos_of[piles[owner].pop()] for owner in self.positions], kitty, dead

    def drawn(self, hands: tuple[int, ...], pile: int, rng: random.Random) -> GameState:
        """``scored(state(hands, pile, rng))``, drawing from ``rng`` as it does; only the
        first call replays the hand: later ones re-deal that first state."""
        template = self.template
        if template is None:
            template = self.template = self.scored(self.state(hands, pile, rng))
            return template
        order, kitty, dead = self._order(hands, pile, rng)
        pos_of = self.pos_of
        now = tuple([_positions(hands[s], pos_of) for s in range(self.players)])
        partner = -2
        if self.partner_card is not None:
            partner = -1
            bit = 1 << self.partner_card.index
            for s in range(self.players):
                if (hands[s] | self.played_by[s]) & bit:
                    partner = s
        discard = None
        if self.exchanged:
            discard = Discard(CARDS[i] for i in _bits(kitty))
        return redeal(
            template,
            order,
            now,
            kitty=_positions(kitty, pos_of),
            dead=_positions(dead, pos_of),
            discard=discard,
            partner=partner,
        )

    def state(self, hands: tuple[int, ...], pile: int, rng: random.Random) -> GameState:
        """A new game dealt so that the hand in progress holds ``hands`` (card-index masks
        per seat) and ``pile``, the public actions replayed (a new game's scores)."""
        order, kitty, _ = self._order(hands, pile, rng)
        # the core's own deal of positions: a drawn deal holds every card once by construction
        state = deal_positions_of(self.start, order, self.dealer)
        calls = list(self.calls)
        plays = list(self.plays)
        while True:
            phase = state.phase
            action: Action
            if phase is Phase.BIDDING and calls:
                action = calls.pop()
            elif phase is Phase.PLAY and plays:
                action = plays.pop()
            elif phase is self.phase or phase not in _EXCHANGE:
                return state
            elif phase is Phase.DISCARD:
                action = Discard(CARDS[i] for i in indices(kitty))
            elif phase is Phase.PARTNER:
                if self.partner_card is not None:
                    action = CallPartner(self.partner_card)
                else:
                    action = CallPartner(seat=self.partner)
            else:
                action = Nominate(self.joker_suit)
            state = apply(state, action)

    def scored(self, state: GameState) -> GameState:
        """``state`` with the view's scores, hand number and last hand."""
        return with_scores(state, self.scores, self.hand_number, self.last_hand)


@final
class ViewDeals:
    """Everything the uniform draws for one view share: the count and the replay."""

    def __init__(
        self,
        replay: Replay,
        count: DealCount,
        fixed: tuple[int, ...],
        holders: tuple[int, ...],
    ) -> None:
        self.replay = replay
        self.count = count
        self.fixed = fixed
        self.holders = holders

    def draw(self, rng: random.Random) -> GameState:
        """One full state drawn uniformly among those the view's seat cannot tell apart."""
        masks = self.count.draw(rng)
        players = self.replay.players
        hands = list(self.fixed)
        holders = self.holders
        for i in range(len(holders)):
            if holders[i] < players:
                hands[holders[i]] = masks[i]
        replay = self.replay
        return replay.drawn(tuple(hands), masks[len(masks) - 1], rng)
