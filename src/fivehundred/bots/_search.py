"""The search player: determinization over sampled deals, with fast play-outs.

How it decides is told in :mod:`fivehundred.bots` (the search player).
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Iterator, Sequence
from typing import Final

import attrs

from fivehundred._engine.play import play_card, play_mask, play_names
from fivehundred._engine.quoting import expect
from fivehundred._engine.sight import JOKER_BIT, card_table, deck_mask, read_sight
from fivehundred._engine.simulate import simulation
from fivehundred._engine.state import (
    GameState,
    active_seats,
    hands_of,
    led_of,
    to_act,
    trick_of,
    tricks_by_seat,
)
from fivehundred._engine.table import Table
from fivehundred._engine.table import positions_context as _positions_context
from fivehundred._engine.table import table as _rules_table
from fivehundred.actions import Action, Discard, Nominate, Play
from fivehundred.bots._game import game_call
from fivehundred.bots._heuristic import HeuristicPlayer, bid_limits, ranked_discards
from fivehundred.bots._misere import defends_misere, misere_defence
from fivehundred.bots._players import require_turn
from fivehundred.bots._sampling import (
    MaskWorld,
    sample_world,
    sampling_problem,
)
from fivehundred.bots._utility import HandUtility, check_game_value
from fivehundred.calls import PASS, Call, CallKind, Strain
from fivehundred.cards import CARDS, JOKER_INDEX, Card, Suit, indices, mask_of
from fivehundred.errors import FiveHundredError, FiveHundredTypeError
from fivehundred.rules import Rules
from fivehundred.scoring import bid_value
from fivehundred.tricks import Context, context, contract_context
from fivehundred.views import PlayerView

#: Discards the search player compares in the kitty exchange.
_DISCARD_CANDIDATES: Final = 6
#: The default :attr:`SearchPlayer.misere_doubt`.
MISERE_DOUBT: Final = 0.3


# -- the internal play-out model -----------------------------------------------


@attrs.frozen
class _Setup:
    """One hand's card play for the play-out policy, over the table's deck positions.

    The rules of play are not here: a play-out drives the engine core's own
    state (:func:`fivehundred._engine.simulate.simulation`), which decides what may be
    played, who wins each trick, who plays next and when the hand ends.
    """

    table: Table
    contract: Call | None
    ctx: Context
    suit_of: tuple[int, ...]
    above: tuple[int, ...]
    below: tuple[int, ...]
    power: tuple[int, ...]
    trump_mask: int
    suit_masks: tuple[int, ...]
    joker: int
    has_trump: bool
    free_joker: bool
    misere: bool
    #: The contractor, or -1 (V-ALL-PASS).
    contractor: int
    #: The Joker's nominated suit, or -1.
    joker_suit: int
    #: The five-player partner, or -1.
    partner: int
    #: Team of each seat for the policy (the five-player partner joins the contractor).
    team: tuple[int, ...]
    #: Side of each seat, for the score.
    side_of: tuple[int, ...]


def _setup(
    rules: Rules,
    contract: Call | None,
    contractor: int | None,
    joker_suit: Suit | None,
    partner: int | None = None,
) -> _Setup:
    t = _rules_table(rules)
    trump = -1 if contract is None or contract.trump is None else int(contract.trump)
    nominated = -1 if joker_suit is None else int(joker_suit)
    ctx = _positions_context(t, trump, nominated)
    table = card_table(ctx)
    side_of = tuple(rules.side_of(s) for s in range(rules.players))
    team = list(side_of)
    if partner is not None and contractor is not None:
        team[partner] = team[contractor]
    return _Setup(
        table=t,
        contract=contract,
        ctx=ctx,
        suit_of=table.suit,
        above=table.above,
        below=table.below,
        power=ctx.power,
        trump_mask=ctx.trump_mask,
        suit_masks=ctx.suit_masks,
        joker=ctx.joker,
        has_trump=ctx.trump is not None,
        free_joker=ctx.free_joker,
        misere=contract is not None and contract.is_misere,
        contractor=-1 if contractor is None else contractor,
        joker_suit=nominated,
        partner=-1 if partner is None else partner,
        team=tuple(team),
        side_of=side_of,
    )


def _positions(t: Table, mask: int) -> int:
    """A card-index mask as a mask of the table's deck positions."""
    out = 0
    pos_of = t.pos_of
    for index in indices(mask):
        out |= 1 << pos_of[index]
    return out


