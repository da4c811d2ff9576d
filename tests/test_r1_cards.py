"""R1 Cards: the deck, strain order, trumps and bowers, and No Trumps ranking."""

from __future__ import annotations

from itertools import pairwise

import pytest

import fivehundred as fh
from fivehundred._engine.order import context, order_rows
from fivehundred.cards import CARDS
from helpers import BOWERS, JOKER_VOID, cards, dealt, in_play, legal, run

H = fh.Suit.HEARTS
D = fh.Suit.DIAMONDS
S = fh.Suit.SPADES
C = fh.Suit.CLUBS

# -- R1.1 the deck ---------------------------------------------------------------


def test_deck_has_43_cards_R1_1() -> None:
    expected = (
        "5S 6S 7S 8S 9S 10S JS QS KS AS "
        "5C 6C 7C 8C 9C 10C JC QC KC AC "
        "4D 5D 6D 7D 8D 9D 10D JD QD KD AD "
        "4H 5H 6H 7H 8H 9H 10H JH QH KH AH "
        "Jo"
    )
    deck = fh.Rules().deck
    assert len(deck) == 43
    assert len(set(deck)) == 43
    assert set(deck) == set(cards(expected))


def test_every_card_hashes_as_its_equals_and_apart_from_the_others_R1_1() -> None:
    # a card's hash is kept by index: the same card parsed again, or unpickled, finds it
    import pickle

    hashes = {hash(card) for card in CARDS}
    assert len(hashes) == len(CARDS)
    for card in CARDS:
        again = pickle.loads(pickle.dumps(card))
        assert again == card and hash(again) == hash(card) == hash(fh.parse_card(str(card)))
        assert {card: 1}[fh.parse_card(str(card))] == 1


def test_deck_has_no_twos_threes_or_black_fours_R1_1() -> None:
    deck = set(fh.Rules().deck)
    for text in ("2S", "2C", "2D", "2H", "3S", "3C", "3D", "3H", "4S", "4C"):
        assert fh.parse_card(text) not in deck
    assert {fh.parse_card("4D"), fh.parse_card("4H"), fh.JOKER} <= deck


@pytest.mark.parametrize("seed", [0, 1, 2, 500])
def test_a_seeded_deal_uses_exactly_the_43_card_deck_R1_1(seed: int) -> None:
    state = fh.deal(fh.new_game(dealer=3), seed=seed)
    held = [c for seat in range(4) for c in state.hand(seat)] + list(state.kitty)
    assert sorted(held) == sorted(fh.Rules().deck)


def test_a_deck_order_with_a_black_four_is_refused_R1_1() -> None:
    order = list(fh.Rules().deck)
    order[0] = fh.parse_card("4S")  # replaces 5S
    with pytest.raises(fh.IllegalActionError) as info:
        fh.deal(fh.new_game(dealer=3), cards=order)
    assert info.value.reason is fh.Reason.BAD_DECK
    assert "R1.1" in str(info.value)
    assert "4S" in str(info.value) and "5S" in str(info.value)


# -- R1.2 strain order -------------------------------------------------------------


def test_strain_order_spades_clubs_diamonds_hearts_no_trumps_R1_2() -> None:
    order = [
        fh.Strain.SPADES,
        fh.Strain.CLUBS,
        fh.Strain.DIAMONDS,
        fh.Strain.HEARTS,
        fh.Strain.NO_TRUMPS,
    ]
    assert sorted(fh.Strain) == order
    assert all(a < b for a, b in pairwise(order))
    assert sorted(fh.Suit) == [S, C, D, H]


@pytest.mark.parametrize("tricks", range(6, 11))
def test_bids_of_one_level_follow_strain_order_R1_2(tricks: int) -> None:
    calls = [fh.parse_call(f"{tricks}{s}") for s in ("S", "C", "D", "H", "NT")]
    assert all(a < b for a, b in pairwise(calls))
    assert [fh.bid_value(c) for c in calls] == sorted(fh.bid_value(c) for c in calls)


def test_after_six_hearts_the_next_legal_bid_is_six_no_trumps_R1_2() -> None:
    state = run(fh.deal(fh.new_game(dealer=3), seed=1), "6H")
    assert [str(c) for c in fh.legal_bids(state)[:3]] == ["pass", "6NT", "7S"]


@pytest.mark.parametrize(
    ("trump", "left"),
    [(S, "JC"), (C, "JS"), (D, "JH"), (H, "JD")],
)
def test_same_colour_pairs_give_the_left_bower_R1_2(trump: fh.Suit, left: str) -> None:
    assert trump.partner.letter == left[-1]
    assert fh.effective_suit(fh.parse_card(left), fh.Strain(trump)) is trump


