"""R3 Bidding: turn order, the ladder, misère prerequisites, passes, the end of the auction."""

from __future__ import annotations

import pytest

import fivehundred as fh
from helpers import assert_refused, bids, call, run

LADDER = [
    "6S", "6C", "6D", "6H", "6NT", "7S", "7C", "7D", "7H", "7NT", "M",
    "8S", "8C", "8D", "8H", "8NT", "9S", "9C", "9D", "9H", "9NT",
    "10S", "10C", "10D", "OM", "BM", "10H", "10NT",
]  # fmt: skip
SEVENS = ["7S", "7C", "7D", "7H", "7NT"]
SIXES = ["6S", "6C", "6D", "6H", "6NT"]
EIGHT_UP = ["8S", "8C", "8D", "8H", "8NT", "9S", "9NT", "10S", "10C", "10D"]
R = fh.Reason


def auction(dealer: int = 3) -> fh.GameState:
    """A freshly dealt hand, waiting for the first call (the cards do not matter here)."""
    return fh.deal(fh.new_game(dealer=dealer), seed=500 + dealer)


def above(bid: str, *, misere: bool, blind: bool) -> list[str]:
    """The legal calls over ``bid`` (by ladder position), with pass first."""
    rest = LADDER[LADDER.index(bid) + 1 :]
    if bid == "OM":
        rest = LADDER[LADDER.index("BM") + 1 :]
    return ["pass"] + [b for b in rest if (misere or b != "M") and (blind or b != "BM")]


# -- R3.1 turns and strictly higher bids ------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_player_left_of_dealer_calls_first_R3_1(dealer: int) -> None:
    assert auction(dealer).to_act == (dealer + 1) % 4


def test_turns_go_clockwise_R3_1() -> None:
    state = auction(dealer=1)
    seen = []
    for text in ("6S", "6C", "6D", "6H", "6NT", "7S"):
        assert state.to_act is not None
        seen.append(state.to_act)
        state = run(state, text)
    assert seen == [2, 3, 0, 1, 2, 3]
    assert state.to_act == 0


def test_a_bid_must_be_strictly_higher_R3_1() -> None:
    state = run(auction(), "7H")
    assert bids(state) == above("7H", misere=True, blind=True)
    err = assert_refused(state, "7H", R.BID_TOO_LOW, seat=1, rule="R3.1")
    assert "7H" in str(err)
    assert_refused(state, "7D", R.BID_TOO_LOW, seat=1, rule="R3.1")
    assert_refused(state, "6NT", R.BID_TOO_LOW, seat=1, rule="R3.1")
    assert fh.is_legal(state, call("7NT"))


def test_out_of_turn_call_is_refused_R3_1() -> None:
    state = auction()  # seat 0 to call
    err = assert_refused(state, "6S", R.NOT_YOUR_TURN, seat=2, rule="R3.1", as_seat=2)
    assert "seat 0" in str(err)
    assert fh.is_legal(state, call("6S"), seat=0)


# -- R3.2 the bids ---------------------------------------------------------------


def test_opening_calls_are_pass_trick_bids_open_and_blind_misere_R3_2() -> None:
    assert bids(auction()) == ["pass"] + [b for b in LADDER if b != "M"]


def test_trick_bids_name_six_to_ten_tricks_R3_2() -> None:
    trick_bids = [c for c in fh.legal_bids(auction()) if c.kind is fh.CallKind.BID]
    assert len(trick_bids) == 25
    assert {c.tricks for c in trick_bids} == {6, 7, 8, 9, 10}
    assert {c.strain for c in trick_bids} == set(fh.Strain)


def test_misere_kinds_are_bids_R3_2() -> None:
    state = run(auction(), "7S")
    legal = fh.legal_bids(state)
    assert {fh.MISERE, fh.OPEN_MISERE, fh.BLIND_MISERE} <= set(legal)
    state = run(state, "M", "pass", "pass", "pass")
    assert state.contract == fh.MISERE
    assert state.contractor == 1


# -- R3.3 the ladder ---------------------------------------------------------------


def test_misere_sits_between_seven_no_trumps_and_eight_spades_R3_3() -> None:
    state = run(auction(), "7NT")
    assert bids(state) == ["pass", *LADDER[LADDER.index("M") :]]
    state = run(state, "M")
    assert bids(state)[:2] == ["pass", "8S"]
    assert_refused(state, "7NT", R.BID_TOO_LOW, seat=2, rule="R3.3")


