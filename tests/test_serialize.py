"""JSON format version 1: round trips under random rules, and loading that checks everything.

The states come from ``rules_strategy``: random ``Rules`` (every option, every
player count) and a seeded game under them, so every state is reachable.
"""

from __future__ import annotations

import copy
import json
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fivehundred as fh
from fivehundred.records import rules_from_options, rules_options
from fivehundred.serialize import MAX_JSON_SIZE, MAX_LIST
from rules_strategy import GAME_STATES, play, random_rules
from strategies import examples


def default_game(steps: int, seed: int = 7) -> fh.GameState:
    state = fh.new_game(dealer=3)
    for count, state in enumerate(play(fh.Rules(), seed, dealer=3)):  # noqa: B007
        if count >= steps:
            break
    return state


def problems_of(data: object) -> tuple[str, ...]:
    with pytest.raises(fh.InvalidStateError) as caught:
        fh.from_dict(data)
    return caught.value.problems


# -- round trips -----------------------------------------------------------------------------


@settings(max_examples=examples(60), deadline=None)
@given(state=GAME_STATES)
def test_a_saved_state_loads_back_equal(state: fh.GameState) -> None:
    text = fh.to_json(state)
    loaded = fh.from_json(text)
    assert loaded == state
    assert fh.to_json(loaded) == text
    assert fh.from_json(fh.to_json(state, indent=2)) == state
    assert fh.from_dict(json.loads(text)) == state
    assert fh.from_json(text.encode()) == state


@settings(max_examples=examples(100), deadline=None)
@given(rules=random_rules())
def test_rules_round_trip(rules: fh.Rules) -> None:
    assert fh.from_json(fh.to_json(rules), cls=fh.Rules) == rules
    assert rules_from_options(rules_options(rules)) == rules
    assert fh.to_dict(rules) == fh.to_dict(rules)


def test_default_rules_are_an_empty_object() -> None:
    assert fh.to_dict(fh.Rules())["rules"] == {}
    assert fh.to_dict(fh.Rules(players=6, team_size=2))["rules"] == {"players": 6}
    assert fh.to_dict(fh.Rules(players=6, team_size=3))["rules"] == {
        "players": 6,
        "team_size": 3,
    }


@settings(max_examples=examples(40), deadline=None)
@given(state=GAME_STATES)
def test_views_round_trip(state: fh.GameState) -> None:
    for seat in range(state.rules.players):
        view = fh.observe(state, seat)
        assert fh.from_json(fh.to_json(view), cls=fh.PlayerView) == view
        assert fh.to_dict(view) == fh.to_dict(view)


@settings(max_examples=examples(40), deadline=None)
@given(state=GAME_STATES)
def test_legal_actions_round_trip(state: fh.GameState) -> None:
    for action in fh.legal_actions(state)[:400]:
        assert fh.from_json(fh.to_json(action), cls=fh.Action) == action
        assert fh.to_dict(action) == fh.to_dict(action)


@settings(max_examples=examples(40), deadline=None)
@given(state=GAME_STATES)
def test_records_round_trip_in_json(state: fh.GameState) -> None:
    game = fh.record(state)
    assert fh.from_json(fh.to_json(game), cls=fh.GameRecord) == game
    assert fh.to_dict(game) == fh.to_dict(game)


def test_every_action_kind_has_a_json_form() -> None:
    actions: list[fh.Action] = [
        fh.PASS,
        fh.parse_call("7NT-SK"),
        fh.Discard(fh.parse_cards("4D 5D 6D")),
        fh.Nominate(fh.Suit.CLUBS),
        fh.DECLINE,
        fh.CallPartner(fh.parse_card("AH")),
        fh.CallPartner(seat=2),
        fh.Play(fh.parse_card("KS")),
        fh.Play(fh.JOKER, fh.Suit.HEARTS),
    ]
    for action in actions:
        assert fh.from_dict(fh.to_dict(action), cls=fh.Action) == action


# -- loading refuses what is wrong, naming every problem ------------------------------------


