"""The five-player partner call (P5): a card or a seat, after the kitty.

Internal; compiled by mypyc.
"""

from __future__ import annotations

from fivehundred._engine.hand import NOMINATE
from fivehundred._engine.play import start_play
from fivehundred._engine.state import GameState, hand_of, logged
from fivehundred.actions import CallPartner


def after_partner(s: GameState) -> None:
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
    start_play(s)


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
    after_partner(new)
    return new