def test_eight_spades_overcalls_misere_though_worth_less_R3_3() -> None:
    assert fh.bid_value(call("8S")) < fh.bid_value(fh.MISERE)
    state = run(auction(), "7S", "M", "8S")
    assert state.high_bid == call("8S")
    assert state.high_bidder == 2


def test_open_and_blind_misere_sit_between_ten_diamonds_and_ten_hearts_R3_3() -> None:
    state = run(auction(), "10D")
    assert bids(state) == ["pass", "OM", "BM", "10H", "10NT"]
    state = run(state, "OM")
    assert bids(state) == ["pass", "10H", "10NT"]


def test_blind_misere_does_not_overcall_open_misere_R3_3() -> None:
    state = run(auction(), "OM")
    err = assert_refused(state, "BM", R.BID_TOO_LOW, seat=1, rule="R3.3")
    assert "same rung" in str(err)


def test_open_misere_does_not_overcall_blind_misere_R3_3() -> None:
    state = run(auction(), "BM")
    assert bids(state) == ["pass", "10H", "10NT"]
    assert_refused(state, "OM", R.BID_TOO_LOW, seat=1, rule="R3.3")


def test_ten_hearts_overcalls_open_misere_R3_3() -> None:
    state = run(auction(), "OM", "10H")
    assert state.high_bid == call("10H")
    assert bids(state) == ["pass", "10NT"]


# -- R3.4 misère needs a standing seven --------------------------------------------


def test_misere_is_never_an_opening_bid_R3_4() -> None:
    state = auction()
    assert "M" not in bids(state)
    assert_refused(state, "M", R.MISERE_NEEDS_SEVEN, seat=0, rule="R3.4")


@pytest.mark.parametrize("six", SIXES)
def test_misere_is_not_allowed_over_a_six_bid_R3_4(six: str) -> None:
    state = run(auction(), six)
    assert "M" not in bids(state)
    assert_refused(state, "M", R.MISERE_NEEDS_SEVEN, seat=1, rule="R3.4")


@pytest.mark.parametrize("seven", SEVENS)
def test_misere_is_allowed_over_a_seven_bid_R3_4(seven: str) -> None:
    state = run(auction(), seven)
    assert bids(state) == above(seven, misere=True, blind=True)
    state = run(state, "M")
    assert state.high_bid == fh.MISERE


@pytest.mark.parametrize("eight", EIGHT_UP)
def test_misere_is_not_allowed_over_an_eight_bid_or_higher_R3_4(eight: str) -> None:
    state = run(auction(), eight)
    assert "M" not in bids(state)
    assert_refused(state, "M", R.BID_TOO_LOW, seat=1, rule="R3.3")


def test_misere_needs_the_standing_bid_to_be_a_seven_R3_4() -> None:
    # A seven that has been overcalled by an eight no longer opens misère (docs/rules.md).
    state = run(auction(), "7S", "8S")
    assert "M" not in bids(state)


# -- R3.5 open misère ---------------------------------------------------------------


def test_open_misere_may_open_the_bidding_R3_5() -> None:
    state = auction()
    assert "OM" in bids(state)
    state = run(state, "OM", "pass", "pass", "pass")
    assert state.contract == fh.OPEN_MISERE
    assert state.contractor == 0


@pytest.mark.parametrize("bid", ["6S", "6NT", "7NT", "8H", "9NT", "10S", "10D"])
def test_open_misere_is_legal_up_to_over_ten_diamonds_R3_5(bid: str) -> None:
    state = run(auction(), bid)
    assert "OM" in bids(state)
    assert fh.is_legal(state, fh.OPEN_MISERE)


@pytest.mark.parametrize("bid", ["10H", "10NT"])
def test_open_misere_is_not_legal_over_ten_hearts_R3_5(bid: str) -> None:
    state = run(auction(), bid)
    assert "OM" not in bids(state)
    assert_refused(state, "OM", R.BID_TOO_LOW, seat=1, rule="R3.3")


# -- R3.6 blind misère ----------------------------------------------------------------


def test_blind_misere_may_open_the_bidding_R3_6() -> None:
    state = run(auction(), "BM", "pass", "pass", "pass")
    assert state.contract == fh.BLIND_MISERE
    assert state.contractor == 0


def test_blind_misere_needs_no_seven_R3_6() -> None:
    state = run(auction(), "6S")
    assert "BM" in bids(state)
    assert "M" not in bids(state)


def test_blind_misere_is_legal_over_ten_diamonds_as_a_first_call_R3_6() -> None:
    state = run(auction(), "10D")
    assert "BM" in bids(state)


