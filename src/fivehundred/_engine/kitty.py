"""The kitty (R4): the contractor's discard, and what follows it.

Internal; compiled by mypyc.
"""

from __future__ import annotations

from fivehundred._engine.hand import PARTNER
from fivehundred._engine.partner import after_partner
from fivehundred._engine.state import GameState, hand_of, logged, replace_at
from fivehundred._engine.table import CACHE_LIMIT, Table, bits
from fivehundred.actions import Discard
from fivehundred.cards import Card


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
    after_exchange(new)
    return new


def legal_discards(s: GameState) -> tuple[Discard, ...]:
    """Every legal discard, in card order (R4.1), from a table built on first sight."""
    h = s._h
    t = h.t
    pool = bits(hand_of(s, h.contractor) | h.kitty)
    if t.kitty_size != 3:
        return tuple(discards_of(pool, t.kitty_size, t.discard_cache, t.cards))
    out: list[Discard] = []
    n = len(pool)
    size = t.size
    flat = t.discards3
    if not flat:
        flat = all_discards(t)
    after = [pool[at + 1 :] for at in range(n)]  # the positions above each, iterated
    for a in range(n - 2):
        first = pool[a] * size
        for b in range(a + 1, n - 1):
            base = (first + pool[b]) * size
            for c in after[b]:
                out.append(flat[base + c])
    return tuple(out)


def all_discards(t: Table) -> list[Discard]:
    """Every three-card discard of the deck, by ``(a * size + b) * size + c`` for
    positions ``a < b < c`` (built once per table; other slots hold a filler)."""
    size = t.size
    cards = t.cards
    filler = new_discard(())
    flat = t.discards3  # shared by every table of this deck
    flat.extend([filler] * (size * size * size))
    for a in range(size):
        for b in range(a + 1, size):
            base = (a * size + b) * size
            for c in range(b + 1, size):
                flat[base + c] = new_discard((cards[a], cards[b], cards[c]))
    return flat


def discards_of(
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
            found = cache[key] = new_discard(tuple(cards[pos] for pos in combo))
        out.append(found)
    return out


def new_discard(cards: tuple[Card, ...]) -> Discard:
    """A Discard of cards already in card order (the converter is skipped: a hot path)."""
    action: Discard = object.__new__(Discard)
    object.__setattr__(action, "cards", cards)
    return action


def after_exchange(s: GameState) -> None:
    """After the kitty: the five-player partner call (P5, not in misère), then on."""
    h = s._h
    if h.t.calls_partner and not h.misere:
        h.phase = PARTNER
        return
    after_partner(s)
