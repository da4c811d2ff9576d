"""Every :class:`fivehundred.Reason` is reachable, and its sentence names the rule.

One case per member (the test is parametrized over the enum, so a new member
without a case here fails): a state built through the public API and an action
that ``check_action`` and ``apply`` refuse with exactly that reason, that
``is_legal`` calls illegal and that is not among the legal actions of the seat
trying it. The sentence names the seat's rule: a rule ID of RULES.md (``R4.1``,
``R9``), a variant (``V-SANS-KITTY``) or a table rule (``P5``).
``BAD_DECK`` is a refused deck order, so its case goes through ``deal``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import pytest

import fivehundred as fh
import variant_helpers
from fivehundred.ai.playout import playout
from fivehundred.engine import AnySeat
from fivehundred.errors import NOTATION_REASONS
from fivehundred.records import record_from_text
from helpers import JOKER_LEAD, JOKER_VOID, after_auction, dealt, in_play, run

R = fh.Reason
#: A rule ID as the sentences write it: R4.1, R9, V-JOKER-LEAD-LAST, P5.
RULE_ID: Final = re.compile(r"\b(R\d+(\.\d+)?|V-[A-Z0-9-]+|P\d)\b")


@dataclass(frozen=True)
class Case:
    """A refusal: ``action`` tried in ``state`` (by ``seat``, when given)."""

    state: fh.GameState
    action: object
    #: The rule ID the sentence must name.
    rule: str
    seat: int | AnySeat = fh.ANY_SEAT


def malformed_nomination() -> fh.Nominate:
    """A ``Nominate`` holding a string for its suit (as a bad unpickling could make it)."""
    bad = fh.Nominate(None)
    object.__setattr__(bad, "suit", "hearts")
    return bad


def nomination_without_the_joker() -> fh.GameState:
    """7NT by seat 0, who does not hold the Joker (seat 1 does): phase NOMINATE."""
    state = run(after_auction("7NT", 0, *JOKER_VOID), "discard 7H 6H 5H")
    assert state.phase is fh.Phase.NOMINATE
    return state


def game_over() -> fh.GameState:
    state = playout(fh.new_game(dealer=0), rng=random.Random(1), until="game")
    assert state.phase is fh.Phase.GAME_OVER
    return state


def partner_call() -> fh.GameState:
    """Five players (P5): seat 1 has won 7H and exchanged: phase PARTNER."""
    rules = fh.Rules(players=5)
    state = fh.deal(fh.new_game(rules, dealer=0), seed=1)
    state = variant_helpers.won(state, 1, "7H")
    state = fh.apply(state, fh.Discard(state.kitty))
    assert state.phase is fh.Phase.PARTNER
    return state


def joker_lead_last() -> fh.GameState:
    """V-JOKER-LEAD-LAST: seat 0 leads trick 1 of 10NT holding the Joker."""
    rules = fh.Rules(joker_lead_last=True)
    state = variant_helpers.dealt(rules, JOKER_LEAD.hands, JOKER_LEAD.kitty, dealer=3)
    return variant_helpers.to_play(variant_helpers.won(state, 0, "10NT"))


def bidding() -> fh.GameState:
    """The first hand's auction, seat 0 to call (dealer 3)."""
    return dealt(*JOKER_VOID)


