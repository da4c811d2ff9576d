"""Sentences for refused actions: the engine core decides, this module words it.

:func:`explain` turns the core's :class:`~fivehundred._engine.verdict.Verdict` (the reason
and a detail found by the same evaluation that refused the action) into an
:class:`~fivehundred.IllegalActionError` whose sentence names the seat, the card
or call, and the rule.
"""

from __future__ import annotations

from typing import Final

from fivehundred._engine.hand import BIDDING, DEAL, DISCARD, NOMINATE, OVER, PARTNER, PLAY
from fivehundred._engine.quoting import quote
from fivehundred._engine.state import GameState, hand_block, hand_of, to_act
from fivehundred._engine.values import ANY_SEAT, Phase
from fivehundred._engine.verdict import LAST_TRICK, NOT_A_CARD, SAME_RUNG, SANS_KITTY_OFF, Verdict
from fivehundred.actions import CallPartner, Discard, Nominate, Play
from fivehundred.calls import Call
from fivehundred.cards import Card, Rank, Suit
from fivehundred.errors import IllegalActionError, Reason
from fivehundred.notation import PHASE_WANTS, SUIT_NAMES

__all__ = ["explain"]

#: The rules that say whose turn it is, by phase (cited in NOT_YOUR_TURN messages).
_TURN_RULES: Final = {
    BIDDING: "R3.1: the auction goes clockwise, skipping players who passed",
    DISCARD: "R4.1: the contractor exchanges with the kitty",
    PARTNER: "P5: the contractor calls a partner",
    NOMINATE: "R7.1: the contractor nominates the Joker's suit or makes no nomination",
    PLAY: "R5.1: the contractor leads, each trick's winner leads the next",
}
#: The rules of each phase's action, cited when an action is malformed.
_PHASE_RULES: Final = {
    DEAL: "R2.1",
    BIDDING: "R3.2",
    DISCARD: "R4.1",
    NOMINATE: "R7.1",
    PARTNER: "P5",
    PLAY: "R5.1",
    OVER: "R9",
}
#: The public phase of each of the core's phase numbers.
_PHASES: Final = {
    BIDDING: Phase.BIDDING,
    DISCARD: Phase.DISCARD,
    NOMINATE: Phase.NOMINATE,
    PARTNER: Phase.PARTNER,
    PLAY: Phase.PLAY,
}
_EXPECTED: Final = {
    BIDDING: "call (bid or pass)",
    DISCARD: "discard from the kitty",
    NOMINATE: "nominate the Joker's suit or make no nomination",
    PARTNER: "call a partner",
    PLAY: "play a card",
}


def explain(
    state: GameState, action: object, verdict: Verdict, seat_given: object = ANY_SEAT
) -> IllegalActionError:
    """The error for an action the core refused with ``verdict``; ``seat_given``: the seat
    argument, named when it is not a seat."""
    reason = verdict.reason
    assert reason is not None
    seat = verdict.seat
    message = _sentence(state, action, verdict, reason, seat_given)
    return IllegalActionError(reason, message, seat=None if seat < 0 else seat)