def test_a_changed_snapshot_lists_every_difference() -> None:
    state = default_game(30)
    doc = fh.to_dict(state)
    snap = doc["snapshot"]
    snap["to_act"] = (snap["to_act"] + 1) % 4
    snap["scores"] = [10, 0]
    snap["surprise"] = 1
    problems = problems_of(doc)
    assert any(p.startswith("snapshot.to_act is") for p in problems), problems
    assert any(p.startswith("snapshot.scores is [10, 0]") for p in problems), problems
    assert "snapshot: unknown key surprise" in problems


def test_card_problems_are_found_in_the_snapshot_itself_R1_1() -> None:
    doc = fh.to_dict(default_game(5))
    hands = doc["snapshot"]["hands"]
    hands[0][0] = hands[1][0]  # a duplicated card, and so a missing one
    hands[2].pop()  # a short hand
    problems = problems_of(doc)
    assert any("is in more than one place (hands[0], hands[1])" in p for p in problems)
    assert any(p.startswith("snapshot: cards missing:") for p in problems)
    assert any(p.startswith("snapshot.hands[2]: holds 9 cards") for p in problems)


def test_schema_problems_are_all_listed_with_their_paths() -> None:
    doc = fh.to_dict(default_game(12))
    doc["snapshot"]["hand_number"] = "1"
    doc["snapshot"]["kitty"] = ["10h", "XX", 4]
    doc["snapshot"]["phase"] = "dancing"
    doc["snapshot"]["dealer"] = 2**60
    doc["rules"] = {"players": True, "colour": "red"}
    del doc["snapshot"]["led_suit"]
    problems = problems_of(doc)
    expected = [
        'snapshot.hand_number: expected a whole number, found "1"',
        'snapshot.kitty[0]: write the card "10h" as "10H"',
        'snapshot.kitty[1]: "XX" is not a card (write 10H, JD, AS or Jo)',
        "snapshot.kitty[2]: expected a string, found 4",
        "snapshot.dealer: 1152921504606846976 is too large: whole numbers lie within ±(2**53 - 1)",
        "rules: unknown option 'colour'",
        "rules: players must be a whole number, not True",
        "snapshot.led_suit: missing",
    ]
    for problem in expected:
        assert problem in problems, (problem, problems)
    assert any(p.startswith("snapshot.phase:") for p in problems)


def test_an_illegal_action_in_the_record_is_named() -> None:
    doc = fh.to_dict(default_game(12))
    actions = doc["record"]["hands"][0]["actions"]
    actions[0] = "10NT" if actions[0] != "10NT" else "6S"
    actions[1] = "6S"
    problems = problems_of(doc)
    assert any(p.startswith("record.hands: hand 1, action 2 (6S) is illegal") for p in problems)


def test_actions_are_written_in_canonical_notation() -> None:
    doc = fh.to_dict(default_game(3))
    actions = doc["record"]["hands"][0]["actions"]
    assert actions[0] in ("pass", *(str(c) for c in fh.Rules().ladder.calls))
    actions[0] = actions[0].lower() if actions[0] != "pass" else "P"
    problems = problems_of(doc)
    assert any("record.hands: hand 1, action 1: write" in p for p in problems), problems


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[]", "a JSON object is needed, not a list"),
        ('{"type": "game_state"}', "format_version: missing"),
        ('{"format_version": 2, "type": "game_state"}', "format_version 2 is not supported"),
        ('{"format_version": 1.0, "type": "game_state"}', "format_version 1.0 is not supported"),
        ('{"format_version": 1, "type": "rules", "rules": {}}', "type: this is a rules document"),
        ("{", "not valid JSON"),
        ('{"a": NaN}', "not valid JSON: NaN is not a JSON number"),
        ('{"a": 1, "a": 2}', 'not valid JSON: the key "a" appears twice'),
        ("[" * 100 + "]" * 100, "nested more than 32 deep"),
        (b"\xff", "not UTF-8"),
    ],
)
def test_unreadable_documents_are_refused(text: str | bytes, problem: str) -> None:
    with pytest.raises(fh.InvalidStateError) as caught:
        fh.from_json(text)
    assert any(problem in p for p in caught.value.problems), caught.value.problems