CASES: Final[dict[fh.Reason, Callable[[], Case]]] = {
    R.NOT_AN_ACTION: lambda: Case(nomination_without_the_joker(), malformed_nomination(), "R7.1"),
    R.GAME_OVER: lambda: Case(game_over(), fh.PASS, "R9"),
    R.WRONG_PHASE: lambda: Case(bidding(), fh.Play(fh.parse_card("5S")), "R4.3"),
    R.NOT_YOUR_TURN: lambda: Case(bidding(), fh.PASS, "R3.1", seat=2),
    R.ALREADY_PASSED: lambda: Case(run(bidding(), "pass"), fh.parse_call("7H"), "R3.7", seat=0),
    R.BID_TOO_LOW: lambda: Case(run(bidding(), "7H"), fh.parse_call("7S"), "R3.3"),
    R.MISERE_NEEDS_SEVEN: lambda: Case(bidding(), fh.MISERE, "R3.4"),
    R.BLIND_MISERE_NOT_FIRST_CALL: lambda: Case(
        run(bidding(), "6S", "6C", "pass", "pass"), fh.BLIND_MISERE, "R3.6"
    ),
    R.CALL_NOT_ALLOWED: lambda: Case(
        bidding(), fh.Call.bid(7, fh.Strain.HEARTS, sans_kitty=True), "V-SANS-KITTY"
    ),
    R.WRONG_DISCARD_COUNT: lambda: Case(
        after_auction("7NT", 0, *JOKER_VOID), fh.Discard(fh.parse_cards("7H 6H")), "R4.1"
    ),
    R.CARD_NOT_IN_HAND: lambda: Case(
        after_auction("7NT", 0, *JOKER_VOID), fh.Discard(fh.parse_cards("7H 6H AS")), "R4.1"
    ),
    R.NOMINATION_NOT_ALLOWED: lambda: Case(
        nomination_without_the_joker(), fh.Nominate(fh.Suit.HEARTS), "R7.1"
    ),
    R.PARTNER_NOT_ALLOWED: lambda: Case(partner_call(), fh.CallPartner(fh.JOKER), "P5"),
    R.MUST_FOLLOW_SUIT: lambda: Case(
        run(in_play("7NT", 0, *JOKER_VOID), "4D"), fh.Play(fh.parse_card("AH")), "R5.3"
    ),
    R.MUST_PLAY_JOKER: lambda: Case(
        run(in_play("M", 0, *JOKER_VOID), "5S"), fh.Play(fh.parse_card("AH")), "R7.3"
    ),
    R.JOKER_SUIT_REQUIRED: lambda: Case(in_play("10NT", 0, *JOKER_LEAD), fh.Play(fh.JOKER), "R7.4"),
    R.JOKER_SUIT_NOT_ALLOWED: lambda: Case(
        in_play("10NT", 0, *JOKER_LEAD), fh.Play(fh.parse_card("AS"), fh.Suit.HEARTS), "R7.4"
    ),
    R.JOKER_SUIT_ALREADY_LED: lambda: Case(
        run(in_play("7NT", 0, *JOKER_VOID), "4D", "AD", "8D", "9D"),
        fh.Play(fh.JOKER, fh.Suit.DIAMONDS),
        "R7.4",
    ),
    R.JOKER_LEAD_TOO_EARLY: lambda: Case(
        joker_lead_last(), fh.Play(fh.JOKER, fh.Suit.SPADES), "V-JOKER-LEAD-LAST"
    ),
}


def assert_names_rule(message: str, rule: str) -> None:
    assert RULE_ID.search(message), f"no rule ID in: {message}"
    assert re.search(rf"(?<![\w.-]){re.escape(rule)}(?![\w-]|\.\d)", message), (
        f"{rule} is not named in: {message}"
    )


def refuse_deck() -> fh.IllegalActionError:
    """BAD_DECK: a deck order with a card twice and one missing (R1.1)."""
    deck = list(fh.Rules().deck)
    deck[0] = deck[1]
    with pytest.raises(fh.IllegalActionError) as refused:
        fh.deal(fh.new_game(dealer=3), cards=deck)
    return refused.value


#: The rules' codes: every code but those only the notation gives.
RULE_REASONS: Final = [reason for reason in fh.Reason if reason not in NOTATION_REASONS]


@pytest.mark.parametrize("reason", RULE_REASONS, ids=lambda reason: reason.name)
def test_every_reason_is_reachable_and_its_sentence_names_the_rule(reason: fh.Reason) -> None:
    if reason is R.BAD_DECK:
        err = refuse_deck()
        assert err.reason is R.BAD_DECK
        assert_names_rule(str(err), "R1.1")
        return
    assert reason in CASES, f"no case reaches {reason}: add one to CASES"
    case = CASES[reason]()
    state, action, seat = case.state, case.action, case.seat
    with pytest.raises(fh.IllegalActionError) as checked:
        fh.check_action(state, action, seat=seat)
    err = checked.value
    assert err.reason is reason, f"{err.reason} (expected {reason}): {err}"
    assert_names_rule(str(err), case.rule)
    with pytest.raises(fh.IllegalActionError) as applied:
        fh.apply(state, action, seat=seat)  # type: ignore[arg-type]  # malformed on purpose
    assert applied.value.reason is reason
    assert str(applied.value) == str(err)
    assert not fh.is_legal(state, action, seat=seat)
    if seat is fh.ANY_SEAT or seat == state.to_act:
        assert action not in fh.legal_actions(state)
    else:  # not this seat's turn: it has nothing legal to do
        assert fh.observe(state, seat).legal_actions == ()


def test_a_value_that_is_not_an_action_is_refused_by_name() -> None:
    """The other NOT_AN_ACTION: not an action value at all; the sentence lists the kinds."""
    with pytest.raises(fh.IllegalActionError) as checked:
        fh.check_action(bidding(), "7H")
    assert checked.value.reason is R.NOT_AN_ACTION
    assert "expected a Call, Discard, Nominate, CallPartner or Play" in str(checked.value)


