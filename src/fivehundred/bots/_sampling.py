"""Sampling the hidden cards: deals consistent with what one seat has seen (determinization)."""

from __future__ import annotations

import bisect
import itertools
import random
from typing import Final

import attrs

from fivehundred._engine.quoting import expect
from fivehundred._engine.sight import JOKER_BIT, Sight, read_sight
from fivehundred._engine.state import GameState
from fivehundred._engine.values import Phase
from fivehundred.bots._deals import Replay, ViewDeals, deal_count
from fivehundred.bots._hands import mask_danger, mask_tricks
from fivehundred.bots._heuristic import PARTNER_SHARE
from fivehundred.calls import Call, CallKind
from fivehundred.cards import Card, cards_from_mask, indices
from fivehundred.errors import FiveHundredError, FiveHundredTypeError
from fivehundred.rules import Rules
from fivehundred.views import PlayerView

#: Redraws of a sampled deal that does not fit the auction before accepting it.
_FIT_TRIES: Final = 12


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

    Not uniform: the auction biases the deal (a bidder is dealt a hand worth about its
    bid; see :mod:`fivehundred.bots`), as :class:`~fivehundred.bots.SearchPlayer`
    wants. For a draw uniform over the deals consistent with the view, which is what
    OpenSpiel's ``resample_from_infostate`` gives, use :func:`sample_deal`.

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


def _checked(view: PlayerView, rng: random.Random, name: str) -> ViewDeals:
    if not isinstance(view, PlayerView):
        raise FiveHundredTypeError(
            f"{name} needs a PlayerView (from fivehundred.observe), not {view!r}"
        )
    if not isinstance(rng, random.Random):
        raise FiveHundredTypeError(f"rng must be a random.Random, not {rng!r}")
    if view.phase in (Phase.DEAL, Phase.GAME_OVER):
        raise FiveHundredError(f"there is no hand in progress to sample ({view.phase.value})")
    return view_deals(view)


#: The draws of the views met lately, by the view's identity (a view is immutable);
#: each entry holds its view, so that the id cannot be reused meanwhile.
_VIEW_DEALS: dict[int, tuple[PlayerView, ViewDeals]] = {}
#: How many views :data:`_VIEW_DEALS` remembers before it starts again.
_VIEWS_KEPT: Final = 64


def view_deals(view: PlayerView) -> ViewDeals:
    """What every uniform draw for ``view`` shares (a view in a hand), worked out once."""
    known = _VIEW_DEALS.get(id(view))
    if known is not None and known[0] is view:
        return known[1]
    problem = sampling_problem(view)
    count = deal_count(problem.allowed, problem.capacity, problem.cards)
    found = ViewDeals(Replay(view, problem.know), count, problem.fixed, problem.holders)
    if len(_VIEW_DEALS) >= _VIEWS_KEPT:
        _VIEW_DEALS.clear()
    _VIEW_DEALS[id(view)] = (view, found)
    return found


def sample_deal(view: PlayerView, rng: random.Random) -> GameState:
    """A full game state drawn uniformly from those ``view.seat`` cannot tell from the real one.

    The public determinization: every deal of the hidden cards consistent with
    the view is equally likely. Consistent means: the seat's own hand, kitty
    (while discarding) and discards; every card played and the voids shown by
    not following (R5.3, effective suits, R5.2); the Joker with the contractor
    who nominated it (R7.1; making none reveals nothing) and not with a void
    misère player who played another card (R7.3); the five-player called card
    not with its caller (P5); the exposed open-misère hand (R6.3). Unlike
    ``fivehundred.bots.sample_state``, the auction does not bias the deal. The state has the
    view's scores, hand number and last hand, and the hand's public actions
    replayed, so ``observe(state, view.seat) == view``.

    The deals are counted once per view and kept: drawing again for the same view
    object only draws. To draw many deals at once, see :func:`sample_deals`.

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
    return _checked(view, rng, "sample_deal").draw(rng)


def sample_deals(view: PlayerView, count: int, rng: random.Random) -> tuple[GameState, ...]:
    """``count`` states drawn as :func:`sample_deal` draws one, independently, sharing the
    work: the view is read and its deals are counted once.

    The same as ``count`` calls of ``sample_deal(view, rng)`` with the same ``rng``.

    >>> import random
    >>> import fivehundred as fh
    >>> state = fh.deal(fh.new_game(dealer=1), seed=3)
    >>> view = fh.observe(state, 2)
    >>> deals = sample_deals(view, 20, random.Random(1))
    >>> len(deals), all(fh.observe(s, 2) == view for s in deals)
    (20, True)
    >>> again = random.Random(1)
    >>> deals == tuple(sample_deal(view, again) for _ in range(20))
    True

    Raises :class:`~fivehundred.FiveHundredTypeError` for a non-view, a non-``random.Random``
    or a ``count`` that is not an int, :class:`~fivehundred.FiveHundredError` for a negative
    ``count`` and when no hand is in progress (the deal, or the game is over).
    """
    if type(count) is not int:
        raise FiveHundredTypeError(f"count is how many deals to draw, an int, not {count!r}")
    if count < 0:
        raise FiveHundredError(f"count is how many deals to draw, 0 or more, not {count}")
    deals = _checked(view, rng, "sample_deals")
    return tuple(deals.draw(rng) for _ in range(count))


def _state_of(view: PlayerView, world: MaskWorld, rng: random.Random) -> GameState:
    """A new game dealt so that the hand in progress holds ``world``, the view's public
    actions replayed."""
    return Replay(view, read_sight(view)).state(world.hands, world.pile, rng)