def test_blind_misere_is_not_legal_over_ten_hearts_R3_6() -> None:
    state = run(auction(), "10H")
    assert "BM" not in bids(state)
    assert_refused(state, "BM", R.BID_TOO_LOW, seat=1, rule="R3.3")


def test_blind_misere_only_as_a_players_first_call_R3_6() -> None:
    state = run(auction(), "6S", "pass", "7S", "pass")
    assert state.to_act == 0  # seat 0 has called 6S already
    assert "BM" not in bids(state)
    assert "OM" in bids(state)
    assert_refused(state, "BM", R.BLIND_MISERE_NOT_FIRST_CALL, seat=0, rule="R3.6")


def test_blind_misere_is_refused_on_the_second_call_even_over_a_low_bid_R3_6() -> None:
    state = run(auction(), "6S", "6C", "6D", "6H")
    assert state.to_act == 0
    assert bids(state) == above("6H", misere=False, blind=False)
    assert_refused(state, "BM", R.BLIND_MISERE_NOT_FIRST_CALL, seat=0, rule="R3.6")


def test_blind_misere_is_allowed_on_a_first_call_late_in_the_auction_R3_6() -> None:
    state = run(auction(), "pass", "pass", "7S")
    assert state.to_act == 3  # seat 3 (the dealer) has not called yet
    assert bids(state) == above("7S", misere=True, blind=True)


# -- R3.7 passes are final --------------------------------------------------------------


def test_passed_player_is_skipped_R3_7() -> None:
    state = run(auction(), "6S", "pass", "6C", "6D", "6H")
    assert state.passed == frozenset({1})
    assert state.to_act == 2  # seat 1 passed and is skipped
    state = run(state, "6NT", "7S")
    assert state.to_act == 0


def test_passed_player_may_not_call_again_R3_7() -> None:
    state = run(auction(), "6S", "pass", "6C", "6D", "6H")
    err = assert_refused(state, "7S", R.ALREADY_PASSED, seat=1, rule="R3.7", as_seat=1)
    assert err.seat == 1
    assert not fh.is_legal(state, fh.PASS, seat=1)


def test_passed_players_stay_out_for_the_rest_of_the_auction_R3_7() -> None:
    state = run(auction(), "pass", "6S", "pass", "6C", "6D", "6H", "7S")
    callers = [seat for seat, _ in state.auction]
    assert callers == [0, 1, 2, 3, 1, 3, 1]


# -- R3.8 the end of the auction -----------------------------------------------------


def test_auction_ends_when_all_others_pass_R3_8() -> None:
    state = run(auction(), "6S", "pass", "pass", "pass")
    assert state.phase is fh.Phase.DISCARD
    assert state.contract == call("6S")
    assert state.contractor == 0
    assert state.to_act == 0
    assert fh.legal_bids(state) == ()


def test_bidder_does_not_get_another_turn_R3_8() -> None:
    state = run(auction(), "6S", "7S", "pass", "pass", "pass")
    assert state.phase is fh.Phase.DISCARD
    assert state.contract == call("7S")
    assert state.contractor == 1
    assert len(state.auction) == 5
    assert_refused(state, call("8S"), R.WRONG_PHASE, seat=1, rule="R3.8")


def test_dealer_bid_after_three_passes_ends_the_auction_R3_8() -> None:
    state = run(auction(), "pass", "pass", "pass", "6NT")
    assert state.phase is fh.Phase.DISCARD
    assert state.contract == call("6NT")
    assert state.contractor == 3


def test_highest_bid_is_the_contract_R3_8() -> None:
    state = run(auction(), "6S", "7C", "8D", "9H", "pass", "10NT", "pass", "pass")
    assert state.contract == call("10NT")
    assert state.contractor == 1


# -- R3.9 all pass ----------------------------------------------------------------------


def test_all_pass_throws_the_hand_in_R3_9() -> None:
    state = run(auction(dealer=3), "pass", "pass", "pass", "pass")
    assert state.phase is fh.Phase.DEAL
    assert state.scores == (0, 0)
    assert state.dealer == 0
    assert state.to_act is None
    assert state.contract is None
    assert fh.legal_actions(state) == ()
    assert state.last_hand is not None
    assert state.last_hand.contract is None
    assert state.last_hand.made is None
    assert state.last_hand.changes == (0, 0)


def test_no_call_after_a_throw_in_until_the_next_deal_R3_9() -> None:
    state = run(auction(), "pass", "pass", "pass", "pass")
    with pytest.raises(fh.IllegalActionError) as info:
        fh.apply(state, fh.PASS)
    assert info.value.reason is R.WRONG_PHASE
    assert fh.deal(state, seed=1).phase is fh.Phase.BIDDING
