"""R4 Kitty and the start of play: the exchange, the misère partner, the order of events."""

from __future__ import annotations

from math import comb

import pytest

import fivehundred as fh
from helpers import (
    BOWERS,
    JOKER_LEAD,
    JOKER_VOID,
    after_auction,
    assert_refused,
    auction_for,
    cards,
    dealt,
    hand_of,
    in_play,
    play,
    play_out,
    run,
    start_play,
    sweep,
)

R = fh.Reason


# -- R4.1 the kitty exchange --------------------------------------------------------


def test_contractor_takes_the_kitty_unseen_by_others_R4_1() -> None:
    state = after_auction("7H", 0, *BOWERS)
    assert state.to_act == 0
    assert fh.observe(state, 0).kitty == hand_of("10S JS QS")
    for seat in (1, 2, 3):
        view = fh.observe(state, seat)
        assert view.kitty is None
        assert view.legal_actions == ()


def test_contractor_may_discard_any_three_of_thirteen_R4_1() -> None:
    state = after_auction("7H", 0, *BOWERS)
    discards = [a for a in fh.legal_actions(state) if isinstance(a, fh.Discard)]
    assert len(discards) == comb(13, 3) == 286
    pool = set(hand_of(BOWERS.hands[0])) | set(hand_of(BOWERS.kitty))
    assert {c for d in discards for c in d.cards} == pool
    assert all(len(set(d.cards)) == 3 for d in discards)


def test_discard_may_mix_kitty_and_hand_cards_R4_1() -> None:
    state = run(after_auction("7H", 0, *BOWERS), "discard 10S 9H KD")
    assert state.phase is fh.Phase.PLAY
    assert state.hand(0) == hand_of("JH AH KH 10H AS KS AC AD JS QS")
    assert state.discards == hand_of("10S 9H KD")
    assert state.kitty == ()


def test_discard_may_keep_the_whole_kitty_R4_1() -> None:
    state = run(after_auction("7H", 0, *BOWERS), "discard AC AD KD")
    assert state.hand(0) == hand_of("JH AH KH 10H 9H AS KS 10S JS QS")


def test_discard_must_be_exactly_three_cards_R4_1() -> None:
    state = after_auction("7H", 0, *BOWERS)
    assert_refused(state, "discard 10S JS", R.WRONG_DISCARD_COUNT, seat=0, rule="R4.1")
    assert_refused(state, "discard 10S JS QS 9H", R.WRONG_DISCARD_COUNT, seat=0, rule="R4.1")
    same = fh.Discard(cards("10S 10S 10S"))
    assert_refused(state, same, R.WRONG_DISCARD_COUNT, seat=0, rule="R4.1")


def test_discard_must_come_from_hand_and_kitty_R4_1() -> None:
    state = after_auction("7H", 0, *BOWERS)
    err = assert_refused(state, "discard 10S JS QD", R.CARD_NOT_IN_HAND, seat=0, rule="R4.1")
    assert "QD" in str(err)


def test_discards_are_out_of_play_R4_1() -> None:
    deal = sweep(0)
    state = in_play("7NT", 0, *deal, discard="10S 10C QH")
    assert state.discards == hand_of("10S 10C QH")
    played: list[fh.Card] = []
    while state.phase is fh.Phase.PLAY:
        choice = fh.legal_plays(state)[0]
        played.append(choice.card)
        state = fh.apply(state, choice)
    assert len(played) == 40
    assert not set(played) & set(hand_of("10S 10C QH"))
    assert sorted(played) == sorted(set(fh.Rules().deck) - set(hand_of("10S 10C QH")))
    assert state.last_hand is not None
    assert sum(state.last_hand.tricks) == 10


def test_discards_are_never_shown_to_other_seats_R4_1() -> None:
    state = run(in_play("7H", 0, *BOWERS, discard="9H KD 10S"), "AD", "5S", "9D", "4D")
    discarded = set(hand_of("9H KD 10S"))
    assert fh.observe(state, 0).discards == hand_of("9H KD 10S")
    for seat in (1, 2, 3):
        view = fh.observe(state, seat)
        assert view.discards is None
        assert view.kitty is None
        seen = set(view.hand) | {c for _, c in view.trick}
        seen |= {c for t in view.tricks for c in t.cards}
        assert not seen & discarded


