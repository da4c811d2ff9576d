"""R7 The Joker in No Trumps and misère: nomination, the suitless Joker, leading it."""

from __future__ import annotations

import pytest

import fivehundred as fh
from helpers import (
    JOKER_LEAD,
    JOKER_VOID,
    MISERE_JOKER,
    NOMINATE_HEARTS,
    Deal,
    after_auction,
    assert_refused,
    hand_of,
    in_play,
    legal,
    play,
    run,
)

R = fh.Reason
S, C, D, H = fh.Suit.SPADES, fh.Suit.CLUBS, fh.Suit.DIAMONDS, fh.Suit.HEARTS

#: Seat 0 holds the Joker and nine spades: at 10NT it leads spades nine times, then the Joker.
JOKER_LAST = Deal(
    (
        "Jo AS KS QS JS 10S 9S 8S 7S 6S",
        "5S AC KC QC JC 10C 9C 8C 7C 6C",
        "5C AD KD QD JD 10D 9D 8D 7D 6D",
        "5D 4D AH KH QH JH 10H 9H 8H 7H",
    ),
    "6H 5H 4H",
)


def lead_and_follow(state: fh.GameState, lead: str) -> fh.GameState:
    """Lead ``lead``; the other seats play their first legal card until the trick is complete."""
    done = len(state.tricks)
    state = run(state, lead)
    while state.phase is fh.Phase.PLAY and len(state.tricks) == done:
        state = fh.apply(state, fh.legal_plays(state)[0])
    return state


def views(state: fh.GameState) -> list[fh.PlayerView]:
    return [fh.observe(state, seat) for seat in range(4)]


# -- R7.1 nomination ------------------------------------------------------------------------


def test_contractor_may_nominate_any_suit_or_decline_R7_1() -> None:
    state = run(after_auction("10NT", 0, *JOKER_LEAD), "discard 6H 5H 4H")
    assert state.phase is fh.Phase.NOMINATE
    assert fh.legal_actions(state) == (
        fh.Nominate(S),
        fh.Nominate(C),
        fh.Nominate(D),
        fh.Nominate(H),
        fh.DECLINE,
    )
    for suit in fh.Suit:
        nominated = fh.apply(state, fh.Nominate(suit))
        assert nominated.phase is fh.Phase.PLAY
        assert nominated.joker_suit is suit
    declined = run(state, "decline")
    assert declined.phase is fh.Phase.PLAY
    assert declined.joker_suit is None


@pytest.mark.parametrize("contract", ["M", "OM", "BM"])
def test_misere_contractor_is_asked_to_nominate_R7_1(contract: str) -> None:
    state = run(after_auction(contract, 0, *MISERE_JOKER), "discard JD QD KD")
    assert state.phase is fh.Phase.NOMINATE
    assert state.to_act == 0


def test_nomination_is_public_R7_1() -> None:
    state = in_play("M", 0, *NOMINATE_HEARTS, nominate="nominate H")
    assert [v.joker_suit for v in views(state)] == [H, H, H, H]
    assert fh.Nominate(H) in state.actions


def test_making_no_nomination_is_silent_R7_1() -> None:
    """Keeping the Joker and making no nomination shows nothing: no view says it (R7.1)."""
    state = in_play("M", 0, *NOMINATE_HEARTS, nominate="decline")
    assert [v.joker_suit for v in views(state)] == [None] * 4
    assert not any(hasattr(v, "joker_declined") for v in views(state))
    assert not hasattr(state, "joker_declined")
    assert fh.DECLINE in state.actions  # the same record line as a contractor without it


def test_only_the_contractor_nominates_R7_1() -> None:
    state = run(after_auction("M", 0, *NOMINATE_HEARTS), "discard 8H 7H 6H")
    nominate = fh.Nominate(H)
    assert_refused(state, nominate, R.NOT_YOUR_TURN, seat=1, rule="R7.1", as_seat=1)


