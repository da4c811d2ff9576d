"""Game flow as pure functions: new game, deal, legal actions, apply.

>>> import fivehundred as fh
>>> state = fh.deal(fh.new_game(dealer=3), seed=7)
>>> state.phase, state.to_act
(<Phase.BIDDING: 'bidding'>, 0)
>>> fh.parse_call("6S") in fh.legal_bids(state)
True
>>> fh.MISERE in fh.legal_bids(state)  # misère needs a standing 7-level bid (R3.4)
False
>>> state = fh.apply(state, fh.parse_call("6S"))
>>> state.to_act, state.high_bid
(1, Call.parse('6S'))
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

import attrs

from fivehundred.actions import DECLINE, Action, CallPartner, Discard, Nominate, Play
from fivehundred.calls import PASS, Call, CallKind
from fivehundred.cards import (
    CARDS,
    JOKER,
    JOKER_INDEX,
    Card,
    Rank,
    Suit,
    cards_from_mask,
    index_tuple,
)
from fivehundred.errors import IllegalActionError, InvalidStateError, Reason
from fivehundred.rules import Rules
from fivehundred.scoring import (
    TRICKS_PER_HAND,
    HandResult,
    contract_made,
    game_result,
    score_hand,
)
from fivehundred.state import Core, GameState, Phase, _set_opts
from fivehundred.tricks import Context, context

__all__ = [
    "apply",
    "check_action",
    "deal",
    "is_legal",
    "legal_actions",
    "legal_bids",
    "legal_plays",
    "new_game",
]

_JOKER_BIT: Final = 1 << JOKER_INDEX
_new_core = tuple.__new__  # builds a Core from a list of its values (the hot paths)
_ALL_SUITS: Final = 0b1111
_PLAYS: Final = tuple(Play(card) for card in CARDS)
_JOKER_LEADS: Final = tuple(Play(JOKER, suit) for suit in Suit)
_NOMINATIONS: Final = (*(Nominate(suit) for suit in Suit), DECLINE)
_NO_NOMINATION: Final = (DECLINE,)
_PARTNER_CARDS: Final = tuple(CallPartner(card) for card in CARDS)
_PARTNER_SEATS: Final = tuple(CallPartner(seat=seat) for seat in range(6))
_DISCARDS_LIMIT: Final = 1 << 17
_DEFAULT_RULES: Final = Rules()


# -- starting and dealing ----------------------------------------------------


def new_game(rules: Rules | None = None, *, dealer: int | None = None) -> GameState:
    """A new game, waiting for its first deal.

    ``dealer`` is the first dealer's seat; leave it ``None`` to let the random
    source of the first :func:`deal` choose (R2.1).

    >>> import fivehundred as fh
    >>> game = fh.new_game(dealer=0)
    >>> game.phase, game.scores, game.dealer
    (<Phase.DEAL: 'deal'>, (0, 0), 0)
    """
    if rules is None:
        rules = _DEFAULT_RULES
    elif not isinstance(rules, Rules):
        raise TypeError(f"rules must be a fivehundred.Rules, not {rules!r}")
    players = rules.players
    if dealer is not None and (
        not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players
    ):
        raise InvalidStateError([f"dealer {dealer!r} is not a seat: seats are 0 to {players - 1}"])
    return GameState._make(_blank(rules)._replace(dealer=dealer))


@lru_cache(maxsize=64)
def _blank(rules: Rules) -> Core:
    """The state of a game not yet dealt: the starting value of every field."""
    players = rules.players
    return Core(
        rules=rules,
        phase=Phase.DEAL,
        dealer=None,
        scores=(0,) * len(rules.sides),
        hand_number=0,
        hands=(0,) * players,
        dead=0,
        kitty=0,
        discards=0,
        deck=(),
        auction=(),
        passed=0,
        called=0,
        passes=0,
        raised=0,
        high=-1,
        to_act=None,
        contract=None,
        contractor=None,
        partner=-1,
        partner_card=-1,
        joker_suit=None,
        ctx=None,
        sitting_out=0,
        trick=(),
        led=-1,
        tricks=(),
        won=(0,) * players,
        suits_led=0,
        actions=(),
        last_hand=None,
        result=None,
        history=(),
    )


#: The fields a new deal starts afresh (every field of one hand's auction and play).
_HAND_FIELDS: Final = tuple(
    Core._fields.index(name)
    for name in Core._fields[Core._fields.index("auction") : Core._fields.index("actions") + 1]
)


def deal(
    state: GameState,
    *,
    seed: int | str | bytes | None = None,
    rng: random.Random | None = None,
    cards: Sequence[Card | str] | str | None = None,
) -> GameState:
    """Deal the next hand (R2), from exactly one source of randomness.

    - ``seed``: shuffle with ``random.Random(seed)``;
    - ``rng``: shuffle with this ``random.Random`` (it advances);
    - ``cards``: deal this exact deck order (a list or tuple of cards or card
      notation, or text for :func:`~fivehundred.parse_cards`), top card first, by
      the convention of R2.2.

    >>> import fivehundred as fh
    >>> state = fh.deal(fh.new_game(dealer=3), cards=fh.Rules().deck)
    >>> " ".join(str(c) for c in state.hand(0))
    '5S 6S 7S 8C 9C 10C JC AD 4H 5H'
    >>> state.kitty
    (Card.parse('7C'), Card.parse('KD'), Card.parse('Jo'))
    """
    c = _core(state)
    if c.phase is not Phase.DEAL:
        if c.phase is Phase.GAME_OVER:
            raise IllegalActionError(Reason.GAME_OVER, "the game is over: there is no next hand")
        raise IllegalActionError(
            Reason.WRONG_PHASE,
            f"the hand in progress ({c.phase.value}) must be finished before the next deal",
        )
    given = sum(x is not None for x in (seed, rng, cards))
    if given > 1:
        raise TypeError("deal() takes one of seed=, rng= or cards=, not several")
    if seed is not None and not isinstance(seed, (int, str, bytes)):
        raise TypeError(f"seed must be an int, str or bytes, not {seed!r}")
    if rng is not None and not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random, not {rng!r}")
    rules = c.rules
    dealer = c.dealer
    if cards is not None:
        order = _deck_order(cards, rules)
        if dealer is None:
            raise IllegalActionError(
                Reason.BAD_DECK,
                "the first dealer was left to the random source, but cards= gives none: "
                "pass dealer= to new_game() (R2.1)",
            )
    else:
        source = rng if rng is not None else random.Random(seed)
        if dealer is None:
            dealer = source.randrange(rules.players)
        order = list(_deck_indices(rules))
        source.shuffle(order)
    hands, dead, kitty = _distribute(order, dealer, rules)
    values = list(c)
    blank = _blank(rules)
    for at in _HAND_FIELDS:
        values[at] = blank[at]
    fresh = _new_core(Core, values)
    return GameState._make(
        fresh._replace(
            phase=Phase.BIDDING,
            dealer=dealer,
            hand_number=c.hand_number + 1,
            hands=hands,
            dead=dead,
            kitty=kitty,
            discards=0,
            deck=tuple(order),
            to_act=(dealer + 1) % rules.players,
        )
    )


@lru_cache(maxsize=64)
def _deck_indices(rules: Rules) -> tuple[int, ...]:
    return tuple(card.index for card in rules.deck)


def _deck_order(cards: Sequence[Card | str] | str, rules: Rules) -> list[int]:
    from fivehundred.cards import parse_card, parse_cards

    if isinstance(cards, str):
        items = parse_cards(cards)
    elif isinstance(cards, (list, tuple)):
        items = tuple(parse_card(c) if isinstance(c, str) else c for c in cards)
    else:
        raise IllegalActionError(
            Reason.BAD_DECK, f"a deck order is a list or tuple of Cards, not {cards!r}"
        )
    problems = []
    bad = [c for c in items if not isinstance(c, Card)]
    if bad:
        raise IllegalActionError(
            Reason.BAD_DECK, f"a deck order is a sequence of Cards; found {bad[0]!r}"
        )
    deck = set(rules.deck)
    counts = Counter(items)
    seen = set(counts)
    duplicates = sorted(c for c, n in counts.items() if n > 1)
    missing = sorted(deck - seen)
    extra = sorted(seen - deck)
    if duplicates:
        problems.append("duplicated " + " ".join(map(str, duplicates)))
    if missing:
        problems.append("missing " + " ".join(map(str, missing)))
    if extra:
        problems.append("not in this deck " + " ".join(map(str, extra)))
    if problems:
        raise IllegalActionError(
            Reason.BAD_DECK,
            f"the deck order must hold each of the {len(deck)} cards once (R1.1): "
            + "; ".join(problems),
        )
    return [c.index for c in items]


def _distribute(
    order: Sequence[int], dealer: int, rules: Rules
) -> tuple[tuple[int, ...], int, int]:
    """Deal a deck order by R2.2: the hands, the dead hand (P2, else 0) and the kitty.

    From the dealer's left: 3 cards to each hand, kitty, 4 to each, kitty, 3 to
    each, kitty; the kitty takes 1 card each time (2, 1, 2 with the five-card
    kitty of V-45). With two players the dead hand is dealt between the
    non-dealer and the dealer (P2).
    """
    players = rules.players
    slots = [(dealer + step) % players for step in range(1, players + 1)]
    if rules.has_dead_hand:
        slots.insert(1, players)  # the dead hand's slot
    masks = [0] * (players + 1)
    kitty_packets = (2, 1, 2) if rules.kitty_size == 5 else (1, 1, 1)
    kitty = 0
    position = 0
    for packet, kitty_packet in zip((3, 4, 3), kitty_packets, strict=True):
        for slot in slots:
            for index in order[position : position + packet]:
                masks[slot] |= 1 << index
            position += packet
        for index in order[position : position + kitty_packet]:
            kitty |= 1 << index
        position += kitty_packet
    return tuple(masks[:players]), masks[players], kitty


# -- bidding -----------------------------------------------------------------


@lru_cache(maxsize=1024)
def _legal_calls(rules: Rules, high: Call | None, first_call: bool) -> tuple[Call, ...]:
    """Legal calls, pass first then up the ladder, over a standing bid (R3, V-… options).

    With sans-kitty bids (V-SANS-KITTY) each bid is followed by its sans-kitty form.
    """
    ladder = rules.ladder
    floor = ladder.position(high) if high is not None else -1
    calls: list[Call] = [PASS]
    for call in ladder.calls:
        if ladder.position(call) <= floor:
            continue
        if call.kind is CallKind.MISERE and rules.misere_needs_seven and not _seven(high):
            continue
        if call.kind is CallKind.BLIND_MISERE and not first_call:
            continue
        calls.append(call)
        if rules.sans_kitty:
            calls.append(attrs.evolve(call, sans_kitty=True))
    return tuple(calls)


def _seven(high: Call | None) -> bool:
    """R3.4: someone has bid seven: the standing bid is a trick bid of 7 or more."""
    return high is not None and high.kind is CallKind.BID and (high.tricks or 0) >= 7


def _bid_options(c: Core) -> tuple[Call, ...]:
    seat = c.to_act
    assert seat is not None
    high = c.auction[c.high][1] if c.high >= 0 else None
    return _legal_calls(c.rules, high, not c.called >> seat & 1)


def _apply_call(c: Core, call: Call) -> Core:
    """One call of the auction (R3; V-AMERICAN, V-SELF-RAISE, V-REBID)."""
    seat = c.to_act
    assert seat is not None and c.dealer is not None
    bit = 1 << seat
    rules = c.rules
    players = rules.players
    is_pass = call.kind is CallKind.PASS
    passed = c.passed | bit if is_pass else c.passed
    passes = c.passes + 1 if is_pass else 0
    high = c.high if is_pass else len(c.auction)
    over = False  # the auction ends now (or the bidder is offered a raise)
    nxt = (seat + 1) % players
    if rules.single_round:  # V-AMERICAN: one call each, the dealer last
        over = seat == c.dealer
    elif rules.rebid:  # V-REBID: nobody is skipped; a full round of passes ends it
        over = passes == players if high < 0 else passes >= players - 1
    else:
        remaining = ((1 << players) - 1) & ~passed
        over = remaining & (remaining - 1) == 0 and (high >= 0 or remaining == 0)
        while not over and passed >> nxt & 1:
            nxt = (nxt + 1) % players
    c = c._replace(
        auction=(*c.auction, (seat, call)),
        passed=passed,
        called=c.called | bit,
        passes=passes,
        high=high,
        to_act=nxt,
        actions=(*c.actions, call),
    )
    if not over:
        return c
    if high < 0:
        return _all_passed(c)
    if rules.single_round:
        return _win_auction(c)
    return _offer_raise(c) or _win_auction(c)  # every other player has passed (R3.8)


def _offer_raise(c: Core) -> Core | None:
    """V-SELF-RAISE: when all others have passed, the bidder may raise once."""
    bidder = c.auction[c.high][0]
    if not c.rules.self_raise or c.raised >> bidder & 1:
        return None
    bit = 1 << bidder
    # ``passes`` is kept: with V-REBID a pass now completes the round and ends the auction
    return c._replace(to_act=bidder, raised=c.raised | bit, passed=c.passed & ~bit)


def _win_auction(c: Core) -> Core:
    """The auction is over: the highest bid is the contract (R3.8); on to the kitty (R4)."""
    contractor, contract = c.auction[c.high]
    out = 0
    if contract.is_misere:  # the misère contractor's partners sit out (R4.2)
        for partner in c.rules.partners(contractor):
            out |= 1 << partner
    c = c._replace(
        to_act=contractor,
        contract=contract,
        contractor=contractor,
        ctx=context(contract.trump),
        sitting_out=out,
    )
    if contract.sans_kitty:  # V-SANS-KITTY: the kitty stays unseen and out of play
        return _after_exchange(c)
    return c._replace(phase=Phase.DISCARD)


def _all_passed(c: Core) -> Core:
    """Everyone passed: a throw-in (R3.9), or No Trumps without a kitty (V-ALL-PASS)."""
    rules = c.rules
    assert c.dealer is not None
    if rules.all_pass_no_trumps:
        return c._replace(
            phase=Phase.PLAY, to_act=(c.dealer + 1) % rules.players, ctx=context(None)
        )
    result = HandResult(
        number=c.hand_number,
        dealer=c.dealer,
        contract=None,
        contractor=None,
        tricks=(0,) * len(rules.sides),
        made=None,
        changes=(0,) * len(rules.sides),
        scores=c.scores,
    )
    return c._replace(
        phase=Phase.DEAL,
        dealer=c.dealer if rules.same_dealer else (c.dealer + 1) % rules.players,
        to_act=None,
        last_hand=result,
        history=(*c.history, (c.dealer, c.deck, c.actions)),
    )


# -- kitty, partner and nomination -------------------------------------------


def _apply_discard(c: Core, action: Discard) -> Core | None:
    """The kitty exchange (R4.1): the contractor puts any kitty-size cards of hand + kitty down."""
    seat = c.contractor
    assert seat is not None
    pool = c.hands[seat] | c.kitty
    mask = 0
    for card in action.cards:
        if type(card) is not Card:
            return None
        mask |= 1 << card.index
    if mask.bit_count() != len(action.cards) or len(action.cards) != c.rules.kitty_size:
        return None
    if mask & ~pool:
        return None
    hands = (*c.hands[:seat], pool & ~mask, *c.hands[seat + 1 :])
    return _after_exchange(
        c._replace(hands=hands, kitty=0, discards=mask, actions=(*c.actions, action))
    )


def _after_exchange(c: Core) -> Core:
    """After the kitty: the five-player partner call (P5, not in misère), then on."""
    contract = c.contract
    assert contract is not None
    if c.rules.calls_partner and not contract.is_misere:
        return c._replace(phase=Phase.PARTNER)
    return _after_partner(c)


def _after_partner(c: Core) -> Core:
    """The nomination step of every NT-family contract (R4.3, R7.1, V-NO-NOMINATION), then play.

    Every No Trumps or misère contract passes through it, whether or not the
    contractor holds the Joker, so that the phase and the turn reveal nothing:
    not nominating is silent (R7.1).
    """
    contract = c.contract
    assert contract is not None
    if contract.is_no_trumps_family and c.rules.joker_nomination:
        return c._replace(phase=Phase.NOMINATE)
    return _start_play(c)


def _nomination_options(c: Core) -> tuple[Nominate, ...]:
    """R7.1: the four suits and no nomination with the Joker in hand; without it, only none."""
    contractor = c.contractor
    assert contractor is not None
    return _NOMINATIONS if c.hands[contractor] & _JOKER_BIT else _NO_NOMINATION


def _start_play(c: Core) -> Core:
    """The first lead: the contractor (R5.1), or the eldest active player (V-ELDEST-LEADS)."""
    rules = c.rules
    leader = c.contractor
    if rules.eldest_leads or leader is None:
        assert c.dealer is not None
        leader = (c.dealer + 1) % rules.players
        while c.sitting_out >> leader & 1:
            leader = (leader + 1) % rules.players
    return c._replace(phase=Phase.PLAY, to_act=leader)


def _discard_options(c: Core) -> tuple[Discard, ...]:
    seat = c.contractor
    assert seat is not None
    pool = list(index_tuple(c.hands[seat] | c.kitty))
    size = c.rules.kitty_size
    return tuple(map(_DISCARDS.__getitem__, itertools.combinations(pool, size)))


class _DiscardTable(dict[tuple[int, ...], Discard]):
    """Every Discard seen so far, by its card indices in order; built on first sight."""

    def __missing__(self, combo: tuple[int, ...]) -> Discard:
        # the indices are already in card order: skip the converter (a hot path)
        action = object.__new__(Discard)
        object.__setattr__(action, "cards", tuple(CARDS[i] for i in combo))
        if len(self) >= _DISCARDS_LIMIT:
            self.clear()
        self[combo] = action
        return action


_DISCARDS: Final = _DiscardTable()


def _apply_nomination(c: Core, action: Nominate) -> Core:
    suit = action.suit
    return _start_play(
        c._replace(joker_suit=suit, ctx=context(None, suit), actions=(*c.actions, action))
    )


def _partner_options(c: Core) -> tuple[CallPartner, ...]:
    """P5: every card but the Joker and the contractor's own (or, by seat, every other seat)."""
    contractor = c.contractor
    assert contractor is not None
    rules = c.rules
    if rules.partner_by_seat:
        return tuple(_PARTNER_SEATS[s] for s in range(rules.players) if s != contractor)
    own = c.hands[contractor] | _JOKER_BIT
    return tuple(_PARTNER_CARDS[card.index] for card in rules.deck if not own >> card.index & 1)