def _sim(
    s: _Setup,
    dealer: int,
    hands: Sequence[int],
    *,
    trick: Sequence[tuple[int, Card]] = (),
    led: int = -1,
    suits_led: int = 0,
    done: int = 0,
) -> GameState:
    """The engine core's private play-out state for card-index hands and a trick so far."""
    t = s.table
    cards = tuple(t.pos_of[card.index] for _, card in trick)
    leader = trick[0][0] if trick else -1
    positions = tuple(_positions(t, hand) for hand in hands)
    return simulation(
        t,
        s.contract,
        s.contractor,
        s.joker_suit,
        s.partner,
        dealer,
        positions,
        cards,
        leader,
        led,
        suits_led,
        done,
    )


def _lowest(mask: int, power: tuple[int, ...]) -> int:
    best = -1
    best_power = 1 << 30
    while mask:
        low = mask & -mask
        index = low.bit_length() - 1
        mask ^= low
        if power[index] < best_power:
            best_power = power[index]
            best = index
    return best


def _highest(mask: int, power: tuple[int, ...]) -> int:
    best = -1
    best_power = -1
    while mask:
        low = mask & -mask
        index = low.bit_length() - 1
        mask ^= low
        if power[index] > best_power:
            best_power = power[index]
            best = index
    return best


def _pick(  # noqa: PLR0917 - the play-out hot path: positional arguments are the fastest
    s: _Setup,
    hands: Sequence[int],
    trick: list[tuple[int, int]],
    led: int,
    seat: int,
    mask: int,
    active: Sequence[int],
) -> int:
    """The play-out policy: sound basics with every hand in sight (it is a sampled deal)."""
    power = s.power
    team = s.team[seat]
    if s.misere:
        return _pick_misere(s, hands, trick, led, seat, mask, active)
    if not trick:
        opponents = 0
        for other in active:
            if s.team[other] != team:
                opponents |= hands[other]
        trumps = mask & s.trump_mask
        declaring = s.contractor >= 0 and s.team[s.contractor] == team
        if s.has_trump and declaring and trumps and opponents & s.trump_mask:
            top = _highest(trumps, power)
            if not s.above[top] & opponents:
                return top
            return _lowest(trumps, power)
        plain = mask & ~s.trump_mask
        if plain:
            best = -1
            best_power = -1
            rest = plain
            while rest:
                low = rest & -rest
                index = low.bit_length() - 1
                rest ^= low
                if s.above[index] & opponents or power[index] <= best_power:
                    continue
                if s.has_trump:
                    suit = s.suit_masks[s.suit_of[index]]
                    if any(
                        s.team[o] != team and not hands[o] & suit and hands[o] & s.trump_mask
                        for o in active
                    ):
                        continue
                best, best_power = index, power[index]
            if best >= 0:
                return best
            return _lowest(plain, power)
        return _lowest(mask, power)
    cards = [c for _, c in trick]
    at = s.ctx.winner(cards, led)
    if s.team[trick[at][0]] == team or led < 0:
        return _lowest(mask, power)
    top = power[cards[at]]
    beats = mask & s.ctx.eligible(led)
    best = -1
    best_power = 1 << 30
    while beats:
        low = beats & -beats
        index = low.bit_length() - 1
        beats ^= low
        if top < power[index] < best_power:
            best, best_power = index, power[index]
    return best if best >= 0 else _lowest(mask, power)


def _duck(s: _Setup, trick: list[tuple[int, int]], led: int, mask: int) -> int:
    """The highest card that does not take the trick, or -1."""
    power = s.power
    cards = [c for _, c in trick]
    top = power[cards[s.ctx.winner(cards, led)]]
    eligible = s.ctx.eligible(led)
    best = -1
    best_power = -1
    while mask:
        low = mask & -mask
        index = low.bit_length() - 1
        mask ^= low
        wins = eligible >> index & 1 and power[index] > top
        if not wins and power[index] > best_power:
            best, best_power = index, power[index]
    return best


