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
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

from hypothesis import strategies as st

import fivehundred as fh

__all__ = ["GAME_STATES", "game_states_under", "play", "random_rules", "rules_from", "states"]

_TEAM_SIZES: Final = {2: (1,), 3: (1,), 4: (2,), 5: (1,), 6: (2, 3)}
_FLAGS: Final = (
    "misere",
    "misere_needs_seven",
    "misere_by_value",
    "open_misere_top",
    "blind_misere",
    "sans_kitty",
    "all_pass_no_trumps",
    "joker_lead_last",
    "joker_name_any",
    "joker_nomination",
    "open_before_lead",
    "eldest_leads",
    "slam_bonus",
    "defence_wins",
    "misere_playout",
    "same_dealer",
)


def _options(pick: Callable[[Sequence[Any]], Any], players: int | None) -> fh.Rules:
    """Rules from choices made by ``pick`` (a Hypothesis draw or a ``random.Random``)."""
    n = pick((2, 3, 4, 5, 6)) if players is None else players
    options: dict[str, Any] = {"players": n, "team_size": pick(_TEAM_SIZES[n])}
    if n == 5:
        options["partner_by_seat"] = pick((False, True))
    if n == 4:
        options["black_fours"] = pick((False, True))
    for flag in _FLAGS:
        options[flag] = pick((False, True))
    single = pick((False, True))
    options["single_round"] = single
    if not single:
        options["self_raise"] = pick((False, True))
        options["rebid"] = pick((False, True))
    options["trick_points"] = pick((10, 0, 5, 20, -10))
    target = pick((500, 250, 1000, 100))
    options["target"] = target
    options["losing_score"] = pick((-500, -250, -1000, -100))
    options["score_cap"] = pick((None, target - 10, target - 20))
    return fh.Rules(**options)


@st.composite
def random_rules(draw: st.DrawFn, players: int | None = None) -> fh.Rules:
    """Any valid ``Rules``: every player count, every option, small targets included."""
    return _options(lambda values: draw(st.sampled_from(values)), players)


def rules_from(rng: random.Random, players: int | None = None) -> fh.Rules:
    """Like :func:`random_rules`, from a ``random.Random`` (for pools built outside Hypothesis)."""
    return _options(rng.choice, players)


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
