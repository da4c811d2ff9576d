"""The rule engine: every rule of a hand written once, on small integers.

This module is the one implementation of the game behind :func:`fivehundred.apply`,
:func:`fivehundred.playout` and the computer players: the deal (R2), the auction
(R3), the kitty exchange (R4), the partner call (P5), the Joker nomination
(R4.3, R7.1), card play (R5, R7: the legal mask, following suit, every Joker
rule, the trick winner, the next seat and leader, the early end of a misère)
and the hand's end (R8, R9 through :mod:`fivehundred.scoring`).

It is plain typed Python that mypyc compiles (``fivehundred.COMPILED``); the same
source is the pure build. Inside, a card is its *position* in the deck of the
table (0 … len(deck) - 1, in card order), a set of cards is a bit mask of
positions, and a state is a :class:`GameState` of about a dozen fields that
points to a :class:`Hand` block shared by every state of one phase of a hand.

Nothing here is public API: the public modules (``engine``, ``state``,
``tricks``, ``playout``) wrap it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, cast

from fivehundred._engine import outcome
from fivehundred._engine.hand import (
    BIDDING,
    DEAL,
    DISCARD,
    NOMINATE,
    OVER,
    PARTNER,
    PLAY,
    Hand,
    raw_result,
    set_contract,
    set_seats,
)
from fivehundred._engine.state import (
    GameState,
    TrickNode,
    find,
    hand_of,
    log_tuple,
    logged,
    pack_trick,
    replace_at,
    won_by,
)
from fivehundred._engine.table import (
    CACHE_LIMIT,
    K_BLIND,
    K_MISERE,
    NOMINATIONS,
    SUITS,
    Table,
    bits,
    nameable,
    playable,
    positions_context,
    table,
)
from fivehundred._engine.verdict import Refused, Verdict
from fivehundred.actions import DECLINE, Action, CallPartner, Discard, Nominate, Play
from fivehundred.calls import PASS, Call
from fivehundred.cards import Card, Suit
from fivehundred.errors import FiveHundredTypeError, Reason
from fivehundred.rules import Rules
from fivehundred.scoring import OUTCOMES, GameResult, HandResult

# -- phases as small integers ----------------------------------------------------


_ONLY_DECLINE: Final = (DECLINE,)


# -- the hand block and the per-action state ---------------------------------------


# -- starting and dealing ----------------------------------------------------------


def new_game(rules: Rules, dealer: int, scores: tuple[int, ...] | None = None) -> GameState:
    """A game waiting for its first deal; ``dealer`` is ``-1`` to leave it to the deal (R2.1);
    ``scores`` are checked starting scores (``None``: 0 each)."""
    h = Hand(table(rules))
    h.rules = rules
    h.dealer = dealer
    if scores is not None:
        h.scores = h.start = scores
    return GameState(h)


def with_scores(
    state: GameState, scores: tuple[int, ...], number: int, last_hand: HandResult | None
) -> GameState:
    """``state`` with other running scores, hand number and last hand (for a sampled deal
    that must look like the game it stands for)."""
    h = state._h.copy()
    h.scores = scores
    h.number = number
    h.last_raw = None if last_hand is None else raw_result(last_hand)
    h.last_obj = last_hand
    new = state._copy()
    new._h = h
    return new


def start_scores(state: GameState) -> tuple[int, ...]:
    """The scores the game of ``state`` started from."""
    return state._h.start


def deal(state: GameState, order: list[int], dealer: int) -> GameState:
    """Deal the positions ``order`` (top card first) from ``dealer`` (R2.2)."""
    old = state._h
    t = old.t
    h = Hand(t)
    h.phase = BIDDING
    h.dealer = dealer
    h.number = old.number + 1
    h.scores = old.scores
    h.start = old.start
    h.rules = old.rules
    h.history = old.history
    h.last_raw = old.last_raw
    h.last_obj = old.last_obj
    h.order = tuple(order)
    players = t.players
    masks: list[int] = []  # the seats, then the dead hand (P2), then the kitty
    for dealt in t.dealt_to[dealer]:
        mask = 0
        for at in dealt:
            mask |= 1 << order[at]
        masks.append(mask)
    kitty = masks[players + 1]
    h.kitty = kitty
    h.dead = masks[players]
    s = GameState(h, (dealer + 1) % players, tuple(masks[:players]))
    s._legal = legal_calls(s)
    return s


def deal_from(state: GameState, source: random.Random) -> GameState:
    """Deal the next hand from a random source: the first dealer too, when the game left
    it to chance (R2.1), then the deck order (R2.3)."""
    t = state._h.t
    dealer = state._h.dealer
    if dealer < 0:
        dealer = source.randrange(t.players)
    return deal(state, shuffled(t, source), dealer)


def shuffled(t: Table, source: random.Random) -> list[int]:
    """A random deck order (R2.3): ``source.shuffle`` of the positions.

    For a plain ``random.Random`` the shuffle is done here, draw for draw as the
    standard library does it (``_randbelow`` by ``getrandbits``), so every seed deals
    the same cards in both builds, only faster when compiled; other sources shuffle
    themselves.
    """
    order = list(range(t.size))
    if type(source) is not random.Random:
        source.shuffle(order)
        return order
    draw = source.getrandbits
    for i in range(len(order) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = draw(k)
        while j >= n:
            j = draw(k)
        order[i], order[j] = order[j], order[i]
    return order


# -- the auction (R3) ---------------------------------------------------------------


def _calls_for(t: Table, high_bid: int, first: bool) -> tuple[tuple[Call, ...], tuple[int, ...]]:
    """Legal calls over a standing bid (pass first, then up the ladder) and their bid indices."""
    key = (high_bid + 1) * 2 + (1 if first else 0)
    found = t.call_cache.get(key)
    if found is not None:
        return found
    floor = t.bid_rung[high_bid] if high_bid >= 0 else -1
    seven = high_bid >= 0 and t.bid_seven[high_bid]
    calls: list[Call] = [PASS]
    index: list[int] = [-1]
    for i in range(len(t.bids)):
        if t.bid_rung[i] <= floor:
            continue
        kind = t.bid_kind[i]
        if kind == K_MISERE and t.misere_needs_seven and not seven:
            continue  # R3.4
        if kind == K_BLIND and not first:
            continue  # R3.6
        calls.append(t.bids[i])
        index.append(i)
    found = (tuple(calls), tuple(index))
    t.call_cache[key] = found
    return found


def legal_calls(s: GameState) -> tuple[Call, ...]:
    h = s._h
    return _calls_for(h.t, h.high_bid, not (h.called >> s._to_act) & 1)[0]


def apply_call(s: GameState, at: int) -> GameState:
    """The call at position ``at`` of the seat's legal calls (R3; V-AMERICAN, V-SELF-RAISE,
    V-REBID)."""
    old = s._h
    t = old.t
    seat = s._to_act
    calls, index = _calls_for(t, old.high_bid, not (old.called >> seat) & 1)
    call = calls[at]
    bit = 1 << seat
    players = t.players
    is_pass = at == 0
    h = old.copy()
    h.passed = old.passed | bit if is_pass else old.passed & ~bit
    h.passes = old.passes + 1 if is_pass else 0
    if not is_pass:
        h.high = len(old.auction)
        h.high_bid = index[at]
    h.auction = (*old.auction, (seat, call))
    h.called = old.called | bit
    nxt = (seat + 1) % players
    if t.single_round:  # V-AMERICAN: one call each, the dealer last
        over = seat == old.dealer
    elif t.rebid:  # V-REBID: nobody is skipped; a full round of passes ends it
        over = h.passes == players if h.high < 0 else h.passes >= players - 1
    else:
        remaining = t.seats & ~h.passed
        over = remaining & (remaining - 1) == 0 and (h.high >= 0 or remaining == 0)
        while not over and (h.passed >> nxt) & 1:
            nxt = (nxt + 1) % players
    new = GameState(h, nxt, s._hands, 0, -1, -1, 0, 0, None, logged(s, call), s._nlog + 1)
    if not over:
        new._legal = legal_calls(new)
        return new
    if h.high < 0:
        _all_passed(new)
    elif t.single_round or not _offer_raise(new):
        _win_auction(new)
    else:
        new._legal = legal_calls(new)
    return new


def _offer_raise(s: GameState) -> bool:
    """V-SELF-RAISE: when all others have passed, the bidder may raise once."""
    h = s._h
    bidder = h.auction[h.high][0]
    if not h.t.self_raise or (h.raised >> bidder) & 1:
        return False
    bit = 1 << bidder
    # ``passes`` is kept: with V-REBID a pass now completes the round and ends the auction
    h.raised |= bit
    h.passed &= ~bit
    s._to_act = bidder
    return True


def _win_auction(s: GameState) -> None:
    """The highest bid is the contract (R3.8); on to the kitty (R4)."""
    h = s._h
    contractor, contract = h.auction[h.high]
    h.contract = contract
    set_contract(h, contractor, -1)
    if h.misere:  # the misère contractor's partners sit out (R4.2)
        out = 0
        for partner in h.t.partners[contractor]:
            out |= 1 << partner
        h.out = out
        set_seats(h)
    s._to_act = contractor
    if contract.sans_kitty:  # V-SANS-KITTY: the kitty stays unseen and out of play
        _after_exchange(s)
    else:
        h.phase = DISCARD


def _all_passed(s: GameState) -> None:
    """Everyone passed: a throw-in (R3.9), or No Trumps without a kitty (V-ALL-PASS)."""
    h = s._h
    t = h.t
    if t.all_pass:
        set_contract(h, -1, -1)
        _start_play(s)
        return
    nsides = t.nsides
    zero = (0,) * nsides
    h.last_raw = (h.number, h.dealer, None, None, zero, None, zero, h.scores, None, False)
    h.last_obj = None
    h.history = (*h.history, (h.dealer, h.order, log_tuple(s)))
    h.phase = DEAL
    h.dealer = h.dealer if t.same_dealer else (h.dealer + 1) % t.players
    s._to_act = -1


# -- kitty, partner and nomination (R4, P5, R7.1) ------------------------------------


def discard_mask(s: GameState, action: Discard) -> int:
    """The position mask of a discard when it is legal (R4.1), else -1."""
    h = s._h
    t = h.t
    cards = action.cards
    if len(cards) != t.kitty_size:
        return -1
    mask = 0
    for card in cards:
        if type(card) is not Card:
            return -1
        pos = t.pos_of[card.index]
        if pos < 0:
            return -1
        mask |= 1 << pos
    if mask.bit_count() != len(cards):
        return -1
    if mask & ~(hand_of(s, h.contractor) | h.kitty):
        return -1
    return mask


def apply_discard(s: GameState, action: Discard, mask: int) -> GameState:
    """The kitty exchange (R4.1): the contractor puts ``mask`` face down."""
    old = s._h
    seat = old.contractor
    h = old.copy()
    pool = hand_of(s, seat) | old.kitty
    hands = replace_at(s._hands, seat, pool & ~mask)
    new = GameState(h, seat, hands, 0, -1, -1, 0, 0, None, logged(s, action), s._nlog + 1)
    h.kitty = 0
    h.discards = mask
    _after_exchange(new)
    return new


def legal_discards(s: GameState) -> tuple[Discard, ...]:
    """Every legal discard, in card order (R4.1), from a table built on first sight."""
    h = s._h
    t = h.t
    pool = bits(hand_of(s, h.contractor) | h.kitty)
    if t.kitty_size != 3:
        return tuple(_discards_of(pool, t.kitty_size, t.discard_cache, t.cards))
    out: list[Discard] = []
    n = len(pool)
    size = t.size
    flat = t.discards3
    if not flat:
        flat = _all_discards(t)
    for a in range(n - 2):
        first = pool[a] * size
        for b in range(a + 1, n - 1):
            base = (first + pool[b]) * size
            for c in range(b + 1, n):
                out.append(flat[base + pool[c]])
    return tuple(out)


def _all_discards(t: Table) -> list[Discard]:
    """Every three-card discard of the deck, by ``(a * size + b) * size + c`` for
    positions ``a < b < c`` (built once per table; other slots hold a filler)."""
    size = t.size
    cards = t.cards
    filler = _new_discard(())
    flat = t.discards3  # shared by every table of this deck
    flat.extend([filler] * (size * size * size))
    for a in range(size):
        for b in range(a + 1, size):
            base = (a * size + b) * size
            for c in range(b + 1, size):
                flat[base + c] = _new_discard((cards[a], cards[b], cards[c]))
    return flat


def _discards_of(
    pool: list[int], k: int, cache: dict[int, Discard], cards: tuple[Card, ...]
) -> list[Discard]:
    """Every ``k``-card discard of ``pool`` (positions ascending), in lexicographic order."""
    import itertools

    out: list[Discard] = []
    for combo in itertools.combinations(pool, k):
        key = 0
        for pos in combo:
            key = (key << 6) | pos
        found = cache.get(key)
        if found is None:
            if len(cache) >= CACHE_LIMIT * 4:
                cache.clear()
            found = cache[key] = _new_discard(tuple(cards[pos] for pos in combo))
        out.append(found)
    return out


def _new_discard(cards: tuple[Card, ...]) -> Discard:
    """A Discard of cards already in card order (the converter is skipped: a hot path)."""
    action: Discard = object.__new__(Discard)
    object.__setattr__(action, "cards", cards)
    return action


def _after_exchange(s: GameState) -> None:
    """After the kitty: the five-player partner call (P5, not in misère), then on."""
    h = s._h
    if h.t.calls_partner and not h.misere:
        h.phase = PARTNER
        return
    _after_partner(s)


def _after_partner(s: GameState) -> None:
    """The nomination step of every No-Trumps-family contract (R4.3, R7.1), then play.

    Whether the contractor holds the Joker changes nothing anyone else can see: the
    step comes in every such contract (unless V-NO-NOMINATION), and a contractor
    without the Joker can only make no nomination.
    """
    h = s._h
    contract = h.contract
    if contract is not None and contract.is_no_trumps_family and h.t.nomination:
        h.phase = NOMINATE
        return
    _start_play(s)


def legal_nominations(s: GameState) -> tuple[Nominate, ...]:
    """Nominate a suit or make none while holding the Joker; otherwise none only (R7.1)."""
    h = s._h
    return NOMINATIONS if hand_of(s, h.contractor) & h.t.joker_bit else _ONLY_DECLINE


def apply_nomination(s: GameState, suit: int, action: Nominate) -> GameState:
    """The nomination: ``suit`` is the named suit, or -1 for none (R7.1)."""
    h = s._h.copy()
    new = GameState(h, s._to_act, s._hands, 0, -1, -1, 0, 0, None, logged(s, action), s._nlog + 1)
    if suit >= 0:
        h.joker_suit = suit
        h.ctx = positions_context(h.t, -1, suit)
    _start_play(new)
    return new


def legal_partners(s: GameState) -> tuple[CallPartner, ...]:
    """P5: every card but the Joker and the contractor's own (or every other seat)."""
    h = s._h
    t = h.t
    contractor = h.contractor
    if t.partner_by_seat:
        return tuple(CallPartner(seat=seat) for seat in range(t.players) if seat != contractor)
    own = hand_of(s, contractor) | t.joker_bit
    return tuple(CallPartner(t.cards[p]) for p in range(t.size) if not (own >> p) & 1)


