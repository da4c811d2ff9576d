"""Game records: the rules, the dealt cards and the actions, which replay to the same state.

A game is its rules, its deals and its actions (R2.3): :func:`record` takes
them out of a state and :func:`replay` rebuilds the identical state from them,
checking every action on the way.

>>> import fivehundred as fh
>>> state = fh.deal(fh.new_game(dealer=3), seed=7)
>>> state = fh.apply(state, fh.parse_call("6S"))
>>> game = fh.record(state)
>>> len(game.hands), game.hands[0].actions
(1, (Call.parse('6S'),))
>>> fh.replay(game) == state
True
"""

from __future__ import annotations

import attrs

from fivehundred.actions import Action
from fivehundred.cards import CARDS, Card
from fivehundred.engine import apply, deal, new_game
from fivehundred.errors import FiveHundredError, InvalidStateError
from fivehundred.rules import Rules
from fivehundred.state import GameState, Phase

__all__ = ["GameRecord", "HandRecord", "record", "replay"]


@attrs.frozen
class HandRecord:
    """One hand: its dealer, the deck order it was dealt from (R2.2) and its actions."""

    dealer: int
    deck: tuple[Card, ...]
    actions: tuple[Action, ...] = ()


@attrs.frozen
class GameRecord:
    """A whole game so far: the rules, the first dealer and every hand dealt."""

    rules: Rules
    #: The first dealer (``None`` when a game not yet dealt leaves it to chance, R2.1).
    dealer: int | None
    hands: tuple[HandRecord, ...] = ()


_IN_HAND = frozenset({Phase.BIDDING, Phase.DISCARD, Phase.PARTNER, Phase.NOMINATE, Phase.PLAY})


def record(state: GameState) -> GameRecord:
    """The record of a game: :func:`replay` turns it back into ``state``."""
    c = state._c
    hands = [
        HandRecord(dealer, tuple(CARDS[i] for i in deck), actions)
        for dealer, deck, actions in c.history
    ]
    if c.phase in _IN_HAND:
        assert c.dealer is not None
        hands.append(HandRecord(c.dealer, tuple(CARDS[i] for i in c.deck), c.actions))
    first = hands[0].dealer if hands else c.dealer
    return GameRecord(c.rules, first, tuple(hands))


def replay(game: GameRecord) -> GameState:
    """Rebuild a state from its record, checking every deal and action.

    A record that does not replay raises :class:`~fivehundred.InvalidStateError`
    naming the hand and the action that failed.
    """
    if not isinstance(game, GameRecord):
        raise InvalidStateError([f"a GameRecord is needed, not {type(game).__name__}"])
    try:
        state = new_game(game.rules, dealer=game.dealer)
    except (FiveHundredError, TypeError) as err:
        raise InvalidStateError([f"the game cannot start: {err}"]) from None
    for number, hand in enumerate(game.hands, 1):
        if state.phase is not Phase.DEAL:
            raise InvalidStateError(
                [f"hand {number} is dealt before hand {number - 1} is over ({state.phase.value})"]
            )
        if state.dealer is not None and hand.dealer != state.dealer:
            raise InvalidStateError(
                [f"hand {number} names dealer {hand.dealer}, but seat {state.dealer} deals it"]
            )
        try:
            if state.dealer is None:
                state = new_game(game.rules, dealer=hand.dealer)
            state = deal(state, cards=hand.deck)
        except (FiveHundredError, TypeError) as err:
            raise InvalidStateError([f"hand {number} cannot be dealt: {err}"]) from None
        for step, action in enumerate(hand.actions, 1):
            try:
                state = apply(state, action)
            except FiveHundredError as err:
                raise InvalidStateError(
                    [f"hand {number}, action {step} ({action}) is illegal: {err}"]
                ) from None
        if state.phase in _IN_HAND and number < len(game.hands):
            raise InvalidStateError([f"hand {number} stops before it is over"])
    return state
