"""The adapters' steps on compact ids: the legal ids now, and one id applied.

Internal; compiled by mypyc. The OpenSpiel adapter calls these on every step of
a search. In card play they work on the engine's own masks and play objects, so
no action is decoded and no mask of every id is built; in the other phases they
answer exactly as the compact layout of :mod:`fivehundred.ai.encoding` does.

``start`` is the first id of the plays block and ``size`` the number of cards in
the deck: an adapter reads them once from the layout, when its game is made.

>>> import fivehundred as fh
>>> from fivehundred.ai._compact import compact_indices, compact_layout
>>> state = fh.deal(fh.new_game(dealer=3), seed=7)
>>> start, size = compact_layout(state.rules).plays.start, len(state.rules.deck)
>>> legal_ids(state, (), start, size) == list(compact_indices(state))
True
"""

from __future__ import annotations

from typing import Final

from fivehundred._engine.hand import PLAY
from fivehundred._engine.play import play_mask, play_names
from fivehundred._engine.state import GameState, hand_block
from fivehundred.ai._compact import compact_apply, compact_mask
from fivehundred.cards import Card
from fivehundred.engine import apply

__all__ = ["apply_id", "legal_ids"]

#: The ids of the compact masks met lately, by the mask's identity: the layout hands out
#: the same mask again for the same legal calls. Each entry holds its mask, so that
#: the id cannot be reused meanwhile.
_IDS: dict[int, tuple[tuple[bool, ...], list[int]]] = {}
_IDS_KEPT: Final = 4096


def legal_ids(state: GameState, pending: tuple[Card, ...], start: int, size: int) -> list[int]:
    """The legal compact ids of ``state`` (``pending``: a discard's cards so far), ascending.

    A new list each call: the caller may keep or change it.
    """
    h = hand_block(state)
    if h.phase == PLAY:
        mask = play_mask(state)
        joker = h.t.joker_bit
        if mask & joker:
            names = play_names(state)
            if names >= 0:  # leading the Joker names a suit (R7.4): four ids after the cards
                mask = (mask & ~joker) | (names << size)
        out: list[int] = []
        while mask:
            low = mask & -mask
            out.append(start + low.bit_length() - 1)
            mask ^= low
        return out
    flags = compact_mask(state, pending)
    known = _IDS.get(id(flags))
    if known is not None and known[0] is flags:
        return list(known[1])
    ids = [i for i in range(len(flags)) if flags[i]]
    if len(_IDS) >= _IDS_KEPT:
        _IDS.clear()
    _IDS[id(flags)] = (flags, ids)
    return list(ids)


def apply_id(
    state: GameState, index: int, pending: tuple[Card, ...], start: int, size: int
) -> tuple[GameState, tuple[Card, ...]]:
    """Take the action with compact id ``index``: the new state and the new ``pending``.

    Refuses what :func:`fivehundred.ai.encoding.apply_index` refuses, with the same errors.
    """
    h = hand_block(state)
    if h.phase == PLAY and not pending:
        pos = index - start
        if 0 <= pos < size:
            # the engine's own play object: apply finds it among the legal plays by identity
            return apply(state, h.t.plays[pos]), ()
    return compact_apply(state, index, pending)
