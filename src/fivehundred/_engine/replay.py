"""Game records as values, and their replay: the layer beneath records and the JSON loader.

Internal: :mod:`fivehundred.records` offers :class:`GameRecord`, :class:`HandRecord` and
:func:`~fivehundred.replay`; :mod:`fivehundred.serialize` replays the records it reads
through :func:`replay_hands`. Neither of them is imported here, so the imports run one way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import attrs

from fivehundred._engine.quoting import quote
from fivehundred._engine.state import GameState
from fivehundred._engine.values import Phase
from fivehundred.actions import Action
from fivehundred.cards import Card
from fivehundred.engine import apply, deal, new_game
from fivehundred.errors import FiveHundredError, NotationError, Reason
from fivehundred.notation import format_action, parse_action
from fivehundred.rules import Rules

__all__ = ["IN_HAND", "GameRecord", "HandInput", "HandRecord", "dealer_problems", "replay_hands"]


@attrs.frozen
class HandRecord:
    """One hand: its dealer, the deck order it was dealt from (R2.2) and its actions.

    Constructing one checks nothing and raises nothing; :func:`~fivehundred.replay` checks every
    deal and action.
    """

    dealer: int
    deck: tuple[Card, ...]
    actions: tuple[Action, ...] = ()


@attrs.frozen
class GameRecord:
    """A whole game so far: the rules, the first dealer, every hand dealt and the
    starting scores.

    Constructing one checks nothing and raises nothing; :func:`~fivehundred.replay` checks every
    deal and action.
    """

    rules: Rules
    #: The first dealer (``None`` when a game not yet dealt leaves it to chance, R2.1).
    dealer: int | None
    hands: tuple[HandRecord, ...] = ()
    #: The running scores the game started from (``new_game(scores=...)``), one per
    #: side; ``None`` for a game started at 0 (a record has one spelling per game:
    #: :func:`record` never writes all zeros here).
    scores: tuple[int, ...] | None = None


def dealer_problems(rules: Rules, first: int | None, dealers: Sequence[int]) -> list[str]:
    """A sentence for each dealer of a record that is not a seat of its table (the first
    dealer, then each hand's): a form check, which needs no replay."""
    players = rules.players
    problems = []
    if first is not None and not 0 <= first < players:
        problems.append(f"dealer: {first} is not a seat (0 to {players - 1})")
    for number, dealer in enumerate(dealers, 1):
        if not 0 <= dealer < players:
            problems.append(f"hand {number}: dealer {dealer} is not a seat (0 to {players - 1})")
    return problems


# -- replaying a record ------------------------------------------------------------------

#: The phases of a hand in progress.
IN_HAND: Final = frozenset(
    {Phase.BIDDING, Phase.DISCARD, Phase.PARTNER, Phase.NOMINATE, Phase.PLAY}
)

# A hand's actions, as actions or as notation read in the phase they are taken in.
HandInput = tuple[int, Sequence[Card], Sequence[Action] | Sequence[str]]


def replay_hands(
    rules: Rules,
    first_dealer: int | None,
    hands: Sequence[HandInput],
    *,
    strict: bool = False,
    scores: Sequence[int] | None = None,
) -> tuple[GameState, tuple[HandRecord, ...], str | None]:
    """Replay hands; actions given as text are read in the phase they are taken in.

    With ``strict``, action text must be in canonical notation (:func:`format_action`).

    Returns the state reached, the hands as records (text read into actions) and
    the first problem (``None`` when the whole record replays). On a problem the
    state is the last good one and must not be used as the result.
    """
    try:
        state = new_game(rules, dealer=first_dealer, scores=scores)
    except FiveHundredError as err:  # its sentences, not its "invalid state:" heading
        return new_game(), (), f"the game cannot start: {'; '.join(err.problems)}"
    except TypeError as err:
        return new_game(), (), f"the game cannot start: {err}"
    done: list[HandRecord] = []
    for number, (dealer, deck, actions) in enumerate(hands, 1):
        if state.phase is not Phase.DEAL:
            if state.phase is Phase.GAME_OVER:
                problem = f"hand {number} is dealt after the game is over (R9)"
            else:
                problem = f"hand {number} is dealt before hand {number - 1} is over"
                problem += f" ({state.phase.value})"
            return state, tuple(done), problem
        if state.dealer is not None and dealer != state.dealer:
            problem = f"hand {number} names dealer {dealer}, but seat {state.dealer} deals it"
            return state, tuple(done), problem
        try:
            if state.dealer is None:
                state = new_game(rules, dealer=dealer, scores=scores)
            state = deal(state, cards=deck)
        except (FiveHundredError, TypeError) as err:
            return state, tuple(done), f"hand {number} cannot be dealt: {err}"
        taken: list[Action] = []
        for step, item in enumerate(actions, 1):
            if state.phase not in IN_HAND:
                problem = f"hand {number}, action {step} ({item}) comes after the hand is over"
                return state, tuple(done), problem
            try:
                if isinstance(item, str):
                    action = parse_action(item, phase=state.phase)
                    if strict and format_action(action) != item:
                        written = format_action(action)
                        raise NotationError(
                            f"write {quote(item)} as {written!r}",
                            text=item,
                            reason=Reason.NOT_AN_ACTION,
                        )
                else:
                    action = item
                state = apply(state, action)
            except FiveHundredError as err:
                problem = f"hand {number}, action {step} ({item}) is illegal: {err}"
                if isinstance(err, NotationError):
                    problem = f"hand {number}, action {step}: {err}"
                return state, tuple(done), problem
            taken.append(action)
        done.append(HandRecord(dealer, tuple(deck), tuple(taken)))
        if state.phase in IN_HAND and number < len(hands):
            return state, tuple(done), f"hand {number} stops before it is over"
    return state, tuple(done), None
