"""The heuristic player: it bids from a hand evaluation and plays by rules of thumb."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from typing import Final

import attrs

from fivehundred._engine.quoting import expect, quote
from fivehundred._engine.sight import (
    JOKER_BIT,
    CardTable,
    Sight,
    by_power,
    card_table,
    read_sight,
)
from fivehundred._engine.values import Phase
from fivehundred.actions import DECLINE, Action, CallPartner, Discard, Nominate, Play
from fivehundred.bots._game import game_call
from fivehundred.bots._hands import (
    mask_discard_value,
    mask_tricks,
    misere_fit,
)
from fivehundred.bots._players import require_turn
from fivehundred.calls import PASS, Call, CallKind, Strain
from fivehundred.cards import CARDS, JOKER_INDEX, Suit, indices, mask_of
from fivehundred.errors import FiveHundredError, FiveHundredTypeError
from fivehundred.tricks import Context, context, contract_context
from fivehundred.views import PlayerView

#: Tricks a bidder counts on from the partner's hand and the kitty together.
PARTNER_SHARE: Final = 3.75
#: The same share when the bidder has no partner (two or three players).
KITTY_SHARE: Final = 1.0
#: Tricks added for a partner's bid in a strain (their hand backs it).
PARTNER_BID: Final = 1.0
#: Tricks added per trump beyond two that this seat holds in its partner's suit (a fit).
FIT_BONUS: Final = 0.6
#: Tricks the kitty adds to a side whose partner has shown its share by a bid.
RAISE_KITTY: Final = 0.75
#: Tricks of margin a raise of the partner's suit keeps in hand: it bids the highest
#: level its estimate covers by this much.
RAISE_MARGIN: Final = 0.5


# -- the heuristic player ------------------------------------------------------


@attrs.define
class HeuristicPlayer:
    """A rule-of-thumb player: sound bidding, discarding and card play.

    - **Bidding:** estimates its tricks in every strain (:func:`trick_estimate`)
      plus the partner's and the kitty's share, nudged by the partner's and the
      opponents' bids; bids the cheapest legal bid it can afford, overcalls its
      partner only with a much better hand, and bids misère or open misère with
      a hand of low cards (:func:`misere_danger`).
    - **Kitty:** keeps the 10 cards that evaluate best for the contract (all 286
      choices are tried); in misère it sheds the Joker and the high cards.
    - **Joker:** stays suitless in No Trumps (a sure trick); a misère
      contractor who kept it nominates its longest suit.
    - **Play:** draws trumps as the contractor, cashes sure winners, leads low
      towards its partner, follows cheaply, wins cheaply, does not overtake its
      partner, ducks as a misère contractor and squeezes one as a defender.

    It decides from its view alone; ties go to the lowest card, so it is
    deterministic. ``rng`` is used only for actions it has no rule for.

    Its ``choose`` raises :class:`~fivehundred.FiveHundredError` when it is not the view's
    seat's turn (the view has no legal actions).
    """

    rng: random.Random = attrs.field(factory=random.Random)
    #: Tricks added to every bidding estimate: above 0 bids more, below 0 less.
    boldness: float = attrs.field(default=0.0, kw_only=True)

    def choose(self, view: PlayerView) -> Action:
        """Pick an action for the seat this view belongs to."""
        legal = require_turn(view)
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        if isinstance(first, Call):
            return choose_bid(view, [a for a in legal if isinstance(a, Call)], self.boldness)
        if isinstance(first, Discard):
            return best_discard(view)
        if isinstance(first, Nominate):
            return nominate(view, [a for a in legal if isinstance(a, Nominate)])
        if isinstance(first, Play):
            return choose_play(view, [a for a in legal if isinstance(a, Play)])
        if isinstance(first, CallPartner):
            return call_partner(view, [a for a in legal if isinstance(a, CallPartner)])
        return self.rng.choice(legal)  # pragma: no cover - an action kind it does not know


def bid_limits(view: PlayerView, boldness: float = 0.0) -> dict[Strain, float]:
    """The tricks this seat's side should take in each strain, from its view.

    It reads any view and raises nothing for one; anything else is a
    :class:`~fivehundred.FiveHundredTypeError`.
    """
    expect(view, PlayerView, "a PlayerView (from observe)")
    expect(boldness, (int, float), "a boldness (an int or float)")
    rules = view.rules
    hand = mask_of(view.hand)
    partners = rules.partners(view.seat)
    share = (PARTNER_SHARE if partners else KITTY_SHARE) + boldness
    limits = {}
    for strain in Strain:
        limits[strain] = mask_tricks(hand, strain, rules) + share
    backed = partner_strain(view)
    for seat, call in view.auction:
        if call.kind is not CallKind.BID or call.strain is None or seat == view.seat:
            continue
        if seat in partners:
            if call.strain is not backed:
                limits[call.strain] += PARTNER_BID
        elif (hand & context(call.strain.suit).trump_mask).bit_count() < 4:
            limits[call.strain] -= 0.75  # their trumps, and this seat is short of them
    if backed is not None and any(s == view.seat and c.strain is backed for s, c in view.auction):
        backed = None  # the partner raised this seat's own suit: its bid counts this hand
    if backed is not None:
        # the partner's latest bid shows its own share (the bid less PARTNER_SHARE) and
        # the kitty adds some: counted instead of the flat share when that is more
        bid = max(c.tricks or 0 for s, c in view.auction if s in partners and c.strain is backed)
        own = mask_tricks(hand, backed, rules) + boldness
        limits[backed] = own + max(share - boldness + 0.5, bid - PARTNER_SHARE + RAISE_KITTY)
        if backed.suit is not None:
            trumps = (hand & context(backed.suit).trump_mask).bit_count()
            limits[backed] += FIT_BONUS * max(0, trumps - 2)
    return limits


def partner_strain(view: PlayerView) -> Strain | None:
    """The strain of the latest suit or No Trumps bid of this seat's partner, if any."""
    partners = view.rules.partners(view.seat)
    for seat, call in reversed(view.auction):
        if seat in partners and call.kind is CallKind.BID and call.strain is not None:
            return call.strain
    return None