def _apply_partner(c: Core, action: CallPartner) -> Core | None:
    """P5: the called card's holder becomes the secret partner; none if it is out of play."""
    if action not in _partner_options(c):
        return None
    if action.seat is not None:
        partner, card = action.seat, -1
    else:
        assert action.card is not None
        card = action.card.index
        holders = [s for s, hand in enumerate(c.hands) if hand >> card & 1]
        partner = holders[0] if holders else -1
    return _after_partner(
        c._replace(partner=partner, partner_card=card, actions=(*c.actions, action))
    )


# -- play --------------------------------------------------------------------


def _play_options(c: Core) -> tuple[int, int]:
    """The playable cards of the seat to act, and the suits a Joker lead may name (R5.3, R7)."""
    seat = c.to_act
    assert seat is not None and c.ctx is not None
    contract = c.contract
    return playable(
        c.hands[seat],
        c.trick == (),
        c.led,
        c.suits_led,
        c.ctx,
        c.rules,
        contract is not None and contract.is_misere,
    )


def playable(  # noqa: PLR0917 - the hot path: positional arguments are the fastest
    hand: int,
    leading: bool,
    led: int,
    suits_led: int,
    ctx: Context,
    rules: Rules,
    misere: bool,
) -> tuple[int, int]:
    """The playable cards of a hand (a mask), and the suits a Joker lead may name.

    ``led`` is the led suit (``-1`` when a suitless Joker was led to the last
    trick), ``suits_led`` the mask of suits led so far. The second value is
    ``-1`` when a Joker in the mask is played without naming a suit, otherwise
    the mask of nameable suits (R7.4). The one place the rules of R5.3 and R7
    decide what may be played.
    """
    if leading:
        if hand & _JOKER_BIT and ctx.trump is None and ctx.joker_suit is None:
            if hand == _JOKER_BIT:  # the last trick: led with no suit named (R7.5)
                return hand, -1
            if rules.joker_lead_last:  # V-JOKER-LEAD-LAST
                return hand & ~_JOKER_BIT, -1
            if rules.joker_name_any:  # V-JOKER-NAME-ANY
                return hand, _ALL_SUITS
            unled = _ALL_SUITS & ~suits_led
            if unled:
                return hand, unled
            return hand & ~_JOKER_BIT, -1  # every suit has been led (R7.5)
        return hand, -1
    if led < 0:
        return hand, -1
    follow = hand & ctx.suit_masks[led]
    if follow:
        return follow, -1
    if misere and hand & _JOKER_BIT and ctx.trump_mask == _JOKER_BIT:
        return _JOKER_BIT, -1  # R7.3: the void misère player must play the Joker
    return hand, -1


