"""``fivehundred.solver.review_card``: a card's review (the best, the played and the worst
counts, the best and the worst cards) by bounded tests, checked against every card's
exact count from ``solve_in_hand`` at every table size (R5, R6)."""

from __future__ import annotations

import random

import attrs
import pytest

import fivehundred as fh
from fivehundred.bots import RandomPlayer
from fivehundred.solver import HandMemory, review_card, solve_in_hand

#: Tricks left at most when a card is checked (the full solve is the slow side).
LEFT = 4


def played_cards(players: int, seed: int, misere: bool) -> list[tuple[fh.GameState, fh.Play]]:
    """Each card played in a hand bid and played at random, with the state before it,
    from ``LEFT`` tricks left on (none if the hand was not contracted)."""
    rules = fh.Rules.australian(players=players, misere_playout=misere)
    state = fh.deal(fh.new_game(rules, dealer=0), seed=seed)
    bot = RandomPlayer(random.Random(seed))
    cards = []
    hand = state.hand_number
    while state.phase is not fh.Phase.DEAL and state.result is None:
        seat = state.to_act
        assert seat is not None
        action = bot.choose(fh.observe(state, seat))
        if (
            isinstance(action, fh.Play)
            and state.contractor is not None
            and len(state.hand(seat)) <= LEFT
        ):
            cards.append((state, action))
        state = fh.apply(state, action)
        if state.hand_number != hand:
            break
    return cards


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_card_review_agrees_with_every_cards_exact_count_R5_R6(
    players: int, misere: bool
) -> None:
    checked = 0
    for seed in range(6):
        shared = HandMemory()
        for state, play in reversed(played_cards(players, seed, misere)):
            full = solve_in_hand(state)
            cost = {other: abs(full.tricks - value) for other, value in full.values.items()}
            worst = max(cost.values())
            worst_plays = tuple(other for other, n in cost.items() if n == worst)
            for memory in (None, shared):  # alone, and sharing the hand's memory
                got = review_card(state, play, memory=memory)
                assert got.exact and got.nodes >= 1
                assert got.taken == full.taken
                assert (got.tricks, got.played, got.best) == (
                    full.tricks,
                    full.values[play],
                    full.best,
                )
                assert (got.worst, got.worst_plays) == (full.values[worst_plays[0]], worst_plays)
            checked += 1
    assert checked >= 20


def test_a_card_review_within_too_few_positions_is_not_exact_R5() -> None:
    cards = [c for c in played_cards(4, 1, False) if len(fh.legal_plays(c[0])) > 2]
    state, play = cards[0]
    full = review_card(state, play)
    assert full.exact and full.nodes > 1
    assert not review_card(state, play, nodes=1).exact
    assert review_card(state, play, nodes=full.nodes) == full
    # a budget that runs out at any step of the search is said, never a wrong answer
    for budget in range(1, full.nodes, max(1, full.nodes // 40)):
        cut = review_card(state, play, nodes=budget)
        assert not cut.exact or cut == attrs.evolve(full, nodes=cut.nodes)
    # a wrong guess at the played card's count costs positions, never the answer
    seat = state.to_act
    assert seat is not None
    for guess in (0, len(state.hand(seat))):
        assert review_card(state, play, guess=guess).played == full.played