def test_huge_numbers_and_huge_texts_are_refused() -> None:
    text = fh.to_json(default_game(3)).replace('"hand_number": 1', '"hand_number": ' + "9" * 5000)
    with pytest.raises(fh.InvalidStateError, match="a number with too many digits"):
        fh.from_json(text)
    with pytest.raises(fh.InvalidStateError, match="too long"):
        fh.from_json(" " * (MAX_JSON_SIZE + 1))


def test_one_family_loads_every_saveable_type_by_its_class() -> None:
    state = default_game(20)
    values: list[Any] = [
        state,
        fh.record(state),
        fh.observe(state, 2),
        fh.Rules(players=5),
        fh.parse_call("7NT"),
        fh.Play(fh.JOKER, fh.Suit.HEARTS),
    ]
    for value in values:
        cls = type(value)
        assert fh.from_json(fh.to_json(value), cls=cls) == value
        assert fh.from_dict(fh.to_dict(value), cls=cls) == value
    assert fh.from_json(fh.to_json(fh.DECLINE), cls=fh.Action) == fh.DECLINE
    assert fh.from_json(fh.to_json(state)) == state  # GameState is the default


def test_loading_refuses_a_class_it_cannot_load_and_the_wrong_action_class() -> None:
    bad: tuple[Any, ...] = (int, fh.Card, "GameState", None)
    for cls in bad:
        with pytest.raises(fh.FiveHundredTypeError, match="cls is the class to load"):
            fh.from_dict({}, cls=cls)
        with pytest.raises(fh.FiveHundredTypeError, match="cls is the class to load"):
            fh.from_json("{}", cls=cls)
    with pytest.raises(fh.InvalidStateError, match="a Play is asked for"):
        fh.from_json(fh.to_json(fh.PASS), cls=fh.Play)
    with pytest.raises(fh.FiveHundredTypeError, match="to_dict saves a GameState"):
        fh.to_dict(42)  # type: ignore[arg-type]


def test_loading_other_documents_needs_their_type() -> None:
    state = default_game(20)
    view = fh.observe(state, 1)
    with pytest.raises(fh.InvalidStateError, match="read it with cls=PlayerView"):
        fh.from_json(fh.to_json(view))
    with pytest.raises(fh.InvalidStateError, match="read it with cls=GameState"):
        fh.from_json(fh.to_json(state), cls=fh.Rules)
    bad: dict[str, Any] = copy.deepcopy(fh.to_dict(fh.PASS))
    bad["action"] = {"kind": "partner", "card": None, "seat": None}
    with pytest.raises(fh.InvalidStateError, match="names a card or a seat"):
        fh.from_dict(bad, cls=fh.Action)