def test_different_discards_give_other_seats_the_same_view_R4_1() -> None:
    # Seat 0 discards 10S in one deal and keeps it (discarding 9H) in the other.
    # Nothing another seat observes may tell the two apart.
    hands = list(BOWERS.hands)
    hands[0] = "JH AH KH 10H 10S AS KS AC AD KD"
    first = in_play("7H", 0, *BOWERS, discard="10S JS QS")
    second = in_play("7H", 0, hands, "9H JS QS", discard="9H JS QS")
    assert first.discards != second.discards
    for state_a, state_b in ((first, second), (run(first, "AD"), run(second, "AD"))):
        for seat in (1, 2, 3):
            assert fh.observe(state_a, seat) == fh.observe(state_b, seat)


@pytest.mark.parametrize("contract", ["M", "OM", "BM"])
def test_misere_contracts_exchange_with_the_kitty_too_R4_1(contract: str) -> None:
    state = after_auction(contract, 0, *JOKER_VOID)
    assert state.phase is fh.Phase.DISCARD
    assert state.to_act == 0
    assert fh.observe(state, 0).kitty == hand_of(JOKER_VOID.kitty)
    state = run(state, "discard 7H 6H 4H")
    assert state.phase is fh.Phase.NOMINATE  # every misère contract passes it (R4.3, R7.1)
    assert state.hand(0) == hand_of("5S 6S 7S 5C 6C 7C 4D 5D 6D 5H")
    assert fh.observe(state, 0).discards == hand_of("7H 6H 4H")
    assert fh.observe(state, 1).discards is None


# -- R4.2 the misère partner sits out --------------------------------------------


@pytest.mark.parametrize("contract", ["M", "OM", "BM"])
def test_misere_partner_sits_out_R4_2(contract: str) -> None:
    state = in_play(contract, 0, *JOKER_VOID)
    assert state.sitting_out == frozenset({2})
    assert fh.observe(state, 1).sitting_out == frozenset({2})
    state = run(state, "5S")
    assert state.to_act == 1
    state = run(state, "Jo")
    assert state.to_act == 3  # seat 2 is skipped
    state = run(state, "JS")
    assert len(state.tricks) == 1
    assert [seat for seat, _ in state.tricks[0].plays] == [0, 1, 3]


def test_misere_tricks_have_three_cards_and_the_partner_never_plays_R4_2() -> None:
    # Seats 1 and 3 hold every high card: the misère contractor (seat 0) loses all ten tricks.
    deal = sweep(1)
    state = in_play("M", 0, *deal)
    seats_to_act: set[int] = set()
    tricks_seen: list[fh.Trick] = []
    while state.phase is fh.Phase.PLAY:
        assert state.to_act is not None
        seats_to_act.add(state.to_act)
        assert fh.observe(state, 2).legal_actions == ()
        state = fh.apply(state, fh.legal_plays(state)[0])
        if state.phase is fh.Phase.PLAY:
            tricks_seen = list(state.tricks)
    assert seats_to_act == {0, 1, 3}
    assert len(tricks_seen) == 9  # the tenth completes the hand
    assert all(len(t.plays) == 3 for t in tricks_seen)
    assert all(seat != 2 for t in tricks_seen for seat, _ in t.plays)
    assert state.hand(2) == hand_of(deal.hands[2])  # face down, untouched


def test_partner_plays_in_a_trick_contract_R4_2() -> None:
    state = in_play("7NT", 0, *JOKER_VOID)
    assert state.sitting_out == frozenset()
    state = run(state, "5S", "Jo")
    assert state.to_act == 2


# -- R4.3 the order before the first lead ---------------------------------------------