def apply_partner(s: GameState, action: CallPartner) -> GameState:
    """P5: the called card's holder becomes the secret partner; none if it is out of play."""
    h = s._h.copy()
    t = h.t
    if action.seat is not None:
        h.partner = action.seat
        h.partner_card = -1
    else:
        card = action.card
        assert card is not None
        h.partner_card = card.index
        pos = t.pos_of[card.index]
        h.partner = -1
        for seat in range(t.players):
            if (hand_of(s, seat) >> pos) & 1:
                h.partner = seat
    new = GameState(h, s._to_act, s._hands, 0, -1, -1, 0, 0, None, logged(s, action), s._nlog + 1)
    _after_partner(new)
    return new


def _start_play(s: GameState) -> None:
    """The first lead: the contractor (R5.1), or the eldest active player (V-ELDEST-LEADS)."""
    h = s._h
    t = h.t
    leader = h.contractor
    if t.eldest_leads or leader < 0:
        leader = (h.dealer + 1) % t.players
        while (h.out >> leader) & 1:
            leader = (leader + 1) % t.players
    h.phase = PLAY
    s._to_act = leader
    s._leader = leader
    if h.scored:
        _prime(s)


# -- card play (R5, R7) ------------------------------------------------------------


def play_mask(s: GameState) -> int:
    """The playable positions of the seat to act (R5.3, R7)."""
    h = s._h
    t = h.t
    ctx = h.ctx
    assert ctx is not None
    return playable(
        ctx,
        hand_of(s, s._to_act),
        not s._trick,
        s._led,
        s._suits_led,
        h.misere,
        t.lead_last,
        t.name_any,
    )