def test_saving_something_else_is_refused() -> None:
    with pytest.raises(TypeError):
        fh.to_dict(object())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        fh.to_json(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        fh.to_dict("rules")  # type: ignore[arg-type]


@given(st.sampled_from(("players", "target", "score_cap", "trick_points")))
def test_rule_options_refuse_out_of_range_numbers(name: str) -> None:
    with pytest.raises(fh.InvalidStateError, match="out of range"):
        rules_from_options({name: 10**12})


def test_the_snapshot_is_checked_on_its_own() -> None:
    doc = fh.to_dict(default_game(0))  # before the first deal
    snap = doc["snapshot"]
    snap["hands"][0] = ["AS"]
    snap["to_act"] = 99
    snap["contractor"] = -1
    snap["result"] = {"winners": [0], "deciding_side": 0, "outcome": "contract_made"}
    problems = problems_of(doc)
    for expected in (
        "snapshot.to_act: 99 is not a seat (0 to 3)",
        "snapshot.contractor: -1 is not a seat (0 to 3)",
        "snapshot.to_act: in the deal phase it is null",
        "snapshot.result: a result is given exactly when the game is over",
        "snapshot: cards are placed before the first deal",
    ):
        assert expected in problems, (expected, problems)
    snap["sitting_out"] = [2, 1]  # a malformed field: the others are still compared
    problems = problems_of(doc)
    assert "snapshot.sitting_out: write the items in order" in problems
    assert "snapshot.to_act is 99, but the record replays to null" in problems
    assert "snapshot: cards are placed before the first deal" not in problems


def test_sizes_and_seats_in_a_dealt_snapshot_R2_2() -> None:
    doc = fh.to_dict(default_game(2))
    snap = doc["snapshot"]
    snap["dead_hand"] = [snap["kitty"].pop()]
    snap["auction"][0][0] = 7
    snap["scores"] = [0, 0, 0]
    problems = problems_of(doc)
    for expected in (
        "snapshot.kitty: 3 cards or none, not 2",
        "snapshot.dead_hand: 0 cards, not 1 (P2)",
        "snapshot.auction[0]: 7 is not a seat (0 to 3)",
        "snapshot.scores: 2 entries are needed, not 3",
    ):
        assert expected in problems, (expected, problems)
    snap["suits_led"] = ["H", "H"]
    assert "snapshot.suits_led: the list repeats an item" in problems_of(doc)


def test_wrong_types_are_named() -> None:
    doc = fh.to_dict(default_game(2))
    doc["snapshot"]["exposed"] = 0
    doc["snapshot"]["auction"][0][1] = "6s"
    doc["snapshot"]["trick"] = "none"
    doc["snapshot"]["last_hand"] = []
    doc["record"]["hands"][0]["actions"][0] = "x" * 2000
    doc["rules"] = []
    problems = problems_of(doc)
    for expected in (
        "snapshot.exposed: expected true or false, found 0",
        'snapshot.auction[0][1]: write the call "6s" as "6S"',
        'snapshot.trick: expected a list, found "none"',
        "snapshot.last_hand: expected an object, found a list",
        "rules: expected an object, found a list",
    ):
        assert expected in problems, (expected, problems)
    doc["rules"] = {}
    problems = problems_of(doc)
    assert "record.hands[0].actions[0]: the string is too long (over 1000 characters)" in problems
    with pytest.raises(fh.InvalidStateError, match="is needed, not int"):
        fh.from_json(42)  # type: ignore[call-overload]
    with pytest.raises(fh.InvalidStateError, match="rules: expected an object, found object"):
        fh.from_dict({"format_version": 1, "type": "game_state", "rules": object()})


def test_views_with_bad_actions_are_refused() -> None:
    state = default_game(2)
    doc = fh.to_dict(fh.observe(state, state.to_act or 0))
    doc["view"]["legal_actions"][:2] = ["P", "banana"]
    with pytest.raises(fh.InvalidStateError) as caught:
        fh.from_dict(doc, cls=fh.PlayerView)
    assert any("write 'P' as 'pass'" in p for p in caught.value.problems)
    assert any("'banana' is not a call" in p for p in caught.value.problems)
    with pytest.raises(fh.InvalidStateError, match="view: expected an object"):
        fh.from_dict({"format_version": 1, "type": "player_view", "view": []}, cls=fh.PlayerView)
    with pytest.raises(fh.InvalidStateError, match=r"action\.kind: expected one of"):
        fh.from_dict(
            {"format_version": 1, "type": "action", "action": {"kind": "x"}}, cls=fh.Action
        )


def test_a_partner_seat_given_as_a_bool_is_refused_P5() -> None:
    """``CallPartner(seat=False)`` is not seat 0: the action refuses it when built."""
    with pytest.raises(TypeError, match="seat number"):
        fh.CallPartner(seat=cast(int, False))


def test_numbers_too_large_to_print_are_named_without_printing_them() -> None:
    """Python refuses to print an int of over 4,300 digits; the messages never try."""
    big = 10**5000
    with pytest.raises(fh.InvalidStateError, match="a very large number is not supported"):
        fh.from_dict({"format_version": big, "type": "game_state"})
    with pytest.raises(fh.InvalidStateError, match="target=a very large number is out of range"):
        rules_from_options({"target": big})
    doc = fh.to_dict(default_game(2))
    doc["snapshot"]["to_act"] = big
    assert (
        "snapshot.to_act: a very large number is too large: whole numbers lie within "
        "±(2**53 - 1)" in problems_of(doc)
    )


def test_overlong_lists_are_refused_before_they_are_read() -> None:
    doc = fh.to_dict(default_game(2))
    doc["record"]["hands"][0]["actions"] = ["pass"] * (MAX_LIST + 1)
    assert (
        f"record.hands[0].actions: the list is too long: {MAX_LIST + 1} items, at most "
        f"{MAX_LIST}" in problems_of(doc)
    )


def test_each_kind_of_form_problem_is_named() -> None:
    doc = fh.to_dict(default_game(30))
    snap = doc["snapshot"]
    snap["contract"] = "7Z"
    snap["sitting_out"] = "none"
    if snap["last_hand"] is None:
        snap["last_hand"] = {"number": 1}
    problems = problems_of(doc)
    assert 'snapshot.contract: "7Z" is not a call (write 7H, 7NT, pass, M, OM or BM)' in problems
    assert 'snapshot.sitting_out: expected a list, found "none"' in problems
    assert "snapshot.last_hand.partner: missing" in problems
    assert "snapshot.last_hand.dealer: missing" in problems


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("seat", -1, "view.seat: -1 is not a seat (0 to 3)"),
        ("seat", 7, "view.seat: 7 is not a seat (0 to 3)"),
        ("dealer", -1, "view.dealer: -1 is not a seat (0 to 3)"),
        ("to_act", 9, "view.to_act: 9 is not a seat (0 to 3)"),
        ("contractor", 4, "view.contractor: 4 is not a seat (0 to 3)"),
        ("passed", [5], "view.passed: 5 is not a seat (0 to 3)"),
        ("hand_number", -1, "view.hand_number: -1 is not a hand's number"),
        ("hand", ["AS", "AS", "KS"], "view.hand: AS is there more than once"),
        ("hand", ["2C", "KS"], "view.hand: 2C is not a card of this deck"),
        ("hand_sizes", [-1, 10, 10, 10], "view.hand_sizes[0]: -1 is not a number of cards"),
        ("hand_sizes", [10, 10], "view.hand_sizes: 4 entries are needed, not 2"),
        ("scores", [5], "view.scores: 2 entries are needed, not 1"),
        ("tricks_won", [0, 0, 0], "view.tricks_won: 2 entries are needed, not 3"),
    ],
)
def test_a_view_is_checked_on_its_own(field: str, value: object, problem: str) -> None:
    """Seats are whole numbers from 0 (docs/json-format.md), lists have their lengths, and a
    place of cards holds cards of the deck once each: what a view can be checked for alone."""
    doc = fh.to_dict(fh.observe(fh.deal(fh.new_game(dealer=3), seed=7), 1))
    doc["view"][field] = value
    with pytest.raises(fh.InvalidStateError) as caught:
        fh.from_dict(doc, cls=fh.PlayerView)
    assert problem in caught.value.problems


