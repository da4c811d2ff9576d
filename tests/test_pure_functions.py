"""The pure rule functions accept the forms an app has at hand (R1.3, R5.4, R8)."""

from __future__ import annotations

import pytest

import fivehundred as fh


def test_score_hand_takes_the_contractors_seat_or_side_R8_2() -> None:
    seven_hearts = fh.parse_call("7H")
    by_side = fh.score_hand(seven_hearts, 0, (7, 3))
    assert by_side == (200, 30)
    assert fh.score_hand(seven_hearts, 2, (7, 3)) == by_side  # seat 2 plays for side 0
    assert fh.score_hand(seven_hearts, 3, (3, 7)) == (30, 200)  # seat 3 plays for side 1


def test_score_hand_adds_up_tricks_given_by_seat_R8_4() -> None:
    by_seat = fh.score_hand(fh.parse_call("8S"), 1, (2, 4, 1, 3))
    assert by_seat == fh.score_hand(fh.parse_call("8S"), 1, (3, 7)) == (30, -240)


def test_score_hand_refuses_a_seat_that_is_not_at_the_table_R8_2() -> None:
    with pytest.raises(fh.FiveHundredError, match="not a seat"):
        fh.score_hand(fh.parse_call("6S"), 4, (6, 4))
    with pytest.raises(fh.FiveHundredError, match="one count a side"):
        fh.score_hand(fh.parse_call("6S"), 0, (6, 2, 2))


def test_trick_winner_takes_a_trump_suit_or_none_for_no_trumps_R5_4() -> None:
    cards = fh.parse_cards("KS AS JC 10S")
    assert fh.trick_winner(cards, fh.Suit.SPADES) == 2  # JC is the left bower (R1.3)
    assert fh.trick_winner(cards, fh.Strain.SPADES) == 2
    assert fh.trick_winner(cards, None) == 1  # No Trumps: no bowers (R1.4)
    assert fh.trick_winner(cards, fh.MISERE) == 1


def test_trick_winner_refuses_a_led_suit_the_first_card_contradicts_R7_4() -> None:
    """led_suit is the suit a suitless Joker's leader named (R7.4): spades led by AS are
    not hearts, and AH does not win (R5.4)."""
    no_trumps = fh.parse_call("6NT")
    with pytest.raises(fh.FiveHundredError, match=r"AS leads spades, not hearts.*\(R7\.4\)"):
        fh.trick_winner(fh.parse_cards("AS AH"), no_trumps, led_suit=fh.Suit.HEARTS)
    assert fh.trick_winner(fh.parse_cards("AS AH"), no_trumps, led_suit=fh.Suit.SPADES) == 0
    joker_lead = fh.parse_cards("Jo 10H AH")
    assert fh.trick_winner(joker_lead, no_trumps, led_suit=fh.Suit.HEARTS) == 0
    # a Joker nominated hearts leads hearts: naming hearts again agrees, clubs does not
    nominated = fh.parse_cards("Jo AH")
    assert fh.trick_winner(nominated, no_trumps, joker_suit=fh.Suit.HEARTS) == 0
    with pytest.raises(fh.FiveHundredError, match="leads hearts, not clubs"):
        fh.trick_winner(nominated, no_trumps, joker_suit=fh.Suit.HEARTS, led_suit=fh.Suit.CLUBS)


def test_trick_winner_refuses_a_card_played_twice_R1_1() -> None:
    with pytest.raises(fh.FiveHundredError, match=r"AS is there twice \(R1\.1\)"):
        fh.trick_winner(fh.parse_cards("AS KS AS"), fh.parse_call("6NT"))


def test_effective_suit_takes_a_trump_suit_or_none_R1_3() -> None:
    left_bower = fh.parse_card("JD")
    assert fh.effective_suit(left_bower, fh.Suit.HEARTS) is fh.Suit.HEARTS
    assert fh.effective_suit(left_bower, None) is fh.Suit.DIAMONDS
    assert fh.effective_suit(fh.JOKER, fh.Suit.CLUBS) is fh.Suit.CLUBS
    assert fh.effective_suit(fh.JOKER, None) is None
    with pytest.raises(TypeError, match="a contract is"):
        fh.effective_suit(left_bower, "hearts")  # type: ignore[arg-type]  # the wrong type on purpose