def _pick_misere(  # noqa: PLR0917 - the play-out hot path, as _pick
    s: _Setup,
    hands: Sequence[int],
    trick: list[tuple[int, int]],
    led: int,
    seat: int,
    mask: int,
    active: Sequence[int],
) -> int:
    power = s.power
    contractor = s.contractor
    free = 1 << s.joker if s.free_joker else 0
    if seat == contractor:
        if not trick:
            # Lead what the others can least get under, judged from the cards still
            # out (not from who holds them: the contractor cannot see their hands).
            out = 0
            for other in active:
                if other != seat:
                    out |= hands[other]
            best = -1
            least_risk = (1 << 30, 0)
            rest = mask & ~free
            while rest:
                low = rest & -rest
                index = low.bit_length() - 1
                rest ^= low
                above = (s.above[index] & out).bit_count()
                risk = ((s.below[index] & out).bit_count() + (0 if above else 50), -power[index])
                if risk < least_risk:
                    best, least_risk = index, risk
            return best if best >= 0 else _lowest(mask, power)
        best = _duck(s, trick, led, mask)
        return best if best >= 0 else _lowest(mask, power)
    theirs = hands[contractor]
    if not trick:
        # Lead under the contractor's cards (they must win it); failing that, the
        # card with the fewest of theirs below it, to draw their low cards out.
        best = -1
        lead_key = (False, 0, 0, 0)
        rest = mask & ~free
        while rest:
            low = rest & -rest
            index = low.bit_length() - 1
            rest ^= low
            suit = theirs & s.suit_masks[s.suit_of[index]]
            if not suit:
                continue
            below = (suit & s.below[index]).bit_count()
            key = (below == 0, -below, (suit & s.above[index]).bit_count(), -power[index])
            if best < 0 or key > lead_key:
                best, lead_key = index, key
        return best if best >= 0 else _lowest(mask, power)
    played = [o for o, _ in trick]
    if contractor in played:
        cards = [c for _, c in trick]
        if trick[s.ctx.winner(cards, led)][0] != contractor:
            return _highest(mask, power)  # a defender has the trick: shed a high card
        best = _duck(s, trick, led, mask)
        return best if best >= 0 else _lowest(mask, power)
    if led >= 0 and mask & s.suit_masks[led]:
        return _lowest(mask, power)
    return _highest(mask & ~free or mask, power)


def _playout(s: _Setup, state: GameState, first: Play | None = None) -> list[int]:
    """Play the hand to its end on the core's private ``state``; the tricks per side.

    ``first`` forces the first play. Every other card is the policy's choice among
    the cards the core says may be played.
    """
    t = s.table
    jb = 1 << s.joker
    if first is not None:
        pos = t.pos_of[first.card.index]
        play_card(state, pos, -1 if first.suit is None else int(first.suit))
    active = active_seats(state)
    while True:
        seat = to_act(state)
        if seat < 0:
            break
        mask = play_mask(state)
        if mask & (mask - 1) == 0:
            pos = mask.bit_length() - 1
        else:
            trick = trick_of(state)
            led = led_of(state)
            pos = _pick(s, hands_of(state), trick, led, seat, mask, active)
        name = -1
        if pos == s.joker and mask & jb:
            names = play_names(state)
            if names > 0:  # pragma: no cover - the policy leads a suitless Joker only last
                name = (names & -names).bit_length() - 1
        play_card(state, pos, name)
    won = [0] * len(s.table.rules.sides)
    for seat, count in enumerate(tricks_by_seat(state)):
        won[s.side_of[seat]] += count
    return won


def _fast_discard(rules: Rules, contract: Call, pool: int, size: int) -> int:
    """A quick kitty discard for play-outs: shed the least useful ``size`` cards."""
    deck = deck_mask(rules)
    scored = []
    if contract.is_misere:
        table = card_table(context(None))
        for index in indices(pool):
            if index == JOKER_INDEX:
                danger = 99
            else:
                below = table.below[index]
                danger = (below & deck).bit_count() - 2 * (below & pool).bit_count()
            scored.append((-danger, -index, index))
    else:
        ctx = contract_context(contract)
        table = card_table(ctx)
        outside = deck & ~pool
        for index in indices(pool):
            if ctx.trump_mask >> index & 1:
                value = 1000 + ctx.power[index]
            elif not table.above[index] & outside:
                value = 500 + ctx.power[index]
            else:
                suit = table.suit[index]
                value = ctx.power[index] + 8 * (pool & ctx.suit_masks[suit]).bit_count()
            scored.append((value, index, index))
    scored.sort()
    out = 0
    for _, _, index in scored[:size]:
        out |= 1 << index
    return out