_I_HANDS: Final = Core._fields.index("hands")
_I_TO_ACT: Final = Core._fields.index("to_act")
_I_TRICK: Final = Core._fields.index("trick")
_I_LED: Final = Core._fields.index("led")
_I_TRICKS: Final = Core._fields.index("tricks")
_I_WON: Final = Core._fields.index("won")
_I_SUITS_LED: Final = Core._fields.index("suits_led")
_I_ACTIONS: Final = Core._fields.index("actions")


def _apply_play(state: GameState, c: Core, action: Play) -> Core | None:
    """Play a card (R5, R7); ``None`` when it is not legal. The hot path: plain tuples only."""
    card = action.card
    if type(card) is not Card:
        return None
    index = card.index
    bit = 1 << index
    opts = state._opts
    if opts is None:
        opts = _options(state, c)
    if not bit & opts[0]:
        return None
    suit = action.suit
    if index == JOKER_INDEX and opts[1] >= 0:
        if suit is None or type(suit) is not Suit or not opts[1] >> suit & 1:
            return None
    elif suit is not None:
        return None
    seat: int = c.to_act  # type: ignore[assignment]  # PLAY phase: always a seat
    ctx: Context = c.ctx  # type: ignore[assignment]  # PLAY phase: always a context
    values = list(c)
    hands = list(c.hands)
    hands[seat] ^= bit
    values[_I_HANDS] = tuple(hands)
    values[_I_ACTIONS] = (*c.actions, action)
    trick = c.trick
    if trick:
        led = c.led
        trick = (*trick, (seat, index))
    else:
        trick = ((seat, index),)
        led = values[_I_LED] = int(suit) if suit is not None else ctx.suit_of(index)
        if led >= 0:
            values[_I_SUITS_LED] = c.suits_led | 1 << led
    out = c.sitting_out
    players = len(hands)
    if len(trick) < players - out.bit_count():
        nxt = (seat + 1) % players
        while out >> nxt & 1:
            nxt = (nxt + 1) % players
        values[_I_TRICK] = trick
        values[_I_TO_ACT] = nxt
        return _new_core(Core, values)
    winner = trick[ctx.winner([i for _, i in trick], led)][0]
    won = list(c.won)
    won[winner] += 1
    values[_I_WON] = tuple(won)
    values[_I_TRICK] = ()
    values[_I_LED] = -1
    tricks = values[_I_TRICKS] = (*c.tricks, (trick, winner, led))
    values[_I_TO_ACT] = winner
    done = _new_core(Core, values)
    if len(tricks) == TRICKS_PER_HAND or (winner == c.contractor and _misere_ends(c)):
        return _score(done)
    return done