# -- R1.3 trump order ------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "high_to_low"),
    [
        ("7H", "Jo JH JD AH KH QH 10H 9H 8H 7H 6H 5H 4H"),
        ("7D", "Jo JD JH AD KD QD 10D 9D 8D 7D 6D 5D 4D"),
        ("7S", "Jo JS JC AS KS QS 10S 9S 8S 7S 6S 5S"),
        ("7C", "Jo JC JS AC KC QC 10C 9C 8C 7C 6C 5C"),
    ],
)
def test_trump_order_joker_right_left_then_ace_down_R1_3(contract: str, high_to_low: str) -> None:
    trumps = cards(high_to_low)
    bid = fh.parse_call(contract)
    for higher, lower in pairwise(trumps):
        assert fh.trick_winner([lower, higher], bid) == 1, f"{higher} beats {lower}"
        assert fh.trick_winner([higher, lower], bid) == 0, f"{higher} beats {lower}"


def test_left_bower_beats_the_ace_of_trumps_R1_3() -> None:
    assert fh.trick_winner(cards("AH JD KH"), fh.parse_call("7H")) == 1


def test_right_bower_beats_the_left_R1_3() -> None:
    assert fh.trick_winner(cards("JD JH AH"), fh.parse_call("7H")) == 1


def test_joker_beats_both_bowers_R1_3() -> None:
    assert fh.trick_winner(cards("JH JD Jo AH"), fh.parse_call("7H")) == 2


@pytest.mark.parametrize("contract", ["6S", "7C", "8D", "9H"])
def test_joker_and_left_bower_are_cards_of_the_trump_suit_R1_3(contract: str) -> None:
    bid = fh.parse_call(contract)
    trump = bid.trump
    assert trump is not None
    left = fh.Card(fh.Rank.JACK, trump.partner)
    assert fh.effective_suit(fh.JOKER, bid) is trump
    assert fh.effective_suit(left, bid) is trump
    assert fh.effective_suit(fh.Card(fh.Rank.JACK, trump), bid) is trump


def test_left_bower_is_not_a_diamond_in_hearts_R1_3() -> None:
    # Seat 1 holds JD and no other diamond: a diamond lead finds it void.
    state = run(in_play("7H", 0, *BOWERS), "AD")
    assert state.to_act == 1
    assert legal(state) == ["5S", "6S", "7S", "8S", "9S", "5C", "6C", "7C", "8C", "JD"]


def test_left_bower_must_follow_a_trump_lead_R1_3() -> None:
    state = run(in_play("7H", 0, *BOWERS), "AH")
    assert legal(state) == ["JD"]


def test_left_bower_beats_the_ace_of_trumps_in_play_R1_3() -> None:
    state = run(in_play("7H", 0, *BOWERS), "AH", "JD", "7H", "4H")
    assert state.tricks[0].winner == 1
    assert state.to_act == 1


def test_right_bower_beats_the_left_in_play_R1_3() -> None:
    state = run(in_play("7H", 0, *BOWERS), "JH", "JD", "7H", "4H")
    assert state.tricks[0].winner == 0


def test_joker_beats_both_bowers_in_play_R1_3() -> None:
    state = run(in_play("7H", 0, *BOWERS), "JH", "JD", "Jo", "4H")
    assert state.tricks[0].winner == 2


def test_joker_is_a_trump_that_must_follow_a_trump_lead_R1_3() -> None:
    # 7S: seat 1 holds no spade and no JC; its only trump is the Joker.
    state = run(in_play("7S", 0, *JOKER_VOID), "5S")
    assert state.to_act == 1
    assert legal(state) == ["Jo"]


def test_black_left_bower_follows_a_spade_lead_R1_3() -> None:
    state = run(in_play("7S", 0, *JOKER_VOID), "5S", "Jo", "8S")
    assert state.to_act == 3
    assert legal(state) == ["JS", "QS", "KS", "AS", "JC"]


def test_same_colour_suit_has_no_jack_R1_3() -> None:
    # In hearts the diamond suit runs A K Q 10 …: JD does not follow diamonds.
    bid = fh.parse_call("7H")
    assert fh.effective_suit(fh.parse_card("JD"), bid) is H
    assert fh.trick_winner(cards("10D JD 9D"), bid) == 1  # JD trumps the diamond lead
    assert fh.trick_winner(cards("10D QD"), bid) == 1


def test_other_suits_rank_ace_king_queen_jack_ten_R1_3() -> None:
    bid = fh.parse_call("7H")
    order = cards("AS KS QS JS 10S 9S 8S 7S 6S 5S")
    for higher, lower in pairwise(order):
        assert fh.trick_winner([lower, higher], bid) == 1
    assert fh.effective_suit(fh.parse_card("JS"), bid) is S
    assert fh.effective_suit(fh.parse_card("JC"), bid) is C


