"""Game records: replay, the text form, action notation (R2.3)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings

import fivehundred as fh
from fivehundred.records import record_from_text, record_to_text
from rules_strategy import GAME_STATES, play
from strategies import examples


def game_under(rules: fh.Rules, steps: int, seed: int = 11) -> fh.GameState:
    state = fh.new_game(rules, dealer=0)
    for count, state in enumerate(play(rules, seed)):  # noqa: B007
        if count >= steps:
            break
    return state


@settings(max_examples=examples(60), deadline=None)
@given(state=GAME_STATES)
def test_replaying_a_record_gives_the_same_state_R2_3(state: fh.GameState) -> None:
    assert fh.replay(fh.record(state)) == state


@settings(max_examples=examples(60), deadline=None)
@given(state=GAME_STATES)
def test_the_text_form_round_trips(state: fh.GameState) -> None:
    game = fh.record(state)
    text = record_to_text(game)
    assert record_from_text(text) == game
    assert len(text.splitlines()) == 1 + len(game.hands)
    assert record_to_text(record_from_text(text)) == text


@settings(max_examples=examples(40), deadline=None)
@given(state=GAME_STATES)
def test_action_notation_round_trips_in_its_phase(state: fh.GameState) -> None:
    for action in fh.legal_actions(state)[:300]:
        text = fh.format_action(action)
        assert fh.parse_action(text, phase=state.phase) == action
        if state.phase is not fh.Phase.BIDDING and state.phase is not fh.Phase.PLAY:
            assert fh.parse_action(text) == action


def test_the_text_form_of_a_five_player_game() -> None:
    rules = fh.Rules(players=5, partner_by_seat=True, trick_points=5)
    state = game_under(rules, 200)
    text = record_to_text(fh.record(state))
    header = text.splitlines()[0]
    assert header == "fivehundred record 1 dealer=0 players=5 partner_by_seat=true trick_points=5"
    assert "| auction " in text and "| tricks " in text and "partner seat" in text


def test_a_pasted_record_is_read_tolerantly() -> None:
    state = fh.apply(fh.deal(fh.new_game(dealer=3), seed=7), fh.parse_call("6S"))
    text = record_to_text(fh.record(state)).lower()
    text = "# pasted from a bug report\n\n" + text.replace("6s", "6♠")
    assert record_from_text(text) == fh.record(state)


def test_the_header_names_the_first_dealer_even_before_a_deal() -> None:
    game = fh.record(fh.new_game(fh.Rules(players=3), dealer=None))
    text = record_to_text(game)
    assert text == "fivehundred record 1 dealer=none players=3\n"
    assert record_from_text(text) == game


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "an empty record"),
        ("fivehundred record 2 dealer=0", "reads version 1 of the record format"),
        ("fivehundred record 1 dealer=0 Players:5", "is not an option=value pair"),
        ("hello", "the header starts with"),
        ("fivehundred record 1", "names the first dealer"),
        ("fivehundred record 1 dealer=0 dealer=1", "dealer=SEAT once"),
        ("fivehundred record 1 dealer=0 target=5 target=6", "target is given twice"),
        ("fivehundred record 1 dealer=0\nhand 2 dealer=0 | deck 5S", "this is hand 1"),
        ("fivehundred record 1 dealer=0\nhand 1 dealer=0 | auction 6S", "the deck comes first"),
        ("fivehundred record 1 dealer=0\nhand 1 dealer=0 | deck ZZ", "'ZZ' is not a card"),
        ("fivehundred record 1 dealer=0\nhand 1 dealer=0 | deck 5S | bids 6S", "not a section"),
        ("fivehundred record 1 dealer=0\nhand 1 dealer=0", "needs its deck"),
        ("fivehundred record 1 dealer=0\nhand one", "starts with 'hand N dealer=SEAT'"),
    ],
)
def test_unreadable_records_raise_a_notation_error(text: str, message: str) -> None:
    with pytest.raises(fh.NotationError, match=message):
        record_from_text(text)


def test_bad_options_in_the_header_raise_an_invalid_state_error() -> None:
    with pytest.raises(fh.InvalidStateError, match="unknown option 'colour'"):
        record_from_text("fivehundred record 1 dealer=0 colour=1")
    with pytest.raises(fh.InvalidStateError, match="partner_by_seat is a five-player option"):
        record_from_text("fivehundred record 1 dealer=0 partner_by_seat=true")


def test_a_record_that_does_not_replay_names_the_action() -> None:
    state = fh.deal(fh.new_game(dealer=3), seed=7)
    game = fh.record(state)
    hand = fh.HandRecord(3, game.hands[0].deck, (fh.parse_call("7H"), fh.parse_call("6S")))
    with pytest.raises(fh.InvalidStateError, match=r"hand 1, action 2 \(6S\) is illegal"):
        fh.replay(fh.GameRecord(fh.Rules(), 3, (hand,)))


@pytest.mark.parametrize(
    ("game", "problem"),
    [
        (fh.GameRecord("rules", 0), "rules must be a fivehundred.Rules"),  # type: ignore[arg-type]
        (fh.GameRecord(fh.Rules(), "0"), "the first dealer must be a seat"),  # type: ignore[arg-type]
        (fh.GameRecord(fh.Rules(), 0, 5), "hands must be a tuple"),  # type: ignore[arg-type]
        (fh.GameRecord(fh.Rules(), 0, (1,)), "hand 1 must be a HandRecord"),  # type: ignore[arg-type]
        (
            fh.GameRecord(fh.Rules(), 0, (fh.HandRecord(0, (), ("7H",)),)),  # type: ignore[arg-type]
            "'7H' is not an action",
        ),
        (
            fh.GameRecord(fh.Rules(), 0, (fh.HandRecord(0, 7, ()),)),  # type: ignore[arg-type]
            "the deck must be a sequence of Cards",
        ),
        (
            fh.GameRecord(fh.Rules(), 0, (fh.HandRecord(0, (), 7),)),  # type: ignore[arg-type]
            "the actions must be a sequence",
        ),
        (fh.GameRecord(fh.Rules(), 0, (fh.HandRecord(0, ()),)), "cannot be dealt"),
        (fh.GameRecord(fh.Rules(), 9), "the game cannot start"),
    ],
)
def test_replay_refuses_a_malformed_record(game: Any, problem: str) -> None:
    with pytest.raises(fh.InvalidStateError, match=problem):
        fh.replay(game)
    if "cannot" not in problem:
        with pytest.raises(fh.InvalidStateError, match=problem):
            record_to_text(game)


def test_a_dealer_who_is_not_a_seat_is_named_where_it_is_R2_1() -> None:
    """A range, not a legality: the reading of every form refuses it, at its own field
    (not under a ``scores`` the document does not have), before any replay."""
    state = fh.apply(fh.deal(fh.new_game(dealer=3), seed=7), fh.parse_call("6S"))
    doc = fh.to_dict(fh.record(state))
    with pytest.raises(fh.InvalidStateError) as caught:
        fh.from_dict({**doc, "dealer": 7}, cls=fh.GameRecord)
    assert caught.value.problems == ("dealer: 7 is not a seat (0 to 3)",)
    hands = [{**doc["hands"][0], "dealer": 9}]
    with pytest.raises(fh.InvalidStateError) as caught:
        fh.from_dict({**doc, "hands": hands}, cls=fh.GameRecord)
    assert caught.value.problems == ("hand 1: dealer 9 is not a seat (0 to 3)",)
    saved = fh.to_dict(state)
    saved["record"] = {**saved["record"], "dealer": 7}
    with pytest.raises(fh.InvalidStateError) as caught:
        fh.from_dict(saved)
    assert "record.dealer: 7 is not a seat (0 to 3)" in caught.value.problems
    text = record_to_text(fh.record(state))
    for wrong, said in (
        (text.replace("record 1 dealer=3", "record 1 dealer=7"), "dealer: 7 is not a seat"),
        (text.replace("hand 1 dealer=3", "hand 1 dealer=9"), "hand 1: dealer 9 is not a seat"),
    ):
        with pytest.raises(fh.NotationError, match=said) as refused:
            record_from_text(wrong)
        assert refused.value.reason is fh.Reason.NOT_A_RECORD


def test_a_game_that_cannot_start_says_why_once() -> None:
    """The rules' own sentence, without a second "invalid state:" inside the first."""
    with pytest.raises(fh.InvalidStateError) as caught:
        fh.replay(fh.GameRecord(fh.Rules(), 9))
    (problem,) = caught.value.problems
    assert problem.startswith("the game cannot start: dealer 9 is not a seat")
    assert "invalid state" not in problem