def test_contractor_without_the_joker_can_only_make_no_nomination_R7_1() -> None:
    """Seat 1, a defender, holds the Joker: the contractor still passes the nomination step."""
    state = run(after_auction("7NT", 0, *JOKER_VOID), "discard 7H 6H 5H")
    assert (state.phase, state.to_act) == (fh.Phase.NOMINATE, 0)
    assert fh.legal_actions(state) == (fh.DECLINE,)
    for suit in fh.Suit:
        err = assert_refused(
            state, fh.Nominate(suit), R.NOMINATION_NOT_ALLOWED, seat=0, rule="R7.1"
        )
        assert "does not hold the Joker" in str(err)
    state = run(state, "decline")
    assert (state.phase, state.to_act) == (fh.Phase.PLAY, 0)
    assert state.joker_suit is None


def test_defender_holding_the_joker_is_not_asked_R7_1() -> None:
    state = run(after_auction("7NT", 0, *JOKER_VOID), "discard 7H 6H 5H")
    assert_refused(state, fh.DECLINE, R.NOT_YOUR_TURN, seat=1, rule="R7.1", as_seat=1)
    assert fh.observe(state, 1).legal_actions == ()


@pytest.mark.parametrize("contract", ["M", "OM", "BM"])
def test_misere_contractor_without_the_joker_passes_the_nomination_step_R7_1(
    contract: str,
) -> None:
    state = run(after_auction(contract, 0, *JOKER_VOID), "discard 7H 6H 5H")
    assert (state.phase, state.to_act) == (fh.Phase.NOMINATE, 0)
    assert fh.legal_actions(state) == (fh.DECLINE,)
    assert_refused(state, fh.Nominate(H), R.NOMINATION_NOT_ALLOWED, seat=0, rule="R7.1")


def test_nominated_joker_follows_as_its_suit_R7_1() -> None:
    state = in_play("M", 0, *NOMINATE_HEARTS, nominate="nominate H")
    state = run(state, "4D", "AD", "9D")  # seat 1 wins trick 1
    state = run(state, "AH", "9H")
    assert state.to_act == 0
    assert legal(state) == ["4H", "5H", "Jo"]
    assert_refused(state, play("5S"), R.MUST_FOLLOW_SUIT, seat=0, rule="R5.3")


def test_nominated_joker_cannot_win_a_trick_led_in_another_suit_R7_1() -> None:
    state = in_play("M", 0, *NOMINATE_HEARTS, nominate="nominate H")
    state = run(state, "4D", "AD", "9D", "AC", "9C")
    # Void in clubs, seat 0 may throw anything (no forced Joker: it is a heart).
    assert legal(state) == ["5S", "6S", "7S", "8S", "5D", "6D", "4H", "5H", "Jo"]
    state = run(state, "Jo")
    assert state.phase is fh.Phase.PLAY  # the contractor did not win the trick
    assert state.tricks[1].winner == 1
    assert state.tricks[1].led_suit is C


def test_nominated_joker_is_led_as_its_suit_and_wins_it_R7_1() -> None:
    state = in_play("M", 0, *NOMINATE_HEARTS, nominate="nominate H")
    assert "Jo" in legal(state)
    assert not any(p.suit is not None for p in fh.legal_plays(state))
    assert_refused(state, fh.Play(fh.JOKER, H), R.JOKER_SUIT_NOT_ALLOWED, seat=0, rule="R7.4")
    state = run(state, "Jo")
    assert state.led_suit is H
    assert legal(state) == ["QH", "KH", "AH"]
    state = run(state, "AH")
    assert legal(state) == ["9H", "10H", "JH"]
    state = run(state, "9H")  # the Joker is the highest heart: seat 0 wins, misère fails
    assert state.phase is fh.Phase.DEAL
    assert state.last_hand is not None
    assert state.last_hand.tricks == (1, 0)
    assert state.scores == (-250, 0)