def make_chance(margin: float) -> float:
    """The heuristic's chance of making a bid ``margin`` tricks below its estimate."""
    return 1.0 / (1.0 + math.exp(-2.0 * (margin - 0.5)))


def choose_bid(view: PlayerView, legal: Sequence[Call], boldness: float = 0.0) -> Call:
    """The heuristic call: the game situation's call (``fivehundred.bots._game``), else
    the cheapest affordable bid in the best strain, a full-value raise of the partner's
    suit, misère, or pass.

    It raises nothing for a view: with no affordable bid among ``legal`` (or none given) it
    passes. Anything but a view, or a list or tuple of calls, is a
    :class:`~fivehundred.FiveHundredTypeError`.
    """
    expect(view, PlayerView, "a PlayerView (from observe)")
    expect(legal, (list, tuple), "the legal calls, a list or tuple of Calls")
    rules = view.rules
    plain = [c for c in legal if c.is_bid and not c.sans_kitty]
    limits = bid_limits(view, boldness)
    hand = mask_of(view.hand)
    misere_ok, open_ok = misere_fit(hand, rules)
    chances: dict[Call, float] = {}
    for call in plain:
        if call.kind is CallKind.BID and call.strain is not None and call.tricks is not None:
            chances[call] = make_chance(limits[call.strain] - call.tricks)
        elif call.kind is CallKind.MISERE:
            chances[call] = 0.7 if misere_ok else 0.05
        elif call.kind is CallKind.OPEN_MISERE:
            chances[call] = 0.7 if open_ok else 0.02
    if view.my_turn and view.phase is Phase.BIDDING:
        forced = game_call(view, chances)
        if forced is not None and (forced in legal or forced is PASS):
            return forced
    return _plain_bid(view, plain, limits, misere_ok, open_ok)


def _plain_bid(
    view: PlayerView,
    plain: Sequence[Call],
    limits: dict[Strain, float],
    misere_ok: bool,
    open_ok: bool,
) -> Call:
    """The heuristic call when the score does not decide it."""
    partners = set(view.rules.partners(view.seat))
    standing = next((seat for seat, call in reversed(view.auction) if call.is_bid), None)
    partner_holds = standing in partners
    for call in plain:
        if call.kind is CallKind.OPEN_MISERE and open_ok and not partner_holds:
            return call
    raised = partner_strain(view) if partner_holds else None
    if any(s == view.seat and c.strain is raised for s, c in view.auction):
        raised = None  # the partner raised this seat's own suit: no raise back
    if raised is not None:
        # a raise of the partner's suit bids the side's full value: the contract scores
        # what is bid, and the partner has shown its share already
        levels = [
            c
            for c in plain
            if c.kind is CallKind.BID
            and c.strain is raised
            and c.tricks is not None
            and limits[raised] - c.tricks >= RAISE_MARGIN
        ]
        if levels:
            return max(levels, key=lambda c: c.tricks or 0)
    best: Call | None = None
    best_margin = 0.0
    for call in plain:
        if call.kind is not CallKind.BID or call.strain is None or call.tricks is None:
            continue
        margin = limits[call.strain] - call.tricks
        if partner_holds:
            margin -= 1.5  # overcall a partner only with a much better hand
        if margin >= 0 and (best is None or margin > best_margin):
            best, best_margin = call, margin
    if best is None:
        for call in plain:
            if call.kind is CallKind.MISERE and misere_ok and not partner_holds:
                return call
        return PASS
    return best


