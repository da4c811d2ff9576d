"""Fast random playouts for bots: to the end of the hand or of the game.

:func:`playout` plays on from a state with uniformly random legal actions
(or with a policy of yours) and returns the final state. Card play runs on
plain integers and lists inside one function call — no state is built per
card — and nothing mutable ever leaves it. The result is exactly the state
that :func:`~fivehundred.apply` would reach with the same actions: the
actions are in its record.

>>> import random
>>> import fivehundred as fh
>>> state = fh.deal(fh.new_game(dealer=0), seed=3)
>>> final = fh.playout(state, rng=random.Random(1))
>>> final.phase in (fh.Phase.DEAL, fh.Phase.GAME_OVER), final.last_hand.number
(True, 1)
>>> fh.replay(fh.record(final)) == final  # the same actions through apply
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Literal

from fivehundred.actions import Action, Play
from fivehundred.cards import index_tuple
from fivehundred.engine import (
    _DISCARDS,
    _apply_call,
    _apply_discard,
    _apply_nomination,
    _apply_partner,
    _bid_options,
    _nomination_options,
    _partner_options,
    _plays,
    _score,
    apply,
    deal,
    playable,
)
from fivehundred.errors import IllegalActionError, Reason
from fivehundred.scoring import TRICKS_PER_HAND
from fivehundred.state import Core, GameState, Phase

__all__ = ["Policy", "playout"]

#: A policy: given a state whose seat is to act, and a random source, pick a legal action.
Policy = Callable[[GameState, random.Random], Action]


def playout(
    state: GameState,
    policy: Policy | None = None,
    rng: random.Random | None = None,
    *,
    until: Literal["hand", "game"] = "hand",
) -> GameState:
    """Play on from ``state`` to the end of the hand (or of the game) and return the end state.

    With no ``policy`` every seat takes a uniformly random legal action (the
    fast path: card play runs on integers). A ``policy`` is called with each
    state to act and ``rng``; its actions are checked like any other. With
    ``until="game"`` new hands are dealt from ``rng`` until the game is over.
    ``rng`` defaults to a fresh ``random.Random()``; the global ``random`` is
    never used.
    """
    if until not in ("hand", "game"):
        raise ValueError(f"until={until!r}: 'hand' or 'game'")
    source = rng if rng is not None else random.Random()
    c = state._c
    played = False  # has a hand been under way?
    while c.phase is not Phase.GAME_OVER:
        if c.phase is Phase.DEAL:
            if until == "hand" and played:
                break
            c = deal(GameState._make(c), rng=source)._c
            continue
        played = True
        if policy is not None:
            current = GameState._make(c)
            c = apply(current, policy(current, source))._c
        elif c.phase is Phase.PLAY:
            c = _random_play(c, source)
        else:
            c = _random_step(c, source)
    return GameState._make(c)


def _random_step(c: Core, rng: random.Random) -> Core:
    """One uniformly random action outside card play."""
    phase = c.phase
    pick = rng.random
    new: Core | None
    if phase is Phase.BIDDING:
        calls = _bid_options(c)
        new = _apply_call(c, calls[int(pick() * len(calls))])
    elif phase is Phase.DISCARD:
        seat = c.contractor
        assert seat is not None
        pool = index_tuple(c.hands[seat] | c.kitty)
        chosen = tuple(sorted(rng.sample(pool, c.rules.kitty_size)))
        new = _apply_discard(c, _DISCARDS[chosen])
    elif phase is Phase.NOMINATE:
        choices = _nomination_options(c)  # only DECLINE without the Joker (R7.1)
        new = _apply_nomination(c, choices[int(pick() * len(choices))])
    else:
        options = _partner_options(c)
        new = _apply_partner(c, options[int(pick() * len(options))])
    if new is None:  # pragma: no cover - the options above are legal by construction
        raise IllegalActionError(Reason.NOT_AN_ACTION, "internal error: an illegal random step")
    return new


def _random_play(c: Core, rng: random.Random) -> Core:
    """Play the rest of the hand with uniformly random legal cards, on plain integers."""
    rules, ctx, contract = c.rules, c.ctx, c.contract
    assert ctx is not None and c.to_act is not None
    players = rules.players
    out = c.sitting_out
    active = players - out.bit_count()
    following = [(s + 1) % players for s in range(players)]
    for s in range(players):
        while out >> following[s] & 1:
            following[s] = (following[s] + 1) % players
    misere = contract is not None and contract.is_misere
    ends_early = misere and not rules.misere_playout
    contractor = c.contractor
    hands = list(c.hands)
    trick = list(c.trick)
    tricks = list(c.tricks)
    won = list(c.won)
    actions: list[Action] = list(c.actions)
    led, suits_led, seat = c.led, c.suits_led, c.to_act
    pick = rng.random
    winner_of = ctx.winner
    suit_of = ctx.suit_of
    while True:
        hand = hands[seat]
        options: tuple[Play, ...] = _plays(
            playable(hand, not trick, led, suits_led, ctx, rules, misere)
        )
        play = options[int(pick() * len(options))]
        index = play.card.index
        hands[seat] = hand ^ (1 << index)
        actions.append(play)
        if not trick:
            led = int(play.suit) if play.suit is not None else suit_of(index)
            if led >= 0:
                suits_led |= 1 << led
        trick.append((seat, index))
        if len(trick) < active:
            seat = following[seat]
            continue
        seat = trick[winner_of([i for _, i in trick], led)][0]
        won[seat] += 1
        tricks.append((tuple(trick), seat, led))
        trick = []
        led = -1
        if len(tricks) == TRICKS_PER_HAND or (ends_early and seat == contractor):
            return _score(
                c._replace(
                    hands=tuple(hands),
                    trick=(),
                    led=-1,
                    tricks=tuple(tricks),
                    won=tuple(won),
                    suits_led=suits_led,
                    actions=tuple(actions),
                    to_act=seat,
                )
            )