def test_view_and_action_documents_name_their_form_problems() -> None:
    view = fh.to_dict(fh.observe(default_game(3), 0))
    view["view"]["rules"] = []
    with pytest.raises(fh.InvalidStateError, match=r"view\.rules: expected an object of rule"):
        fh.from_dict(view, cls=fh.PlayerView)
    envelope: dict[str, Any] = {"format_version": 1, "type": "action"}
    cases = [
        ([], "action: expected an object, found a list"),
        ({"kind": "play", "card": "KS", "suit": None, "x": 1}, "action: unknown key x"),
        ({"kind": "play", "card": "XX", "suit": None}, 'action.card: "XX" is not a card'),
        ({"kind": "discard", "cards": ["6S", "5S", "7S"]}, "write the cards in card order"),
    ]
    for action, problem in cases:
        with pytest.raises(fh.InvalidStateError) as caught:
            fh.from_dict({**envelope, "action": action}, cls=fh.Action)
        assert any(problem in p for p in caught.value.problems), caught.value.problems


def test_long_byte_strings_are_refused_before_decoding(monkeypatch: pytest.MonkeyPatch) -> None:
    from fivehundred._engine import convert as _convert  # the converters read the limit

    monkeypatch.setattr(_convert, "MAX_JSON_SIZE", 10)
    with pytest.raises(fh.InvalidStateError, match="the JSON text is too long: 41 bytes"):
        fh.from_json(b" " * 41)