def test_replay_refuses_hands_out_of_turn() -> None:
    state = fh.deal(fh.new_game(dealer=3), seed=7)
    hand = fh.record(state).hands[0]
    with pytest.raises(fh.InvalidStateError, match="names dealer 2, but seat 3 deals it"):
        fh.replay(fh.GameRecord(fh.Rules(), 3, (fh.HandRecord(2, hand.deck),)))
    with pytest.raises(fh.InvalidStateError, match="hand 1 stops before it is over"):
        fh.replay(fh.GameRecord(fh.Rules(), 3, (hand, hand)))
    with pytest.raises(TypeError, match="a GameRecord is needed"):
        fh.replay("record")  # type: ignore[arg-type]


def test_parse_action_reads_every_form() -> None:
    assert fh.parse_action("discard 4d 5d 6d") == fh.Discard(fh.parse_cards("4D 5D 6D"))
    assert fh.parse_action("nominate ♥") == fh.Nominate(fh.Suit.HEARTS)
    assert fh.parse_action("decline") == fh.DECLINE
    assert fh.parse_action("partner AH") == fh.CallPartner(fh.parse_card("AH"))
    assert fh.parse_action("partner seat 2") == fh.CallPartner(seat=2)
    assert fh.parse_action("Jo:H") == fh.Play(fh.JOKER, fh.Suit.HEARTS)
    assert fh.parse_action("KS") == fh.Play(fh.parse_card("KS"))
    assert fh.parse_action("7NT") == fh.parse_call("7NT")
    assert fh.parse_action("pass") == fh.PASS