def _partner_in(view: PlayerView, hands: Sequence[int]) -> int | None:
    """The five-player partner in a sampled deal: known, or the holder of the called card."""
    if view.partner is not None or view.partner_card is None:
        return view.partner
    bit = 1 << view.partner_card.index
    for seat, hand in enumerate(hands):
        if hand & bit:
            return seat
    return None


def _simulate_contract(
    view: PlayerView, contract: Call, contractor: int, world: MaskWorld
) -> tuple[list[int], int | None]:
    """Play a whole hand of a contract in a sampled deal: kitty exchange, the partner
    call (P5), then the play-out. Returns the tricks per side and the partner."""
    rules = view.rules
    hands = list(world.hands)
    if not contract.sans_kitty:
        size = rules.kitty_size
        kitty = world.pile
        if kitty.bit_count() > size:  # the dead hand shares the pile (P2)
            kitty = 0
            for index in list(indices(world.pile))[:size]:
                kitty |= 1 << index
        pool = hands[contractor] | kitty
        hands[contractor] = pool & ~_fast_discard(rules, contract, pool, size)
    joker_suit = None
    if contract.is_misere and hands[contractor] & JOKER_BIT and rules.joker_nomination:
        masks = context(None).suit_masks
        joker_suit = Suit(max(range(4), key=lambda x: (hands[contractor] & masks[x]).bit_count()))
    partner = None
    if rules.calls_partner and not contract.is_misere:
        partner = _partner_for(rules, contract, contractor, hands)
    s = _setup(rules, contract, contractor, joker_suit, partner)
    assert view.dealer is not None
    return _playout(s, _sim(s, view.dealer, hands)), partner