def test_nominated_joker_in_no_trumps_is_not_a_trump_R7_1() -> None:
    nt = fh.parse_call("7NT")
    assert fh.trick_winner([fh.parse_card("4S"), fh.JOKER], nt, joker_suit=D) == 0
    assert fh.trick_winner([fh.parse_card("AD"), fh.JOKER], nt, joker_suit=D) == 1


# -- R7.2 the un-nominated Joker ------------------------------------------------------------


def test_unnominated_joker_has_no_suit_R7_2() -> None:
    for contract in ("6NT", "M", "OM", "BM"):
        assert fh.effective_suit(fh.JOKER, fh.parse_call(contract)) is None


def test_unnominated_joker_wins_any_trick_it_is_played_to_R7_2() -> None:
    state = run(in_play("7NT", 0, *JOKER_VOID), "5S", "Jo", "10S", "AS")
    assert state.tricks[0].winner == 1
    assert state.to_act == 1


def test_declined_joker_of_the_contractor_wins_R7_2() -> None:
    state = run(in_play("10NT", 0, *JOKER_LEAD), "Jo:D", "KC", "KD", "JD")
    assert state.tricks[0].winner == 0


@pytest.mark.parametrize("led", ["AS", "KS", "QS", "JS"])
def test_unnominated_joker_beats_every_card_R7_2(led: str) -> None:
    for contract in ("7NT", "M"):
        winner = fh.trick_winner([fh.parse_card(led), fh.JOKER], fh.parse_call(contract))
        assert winner == 1


# -- R7.3 playing the Joker to someone else's lead --------------------------------------------


@pytest.mark.parametrize("contract", ["7NT", "M"])
def test_joker_may_not_be_played_while_holding_the_led_suit_R7_3(contract: str) -> None:
    state = run(in_play(contract, 0, *JOKER_VOID), "4D")
    assert state.to_act == 1
    assert legal(state) == ["JD", "QD", "KD", "AD"]
    err = assert_refused(state, play("Jo"), R.MUST_FOLLOW_SUIT, seat=1, rule="R7.3")
    assert "Jo" in str(err)


def test_joker_is_optional_when_void_in_no_trumps_R7_3() -> None:
    state = run(in_play("7NT", 0, *JOKER_VOID), "5S")
    assert legal(state) == ["JD", "QD", "KD", "AD", "10H", "JH", "QH", "KH", "AH", "Jo"]
    state = run(state, "AH", "10S", "AS")
    assert state.tricks[0].winner == 3  # AH is off suit; without the Joker AS wins


@pytest.mark.parametrize("contract", ["M", "OM", "BM"])
def test_misere_defender_void_in_the_led_suit_must_play_the_joker_R7_3(contract: str) -> None:
    state = run(in_play(contract, 0, *JOKER_VOID), "5S")
    assert state.to_act == 1
    assert legal(state) == ["Jo"]
    err = assert_refused(state, play("AH"), R.MUST_PLAY_JOKER, seat=1, rule="R7.3")
    assert "AH" in str(err)
    state = run(state, "Jo", "JS")
    assert state.tricks[0].winner == 1


def test_misere_contractor_void_in_the_led_suit_must_play_the_joker_R7_3() -> None:
    state = in_play("M", 0, *MISERE_JOKER)
    state = run(state, "4D", "AD", "4H", "AH", "5H")
    assert state.to_act == 0
    assert legal(state) == ["Jo"]
    assert_refused(state, play("5S"), R.MUST_PLAY_JOKER, seat=0, rule="R7.3")


@pytest.mark.parametrize("suit", ["S", "C", "D"])
def test_nominated_joker_is_never_forced_in_misere_R7_3(suit: str) -> None:
    # Seat 0 has no heart; its Joker, nominated out of hearts, need not be played.
    state = in_play("M", 0, *MISERE_JOKER, nominate=f"nominate {suit}")
    state = run(state, "4D", "AD", "4H", "AH", "5H")
    assert legal(state) == ["5S", "6S", "7S", "5C", "6C", "7C", "5D", "6D", "Jo"]


