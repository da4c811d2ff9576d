"""Random play-outs on the engine's own steps (for :func:`fivehundred.ai.playout` and
the players' simulations).

Internal; compiled by mypyc.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from fivehundred._engine.auction import apply_call, legal_calls
from fivehundred._engine.hand import BIDDING, DISCARD, NOMINATE, PLAY, Hand, set_contract, set_seats
from fivehundred._engine.kitty import apply_discard, new_discard
from fivehundred._engine.nomination import apply_nomination, legal_nominations
from fivehundred._engine.partner import apply_partner, legal_partners
from fivehundred._engine.play import play_card, play_mask, play_names, plays_of, start_play
from fivehundred._engine.state import GameState, TrickNode, hand_of, logged, pack_trick
from fivehundred._engine.table import BIT_AT, Table, bits
from fivehundred.calls import Call


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
    return BIT_AT[(mask & -mask) % 67]  # the lowest set bit


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
        return apply_discard(s, new_discard(tuple(t.cards[p] for p in chosen)), mask)
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
        start_play(s)
    else:
        seat = leader
        for _ in range(len(trick)):
            seat = h.nxt[seat]
        s._to_act = seat
        s._leader = leader
    return s
