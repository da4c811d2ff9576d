"""Sampling the hidden cards: deals consistent with what one seat has seen (determinization)."""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Iterator
from functools import cache
from typing import Final

import attrs

from fivehundred._engine.deal import with_scores
from fivehundred._quoting import expect
from fivehundred._sight import JOKER_BIT, Sight, read_sight
from fivehundred.actions import Action, CallPartner, Discard, Nominate, Play
from fivehundred.bots._heuristic import PARTNER_SHARE, mask_danger, mask_tricks
from fivehundred.calls import Call, CallKind
from fivehundred.cards import CARDS, JOKER_INDEX, Card, cards_from_mask, indices, mask_of
from fivehundred.engine import apply, deal, new_game
from fivehundred.errors import FiveHundredError, FiveHundredTypeError
from fivehundred.rules import Rules
from fivehundred.state import GameState, Phase
from fivehundred.views import PlayerView

#: Redraws of a sampled deal that does not fit the auction before accepting it.
_FIT_TRIES: Final = 12

#: The phases of the kitty exchange, replayed on a sampled deal.
_EXCHANGE: Final = frozenset({Phase.DISCARD, Phase.PARTNER, Phase.NOMINATE})


# -- sampling the hidden cards -------------------------------------------------


@attrs.frozen
class World:
    """One sampled deal: every seat's cards now, and the cards out of play.

    ``pile`` holds the unseen cards that are in nobody's hand: the kitty before
    the auction is won, or another seat's discards.

    Constructing one checks nothing and raises nothing: :func:`sample_hands` makes it.
    """

    hands: tuple[tuple[Card, ...], ...]
    pile: tuple[Card, ...]


@attrs.frozen
class MaskWorld:
    """A :class:`World` as card-index bit masks: what the search player plays out."""

    hands: tuple[int, ...]
    pile: int


@attrs.frozen
class SamplingProblem:
    """Who may hold which unseen card, and how many each must hold."""

    know: Sight
    fixed: tuple[int, ...]
    #: Holders to fill: seats, then the pile (index ``players``).
    holders: tuple[int, ...]
    allowed: tuple[int, ...]
    capacity: tuple[int, ...]
    cards: tuple[int, ...]
    #: Bids to fit: (seat, call) of each other seat's highest bid.
    bids: tuple[tuple[int, Call], ...]


def sampling_problem(view: PlayerView) -> SamplingProblem:
    know = read_sight(view)
    rules = view.rules
    players = rules.players
    fixed = [0] * players
    fixed[view.seat] = know.hand
    holders = []
    allowed = []
    capacity = []
    contractor = view.contractor
    for seat in range(players):
        if seat == view.seat:
            continue
        if know.exposed and seat == contractor:
            fixed[seat] = know.exposed
            continue
        holders.append(seat)
        allowed.append(know.against(seat))
        capacity.append(view.hand_sizes[seat])
    pile = know.unseen.bit_count() - sum(capacity)
    if pile < 0:  # pragma: no cover - a view always accounts for every card
        raise FiveHundredError("the view holds more hidden cards in hands than are unseen")
    holders.append(players)
    allowed.append(know.unseen & ~(JOKER_BIT if know.joker_holder is not None else 0))
    capacity.append(pile)
    best: dict[int, Call] = {}
    for seat, call in view.auction:
        if seat != view.seat and call.is_bid:
            best[seat] = call
    return SamplingProblem(
        know=know,
        fixed=tuple(fixed),
        holders=tuple(holders),
        allowed=tuple(allowed),
        capacity=tuple(capacity),
        cards=tuple(indices(know.unseen)),
        bids=tuple(sorted(best.items())),
    )


