"""Canonical and consistent (issue 11): one document per state, unknown keys refused,
one meaning of ``seat``, notation that reads back, and the error policy (bad data:
library errors; wrong Python types: ``TypeError``, never ``AttributeError``)."""

from __future__ import annotations

import contextlib
import enum
import inspect
import itertools
import json
import random
from collections.abc import Callable
from typing import Any, Final

import pytest
from hypothesis import given, settings

import fivehundred as fh
from fivehundred.records import rules_from_options, rules_options
from fivehundred.rules import Ladder
from rules_strategy import states


def _action_doc(**fields: object) -> dict[str, Any]:
    return {"format_version": 1, "type": "action", "action": fields}


@pytest.mark.parametrize("key", ["type", "format_version", "seat", "extra"])
def test_unknown_keys_inside_an_action_object_are_refused(key: str) -> None:
    with pytest.raises(fh.InvalidStateError, match=f"unknown key {key}"):
        fh.from_dict(_action_doc(kind="call", call="7H", **{key: 1}), cls=fh.Action)
    with pytest.raises(fh.InvalidStateError, match=r"action\.call: missing"):
        fh.from_dict(_action_doc(kind="call"), cls=fh.Action)


def test_a_record_with_a_null_first_dealer_and_dealt_hands_is_refused_R2_1() -> None:
    state = fh.deal(fh.new_game(), seed=3)
    doc = fh.to_dict(state)
    assert doc["record"]["dealer"] == state.dealer
    doc["record"]["dealer"] = None
    with pytest.raises(fh.InvalidStateError, match=f"write {state.dealer}"):
        fh.from_dict(doc)


SEATS: Final = [True, False, 1.0, 1 + 0j, -1, 99, "1", None, fh.ANY_SEAT, 1, 2]


@pytest.mark.parametrize("seat", SEATS, ids=repr)
def test_apply_is_legal_and_check_action_agree_on_every_seat_R3_1(seat: object) -> None:
    state = fh.deal(fh.new_game(dealer=0), seed=5)
    assert state.to_act == 1
    legal = fh.is_legal(state, fh.PASS, seat=seat)  # type: ignore[arg-type]  # on purpose
    try:
        fh.check_action(state, fh.PASS, seat=seat)  # type: ignore[arg-type]  # on purpose
        checked = True
    except fh.IllegalActionError as err:
        assert err.reason is fh.Reason.NOT_YOUR_TURN
        checked = False
    try:
        fh.apply(state, fh.PASS, seat=seat)  # type: ignore[arg-type]  # on purpose
        applied = True
    except fh.IllegalActionError as err:
        assert err.reason is fh.Reason.NOT_YOUR_TURN
        applied = False
    assert legal == checked == applied
    assert legal == (seat is fh.ANY_SEAT or (type(seat) is int and seat == 1))  # None: no seat


@settings(max_examples=60, deadline=None)
@given(states(max_steps=120))
def test_parse_action_reads_every_action_format_action_writes(state: fh.GameState) -> None:
    for action in fh.legal_actions(state):
        text = fh.format_action(action)
        assert fh.parse_action(text, phase=state.phase) == action
        try:
            guessed = fh.parse_action(text)
        except fh.NotationError as err:  # only a bid and a card play look alike
            assert "give the phase" in str(err)
        else:
            assert guessed == action
        assert fh.format_action(fh.parse_action(text, phase=state.phase)) == text


def test_the_issue_round_trip_reads_back_with_the_phase() -> None:
    play = fh.parse_action("TH")
    assert play == fh.Play(fh.parse_card("10H"))
    assert fh.parse_action(fh.format_action(play), phase=fh.Phase.PLAY) == play


# -- wrong Python types --------------------------------------------------------------

JUNK: Final = [None, "x", 1.5, True, object(), [], {}, -1, b"x", (1,), 1 + 0j]


def _good() -> dict[str, object]:
    state = fh.deal(fh.new_game(dealer=0), seed=1)
    return {
        "state": state,
        "call": fh.parse_call("7H"),
        "card": fh.parse_card("AS"),
        "cards": fh.parse_cards("AS KS"),
        "contract": fh.parse_call("7H"),
        "rules": fh.Rules(),
        "text": "7H",
        "game": fh.record(state),
        "action": fh.PASS,
        "seat": 1,
        "obj": state,
        "data": fh.to_dict(state),
        "options": {},
        "tricks": (4, 6),
        "contractor": 0,
        "index": 0,
        "contracting": (0,),
        "made": True,
        "scores": (0, 0),
        "view": fh.observe(state, 1),
        "rng": random.Random(0),
        "pending": (),
    }


def _public_functions() -> list[tuple[str, Callable[..., object]]]:
    found: list[tuple[str, Callable[..., object]]] = []
    for name in sorted(fh.__all__):
        obj = getattr(fh, name)
        if inspect.isfunction(obj) or inspect.isbuiltin(obj):
            found.append((name, obj))
    return found


def _call(function: Callable[..., object], *args: object, **kwargs: object) -> None:
    """Call with junk: only a library error may come out (a plain TypeError fails the test)."""
    with contextlib.suppress(fh.FiveHundredError):
        function(*args, **kwargs)