def _sentence(
    state: GameState, action: object, verdict: Verdict, reason: Reason, seat_given: object
) -> str:
    h = hand_block(state)
    phase = h.phase
    seat = verdict.seat
    if reason is Reason.NOT_AN_ACTION and not isinstance(
        action, (Call, Discard, Nominate, CallPartner, Play)
    ):
        return (
            f"{quote(action)} is not an action: expected a Call, Discard, Nominate, CallPartner "
            f"or Play ({_PHASE_RULES[phase]})"
        )
    if reason is Reason.GAME_OVER:
        return "the game is over: no more actions (R9)"
    if phase == DEAL:
        return "the next hand is not dealt yet: call fivehundred.deal() (R2.1)"
    turn_rule = _TURN_RULES[phase]
    actor = to_act(state)
    if reason is Reason.NOT_YOUR_TURN:
        if seat < 0:
            players = h.t.players
            return (
                f"seat {quote(seat_given)} is not a seat at this table: seats are 0 to "
                f"{players - 1}, and it is seat {actor}'s turn ({turn_rule})"
            )
        return f"it is seat {actor}'s turn, not seat {seat}'s ({turn_rule})"
    if reason is Reason.ALREADY_PASSED:
        return f"seat {seat} has passed and may not call again in this auction (R3.7)"
    if reason is Reason.WRONG_PHASE:
        over = "the auction is over (R3.8); " if isinstance(action, Call) else ""
        return (
            f"seat {actor} must {_EXPECTED[phase]} now, not {_describe(action)}: "
            f"{over}{PHASE_WANTS[_PHASES[phase]]} ({turn_rule}; R4.3: the order of a hand)"
        )
    if isinstance(action, Call):
        return _call_sentence(state, action, verdict, reason)
    if isinstance(action, Discard):
        return _discard_sentence(state, action, seat, reason)
    if isinstance(action, Nominate):
        if reason is Reason.NOMINATION_NOT_ALLOWED:
            return f"seat {seat} does not hold the Joker and can only make no nomination (R7.1)"
        return f"{quote(action.suit)} is not a suit to nominate (R7.1)"
    if isinstance(action, CallPartner):
        return _partner_sentence(state, action, seat)
    assert isinstance(action, Play)
    return _play_sentence(state, action, verdict, reason)


def _describe(action: object) -> str:
    if isinstance(action, Call):
        return f"call {action}"
    if isinstance(action, Play):
        return f"play {action.card}"
    return str(action)


def _call_sentence(state: GameState, call: Call, verdict: Verdict, reason: Reason) -> str:
    seat = verdict.seat
    if reason is Reason.CALL_NOT_ALLOWED:
        if verdict.detail == SANS_KITTY_OFF:
            return (
                f"seat {seat} called {call}: sans-kitty bids are not allowed by these rules "
                "(V-SANS-KITTY)"
            )
        return f"seat {seat} called {call}, which these rules do not use (R3.3)"
    if reason is Reason.BLIND_MISERE_NOT_FIRST_CALL:
        return (
            f"seat {seat} called BM: blind misère is only allowed as a player's first call "
            "of the auction (R3.6)"
        )
    high = state.high_bid
    if reason is Reason.BID_TOO_LOW:
        bidder = state.high_bidder
        why = "is on the same rung as" if verdict.detail == SAME_RUNG else "is not higher than"
        return (
            f"seat {seat} called {call}, which {why} the standing bid {high} by seat {bidder}; "
            "a bid must be higher on the ladder (R3.1, R3.3)"
        )
    assert reason is Reason.MISERE_NEEDS_SEVEN
    standing = "there is no bid yet" if high is None else f"the standing bid is {high}"
    return f"seat {seat} called M, but misère needs a standing bid of seven and {standing} (R3.4)"


def _discard_sentence(state: GameState, action: Discard, seat: int, reason: Reason) -> str:
    cards = action.cards
    if reason is Reason.NOT_AN_ACTION:
        return "a discard is made of Cards (R4.1)"
    if reason is Reason.WRONG_DISCARD_COUNT:
        need = state.rules.kitty_size
        return (
            f"seat {seat} must discard exactly {need} different cards, not "
            f"{' '.join(map(str, cards)) or 'none'} (R4.1)"
        )
    pool = set(state.hand(seat)) | set(state.kitty)
    missing = [card for card in cards if card not in pool]
    return (
        f"seat {seat} cannot discard {' '.join(map(str, missing))}: not among its hand "
        "and the kitty (R4.1)"
    )


