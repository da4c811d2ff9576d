"""The order a hand is shown in, and which cards are trumps (R1.2-R1.4, R5.2, R7.1, P6).

``display_groups`` and ``is_trump`` read the engine's card order; these tests tie
them to the rule text with written-out hands, and to the engine by checking every
group against ``trick_winner`` over whole decks.
"""

from __future__ import annotations

from itertools import pairwise

import pytest

import fivehundred as fh
from fivehundred.tricks import ContractLike, display_groups, is_trump
from helpers import cards

H = fh.Suit.HEARTS
D = fh.Suit.DIAMONDS
S = fh.Suit.SPADES
C = fh.Suit.CLUBS

#: Every contract card order: the four trump suits, then No Trumps and misère
#: with the Joker free or nominated into each suit.
ORDERS: list[tuple[ContractLike, fh.Suit | None]] = [
    *((suit, None) for suit in fh.Suit),
    (fh.Strain.NO_TRUMPS, None),
    (fh.MISERE, None),
    *((fh.Strain.NO_TRUMPS, suit) for suit in fh.Suit),
    *((fh.OPEN_MISERE, suit) for suit in fh.Suit),
]


def shown(text: str, contract: ContractLike, joker_suit: fh.Suit | None = None) -> list[str]:
    """The groups of a hand in notation, each group's cards joined by spaces."""
    groups = display_groups(cards(text), contract, joker_suit=joker_suit)
    return [" ".join(str(card) for card in group) for group in groups]


# -- the six- and five-player decks (P6, P5) ------------------------------------------


def test_a_six_player_hand_shows_13_12_11_between_jack_and_ten_P6() -> None:
    # the hand a browser used to show as A♠ 12♠ | 8♣ 11♣ | 10♦ 7♦ 4♦ 13♦ | 4♥ 2♥
    hand = "12S AS 8C 11C 4D 7D 10D 13D 2H 4H"
    assert set(cards(hand)) <= set(fh.Rules(players=6).deck)
    assert shown(hand, None) == ["AS 12S", "11C 8C", "13D 10D 7D 4D", "4H 2H"]
    assert shown(hand, fh.parse_call("6D")) == ["13D 10D 7D 4D", "AS 12S", "11C 8C", "4H 2H"]


def test_six_player_trumps_run_joker_bowers_then_a_k_q_13_12_11_10_to_2_P6_R1_3() -> None:
    hand = "2H 11H QH Jo 13H JD 3H AH 12H JH 10H KH 3D"
    assert shown(hand, fh.parse_call("8H")) == [
        "Jo JH JD AH KH QH 13H 12H 11H 10H 3H 2H",
        "3D",
    ]


def test_a_five_player_hand_keeps_2s_and_3s_at_the_bottom_P5() -> None:
    hand = "3S 2S AS KC 2C 3H JH"
    assert set(cards(hand)) <= set(fh.Rules(players=5).deck)
    assert shown(hand, fh.Strain.NO_TRUMPS) == ["AS 3S 2S", "KC 2C", "JH 3H"]


# -- trump contracts (R1.3, R5.2) ----------------------------------------------------


def test_trumps_come_first_with_the_joker_and_both_bowers_on_top_R1_3() -> None:
    hand = "AS JD 9C Jo 10H JH QD"
    assert shown(hand, fh.parse_call("7H")) == ["Jo JH JD 10H", "AS", "9C", "QD"]


def test_the_left_bower_leaves_its_printed_suit_R1_3_R5_2() -> None:
    hand = "JC AC 10C JS 5S"
    assert shown(hand, S) == ["JS JC 5S", "AC 10C"]
    assert is_trump(fh.parse_card("JC"), S) and not is_trump(fh.parse_card("AC"), S)


def test_plain_suits_follow_strain_order_spades_clubs_diamonds_hearts_R1_2() -> None:
    hand = "4H 5D 6C 7S AD"
    assert shown(hand, C) == ["6C", "7S", "AD 5D", "4H"]
    assert shown(hand, fh.parse_call("6NT")) == ["7S", "6C", "AD 5D", "4H"]


# -- No Trumps and misère (R1.4, R7.1) ----------------------------------------------


@pytest.mark.parametrize("contract", ["6NT", "M", "OM", "BM"])
def test_the_free_joker_is_the_one_trump_and_shown_first_R1_4(contract: str) -> None:
    call = fh.parse_call(contract)
    hand = "QD JD JH Jo 10D KS"
    assert shown(hand, call) == ["Jo", "KS", "QD JD 10D", "JH"]
    assert is_trump(fh.JOKER, call)
    assert not any(is_trump(card, call) for card in cards("QD JD JH 10D KS"))


@pytest.mark.parametrize("contract", ["7NT", "M"])
def test_a_nominated_joker_heads_its_suit_and_is_no_trump_R7_1(contract: str) -> None:
    call = fh.parse_call(contract)
    hand = "QD JD JH Jo 10D KS"
    assert shown(hand, call, D) == ["KS", "Jo QD JD 10D", "JH"]
    assert not is_trump(fh.JOKER, call, joker_suit=D)


# -- the engine's order, over whole decks ------------------------------------------------


@pytest.mark.parametrize("players", [4, 6])
@pytest.mark.parametrize(("contract", "joker_suit"), ORDERS)
def test_each_group_runs_high_to_low_as_the_engine_ranks_it_R5_2_R5_4(
    players: int, contract: ContractLike, joker_suit: fh.Suit | None
) -> None:
    deck = fh.Rules(players=players).deck
    groups = display_groups(reversed(deck), contract, joker_suit=joker_suit)
    assert sorted(card for group in groups for card in group) == sorted(deck)
    trumps = [card for card in deck if is_trump(card, contract, joker_suit=joker_suit)]
    assert bool(trumps) == (groups[0][0] in trumps)
    suits: list[fh.Suit] = []
    for group in groups:
        marked = {is_trump(card, contract, joker_suit=joker_suit) for card in group}
        effective = {fh.effective_suit(card, contract, joker_suit=joker_suit) for card in group}
        if marked == {True}:
            assert group == groups[0] and sorted(group) == sorted(trumps)
        else:
            assert marked == {False} and len(effective) == 1  # one suit a group (R5.2)
            suit = effective.pop()
            assert suit is not None  # only a free Joker has none, and it is a trump
            suits.append(suit)
        for high, low in pairwise(group):  # the higher card wins when the lower is led
            assert fh.trick_winner((low, high), contract, joker_suit=joker_suit) == 1
    assert suits == sorted(suits)  # spades, clubs, diamonds, hearts (R1.2)


# -- bad arguments -------------------------------------------------------------------------


def test_wrong_types_are_refused_with_a_library_error() -> None:
    with pytest.raises(fh.FiveHundredTypeError, match="iterable of Cards"):
        display_groups("AS KS", fh.Strain.SPADES)  # type: ignore[arg-type]  # a str, on purpose
    with pytest.raises(fh.FiveHundredTypeError, match="iterable of Cards"):
        display_groups([fh.parse_card("AS"), "KS"], S)  # type: ignore[list-item]  # on purpose
    with pytest.raises(fh.FiveHundredTypeError, match="a Card is needed"):
        is_trump("Jo", S)  # type: ignore[arg-type]  # a str, on purpose
    with pytest.raises(fh.FiveHundredTypeError, match="a contract is"):
        display_groups(cards("AS"), "7H")  # type: ignore[arg-type]  # a str, on purpose
    with pytest.raises(fh.FiveHundredError, match="a pass is not a contract"):
        is_trump(fh.JOKER, fh.PASS)