@pytest.mark.parametrize(("name", "function"), _public_functions(), ids=lambda v: str(v)[:30])
def test_public_functions_answer_wrong_types_with_type_error_or_a_library_error(
    name: str, function: Callable[..., object]
) -> None:
    """Every argument, alone and in pairs, replaced by junk: never AttributeError & co."""
    good = _good()
    try:
        signature = inspect.signature(function)
    except ValueError:  # a compiled function may carry no signature: junk in 1 to 3 places
        for count in (1, 2, 3):
            for args in itertools.product(JUNK, repeat=count):
                _call(function, *args)
        return
    params = [
        p for p in signature.parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    required = [p for p in params if p.default is p.empty]
    base = {p.name: good[p.name] for p in required}
    calls = 0
    rest = [good[p.name] for p in required[2:]]  # junk in the first two, good values after
    for pair in itertools.product(JUNK, repeat=min(len(required), 2)):
        _call(function, *pair, *rest)
        calls += 1
    for p in params:
        for junk in JUNK:
            _call(function, **{**base, p.name: junk})
            calls += 1
    assert calls >= len(JUNK), name


def test_the_examples_of_the_errors_page_raise_type_error() -> None:
    cases: list[tuple[Callable[..., object], tuple[object, ...]]] = [
        (fh.observe, (None, 0)),
        (fh.to_json, (None,)),
        (fh.legal_actions, ("x",)),
        (fh.score_hand, ("x", 0, (5, 5))),
        (fh.record, (None,)),
        (fh.bid_value, (None,)),
        (rules_options, (None,)),
        (fh.effective_suit, (None, None)),
    ]
    for function, args in cases:
        with pytest.raises(TypeError) as caught:
            function(*args)
        assert isinstance(caught.value, fh.FiveHundredTypeError)
        assert isinstance(caught.value, fh.FiveHundredError)
    with pytest.raises(fh.FiveHundredError, match="a trick has 1 to 6 cards"):
        fh.trick_winner([], None)
    assert json.loads(fh.to_json(fh.Rules()))["type"] == "rules"


#: The public constructors a user calls with values of their own.
CONSTRUCTORS: Final[dict[str, Callable[..., object]]] = {
    "Card": fh.Card,
    "Call": fh.Call,
    "Call.bid": fh.Call.bid,
    "Play": fh.Play,
    "Discard": fh.Discard,
    "Nominate": fh.Nominate,
    "CallPartner": fh.CallPartner,
    "Ladder": Ladder,
}


@pytest.mark.parametrize("name", sorted(CONSTRUCTORS))
def test_constructors_answer_junk_with_a_library_error(name: str) -> None:
    """Junk in every required place: a FiveHundredError, never a bare built-in error."""
    build = CONSTRUCTORS[name]
    required = [
        p
        for p in inspect.signature(build).parameters.values()
        if p.default is p.empty and p.kind is p.POSITIONAL_OR_KEYWORD
    ]
    refused = 0
    for args in itertools.product(JUNK, repeat=len(required)):
        try:
            build(*args)
        except fh.FiveHundredError:
            refused += 1
    assert refused > 0, name


@pytest.mark.parametrize(
    ("build", "builtin"),
    [
        (lambda: fh.Rules(players=9), ValueError),
        (lambda: fh.Rules(players="4"), TypeError),  # type: ignore[arg-type]  # junk on purpose
        (lambda: fh.Call.bid(11, fh.Strain.SPADES), ValueError),
        (lambda: fh.Call.bid(7, "S"), TypeError),  # type: ignore[arg-type]  # junk on purpose
        (lambda: fh.Card(fh.Rank.ACE, 9), ValueError),  # type: ignore[arg-type]  # junk on purpose
        (lambda: fh.Play("AS"), TypeError),  # type: ignore[arg-type]  # junk on purpose
        (lambda: fh.Discard(3), TypeError),  # type: ignore[arg-type]  # junk on purpose
    ],
)
def test_every_library_error_is_also_the_builtin_error_expected(
    build: Callable[[], object], builtin: type[Exception]
) -> None:
    with pytest.raises(fh.FiveHundredError) as caught:
        build()
    assert isinstance(caught.value, builtin)
    assert isinstance(caught.value, ValueError)  # every library error is one
    assert (builtin is TypeError) == isinstance(caught.value, fh.FiveHundredTypeError)
    assert caught.value.problems == (str(caught.value),)


def test_rule_problems_are_data_not_text() -> None:
    with pytest.raises(fh.FiveHundredError) as caught:
        fh.Rules(target=0, losing_score=5)
    assert len(caught.value.problems) == 2
    assert str(caught.value) == "; ".join(caught.value.problems)
    with pytest.raises(fh.InvalidStateError) as loaded:
        rules_from_options({"target": 0, "losing_score": 5})
    assert loaded.value.problems == tuple(f"rules: {p}" for p in caught.value.problems)


@pytest.mark.parametrize(
    "enum_type", [fh.Suit, fh.Rank, fh.Strain, fh.CallKind, fh.Phase, fh.Reason, fh.Outcome]
)
def test_enum_lookups_answer_with_the_library_errors(enum_type: type[enum.Enum]) -> None:
    """A value no member has is a FiveHundredError; a value of another type, its TypeError."""
    members = list(enum_type)
    kind = type(members[0].value)
    missing: object = 99 if kind is int else "no such value"
    with pytest.raises(fh.FiveHundredError, match="is not a value of") as caught:
        enum_type(missing)
    assert isinstance(caught.value, ValueError)
    assert not isinstance(caught.value, fh.FiveHundredTypeError)
    wrong: object = "no such value" if kind is int else 99
    with pytest.raises(fh.FiveHundredTypeError) as wrong_type:
        enum_type(wrong)
    assert isinstance(wrong_type.value, (TypeError, ValueError))
    assert all(enum_type(m.value) is m for m in members)  # the members are still found