def _expect(view: PlayerView, phase: Phase, what: str) -> None:
    """Refuse a view the helper ``what`` cannot decide for: not the seat to act in ``phase``."""
    if not isinstance(view, PlayerView):
        raise FiveHundredTypeError(f"{what} needs a PlayerView, not {quote(view)}")
    require_turn(view)
    if view.phase is not phase:
        raise FiveHundredError(f"{what} decides in the {phase.value} phase, not {view.phase.value}")


def best_discard(view: PlayerView) -> Discard:
    """The kitty discard that leaves the best ten cards for the contract (R4.1).

    Raises :class:`~fivehundred.FiveHundredError` when it is not this seat's turn in the discard
    phase, and :class:`~fivehundred.FiveHundredTypeError` for a non-view.
    """
    _expect(view, Phase.DISCARD, "best_discard")
    return ranked_discards(view, 1)[0]


def ranked_discards(view: PlayerView, count: int) -> list[Discard]:
    """The ``count`` kitty discards that leave the best cards for the contract, best first
    (by :func:`discard_value`; among equals, the lowest cards go): what the search and PIMC
    players compare by playing them out.

    Raises :class:`~fivehundred.FiveHundredError` when it is not this seat's turn in the discard
    phase or ``count`` is below 1, and :class:`~fivehundred.FiveHundredTypeError` for a non-view
    or a ``count`` that is not a whole number.
    """
    _expect(view, Phase.DISCARD, "ranked_discards")
    if not isinstance(count, int) or isinstance(count, bool):
        raise FiveHundredTypeError(f"count must be a whole number of discards, not {quote(count)}")
    if count < 1:
        raise FiveHundredError(f"count={count}: ask for at least one discard")
    contract, kitty = view.contract, view.kitty
    assert contract is not None and kitty is not None
    rules = view.rules
    pool = mask_of(view.hand) | mask_of(kitty)
    ctx = contract_context(contract)
    scored: list[tuple[float, int]] = []
    for combo in itertools.combinations(list(indices(pool)), len(kitty)):
        out = 0
        for index in combo:
            out |= 1 << index
        value = mask_discard_value(pool & ~out, contract, rules)
        value -= 0.001 * sum(ctx.power[i] for i in combo)  # ties: throw the lowest
        scored.append((-value, out))
    scored.sort(key=lambda pair: pair[0])  # stable: equal values keep the order tried
    return [Discard(CARDS[i] for i in indices(out)) for _, out in scored[:count]]


def nominate(view: PlayerView, legal: Sequence[Nominate]) -> Nominate:
    """No Trumps: keep the Joker suitless (a sure trick); misère: its longest suit (R7.1).

    Raises :class:`~fivehundred.FiveHundredError` when it is not this seat's turn in the nomination
    phase, and :class:`~fivehundred.FiveHundredTypeError` for a non-view.
    """
    _expect(view, Phase.NOMINATE, "nominate")
    contract = view.contract
    assert contract is not None
    if not contract.is_misere:
        return DECLINE if DECLINE in legal else legal[0]
    hand = mask_of(view.hand)
    ctx = context(None)
    counts = [((hand & ctx.suit_masks[s]).bit_count(), s) for s in range(4)]
    suit = Suit(max(counts)[1])
    choice = Nominate(suit)
    return choice if choice in legal else legal[0]


