"""The one apply path, and why an action is refused.

:func:`apply` takes a listed action from the state's cache, else checks and applies
it on each phase's fast path; anything those refuse is judged by :func:`judge`, so
every refusal and its reason come from the one evaluation, worded by
:mod:`fivehundred._engine.explain`.

Internal; compiled by mypyc.
"""

from __future__ import annotations

from typing import Final

from fivehundred._engine.auction import apply_call, calls_for, legal_calls
from fivehundred._engine.hand import BIDDING, DEAL, DISCARD, NOMINATE, OVER, PARTNER, PLAY
from fivehundred._engine.kitty import apply_discard, discard_mask, legal_discards
from fivehundred._engine.nomination import apply_nomination, legal_nominations
from fivehundred._engine.partner import apply_partner, legal_partners
from fivehundred._engine.play import apply_play, legal_plays, play_mask, play_names
from fivehundred._engine.state import GameState, find, hand_of
from fivehundred._engine.table import K_BLIND, K_MISERE, SUITS
from fivehundred._engine.values import ANY_SEAT
from fivehundred._engine.verdict import (
    LAST_TRICK,
    NO_SUIT_TO_NAME,
    NOT_A_CARD,
    NOT_A_SUIT,
    NOT_ON_LADDER,
    SAME_RUNG,
    SANS_KITTY_OFF,
    Verdict,
)
from fivehundred.actions import Action, CallPartner, Discard, Nominate, Play
from fivehundred.calls import Call
from fivehundred.cards import Card, Suit
from fivehundred.errors import FiveHundredTypeError, Reason

_LEGAL: Final = Verdict(None, -1)
#: The seat argument that skips the turn check (``None`` does not: it is no seat).
_ANY: Final = ANY_SEAT


_ACTION_TYPES: Final = (Call, Discard, Nominate, CallPartner, Play)


def check_seat(s: GameState, seat: object) -> Verdict | None:
    """Whether ``seat`` (``ANY_SEAT``: any) may act now; a verdict when it may not (R3.1, R3.7).

    Anything but a seat number of the table or ``ANY_SEAT`` (``None`` too) is not a seat.
    """
    if seat is _ANY:
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
    """Whether ``action`` is legal now (for ``seat``, or any seat), and why not."""
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
    if find(calls_for(t, h.high_bid, first)[0], call) >= 0:
        return _LEGAL
    if call.sans_kitty and not t.rules.sans_kitty:
        return Verdict(Reason.CALL_NOT_ALLOWED, seat, SANS_KITTY_OFF)
    at = find(t.bids, call)
    if at < 0:
        return Verdict(Reason.CALL_NOT_ALLOWED, seat, NOT_ON_LADDER)
    if t.bid_kind[at] == K_BLIND and not first:
        return Verdict(Reason.BLIND_MISERE_NOT_FIRST_CALL, seat)
    if h.high_bid >= 0 and t.bid_rung[at] <= t.bid_rung[h.high_bid]:
        same = t.bid_rung[at] == t.bid_rung[h.high_bid]
        return Verdict(Reason.BID_TOO_LOW, seat, SAME_RUNG if same else -1)
    if t.bid_kind[at] == K_MISERE and t.misere_needs_seven:
        return Verdict(Reason.MISERE_NEEDS_SEVEN, seat)
    return Verdict(Reason.CALL_NOT_ALLOWED, seat)  # pragma: no cover - every refusal named


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
        return Verdict(Reason.NOT_AN_ACTION, seat, NOT_A_CARD)
    if suit is not None and type(suit) is not Suit:
        return Verdict(Reason.NOT_AN_ACTION, seat, NOT_A_SUIT)
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
                return Verdict(Reason.JOKER_SUIT_NOT_ALLOWED, seat, LAST_TRICK)  # R7.5
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
        return Verdict(Reason.JOKER_SUIT_NOT_ALLOWED, seat, NO_SUIT_TO_NAME)
    if (mask >> pos) & 1:
        return _LEGAL
    led = s._led
    if hand & ctx.suit_masks[led]:
        return Verdict(Reason.MUST_FOLLOW_SUIT, seat, led)
    return Verdict(Reason.MUST_PLAY_JOKER, seat, led)


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


def _not_a_state(state: object) -> FiveHundredTypeError:
    return FiveHundredTypeError(
        f"a fivehundred GameState is needed (from new_game, deal or apply), not {state!r}"
    )


def apply(state: object, action: object, *, seat: object = ANY_SEAT) -> GameState:
    """The state after ``action`` by the seat to act. The input is never changed.

    Pass ``seat`` to check that the action comes from the seat whose turn it
    is (a server validating a client's move: :func:`~fivehundred.play` reads the
    move's text too). Leaving ``seat`` out (:data:`~fivehundred.ANY_SEAT`) skips
    that check, for a trusted caller; ``seat=None`` is no seat and is refused
    (``NOT_YOUR_TURN``), so a client's ``null`` cannot skip it. An illegal action raises
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
    s = state
    if seat is _ANY or (type(seat) is int and seat == s._to_act):
        h = s._h
        phase = h.phase
        # 1. an action handed out by legal_actions: found by identity in the cache
        legal = s._legal
        if legal is not None:
            for at in range(len(legal)):
                if legal[at] is action:
                    codes = s._codes
                    if phase == PLAY and codes is not None:
                        code = codes[at]
                        return apply_play(s, action, code & 63, (code >> 6) - 1)  # type: ignore[arg-type]  # a listed play
                    if phase == BIDDING:
                        return apply_call(s, at)
                    break
        # 2. any other action of the phase, checked by the phase's own fast test; those
        # tests accept only what judge() accepts
        if phase == PLAY and type(action) is Play:
            applied = _fast_play(s, action)
            if applied is not None:
                return applied
        elif phase == BIDDING and type(action) is Call:
            at = find(calls_for(h.t, h.high_bid, not (h.called >> s._to_act) & 1)[0], action)
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
    # 3. refused: the reason comes from the one evaluation behind is_legal and check_action
    from fivehundred._engine.explain import explain

    raise explain(s, action, judge(s, action, seat), seat)


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