def play_names(s: GameState) -> int:
    """The suits a Joker lead may name now (R7.4), or -1 (see :func:`nameable`)."""
    h = s._h
    ctx = h.ctx
    assert ctx is not None
    return nameable(ctx, hand_of(s, s._to_act), not s._trick, s._suits_led, h.t.name_any)


def plays_of(t: Table, mask: int, names: int) -> tuple[Play, ...]:
    """The Play actions of a playable mask, in card order (a Joker lead once per nameable
    suit when the Joker names one)."""
    return _legal_pair(t, mask, names)[0]


def _legal_pair(t: Table, mask: int, names: int) -> tuple[tuple[Play, ...], tuple[int, ...]]:
    """The plays of a playable mask and, beside each, its code: the position, and the
    named suit + 1 shifted left by 6.

    They are joined from each suit's block of positions, each block's plays built once
    (a follow of suit is one block, given back as it is).
    """
    part_plays: tuple[Play, ...] = ()
    part_codes: tuple[int, ...] = ()
    plays: list[Play] = []
    codes: list[int] = []
    blocks = 0
    for suit in range(4):
        start = t.suit_start[suit]
        chunk = (mask >> start) & t.suit_chunk[suit]
        if chunk:
            key = (chunk << 2) | suit
            part = t.chunk_plays.get(key)
            if part is None:
                part = _block(t, start, chunk)
                t.chunk_plays[key] = part
            if blocks == 1:
                plays.extend(part_plays)
                codes.extend(part_codes)
            if blocks:
                plays.extend(part[0])
                codes.extend(part[1])
            part_plays, part_codes = part
            blocks += 1
    jb = mask & t.joker_bit
    if blocks == 1:
        if not jb:
            return part_plays, part_codes  # one suit: the block itself
        plays.extend(part_plays)
        codes.extend(part_codes)
    if jb:
        if names < 0:
            plays.append(t.plays[t.joker])
            codes.append(t.joker)
        else:
            for suit in range(4):
                if (names >> suit) & 1:
                    plays.append(t.joker_leads[suit])
                    codes.append(t.joker | ((suit + 1) << 6))
    return tuple(plays), tuple(codes)


