"""R9 End of the game: win by making a contract at 500+, lose by failing to -500 or below."""

from __future__ import annotations

import pytest

import fivehundred as fh
from helpers import (
    MISERE_JOKER,
    Deal,
    auction_for,
    deal_next,
    in_play,
    play_out,
    run,
    start_play,
    sweep,
)


def play_hand(state: fh.GameState, deal: Deal, contract: str, contractor: int) -> fh.GameState:
    """Deal ``deal`` as the next hand, let ``contractor`` win with ``contract``, play it out."""
    assert state.dealer is not None
    state = run(deal_next(state, *deal), *auction_for(contract, contractor, state.dealer))
    return play_out(start_play(state))


def assert_game_goes_on(state: fh.GameState) -> None:
    assert state.phase is fh.Phase.DEAL
    assert state.result is None
    assert not state.is_over


def assert_game_over(state: fh.GameState) -> None:
    assert state.phase is fh.Phase.GAME_OVER
    assert state.is_over
    assert state.to_act is None
    assert fh.legal_actions(state) == ()
    with pytest.raises(fh.IllegalActionError) as info:
        fh.deal(state, seed=1)
    assert info.value.reason is fh.Reason.GAME_OVER
    with pytest.raises(fh.IllegalActionError) as info:
        fh.apply(state, fh.PASS)
    assert info.value.reason is fh.Reason.GAME_OVER


# -- R9.1 winning by contract ---------------------------------------------------------------


def test_making_a_contract_to_500_or_more_wins_R9_1() -> None:
    state = play_out(in_play("10NT", 0, *sweep(0)))
    assert state.scores == (520, 0)
    assert_game_over(state)
    assert state.result == fh.GameResult(
        winners=(0,), deciding_side=0, outcome=fh.Outcome.CONTRACT_MADE
    )
    assert [fh.observe(state, seat).result for seat in range(4)] == [state.result] * 4


def test_reaching_exactly_500_by_contract_wins_R9_1() -> None:
    state = fh.new_game(dealer=3)
    state = play_hand(state, sweep(0), "7NT", 0)  # dealer 3: a 7NT slam, 250
    assert state.scores == (250, 0)
    assert_game_goes_on(state)
    state = play_hand(state, sweep(0), "7NT", 2)  # dealer 0: the partner does it again
    assert state.scores == (500, 0)
    assert_game_over(state)
    assert state.result is not None
    assert state.result.winners == (0,)
    assert state.result.outcome is fh.Outcome.CONTRACT_MADE


def test_making_a_contract_below_500_does_not_end_the_game_R9_1() -> None:
    state = play_out(in_play("9NT", 1, *sweep(1)))
    assert state.scores == (0, 420)
    assert_game_goes_on(state)


# -- R9.2 out backwards ------------------------------------------------------------------------


def test_failing_to_minus_500_or_below_loses_R9_2() -> None:
    state = play_out(in_play("10NT", 0, *sweep(1)))
    assert state.scores == (-520, 100)
    assert_game_over(state)
    assert state.result == fh.GameResult(
        winners=(1,), deciding_side=0, outcome=fh.Outcome.OUT_BACKWARDS
    )


def test_failing_to_exactly_minus_500_loses_and_the_other_side_wins_R9_2() -> None:
    forced_loss = ("4D", "AD", "4H", "AH", "5H", "Jo")  # the contractor must win with the Joker
    state = run(in_play("M", 0, *MISERE_JOKER), *forced_loss)
    assert state.scores == (-250, 0)
    assert_game_goes_on(state)
    state = run(deal_next(state, *MISERE_JOKER), *auction_for("M", 0, 0))
    state = run(start_play(state), *forced_loss)
    assert state.scores == (-500, 0)
    assert_game_over(state)
    assert state.result is not None
    assert state.result.winners == (1,)  # with 0 points
    assert state.result.deciding_side == 0
    assert state.result.outcome is fh.Outcome.OUT_BACKWARDS


def test_failing_above_minus_500_does_not_end_the_game_R9_2() -> None:
    state = play_out(in_play("8NT", 0, *sweep(1)))
    assert state.scores == (-320, 100)
    assert_game_goes_on(state)


# -- R9.3 500 on defence --------------------------------------------------------------------


def test_reaching_500_on_defence_does_not_win_R9_3() -> None:
    state = fh.new_game(dealer=3)
    state = play_hand(state, sweep(1), "9NT", 1)  # dealer 3: seat 1 makes 9NT
    assert state.scores == (0, 420)
    assert_game_goes_on(state)
    state = play_hand(state, sweep(1), "6NT", 2)  # dealer 0: seats 1 and 3 defend every trick
    assert state.scores == (-120, 520)
    assert_game_goes_on(state)
    assert state.last_hand is not None
    assert state.last_hand.made is False
    # Play goes on: seat 0 makes 6NT (a slam, 250); side 1 is still at 520 and has not won.
    state = play_hand(state, sweep(0), "6NT", 0)
    assert state.scores == (130, 520)
    assert_game_goes_on(state)
    # Side 1 wins only when it makes a contract (R9.1).
    state = play_hand(state, sweep(1), "6NT", 3)
    assert state.scores == (130, 770)
    assert_game_over(state)
    assert state.result is not None
    assert state.result.winners == (1,)
    assert state.result.deciding_side == 1
    assert state.result.outcome is fh.Outcome.CONTRACT_MADE


def test_defenders_over_500_do_not_win_when_the_contract_fails_R9_3() -> None:
    state = fh.new_game(dealer=3)
    state = play_hand(state, sweep(1), "9NT", 3)  # side 1: 420
    state = play_hand(state, sweep(1), "8NT", 0)  # side 0 fails: -320; side 1 defends: 520
    assert state.scores == (-320, 520)
    assert_game_goes_on(state)
