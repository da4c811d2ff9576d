"""The small value types: suits, ranks, cards, strains, calls, actions, errors, contexts."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

import fivehundred as fh
from fivehundred.cards import cards_from_mask, index_tuple, mask_of
from fivehundred.rules import DEFAULT_LADDER, standard_deck
from fivehundred.tricks import context, contract_context


def test_suits_know_their_letter_symbol_colour_and_partner_R1_2() -> None:
    assert [str(s) for s in fh.Suit] == ["S", "C", "D", "H"]
    assert "".join(s.symbol for s in fh.Suit) == "♠♣♦♥"
    assert [s.is_red for s in fh.Suit] == [False, False, True, True]
    assert [s.partner for s in fh.Suit] == [
        fh.Suit.CLUBS,
        fh.Suit.SPADES,
        fh.Suit.HEARTS,
        fh.Suit.DIAMONDS,
    ]


def test_ranks_print_as_notation_R1_1() -> None:
    assert [str(r) for r in fh.Rank][-7:] == ["11", "12", "13", "J", "Q", "K", "A"]
    assert fh.Rank.TEN.symbol == "10"


def test_cards_order_by_suit_then_rank_with_the_joker_last_R1_1() -> None:
    two_spades, ace_hearts = fh.parse_card("2S"), fh.parse_card("AH")
    assert two_spades < ace_hearts < fh.JOKER
    assert two_spades <= fh.parse_card("2S")
    assert fh.JOKER > ace_hearts >= two_spades
    assert sorted([fh.JOKER, ace_hearts, two_spades]) == [two_spades, ace_hearts, fh.JOKER]
    assert (two_spades == "2S") is False
    for compare in ("__lt__", "__le__", "__gt__", "__ge__"):
        assert getattr(two_spades, compare)("2S") is NotImplemented


def test_a_card_has_a_rank_and_a_suit_or_neither_R1_1() -> None:
    with pytest.raises(ValueError, match="both a rank and a suit"):
        fh.Card(fh.Rank.ACE, None)
    assert fh.Card(None, None) == fh.JOKER
    assert fh.JOKER.is_joker and not fh.parse_card("AS").is_joker
    assert fh.parse_card("10H").pretty == "10♥" and fh.JOKER.pretty == "Jo"
    assert fh.Card.parse("qd") == fh.parse_card("QD")


def test_masks_and_card_lists_agree() -> None:
    deck = fh.Rules(players=6).deck
    mask = mask_of(deck)
    assert cards_from_mask(mask) == deck
    assert index_tuple(mask) == tuple(card.index for card in deck)
    rng = random.Random(5)
    for _ in range(50):
        chosen = sorted(rng.sample(deck, 10))
        assert cards_from_mask(mask_of(chosen)) == tuple(chosen)


def test_strains_know_their_notation_R1_2() -> None:
    assert [str(s) for s in fh.Strain] == ["S", "C", "D", "H", "NT"]
    assert fh.Strain.NO_TRUMPS.symbol == "NT" and fh.Strain.HEARTS.symbol == "♥"
    assert fh.Strain.of(fh.Suit.CLUBS) is fh.Strain.CLUBS
    assert fh.Strain.NO_TRUMPS.suit is None and fh.Strain.DIAMONDS.suit is fh.Suit.DIAMONDS


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: fh.Call.bid(5, fh.Strain.SPADES), "6 to 10 tricks"),
        (lambda: fh.Call.bid(11, fh.Strain.SPADES), "6 to 10 tricks"),
        (lambda: fh.Call(fh.CallKind.MISERE, 7), "only a trick bid names a number"),
        (lambda: fh.Call.bid(7, cast(fh.Strain, "H")), "names a Strain"),
        (lambda: fh.Call(fh.CallKind.PASS, None, fh.Strain.HEARTS), "only a trick bid names a"),
        (lambda: fh.Call(fh.CallKind.PASS, sans_kitty=True), "a pass cannot be sans kitty"),
    ],
)
def test_impossible_calls_cannot_be_built_R3_2(build: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        build()


def test_calls_read_and_print_R3_2() -> None:
    seven_nt = fh.parse_call("7 no trumps")
    assert str(seven_nt) == "7NT" and seven_nt.pretty == "7NT"
    assert fh.parse_call("10h sans kitty").pretty == "10♥ sans kitty"
    assert str(fh.parse_call("10H-SK")) == "10H-SK"
    assert [c.pretty for c in (fh.PASS, fh.MISERE, fh.OPEN_MISERE, fh.BLIND_MISERE)] == [
        "Pass",
        "Misère",
        "Open Misère",
        "Blind Misère",
    ]
    assert fh.PASS.is_pass and not fh.PASS.is_bid and fh.MISERE.is_misere
    assert fh.MISERE.is_no_trumps_family and fh.parse_call("6NT").is_no_trumps_family
    assert not fh.parse_call("6H").is_no_trumps_family
    assert fh.Call.parse("P") is not None and fh.parse_call("p") == fh.PASS
    with pytest.raises(fh.NotationError, match="pass cannot be sans kitty"):
        fh.parse_call("pass SK")


def test_calls_compare_on_the_ladder_only_with_calls_R3_3() -> None:
    assert fh.parse_call("6S") > fh.PASS
    assert fh.OPEN_MISERE >= fh.BLIND_MISERE and fh.OPEN_MISERE <= fh.BLIND_MISERE
    for compare in ("__lt__", "__le__", "__gt__", "__ge__"):
        assert getattr(fh.MISERE, compare)(250) is NotImplemented
    with pytest.raises(ValueError, match="not on this ladder"):
        fh.Rules(misere=False).ladder.position(fh.MISERE)
    assert fh.MISERE in DEFAULT_LADDER and "M" not in DEFAULT_LADDER


def test_actions_refuse_values_of_the_wrong_type() -> None:
    with pytest.raises(TypeError, match="made of Cards"):
        fh.Discard(cast(Any, ["4D", "5D", "6D"]))
    with pytest.raises(TypeError, match="a card or a seat"):
        fh.CallPartner()
    with pytest.raises(TypeError, match="a card or a seat"):
        fh.CallPartner(fh.parse_card("AH"), seat=2)
    assert str(fh.Play(fh.JOKER, fh.Suit.HEARTS)) == "Jo:H"
    assert str(fh.DECLINE) == "decline" and str(fh.Nominate(fh.Suit.SPADES)) == "nominate S"
    assert str(fh.Discard(fh.parse_cards("6D 4D 5D"))) == "discard 4D 5D 6D"


def test_invalid_state_error_lists_every_problem() -> None:
    one = fh.InvalidStateError(["the kitty has 4 cards"])
    assert str(one) == "invalid state: the kitty has 4 cards"
    two = fh.InvalidStateError(["seat 1 holds 9 cards", "AS is dealt twice"])
    assert two.problems == ("seat 1 holds 9 cards", "AS is dealt twice")
    assert str(two) == "invalid state, 2 problems: (1) seat 1 holds 9 cards; (2) AS is dealt twice"
    assert isinstance(two, ValueError) and isinstance(two, fh.FiveHundredError)


def test_contexts_refuse_impossible_contracts_R7_1() -> None:
    assert context(None).free_joker and not context(None, fh.Suit.HEARTS).free_joker
    assert not context(fh.Suit.HEARTS).free_joker
    with pytest.raises(ValueError, match="nominated only in No Trumps"):
        context(fh.Suit.HEARTS, fh.Suit.SPADES)
    with pytest.raises(ValueError, match="a pass is not a contract"):
        contract_context(fh.PASS)
    with pytest.raises(fh.FiveHundredError, match="a trick has 1 to 6 cards"):
        fh.trick_winner((), fh.Strain.NO_TRUMPS)
    with pytest.raises(fh.FiveHundredError, match="not 7"):
        fh.trick_winner(fh.parse_cards("4H 5H 6H 7H 8H 9H 10H"), fh.Strain.NO_TRUMPS)


def test_score_hand_refuses_impossible_hands_R8() -> None:
    seven = fh.parse_call("7S")
    with pytest.raises(fh.FiveHundredError, match="differ in length"):
        fh.score_hand(seven, 0, (7, 3), scores=(0, 0, 0))
    with pytest.raises(fh.FiveHundredError, match="not possible"):
        fh.score_hand(seven, 0, (7, 5))
    with pytest.raises(fh.FiveHundredError, match="thrown-in hand scores nothing"):
        fh.score_hand(fh.PASS, 0, (7, 3))
    with pytest.raises(fh.FiveHundredError, match="has no value"):
        fh.bid_value(fh.PASS)


def test_decks_exist_for_two_to_six_players_only_R1_1() -> None:
    with pytest.raises(ValueError, match="2 to 6 players"):
        standard_deck(players=7)
    with pytest.raises(ValueError, match="four-player deck"):
        standard_deck(players=5, black_fours=True)


def test_observe_refuses_a_seat_not_at_the_table() -> None:
    state = fh.deal(fh.new_game(dealer=0), seed=1)
    with pytest.raises(fh.FiveHundredError, match="not a seat"):
        fh.observe(state, 4)


def test_a_partner_seat_and_a_sans_kitty_flag_have_their_own_types() -> None:
    with pytest.raises(TypeError, match="seat number"):
        fh.CallPartner(seat=cast(int, False))
    with pytest.raises(TypeError, match="sans_kitty"):
        fh.Call.bid(7, fh.Strain.HEARTS, sans_kitty=cast(bool, 1))


def test_game_functions_need_a_game_state() -> None:
    for function in (fh.apply, fh.check_action):
        with pytest.raises(TypeError, match="GameState is needed"):
            function(cast(fh.GameState, "a saved game"), fh.PASS)
    for query in (fh.legal_actions, fh.legal_bids, fh.legal_plays):
        with pytest.raises(TypeError, match="GameState is needed"):
            query(cast(fh.GameState, None))
    assert fh.is_legal(cast(fh.GameState, None), fh.PASS) is False


def test_deal_refuses_sources_of_the_wrong_type_R2_3() -> None:
    game = fh.new_game(dealer=0)
    with pytest.raises(fh.IllegalActionError) as bad_deck:
        fh.deal(game, cards=cast(Any, 5))
    assert bad_deck.value.reason is fh.Reason.BAD_DECK
    with pytest.raises(TypeError, match="seed must be"):
        fh.deal(game, seed=cast(Any, [1]))
    with pytest.raises(TypeError, match="rng must be"):
        fh.deal(game, rng=cast(Any, 5))
    with pytest.raises(TypeError, match="not several"):
        fh.deal(game, seed=1, rng=random.Random(1))