def _block(t: Table, start: int, chunk: int) -> tuple[tuple[Play, ...], tuple[int, ...]]:
    """The plays and codes of one suit's block of positions from ``start``."""
    listed: list[Play] = []
    coded: list[int] = []
    rest = chunk
    while rest:
        low = rest & -rest
        pos = start + low.bit_length() - 1
        listed.append(t.plays[pos])
        coded.append(pos)
        rest ^= low
    return tuple(listed), tuple(coded)


def _prime(s: GameState) -> None:
    """Work out, once, what the seat to act may play (read later by ``legal_actions``)."""
    h = s._h
    t = h.t
    ctx = h.ctx
    assert ctx is not None
    hand = s._hands[s._to_act]
    leading = not s._trick
    mask = playable(ctx, hand, leading, s._led, s._suits_led, h.misere, t.lead_last, t.name_any)
    names = -1
    if mask & t.joker_bit:
        names = nameable(ctx, hand, leading, s._suits_led, t.name_any)
    s._mask = mask
    s._legal, s._codes = _legal_pair(t, mask, names)


def legal_plays(s: GameState) -> tuple[Play, ...]:
    """The legal plays of the seat to act, worked out once (see :func:`_prime`)."""
    if s._codes is None:
        _prime(s)
    return cast("tuple[Play, ...]", s._legal)  # in card play, _prime keeps Plays there