def _assign(problem: SamplingProblem, rng: random.Random) -> list[int]:
    """Deal the unseen cards to the holders, respecting who may hold what.

    Cards go one by one, in random order, to an allowed holder chosen with
    weight equal to its free room (which, without constraints, is a uniformly
    random deal); when every allowed holder is full, an augmenting path moves
    cards along, so a deal is always found when one exists.
    """
    allowed = problem.allowed
    capacity = problem.capacity
    count = len(capacity)
    slots: list[list[int]] = [[] for _ in range(count)]
    cards = list(problem.cards)
    rng.shuffle(cards)

    def place(card: int, seen: set[int]) -> bool:
        options = [h for h in range(count) if allowed[h] >> card & 1]
        room = [capacity[h] - len(slots[h]) for h in options]
        total = sum(room)
        if total > 0:
            pick = rng.randrange(total)
            slots[options[bisect.bisect_right(list(itertools.accumulate(room)), pick)]].append(card)
            return True
        rng.shuffle(options)
        for h in options:
            if h in seen:
                continue
            seen.add(h)
            for k, other in enumerate(slots[h]):
                if place(other, seen):
                    slots[h][k] = card
                    return True
        return False

    for card in cards:
        if not place(card, set()):  # pragma: no cover - the real deal always fits
            raise FiveHundredError("no deal of the unseen cards fits what this seat has seen")
    masks = []
    for held in slots:
        mask = 0
        for card in held:
            mask |= 1 << card
        masks.append(mask)
    return masks


def _fits(call: Call, dealt: int, rules: Rules, slack: float) -> bool:
    """Whether a seat dealt ``dealt`` plausibly made the bid ``call``."""
    if call.kind is CallKind.BID:
        assert call.strain is not None and call.tricks is not None
        estimate = mask_tricks(dealt, call.strain, rules)
        return estimate + PARTNER_SHARE + slack >= call.tricks
    if call.kind in (CallKind.MISERE, CallKind.OPEN_MISERE):
        danger = mask_danger(dealt, rules)
        return sum(danger[2:]) <= slack * 2
    return True


def sample_hands(view: PlayerView, rng: random.Random) -> World:
    """Sample where the cards ``view.seat`` cannot see are, consistently with its view.

    >>> import random
    >>> import fivehundred as fh
    >>> state = fh.deal(fh.new_game(dealer=3), seed=2)
    >>> world = sample_hands(fh.observe(state, 0), random.Random(5))
    >>> [len(h) for h in world.hands], len(world.pile)
    ([10, 10, 10, 10], 3)
    >>> world.hands[0] == state.hand(0)
    True

    Raises :class:`~fivehundred.FiveHundredError` when no hand is in progress (waiting for
    the deal, or the game is over).
    """
    expect(view, PlayerView, "a PlayerView (from observe)")
    expect(rng, random.Random, "a random.Random")
    world = sample_masks(view, rng)
    return World(tuple(cards_from_mask(h) for h in world.hands), cards_from_mask(world.pile))


def sample_masks(view: PlayerView, rng: random.Random) -> MaskWorld:
    """:func:`sample_hands` as bit masks."""
    if view.phase in (Phase.DEAL, Phase.GAME_OVER):
        raise FiveHundredError(f"there is no hand in progress to sample ({view.phase.value})")
    return sample_world(sampling_problem(view), view.rules, rng)