def call_partner(view: PlayerView, legal: Sequence[CallPartner]) -> CallPartner:
    """Five players (P5): call the best card this seat lacks, or the seat that backed it.

    By card: the highest trump it does not hold (in No Trumps, the ace of its
    longest suit). By seat: a seat that bid the contract's strain, else the
    seat opposite.

    Raises :class:`~fivehundred.FiveHundredError` when it is not this seat's turn in the partner
    phase, and :class:`~fivehundred.FiveHundredTypeError` for a non-view.
    """
    _expect(view, Phase.PARTNER, "call_partner")
    contract = view.contract
    assert contract is not None
    ctx = contract_context(contract)
    hand = mask_of(view.hand)
    cards = [c for c in legal if c.card is not None]
    if cards:

        def strength(call: CallPartner) -> tuple[int, int]:
            assert call.card is not None
            index = call.card.index
            suit = ctx.suit_of(index)
            length = (hand & ctx.suit_masks[suit]).bit_count() if suit >= 0 else 0
            return (ctx.power[index], length)

        return max(cards, key=strength)
    backers = [
        seat
        for seat, call in view.auction
        if seat != view.seat and call.is_bid and call.strain == contract.strain
    ]
    players = view.rules.players
    wanted = [*backers, (view.seat + players // 2) % players]
    for seat in wanted:
        for call in legal:
            if call.seat == seat:
                return call
    return legal[0]  # pragma: no cover - the seat opposite is always callable


# -- card play -------------------------------------------------------------------


@attrs.frozen
class _Turn:
    """Everything the card-play rules look at, computed once per decision."""

    view: PlayerView
    know: Sight
    ctx: Context
    table: CardTable
    misere: bool
    #: The contractor, or -1 for a hand played after everyone passed (V-ALL-PASS).
    contractor: int
    my_team: int
    declaring: bool
    #: Seats still to play to this trick after this seat.
    after: tuple[int, ...]

    def foe(self, seat: int) -> bool:
        """Whether ``seat`` plays against this seat, as far as it knows."""
        return self.know.team[seat] != self.my_team


def _setup(view: PlayerView) -> _Turn:
    contract = view.contract
    contractor = view.contractor if view.contractor is not None else -1
    know = read_sight(view)
    seat = view.seat
    active = know.active
    played_now = {s for s, _ in view.trick}
    after = []
    if view.trick:
        at = active.index(seat)
        for step in range(1, len(active)):
            other = active[(at + step) % len(active)]
            if other not in played_now:
                after.append(other)
    my_team = know.team[seat]
    return _Turn(
        view=view,
        know=know,
        ctx=know.ctx,
        table=card_table(know.ctx),
        misere=contract is not None and contract.is_misere,
        contractor=contractor,
        my_team=my_team,
        declaring=contractor >= 0 and know.team[contractor] == my_team,
        after=tuple(after),
    )


def choose_play(view: PlayerView, legal: Sequence[Play]) -> Play:
    """The heuristic card play for the seat to act.

    Raises :class:`~fivehundred.FiveHundredError` when it is not this seat's turn in the play
    phase, and :class:`~fivehundred.FiveHundredTypeError` for a non-view.
    """
    _expect(view, Phase.PLAY, "choose_play")
    setup = _setup(view)
    cards: dict[int, list[Play]] = {}
    for play in legal:
        cards.setdefault(play.card.index, []).append(play)
    options = 0
    for index in cards:
        options |= 1 << index
    if setup.misere:
        if setup.contractor == view.seat:
            index = _misere_declarer(setup, options)
        else:
            index = _misere_defender(setup, options)
    elif view.trick:
        index = _follow(setup, options)
    else:
        index = _lead(setup, options)
    plays = cards[index]
    if len(plays) == 1:
        return plays[0]
    return _name_joker_suit(setup, plays)


def _name_joker_suit(setup: _Turn, plays: list[Play]) -> Play:
    """Leading the suitless Joker: name the unled suit this seat holds most of (R7.4)."""
    hand = setup.know.hand
    masks = setup.ctx.suit_masks

    def length(play: Play) -> tuple[int, int]:
        assert play.suit is not None
        return ((hand & masks[play.suit]).bit_count(), -int(play.suit))

    return max(plays, key=length)


def _lowest(ctx: Context, mask: int) -> int:
    return by_power(ctx, mask)[0]


def _highest(ctx: Context, mask: int) -> int:
    return by_power(ctx, mask)[-1]


def _opponents_against(setup: _Turn, seats: Sequence[int]) -> int:
    know = setup.know
    mask = 0
    for seat in seats:
        if setup.foe(seat):
            mask |= know.against(seat)
    return mask


def _is_master(setup: _Turn, index: int, against: int) -> bool:
    """No card that an opponent may hold beats this one in its own suit."""
    if index == JOKER_INDEX and setup.ctx.free_joker:
        return True
    return not setup.table.above[index] & against


def _trick_state(setup: _Turn) -> tuple[list[int], int, int, int]:
    """Card indices of the trick, the led suit, the winning position and its seat."""
    view = setup.view
    cards = [card.index for _, card in view.trick]
    led = int(view.led_suit) if view.led_suit is not None else -1
    at = setup.ctx.winner(cards, led)
    return cards, led, at, view.trick[at][0]


def _wins(setup: _Turn, cards: list[int], led: int, index: int) -> bool:
    return setup.ctx.winner([*cards, index], led) == len(cards)


def _discard_low(setup: _Turn, options: int) -> int:
    """Throw the least useful card: no trump, no sure winner, from a short suit."""
    ctx = setup.ctx
    know = setup.know
    against = _opponents_against(setup, know.active)
    hand = know.hand

    def waste(index: int) -> tuple[int, int, int, int]:
        trump = 1 if ctx.trump_mask >> index & 1 else 0
        master = 1 if _is_master(setup, index, against) else 0
        suit = setup.table.suit[index]
        length = (hand & ctx.suit_masks[suit]).bit_count() if suit >= 0 else 9
        return (trump, master, ctx.power[index], length)

    return min(indices(options), key=waste)


def _lead(setup: _Turn, options: int) -> int:
    ctx = setup.ctx
    know = setup.know
    opponents = [s for s in know.active if setup.foe(s)]
    against = _opponents_against(setup, opponents)
    trumps = options & ctx.trump_mask & ~(JOKER_BIT if ctx.free_joker else 0)
    if ctx.trump is not None and setup.declaring and trumps:
        trump = int(ctx.trump)
        outstanding = against & ctx.trump_mask
        if outstanding and any(not know.voids[s] >> trump & 1 for s in opponents):
            top = _highest(ctx, trumps)
            if _is_master(setup, top, against):
                return top
            if setup.contractor == setup.view.seat or trumps.bit_count() >= 2:
                return _lowest(ctx, trumps)
    side = options & ~ctx.trump_mask
    masters = [
        i
        for i in indices(side)
        if _is_master(setup, i, against) and not _ruffable(setup, i, opponents, against)
    ]
    if masters:
        return max(masters, key=lambda i: (ctx.power[i], -i))
    if side:
        return _lead_low(setup, side, opponents)
    if ctx.free_joker and options & ~JOKER_BIT:
        return _lowest(ctx, options & ~JOKER_BIT)
    return _lowest(ctx, options)


def _ruffable(setup: _Turn, index: int, opponents: Sequence[int], against: int) -> bool:
    ctx = setup.ctx
    if ctx.trump is None:
        return False
    suit = setup.table.suit[index]
    know = setup.know
    for seat in opponents:
        if know.voids[seat] >> suit & 1 and know.against(seat) & ctx.trump_mask:
            return True
    return False


def _lead_low(setup: _Turn, side: int, opponents: Sequence[int]) -> int:
    """A low lead: from a short suit when this seat can ruff, else from the longest."""
    ctx = setup.ctx
    know = setup.know
    hand = know.hand
    has_trumps = bool(hand & ctx.trump_mask) and ctx.trump is not None
    best = -1
    best_key: tuple[float, ...] = ()
    for suit in range(4):
        cards = side & ctx.suit_masks[suit]
        if not cards:
            continue
        length = (hand & ctx.suit_masks[suit]).bit_count()
        ruff_risk = sum(
            1
            for s in opponents
            if know.voids[s] >> suit & 1 and (ctx.trump is not None or know.against(s))
        )
        shape = -length if has_trumps and setup.declaring else length
        low = _lowest(ctx, cards)
        key = (-ruff_risk, shape, -ctx.power[low])
        if best < 0 or key > best_key:
            best, best_key = low, key
    return best


def _follow(setup: _Turn, options: int) -> int:
    ctx = setup.ctx
    view = setup.view
    cards, led, _, winner_seat = _trick_state(setup)
    opponents_after = [s for s in setup.after if setup.foe(s)]
    winners = [i for i in by_power(ctx, options) if _wins(setup, cards, led, i)]
    following = bool(led >= 0 and options & ctx.suit_masks[led])
    if not setup.foe(winner_seat):
        winning_index = view.trick[[s for s, _ in view.trick].index(winner_seat)][1].index
        safe = not opponents_after or _beats_none(setup, winning_index, led, opponents_after)
        if safe or not winners:
            return _lowest(ctx, options) if following else _discard_low(setup, options)
        masters = [i for i in winners if _beats_none(setup, i, led, opponents_after)]
        if masters:
            return masters[0]
        return _lowest(ctx, options) if following else _discard_low(setup, options)
    if winners:
        if not opponents_after:
            return winners[0]
        safe_winners = [i for i in winners if _beats_none(setup, i, led, opponents_after)]
        if safe_winners:
            return safe_winners[0]
        partner_after = any(not setup.foe(s) for s in setup.after)
        if partner_after and len(cards) == 1 and following:
            return _lowest(ctx, options)  # second hand low: the partner is still to come
        return winners[0]
    return _lowest(ctx, options) if following else _discard_low(setup, options)


def _beats_none(setup: _Turn, index: int, led: int, seats: Sequence[int]) -> bool:
    """True when none of ``seats`` can, on what this seat knows, beat ``index`` here."""
    ctx = setup.ctx
    know = setup.know
    power = ctx.power[index]
    for seat in seats:
        holds = know.against(seat)
        if led >= 0 and not know.voids[seat] >> led & 1:
            follow = holds & ctx.suit_masks[led]
            if ctx.trump_mask >> index & 1 and not ctx.trump_mask & ctx.suit_masks[led]:
                continue  # a trump on a plain suit: a follower cannot beat it
            if any(ctx.power[i] > power for i in indices(follow)):
                return False
            trumps = holds & ctx.trump_mask
            if not follow and any(ctx.power[i] > power for i in indices(trumps)):
                return False
            continue
        beaters = holds & ctx.trump_mask
        if ctx.trump_mask >> index & 1 or led < 0:
            if any(ctx.power[i] > power for i in indices(beaters)):
                return False
        elif beaters:
            return False
    return True


# -- misère ----------------------------------------------------------------------


def _lower_unseen(setup: _Turn, index: int, against: int) -> int:
    return (setup.table.below[index] & against).bit_count()


def _misere_declarer(setup: _Turn, options: int) -> int:
    """Lose every trick: duck as high as possible, lead what others must beat, shed danger."""
    ctx = setup.ctx
    know = setup.know
    defenders = [s for s in know.active if s != setup.contractor]
    against = _opponents_against(setup, defenders)
    if setup.view.trick:
        cards, led, _, _ = _trick_state(setup)
        losers = [i for i in by_power(ctx, options) if not _wins(setup, cards, led, i)]
        if losers:
            following = bool(led >= 0 and options & ctx.suit_masks[led])
            if following:
                return losers[-1]
            return max(losers, key=lambda i: (_lower_unseen(setup, i, against), ctx.power[i]))
        return _lowest(ctx, options)

    def risk(index: int) -> tuple[int, int, int]:
        if index == JOKER_INDEX and ctx.free_joker:
            return (99, 0, 0)
        suit = setup.table.suit[index]
        can_follow = [s for s in defenders if not know.voids[s] >> suit & 1]
        higher = (setup.table.above[index] & against).bit_count()
        if not can_follow or higher == 0:
            return (50, 0, ctx.power[index])
        return (_lower_unseen(setup, index, against), -higher, ctx.power[index])

    return min(indices(options), key=risk)


def _misere_defender(setup: _Turn, options: int) -> int:
    """Make the misère contractor win a trick: lead under their cards, never overtake them."""
    ctx = setup.ctx
    know = setup.know
    view = setup.view
    contractor = setup.contractor
    theirs = know.against(contractor)
    if not view.trick:
        best = -1
        best_key: tuple[int, ...] = ()
        for index in indices(options):
            if index == JOKER_INDEX and ctx.free_joker:
                continue
            suit = setup.table.suit[index]
            if know.voids[contractor] >> suit & 1:
                continue
            above = (setup.table.above[index] & theirs).bit_count()
            below = (setup.table.below[index] & theirs).bit_count()
            if not above:
                continue
            key = (1 if know.exposed and not below else 0, -below, above, -ctx.power[index])
            if best < 0 or key > best_key:
                best, best_key = index, key
        if best >= 0:
            return best
        return _lowest(ctx, options)
    cards, led, _, winner_seat = _trick_state(setup)
    following = bool(led >= 0 and options & ctx.suit_masks[led])
    played = {s for s, _ in view.trick}
    if contractor in played:
        if winner_seat == contractor:
            under = [i for i in by_power(ctx, options) if not _wins(setup, cards, led, i)]
            if under:
                return under[-1]
            return _lowest(ctx, options)
        return _highest(ctx, options)  # the trick is lost to a defender: shed a high card
    if following:
        if not theirs & ctx.suit_masks[led]:
            # the misère player cannot follow, so a defender takes this trick: unblock
            return _highest(ctx, options)
        return _lowest(ctx, options)
    return _highest(ctx, options)