def test_joker_never_counts_as_following_suit_R7_3() -> None:
    # 7NT, a diamond led: seat 1 holds diamonds, so the Joker is not among its plays.
    state = run(in_play("7NT", 0, *JOKER_VOID), "4D")
    assert fh.JOKER not in [p.card for p in fh.legal_plays(state)]


# -- R7.4 leading the Joker ---------------------------------------------------------------------


def test_joker_lead_names_a_suit_not_yet_led_R7_4() -> None:
    state = in_play("10NT", 0, *JOKER_LEAD)
    assert legal(state) == [
        "AS", "AC", "AD", "9H", "10H", "JH", "QH", "KH", "AH", "Jo:S", "Jo:C", "Jo:D", "Jo:H",
    ]  # fmt: skip


def test_joker_lead_must_name_a_suit_R7_4() -> None:
    state = in_play("10NT", 0, *JOKER_LEAD)
    err = assert_refused(state, play("Jo"), R.JOKER_SUIT_REQUIRED, seat=0, rule="R7.4")
    assert "spades" in str(err)


def test_joker_lead_naming_an_already_led_suit_is_refused_R7_4() -> None:
    state = lead_and_follow(in_play("10NT", 0, *JOKER_LEAD), "AS")
    assert state.tricks[0].winner == 0
    assert state.suits_led == frozenset({S})
    err = assert_refused(state, play("Jo:S"), R.JOKER_SUIT_ALREADY_LED, seat=0, rule="R7.4")
    assert "spades" in str(err)
    assert [str(p) for p in fh.legal_plays(state) if p.card.is_joker] == ["Jo:C", "Jo:D", "Jo:H"]


def test_others_follow_the_named_suit_and_the_joker_wins_R7_4() -> None:
    state = lead_and_follow(in_play("10NT", 0, *JOKER_LEAD), "AS")
    state = run(state, "Jo:C")
    assert state.led_suit is C
    assert legal(state) == ["9C", "10C", "JC", "QC", "KC"]
    state = run(state, "KC")
    assert legal(state) == ["5C", "6C", "7C", "8C"]
    state = run(state, "8C")
    assert legal(state) == ["5D", "6D", "7D", "8D", "9D", "10D", "JD", "7H", "8H"]  # void
    state = run(state, "JD")
    assert state.tricks[1].winner == 0
    assert state.tricks[1].led_suit is C


def test_suit_named_for_a_joker_lead_counts_as_led_R7_4() -> None:
    state = run(in_play("10NT", 0, *JOKER_LEAD), "Jo:H", "KC", "KD", "8H")
    assert state.suits_led == frozenset({H})
    assert [v.suits_led for v in views(state)] == [frozenset({H})] * 4
    state = lead_and_follow(state, "AS")
    assert state.suits_led == frozenset({S, H})


def test_joker_lead_by_a_defender_names_a_suit_R7_4() -> None:
    state = run(in_play("7NT", 0, *JOKER_VOID), "4D", "AD", "8D", "9D")
    assert state.to_act == 1
    assert [str(p) for p in fh.legal_plays(state) if p.card.is_joker] == [
        "Jo:S",
        "Jo:C",
        "Jo:H",
    ]
    assert_refused(state, play("Jo:D"), R.JOKER_SUIT_ALREADY_LED, seat=1, rule="R7.4")


# -- R7.5 the Joker after all four suits ------------------------------------------------------


def test_joker_may_not_be_led_early_once_all_suits_are_led_R7_5() -> None:
    state = in_play("10NT", 0, *JOKER_LEAD)
    for lead in ("AS", "AC", "AD", "AH"):
        state = lead_and_follow(state, lead)
    assert state.suits_led == frozenset(fh.Suit)
    assert [t.winner for t in state.tricks] == [0, 0, 0, 0]
    assert legal(state) == ["9H", "10H", "JH", "QH", "KH"]
    assert_refused(state, play("Jo:D"), R.JOKER_LEAD_TOO_EARLY, seat=0, rule="R7.5")
    assert_refused(state, play("Jo"), R.JOKER_LEAD_TOO_EARLY, seat=0, rule="R7.5")