def play_card(s: GameState, pos: int, named: int) -> None:
    """Play the card at ``pos`` (``named``: the suit a Joker lead names, or -1) on ``s``.

    ``s`` is a state being built (a fresh copy, or a play-out's private state): this
    is the one implementation of a card played — the trick, the led suit, the
    winner (R5.4), the next seat and leader (R5.1), the end of the hand (R5.5).
    """
    h = s._h
    ctx = h.ctx
    assert ctx is not None
    seat = s._to_act
    hands = s._hands
    s._hands = replace_at(hands, seat, hands[seat] ^ (1 << pos))
    trick = s._trick
    n = trick & 7
    if n:
        led = s._led
    else:
        s._leader = seat
        led = named if named >= 0 else ctx.suits[pos]
        s._led = led
        if led >= 0:
            s._suits_led |= 1 << led
    trick += (pos << (3 + 7 * n)) + 1
    s._mask = -1
    if n + 1 < h.active:
        s._trick = trick
        s._to_act = h.nxt[seat]
        return
    at = ctx.best(trick, led)
    winner = s._leader
    for _ in range(at):
        winner = h.nxt[winner]
    s._won += 1 << (4 * winner)
    count = 1 if s._tricks is None else s._tricks.count + 1
    s._tricks = TrickNode(s._tricks, trick, s._leader, winner, led, count)
    s._trick = 0
    s._led = -1
    s._to_act = winner
    s._leader = winner
    if count == h.t.hand_size or (h.ends_early and winner == h.contractor):
        if h.scored:
            _finish_hand(s)
        else:
            s._to_act = -1


def _finish_hand(s: GameState) -> None:
    """Score a finished hand (R8, P-forms, V-… options) and decide the end of the game (R9)."""
    old = s._h
    t = old.t
    side_tricks = [0] * t.nsides
    for seat in range(t.players):
        side_tricks[t.side_of[seat]] += won_by(s, seat)
    tricks = tuple(side_tricks)
    contract = old.contract
    contracting: tuple[int, ...] = ()
    made: bool | None = None
    mask = 0
    value = bid = 0
    if contract is not None and old.contractor >= 0:
        side = t.side_of[old.contractor]
        contracting = (side,)
        if old.partner >= 0 and t.side_of[old.partner] != side:
            contracting = (side, t.side_of[old.partner])
        taken = 0
        for each in contracting:
            mask |= 1 << each
            taken += tricks[each]
        value = t.bid_value[old.high_bid]
        bid = t.bid_tricks[old.high_bid]
        made = outcome.made(bid, old.misere, taken)
    changes = outcome.score_changes(
        value, bid, old.misere, mask, tricks, old.scores, t.trick_points, t.score_cap, t.slam
    )
    listed = list(old.scores)
    for side in range(len(listed)):
        listed[side] += changes[side]
    scores = tuple(listed)
    end = outcome.game_end(
        mask, -1 if made is None else int(made), scores, t.target, t.losing, t.defence_wins
    )
    result = None
    if end is not None:
        result = GameResult(end[1], contracting[0] if contracting else None, OUTCOMES[end[0]])
    h = old.copy()
    h.last_raw = (
        old.number,
        old.dealer,
        contract,
        None if old.contractor < 0 else old.contractor,
        tricks,
        made,
        changes,
        scores,
        old.partner if old.partner >= 0 else None,
        contract is None,
    )
    h.last_obj = None
    h.result = result
    h.scores = scores
    h.history = (*old.history, (old.dealer, old.order, log_tuple(s)))
    h.phase = DEAL if result is None else OVER
    h.dealer = (old.dealer + 1) % t.players  # after every hand, the last too (R2.1)
    s._h = h
    s._to_act = -1


def apply_play(s: GameState, action: Play, pos: int, named: int) -> GameState:
    """The state after a legal play (the caller has judged it)."""
    new = GameState(
        s._h,
        s._to_act,
        s._hands,
        s._trick,
        s._leader,
        s._led,
        s._suits_led,
        s._won,
        s._tricks,
        logged(s, action),
        s._nlog + 1,
    )
    play_card(new, pos, named)
    if new._h.phase == PLAY:
        _prime(new)
    return new


# -- judging an action: the one evaluation behind apply, is_legal and the reason --------


_LEGAL: Final = Verdict(None, -1)
_ACTION_TYPES: Final = (Call, Discard, Nominate, CallPartner, Play)


