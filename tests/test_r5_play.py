"""R5 Play: who leads, effective suits, following suit, the winner, the length of a hand."""

from __future__ import annotations

import pytest

import fivehundred as fh
from helpers import (
    BOWERS,
    JOKER_VOID,
    MISERE_JOKER,
    after_auction,
    assert_refused,
    cards,
    in_play,
    legal,
    play,
    play_out,
    run,
    start_play,
    sweep,
)

R = fh.Reason
S, C, D, H = fh.Suit.SPADES, fh.Suit.CLUBS, fh.Suit.DIAMONDS, fh.Suit.HEARTS


# -- R5.1 the lead and the turn -------------------------------------------------------


def test_contractor_leads_trick_one_R5_1() -> None:
    # Seat 2 wins the auction; seat 0 (left of the dealer) does not lead.
    state = start_play(after_auction("7H", 2, *BOWERS))
    assert state.to_act == 2
    assert [str(p) for p in fh.legal_plays(state)] == [
        "9C", "10C", "JC", "9D", "10D", "QD", "7H", "8H", "QH", "Jo",
    ]  # fmt: skip


def test_only_the_contractor_may_lead_trick_one_R5_1() -> None:
    state = start_play(after_auction("7H", 2, *BOWERS))
    assert_refused(state, play("5S"), R.NOT_YOUR_TURN, seat=0, rule="R5.1", as_seat=0)


def test_trick_winner_leads_the_next_trick_R5_1() -> None:
    state = run(in_play("7H", 0, *BOWERS), "AH", "JD", "7H", "4H")
    assert state.tricks[0].winner == 1
    assert state.to_act == 1
    assert state.trick == ()


def test_play_goes_clockwise_from_the_leader_R5_1() -> None:
    state = start_play(after_auction("7H", 2, *BOWERS))
    order = []
    for text in ("9C", "QC", "AC", "5C"):
        order.append(state.to_act)
        state = run(state, text)
    assert order == [2, 3, 0, 1]
    assert [seat for seat, _ in state.tricks[0].plays] == [2, 3, 0, 1]
    assert state.tricks[0].leader == 2


def test_play_skips_the_seat_that_sits_out_R5_1() -> None:
    state = in_play("M", 0, *MISERE_JOKER)
    order = []
    for text in ("4D", "AD", "4H"):
        order.append(state.to_act)
        state = run(state, text)
    assert order == [0, 1, 3]
    assert state.to_act == 1  # seat 1 won with AD and leads


# -- R5.2 effective suit ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "contract", "suit"),
    [
        ("Jo", "7H", H),
        ("JD", "7H", H),
        ("JH", "7H", H),
        ("JH", "7D", D),
        ("JC", "7S", S),
        ("JS", "7C", C),
        ("JS", "7H", S),
        ("JC", "7D", C),
        ("AD", "7H", D),
        ("JD", "7NT", D),
        ("JD", "M", D),
        ("JH", "OM", H),
        ("Jo", "7NT", None),
        ("Jo", "M", None),
        ("Jo", "BM", None),
    ],
)
def test_effective_suit_R5_2(text: str, contract: str, suit: fh.Suit | None) -> None:
    assert fh.effective_suit(fh.parse_card(text), fh.parse_call(contract)) is suit


@pytest.mark.parametrize("contract", ["7NT", "M", "OM"])
@pytest.mark.parametrize("nominated", list(fh.Suit))
def test_nominated_joker_has_the_nominated_suit_R5_2(contract: str, nominated: fh.Suit) -> None:
    bid = fh.parse_call(contract)
    assert fh.effective_suit(fh.JOKER, bid, joker_suit=nominated) is nominated


def test_led_suit_is_the_effective_suit_of_the_card_led_R5_2() -> None:
    # At 7D seat 0 leads JH, the left bower: trumps (diamonds) are led.
    state = run(in_play("7D", 0, *BOWERS), "JH")
    assert state.led_suit is D
    assert legal(state) == ["JD"]  # seat 1's only diamond is the right bower
    state = run(state, "JD")
    assert legal(state) == ["9D", "10D", "QD", "Jo"]
    state = run(state, "9D", "4D")
    assert state.tricks[0].led_suit is D
    assert state.tricks[0].winner == 1