def test_no_nomination_is_the_only_choice_without_the_joker_R7_1() -> None:
    """NOMINATION_NOT_ALLOWED names the seat; DECLINE stays legal for the same seat."""
    state = nomination_without_the_joker()
    for suit in fh.Suit:
        with pytest.raises(fh.IllegalActionError) as checked:
            fh.check_action(state, fh.Nominate(suit), seat=0)
        assert str(checked.value) == (
            "seat 0 does not hold the Joker and can only make no nomination (R7.1)"
        )
    assert fh.is_legal(state, fh.DECLINE, seat=0)
    assert fh.legal_actions(state) == (fh.DECLINE,)


# -- the notation's codes, and play(): one error type for text and rules alike ----------------


def play_phase() -> fh.GameState:
    """7NT by seat 0 (JOKER_VOID), seat 0 to lead trick 1: phase PLAY."""
    return in_play("7NT", 0, *JOKER_VOID)


#: For each code of NOTATION_REASONS and the two codes both classes give: a reader and
#: a text it refuses with that code.
TEXT_CASES: Final[dict[fh.Reason, Callable[[], object]]] = {
    R.NOT_TEXT: lambda: fh.parse_card(7),  # type: ignore[arg-type]  # not text on purpose
    R.TOO_LONG: lambda: fh.parse_cards("AS " * 400),
    R.AMBIGUOUS_TEXT: lambda: fh.parse_action("7H"),
    R.NOT_A_CARD: lambda: fh.parse_card("1Z"),
    R.NOT_A_SUIT: lambda: fh.parse_action("nominate X", phase=fh.Phase.NOMINATE),
    R.NOT_A_CALL: lambda: fh.parse_call("seven hearts"),
    R.NOT_A_SEAT: lambda: fh.parse_action("partner seat 123"),
    R.SUIT_ON_NON_JOKER: lambda: fh.parse_action("KS:H"),
    R.NOT_A_HAND: lambda: fh.notation.parse_hand_score("7H", fh.Rules()),
    R.NOT_A_RECORD: lambda: record_from_text(""),
    R.NOT_AN_ACTION: lambda: fh.parse_action("banana"),
    R.WRONG_PHASE: lambda: fh.parse_action("nominate H", phase=fh.Phase.DISCARD),
}


@pytest.mark.parametrize("reason", sorted(TEXT_CASES, key=str), ids=str)
def test_every_notation_code_is_reachable(reason: fh.Reason) -> None:
    assert set(NOTATION_REASONS) <= set(TEXT_CASES), "a notation code has no case"
    with pytest.raises(fh.NotationError) as refused:
        TEXT_CASES[reason]()
    assert refused.value.reason is reason, str(refused.value)
    assert isinstance(refused.value, fh.MoveError)


#: Moves play() refuses: (state, seat, text, the reason, the class, the rule to name).
PLAY_CASES: Final[list[tuple[Callable[[], fh.GameState], object, object, fh.Reason, str]]] = [
    (bidding, 0, None, R.NOT_TEXT, "R3.2"),
    (bidding, 0, "7H " * 400, R.TOO_LONG, "R3.2"),
    (bidding, 0, "seven hearts", R.NOT_A_CALL, "R3.3"),
    (bidding, 0, "AS", R.WRONG_PHASE, "R4.3"),
    (bidding, 0, "discard 4D 5D 6D", R.WRONG_PHASE, "R4.3"),
    (bidding, 2, "pass", R.NOT_YOUR_TURN, "R3.1"),
    (bidding, None, "pass", R.NOT_YOUR_TURN, "R3.1"),
    (bidding, fh.ANY_SEAT, "pass", R.NOT_YOUR_TURN, "R3.1"),
    (bidding, 4, "pass", R.NOT_YOUR_TURN, "R3.1"),
    (bidding, True, "pass", R.NOT_YOUR_TURN, "R3.1"),
    (bidding, 0, "M", R.MISERE_NEEDS_SEVEN, "R3.4"),
    (lambda: after_auction("7NT", 0, *JOKER_VOID), 0, "8S 4D 9D", R.NOT_AN_ACTION, "R4.1"),
    (lambda: after_auction("7NT", 0, *JOKER_VOID), 0, "nominate H", R.WRONG_PHASE, "R4.1"),
    (lambda: after_auction("7NT", 0, *JOKER_VOID), 0, "discard 7H", R.WRONG_DISCARD_COUNT, "R4.1"),
    (nomination_without_the_joker, 0, "nominate X", R.NOT_A_SUIT, "R7.1"),
    (nomination_without_the_joker, 0, "nominate H", R.NOMINATION_NOT_ALLOWED, "R7.1"),
    (nomination_without_the_joker, 0, "KS", R.WRONG_PHASE, "R7.1"),
    (partner_call, 1, "partner seat 123", R.NOT_A_SEAT, "P5"),
    (partner_call, 1, "partner Jo", R.PARTNER_NOT_ALLOWED, "P5"),
    (play_phase, 0, "ZZ", R.NOT_A_CARD, "R5.1"),
    (play_phase, 0, "KS:H", R.SUIT_ON_NON_JOKER, "R7.4"),
    (play_phase, 0, "KS QS", R.NOT_AN_ACTION, "R5.1"),
    (play_phase, 0, "7NT", R.WRONG_PHASE, "R4.3"),
    (play_phase, 0, "Jo", R.CARD_NOT_IN_HAND, "R5.1"),
    (game_over, 0, "pass", R.GAME_OVER, "R9"),
    (lambda: fh.new_game(dealer=0), 0, "pass", R.WRONG_PHASE, "R2.1"),
]