def _partner_for(rules: Rules, contract: Call, contractor: int, hands: Sequence[int]) -> int | None:
    """The five-player partner a contractor would get (P5): the seat opposite when named
    by seat, else the holder of the best card it lacks (None when that card is out)."""
    if rules.partner_by_seat:
        return (contractor + rules.players // 2) % rules.players
    ctx = contract_context(contract)
    lacking = deck_mask(rules) & ~hands[contractor] & ~JOKER_BIT
    best = _highest(lacking, ctx.power)
    for seat, hand in enumerate(hands):
        if hand >> best & 1:
            return seat
    return None


# -- the player ------------------------------------------------------------------


@attrs.define
class SearchPlayer:
    """Plays by sampling the hidden cards and playing the sampled deals out.

    ``samples`` is the number of sampled deals per decision (the budget);
    ``time_limit``, when set, also stops drawing deals once that many seconds
    have passed on a decision (at least one deal is always played out; the
    choice then depends on the machine's speed). Blind misère is never bid:
    the player has looked. The five-player partner call is the heuristic
    player's.

    Raises :class:`~fivehundred.FiveHundredError` for ``samples`` below 1 and a
    ``game_value`` below 0 or not finite, and :class:`~fivehundred.FiveHundredTypeError`
    for a ``game_value`` that is not a number; its ``choose`` raises
    :class:`~fivehundred.FiveHundredError` when it is not the view's seat's turn.
    """

    rng: random.Random = attrs.field(factory=random.Random)
    samples: int = attrs.field(default=16)
    time_limit: float | None = attrs.field(default=None, kw_only=True)
    #: Share of its value by which a misère bid is marked down in the auction: in
    #: the play-outs the contractor plays each sampled deal as if it could see it,
    #: which flatters misère most (one wrong guess loses it).
    misere_doubt: float = attrs.field(default=MISERE_DOUBT, kw_only=True)
    #: What winning the game is worth, in points: a hand that ends the game is valued
    #: at plus this for the winners and minus this for the others instead of by its
    #: score. ``None`` (the default): every hand is valued by its score alone.
    game_value: float | None = attrs.field(default=None, kw_only=True, validator=check_game_value)
    #: Sampled deals per auction decision; ``None`` (the default): four times ``samples``.
    #: Every candidate call is valued over the same deals.
    bid_samples: int | None = attrs.field(default=None, kw_only=True)
    #: The seed of every decision's own random source, drawn from ``rng`` at the first
    #: decision: each decision draws its deals from this and the view, so one view
    #: gets one answer.
    _base: int | None = attrs.field(default=None, init=False, repr=False, eq=False)
    _draw: random.Random | None = attrs.field(default=None, init=False, repr=False, eq=False)

    @bid_samples.validator
    def _check_bid_samples(self, attribute: attrs.Attribute[int | None], value: object) -> None:
        if value is None:
            return
        if not isinstance(value, int) or isinstance(value, bool):
            raise FiveHundredTypeError(f"bid_samples must be a whole number, not {value!r}")
        if value < 1:
            raise FiveHundredError(f"bid_samples={value}: a search needs at least one deal")

    @samples.validator
    def _check_samples(self, attribute: attrs.Attribute[int], value: int) -> None:
        expect(value, int, "a number of samples (an int)")
        if value < 1:
            raise FiveHundredError(f"samples={value}: a search needs at least one sampled deal")

    def choose(self, view: PlayerView) -> Action:
        """The action with the best average play-out over sampled deals."""
        legal = require_turn(view)
        if len(legal) == 1:
            return legal[0]
        self._draw = self.decision_rng(view)
        first = legal[0]
        if isinstance(first, Play):
            return self._play(view, [a for a in legal if isinstance(a, Play)])
        if isinstance(first, Call):
            return self._bid(view, [a for a in legal if isinstance(a, Call)])
        if isinstance(first, Discard):
            return self._discard(view)
        if isinstance(first, Nominate):
            return self._nominate(view, [a for a in legal if isinstance(a, Nominate)])
        return HeuristicPlayer(self._draw).choose(view)

    def decision_rng(self, view: PlayerView) -> random.Random:
        """The random source of one decision: from the player's seed and the view alone,
        so that the same view always draws the same deals."""
        if self._base is None:
            self._base = self.rng.getrandbits(64)
        digest = hashlib.blake2b(repr(view).encode(), digest_size=16).hexdigest()
        return random.Random(f"{self._base}/{digest}")

    def _worlds(self, view: PlayerView, count: int | None = None) -> Iterator[MaskWorld]:
        """The sampled deals for one decision, drawn one at a time within the budget.

        With a ``time_limit`` the next deal is drawn only while time is left
        (the caller plays each deal out before asking for the next).
        """
        problem = sampling_problem(view)
        rng = self._draw if self._draw is not None else self.decision_rng(view)
        start = time.perf_counter()
        for drawn in range(self.samples if count is None else count):
            limit = self.time_limit
            if drawn and limit is not None and time.perf_counter() - start >= limit:
                return
            yield sample_world(problem, view.rules, rng)

    def _play(self, view: PlayerView, legal: list[Play]) -> Play:
        if defends_misere(view):
            rng = self._draw if self._draw is not None else self.decision_rng(view)
            return misere_defence(view, legal, rng, max(1, self.samples // 4), self.time_limit)
        candidates = _distinct_plays(view, legal)
        if len(candidates) == 1:
            return candidates[0]
        rules = view.rules
        utility = HandUtility(view, view.contract, view.contractor, self.game_value)
        led = int(view.led_suit) if view.led_suit is not None else -1
        suits_led = 0
        for suit in view.suits_led:
            suits_led |= 1 << suit
        done = len(view.tricks)
        before = view.tricks_won
        assert view.dealer is not None
        totals = [0.0] * len(candidates)
        setups: dict[int | None, _Setup] = {}
        for world in self._worlds(view):
            partner = _partner_in(view, world.hands)
            s = setups.get(partner)
            if s is None:
                s = setups[partner] = _setup(
                    rules, view.contract, view.contractor, view.joker_suit, partner
                )
            for k, play in enumerate(candidates):
                state = _sim(
                    s,
                    view.dealer,
                    world.hands,
                    trick=view.trick,
                    led=led,
                    suits_led=suits_led,
                    done=done,
                )
                won = _playout(s, state, play)
                totals[k] += utility([a + b for a, b in zip(before, won, strict=True)], partner)
        return candidates[_best(totals)]

    def call_values(self, view: PlayerView) -> list[tuple[Call, float]]:
        """The calls the auction compares, each with its average value over sampled deals.

        The calls are passing (when legal), every legal level of each strain, misère and
        open misère, in that order; blind misère and the bids without the kitty are not
        considered. Every call is valued over the same sampled deals (common random
        numbers): a bid by playing the hand as its contractor in each deal (one play-out
        per strain serves all its levels), a pass by playing the standing bid's contract
        as it is (0 when nobody has bid). The value is the search player's utility: the
        hand's score change for the bidder's side minus the others' average, misère
        marked down by :attr:`misere_doubt`. :meth:`choose` bids the game situation's
        call when there is one (``fivehundred.bots._game.game_call``, from the share
        of deals in which each bid is made), else the first of the best among passing
        and the cheapest level of each strain (the play-outs flatter higher levels).

        Raises :class:`~fivehundred.FiveHundredError` when it is not the view's
        seat's turn to call.
        """
        legal = require_turn(view)
        calls = [a for a in legal if isinstance(a, Call)]
        if not calls:
            raise FiveHundredError(f"seat {view.seat} is not in the auction: nothing to call")
        self._draw = self.decision_rng(view)
        candidates = _bid_candidates(calls, bid_limits(view))
        totals, _, worlds = self._call_totals(view, candidates)
        return [(call, total / worlds) for call, total in zip(candidates, totals, strict=True)]

    def _bid(self, view: PlayerView, legal: list[Call]) -> Call:
        """The game situation's call, else the first of the best :meth:`call_values`."""
        candidates = _bid_candidates(legal, bid_limits(view))
        if len(candidates) == 1:
            return candidates[0]
        totals, made, worlds = self._call_totals(view, candidates)
        chances = {c: made[k] / worlds for k, c in enumerate(candidates) if c.is_bid}
        forced = game_call(view, chances)
        if forced is not None:
            return forced
        # Otherwise the cheapest level of each strain: the play-outs, which see every
        # hand, flatter the contractor, the more so the higher the level (bidding every
        # level by its play-out value won 18 of 40 games against the heuristic player)
        plain = _cheapest(candidates)
        return candidates[max(plain, key=lambda k: (totals[k], -k))]

    def _call_totals(
        self, view: PlayerView, candidates: list[Call]
    ) -> tuple[list[float], list[int], int]:
        """The total value of each candidate call over the sampled deals, the deals in
        which each is made, and the number of deals."""
        standing = next(((s, c) for s, c in reversed(view.auction) if c.is_bid), None)
        game = self.game_value
        rules = view.rules
        utilities = {c: HandUtility(view, c, view.seat, game) for c in candidates if c.is_bid}
        side = rules.side_of(view.seat)
        totals = [0.0] * len(candidates)
        made = [0] * len(candidates)
        worlds = 0
        count = self.bid_samples if self.bid_samples is not None else 4 * self.samples
        for world in self._worlds(view, count):
            worlds += 1
            played: dict[object, tuple[list[int], int | None]] = {}
            for k, call in enumerate(candidates):
                if call.is_bid:
                    # one play-out per strain serves every level; misère and open misère
                    # share one too (every hand is in sight in a play-out)
                    key = call.strain if call.kind is CallKind.BID else "misere"
                    if key not in played:
                        played[key] = _simulate_contract(view, call, view.seat, world)
                    won, partner = played[key]
                    totals[k] += utilities[call](won, partner)
                    ours = won[side]
                    if partner is not None and rules.side_of(partner) != side:
                        ours += won[rules.side_of(partner)]
                    made[k] += ours == 0 if call.is_misere else ours >= (call.tricks or 0)
                elif standing is not None:
                    seat, contract = standing
                    if contract not in utilities:
                        utilities[contract] = HandUtility(view, contract, seat, game)
                    won, partner = _simulate_contract(view, contract, seat, world)
                    totals[k] += utilities[contract](won, partner)
        for k, call in enumerate(candidates):
            if call.is_misere:
                totals[k] -= self.misere_doubt * bid_value(call, view.rules) * worlds
                made[k] = round(made[k] * (1 - self.misere_doubt))
        return totals, made, worlds

    def _discard(self, view: PlayerView) -> Discard:
        """Compare the heuristic's favourite discards by playing each out."""
        contract, kitty = view.contract, view.kitty
        assert contract is not None and kitty is not None
        rules = view.rules
        pool = mask_of(view.hand) | mask_of(kitty)
        options = ranked_discards(view, _DISCARD_CANDIDATES)
        quick = Discard(CARDS[i] for i in indices(_fast_discard(rules, contract, pool, len(kitty))))
        if quick not in options:
            options.append(quick)
        utility = HandUtility(view, contract, view.seat, self.game_value)
        s = _setup(rules, contract, view.seat, None)
        assert view.dealer is not None
        totals = [0.0] * len(options)
        for world in self._worlds(view):
            for k, choice in enumerate(options):
                hands = list(world.hands)
                hands[view.seat] = pool & ~mask_of(choice.cards)
                won = _playout(s, _sim(s, view.dealer, hands))
                totals[k] += utility(won)
        return options[_best(totals)]

    def _nominate(self, view: PlayerView, legal: list[Nominate]) -> Nominate:
        """Try every nomination (and declining) by playing each out."""
        contract = view.contract
        assert contract is not None and view.dealer is not None
        rules = view.rules
        utility = HandUtility(view, contract, view.seat, self.game_value)
        setups = [_setup(rules, contract, view.seat, choice.suit) for choice in legal]
        totals = [0.0] * len(legal)
        for world in self._worlds(view):
            partner = _partner_in(view, world.hands)
            for k, s in enumerate(setups):
                won = _playout(s, _sim(s, view.dealer, world.hands))
                totals[k] += utility(won, partner)
        return legal[_best(totals)]


#: A bid more than this many tricks above the heuristic estimate of its strain is not
#: played out in the auction (it would cost a play-out per deal for a hopeless bid).
_HOPELESS: Final = 2.5


def _bid_candidates(legal: Sequence[Call], limits: dict[Strain, float]) -> list[Call]:
    """Passing (when legal) and every legal level of each strain, misère included, but for
    levels above a strain's cheapest that are :data:`_HOPELESS` tricks beyond the heuristic
    player's estimate."""
    candidates: list[Call] = [PASS] if PASS in legal else []
    seen = set()
    strains: set[tuple[CallKind, Strain | None]] = set()
    for call in legal:
        if not call.is_bid or call.sans_kitty or call.kind is CallKind.BLIND_MISERE:
            continue
        if (
            call.kind is CallKind.BID
            and call.strain is not None
            and (call.kind, call.strain) in strains
            and (call.tricks or 0) > limits[call.strain] + _HOPELESS
        ):
            continue  # a hopeless level above the cheapest of its strain
        strains.add((call.kind, call.strain))
        key = (call.kind, call.strain, call.tricks)
        if key not in seen:
            seen.add(key)
            candidates.append(call)
    return candidates


def _cheapest(candidates: Sequence[Call]) -> list[int]:
    """The indices of passing and of the cheapest candidate of each strain and kind."""
    seen = set()
    kept = []
    for k, call in enumerate(candidates):
        key = (call.kind, call.strain)
        if key not in seen:
            seen.add(key)
            kept.append(k)
    return kept


def _best(totals: Sequence[float]) -> int:
    """The index of the best total; the first on ties (candidates come in a fixed order)."""
    best = 0
    for k, total in enumerate(totals):
        if total > totals[best] + 1e-9:
            best = k
    return best


def _distinct_plays(view: PlayerView, legal: list[Play]) -> list[Play]:
    """Drop plays that cannot differ: touching cards of a suit, with no unseen card between."""
    know = read_sight(view)
    ctx = know.ctx
    table = card_table(ctx)
    hidden = know.unseen | know.exposed
    kept: list[Play] = []
    for play in sorted(legal, key=lambda p: (ctx.power[p.card.index], p.card.index)):
        index = play.card.index
        suit = table.suit[index]
        if play.suit is None and suit >= 0:
            duplicate = any(
                other.suit is None
                and table.suit[other.card.index] == suit
                and not table.above[other.card.index] & table.below[index] & hidden
                for other in kept
            )
            if duplicate:
                continue
        kept.append(play)
    return kept