# -- R5.3 following suit -------------------------------------------------------------------


def test_must_follow_the_led_suit_R5_3() -> None:
    state = run(in_play("7H", 0, *BOWERS), "AD", "5S")
    assert state.to_act == 2
    assert legal(state) == ["9D", "10D", "QD"]
    err = assert_refused(state, play("9C"), R.MUST_FOLLOW_SUIT, seat=2, rule="R5.3")
    assert "9C" in str(err)


def test_trump_holder_must_follow_with_a_trump_R5_3() -> None:
    state = run(in_play("7H", 0, *BOWERS), "AH")
    assert legal(state) == ["JD"]
    err = assert_refused(state, play("5S"), R.MUST_FOLLOW_SUIT, seat=1, rule="R5.3")
    assert "JD" in str(err)
    assert "the left bower JD counts as a heart" in str(err)  # the reason is in words


def test_void_player_may_play_any_card_R5_3() -> None:
    # Seat 1 cannot follow diamonds and need not trump (it holds JD, a trump).
    state = run(in_play("7H", 0, *BOWERS), "AD")
    hand = ["5S", "6S", "7S", "8S", "9S", "5C", "6C", "7C", "8C", "JD"]
    assert legal(state) == hand
    for text in hand:
        assert fh.is_legal(state, play(text))


def test_no_obligation_to_win_the_trick_R5_3() -> None:
    # Seat 3 may play low on a diamond lead though it could not win anyway; seat 2 may
    # underplay with 9D while holding QD.
    state = run(in_play("7H", 0, *BOWERS), "KD", "5S")
    assert fh.is_legal(state, play("9D"))
    state = run(state, "9D")
    assert legal(state) == ["4D", "5D", "6D", "7D", "8D"]


def test_no_obligation_to_trump_or_overtrump_R5_3() -> None:
    # 7H, spades led: seat 1 holds spades and follows. Seats 2 and 3 are void in spades:
    # they may trump (the Joker, 7H ...) or discard anything, even after a trump.
    state = run(in_play("7H", 0, *BOWERS), "AS", "5S")
    assert legal(state) == [
        "9C", "10C", "JC", "9D", "10D", "QD", "7H", "8H", "QH", "Jo",
    ]  # fmt: skip
    state = run(state, "9C")
    assert legal(state) == ["QC", "KC", "4D", "5D", "6D", "7D", "8D", "4H", "5H", "6H"]


# -- R5.4 the winner --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("played", "contract", "winner"),
    [
        ("5S AH AD AC", "7C", 3),  # a trump wins
        ("5S AH AD KS", "7C", 3),  # without a trump, the highest of the led suit
        ("5S AH AD 6S", "7C", 3),
        ("5S AH AD AC", "7NT", 0),  # other suits never win
        ("KD 4H QD AD", "7H", 1),  # the lowest trump beats the aces
        ("4H JD JH Jo", "7H", 3),
        ("AS Jo KS 10S", "7NT", 1),  # the un-nominated Joker is the only NT trump
        ("AS Jo KS 10S", "M", 1),
        ("AD AH 4D", "M", 0),
    ],
)
def test_trick_winner_R5_4(played: str, contract: str, winner: int) -> None:
    assert fh.trick_winner(cards(played), fh.parse_call(contract)) == winner


def test_nominated_joker_is_the_highest_card_of_its_suit_but_not_a_trump_R5_4() -> None:
    nt = fh.parse_call("7NT")
    assert fh.trick_winner(cards("KH Jo AH"), nt, joker_suit=H) == 1
    assert fh.trick_winner(cards("KD Jo AD"), nt, joker_suit=H) == 2
    assert fh.trick_winner(cards("4S Jo"), fh.MISERE, joker_suit=C) == 0


def test_off_suit_cards_never_win_in_play_R5_4() -> None:
    # 7H: KS is led; QD and KC are off suit and not trumps.
    state = run(in_play("7H", 0, *BOWERS), "KS", "9S", "QD", "KC")
    assert state.tricks[0].winner == 0


