"""The test helpers deal what they are asked to deal and read scripts as written."""

from __future__ import annotations

import pytest

import fivehundred as fh
from helpers import (
    BOWERS,
    FULL_DECK,
    JOKER_LEAD,
    JOKER_VOID,
    MISERE_JOKER,
    NOMINATE_HEARTS,
    Deal,
    action,
    auction_for,
    dealt,
    deck_for,
    hand_of,
    in_play,
    run,
    sweep,
)

ALL_DEALS = [BOWERS, JOKER_VOID, MISERE_JOKER, NOMINATE_HEARTS, JOKER_LEAD, sweep(0), sweep(1)]


@pytest.mark.parametrize("dealer", range(4))
@pytest.mark.parametrize("deal", ALL_DEALS)
def test_dealt_gives_the_requested_hands_and_kitty(deal: Deal, dealer: int) -> None:
    hands, kitty = deal
    state = dealt(hands, kitty, dealer)
    assert state.dealer == dealer
    assert state.phase is fh.Phase.BIDDING
    for seat in range(4):
        assert state.hand(seat) == hand_of(hands[seat])
    assert state.kitty == hand_of(kitty)


@pytest.mark.parametrize("dealer", range(4))
def test_deck_for_is_a_permutation_of_the_deck(dealer: int) -> None:
    order = deck_for(BOWERS.hands, BOWERS.kitty, dealer)
    assert len(order) == 43
    assert sorted(order) == sorted(FULL_DECK)
    assert fh.deal(fh.new_game(dealer=dealer), cards=order).deck == order


def test_deck_for_puts_the_kitty_at_d12_d29_d42() -> None:
    order = deck_for(BOWERS.hands, BOWERS.kitty, 3)
    assert [str(order[i]) for i in (12, 29, 42)] == ["10S", "JS", "QS"]
    assert [str(c) for c in order[:3]] == ["JH", "AH", "KH"]  # seat 0's first packet


def test_deck_for_rejects_a_duplicated_card() -> None:
    hands = list(BOWERS.hands)
    hands[1] = hands[1].replace("5S", "AS")
    with pytest.raises(ValueError, match=r"duplicated: AS.*missing: 5S"):
        deck_for(hands, BOWERS.kitty, 3)


def test_deck_for_rejects_wrong_counts_and_foreign_cards() -> None:
    hands = list(BOWERS.hands)
    hands[3] = hands[3] + " 2C"
    with pytest.raises(ValueError, match=r"seat 3 has 11 cards.*not in the 43-card deck: 2C"):
        deck_for(hands, BOWERS.kitty, 3)
    with pytest.raises(ValueError, match="the kitty has 2 cards"):
        deck_for(BOWERS.hands, "10S JS", 3)
    with pytest.raises(ValueError, match="give 4 hands"):
        deck_for(BOWERS.hands[:3], BOWERS.kitty, 3)


def test_action_reads_each_kind_of_scripted_action() -> None:
    state = dealt(*BOWERS)
    assert action(state, "7H") == fh.Call.bid(7, fh.Strain.HEARTS)
    assert action(state, "pass") == fh.PASS
    assert action(state, "OM") == fh.OPEN_MISERE
    assert action(state, "discard 4D 5D 6D") == fh.Discard(fh.parse_cards("4D 5D 6D"))
    assert action(state, "nominate H") == fh.Nominate(fh.Suit.HEARTS)
    assert action(state, "decline") == fh.DECLINE
    playing = in_play("7H", 0, *BOWERS)
    assert action(playing, "7H") == fh.Play(fh.parse_card("7H"))
    assert action(playing, "Jo:H") == fh.Play(fh.JOKER, fh.Suit.HEARTS)


@pytest.mark.parametrize("contract", ["7H", "M", "OM", "BM", "10NT"])
@pytest.mark.parametrize("contractor", range(4))
def test_auction_for_makes_the_contractor_win(contract: str, contractor: int) -> None:
    state = run(dealt(*BOWERS), *auction_for(contract, contractor, 3))
    assert state.phase is fh.Phase.DISCARD
    assert state.contract == fh.parse_call(contract)
    assert state.contractor == contractor


def test_in_play_keeps_the_dealt_hands_when_the_kitty_is_discarded() -> None:
    state = in_play("7H", 2, *BOWERS)
    assert state.phase is fh.Phase.PLAY
    assert state.to_act == 2
    assert state.hands == tuple(hand_of(h) for h in BOWERS.hands)
    assert state.discards == hand_of(BOWERS.kitty)