@pytest.mark.parametrize(
    ("text", "phase", "message", "reason"),
    [
        ("7H", None, "a bid or a card play", "AMBIGUOUS_TEXT"),
        ("", None, "is not an action", "NOT_AN_ACTION"),
        ("banana", None, "is not an action", "NOT_AN_ACTION"),
        ("KS:H", None, "only a Joker lead names a suit", "SUIT_ON_NON_JOKER"),
        ("Jo:X", fh.Phase.PLAY, "is not a suit", "NOT_A_SUIT"),
        ("KS QS", fh.Phase.PLAY, "is not a card play", "NOT_AN_ACTION"),
        ("nominate", fh.Phase.NOMINATE, "such as 'nominate H', or 'decline'", "NOT_AN_ACTION"),
        ("decline H", fh.Phase.NOMINATE, "such as 'nominate H', or 'decline'", "NOT_AN_ACTION"),
        ("partner", fh.Phase.PARTNER, "write 'partner AH'", "NOT_AN_ACTION"),
        ("partner seat 999", fh.Phase.PARTNER, "is not a seat", "NOT_A_SEAT"),
        ("discard 4D", fh.Phase.PLAY, "is a discard, which is not taken now", "WRONG_PHASE"),
        ("7H", fh.Phase.DISCARD, "write 'discard 7H'", "NOT_AN_ACTION"),
    ],
)
def test_parse_action_refuses_bad_text(
    text: str, phase: fh.Phase | None, message: str, reason: str
) -> None:
    with pytest.raises(fh.NotationError, match=message) as refused:
        fh.parse_action(text, phase=phase)
    assert refused.value.reason is fh.Reason(reason)


