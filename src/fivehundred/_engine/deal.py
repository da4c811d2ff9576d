"""The deal (R2): a new game, a shuffled or given deck, and the cards to each hand.

Internal; compiled by mypyc.
"""

from __future__ import annotations

import random

from fivehundred._engine.auction import legal_calls
from fivehundred._engine.hand import BIDDING, Hand, raw_result
from fivehundred._engine.state import GameState
from fivehundred._engine.table import Table, table
from fivehundred.actions import Discard
from fivehundred.rules import Rules
from fivehundred.scoring import HandResult


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


def redeal(
    state: GameState,
    order: list[int],
    hands: tuple[int, ...],
    *,
    kitty: int,
    dead: int,
    discard: Discard | None,
    partner: int,
) -> GameState:
    """``state`` as if its hand had been dealt ``order`` (positions) instead, with the same
    public actions: ``hands`` now, ``kitty`` (the kitty, or the discards once exchanged)
    and ``dead`` as position masks; ``discard``, the contractor's discard as the other
    deal makes it (``None``: no change), and ``partner``, the five-player partner
    (``-2``: no change).

    For a sampled deal that every public action fits, which the caller vouches for:
    nothing is checked. It is what replaying the hand's actions on the other deal
    gives, without the replay.
    """
    old = state._h
    h = old.copy()
    h.order = tuple(order)
    h.dead = dead
    if old.kitty:
        h.kitty = kitty
    if old.discards:
        h.discards = kitty
    if partner != -2:
        h.partner = partner
    log = state._log[: state._nlog]
    if discard is not None:
        for at in range(len(log)):
            if type(log[at]) is Discard:
                log[at] = discard
    new = state._copy()
    new._h = h
    new._hands = hands
    new._log = log
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
    k = len(order).bit_length()  # n.bit_length() of each n below, kept as n falls
    for i in range(len(order) - 1, 0, -1):
        n = i + 1
        if n < 1 << (k - 1):
            k -= 1
        j = draw(k)
        while j >= n:
            j = draw(k)
        order[i], order[j] = order[j], order[i]
    return order