def test_a_trump_beats_the_led_suit_in_play_R5_4() -> None:
    state = run(in_play("7H", 0, *BOWERS), "KD", "JD", "QD", "8D")
    assert state.tricks[0].winner == 1


def test_highest_trump_wins_in_play_R5_4() -> None:
    state = run(in_play("7H", 0, *BOWERS), "AS", "5S", "7H", "4H")
    assert state.tricks[0].winner == 2  # 7H over 4H; AS is not a trump


# -- R5.5 the length of a hand -----------------------------------------------------------


def test_a_hand_has_ten_tricks_R5_5() -> None:
    state = in_play("7NT", 0, *sweep(0))
    count = 0
    while state.phase is fh.Phase.PLAY:
        count += 1
        state = fh.apply(state, fh.legal_plays(state)[0])
        if state.phase is fh.Phase.PLAY:
            assert len(state.tricks) == count // 4
    assert count == 40
    assert state.phase is fh.Phase.DEAL
    assert state.last_hand is not None
    assert state.last_hand.tricks == (10, 0)


def test_misere_hand_ends_when_the_contractor_wins_a_trick_R5_5() -> None:
    state = in_play("M", 0, *MISERE_JOKER)
    state = run(state, "4D", "AD", "4H")  # seat 1 wins trick 1
    state = run(state, "AH", "5H")
    assert state.phase is fh.Phase.PLAY
    state = run(state, "Jo")  # seat 0 has no heart: it must play the Joker, and wins
    assert state.phase is fh.Phase.DEAL
    assert state.to_act is None
    assert fh.legal_actions(state) == ()
    assert state.last_hand is not None
    assert state.last_hand.tricks == (1, 1)
    assert state.last_hand.made is False
    assert state.scores == (-250, 0)


def test_misere_hand_goes_on_while_the_contractor_loses_R5_5() -> None:
    state = play_out(in_play("M", 0, *sweep(1)))
    assert state.last_hand is not None
    assert state.last_hand.tricks == (0, 10)
    assert state.scores == (250, 0)


def test_no_play_after_the_hand_ends_R5_5() -> None:
    state = play_out(in_play("7NT", 0, *JOKER_VOID))
    assert state.phase is fh.Phase.DEAL
    assert fh.legal_plays(state) == ()
    with pytest.raises(fh.IllegalActionError) as info:
        fh.apply(state, play("5S"))
    assert info.value.reason is R.WRONG_PHASE


def test_winning_play_is_the_seat_that_takes_the_trick_so_far_R5_4() -> None:
    """In seeded random games: before each trick's last card, the seat shown winning takes the
    trick unless the last card beats it; a seat's view shows the same; none before a lead."""
    import random

    rng = random.Random(11)
    checked = beaten = 0
    for _ in range(6):
        state = fh.deal(fh.new_game(dealer=0), rng=rng)
        while state.phase is not fh.Phase.DEAL and state.phase is not fh.Phase.GAME_OVER:
            action = rng.choice(fh.legal_actions(state))
            if state.phase is fh.Phase.PLAY:
                shown = fh.winning_play(state)
                assert (shown is None) == (not state.trick)
                for seat in range(state.rules.players):
                    assert fh.winning_play(fh.observe(state, seat)) == shown
                last = len(state.trick) == state.rules.players - len(state.sitting_out) - 1
                after = fh.apply(state, action)
                if last and shown is not None and after.tricks:  # a trick, not the hand, ended
                    done = after.tricks[-1]
                    if done.winner != state.to_act:
                        assert shown[0] == done.winner
                        assert shown in done.plays
                        checked += 1
                    else:
                        beaten += 1
                state = after
            else:
                state = fh.apply(state, action)
    assert checked > 20 and beaten > 5  # both outcomes of the last card were seen


def test_winning_play_refuses_what_is_not_a_state() -> None:
    with pytest.raises(fh.FiveHundredTypeError):
        fh.winning_play(None)  # type: ignore[arg-type]