def _partner_sentence(state: GameState, action: CallPartner, seat: int) -> str:
    rules = state.rules
    if rules.partner_by_seat:
        why = f"name another seat (0 to {rules.players - 1}), not {action}"
    elif action.seat is not None or type(action.card) is not Card:
        why = f"call a card, not {action}"
    elif action.card.is_joker:
        why = "call a card other than the Joker"
    elif action.card in state.hand(seat):
        why = f"call a card it does not hold, not {action.card}"
    else:
        why = f"call a card of the deck, not {action.card}"
    return f"seat {seat} must {why} (P5)"


def _play_sentence(state: GameState, action: Play, verdict: Verdict, reason: Reason) -> str:
    seat = verdict.seat
    card = action.card
    if reason is Reason.NOT_AN_ACTION:
        if verdict.detail == NOT_A_CARD:
            return f"{quote(card)} is not a Card: a card play plays a card (R5.1)"
        return f"{quote(action.suit)} is not a suit: a Joker lead names a suit (R7.4)"
    if reason is Reason.CARD_NOT_IN_HAND:
        return f"seat {seat} does not hold {card}: a card is played from the hand (R2.2, R5.1)"
    if reason is Reason.JOKER_SUIT_NOT_ALLOWED:
        if verdict.detail == LAST_TRICK:
            return f"seat {seat} leads the Joker to the last trick: no suit is named (R7.5)"
        named = SUIT_NAMES[action.suit] if action.suit is not None else "a suit"
        if not card.is_joker:
            why = f"{card} is not the Joker"
        elif state.trick:
            why = "a suit is named only when leading the Joker"
        else:
            why = "the Joker already has a suit in this contract"
        return f"seat {seat} played {card} naming {named}, but {why} (R7.4)"
    if reason is Reason.JOKER_LEAD_TOO_EARLY:
        if state.rules.joker_lead_last:
            return f"seat {seat} may not lead the Joker before the last trick (V-JOKER-LEAD-LAST)"
        return (
            f"seat {seat} may not lead the Joker: all four suits have been led, so it "
            "may be led only to the last trick (R7.5)"
        )
    if reason is Reason.JOKER_SUIT_REQUIRED:
        named = ", ".join(SUIT_NAMES[s] for s in range(4) if (verdict.detail >> s) & 1)
        return f"seat {seat} leads the Joker and must name a suit not yet led ({named}) (R7.4)"
    if reason is Reason.JOKER_SUIT_ALREADY_LED:
        return (
            f"seat {seat} leads the Joker naming {SUIT_NAMES[verdict.detail]}, which has "
            "already been led this hand; name a suit not yet led (R7.4)"
        )
    led = verdict.detail
    if reason is Reason.MUST_FOLLOW_SUIT:
        h = hand_block(state)
        ctx = h.ctx
        assert ctx is not None
        follow = hand_of(state, seat) & ctx.suit_masks[led]
        held = " ".join(str(x) for x in h.t.cards_of(follow))
        note = _bower_note(state, follow, led)
        what = "the Joker never follows suit here, so" if card.is_joker else "so"
        return (
            f"seat {seat} holds {SUIT_NAMES[led]} ({held}){note}, {what} it must follow "
            f"{SUIT_NAMES[led]} but played {card} (R5.3{', R7.3' if card.is_joker else ''})"
        )
    assert reason is Reason.MUST_PLAY_JOKER
    return (
        f"seat {seat} has no {SUIT_NAMES[led]} and holds the Joker: in misère it must play "
        f"the Joker, not {card} (R7.3)"
    )


def _bower_note(state: GameState, follow: int, led: int) -> str:
    h = hand_block(state)
    ctx = h.ctx
    assert ctx is not None
    trump = ctx.trump
    if trump is None or led != trump:
        return ""
    notes = []
    t = h.t
    left = Card(Rank.JACK, Suit(trump ^ 1))
    if (follow >> t.pos_of[left.index]) & 1:
        notes.append(f"the left bower {left} counts as a {SUIT_NAMES[led][:-1]}")
    if follow & t.joker_bit:
        notes.append("the Joker is a trump")
    return f" — {', '.join(notes)}" if notes else ""