def test_joker_is_led_to_the_last_trick_with_no_suit_and_wins_R7_5() -> None:
    state = in_play("10NT", 0, *JOKER_LEAD)
    for lead in ("AS", "AC", "AD", "AH", "9H", "10H", "JH", "QH", "KH"):
        state = lead_and_follow(state, lead)
    assert len(state.tricks) == 9
    assert state.hand(0) == (fh.JOKER,)
    assert legal(state) == ["Jo"]
    assert_refused(state, play("Jo:H"), R.JOKER_SUIT_NOT_ALLOWED, seat=0, rule="R7.5")
    state = run(state, "Jo")
    assert state.led_suit is None
    state = run(state, *(str(state.hand(seat)[0]) for seat in (1, 2, 3)))
    assert state.last_hand is not None
    assert state.last_hand.tricks == (10, 0)  # the Joker won the last trick


def test_joker_led_to_the_last_trick_even_with_suits_unled_R7_5() -> None:
    state = in_play("10NT", 0, *JOKER_LAST)
    for lead in ("AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S"):
        state = lead_and_follow(state, lead)
    assert state.suits_led == frozenset({S})
    assert [t.winner for t in state.tricks] == [0] * 9
    assert legal(state) == ["Jo"]
    assert_refused(state, play("Jo:H"), R.JOKER_SUIT_NOT_ALLOWED, seat=0, rule="R7.5")
    state = run(state, "Jo")
    assert state.trick == ((0, fh.JOKER),)
    assert state.led_suit is None
    last = [str(state.hand(seat)[0]) for seat in (1, 2, 3)]
    state = run(state, *last)
    assert state.last_hand is not None
    assert state.last_hand.tricks == (10, 0)


def test_joker_lead_names_any_unled_suit_before_the_last_trick_R7_5() -> None:
    state = in_play("10NT", 0, *JOKER_LAST)
    for lead in ("AS", "KS", "QS"):
        state = lead_and_follow(state, lead)
    assert [str(p) for p in fh.legal_plays(state) if p.card.is_joker] == [
        "Jo:C",
        "Jo:D",
        "Jo:H",
    ]


# -- R7.6 the misère contractor who keeps the Joker -------------------------------------------


def test_library_never_nominates_for_the_misere_contractor_R7_6() -> None:
    state = run(after_auction("M", 0, *MISERE_JOKER), "discard JD QD KD")
    assert state.phase is fh.Phase.NOMINATE  # waiting for the contractor's own choice
    assert state.joker_suit is None
    assert state.to_act == 0
    state = run(state, "decline")
    assert state.joker_suit is None


def test_unnominated_joker_forces_the_misere_contractor_to_win_R7_6() -> None:
    state = in_play("M", 0, *MISERE_JOKER, nominate="decline")
    state = run(state, "4D", "AD", "4H", "AH", "5H")
    assert legal(state) == ["Jo"]
    state = run(state, "Jo")
    assert state.last_hand is not None
    assert state.last_hand.made is False
    assert state.scores == (-250, 0)


def test_nominating_the_joker_avoids_the_forced_win_R7_6() -> None:
    state = in_play("M", 0, *MISERE_JOKER, nominate="nominate S")
    state = run(state, "4D", "AD", "4H", "AH", "5H")
    assert legal(state) == ["5S", "6S", "7S", "5C", "6C", "7C", "5D", "6D", "Jo"]
    state = run(state, "7C")
    assert state.phase is fh.Phase.PLAY
    assert state.tricks[1].winner == 1
    assert state.hand(0) == hand_of("Jo 5S 6S 7S 5C 6C 5D 6D")