def test_parse_and_format_refuse_non_text_and_non_actions() -> None:
    with pytest.raises(fh.NotationError):
        fh.parse_action(7)  # type: ignore[arg-type]
    with pytest.raises(fh.NotationError):
        fh.parse_action("7H", phase="play")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        fh.format_action("7H")  # type: ignore[arg-type]
    with pytest.raises(fh.NotationError):
        record_from_text(b"fivehundred")  # type: ignore[arg-type]


def test_replay_names_hands_that_cannot_follow() -> None:
    rules = fh.Rules()
    state = fh.deal(fh.new_game(rules, dealer=3), seed=7)
    deck = fh.record(state).hands[0].deck
    passes = (fh.PASS,) * 4
    thrown_in = fh.HandRecord(3, deck, passes)
    extra = fh.HandRecord(3, deck, (*passes, fh.PASS))
    with pytest.raises(fh.InvalidStateError, match="action 5 \\(pass\\) comes after the hand"):
        fh.replay(fh.GameRecord(rules, 3, (extra,)))
    with pytest.raises(fh.InvalidStateError, match="hand 1: the dealer must be a seat number"):
        fh.replay(fh.GameRecord(rules, 3, (fh.HandRecord("3", deck),)))  # type: ignore[arg-type]
    over = next(s for s in play(rules, 5) if s.is_over)
    game = fh.record(over)
    after = fh.GameRecord(rules, game.dealer, (*game.hands, fh.HandRecord(0, deck)))
    with pytest.raises(fh.InvalidStateError, match="is dealt after the game is over"):
        fh.replay(after)
    assert fh.replay(fh.GameRecord(rules, 3, (thrown_in,))).phase is fh.Phase.DEAL


def test_a_first_dealer_left_to_chance_is_taken_from_the_first_hand_R2_1() -> None:
    state = fh.deal(fh.new_game(), seed=4)
    game = fh.record(state)
    assert game.dealer == state.dealer
    hand = game.hands[0]
    assert fh.replay(fh.GameRecord(fh.Rules(), None, (hand,))) == state
    text = record_to_text(fh.GameRecord(fh.Rules(), None, (hand,)))
    assert text.startswith(f"fivehundred record 1 dealer={hand.dealer}\n")  # one text per game
    assert record_from_text(text) == game
    with pytest.raises(fh.NotationError, match=f"write dealer={hand.dealer}"):
        record_from_text(text.replace(f"dealer={hand.dealer}\n", "dealer=none\n", 1))
    doc = fh.to_dict(fh.GameRecord(fh.Rules(), None, (hand,)))
    assert doc["dealer"] == hand.dealer
    with pytest.raises(fh.InvalidStateError, match=r"record\.dealer: null"):
        fh.from_dict({**fh.to_dict(state), "record": {"dealer": None, "hands": doc["hands"]}})
    with pytest.raises(fh.InvalidStateError, match="dealer: null"):
        fh.from_dict({**doc, "dealer": None}, cls=fh.GameRecord)


def test_the_text_form_of_records_that_do_not_replay() -> None:
    state = fh.deal(fh.new_game(dealer=3), seed=7)
    deck = fh.record(state).hands[0].deck
    odd = fh.GameRecord(fh.Rules(), 3, (fh.HandRecord(3, deck, (fh.Play(deck[0]), fh.PASS)),))
    text = record_to_text(odd)
    assert "| tricks " in text and "| auction pass" in text
    assert record_from_text(text) == odd
    with pytest.raises(TypeError):
        record_to_text("record")  # type: ignore[arg-type]
    dealt = record_to_text(fh.record(state))
    assert dealt.splitlines()[1].count("|") == 1  # the deck alone, no comment
    with pytest.raises(fh.NotationError, match="the deck comes once, first"):
        record_from_text(dealt.rstrip("\n") + " | deck 5S\n")
