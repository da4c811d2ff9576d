"""R8 Scoring: the Avondale table, made and failed contracts, slams, defenders, accumulation."""

from __future__ import annotations

import pytest

import fivehundred as fh
from helpers import MISERE_JOKER, deal_next, in_play, play_out, run, start_play, sweep

#: R8.1, copied from RULES.md: tricks -> (spades, clubs, diamonds, hearts, No Trumps).
TABLE = {
    6: (40, 60, 80, 100, 120),
    7: (140, 160, 180, 200, 220),
    8: (240, 260, 280, 300, 320),
    9: (340, 360, 380, 400, 420),
    10: (440, 460, 480, 500, 520),
}
STRAINS = ("S", "C", "D", "H", "NT")
ALL_BIDS = [(n, s, TABLE[n][i]) for n in TABLE for i, s in enumerate(STRAINS)]


# -- R8.1 values ---------------------------------------------------------------------------


@pytest.mark.parametrize(("tricks", "strain", "value"), ALL_BIDS)
def test_trick_bid_values_follow_the_avondale_table_R8_1(
    tricks: int, strain: str, value: int
) -> None:
    assert fh.bid_value(fh.parse_call(f"{tricks}{strain}")) == value


@pytest.mark.parametrize(("text", "value"), [("M", 250), ("OM", 500), ("BM", 500)])
def test_misere_values_R8_1(text: str, value: int) -> None:
    assert fh.bid_value(fh.parse_call(text)) == value


def test_a_pass_has_no_value_R8_1() -> None:
    with pytest.raises(fh.FiveHundredError):
        fh.bid_value(fh.PASS)


# -- R8.2 made contracts and the slam ------------------------------------------------------


@pytest.mark.parametrize(("tricks", "strain", "value"), ALL_BIDS)
def test_made_contract_scores_its_value_R8_2(tricks: int, strain: str, value: int) -> None:
    bid = fh.parse_call(f"{tricks}{strain}")
    assert fh.score_hand(bid, 0, (tricks, 10 - tricks)) == (value, 10 * (10 - tricks))
    assert fh.score_hand(bid, 1, (10 - tricks, tricks)) == (10 * (10 - tricks), value)


@pytest.mark.parametrize(
    ("bid", "tricks", "changes"),
    [
        ("6S", (9, 1), (40, 10)),
        ("7H", (8, 2), (200, 20)),
        ("8NT", (9, 1), (320, 10)),
    ],
)
def test_extra_tricks_count_nothing_R8_2(
    bid: str, tricks: tuple[int, int], changes: tuple[int, int]
) -> None:
    assert fh.score_hand(fh.parse_call(bid), 0, tricks) == changes


@pytest.mark.parametrize(
    ("bid", "score"),
    [
        ("6S", 250),
        ("6NT", 250),
        ("7H", 250),
        ("7NT", 250),  # 220 -> 250
        ("8S", 250),  # 240 -> 250
        ("8C", 260),  # worth more than 250 already
        ("8NT", 320),
        ("9H", 400),
        ("10S", 440),
        ("10NT", 520),
    ],
)
def test_slam_scores_250_only_below_250_R8_2(bid: str, score: int) -> None:
    assert fh.score_hand(fh.parse_call(bid), 0, (10, 0)) == (score, 0)
    assert fh.score_hand(fh.parse_call(bid), 1, (0, 10)) == (0, score)


@pytest.mark.parametrize(("tricks", "strain", "value"), ALL_BIDS)
def test_slam_rule_over_the_whole_table_R8_2(tricks: int, strain: str, value: int) -> None:
    expected = 250 if value < 250 else value
    assert fh.score_hand(fh.parse_call(f"{tricks}{strain}"), 0, (10, 0)) == (expected, 0)


def test_misere_has_no_slam_bonus_R8_2() -> None:
    assert fh.score_hand(fh.MISERE, 0, (0, 10)) == (250, 0)


def test_seven_no_trumps_slam_in_play_scores_250_R8_2() -> None:
    state = play_out(in_play("7NT", 0, *sweep(0)))
    assert state.last_hand is not None
    assert state.last_hand.tricks == (10, 0)
    assert state.last_hand.changes == (250, 0)
    assert state.scores == (250, 0)


# -- R8.3 failed contracts --------------------------------------------------------------------