def _misere_ends(c: Core) -> bool:
    """R5.5: a misère hand ends when the contractor wins a trick (not with V-MISERE-PLAYOUT)."""
    contract = c.contract
    return contract is not None and contract.is_misere and not c.rules.misere_playout


def _options(state: GameState, c: Core) -> tuple[int, int]:
    """:func:`_play_options`, cached on the state (it never changes)."""
    opts = state._opts
    if opts is None:
        opts = _play_options(c)
        _set_opts(state, opts)
    return opts


def _score(c: Core) -> Core:
    """Score a finished hand (R8, P-forms, V-… options) and decide the end of the game (R9)."""
    rules = c.rules
    contract, contractor, dealer = c.contract, c.contractor, c.dealer
    assert dealer is not None
    side_tricks = tuple(sum(c.won[s] for s in seats) for seats in rules.sides)
    contracting: tuple[int, ...] = ()
    made: bool | None = None
    partner_side = None
    if contract is not None and contractor is not None:
        side = rules.side_of(contractor)
        if c.partner >= 0 and rules.side_of(c.partner) != side:
            partner_side = rules.side_of(c.partner)
        contracting = (side,) if partner_side is None else (side, partner_side)
        made = contract_made(contract, sum(side_tricks[s] for s in contracting))
        changes = score_hand(
            contract, side, side_tricks, rules=rules, scores=c.scores, partner=partner_side
        )
    else:  # V-ALL-PASS: every side scores its tricks
        changes = score_hand(None, None, side_tricks, rules=rules, scores=c.scores)
    scores = tuple(s + d for s, d in zip(c.scores, changes, strict=True))
    result = game_result(contracting, made, scores, rules)
    hand = HandResult(
        number=c.hand_number,
        dealer=dealer,
        contract=contract,
        contractor=contractor,
        tricks=side_tricks,
        made=made,
        changes=changes,
        scores=scores,
        partner=c.partner if c.partner >= 0 else None,
        all_pass=contract is None,
    )
    return c._replace(
        phase=Phase.GAME_OVER if result is not None else Phase.DEAL,
        dealer=dealer if result is not None else (dealer + 1) % rules.players,
        scores=scores,
        to_act=None,
        last_hand=hand,
        result=result,
        history=(*c.history, (dealer, c.deck, c.actions)),
    )