def check_seat(s: GameState, seat: object) -> Verdict | None:
    """Whether ``seat`` (``None``: any) may act now; a verdict when it may not (R3.1, R3.7)."""
    if seat is None:
        return None
    t = s._h.t
    if type(seat) is not int or not 0 <= seat < t.players:
        return Verdict(Reason.NOT_YOUR_TURN, -1)
    if seat != s._to_act:
        if s._h.phase == BIDDING and (s._h.passed >> seat) & 1 and not t.rebid:
            return Verdict(Reason.ALREADY_PASSED, seat)
        return Verdict(Reason.NOT_YOUR_TURN, seat)
    return None


def judge(s: GameState, action: object, seat: object) -> Verdict:
    """Whether ``action`` is legal now (for ``seat``, if given), and why not."""
    if not isinstance(action, _ACTION_TYPES):
        return Verdict(Reason.NOT_AN_ACTION, -1)
    h = s._h
    phase = h.phase
    if phase == OVER:
        return Verdict(Reason.GAME_OVER, -1)
    if phase == DEAL:
        return Verdict(Reason.WRONG_PHASE, -1)
    wrong_seat = check_seat(s, seat)
    if wrong_seat is not None:
        return wrong_seat
    actor = s._to_act
    if phase == BIDDING and type(action) is Call:
        return _judge_call(s, action, actor)
    if phase == DISCARD and type(action) is Discard:
        return _judge_discard(s, action, actor)
    if phase == NOMINATE and type(action) is Nominate:
        return _judge_nomination(s, action, actor)
    if phase == PARTNER and type(action) is CallPartner:
        return _judge_partner(s, action, actor)
    if phase == PLAY and type(action) is Play:
        return judge_play(s, action.card, action.suit, actor)
    return Verdict(Reason.WRONG_PHASE, actor)


def _judge_call(s: GameState, call: Call, seat: int) -> Verdict:
    h = s._h
    t = h.t
    first = not (h.called >> seat) & 1
    if find(_calls_for(t, h.high_bid, first)[0], call) >= 0:
        return _LEGAL
    if call.sans_kitty and not t.rules.sans_kitty:
        return Verdict(Reason.CALL_NOT_ALLOWED, seat, 1)
    at = find(t.bids, call)
    if at < 0:
        return Verdict(Reason.CALL_NOT_ALLOWED, seat, 2)
    if t.bid_kind[at] == K_BLIND and not first:
        return Verdict(Reason.BLIND_MISERE_NOT_FIRST_CALL, seat)
    if h.high_bid >= 0 and t.bid_rung[at] <= t.bid_rung[h.high_bid]:
        return Verdict(
            Reason.BID_TOO_LOW, seat, 1 if t.bid_rung[at] == t.bid_rung[h.high_bid] else 0
        )
    if t.bid_kind[at] == K_MISERE and t.misere_needs_seven:
        return Verdict(Reason.MISERE_NEEDS_SEVEN, seat)
    return Verdict(Reason.CALL_NOT_ALLOWED, seat, 3)  # pragma: no cover - every refusal named


def _judge_discard(s: GameState, action: Discard, seat: int) -> Verdict:
    h = s._h
    t = h.t
    cards = action.cards
    for card in cards:
        if type(card) is not Card:
            return Verdict(Reason.NOT_AN_ACTION, seat)
    if len(set(cards)) != len(cards) or len(cards) != t.kitty_size:
        return Verdict(Reason.WRONG_DISCARD_COUNT, seat)
    if discard_mask(s, action) < 0:
        return Verdict(Reason.CARD_NOT_IN_HAND, seat)
    return _LEGAL


def _judge_nomination(s: GameState, action: Nominate, seat: int) -> Verdict:
    suit = action.suit
    if suit is None:
        return _LEGAL
    if type(suit) is not Suit:
        return Verdict(Reason.NOT_AN_ACTION, seat)
    h = s._h
    if not hand_of(s, h.contractor) & h.t.joker_bit:
        return Verdict(Reason.NOMINATION_NOT_ALLOWED, seat)
    return _LEGAL


def _judge_partner(s: GameState, action: CallPartner, seat: int) -> Verdict:
    if find(legal_partners(s), action) >= 0:
        return _LEGAL
    return Verdict(Reason.PARTNER_NOT_ALLOWED, seat)


def judge_play(s: GameState, card: object, suit: object, seat: int) -> Verdict:
    """The play rules (R5.3, R7.3-R7.5) for ``card`` with the named ``suit``."""
    if type(card) is not Card:
        return Verdict(Reason.NOT_AN_ACTION, seat, 0)
    if suit is not None and type(suit) is not Suit:
        return Verdict(Reason.NOT_AN_ACTION, seat, 1)
    h = s._h
    t = h.t
    ctx = h.ctx
    assert ctx is not None
    pos = t.pos_of[card.index]
    hand = hand_of(s, seat)
    if pos < 0 or not (hand >> pos) & 1:
        return Verdict(Reason.CARD_NOT_IN_HAND, seat)
    mask = s._mask
    if mask < 0:
        mask = s._mask = play_mask(s)
    leading = not s._trick
    if pos == t.joker and ctx.free_joker and leading:
        names = play_names(s)
        if names < 0 and mask & t.joker_bit:
            if suit is not None:
                return Verdict(Reason.JOKER_SUIT_NOT_ALLOWED, seat, 0)  # R7.5
            return _LEGAL
        if not mask & t.joker_bit:
            return Verdict(Reason.JOKER_LEAD_TOO_EARLY, seat)
        if suit is None:
            return Verdict(Reason.JOKER_SUIT_REQUIRED, seat, names)
        named = SUITS.index(suit)
        if not (names >> named) & 1:
            return Verdict(Reason.JOKER_SUIT_ALREADY_LED, seat, named)
        return _LEGAL
    if suit is not None:
        return Verdict(Reason.JOKER_SUIT_NOT_ALLOWED, seat, 1)
    if (mask >> pos) & 1:
        return _LEGAL
    led = s._led
    if hand & ctx.suit_masks[led]:
        return Verdict(Reason.MUST_FOLLOW_SUIT, seat, led)
    return Verdict(Reason.MUST_PLAY_JOKER, seat, led)


