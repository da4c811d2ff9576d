"""The Joker's nomination in the No Trumps family (R4.3, R7.1).

Internal; compiled by mypyc.
"""

from __future__ import annotations

from typing import Final

from fivehundred._engine.play import start_play
from fivehundred._engine.state import GameState, hand_of, logged
from fivehundred._engine.table import NOMINATIONS, positions_context
from fivehundred.actions import DECLINE, Nominate

_ONLY_DECLINE: Final = (DECLINE,)


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
    start_play(new)
    return new