@pytest.mark.parametrize(("tricks", "strain", "value"), ALL_BIDS)
def test_failed_contract_loses_its_value_R8_3(tricks: int, strain: str, value: int) -> None:
    bid = fh.parse_call(f"{tricks}{strain}")
    short = tricks - 1
    assert fh.score_hand(bid, 0, (short, 10 - short)) == (-value, 10 * (10 - short))


def test_scores_go_negative_R8_3() -> None:
    state = play_out(in_play("6NT", 0, *sweep(1)))
    assert state.scores == (-120, 100)
    state = deal_next(state, *sweep(1))  # dealer 0 now; seat 2 contracts
    state = play_out(start_play(run(state, "pass", "7NT", "pass", "pass")))
    assert state.last_hand is not None
    assert state.last_hand.contractor == 2
    assert state.scores == (-340, 200)


@pytest.mark.parametrize(("text", "value"), [("M", 250), ("OM", 500), ("BM", 500)])
def test_failed_misere_loses_its_value_R8_3(text: str, value: int) -> None:
    assert fh.score_hand(fh.parse_call(text), 1, (3, 1)) == (0, -value)


# -- R8.4 defenders ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bid", "contractor", "tricks", "changes"),
    [
        ("7H", 0, (7, 3), (200, 30)),  # made
        ("7H", 0, (5, 5), (-200, 50)),  # failed
        ("8S", 1, (4, 6), (40, -240)),  # failed by side 1: side 0 defends
        ("6C", 1, (0, 10), (0, 250)),  # slam: the defenders took nothing
        ("10NT", 0, (3, 7), (-520, 70)),
    ],
)
def test_defenders_score_ten_a_trick_made_or_not_R8_4(
    bid: str, contractor: int, tricks: tuple[int, int], changes: tuple[int, int]
) -> None:
    assert fh.score_hand(fh.parse_call(bid), contractor, tricks) == changes


@pytest.mark.parametrize("text", ["M", "OM", "BM"])
@pytest.mark.parametrize("tricks", [(0, 10), (1, 3), (1, 7), (1, 0)])
def test_misere_defenders_score_nothing_R8_4(text: str, tricks: tuple[int, int]) -> None:
    changes = fh.score_hand(fh.parse_call(text), 0, tricks)
    assert changes[1] == 0


def test_misere_defenders_score_nothing_in_play_R8_4() -> None:
    made = play_out(in_play("M", 0, *sweep(1)))  # the defenders take all ten tricks
    assert made.last_hand is not None
    assert made.last_hand.tricks == (0, 10)
    assert made.scores == (250, 0)
    failed = run(in_play("M", 0, *MISERE_JOKER), "4D", "AD", "4H", "AH", "5H", "Jo")
    assert failed.last_hand is not None
    assert failed.last_hand.tricks == (1, 1)
    assert failed.scores == (-250, 0)


def test_failed_contract_defenders_score_in_play_R8_4() -> None:
    state = play_out(in_play("6NT", 0, *sweep(1)))
    assert state.last_hand is not None
    assert state.last_hand.changes == (-120, 100)


# -- R8.5 accumulation -------------------------------------------------------------------------


def test_scores_accumulate_and_a_throw_in_changes_nothing_R8_5() -> None:
    # Hand 1 (dealer 3): seat 0 makes 7NT with a slam.
    state = play_out(in_play("7NT", 0, *sweep(0)))
    assert state.scores == (250, 0)
    # Hand 2 (dealer 0): everyone passes.
    state = run(deal_next(state, *sweep(0)), "pass", "pass", "pass", "pass")
    assert state.scores == (250, 0)
    assert state.last_hand is not None
    assert state.last_hand.changes == (0, 0)
    assert state.last_hand.scores == (250, 0)
    # Hand 3 (dealer 1): seat 2 fails 6NT; seats 1 and 3 take every trick.
    state = deal_next(state, *sweep(1))
    assert state.dealer == 1
    state = play_out(start_play(run(state, "6NT", "pass", "pass", "pass")))
    assert state.scores == (130, 100)
    assert state.last_hand is not None
    assert state.last_hand.number == 3
    assert state.hand_number == 3


def test_thrown_in_hand_scores_nothing_R8_5() -> None:
    with pytest.raises(fh.FiveHundredError):
        fh.score_hand(fh.PASS, 0, (0, 0))


# -- hands that cannot happen are refused (R3.9, R5.5) ----------------------------------------