# -- apply: the fast paths, with judge as the word on anything else --------------------


def _apply_checked(s: GameState, action: object, seat: object) -> GameState:
    """The state after ``action``; raises :class:`Refused` with the verdict when illegal.

    The fast paths below accept only what :func:`judge` accepts; anything they do not
    take is judged, so the refusal and its reason come from the one evaluation.
    """
    h = s._h
    phase = h.phase
    if seat is None or (type(seat) is int and seat == s._to_act):
        if phase == PLAY and type(action) is Play:
            applied = _fast_play(s, action)
            if applied is not None:
                return applied
        elif phase == BIDDING and type(action) is Call:
            at = find(_calls_for(h.t, h.high_bid, not (h.called >> s._to_act) & 1)[0], action)
            if at >= 0:
                return apply_call(s, at)
        elif phase == DISCARD and type(action) is Discard:
            mask = discard_mask(s, action)
            if mask >= 0:
                return apply_discard(s, action, mask)
        elif phase == NOMINATE and type(action) is Nominate:
            if _judge_nomination(s, action, s._to_act).reason is None:
                suit = action.suit
                return apply_nomination(s, -1 if suit is None else SUITS.index(suit), action)
        elif (
            phase == PARTNER
            and type(action) is CallPartner
            and find(legal_partners(s), action) >= 0
        ):
            return apply_partner(s, action)
    raise Refused(judge(s, action, seat))


def _fast_play(s: GameState, play: Play) -> GameState | None:
    """A legal play applied, or ``None`` for :func:`judge` to look at."""
    card = play.card
    if type(card) is not Card:
        return None
    h = s._h
    t = h.t
    ctx = h.ctx
    assert ctx is not None
    pos = t.pos_of[card.index]
    mask = s._mask
    if mask < 0:
        mask = s._mask = play_mask(s)
    if pos < 0 or not (mask >> pos) & 1:
        return None
    suit = play.suit
    if pos != t.joker or not ctx.free_joker or s._trick:
        return apply_play(s, play, pos, -1) if suit is None else None
    names = play_names(s)
    if names < 0:
        return apply_play(s, play, pos, -1) if suit is None else None
    if type(suit) is Suit and (names >> suit) & 1:
        return apply_play(s, play, pos, SUITS.index(suit))
    return None


def _legal_actions(s: GameState) -> tuple[Action, ...]:
    """Every legal action of the seat to act, in canonical order (read once, then kept)."""
    legal = s._legal
    if legal is not None:
        return legal
    phase = s._h.phase
    found: tuple[Action, ...]
    if phase == PLAY:
        found = legal_plays(s)
    elif phase == BIDDING:
        found = legal_calls(s)
    elif phase == DISCARD:
        found = legal_discards(s)
    elif phase == NOMINATE:
        found = legal_nominations(s)
    elif phase == PARTNER:
        found = legal_partners(s)
    else:
        found = ()
    s._legal = found
    return found


# -- the public entry points (re-exported by fivehundred.engine) ----------------------


def _not_a_state(state: object) -> FiveHundredTypeError:
    return FiveHundredTypeError(
        f"a fivehundred GameState is needed (from new_game, deal or apply), not {state!r}"
    )


def apply(state: object, action: object, *, seat: object = None) -> GameState:
    """The state after ``action`` by the seat to act. The input is never changed.

    Pass ``seat`` to check that the action comes from the seat whose turn it
    is (a server validating a client's move). An illegal action raises
    :class:`~fivehundred.IllegalActionError` with a :class:`~fivehundred.Reason`;
    a ``state`` that is not a :class:`~fivehundred.GameState` raises :class:`TypeError`.

    >>> import fivehundred as fh
    >>> state = fh.deal(fh.new_game(dealer=3), seed=7)
    >>> fh.apply(state, fh.parse_call("7H"), seat=0).high_bid
    Call.parse('7H')
    >>> fh.apply(state, fh.PASS, seat=2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    fivehundred.errors.IllegalActionError: it is seat 0's turn, not seat 2's (R3.1: ...)
    """
    if type(state) is not GameState:
        raise _not_a_state(state)
    if seat is None or (type(seat) is int and seat == state._to_act):
        legal = state._legal
        if legal is not None:
            for at in range(len(legal)):
                if legal[at] is action:
                    phase = state._h.phase
                    codes = state._codes
                    if phase == PLAY and codes is not None:
                        code = codes[at]
                        return apply_play(state, action, code & 63, (code >> 6) - 1)  # type: ignore[arg-type]  # a listed play
                    if phase == BIDDING:
                        return apply_call(state, at)
                    break
    try:
        return _apply_checked(state, action, seat)
    except Refused as refused:
        from fivehundred._explain import explain

        raise explain(state, action, refused.verdict) from None