# -- R1.4 No Trumps and misère ------------------------------------------------------


@pytest.mark.parametrize("contract", ["7NT", "M", "OM", "BM"])
def test_no_bowers_and_jacks_between_queen_and_ten_R1_4(contract: str) -> None:
    bid = fh.parse_call(contract)
    for jack in ("JS", "JC", "JD", "JH"):
        card = fh.parse_card(jack)
        assert fh.effective_suit(card, bid) is card.suit
    order = cards("AD KD QD JD 10D 9D 8D 7D 6D 5D 4D")
    for higher, lower in pairwise(order):
        assert fh.trick_winner([lower, higher], bid) == 1
    assert fh.trick_winner(cards("JD AH"), bid) == 0  # JD is a plain diamond


@pytest.mark.parametrize("contract", ["7NT", "M", "OM", "BM"])
def test_joker_is_the_only_trump_in_no_trumps_family_R1_4(contract: str) -> None:
    bid = fh.parse_call(contract)
    assert fh.effective_suit(fh.JOKER, bid) is None
    assert fh.trick_winner(cards("AS KS Jo QS"), bid) == 2
    assert fh.trick_winner(cards("5S AH AD AC"), bid) == 0  # no other card trumps


def test_jack_of_diamonds_is_a_diamond_in_no_trumps_R1_4() -> None:
    # Same hands as the bower tests, but at 7NT: JD must follow a diamond lead ...
    state = run(in_play("7NT", 0, *BOWERS), "AD")
    assert legal(state) == ["JD"]


def test_jack_of_diamonds_does_not_follow_hearts_in_no_trumps_R1_4() -> None:
    # ... and seat 1 is void in hearts.
    state = run(in_play("7NT", 0, *BOWERS), "AH")
    assert legal(state) == ["5S", "6S", "7S", "8S", "9S", "5C", "6C", "7C", "8C", "JD"]


def test_joker_in_trump_contract_is_not_nominated_R1_4() -> None:
    # The NT-family nomination does not exist in a trump contract (contractor holds the Joker).
    state = run(dealt(*BOWERS), "pass", "pass", "7H", "pass")
    assert state.contractor == 2
    state = run(state, "discard 10S JS QS")
    assert state.phase is fh.Phase.PLAY
    assert state.joker_suit is None


def _row_cards(trump: int, joker_suit: int, row: int) -> list[str]:
    ranks, top = order_rows(trump, joker_suit)[row]
    return [str(CARDS[index]) for index in (*ranks, *top) if CARDS[index] in fh.Rules().deck]


def test_the_trump_row_ends_left_bower_right_bower_joker_R1_3() -> None:
    hearts = int(fh.Suit.HEARTS)
    trumps = _row_cards(hearts, -1, hearts)
    assert trumps[-4:] == ["AH", "JD", "JH", "Jo"]
    assert "JD" not in _row_cards(hearts, -1, int(fh.Suit.DIAMONDS))  # R1.3: a heart now
    assert order_rows(hearts, -1)[4] == ((), ())  # no suitless trump under a trump suit


def test_without_trumps_the_joker_is_the_only_trump_R1_4_R7_2() -> None:
    rows = order_rows(-1, -1)
    assert [str(CARDS[index]) for index in rows[4][1]] == ["Jo"]
    assert all(row[1] == () for row in rows[:4])  # no bowers: every Jack keeps its suit
    assert _row_cards(-1, -1, int(fh.Suit.SPADES))[-4:] == ["JS", "QS", "KS", "AS"]


def test_a_nominated_joker_tops_its_suit_R7_1() -> None:
    spades = int(fh.Suit.SPADES)
    assert _row_cards(-1, spades, spades)[-2:] == ["AS", "Jo"]
    assert order_rows(-1, spades)[4] == ((), ())


@pytest.mark.parametrize("trump", [*range(4), -1])
def test_every_card_is_placed_once_and_powers_follow_the_rows_R1_3(trump: int) -> None:
    nominations = range(-1, 4) if trump < 0 else [-1]
    for joker_suit in nominations:
        rows = order_rows(trump, joker_suit)
        placed = [card for ranks, top in rows for card in (*ranks, *top)]
        assert sorted(placed) == list(range(len(CARDS)))
        ctx = context(
            None if trump < 0 else fh.Suit(trump), None if joker_suit < 0 else fh.Suit(joker_suit)
        )
        for ranks, top in rows:
            row = [*ranks, *top]
            assert [ctx.power[card] for card in row] == sorted(ctx.power[card] for card in row)
