"""The fast playout path agrees with apply on every step (a differential test)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fivehundred as fh
from fivehundred.ai.playout import playout

TABLES = (
    fh.Rules(),
    fh.Rules(players=2),
    fh.Rules(players=3),
    fh.Rules(players=5),
    fh.Rules(players=5, partner_by_seat=True),
    fh.Rules(players=6),
    fh.Rules(players=6, team_size=3),
    fh.Rules(all_pass_no_trumps=True, rebid=True, self_raise=True, sans_kitty=True),
    fh.Rules(misere_playout=True, joker_name_any=True, eldest_leads=True),
    fh.Rules(black_fours=True, joker_lead_last=True, score_cap=490, defence_wins=True),
    fh.Rules.american(),
)


def _replayed_step_by_step(final: fh.GameState, start: fh.GameState) -> fh.GameState:
    """Apply the playout's actions to ``start`` one by one through the public API."""
    record = fh.record(final)
    state = start
    done = len(fh.record(start).hands)
    for number, hand in enumerate(record.hands, 1):
        if number < done:
            continue
        if number > done:
            state = fh.deal(state, cards=hand.deck)
        for action in hand.actions[len(state.actions) if number == done else 0 :]:
            assert fh.is_legal(state, action)
            state = fh.apply(state, action)
    return state


@settings(max_examples=40, deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10**6), steps=st.integers(0, 60))
def test_playout_agrees_with_apply_on_every_step(table: fh.Rules, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    start = fh.deal(fh.new_game(table, dealer=seed % table.players), rng=rng)
    for _ in range(steps):  # a random point of the hand: auction, kitty or play
        if start.phase in (fh.Phase.DEAL, fh.Phase.GAME_OVER):
            break
        start = fh.apply(start, rng.choice(fh.legal_actions(start)))
    final = playout(start, rng=rng)
    assert final.phase in (fh.Phase.DEAL, fh.Phase.GAME_OVER)
    assert _replayed_step_by_step(final, start) == final
    assert fh.replay(fh.record(final)) == final


@pytest.mark.parametrize("table", TABLES, ids=lambda r: f"{r.players}p")
def test_playout_to_the_end_of_the_game_replays_exactly(table: fh.Rules) -> None:
    final = playout(fh.new_game(table, dealer=0), rng=random.Random(7), until="game")
    assert final.is_over and final.result is not None
    assert fh.replay(fh.record(final)) == final


def test_playout_is_repeatable_and_never_changes_its_input() -> None:
    start = fh.deal(fh.new_game(dealer=1), seed=3)
    first = playout(start, rng=random.Random(11))
    assert playout(start, rng=random.Random(11)) == first
    assert start == fh.deal(fh.new_game(dealer=1), seed=3)
    assert start.phase is fh.Phase.BIDDING


def test_playout_from_a_finished_hand_plays_the_next_hand() -> None:
    long_game = fh.Rules(target=5000, losing_score=-5000)  # one random hand cannot end it
    waiting = playout(fh.deal(fh.new_game(long_game, dealer=0), seed=5), rng=random.Random(2))
    assert waiting.phase is fh.Phase.DEAL
    after = playout(waiting, rng=random.Random(3))
    assert after.hand_number == waiting.hand_number + 1 == 2


def test_a_policy_chooses_every_action() -> None:
    chosen: list[fh.Action] = []

    def first_legal(state: fh.GameState, rng: random.Random) -> fh.Action:
        action = fh.legal_actions(state)[0]
        chosen.append(action)
        return action

    start = fh.deal(fh.new_game(dealer=0), seed=9)
    final = playout(start, first_legal, random.Random(1))
    assert tuple(chosen) == fh.record(final).hands[-1].actions


def test_a_policy_that_breaks_the_rules_is_refused() -> None:
    def reckless(state: fh.GameState, rng: random.Random) -> fh.Action:
        return fh.MISERE  # not legal as an opening bid (R3.4)

    with pytest.raises(fh.IllegalActionError) as err:
        playout(fh.deal(fh.new_game(dealer=0), seed=9), reckless, random.Random(1))
    assert err.value.reason is fh.Reason.MISERE_NEEDS_SEVEN


def test_playout_refuses_an_unknown_stopping_point() -> None:
    with pytest.raises(ValueError, match="'hand' or 'game'"):
        playout(fh.new_game(dealer=0), until="trick")  # type: ignore[arg-type]  # on purpose


def test_playout_without_a_random_source_still_ends_the_hand() -> None:
    final = playout(fh.deal(fh.new_game(dealer=0), seed=4))
    assert final.phase in (fh.Phase.DEAL, fh.Phase.GAME_OVER)
