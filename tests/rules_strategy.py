"""Hypothesis strategies for random ``Rules`` and random reachable states under them.

``random_rules()`` draws every option of ``fh.Rules`` for every player count,
respecting the combinations ``Rules`` refuses (``team_size`` per count,
``partner_by_seat`` only for five, ``black_fours`` only for four, no
``self_raise``/``rebid`` with ``single_round``, a ``score_cap`` below the target).

``play(rules, seed, steps)`` plays a seeded game through the public API only:
``new_game`` → ``deal`` → ``apply`` of a legal action. Its policy passes often
(so auctions stop at every level of the ladder, misère included), picks a
random discard without listing them all (the V-45 kitty has 3,003 choices),
and otherwise takes any legal action.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Final

from hypothesis import strategies as st

import fivehundred as fh
from rules_strategies import rules, rules_from_random

__all__ = ["GAME_STATES", "game_states_under", "play", "random_rules", "rules_from", "states"]


@st.composite
def random_rules(draw: st.DrawFn, players: int | None = None) -> fh.Rules:
    """Any valid ``Rules``: every player count, every option (see ``rules_strategies``)."""
    return draw(rules(players))


def rules_from(rng: random.Random, players: int | None = None) -> fh.Rules:
    """Like :func:`random_rules`, from a ``random.Random`` (for pools built outside Hypothesis)."""
    return rules_from_random(rng, players)


def _choose(state: fh.GameState, rng: random.Random) -> fh.Action:
    phase = state.phase
    if phase is fh.Phase.DISCARD:
        seat = state.to_act
        assert seat is not None
        pool = [*state.hand(seat), *state.kitty]
        return fh.Discard(rng.sample(pool, state.rules.kitty_size))
    actions = fh.legal_actions(state)
    if phase is fh.Phase.BIDDING and rng.random() < 0.6:
        return fh.PASS
    return rng.choice(actions)


def play(rules: fh.Rules, seed: int, *, dealer: int | None = 0) -> Iterator[fh.GameState]:
    """Every state of one seeded game under ``rules`` (deals included), to its end."""
    rng = random.Random(seed)
    state = fh.new_game(rules, dealer=dealer)
    yield state
    while not state.is_over:
        if state.phase is fh.Phase.DEAL:
            if state.hand_number >= 60:
                return
            state = fh.deal(state, seed=rng.getrandbits(32))
        else:
            state = fh.apply(state, _choose(state, rng))
        yield state


@st.composite
def game_states_under(
    draw: st.DrawFn, rules: st.SearchStrategy[fh.Rules], max_steps: int = 150
) -> fh.GameState:
    """A reachable state: a seeded game under drawn rules, stopped after a drawn number of steps."""
    chosen = draw(rules)
    seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    dealer = draw(st.none() | st.integers(min_value=0, max_value=chosen.players - 1))
    steps = draw(st.integers(min_value=0, max_value=max_steps))
    state = fh.new_game(chosen, dealer=dealer)
    for count, state in enumerate(play(chosen, seed, dealer=dealer)):  # noqa: B007
        if count >= steps:
            break
    return state


def states(max_steps: int = 150) -> st.SearchStrategy[fh.GameState]:
    """Random reachable states under random rules."""
    return game_states_under(random_rules(), max_steps)


#: The default strategy of the round-trip and leak tests.
GAME_STATES: Final = states()