@pytest.mark.parametrize(
    ("make", "seat", "text", "reason", "rule"),
    PLAY_CASES,
    ids=[f"{case[3].name}-{str(case[2])[:12]}" for case in PLAY_CASES],
)
def test_play_refuses_with_one_error_type_a_code_and_the_rule(
    make: Callable[[], fh.GameState], seat: object, text: object, reason: fh.Reason, rule: str
) -> None:
    """Every refusal of play() is a MoveError with its code, naming the rule (and the seat)."""
    state = make()
    with pytest.raises(fh.MoveError) as refused:
        fh.play(state, seat, text)  # type: ignore[arg-type]  # untrusted input on purpose
    err = refused.value
    assert err.reason is reason, f"{err.reason} (expected {reason}): {err}"
    if reason in NOTATION_REASONS:
        assert isinstance(err, fh.NotationError), type(err)
    elif reason not in (R.NOT_AN_ACTION, R.WRONG_PHASE):  # text or an action: either class
        assert isinstance(err, fh.IllegalActionError), type(err)
    assert_names_rule(str(err), rule)


def test_play_applies_a_legal_move_as_apply_does() -> None:
    state = bidding()
    assert fh.play(state, 0, "7H") == fh.apply(state, fh.parse_call("7H"), seat=0)
    state = play_phase()
    card = fh.legal_plays(state)[0]
    assert fh.play(state, 0, str(card.card)) == fh.apply(state, card)


def test_a_null_seat_never_skips_the_turn_check() -> None:
    """seat=None is no seat, for apply, check_action and is_legal; leaving it out is any seat."""
    state = bidding()
    assert fh.is_legal(state, fh.PASS) and fh.is_legal(state, fh.PASS, seat=fh.ANY_SEAT)
    assert not fh.is_legal(state, fh.PASS, seat=None)  # type: ignore[arg-type]  # a client null
    for route in (fh.apply, fh.check_action):
        with pytest.raises(fh.IllegalActionError) as refused:
            route(state, fh.PASS, seat=None)  # type: ignore[arg-type]  # a client null
        assert refused.value.reason is R.NOT_YOUR_TURN
        assert str(refused.value) == (
            "seat None is not a seat at this table: seats are 0 to 3, and it is seat 0's turn "
            "(R3.1: the auction goes clockwise, skipping players who passed)"
        )


@pytest.mark.parametrize(
    ("phase", "text", "refused", "offered"),
    [
        (fh.Phase.DISCARD, "nominate H", "nominate H", "'discard 4D 5D 6D'"),
        (fh.Phase.DISCARD, "8S 4D 9D", None, "'discard 8S 4D 9D'"),
        (fh.Phase.NOMINATE, "discard 4D 5D 6D", "'discard", "'nominate H'"),
        (fh.Phase.BIDDING, "nominate H", "nominate", "7H"),
        (fh.Phase.PLAY, "pass", "pass", "KS"),
        (fh.Phase.PARTNER, "decline", "decline", "'partner AH'"),
    ],
)
def test_notation_messages_name_the_move_the_phase_takes(
    phase: fh.Phase, text: str, refused: str | None, offered: str
) -> None:
    """The message names the phase's move in its notation, and never offers the move refused."""
    with pytest.raises(fh.NotationError) as caught:
        fh.parse_action(text, phase=phase)
    message = str(caught.value)
    assert offered in message
    if refused is not None:
        assert message.count(refused) == 1, message  # only in the quotation of the text
    assert RULE_ID.search(message), message