def test_order_auction_kitty_nomination_then_contractor_leads_R4_3() -> None:
    state = dealt(*JOKER_LEAD)
    assert state.phase is fh.Phase.BIDDING
    state = run(state, *auction_for("10NT", 0, 3))
    assert (state.phase, state.to_act) == (fh.Phase.DISCARD, 0)
    state = run(state, "discard 6H 5H 4H")
    assert (state.phase, state.to_act) == (fh.Phase.NOMINATE, 0)
    assert fh.legal_actions(state) == (
        fh.Nominate(fh.Suit.SPADES),
        fh.Nominate(fh.Suit.CLUBS),
        fh.Nominate(fh.Suit.DIAMONDS),
        fh.Nominate(fh.Suit.HEARTS),
        fh.DECLINE,
    )
    state = run(state, "decline")
    assert (state.phase, state.to_act) == (fh.Phase.PLAY, 0)


def test_no_play_before_the_nomination_R4_3() -> None:
    state = run(after_auction("10NT", 0, *JOKER_LEAD), "discard 6H 5H 4H")
    assert state.phase is fh.Phase.NOMINATE
    assert_refused(state, play("AS"), R.WRONG_PHASE, seat=0, rule="R4.3")


def test_no_nomination_once_play_has_begun_R4_3() -> None:
    state = in_play("10NT", 0, *JOKER_LEAD)
    nominate = fh.Nominate(fh.Suit.HEARTS)
    assert_refused(state, nominate, R.WRONG_PHASE, seat=0, rule="R4.3")


def test_no_nomination_without_the_joker_but_the_same_step_R4_3() -> None:
    """Without the Joker the contractor still passes the nomination step, silently (R7.1)."""
    state = run(after_auction("7NT", 0, *JOKER_VOID), "discard 7H 6H 5H")
    assert (state.phase, state.to_act) == (fh.Phase.NOMINATE, 0)
    assert fh.legal_actions(state) == (fh.DECLINE,)
    assert_refused(state, play("4D"), R.WRONG_PHASE, seat=0, rule="R4.3")
    state = run(state, "decline")
    assert (state.phase, state.to_act) == (fh.Phase.PLAY, 0)


def test_no_nomination_in_a_trump_contract_R4_3() -> None:
    # Seat 2 holds the Joker and contracts 7H: the Joker is simply the top trump.
    state = run(after_auction("7H", 2, *BOWERS), "discard 10S JS QS")
    assert (state.phase, state.to_act) == (fh.Phase.PLAY, 2)


def test_joker_taken_from_the_kitty_is_nominated_R4_3() -> None:
    # Dealt in card order by seat 3, the kitty is 7C KD Jo.
    state = fh.deal(fh.new_game(dealer=3), cards=fh.Rules().deck)
    state = run(state, "6NT", "pass", "pass", "pass")
    assert fh.observe(state, 0).kitty == hand_of("7C KD Jo")
    state = run(state, "discard 5S 6S 7C")
    assert state.phase is fh.Phase.NOMINATE
    assert fh.JOKER in state.hand(0)


def test_discarding_the_joker_leaves_only_no_nomination_R4_3() -> None:
    state = fh.deal(fh.new_game(dealer=3), cards=fh.Rules().deck)
    state = run(state, "6NT", "pass", "pass", "pass", "discard 5S 6S Jo")
    assert (state.phase, state.to_act) == (fh.Phase.NOMINATE, 0)
    assert fh.legal_actions(state) == (fh.DECLINE,)
    assert_refused(
        state, fh.Nominate(fh.Suit.SPADES), R.NOMINATION_NOT_ALLOWED, seat=0, rule="R7.1"
    )
    state = run(state, "decline")
    assert (state.phase, state.to_act) == (fh.Phase.PLAY, 0)


@pytest.mark.parametrize("contractor", [1, 2, 3])
def test_contractor_leads_after_the_exchange_wherever_they_sit_R4_3(contractor: int) -> None:
    state = after_auction("8S", contractor, *BOWERS)
    state = start_play(state)
    assert state.to_act == contractor


def test_a_played_hand_goes_back_to_the_deal_R4_3() -> None:
    state = play_out(in_play("7NT", 0, *sweep(0)))
    assert state.phase is fh.Phase.DEAL
    assert state.to_act is None