def test_a_hand_without_a_contract_is_thrown_in_by_default_R3_9() -> None:
    with pytest.raises(fh.FiveHundredError, match=r"thrown in .*\(R3\.9\)"):
        fh.score_hand(None, None, (5, 5))
    all_pass = fh.Rules(all_pass_no_trumps=True)
    assert fh.score_hand(None, None, (5, 5), rules=all_pass) == (50, 50)
    with pytest.raises(fh.FiveHundredError, match=r"add up to 9: a hand has ten tricks \(R5\.5\)"):
        fh.score_hand(None, None, (5, 4), rules=all_pass)


@pytest.mark.parametrize(
    ("contract", "tricks"),
    [
        ("7H", (7, 2)),
        ("6NT", (0, 0)),
        ("10S", (10, 1)),
        ("M", (0, 4)),
        ("M", (2, 2)),
        ("OM", (0, 3)),
    ],
)
def test_tricks_that_do_not_add_up_to_a_hand_are_refused_R5_5(
    contract: str, tricks: tuple[int, int]
) -> None:
    with pytest.raises(fh.FiveHundredError, match=r"\(R5\.5\)"):
        fh.score_hand(fh.parse_call(contract), 0, tricks)


@pytest.mark.parametrize("tricks", [(1, 0), (1, 4), (1, 9), (0, 10)])
def test_a_misere_hand_ends_at_the_contractors_first_trick_R5_5(tricks: tuple[int, int]) -> None:
    """Fewer than ten tricks only when the contractor's side took exactly one: the last."""
    assert fh.score_hand(fh.MISERE, 0, tricks) == ((-250 if tricks[0] else 250), 0)


@pytest.mark.parametrize("tricks", [(7, 3), (8, 2), (0, 10)])
def test_a_misere_contractor_never_takes_two_tricks_R5_5(tricks: tuple[int, int]) -> None:
    """Ten tricks in all, yet the contractor's side took more than one: the hand would have
    ended at its first (R5.5)."""
    with pytest.raises(fh.FiveHundredError, match=r"\(R5\.5\).*not (3|2|10)"):
        fh.score_hand(fh.MISERE, 1, tricks)


def test_a_misere_contractors_partner_takes_no_trick_R4_2() -> None:
    """Tricks by seat: the partner sits the hand out, so one seat of the side plays."""
    with pytest.raises(fh.FiveHundredError, match=r"sits out \(R4\.2\)"):
        fh.score_hand(fh.MISERE, 0, (1, 5, 1, 3))
    with pytest.raises(fh.FiveHundredError, match=r"sits out \(R4\.2\)"):
        fh.score_hand(fh.OPEN_MISERE, 1, (0, 1, 0, 1), rules=fh.Rules(misere_playout=True))
    assert fh.score_hand(fh.MISERE, 2, (0, 6, 1, 3)) == (-250, 0)  # seat 2 played; 0 sat out
    assert fh.score_hand(fh.MISERE, 0, (0, 5, 0, 5)) == (250, 0)


@pytest.mark.parametrize("contract", ["6S", "10NT", "M", "OM"])
def test_a_contract_without_its_contractor_is_refused_R8_2(contract: str) -> None:
    """Not scored as a hand everyone passed: a contract is someone's (R8.2-R8.4)."""
    with pytest.raises(fh.FiveHundredError, match="needs its contractor"):
        fh.score_hand(fh.parse_call(contract), None, (6, 4))


def test_a_misere_hand_played_out_has_ten_tricks_V_MISERE_PLAYOUT() -> None:
    rules = fh.Rules(misere_playout=True)
    assert fh.score_hand(fh.MISERE, 0, (3, 7), rules=rules) == (-250, 0)
    with pytest.raises(fh.FiveHundredError, match=r"\(R5\.5\)"):
        fh.score_hand(fh.MISERE, 0, (1, 3), rules=rules)


def test_every_hand_the_engine_plays_scores_as_score_hand_says() -> None:
    """The refusals never refuse a real hand: seeded hands of random play, misère included."""
    import random

    from fivehundred.ai.playout import playout

    rng = random.Random(5)
    seen: set[bool] = set()
    for _ in range(120):
        state = playout(fh.deal(fh.new_game(dealer=0), rng=rng), rng=rng, until="hand")
        hand = state.last_hand
        assert hand is not None
        if hand.contract is None:
            continue
        seen.add(hand.contract.is_misere)
        changes = fh.score_hand(
            hand.contract, hand.contractor, hand.tricks, rules=state.rules, partner=hand.partner
        )
        assert changes == hand.changes, hand
    assert seen == {True, False}  # both kinds of contract were scored
