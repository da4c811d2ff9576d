"""Start anywhere (issue 11): games from given running scores, saved and replayed with
them; the top-level game_result; who has passed and the self-raise offer on views;
the deal passing after the last hand (R2.1)."""

from __future__ import annotations

import random

import pytest

import fivehundred as fh
from fivehundred.records import record_from_text, record_to_text
from variant_helpers import dealt, go


def _played(state: fh.GameState, seed: int, hands: int) -> list[fh.GameState]:
    rng = random.Random(seed)
    states = [state]
    while not state.is_over and state.hand_number <= hands:
        if state.phase is fh.Phase.DEAL:
            state = fh.deal(state, rng=rng)
        else:
            state = fh.apply(state, rng.choice(fh.legal_actions(state)))
        states.append(state)
    return states


def test_a_game_starts_from_given_scores_R8() -> None:
    state = fh.new_game(dealer=1, scores=(480, 350))
    assert state.scores == (480, 350)
    assert fh.deal(state, seed=3).scores == (480, 350)
    assert fh.new_game(dealer=1, scores=[0, 0]) == fh.new_game(dealer=1)
    five = fh.new_game(fh.Rules(players=5), scores=(10, 20, -30, 40, 0))
    assert five.scores == (10, 20, -30, 40, 0)


@pytest.mark.parametrize(
    ("rules", "start"),
    [
        (fh.Rules(), (480, 350)),
        (fh.Rules(), (-490, 120)),
        (fh.Rules(players=5), (100, -200, 0, 30, 70)),
        (fh.Rules(players=6), (200, 300, 0)),
    ],
)
def test_starting_scores_round_trip_through_records_json_and_text_R2_3(
    rules: fh.Rules, start: tuple[int, ...]
) -> None:
    states = _played(fh.new_game(rules, dealer=0, scores=start), seed=sum(start), hands=6)
    for state in states[:: max(1, len(states) // 12)] + states[-1:]:
        game = fh.record(state)
        assert game.scores == start
        assert fh.replay(game) == state
        assert fh.from_json(fh.to_json(state)) == state
        assert fh.from_json(fh.to_json(game), cls=fh.GameRecord) == game
        assert record_from_text(record_to_text(game)) == game
    text = record_to_text(fh.record(states[-1]))
    assert f"scores={','.join(map(str, start))}" in text.splitlines()[0]
    assert fh.to_dict(fh.record(states[-1]))["scores"] == list(start)


def test_a_game_from_zero_has_one_spelling_R2_3() -> None:
    state = _played(fh.new_game(dealer=0), seed=4, hands=3)[-1]
    game = fh.record(state)
    assert game.scores is None
    assert "scores" not in fh.to_dict(state)["record"]
    doc = fh.to_dict(state)
    doc["record"]["scores"] = [0, 0]
    with pytest.raises(fh.InvalidStateError, match="leaves the scores out"):
        fh.from_dict(doc)
    text = record_to_text(game).replace("dealer=0", "dealer=0 scores=0,0", 1)
    with pytest.raises(fh.NotationError, match="leaves scores= out"):
        record_from_text(text)


def test_bad_starting_scores_are_refused_in_documents_and_texts() -> None:
    state = fh.deal(fh.new_game(dealer=0, scores=(100, 50)), seed=1)
    doc = fh.to_dict(state)
    doc["record"]["scores"] = [100, 50, 7]
    with pytest.raises(fh.InvalidStateError, match=r"record\.scores"):
        fh.from_dict(doc)
    doc["record"]["scores"] = ["100", 50]
    with pytest.raises(fh.InvalidStateError, match=r"record\.scores\[0\]"):
        fh.from_dict(doc)
    text = record_to_text(fh.record(state))
    with pytest.raises(fh.NotationError, match="given twice"):
        record_from_text(text.replace("scores=100,50", "scores=100,50 scores=1,2"))
    with pytest.raises(fh.InvalidStateError, match="one score per side"):
        fh.replay(record_from_text(text.replace("scores=100,50", "scores=100,50,3")))
    with pytest.raises(fh.InvalidStateError, match="starting scores must be ints"):
        fh.replay(fh.GameRecord(fh.Rules(), 0, (), ("1", 2)))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rules", "scores", "error", "match"),
    [
        (fh.Rules(), (1, 2, 3), fh.InvalidStateError, "one score per side"),
        (fh.Rules(), (10**6, 0), fh.InvalidStateError, "strictly within"),
        (fh.Rules(), (-500, 0), fh.InvalidStateError, "R9.2"),
        (fh.Rules(defence_wins=True), (500, 0), fh.InvalidStateError, "V-DEFENCE-WINS"),
        (fh.Rules(score_cap=490), (0, 520), fh.InvalidStateError, "V-CAP"),
        (fh.Rules(), (True, 0), TypeError, "ints"),
        (fh.Rules(), (1.0, 0), TypeError, "ints"),
        (fh.Rules(), "10", TypeError, "ints"),
        (fh.Rules(), 480, TypeError, "ints"),
    ],
)
def test_starting_scores_are_checked_R9(
    rules: fh.Rules, scores: object, error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        fh.new_game(rules, scores=scores)  # type: ignore[arg-type]  # wrong values on purpose


def test_starting_scores_under_a_cap_round_trip_V_CAP() -> None:
    rules = fh.Rules(score_cap=490)
    for seed in range(12):
        state = _played(fh.new_game(rules, dealer=0, scores=(470, 480)), seed=seed, hands=8)[-1]
        assert fh.record(state).scores == (470, 480)
        assert fh.from_json(fh.to_json(state)) == state


def test_a_side_past_the_target_on_defence_still_plays_on_R9_3() -> None:
    state = fh.new_game(dealer=0, scores=(520, 100))
    assert state.phase is fh.Phase.DEAL and not state.is_over


def test_game_result_is_top_level_and_its_winners_ascend_R9_1_P_END() -> None:
    assert fh.game_result is fh.scoring.game_result
    five = fh.Rules(players=5)
    # the contractor is side 3, its partner side 1: both reach the target
    result = fh.game_result((3, 1), True, (0, 520, 0, 530, 0), five)
    assert result is not None and result.winners == (1, 3)
    assert result.outcome is fh.Outcome.CONTRACT_MADE and result.deciding_side == 3


def test_the_view_shows_who_has_passed_R3_7() -> None:
    state = go(dealt(fh.Rules(), dealer=3), "6S pass")
    view = fh.observe(state, 2)
    assert view.passed == frozenset({1}) == state.passed
    assert not view.raise_offered


def test_under_rebid_a_seat_that_bids_again_has_not_passed_V_REBID() -> None:
    state = go(dealt(fh.Rules(rebid=True), dealer=3), "6S pass pass 7S pass 8S")
    assert fh.observe(state, 0).passed == frozenset({2, 0})


def test_under_rebid_the_state_passed_drops_a_seat_that_bids_again_V_REBID() -> None:
    state = go(dealt(fh.Rules(rebid=True), dealer=3), "6S pass pass 7S pass 8S")
    assert state.passed == frozenset({2, 0})


def test_the_self_raise_offer_is_on_the_view_V_SELF_RAISE() -> None:
    state = go(dealt(fh.Rules(self_raise=True), dealer=3), "7H pass pass pass")
    assert state.phase is fh.Phase.BIDDING and state.to_act == 0
    assert all(fh.observe(state, seat).raise_offered for seat in range(4))
    assert not fh.observe(go(state, "8H"), 1).raise_offered
    before = go(dealt(fh.Rules(self_raise=True), dealer=3), "7H pass pass")
    assert not fh.observe(before, 3).raise_offered


def test_the_self_raise_offer_is_on_the_state_V_SELF_RAISE() -> None:
    state = go(dealt(fh.Rules(self_raise=True), dealer=3), "7H pass pass pass")
    assert state.raise_offered


def _finished_game() -> fh.GameState:
    state = _played(fh.new_game(dealer=0, scores=(490, 0)), seed=9, hands=40)[-1]
    assert state.is_over
    return state


def test_the_deal_passes_after_the_last_hand_too_R2_1() -> None:
    state = _finished_game()
    assert state.last_hand is not None
    assert state.dealer == (state.last_hand.dealer + 1) % state.rules.players


def test_a_finished_game_from_given_scores_round_trips_R9() -> None:
    state = _finished_game()
    assert fh.from_json(fh.to_json(state)) == state
    assert fh.record(state).scores == (490, 0)