def sample_world(problem: SamplingProblem, rules: Rules, rng: random.Random) -> MaskWorld:
    players = rules.players
    for attempt in range(_FIT_TRIES):
        masks = _assign(problem, rng)
        hands = list(problem.fixed)
        for holder, mask in zip(problem.holders, masks, strict=True):
            if holder < players:
                hands[holder] = mask
        world = MaskWorld(tuple(hands), masks[-1])
        slack = 0.5 + 0.5 * (attempt // 3)
        if all(
            _fits(call, hands[seat] | problem.know.played_by[seat], rules, slack)
            for seat, call in problem.bids
        ):
            return world
    return world


@cache
def _deal_positions(rules: Rules, dealer: int) -> tuple[int, ...]:
    """For each position of a deck order, where it is dealt: a seat, the kitty
    (``players``) or the dead hand (``players + 1``, P2)."""
    deck = rules.deck
    state = deal(new_game(rules, dealer=dealer), cards=deck)
    owner = {card: rules.players for card in state.kitty}
    owner |= {card: rules.players + 1 for card in state.dead_hand}
    for seat in range(rules.players):
        for card in state.hand(seat):
            owner[card] = seat
    return tuple(owner[card] for card in deck)


def sample_state(view: PlayerView, rng: random.Random) -> GameState:
    """A full game state of this hand that ``view.seat`` cannot tell from the real one.

    The hidden cards are sampled (:func:`sample_hands`), dealt by R2.2 from
    the view's dealer, and the hand's public actions are replayed: the
    auction, the kitty discard (sampled, or the seat's own), the partner call
    (P5), the Joker nomination and the cards played. The state is a new game,
    so its scores and hand number start afresh; everything about the hand in
    progress matches what the seat sees.

    >>> import random
    >>> import fivehundred as fh
    >>> state = fh.deal(fh.new_game(dealer=1), seed=3)
    >>> view = fh.observe(state, 2)
    >>> fake = sample_state(view, random.Random(1))
    >>> fh.observe(fake, 2).hand == view.hand and fake.hand(0) != state.hand(0)
    True

    Raises :class:`~fivehundred.FiveHundredError` when no hand is in progress (waiting for the
    deal, or the game is over).
    """
    expect(view, PlayerView, "a PlayerView (from observe)")
    expect(rng, random.Random, "a random.Random")
    return _state_of(view, sample_masks(view, rng), rng)


def sample_deal(view: PlayerView, rng: random.Random) -> GameState:
    """A full game state drawn uniformly from those ``view.seat`` cannot tell from the real one.

    The public determinization: every deal of the hidden cards consistent with
    the view is equally likely. Consistent means: the seat's own hand, kitty
    (while discarding) and discards; every card played and the voids shown by
    not following (R5.3, effective suits, R5.2); the Joker with the contractor
    who nominated it (R7.1; making none reveals nothing) and not with a void
    misère player who played another card (R7.3); the five-player called card
    not with its caller (P5); the exposed open-misère hand (R6.3). Unlike
    ``fivehundred.search.sample_state``, the auction does not bias the deal. The state has the
    view's scores, hand number and last hand, and the hand's public actions
    replayed, so ``observe(state, view.seat) == view``.

    >>> import random
    >>> import fivehundred as fh
    >>> state = fh.deal(fh.new_game(dealer=1), seed=3)
    >>> view = fh.observe(state, 2)
    >>> fh.observe(sample_deal(view, random.Random(1)), 2) == view
    True

    Raises :class:`~fivehundred.FiveHundredTypeError` for a non-view or a non-``random.Random``,
    and :class:`~fivehundred.FiveHundredError` when no hand is in progress (the deal, or the
    game is over).
    """
    if not isinstance(view, PlayerView):
        raise FiveHundredTypeError(
            f"sample_deal needs a PlayerView (from fivehundred.observe), not {view!r}"
        )
    if not isinstance(rng, random.Random):
        raise FiveHundredTypeError(f"rng must be a random.Random, not {rng!r}")
    if view.phase in (Phase.DEAL, Phase.GAME_OVER):
        raise FiveHundredError(f"there is no hand in progress to sample ({view.phase.value})")
    problem = sampling_problem(view)
    masks = _uniform_assign(problem, rng)
    hands = list(problem.fixed)
    for holder, mask in zip(problem.holders, masks, strict=True):
        if holder < view.rules.players:
            hands[holder] = mask
    state = _state_of(view, MaskWorld(tuple(hands), masks[-1]), rng)
    return _with_scores(state, view)


def _with_scores(state: GameState, view: PlayerView) -> GameState:
    """``state`` with the view's scores, hand number and last hand."""
    return with_scores(state, view.scores, view.hand_number, view.last_hand)


def _uniform_assign(problem: SamplingProblem, rng: random.Random) -> list[int]:
    """Deal the unseen cards to the holders uniformly among the deals that respect who may
    hold what: cards with the same allowed holders form a group, and each group's split
    among its holders is drawn with weight (ways to split it) x (ways to deal the rest)."""
    count = len(problem.capacity)
    groups: dict[int, list[int]] = {}
    for card in problem.cards:
        pattern = 0
        for h in range(count):
            if problem.allowed[h] >> card & 1:
                pattern |= 1 << h
        groups.setdefault(pattern, []).append(card)
    order = sorted(groups.items(), key=lambda item: (len(item[1]), item[0]))
    sizes = [len(cards) for _, cards in order]
    holders = [[h for h in range(count) if pattern >> h & 1] for pattern, _ in order]
    memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def splits(g: int, room: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        options = holders[g]

        def go(at: int, left: int, taken: list[int]) -> Iterator[tuple[int, ...]]:
            if at == len(options) - 1:
                if left <= room[options[at]]:
                    yield (*taken, left)
                return
            for k in range(min(left, room[options[at]]) + 1):
                yield from go(at + 1, left - k, [*taken, k])

        if options:
            yield from go(0, sizes[g], [])

    def ways(g: int, room: tuple[int, ...]) -> int:
        if g == len(order):
            return 1 if not any(room) else 0
        key = (g, room)
        found = memo.get(key)
        if found is None:
            found = 0
            for split in splits(g, room):
                found += _multinomial(sizes[g], split) * ways(g + 1, _less(room, holders[g], split))
            memo[key] = found
        return found

    room = tuple(problem.capacity)
    slots: list[list[int]] = [[] for _ in range(count)]
    for g, (_, cards) in enumerate(order):
        options = [
            (split, _multinomial(sizes[g], split) * ways(g + 1, _less(room, holders[g], split)))
            for split in splits(g, room)
        ]
        pick = rng.randrange(sum(weight for _, weight in options))
        chosen = options[-1][0]
        for split, weight in options:
            if pick < weight:
                chosen = split
                break
            pick -= weight
        shuffled = list(cards)
        rng.shuffle(shuffled)
        at = 0
        for h, k in zip(holders[g], chosen, strict=True):
            slots[h] += shuffled[at : at + k]
            at += k
        room = _less(room, holders[g], chosen)
    return [sum(1 << card for card in held) for held in slots]


def _less(room: tuple[int, ...], holders: list[int], split: tuple[int, ...]) -> tuple[int, ...]:
    out = list(room)
    for h, k in zip(holders, split, strict=True):
        out[h] -= k
    return tuple(out)


def _multinomial(n: int, split: tuple[int, ...]) -> int:
    out = 1
    for k in split:
        out *= math.comb(n, k)
        n -= k
    return out


def _state_of(view: PlayerView, world: MaskWorld, rng: random.Random) -> GameState:
    """A new game dealt so that the hand in progress holds ``world``, the view's public
    actions replayed."""
    rules = view.rules
    assert view.dealer is not None
    players = rules.players
    know = read_sight(view)
    contractor = view.contractor
    size = rules.kitty_size
    pile = sorted(indices(world.pile))
    rng.shuffle(pile)
    if view.kitty is not None:
        kitty = mask_of(view.kitty)
    elif view.discards is not None:
        kitty = mask_of(view.discards)  # the seat's own discards stand in for its kitty
    else:
        kitty = 0
        for index in pile[:size]:
            kitty |= 1 << index
    dead = world.pile & ~kitty
    dealt = [world.hands[s] | know.played_by[s] for s in range(players)]
    if contractor == view.seat and view.kitty is not None:
        dealt[view.seat] = know.hand
    piles: list[list[int]] = [sorted(indices(m)) for m in (*dealt, kitty, dead)]
    order = [CARDS[piles[owner].pop()] for owner in _deal_positions(rules, view.dealer)]
    state = deal(new_game(rules, dealer=view.dealer), cards=order)
    calls = [call for _, call in view.auction]
    plays = []
    for trick_plays, led in [(t.plays, t.led_suit) for t in view.tricks] + [
        (view.trick, view.led_suit)
    ]:
        for at, (_, card) in enumerate(trick_plays):
            named = led if at == 0 and card.index == JOKER_INDEX and know.ctx.free_joker else None
            plays.append(Play(card, named))
    plays.reverse()
    calls.reverse()
    while True:
        phase = state.phase
        action: Action
        if phase is Phase.BIDDING and calls:
            action = calls.pop()
        elif phase is Phase.PLAY and plays:
            action = plays.pop()
        elif phase is view.phase or phase not in _EXCHANGE:
            return state
        elif phase is Phase.DISCARD:
            action = Discard(CARDS[i] for i in indices(kitty))
        elif phase is Phase.PARTNER:
            if view.partner_card is not None:
                action = CallPartner(view.partner_card)
            else:
                action = CallPartner(seat=view.partner)
        else:
            action = Nominate(view.joker_suit)
        state = apply(state, action)
