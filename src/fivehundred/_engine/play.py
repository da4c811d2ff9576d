"""Card play (R5, R7): what may be played, a card played, the trick won, the hand's end.

The legal plays of a hand (R5.3, R7.3-R7.5) are :func:`playable` and
:func:`nameable`: the one place those rules are written, read by the engine, the
solver and the players. :func:`play_card` lays a card, decides the trick with
:meth:`~fivehundred._engine.order.Ctx.best` (R5.4), ends a misère early (R6.2)
and, after the last trick, scores the hand (:func:`finish_hand`, R8, R9).

Internal; compiled by mypyc.
"""

from __future__ import annotations

from typing import Final, cast

from fivehundred._engine import outcome
from fivehundred._engine.hand import DEAL, OVER, PLAY
from fivehundred._engine.order import Ctx
from fivehundred._engine.state import (
    GameState,
    TrickNode,
    hand_of,
    log_tuple,
    logged,
    replace_at,
    won_by,
)
from fivehundred._engine.table import Table
from fivehundred.actions import Play
from fivehundred.scoring import OUTCOMES, GameResult

ALL_SUITS: Final = 0b1111


def playable(
    ctx: Ctx,
    hand: int,
    leading: bool,
    led: int,
    suits_led: int,
    misere: bool,
    lead_last: bool,
    name_any: bool,
) -> int:
    """The playable cards of a hand, as a mask: the one place R5.3 and R7 decide it.

    ``led`` is the led suit (``-1`` when a suitless Joker was led to the last
    trick), ``suits_led`` the mask of suits led so far (R7.4), ``misere`` whether
    the contract is a misère (R7.3), ``lead_last`` V-JOKER-LEAD-LAST and
    ``name_any`` V-JOKER-NAME-ANY.
    """
    jb = ctx.joker_bit
    if leading:
        if hand & jb and ctx.free_joker:
            if hand == jb:  # the last trick: led with no suit named (R7.5)
                return hand
            if lead_last:  # V-JOKER-LEAD-LAST
                return hand & ~jb
            if name_any or ALL_SUITS & ~suits_led:  # V-JOKER-NAME-ANY, R7.4
                return hand
            return hand & ~jb  # every suit has been led (R7.5)
        return hand
    if led < 0:
        return hand
    follow = hand & ctx.suit_masks[led]
    if follow:
        return follow
    if misere and hand & jb and ctx.trump_mask == jb:
        return jb  # R7.3: the void misère player must play the Joker
    return hand


def nameable(ctx: Ctx, hand: int, leading: bool, suits_led: int, name_any: bool) -> int:
    """The suits a Joker lead may name (R7.4), or ``-1`` when the Joker names no suit.

    Meaningful when the Joker is playable: it names a suit exactly when it is led,
    suitless (R7.2), and not the last card in hand (R7.5).
    """
    jb = ctx.joker_bit
    if not leading or not ctx.free_joker or not hand & jb or hand == jb:
        return -1
    return ALL_SUITS if name_any else ALL_SUITS & ~suits_led


def start_play(s: GameState) -> None:
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
        prime(s)


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
    return legal_pair(t, mask, names)[0]


def legal_pair(t: Table, mask: int, names: int) -> tuple[tuple[Play, ...], tuple[int, ...]]:
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
            part = t.chunk_plays[key]
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


def prime(s: GameState) -> None:
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
    s._legal, s._codes = legal_pair(t, mask, names)


def legal_plays(s: GameState) -> tuple[Play, ...]:
    """The legal plays of the seat to act, worked out once (see :func:`prime`)."""
    if s._codes is None:
        prime(s)
    return cast("tuple[Play, ...]", s._legal)  # in card play, prime keeps Plays there


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
        led = ctx.led_suit(pos, named)
        s._led = led
        if led >= 0:
            s._suits_led |= 1 << led
    trick += (pos << (3 + 7 * n)) + 1
    s._mask = -1
    if n + 1 < h.active:
        s._trick = trick
        s._to_act = h.nxt[seat]
        return
    winner = seat_at(h.nxt, s._leader, ctx.best(trick, led))
    s._won += 1 << (4 * winner)
    count = 1 if s._tricks is None else s._tricks.count + 1
    s._tricks = TrickNode(s._tricks, trick, s._leader, winner, led, count)
    s._trick = 0
    s._led = -1
    s._to_act = winner
    s._leader = winner
    if count == h.t.hand_size or misere_lost(h.ends_early, h.contractor, winner):
        if h.scored:
            finish_hand(s)
        else:
            s._to_act = -1


def seat_at(nxt: tuple[int, ...], leader: int, at: int) -> int:
    """The seat that played the ``at``-th card of a trick led by ``leader`` (R5.1):
    the trick goes round the active seats, ``nxt`` being each one's next."""
    seat = leader
    for _ in range(at):
        seat = nxt[seat]
    return seat


def misere_lost(ends_early: bool, contractor: int, winner: int) -> bool:
    """Whether a trick won by ``winner`` ends the hand at once (R6.2): a misère is lost
    with its contractor's first trick, unless the hand is played out (V-MISERE-PLAYOUT)."""
    return ends_early and winner == contractor


def finish_hand(s: GameState) -> None:
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
        prime(new)
    return new