# -- the public surface ------------------------------------------------------


def apply(state: GameState, action: Action, *, seat: int | None = None) -> GameState:
    """The state after ``action`` by the seat to act. The input is never changed.

    Pass ``seat`` to check that the action comes from the seat whose turn it
    is (a server validating a client's move). An illegal action raises
    :class:`~fivehundred.IllegalActionError` with a :class:`~fivehundred.Reason`.

    >>> import fivehundred as fh
    >>> state = fh.deal(fh.new_game(dealer=3), seed=7)
    >>> fh.apply(state, fh.parse_call("7H"), seat=0).high_bid
    Call.parse('7H')
    >>> fh.apply(state, fh.PASS, seat=2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    fivehundred.errors.IllegalActionError: it is seat 0's turn, not seat 2's (R3.1: ...)
    """
    c = _core(state)
    if seat is None or seat == c.to_act:
        phase = c.phase
        new: Core | None = None
        if phase is Phase.PLAY and type(action) is Play:
            new = _apply_play(state, c, action)
        elif phase is Phase.BIDDING and type(action) is Call:
            if action in _bid_options(c):
                new = _apply_call(c, action)
        elif phase is Phase.DISCARD and type(action) is Discard:
            new = _apply_discard(c, action)
        elif phase is Phase.NOMINATE and type(action) is Nominate:
            if action in _nomination_options(c):
                new = _apply_nomination(c, action)
        elif phase is Phase.PARTNER and type(action) is CallPartner:
            new = _apply_partner(c, action)
        if new is not None:
            return GameState._make(new)
    raise _problem(c, action, seat) or _unexplained(c, action)


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every legal action of the seat to act, in a canonical order.

    Bidding: pass, then bids up the ladder; discard: every choice of cards;
    partner call (P5): cards in card order, or seats; nomination: the four
    suits, then no nomination (``DECLINE``), or only ``DECLINE`` when the
    contractor does not hold the Joker (R7.1); play: cards in card order (a
    Joker lead once per nameable suit). Empty while waiting for a deal and
    when the game is over.
    """
    c = _core(state)
    phase = c.phase
    if phase is Phase.PLAY:
        return _plays(_options(state, c))
    if phase is Phase.BIDDING:
        return _bid_options(c)
    if phase is Phase.DISCARD:
        return _discard_options(c)
    if phase is Phase.NOMINATE:
        return _nomination_options(c)
    if phase is Phase.PARTNER:
        return _partner_options(c)
    return ()


def legal_bids(state: GameState) -> tuple[Call, ...]:
    """The legal calls of the seat to act (pass first); empty outside the auction."""
    c = _core(state)
    return _bid_options(c) if c.phase is Phase.BIDDING else ()


def legal_plays(state: GameState) -> tuple[Play, ...]:
    """The legal card plays of the seat to act; empty outside card play."""
    c = _core(state)
    return _plays(_options(state, c)) if c.phase is Phase.PLAY else ()


_PLAYS_BY_MASK: dict[int, tuple[Play, ...]] = {}
_PLAYS_CACHE_LIMIT: Final = 1 << 18


def _plays(options: tuple[int, int]) -> tuple[Play, ...]:
    """The Play actions for a mask of playable cards (cached by mask: masks recur)."""
    mask, nameable = options
    if nameable < 0:
        plays = _PLAYS_BY_MASK.get(mask)
        if plays is None:
            if len(_PLAYS_BY_MASK) >= _PLAYS_CACHE_LIMIT:
                _PLAYS_BY_MASK.clear()
            plays = _PLAYS_BY_MASK[mask] = tuple(_PLAYS[i] for i in index_tuple(mask))
        return plays
    listed = [_PLAYS[i] for i in index_tuple(mask & ~_JOKER_BIT)]
    listed.extend(_JOKER_LEADS[s] for s in range(4) if nameable >> s & 1)
    return tuple(listed)


def is_legal(state: GameState, action: object, *, seat: int | None = None) -> bool:
    """Whether ``action`` is legal now (for ``seat``, if given). Never raises."""
    try:
        return _problem(_core(state), action, seat) is None
    except Exception:
        return False


def check_action(state: GameState, action: object, *, seat: int | None = None) -> None:
    """Raise the :class:`~fivehundred.IllegalActionError` that :func:`apply` would raise.

    >>> import fivehundred as fh
    >>> state = fh.deal(fh.new_game(dealer=3), seed=7)
    >>> try:
    ...     fh.check_action(state, fh.MISERE)
    ... except fh.IllegalActionError as err:
    ...     print(err.reason.name)
    MISERE_NEEDS_SEVEN
    """
    problem = _problem(_core(state), action, seat)
    if problem is not None:
        raise problem


# -- explaining illegal actions -----------------------------------------------


def _err(reason: Reason, message: str, seat: int | None) -> IllegalActionError:
    return IllegalActionError(reason, message, seat=seat)


def _unexplained(c: Core, action: object) -> IllegalActionError:  # pragma: no cover
    return _err(Reason.NOT_AN_ACTION, f"{action!r} is not legal now", c.to_act)


def _problem(c: Core, action: object, seat: int | None) -> IllegalActionError | None:
    """Why ``action`` is illegal in ``c``, or ``None`` when it is legal."""
    if not isinstance(action, (Call, Discard, Nominate, CallPartner, Play)):
        return _err(
            Reason.NOT_AN_ACTION,
            f"{action!r} is not an action: expected a Call, Discard, Nominate, CallPartner or Play",
            seat,
        )
    phase = c.phase
    if phase is Phase.GAME_OVER:
        return _err(Reason.GAME_OVER, "the game is over: no more actions (R9)", seat)
    if phase is Phase.DEAL:
        return _err(
            Reason.WRONG_PHASE, "the next hand is not dealt yet: call fivehundred.deal()", seat
        )
    actor = c.to_act
    assert actor is not None
    players = c.rules.players
    if seat is not None and (
        not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players
    ):
        return _err(
            Reason.NOT_YOUR_TURN,
            f"{seat!r} is not a seat at this table: seats are 0 to {players - 1}",
            None,
        )
    turn_rule = _TURN_RULES[phase]
    if seat is not None and seat != actor:
        if phase is Phase.BIDDING and c.passed >> seat & 1 and not c.rules.rebid:
            return _err(
                Reason.ALREADY_PASSED,
                f"seat {seat} has passed and may not call again in this auction (R3.7)",
                seat,
            )
        return _err(
            Reason.NOT_YOUR_TURN,
            f"it is seat {actor}'s turn, not seat {seat}'s ({turn_rule})",
            seat,
        )
    expected = {
        Phase.BIDDING: (Call, "call (bid or pass)"),
        Phase.DISCARD: (Discard, "discard from the kitty"),
        Phase.NOMINATE: (Nominate, "nominate the Joker's suit or make no nomination"),
        Phase.PARTNER: (CallPartner, "call a partner"),
        Phase.PLAY: (Play, "play a card"),
    }[phase]
    if type(action) is not expected[0]:
        over = "the auction is over (R3.8); " if isinstance(action, Call) else ""
        return _err(
            Reason.WRONG_PHASE,
            f"seat {actor} must {expected[1]} now, not {_describe(action)}: "
            f"{over}{turn_rule}; the order of a hand is R4.3",
            actor,
        )
    if isinstance(action, Call):
        return _call_problem(c, action, actor)
    if isinstance(action, Discard):
        return _discard_problem(c, action, actor)
    if isinstance(action, Nominate):
        if action.suit is not None and type(action.suit) is not Suit:
            return _err(
                Reason.NOT_AN_ACTION, f"{action.suit!r} is not a suit to nominate (R7.1)", actor
            )
        if action.suit is not None and not c.hands[actor] & _JOKER_BIT:
            return _err(
                Reason.NOMINATION_NOT_ALLOWED,
                f"seat {actor} does not hold the Joker and can only make no nomination (R7.1)",
                actor,
            )
        return None
    if isinstance(action, CallPartner):
        return _partner_problem(c, action, actor)
    return _play_problem(c, action, actor)


def _partner_problem(c: Core, action: CallPartner, seat: int) -> IllegalActionError | None:
    if action in _partner_options(c):
        return None
    rules = c.rules
    if rules.partner_by_seat:
        why = f"name another seat (0 to {rules.players - 1}), not {action}"
    elif action.seat is not None or type(action.card) is not Card:
        why = f"call a card, not {action}"
    elif action.card.is_joker:
        why = "call a card other than the Joker"
    elif c.hands[seat] >> action.card.index & 1:
        why = f"call a card it does not hold, not {action.card}"
    else:
        why = f"call a card of the deck, not {action.card}"
    return _err(Reason.PARTNER_NOT_ALLOWED, f"seat {seat} must {why} (P5)", seat)


#: The rules that say whose turn it is, by phase (cited in NOT_YOUR_TURN messages).
_TURN_RULES: Final = {
    Phase.BIDDING: "R3.1: the auction goes clockwise, skipping players who passed",
    Phase.DISCARD: "R4.1: the contractor exchanges with the kitty",
    Phase.PARTNER: "P5: the contractor calls a partner",
    Phase.NOMINATE: "R7.1: the contractor nominates the Joker's suit or makes no nomination",
    Phase.PLAY: "R5.1: the contractor leads, each trick's winner leads the next",
}


def _core(state: object) -> Core:
    """The core of a state, or a clear TypeError for anything else."""
    try:
        return state._c  # type: ignore[attr-defined, no-any-return]  # checked by the except
    except AttributeError:
        raise TypeError(
            f"a fivehundred GameState is needed (from new_game, deal or apply), not {state!r}"
        ) from None


def _describe(action: Call | Discard | Nominate | CallPartner | Play) -> str:
    if isinstance(action, Call):
        return f"call {action}"
    if isinstance(action, Play):
        return f"play {action.card}"
    return str(action)


def _call_problem(c: Core, call: Call, seat: int) -> IllegalActionError | None:
    if call in _bid_options(c):
        return None
    rules = c.rules
    if call.sans_kitty and not rules.sans_kitty:
        return _err(
            Reason.CALL_NOT_ALLOWED,
            f"seat {seat} called {call}: sans-kitty bids are not allowed by these rules "
            "(V-SANS-KITTY)",
            seat,
        )
    if call not in rules.ladder:
        return _err(
            Reason.CALL_NOT_ALLOWED,
            f"seat {seat} called {call}, which these rules do not use",
            seat,
        )
    first_call = not c.called >> seat & 1
    if call.kind is CallKind.BLIND_MISERE and not first_call:
        return _err(
            Reason.BLIND_MISERE_NOT_FIRST_CALL,
            f"seat {seat} called BM: blind misère is only allowed as a player's first call "
            "of the auction (R3.6)",
            seat,
        )
    high = c.auction[c.high][1] if c.high >= 0 else None
    if high is not None and rules.ladder.position(call) <= rules.ladder.position(high):
        bidder = c.auction[c.high][0]
        same = rules.ladder.position(call) == rules.ladder.position(high)
        why = "is on the same rung as" if same else "is not higher than"
        return _err(
            Reason.BID_TOO_LOW,
            f"seat {seat} called {call}, which {why} the standing bid {high} by seat {bidder}; "
            "a bid must be higher on the ladder (R3.1, R3.3)",
            seat,
        )
    if call.kind is CallKind.MISERE and rules.misere_needs_seven:
        standing = "there is no bid yet" if high is None else f"the standing bid is {high}"
        return _err(
            Reason.MISERE_NEEDS_SEVEN,
            f"seat {seat} called M, but misère needs a standing bid of seven and {standing} (R3.4)",
            seat,
        )
    return _err(Reason.CALL_NOT_ALLOWED, f"seat {seat} may not call {call} now", seat)


def _discard_problem(c: Core, action: Discard, seat: int) -> IllegalActionError | None:
    cards = action.cards
    need = c.rules.kitty_size
    if any(type(card) is not Card for card in cards):
        return _err(Reason.NOT_AN_ACTION, "a discard is made of Cards", seat)
    if len(set(cards)) != len(cards) or len(cards) != need:
        return _err(
            Reason.WRONG_DISCARD_COUNT,
            f"seat {seat} must discard exactly {need} different cards, not "
            f"{' '.join(map(str, cards)) or 'none'} (R4.1)",
            seat,
        )
    pool = c.hands[seat] | c.kitty
    missing = [card for card in cards if not pool >> card.index & 1]
    if missing:
        return _err(
            Reason.CARD_NOT_IN_HAND,
            f"seat {seat} cannot discard {' '.join(map(str, missing))}: not among its hand "
            "and the kitty (R4.1)",
            seat,
        )
    return None


_SUIT_NAMES: Final = ("spades", "clubs", "diamonds", "hearts")


def _play_problem(c: Core, action: Play, seat: int) -> IllegalActionError | None:
    card = action.card
    if type(card) is not Card:
        return _err(Reason.NOT_AN_ACTION, f"{card!r} is not a Card", seat)
    if action.suit is not None and type(action.suit) is not Suit:
        return _err(Reason.NOT_AN_ACTION, f"{action.suit!r} is not a suit", seat)
    hand = c.hands[seat]
    if not hand >> card.index & 1:
        return _err(Reason.CARD_NOT_IN_HAND, f"seat {seat} does not hold {card}", seat)
    ctx = c.ctx
    assert ctx is not None
    mask, nameable = _play_options(c)
    free_joker = ctx.trump is None and ctx.joker_suit is None
    leading = not c.trick
    if card.is_joker and free_joker and leading:
        if nameable < 0 and mask & _JOKER_BIT:
            if action.suit is not None:
                return _err(
                    Reason.JOKER_SUIT_NOT_ALLOWED,
                    f"seat {seat} leads the Joker to the last trick: no suit is named (R7.5)",
                    seat,
                )
            return None
        if not mask & _JOKER_BIT:
            return _err(
                Reason.JOKER_LEAD_TOO_EARLY,
                f"seat {seat} may not lead the Joker before the last trick (V-JOKER-LEAD-LAST)"
                if c.rules.joker_lead_last
                else f"seat {seat} may not lead the Joker: all four suits have been led, so it "
                "may be led only to the last trick (R7.5)",
                seat,
            )
        if action.suit is None:
            named = ", ".join(_SUIT_NAMES[s] for s in range(4) if nameable >> s & 1)
            return _err(
                Reason.JOKER_SUIT_REQUIRED,
                f"seat {seat} leads the Joker and must name a suit not yet led ({named}) (R7.4)",
                seat,
            )
        if not nameable >> action.suit & 1:
            return _err(
                Reason.JOKER_SUIT_ALREADY_LED,
                f"seat {seat} leads the Joker naming {_SUIT_NAMES[action.suit]}, which has "
                "already been led this hand; name a suit not yet led (R7.4)",
                seat,
            )
        return None
    if action.suit is not None:
        if not card.is_joker:
            why = f"{card} is not the Joker"
        elif not leading:
            why = "a suit is named only when leading the Joker"
        else:
            why = "the Joker already has a suit in this contract"
        return _err(
            Reason.JOKER_SUIT_NOT_ALLOWED,
            f"seat {seat} played {card} naming {_SUIT_NAMES[action.suit]}, but {why} (R7.4)",
            seat,
        )
    if mask >> card.index & 1:
        return None
    led = c.led
    follow = hand & ctx.suit_masks[led]
    if follow:
        held = " ".join(str(x) for x in cards_from_mask(follow))
        note = _bower_note(c, ctx, follow, led)
        what = "the Joker never follows suit here, so" if card.is_joker else "so"
        return _err(
            Reason.MUST_FOLLOW_SUIT,
            f"seat {seat} holds {_SUIT_NAMES[led]} ({held}){note}, {what} it must follow "
            f"{_SUIT_NAMES[led]} but played {card} (R5.3{', R7.3' if card.is_joker else ''})",
            seat,
        )
    return _err(
        Reason.MUST_PLAY_JOKER,
        f"seat {seat} has no {_SUIT_NAMES[led]} and holds the Joker: in misère it must play "
        f"the Joker, not {card} (R7.3)",
        seat,
    )


def _bower_note(c: Core, ctx: Context, follow: int, led: int) -> str:
    if ctx.trump is None or led != ctx.trump:
        return ""
    notes = []
    left = Card(Rank.JACK, ctx.trump.partner)
    if follow >> left.index & 1:
        notes.append(f"the left bower {left} counts as {_SUIT_NAMES[led][:-1]}")
    if follow & _JOKER_BIT:
        notes.append("the Joker is a trump")
    return f" — {', '.join(notes)}" if notes else ""
