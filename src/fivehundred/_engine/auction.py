"""The auction (R3): the legal calls, a call made, and how the auction ends.

Internal; compiled by mypyc.
"""

from __future__ import annotations

from fivehundred._engine.hand import DEAL, DISCARD, set_contract, set_seats
from fivehundred._engine.kitty import after_exchange
from fivehundred._engine.play import start_play
from fivehundred._engine.state import GameState, log_tuple, logged
from fivehundred._engine.table import K_BLIND, K_MISERE, Table
from fivehundred.calls import PASS, Call


def calls_for(t: Table, high_bid: int, first: bool) -> tuple[tuple[Call, ...], tuple[int, ...]]:
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
    return calls_for(h.t, h.high_bid, not (h.called >> s._to_act) & 1)[0]


def apply_call(s: GameState, at: int) -> GameState:
    """The call at position ``at`` of the seat's legal calls (R3; V-AMERICAN, V-SELF-RAISE,
    V-REBID)."""
    old = s._h
    t = old.t
    seat = s._to_act
    calls, index = calls_for(t, old.high_bid, not (old.called >> seat) & 1)
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
        all_passed(new)
    elif t.single_round or not offer_raise(new):
        win_auction(new)
    else:
        new._legal = legal_calls(new)
    return new


def offer_raise(s: GameState) -> bool:
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


def win_auction(s: GameState) -> None:
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
        after_exchange(s)
    else:
        h.phase = DISCARD


def all_passed(s: GameState) -> None:
    """Everyone passed: a throw-in (R3.9), or No Trumps without a kitty (V-ALL-PASS)."""
    h = s._h
    t = h.t
    if t.all_pass:
        set_contract(h, -1, -1)
        start_play(s)
        return
    nsides = t.nsides
    zero = (0,) * nsides
    h.last_raw = (h.number, h.dealer, None, None, zero, None, zero, h.scores, None, False)
    h.last_obj = None
    h.history = (*h.history, (h.dealer, h.order, log_tuple(s)))
    h.phase = DEAL
    h.dealer = h.dealer if t.same_dealer else (h.dealer + 1) % t.players
    s._to_act = -1