def legal_actions(state: object) -> tuple[Action, ...]:
    """Every legal action of the seat to act, in a canonical order.

    Bidding: pass, then bids up the ladder; discard: every choice of cards;
    partner call (P5): cards in card order, or seats; nomination: the four
    suits, then no nomination (only that without the Joker, R7.1); play: cards
    in card order (a Joker lead once per nameable suit). Empty while waiting for a
    deal and when the game is over. Raises :class:`TypeError` for a non-state.
    """
    if type(state) is not GameState:
        raise _not_a_state(state)
    legal = state._legal
    return legal if legal is not None else _legal_actions(state)


# -- random play-outs on the same steps --------------------------------------------------


def _popcount(mask: int) -> int:
    """The number of set bits (``int.bit_count`` is a Python call from compiled code)."""
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def _kth_bit(mask: int, k: int) -> int:
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def random_step(s: GameState, rng: random.Random) -> GameState:
    """One uniformly random legal action outside card play (a new state)."""
    h = s._h
    phase = h.phase
    pick = rng.random
    if phase == BIDDING:
        calls = legal_calls(s)
        return apply_call(s, int(pick() * len(calls)))
    if phase == DISCARD:
        t = h.t
        pool = bits(hand_of(s, h.contractor) | h.kitty)
        mask = 0
        for _ in range(t.kitty_size):  # a uniform choice of kitty_size cards of the pool
            mask |= 1 << pool.pop(int(pick() * len(pool)))
        chosen = bits(mask)
        return apply_discard(s, _new_discard(tuple(t.cards[p] for p in chosen)), mask)
    if phase == NOMINATE:
        options = legal_nominations(s)
        choice = options[int(pick() * len(options))]
        return apply_nomination(s, -1 if choice.suit is None else int(choice.suit), choice)
    options_p = legal_partners(s)
    return apply_partner(s, options_p[int(pick() * len(options_p))])


def random_play_hand(s: GameState, rng: random.Random) -> GameState:
    """Play the rest of the hand with uniformly random legal cards, on one private state.

    The state is mutated in place by :func:`play_card` (the same step ``apply`` uses)
    and returned when the hand is over; it is never changed after that.
    """
    s = s._copy()
    pick = rng.random
    t = s._h.t
    jb = t.joker_bit
    while s._h.phase == PLAY:
        mask = play_mask(s)
        names = play_names(s) if mask & jb else -1
        if names < 0:
            pos = _kth_bit(mask, int(pick() * _popcount(mask)))
            named = -1
            action = t.plays[pos]
        else:
            options = plays_of(t, mask, names)
            action = options[int(pick() * len(options))]
            pos = t.pos_of[action.card.index]
            named = -1 if action.suit is None else int(action.suit)
        s._log = logged(s, action)
        s._nlog += 1
        play_card(s, pos, named)
    return s


# -- public helpers over positions (for the computer players) ------------------------


def card_position(t: Table, card: Card) -> int:
    return t.pos_of[card.index]


# -- play-outs for the computer players: the same steps on a private state ------------


def simulation(
    t: Table,
    contract: Call | None,
    contractor: int,
    joker_suit: int,
    partner: int,
    dealer: int,
    hands: tuple[int, ...],
    trick: Sequence[int],
    leader: int,
    led: int,
    suits_led: int,
    done: int,
) -> GameState:
    """A private card-play state for a play-out: ``hands`` are position masks,
    ``trick`` the cards of the trick in progress led by ``leader`` (or ``-1`` before
    the first lead), ``done`` the tricks already played. Drive it with
    :func:`play_mask`, :func:`play_names` and :func:`play_card` until
    :func:`to_act` is ``-1``; its hand ends unscored, with the tricks in
    :func:`tricks_by_seat`.
    """
    h = Hand(t)
    h.phase = PLAY
    h.dealer = dealer
    h.scored = False
    h.contract = contract
    h.partner = partner
    set_contract(h, contractor, joker_suit)
    if h.misere and contractor >= 0:
        out = 0
        for other in t.partners[contractor]:
            out |= 1 << other
        h.out = out
        set_seats(h)
    base = TrickNode(None, 0, -1, -1, -1, done) if done else None
    s = GameState(h, -1, hands, pack_trick(trick), leader, led, suits_led, 0, base)
    if leader < 0:
        _start_play(s)
    else:
        seat = leader
        for _ in range(len(trick)):
            seat = h.nxt[seat]
        s._to_act = seat
        s._leader = leader
    return s
